"""``kinetree symbolic``: the json matrix, read back with sympy, equals ``kinetree fk``; text and
LaTeX read as the lecture writes them; bad input is one line on stderr."""

from __future__ import annotations

import json
import re
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
    kinds = [tree.find_joint(n).joint.type for n in tree.movable_joint_names]  # prismatic: d_k (issue 19)
    assert data["variables"] == [f"{'d' if t == 'prismatic' else 'q'}{k + 1}" for k, t in enumerate(kinds)]
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
    assert "# a1 = 1.0" in out and "# a2 = 0.5" in out and "T_2^0 =" in out  # Spong's T_n^0 (issue 19)
    rows = [line for line in out.splitlines() if line.startswith("  [")]
    assert [r.split()[:2] for r in rows[:2]] == [["[c12", "-s12"], ["[s12", "c12"]]
    code, out, _ = run(capsys, "symbolic", "two_link_planar", "--params", "symbolic", "--format", "latex")
    assert code == 0
    assert r"T_{2}^{0} = \begin{bmatrix}c_{12} & - s_{12}" in out and r"a_{1} c_{1} + a_{2} c_{12}" in out
    code, out, _ = run(capsys, "symbolic", "puma560")  # long entries: one per line
    assert code == 0
    assert "T_6^0[3,4] = " in out and "c23" in out and "T_6^0[4,:] = 0  0  0  1" in out
    code, out, _ = run(capsys, "symbolic", "spherical_wrist", "--link", "5")  # the wrist is links 4…6
    assert code == 0 and "A5 =" in out and "c5" in out


def test_python_format_is_a_script(capsys):
    code, out, err = run(capsys, "symbolic", "puma560", "--link", "3", "--format", "python", "--params", "numeric")
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


