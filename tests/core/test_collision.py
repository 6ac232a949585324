"""Self-collision (issue 11, item 7): check_collision against closed-form distances between
spheres, boxes, cylinders and a mesh; parent–child and home-contact exclusions; geometry
choice, unreadable meshes and edits."""

from __future__ import annotations

import math
import sys
import warnings

import numpy as np
import pytest
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS
from kinetree.core import Joint, RigidBody, RigidBodyTree, import_robot, load_robot
from kinetree.core.kinematics.collision import (
    MeshSkippedWarning,
    check_collision,
    collision_available,
    collision_checker,
)

pytest.importorskip("fcl")


def two_link(base_shape: tuple, r_tip: float = 0.4, L1: float = 1.0, L2: float = 0.8) -> RigidBodyTree:
    """Base with one shape at its origin; two links turning about z; a sphere at the tip of the
    second link (its grandparent is the base, so the pair is checked)."""
    tree = RigidBodyTree()
    tree.base.add_visual(*base_shape)
    a = RigidBody("upper")
    a.joint = Joint("j1", "revolute")
    tree.add_body(a, "base")
    b = RigidBody("fore")
    b.joint = Joint("j2", "revolute")
    b.joint.set_fixed_transform(np.array([[1, 0, 0, L1], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
    pose = np.eye(4)
    pose[0, 3] = L2
    b.add_visual("sphere", [r_tip], pose)
    tree.add_body(b, "upper")
    return tree


def tip(q: np.ndarray, L1: float = 1.0, L2: float = 0.8) -> np.ndarray:
    return np.array([L1 * math.cos(q[0]) + L2 * math.cos(q[0] + q[1]),
                     L1 * math.sin(q[0]) + L2 * math.sin(q[0] + q[1]), 0.0])


def agree(tree: RigidBodyTree, distance, r_tip: float = 0.4, n: int = 300) -> int:
    """Compare with a closed-form distance from the tip to the base shape; returns the number of
    contacts seen (both outcomes must occur for the check to mean anything)."""
    rng = np.random.default_rng(0)
    contacts = 0
    for _ in range(n):
        q = tree.random_configuration(rng)
        d = distance(tip(q)) - r_tip
        if abs(d) < 1e-6:
            continue
        got = check_collision(tree, q)
        assert got == ([("base", "fore")] if d < 0 else []), (q, d, got)
        contacts += d < 0
    assert 0 < contacts < n
    return contacts


def test_sphere_sphere():
    agree(two_link(("sphere", [0.5])), lambda p: np.linalg.norm(p) - 0.5)


def test_sphere_box():
    half = np.array([0.5, 0.3, 0.2])
    box_distance = lambda p: np.linalg.norm(np.maximum(np.abs(p) - half, 0))  # noqa: E731 - p outside or on
    tree = two_link(("box", 2 * half))
    rng = np.random.default_rng(1)
    for _ in range(300):  # inside the box the distance is 0: contact as well
        q = tree.random_configuration(rng)
        d = box_distance(tip(q)) - 0.4
        if abs(d) > 1e-6:
            assert bool(tree.check_collision(q)) == (d < 0)


def test_sphere_cylinder():
    r, h = 0.3, 0.5  # along z: the tip moves in z = 0, where the cylinder's section is a disc of radius r
    agree(two_link(("cylinder", [r, 2 * h])), lambda p: max(np.linalg.norm(p[:2]) - r, abs(p[2]) - h, 0.0))


def test_sphere_mesh(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    path = tmp_path / "cube.stl"
    trimesh.creation.box(extents=(0.3, 0.3, 0.3)).export(path)
    half = np.full(3, 0.15)
    # scaled ×2 in x: a 0.6 × 0.3 × 0.3 box (a sphere of radius 0.4 cannot hide inside it)
    tree = two_link(("mesh", [2, 1, 1], None, (0.7, 0.7, 0.7, 1.0), str(path)))
    half = half * [2, 1, 1]
    agree(tree, lambda p: np.linalg.norm(np.maximum(np.abs(p) - half, 0)))


def test_parent_child_and_home_contacts_are_excluded():
    tree = RigidBodyTree()
    tree.base.add_visual("box", [1.6, 1.6, 0.2])
    a = RigidBody("a")  # overlaps the base (its parent) at every q
    a.joint = Joint("ja", "revolute")
    a.add_visual("box", [2, 0.2, 0.2])
    tree.add_body(a, "base")
    b = RigidBody("b")  # overlaps the base at home: a grandchild, but already touching
    b.joint = Joint("jb", "revolute")
    b.add_visual("sphere", [0.3])
    tree.add_body(b, "a")
    c = RigidBody("c")  # 0.5 above, lowered by its prismatic joint into the base (and a)
    c.joint = Joint("jc", "prismatic")
    c.joint.set_limits([-1.0, 0.0])
    c.joint.set_fixed_transform(np.array([[1, 0, 0, 0.6], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1.0]]))
    c.add_visual("sphere", [0.1])
    tree.add_body(c, "b")
    assert collision_checker(tree).excluded_at_home == [("base", "b")]
    assert tree.check_collision(tree.home_configuration()) == []
    assert tree.check_collision([0.0, 0.0, -0.5]) == [("base", "c"), ("a", "c")]
    assert tree.check_collision([0.0, math.pi / 2, -0.5]) == [("base", "c")]  # c off a's arm
    assert tree.check_collision([0.0, 0.0, -0.25]) == []  # 0.15 above the base's top
    assert tree.check_collision([0.0, 0.0, -0.35]) == [("base", "c"), ("a", "c")]


def test_collision_geometry_is_preferred_and_edits_are_seen():
    tree = two_link(("sphere", [0.5]))
    q = np.array([0.0, math.pi - 0.1])  # the tip 1 − 0.8·cos 0.1 ≈ 0.2 from the base centre
    assert tree.check_collision(q) == [("base", "fore")]
    fore = tree.get_body("fore")
    pose = np.eye(4)
    pose[0, 3] = 0.8
    fore.add_collision("sphere", [0.01], pose)  # the collision geometry wins over the visuals
    tree.base.add_collision("sphere", [0.05])
    assert tree.check_collision(q) == []
    tree.base.collisions = []
    tree.base.visuals = []  # no geometry at all on the base: it cannot collide
    assert tree.check_collision(q) == []


def test_unreadable_mesh_is_skipped(tmp_path):
    tree = two_link(("sphere", [0.5]))
    tree.get_body("upper").add_visual("mesh", [1, 1, 1], filename=str(tmp_path / "missing.stl"))
    with pytest.warns(MeshSkippedWarning, match="body 'upper'.*missing.stl: no such file; left out"):
        checker = collision_checker(tree)
    assert checker.skipped == [f"upper: {tmp_path / 'missing.stl'}: no such file"]
    assert tree.check_collision([0.0, math.pi - 0.1]) == [("base", "fore")]


def test_without_python_fcl(monkeypatch):
    monkeypatch.setitem(sys.modules, "fcl", None)
    assert not collision_available()
    tree = two_link(("sphere", [0.5]))
    with pytest.raises(ModuleNotFoundError, match="python-fcl"):
        tree.check_collision([0.0, 0.0])


def test_library_robots_run_and_are_clear_at_home():
    for name in ("puma560", "panda", "humanoid_upper_body"):
        tree = load_robot(name)
        assert tree.check_collision(tree.home_configuration()) == []
        rng = np.random.default_rng(2)
        for _ in range(5):
            pairs = tree.check_collision(tree.random_configuration(rng))
            assert all(tree.parent_name(b) != a and tree.parent_name(a) != b for a, b in pairs)


@pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")
def test_real_robot_with_collision_meshes():
    """Panda's URDF has collision meshes: folding the arm onto itself is seen."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(EXAMPLE_ROBOTS / REAL_URDFS["panda"], package_paths=(str(EXAMPLE_ROBOTS),))
    checker = collision_checker(tree)
    assert not checker.skipped
    assert all(b.collisions for b in tree.bodies if b.visuals)
    assert tree.check_collision(tree.home_configuration()) == []
    q = tree.home_configuration()
    names = tree.movable_joint_names
    q[names.index("panda_joint4")] = -3.0  # the elbow folded fully
    q[names.index("panda_joint6")] = 3.7   # and the wrist turned back towards the upper arm
    q[names.index("panda_joint2")] = 1.7
    pairs = tree.check_collision(q)
    assert pairs and all(a != b for a, b in pairs)


def test_cached_checker_does_not_keep_the_tree_alive():
    import gc
    import weakref

    tree = two_link(("sphere", [0.5]))
    tree.check_collision([0.0, 0.0])
    ref = weakref.ref(tree)
    del tree
    gc.collect()
    assert ref() is None
