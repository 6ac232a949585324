"""URDF → DH: DH tables extracted from a chain's geometry (core.dh_extract)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kinetree.core import DHLink, Joint, RigidBody, RigidBodyTree, chain_dh_table, dh_chain, load_robot
from kinetree.core.dh.extract import DHExtraction, NotDHExpressibleError, dh_report, extract_dh
from kinetree.core.errors import KineTreeError
from scipy.spatial.transform import Rotation

LIBRARY = ["puma560", "puma560_mdh", "stanford", "scara", "cylindrical", "spherical_wrist", "two_link_planar"]
TOL = 1e-10


# --- helpers -------------------------------------------------------------------------------------

def _rot(rng: np.random.Generator) -> np.ndarray:
    return Rotation.random(random_state=rng).as_matrix()


def _pose(R: np.ndarray, p) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, p
    return T


def _full_config(tree: RigidBodyTree, path_names: list[str], q: np.ndarray) -> np.ndarray:
    """A configuration of ``tree`` with the movable path joints at ``q`` and the rest at home."""
    full = tree.home_configuration()
    movable = [n for n in path_names if tree.get_body(n).joint.position_count]
    for name, v in zip(movable, q):
        full[tree.position_index(tree.get_body(name).joint.name)] = v
    return full


def matrix_copy(tree: RigidBodyTree, tip: str, rng: np.random.Generator, fixed_every: float = 0.3) -> RigidBodyTree:
    """The path base → ``tip`` rebuilt as URDF would have it: joints set from plain 4×4 matrices
    (no DH rows), each joint frame at a random point of its axis line with a random orientation,
    random fixed bodies in between, and a fixed body ``"tip"`` posed as the original tip."""
    from kinetree.core.dh.chain import chain_path

    path = chain_path(tree, tip)
    q0 = _full_config(tree, path, np.zeros(len(path)))
    poses = {tree.base_name: np.eye(4), **dict(zip(tree.body_names, tree.forward_kinematics(q0)))}
    new = RigidBodyTree(tree.base_name)
    prev_name, prev_pose = tree.base_name, np.eye(4)
    k = 0
    for name in path:
        j = tree.get_body(name).joint
        if j.type == "fixed":
            continue
        if rng.random() < fixed_every:  # a fixed body rigid with the previous one
            F = _pose(_rot(rng), prev_pose[:3, 3] + rng.uniform(-0.3, 0.3, 3))
            b = RigidBody(f"fx{k}")
            jf = Joint(f"fx{k}_j", "fixed")
            jf.set_fixed_transform(np.linalg.inv(prev_pose) @ F)
            b.joint = jf
            new.add_body(b, prev_name)
            prev_name, prev_pose = b.name, F
        P = poses[tree.parent_name(name)] @ j.joint_to_parent_transform
        u = P[:3, :3] @ j.axis
        origin = P[:3, 3] + rng.uniform(-0.5, 0.5) * u
        if j.type == "prismatic":
            origin = origin + rng.uniform(-0.5, 0.5, 3)  # the line of a prismatic axis is free
        R = _rot(rng)
        J = _pose(R, origin)
        nj = Joint(j.name, j.type)
        nj.set_fixed_transform(np.linalg.inv(prev_pose) @ J)
        nj.axis = R.T @ u
        lo, hi = j.position_limits
        nj.set_limits([lo, hi], home=min(max(0.0, lo), hi))
        b = RigidBody(f"c{k}")
        b.joint = nj
        new.add_body(b, prev_name)
        prev_name, prev_pose = b.name, J
        k += 1
    b = RigidBody("tip")
    jt = Joint("tip_fixed", "fixed")
    jt.set_fixed_transform(np.linalg.inv(prev_pose) @ poses[tip])
    b.joint = jt
    new.add_body(b, prev_name)
    return new


def assert_same_tip(tree: RigidBodyTree, tip: str, ext: DHExtraction, rng: np.random.Generator,
                    n: int = 20, tol: float = TOL) -> None:
    from kinetree.core.dh.chain import chain_path

    rebuilt = ext.to_tree()
    assert rebuilt.position_count == len(ext.links)
    path = chain_path(tree, tip)
    for _ in range(n):
        q = rebuilt.random_configuration(rng)
        want = tree.get_transform(_full_config(tree, path, q), tip)
        got = rebuilt.get_transform(q, ext.tip_name)
        np.testing.assert_allclose(got, want, rtol=0, atol=tol)
    for link in ext.links:
        assert not link.flip
        assert link.joint in ("R", "P")


# --- (a) library robots, re-expressed with matrices only -----------------------------------------

@pytest.mark.parametrize("convention", ["dh", "mdh"])
@pytest.mark.parametrize("name", LIBRARY)
def test_library_matrix_copy_round_trip(name, convention):
    rng = np.random.default_rng(abs(hash((name, convention))) % 2**32)
    robot = load_robot(name)
    copy = matrix_copy(robot, robot.body_names[-1], rng)
    assert all(b.joint.dh_parameters is None for b in copy.bodies)
    ext = extract_dh(copy, convention=convention)
    assert ext.convention == convention
    assert len(ext.links) == robot.position_count
    assert ext.residual < 1e-12
    assert [link.joint_name for link in ext.links] == robot.movable_joint_names
    assert_same_tip(copy, "tip", ext, rng)
    # and against the original robot itself
    rebuilt = ext.to_tree()
    for _ in range(20):
        q = robot.random_configuration(rng)
        np.testing.assert_allclose(rebuilt.get_transform(q, ext.tip_name),
                                   robot.get_transform(q, robot.body_names[-1]), rtol=0, atol=TOL)


@pytest.mark.parametrize("convention", ["dh", "mdh"])
@pytest.mark.parametrize("name", LIBRARY)
def test_library_direct(name, convention, rng):
    robot = load_robot(name)
    ext = extract_dh(robot, convention=convention)
    assert_same_tip(robot, robot.body_names[-1], ext, rng)
    # the limits carry over unchanged (no axis flips, q keeps its sign)
    for link, body in zip(ext.links, robot.bodies):
        np.testing.assert_array_equal(link.qlim, body.joint.position_limits)


# --- (b) Puma 560 against Corke's and Craig's tables --------------------------------------------

def _rows(links):
    return np.array([[lk.a, lk.alpha, lk.d, lk.theta, lk.offset] for lk in links])


def test_puma_standard_table_matches_corke(rng):
    """A matrix-only Puma gives Corke's standard table exactly: the construction's sign choices
    (a > 0 along skew normals, |θ| ≤ 90° at intersections) are Corke's, so a, α (with its sign),
    d are equal and every offset is 0; base and tool are the identity."""
    puma = load_robot("puma560")
    ext = extract_dh(matrix_copy(puma, "link6", rng), convention="dh")
    want = _rows([e.link for e in chain_dh_table(puma)])
    np.testing.assert_allclose(_rows(ext.links), want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ext.base, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(ext.tool, np.eye(4), atol=1e-12)


def test_puma_standard_table_invariants_under_any_base(rng):
    """Whatever the base frame (it is absorbed into ``base``), a, |α| and d of rows 2–6 are
    Corke's: they are distances and angles between the joint axes. The first row and the offsets
    depend on the base frame, so they are not compared."""
    puma = load_robot("puma560")
    moved = RigidBodyTree("world")
    mount = RigidBody("mount")
    mount.joint.set_fixed_transform(_pose(_rot(rng), rng.uniform(-1, 1, 3)))
    moved.add_body(mount, "world")
    moved.add_subtree("mount", puma)
    ext = extract_dh(matrix_copy(moved, "link6", rng), convention="dh")
    got, want = _rows(ext.links), _rows([e.link for e in chain_dh_table(puma)])
    np.testing.assert_allclose(got[1:, 0], want[1:, 0], atol=1e-12)
    np.testing.assert_allclose(np.abs(got[1:, 1]), np.abs(want[1:, 1]), atol=1e-12)
    np.testing.assert_allclose(got[1:, 2], want[1:, 2], atol=1e-12)
    assert_same_tip(moved, "link6", ext, rng)


def test_puma_modified_table_matches_craig(rng):
    puma = load_robot("puma560")
    ext = extract_dh(matrix_copy(puma, "link6", rng), convention="mdh")
    want = _rows([e.link for e in chain_dh_table(load_robot("puma560_mdh"))])
    np.testing.assert_allclose(_rows(ext.links), want, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ext.base, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(ext.tool, np.eye(4), atol=1e-12)


def test_puma_reference_pose_through_extraction(rng):
    q = [0.1, -0.4, 0.7, 0.3, -1.2, 2.0]
    want = np.array([[-0.588693, -0.382105, 0.712346, 0.303036], [0.769194, -0.535755, 0.348292, -0.120398],
                     [0.248558, 0.752969, 0.609308, 0.250363], [0, 0, 0, 1]])
    for conv in ("dh", "mdh"):
        ext = extract_dh(matrix_copy(load_robot("puma560"), "link6", rng), convention=conv)
        np.testing.assert_allclose(ext.to_tree().get_transform(q, ext.tip_name), want, atol=5e-7)


# --- (c) random chains, with degenerate geometry on purpose -------------------------------------

RELATIONS = ("random", "parallel", "antiparallel", "intersecting", "coincident", "perpendicular")


def _random_axis_chain(rng: np.random.Generator, kinds: list[str], relations: list[str],
                       tip_mode: str) -> RigidBodyTree:
    """A matrix-only chain whose joint axes (in the base frame, at q = 0) relate to the previous
    one as ``relations`` say; the joint frames sit at random points of their axes."""
    lines = []
    for k, rel in enumerate(relations):
        if k == 0 or rel == "random":
            u = Rotation.random(random_state=rng).apply([0, 0, 1.0])
            p = rng.uniform(-1, 1, 3)
        else:
            pu, pp = lines[-1]
            side = np.cross(pu, Rotation.random(random_state=rng).apply([0, 0, 1.0]))
            side /= np.linalg.norm(side)
            if rel == "parallel":
                u, p = pu.copy(), pp + rng.uniform(0.1, 1.0) * side + rng.uniform(-1, 1) * pu
            elif rel == "antiparallel":
                u, p = -pu, pp + rng.uniform(0.1, 1.0) * side + rng.uniform(-1, 1) * pu
            elif rel == "coincident":
                u, p = (pu.copy() if rng.random() < 0.5 else -pu), pp + rng.uniform(-1, 1) * pu
            elif rel == "intersecting":
                u = Rotation.random(random_state=rng).apply([0, 0, 1.0])
                p = pp + rng.uniform(-1, 1) * pu
            else:  # perpendicular and skew
                u, p = side, pp + rng.uniform(-1, 1) * pu + rng.uniform(0.1, 1) * np.cross(pu, side)
        lines.append((u, p))
    tree = RigidBodyTree("base")
    prev_name, prev_pose = "base", np.eye(4)
    for k, ((u, p), kind) in enumerate(zip(lines, kinds)):
        R = _rot(rng)
        J = _pose(R, p + rng.uniform(-0.5, 0.5) * u)
        j = Joint(f"j{k}", "revolute" if kind == "R" else "prismatic")
        j.set_fixed_transform(np.linalg.inv(prev_pose) @ J)
        j.axis = R.T @ u
        if rng.random() < 0.3:
            j.offset = rng.uniform(-1, 1)
        b = RigidBody(f"b{k}")
        b.joint = j
        tree.add_body(b, prev_name)
        prev_name, prev_pose = b.name, J @ j.motion_transform([0.0])
    u, p = lines[-1]
    if tip_mode == "on_axis":
        T = _pose(_rot(rng), p + rng.uniform(-1, 1) * u)
    elif tip_mode == "aligned":  # z along the last axis, origin on it
        R = _rot(rng)
        z = u
        x = np.cross(z, R[:, 0])
        x /= np.linalg.norm(x)
        T = _pose(np.column_stack([x, np.cross(z, x), z]), p + rng.uniform(-1, 1) * u)
    else:
        T = _pose(_rot(rng), rng.uniform(-1, 1, 3))
    tip = RigidBody("tip")
    tip.joint.set_fixed_transform(np.linalg.inv(prev_pose) @ T)
    tree.add_body(tip, prev_name)
    return tree


chains = st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from("RP"), min_size=n, max_size=n),
    st.lists(st.sampled_from(RELATIONS), min_size=n, max_size=n),
    st.sampled_from(["free", "on_axis", "aligned"]),
    st.integers(0, 2**32 - 1),
))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains)
def test_random_chains_same_tip(chain):
    kinds, relations, tip_mode, seed = chain
    rng = np.random.default_rng(seed)
    tree = _random_axis_chain(rng, kinds, relations, tip_mode)
    for conv in ("dh", "mdh"):
        ext = extract_dh(tree, convention=conv)
        assert [lk.joint for lk in ext.links] == kinds
        assert ext.residual < 1e-12
        assert_same_tip(tree, "tip", ext, rng, n=5, tol=1e-9)


@pytest.mark.parametrize("relation", ["parallel", "antiparallel", "intersecting", "coincident"])
def test_degenerate_pairs_follow_the_conventions(relation, rng):
    """Revolute pairs: parallel → α ∈ {0, π}, d = 0 (normal through the previous origin);
    intersecting → a = 0; coincident → a = 0, d = 0, θ = 0 (x kept)."""
    for _ in range(10):
        tree = _random_axis_chain(rng, ["R", "R", "R"], ["random", relation, "random"], "free")
        ext = extract_dh(tree, convention="dh")
        row = ext.links[0]  # standard row 1: from axis 1 to axis 2
        if relation in ("parallel", "antiparallel"):
            assert row.alpha == pytest.approx(0.0 if relation == "parallel" else math.pi, abs=1e-12)
            assert row.d == pytest.approx(0.0, abs=1e-12)
            assert row.a > 0.05
        elif relation == "intersecting":
            assert row.a == pytest.approx(0.0, abs=1e-12)
            assert 0 < abs(row.alpha) < math.pi
        else:
            assert (row.a, row.d, row.offset) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
            assert abs(row.alpha) in (0.0, pytest.approx(math.pi))
        assert_same_tip(tree, "tip", ext, rng, n=5)


def test_prismatic_line_is_moved_to_meet_its_neighbours(rng):
    """A prismatic axis between two revolute axes is placed to meet both (a = 0 on both sides)."""
    for _ in range(10):
        tree = _random_axis_chain(rng, ["R", "P", "R"], ["random", "random", "random"], "free")
        ext = extract_dh(tree, convention="dh")
        assert ext.links[0].a == pytest.approx(0.0, abs=1e-12)
        assert ext.links[1].a == pytest.approx(0.0, abs=1e-12)
        assert_same_tip(tree, "tip", ext, rng, n=5)


def test_first_axis_anywhere_goes_into_base(rng):
    robot = load_robot("two_link_planar")
    world = RigidBodyTree("world")
    mount = RigidBody("mount")
    mount.joint.set_fixed_transform(_pose(_rot(rng), [0.3, -0.2, 1.0]))
    world.add_body(mount, "world")
    world.add_subtree("mount", robot)
    for conv in ("dh", "mdh"):
        ext = extract_dh(world, convention=conv)
        assert not np.allclose(ext.base, np.eye(4))
        assert [lk.a for lk in ext.links] == pytest.approx([1.0, 0.5] if conv == "dh" else [0.0, 1.0])
        assert_same_tip(world, "link2", ext, rng)
        rebuilt = ext.to_tree()
        assert rebuilt.get_body(rebuilt.body_names[0]).joint.type == "fixed"


# --- (d) DH → tree → DH ------------------------------------------------------------------------

def _random_table(rng: np.random.Generator, n: int, generic: bool) -> list[DHLink]:
    links = []
    for _ in range(n):
        kind = "R" if generic or rng.random() < 0.6 else "P"
        a = rng.uniform(0.05, 1.0) if generic else rng.choice([0.0, rng.uniform(-1, 1)])
        alpha = (rng.choice([-1, 1]) * rng.uniform(0.1, math.pi - 0.1) if generic
                 else rng.choice([0.0, math.pi / 2, -math.pi / 2, math.pi, rng.uniform(-math.pi, math.pi)]))
        links.append(DHLink(kind, a=a, alpha=alpha, d=rng.uniform(-1, 1), theta=rng.uniform(-math.pi, math.pi),
                            offset=rng.uniform(-3.0, 3.0) if kind == "R" else rng.uniform(-0.5, 0.5)))
    return links


@pytest.mark.parametrize("table_convention", ["dh", "mdh"])
def test_dh_tree_dh_round_trip_same_pose(table_convention, rng):
    for n in range(1, 8):
        for _ in range(4):
            chain = dh_chain(_random_table(rng, n, generic=False), table_convention)
            copy = matrix_copy(chain, chain.body_names[-1], rng)
            for conv in ("dh", "mdh"):
                ext = extract_dh(copy, convention=conv)
                assert_same_tip(copy, "tip", ext, rng, n=5)
                rebuilt = ext.to_tree()
                for _ in range(5):
                    q = chain.random_configuration(rng)
                    np.testing.assert_allclose(rebuilt.get_transform(q, ext.tip_name),
                                               chain.get_transform(q, chain.body_names[-1]), atol=TOL)


@pytest.mark.parametrize("convention", ["dh", "mdh"])
def test_generic_revolute_table_comes_back_exactly(convention, rng):
    """For a generic table (a > 0, α ∉ {0, π}, revolute) the construction's choices are the
    table's own: extraction gives back a, α, d and the offsets (as angles), with base = tool = I."""
    for n in range(2, 8):
        links = _random_table(rng, n, generic=True)
        for lk in links:
            lk.theta = 0.0
        chain = dh_chain(links, convention)
        ext = extract_dh(matrix_copy(chain, chain.body_names[-1], rng), convention=convention)
        got = _rows(ext.links)
        want = _rows(links)
        np.testing.assert_allclose(got[:, :3], want[:, :3], atol=1e-10)
        np.testing.assert_allclose(np.angle(np.exp(1j * (got[:, 4] - want[:, 4]))), 0.0, atol=1e-10)
        np.testing.assert_allclose(ext.base, np.eye(4), atol=1e-10)
        np.testing.assert_allclose(ext.tool, np.eye(4), atol=1e-10)


