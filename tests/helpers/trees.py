"""Shared helpers for the core test-suite: random trees and an independent FK reference.

The reference implementation here deliberately uses scipy / plain numpy rather than the
engine's own ``transforms`` module, so that agreement means something.
"""

from __future__ import annotations

import math
import threading

import numpy as np
from kinetree.core import Joint, Mimic, RigidBody, RigidBodyTree
from kinetree.core.transforms import rotx, transl
from scipy.spatial.transform import Rotation

FLOAT_TOL = 1e-12


# --- plain numpy transforms (independent of kinetree.core.transforms) ----------------------

def np_rotz(t: float) -> np.ndarray:
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def np_rotx(t: float) -> np.ndarray:
    c, s = math.cos(t), math.sin(t)
    return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])


def np_trans(x: float = 0.0, y: float = 0.0, z: float = 0.0) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = (x, y, z)
    return T


def np_dh(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Standard DH as the literal product ``Rz(θ)·Tz(d)·Tx(a)·Rx(α)``."""
    return np_rotz(theta) @ np_trans(z=d) @ np_trans(x=a) @ np_rotx(alpha)


def np_mdh(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Modified DH as the literal product ``Rx(α)·Tx(a)·Rz(θ)·Tz(d)``."""
    return np_rotx(alpha) @ np_trans(x=a) @ np_rotz(theta) @ np_trans(z=d)


def rot_log(R: np.ndarray) -> np.ndarray:
    """Rotation vector (axis·angle) of a 3×3 rotation."""
    return Rotation.from_matrix(R).as_rotvec()


def random_transform(rng: np.random.Generator, scale: float = 1.0) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = Rotation.random(random_state=rng).as_matrix()
    T[:3, 3] = rng.uniform(-scale, scale, 3)
    return T


def seeded_transform(rng: np.random.Generator, scale: float) -> np.ndarray:
    """A random rotation (seeded from ``rng``, as the Pinocchio comparisons draw it) and a
    translation within ``±scale``."""
    T = np.eye(4)
    T[:3, :3] = Rotation.random(random_state=int(rng.integers(1 << 30))).as_matrix()
    T[:3, 3] = rng.uniform(-scale, scale, 3)
    return T


def random_unit(rng: np.random.Generator) -> np.ndarray:
    v = rng.normal(size=3)
    return v / np.linalg.norm(v)


def stable_unit(rng: np.random.Generator) -> np.ndarray:
    """A random unit vector that normalising leaves bit-for-bit unchanged.

    The engine re-normalises an axis every time it is set, which moves many unit vectors by
    one ulp (engine bug #3, see test_errors.py / test_defaults.py); round-trip tests that
    compare text exactly use these axes so that they test everything else.
    """
    while True:
        v = random_unit(rng)
        if np.array_equal(v / np.linalg.norm(v), v):
            return v


# --- PUMA 560 -------------------------------------------------------------------------------

PUMA_DH = [  # [a, alpha, d] as in kinematics.md
    (0.0, math.pi / 2, 0.0),
    (0.4318, 0.0, 0.0),
    (0.0203, -math.pi / 2, 0.15005),
    (0.0, math.pi / 2, 0.4318),
    (0.0, -math.pi / 2, 0.0),
    (0.0, 0.0, 0.0),
]


def puma_numpy_poses(q) -> np.ndarray:
    """(6, 4, 4) Puma link poses by multiplying explicit DH matrices in a loop."""
    T = np.eye(4)
    out = []
    for (a, alpha, d), qi in zip(PUMA_DH, q):
        T = T @ np_dh(a, alpha, d, qi)
        out.append(T)
    return np.array(out)


# --- random trees ----------------------------------------------------------------------------

#: Every joint type, a movable one first (a tree without movable joints hits engine bug #1).
MIXED_TYPES = ("revolute", "fixed", "prismatic", "floating", "spherical", "planar")


def random_tree(rng: np.random.Generator, n_bodies: int = 8, types=MIXED_TYPES,
                fixed_transforms: bool = True, exact_axes: bool = False) -> RigidBodyTree:
    """A random branched tree: every joint type, arbitrary axes, offsets, matrix/DH/MDH
    fixed transforms (so both JointToParent and ChildToJoint are non-identity)."""
    tree = RigidBodyTree("base")
    names = ["base"]
    types = list(types)
    for i in range(n_bodies):
        jtype = types[i % len(types)] if i < len(types) else types[int(rng.integers(len(types)))]
        j = Joint(f"j{i}", jtype)
        if fixed_transforms:
            kind = ("matrix", "dh", "mdh")[int(rng.integers(3))]
            if kind == "matrix":
                j.set_fixed_transform(random_transform(rng))
            else:
                j.set_fixed_transform(rng.uniform(-1.0, 1.0, 4), kind)
        if jtype in ("revolute", "prismatic"):
            if rng.random() < 0.7:
                j.axis = stable_unit(rng) if exact_axes else rng.normal(size=3)
            j.offset = float(rng.uniform(-1.0, 1.0))
        b = RigidBody(f"b{i}")
        b.joint = j
        parent = names[int(rng.integers(len(names)))]
        tree.add_body(b, parent)
        names.append(b.name)
    return tree


def random_config(tree: RigidBodyTree, rng: np.random.Generator, unnormalised: bool = True) -> np.ndarray:
    """A random configuration; quaternions optionally scaled away from unit length."""
    q = tree.random_configuration(rng)
    if unnormalised:
        for b in tree.bodies:
            if b.joint.type in ("floating", "spherical"):
                s = tree.position_index(b.joint.name)
                q[s.start : s.start + 4] *= rng.uniform(0.5, 2.0)
    return q


def reference_motion(joint: Joint, qj: np.ndarray) -> np.ndarray:
    """M(q) of a joint, computed with scipy (independent of the engine)."""
    M = np.eye(4)
    t = joint.type
    if t == "revolute":
        M[:3, :3] = Rotation.from_rotvec(joint.axis * (qj[0] + joint.offset)).as_matrix()
    elif t == "prismatic":
        M[:3, 3] = (qj[0] + joint.offset) * joint.axis
    elif t in ("floating", "spherical"):
        w, x, y, z = qj[:4]
        M[:3, :3] = Rotation.from_quat([x, y, z, w]).as_matrix()  # scipy normalises
        if t == "floating":
            M[:3, 3] = qj[4:7]
    elif t == "planar":
        M[:3, :3] = Rotation.from_rotvec([0.0, 0.0, qj[2]]).as_matrix()
        M[:2, 3] = qj[:2]
    return M


def reference_fk(tree: RigidBodyTree, q) -> np.ndarray:
    """(num_bodies, 4, 4) poses by walking the tree, one explicit product per body."""
    q = np.asarray(q, dtype=float)
    poses = {tree.base_name: np.eye(4)}
    i = 0
    out = []
    for b in tree.bodies:
        j = b.joint
        n = j.position_count
        T = (poses[tree.parent_name(b.name)] @ j.joint_to_parent_transform
             @ reference_motion(j, q[i : i + n]) @ j.child_to_joint_transform)
        i += n
        poses[b.name] = T
        out.append(T)
    return np.array(out).reshape(-1, 4, 4)


def tree_snapshot(tree: RigidBodyTree) -> dict:
    """Structure of a tree by name: {body: (parent, joint name, joint type)}."""
    return {b.name: (tree.parent_name(b.name), b.joint.name, b.joint.type) for b in tree.bodies}


def check_invariants(tree: RigidBodyTree) -> None:
    """Assert the structural invariants every tree must keep."""
    names = [tree.base_name, *tree.body_names]
    assert len(set(names)) == len(names), f"duplicate body names: {names}"
    jn = tree.joint_names()
    assert len(set(jn)) == len(jn), f"duplicate joint names: {jn}"
    seen = {tree.base_name}
    for b in tree.bodies:
        p = tree.parent_name(b.name)
        assert p in seen, f"body {b.name!r} comes before its parent {p!r}"
        assert b.parent is tree.get_body(p)
        assert b in tree.get_body(p).children
        assert tree.get_body(b.name) is b
        seen.add(b.name)
    assert tree.get_body(tree.base_name) is tree.base
    n = sum(b.joint.position_count for b in tree.bodies)
    assert tree.position_count == n
    assert len(tree.movable_joint_names) == sum(1 for b in tree.bodies if b.joint.position_count)
    if n:  # FK of a tree without movable joints is engine bug #1 (see test_errors.py)
        home = tree.home_configuration()
        assert home.shape == (n,)
        T = tree.forward_kinematics(home)
        assert T.shape == (tree.num_bodies, 4, 4)
        assert np.all(np.isfinite(T))


def hyp_settings(max_examples: int = 50, shrink: bool = True):
    """Hypothesis settings used across the core suite (fast, no deadline, no database).

    ``shrink=False`` for strict-xfail tests: the failure is known, shrinking it only costs time.
    """
    from hypothesis import HealthCheck, Phase, settings

    phases = tuple(Phase) if shrink else (Phase.explicit, Phase.reuse, Phase.generate)
    return settings(max_examples=max_examples, deadline=None, database=None, phases=phases,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def shadowed_tree() -> RigidBodyTree:
    """Body ``elbow`` on prismatic joint ``slide`` (along x); body ``forearm`` on revolute
    joint ``elbow`` 0.3 m further; a tool 0.2 m along the forearm's x. URDF allows a body to be
    named like another body's joint."""
    tree = RigidBodyTree()
    elbow = RigidBody("elbow")
    slide = Joint("slide", "prismatic")
    slide.axis = [1, 0, 0]
    slide.set_limits([-1, 1])
    elbow.joint = slide
    tree.add_body(elbow, "base")
    forearm = RigidBody("forearm")
    joint = Joint("elbow", "revolute")
    joint.set_fixed_transform(transl(0.3))
    forearm.joint = joint
    tree.add_body(forearm, "elbow")
    tool = RigidBody("tool")
    tool.joint.set_fixed_transform(transl(0.2))
    tree.add_body(tool, "forearm")
    return tree


def random_inertial(body: RigidBody, rng: np.random.Generator) -> None:
    """Give ``body`` a random mass, centre of mass and a physically valid inertia (about its frame)."""
    body.mass, body.center_of_mass = float(rng.uniform(0.1, 3)), rng.uniform(-0.2, 0.2, 3)
    p = rng.uniform(0.01, 0.1, 3)  # principal moments of a real body (triangle inequality)
    Rc = Rotation.random(random_state=int(rng.integers(1 << 30))).as_matrix()
    Ic = Rc @ np.diag([p[1] + p[2], p[0] + p[2], p[0] + p[1]]) @ Rc.T
    c = body.center_of_mass
    I = Ic + body.mass * (c @ c * np.eye(3) - np.outer(c, c))
    body.inertia = [I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]]


def finishes(fn, timeout: float = 10.0):
    """``fn()``'s exception (or None); fails the test if it does not finish in time (a FIFO
    open blocks forever, a bomb runs for minutes)."""
    box: dict = {}

    def call():
        try:
            fn()
            box["exc"] = None
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["exc"] = exc

    t = threading.Thread(target=call, daemon=True)
    t.start()
    t.join(timeout)
    assert "exc" in box, f"still running after {timeout} s"
    return box["exc"]


def spherical_tree(seed: int, kinds: list[str] | None = None, custom_rows=None) -> RigidBodyTree:
    """A branched tree with spherical, revolute, prismatic and fixed joints (or ``kinds``; a
    ``custom`` one gets ``custom_rows``), random inertials (ChildToJoint transforms included)."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree(gravity=rng.normal(size=3) * 5)
    kinds = kinds or ["spherical", "revolute", "fixed", "prismatic", "spherical", "revolute", "fixed", "revolute"]
    path = ["base"]  # depth-first order, as Pinocchio's CRBA assumes (a subtree's velocities contiguous)
    for i, kind in enumerate(kinds):
        b = RigidBody(f"b{i}")
        j = Joint(f"j{i}", kind, custom_rows if kind == "custom" else None)
        if kind in ("revolute", "prismatic"):
            j.axis = rng.normal(size=3)
        j.set_fixed_transform(seeded_transform(rng, 0.3))
        if kind != "fixed":
            j.set_fixed_transform(seeded_transform(rng, 0.2), "child")
        b.joint = j
        random_inertial(b, rng)
        del path[int(rng.integers(1, len(path) + 1)):]
        tree.add_body(b, path[-1])
        path.append(b.name)
    return tree


def gripper(multiplier: float = -1.0, offset: float = 0.1, prismatic_mult: float = 0.5) -> RigidBodyTree:
    """An arm joint, a finger, a mimicking finger, and a prismatic pair with a mimic."""
    t = RigidBodyTree()
    for name, jname, jtype, parent, T, axis in [
        ("arm", "shoulder", "revolute", "base", transl(0, 0, 0.3), [0, 1, 0]),
        ("f1", "finger1", "revolute", "arm", transl(0.2, 0.05, 0), [0, 0, 1]),
        ("f2", "finger2", "revolute", "arm", transl(0.2, -0.05, 0) @ rotx(0.3), [0, 0, 1]),
        ("s1", "slide1", "prismatic", "arm", transl(0.1, 0, 0.1), [1, 0, 0]),
        ("s2", "slide2", "prismatic", "s1", transl(0, 0.1, 0), [0, 1, 1]),
    ]:
        b = RigidBody(name)
        b.joint = Joint(jname, jtype)
        b.joint.set_fixed_transform(T)
        b.joint.axis = axis
        t.add_body(b, parent)
    t.get_body("f2").joint.mimic = Mimic("finger1", multiplier, offset)
    t.get_body("s2").joint.mimic = Mimic("slide1", prismatic_mult, 0.0)
    return t


def every_joint_tree(seed: int) -> RigidBodyTree:
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree("world")
    tree.base.mass, tree.base.center_of_mass = 2.0, rng.uniform(-0.1, 0.1, 3)
    kinds = ["floating", "revolute", "planar", "fixed", "spherical", "prismatic", "revolute", "revolute",
             "fixed", "prismatic", "spherical", "revolute"]
    names = ["world"]
    for i, kind in enumerate(kinds):
        b = RigidBody(f"b{i}")
        j = Joint(f"j{i}", kind)
        if kind in ("revolute", "prismatic"):
            j.axis = rng.normal(size=3)
        T = seeded_transform(rng, 0.3)
        if kind in ("revolute", "prismatic") and i % 2:
            j.set_fixed_transform([0.2, 0.5, 0.1, 0.3], "dh")  # ChildToJoint ≠ I
        else:
            j.set_fixed_transform(T)
        b.joint = j
        b.mass, b.center_of_mass = float(rng.uniform(0.1, 3)), rng.uniform(-0.2, 0.2, 3)
        parent = names[0] if i == 0 else names[int(rng.integers(1, len(names)))]
        tree.add_body(b, parent)
        names.append(b.name)
    return tree