# --- issue 19: the lecture's printed matrices, character for character ----------------------------
# Copied from the lecture (/work/shared/sources/002_…txt). Normalisation, applied to both sides:
# no spaces, `_`, `{`, `}` or `*`; the terms of a sum and the factors of a product in sorted order.
LECTURE = {
    ("cylindrical", "T"): r"c_1 & 0 & -s_1 & -s_1 d_3 \\ s_1 & 0 & c_1 & c_1 d_3 \\ "
                          r"0 & -1 & 0 & d_1 + d_2 \\ 0 & 0 & 0 & 1",
    ("cylindrical", 1): r"c_1 & -s_1 & 0 & 0 \\ s_1 & c_1 & 0 & 0 \\ 0 & 0 & 1 & d_1 \\ 0 & 0 & 0 & 1",
    ("cylindrical", 2): r"1 & 0 & 0 & 0 \\ 0 & 0 & 1 & 0 \\ 0 & -1 & 0 & d_2 \\ 0 & 0 & 0 & 1",
    ("cylindrical", 3): r"1 & 0 & 0 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 1 & d_3 \\ 0 & 0 & 0 & 1",
    ("spherical_wrist", "T"): r"c_4 c_5 c_6 - s_4 s_6 & -c_4 c_5 s_6 - s_4 c_6 & c_4 s_5 & c_4 s_5 d_6 \\ "
                              r"s_4 c_5 c_6 + c_4 s_6 & -s_4 c_5 s_6 + c_4 c_6 & s_4 s_5 & s_4 s_5 d_6 \\ "
                              r"-s_5 c_6 & s_5 s_6 & c_5 & c_5 d_6 \\ 0 & 0 & 0 & 1",
    ("spherical_wrist", 4): r"c_4 & 0 & -s_4 & 0 \\ s_4 & 0 & c_4 & 0 \\ 0 & -1 & 0 & 0 \\ 0 & 0 & 0 & 1",
    ("spherical_wrist", 5): r"c_5 & 0 & s_5 & 0 \\ s_5 & 0 & -c_5 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 0 & 1",
    ("spherical_wrist", 6): r"c_6 & -s_6 & 0 & 0 \\ s_6 & c_6 & 0 & 0 \\ 0 & 0 & 1 & d_6 \\ 0 & 0 & 0 & 1",
    ("scara", "T"): r"c_{12}c_4 + s_{12}s_4 & -c_{12}s_4 + s_{12}c_4 & 0 & a_1c_1 + a_2c_{12} \\ "
                    r"s_{12}c_4 - c_{12}s_4 & -s_{12}s_4 - c_{12}c_4 & 0 & a_1s_1 + a_2s_{12} \\ "
                    r"0 & 0 & -1 & -d_3 - d_4 \\ 0 & 0 & 0 & 1",
    ("scara", 1): r"c_1 & -s_1 & 0 & a_1c_1 \\ s_1 & c_1 & 0 & a_1s_1 \\ 0 & 0 & 1 & 0 \\ 0 & 0 & 0 & 1",
    ("scara", 2): r"c_2 & s_2 & 0 & a_2c_2 \\ s_2 & -c_2 & 0 & a_2s_2 \\ 0 & 0 & -1 & 0 \\ 0 & 0 & 0 & 1",
    ("scara", 3): r"1 & 0 & 0 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 1 & d_3 \\ 0 & 0 & 0 & 1",
    ("scara", 4): r"c_4 & -s_4 & 0 & 0 \\ s_4 & c_4 & 0 & 0 \\ 0 & 0 & 1 & d_4 \\ 0 & 0 & 0 & 1",
    ("two_link_planar", "T"): r"c_{12} & -s_{12} & 0 & a_1 c_1 + a_2 c_{12} \\ "
                              r"s_{12} & c_{12} & 0 & a_1 s_1 + a_2 s_{12} \\ "
                              r"0 & 0 & 1 & 0 \\ 0 & 0 & 0 & 1",
    ("stanford_lecture", 1): r"c_1 & 0 & -s_1 & 0 \\ s_1 & 0 & c_1 & 0 \\ 0 & -1 & 0 & 0 \\ 0 & 0 & 0 & 1",
    ("stanford_lecture", 2): r"c_2 & 0 & s_2 & 0 \\ s_2 & 0 & -c_2 & 0 \\ 0 & 1 & 0 & d_2 \\ 0 & 0 & 0 & 1",
    ("stanford_lecture", 3): r"1 & 0 & 0 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 1 & d_3 \\ 0 & 0 & 0 & 1",
    ("stanford_lecture", 4): r"c_4 & 0 & -s_4 & 0 \\ s_4 & 0 & c_4 & 0 \\ 0 & -1 & 0 & 0 \\ 0 & 0 & 0 & 1",
    # the lecture prints A5's third row as [0 -1 0 0] (det -1, a reflection): α5 = +90° gives [0 1 0 0]
    ("stanford_lecture", 5): r"c_5 & 0 & s_5 & 0 \\ s_5 & 0 & -c_5 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 0 & 1",
    ("stanford_lecture", 6): r"c_6 & -s_6 & 0 & 0 \\ s_6 & c_6 & 0 & 0 \\ 0 & 0 & 1 & d_6 \\ 0 & 0 & 0 & 1",
}
LECTURE_LABELS = {"cylindrical": "T_3^0", "spherical_wrist": "T_6^3", "scara": "T_4^0", "two_link_planar": "T_2^0"}


def normal(entry: str) -> str:
    """One entry after the fixed normalisation; anything that is not a product of the lecture's
    symbols (``cos(q1 + q2 - q4)``, a number with a point) is left in and so never matches."""
    import re

    text = re.sub(r"[\s_{}*]", "", entry)
    terms = re.findall(r"[+-]?[^+-]+", text)
    out = []
    for t in terms:
        sign, body = ("-", t[1:]) if t[0] == "-" else ("+", t.lstrip("+"))
        factors = re.findall(r"[a-z]+\d+|\d+|.", body)  # any other character is its own "factor"
        out.append(sign + "".join(sorted(factors)))
    return "".join(sorted(out))


def grid(latex: str) -> list[list[str]]:
    body = latex.split(r"\begin{bmatrix}", 1)[1].split(r"\end{bmatrix}", 1)[0]
    return [[normal(e) for e in row.split("&")] for row in body.split(r"\\")]


