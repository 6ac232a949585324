"""See what you build: Fit frames the robot in any window shape, front/side/top are drawn
orthographic (5 toggles), the grid's spacing follows the zoom and is labelled, the world axes
carry x/y/z, and Fit selection frames the selected subtree."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.app.viewport.camera import length_text, nice_step
from kinetree.app.viewport.view import RobotViewport
from kinetree.core import RigidBody
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


@pytest.mark.parametrize("size", [(1280, 188), (300, 900), (800, 600)])
def test_fit_puts_every_origin_and_visual_inside_any_view_shape(window, qtbot, size):
    window.doc.open("puma560")
    window.doc.set_configuration(np.array([0.3, -0.8, 0.6, 0.2, 1.0, 0.0]))
    vp = RobotViewport(window.doc)
    qtbot.addWidget(vp)
    vp.resize(*size)
    vp.show()
    qtbot.waitExposed(vp)
    vp.fit()
    pts = np.vstack([np.zeros((1, 3)), vp._poses[:, :3, 3]])
    px = vp.project(pts)
    assert (px[:, 0] > 0).all() and (px[:, 0] < size[0]).all(), px
    assert (px[:, 1] > 0).all() and (px[:, 1] < size[1]).all(), px
    # and not lost in the middle: the robot spans at least a third of the narrower side
    span = np.ptp(px, axis=0)
    assert max(span[0] / size[0], span[1] / size[1]) > 0.33


def test_front_view_is_orthographic_and_5_toggles(window, qtbot):
    window.doc.open("puma560")
    vp = window.viewport
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(vp, Qt.Key.Key_1)  # front view
    assert vp.camera.ortho and window.findChild(type(window.menuBar().actions()[0]), "orthoAction").isChecked()
    # a line along the view direction (x, for the front view) projects to one point
    a, b = vp.project(np.array([[-1.0, 0.2, 0.3], [1.0, 0.2, 0.3]]))
    assert np.allclose(a, b, atol=0.5)
    QTest.keyClick(vp, Qt.Key.Key_5)
    assert not vp.camera.ortho
    a, b = vp.project(np.array([[-1.0, 0.2, 0.3], [1.0, 0.2, 0.3]]))
    assert np.linalg.norm(a - b) > 5  # perspective again
    QTest.keyClick(vp, Qt.Key.Key_0)  # iso: perspective
    assert not vp.camera.ortho


def test_grid_spacing_follows_the_zoom_and_is_labelled(window, qtbot):
    window.resize(1280, 800)
    window.doc.open("puma560")
    vp = window.viewport
    label = vp.camera.grid_label
    vp.setCameraPosition(distance=4.0)
    vp.grabFramebuffer()  # a frame drawn: the grid follows the view as it is drawn
    far, far_text = vp.camera.grid_step, label.text()
    vp.setCameraPosition(distance=0.2)
    vp.grabFramebuffer()
    near = vp.camera.grid_step
    assert near < far and label.text() != far_text and label.isVisible()
    assert label.text() == f"grid {length_text(near)}"
    assert vp.camera.letters.texts == ["x", "y", "z"]


def test_fit_selection_frames_the_selected_subtree(window, qtbot):
    window.doc.open("puma560")
    vp = window.viewport
    vp.fit()
    whole = vp.opts["distance"]
    window.doc.select("link6")
    vp.fit(selection=True)
    assert vp.opts["distance"] < whole / 2
    centre = np.array([vp.opts["center"].x(), vp.opts["center"].y(), vp.opts["center"].z()])
    assert np.linalg.norm(centre - window.doc.pose_of("link6")[:3, 3]) < 0.1


def test_nice_steps_and_their_names():
    assert [nice_step(x) for x in (0.013, 0.04, 0.07, 0.3, 3.3)] == [0.01, 0.05, 0.05, 0.2, 5.0]
    assert [length_text(x) for x in (0.002, 0.01, 0.5, 2.0)] == ["2 mm", "1 cm", "50 cm", "2 m"]


def test_a_view_preset_keeps_the_work_followed_and_an_orbit_stops_it(window, qtbot):
    """Numpad 7 (top) chooses a direction, not a framing: a body moved far off next is still
    brought into view; an orbit by hand ends the following, as before."""
    window.doc.open("two_link_planar")
    vp = window.viewport
    vp.fit()
    vp.set_view("top")
    assert not vp.camera.moved_since_fit()
    distance = vp.opts["distance"]
    far = RigidBody("far")
    far.joint.set_fixed_transform(np.array([[1, 0, 0, 25.0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]))
    window.doc.edit("Add far", lambda t: t.add_body(far, t.body_names[-1]))
    assert vp.opts["distance"] > 3 * distance  # refit to reach the body added 25 m off
    vp.setCameraPosition(azimuth=vp.opts["azimuth"] + 30)  # the user orbits
    assert vp.camera.moved_since_fit()
