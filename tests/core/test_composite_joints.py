"""RBDL's joints defined by their motion subspace (resources/guide/dynamics.md, issue 20): the Euler ZYX/XYZ/YXZ
and TranslationXYZ 3-DoF joints and custom rows, against Pinocchio's JointModelComposite (FK,
frame Jacobians, RNEA, CRBA, ABA, nonLinearEffects), against the same joint emulated by single-DoF
joints with massless bodies (RBDL's emulation), and their properties and bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers.trees import spherical_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kinetree.core import InvalidJointError, Joint, KineTreeError, RigidBody, RigidBodyTree
from kinetree.core.io.project import dumps, tree_from_dict
from scipy.spatial.transform import Rotation

#: A custom joint with general axes: a translation along (1, 1, 0), a rotation about (1, 2, −1),
#: a translation along z (given as length 2: rows are normalised).
CUSTOM_ROWS = [(0, 0, 0, 1, 1, 0), (1, 2, -1, 0, 0, 0), (0, 0, 0, 0, 0, 2)]
KINDS = ["revolute", "euler_zyx", "translation_xyz", "fixed", "euler_xyz", "custom", "euler_yxz", "prismatic",
         "revolute"]


def composite_tree(seed: int, kinds: list[str] = KINDS) -> RigidBodyTree:
    """A branched tree (depth-first order, as Pinocchio's CRBA assumes) mixing composite joints with
    revolute, prismatic and fixed ones, random inertials and fixed transforms on both sides."""
    return spherical_tree(seed, kinds, CUSTOM_ROWS)


def _elementary(pin, row: np.ndarray):
    rot = bool(np.any(row[:3]))
    ax = row[:3] if rot else row[3:]
    for k, name in enumerate("XYZ"):
        if np.array_equal(ax, np.eye(3)[k]):
            return getattr(pin, f"JointModel{'R' if rot else 'P'}{name}")()
    return pin.JointModelRevoluteUnaligned(ax) if rot else pin.JointModelPrismaticUnaligned(ax)


def pinocchio_composite_model(pin, tree: RigidBodyTree):
    """The tree in Pinocchio: each composite joint one JointModelComposite of RX/RY/RZ/PX/PY/PZ
    (or unaligned) joints, true inertias, a frame per body."""
    from helpers.pinocchio_compare import inertia_about_com

    model = pin.Model()
    where = {tree.base_name: (0, np.eye(4))}
    for b in tree.bodies:
        jid, P = where[tree.parent_name(b.name)]
        j = b.joint
        if j.type == "fixed":
            where[b.name] = (jid, P @ j.joint_to_parent_transform @ j.child_to_joint_transform)
        else:
            if j.motion_subspace.size:
                jm = pin.JointModelComposite()
                for row in j.motion_subspace:
                    jm.addJoint(_elementary(pin, row))
            elif j.type == "revolute":
                jm = pin.JointModelRevoluteUnaligned(j.axis)
            else:
                jm = pin.JointModelPrismaticUnaligned(j.axis)
            jid = model.addJoint(jid, jm, pin.SE3(P @ j.joint_to_parent_transform), j.name)
            where[b.name] = (jid, j.child_to_joint_transform)
        model.appendBodyToJoint(where[b.name][0], pin.Inertia(b.mass, np.asarray(b.center_of_mass, float),
                                                               inertia_about_com(b)), pin.SE3(where[b.name][1]))
        model.addFrame(pin.Frame(b.name, where[b.name][0], pin.SE3(where[b.name][1]), pin.FrameType.OP_FRAME))
    model.gravity.linear = tree.gravity
    return model


@pytest.mark.parametrize("seed", range(3))
def test_composite_joints_match_pinocchio_joint_model_composite(seed):
    """FK, frame Jacobians, RNEA, CRBA, nonLinearEffects, gravity and ABA of a tree with every
    composite kind equal Pinocchio's to 1e-9 (q = Pinocchio's q: angles and lengths, q̇ their
    rates); J̇ equals the central difference of Pinocchio's J (to 1e-6), its own time variation of
    a JointModelComposite leaving out the composite's Ṡ (see the next test)."""
    pin = pytest.importorskip("pinocchio")
    from helpers.pinocchio_compare import compare

    tree = composite_tree(seed)
    model = pinocchio_composite_model(pin, tree)
    assert tree.position_count == model.nq == tree.dof_count == model.nv
    compare(tree, model, lambda q: q, n=3, seed=seed, dj_by_difference=True)
    # the kinematic plan's position Jacobian (IK's) and a batch take the same path
    data = model.createData()
    rng = np.random.default_rng(seed)
    Q = np.array([tree.random_configuration(rng) for _ in range(5)])
    T = tree.forward_kinematics(Q)
    for n, q in enumerate(Q):
        pin.framesForwardKinematics(model, data, q)
        pin.computeJointJacobians(model, data, q)
        for b in tree.bodies:
            fid = model.getFrameId(b.name)
            np.testing.assert_allclose(T[n, tree.index_of(b.name)], data.oMf[fid].homogeneous, atol=1e-12)
            Jp = pin.getFrameJacobian(model, data, fid, pin.LOCAL_WORLD_ALIGNED)[[3, 4, 5, 0, 1, 2]]
            np.testing.assert_allclose(tree._kinematics().jacobian(q, tree.index_of(b.name)), Jp, atol=1e-9)
    # batches (the compiled batch kernels with FK inside) give the single calls' values
    ones = np.ones(tree.dof_count)
    for fn, ref in ((tree.mass_matrix, [tree.mass_matrix(q) for q in Q]),
                    (lambda Q: tree.inverse_dynamics(Q, ones), [tree.inverse_dynamics(q, ones) for q in Q]),
                    (lambda Q: tree.forward_dynamics(Q, ones, ones), [tree.forward_dynamics(q, ones, ones) for q in Q]),
                    (lambda Q: tree.forward_dynamics(Q, ones, ones, method="cholesky"),
                     [tree.forward_dynamics(q, ones, ones) for q in Q])):
        np.testing.assert_allclose(fn(Q), ref, atol=1e-9)


