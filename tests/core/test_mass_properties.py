"""Mass properties: total mass, centre of mass and gravity torques, against Pinocchio (real
URDFs with inertials, fixed and floating base; a synthetic tree with every joint type), Corke's
Puma 560 gravity load, and the potential energy by finite differences."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from helpers.trees import every_joint_tree, seeded_transform
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.core import (
    InvalidPropertyError,
    Joint,
    Mimic,
    RigidBody,
    RigidBodyTree,
    import_robot,
    load_robot,
)
from kinetree.core.transforms import quat_to_rotation
from scipy.spatial.transform import Rotation

G = np.array([0.0, 0.0, -9.81])


def potential(tree: RigidBodyTree, q: np.ndarray, g: np.ndarray = G) -> float:
    """Potential energy −M·g·c from the centre of mass (independent of the torque code)."""
    return -tree.mass * float(g @ tree.center_of_mass(q))


# --- hand-checkable cases -----------------------------------------------------------------------

def test_puma_gravity_load_matches_corke():
    """Corke's Robotics Toolbox test: ``p560.gravload(qn)`` = (0, 31.6399, 6.0351, 0, 0.0283, 0)
    with gravity 9.81 m/s² down (roboticstoolbox tests/test_SerialLink.py, test_gravload)."""
    puma = load_robot("puma560")
    puma.gravity = G
    qn = [0, math.pi / 4, math.pi, 0, math.pi / 4, 0]
    np.testing.assert_allclose(puma.gravity_torque(qn), [0, 31.6399, 6.0351, 0, 0.0283, 0], atol=5e-5)
    assert puma.mass == pytest.approx(17.4 + 4.8 + 0.82 + 0.34 + 0.09)
    # link 2's inertia moved to its frame: Iyy = 0.524 + 17.4 (0.3638² + 0.2275²)
    assert puma.bodies[1].inertia[1] == pytest.approx(0.524 + 17.4 * (0.3638**2 + 0.2275**2))
    assert puma.bodies[1].inertia[4] == pytest.approx(-17.4 * -0.3638 * 0.2275)  # Ixz = −m·x·z


def test_puma_mdh_has_the_same_inertials_in_its_own_frames():
    std, mdh = load_robot("puma560"), load_robot("puma560_mdh")
    rng = np.random.default_rng(1)
    for _ in range(5):
        q, g = std.random_configuration(rng), rng.normal(size=3)
        np.testing.assert_allclose(mdh.gravity_torque(q, gravity=g), std.gravity_torque(q, gravity=g), atol=1e-12)
        np.testing.assert_allclose(mdh.center_of_mass(q), std.center_of_mass(q), atol=1e-14)
    # the rotational inertia too: the links' inertia tensors about the world origin agree
    Ts, Tm = std.forward_kinematics(q), mdh.forward_kinematics(q)
    for bs, bm, T1, T2 in zip(std.bodies, mdh.bodies, Ts, Tm):
        def world(b, T):
            I = b.inertia
            I = np.array([[I[0], I[5], I[4]], [I[5], I[1], I[3]], [I[4], I[3], I[2]]])
            c, p = T[:3, :3] @ b.center_of_mass + T[:3, 3], T[:3, 3]
            shift = lambda v: b.mass * (float(v @ v) * np.eye(3) - np.outer(v, v))  # noqa: E731
            Ic = T[:3, :3] @ I @ T[:3, :3].T - shift(c - p)  # about the centre of mass
            return Ic + shift(c)
        np.testing.assert_allclose(world(bm, T2), world(bs, T1), atol=1e-12)


def test_single_pendulum_by_hand():
    tree = RigidBodyTree(gravity=G)
    tree.base.mass = 0
    b = RigidBody("arm")
    b.joint = Joint("j", "revolute")
    b.joint.axis = [0, 1, 0]  # swings in the x–z plane
    b.mass, b.center_of_mass = 2.0, [0.5, 0, 0]
    tree.add_body(b, "base")
    for th in (0.0, 0.3, -1.2):
        # holding torque about +y: the weight 2·9.81 at lever 0.5·cos θ (rotation about +y lowers x>0)
        assert tree.gravity_torque([th])[0] == pytest.approx(-2 * 9.81 * 0.5 * math.cos(th))
        np.testing.assert_allclose(tree.center_of_mass([th]), [0.5 * math.cos(th), 0, -0.5 * math.sin(th)])
    p = RigidBody("slider")
    p.joint = Joint("s", "prismatic")
    p.mass = 3.0
    tree.add_body(p, "arm")
    # the prismatic joint (along the arm's z) holds the slider; the revolute joint holds both
    th = 0.4
    tau = tree.gravity_torque([th, 0.0])
    assert tau[1] == pytest.approx(3 * 9.81 * math.cos(th))
    assert tree.mass == 5.0


def test_defaults_and_shapes():
    ur5 = load_robot("ur5")
    assert ur5.mass == 7.0  # MATLAB's defaults: every body (base included) 1 kg
    np.testing.assert_array_equal(ur5.gravity_torque(), np.zeros(6))  # gravity [0 0 0] unless set
    np.testing.assert_allclose(ur5.center_of_mass(), ur5.center_of_mass(ur5.home_configuration()))
    Q = np.stack([ur5.random_configuration(s) for s in range(4)])
    np.testing.assert_allclose(ur5.center_of_mass(Q), [ur5.center_of_mass(q) for q in Q], atol=1e-15)
    assert ur5.dof_count == 6 and ur5.dof_names() == ur5.movable_joint_names
    ur5.gravity = G
    assert ur5.gravity_torque(gravity=[0, 0, 0]).tolist() == [0.0] * 6
    np.testing.assert_allclose(ur5.gravity_torque(gravity=2 * G), 2 * ur5.gravity_torque())


def test_massless_tree_has_no_centre_of_mass():
    tree = RigidBodyTree()
    tree.base.mass = 0
    b = RigidBody("b")
    b.joint = Joint("j", "revolute")
    b.mass = 0
    tree.add_body(b, "base")
    assert tree.mass == 0
    with pytest.raises(InvalidPropertyError, match="no mass"):
        tree.center_of_mass([0.1])
    assert tree.gravity_torque([0.1], gravity=G).tolist() == [0.0]


def test_bad_gravity_is_refused():
    tree = load_robot("two_link_planar")
    with pytest.raises(InvalidPropertyError, match="gravity"):
        tree.gravity_torque(gravity=[0, 0, np.nan])


def test_edits_are_seen():
    """The per-tree constants are rebuilt when a mass or centre of mass changes."""
    tree = load_robot("two_link_planar")
    tree.gravity = [0, -9.81, 0]
    before = tree.gravity_torque([0, 0])
    tree.bodies[1].mass = 3.0
    after = tree.gravity_torque([0, 0])
    assert after[1] == pytest.approx(3 * before[1]) and after[0] != before[0]
    tree.bodies[1].center_of_mass = [-0.5, 0, 0]  # back onto joint 2: no torque on it
    assert tree.gravity_torque([0, 0])[1] == pytest.approx(0.0, abs=1e-12)


# --- a synthetic tree with every joint type, against Pinocchio ------------------------------------

def pinocchio_model(pin, tree: RigidBodyTree):
    """The same tree in Pinocchio, joint by joint (fixed joints fold into their parent's joint)."""
    model = pin.Model()
    where = {tree.base_name: (0, np.eye(4))}  # body → (Pinocchio joint, body frame in that joint's frame)
    inertia = lambda b: pin.Inertia(b.mass, b.center_of_mass, 0.01 * np.eye(3))  # noqa: E731
    model.appendBodyToJoint(0, inertia(tree.base), pin.SE3.Identity())
    make = {"floating": pin.JointModelFreeFlyer, "spherical": pin.JointModelSpherical, "planar": pin.JointModelPlanar}
    for b in tree.bodies:
        jid, P = where[tree.parent_name(b.name)]
        j = b.joint
        jtp, ctj = j.joint_to_parent_transform, j.child_to_joint_transform
        if j.type == "fixed":
            where[b.name] = (jid, P @ jtp @ ctj)
        else:
            if j.type == "revolute":
                jm = pin.JointModelRevoluteUnaligned(*j.axis)
            elif j.type == "prismatic":
                jm = pin.JointModelPrismaticUnaligned(*j.axis)
            else:
                jm = make[j.type]()
            where[b.name] = (model.addJoint(jid, jm, pin.SE3(P @ jtp), j.name), ctj)
        model.appendBodyToJoint(where[b.name][0], inertia(b), pin.SE3(where[b.name][1]))
    return model


def to_pinocchio(pin, model, tree: RigidBodyTree, q: np.ndarray) -> np.ndarray:
    qp = pin.neutral(model)
    for b, i in tree._positions():
        j, jm = b.joint, model.joints[model.getJointId(b.joint.name)]
        v = q[i : i + j.position_count]
        if j.type == "floating":
            qp[jm.idx_q : jm.idx_q + 7] = [*v[4:7], *v[1:4], v[0]]
        elif j.type == "spherical":
            qp[jm.idx_q : jm.idx_q + 4] = [*v[1:4], v[0]]
        elif j.type == "planar":
            qp[jm.idx_q : jm.idx_q + 4] = [v[0], v[1], math.cos(v[2]), math.sin(v[2])]
        else:
            qp[jm.idx_q] = v[0]
    return qp


def pinocchio_com(pin, model, data, qp) -> tuple[float, np.ndarray]:
    """Total mass and centre of mass with the universe's own inertia (the base, and what is fixed
    to it) included: Pinocchio's centerOfMass leaves it out."""
    c = pin.centerOfMass(model, data, qp)
    m, I0 = data.mass[0], model.inertias[0]
    return m + I0.mass, (m * c + I0.mass * I0.lever) / (m + I0.mass)


def ours_from_pinocchio(tree: RigidBodyTree, model, tau_pin: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Pinocchio's generalized gravity in KineTree's DoF convention (module docstring of
    kinetree.core.dynamics.mass): free-flyer [f, m] in the child frame → [m, R·f]; planar [f_local, m]
    → [R(θ)·f_local, m]."""
    out = []
    for b, i in tree._positions():
        jm = model.joints[model.getJointId(b.joint.name)]
        t = tau_pin[jm.idx_v : jm.idx_v + jm.nv]
        if b.joint.type == "floating":
            R = quat_to_rotation(q[i : i + 4])
            out += [*t[3:6], *(R @ t[0:3])]
        elif b.joint.type == "planar":
            c, s = math.cos(q[i + 2]), math.sin(q[i + 2])
            out += [c * t[0] - s * t[1], s * t[0] + c * t[1], t[2]]
        else:
            out += list(t)
    return np.array(out)


@pytest.mark.parametrize("seed", range(4))
def test_every_joint_type_matches_pinocchio(seed):
    pin = pytest.importorskip("pinocchio")
    tree = every_joint_tree(seed)
    model = pinocchio_model(pin, tree)
    data = model.createData()
    rng = np.random.default_rng(seed)
    g = rng.normal(size=3) * 5
    model.gravity.linear = g
    assert tree.dof_count == model.nv
    assert len(tree.dof_names()) == tree.dof_count
    for _ in range(5):
        q = tree.random_configuration(rng)
        qp = to_pinocchio(pin, model, tree, q)
        mass, com = pinocchio_com(pin, model, data, qp)
        assert tree.mass == pytest.approx(mass, rel=1e-14)
        np.testing.assert_allclose(tree.center_of_mass(q), com, atol=1e-12)
        ref = ours_from_pinocchio(tree, model, pin.computeGeneralizedGravity(model, data, qp), q)
        np.testing.assert_allclose(tree.gravity_torque(q, gravity=g), ref, atol=1e-10)


# --- real URDFs, against Pinocchio ----------------------------------------------------------------

needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")


def load_urdf(key: str) -> RigidBodyTree:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return import_robot(EXAMPLE_ROBOTS / REAL_URDFS[key], package_paths=(str(EXAMPLE_ROBOTS),))


def urdf_to_pinocchio(pin, model, tree: RigidBodyTree, q: np.ndarray) -> np.ndarray:
    """KineTree's q for Pinocchio's model built without mimic joints (followers get their value)."""
    values = {k: float(np.atleast_1d(v)[0]) for k, v in tree.config_to_dict(q).items()}
    for b in tree.bodies:
        m = b.joint.mimic
        if m is not None:
            values[b.joint.name] = m.multiplier * values[m.joint] + m.offset
    qp = pin.neutral(model)
    for jid in range(1, model.njoints):
        jm, v = model.joints[jid], values[model.names[jid]]
        qp[jm.idx_q : jm.idx_q + jm.nq] = [math.cos(v), math.sin(v)] if jm.nq == 2 else [v]
    return qp


def fold_mimics(tree: RigidBodyTree, model, tau_pin: np.ndarray) -> np.ndarray:
    """Pinocchio's torques with each mimic follower's added to its leader, times the multiplier."""
    vidx = {model.names[j]: model.joints[j].idx_v for j in range(1, model.njoints)}
    tau = {b.joint.name: tau_pin[vidx[b.joint.name]] for b, _ in tree._positions()}
    for b in tree.bodies:
        m = b.joint.mimic
        if m is not None:
            tau[m.joint] += m.multiplier * tau_pin[vidx[b.joint.name]]
    return np.array([tau[n] for n in tree.movable_joint_names])


@needs_robots
@pytest.mark.parametrize("key", ["panda", "talos", "baxter", "pr2", "go2", "romeo"])
def test_real_robot_matches_pinocchio(key):
    pin = pytest.importorskip("pinocchio")
    tree = load_urdf(key)
    assert tree.mass > 1
    tree.gravity = G
    model = pin.buildModelFromUrdf(str(EXAMPLE_ROBOTS / REAL_URDFS[key]))
    data = model.createData()
    rng = np.random.default_rng(11)
    for _ in range(4):
        q = tree.random_configuration(rng)
        qp = urdf_to_pinocchio(pin, model, tree, q)
        mass, com = pinocchio_com(pin, model, data, qp)
        assert tree.mass == pytest.approx(mass, rel=1e-13)
        np.testing.assert_allclose(tree.center_of_mass(q), com, atol=1e-12)
        ref = fold_mimics(tree, model, pin.computeGeneralizedGravity(model, data, qp))
        np.testing.assert_allclose(tree.gravity_torque(q), ref, atol=1e-9, rtol=1e-12)


@needs_robots
@pytest.mark.parametrize("key", ["panda", "baxter"])
def test_mimic_torque_matches_pinocchio_mimic_model(key):
    """Pinocchio's own mimic joints (``mimic=True``): the follower has no DoF, as in KineTree."""
    pin = pytest.importorskip("pinocchio")
    tree = load_urdf(key)
    tree.gravity = G
    model = pin.buildModelFromUrdf(str(EXAMPLE_ROBOTS / REAL_URDFS[key]), mimic=True)
    data = model.createData()
    assert model.nv == tree.dof_count
    assert any(b.joint.mimic is not None for b in tree.bodies)
    rng = np.random.default_rng(5)
    for _ in range(3):
        q = tree.random_configuration(rng)
        qp = pin.neutral(model)
        for name, v in tree.config_to_dict(q).items():
            qp[model.joints[model.getJointId(name)].idx_q] = v
        ref = np.empty(tree.dof_count)
        tau_pin = pin.computeGeneralizedGravity(model, data, qp)
        for k, name in enumerate(tree.movable_joint_names):
            ref[k] = tau_pin[model.joints[model.getJointId(name)].idx_v]
        np.testing.assert_allclose(tree.gravity_torque(q), ref, atol=1e-9, rtol=1e-12)


@needs_robots
@pytest.mark.parametrize("key", ["solo12", "talos"])
def test_floating_base_robot_matches_pinocchio(key):
    """A legged robot on a floating joint (Pinocchio's free-flyer root joint)."""
    pin = pytest.importorskip("pinocchio")
    urdf = load_urdf(key)
    tree = RigidBodyTree("world", gravity=G)
    tree.base.mass = 0.0
    root = RigidBody(urdf.base_name)
    root.joint = Joint("root_joint", "floating")
    root.mass, root.center_of_mass, root.inertia = urdf.base.mass, urdf.base.center_of_mass, urdf.base.inertia
    tree.add_body(root, "world")
    tree.add_subtree(urdf.base_name, urdf)
    path = str(EXAMPLE_ROBOTS / REAL_URDFS[key])
    model, fixed = pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()), pin.buildModelFromUrdf(path)
    data = model.createData()
    assert tree.dof_count == model.nv - sum(b.joint.mimic is not None for b in tree.bodies)
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = tree.random_configuration(rng)
        qp = np.concatenate([q[4:7], q[1:4], q[:1], urdf_to_pinocchio(pin, fixed, urdf, q[7:])])
        mass, com = pinocchio_com(pin, model, data, qp)
        assert tree.mass == pytest.approx(mass, rel=1e-13)
        np.testing.assert_allclose(tree.center_of_mass(q), com, atol=1e-12)
        tau_pin = pin.computeGeneralizedGravity(model, data, qp)
        R = quat_to_rotation(q[:4])
        ours = tree.gravity_torque(q)
        np.testing.assert_allclose(ours[:3], tau_pin[3:6], atol=1e-9)
        np.testing.assert_allclose(ours[3:6], R @ tau_pin[0:3], atol=1e-9)
        np.testing.assert_allclose(ours[3:6], -tree.mass * G, atol=1e-9)  # the base carries the weight
        sub_ref = fold_mimics(urdf, fixed, tau_pin[6:])
        np.testing.assert_allclose(ours[6:], sub_ref, atol=1e-9, rtol=1e-12)


# --- properties: the torque is the gradient of the potential energy -------------------------------

def random_mimic_arm(seed: int) -> RigidBodyTree:
    """A branched arm with revolute, prismatic, planar and a mimic joint, random inertials."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree(gravity=rng.normal(size=3) * 9.81)
    kinds = ["revolute", "prismatic", "revolute", "planar", "revolute", "revolute"]
    for i, kind in enumerate(kinds):
        b = RigidBody(f"b{i}")
        j = Joint(f"j{i}", kind)
        if kind in ("revolute", "prismatic"):
            j.axis = rng.normal(size=3)
        j.set_fixed_transform(seeded_transform(rng, 0.3))
        if i == 5:
            j.mimic = Mimic("j2", float(rng.uniform(-2, 2)), float(rng.uniform(-0.5, 0.5)))
        b.joint = j
        b.mass, b.center_of_mass = float(rng.uniform(0.1, 3)), rng.uniform(-0.2, 0.2, 3)
        tree.add_body(b, "base" if i == 0 else f"b{int(rng.integers(0, i))}")
    return tree


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), qseed=st.integers(0, 10_000))
def test_gravity_torque_is_the_gradient_of_potential_energy(seed, qseed):
    tree = random_mimic_arm(seed)
    g = tree.gravity
    q = tree.random_configuration(qseed)
    tau = tree.gravity_torque(q)
    assert tau.shape == (tree.position_count,)  # no quaternion joints: one DoF per position
    h = 1e-6
    for k in range(q.size):
        dq = np.zeros(q.size)
        dq[k] = h
        fd = (potential(tree, q + dq, g) - potential(tree, q - dq, g)) / (2 * h)
        assert tau[k] == pytest.approx(fd, abs=1e-6 * (1 + abs(fd)))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_quaternion_joint_torque_is_the_gradient_under_local_rotations(seed):
    """Spherical and floating joints: the three rotational values are dV/dδ for R → R·exp(δ)
    (a rotation in the child frame); the floating joint's last three are dV/d[x y z]."""
    tree = every_joint_tree(seed)
    rng = np.random.default_rng(seed)
    g = rng.normal(size=3) * 9.81
    q = tree.random_configuration(rng)
    tau = tree.gravity_torque(q, gravity=g)
    h = 1e-6
    d = 0
    for b, i in tree._positions():
        j = b.joint
        parts = {"floating": 6, "spherical": 3, "planar": 3}.get(j.type, 1)
        for k in range(parts):
            qp, qm = q.copy(), q.copy()
            if j.type in ("floating", "spherical") and k < 3:
                R = quat_to_rotation(q[i : i + 4])
                for sign, qq in ((1, qp), (-1, qm)):
                    dR = Rotation.from_rotvec(sign * h * np.eye(3)[k]).as_matrix()
                    x, y, z, w = Rotation.from_matrix(R @ dR).as_quat()
                    qq[i : i + 4] = [w, x, y, z]
            else:
                off = 4 + k - 3 if j.type == "floating" else k
                qp[i + off] += h
                qm[i + off] -= h
            fd = (potential(tree, qp, g) - potential(tree, qm, g)) / (2 * h)
            assert tau[d] == pytest.approx(fd, abs=1e-6 * (1 + abs(fd))), (j.name, k)
            d += 1
    assert d == tree.dof_count


def test_big_tree_takes_the_level_by_level_path():
    """Over 256 bodies the subtree sums and the torque scatter go level by level (no n² matrices):
    the same torques as the finite differences of the potential energy."""
    rng = np.random.default_rng(3)
    tree = RigidBodyTree(gravity=G)
    names = ["base"]
    for i in range(300):
        b = RigidBody(f"b{i}")
        b.joint = Joint(f"j{i}", "revolute" if i % 3 else "prismatic")
        b.joint.axis = rng.normal(size=3)
        b.joint.set_fixed_transform([0.05, 0.3, 0.02, 0.0], "dh")
        b.mass, b.center_of_mass = float(rng.uniform(0.1, 1)), rng.uniform(-0.05, 0.05, 3)
        tree.add_body(b, names[int(rng.integers(max(0, len(names) - 5), len(names)))])
        names.append(b.name)
    q = tree.random_configuration(rng)
    tau = tree.gravity_torque(q)
    h = 1e-6
    for k in rng.choice(q.size, 12, replace=False):
        dq = np.zeros(q.size)
        dq[k] = h
        fd = (potential(tree, q + dq) - potential(tree, q - dq)) / (2 * h)
        assert tau[k] == pytest.approx(fd, abs=1e-5 * (1 + abs(fd)))
