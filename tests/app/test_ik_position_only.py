"""The IK handle on chains that cannot hold an orientation, and the position-only toggle in the
viewport's tool bar (issue 18, item 7: what a new user hit)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui import pixel
from helpers.gui import qtest_drag as drag
from kinetree.core import DHLink, dh_chain
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QVector3D


@pytest.fixture
def planar3(make_window):
    """A three-joint planar arm (z axes up), seen from above."""
    w = make_window()
    w.resize(1280, 800)
    tree = dh_chain([DHLink("R", a=0.4, qlim=(-3, 3)), DHLink("R", a=0.3, qlim=(-3, 3)),
                     DHLink("R", a=0.2, qlim=(-3, 3))])
    w.doc.load(tree, np.array([0.3, 0.6, 0.5]))
    vp = w.viewport
    vp.setCameraPosition(pos=QVector3D(0.3, 0.3, 0), distance=2.0, elevation=90, azimuth=-90)
    vp.repaint()
    return w


def test_dragging_the_handle_of_a_three_joint_arm_moves_its_end_effector_with_the_mouse(planar3):
    vp, doc = planar3.viewport, planar3.doc
    ee = doc.tree.end_effector
    p0 = doc.tree.get_transform(doc.configuration, ee)[:3, 3]
    h = vp.ik_handle
    start = pixel(vp, p0)
    assert h.pick(start.x(), start.y()) == ("centre", -1)
    # to (0.8, 0.3): within reach (0.85 m of 0.9), but not with the gripper turned as it is
    # (its wrist would be 0.77 m out, beyond the first two links' 0.7 m)
    end = pixel(vp, [0.8, 0.3, 0.0])
    drag(vp, start, end, steps=10)
    p1 = doc.tree.get_transform(doc.configuration, ee)[:3, 3]
    assert np.linalg.norm(p1 - p0) > 0.03  # it moved ...
    x, y = vp.project(p1[None])[0]
    assert abs(x - end.x()) <= 1.5 and abs(y - end.y()) <= 1.5  # ... to where the mouse let go
    assert abs(p1[2]) < 1e-9 and h.reached and h.last_result.success
    assert doc.undo_stack.count() == 1
    assert not h.rings.visible()  # no rings to turn it: it cannot hold an orientation


def test_position_only_toggle_in_the_viewport_tool_bar_and_the_view_menu(puma_bent_window, qtbot):
    w = puma_bent_window
    vp = w.viewport
    h = vp.ik_handle
    action = w.findChild(QAction, "ikPositionOnlyAction")
    view_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&View")
    assert action in view_menu.actions()
    bar = vp.toolbar
    assert bar.parent() is vp and bar.isVisible() and bar.geometry().left() < 20 and bar.geometry().top() < 20
    assert h.rings.visible() and not action.isChecked()  # a six-axis arm holds its orientation
    button = bar.widgetForAction(action)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert action.isChecked() and h.position_only and not h.rings.visible()
    ee = w.doc.tree.end_effector
    T0 = w.doc.tree.get_transform(w.doc.configuration, ee)
    start = pixel(vp, T0[:3, 3])
    end = start + QPoint(25, 15)
    drag(vp, start, end)
    p1 = w.doc.tree.get_transform(w.doc.configuration, ee)[:3, 3]
    x, y = vp.project(p1[None])[0]
    assert abs(x - end.x()) <= 1.5 and abs(y - end.y()) <= 1.5 and h.reached
    assert w.doc.undo_stack.count() == 1
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert not action.isChecked() and h.rings.visible()
