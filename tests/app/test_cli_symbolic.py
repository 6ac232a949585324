"""``kinetree symbolic``: the json matrix, read back with sympy, equals ``kinetree fk``; text and
LaTeX read as the lecture writes them; bad input is one line on stderr."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
import sympy as sp
from kinetree.app.main import main
from kinetree.core import DHLink, dh_chain, load_robot
from kinetree.core.io.project import save_project


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _fk(capsys, robot, q, *extra):
    code, out, err = run(capsys, "fk", robot, "--q", *(repr(float(x)) for x in q), "--format", "json",
                         "--precision", "15", "--ignore-limits", *extra)
    assert code == 0, err
    return np.array(json.loads(out)["matrix"])


def _symbolic(capsys, *args) -> dict:
    code, out, err = run(capsys, "symbolic", *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def _evaluate(data: dict, q) -> np.ndarray:
    """The json matrix at q: parsed by sympy (names only as plain symbols), parameters substituted."""
    names = {n: sp.Symbol(n) for n in [*data["variables"], *data["parameters"]]}
    values = {sp.Symbol(n): v for n, v in zip(data["variables"], q)}
    values.update({sp.Symbol(n): v for n, v in data["parameters"].items()})
    return np.array([[float(sp.sympify(e, locals=names).subs(values)) for e in row] for row in data["matrix"]])


@pytest.mark.parametrize("robot, params", [("puma560", "numeric"), ("puma560", "symbolic"), ("panda", "symbolic"),
                                           ("stanford_lecture", "numeric"), ("scara", "general"),
                                           ("jaco", "numeric")])
def test_json_matrix_equals_fk(capsys, robot, params):
    data = _symbolic(capsys, robot, "--params", params)
    tree = load_robot(robot)
    assert data["variables"] == [f"q{k + 1}" for k in range(tree.position_count)]
    assert data["joints"] == tree.movable_joint_names and data["body"] == tree.end_effector
    rng = np.random.default_rng(1)
    for _ in range(2):
        q = tree.random_configuration(rng)
        np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, robot, q), atol=1e-12)


def test_link_and_body_options_equal_fk_between_frames(capsys):
    tree = load_robot("puma560")
    q = tree.random_configuration(np.random.default_rng(2))
    for i in (1, 3, 6):
        data = _symbolic(capsys, "puma560", "--link", str(i), "--params", "symbolic")
        assert data["link"] == i
        body = tree.bodies[i - 1].name
        parent = tree.parent_name(body)
        extra = ("--body", body) if parent == tree.base_name else ("--body", body, "--in", parent)
        np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, "puma560", q, *extra), atol=1e-12)
    data = _symbolic(capsys, "puma560", "--body", "link3")
    np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, "puma560", q, "--body", "link3"), atol=1e-12)


def test_a_urdf_tree_and_a_project_file(capsys, tmp_path):
    tree = load_robot("quadruped")
    body = tree.bodies[3].name
    data = _symbolic(capsys, "quadruped", "--body", body)
    q = tree.random_configuration(np.random.default_rng(4))
    np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, "quadruped", q, "--body", body), atol=1e-12)
    # a project file whose names look like code: they stay names
    chain = dh_chain([DHLink("R", a=0.7, alpha=0, d=0, theta=0, name="__import__('os').system('x')",
                             joint_name="exec('1')"),
                      DHLink("R", a=0.2, alpha=0, d=0, theta=0)])
    path = tmp_path / "odd.kinetree.json"
    save_project(chain, path)
    data = _symbolic(capsys, str(path), "--params", "symbolic")
    assert data["joints"][0] == "exec('1')" and data["matrix"][0][3] == "a1*cos(q1) + a2*cos(q1 + q2)"
    q = [0.3, -1.1]
    np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, str(path), q), atol=1e-12)


def test_text_and_latex_in_the_lecture_notation(capsys):
    code, out, err = run(capsys, "symbolic", "two_link_planar", "--params", "symbolic")
    assert code == 0, err
    assert "a1*c1 + a2*c12" in out and "a1*s1 + a2*s12" in out
    assert "# a1 = 1.0" in out and "# a2 = 0.5" in out and "T0_2 =" in out
    rows = [line for line in out.splitlines() if line.startswith("  [")]
    assert [r.split()[:2] for r in rows[:2]] == [["[c12", "-s12"], ["[s12", "c12"]]
    code, out, _ = run(capsys, "symbolic", "two_link_planar", "--params", "symbolic", "--format", "latex")
    assert code == 0
    assert r"T_{0}^{2} = \begin{bmatrix}c_{12} & - s_{12}" in out and r"a_{1} c_{1} + a_{2} c_{12}" in out
    code, out, _ = run(capsys, "symbolic", "puma560")  # long entries: one per line
    assert code == 0
    assert "T0_6[3,4] = " in out and "c23" in out and "T0_6[4,:] = 0  0  0  1" in out
    code, out, _ = run(capsys, "symbolic", "spherical_wrist", "--link", "2")
    assert code == 0 and "A2 =" in out and "c2" in out


def test_python_format_is_a_script(capsys):
    code, out, err = run(capsys, "symbolic", "puma560", "--link", "3", "--format", "python")
    assert code == 0, err
    scope: dict = {}
    exec(out, scope)  # KineTree's own output: symbols with fixed names, numbers
    A = scope["A3"]
    assert A[0, 3] == sp.Float(0.0203) * sp.cos(sp.Symbol("q3"))
    assert A.row(2) == sp.Matrix([[0, -1, 0, sp.Float(0.15005)]])


@pytest.mark.parametrize("args, code, message", [
    (["puma560", "--link", "9"], 1, "link must be 1…6"),
    (["puma560", "--body", "nowhere"], 1, "nowhere"),
    (["robby"], 1, "robby"),
    (["puma560", "--link", "0"], 2, "must be 1 or more"),
    (["puma560", "--link", "x"], 2, "whole number"),
    (["puma560", "--params", "eval"], 2, "invalid choice"),
])
def test_bad_input(capsys, args, code, message):
    got, out, err = run(capsys, "symbolic", *args)
    assert got == code and out == "" and message in err
    if code == 1:  # the command's own refusal: one line
        assert len(err.strip().splitlines()) == 1


def test_a_250_row_planar_table_is_refused_in_seconds(capsys, tmp_path):
    """Issue 17: each entry of a planar chain stays under MAX_TERMS, but the product of 250
    rows ran for minutes; the command now refuses it, naming the chain and what to ask instead."""
    path = tmp_path / "planar.csv"
    path.write_text("type,a,alpha,d,theta\n" + "R,0.1,0,0,q\n" * 250)
    assert path.stat().st_size < 4096
    start = time.perf_counter()
    code, out, err = run(capsys, "symbolic", str(path))
    assert time.perf_counter() - start < 5
    assert code == 1 and out == ""
    assert "a chain of 250 bodies is too long" in err and "a body nearer the base" in err
    assert len(err.strip().splitlines()) == 1