# --- (e) what is not DH-expressible, and the report ----------------------------------------------

@pytest.mark.parametrize("jtype", ["floating", "spherical", "planar"])
def test_multi_dof_joint_on_path_is_refused(jtype):
    tree = load_robot("two_link_planar")
    b = RigidBody("wrist")
    b.joint = Joint("wrist_ball", jtype)
    tree.add_body(b, "link2")
    with pytest.raises(NotDHExpressibleError, match=rf"body 'wrist', joint 'wrist_ball': a {jtype} joint"):
        extract_dh(tree)
    assert issubclass(NotDHExpressibleError, KineTreeError)
    report = dh_report(tree)
    assert [r.body for r in report] == ["link1", "link2", "wrist"]
    assert [r.ok for r in report] == [True, True, False]
    assert jtype in report[2].reason
    # a tip before the bad joint is fine
    assert len(extract_dh(tree, tip="link2").links) == 2


def test_mimic_joint_on_path_is_refused():
    from kinetree.core.model.joint import Mimic

    tree = load_robot("two_link_planar")
    tree.get_body("link2").joint.mimic = Mimic("q1", 2.0)
    with pytest.raises(NotDHExpressibleError, match=r"joint 'q2': a mimic joint \(it follows joint 'q1'\)"):
        extract_dh(tree)
    assert dh_report(tree)[1].reason.startswith("a mimic joint")


