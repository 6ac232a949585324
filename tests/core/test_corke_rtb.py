"""Corke's Puma 560 against Corke's own Robotics Toolbox for Python (roboticstoolbox), motor
inertia and friction included: rne, inertia, gravload, coriolis, accel, friction, nofriction,
jacob0 and jacob0_dot. Skipped when roboticstoolbox is not installed (it is not a test extra)."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import load_robot

rtb = pytest.importorskip("roboticstoolbox")

SWAP = [3, 4, 5, 0, 1, 2]  # Corke's Jacobians are [v; ω], ours [ω; v]


@pytest.fixture(scope="module")
def pumas():
    corke = rtb.models.DH.Puma560()
    ours = load_robot("puma560")
    ours.gravity = corke.gravity
    return corke, ours


@pytest.mark.parametrize("seed", range(4))
def test_puma_dynamics_equal_corkes(pumas, seed):
    corke, ours = pumas
    rng = np.random.default_rng(seed)
    q, qd, qdd = rng.uniform(-2, 2, 6), rng.normal(size=6) * 2, rng.normal(size=6)
    np.testing.assert_allclose(ours.inverse_dynamics(q, qd, qdd), corke.rne(q, qd, qdd), atol=1e-9)
    np.testing.assert_allclose(ours.mass_matrix(q), corke.inertia(q), atol=1e-9)
    np.testing.assert_allclose(ours.gravity_torque(q), corke.gravload(q), atol=1e-9)
    np.testing.assert_allclose(ours.velocity_product(q, qd), corke.coriolis(q, qd) @ qd, atol=1e-9)
    tau = rng.normal(size=6) * 5
    for method in ("aba", "cholesky"):
        np.testing.assert_allclose(ours.forward_dynamics(q, qd, tau, method=method), corke.accel(q, qd, tau),
                                   atol=1e-9)
    np.testing.assert_allclose([b.joint.friction(v) for b, v in zip(ours.bodies, qd)], corke.friction(qd), atol=1e-12)
    bare = corke.nofriction(coulomb=True, viscous=True)
    np.testing.assert_allclose([b.joint.nofriction("all").friction(v) for b, v in zip(ours.bodies, qd)],
                               bare.friction(qd), atol=0)
    J = ours.geometric_jacobian(q, "link6", space="velocities")
    np.testing.assert_allclose(J, corke.jacob0(q)[SWAP], atol=1e-12)
    np.testing.assert_allclose(ours.jacobian_dot(q, qd, "link6"), corke.jacob0_dot(q, qd)[SWAP], atol=1e-12)


def test_puma_link_parameters_equal_corkes(pumas):
    """m, r, I, Jm, B, Tc, G and qlim of every link, as Corke's mdl_puma560 / Puma560.py."""
    corke, ours = pumas
    for link, b in zip(corke.links, ours.bodies):
        j = b.joint
        assert (j.gear_ratio, j.motor_inertia, j.viscous_friction) == (link.G, link.Jm, link.B)
        assert j.coulomb_friction == tuple(link.Tc)
        assert b.mass == link.m
        np.testing.assert_allclose(b.center_of_mass, link.r, atol=1e-15)
        np.testing.assert_allclose(j.position_limits, link.qlim, atol=1e-15)
        i, c = np.asarray(b.inertia), np.asarray(b.center_of_mass)  # ours about the body origin
        about_com = (np.array([[i[0], i[5], i[4]], [i[5], i[1], i[3]], [i[4], i[3], i[2]]])
                     - b.mass * (c @ c * np.eye(3) - np.outer(c, c)))
        np.testing.assert_allclose(about_com, link.I, atol=1e-15)
