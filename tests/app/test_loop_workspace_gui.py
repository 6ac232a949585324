"""View ▸ Workspace on a robot with closed loops draws the closed workspace: the four-bar's coupler
tip on its coupler curve (on the rocker's circle, where Freudenstein puts it), not the open tree's cloud."""

from __future__ import annotations

import kinetree.app.features.analysis as analysis_module
import numpy as np
from helpers.loops import GROUND, ROCKER, tipped_four_bar
from kinetree.core import random_configurations, sample_workspace


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