def test_pinocchio_composite_time_variation_leaves_out_s_dot():
    """Why J̇ is checked by difference above: Pinocchio 4's getFrameJacobianTimeVariation of an
    Euler joint as a JointModelComposite differs from the derivative of its own Jacobian (if this
    starts failing, Pinocchio fixed it: compare with it directly)."""
    pin = pytest.importorskip("pinocchio")
    tree = composite_tree(0, ["euler_zyx"])
    model = pinocchio_composite_model(pin, tree)
    data = model.createData()
    q, v = np.array([0.3, -0.5, 0.8]), np.array([0.7, -0.4, 1.1])
    fid = model.getFrameId("b0")
    pin.computeJointJacobiansTimeVariation(model, data, q, v)
    pin.updateFramePlacements(model, data)
    dJ = pin.getFrameJacobianTimeVariation(model, data, fid, pin.LOCAL_WORLD_ALIGNED)
    h = 1e-6
    J = [pin.computeFrameJacobian(model, data, q + s * h * v, fid, pin.LOCAL_WORLD_ALIGNED) for s in (1, -1)]
    assert np.abs(dJ - (J[0] - J[1]) / (2 * h)).max() > 1e-2
    ours = tree.jacobian_dot(q, v, "b0")[[3, 4, 5, 0, 1, 2]]
    np.testing.assert_allclose(ours, (J[0] - J[1]) / (2 * h), atol=1e-7)


