"""Property-based tests (hypothesis): FK invariants, tree edits, DH and project round trips."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from helpers.trees import check_invariants, hyp_settings, random_config, random_transform, random_tree
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import (
    JOINT_TYPES,
    DHLink,
    Joint,
    KineTreeError,
    RigidBody,
    RigidBodyTree,
    chain_dh_table,
    dh_chain,
    load_robot,
)
from kinetree.core.io import dumps, load_project, save_project, tree_from_dict, tree_to_dict

seeds = st.integers(0, 2**32 - 1)
sizes = st.integers(1, 10)


# --- FK invariants -------------------------------------------------------------------------------

@hyp_settings()
@given(seed=seeds, n=sizes)
def test_rotations_are_proper(seed, n):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    Q = np.array([random_config(tree, rng) for _ in range(3)])
    for T in (tree.forward_kinematics(Q[0]), tree.forward_kinematics(Q).reshape(-1, 4, 4)):
        R = T[:, :3, :3]
        np.testing.assert_allclose(R @ np.swapaxes(R, 1, 2), np.broadcast_to(np.eye(3), R.shape), atol=1e-12)
        np.testing.assert_allclose(np.linalg.det(R), 1.0, atol=1e-12)
        assert np.array_equal(T[:, 3], np.tile([0.0, 0.0, 0.0, 1.0], (T.shape[0], 1)))


@hyp_settings()
@given(seed=seeds, n=sizes, data=st.data())
def test_get_transform_inverse_pair(seed, n, data):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    names = [tree.base_name, *tree.body_names]
    a = data.draw(st.sampled_from(names))
    b = data.draw(st.sampled_from(names))
    q = random_config(tree, rng)
    Tab, Tba = tree.get_transform(q, a, b), tree.get_transform(q, b, a)
    np.testing.assert_allclose(Tab @ Tba, np.eye(4), atol=1e-11)
    np.testing.assert_allclose(tree.get_transform(q, a, a), np.eye(4), atol=1e-11)
    # and consistent with the base-frame poses
    Ta, Tb = tree.get_transform(q, a), tree.get_transform(q, b)
    np.testing.assert_allclose(Tb @ Tab, Ta, atol=1e-11)


# --- remove_body / add_subtree -------------------------------------------------------------------

def _bodies_by_name(tree) -> dict:
    return {bd["name"]: bd for bd in tree_to_dict(tree)["bodies"]}


DESCENDANTS_BUG = ("engine bug: RigidBodyTree.descendants() lists the body itself twice, so subtree()/remove_body() "
                   "return a tree with a duplicated root body and add_subtree() of it raises DuplicateNameError")


@hyp_settings()
@given(seed=seeds, n=sizes, data=st.data())
def test_remove_body_leaves_valid_tree(seed, n, data):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    name = data.draw(st.sampled_from(tree.body_names))
    parent = tree.parent_name(name)
    gone = set(tree.descendants(name))
    kept = [b for b in tree.body_names if b not in gone]
    before = _bodies_by_name(tree)
    config = tree.config_to_dict(random_config(tree, rng))
    fk_before = dict(zip(tree.body_names, tree.forward_kinematics(config)))
    revision = tree.revision

    sub = tree.remove_body(name)
    assert tree.revision > revision
    assert sub.base_name == parent
    assert set(sub.body_names) == gone
    assert tree.body_names == kept
    check_invariants(tree)
    after = _bodies_by_name(tree)
    assert after == {k: before[k] for k in kept}
    if tree.position_count:
        remaining = {k: v for k, v in config.items() if k in tree.joint_names()}
        for k, T in zip(tree.body_names, tree.forward_kinematics(remaining)):
            np.testing.assert_allclose(T, fk_before[k], atol=1e-12)


def test_descendants_and_subtree_list_each_body_once():
    tree = RigidBodyTree()
    tree.add_body(RigidBody("b0"), "base")
    tree.add_body(RigidBody("b1"), "b0")
    tree.add_body(RigidBody("b2"), "base")
    assert tree.descendants("base") == ["b0", "b1", "b2"]
    assert tree.descendants("b0") == ["b0", "b1"]
    sub = tree.subtree("b0")
    assert sub.body_names == ["b0", "b1"]


@hyp_settings(shrink=False)
@given(seed=seeds, n=sizes, data=st.data())
def test_remove_then_add_subtree_restores(seed, n, data):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n)
    name = data.draw(st.sampled_from(tree.body_names))
    parent = tree.parent_name(name)
    descendants = [name, *(d for d in tree.descendants(name) if d != name)]
    before = _bodies_by_name(tree)
    config = tree.config_to_dict(random_config(tree, rng))
    fk_before = dict(zip(tree.body_names, tree.forward_kinematics(config)))

    sub = tree.remove_body(name)
    assert sub.base_name == parent
    assert sub.body_names == descendants
    check_invariants(sub)

    tree.add_subtree(parent, sub)
    check_invariants(tree)
    assert _bodies_by_name(tree) == before  # same parents, joints, inertia, visuals
    fk_after = dict(zip(tree.body_names, tree.forward_kinematics(config)))
    assert fk_after.keys() == fk_before.keys()
    for k, T in fk_before.items():
        np.testing.assert_allclose(fk_after[k], T, atol=1e-12)


def test_add_subtree_of_fresh_tree_and_subtree_of_base():
    tree = load_robot("two_link_planar")
    extra = RigidBodyTree("anything")
    a = RigidBody("a")
    a.joint = Joint("ja", "prismatic")
    extra.add_body(a, "anything")
    b = RigidBody("b")
    b.joint = Joint("jb", "revolute")
    extra.add_body(b, "a")
    tree.add_subtree("link1", extra)
    check_invariants(tree)
    assert tree.body_names == ["link1", "link2", "a", "b"]
    assert (tree.parent_name("a"), tree.parent_name("b")) == ("link1", "a")
    assert extra.body_names == ["a", "b"]  # copied, not moved
    whole = tree.subtree("base")
    assert dumps(whole) == dumps(tree)
    assert whole.get_body("a") is not tree.get_body("a")


# --- random edit sequences -----------------------------------------------------------------------

BODY_POOL = ["base", "b0", "b1", "b2", "b3", "b4", "b5", "nope"]
JOINT_POOL = ["j0", "j1", "j2", "j3", "j4", "j5", "b1_jnt"]
BAD_MATRICES = [
    np.diag([1.0, 1.0, 2.0, 1.0]),  # not orthonormal
    np.diag([1.0, 1.0, -1.0, 1.0]),  # reflection
    np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 0, 0, 1.0]]),  # last row
    np.full((4, 4), np.nan),
    np.eye(3),
]


def _new_body(data, name_pool=BODY_POOL) -> RigidBody:
    body = RigidBody(data.draw(st.sampled_from(name_pool)))
    body.joint = Joint(data.draw(st.sampled_from(JOINT_POOL)), data.draw(st.sampled_from(JOINT_TYPES)))
    return body


def _apply(tree, op: str, data):
    existing = [tree.base_name, *tree.body_names]

    def pick() -> str:  # mostly a body of the tree, sometimes any name of the pool
        return data.draw(st.sampled_from(existing) | st.sampled_from(BODY_POOL))
    if op == "add":
        tree.add_body(_new_body(data), pick())
    elif op == "remove":
        tree.remove_body(pick())
    elif op == "add_subtree":
        # (subtrees returned by remove_body carry engine bug DESCENDANTS_BUG: build a fresh one)
        sub = RigidBodyTree(data.draw(st.sampled_from(BODY_POOL)))
        for _ in range(data.draw(st.integers(1, 2))):
            try:
                sub.add_body(_new_body(data), data.draw(st.sampled_from([sub.base_name, *sub.body_names])))
            except KineTreeError:
                pass
        tree.add_subtree(pick(), sub)
    elif op == "replace_joint":
        j = Joint(data.draw(st.sampled_from(JOINT_POOL)), data.draw(st.sampled_from(JOINT_TYPES)))
        tree.replace_joint(pick(), j)
    elif op == "replace_body":
        tree.replace_body(pick(), _new_body(data))
    elif op == "rename_body":
        tree.get_body(pick()).name = data.draw(st.sampled_from(BODY_POOL[1:]))
    elif op == "rename_base":
        tree.base_name = data.draw(st.sampled_from(BODY_POOL))
    elif op == "rename_joint":
        tree.get_body(pick()).joint.name = data.draw(st.sampled_from(JOINT_POOL) | st.sampled_from(tree.joint_names()
                                                                                                     or ["x"]))
    elif op == "set_limits":
        j = tree.get_body(pick()).joint
        lo = data.draw(st.floats(-2, 2) | st.just(math.nan))
        hi = data.draw(st.floats(-2, 2))
        if j.position_count == 1:
            j.position_limits = [lo, hi]
        elif j.type == "planar":
            j.set_limits([[-1, 1], [-1, 1], [lo, hi]], home=[0, 0, data.draw(st.floats(-3, 3))])
    elif op == "set_transform":
        j = tree.get_body(pick()).joint
        if data.draw(st.booleans()):
            j.set_fixed_transform(data.draw(st.sampled_from(BAD_MATRICES)))
        else:
            j.set_fixed_transform(random_transform(np.random.default_rng(data.draw(seeds))))
    elif op == "set_axis":
        j = tree.get_body(pick()).joint
        j.axis = data.draw(st.sampled_from([[0, 0, 0], [1, 2, 3], [0, 0, -1], [math.nan, 0, 1]]))
    elif op == "set_mass":
        tree.get_body(pick()).mass = data.draw(st.floats(-1, 2))
    else:  # pragma: no cover
        raise AssertionError(op)


OPS = ["add", "add", "add", "remove", "add_subtree", "replace_joint", "replace_body", "rename_body",
       "rename_base", "rename_joint", "set_limits", "set_transform", "set_axis", "set_mass"]


@hyp_settings()
@given(data=st.data(), ops=st.lists(st.sampled_from(OPS), min_size=1, max_size=25))
def test_random_edits_keep_invariants_and_failures_change_nothing(data, ops):
    tree = random_tree(np.random.default_rng(data.draw(seeds)), n_bodies=data.draw(st.integers(0, 3)),
                       exact_axes=True)
    for op in ops:
        before = dumps(tree)
        names_before = (tree.base_name, tree.body_names, tree.joint_names())
        try:
            _apply(tree, op, data)
        except KineTreeError:
            assert dumps(tree) == before, f"failed {op} changed the tree"
            assert (tree.base_name, tree.body_names, tree.joint_names()) == names_before
        check_invariants(tree)
        round_trip, _ = tree_from_dict(json.loads(dumps(tree)))
        assert dumps(round_trip) == dumps(tree)


# --- DH table round trip -------------------------------------------------------------------------

finite = st.floats(-2.0, 2.0, allow_nan=False)


@st.composite
def dh_links(draw):
    joint = draw(st.sampled_from("RP"))
    lo = draw(st.floats(-3.0, 1.0))
    width = draw(st.floats(0.0, 2.0))
    return DHLink(joint, a=draw(finite), alpha=draw(finite), d=draw(finite), theta=draw(finite), offset=draw(finite),
                  qlim=(lo, lo + width), flip=draw(st.booleans()))


@hyp_settings()
@given(links=st.lists(dh_links(), min_size=1, max_size=7), convention=st.sampled_from(["dh", "mdh"]),
       seed=seeds)
def test_dh_tree_dh_round_trip(links, convention, seed):
    tree = dh_chain(links, convention)
    assert tree.body_names == [f"link{i}" for i in range(1, len(links) + 1)]
    assert tree.joint_names() == [f"q{i}" for i in range(1, len(links) + 1)]
    table = chain_dh_table(tree)
    assert len(table) == len(links)
    for i, (entry, link) in enumerate(zip(table, links), start=1):
        assert entry.link is not None, entry.reason
        assert entry.convention == convention
        assert entry.body == f"link{i}"
        got = entry.link
        assert (got.joint, got.a, got.alpha, got.d, got.theta, got.offset, got.flip) == (
            link.joint, link.a, link.alpha, link.d, link.theta, link.offset, link.flip)
        assert tuple(got.qlim) == tuple(link.qlim)
        assert (got.name, got.joint_name) == (f"link{i}", f"q{i}")
    rebuilt = dh_chain([e.link for e in table], convention)
    assert dumps(rebuilt) == dumps(tree)
    q = tree.random_configuration(np.random.default_rng(seed))
    np.testing.assert_array_equal(rebuilt.forward_kinematics(q), tree.forward_kinematics(q))


def test_dh_table_reasons_for_non_dh_bodies():
    tree = dh_chain([DHLink("R", a=0.1, alpha=0.2, d=0.3, theta=0.0)])
    b = RigidBody("m")
    j = Joint("jm", "revolute")
    j.set_fixed_transform(np.eye(4))
    b.joint = j
    tree.add_body(b, "link1")
    s = RigidBody("s")
    s.joint = Joint("js", "spherical")
    tree.add_body(s, "m")
    tilted = RigidBody("t")
    jt = Joint("jt", "revolute")
    jt.set_fixed_transform([0, 0, 0, 0], "dh")
    jt.axis = [1, 0, 1]
    tilted.joint = jt
    tree.add_body(tilted, "s")
    table = chain_dh_table(tree)
    assert [e.body for e in table] == ["link1", "m", "s", "t"]
    assert table[0].link is not None
    assert table[1].link is None and "matrix" in table[1].reason
    assert table[2].link is None and "spherical" in table[2].reason
    assert table[3].link is None and "axis" in table[3].reason
    assert [e.body for e in chain_dh_table(tree, "m")] == ["link1", "m"]


# --- project file round trip ---------------------------------------------------------------------

def _decorated_tree(rng, n, exact_axes=True):
    tree = random_tree(rng, n_bodies=n, exact_axes=exact_axes)
    tree.base_name = "world"
    tree.gravity = rng.normal(size=3)
    for k, b in enumerate(tree.bodies):
        b.mass = float(rng.uniform(0, 5))
        b.center_of_mass = rng.normal(size=3)
        # a physical tensor (moments y+z, x+z, x+y of positive x, y, z), turned at random
        x, y, z = rng.uniform(0, 1, 3)
        R = random_transform(rng)[:3, :3]
        b.inertia = R @ np.diag([y + z, x + z, x + y]) @ R.T
        if k % 2 == 0:
            b.add_visual("box", rng.uniform(0.1, 1, 3), pose=random_transform(rng), color=(0.1, 0.2, 0.3, 0.5))
        if k % 3 == 0:
            b.add_visual("cylinder", (0.05, 0.4))
            b.add_visual("mesh", (1, 1, 1), filename="meshes/part.stl")
        if b.joint.type == "revolute" and k % 2:
            b.joint.position_limits = [-math.inf, math.inf]
        elif b.joint.type == "prismatic":
            b.joint.set_limits([0.2, 0.9], home=0.5)
    return tree


@hyp_settings()
@given(seed=seeds, n=sizes, with_config=st.booleans())
def test_project_json_round_trip(seed, n, with_config):
    rng = np.random.default_rng(seed)
    tree = _decorated_tree(rng, n)
    q = random_config(tree, rng) if with_config else None
    text = dumps(tree, q)
    json.loads(text)  # strict JSON (no NaN)
    back, q_back = tree_from_dict(json.loads(text))
    assert dumps(back, q_back) == text
    if with_config:
        np.testing.assert_array_equal(q_back, q)
    else:
        assert q_back is None
        q = random_config(tree, rng)
    np.testing.assert_allclose(back.forward_kinematics(q), tree.forward_kinematics(q), atol=1e-12, rtol=0)
    assert back.show_details() == tree.show_details()
    np.testing.assert_array_equal(back.gravity, tree.gravity)


@pytest.mark.parametrize("seed", [1, 2])
def test_save_and_load_project(tmp_path, seed):
    rng = np.random.default_rng(seed)
    tree = _decorated_tree(rng, 9)
    q = random_config(tree, rng)
    path = tmp_path / "robot.kinetree.json"
    save_project(tree, path, q)
    assert [p.name for p in tmp_path.iterdir()] == ["robot.kinetree.json"]  # no temp file left
    back, q_back = load_project(path)
    assert dumps(back, q_back) == dumps(tree, q)
    np.testing.assert_allclose(back.forward_kinematics(q_back), tree.forward_kinematics(q), atol=1e-12)


AXIS_ULP_BUG = ("engine bug: Joint.axis setter re-normalises an already unit axis, moving it by 1 ulp, so "
                "tree_from_dict(dumps(tree)) does not give the same text (and the axis drifts on every save/load)")


def test_project_round_trip_keeps_arbitrary_axes_exactly():
    tree = random_tree(np.random.default_rng(1), n_bodies=1)  # its axis is not a fixed point of v/|v|
    text = dumps(tree)
    back, _ = tree_from_dict(json.loads(text))
    assert dumps(back) == text


def test_project_round_trip_arbitrary_axes_same_fk():
    rng = np.random.default_rng(4)
    tree = _decorated_tree(rng, 12, exact_axes=False)
    back, _ = tree_from_dict(json.loads(dumps(tree)))
    q = random_config(tree, rng)
    np.testing.assert_allclose(back.forward_kinematics(q), tree.forward_kinematics(q), atol=1e-12, rtol=0)


def test_dumps_is_stable_and_copy_equal(puma):
    assert dumps(puma) == dumps(puma)
    assert dumps(puma.copy()) == dumps(puma)
