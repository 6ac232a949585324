"""URDF snippets and comparison helpers for test_urdf.py."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import warnings
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import numpy as np
from kinetree.core import Joint, RigidBody, RigidBodyTree

from helpers.trees import seeded_transform

ROBOTS = Path(__file__).resolve().parents[2] / "resources" / "robots"

try:  # vendor and lab URDFs with meshes (Pinocchio's robot collection), when installed
    EXAMPLE_ROBOTS: Path | None = Path(distribution("example-robot-data").locate_file(
        "cmeel.prefix/share/example-robot-data/robots"))
except PackageNotFoundError:
    EXAMPLE_ROBOTS = None
# multi-branch robots (humanoids, quadrupeds, hands, a mobile manipulator) and arms with grippers;
# STL, DAE and OBJ meshes; mimic joints (PR2, Panda, Talos, Romeo); package:/// URIs (Talos)
REAL_URDFS = {
    "baxter": "baxter_description/urdf/baxter.urdf",
    "pr2": "pr2_description/urdf/pr2.urdf",
    "talos": "talos_data/robots/talos_full_v2.urdf",
    "go2": "go2_description/urdf/go2.urdf",
    "allegro": "allegro_hand_description/urdf/allegro_left_hand.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "panda": "panda_description/urdf/panda.urdf",
    "icub": "icub_description/robots/icub.urdf",
    "romeo": "romeo_description/urdf/romeo.urdf",
    "anymal": "anymal_c_simple_description/urdf/anymal.urdf",
    "g1": "g1_description/urdf/g1_29dof_with_hand_rev_1_0.urdf",
}


def robot(body: str, name: str = "test") -> str:
    """Wrap link/joint elements in a <robot>."""
    return f'<?xml version="1.0"?>\n<robot name="{name}">\n{body}\n</robot>\n'


def link(name: str, inner: str = "") -> str:
    return f'<link name="{name}">{inner}</link>'


def joint(name: str, jtype: str, parent: str, child: str, xyz: str = "0 0 0", rpy: str = "0 0 0",
          axis: str | None = "0 0 1", limit: str | None = '<limit lower="-1" upper="1" effort="1" velocity="1"/>',
          extra: str = "") -> str:
    ax = f'<axis xyz="{axis}"/>' if axis is not None else ""
    return (f'<joint name="{name}" type="{jtype}"><parent link="{parent}"/><child link="{child}"/>'
            f'<origin xyz="{xyz}" rpy="{rpy}"/>{ax}{limit or ""}{extra}</joint>')


CHAIN = robot("\n".join([
    link("base"), link("l1"), link("l2"),
    joint("j1", "revolute", "base", "l1", xyz="0 0 0.5"),
    joint("j2", "revolute", "l1", "l2", xyz="1 0 0", axis="0 1 0",
          limit='<limit lower="-2" upper="2" effort="1" velocity="1"/>'),
]))

# every URDF joint type, branching, joints listed before their parents are placed
ALL_TYPES = robot("\n".join([
    link("root"), link("a"), link("b"), link("c"), link("d"), link("e"), link("f"), link("g"), link("h"),
    joint("j_cont", "continuous", "a", "c", xyz="0.1 0.2 0.3", rpy="0.3 -0.2 0.1", axis="1 1 0", limit=None),
    joint("j_rev", "revolute", "root", "a", xyz="0 0 1", rpy="0.1 0.2 0.3", axis="0 0 2"),
    joint("j_pri", "prismatic", "root", "b", xyz="1 0 0", rpy="0 1.5707963267948966 0", axis="0 1 0",
          limit='<limit lower="-0.2" upper="0.7" effort="1" velocity="1"/>'),
    joint("j_fix", "fixed", "b", "d", xyz="0 0.5 0", rpy="3.141592653589793 0 0", axis=None, limit=None),
    joint("j_float", "floating", "d", "e", xyz="0.2 0 0", rpy="0 0 0.7", axis=None, limit=None),
    joint("j_planar_z", "planar", "a", "f", xyz="0 0.3 0", axis="0 0 1", limit=None),
    joint("j_planar_x", "planar", "root", "g", xyz="-1 0 0", rpy="0.2 0 0", axis="1 0 0", limit=None),
    joint("j_rev2", "revolute", "g", "h", xyz="0 0 0.25", axis="0.3 -0.4 0.5"),
]))


def assert_same_fk(t1: RigidBodyTree, t2: RigidBodyTree, n: int = 20, seed: int = 0, tol: float = 1e-12,
                   bodies: list[str] | None = None) -> None:
    """Same pose for every body of ``t1`` (or ``bodies``) at ``n`` random configurations of t1
    (configurations passed by joint name, so the trees may order or pad them differently)."""
    rng = np.random.default_rng(seed)
    names = bodies if bodies is not None else t1.body_names
    for _ in range(n):
        q1 = t1.random_configuration(rng)
        q2 = t2.config_to_vector(t1.config_to_dict(q1))
        for b in names:
            A, B = t1.get_transform(q1, b), t2.get_transform(q2, b)
            assert np.allclose(A, B, rtol=0, atol=tol), (b, np.abs(A - B).max())


def pinocchio_q(model, tree: RigidBodyTree, q: np.ndarray) -> np.ndarray:
    """Pinocchio configuration for KineTree's ``q`` (mimic joints given their followed value)."""
    values = {}
    for b in tree.bodies:
        j = b.joint
        if j.type in ("revolute", "prismatic"):
            if j.mimic is not None:
                lead = q[tree.position_index(j.mimic.joint)][0]
                values[j.name] = j.mimic.multiplier * lead + j.mimic.offset
            else:
                values[j.name] = q[tree.position_index(j.name)][0]
    qp = np.zeros(model.nq)
    for i in range(1, model.njoints):
        name, iq, nq = model.names[i], model.idx_qs[i], model.nqs[i]
        jtype = tree.find_joint(name).joint.type
        if jtype == "floating":  # KineTree [qw qx qy qz x y z], Pinocchio [x y z qx qy qz qw]
            v = q[tree.position_index(name)]
            qp[iq:iq + 7] = [*v[4:], *v[1:4], v[0]]
            continue
        if jtype == "planar":  # KineTree [x y θ], Pinocchio [x y cos θ sin θ]
            v = q[tree.position_index(name)]
            qp[iq:iq + 4] = [v[0], v[1], math.cos(v[2]), math.sin(v[2])]
            continue
        v = values[name]
        if nq == 1:
            qp[iq] = v
        elif nq == 2:  # continuous: (cos, sin)
            qp[iq:iq + 2] = (math.cos(v), math.sin(v))
        else:
            raise AssertionError(f"unexpected pinocchio joint {name} nq={nq}")
    return qp