def emulated(tree: RigidBodyTree) -> RigidBodyTree:
    """``tree`` with every composite joint replaced by RBDL's emulation: a chain of revolute and
    prismatic joints through massless bodies, the last carrying the body."""
    out = RigidBodyTree(tree.base_name, tree.gravity)
    for b in tree.bodies:
        j, parent = b.joint, tree.parent_name(b.name)
        if not j.motion_subspace.size:
            out.add_body(b.copy() if hasattr(b, "copy") else b, parent)
            continue
        rows = j.motion_subspace
        for k, row in enumerate(rows):
            last = k == len(rows) - 1
            v = RigidBody(b.name if last else f"{b.name}_v{k}")
            rot = bool(np.any(row[:3]))
            e = Joint(f"{j.name}_{k}", "revolute" if rot else "prismatic")
            e.axis = row[:3] if rot else row[3:]
            e.set_limits([-10.0, 10.0])
            if k == 0:
                e.set_fixed_transform(j.joint_to_parent_transform)
            if last:
                e.set_fixed_transform(j.child_to_joint_transform, "child")
                v.mass, v.center_of_mass, v.inertia = b.mass, b.center_of_mass, b.inertia
            else:
                v.mass, v.inertia = 0.0, [0.0] * 6
            v.joint = e
            out.add_body(v, parent)
            parent = v.name
    return out


@pytest.mark.parametrize("seed", range(3))
def test_euler_joint_equals_its_emulation_by_revolute_joints(seed):
    """An Euler ZYX joint and the chain Rz·Ry·Rx of revolute joints with massless bodies between
    them (RBDL's emulation): same poses, mass matrix, torques, accelerations and gravity torque."""
    tree = composite_tree(seed, ["revolute", "euler_zyx", "prismatic", "euler_yxz", "custom"])
    emu = emulated(tree)
    rng = np.random.default_rng(seed)
    n = tree.dof_count
    assert emu.dof_count == n
    for _ in range(3):
        q, qd, qdd, tau = rng.uniform(-1.2, 1.2, n), rng.normal(size=n), rng.normal(size=n), rng.normal(size=n)
        T, Te = tree.forward_kinematics(q), emu.forward_kinematics(q)
        for b in tree.bodies:
            np.testing.assert_allclose(T[tree.index_of(b.name)], Te[emu.index_of(b.name)], atol=1e-12)
        np.testing.assert_allclose(tree.mass_matrix(q), emu.mass_matrix(q), atol=1e-12)
        np.testing.assert_allclose(tree.inverse_dynamics(q, qd, qdd), emu.inverse_dynamics(q, qd, qdd), atol=1e-11)
        np.testing.assert_allclose(tree.gravity_torque(q), emu.gravity_torque(q), atol=1e-12)
        for method in ("aba", "cholesky"):
            np.testing.assert_allclose(tree.forward_dynamics(q, qd, tau, method=method),
                                       emu.forward_dynamics(q, qd, tau, method=method), atol=1e-9)
        np.testing.assert_allclose(tree.geometric_jacobian(q, "b4"), emu.geometric_jacobian(q, "b4"), atol=1e-12)


def test_euler_zyx_is_rz_ry_rx_and_its_rates_are_euler_rates():
    """RBDL's JointTypeEulerZYX: R = Rz(q0)·Ry(q1)·Rx(q2) (scipy's intrinsic "ZYX"); the joint's
    velocity columns are Euler-angle rates, so J·q̇ is the finite difference of the pose."""
    tree = RigidBodyTree()
    b = RigidBody("b")
    b.joint = Joint("j", "euler_zyx")
    tree.add_body(b, "base")
    q = np.array([0.4, -0.7, 1.1])
    R = tree.forward_kinematics(q)[0, :3, :3]
    np.testing.assert_allclose(R, Rotation.from_euler("ZYX", q).as_matrix(), atol=1e-15)
    qd, h = np.array([0.3, -0.2, 0.5]), 1e-6
    Rp, Rm = (tree.forward_kinematics(q + s * h * qd)[0, :3, :3] for s in (1, -1))
    W = (Rp - Rm) / (2 * h) @ R.T  # ω^ in the base frame
    omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
    np.testing.assert_allclose(tree.geometric_jacobian(q, "b", space="velocities")[:3] @ qd, omega, atol=1e-8)
    assert tree.dof_names() == ["j.0", "j.1", "j.2"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), scale=st.floats(0.01, 3.0))
