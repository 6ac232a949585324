"""Symbolic forward kinematics: equal to the numeric FK everywhere, and in the lecture's form
where /work/shared/kinematics.md prints the matrices."""

from __future__ import annotations

import time
from math import pi

import numpy as np
import pytest
import sympy as sp
from kinetree.core import (
    DHLink,
    Joint,
    Mimic,
    RigidBody,
    RigidBodyTree,
    SymbolicError,
    UnknownBodyError,
    dh_chain,
    list_robots,
    load_robot,
    robot_info,
    symbolic_fk,
    symbolic_link,
)
from kinetree.core.teach import symbolic as symbolic_module
from kinetree.core.teach.symbolic import symbolic_model, to_latex, to_python, to_python_script, to_text

DH_ROBOTS = [n for n in list_robots() if robot_info(n)["convention"] in ("dh", "mdh")]
q1, q2, q3, q4, q5, q6 = sp.symbols("q1:7")
a1, a2, d1, d2, d3, d4, d6 = sp.symbols("a1 a2 d1 d2 d3 d4 d6")
c, s = sp.cos, sp.sin


def _same(A: sp.Matrix, B: sp.Matrix) -> bool:
    """Symbolically equal: every entry of A − B simplifies to 0."""
    return all(sp.simplify(sp.expand_trig(e)) == 0 for e in (A - B))


def _fk_error(tree: RigidBodyTree, model, body: str, rng, n: int = 6) -> float:
    f = sp.lambdify([model.variables, list(model.parameters)], model.matrix, "numpy")
    err = 0.0
    for _ in range(n):
        q = tree.random_configuration(rng)
        T = np.array(f(list(q), list(model.parameters.values())), dtype=float)
        err = max(err, float(np.abs(T - tree.get_transform(q, body)).max()))
    return err


@pytest.mark.parametrize("params", ["numeric", "symbolic"])
@pytest.mark.parametrize("name", DH_ROBOTS)
def test_equals_fk_at_random_configurations(name, params):
    tree = load_robot(name, tool=True)  # the flange (a fixed matrix body) too, where there is one
    model = symbolic_model(tree, params=params)
    # the lecture's q_i: θ_i (printed q_i) for a revolute joint, d_i for a prismatic one; a chain
    # named q4… (the spherical wrist) keeps its numbers
    shift = 3 if name == "spherical_wrist" else 0
    kinds = [tree.find_joint(n).joint.type for n in tree.movable_joint_names]
    assert [v.name for v in model.variables] == [f"{'d' if t == 'prismatic' else 'q'}{k + 1 + shift}"
                                                 for k, t in enumerate(kinds)]
    assert model.joints == tree.movable_joint_names
    assert _fk_error(tree, model, tree.end_effector, np.random.default_rng(7)) < 1e-12


@pytest.mark.parametrize("name", ["puma560", "puma560_mdh", "stanford_lecture", "ur5"])
def test_general_parameters_equal_fk(name):
    tree = load_robot(name)
    model = symbolic_model(tree, params="general")
    assert len(model.parameters) == 4 * 6 - 6  # a, alpha and the constant of d/theta, zeros included
    assert _fk_error(tree, model, tree.end_effector, np.random.default_rng(8), 3) < 1e-12


def test_general_seven_joint_chain_is_refused_quickly():
    start = time.perf_counter()
    with pytest.raises(SymbolicError, match="ask for one link's A_i"):
        symbolic_fk(load_robot("panda"), params="general")
    assert time.perf_counter() - start < 10  # refused before the expansion, not after
    assert symbolic_link(load_robot("panda"), 7, params="general").free_symbols == set(sp.symbols("q7 a6 alpha6 d7"))


@pytest.mark.parametrize("name", ["puma560", "panda", "jaco", "stanford_lecture"])
def test_each_link_is_the_body_pose_in_its_parent(name):
    tree = load_robot(name)
    rng = np.random.default_rng(3)
    q = tree.random_configuration(rng)
    for i, body in enumerate(tree.bodies, 1):
        model = symbolic_model(tree, params="symbolic", link=i)
        A = model.evaluate(q)
        np.testing.assert_allclose(A, tree.get_transform(q, body.name, tree.parent_name(body.name)), atol=1e-12)