def test_off_path_bodies_do_not_matter(rng):
    tree = load_robot("puma560")
    side = RigidBody("camera")
    side.joint = Joint("camera_mount", "floating")
    tree.add_body(side, "link3")
    ext = extract_dh(tree, tip="link6")
    assert len(ext.links) == 6
    assert_same_tip(tree, "link6", ext, rng)
    assert all(r.ok for r in dh_report(tree, "link6"))


def test_tip_in_the_middle_and_empty_path(rng):
    puma = load_robot("puma560")
    ext = extract_dh(puma, tip="link3")
    assert [lk.name for lk in ext.links] == ["link1", "link2", "link3"]
    assert_same_tip(puma, "link3", ext, rng)
    empty = extract_dh(puma, tip="base")
    assert empty.links == [] and empty.to_tree().position_count == 0
    tree = RigidBodyTree()
    fixed = RigidBody("plate")
    fixed.joint.set_fixed_transform(_pose(_rot(rng), [1, 2, 3]))
    tree.add_body(fixed, "base")
    ext = extract_dh(tree)
    np.testing.assert_allclose(ext.to_tree().get_transform([], ext.tip_name), tree.get_transform([], "plate"))


def test_bad_arguments():
    puma = load_robot("puma560")
    with pytest.raises(KineTreeError, match="convention"):
        extract_dh(puma, convention="craig")
    with pytest.raises(KineTreeError, match="nope"):
        extract_dh(puma, tip="nope")