def test_mass_matrix_spd_and_forward_inverts_inverse(seed, scale):
    """M(q) is symmetric positive definite and forward_dynamics(inverse_dynamics(q̈)) = q̈ for
    random trees with composite joints, at random positions (Euler singularities excluded: there M
    is singular, as RBDL's page warns)."""
    rng = np.random.default_rng(seed)
    kinds = list(rng.choice(["revolute", "euler_zyx", "euler_xyz", "euler_yxz", "translation_xyz", "custom",
                             "prismatic", "fixed"], size=int(rng.integers(1, 6))))
    if all(k == "fixed" for k in kinds):
        kinds.append("euler_xyz")
    tree = composite_tree(seed, kinds)
    n = tree.dof_count
    q = tree.random_configuration(rng)
    # keep Euler middle angles away from ±90° (gimbal lock: M singular)
    for b, i in tree._positions():
        if b.joint.type.startswith("euler"):
            q[i + 1] = float(np.clip(q[i + 1], -1.3, 1.3))
    qd, qdd = rng.normal(size=n) * scale, rng.normal(size=n) * scale
    M = tree.mass_matrix(q)
    np.testing.assert_array_equal(M, M.T)
    assert np.linalg.eigvalsh(M).min() > 0
    tau = tree.inverse_dynamics(q, qd, qdd)
    for method in ("aba", "cholesky"):
        np.testing.assert_allclose(tree.forward_dynamics(q, qd, tau, method=method), qdd,
                                   atol=1e-7 * max(1.0, np.abs(qdd).max()), rtol=1e-6)


@pytest.mark.parametrize(("rows", "says"), [
    ([(0, 0, 1, 0, 0, 0), (0, 0, 0, 0, 0, 0)], "row 2 [0.0, 0.0, 0.0, 0.0, 0.0, 0.0] is zero"),
    ([(0, 0, 1, 0, 0, 0), (math.nan, 0, 0, 0, 0, 0)], "row 2 [nan, 0.0, 0.0, 0.0, 0.0, 0.0] is not finite"),
    ([(0, 0, 1, 0, 0, math.inf)], "row 1 [0.0, 0.0, 1.0, 0.0, 0.0, inf] is not finite"),
    ([(1, 0, 0, 0, 0, 1)], "row 1 [1.0, 0.0, 0.0, 0.0, 0.0, 1.0] mixes a rotation and a translation"),
    ([(1, 0, 0)], "got shape (1, 3)"),
    ([(1, 0, 0, 0, 0, 0)] * 7, "got shape (7, 6)"),
    ([], "got shape (0,)"),
    ("abc", "must be rows of 6 numbers"),
    ([(1j, 0, 0, 0, 0, 0)], "complex"),
])
def test_bad_motion_subspace_is_refused_naming_joint_and_row(rows, says):
    with pytest.raises(InvalidJointError) as e:
        Joint("hip", "custom", rows)
    assert "joint 'hip'" in str(e.value) and says in str(e.value)


def test_fixed_kinds_keep_their_rows_and_others_take_none():
    with pytest.raises(InvalidJointError, match="euler_zyx joint's motion subspace is fixed"):
        Joint("a", "euler_zyx", [(1, 0, 0, 0, 0, 0)])
    with pytest.raises(InvalidJointError, match="not a revolute joint"):
        Joint("a", "revolute", [(1, 0, 0, 0, 0, 0)])
    j = Joint("a", "custom", [(0, 0, 0, 0, 3, 0), (0, 2, 0, 0, 0, 0)])
    np.testing.assert_array_equal(j.motion_subspace, [[0, 0, 0, 0, 1, 0], [0, 1, 0, 0, 0, 0]])
    assert j.length_rows == {0} and j.position_count == j.velocity_count == 2
    np.testing.assert_array_equal(j.position_limits, [[-0.5, 0.5], [-math.pi, math.pi]])
    with pytest.raises(KineTreeError, match="beyond"):  # a translation row is a length: bounded
        j.set_limits([[-1e9, 1e9], [-1, 1]])
    with pytest.raises(KineTreeError, match="no offset"):
        j.offset = 0.1


