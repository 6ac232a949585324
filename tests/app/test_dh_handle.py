"""The W/E handles on a DH-defined body (its four DH motions), a typed exact amount, and the
joint axis arrow: driven as a user does (select, key, drag at the projected point, type), then
the engine's DH row / joint read back."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.gui import LEFT, NONE, arrow_drag, drag, key, pixel, ring_start, row
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

CTRL = Qt.KeyboardModifier.ControlModifier


def dh_cell(window, body: str, column: int) -> str:
    m = window.dh.model
    r = next(i for i, e in enumerate(m.entries) if e.body == body)
    return m.data(m.index(r, column), Qt.ItemDataRole.EditRole)


def test_w_on_a_dh_body_drags_a_along_x_in_10mm_steps_and_the_dh_table_follows(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    h = vp.frame_handle
    assert set(h.parts) == {"a", "alpha", "d", "theta"}
    assert not h.arrows.visible() and h.dh_lines.visible()  # the DH arrows, not the frame's
    a0, T0 = row(doc).a, doc.pose_of("link3")
    assert np.allclose(h.parts["a"][2], T0[:3, 0])  # along x_3, at link3's frame
    arrow_drag(vp, "a", 50)
    r = row(doc)
    grown = r.a - a0
    assert grown > 0.015 and abs(grown / 0.01 - round(grown / 0.01)) < 1e-9
    assert r.alpha == pytest.approx(-math.pi / 2) and r.convention == "dh"  # still a DH row, other cells kept
    assert float(dh_cell(puma_handle_window, "link3", 1)) == pytest.approx(r.a)
    assert np.allclose(doc.pose_of("link3")[:3, 3], T0[:3, 3] + grown * T0[:3, 0])
    assert doc.undo_stack.count() == 1
    key(qtbot, puma_handle_window, Qt.Key.Key_Z, CTRL)
    assert row(doc).a == a0


def test_e_on_a_dh_body_turns_alpha_in_15_degree_steps_one_undo_step(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    key(qtbot, puma_handle_window, Qt.Key.Key_E)
    alpha0, d0 = row(doc).alpha, row(doc).d
    start = ring_start(vp, "alpha")
    drag(vp, start, start + QPoint(70, 0))
    turned = math.degrees(row(doc).alpha - alpha0)
    assert abs(turned) > 10 and abs(turned / 15 - round(turned / 15)) < 1e-9
    assert row(doc).d == d0
    assert float(dh_cell(puma_handle_window, "link3", 2)) == pytest.approx(math.degrees(row(doc).alpha))
    assert doc.undo_stack.count() == 1
    key(qtbot, puma_handle_window, Qt.Key.Key_Z, CTRL)
    assert row(doc).alpha == alpha0


def test_d_drags_along_z_of_the_previous_frame_and_theta_edits_the_offset(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    h = vp.frame_handle
    z_prev = doc.pose_of("link2")[:3, 2]
    assert np.allclose(h.parts["d"][1], doc.pose_of("link2")[:3, 3]) and np.allclose(h.parts["d"][2], z_prev)
    d0, T0 = row(doc).d, doc.pose_of("link3")
    arrow_drag(vp, "d", 40)
    moved = row(doc).d - d0
    assert moved > 0.015 and np.allclose(doc.pose_of("link3")[:3, 3], T0[:3, 3] + moved * z_prev)
    key(qtbot, puma_handle_window, Qt.Key.Key_E)
    off0 = doc.tree.get_body("link3").joint.offset
    start = ring_start(vp, "theta")
    drag(vp, start, start + QPoint(70, 0))
    turned = math.degrees(doc.tree.get_body("link3").joint.offset - off0)
    assert abs(turned) > 10 and abs(turned / 15 - round(turned / 15)) < 1e-9
    assert doc.undo_stack.count() == 2


def test_typing_during_a_dh_drag_sets_the_amount_exactly(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    key(qtbot, puma_handle_window, Qt.Key.Key_E)
    alpha0 = row(doc).alpha
    start = ring_start(vp, "alpha")
    drag(vp, start, start + QPoint(40, 0), release=False)
    QTest.keyClicks(vp, "90deg")  # the e is text here, not the rotate tool's key
    assert vp.frame_handle.typed.text == "90deg" and vp.tool == "rotate"
    QTest.keyClick(vp, Qt.Key.Key_Return)
    QTest.mouseRelease(vp, LEFT, NONE, start + QPoint(80, 0))
    assert row(doc).alpha == pytest.approx(alpha0 + math.pi / 2, abs=1e-12)
    assert doc.undo_stack.count() == 1
    key(qtbot, puma_handle_window, Qt.Key.Key_Z, CTRL)
    assert row(doc).alpha == alpha0


def test_a_number_typed_right_after_a_drag_replaces_its_amount_in_the_same_undo_step(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    a0 = row(doc).a
    arrow_drag(vp, "a", 40)
    assert row(doc).a != a0
    QTest.keyClicks(vp, "250mm")
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert row(doc).a == pytest.approx(a0 + 0.25, abs=1e-12)
    assert doc.undo_stack.count() == 1
    QTest.keyClicks(vp, "0.1")  # still right after: amends again
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert row(doc).a == pytest.approx(a0 + 0.1, abs=1e-12) and doc.undo_stack.count() == 1
    key(qtbot, puma_handle_window, Qt.Key.Key_Z, CTRL)
    assert row(doc).a == a0


def test_typing_after_another_action_or_esc_changes_nothing(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    arrow_drag(vp, "a", 40)
    a1, link2 = row(doc).a, row(doc, "link2")
    QTest.keyClicks(vp, "0.3")
    QTest.keyClick(vp, Qt.Key.Key_Escape)  # drops the typed text, the drag stays
    assert row(doc).a == a1 and doc.selection == "link3"
    doc.select("link2")  # another action
    QTest.keyClicks(vp, "0.3")
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert row(doc).a == a1 and row(doc, "link2") == link2 and doc.undo_stack.count() == 1


def test_esc_during_a_dh_drag_puts_the_row_back(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    tree0, row0 = doc.tree, row(doc)
    end = arrow_drag(vp, "d", 40, release=False)
    assert row(doc).d != row0.d  # live
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert doc.tree is tree0 and row(doc) == row0 and doc.undo_stack.count() == 0


def test_typed_amount_on_a_plain_frame_drag(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    h = vp.frame_handle
    a, b = vp.project(np.array([T0[:3, 3], T0[:3, 3] + h.size * T0[:3, 0]]))
    start = pixel(vp, T0[:3, 3] + 0.7 * h.size * T0[:3, 0])
    drag(vp, start, start + QPoint(int(b[0] - a[0]) // 2, int(b[1] - a[1]) // 2), release=False)
    QTest.keyClicks(vp, "-0.125")
    QTest.keyClick(vp, Qt.Key.Key_Enter)
    QTest.mouseRelease(vp, LEFT, NONE, start)
    assert np.allclose(doc.pose_of("fore")[:3, 3], T0[:3, 3] - 0.125 * T0[:3, 0], atol=1e-12)
    assert doc.undo_stack.count() == 1


def test_dragging_the_joint_axis_tip_snaps_it_to_a_body_axis(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_E)
    h = vp.frame_handle
    assert h.axis_part is not None and h.dh_lines.visible()
    joint = doc.tree.get_body("fore").joint
    axis0 = joint.axis
    o, u = h.axis_part
    T = doc.pose_of("upper") @ joint.joint_to_parent_transform  # fore's frame at its joint's zero
    tip = pixel(vp, o + 1.45 * h.size * u)
    assert h.pick(tip.x(), tip.y()) == ("tip", -1)
    # towards the body's x or y, whichever the view shows longer
    k = max((0, 1), key=lambda k: np.ptp(vp.project(np.array([o, o + T[:3, k]])), axis=0) @ [1, 1])
    drag(vp, tip, pixel(vp, o + 1.45 * h.size * T[:3, k]))
    assert np.allclose(doc.tree.get_body("fore").joint.axis, np.eye(3)[k]) and not np.allclose(axis0, np.eye(3)[k])
    assert doc.undo_stack.count() == 1
    key(qtbot, fore_window, Qt.Key.Key_Z, CTRL)
    assert np.allclose(doc.tree.get_body("fore").joint.axis, axis0)


def test_ctrl_turns_the_joint_axis_freely(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    h = vp.frame_handle
    o, u = h.axis_part
    T = doc.pose_of("upper") @ doc.tree.get_body("fore").joint.joint_to_parent_transform
    tip = pixel(vp, o + 1.45 * h.size * u)
    drag(vp, tip, pixel(vp, o + 1.45 * h.size * (0.8 * u + 0.5 * T[:3, 1])), modifiers=CTRL)
    axis = doc.tree.get_body("fore").joint.axis
    assert np.count_nonzero(np.abs(axis) > 1e-3) >= 2  # not snapped to one body axis


def test_a_modified_dh_row_drags_a_along_the_previous_x(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    w.doc.open("puma560_mdh")
    vp, doc = w.viewport, w.doc
    body = doc.tree.body_names[2]
    parent = doc.tree.parent_name(body)
    doc.select(body)
    key(qtbot, w, Qt.Key.Key_W)
    vp.setCameraPosition(distance=2.0, elevation=20, azimuth=-60)
    vp.repaint()
    h = vp.frame_handle
    x_prev = doc.pose_of(parent)[:3, 0]
    assert np.allclose(h.parts["a"][1], doc.pose_of(parent)[:3, 3]) and np.allclose(h.parts["a"][2], x_prev)
    assert np.allclose(h.parts["d"][2], doc.pose_of(body)[:3, 2])  # d along z_i, at the body
    r0, T0 = row(doc, body), doc.pose_of(body)
    arrow_drag(vp, "a", 50)
    r = row(doc, body)
    grown = r.a - r0.a
    assert r.convention == "mdh" and grown > 0.015 and abs(grown / 0.01 - round(grown / 0.01)) < 1e-9
    assert np.allclose(doc.pose_of(body)[:3, 3], T0[:3, 3] + grown * x_prev)


def test_a_typed_amount_of_the_wrong_kind_is_refused_and_can_be_corrected(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    a_start = row(doc).a
    arrow_drag(vp, "a", 40)
    a0 = doc.tree  # after the drag
    messages = []
    doc.message.connect(messages.append)
    QTest.keyClicks(vp, "90deg")  # an angle on a length arrow
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert doc.tree is a0 and messages and "length" in messages[-1]
    assert vp.frame_handle.typed.text == "90deg"  # kept, to be corrected
    for _ in range(3):
        QTest.keyClick(vp, Qt.Key.Key_Backspace)
    QTest.keyClicks(vp, "mm")
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert row(doc).a == pytest.approx(a_start + 0.09, abs=1e-12) and doc.undo_stack.count() == 1  # 90 mm
