"""geometric_jacobian against central finite differences of FK, and manipulability."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import hyp_settings, random_config, random_tree, rot_log
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import InvalidConfigurationError, Joint, RigidBody, RigidBodyTree, load_robot

H = 1e-6
TOL = 1e-6


def fd_twist(tree, q, body, dq, h=H):
    """Central difference of body's pose along ``dq``: [ω; v] in the base frame."""
    Tp = tree.get_transform(q + h * dq, body)
    Tm = tree.get_transform(q - h * dq, body)
    w = rot_log(Tp[:3, :3] @ Tm[:3, :3].T) / (2 * h)
    v = (Tp[:3, 3] - Tm[:3, 3]) / (2 * h)
    return np.concatenate([w, v])


def _quaternion_columns(tree) -> set[int]:
    cols = set()
    for b in tree.bodies:
        if b.joint.type in ("floating", "spherical"):
            s = tree.position_index(b.joint.name)
            cols.update(range(s.start, s.start + 4))
    return cols


def check_jacobian(tree, q, rng):
    quat = _quaternion_columns(tree)
    for body in tree.body_names:
        J = tree.geometric_jacobian(q, body)
        assert J.shape == (6, tree.position_count)
        # one column at a time for the ordinary coordinates
        for k in range(tree.position_count):
            if k in quat:
                continue
            e = np.zeros(tree.position_count)
            e[k] = 1.0
            np.testing.assert_allclose(J[:, k], fd_twist(tree, q, body, e), atol=TOL, rtol=0,
                                       err_msg=f"body {body}, column {k}")
        # random directions (this covers the quaternion columns: J @ dq vs a difference along dq)
        for _ in range(3):
            dq = rng.normal(size=tree.position_count)
            np.testing.assert_allclose(J @ dq, fd_twist(tree, q, body, dq), atol=TOL * 5, rtol=0,
                                       err_msg=f"body {body}, direction {dq}")


@pytest.mark.parametrize("jtype", ["revolute", "prismatic", "planar", "floating", "spherical"])
def test_single_joint_type_chain(jtype):
    """A chain of three joints of one type (plus a fixed tip) with random transforms and axes."""
    rng = np.random.default_rng(sum(map(ord, jtype)))
    tree = random_tree(rng, n_bodies=3, types=[jtype])
    tip = RigidBody("tip")
    j = Joint("tip_jnt", "fixed")
    j.set_fixed_transform([0.3, 0.2, 0.1, 0.4], "dh")
    tip.joint = j
    tree.add_body(tip, tree.body_names[-1])
    for _ in range(3):
        check_jacobian(tree, random_config(tree, rng), rng)


@hyp_settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 8))
def test_random_tree_jacobian(seed, n):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    check_jacobian(tree, random_config(tree, rng), rng)


def test_quaternion_columns_along_tangent_and_radial_directions():
    """For a spherical joint: moving the quaternion radially does nothing; a tangent move
    ``dq = ½·[0, ω]⊗q`` turns the body by ω (in the joint's predecessor frame)."""
    tree = RigidBodyTree()
    b = RigidBody("ball")
    b.joint = Joint("ball_jnt", "spherical")
    tree.add_body(b, "base")
    q = np.array([0.9, 0.1, -0.3, 0.2]) * 1.7  # not unit on purpose
    J = tree.geometric_jacobian(q, "ball")
    np.testing.assert_allclose(J @ q, 0.0, atol=1e-12)
    omega = np.array([0.3, -0.5, 0.8])
    u = q / np.linalg.norm(q)
    w0, v0 = u[0], u[1:]
    dq = 0.5 * np.concatenate([[-omega @ v0], w0 * omega + np.cross(omega, v0)]) * np.linalg.norm(q)
    np.testing.assert_allclose(J[:3] @ dq, omega, atol=1e-12)
    np.testing.assert_allclose(J[3:] @ dq, 0.0, atol=1e-12)


def test_puma_jacobian_against_fd(puma):
    rng = np.random.default_rng(0)
    for _ in range(5):
        check_jacobian(puma, puma.random_configuration(rng), rng)


