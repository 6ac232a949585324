"""The engine against independent implementations: explicit DH products, explicit 4×4 joints,
modified DH, a scipy-based tree walker, and pinocchio."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import (
    PUMA_DH,
    hyp_settings,
    np_dh,
    np_rotz,
    np_trans,
    puma_numpy_poses,
    random_config,
    random_tree,
    reference_fk,
)
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import Joint, RigidBody, RigidBodyTree, load_robot

TOL = 1e-12

q6 = st.lists(st.floats(-math.pi, math.pi, allow_nan=False), min_size=6, max_size=6).map(np.array)


def puma_from_matrices() -> RigidBodyTree:
    """Puma built from explicit 4×4 matrices: for each link a revolute body (about z, at the
    previous link frame) then a fixed body whose JointToParent is ``Tz(d)·Tx(a)·Rx(α)``."""
    tree = RigidBodyTree("base")
    parent = "base"
    for i, (a, alpha, d) in enumerate(PUMA_DH, start=1):
        rot = RigidBody(f"rot{i}")
        rot.joint = Joint(f"q{i}", "revolute")
        tree.add_body(rot, parent)
        link = RigidBody(f"link{i}")
        fixed = Joint(f"fix{i}", "fixed")
        fixed.set_fixed_transform(np_dh(a, alpha, d, 0.0))
        link.joint = fixed
        tree.add_body(link, rot.name)
        parent = link.name
    return tree


@hyp_settings()
@given(q=q6)
def test_puma_matches_explicit_dh_loop(q):
    tree = load_robot("puma560")
    np.testing.assert_allclose(tree.forward_kinematics(q), puma_numpy_poses(q), atol=TOL, rtol=0)


@hyp_settings()
@given(q=q6)
def test_puma_matches_fixed_plus_revolute_matrices(q):
    dh_tree = load_robot("puma560")
    mat_tree = puma_from_matrices()
    assert mat_tree.position_count == 6
    T_dh = dh_tree.forward_kinematics(q)
    for i in range(6):
        np.testing.assert_allclose(mat_tree.get_transform(q, f"link{i + 1}"), T_dh[i], atol=TOL, rtol=0)
    # the "rot" bodies sit at the previous link frame turned by q_i
    T_mat = mat_tree.forward_kinematics(q)
    prev = np.eye(4)
    for i in range(6):
        np.testing.assert_allclose(T_mat[2 * i], prev @ np_rotz(q[i]), atol=TOL, rtol=0)
        prev = T_dh[i]


@hyp_settings()
@given(q=q6)
def test_puma_mdh_end_pose_equals_standard(q):
    std = load_robot("puma560")
    mdh = load_robot("puma560_mdh")
    np.testing.assert_allclose(mdh.forward_kinematics(q)[-1], std.forward_kinematics(q)[-1], atol=TOL, rtol=0)


def test_stanford_matches_explicit_dh_loop():
    """Prismatic joint whose DH θ is a constant −90°: the variable is d3."""
    rows = [(0, -math.pi / 2, 0.412, None), (0, math.pi / 2, 0.154, None), (0, 0, None, -math.pi / 2),
            (0, -math.pi / 2, 0, None), (0, math.pi / 2, 0, None), (0, 0, 0.263, None)]
    tree = load_robot("stanford")
    rng = np.random.default_rng(3)
    for _ in range(20):
        q = tree.random_configuration(rng)
        T = np.eye(4)
        expected = []
        for (a, alpha, d, theta), qi in zip(rows, q):
            T = T @ np_dh(a, alpha, qi if d is None else d, qi if theta is None else theta)
            expected.append(T)
        np.testing.assert_allclose(tree.forward_kinematics(q), np.array(expected), atol=TOL, rtol=0)


@pytest.mark.parametrize("seed", range(8))
def test_random_tree_matches_reference_walker(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=10)
    for _ in range(5):
        q = random_config(tree, rng)
        np.testing.assert_allclose(tree.forward_kinematics(q), reference_fk(tree, q), atol=TOL, rtol=0)


def test_joint_transform_matches_reference():
    """Joint.transform (single joint) follows JointToParent·M(q+offset)·ChildToJoint."""
    rng = np.random.default_rng(11)
    tree = random_tree(rng, n_bodies=12)
    for b in tree.bodies:
        j = b.joint
        n = j.position_count
        qj = rng.uniform(-1, 1, n)
        if j.type in ("floating", "spherical"):
            qj[:4] += [2, 0, 0, 0]
        sub = RigidBodyTree("p")
        body = RigidBody("c")
        body.joint = j
        sub.add_body(body, "p")
        if n == 0:
            expected = j.joint_to_parent_transform @ j.child_to_joint_transform
            np.testing.assert_allclose(j.transform(), expected, atol=TOL, rtol=0)
            continue
        np.testing.assert_allclose(j.transform(qj), reference_fk(sub, qj)[0], atol=TOL, rtol=0)
        np.testing.assert_allclose(sub.forward_kinematics(qj)[0], j.transform(qj), atol=TOL, rtol=0)


def test_dh_and_mdh_joint_transforms_follow_document():
    """set_fixed_transform(..., 'dh') puts Rz(θ)Tz(d)Tx(a)Rx(α) minus the variable in
    ChildToJoint; 'mdh' puts Rx(α)Tx(a)Rz(θ)Tz(d) minus the variable in JointToParent."""
    a, alpha, d, theta = 0.3, 0.7, -0.2, 1.1
    q = 0.4
    rev = Joint("r", "revolute")
    rev.set_fixed_transform([a, alpha, d, theta], "dh")
    np.testing.assert_allclose(rev.joint_to_parent_transform, np.eye(4), atol=TOL)
    np.testing.assert_allclose(rev.child_to_joint_transform, np_dh(a, alpha, d, 0.0), atol=TOL)
    np.testing.assert_allclose(rev.transform([q]), np_dh(a, alpha, d, q), atol=TOL)
    pri = Joint("p", "prismatic")
    pri.set_fixed_transform([a, alpha, d, theta], "dh")
    np.testing.assert_allclose(pri.transform([q]), np_dh(a, alpha, q, theta), atol=TOL)
    rev_m = Joint("rm", "revolute")
    rev_m.set_fixed_transform([a, alpha, d, theta], "mdh")
    mdh = (np.array([[1, 0, 0, 0], [0, math.cos(alpha), -math.sin(alpha), 0],
                     [0, math.sin(alpha), math.cos(alpha), 0], [0, 0, 0, 1]])
           @ np_trans(x=a) @ np_rotz(q) @ np_trans(z=d))
    np.testing.assert_allclose(rev_m.child_to_joint_transform, np.eye(4), atol=TOL)
    np.testing.assert_allclose(rev_m.transform([q]), mdh, atol=TOL)
    fixed = Joint("f", "fixed")
    fixed.set_fixed_transform([a, alpha, d, theta], "dh")
    np.testing.assert_allclose(fixed.transform(), np_dh(a, alpha, d, theta), atol=TOL)
    # a plain matrix: JointToParent = T, ChildToJoint = I, no DH row
    T = np_dh(a, alpha, d, theta)
    rev.set_fixed_transform(T)
    np.testing.assert_allclose(rev.joint_to_parent_transform, T, atol=0)
    np.testing.assert_allclose(rev.child_to_joint_transform, np.eye(4), atol=0)
    assert rev.dh_parameters is None


# --- pinocchio ---------------------------------------------------------------------------------

def _pinocchio_puma():
    pin = pytest.importorskip("pinocchio")
    model = pin.Model()
    parent = 0
    fixed = [np_trans(z=d) @ np_trans(x=a) @ np.array(
        [[1, 0, 0, 0], [0, math.cos(al), -math.sin(al), 0], [0, math.sin(al), math.cos(al), 0], [0, 0, 0, 1]])
        for a, al, d in PUMA_DH]
    frames = []
    for i in range(6):
        placement = pin.SE3(np.eye(4) if i == 0 else fixed[i - 1])
        parent = model.addJoint(parent, pin.JointModelRZ(), placement, f"q{i + 1}")
        frames.append(model.addFrame(pin.Frame(f"link{i + 1}", parent, pin.SE3(fixed[i]), pin.FrameType.OP_FRAME)))
    return pin, model, frames


@hyp_settings()
@given(q=q6)
def test_puma_matches_pinocchio(q):
    pin, model, frames = _pinocchio_puma()
    data = model.createData()
    pin.forwardKinematics(model, data, q)
    pin.updateFramePlacements(model, data)
    T = load_robot("puma560").forward_kinematics(q)
    for i, f in enumerate(frames):
        np.testing.assert_allclose(T[i], data.oMf[f].homogeneous, atol=TOL, rtol=0)
        # joint frames: the previous link frame turned about its z by q_i
        prev = T[i - 1] if i else np.eye(4)
        np.testing.assert_allclose(prev @ np_rotz(q[i]), data.oMi[i + 1].homogeneous, atol=TOL, rtol=0)


def test_puma_jacobian_matches_pinocchio():
    pin, model, frames = _pinocchio_puma()
    data = model.createData()
    tree = load_robot("puma560")
    rng = np.random.default_rng(8)
    for _ in range(10):
        q = tree.random_configuration(rng)
        J6 = pin.computeFrameJacobian(model, data, q, frames[-1], pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)
        J = tree.geometric_jacobian(q, "link6")
        # pinocchio: linear rows first; KineTree: angular rows first
        np.testing.assert_allclose(J[:3], J6[3:], atol=1e-12, rtol=0)
        np.testing.assert_allclose(J[3:], J6[:3], atol=1e-12, rtol=0)
