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


def wrap(a):
    """Angles into (−π, π] (±π are the same angle)."""
    return (np.asarray(a) + np.pi) % (2 * np.pi) - np.pi


def check(R: np.ndarray) -> None:
    r = rotation_readouts(R)
    np.testing.assert_allclose(rpy_to_matrix(r["rpy"]), R, atol=1e-12)
    phi, theta, psi = r["zyz"]
    np.testing.assert_allclose((rotz(phi) @ roty(theta) @ rotz(psi))[:3, :3], R, atol=1e-12)
    assert r["quat"][0] >= 0 and abs(np.linalg.norm(r["quat"]) - 1) < 1e-12
    np.testing.assert_allclose(quat_to_rotation(r["quat"]), R, atol=1e-12)
    assert 0 <= r["angle"] <= np.pi + 1e-12 and abs(np.linalg.norm(r["axis"]) - 1) < 1e-12
    np.testing.assert_allclose(axis_angle_rotation(r["axis"], r["angle"]), R, atol=1e-12)


@settings(max_examples=400, deadline=None)
@given(quats)
def test_every_readout_rebuilds_the_rotation(q):
    check(quat_to_rotation(q))


def test_special_rotations():
    for R in (np.eye(3), rotz(np.pi)[:3, :3], roty(np.pi / 2)[:3, :3], roty(-np.pi / 2)[:3, :3],
              (rotz(0.3) @ roty(np.pi / 2))[:3, :3]):
        check(R)
    assert rotation_readouts(np.eye(3))["angle"] == 0.0
    np.testing.assert_array_equal(rotation_readouts(np.eye(3))["axis"], [0, 0, 1])


@settings(max_examples=400, deadline=None)
@given(quats)
def test_same_numbers_as_scipy(q):
    """The closed forms agree with scipy's Rotation (an independent implementation)."""
    Rotation = __import__("pytest").importorskip("scipy.spatial.transform").Rotation
    R = quat_to_rotation(q)
    rot = Rotation.from_matrix(R)
    r = rotation_readouts(R)
    x, y, z, w = rot.as_quat()
    ref = np.array([w, x, y, z]) * (1 if w >= 0 else -1)
    np.testing.assert_allclose(r["quat"], ref, atol=1e-12)
    if abs(r["angle"] - np.pi) > 1e-6:  # at π, axis and −axis are the same rotation
        np.testing.assert_allclose(r["angle"] * r["axis"], rot.as_rotvec(), atol=1e-9)
    if abs(abs(r["rpy"][1]) - np.pi / 2) > 1e-3:  # away from gimbal lock the angles are unique
        np.testing.assert_allclose(wrap(r["rpy"] - rot.as_euler("xyz")), 0, atol=1e-9)
    if 1e-3 < r["zyz"][1] < np.pi - 1e-3:
        np.testing.assert_allclose(wrap(r["zyz"] - rot.as_euler("ZYZ")), 0, atol=1e-9)
