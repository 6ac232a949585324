"""The measure tool, as a user measures a link: R, click one frame, click another, read the
distance (and the angle between the frames); surface points too; Esc clears; nothing is an
edit. The tool keys belong to the viewport: an R typed into a panel is text, not a tool."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.arm import arm_window
from helpers.gui import key, pixel
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


@pytest.fixture
def win(make_window, qtbot):
    w = arm_window(make_window, [0.3, -0.5])
    vp = w.viewport
    key(qtbot, w, Qt.Key.Key_R)
    assert vp.tool == "measure" and w.tool_actions["measure"].isChecked()
    return w


def test_two_frames_give_the_link_length_and_the_angle_between_them(win):
    vp, doc = win.viewport, win.doc
    messages = []
    doc.message.connect(messages.append)
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, [0, 0, 0]))  # upper's frame (on the base's)
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, doc.pose_of("fore")[:3, 3]))  # tool's frame (on fore's)
    a, b = vp.measure.marks
    assert (a.body, b.body) == ("upper", "tool")
    r = vp.measure.result
    assert abs(r.distance - 0.6) < 1e-12
    assert abs(r.angle - 0.5) < 1e-12 and r.axis_angle < 1e-7  # turned by q2 about parallel z axes
    assert "600.0 mm" in messages[-1] and "rotation 28.65°" in messages[-1]
    assert vp.measure.reading.texts == ["600.0 mm"] and vp.measure.line.visible()
    assert doc.undo_stack.count() == 0 and doc.selection is None  # measuring is not an edit


def test_two_surface_points(win):
    vp = win.viewport
    T = win.doc.pose_of("upper")
    p1, p2 = (T[:3, :3] @ [x, 0, 0.04] + T[:3, 3] for x in (0.15, 0.45))  # on the top of upper's box
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, p1))
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, p2))
    a, b = vp.measure.marks
    assert a.pose is None and b.pose is None and a.body == b.body == "upper"
    assert abs(vp.measure.result.distance - np.linalg.norm(b.point - a.point)) < 1e-12
    assert abs(vp.measure.result.distance - 0.3) < 0.01  # a pixel's worth of the 0.3 m apart
    assert vp.measure.result.angle is None
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    assert vp.measure.marks == [] and not vp.measure.line.visible()


def test_a_third_click_starts_again(win):
    vp = win.viewport
    for p in ([0, 0, 0], win.doc.pose_of("fore")[:3, 3], [0, 0, 0]):
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, p))
    assert len(vp.measure.marks) == 1 and vp.measure.result is None


def test_an_r_typed_in_a_dh_cell_is_text_not_the_measure_tool(make_window, qtbot):
    w = make_window()
    w.doc.open("two_link_planar")
    key(qtbot, w, Qt.Key.Key_Q)
    table = w.dh.view
    table.setCurrentIndex(w.dh.model.index(0, 0))
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    QTest.keyClick(table, Qt.Key.Key_R)
    assert w.viewport.tool == "pose"
    assert math.isfinite(w.doc.configuration[0])
