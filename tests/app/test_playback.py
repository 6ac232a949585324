"""The timeline: the robot at time t is the quintic motion's configuration at t, playing follows
the clock (no undo steps, the document stays unmodified), the traced path is the end effector's
batch forward kinematics, and File ▸ Export animation writes the motion."""

from __future__ import annotations

import time

import imageio.v3 as iio
import numpy as np
import pytest
from helpers.panels import open_planar_without_poses, settle
from kinetree.app.features.playback import export_animation, fit_motion
from kinetree.app.panels.timeline import SLIDER_STEPS
from kinetree.app.viewport.overlays.path_trace import COLOR
from kinetree.app.viewport.view import THEMES
from kinetree.core.kinematics.trajectory import joint_trajectory, sample_trajectory
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDockWidget


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
    # the view alone: on the tests' 800×600 screen the docks leave it a 108-px strip
    for dock in window.findChildren(QDockWidget):
        dock.hide()
    window.viewport.set_labels_visible(False)
    vp = window.viewport
    settle(qtbot, 60)
    fit_motion(vp, window.doc, window.playback.samples(10))  # the whole path in view
    settle(qtbot, 60)
    img = vp.render_image(vp.width(), vp.height())
    px = vp.project(window.path_trace.positions[10:-10:10])
    assert ((px > 2) & (px < [vp.width() - 2, vp.height() - 2])).all()
    bg = np.array(THEMES["dark"]["bg"], dtype=float)
    line = np.array(COLOR[:3]) * 255 - bg

    def rgb(image, x, y) -> np.ndarray:
        c = image.pixelColor(x, y)
        return np.array([c.red(), c.green(), c.blue()]) - bg

    def is_path(d) -> bool:  # the path's colour, antialiased over the background
        a = d @ line / (line @ line)
        return a > 0.5 and np.abs(d - a * line).max() < 25

    def around(x, y):
        return [(int(x) + dx, int(y) + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]

    hits = [any(is_path(rgb(img, *p)) for p in around(x, y)) for x, y in px]
    window.path_trace.set_visible(False)
    bare = vp.render_image(vp.width(), vp.height())
    # where nothing but the background and the grid is drawn without the path (not behind a link
    # or a frame, whatever the fit leaves there), the path shows
    clear = [all(np.abs(rgb(bare, *p)).max() < 45 for p in around(x, y)) for x, y in px]
    assert sum(clear) >= 0.5 * len(px)
    assert sum(h for h, c in zip(hits, clear) if c) >= 0.8 * sum(clear), (hits, clear)
    img = bare
    # away from the robot's own frames (where its blue and green axes blend into the path's cyan)
    frames = vp.project(vp._poses[:, :3, 3])
    away = [p for p in px if np.linalg.norm(frames - p, axis=1).min() > 12]
    assert len(away) >= 0.5 * len(px)
    assert not any(is_path(rgb(img, int(x), int(y))) for x, y in away)


def test_fewer_than_two_poses_cannot_play(window, qtbot):
    open_planar_without_poses(window.doc)
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
    open_planar_without_poses(window.doc)  # no poses: a message, no file
    window.export_animation_action.trigger()
    assert "two poses" in window.statusBar().currentMessage() and not path.exists()
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.4)
    window.export_animation_action.trigger()
    assert iio.imread(path, index=None).shape == (3, 30, 40, 3)  # round(0.4 · 5) + 1
    assert window.statusBar().currentMessage() == f"Exported 3 frames to {path}"


def test_the_path_is_not_drawn_or_computed_while_the_poses_dock_is_hidden(window, qtbot, monkeypatch):
    from kinetree.core.kinematics.plan import KinematicPlan

    calls = []
    real = KinematicPlan.fk_chunks

    def spy(self, Q, sel, chunk=None):
        calls.append((len(Q), list(sel)))
        return real(self, Q, sel, chunk)

    monkeypatch.setattr(KinematicPlan, "fk_chunks", spy)
    window.doc.open("puma560")  # its four poses checked: a motion, but nobody asked to see it
    settle(qtbot)
    assert not window.poses_dock.isVisible() and len(window.playback.playable()) >= 2
    trace = window.path_trace
    assert not trace.line.visible() and not trace.dots.visible() and len(trace.positions) == 0
    window.timeline.seconds.setValue(1.5)  # the motion changes: still nothing computed
    assert calls == []
    window.findChild(QAction, "toggle_posesDock").trigger()  # View ▸ Poses: now it is drawn
    settle(qtbot)
    assert trace.line.visible() and trace.dots.visible() and len(trace.positions) > 100
    # the end effector's chain only: its ancestors, never every body of the tree
    tree = window.doc.tree
    chain = tree._kinematics().ancestors(tree.index_of(tree.end_effector))
    assert calls and all(sel == chain for _, sel in calls)
    window.poses_dock.close()
    settle(qtbot)
    assert not trace.line.visible() and len(trace.positions) == 0