def text_grid(out: str) -> list[list[str]]:
    import re

    rows = [line.strip()[1:-1] for line in out.splitlines() if line.startswith("  [")]
    return [[normal(e) for e in re.split(r"\s{2,}", r.strip())] for r in rows]


@pytest.mark.parametrize("robot, which", list(LECTURE))
def test_the_lectures_printed_matrices(capsys, robot, which):
    """`kinetree symbolic` prints the lecture's A_i and T in its own symbols: d2, d3 for the
    slides, the wrist as A4…A6 and T_6^3 in c4, s5, d6, SCARA folded as printed (c12*c4 + s12*s4,
    not cos(q1 + q2 - q4)); in text and in LaTeX, whose line names the matrix as the lecture does."""
    link = () if which == "T" else ("--link", str(which))
    expected = grid(r"\begin{bmatrix}" + LECTURE[robot, which] + r"\end{bmatrix}")
    code, out, err = run(capsys, "symbolic", robot, "--params", "symbolic", *link)
    assert code == 0, err
    assert text_grid(out) == expected
    label = LECTURE_LABELS[robot] if which == "T" else f"A{which}"
    assert f"\n{label} =\n" in out
    code, out, err = run(capsys, "symbolic", robot, "--params", "symbolic", *link, "--format", "latex")
    assert code == 0, err
    line = out.splitlines()[-1]
    n, j = label[2:].split("^") if which == "T" else (which, None)
    latex_label = f"A_{{{n}}}" if j is None else f"T_{{{n}}}^{{{j}}}"
    assert line.startswith(latex_label + r" = \begin{bmatrix}") and line.endswith(r"\end{bmatrix}")
    assert grid(line) == expected


def as_printed(entry: str) -> str:
    """An entry with the spacing, ``_``, braces and ``*`` taken out but its terms and factors in
    their printed order (``c_4 c_5 c_6 - s_4 s_6`` → ``c4c5c6-s4s6``)."""
    import re

    return re.sub(r"[\s_{}*]", "", entry)


@pytest.mark.parametrize("robot, which", list(LECTURE))
def test_the_lectures_matrices_by_default_in_the_lectures_order(capsys, robot, which):
    """Issue 31: with no --params a lecture robot prints the lecture's symbols (a1, d3, not 0.4),
    and each sum's terms in the lecture's order, the order a hand multiplication writes them
    (T's translation first, then row × column): the wrist's c4c5c6 - s4s6 and -c4c5s6 - s4c6,
    SCARA's c12c4 + s12s4 and s12c4 - c12s4 (sympy's order had them the other way round)."""
    link = () if which == "T" else ("--link", str(which))
    expected = [[as_printed(e) for e in row.split("&")] for row in LECTURE[robot, which].split(r"\\")]
    code, out, err = run(capsys, "symbolic", robot, *link)
    assert code == 0, err
    assert "(symbolic parameters)" in out
    rows = [line.strip()[1:-1] for line in out.splitlines() if line.startswith("  [")]
    assert [[as_printed(e) for e in re.split(r"\s{2,}", r.strip())] for r in rows] == expected
    code, out, err = run(capsys, "symbolic", robot, *link, "--format", "latex")
    assert code == 0, err
    body = out.splitlines()[-1].split(r"\begin{bmatrix}", 1)[1].split(r"\end{bmatrix}", 1)[0]
    assert [[as_printed(e) for e in row.split("&")] for row in body.split(r"\\")] == expected


def test_numbers_on_request_and_for_a_robot_without_dh_rows(capsys):
    """--params numeric still gives the numbers; a robot without DH rows (the quadruped, from a
    URDF's joints) has no symbols to give, so the default prints what numeric prints."""
    code, out, _ = run(capsys, "symbolic", "scara", "--params", "numeric")
    assert code == 0 and "0.4*c1 + 0.3*c12" in out and "a1" not in out
    code, out, err = run(capsys, "symbolic", "quadruped", "--body", "fl_calf")
    assert code == 0, err
    code, numeric, err = run(capsys, "symbolic", "quadruped", "--body", "fl_calf", "--params", "numeric")
    assert code == 0, err
    assert out.replace("(symbolic parameters)", "(numeric parameters)") == numeric


