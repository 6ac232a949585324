"""A visual moved, turned and scaled with the W/E handles: pick the body in the viewport, click
the visual in the Joint panel's list, press W or E, drag the handle at its screen point, then
read the engine's visual (and that the joint did not move)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.gui import LEFT, NONE, along, drag, key, pixel
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

CTRL = Qt.KeyboardModifier.ControlModifier


def pick_visual(window, row: int = 0) -> None:
    """Click row ``row`` of the Joint panel's visuals list, as a user does."""
    lst = window.joint.visual_list
    rect = lst.visualItemRect(lst.item(row))
    QTest.mouseClick(lst.viewport(), LEFT, NONE, rect.center())


def fore_visual(doc):
    return doc.tree.get_body("fore").visuals[0]


@pytest.fixture
def picked(fore_window, qtbot):
    pick_visual(fore_window)
    assert fore_window.doc.selected_visual == 0
    return fore_window


def test_w_on_a_picked_visual_moves_it_not_the_frame_in_one_undo_step(picked, qtbot):
    vp, doc = picked.viewport, picked.doc
    key(qtbot, picked, Qt.Key.Key_W)
    h = vp.frame_handle
    B, V0 = doc.pose_of("fore"), fore_visual(doc).matrix
    assert np.allclose(h.pose, B @ V0)  # the handle sits on the visual
    jtp = doc.tree.get_body("fore").joint.joint_to_parent_transform
    start, end = along(vp, h.pose[:3, 3], h.pose[:3, 1], 40)  # its y arrow
    drag(vp, start, end)
    V1 = fore_visual(doc).matrix
    moved = V1[:3, 3] - V0[:3, 3]
    assert abs(moved[1]) > 0.015 and abs(moved[1] / 0.01 - round(moved[1] / 0.01)) < 1e-9
    assert np.allclose(moved[[0, 2]], 0) and np.allclose(V1[:3, :3], V0[:3, :3])
    assert np.array_equal(doc.tree.get_body("fore").joint.joint_to_parent_transform, jtp)
    assert np.allclose(doc.pose_of("fore"), B)
    assert doc.undo_stack.count() == 1
    key(qtbot, picked, Qt.Key.Key_Z, CTRL)
    assert np.allclose(fore_visual(doc).matrix, V0)


def test_e_on_a_picked_visual_turns_it_in_15_degree_steps(picked, qtbot):
    vp, doc = picked.viewport, picked.doc
    key(qtbot, picked, Qt.Key.Key_E)
    h = vp.frame_handle
    V0 = fore_visual(doc).matrix
    px = vp.project(h._ring(2))  # about the visual's z, from the ring's lowest point, sideways
    i = int(np.argmax(px[:, 1]))
    start = QPoint(int(round(px[i, 0])), int(round(px[i, 1])))
    assert h.pick(start.x(), start.y()) == ("ring", 2)
    drag(vp, start, start + QPoint(60, 0))
    R = V0[:3, :3].T @ fore_visual(doc).matrix[:3, :3]
    turned = math.degrees(math.atan2(R[1, 0], R[0, 0]))
    assert abs(turned) >= 14.9 and abs(turned / 15 - round(turned / 15)) < 1e-9
    assert np.allclose(fore_visual(doc).matrix[:3, 3], V0[:3, 3])  # turned about its own origin
    assert doc.undo_stack.count() == 1


def test_the_square_beyond_an_arrow_scales_the_visual_along_that_axis(picked, qtbot):
    vp, doc = picked.viewport, picked.doc
    key(qtbot, picked, Qt.Key.Key_W)
    h = vp.frame_handle
    size0 = fore_visual(doc).size
    tips = h._tips()
    start = pixel(vp, tips[0])
    assert h.pick(start.x(), start.y()) == ("scale", 0)
    a, b = vp.project(np.array([h.pose[:3, 3], tips[0]]))
    u = (b - a) / np.linalg.norm(b - a)
    drag(vp, start, start + QPoint(int(round(40 * u[0])), int(round(40 * u[1]))))
    size1 = fore_visual(doc).size
    factor = size1[0] / size0[0]
    assert factor > 1.1 and abs(factor / 0.05 - round(factor / 0.05)) < 1e-9
    assert size1[1:] == size0[1:]
    assert doc.undo_stack.count() == 1


def test_esc_during_a_visual_drag_puts_it_back(picked, qtbot):
    vp, doc = picked.viewport, picked.doc
    key(qtbot, picked, Qt.Key.Key_W)
    h = vp.frame_handle
    V0 = fore_visual(doc).matrix
    start, end = along(vp, h.pose[:3, 3], h.pose[:3, 1], 40)
    drag(vp, start, end, release=False)
    assert not np.allclose(fore_visual(doc).matrix, V0)
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert np.allclose(fore_visual(doc).matrix, V0) and doc.undo_stack.count() == 0


def test_clicking_the_body_again_gives_the_handle_back_to_its_frame(picked, qtbot):
    vp, doc = picked.viewport, picked.doc
    key(qtbot, picked, Qt.Key.Key_W)
    assert picked.joint.visual_list.selectedItems()  # the row shows what the handle acts on
    fore = doc.pose_of("fore")
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, fore[:3, :3] @ [0.3, 0, 0] + fore[:3, 3]))
    assert doc.selection == "fore" and doc.selected_visual is None
    assert np.allclose(vp.frame_handle.pose, fore)
    assert not picked.joint.visual_list.selectedItems()
