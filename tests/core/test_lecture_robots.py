"""The FK lecture's robots in the library: the cylindrical arm with spherical wrist is the
product of its two parts (T_6^0 = T_3^0 T_6^3), and each lecture robot has qz and a teaching pose
within its limits."""

from __future__ import annotations

from math import radians

import numpy as np
import pytest
from kinetree.core import load_robot
from kinetree.core.library import list_robots, robot_info

LECTURE = ("two_link_planar", "cylindrical", "spherical_wrist", "cylindrical_wrist", "stanford",
           "stanford_lecture", "scara")


def test_cylindrical_with_spherical_wrist_is_T30_times_T63():
    arm, wrist, both = load_robot("cylindrical"), load_robot("spherical_wrist"), load_robot("cylindrical_wrist")
    assert "cylindrical_wrist" in list_robots() and both.position_count == 6
    assert "spherical wrist" in robot_info("cylindrical_wrist")["description"].lower()
    rng = np.random.default_rng(5)
    lim = np.array([b.joint.position_limits for b in both.bodies])
    for q in rng.uniform(lim[:, 0], lim[:, 1], size=(8, 6)):
        T30 = arm.get_transform(q[:3], arm.end_effector)
        T63 = wrist.get_transform(q[3:], wrist.end_effector)
        np.testing.assert_allclose(both.get_transform(q, both.end_effector), T30 @ T63, atol=1e-12)
    # the lecture's T_3^0: o3 = (−s1 d3, c1 d3, d1 + d2); at θ1 = 90°, d2 = 0.3, d3 = 0.2
    q = np.array([radians(90), 0.3, 0.2, 0, 0, 0])
    np.testing.assert_allclose(both.get_transform(q, "link3")[:3, 3], [-0.2, 0, 0.5 + 0.3], atol=1e-12)


@pytest.mark.parametrize("name", LECTURE)
def test_lecture_robots_have_qz_and_a_teaching_pose_within_limits(name):
    tree = load_robot(name)
    poses = dict(tree.named_poses)
    assert list(poses)[0] == "qz" and len(poses) >= 2
    for pose, q in poses.items():
        assert len(q) == tree.position_count
        assert tree.within_limits(np.asarray(q)), (name, pose)
    moving = [p for p in poses if p != "qz"]
    assert all(np.abs(np.asarray(poses[p]) - poses["qz"]).max() > 0.1 for p in moving)
    zero = np.zeros(tree.position_count)
    if name.startswith("stanford"):  # zero is outside d3's range: its shortest extension
        zero[2] = tree.bodies[2].joint.position_limits[0]
    np.testing.assert_array_equal(poses["qz"], zero)
    assert robot_info(name)["poses"].keys() == poses.keys()


def test_the_planar_example_pose_is_the_lectures():
    # the lecture's MATLAB example: θ = (60°, 30°); (a1c1 + a2c12, a1s1 + a2s12)
    tree = load_robot("two_link_planar")
    np.testing.assert_allclose(tree.get_transform(tree.named_poses["example"], tree.end_effector)[:3, 3],
                               [0.5, np.sqrt(3) / 2 + 0.5, 0], atol=1e-12)
