"""Closed kinematic loops: closure, Freudenstein's four-bar, mobility, singular and unassemblable
configurations, parallel-robot IK, and a tree without loops left as it was."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from helpers.loops import (
    COUPLER,
    CRANK,
    GROUND,
    ROCKER,
    add,
    closed,
    four_bar,
    freudenstein,
    heavy_four_bar,
    three_rrr,
    tilted_loop,
    trans,
    wrap,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.core import Joint, LoopClosureError, RigidBody, RigidBodyTree, export_robot, load_robot
from kinetree.core.errors import DuplicateNameError, FileFormatError, InvalidJointError, InvalidPropertyError
from kinetree.core.io.project import load_project
from kinetree.core.kinematics.ik import inverse_kinematics


def test_four_bar_follows_freudenstein_over_a_full_crank_turn():
    t = four_bar()
    q = t.solve_loops(np.array([0.0, 1.0, 1.9]))  # near the open branch
    for th in np.linspace(0.0, 2 * math.pi, 181):
        q = q.copy()
        q[0] = th
        q = t.solve_loops(q)  # warm start from the previous crank angle
        assert q[0] == th  # the actuated joint is kept exactly
        assert np.linalg.norm(t.loop_residual(q)) <= 1e-12
        assert abs(wrap(q[2] - freudenstein(th))) <= 1e-10  # never jumps to the crossed branch


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 2 * math.pi), st.floats(-0.05, 0.05), st.floats(-0.05, 0.05), st.sampled_from(["ball", "hinge"]))
def test_four_bar_closes_from_a_nearby_guess(th, e1, e2, kind):
    t = four_bar(kind=kind)
    th4 = freudenstein(th)
    th3 = math.atan2(ROCKER * math.sin(th4) - CRANK * math.sin(th),
                     GROUND + ROCKER * math.cos(th4) - CRANK * math.cos(th))
    q = t.solve_loops(np.array([th, wrap(th3 - th) + e1, th4 + e2]))
    assert np.linalg.norm(t.loop_residual(q)) <= 1e-12
    assert abs(wrap(q[2] - th4)) <= 1e-10
    t.forward_kinematics(q)  # closed: accepted


def test_constraint_jacobian_matches_finite_differences():
    for kind in ("ball", "hinge", "slider", "weld"):
        t = tilted_loop(kind)
        q = np.array([0.3, -0.7, 0.4])
        J = t.constraint_jacobian(q)
        h = 1e-6
        num = np.column_stack([(t.loop_residual(q + h * e) - t.loop_residual(q - h * e)) / (2 * h) for e in np.eye(3)])
        assert J.shape == (t.loops[0].equation_count, 3)
        assert np.allclose(J, num, atol=1e-8), kind


def test_mobility_of_the_four_bar_parallelogram_and_3rrr():
    assert four_bar().mobility() == 1
    assert four_bar(kind="ball").mobility() == 1
    assert parallelogram().mobility() == 1
    assert three_rrr()[0].mobility() == 3
    assert RigidBodyTree().mobility() == 0
    assert load_robot("puma560").mobility() == 6  # no loop: every degree of freedom


def parallelogram() -> RigidBodyTree:
    return four_bar(a=0.1, b=GROUND, c=0.1, d=GROUND)


def test_parallelogram_keeps_the_coupler_parallel_to_the_ground():
    t = parallelogram()
    q = t.solve_loops(np.array([0.3, -0.25, 0.35]))
    for th in np.linspace(0.3, 2.5, 23):
        q = q.copy()
        q[0] = th
        q = t.solve_loops(q)
        assert abs(q[2] - th) <= 1e-10  # rocker turns with the crank
        assert abs(q[1] + th) <= 1e-10  # the coupler stays level
        assert np.allclose(t.get_transform(q, "coupler")[:3, :3], np.eye(3), atol=1e-10)


def test_3rrr_closes_and_inverse_kinematics_gives_the_actuated_joints():
    t, q, T = three_rrr()
    assert np.linalg.norm(t.loop_residual(q)) <= 1e-12  # the leg-by-leg construction is closed
    assert np.allclose(t.get_transform(q, "platform"), T, atol=1e-12)
    moved = q.copy()
    moved[[0, 3, 5]] += [0.02, -0.03, 0.01]
    closed = t.solve_loops(moved)
    assert np.array_equal(closed[[0, 3, 5]], moved[[0, 3, 5]])
    assert np.linalg.norm(t.loop_residual(closed)) <= 1e-12
    x = t.loop_ik("platform", T, closed)
    assert np.allclose(t.get_transform(x, "platform"), T, atol=1e-10)
    assert np.allclose(x[[0, 3, 5]], q[[0, 3, 5]], atol=1e-8)  # back to the actuated values that built T


def test_an_unassemblable_configuration_names_the_loop():
    t = four_bar(a=0.4)  # crank too long: at θ = π its tip is 0.8 from the rocker's pivot > 0.35 + 0.3
    with pytest.raises(LoopClosureError, match=r"loop 'close' cannot be assembled.*residual"):
        t.solve_loops(np.array([math.pi, 0.5, 2.5]))


def test_a_toggle_configuration_is_reported_as_singular():
    t = four_bar()
    t.get_body("rocker").joint.actuated = True  # drive the rocker: crank and coupler follow
    t.get_body("crank").joint.actuated = False
    reach = CRANK + COUPLER  # crank and coupler stretched in line: the rocker's extreme
    psi = math.acos((reach ** 2 - GROUND ** 2 - ROCKER ** 2) / (2 * GROUND * ROCKER))
    tip = (GROUND + ROCKER * math.cos(psi), ROCKER * math.sin(psi))
    with pytest.raises(LoopClosureError, match=r"loop 'close' is at a singular \(toggle\) configuration"):
        t.solve_loops(np.array([math.atan2(tip[1], tip[0]) + 0.02, 0.05, psi]))
    q = t.solve_loops(np.array([math.atan2(tip[1], tip[0]) + 0.02, 0.05, psi + 0.01]))  # away from it: fine
    assert np.linalg.norm(t.loop_residual(q)) <= 1e-12


def test_kinematics_of_an_open_configuration_raise_naming_the_loop():
    t = four_bar()
    q = t.solve_loops(np.array([0.0, 1.0, 1.9]))
    open_q = q + [0.1, 0.0, 0.0]
    with pytest.raises(LoopClosureError, match=r"loop 'close' is open by 0\.0"):
        t.forward_kinematics(open_q)
    with pytest.raises(LoopClosureError, match="loop 'close'"):
        t.get_transform(open_q, "rocker")
    with pytest.raises(LoopClosureError, match="configuration 1 of the batch"):
        t.forward_kinematics(np.stack([q, open_q]))
    assert t.forward_kinematics(np.stack([q, q])).shape == (2, 3, 4, 4)



ZERO = np.zeros(3)
TREE_CALLS = {  # every tree method that takes a configuration and computes kinematics or dynamics
    "get_transform": lambda t, x: t.get_transform(x, "rocker"),
    "geometric_jacobian": lambda t, x: t.geometric_jacobian(x, "rocker"),
    "jacobe": lambda t, x: t.jacobe(x, "rocker"),
    "manipulability": lambda t, x: t.manipulability(x, "rocker", "trans"),
    "jacobian_dot": lambda t, x: t.jacobian_dot(x, ZERO, "rocker"),
    "com_jacobian": lambda t, x: t.com_jacobian(x),
    "center_of_mass": lambda t, x: t.center_of_mass(x),
    "mass_matrix": lambda t, x: t.mass_matrix(x),
    "inverse_dynamics": lambda t, x: t.inverse_dynamics(x, ZERO, ZERO),
    "forward_dynamics": lambda t, x: t.forward_dynamics(x, ZERO, ZERO),
    "velocity_product": lambda t, x: t.velocity_product(x, ZERO),
    "coriolis": lambda t, x: t.coriolis(x, ZERO),
    "gravity_torque": lambda t, x: t.gravity_torque(x),
}


@pytest.mark.parametrize("name", sorted(TREE_CALLS))
def test_every_kinematics_and_dynamics_call_refuses_an_open_configuration(name):
    """Issue 35: every kinematics and dynamics call on a looped tree says so when the configuration
    leaves a loop open (the tree's Jacobians and its unconstrained dynamics too), and accepts a
    closed one."""
    t = heavy_four_bar()
    q = closed(t, 0.7)
    with pytest.raises(LoopClosureError, match=r"loop 'close' is open by 0\.0"):
        TREE_CALLS[name](t, q + [0.0, 0.05, 0.0])
    TREE_CALLS[name](t, q)  # closed: accepted


def test_batches_are_checked_and_the_solvers_still_pass_through_open_iterates():
    t = heavy_four_bar()
    q = closed(t, 0.7)
    with pytest.raises(LoopClosureError, match="configuration 1 of the batch"):
        t.inverse_dynamics(np.stack([q, q + [0.0, 0.05, 0.0]]), np.zeros((2, 3)), np.zeros((2, 3)))
    assert t.mass_matrix(np.stack([q, q])).shape == (2, 3, 3)
    target = t.get_transform(closed(t, 0.9), "rocker")
    x = t.loop_ik("rocker", target, q)  # Gauss–Newton over the Jacobian at open iterates
    assert np.allclose(t.get_transform(x, "rocker"), target, atol=1e-9)

def test_loops_edit_copy_and_refusals():
    t = four_bar()
    assert [lp.name for lp in t.loops] == ["close"] and t.loops[0].kind == "hinge"
    c = t.copy()
    assert [lp.name for lp in c.loops] == ["close"] and not c.get_body("rocker").joint.actuated
    t.get_body("rocker").name = "lever"  # a rename is followed
    assert t.loops[0].body_b == "lever"
    with pytest.raises(LoopClosureError, match="loop 'close' joins"):
        t.remove_body("crank")
    with pytest.raises(InvalidPropertyError, match="already exists"):
        t.add_loop("close", "coupler", np.eye(4), "lever", np.eye(4), "ball")
    with pytest.raises(InvalidPropertyError, match="unknown kind 'cam'"):
        t.add_loop("x", "coupler", np.eye(4), "lever", np.eye(4), "cam")
    with pytest.raises(InvalidPropertyError, match="both frames are on body 'lever'"):
        t.add_loop("x", "lever", np.eye(4), "lever", np.eye(4), "ball")
    assert t.remove_loop("close").name == "close" and t.loops == ()
    with pytest.raises(LoopClosureError, match="no loop named 'close'"):
        t.remove_loop("close")
    t.remove_body("crank")  # no loop left: allowed
    host = RigidBodyTree("frame")
    host.add_subtree("frame", four_bar())  # loops come along with the bodies
    assert [(lp.name, lp.body_a, lp.body_b) for lp in host.loops] == [("close", "coupler", "rocker")]
    other = four_bar()
    other.get_body("crank").name, other.get_body("coupler").name, other.get_body("rocker").name = "c2", "k2", "r2"
    for b in other.bodies:
        b.joint.name = b.name + "_j"
    with pytest.raises(DuplicateNameError, match="loop 'close'"):
        host.add_subtree("frame", other)
    assert host.num_bodies == 3  # all or nothing
    j = Joint("f", "floating")
    with pytest.raises(InvalidJointError, match="only a revolute or prismatic joint can be passive"):
        j.actuated = False
    with pytest.raises(InvalidJointError, match="actuated must be True or False"):
        Joint("r", "revolute").actuated = "no"


def test_a_tree_without_loops_is_unchanged():
    puma = load_robot("puma560")
    q = puma.random_configuration(np.random.default_rng(1))
    plan = puma._kinematics()
    assert np.array_equal(puma.forward_kinematics(q), plan.fk_single(q))  # bit-identical, no check added
    assert np.array_equal(puma.get_transform(q, "link6"), plan.relative(q, puma.index_of("link6"), -1))
    assert np.array_equal(puma.solve_loops(q), q)
    assert puma.loop_residual(q).shape == (0,) and puma.constraint_jacobian(q).shape == (0, 6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        puma.forward_kinematics(q)


def test_project_round_trips_loops_and_passive_joints(tmp_path):
    t = four_bar(kind="slider")
    X = trans(0.1, 0.2)
    X[:3, :3] = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    t.add_loop("second", "base", X, "crank", np.eye(4), "ball")
    path = tmp_path / "four_bar.kinetree.json"
    export_robot(t, path)
    d = json.loads(path.read_text())
    assert d["version"] == 4  # an older release refuses it rather than dropping the loops
    back, _ = load_project(path)
    assert [(lp.name, lp.kind, lp.body_a, lp.body_b) for lp in back.loops] == [
        ("close", "slider", "coupler", "rocker"), ("second", "ball", "base", "crank")]
    for a, b in zip(t.loops, back.loops):
        assert np.array_equal(a.frame_a, b.frame_a) and np.array_equal(a.frame_b, b.frame_b)
    assert [b.joint.actuated for b in back.bodies] == [True, False, False]
    export_robot(load_robot("puma560"), path)
    assert json.loads(path.read_text())["version"] == 3  # a tree without loops: as before (named poses)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("kind", "cam", r"loop 'close'.*unknown loop kind 'cam'"),
    ("frame_a", [[1, 0, 0]], r"loop 'close': field 'frame_a' must be a 4×4 matrix"),
    ("body_b", "nowhere", r"no body named 'nowhere'"),
])
def test_project_refuses_a_bad_loop(tmp_path, field, value, message):
    path = tmp_path / "bad.kinetree.json"
    export_robot(four_bar(), path)
    d = json.loads(path.read_text())
    d["loops"][0][field] = value
    path.write_text(json.dumps(d))
    with pytest.raises(FileFormatError, match=message):
        load_project(path)


def test_project_refuses_a_non_boolean_actuated(tmp_path):
    path = tmp_path / "bad.kinetree.json"
    export_robot(four_bar(), path)
    d = json.loads(path.read_text())
    d["bodies"][1]["joint"]["actuated"] = "no"
    path.write_text(json.dumps(d))
    with pytest.raises(FileFormatError, match=r"joint 'coupler_joint': field 'actuated' must be true or false"):
        load_project(path)


@pytest.mark.parametrize(("suffix", "fmt"), [(".csv", "DH table")])
def test_other_formats_refuse_loops_naming_the_format(tmp_path, suffix, fmt):
    t = four_bar()
    with pytest.raises(FileFormatError, match=rf"{fmt}.*cannot hold closed loops \('close'\)"):
        export_robot(t, tmp_path / f"r{suffix}")
    t.remove_loop("close")
    with pytest.raises(FileFormatError, match=rf"{fmt}.*cannot mark joints passive \('coupler_joint', "):
        export_robot(t, tmp_path / f"r{suffix}")
    assert not list(tmp_path.iterdir())


def test_slider_crank_solves_a_passive_prismatic_joint():
    a, b = 0.1, 0.35
    t = RigidBodyTree()
    add(t, "crank", "base", np.eye(4))
    add(t, "rod", "crank", trans(a))
    block = RigidBody("block")
    j = Joint("slide", "prismatic")
    j.axis = [1.0, 0.0, 0.0]
    j.set_limits([-1.0, 1.0])
    block.joint = j
    t.add_body(block, "base")
    t.add_loop("pin", "rod", trans(b), "block", np.eye(4), "hinge")
    t.get_body("rod").joint.actuated = False
    t.get_body("block").joint.actuated = False
    q = t.solve_loops(np.array([0.0, 0.0, 0.4]))
    for th in np.linspace(0.0, 2 * math.pi, 73):
        q = q.copy()
        q[0] = th
        q = t.solve_loops(q)
        x = a * math.cos(th) + math.sqrt(b * b - (a * math.sin(th)) ** 2)  # the slider-crank's closed form
        assert abs(q[2] - x) <= 1e-10
    assert t.mobility() == 1


def test_a_target_out_of_reach_is_refused_naming_the_body_and_nothing_changes():
    """Issue 35's bad input: a parallel robot's IK target it cannot reach with its loops closed."""
    t = load_robot("delta_robot")
    q = t.home_configuration()
    before, loops = q.copy(), [(lp.name, lp.body_a, lp.body_b, lp.kind) for lp in t.loops]
    target = t.get_transform(q, "tcp")
    target[2, 3] -= 5.0  # 5 m below: longer than the arms
    with pytest.raises(LoopClosureError, match=r"loop_ik: body 'tcp' cannot reach the target with every loop closed"):
        t.loop_ik("tcp", target, q)
    assert np.array_equal(q, before) and [(lp.name, lp.body_a, lp.body_b, lp.kind) for lp in t.loops] == loops



def test_the_open_trees_ik_refuses_a_looped_tree_naming_loop_ik():
    """inverse_kinematics knows nothing of loops: on the four-bar it answered success=True with
    the loop open by 3 cm (the rocker turned alone). It now says so, and loop_ik does the job."""
    t = load_robot("four_bar")
    q = t.home_configuration()
    moved = q.copy()
    moved[2] += 0.1
    target = t.kinematic_plan().fk_single(moved)[t.index_of("rocker")]  # reachable by the rocker alone
    with pytest.raises(LoopClosureError, match=r"inverse_kinematics for body 'rocker': the tree has closed loops "
                                               r"\('coupler_rocker'\).*use loop_ik"):
        inverse_kinematics(t, "rocker", target, q)
    x = t.loop_ik("rocker", target, q)  # the crank turns, the coupler follows
    assert np.linalg.norm(t.loop_residual(x)) <= 1e-12 and abs(x[2] - moved[2]) < 1e-9
