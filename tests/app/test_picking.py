"""Picking in the viewport, as a user clicks: a body's geometry, its frame or its label selects
it, the nearest surface along the ray wins, empty space and Esc clear, the body under the cursor
is lit, and coinciding frames are reached by clicking again."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.arm import arm, arm_window, box, translated
from helpers.gui import LEFT, NONE, image_array, pixel
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest


@pytest.fixture
def win(make_window):
    return arm_window(make_window)


def click(vp, p: QPoint) -> None:
    QTest.mouseClick(vp, LEFT, NONE, p)


def test_a_click_on_a_bodys_geometry_selects_it(win):
    vp, doc = win.viewport, win.doc
    click(vp, pixel(vp, [0.3, 0, 0]))  # the middle of upper's box, far from any frame origin
    assert doc.selection == "upper"
    click(vp, pixel(vp, [0.85, 0, 0]))  # fore's box
    assert doc.selection == "fore"
    assert win.bodies.view.currentIndex().data() == "fore"  # the Bodies panel follows


def test_a_click_on_empty_space_or_esc_clears_the_selection(win):
    vp, doc = win.viewport, win.doc
    click(vp, pixel(vp, [0.3, 0, 0]))
    assert doc.selection == "upper"
    click(vp, QPoint(8, vp.height() - 8))  # a corner: nothing drawn
    assert doc.selection is None
    click(vp, pixel(vp, [0.3, 0, 0]))
    vp.setFocus()
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    assert doc.selection is None


def test_the_surface_nearest_the_camera_wins(win):
    vp, doc = win.viewport, win.doc
    # a box on the base placed between the camera and the middle of upper's box
    eye = np.array(vp.cameraPosition())
    target = np.array([0.3, 0.0, 0.0])
    between = target + 0.4 * (eye - target)
    tree = doc.tree.copy()
    tree.base.visuals = (box((0.05, 0.05, 0.05), between, (0.2, 0.8, 0.2, 1.0)),)
    doc.load(tree)
    vp.setCameraPosition(distance=2.5, elevation=30, azimuth=-70)
    vp.repaint()
    click(vp, pixel(vp, target))
    assert doc.selection == doc.tree.base_name  # the small box in front, not upper behind it
    vp.picker._last_click = None
    click(vp, pixel(vp, [0.1, 0, 0]))  # beside it: upper
    assert doc.selection == "upper"


def test_clicking_again_on_coinciding_frames_reaches_each(win):
    vp, doc = win.viewport, win.doc
    at = pixel(vp, [0.6, 0, 0])  # fore's and tool's origins (upper's box ends there too)
    picked = []
    for _ in range(3):
        click(vp, at)
        picked.append(doc.selection)
    assert {"fore", "tool"} <= set(picked[:2]) and picked[2] == picked[0]


def test_a_click_on_a_label_selects_its_body(win):
    vp, doc = win.viewport, win.doc
    tree = arm()
    tree.get_body("upper").joint.set_fixed_transform(translated(z=0.3))  # upper's label apart from the base's
    doc.load(tree)
    vp.set_all_labels(True)
    vp.grabFramebuffer()  # a frame drawn, its labels with it
    rect = next(r for r, i in vp.labels.drawn_bodies if i == [1])  # upper's label
    at = rect.center().toPoint() + QPoint(int(rect.width() / 4), 0)
    assert vp.picker.frames_at(at.x(), at.y()) == [1]  # the label, not the frame origin
    click(vp, at)
    assert doc.selection == "upper"


def test_the_body_under_the_cursor_is_lit(win):
    vp = win.viewport
    p = pixel(vp, [0.3, 0, 0])
    QTest.mouseMove(vp, QPoint(8, vp.height() - 8))  # the cursor left where an earlier test had it: nothing lit
    assert vp._hovered is None
    vp.repaint()
    before = image_array(vp.grabFramebuffer())[p.y() - 2:p.y() + 3, p.x() - 2:p.x() + 3].mean(axis=(0, 1))
    QTest.mouseMove(vp, p)
    assert vp._hovered == 1
    vp.repaint()
    after = image_array(vp.grabFramebuffer())[p.y() - 2:p.y() + 3, p.x() - 2:p.x() + 3].mean(axis=(0, 1))
    assert after.sum() > before.sum() + 30, (before, after)
    QTest.mouseMove(vp, QPoint(8, vp.height() - 8))
    assert vp._hovered is None


def test_picking_follows_the_pose(win):
    vp, doc = win.viewport, win.doc
    doc.set_configuration(np.array([np.pi / 2, 0.0]))
    vp.repaint()
    click(vp, pixel(vp, [0.0, 0.3, 0.0]))  # upper's box now lies along y
    assert doc.selection == "upper"
    click(vp, QPoint(8, vp.height() - 8))
    click(vp, pixel(vp, [0.3, 0.0, 0.0]))  # where it was: nothing
    assert doc.selection is None


def test_shift_click_on_a_bodys_surface_adds_a_child_there(win):
    vp, doc = win.viewport, win.doc
    T = doc.pose_of("upper")
    point = T[:3, :3] @ [0.45, 0, 0.04] + T[:3, 3]  # on the top face of upper's box
    QTest.mouseClick(vp, LEFT, Qt.KeyboardModifier.ShiftModifier, pixel(vp, point))
    (new,) = set(doc.tree.body_names) - {"upper", "fore", "tool"}
    assert doc.tree.parent_name(new) == "upper" and doc.selection == new
    at = doc.tree.get_body(new).joint.joint_to_parent_transform[:3, 3]
    assert abs(at[2] - 0.04) < 1e-9 and abs(at[0] - 0.45) < 0.01 and abs(at[1]) < 0.01  # where clicked
    link = [v for v in doc.tree.get_body("upper").visuals if v.kind == "cylinder"]
    assert len(link) == 1 and abs(link[0].size[1] - np.linalg.norm(at)) < 1e-12
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert new not in doc.tree.body_names and len(doc.tree.get_body("upper").visuals) == 1
