"""tree.within_limits and tree.limit_violations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import hyp_settings, random_tree
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import (
    InvalidConfigurationError,
    Joint,
    LimitViolation,
    Mimic,
    RigidBody,
    RigidBodyTree,
    list_robots,
    load_robot,
)


@pytest.mark.parametrize("name", list_robots())
def test_home_is_within_the_limits(name):
    tree = load_robot(name)
    assert tree.within_limits(tree.home_configuration())
    assert tree.limit_violations(tree.home_configuration()) == []


@given(seed=st.integers(0, 2**32 - 1))
@hyp_settings(max_examples=30)
def test_random_configurations_are_within_the_limits(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=8)
    for _ in range(5):
        assert tree.within_limits(tree.random_configuration(rng))


def test_violations_name_joint_value_and_limits(puma):
    hi = puma.bodies[0].joint.position_limits[1]
    q = np.array([10.0, 0, 0, 0, 0, -10.0])
    assert not puma.within_limits(q)
    bad = puma.limit_violations(q)
    assert bad == [LimitViolation("q1", 0, 0, 10.0, -hi, hi, "angle"),
                   LimitViolation("q6", 5, 0, -10.0, *puma.bodies[5].joint.position_limits, "angle")]
    assert str(bad[0]) == f"joint 'q1' position 10 is outside its limits [{-hi:.10g}, {hi:.10g}] rad"
    assert bad[0].describe(degrees=True) == "joint 'q1' position 572.9577951 is outside its limits [-160, 160] deg"


def test_a_value_typed_at_the_limit_passes(puma):
    """Puma's q1 limit is ±160°: 160 typed in degrees and converted lands on it (or an ulp off)."""
    lo, hi = puma.bodies[0].joint.position_limits
    for v in (hi, lo, 160 * math.pi / 180, math.radians(160), np.deg2rad(160.0), -160 / 180 * math.pi):
        assert puma.within_limits([v, 0, 0, 0, 0, 0]), v
    assert not puma.within_limits([hi * (1 + 1e-9), 0, 0, 0, 0, 0])
    assert not puma.within_limits([np.nextafter(hi, 4.0) + 1e-10, 0, 0, 0, 0, 0])


def test_lengths_planar_rows_quaternions_and_unbounded_joints():
    t = RigidBodyTree()
    specs = [("slide", "prismatic", [-0.5, 0.5]), ("plane", "planar", [[-1, 1], [-2, 2], [-0.5, 0.5]]),
             ("ball", "spherical", None), ("free", "floating", None), ("spin", "revolute", [-math.inf, math.inf])]
    parent = "base"
    for name, jtype, lim in specs:
        b = RigidBody(f"{name}_link")
        b.joint = Joint(name, jtype)
        if lim is not None:
            b.joint.position_limits = lim
        t.add_body(b, parent)
        parent = b.name
    q = t.home_configuration()
    assert t.within_limits(q)
    q[t.position_index("ball")] = [5.0, -7.0, 3.0, 1.0]  # quaternion rows carry no limits
    q[t.position_index("spin")] = 1e9
    assert t.within_limits(q)
    q[0] = 0.75
    q[t.position_index("plane").start + 2] = -0.6
    q[t.position_index("free").start + 6] = 5.5  # floating xyz rows default to ±5 m
    bad = t.limit_violations(q)
    assert [(v.joint, v.row, v.kind) for v in bad] == [("slide", 0, "length"), ("plane", 2, "angle"),
                                                       ("free", 6, "length")]
    assert bad[0].describe(degrees=True) == "joint 'slide' position 0.75 is outside its limits [-0.5, 0.5] m"
    assert "row 2 position -34.37746771 is outside its limits [-28.64788976, 28.64788976] deg" in \
        bad[1].describe(degrees=True)


def test_mimic_joints_have_no_position_to_check():
    t = RigidBodyTree()
    for name, parent in (("a", "base"), ("b", "a_link")):
        body = RigidBody(f"{name}_link")
        body.joint = Joint(name, "revolute")
        body.joint.position_limits = [-1, 1]
        t.add_body(body, parent)
    t.get_body("b_link").joint.mimic = Mimic("a", 3.0, 0.0)
    assert t.position_count == 1
    assert t.within_limits([0.9])  # the follower's 2.7 is its leader's business
    assert [v.joint for v in t.limit_violations([1.5])] == ["a"]


def test_mapping_and_bad_input(puma):
    assert not puma.within_limits({"q2": -2.0})
    assert puma.limit_violations({"q2": -2.0})[0].joint == "q2"
    with pytest.raises(InvalidConfigurationError, match="6"):
        puma.within_limits([0, 0])
    with pytest.raises(InvalidConfigurationError, match="finite"):
        puma.limit_violations([0, math.nan, 0, 0, 0, 0])
