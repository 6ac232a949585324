"""View ▸ Simulate (key S): Play lets the robot fall without undo steps, Keep this pose is one
undo step, Reset and closing the dock put the robot back, Hold keeps it still."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import compiled_warmup
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox

START = [0.3, 0.5, -0.5, 0.2, 0.4, 0.1]


@pytest.fixture
def puma_window(window, qtbot):
    # compiled as the app's start does (app/main.py): else the first Play of the process waits for
    # it with a note (test_simulate_compiling.py), and these tests read the run at once
    compiled_warmup.warm_up()
    window.doc.open("puma560")
    window.doc.set_configuration(START)
    window.doc.undo_stack.clear()
    return window


def press_s(qtbot, window) -> None:
    """S with the viewport focused, as a user's mouse over the view."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.viewport.setFocus()
    qtbot.waitUntil(window.viewport.hasFocus)
    QTest.keyClick(window.viewport, Qt.Key.Key_S)


def click(qtbot, button) -> None:
    if isinstance(button, QCheckBox):  # on its box: a check box toggles only there and on its text
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    else:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_s_opens_the_dock_and_play_lets_the_robot_fall_without_undo_steps(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    click(qtbot, w.simulate.play_button)
    assert w.simulate.playing
    qtbot.waitUntil(lambda: w.simulate.sim is not None and w.simulate.sim.time > 0.2, timeout=60_000)
    click(qtbot, w.simulate.play_button)  # Pause
    assert not w.simulate.playing
    q = w.doc.configuration
    assert np.abs(q - START).max() > 1e-3  # it fell
    np.testing.assert_array_equal(q, w.simulate.sim.q)  # the document shows the simulation
    assert w.doc.undo_stack.count() == 0 and not w.doc.modified
    assert w.simulate.readout["time"].text().endswith(" s")
    assert w.simulate.readout["kinetic"].text().endswith(" J")


def test_keep_this_pose_is_one_undo_step(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    for _ in range(50):
        click(qtbot, w.simulate.step_button)
    kept = w.simulate.sim.q
    assert w.simulate.sim.time == pytest.approx(0.05)
    click(qtbot, w.simulate.keep_button)
    assert w.doc.undo_stack.count() == 1
    np.testing.assert_array_equal(w.doc.configuration, kept)
    w.doc.undo_stack.undo()
    np.testing.assert_allclose(w.doc.configuration, START)
    w.doc.undo_stack.redo()
    np.testing.assert_array_equal(w.doc.configuration, kept)


def test_reset_and_closing_the_dock_put_the_robot_back(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    for _ in range(30):
        click(qtbot, w.simulate.step_button)
    assert np.abs(w.doc.configuration - START).max() > 1e-5
    click(qtbot, w.simulate.reset_button)
    np.testing.assert_allclose(w.doc.configuration, START)
    assert w.simulate.sim.time == 0
    for _ in range(30):
        click(qtbot, w.simulate.step_button)
    press_s(qtbot, w)  # closes the dock: the simulated pose was not kept
    qtbot.waitUntil(lambda: not w.simulate_dock.isVisible())
    np.testing.assert_allclose(w.doc.configuration, START)
    assert w.doc.undo_stack.count() == 0 and not w.doc.modified


def test_hold_keeps_the_robot_still(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    click(qtbot, w.simulate.hold)
    assert w.simulate.hold.isChecked()
    click(qtbot, w.simulate.play_button)
    qtbot.waitUntil(lambda: w.simulate.sim is not None and w.simulate.sim.time > 0.2, timeout=60_000)
    click(qtbot, w.simulate.play_button)
    assert w.simulate.sim.holding
    np.testing.assert_allclose(w.doc.configuration, START, atol=1e-6)
    click(qtbot, w.simulate.hold)  # let go: it falls
    for _ in range(50):
        click(qtbot, w.simulate.step_button)
    assert np.abs(w.doc.configuration - START).max() > 1e-4


def test_typed_gains_reach_the_controller_and_stiff_ones_are_explained(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    click(qtbot, w.simulate.step_button)
    click(qtbot, w.simulate.hold)
    box = w.simulate.kp
    box.selectAll()
    QTest.keyClicks(box, "900000")
    QTest.keyClick(box, Qt.Key.Key_Return)
    assert w.simulate.sim._hold[1] == 900000.0
    assert w.simulate.sim.substeps > 1 and "internal steps" in w.simulate.note.text()
    box = w.simulate.kd
    box.selectAll()
    QTest.keyClicks(box, "900000")
    QTest.keyClick(box, Qt.Key.Key_Return)
    assert "too stiff" in w.simulate.note.text()
    assert not w.simulate.hold.isChecked() and not w.simulate.sim.holding


def test_an_edit_ends_the_simulation(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    click(qtbot, w.simulate.step_button)
    assert w.simulate.sim is not None
    w.doc.set_joint_position("q1", 1.0)  # a slider moved by hand
    assert w.simulate.sim is None
    assert w.doc.configuration[0] == 1.0


# --- the simulation runs on a worker thread (SimRunner): what the user does reaches it safely ---
def play_until(qtbot, w, seconds: float) -> None:
    if not w.simulate.playing:
        click(qtbot, w.simulate.play_button)
    start = w.simulate.sim.time
    qtbot.waitUntil(lambda: w.simulate.sim.time > start + seconds, timeout=60_000)


def test_pause_stops_the_worker_and_the_robot_stays_where_it_stopped(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    play_until(qtbot, w, 0.1)
    runner = w.simulate.runner
    assert runner.running
    click(qtbot, w.simulate.play_button)  # Pause
    assert not runner.running and not w.simulate.playing
    t = w.simulate.sim.time
    np.testing.assert_array_equal(w.doc.configuration, w.simulate.sim.q)
    click(qtbot, w.simulate.step_button)  # paused: Step is exactly one 1 ms step
    assert w.simulate.sim.time == pytest.approx(t + 1e-3, abs=1e-12)
    np.testing.assert_array_equal(w.doc.configuration, w.simulate.sim.q)
    assert w.simulate.readout["rate"].text() == "paused"


def test_reset_while_playing_goes_back_to_the_start_and_plays_on(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    play_until(qtbot, w, 0.2)
    assert np.abs(w.doc.configuration - START).max() > 0.05  # fallen
    click(qtbot, w.simulate.reset_button)
    # back at once (the thread, still running, may have stepped a few ms from there: < 1e-3 rad in 20 ms)
    assert np.abs(w.doc.configuration - START).max() < 2e-3
    assert w.simulate.sim.time < 0.05 and w.simulate.runner.running
    play_until(qtbot, w, 0.05)  # and it falls again from there
    click(qtbot, w.simulate.play_button)
    assert np.abs(w.doc.configuration - START).max() > 1e-4


def test_a_joint_typed_while_playing_ends_the_run(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    play_until(qtbot, w, 0.05)
    runner = w.simulate.runner
    spin = w.sliders.rows["q1"].spin
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin.lineEdit(), "45")
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert w.simulate.sim is None and not runner.running and not w.simulate.playing
    assert w.doc.configuration[0] == pytest.approx(np.pi / 4, abs=1e-12)
    assert w.doc.undo_stack.count() == 1  # the typed value is the one edit; the simulation left none


def test_friction_and_hold_changed_while_playing_reach_the_running_simulator(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    play_until(qtbot, w, 0.05)
    click(qtbot, w.simulate.friction)
    assert not w.simulate.sim.friction
    click(qtbot, w.simulate.hold)
    assert w.simulate.sim.holding and w.simulate.runner.running
    play_until(qtbot, w, 0.5)
    click(qtbot, w.simulate.play_button)
    assert np.abs(w.simulate.sim.qd).max() < 0.05  # held still near the pose Hold was ticked at


def test_closing_the_dock_while_playing_stops_the_worker_and_puts_the_robot_back(puma_window, qtbot):
    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    play_until(qtbot, w, 0.1)
    runner = w.simulate.runner
    press_s(qtbot, w)
    qtbot.waitUntil(lambda: not w.simulate_dock.isVisible())
    assert not runner.running and w.simulate.sim is None
    np.testing.assert_allclose(w.doc.configuration, START)
    assert w.doc.undo_stack.count() == 0 and not w.doc.modified


def test_a_simulation_too_slow_for_real_time_slows_down_and_draws_fewer_frames(puma_window, qtbot):
    from kinetree.app.panels.simulate import SLOWEST_TICK_MS, TICK_MS

    w = puma_window
    press_s(qtbot, w)
    qtbot.waitUntil(w.simulate_dock.isVisible)
    click(qtbot, w.simulate.step_button)
    click(qtbot, w.simulate.hold)
    box = w.simulate.kd  # stiff damping: many internal steps per 1 ms, far slower than real time here
    box.selectAll()
    QTest.keyClicks(box, "20000")
    QTest.keyClick(box, Qt.Key.Key_Return)
    assert w.simulate.sim.substeps > 10
    click(qtbot, w.simulate.play_button)
    assert w.simulate._timer.interval() == TICK_MS
    qtbot.waitUntil(lambda: w.simulate._timer.interval() == SLOWEST_TICK_MS, timeout=60_000)
    assert w.simulate.runner.dropped > 0  # real time it could not keep up with, not caught up later
    qtbot.waitUntil(lambda: w.simulate.readout["rate"].text().endswith("×"), timeout=60_000)
    assert float(w.simulate.readout["rate"].text()[:-1]) < 1.0
    t = w.simulate.sim.time
    qtbot.waitUntil(lambda: w.simulate.sim.time > t, timeout=60_000)  # slower, not stopped
    click(qtbot, w.simulate.play_button)  # and the window still answers
    assert not w.simulate.playing and not w.simulate.runner.running


def test_a_tree_too_large_for_the_dense_dynamics_is_refused_with_a_message(window, qtbot):
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    from kinetree.core.simulation.simulator import MAX_DOF

    tree, parent = RigidBodyTree(), "base"
    for i in range(MAX_DOF + 1):
        body = RigidBody(f"b{i}")
        body.joint = Joint(f"j{i}", "revolute")
        tree.add_body(body, parent)
        parent = body.name
    window.doc.load(tree)
    press_s(qtbot, window)
    qtbot.waitUntil(window.simulate_dock.isVisible)
    click(qtbot, window.simulate.play_button)  # refused before a matrix is made: nothing runs
    assert not window.simulate.playing and window.simulate.sim is None
    assert f"{MAX_DOF + 1} degrees of freedom is more than the {MAX_DOF}" in window.simulate.note.text()