@pytest.mark.parametrize("name", ["quadruped", "humanoid_upper_body"])
def test_urdf_trees_equal_fk(name):
    tree = load_robot(name)
    rng = np.random.default_rng(11)
    for body in (tree.bodies[2].name, tree.bodies[3].name):
        assert _fk_error(tree, symbolic_model(tree, body), body, rng, 3) < 1e-12


def test_two_link_arm_in_the_lecture_form():
    T = symbolic_fk(load_robot("two_link_planar"), params="symbolic")
    assert T[0, 3] == a1 * c(q1) + a2 * c(q1 + q2)  # structurally: exactly this simplified form
    assert T[1, 3] == a1 * s(q1) + a2 * s(q1 + q2)
    assert T == sp.Matrix([[c(q1 + q2), -s(q1 + q2), 0, a1 * c(q1) + a2 * c(q1 + q2)],
                           [s(q1 + q2), c(q1 + q2), 0, a1 * s(q1) + a2 * s(q1 + q2)],
                           [0, 0, 1, 0], [0, 0, 0, 1]])
    assert to_text(T[0, 3]) == "a1*c1 + a2*c12"
    assert to_text(T[1, 3]) == "a1*s1 + a2*s12"
    assert to_latex(T[0, 3]) == "a_{1} c_{1} + a_{2} c_{12}"
    numeric = symbolic_fk(load_robot("two_link_planar"))
    assert numeric[0, 3] == sp.Float(1.0) * c(q1) + sp.Float(0.5) * c(q1 + q2)
    assert to_text(numeric[0, 3]) == "1.0*c1 + 0.5*c12"


def test_cylindrical_arm_matches_the_lecture():
    model = symbolic_model(load_robot("cylindrical"), params="symbolic")
    assert model.parameters == {d1: 0.5}
    T = model.matrix  # the slides are the lecture's d2, d3 (issue 19: they were q2, q3)
    lecture = sp.Matrix([[c(q1), 0, -s(q1), -s(q1) * d3], [s(q1), 0, c(q1), c(q1) * d3],
                         [0, -1, 0, d1 + d2], [0, 0, 0, 1]])
    assert _same(T, lecture)
    assert T == lecture  # and already in the printed form


WRIST_T63 = sp.Matrix([
    [c(q4) * c(q5) * c(q6) - s(q4) * s(q6), -c(q4) * c(q5) * s(q6) - s(q4) * c(q6), c(q4) * s(q5), c(q4) * s(q5) * d6],
    [s(q4) * c(q5) * c(q6) + c(q4) * s(q6), -s(q4) * c(q5) * s(q6) + c(q4) * c(q6), s(q4) * s(q5), s(q4) * s(q5) * d6],
    [-s(q5) * c(q6), s(q5) * s(q6), c(q5), c(q5) * d6],
    [0, 0, 0, 1]])


def test_spherical_wrist_matches_the_lecture():
    model = symbolic_model(load_robot("spherical_wrist"), params="symbolic")
    # the wrist's joints are named q4, q5, q6: its rows keep the lecture's numbers 4, 5, 6 (issue
    # 19: they were renumbered 1–3), and the matrix is T_6^3
    T = model.matrix
    assert _same(T, WRIST_T63)
    assert T == WRIST_T63
    assert to_text(model.matrix[0, 3]) == "c4*s5*d6" and model.label("latex") == "T_{6}^{3}"


def test_scara_matches_the_lecture():
    T = symbolic_model(load_robot("scara"), params="symbolic").matrix
    c12, s12 = c(q1 + q2), s(q1 + q2)
    lecture = sp.Matrix([
        [c12 * c(q4) + s12 * s(q4), -c12 * s(q4) + s12 * c(q4), 0, a1 * c(q1) + a2 * c12],
        [s12 * c(q4) - c12 * s(q4), -s12 * s(q4) - c12 * c(q4), 0, a1 * s(q1) + a2 * s12],
        [0, 0, -1, -d3 - d4], [0, 0, 0, 1]])
    assert _same(T, lecture)
    assert T == lecture  # folded as printed: c12*c4 + s12*s4, not cos(q1 + q2 - q4)


