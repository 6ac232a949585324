"""``kinetree dh ROBOT``: the DH table computed from the geometry (as the GUI's "DH of chain…"),
with the words saying which rows differ from the robot's own, how its frames moved and why, and
that the end effector is the same; ``--csv`` writes it, ``--latex`` prints a tabular."""

from __future__ import annotations

import re

import numpy as np
from kinetree.app.main import main
from kinetree.core import load_robot
from kinetree.core.io.dh_csv import read_dh_csv


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_ur5_table_says_which_rows_differ_and_why(capsys):
    code, out, _ = run(capsys, "dh", "ur5", "--deg")
    assert code == 0
    rows = [line.split() for line in out.splitlines() if re.match(r"^\d ", line)]
    assert [r[0] for r in rows] == list("123456") and [r[5] for r in rows] == [f"θ{k}" for k in range(1, 7)]
    assert rows[1][2] == "0.425"  # a ≥ 0 where UR's table has −0.425
    assert "# Rows 2, 3, 4, 5, 6 differ from the robot's own table" in out
    assert "# row 2: a -0.425 m → 0.425 m, θ 0° → 180°" in out
    assert "# frame 2: x_2 points the other way along the common normal" in out
    assert "the end effector is the same" in out
    err = float(re.search(r"largest difference ([0-9.e+-]+)", out).group(1))
    assert err < 1e-12


def test_the_cylindrical_arms_sliding_origin_is_explained(capsys):
    code, out, _ = run(capsys, "dh", "cylindrical")
    assert code == 0
    assert "# row 1: d 0.5 m → 0 m" in out and "# row 2: d 0 m → 0.5 m" in out
    assert "# frame 1: o_1 slid -0.5 m along z_1: the two axes are parallel" in out


def test_a_table_equal_to_the_robots_own_says_so(capsys):
    code, out, _ = run(capsys, "dh", "puma560")
    assert code == 0 and "# The computed table equals the robot's own rows." in out
    assert "differ" not in out
    code, out, _ = run(capsys, "dh", "puma560", "--modified")
    assert code == 0 and "The robot's own rows are standard DH" in out
    code, out, _ = run(capsys, "dh", "puma560_mdh", "--modified")
    assert code == 0 and "equals the robot's own rows" in out


def test_csv_reads_back_as_the_same_robot_and_latex_prints_a_tabular(capsys, tmp_path):
    out_csv = tmp_path / "stanford.csv"
    code, out, _ = run(capsys, "dh", "stanford", "--csv", str(out_csv), "--latex")
    assert code == 0
    assert r"\begin{tabular}{c|cccc}" in out and r"$-\pi/2$" in out and r"$d_{3}$" in out
    assert "% Rows 3, 4, 5, 6 differ" in out
    robot, table = load_robot("stanford"), read_dh_csv(out_csv).to_tree()
    rng = np.random.default_rng(0)
    for q in [robot.random_configuration(rng) for _ in range(4)]:
        np.testing.assert_allclose(table.get_transform(q, table.body_names[-1]),
                                   robot.get_transform(q, robot.end_effector), atol=1e-12)


def test_a_urdf_robot_has_no_rows_of_its_own(capsys):
    code, out, _ = run(capsys, "dh", "humanoid_upper_body", "--tip", "l_tool")
    assert code == 0, out
    assert "no DH rows of its own" in out


def test_bad_input_exits_1_with_one_line(capsys):
    code, _, err = run(capsys, "dh", "no_such_robot")
    assert code == 1 and err.count("\n") == 1 and "no_such_robot" in err
    code, _, err = run(capsys, "dh", "puma560", "--tip", "nowhere")
    assert code == 1 and "nowhere" in err


def test_the_wrist_keeps_the_lectures_numbers(capsys):
    code, out, _ = run(capsys, "dh", "spherical_wrist", "--latex")
    assert code == 0
    assert r"4 & $0$ & $-\pi/2$ & $0$ & $\theta_{4}$ \\" in out and r"6 & $0$ & $0$ & $0.1$ & $\theta_{6}$ \\" in out
