"""Real robots: vendor and lab URDFs with meshes, from the ``example-robot-data`` package
(Pinocchio's robot collection), against Pinocchio. Skipped when either is missing."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from helpers.real_robots import load, pin, pinocchio_poses
from helpers.urdf import EXAMPLE_ROBOTS as ROBOTS
from helpers.urdf import REAL_URDFS as URDFS
from kinetree.core import extract_dh, import_robot
from kinetree.core.io import export_robot
from kinetree.core.io.urdf.check import MeshNotFoundWarning


@pytest.mark.parametrize("key", sorted(URDFS))
def test_every_link_matches_pinocchio(key):
    tree, path, caught = load(key)
    assert not [w for w in caught if "not found" in str(w.message)], "a mesh did not resolve"
    meshes = [v.filename for b in (tree.base, *tree.bodies) for v in b.visuals if v.kind == "mesh"]
    assert meshes and all(os.path.isfile(f) for f in meshes)
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    rng = np.random.default_rng(7)
    for _ in range(5):
        q = tree.random_configuration(rng)
        ref = pinocchio_poses(model, data, tree, q)
        assert len(ref) == tree.num_bodies
        P = tree.forward_kinematics(q)
        for i, b in enumerate(tree.bodies):
            np.testing.assert_allclose(P[i], ref[b.name], atol=1e-12, err_msg=f"{key}: {b.name}")


@pytest.mark.parametrize("key", ["baxter", "talos", "pr2"])
def test_export_and_reimport_keeps_every_pose(key, tmp_path):
    tree, _, _ = load(key)
    out = tmp_path / f"{key}.urdf"
    export_robot(tree, out)
    with warnings.catch_warnings():
        warnings.simplefilter("error", MeshNotFoundWarning)  # package:// URIs kept: found through the package path
        back = import_robot(out, package_paths=(str(ROBOTS), str(ROBOTS.parents[1])))  # Talos: package:///example-robot-data/…
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = tree.random_configuration(rng)
        config = tree.config_to_dict(q)
        qb = back.config_to_vector({k: v for k, v in config.items() if k in back.movable_joint_names})
        for b in tree.bodies:
            np.testing.assert_allclose(back.get_transform(qb, b.name), tree.get_transform(q, b.name), atol=1e-12)


@pytest.mark.parametrize("key, tip, n", [("baxter", "left_gripper", 7), ("talos", "arm_left_7_link", 9),
                                         ("panda", "panda_hand_tcp", 7)])
def test_dh_table_of_one_arm(key, tip, n):
    """The DH table of one arm of a real robot (Talos: with its two torso joints) rebuilds the tip pose."""
    tree, _, _ = load(key)
    for convention in ("dh", "mdh"):
        ext = extract_dh(tree, tip, convention)
        assert len(ext.links) == n
        dh_tree = ext.to_tree()
        rng = np.random.default_rng(5)
        for _ in range(5):
            q = tree.random_configuration(rng)
            config = tree.config_to_dict(q)
            qd = dh_tree.config_to_vector({link.joint_name: config[link.joint_name] for link in ext.links})
            np.testing.assert_allclose(dh_tree.get_transform(qd, ext.tip_name), tree.get_transform(q, tip),
                                       atol=1e-10)
