"""inverse_kinematics: answers checked with the public FK (never with the solver's own numbers),
limits, weights, mimic and quaternion joints, unreachable targets, determinism, bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import hyp_settings, random_transform, random_tree, rot_log
from helpers.urdf import EXAMPLE_ROBOTS
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import (
    IKResult,
    InvalidConfigurationError,
    InvalidIKOptionError,
    InvalidTransformError,
    Joint,
    KineTreeError,
    Mimic,
    RigidBody,
    RigidBodyTree,
    UnknownBodyError,
    import_robot,
    inverse_kinematics,
    load_robot,
)
from kinetree.core.transforms import rotx, transl

TOL = 1e-6


def errors(tree, body, q, T) -> tuple[float, float]:
    """(position, orientation) error of ``body`` at ``q`` against ``T``, by the public FK and scipy."""
    F = tree.get_transform(q, body)
    return float(np.linalg.norm(F[:3, 3] - T[:3, 3])), float(np.linalg.norm(rot_log(F[:3, :3].T @ T[:3, :3])))


def assert_solved(tree, body, r: IKResult, T) -> None:
    assert r.success
    pos, rot = errors(tree, body, r.q, T)
    assert pos <= TOL and rot <= TOL, (pos, rot)
    assert tree.within_limits(r.q), tree.limit_violations(r.q)
    assert r.position_error == pytest.approx(pos, abs=1e-12)
    assert r.orientation_error == pytest.approx(rot, abs=1e-9)


def test_puma_200_random_reachable_targets_from_home(puma, rng):
    """The benchmark's measure on a smaller sample: every target is an FK pose of an in-limit q."""
    body = puma.end_effector
    solved = 0
    for k in range(200):
        T = puma.get_transform(puma.random_configuration(rng), body)
        r = inverse_kinematics(puma, body, T, rng=k)
        assert puma.within_limits(r.q)
        if r.success:
            assert_solved(puma, body, r, T)
            solved += 1
    assert solved >= 199


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 7))
@hyp_settings(max_examples=40)
def test_any_success_is_a_true_solution_within_limits(seed, n):
    """Random trees with every joint type (floating and spherical quaternions included), any body:
    a reported success reaches the target; every answer is within the limits and leaves the
    positions that do not move the body as they were in q0."""
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    body = tree.body_names[int(rng.integers(n))]
    T = tree.get_transform(tree.random_configuration(rng), body)
    q0 = tree.random_configuration(rng)
    r = inverse_kinematics(tree, body, T, q0, rng=seed)
    assert tree.within_limits(r.q)
    if r.success:
        assert_solved(tree, body, r, T)
    moving = set()
    name = body
    while name != tree.base_name:
        j = tree.get_body(name).joint
        if j.position_count:
            s = tree.position_index(j.name)
            moving.update(range(s.start, s.stop))
        name = tree.parent_name(name)
    others = [k for k in range(tree.position_count) if k not in moving]
    np.testing.assert_array_equal(r.q[others], q0[others])


def test_random_trees_with_every_joint_type_are_solved():
    """Reachable targets of random trees (quaternion and planar joints included) are found."""
    solved = total = 0
    for seed in range(12):
        rng = np.random.default_rng(seed)
        tree = random_tree(rng, n_bodies=6)
        for body in tree.body_names:
            T = tree.get_transform(tree.random_configuration(rng), body)
            r = inverse_kinematics(tree, body, T, rng=seed)
            total += 1
            if r.success:
                assert_solved(tree, body, r, T)
                solved += 1
                for b in tree.bodies:  # quaternions come back unit
                    if b.joint.type in ("floating", "spherical"):
                        s = tree.position_index(b.joint.name)
                        assert np.linalg.norm(r.q[s.start : s.start + 4]) == pytest.approx(1.0, abs=1e-12)
    assert solved >= 0.97 * total


def test_position_only(puma, rng):
    """Weights (0, 0, 0, 1, 1, 1): the position is reached whatever orientation the target has."""
    body = puma.end_effector
    for k in range(10):
        T = puma.get_transform(puma.random_configuration(rng), body)
        T[:3, :3] = random_transform(rng)[:3, :3]  # an orientation the arm cannot have there, in general
        r = inverse_kinematics(puma, body, T, weights=(0, 0, 0, 1, 1, 1), rng=k)
        assert r.success
        pos, rot = errors(puma, body, r.q, T)
        assert pos <= TOL and r.position_error == pytest.approx(pos, abs=1e-12)
        assert r.orientation_error == pytest.approx(rot, abs=1e-9)  # reported, though not solved for
        assert puma.within_limits(r.q)


