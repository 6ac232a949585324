"""The exported web page read back in a headless Chromium (the ``browser`` fixture)."""

from __future__ import annotations

import shutil

import numpy as np
from kinetree.app.panels.pose import pose_readouts

CHROMIUM, CHROMEDRIVER = shutil.which("chromium") or "/usr/bin/chromium", shutil.which("chromedriver")


def next_frame(browser) -> None:
    """Wait until the page has drawn what it was asked to (it draws once per display frame)."""
    browser.execute_async_script("window.kinetree.nextFrame().then(arguments[arguments.length - 1])")


def check_page_matches_engine(browser, tree, q) -> None:
    world = browser.execute_script("return window.kinetree.worldMatrices()")
    assert set(world) == set(tree.body_names)
    for name, m in world.items():
        np.testing.assert_allclose(np.reshape(m, (4, 4)), tree.get_transform(q, name), rtol=0, atol=1e-12,
                                   err_msg=name)
    if tree.end_effector is not None:
        # the dock's text of the page's pose; the angles are rounding-sensitive at gimbal lock (Panda's
        # home has ZYZ θ = 180°, where 1e-17 in R moves φ and ψ by degrees), the matrix and position are not
        shown = browser.execute_script("return window.kinetree.poseText()")
        assert shown == pose_readouts(np.reshape(world[tree.end_effector], (4, 4)), 4, True)
        engine = pose_readouts(tree.get_transform(q, tree.end_effector), 4, True)
        assert [shown[k] for k in ("matrix", "x", "y", "z")] == [engine[k] for k in ("matrix", "x", "y", "z")]