def test_rbdl_planar_example_is_the_planar_joint():
    """The page's planar joint, rows tx, ty, rz, moves as KineTree's planar joint."""
    trees = []
    for kind in ("planar", "custom"):
        t = RigidBodyTree()
        b = RigidBody("b")
        b.joint = Joint("j", kind, [(0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 1, 0), (0, 0, 1, 0, 0, 0)]
                        if kind == "custom" else None)
        b.center_of_mass = [0.3, 0.1, 0.0]
        t.add_body(b, "base")
        t.gravity = [0.0, -9.81, 0.0]
        trees.append(t)
    q, qd = np.array([0.2, -0.4, 0.9]), np.array([0.5, 0.1, -1.0])
    np.testing.assert_allclose(trees[0].forward_kinematics(q), trees[1].forward_kinematics(q), atol=1e-15)
    np.testing.assert_allclose(trees[0].mass_matrix(q), trees[1].mass_matrix(q), atol=1e-14)
    np.testing.assert_allclose(trees[0].inverse_dynamics(q, qd), trees[1].inverse_dynamics(q, qd), atol=1e-13)


def test_project_file_round_trip_keeps_composite_joints():
    tree = composite_tree(4)
    tree.get_body("b5").joint.set_limits([[-0.2, 0.3], [-1.0, 2.0], [-0.1, 0.4]], [0.1, 0.5, 0.2])
    q = tree.random_configuration(np.random.default_rng(1))
    text = dumps(tree, q)
    back, q2 = tree_from_dict(json.loads(text))[:2]
    assert dumps(back, q2) == text
    j = back.get_body("b5").joint
    assert j.type == "custom" and back.get_body("b1").joint.type == "euler_zyx"
    np.testing.assert_array_equal(j.motion_subspace, tree.get_body("b5").joint.motion_subspace)
    np.testing.assert_array_equal(j.home_position, [0.1, 0.5, 0.2])
    np.testing.assert_array_equal(back.mass_matrix(q), tree.mass_matrix(q))
    # hostile files: refused naming the joint and the row
    d = json.loads(text)
    d["bodies"][5]["joint"]["motion_subspace"][1] = [1, 0, 0, 0, 1, 0]
    with pytest.raises(KineTreeError, match=r"joint 'j5'.*row 2 .* mixes a rotation and a translation"):
        tree_from_dict(d)
    d["bodies"][5]["joint"]["motion_subspace"] = [[0, 0, 1, 0, 0, 0]] * 7
    with pytest.raises(KineTreeError, match=r"joint 'j5'.*motion_subspace.*1 to 6 rows.*got 7"):
        tree_from_dict(d)
    del d["bodies"][5]["joint"]["motion_subspace"]
    with pytest.raises(KineTreeError, match="motion_subspace"):
        tree_from_dict(d)


def test_urdf_and_sdf_export_refuse_naming_the_joint():
    from kinetree.core.io.sdf.write import sdf_string
    from kinetree.core.io.urdf.write import urdf_string

    tree = composite_tree(0, ["revolute", "euler_xyz"])
    with pytest.raises(KineTreeError, match=r"joint 'j1' \(body 'b1'\): a euler_xyz joint .*no URDF equivalent"):
        urdf_string(tree)
    with pytest.raises(KineTreeError, match=r"joint 'j1' \(body 'b1'\): a euler_xyz joint has no SDFormat"):
        sdf_string(tree)


