"""The timeline: the robot at time t is the quintic motion's configuration at t, playing follows
the clock (no undo steps, the document stays unmodified), the traced path is the end effector's
batch forward kinematics, and File ▸ Export animation writes the motion."""

from __future__ import annotations

import time

import imageio.v3 as iio
import numpy as np
from kinetree.app.panels.timeline import SLIDER_STEPS
from kinetree.app.playback import export_animation, fit_motion
from kinetree.app.viewport.path_trace import COLOR
from kinetree.app.viewport.view import THEMES
from kinetree.core.trajectory import joint_trajectory, sample_trajectory
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def settle(qtbot, ms: int = 30) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def puma_qz_qr(window, qtbot):
    """Puma with only qz and qr checked (the boxes clicked), 2 s a segment."""
    window.doc.open("puma560")
    window.findChild(QAction, "toggle_posesDock").trigger()  # View ▸ Poses
    settle(qtbot)
    lst = window.poses.list
    for name in ("qs", "qn"):
        item = window.poses._item(name)
        rect = lst.visualItemRect(item)
        box = QPoint(rect.left() + rect.height() // 2, rect.center().y())  # the check box
        QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box)
    assert window.playback.playable() == ["qz", "qr"]
    window.timeline.seconds.setValue(2.0)
    tree = window.doc.tree
    return tree.named_poses["qz"], tree.named_poses["qr"]


def test_scrubbing_to_half_time_shows_the_trajectory_there_without_an_undo_step(window, qtbot):
    qz, qr = puma_qz_qr(window, qtbot)
    n = window.doc.undo_stack.count()
    assert window.timeline.slider.maximum() == 2 * SLIDER_STEPS
    window.timeline.slider.setValue(SLIDER_STEPS)  # t = T/2 = 1 s
    expected = sample_trajectory([qz, qr], 2.0, [1.0])[0]
    np.testing.assert_allclose(window.doc.configuration, expected, atol=1e-12)
    np.testing.assert_allclose(window.doc.configuration, (qz + qr) / 2, atol=1e-12)  # a quintic's midpoint
    assert window.timeline.label.text() == "1.00 / 2.00 s"
    window.timeline.slider.setValue(SLIDER_STEPS // 2)  # 0.5 s: s³(10 − 15s + 6s²) at s = 1/4
    np.testing.assert_allclose(window.doc.configuration, qz + (qr - qz) * 0.103515625, atol=1e-12)
    assert window.doc.undo_stack.count() == n and not window.doc.modified


def test_play_advances_with_the_clock_and_stops_at_the_last_pose(window, qtbot):
    qz, qr = puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.6)
    n = window.doc.undo_stack.count()
    start = time.perf_counter()
    QTest.mouseClick(window.timeline.play_button, Qt.MouseButton.LeftButton)
    assert window.timeline.playing and window.timeline.play_button.text() == "Pause"
    qtbot.wait(250)
    t, elapsed = window.timeline.time, time.perf_counter() - start
    assert 0.05 < t <= elapsed + 0.02  # time-based: never ahead of the clock, and it moved
    np.testing.assert_allclose(window.doc.configuration, sample_trajectory([qz, qr], 0.6, [t])[0], atol=1e-12)
    qtbot.waitUntil(lambda: not window.timeline.playing, timeout=5000)
    assert window.timeline.time == 0.6 and window.timeline.play_button.text() == "Play"
    np.testing.assert_allclose(window.doc.configuration, qr, atol=1e-12)
    assert window.doc.undo_stack.count() == n and not window.doc.modified
    # Play at the end starts again from the first pose
    QTest.mouseClick(window.timeline.play_button, Qt.MouseButton.LeftButton)
    assert window.timeline.time < 0.05
    QTest.mouseClick(window.timeline.play_button, Qt.MouseButton.LeftButton)  # pause
    paused = window.timeline.time
    qtbot.wait(100)
    assert not window.timeline.playing and window.timeline.time == paused


def test_loop_keeps_playing_from_the_start(window, qtbot):
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.2)
    QTest.mouseClick(window.timeline.loop, Qt.MouseButton.LeftButton)
    assert window.timeline.loop.isChecked()
    window.timeline.play(True)
    seen = []
    for _ in range(20):
        qtbot.wait(25)
        seen.append(window.timeline.time)
    assert window.timeline.playing
    assert any(b < a for a, b in zip(seen, seen[1:]))  # it went round
    window.timeline.play(False)