def test_visuals_and_inertia_follow_the_bodies(rng):
    """Visuals (of the moving bodies and of fixed bodies absorbed into them) keep their world
    pose; masses and centres of mass too."""
    puma = load_robot("puma560")
    copy = matrix_copy(puma, "link6", rng, fixed_every=0.0)
    for b in copy.bodies:
        b.add_visual("box", [0.1, 0.2, 0.3], _pose(_rot(rng), rng.uniform(-0.2, 0.2, 3)))
        b.mass = rng.uniform(0.5, 2.0)
        b.center_of_mass = rng.uniform(-0.1, 0.1, 3)
    for conv in ("dh", "mdh"):
        ext = extract_dh(copy, "tip", conv)
        rebuilt = ext.to_tree()
        q = rebuilt.random_configuration(rng)
        poses_old = dict(zip(copy.body_names, copy.forward_kinematics(q)))
        poses_new = dict(zip(rebuilt.body_names, rebuilt.forward_kinematics(q)))

        def world(poses, tree):
            vis = [poses[b.name] @ v.matrix for b in tree.bodies for v in b.visuals]
            m = sum(b.mass for b in tree.bodies)
            com = sum(b.mass * (poses[b.name][:3, :3] @ b.center_of_mass + poses[b.name][:3, 3])
                      for b in tree.bodies) / m
            return vis, m, com

        v_old, m_old, c_old = world(poses_old, copy)
        v_new, m_new, c_new = world(poses_new, rebuilt)
        assert len(v_new) == len(v_old)
        for V in v_old:
            assert min(np.abs(V - W).max() for W in v_new) < 1e-12
        assert m_new == pytest.approx(m_old)
        np.testing.assert_allclose(c_new, c_old, atol=1e-12)
