"""The kinematic plan's joint-axis rotations, made for all bodies at once, are those made one
body at a time, to the bit (a 1000-body tree builds its plan on every edit: 20 ms one by one)."""

from __future__ import annotations

import numpy as np
from kinetree.core.kinematics.plan import KinematicPlan, _z_to_axes, _z_to_axis


def test_batched_axis_rotations_equal_the_single_ones_to_the_bit():
    rng = np.random.default_rng(7)
    axes = rng.normal(size=(2000, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    axes = np.vstack([axes, [[0, 0, 1], [0, 0, -1], [1, 0, 0], [0, -1, 0], [0, 1e-9, 1 - 5e-19]]])
    assert np.array_equal(_z_to_axes(axes), np.array([_z_to_axis(a) for a in axes]))


def test_the_plan_holds_each_body_s_joint_frames():
    from kinetree.core import load_robot

    for name in ("puma560", "panda", "scara", "stanford"):
        tree = load_robot(name)
        plan = KinematicPlan(tree)
        for i, b in enumerate(tree.bodies):
            j = b.joint
            if j.type in ("revolute", "prismatic"):
                Ra = _z_to_axis(j._axis)
                assert np.array_equal(plan.A[i], j._jtp @ Ra) and np.array_equal(plan.B[i], Ra.T @ j._ctj), (name, i)
            assert plan.A_is_I[i] == bool(np.array_equal(plan.A[i], np.eye(4)))
