"""The W (move frame) and E (rotate frame) handles, driven as a user does: select a body by
clicking it, press the key, drag the arrow or ring at its screen point, then read the engine."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.gui import LEFT, NONE, along, drag, key, shown
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest


def test_w_then_dragging_the_x_arrow_moves_the_frame_by_grid_steps_in_one_undo_step(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    assert vp.tool == "move" and fore_window.tool_actions["move"].isChecked()
    q = doc.configuration.copy()
    T0 = doc.pose_of("fore")
    jtp0 = doc.tree.get_body("fore").joint.joint_to_parent_transform
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    assert vp.frame_handle.pick(start.x(), start.y()) == ("axis", 0)
    drag(vp, start, end)
    T1 = doc.pose_of("fore")
    moved = (T1[:3, 3] - T0[:3, 3]) @ T0[:3, 0]
    assert moved > 0.02 and abs(moved / 0.01 - round(moved / 0.01)) < 1e-9  # 10 mm steps
    assert np.allclose(T1[:3, 3] - T0[:3, 3], moved * T0[:3, 0]) and np.allclose(T1[:3, :3], T0[:3, :3])
    assert np.array_equal(doc.configuration, q)  # the joints did not move
    jtp1 = doc.tree.get_body("fore").joint.joint_to_parent_transform
    q2 = q[1]  # fore's x, in its parent's frame, is turned by q2
    assert np.allclose(jtp1[:3, 3] - jtp0[:3, 3], moved * np.array([math.cos(q2), math.sin(q2), 0]))
    assert doc.undo_stack.count() == 1
    key(qtbot, fore_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert np.allclose(doc.tree.get_body("fore").joint.joint_to_parent_transform, jtp0)


def test_e_then_dragging_the_z_ring_turns_the_frame_by_15_degree_steps(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_E)
    assert vp.tool == "rotate"
    T0 = doc.pose_of("fore")
    h = vp.frame_handle
    ring = h._ring(2)
    px = vp.project(ring)
    i = int(np.argmax(px[:, 1]))  # the ring's lowest point on screen: drag it sideways
    start = QPoint(int(round(px[i, 0])), int(round(px[i, 1])))
    assert h.pick(start.x(), start.y()) == ("ring", 2)
    drag(vp, start, start + QPoint(60, 0))
    T1 = doc.pose_of("fore")
    assert np.allclose(T1[:3, 3], T0[:3, 3])  # turned about its own origin
    R = T0[:3, :3].T @ T1[:3, :3]
    angle = math.degrees(math.atan2(R[1, 0], R[0, 0]))
    assert abs(angle) > 10 and abs(angle / 15 - round(angle / 15)) < 1e-9
    assert np.allclose(R[:, 2], [0, 0, 1])  # about z
    assert doc.undo_stack.count() == 1


def test_esc_during_a_drag_puts_the_frame_back_and_leaves_no_undo_step(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    tree0 = doc.tree
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end, release=False)
    assert not np.allclose(doc.pose_of("fore"), T0)  # moving live
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert doc.tree is tree0 and np.allclose(doc.pose_of("fore"), T0)
    assert doc.undo_stack.count() == 0 and doc.selection == "fore"


def test_ctrl_drags_freely(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 37)
    drag(vp, start, end, modifiers=Qt.KeyboardModifier.ControlModifier)
    moved = (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0]
    assert moved > 0.02 and abs(moved / 0.01 - round(moved / 0.01)) > 1e-6


def test_the_subtree_follows_and_q_brings_back_the_pose_handle(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    T0, tool0 = doc.pose_of("fore"), doc.pose_of("tool")
    start, end = along(vp, T0[:3, 3], T0[:3, 1], 40)
    drag(vp, start, end)
    delta = doc.pose_of("fore")[:3, 3] - T0[:3, 3]
    assert np.linalg.norm(delta) > 0.02
    assert np.allclose(doc.pose_of("tool")[:3, 3] - tool0[:3, 3], delta)
    key(qtbot, fore_window, Qt.Key.Key_Q)
    assert vp.tool == "pose" and vp.ik_handle.body == "fore" and vp.frame_handle.body is None


def test_the_viewport_tool_bar_switches_tools_and_sets_the_step(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    bar = vp.toolbar
    button = bar.widgetForAction(fore_window.tool_actions["move"])
    QTest.mouseClick(button, LEFT, NONE)
    assert vp.tool == "move" and vp.frame_handle.body == "fore"
    step = fore_window.tool_actions["step"]
    assert step.isVisible() and step.currentText() == "10 mm"
    step.setCurrentIndex(step.findText("50 mm"))  # as picking it in the open list does
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 80)
    drag(vp, start, end)
    moved = (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0]
    assert moved > 0.04 and abs(moved / 0.05 - round(moved / 0.05)) < 1e-9
    QTest.mouseClick(bar.widgetForAction(fore_window.tool_actions["pose"]), LEFT, NONE)
    assert vp.tool == "pose" and not step.isVisible() and fore_window.tool_actions["pose"].isChecked()


def test_the_tool_bar_shows_no_separator_at_an_end(fore_window, qtbot):
    bar = fore_window.viewport.toolbar
    for tool in ("move", "rotate", "measure", "pose"):
        QTest.mouseClick(bar.widgetForAction(fore_window.tool_actions[tool]), LEFT, NONE)
        texts = shown(bar)
        assert texts[0] != "|" and texts[-1] != "|" and "||" not in "".join(texts), (tool, texts)
    assert "IK" in shown(bar)  # the pose tool's toggles, after a separator


@pytest.mark.parametrize("ortho", [True, False])
def test_the_arrows_keep_their_length_on_screen_whatever_the_zoom(fore_window, qtbot, ortho):
    vp = fore_window.viewport
    key(qtbot, fore_window, Qt.Key.Key_W)
    vp.set_view("top")  # x and y lie in the screen's plane
    vp.camera.set_ortho(ortho)
    lengths = []
    for distance in (1.0, 4.0):
        vp.setCameraPosition(distance=distance)
        vp.grabFramebuffer()  # a frame drawn (the handles follow the view as it is drawn)
        h = vp.frame_handle
        a, b = vp.project(np.array([h.pose[:3, 3], h.pose[:3, 3] + h.size * h.pose[:3, 0]]))
        lengths.append(float(np.linalg.norm(b - a)))
    assert all(abs(n - 80) < 3 for n in lengths), lengths


def test_a_frame_drag_does_not_refit_the_bodies_list_at_every_move(fore_window, qtbot):
    """Refitting the Bodies columns took 0.7 s per mouse move on a 1000-body tree: the rows'
    texts (names, joint types) do not change while a frame is dragged."""
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    announced = []
    fore_window.bodies.model.dataChanged.connect(lambda *a: announced.append(a))
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 60)
    drag(vp, start, end, steps=8)
    assert np.linalg.norm(doc.pose_of("fore")[:3, 3] - T0[:3, 3]) > 0.03
    assert len(announced) <= 2  # the first move's rows (the body and its parent), not one per move


def test_autosave_waits_for_a_drag_to_end(fore_window, qtbot):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end, release=False)
    assert doc.modified and vp.frame_handle.dragging
    # the timer's call: nothing serialized mid-drag
    assert fore_window.autosave() and fore_window.autosave_path() is None
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert fore_window.autosave() and fore_window.autosave_path() is not None and fore_window.autosave_path().exists()