def test_mjcf_export_writes_one_hinge_or_slide_per_row_exactly():
    """MuJoCo applies a body's joints one after the other about the moving axes: its poses and
    mass matrix equal ours at random configurations."""
    mujoco = pytest.importorskip("mujoco")
    from kinetree.core.io.mjcf.write import mjcf_string

    tree = composite_tree(2, ["revolute", "euler_zyx", "translation_xyz", "custom", "euler_yxz"])
    tree.gravity = [0.0, 0.0, -9.81]
    m = mujoco.MjModel.from_xml_string(mjcf_string(tree))
    d = mujoco.MjData(m)
    assert m.nq == tree.position_count
    rng = np.random.default_rng(0)
    for _ in range(4):
        q = tree.random_configuration(rng)
        d.qpos[:] = q
        mujoco.mj_forward(m, d)
        T = tree.forward_kinematics(q)
        for b in tree.bodies:
            bid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, b.name)
            np.testing.assert_allclose(d.xpos[bid], T[tree.index_of(b.name), :3, 3], atol=1e-12)
            np.testing.assert_allclose(d.xmat[bid].reshape(3, 3), T[tree.index_of(b.name), :3, :3], atol=1e-12)
        M = np.zeros((m.nv, m.nv))
        col = np.zeros(m.nv)
        for k in range(m.nv):  # M·e_k (the sparse qM's layout differs across MuJoCo versions)
            mujoco.mj_mulM(m, d, col, np.eye(m.nv)[k])
            M[:, k] = col
        np.testing.assert_allclose(M, tree.mass_matrix(q), atol=1e-10)


def test_ik_workspace_and_integration_take_composite_joints():
    """IK reaches a pose through Euler and custom joints; the workspace sampler's points and
    manipulability are FK's and the geometric Jacobian's; integrate/difference are plain sums."""
    from kinetree.core.kinematics.ik import inverse_kinematics
    from kinetree.core.kinematics.workspace import random_configurations, sample_workspace

    tree = composite_tree(3, ["revolute", "euler_zyx", "prismatic", "custom"])
    rng = np.random.default_rng(5)
    target = tree.forward_kinematics(tree.random_configuration(rng))[tree.index_of("b3")]
    r = inverse_kinematics(tree, "b3", target, tree.home_configuration())
    assert r.success
    np.testing.assert_allclose(tree.forward_kinematics(r.q)[tree.index_of("b3")], target, atol=1e-9)
    points, manip = sample_workspace(tree, "b3", 50, rng=1)
    Q = random_configurations(tree, 50, 1)
    for k in (0, 17, 49):
        np.testing.assert_allclose(points[k], tree.forward_kinematics(Q[k])[tree.index_of("b3"), :3, 3], atol=1e-12)
        assert manip[k] == pytest.approx(tree.manipulability(Q[k], "b3"), rel=1e-9, abs=1e-12)
    q, qd = Q[0], rng.normal(size=tree.dof_count)
    np.testing.assert_array_equal(tree.integrate(q, qd, 0.5), q + 0.5 * qd)
    np.testing.assert_allclose(tree.difference(q, q + qd), qd, atol=1e-15)


def test_simulation_of_an_euler_joint_follows_its_emulation():
    """The simulator (forward dynamics, RK4, energy) moves a tree with Euler, translation and
    custom joints as it moves the same tree emulated by single-DoF joints."""
    from kinetree.core.simulation.simulator import Simulator

    tree = composite_tree(1, ["revolute", "euler_zyx", "translation_xyz", "custom"])
    tree.gravity = [0.0, 0.0, -9.81]
    emu = emulated(tree)
    q0 = tree.home_configuration() + 0.1
    sims = [Simulator(t, q0) for t in (tree, emu)]
    for s in sims:
        s.run(0.2)
    assert sims[0].time == sims[1].time == pytest.approx(0.2)
    np.testing.assert_allclose(sims[0].q, sims[1].q, atol=1e-9)
    np.testing.assert_allclose(sims[0].qd, sims[1].qd, atol=1e-8)
    assert np.abs(sims[0].q - q0).max() > 0.05  # it did move
    assert sims[0].energy().total == pytest.approx(sims[1].energy().total, rel=1e-9, abs=1e-9)
