"""Quintic joint-space motion: ends at rest at every pose, vectorized, bounded."""

from __future__ import annotations

from math import pi

import numpy as np
import pytest
from kinetree.core import InvalidConfigurationError, joint_trajectory, load_robot, quintic, sample_trajectory


def test_quintic_boundary_conditions():
    q0, q1 = np.array([0.0, 1.0, -2.0]), np.array([1.0, -1.0, 3.0])
    ends = quintic(q0, q1, [0.0, 1.0])
    np.testing.assert_array_equal(ends, [q0, q1])
    for derivative in (1, 2):
        np.testing.assert_allclose(quintic(q0, q1, [0.0, 1.0], derivative), 0.0, atol=1e-15)
    np.testing.assert_allclose(quintic(q0, q1, 0.5), (q0 + q1) / 2)  # symmetric about the midpoint
    s = np.linspace(0, 1, 1001)
    Q = quintic(q0, q1, s)
    assert Q.shape == (1001, 3)
    # derivatives agree with finite differences, and the motion is monotonic
    np.testing.assert_allclose(np.gradient(Q, s, axis=0)[1:-1], quintic(q0, q1, s, 1)[1:-1], atol=1e-3)
    V = quintic(q0, q1, s, 1)
    np.testing.assert_allclose(np.gradient(V, s, axis=0)[1:-1], quintic(q0, q1, s, 2)[1:-1], atol=1e-2)
    assert np.all(np.diff(Q, axis=0) * np.sign(q1 - q0) >= 0)
    # peak velocity of a quintic: 15/8 of the average
    np.testing.assert_allclose(np.abs(V).max(axis=0), 15 / 8 * np.abs(q1 - q0), rtol=1e-3)


def test_puma_qz_to_qr_trajectory():
    tree = load_robot("puma560")
    qz, qr = tree.named_poses["qz"], tree.named_poses["qr"]
    t, Q = joint_trajectory([qz, qr], 2.0, 30)
    assert t.shape == (61,) and Q.shape == (61, 6)  # round(2 s · 30 fps) + 1, both ends included
    np.testing.assert_allclose(np.diff(t), 1 / 30)
    np.testing.assert_array_equal(Q[0], qz)
    np.testing.assert_allclose(Q[-1], qr, atol=1e-15)
    np.testing.assert_allclose(Q[30], (qz + qr) / 2, atol=1e-15)
    assert tree.forward_kinematics(Q).shape == (61, 6, 4, 4)  # a batch the engine takes as is


def test_several_poses_stop_at_each():
    P = [np.zeros(2), np.array([1.0, 0.0]), np.array([1.0, 2.0])]
    t, Q = joint_trajectory(P, 3.0, 10)  # 1.5 s per segment
    assert len(t) == 31
    np.testing.assert_allclose(Q[15], P[1], atol=1e-15)
    V = sample_trajectory(P, 3.0, [0.0, 1.5, 3.0], derivative=1)
    np.testing.assert_allclose(V, 0.0, atol=1e-15)
    # per-segment durations, and velocity in units per second
    V = sample_trajectory(P, [1.0, 4.0], [0.5, 3.0], derivative=1)
    np.testing.assert_allclose(V, [[15 / 8, 0.0], [0.0, 15 / 8 * 2 / 4]])
    # times outside the motion hold the end poses
    np.testing.assert_allclose(sample_trajectory(P, 3.0, [-1.0, 99.0]), [P[0], P[2]])


def test_one_pose_is_a_still_frame():
    t, Q = joint_trajectory([[pi, 0.5]], 2.0, 25)
    assert t.tolist() == [0.0] and Q.tolist() == [[pi, 0.5]]


@pytest.mark.parametrize("call, match", [
    (lambda: joint_trajectory([], 1.0, 30), "at least one pose"),
    (lambda: joint_trajectory([[0, 0], [1]], 1.0, 30), "differ in length"),
    (lambda: joint_trajectory([[0], [1]], 0.0, 30), "positive"),
    (lambda: joint_trajectory([[0], [1]], float("nan"), 30), "positive"),
    (lambda: joint_trajectory([[0], [1]], 1.0, 0), "fps"),
    (lambda: joint_trajectory([[0], [1]], 1.0, "fast"), "fps"),
    (lambda: joint_trajectory([[0], [1]], 1e9, 1e9), "frames, more than"),
    (lambda: joint_trajectory([[0], [float("inf")]], 1.0, 30), "not finite"),
    (lambda: joint_trajectory([[0], [1], [2]], [1.0, 2.0, 3.0], 30), "3 durations for 2 segments"),
    (lambda: quintic([0, 1], [1], 0.5), "q0 has 2 values"),
    (lambda: quintic([0], [1], 0.5, derivative=3), "derivative"),
])
def test_refusals(call, match):
    with pytest.raises(InvalidConfigurationError, match=match):
        call()
