"""``kinetree torques`` and ``kinetree dynamics`` through the CLI entry: the numbers are the
engine's, and bad input is one line on stderr with exit status ≠ 0."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.app.main import main
from kinetree.core import load_robot
from kinetree.core.dynamics.torque_profile import torque_profile
from kinetree.core.io import save_project

G = [0.0, 0.0, -9.80665]  # standard gravity, as the Joints panel's


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def table(out: str) -> dict[str, list[str]]:
    lines = out.strip().splitlines()
    assert lines[1].split()[:2] == ["joint", "peak"]
    return {line.split()[0]: line.split()[1:] for line in lines[2:] if not line.startswith("wrote")}


@pytest.fixture
def limited_puma(tmp_path):
    """Puma with URDF effort limits (the library's has none), saved as a project."""
    tree = load_robot("puma560")
    for b, effort in zip(tree.bodies, (97, 40, 30, 0, 10, 10)):
        if effort:
            b.joint.extensions = (f'<limit effort="{effort}" velocity="2"/>',)
    path = tmp_path / "puma.kinetree.json"
    save_project(tree, path)
    return tree, path


def test_peaks_are_the_engines_with_limit_and_percent(capsys, limited_puma, tmp_path):
    tree, path = limited_puma
    csv = tmp_path / "profile.csv"
    code, out, err = run(capsys, "torques", path, "--poses", "qz", "qr", "qs", "--seconds", "1.5", "--csv", csv)
    assert code == 0, err
    prof = torque_profile(tree, ["qz", "qr", "qs"], 1.5, gravity=G)  # the robot sets no gravity: standard
    assert "gravity 0 0 -9.80665 m/s² (standard, along −z: the robot sets none)" in out
    rows = table(out)
    assert list(rows) == tree.dof_names()
    for name, peak, lim, pct in zip(prof.names, prof.peaks, prof.limits, prof.percent_of_limit()):
        cells = rows[name]
        assert float(cells[0]) == pytest.approx(peak.value, abs=5e-4) and cells[1] == "N·m"
        assert float(cells[2]) == pytest.approx(peak.time, abs=5e-4)
        if lim is None:
            assert cells[3:5] == ["—", "—"]
        else:
            assert float(cells[3]) == lim and float(cells[5]) == pytest.approx(pct, abs=0.05)
    assert rows["q2"][-2:] == ["OVER", "LIMIT"] and abs(prof.peaks[1].value) > 40
    assert "OVER" not in rows["q1"]
    data = np.loadtxt(csv, delimiter=",", skiprows=1)
    np.testing.assert_allclose(data[:, 0], prof.times)
    np.testing.assert_allclose(data[:, 1:], prof.tau, rtol=1e-15)


def test_gravity_and_motor_options(capsys):
    code, out, err = run(capsys, "torques", "ur5", "--poses", "home", "qr", "--gravity", 0, 0, 0, "--no-motor",
                         "--samples", 11)
    assert code == 0, err
    prof = torque_profile(load_robot("ur5"), ["home", "qr"], 2.0, 11, gravity=[0, 0, 0], motor=False)
    for name, peak in zip(prof.names, prof.peaks):
        assert float(table(out)[name][0]) == pytest.approx(peak.value, abs=5e-4)
    assert "without motor inertia and friction" in out and "(--gravity)" in out


def test_dynamics_prints_the_engines_torques(capsys):
    tree = load_robot("puma560")
    tree.gravity = G
    q, qd, qdd = np.radians([10, 45, -90, 5, 20, 0]), np.radians([10, -5, 3, 0, 1, 2]), np.radians([1, 2, 3, 4, 5, 6])
    code, out, err = run(capsys, "dynamics", "puma560", "--deg", "--q", *np.degrees(q), "--qd", *np.degrees(qd),
                         "--qdd", *np.degrees(qdd), "--precision", 12)
    assert code == 0, err
    np.testing.assert_allclose([float(v) for v in out.split()], tree.inverse_dynamics(q, qd, qdd), atol=1e-11)
    assert "standard, along −z: the robot sets none" in err  # said, not silent
    code, out, err = run(capsys, "dynamics", "puma560", "--gravity", 0, 0, 0, "--qd", 1, 0, 0, 0, 0, 0)
    assert code == 0 and err == ""
    tree.gravity = [0, 0, 0]
    np.testing.assert_allclose([float(v) for v in out.split()], tree.inverse_dynamics(None, [1, 0, 0, 0, 0, 0]),
                               atol=1e-6)
    assert float(out.split()[0]) > 27  # Coulomb and viscous friction of joint 1: |G|·(Tc+ + B·|G|) = 30.5


@pytest.mark.parametrize("args, message", [
    (["torques", "puma560", "--poses", "qz", "nope"], "no pose named 'nope' (the robot's poses: qz, qr, qs, qn)"),
    (["torques", "puma560", "--poses", "qz"], "two poses or more"),
    (["torques", "ur5", "--poses", "qz", "qr", "--gravity", 0, "nan", 0], "--gravity must be finite"),
    (["dynamics", "puma560", "--qd", 1, 2], "--qd has 2 values; the robot has 6 degrees of freedom"),
    (["dynamics", "puma560", "--qdd", 1, 2, 3, 4, 5, "nan"], "--qdd: the value for q6 is not a finite number"),
    (["dynamics", "puma560", "--q", 0, 0, 0, 0, 0, "nan"], "'q6'"),
    (["dynamics", "puma560", "--q", 0, 0, 0], "3"),
    (["dynamics", "puma560", "--q", 0, 0, 0, 0, 0, 20], "outside"),
])
def test_bad_input_is_one_line_and_exit_1(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 1 and out == ""
    assert message in err and err.count("\n") <= 2 and "Traceback" not in err


@pytest.mark.parametrize("args", [["--seconds", 0], ["--seconds", "nan"], ["--samples", 1], ["--samples", "2.5"],
                                  ["--samples", 10**9]])
def test_out_of_range_options_are_usage_errors(capsys, args):
    code, out, err = run(capsys, "torques", "puma560", "--poses", "qz", "qr", *args)
    assert code == 2 and "Traceback" not in err


def test_unwritable_csv_is_refused(capsys, tmp_path):
    code, out, err = run(capsys, "torques", "puma560", "--poses", "qz", "qr", "--csv", tmp_path)
    assert code == 1 and "Traceback" not in err and str(tmp_path) in err


def test_a_csv_that_cannot_be_written_prints_no_table(capsys):
    code, out, err = run(capsys, "torques", "puma560", "--poses", "qz", "qr", "--csv", "/dev/full")
    assert code == 1 and out == "" and "/dev/full" in err


def test_quaternion_joints_are_refused_in_words(capsys, tmp_path):
    from kinetree.core import Joint, RigidBody

    tree = load_robot("two_link_planar")
    ball = RigidBody("ball")
    ball.joint = Joint("ball_joint", "spherical")
    ball.mass = 1.0
    tree.add_body(ball, tree.end_effector)
    tree.named_poses["a"] = tree.named_poses["b"] = tree.home_configuration()
    save_project(tree, tmp_path / "ball.kinetree.json")
    code, out, err = run(capsys, "torques", tmp_path / "ball.kinetree.json", "--poses", "a", "b")
    assert code == 1 and "joint 'ball_joint' is spherical" in err and "Traceback" not in err
    # dynamics takes it: ω of the ball in deg/s with --deg
    code, out, err = run(capsys, "dynamics", tmp_path / "ball.kinetree.json", "--gravity", 0, 0, -9.81,
                         "--qd", 0, 0, 10, 20, 30, "--deg", "--precision", 12)
    assert code == 0, err
    tree.gravity = [0, 0, -9.81]
    np.testing.assert_allclose([float(v) for v in out.split()],
                               tree.inverse_dynamics(None, np.radians([0, 0, 10, 20, 30])), atol=1e-11)
