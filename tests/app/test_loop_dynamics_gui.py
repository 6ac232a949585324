"""Closed loops in the dynamics docks (issue 35): Simulate plays a looped robot with the
constrained step (the loop stays closed, the dock says it runs the Python path), and the
Torques dock shows the actuators' torques with the passive joints' rows as "0 (passive)"."""

from __future__ import annotations

import numpy as np
from helpers.loops import closed, heavy_four_bar
from kinetree.app.features.playback import PlaybackState
from kinetree.app.model.document import RobotDocument
from kinetree.app.panels.simulate import SimulatePanel
from kinetree.app.panels.sliders import JointsPanel, torque_text
from kinetree.app.panels.torques import TorquePanel
from kinetree.core.dynamics.loops import inverse_dynamics_constraints


def test_simulate_plays_a_looped_robot_with_the_loop_closed(qtbot):
    t = heavy_four_bar()
    for b in t.bodies:  # no joint stop within reach however long the run: a stop's impulse, applied
        b.joint.position_limits = (-50.0, 50.0)  # before the re-closing step, is not counted as work
    doc = RobotDocument()
    doc.load(t, closed(t, 0.3))
    start = doc.configuration
    panel = SimulatePanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    panel.friction.setChecked(False)
    panel.play_button.click()  # on a fresh install it first waits for the compiled kernels (the mass matrix's)
    qtbot.waitUntil(lambda: panel.playing, timeout=180_000)
    assert "Closed loops (1)" in panel.note.text() and "Python path" in panel.note.text()
    qtbot.waitUntil(lambda: panel.runner.snapshot()[1] >= 0.05, timeout=60_000)
    panel.play_button.click()  # pause
    assert not panel.playing and panel.runner.error is None
    q = doc.configuration
    assert abs(q[0] - start[0]) > 1e-4  # it fell
    assert np.linalg.norm(doc.tree.loop_residual(q)) < 1e-9  # on its loop
    assert abs(panel.sim.energy().drift) < 1e-6


def test_torques_dock_shows_the_actuators_torques_and_passive_rows(qtbot):
    t = heavy_four_bar()
    t.named_poses["low"] = closed(t, 0.3)
    t.named_poses["high"] = closed(t, 1.5)
    doc = RobotDocument()
    doc.load(t, t.named_poses["low"])
    state = PlaybackState(doc)
    state.set_names(["low", "high"])
    state.set_seconds(1.0)
    panel = TorquePanel(doc, state)
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitUntil(lambda: panel.profile is not None, timeout=60_000)
    prof = panel.profile
    assert prof.passive == (False, True, True)
    rows = panel.table_text()
    assert [r[1] for r in rows[1:]] == ["0 (passive)", "0 (passive)"]
    assert rows[0][1] == f"{prof.peaks[0].value:.3f}" and abs(prof.peaks[0].value) > 0.1
    assert "Closed loops" in panel.header.text()
    for i in (0, 137, 400):  # each sample closed, and its torque the actuator's inverse dynamics
        q = prof.q[i]
        assert np.linalg.norm(doc.tree.loop_residual(q)) <= 1e-12
        tau, _ = inverse_dynamics_constraints(doc.tree, q, prof.qd[i], prof.qdd[i])
        np.testing.assert_allclose(prof.tau[i], tau, rtol=0, atol=1e-9)
    _, tau = panel.curves[1].getData()
    assert not np.any(tau)  # the passive joints' curves are flat at 0


def test_the_joints_docks_gravity_torques_on_a_looped_robot_are_the_actuators(qtbot):
    """The Joints dock's gravity torques (G) showed the open tree's holding torques on a looped
    robot: nonzero on the passive joints, the crank's as if the loop were cut. They are the
    actuated joints' torques now (passive ones 0), as the Torques dock and inverse dynamics say."""
    t = heavy_four_bar()
    q = closed(t, 0.9)
    doc = RobotDocument()
    doc.load(t, q)
    panel = JointsPanel(doc)
    qtbot.addWidget(panel)
    panel.set_torques_visible(True)
    tau = inverse_dynamics_constraints(doc.tree, q)[0]
    assert abs(tau[0]) > 0.01 and np.any(np.abs(doc.tree.gravity_torque(q)[1:]) > 0.01)  # the open tree's differ
    shown = {key: row.torque.text() for key, row in panel.rows.items()}
    assert shown == {"crank_joint": torque_text(tau[0], "N·m"), "coupler_joint": "0.000 N·m",
                     "rocker_joint": "0.000 N·m"}
