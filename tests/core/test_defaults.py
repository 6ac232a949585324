"""Defaults (kinematics.md table), show_details, configurations, copies, axis and offset."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from helpers.trees import hyp_settings, random_config, random_tree
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import (
    JOINT_TYPES,
    DHLink,
    Joint,
    RigidBody,
    RigidBodyTree,
    Visual,
    chain_dh_table,
    describe_robot,
    dh_chain,
    list_robots,
    load_robot,
    robot_info,
)
from kinetree.core.io import dumps

NAN2 = [math.nan, math.nan]
PI = math.pi
DEFAULTS = {
    # type: (position_count, limits, home, axis)
    "fixed": (0, NAN2, 0.0, [math.nan] * 3),
    "revolute": (1, [-PI, PI], 0.0, [0, 0, 1]),
    "prismatic": (1, [-0.5, 0.5], 0.0, [0, 0, 1]),
    "floating": (7, [NAN2] * 4 + [[-5, 5]] * 3, [1, 0, 0, 0, 0, 0, 0], [math.nan] * 3),
    "spherical": (4, [NAN2] * 4, [1, 0, 0, 0], [math.nan] * 3),
    "planar": (3, [[-5, 5], [-5, 5], [-PI, PI]], [0, 0, 0], [0, 0, 1]),
    "euler_zyx": (3, [[-PI, PI]] * 3, [0, 0, 0], [math.nan] * 3),
    "euler_xyz": (3, [[-PI, PI]] * 3, [0, 0, 0], [math.nan] * 3),
    "euler_yxz": (3, [[-PI, PI]] * 3, [0, 0, 0], [math.nan] * 3),
    "translation_xyz": (3, [[-0.5, 0.5]] * 3, [0, 0, 0], [math.nan] * 3),
    "custom": (1, [-PI, PI], 0.0, [math.nan] * 3),  # one rotation about z until given rows
}


def test_joint_types():
    assert set(JOINT_TYPES) == set(DEFAULTS)
    assert Joint("j").type == "fixed"


@pytest.mark.parametrize("jtype", list(DEFAULTS))
def test_joint_defaults(jtype):
    count, limits, home, axis = DEFAULTS[jtype]
    j = Joint("j", jtype)
    assert j.type == jtype
    assert j.position_count == count
    np.testing.assert_array_equal(j.position_limits, np.array(limits, dtype=float))
    if isinstance(home, float):
        assert isinstance(j.home_position, float) and j.home_position == home
    else:
        np.testing.assert_array_equal(j.home_position, home)
    np.testing.assert_array_equal(j.axis, np.array(axis, dtype=float))
    assert j.offset == 0.0
    np.testing.assert_array_equal(j.joint_to_parent_transform, np.eye(4))
    np.testing.assert_array_equal(j.child_to_joint_transform, np.eye(4))
    assert j.dh_parameters is None
    np.testing.assert_array_equal(j.transform(np.atleast_1d(home)[:count]), np.eye(4))


def test_body_defaults():
    b = RigidBody("arm")
    assert b.mass == 1.0
    np.testing.assert_array_equal(b.center_of_mass, [0, 0, 0])
    np.testing.assert_array_equal(b.inertia, [1, 1, 1, 0, 0, 0])
    assert b.visuals == ()
    assert b.joint.type == "fixed" and b.joint.name == "arm_jnt"
    assert b.parent is None and b.children == ()


def test_tree_defaults():
    t = RigidBodyTree()
    assert t.base_name == "base" and t.base.name == "base"
    assert t.num_bodies == 0 and t.body_names == [] and t.position_count == 0
    np.testing.assert_array_equal(t.gravity, [0, 0, 0])
    assert t.home_configuration().shape == (0,)
    assert t.index_of("base") == -1 and t.parent_name("base") is None
    np.testing.assert_array_equal(RigidBodyTree("world", gravity=[0, 0, -9.81]).gravity, [0, 0, -9.81])


def test_visual_defaults():
    v = Visual("box", (1, 2, 3))
    np.testing.assert_array_equal(v.matrix, np.eye(4))
    assert v.color == (0.7, 0.7, 0.75, 1.0)
    assert Visual("sphere", (0.5,), color=(1, 0, 0)).color == (1.0, 0.0, 0.0, 1.0)
    assert v.to_dict()["kind"] == "box"


def test_accessors_return_copies():
    j = Joint("j", "revolute")
    j.axis[:] = 5
    j.position_limits[:] = 9
    j.joint_to_parent_transform[:] = 0
    np.testing.assert_array_equal(j.axis, [0, 0, 1])
    np.testing.assert_array_equal(j.position_limits, [-PI, PI])
    np.testing.assert_array_equal(j.joint_to_parent_transform, np.eye(4))
    b = RigidBody("b")
    b.inertia[:] = 7
    b.center_of_mass[:] = 7
    np.testing.assert_array_equal(b.inertia, [1, 1, 1, 0, 0, 0])
    np.testing.assert_array_equal(b.center_of_mass, [0, 0, 0])


# --- show_details ----------------------------------------------------------------------------------

def _cells(line: str) -> list[str]:
    return re.split(r"\s{2,}", line.strip())


def test_show_details_matlab_layout():
    """The MATLAB IRB-120T example: base 'base_link', a fixed body 'base', then the links."""
    tree = RigidBodyTree("base_link")
    base = RigidBody("base")
    base.joint = Joint("base_link-base", "fixed")
    tree.add_body(base, "base_link")
    for i, parent in ((1, "base_link"), (2, "link_1")):
        b = RigidBody(f"link_{i}")
        b.joint = Joint(f"joint_{i}", "revolute")
        tree.add_body(b, parent)
    text = tree.show_details()
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("Idx"))
    assert "Idx  Body Name  Joint Name" in header
    assert _cells(header) == ["Idx", "Body Name", "Joint Name", "Joint Type", "Parent Name(Idx)", "Children Name(s)"]
    rows = [_cells(line) for line in lines if line[:1].isdigit()]
    assert rows == [
        ["1", "base", "base_link-base", "fixed", "base_link(0)"],
        ["2", "link_1", "joint_1", "revolute", "base_link(0)", "link_2(3)"],
        ["3", "link_2", "joint_2", "revolute", "link_1(2)"],
    ]
    assert "3 bodies" in lines[0]
    # columns line up: every row starts its cells where the header's cells start
    starts = [header.index(h) for h in ("Body Name", "Joint Name", "Joint Type", "Parent Name(Idx)")]
    for line in lines:
        if line[:1].isdigit():
            for s in starts:
                assert line[s - 2 : s] == "  " and line[s] != " "


def test_show_details_lists_all_children(puma):
    puma.add_body(RigidBody("camera"), "link3")
    text = puma.show_details()
    row = next(line for line in text.splitlines() if _cells(line)[:2] == ["3", "link3"])
    assert "link4(4)" in row and "camera(7)" in row
    assert "Robot: (7 bodies)" in text


# --- configurations ----------------------------------------------------------------------------

@hyp_settings()
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 10))
def test_config_dict_vector_round_trip(seed, n):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    q = random_config(tree, rng)
    d = tree.config_to_dict(q)
    assert list(d) == tree.movable_joint_names
    for b in tree.bodies:
        if b.joint.position_count == 1:
            assert isinstance(d[b.joint.name], float)
        elif b.joint.position_count > 1:
            assert d[b.joint.name].shape == (b.joint.position_count,)
            np.testing.assert_array_equal(d[b.joint.name], q[tree.position_index(b.joint.name)])
    np.testing.assert_array_equal(tree.config_to_vector(d), q)
    np.testing.assert_array_equal(tree.forward_kinematics(d), tree.forward_kinematics(q))
    # a partial mapping: the rest at home
    first = tree.movable_joint_names[0]
    partial = tree.config_to_vector({first: d[first]})
    home = tree.home_configuration()
    s = tree.position_index(first)
    np.testing.assert_array_equal(partial[s], q[s])
    mask = np.ones(tree.position_count, bool)
    mask[s] = False
    np.testing.assert_array_equal(partial[mask], home[mask])


def _within_limits(tree, q):
    for b in tree.bodies:
        j = b.joint
        if not j.position_count:
            continue
        lim = np.atleast_2d(j.position_limits)
        qj = np.atleast_1d(q[tree.position_index(j.name)])
        for k, (lo, hi) in enumerate(lim):
            if not math.isnan(lo):
                assert lo <= qj[k] <= hi, (j.name, k, qj[k], lo, hi)
        if j.type in ("floating", "spherical"):
            assert np.linalg.norm(qj[:4]) == pytest.approx(1.0, abs=1e-12)


@hyp_settings()
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 10))
def test_home_and_random_configuration_within_limits(seed, n):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    for b in tree.bodies:  # narrow / shift some limits
        j = b.joint
        if j.type == "prismatic":
            j.set_limits([0.3, 1.2], home=0.3)
        elif j.type == "revolute" and rng.random() < 0.5:
            j.position_limits = [-math.inf, math.inf]
    home = tree.home_configuration()
    assert home.shape == (tree.position_count,)
    _within_limits(tree, home)
    for _ in range(5):
        q = tree.random_configuration(rng)
        assert q.shape == (tree.position_count,)
        _within_limits(tree, q)
        assert np.all(np.abs(q) <= 5.0)  # infinite limits are sampled in [-π, π]
    np.testing.assert_array_equal(tree.random_configuration(7), tree.random_configuration(7))


def test_library_home_configurations(puma):
    np.testing.assert_array_equal(puma.home_configuration(), np.zeros(6))
    stanford = load_robot("stanford")
    assert stanford.home_configuration()[2] == pytest.approx(0.3048)  # clamp(0, qlim)


# --- copies ------------------------------------------------------------------------------------------

def test_joint_copy_is_independent():
    j = Joint("j", "revolute")
    j.set_fixed_transform([0.1, 0.2, 0.3, 0.4], "dh")
    j.offset = 0.2
    c = j.copy()
    assert c is not j and c.dh_parameters == j.dh_parameters
    c.name = "other"
    c.axis = [1, 0, 0]
    c.set_limits([0, 1], home=0.5)
    c.offset = -1
    c.set_fixed_transform(np.diag([1.0, -1.0, -1.0, 1.0]))
    assert j.name == "j" and j.offset == 0.2 and j.home_position == 0.0
    np.testing.assert_array_equal(j.axis, [0, 0, 1])
    np.testing.assert_array_equal(j.position_limits, [-PI, PI])
    assert j.dh_parameters is not None


def test_body_copy_is_independent():
    b = RigidBody("b")
    b.joint = Joint("bj", "prismatic")
    b.add_visual("box", (1, 1, 1))
    c = b.copy()
    c.name = "c"
    c.mass = 3
    c.inertia = [2, 2, 2, 0, 0, 0]
    c.center_of_mass = [1, 0, 0]
    c.joint.axis = [1, 0, 0]
    c.joint.name = "cj"
    c.add_visual("sphere", (1,))
    assert b.name == "b" and b.mass == 1.0 and b.joint.name == "bj" and len(b.visuals) == 1
    np.testing.assert_array_equal(b.joint.axis, [0, 0, 1])
    np.testing.assert_array_equal(b.inertia, [1, 1, 1, 0, 0, 0])
    assert c.joint is not b.joint


def test_tree_copy_is_independent(puma):
    before = dumps(puma)
    c = puma.copy()
    assert dumps(c) == before
    c.get_body("link2").joint.offset = 0.5
    c.get_body("link3").name = "renamed"
    c.base_name = "world"
    c.add_body(RigidBody("tool"), "link6")
    c.get_body("link1").mass = 4
    c.remove_body("link6")
    assert dumps(puma) == before
    assert c.get_body("link2") is not puma.get_body("link2")


def test_add_body_stores_a_copy(two_link):
    b = RigidBody("tool")
    b.joint = Joint("tool_j", "revolute")
    stored = two_link.add_body(b, "link2")
    assert stored is not b and stored is two_link.get_body("tool")
    b.name = "changed"
    b.joint.axis = [1, 0, 0]
    assert "tool" in two_link.body_names
    np.testing.assert_array_equal(two_link.get_body("tool").joint.axis, [0, 0, 1])
    # edits through the stored body reach the tree
    rev = two_link.revision
    stored.joint.offset = 0.3
    assert two_link.revision > rev
    assert two_link.get_body("tool").joint.offset == 0.3


def test_joint_setter_inside_tree_replaces_joint(two_link):
    body = two_link.get_body("link2")
    body.joint = Joint("slide", "prismatic")
    assert two_link.joint_names() == ["q1", "slide"]
    assert two_link.get_body("link2").joint.type == "prismatic"
    assert two_link.get_body("link2").children == ()


def test_replace_body_and_joint_keep_children(puma):
    T_before = puma.forward_kinematics(np.full(6, 0.3))
    new = RigidBody("elbow")
    new.joint = Joint("q3", "revolute")
    puma.replace_body("link3", new)
    assert puma.body_names[2] == "elbow" and puma.parent_name("link4") == "elbow"
    assert [c.name for c in puma.get_body("elbow").children] == ["link4"]
    j = Joint("q4", "revolute")
    j.set_fixed_transform([0, math.pi / 2, 0.4318, 0], "dh")
    puma.replace_joint("link4", j)
    assert puma.parent_name("link5") == "link4"
    T_after = puma.forward_kinematics(np.full(6, 0.3))
    np.testing.assert_allclose(T_after[:2], T_before[:2], atol=1e-15)
    assert not np.allclose(T_after[2], T_before[2])


# --- axis and offset ------------------------------------------------------------------------------

def test_axis_is_normalised():
    j = Joint("j", "prismatic")
    j.axis = [0, 0, 2]
    np.testing.assert_array_equal(j.axis, [0, 0, 1])
    j.axis = [1, 1, 0]
    np.testing.assert_allclose(j.axis, [math.sqrt(0.5), math.sqrt(0.5), 0], atol=1e-16)


@pytest.mark.parametrize("jtype", ["R", "P"])
@pytest.mark.parametrize("convention", ["dh", "mdh"])
def test_negative_z_axis_turns_the_other_way(jtype, convention):
    links = [DHLink(jtype, a=0.3, alpha=0.4, d=0.2, theta=0.1), DHLink("R", a=0.5, alpha=-0.3, d=0.1, theta=0.2)]
    tree = dh_chain(links, convention)
    flipped = tree.copy()
    flipped.get_body("link1").joint.axis = [0, 0, -1]
    by_flag = dh_chain([DHLink(jtype, a=0.3, alpha=0.4, d=0.2, theta=0.1, flip=True), links[1]], convention)
    for q in ([0.3, 0.5], [-0.2, 1.0]):
        expected = tree.forward_kinematics([-q[0], q[1]])
        np.testing.assert_allclose(flipped.forward_kinematics(q), expected, atol=1e-15)
        np.testing.assert_allclose(by_flag.forward_kinematics(q), expected, atol=1e-15)
    assert not np.allclose(flipped.forward_kinematics([0.3, 0.5]), tree.forward_kinematics([0.3, 0.5]))
    assert chain_dh_table(flipped)[0].link.flip is True
    assert chain_dh_table(tree)[0].link.flip is False


def test_dh_resets_axis_to_z():
    j = Joint("j", "revolute")
    j.axis = [1, 0, 0]
    j.set_fixed_transform([0, 0, 0, 0], "dh")
    np.testing.assert_array_equal(j.axis, [0, 0, 1])


@pytest.mark.parametrize("jtype", ["revolute", "prismatic"])
def test_offset_shifts_the_joint_variable(jtype):
    rng = np.random.default_rng(2)
    tree = random_tree(rng, n_bodies=3, types=[jtype])
    shifted = tree.copy()
    offsets = []
    for b in shifted.bodies:
        offsets.append(float(rng.uniform(-1, 1)))
        b.joint.offset = b.joint.offset + offsets[-1]
    q = rng.uniform(-0.5, 0.5, 3)
    np.testing.assert_allclose(shifted.forward_kinematics(q), tree.forward_kinematics(q + offsets), atol=1e-12)


def test_offset_only_on_axial_joints():
    for jtype in ("floating", "spherical", "planar", "fixed"):
        j = Joint("j", jtype)
        j.offset = 0.0  # allowed
        assert j.offset == 0.0


def test_revision_increases_on_edits(two_link):
    r = two_link.revision
    for edit in (lambda t: setattr(t.get_body("link1"), "mass", 2.0),
                 lambda t: setattr(t.get_body("link1").joint, "offset", 0.1),
                 lambda t: t.get_body("link2").joint.set_fixed_transform(np.eye(4)),
                 lambda t: setattr(t, "base_name", "world"),
                 lambda t: t.add_body(RigidBody("x"), "link2")):
        edit(two_link)
        assert two_link.revision > r
        r = two_link.revision


# --- library -----------------------------------------------------------------------------------------

def test_library_robots():
    names = list_robots()
    assert {"two_link_planar", "cylindrical", "scara", "spherical_wrist", "puma560", "puma560_mdh",
            "stanford"} <= set(names)
    assert names == sorted(names)
    for name in names:
        a, b = load_robot(name), load_robot(name)
        assert a is not b and dumps(a) == dumps(b)
        assert describe_robot(name) and "\n" not in describe_robot(name)
        if robot_info(name)["convention"] in ("dh", "mdh"):
            assert all(e.link is not None for e in chain_dh_table(a))
        _within_limits(a, a.home_configuration())
    assert load_robot("puma560").position_count == 6
    assert load_robot("spherical_wrist").body_names == ["link4", "link5", "link6"]