def test_cylindrical_arm_with_wrist_is_the_product():
    rows = [DHLink("R", a=0, alpha=0, d=0.5, theta=0), DHLink("P", a=0, alpha=-pi / 2, d=0, theta=0, qlim=(0, 1)),
            DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0, 1)),
            DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0), DHLink("R", a=0, alpha=pi / 2, d=0, theta=0),
            DHLink("R", a=0, alpha=0, d=0.1, theta=0)]
    model = symbolic_model(dh_chain(rows), params="symbolic")
    T30 = sp.Matrix([[c(q1), 0, -s(q1), -s(q1) * d3], [s(q1), 0, c(q1), c(q1) * d3],
                     [0, -1, 0, d1 + d2], [0, 0, 0, 1]])
    assert _same(model.matrix, T30 * WRIST_T63.subs(d6, sp.Symbol("d6")))
    assert set(model.parameters) == {d1, d6}


def test_planar_three_link_folds_parallel_axes():
    tree = dh_chain([DHLink("R", a=0.3, alpha=0, d=0, theta=0), DHLink("R", a=0.2, alpha=0, d=0, theta=0),
                     DHLink("R", a=0.1, alpha=0, d=0, theta=0)])
    T = symbolic_fk(tree, params="symbolic")
    a3 = sp.Symbol("a3")
    assert T[0, 3] == a1 * c(q1) + a2 * c(q1 + q2) + a3 * c(q1 + q2 + q3)
    assert to_text(T[0, 0]) == "c123"


def test_stanford_lecture_table():
    tree = load_robot("stanford_lecture")
    assert "Spong" in robot_info("stanford_lecture")["source"]
    A5 = symbolic_link(tree, 5)
    assert list(A5.row(2)) == [0, 1, 0, 0]  # α5 = +90° (the lecture misprints −1)
    model = symbolic_model(tree, params="symbolic")
    assert model.parameters == {d2: 0.154, sp.Symbol("d6"): 0.263}
    # the lecture's T_3^0 of the Stanford arm: last column [c1 s2 d3 − s1 d2, s1 s2 d3 + c1 d2, c2 d3]
    T3 = symbolic_fk(tree, tree.bodies[2].name, params="symbolic")
    assert _same(T3[:3, 3], sp.Matrix([c(q1) * s(q2) * d3 - s(q1) * d2, s(q1) * s(q2) * d3 + c(q1) * d2, c(q2) * d3]))


def test_right_angles_are_exact_and_lengths_keep_their_float():
    puma = load_robot("puma560")
    assert symbolic_link(puma, 1) == sp.Matrix([[c(q1), 0, s(q1), 0], [s(q1), 0, -c(q1), 0],
                                                [0, 1, 0, 0], [0, 0, 0, 1]])
    A3 = symbolic_link(puma, 3)
    assert A3[0, 3] == sp.Float(0.0203) * c(q3) and float(A3[0, 3].coeff(c(q3))) == 0.0203
    assert A3[2, 3] == sp.Float(0.15005)
    assert not any(isinstance(x, sp.Float) for x in symbolic_fk(puma)[:3, :3].atoms(sp.Number))
    assert to_text(A3[2, 3]) == "0.15005"  # the shortest form, not 0.150050000000000


def test_general_parameters_give_the_textbook_a_i():
    ai, al, di = sp.symbols("a2 alpha2 d2")
    A = symbolic_link(load_robot("puma560"), 2, params="general")
    t = q2
    assert A == sp.Matrix([[c(t), -s(t) * c(al), s(t) * s(al), ai * c(t)],
                           [s(t), c(t) * c(al), -c(t) * s(al), ai * s(t)],
                           [0, s(al), c(al), di], [0, 0, 0, 1]])
    # Craig's modified DH: A_1 holds a_0 and alpha_0
    M = symbolic_link(load_robot("panda"), 1, params="general")
    a0, alpha0 = sp.symbols("a0 alpha0")
    assert M[0, 3] == a0 and M[1, 2] == -s(alpha0)