def test_the_wrist_of_the_cylindrical_arm_in_its_own_frames(capsys, tmp_path):
    """The lecture's cylindrical arm with spherical wrist: `--in link3` gives T_6^3 with the
    robot's numbers (c4, s5, d6), and T_6^0 = T_3^0 · T_6^3 in every variable d2, d3, q4…"""
    rows = [DHLink("R", a=0, alpha=0, d=0.5, theta=0), DHLink("P", a=0, alpha=-np.pi / 2, d=0, theta=0),
            DHLink("P", a=0, alpha=0, d=0, theta=0), DHLink("R", a=0, alpha=-np.pi / 2, d=0, theta=0),
            DHLink("R", a=0, alpha=np.pi / 2, d=0, theta=0), DHLink("R", a=0, alpha=0, d=0.1, theta=0)]
    path = tmp_path / "cylindrical_wrist.kinetree.json"
    save_project(dh_chain(rows), path)
    code, out, err = run(capsys, "symbolic", str(path), "--params", "symbolic", "--in", "link3")
    assert code == 0, err
    assert "T_6^3, the pose of 'link6' in 'link3'" in out and "\nT_6^3 =\n" in out
    assert text_grid(out) == grid(r"\begin{bmatrix}" + LECTURE["spherical_wrist", "T"] + r"\end{bmatrix}")
    data = _symbolic(capsys, str(path), "--params", "symbolic")
    assert data["variables"] == ["q1", "d2", "d3", "q4", "q5", "q6"] and data["label"] == "T_6^0"
    q = [0.3, 0.4, 0.2, -0.7, 1.1, 0.5]
    np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, str(path), q), atol=1e-12)
    inner = _symbolic(capsys, str(path), "--params", "symbolic", "--in", "link2")
    assert inner["frames"] == [2, 6]
    np.testing.assert_allclose(_evaluate(inner, q), _fk(capsys, str(path), q, "--in", "link2"), atol=1e-12)


def test_notation_options(capsys):
    """θ_i for revolute variables, Craig's ^0T_n, sums expanded: each in the whole output."""
    code, out, _ = run(capsys, "symbolic", "scara", "--params", "symbolic", "--sums", "expanded", "--format", "latex",
                       "--notation", "craig", "--revolute", "theta")
    assert code == 0
    line = out.splitlines()[-1]
    assert line.startswith(r"{}^{0}T_{4} = \begin{bmatrix}")
    assert "c_{12}" not in line and "cos" not in line and r"a_{2} c_{1} c_{2}" in line and "d_{3}" in line
    assert "% theta1 = joint 'q1'" in out and "% d3 = joint 'q3'" in out
    data = _symbolic(capsys, "scara", "--params", "symbolic", "--revolute", "theta")
    assert data["variables"] == ["theta1", "theta2", "d3", "theta4"]
    tree = load_robot("scara")
    q = tree.random_configuration(np.random.default_rng(3))
    np.testing.assert_allclose(_evaluate(data, q), _fk(capsys, "scara", q), atol=1e-12)
    folded = _symbolic(capsys, "scara", "--params", "symbolic")["matrix"]
    assert all("cos(q1 + q2)" in e or "cos" not in e for row in folded for e in row)
    assert not any("- q4" in e or "-q4" in e for row in folded for e in row)  # no cos(q1 + q2 - q4)


@pytest.mark.parametrize("args, message", [
    (["puma560", "--in", "nowhere"], "nowhere"),
    (["quadruped", "--body", "fl_calf", "--in", "rr_thigh"], "not on the chain"),
    (["puma560", "--in", "link2", "--link", "3"], "give one of them"),
    (["spherical_wrist", "--link", "2"], "link must be 4…6"),
])
def test_bad_frames(capsys, args, message):
    got, out, err = run(capsys, "symbolic", *args)
    assert got == 1 and out == "" and message in err and len(err.strip().splitlines()) == 1