def test_the_path_of_a_branch_is_its_chains_fk(window, qtbot):
    """A long chain with the end effector on a short branch: the path is the branch tip's forward
    kinematics (only its chain is computed)."""
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    parent = tree.base_name
    for k, name in enumerate([f"a{i}" for i in range(40)] + ["b0", "b1", "b2"]):
        body = RigidBody(name)
        body.joint = Joint(f"j_{name}", "revolute" if k % 2 else "prismatic")
        T = np.eye(4)
        T[:3, 3] = (0.1, 0.05, 0.02)
        body.joint.set_fixed_transform(T)
        tree.add_body(body, "a5" if name == "b0" else parent)
        parent = name
    assert tree.end_effector == "b2"
    qa, qb = np.zeros(tree.position_count), np.linspace(0.0, 1.0, tree.position_count)
    tree.named_poses["a"], tree.named_poses["b"] = qa, qb
    window.doc.load(tree, qa)
    window.playback.set_names(["a", "b"])
    window.findChild(QAction, "toggle_posesDock").trigger()
    settle(qtbot)
    _, Q = joint_trajectory([qa, qb], [window.playback.seconds], 60)
    expected = tree.forward_kinematics(Q)[:, tree.index_of("b2"), :3, 3]
    assert np.ptp(expected, axis=0).max() > 0.01  # it moves
    np.testing.assert_allclose(window.path_trace.positions, expected, atol=1e-9)