def test_printers_round_trip_through_sympify():
    model = symbolic_model(load_robot("ur5"))
    rng = np.random.default_rng(5)
    q = load_robot("ur5").random_configuration(rng)
    values = dict(zip(model.variables, q))
    for e in model.matrix:
        back = sp.sympify(to_python(e))
        assert abs(float(back.subs(values)) - float(e.subs(values))) < 1e-12
    text = to_text(model.matrix)
    assert "c234" in text and "s234" in text and "cos(" not in text  # UR's three parallel joints folded
    latex = to_latex(model.matrix)
    assert latex.startswith(r"\begin{bmatrix}") and "c_{234}" in latex


@pytest.mark.parametrize("name, link", [("two_link_planar", None), ("puma560", 1), ("jaco", None)])
def test_python_script_rebuilds_the_matrix(name, link):
    model = symbolic_model(load_robot(name), params="symbolic", link=link)
    scope: dict = {}
    exec(to_python_script(model, "T"), scope)  # our own output, made from fixed symbol names only
    assert scope["T"] == model.matrix
    assert {str(k): v for k, v in scope["values"].items()} == {p.name: v for p, v in model.parameters.items()}


def test_puma_prints_within_a_second_or_two():
    start = time.perf_counter()
    T = symbolic_fk(load_robot("puma560"), params="symbolic")
    text, latex = to_text(T), to_latex(T)
    elapsed = time.perf_counter() - start
    assert elapsed < 3.0, elapsed  # measured 0.1 s
    assert "c23" in text and len(latex) > 500


