"""View ▸ Workspace on a robot with closed loops draws the closed workspace: the four-bar's coupler
tip on its coupler curve (on the rocker's circle, where Freudenstein puts it), not the open tree's cloud;
the Joints panel's Random gives a closed pose, or says why it cannot."""

from __future__ import annotations

import kinetree.app.features.analysis as analysis_module
import numpy as np
from helpers.loops import GROUND, ROCKER, four_bar, freudenstein, tipped_four_bar, wrap
from kinetree.core import random_configurations, sample_workspace
from PySide6.QtWidgets import QToolButton


def test_workspace_of_a_looped_robot_is_the_closed_coupler_curve(window, qtbot):
    t = tipped_four_bar()
    window.doc.load(t, t.home_configuration())
    window.doc.select("tip")
    a = window.analysis
    a.workspace_action.trigger()
    n = analysis_module.LOOP_WORKSPACE_SAMPLES
    qtbot.waitUntil(lambda: a.cloud.count == n and not a.computing, timeout=60_000)
    tree = window.doc.tree
    points, _ = sample_workspace(tree, "tip", n, rng=analysis_module.WORKSPACE_SEED)
    np.testing.assert_allclose(a.cloud.points.pos, points, atol=1e-6)  # the engine's closed samples
    drawn = np.asarray(a.cloud.points.pos, dtype=float)
    assert np.abs(np.hypot(drawn[:, 0] - GROUND, drawn[:, 1]) - ROCKER).max() <= 1e-6  # the rocker's tip
    Q = random_configurations(tree, n, analysis_module.WORKSPACE_SEED)
    assert np.ptp(Q[:, 0]) > 6.0 and np.ptp(np.arctan2(drawn[:, 1], drawn[:, 0] - GROUND)) < 2.0  # a rocker arc
    assert f"{n:,}" in a.cloud.legend.title and "tip" in a.cloud.legend.title


def test_random_pose_of_a_looped_robot_is_closed_or_refused_with_the_reason(window, qtbot):
    t = tipped_four_bar()
    window.doc.load(t, t.home_configuration())
    random_button = window.sliders.findChild(QToolButton, "joints_random")
    for _ in range(5):
        random_button.click()
        q = window.doc.configuration
        assert np.abs(t.loop_residual(q)).max() <= 1e-12 and abs(wrap(q[2] - freudenstein(q[0]))) <= 1e-9
    # a crank whose limits hold no angle the loop closes at (its tip too far from the rocker), shown
    # closed at 1 rad
    t = four_bar(a=0.4)
    crank = t.get_body("crank").joint
    crank.home_position = 2.5
    crank.position_limits = (2.0, 3.0)
    window.doc.load(t, t.solve_loops(np.array([1.0, 2.0, 1.5])))
    before = window.doc.configuration
    with qtbot.waitSignal(window.doc.message) as said:
        random_button.click()
    assert "random draws" in said.args[0] and "loop 'close' cannot be assembled" in said.args[0]
    assert np.array_equal(window.doc.configuration, before)
