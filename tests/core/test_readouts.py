"""Pose readouts (the Pose panel's numbers): each one rebuilds the rotation it came from."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.core.transforms import (
    axis_angle_rotation,
    quat_to_rotation,
    rotation_readouts,
    roty,
    rotz,
    rpy_to_matrix,
)

quats = st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4).filter(
    lambda v: np.linalg.norm(v) > 1e-3)


def check(R: np.ndarray) -> None:
    r = rotation_readouts(R)
    # Euler angles lose a few digits at gimbal lock (scipy sets the third angle to 0 there)
    np.testing.assert_allclose(rpy_to_matrix(r["rpy"]), R, atol=1e-10)
    phi, theta, psi = r["zyz"]
    np.testing.assert_allclose((rotz(phi) @ roty(theta) @ rotz(psi))[:3, :3], R, atol=1e-10)
    assert r["quat"][0] >= 0 and abs(np.linalg.norm(r["quat"]) - 1) < 1e-12
    np.testing.assert_allclose(quat_to_rotation(r["quat"]), R, atol=1e-12)
    assert 0 <= r["angle"] <= np.pi + 1e-12 and abs(np.linalg.norm(r["axis"]) - 1) < 1e-12
    np.testing.assert_allclose(axis_angle_rotation(r["axis"], r["angle"]), R, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(quats)
def test_every_readout_rebuilds_the_rotation(q):
    check(quat_to_rotation(q))


def test_special_rotations():
    for R in (np.eye(3), rotz(np.pi)[:3, :3], roty(np.pi / 2)[:3, :3], roty(-np.pi / 2)[:3, :3],
              (rotz(0.3) @ roty(np.pi / 2))[:3, :3]):
        check(R)
    assert rotation_readouts(np.eye(3))["angle"] == 0.0
    np.testing.assert_array_equal(rotation_readouts(np.eye(3))["axis"], [0, 0, 1])