def test_traced_path_is_the_end_effectors_batch_fk(window, qtbot):
    qz, qr = puma_qz_qr(window, qtbot)
    trace = window.path_trace
    tree = window.doc.tree
    _, Q = joint_trajectory([qz, qr], [2.0], 60)
    expected = tree.forward_kinematics(Q)[:, tree.index_of(tree.end_effector), :3, 3]
    assert trace.positions.shape == (121, 3)
    np.testing.assert_allclose(trace.positions, expected, atol=1e-12)
    # ... whatever the robot shows now
    window.timeline.seek(0.7)
    np.testing.assert_allclose(trace.positions, expected, atol=1e-12)
    assert trace.line.visible()
    # a third pose: the path goes on to it
    window.poses.set_checked("qs", True)
    assert window.playback.playable() == ["qz", "qr", "qs"]
    _, Q = joint_trajectory([qz, qr, tree.named_poses["qs"]], [2.0, 2.0], 60)
    np.testing.assert_allclose(trace.positions, tree.forward_kinematics(Q)[:, -1, :3, 3], atol=1e-12)
    QTest.mouseClick(window.timeline.trace, Qt.MouseButton.LeftButton)
    assert not trace.line.visible()


def test_the_path_is_drawn_where_it_projects(window, qtbot):
    window.resize(1280, 800)
    window.reset_layout()
    puma_qz_qr(window, qtbot)
    window.viewport.set_labels_visible(False)
    vp = window.viewport
    fit_motion(vp, window.doc, window.playback.samples(10))  # the whole path in view
    settle(qtbot, 60)
    img = vp.render_image(vp.width(), vp.height())
    px = vp.project(window.path_trace.positions[10:-10:10])
    assert ((px > 2) & (px < [vp.width() - 2, vp.height() - 2])).all()
    bg = np.array(THEMES["dark"]["bg"], dtype=float)
    line = np.array(COLOR[:3]) * 255 - bg

    def is_path(c) -> bool:  # the path's colour, antialiased over the background
        d = np.array([c.red(), c.green(), c.blue()]) - bg
        a = d @ line / (line @ line)
        return a > 0.5 and np.abs(d - a * line).max() < 25

    hits = sum(any(is_path(img.pixelColor(int(x) + dx, int(y) + dy)) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
               for x, y in px)
    assert hits >= 0.8 * len(px)
    window.path_trace.set_visible(False)
    img = vp.render_image(vp.width(), vp.height())
    assert not any(is_path(img.pixelColor(int(x), int(y))) for x, y in px)


def test_fewer_than_two_poses_cannot_play(window, qtbot):
    window.doc.open("two_link_planar")
    assert not window.timeline.play_button.isEnabled()
    assert window.timeline.label.text() == "check two poses or more"
    assert not window.path_trace.line.visible()


def test_export_animation_writes_every_frame_and_restores_the_robot(window, qtbot, tmp_path):
    qz, qr = puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.5)
    window.doc.set_configuration(np.full(6, 0.2))
    n = window.doc.undo_stack.count()
    path = tmp_path / "motion.gif"
    assert export_animation(window, path, (48, 32), fps=10) == 6  # round(0.5 · 10) + 1
    frames = iio.imread(path, index=None)
    assert frames.shape == (6, 32, 48, 3)
    assert np.abs(frames[0].astype(int) - frames[-1]).max() > 0  # the robot moved
    np.testing.assert_array_equal(window.doc.configuration, np.full(6, 0.2))
    assert window.doc.undo_stack.count() == n
    assert window.viewport.ik_handle.enabled  # hidden while rendering, back afterwards


def test_file_menu_export_animation(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QInputDialog

    file_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&File")
    texts = [a.text() for a in file_menu.actions()]
    assert texts.index("Export &animation…") == texts.index("Export &image…") + 1
    path = tmp_path / "menu.gif"
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("40x30 @ 5", True)))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.doc.open("two_link_planar")  # no poses: a message, no file
    window.export_animation_action.trigger()
    assert "two poses" in window.statusBar().currentMessage() and not path.exists()
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.4)
    window.export_animation_action.trigger()
    assert iio.imread(path, index=None).shape == (3, 30, 40, 3)  # round(0.4 · 5) + 1
    assert window.statusBar().currentMessage() == f"Exported 3 frames to {path}"