def test_jacobian_of_base_and_unrelated_joints():
    tree = load_robot("two_link_planar")
    b = RigidBody("side")
    b.joint = Joint("side_jnt", "prismatic")
    tree.add_body(b, "base")
    q = np.array([0.3, 0.4, 0.1])
    assert np.array_equal(tree.geometric_jacobian(q, "base"), np.zeros((6, 3)))
    J = tree.geometric_jacobian(q, "link2")
    assert np.array_equal(J[:, 2], np.zeros(6))  # the side branch does not move link2
    J1 = tree.geometric_jacobian(q, "link1")
    assert np.array_equal(J1[:, 1:], np.zeros((6, 2)))


# --- manipulability ------------------------------------------------------------------------------

@hyp_settings()
@given(t1=st.floats(-math.pi, math.pi), t2=st.floats(-math.pi, math.pi))
def test_two_link_planar_xy_manipulability(t1, t2):
    """The planar two-link arm's xy Jacobian has |det| = a1·a2·|sin θ2| (a1 = 1, a2 = 0.5)."""
    tree = load_robot("two_link_planar")
    J = tree.geometric_jacobian([t1, t2], "link2")
    Jxy = J[3:5]
    s1, c1, s12, c12 = math.sin(t1), math.cos(t1), math.sin(t1 + t2), math.cos(t1 + t2)
    np.testing.assert_allclose(Jxy, [[-s1 - 0.5 * s12, -0.5 * s12], [c1 + 0.5 * c12, 0.5 * c12]], atol=1e-12)
    np.testing.assert_allclose(abs(np.linalg.det(Jxy)), 0.5 * abs(math.sin(t2)), atol=1e-12)
    # the arm moves in the plane only: z translation and x/y rotation rows are zero, and the
    # full 3-D translational measure (Yoshikawa on a 3×2 Jacobian, as in Corke's toolbox) is 0
    np.testing.assert_allclose(J[[0, 1, 5]], 0.0, atol=1e-15)
    assert tree.manipulability([t1, t2], "link2", axes="trans") == pytest.approx(0.0, abs=1e-7)


@hyp_settings()
@given(t1=st.floats(-2.6, 2.6), t2=st.floats(-2.6, 2.6), d3=st.floats(0, 0.3), t4=st.floats(-3, 3))
def test_scara_translational_manipulability(t1, t2, d3, t4):
    """SCARA: θ1, θ2 move the tip in xy, d3 along z, θ4 not at all: sqrt(det(J Jᵀ)) = a1·a2·|sin θ2|."""
    tree = load_robot("scara")
    m = tree.manipulability([t1, t2, d3, t4], "link4", axes="trans")
    expected = 0.4 * 0.3 * abs(math.sin(t2))
    assert m**2 == pytest.approx(expected**2, abs=1e-12)  # squares: sqrt magnifies round-off at θ2 = 0
    # the relative check where round-off in det(J Jᵀ) (~1e-16), magnified by the square root
    # (≈ 1e-16 / 2m), stays far below 1e-9 of m: hypothesis found θ2 = 1e-5 off by 1.4e-6 relative
    if expected > 1e-3:
        assert m == pytest.approx(expected, rel=1e-9)


def test_puma_manipulability_definitions(puma):
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = puma.random_configuration(rng)
        J = puma.geometric_jacobian(q, "link6")
        assert puma.manipulability(q, "link6") == pytest.approx(abs(np.linalg.det(J)), rel=1e-9, abs=1e-15)
        for axes, rows in (("trans", J[3:]), ("rot", J[:3])):
            expected = math.sqrt(max(np.linalg.det(rows @ rows.T), 0.0))
            assert puma.manipulability(q, "link6", axes=axes) == pytest.approx(expected, rel=1e-9, abs=1e-15)
    # wrist singularity (q5 = 0: joints 4 and 6 aligned)
    q = np.array([0.3, -0.5, 0.4, 0.7, 0.0, -0.2])
    assert puma.manipulability(q, "link6") == pytest.approx(0.0, abs=1e-7)  # sqrt of a ~1e-18 determinant
    assert puma.manipulability(q, "link6", axes="trans") > 1e-3


def test_manipulability_rejects_unknown_axes(puma):
    with pytest.raises(InvalidConfigurationError, match="xyz"):
        puma.manipulability(np.zeros(6), "link6", axes="xyz")
