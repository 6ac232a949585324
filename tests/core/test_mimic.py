"""Mimic joints: a joint that follows another (URDF ``<mimic>``) has no position of its own."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.trees import gripper
from kinetree.core import InvalidConfigurationError, InvalidJointError, Joint, Mimic, RigidBody, RigidBodyTree
from kinetree.core.io import tree_from_dict, tree_to_dict
from kinetree.core.transforms import rotx, transl


def unmimicked(t: RigidBodyTree) -> RigidBodyTree:
    """The same tree with every mimic joint independent (a reference implementation)."""
    c = t.copy()
    for b in c.bodies:
        b.joint.mimic = None
    return c


def expand(t: RigidBodyTree, ref: RigidBodyTree, q: np.ndarray) -> np.ndarray:
    """The reference configuration with each mimic joint at multiplier·leader + offset."""
    values = dict(zip(t.movable_joint_names, q))
    full = []
    for name in ref.movable_joint_names:
        m = t.get_body(t.find_joint(name).name).joint.mimic
        full.append(values[name] if m is None else m.multiplier * values[m.joint] + m.offset)
    return np.array(full)


def test_mimic_joints_take_no_position():
    t = gripper()
    assert t.movable_joint_names == ["shoulder", "finger1", "slide1"]
    assert t.position_count == 3
    with pytest.raises(InvalidConfigurationError, match="mimics 'finger1'"):
        t.position_index("finger2")
    with pytest.raises(InvalidConfigurationError, match="mimics 'slide1'"):
        t.config_to_vector({"slide2": 0.1})


def test_mimic_fk_matches_explicit_values_single_and_batch():
    t = gripper()
    ref = unmimicked(t)
    rng = np.random.default_rng(3)
    Q = np.array([t.random_configuration(rng) for _ in range(20)])
    expected = np.array([ref.forward_kinematics(expand(t, ref, q)) for q in Q])
    for k, q in enumerate(Q):
        np.testing.assert_allclose(t.forward_kinematics(q), expected[k], atol=1e-12)
    np.testing.assert_allclose(t.forward_kinematics(Q), expected, atol=1e-12)
    np.testing.assert_allclose(t.get_transform(Q, "f2", "f1"),
                               [np.linalg.inv(e[1]) @ e[2] for e in expected], atol=1e-12)


def test_mimic_jacobian_is_the_chain_rule():
    t = gripper()
    q = np.array([0.3, -0.7, 0.12])
    for body in ("f2", "s2"):
        J = t.geometric_jacobian(q, body)
        eps = 1e-7
        for c in range(3):
            dq = np.zeros(3)
            dq[c] = eps
            Tp, Tm = t.get_transform(q + dq, body), t.get_transform(q - dq, body)
            np.testing.assert_allclose(J[3:, c], (Tp[:3, 3] - Tm[:3, 3]) / (2 * eps), atol=1e-7)
            dR = (Tp[:3, :3] - Tm[:3, :3]) / (2 * eps) @ t.get_transform(q, body)[:3, :3].T
            np.testing.assert_allclose(J[:3, c], [dR[2, 1], dR[0, 2], dR[1, 0]], atol=1e-7)


def test_renaming_the_leader_follows_and_removing_it_is_refused():
    t = gripper()
    t.get_body("f1").joint.name = "finger_left"
    assert t.get_body("f2").joint.mimic == Mimic("finger_left", -1.0, 0.1)
    with pytest.raises(InvalidJointError, match="finger2.*mimics 'finger_left'"):
        t.remove_body("f1")
    assert "f1" in t.body_names
    t.remove_body("arm")  # leader and follower go together
    assert t.num_bodies == 0


def test_bad_mimics_are_refused_with_names():
    t = gripper()
    with pytest.raises(InvalidJointError, match="not a joint of this tree"):
        t.get_body("f1").joint.mimic = Mimic("nope")
    with pytest.raises(InvalidJointError, match="itself a mimic"):
        t.get_body("arm").joint.mimic = Mimic("finger2")
    with pytest.raises(InvalidJointError, match="'finger2' mimic it"):
        t.get_body("f1").joint.mimic = Mimic("shoulder")
    with pytest.raises(InvalidJointError, match="cannot mimic itself"):
        t.get_body("f1").joint.mimic = Mimic("finger1")
    with pytest.raises(InvalidJointError, match="must be finite"):
        Mimic("finger1", float("nan"))
    fixed = Joint("j", "fixed")
    with pytest.raises(InvalidJointError, match="fixed joint cannot mimic"):
        fixed.mimic = Mimic("finger1")
    # a leader that is not in the tree: refused when the body is added, not when kinematics run
    loose = RigidBodyTree()
    b = RigidBody("b")
    b.joint = Joint("j", "revolute")
    b.joint.mimic = Mimic("ghost")
    with pytest.raises(InvalidJointError, match="'j' mimics 'ghost'"):
        loose.add_body(b, "base")
    assert loose.num_bodies == 0


def test_mimic_survives_the_project_file_and_copies():
    t = gripper()
    back, _ = tree_from_dict(tree_to_dict(t))
    assert back.get_body("f2").joint.mimic == Mimic("finger1", -1.0, 0.1)
    q = t.random_configuration(1)
    np.testing.assert_allclose(back.forward_kinematics(q), t.forward_kinematics(q), atol=1e-15)
    np.testing.assert_allclose(t.copy().forward_kinematics(q), t.forward_kinematics(q), atol=1e-15)


def test_child_to_joint_transform_is_settable_and_saved():
    t = gripper()
    j = t.get_body("s1").joint
    j.set_fixed_transform(rotx(0.4) @ transl(0, 0, 0.2), "child")
    back, _ = tree_from_dict(tree_to_dict(t))
    np.testing.assert_allclose(back.get_body("s1").joint.child_to_joint_transform, j.child_to_joint_transform)
    q = t.random_configuration(2)
    np.testing.assert_allclose(back.forward_kinematics(q), t.forward_kinematics(q), atol=1e-15)


def test_edits_that_would_break_a_mimic_are_refused_and_change_nothing():
    t = gripper()
    before = tree_to_dict(t)
    fixed = Joint("finger1", "fixed")
    with pytest.raises(InvalidJointError, match="'finger2' mimics 'finger1', which is a fixed joint"):
        t.replace_joint("f1", fixed)
    renamed = t.get_body("f1").joint.copy()
    renamed.name = "other"
    with pytest.raises(InvalidJointError, match="not a joint of this tree"):
        t.replace_joint("f1", renamed)
    body = RigidBody("f1_new")
    body.joint = Joint("finger1", "prismatic")
    t.replace_body("f1", body)  # same joint name, still axial: fine
    assert t.get_body("f2").joint.mimic.joint == "finger1"
    t2 = gripper()
    bad = RigidBody("f1_bad")
    bad.joint = Joint("j_other", "revolute")
    with pytest.raises(InvalidJointError):
        t2.replace_body("f1", bad)
    assert tree_to_dict(t2) == before


def test_a_project_with_a_dangling_mimic_is_refused_naming_the_file():
    from kinetree.core import FileFormatError

    d = tree_to_dict(gripper())
    next(b for b in d["bodies"] if b["name"] == "f2")["joint"]["mimic"]["joint"] = "ghost"
    with pytest.raises(FileFormatError, match="robot.kinetree.json: .*'finger2' mimics 'ghost'"):
        tree_from_dict(d, "robot.kinetree.json")
