"""The W (move frame) and E (rotate frame) handles, driven as a user does: select a body by
clicking it, press the key, drag the arrow or ring at its screen point, then read the engine."""

from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
from test_ik_handle import pixel
from test_picking import arm_window

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


@pytest.fixture
def win(make_window):
    w = arm_window(make_window, [0.3, -0.5])
    vp = w.viewport
    fore = w.doc.pose_of("fore")
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, fore[:3, :3] @ [0.25, 0, 0] + fore[:3, 3]))  # fore's box
    assert w.doc.selection == "fore"
    return w


def key(qtbot, window, k, modifiers=NONE) -> None:
    """A key pressed with the mouse over the viewport (the window active, as a user's is)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.viewport.setFocus()
    qtbot.waitUntil(window.viewport.hasFocus)
    QTest.keyClick(window.viewport, k, modifiers)


def along(vp, origin, direction, pixels: float) -> tuple[QPoint, QPoint]:
    """A point on the arrow from ``origin`` along ``direction`` and one ``pixels`` further along
    its screen direction."""
    h = vp.frame_handle
    a, b = vp.project(np.array([origin, origin + h.size * np.asarray(direction)]))
    u = (b - a) / np.linalg.norm(b - a)
    start = pixel(vp, origin + 0.7 * h.size * np.asarray(direction))
    return start, start + QPoint(int(round(pixels * u[0])), int(round(pixels * u[1])))


def drag(vp, start: QPoint, end: QPoint, steps: int = 6, modifiers=NONE, release: bool = True) -> None:
    QTest.mousePress(vp, LEFT, modifiers, start)
    for k in range(1, steps + 1):
        p = QPointF(start + (end - start) * (k / steps))
        # the move events carry the keys held, as the window system's do (QTest.mouseMove's cannot)
        QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, p, QPointF(vp.mapToGlobal(p)),
                                               Qt.MouseButton.NoButton, LEFT, modifiers))
    if release:
        QTest.mouseRelease(vp, LEFT, modifiers, end)


def test_w_then_dragging_the_x_arrow_moves_the_frame_by_grid_steps_in_one_undo_step(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    assert vp.tool == "move" and win.tool_actions["move"].isChecked()
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
    key(qtbot, win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert np.allclose(doc.tree.get_body("fore").joint.joint_to_parent_transform, jtp0)


def test_e_then_dragging_the_z_ring_turns_the_frame_by_15_degree_steps(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_E)
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


def test_esc_during_a_drag_puts_the_frame_back_and_leaves_no_undo_step(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    tree0 = doc.tree
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end, release=False)
    assert not np.allclose(doc.pose_of("fore"), T0)  # moving live
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert doc.tree is tree0 and np.allclose(doc.pose_of("fore"), T0)
    assert doc.undo_stack.count() == 0 and doc.selection == "fore"


def test_ctrl_drags_freely(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 37)
    drag(vp, start, end, modifiers=Qt.KeyboardModifier.ControlModifier)
    moved = (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0]
    assert moved > 0.02 and abs(moved / 0.01 - round(moved / 0.01)) > 1e-6


def test_the_subtree_follows_and_q_brings_back_the_pose_handle(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    T0, tool0 = doc.pose_of("fore"), doc.pose_of("tool")
    start, end = along(vp, T0[:3, 3], T0[:3, 1], 40)
    drag(vp, start, end)
    delta = doc.pose_of("fore")[:3, 3] - T0[:3, 3]
    assert np.linalg.norm(delta) > 0.02
    assert np.allclose(doc.pose_of("tool")[:3, 3] - tool0[:3, 3], delta)
    key(qtbot, win, Qt.Key.Key_Q)
    assert vp.tool == "pose" and vp.ik_handle.body == "fore" and vp.frame_handle.body is None


def test_the_viewport_tool_bar_switches_tools_and_sets_the_step(win, qtbot):
    vp, doc = win.viewport, win.doc
    bar = vp.toolbar
    button = bar.widgetForAction(win.tool_actions["move"])
    QTest.mouseClick(button, LEFT, NONE)
    assert vp.tool == "move" and vp.frame_handle.body == "fore"
    step = win.tool_actions["step"]
    assert step.isVisible() and step.currentText() == "10 mm"
    step.setCurrentIndex(step.findText("50 mm"))  # as picking it in the open list does
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 80)
    drag(vp, start, end)
    moved = (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0]
    assert moved > 0.04 and abs(moved / 0.05 - round(moved / 0.05)) < 1e-9
    QTest.mouseClick(bar.widgetForAction(win.tool_actions["pose"]), LEFT, NONE)
    assert vp.tool == "pose" and not step.isVisible() and win.tool_actions["pose"].isChecked()


def shown(bar) -> list[str]:
    """The tool bar's visible buttons and separators ("|"), left to right."""
    items = [(bar.widgetForAction(a).x(), "|" if a.isSeparator() else a.iconText())
             for a in bar.actions() if bar.widgetForAction(a) is not None and bar.widgetForAction(a).isVisible()]
    return [t for _, t in sorted(items)]


def test_the_tool_bar_shows_no_separator_at_an_end(win, qtbot):
    bar = win.viewport.toolbar
    for tool in ("move", "rotate", "measure", "pose"):
        QTest.mouseClick(bar.widgetForAction(win.tool_actions[tool]), LEFT, NONE)
        texts = shown(bar)
        assert texts[0] != "|" and texts[-1] != "|" and "||" not in "".join(texts), (tool, texts)
    assert "IK" in shown(bar)  # the pose tool's toggles, after a separator


@pytest.mark.parametrize("ortho", [True, False])
def test_the_arrows_keep_their_length_on_screen_whatever_the_zoom(win, qtbot, ortho):
    vp = win.viewport
    key(qtbot, win, Qt.Key.Key_W)
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


def test_a_frame_drag_does_not_refit_the_bodies_list_at_every_move(win, qtbot):
    """Refitting the Bodies columns took 0.7 s per mouse move on a 1000-body tree: the rows'
    texts (names, joint types) do not change while a frame is dragged."""
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    announced = []
    win.bodies.model.dataChanged.connect(lambda *a: announced.append(a))
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 60)
    drag(vp, start, end, steps=8)
    assert np.linalg.norm(doc.pose_of("fore")[:3, 3] - T0[:3, 3]) > 0.03
    assert len(announced) <= 2  # the first move's rows (the body and its parent), not one per move


def test_autosave_waits_for_a_drag_to_end(win, qtbot):
    vp, doc = win.viewport, win.doc
    key(qtbot, win, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end, release=False)
    assert doc.modified and vp.frame_handle.dragging
    assert win.autosave() and win.autosave_path() is None  # the timer's call: nothing serialized mid-drag
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert win.autosave() and win.autosave_path() is not None and win.autosave_path().exists()