def test_a_long_chains_path_is_sampled_coarser(window, qtbot):
    """Samples × chain bodies stay within MAX_BODY_SAMPLES: a 1000-body chain's 30 s motion gets
    1000 samples, not 1801 (a Puma's keeps 60 a second)."""
    from kinetree.app.viewport.overlays.path_trace import MAX_BODY_SAMPLES
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    parent = tree.base_name
    for i in range(1000):
        body = RigidBody(f"l{i}")
        body.joint = Joint(f"j{i}", "revolute")
        T = np.eye(4)
        T[:3, 3] = (0.01, 0.0, 0.01)
        body.joint.set_fixed_transform(T)
        tree.add_body(body, parent)
        parent = body.name
    qa, qb = np.zeros(1000), np.full(1000, 0.002)
    tree.named_poses["a"], tree.named_poses["b"] = qa, qb
    window.doc.load(tree, qa)
    window.playback.set_names(["a", "b"])
    window.findChild(QAction, "toggle_posesDock").trigger()
    settle(qtbot)
    start = time.perf_counter()
    window.timeline.seconds.setValue(30.0)
    elapsed = time.perf_counter() - start
    n = len(window.path_trace.positions)
    assert n * 1000 <= MAX_BODY_SAMPLES and n >= 990, n
    print(f"1000-body chain, {n} samples: {elapsed:.2f} s")
    _, Q = joint_trajectory([qa, qb], [30.0], (MAX_BODY_SAMPLES // 1000 - 1) / 30.0)
    np.testing.assert_allclose(window.path_trace.positions[[0, n // 2, -1]],
                               tree.forward_kinematics(Q[[0, n // 2, -1]])[:, -1, :3, 3], atol=1e-9)


def test_a_gif_that_would_not_fit_in_memory_is_refused_before_rendering(window, qtbot, tmp_path, monkeypatch):
    from kinetree.app.features.playback import MAX_GIF_BYTES, check_animation_size
    from kinetree.core import KineTreeError

    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(40.0)
    rendered = []
    monkeypatch.setattr(window.viewport, "render_image", lambda *a: rendered.append(a))
    path = tmp_path / "big.gif"
    with pytest.raises(KineTreeError) as err:
        export_animation(window, path, (1920, 1080), fps=25)
    # 40 s at 25 fps: 1001 frames of 1920 × 1080 × 3 bytes
    assert "1001 frames of 1920x1080 need 5.8 GB" in str(err.value) and "fewer seconds" in str(err.value)
    assert rendered == [] and not path.exists()
    try:
        import imageio_ffmpeg  # noqa: F401
    except ImportError:  # without it an MP4 is refused before its size is looked at
        with pytest.raises(KineTreeError, match="imageio-ffmpeg"):
            check_animation_size(tmp_path / "big.mp4", 1001, (1920, 1080))
    else:
        check_animation_size(tmp_path / "big.mp4", 1001, (1920, 1080))  # a video is streamed: no limit
    w = int((MAX_GIF_BYTES / 3 / 100) ** 0.5)
    check_animation_size(path, 100, (w, w))  # just within


def test_a_gif_does_not_keep_its_rgb_frames(window, qtbot, tmp_path):
    """The RGB frames are not kept (a GIF keeps each frame's palette image, a byte a pixel): the
    peak of traced memory does not grow with the frame count (a list of the frames, then their
    stack, would add 2 · 90 kB a frame)."""
    import tracemalloc

    puma_qz_qr(window, qtbot)
    export_animation(window, tmp_path / "warm.gif", (200, 150), fps=20)
    peaks = {}
    for seconds in (1.0, 3.0):  # 21 and 61 frames
        window.timeline.seconds.setValue(seconds)
        tracemalloc.start()
        try:
            assert export_animation(window, tmp_path / "m.gif", (200, 150), fps=20) == 20 * seconds + 1
            peaks[seconds] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert peaks[3.0] - peaks[1.0] < 40 * 200 * 150 * 3 / 4, peaks


def test_a_failed_export_leaves_the_old_file(window, qtbot, tmp_path, monkeypatch):
    pytest.importorskip("imageio_ffmpeg")
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(0.5)
    path = tmp_path / "motion.mp4"
    path.write_bytes(b"the old video")
    real, n = window.viewport.render_image, [0]

    def fail_at_the_fourth(*a):
        n[0] += 1
        if n[0] == 4:
            raise OSError("disk full")
        return real(*a)

    monkeypatch.setattr(window.viewport, "render_image", fail_at_the_fourth)
    with pytest.raises(OSError, match="disk full"):
        export_animation(window, path, (48, 32), fps=10)
    assert path.read_bytes() == b"the old video"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["motion.mp4"]  # no temporary file left
    monkeypatch.setattr(window.viewport, "render_image", real)
    path.chmod(0o640)
    assert export_animation(window, path, (48, 32), fps=10) == 6
    assert path.read_bytes()[4:8] == b"ftyp" and (path.stat().st_mode & 0o777) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["motion.mp4"]


def test_timers_stop_when_the_window_closes(window, qtbot):
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(30.0)
    window.timeline.play(True)
    window.explain_dock.show()
    settle(qtbot)
    window.explain.play_button.setChecked(True)
    assert window.timeline.playing and window.explain.timer.isActive()
    assert window.close()
    assert not window.timeline.playing and not window.explain.timer.isActive()
    t = window.timeline.time
    qtbot.wait(60)
    assert window.timeline.time == t


def gif_delays_read_back(path) -> list[int]:
    """Each frame's delay in hundredths of a second, as a GIF player reads them (Pillow)."""
    from PIL import Image, ImageSequence

    with Image.open(path) as gif:
        return [frame.info["duration"] // 10 for frame in ImageSequence.Iterator(gif)]


@pytest.mark.parametrize("fps", [15, 25])
def test_a_gifs_frame_delays_add_up_to_the_motions_length(window, qtbot, tmp_path, fps):
    """GIF delays are whole hundredths: 1/15 s rounded to 6 cs on every frame played 9 % short;
    the rounding is carried from frame to frame instead."""
    puma_qz_qr(window, qtbot)
    window.timeline.seconds.setValue(1.0)
    path = tmp_path / f"at{fps}.gif"
    count = export_animation(window, path, (48, 32), fps=fps)
    delays = gif_delays_read_back(path)
    assert len(delays) == count == fps + 1  # both ends: every frame kept
    assert abs(sum(delays) - 100) <= 1  # 1 s of motion
    assert max(delays) - min(delays) <= 1  # an even pace: no frame holds the error