def test_mimic_and_planar_joints():
    tree = RigidBodyTree()
    b1 = RigidBody("b1")
    b1.joint = Joint("j1", "revolute")
    tree.add_body(b1, "base")
    b2 = RigidBody("b2")
    b2.joint = Joint("j2", "revolute")
    b2.joint.set_fixed_transform(np.array([[1, 0, 0, 0.3], [0, 0, -1, 0], [0, 1, 0, 0.1], [0, 0, 0, 1.0]]))
    b2.joint.axis = [0, 0.6, 0.8]
    b2.joint.mimic = Mimic("j1", -2.0, 0.25)
    tree.add_body(b2, "b1")
    b3 = RigidBody("b3")
    b3.joint = Joint("j3", "planar")
    b3.joint.set_fixed_transform(np.array([[0, -1, 0, 0], [1, 0, 0, 0.2], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
    tree.add_body(b3, "b2")
    model = symbolic_model(tree, params="symbolic")
    assert [v.name for v in model.variables] == ["q1", "q2", "q3", "q4"]
    assert _fk_error(tree, model, "b3", np.random.default_rng(2)) < 1e-12


def test_mixed_conventions_get_distinct_symbols():
    # row 1 standard (a1), row 2 modified (Craig's a1 too): both stay, under different names
    tree = dh_chain([DHLink("R", a=0.3, alpha=0, d=0, theta=0), DHLink("R", a=0.2, alpha=0, d=0, theta=0)])
    second = tree.bodies[1].joint
    second.set_fixed_transform([0.7, pi / 2, 0.1, 0], "mdh")
    model = symbolic_model(tree, params="symbolic")
    assert {p.name: v for p, v in model.parameters.items()} == {"a1": 0.3, "a1_2": 0.7, "d2": 0.1}
    assert _fk_error(tree, model, "link2", np.random.default_rng(1)) < 1e-12


def test_refusals():
    tree = load_robot("puma560")
    with pytest.raises(SymbolicError, match="params"):
        symbolic_fk(tree, params="exec")
    with pytest.raises(SymbolicError, match=r"link must be 1…6"):
        symbolic_link(tree, 7)
    with pytest.raises(UnknownBodyError):
        symbolic_fk(tree, "nowhere")
    floating = RigidBodyTree()
    body = RigidBody("drone")
    body.joint = Joint("free", "floating")
    floating.add_body(body, "base")
    with pytest.raises(SymbolicError, match="'free' is floating"):
        symbolic_fk(floating)
    with pytest.raises(SymbolicError, match="no bodies"):
        symbolic_fk(RigidBodyTree())


def test_entry_size_is_bounded(monkeypatch):
    monkeypatch.setattr(symbolic_module, "MAX_TERMS", 4)
    with pytest.raises(SymbolicError, match="more than the 4"):
        symbolic_fk(load_robot("puma560"))


def test_names_from_files_never_become_expressions():
    # a hostile joint name reaches the output only as a name, never as sympy input
    tree = dh_chain([DHLink("R", a=1.0, alpha=0, d=0, theta=0, name="__import__('os')",
                            joint_name="cos(q1) + exec('x')")])
    model = symbolic_model(tree)
    assert model.joints == ["cos(q1) + exec('x')"] and [v.name for v in model.variables] == ["q1"]
    assert model.matrix.free_symbols == {q1}


def test_a_long_planar_chain_is_refused_within_seconds():
    """Issue 17: 250 parallel axes keep each entry under MAX_TERMS (cos(q1+…+qk) folds) but the
    whole product took minutes; the work bound refuses it early, naming the chain length."""
    tree = dh_chain([DHLink("R", a=0.1) for _ in range(250)])
    start = time.perf_counter()
    with pytest.raises(SymbolicError, match=r"a chain of 250 bodies is too long .* a body nearer the base"):
        symbolic_fk(tree)
    assert time.perf_counter() - start < 5
    assert symbolic_fk(tree, tree.bodies[19].name).shape == (4, 4)  # 20 of them are fine


# --- issue 19: the lecture's notation --------------------------------------------------------------

def test_general_a_i_with_theta_is_the_lectures_eq_3_10():
    th, al, ai, di = sp.symbols("theta2 alpha2 a2 d2")
    A = symbolic_link(load_robot("puma560"), 2, params="general", revolute="theta")
    assert A == sp.Matrix([[c(th), -s(th) * c(al), s(th) * s(al), ai * c(th)],
                           [s(th), c(th) * c(al), -c(th) * s(al), ai * s(th)],
                           [0, s(al), c(al), di], [0, 0, 0, 1]])
    assert to_latex(A[0, 3]) == r"a_{2} c_{2}" and to_text(A[0, 1]) == "-s2*cos(alpha2)"
    # a prismatic row: d_i is the variable, θ_i the constant
    P = symbolic_model(load_robot("stanford_lecture"), params="general", revolute="theta", link=3)
    assert {x.name for x in P.matrix.free_symbols} == {"theta3", "alpha3", "a3", "d3"}
    assert sp.Symbol("d3") in P.variables and sp.Symbol("d3") not in P.parameters


def _trig_args(M: sp.Matrix) -> list[sp.Expr]:
    return [f.args[0] for e in M for f in e.atoms(sp.cos, sp.sin)]


@pytest.mark.parametrize("name", ["scara", "puma560", "ur5", "stanford_lecture", "two_link_planar"])
def test_sums_are_all_folded_or_all_expanded(name):
    tree = load_robot(name)
    folded = symbolic_model(tree, params="symbolic")
    expanded = symbolic_model(tree, params="symbolic", sums="expanded")
    # folded: only sums of joint variables (c12), never a difference (cos(q1 + q2 - q4))
    args = _trig_args(folded.matrix)
    assert all(not t.could_extract_minus_sign() for a in args for t in sp.Add.make_args(a))
    assert all(isinstance(a, sp.Symbol) for a in _trig_args(expanded.matrix))  # c1*c2 - s1*s2
    rng = np.random.default_rng(4)
    assert _fk_error(tree, expanded, tree.end_effector, rng, 3) < 1e-12
    assert _same(folded.matrix, expanded.matrix)


def test_scara_text_is_folded_as_printed():
    text = to_text(symbolic_fk(load_robot("scara"), params="symbolic"))
    assert "cos(" not in text and "c12*c4" in text and "s12*s4" in text
    expanded = to_text(symbolic_fk(load_robot("scara"), params="symbolic", sums="expanded"))
    assert "c12" not in expanded and "s12" not in expanded and "a2*c1*c2" in expanded


def test_t_between_two_frames_keeps_the_robots_numbering():
    tree = load_robot("puma560")
    model = symbolic_model(tree, "link6", params="symbolic", frame="link3")
    assert model.frames == (3, 6) and model.label() == "T_6^3" and model.label("latex") == "T_{6}^{3}"
    assert model.label("latex", "craig") == "{}^{3}T_{6}" and model.label("unicode", "craig") == "³T₆"
    assert {x.name for x in model.matrix.free_symbols} == {"q4", "q5", "q6", "d4"}
    A = [symbolic_link(tree, i, "link6", params="symbolic") for i in (4, 5, 6)]
    assert _same(model.matrix, A[0] * A[1] * A[2])
    q = tree.random_configuration(np.random.default_rng(9))
    np.testing.assert_allclose(model.evaluate(q), tree.get_transform(q, "link6", "link3"), atol=1e-12)
    assert symbolic_model(tree, "link6", frame=tree.base_name).frames == (0, 6)
    with pytest.raises(SymbolicError, match="'link5' is not on the chain from 'base' to 'link3'"):
        symbolic_model(tree, "link3", frame="link5")
    with pytest.raises(UnknownBodyError):
        symbolic_model(tree, frame="nowhere")


def test_numbering_from_names_or_first():
    wrist = load_robot("spherical_wrist")
    assert symbolic_model(wrist).frames == (3, 6) and symbolic_model(wrist, link=4).label() == "A4"
    renumbered = symbolic_model(wrist, params="symbolic", first=1)
    assert renumbered.label() == "T_3^0" and to_text(renumbered.matrix[0, 3]) == "c1*s2*d3"
    assert [v.name for v in symbolic_model(load_robot("puma560"), first=2).variables] == [f"q{k}" for k in range(2, 8)]
    with pytest.raises(SymbolicError, match="link must be 4…6"):
        symbolic_link(wrist, 1)
    for bad in (0, True, 2.5, "4"):
        with pytest.raises(SymbolicError, match="first must be"):
            symbolic_model(wrist, first=bad)
    with pytest.raises(SymbolicError, match="sums must be"):
        symbolic_model(wrist, sums="tr10i")
    with pytest.raises(SymbolicError, match="revolute must be"):
        symbolic_model(wrist, revolute="phi")


def test_a_prismatic_variable_never_shares_a_constants_name():
    # a fixed mount first: row 2's constant d2 and the prismatic joint's variable d2 (position 2)
    tree = RigidBodyTree()
    mount = RigidBody("mount")
    mount.joint = Joint("fix", "fixed")
    tree.add_body(mount, "base")
    arm = RigidBody("arm")
    arm.joint = Joint("turn", "revolute")
    arm.joint.set_fixed_transform([0.2, 0, 0.3, 0], "dh")
    tree.add_body(arm, "mount")
    slide = RigidBody("slide")
    slide.joint = Joint("push", "prismatic")
    slide.joint.set_fixed_transform([0, 0, 0, 0], "dh")
    tree.add_body(slide, "arm")
    model = symbolic_model(tree, params="symbolic")
    assert [v.name for v in model.variables] == ["q1", "d2"]
    assert {p.name: v for p, v in model.parameters.items()} == {"a2": 0.2, "d2_2": 0.3}
    assert _fk_error(tree, model, "slide", np.random.default_rng(6)) < 1e-12


def test_terms_in_the_order_of_the_hand_multiplication():
    """Issue 31: SymbolicFK.order keeps each sum as multiplying T·A_i by hand writes it (the
    translation so far first), and the printers follow it; without it, sympy's order as before."""
    m = symbolic_model(load_robot("two_link_planar"), params="symbolic", sums="expanded")
    assert to_text(m.matrix[0, 0], m.order[0][0]) == "c1*c2 - s1*s2"
    assert to_text(m.matrix[0, 3], m.order[0][3]) == "a1*c1 + a2*c1*c2 - a2*s1*s2"
    assert to_text(m.matrix, m.order).splitlines()[1].startswith("[s1*c2 + c1*s2, -s1*s2 + c1*c2,")
    assert to_latex(m.matrix, "T", m.order).startswith(r"T = \begin{bmatrix}c_{1} c_{2} - s_{1} s_{2} & ")
    assert to_text(m.matrix[0, 0]) == "-s1*s2 + c1*c2"
    wrist = symbolic_model(load_robot("spherical_wrist"), params="symbolic")  # (1,1) and (2,1): one sum each
    assert [to_text(wrist.matrix[r, 0], wrist.order[r][0]) for r in range(2)] == \
        ["c4*c5*c6 - s4*s6", "s4*c5*c6 + c4*s6"]