def test_a_zero_weight_drops_one_component(rng):
    """A planar 2-link arm cannot reach arbitrary (x, y, yaw): with the yaw weight zero it
    reaches (x, y); with every weight it cannot."""
    tree = load_robot("two_link_planar")
    body = tree.end_effector
    T = tree.get_transform(np.array([0.7, -0.4]), body)
    T[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]  # yaw 90°
    full = inverse_kinematics(tree, body, T, restarts=5)
    assert not full.success
    r = inverse_kinematics(tree, body, T, weights=(1, 1, 0, 1, 1, 1))
    assert r.success
    pos, _ = errors(tree, body, r.q, T)
    assert pos <= TOL
    F = tree.get_transform(r.q, body)
    assert abs(math.atan2(F[1, 0], F[0, 0]) - math.pi / 2) > 1e-3  # the yaw was not met: it was dropped


def test_weights_change_the_trade_off_of_an_unreachable_target():
    """Unreachable (x, y, yaw): a heavy yaw weight meets the yaw better than a heavy position weight."""
    tree = load_robot("two_link_planar")
    body = tree.end_effector
    T = transl(0.9, 0.9, 0)
    T[:3, :3] = np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1.0]])  # yaw −90°
    a = inverse_kinematics(tree, body, T, weights=(1, 1, 100, 1, 1, 1), restarts=3)
    b = inverse_kinematics(tree, body, T, weights=(1, 1, 0.01, 1, 1, 1), restarts=3)
    assert not a.success and not b.success
    assert a.orientation_error < b.orientation_error
    assert b.position_error < a.position_error


def mimic_chain() -> RigidBodyTree:
    """Six revolute joints; the third mimics the second (×0.5 + 0.1) and a prismatic slide
    mimics the first, so the configuration holds 5 leaders for 7 moving joints."""
    t = RigidBodyTree()
    spec = [("j1", "revolute", [0, 0, 1], transl(0, 0, 0.3)), ("j2", "revolute", [0, 1, 0], transl(0, 0.1, 0.2)),
            ("j3", "revolute", [0, 1, 0], transl(0.3, 0, 0)), ("s", "prismatic", [1, 0, 0], transl(0.1, 0, 0)),
            ("j4", "revolute", [1, 0, 0], transl(0.25, 0, 0.05)), ("j5", "revolute", [0, 1, 0], transl(0.1, 0, 0)),
            ("j6", "revolute", [1, 0, 0], transl(0.05, 0, 0) @ rotx(0.2))]
    parent = "base"
    for name, jtype, axis, T in spec:
        b = RigidBody(f"link_{name}")
        b.joint = Joint(name, jtype)
        b.joint.set_fixed_transform(T)
        b.joint.axis = axis
        t.add_body(b, parent)
        parent = b.name
    t.get_body("link_j3").joint.mimic = Mimic("j2", 0.5, 0.1)
    t.get_body("link_s").joint.mimic = Mimic("j1", 0.05, 0.0)
    return t


def test_mimic_joints_follow_their_leaders():
    tree = mimic_chain()
    assert tree.position_count == 5
    rng = np.random.default_rng(3)
    body = tree.end_effector
    solved = 0
    for k in range(30):
        T = tree.get_transform(tree.random_configuration(rng), body)
        r = inverse_kinematics(tree, body, T, rng=k)
        assert tree.within_limits(r.q)
        if r.success:
            assert_solved(tree, body, r, T)  # FK applies the mimics: the solver must have too
            solved += 1
    assert solved >= 28


@pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")
def test_panda_urdf_finger_that_mimics_the_other():
    """Panda's right finger mimics the left one's prismatic joint (4 cm of travel): IK of the
    right finger moves the arm and the left finger's position, within the limits."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(EXAMPLE_ROBOTS / "panda_description/urdf/panda.urdf",
                            package_paths=(str(EXAMPLE_ROBOTS),))
    assert tree.get_body("panda_rightfinger").joint.mimic is not None
    rng = np.random.default_rng(5)
    for k in range(15):
        T = tree.get_transform(tree.random_configuration(rng), "panda_rightfinger")
        assert_solved(tree, "panda_rightfinger", inverse_kinematics(tree, "panda_rightfinger", T, rng=k), T)


def test_limits_exclude_the_nearest_solution():
    """Two-link arm (1 m, 0.5 m), elbow limited to [0.05, π]: a point reached elbow-down at
    (0.3, −1.2) is reached by the mirror solution (θ1 − 2·atan2(0.5 sin 1.2, 1 + 0.5 cos 1.2), 1.2)."""
    tree = load_robot("two_link_planar")
    tree.bodies[1].joint.set_limits([0.05, math.pi], home=0.05)
    body = tree.end_effector
    T = tree.get_transform(np.array([0.3, -1.2]), body)  # FK does not check limits
    r = inverse_kinematics(tree, body, T, q0=[0.3, 0.05], weights=(0, 0, 0, 1, 1, 1))
    assert r.success and tree.within_limits(r.q)
    mirror = 0.3 - 2 * math.atan2(0.5 * math.sin(1.2), 1 + 0.5 * math.cos(1.2))
    np.testing.assert_allclose(r.q, [mirror, 1.2], atol=1e-6)


def test_targets_at_the_limits(puma, rng):
    """Targets whose configuration has joints exactly at a bound."""
    body = puma.end_effector
    lims = [puma.find_joint(n).joint.position_limits for n in puma.movable_joint_names]
    for k in range(10):
        q = puma.random_configuration(rng)
        for i in rng.choice(6, size=2, replace=False):
            q[i] = lims[i][int(rng.integers(2))]
        T = puma.get_transform(q, body)
        assert_solved(puma, body, inverse_kinematics(puma, body, T, rng=k), T)


def test_q0_outside_the_limits_is_clipped(puma):
    T = puma.get_transform(np.array([0.2, 0.3, 0.1, 0.5, 0.4, 0.3]), puma.end_effector)
    r = inverse_kinematics(puma, puma.end_effector, T, q0=[10, 10, -10, 0, 0, 0])
    assert_solved(puma, puma.end_effector, r, T)


def test_q0_mapping_and_warm_start(puma):
    """q0 may be a {joint: value} mapping; started at the answer, no iteration is needed."""
    q = np.array([0.2, 0.3, 0.1, 0.5, 0.4, 0.3])
    T = puma.get_transform(q, puma.end_effector)
    r = inverse_kinematics(puma, puma.end_effector, T, q0=dict(zip(puma.movable_joint_names, q)))
    assert r.success and r.iterations == 0 and r.attempts == 1
    np.testing.assert_array_equal(r.q, q)


def test_unreachable_target_reports_the_best_residual(puma):
    body = puma.end_effector
    T = transl(3.0, 0.0, 0.0)
    r = inverse_kinematics(puma, body, T, restarts=5)
    assert not r.success
    assert r.attempts == 6
    pos, rot = errors(puma, body, r.q, T)
    assert r.position_error == pytest.approx(pos, abs=1e-12) and r.orientation_error == pytest.approx(rot, abs=1e-9)
    # the best reach is the arm stretched towards x: about 3 m minus its reach (< 1 m)
    assert 2.0 < r.position_error < 2.7
    assert puma.within_limits(r.q)


def test_body_without_movable_joints():
    tree = RigidBodyTree()
    b = RigidBody("plate")
    b.joint = Joint("weld", "fixed")
    b.joint.set_fixed_transform(transl(0.1, 0.2, 0.3))
    tree.add_body(b, "base")
    r = inverse_kinematics(tree, "plate", transl(0.1, 0.2, 0.3))
    assert r.success and r.q.size == 0
    r = inverse_kinematics(tree, "plate", transl(0.1, 0.2, 0.4))
    assert not r.success and r.position_error == pytest.approx(0.1)


def test_deterministic_for_a_given_rng(puma):
    """Restarts are random; the same seed (or an equally seeded Generator) gives the same answer."""
    T = transl(0.2, 0.3, 0.4) @ rotx(2.0)
    body = puma.end_effector
    a = inverse_kinematics(puma, body, T, q0=[2.5, 3.5, -3.5, 2.5, 1.5, 4.0], rng=7)
    b = inverse_kinematics(puma, body, T, q0=[2.5, 3.5, -3.5, 2.5, 1.5, 4.0], rng=np.random.default_rng(7))
    c = inverse_kinematics(puma, body, T, q0=[2.5, 3.5, -3.5, 2.5, 1.5, 4.0], rng=7)
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(a.q, c.q)
    assert a.iterations == b.iterations == c.iterations
    d = inverse_kinematics(puma, body, transl(3, 0, 0), restarts=3)
    e = inverse_kinematics(puma, body, transl(3, 0, 0), restarts=3)
    np.testing.assert_array_equal(d.q, e.q)  # rng=None is a fixed seed, not fresh entropy


def test_tree_changes_are_seen(puma):
    """The solver keeps per-tree precomputation: an edit to a limit must not be missed."""
    body = puma.end_effector
    T = puma.get_transform(np.array([1.0, 0.3, 0.1, 0.5, 0.4, 0.3]), body)
    assert inverse_kinematics(puma, body, T, rng=0).success
    puma.bodies[0].joint.position_limits = [-0.1, 0.1]
    r = inverse_kinematics(puma, body, T, rng=0, restarts=5)
    assert abs(r.q[0]) <= 0.1
    assert puma.within_limits(r.q)


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("target, words", [
    (np.eye(3), "4x4"),
    (np.diag([2.0, 1, 1, 1]), "orthonormal"),
    (np.diag([-1.0, 1, 1, 1]), "reflection"),
    (np.full((4, 4), np.nan), "NaN"),
    ("pose", "numeric"),
    (np.array([[1, 0, 0, 1e200], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]), "beyond"),
])
def test_bad_target(puma, target, words):
    with pytest.raises(InvalidTransformError, match=words) as info:
        inverse_kinematics(puma, "link6", target)
    assert "'link6'" in str(info.value)


@pytest.mark.parametrize("weights, words", [
    ([1, 1, 1], "6 numbers"), ([1, 1, 1, 1, 1, -1], ">= 0"), ([1, 1, 1, 1, 1, np.nan], "finite"),
    ([0] * 6, "all zero"), ("heavy", "6 numbers"),
])
def test_bad_weights(puma, weights, words):
    with pytest.raises(InvalidIKOptionError, match=words):
        inverse_kinematics(puma, "link6", np.eye(4), weights=weights)


@pytest.mark.parametrize("kwargs, words", [
    ({"max_iterations": 0}, "max_iterations"), ({"max_iterations": 2.5}, "max_iterations"),
    ({"restarts": -1}, "restarts"), ({"restarts": True}, "restarts"), ({"tolerance": 0.0}, "tolerance"),
    ({"tolerance": math.nan}, "tolerance"), ({"rng": "seed"}, "rng"), ({"rng": -1}, "negative"),
    ({"rng": True}, "rng"),
])
def test_bad_options(puma, kwargs, words):
    with pytest.raises(InvalidIKOptionError, match=words):
        inverse_kinematics(puma, "link6", np.eye(4), **kwargs)


def test_bad_body_and_q0(puma):
    with pytest.raises(UnknownBodyError, match="gripper"):
        inverse_kinematics(puma, "gripper", np.eye(4))
    with pytest.raises(InvalidIKOptionError, match="base"):
        inverse_kinematics(puma, puma.base_name, np.eye(4))
    with pytest.raises(InvalidConfigurationError, match="6"):
        inverse_kinematics(puma, "link6", np.eye(4), q0=[0, 0])
    with pytest.raises(InvalidConfigurationError, match="q3"):
        inverse_kinematics(puma, "link6", np.eye(4), q0=[0, 0, np.nan, 0, 0, 0])
    assert issubclass(InvalidIKOptionError, KineTreeError)


@pytest.mark.parametrize("jtype", ["revolute", "spherical"])
def test_half_turn_away(jtype):
    """A target rotated by exactly π from the start: the rotation error's axis then comes from
    the diagonal of the rotation (its skew part is zero)."""
    tree = RigidBodyTree()
    b = RigidBody("rotor")
    b.joint = Joint("spin", jtype)
    tree.add_body(b, "base")
    for axis in ([0, 0, 1], [1, 0, 0], [1, 1, 0]) if jtype == "spherical" else ([0, 0, 1],):
        T = np.eye(4)
        k = np.array(axis, dtype=float) / np.linalg.norm(axis)
        T[:3, :3] = 2 * np.outer(k, k) - np.eye(3)  # rotation by π about k
        r = inverse_kinematics(tree, "rotor", T, restarts=0)
        assert_solved(tree, "rotor", r, T)


def test_locked_joints_keep_their_q0_values():
    tree = load_robot("puma560")
    q0 = np.array([0.3, 0.5, -1.0, 0.2, 0.4, 0.1])
    q_goal = np.array([0.3, 0.5, -1.0, 0.6, 1.1, -0.5])  # reachable moving q4..q6 only
    target = tree.get_transform(q_goal, "link6")
    r = inverse_kinematics(tree, "link6", target, q0, locked=["q1", "q2", "q3"])
    assert r.success and np.array_equal(r.q[:3], q0[:3])
    assert np.abs(tree.get_transform(r.q, "link6") - target).max() < 1e-6
    far = tree.get_transform(np.array([1.0, 0.5, -1.0, 0.6, 1.1, -0.5]), "link6")  # needs q1
    r = inverse_kinematics(tree, "link6", far, q0, locked=["q1"], restarts=3)
    assert not r.success and r.q[0] == q0[0]
    with pytest.raises(KineTreeError):
        inverse_kinematics(tree, "link6", target, q0, locked="q1")  # a string, not names
    with pytest.raises(KineTreeError):
        inverse_kinematics(tree, "link6", target, q0, locked=["nope"])
