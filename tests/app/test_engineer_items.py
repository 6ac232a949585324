"""Smaller items of issue 32: the window title after Ctrl+N, the held mouse after Esc cancelled
a drag, the joint-axis arrow beside the move arrow, the mesh dialog's Enter, the named poses
ticked, the shortcuts listed."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.arm import arm_window
from helpers.gui import LEFT, NONE, along, drag, key, pixel
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


@pytest.fixture
def arm(make_window):
    """The two-link arm with its forearm selected (as test_frame_handle's)."""
    w = arm_window(make_window, [0.3, -0.5])
    fore = w.doc.pose_of("fore")
    QTest.mouseClick(w.viewport, LEFT, NONE, pixel(w.viewport, fore[:3, :3] @ [0.25, 0, 0] + fore[:3, 3]))
    assert w.doc.selection == "fore"
    return w


def held_move(vp, at: QPoint) -> None:
    """The mouse moved to ``at`` with the left button down."""
    p = QPointF(at)
    QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, p, QPointF(vp.mapToGlobal(p)),
                                           Qt.MouseButton.NoButton, LEFT, NONE))


def camera(vp) -> tuple:
    c = vp.opts["center"]
    return vp.opts["azimuth"], vp.opts["elevation"], vp.opts["distance"], c.x(), c.y(), c.z()


def test_ctrl_n_titles_the_window_untitled_at_once(make_window, qtbot):
    w = make_window()
    w.open_source("puma560", ask=False)
    assert w.windowTitle().startswith("puma560")
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert not w.doc.tree.body_names  # the new, empty robot
    assert w.windowTitle().startswith("untitled"), w.windowTitle()


def test_the_mouse_still_held_after_esc_does_nothing_until_released(arm, qtbot):
    vp, doc = arm.viewport, arm.doc
    key(qtbot, arm, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end, release=False)
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    before = camera(vp)
    for k in range(1, 6):  # the hand goes on moving with the button down
        held_move(vp, end + QPoint(15 * k, 10 * k))
    assert camera(vp) == before  # no orbit
    QTest.mouseRelease(vp, LEFT, NONE, end + QPoint(75, 50))
    assert np.allclose(doc.pose_of("fore"), T0) and doc.undo_stack.count() == 0 and doc.selection == "fore"
    # released: the next drag on empty space orbits as ever
    corner = QPoint(20, vp.height() - 20)
    QTest.mousePress(vp, LEFT, NONE, corner)
    for k in range(1, 4):
        held_move(vp, corner + QPoint(20 * k, 0))
    QTest.mouseRelease(vp, LEFT, NONE, corner + QPoint(60, 0))
    assert camera(vp) != before


@pytest.mark.parametrize("tool", [Qt.Key.Key_W, Qt.Key.Key_Q])
def test_the_handles_z_arrow_runs_past_the_joint_axis_drawn_through_it(arm, qtbot, tool):
    """The orange joint axis must not run on beyond the blue z arrow's tip (it read as the
    arrow's continuation), also zoomed in, where the arrow's 80 px are a short length."""
    vp = arm.viewport
    key(qtbot, arm, tool)
    for distance in (3.0, 0.6):  # as opened, and zoomed in close
        vp.setCameraPosition(distance=distance)
        vp.repaint()
        h = vp.handle
        o = h.pose[:3, 3]
        arrow = h.arrows.pos.reshape(3, 2, 3)[2]  # the z arrow: origin, tip
        axes = vp.axes.pos.reshape(-1, 2, 3)
        # the joint axis drawn through the forearm's origin (its joint frame's)
        axis = next(a for a in axes if np.linalg.norm(a.mean(axis=0) - o) < 1e-6)
        px = vp.project(np.vstack([o[None], arrow[1:], axis]))
        tip = np.linalg.norm(px[1] - px[0])
        axis_end = max(np.linalg.norm(px[2] - px[0]), np.linalg.norm(px[3] - px[0]))
        assert tip > 1.2 * axis_end, (distance, tip, axis_end)


def test_the_ticked_poses_of_a_file_are_there_again_when_it_is_reopened(make_window, tmp_path):
    from kinetree.core import load_robot
    from kinetree.core.io import save_project

    tree = load_robot("puma560")
    for name in list(tree.named_poses):  # the library's own (qz, qr, …)
        del tree.named_poses[name]
    for k, name in enumerate(("ready", "reach", "stow")):
        tree.named_poses[name] = np.full(6, 0.1 * k)
    saved, other = tmp_path / "cell.kinetree.json", tmp_path / "other.kinetree.json"
    save_project(tree, saved)
    save_project(tree, other)
    w = make_window("shared.ini")
    w.doc.open(saved)
    assert w.poses.checked() == ["ready", "reach", "stow"]
    w.poses.set_checked("reach", False)
    assert w.poses.checked() == ["ready", "stow"]
    w.doc.open(other)  # another file with the same pose names: its own ticks (all)
    assert w.poses.checked() == ["ready", "reach", "stow"]
    w.close()
    again = make_window("shared.ini")  # a new window (the settings as the next start reads them)
    again.doc.open(saved)
    assert again.poses.checked() == ["ready", "stow"] and again.playback.names == ["ready", "stow"]