def random_tree(n: int = 130, seed: int = 0) -> RigidBodyTree:
    """A branched tree of ``n`` bodies (revolute, continuous, prismatic, fixed) with visuals."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree("base")
    names = [tree.base_name]
    for i in range(n):
        parent = names[int(rng.integers(max(0, len(names) - 8), len(names)))]
        kind = str(rng.choice(["revolute", "revolute", "continuous", "prismatic", "fixed"]))
        body = RigidBody(f"b{i}")
        joint = Joint(f"j{i}", "revolute" if kind == "continuous" else kind)
        joint.set_fixed_transform(seeded_transform(rng, 0.2))
        if kind != "fixed":
            joint.axis = rng.normal(size=3)
        if kind == "continuous":
            joint.position_limits = (-math.inf, math.inf)
        body.joint = joint
        body.mass = float(rng.uniform(0.1, 2))
        body.center_of_mass = rng.uniform(-0.1, 0.1, 3)
        # a physical inertia: a fixed one about the centre of mass, moved to the body frame
        c = body.center_of_mass
        S = body.mass * (float(c @ c) * np.eye(3) - np.outer(c, c))
        body.inertia = np.array([0.02, 0.03, 0.04, 0.001, -0.002, 0.003]) + [S[0, 0], S[1, 1], S[2, 2], S[1, 2],
                                                                              S[0, 2], S[0, 1]]
        body.add_visual("box", (0.05, 0.04, 0.1), color=(0.2, 0.4, 0.6, 1.0))
        tree.add_body(body, parent)
        names.append(body.name)
    return tree


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _kinetree(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def _pkg(tmp_path: Path) -> Path:
    """A ROS package layout: ws/my_robot/{urdf/r.urdf, meshes/m.stl}; r.urdf names meshes by
    package://, file:// and relative paths."""
    pkg = tmp_path / "ws" / "my_robot"
    (pkg / "meshes").mkdir(parents=True)
    (pkg / "urdf").mkdir()
    (pkg / "meshes" / "m.stl").write_bytes(b"solid m\nendsolid m\n")
    mesh = '<visual><geometry><mesh filename="{}"/></geometry></visual>'
    (pkg / "urdf" / "r.urdf").write_text(robot(link("a", mesh.format("package://my_robot/meshes/m.stl") + (
        '<collision><geometry><mesh filename="package:///my_robot/meshes/m.stl" scale="2 2 2"/></geometry>'
        '</collision>')) + link("b", mesh.format("../meshes/m.stl")) + link("c", mesh.format(
            (pkg / "meshes" / "m.stl").as_uri())) + joint("j", "fixed", "a", "b", axis=None, limit=None)
        + joint("k", "fixed", "a", "c", axis=None, limit=None), name="r"))
    return pkg
