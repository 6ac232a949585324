"""``kinetree ik`` (checked by running ``kinetree fk`` on the printed q) and ``kinetree fk``'s
joint-limit check."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from kinetree.app.main import main
from kinetree.core import load_robot
from kinetree.core.io import save_project
from scipy.spatial.transform import Rotation


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def fk_matrix(capsys, robot, q_words, *extra) -> np.ndarray:
    code, out, err = run(capsys, "fk", robot, "--q", *q_words, "--precision", "12", *extra)
    assert code == 0, err
    return np.array([[float(v) for v in line.split()] for line in out.strip().splitlines()])


def pose(xyz, rpy_deg) -> np.ndarray:
    """Target built with scipy: extrinsic x-y-z (roll, pitch, yaw about fixed axes)."""
    T = np.eye(4)
    T[:3, :3] = Rotation.from_euler("xyz", rpy_deg, degrees=True).as_matrix()
    T[:3, 3] = xyz
    return T


def test_the_issue_example_reaches_its_pose(capsys):
    code, out, err = run(capsys, "ik", "puma560", "--xyz", 0.4, 0.1, 0.3, "--rpy", 0, 90, 0, "--deg")
    assert code == 0, err
    words = out.split()
    assert len(words) == 6 and len(out.strip().splitlines()) == 1
    T = fk_matrix(capsys, "puma560", words, "--deg")  # q printed in degrees, as --deg asked
    np.testing.assert_allclose(T, pose([0.4, 0.1, 0.3], [0, 90, 0]), atol=1e-6)


def test_the_issue_example_in_a_real_process():
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "ik", "puma560", "--xyz", "0.4", "0.1", "0.3",
                        "--rpy", "0", "90", "0", "--deg"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    q = np.radians([float(v) for v in r.stdout.split()])
    tree = load_robot("puma560")
    np.testing.assert_allclose(tree.get_transform(q, "link6"), pose([0.4, 0.1, 0.3], [0, 90, 0]), atol=1e-6)


@pytest.mark.parametrize("robot, seed", [("puma560", 1), ("ur5", 2), ("panda", 3), ("stanford", 4)])
def test_fk_xyzrpy_round_trips_through_ik(capsys, robot, seed):
    """What fk --format xyzrpy prints, ik takes back: fk of ik's q is the same pose."""
    tree = load_robot(robot)
    q = tree.random_configuration(seed)
    revolute = np.array([tree.find_joint(n).joint.type == "revolute" for n in tree.movable_joint_names])
    for deg in ([], ["--deg"]):  # --deg: revolute positions in degrees (Stanford's slide stays in m)
        qw = [repr(float(v)) for v in (np.where(revolute, np.degrees(q), q) if deg else q)]
        code, out, err = run(capsys, "fk", robot, "--q", *qw, "--format", "xyzrpy", "--precision", "12", *deg)
        assert code == 0, err
        xyzrpy = out.split()
        code, out, err = run(capsys, "ik", robot, "--xyz", *xyzrpy[:3], "--rpy", *xyzrpy[3:], *deg)
        assert code == 0, err
        T = fk_matrix(capsys, robot, out.split(), *deg)
        np.testing.assert_allclose(T, tree.get_transform(q, tree.end_effector), atol=1e-6)


def test_quaternion_body_q0_and_json(capsys):
    tree = load_robot("puma560")
    q = np.array([0.3, 0.2, -0.4, 0.5, -0.6, 0.7])
    T = tree.get_transform(q, "link5")
    w, x, y, z = np.roll(Rotation.from_matrix(T[:3, :3]).as_quat(), 1)
    code, out, err = run(capsys, "ik", "puma560", "--xyz", *T[:3, 3], "--quat", w, x, y, z, "--body", "link5",
                         "--q0", *q, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["body"] == "link5" and data["q_units"] == "rad, m" and not data["position_only"]
    assert data["joints"] == tree.movable_joint_names
    assert data["iterations"] == 0  # started at an answer
    np.testing.assert_allclose(tree.get_transform(np.array(data["q"]), "link5"), T, atol=1e-9)
    assert data["position_error"] <= 1e-6 and data["orientation_error"] <= 1e-6


def test_position_only_and_no_orientation(capsys):
    """Without --rpy/--quat, or with --position-only, the orientation is free."""
    tree = load_robot("puma560")
    for extra in ([], ["--rpy", "3", "2", "1", "--position-only"]):
        code, out, err = run(capsys, "ik", "puma560", "--xyz", 0.3, -0.2, 0.5, *extra)
        assert code == 0, err
        q = np.array([float(v) for v in out.split()])
        np.testing.assert_allclose(tree.get_transform(q, "link6")[:3, 3], [0.3, -0.2, 0.5], atol=1e-6)
        assert tree.within_limits(q)


def test_unreachable_is_exit_1_with_the_best_residual(capsys):
    code, out, err = run(capsys, "ik", "puma560", "--xyz", 3, 0, 0, "--restarts", 3)
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("kinetree ik: 'link6' cannot reach the position")
    assert "best position error 2." in lines[0] and " m, orientation error " in lines[0]


@pytest.mark.parametrize("args, code, words", [
    (["--xyz", "0", "0", "nan"], 1, "--xyz must be finite"),
    (["--xyz", "0", "0", "0", "--quat", "0", "0", "0", "0"], 1, "--quat is zero"),
    (["--xyz", "0", "0", "0", "--body", "nope"], 1, "nope"),
    (["--xyz", "0", "0", "0", "--q0", "1", "2"], 1, "has 2 values"),
    (["--xyz", "0", "0", "0", "--restarts", "-1"], 2, "restarts"),
    (["--xyz", "9", "0", "0", "--restarts", "100000000"], 2, "0..10000"),  # hours of restarts: bounded
    (["--xyz", "0", "0"], 2, "--xyz"),
    (["--rpy", "0", "0", "0"], 2, "--xyz"),
    (["--xyz", "0", "0", "0", "--rpy", "0", "0", "0", "--quat", "1", "0", "0", "0"], 2, "not allowed with"),
])
def test_bad_input(capsys, args, code, words):
    got, out, err = run(capsys, "ik", "puma560", *args)
    assert got == code and out == ""
    assert words in err and "Traceback" not in err


def test_ik_starts_from_a_projects_stored_configuration(capsys, tmp_path):
    """Like fk, ik takes a project's stored configuration as its default start."""
    tree = load_robot("puma560")
    q = np.array([0.3, 0.2, -0.4, 0.5, -0.6, 0.7])
    path = tmp_path / "arm.kinetree.json"
    save_project(tree, path, configuration=q)
    T = tree.get_transform(q, "link6")
    code, out, err = run(capsys, "ik", path, "--xyz", *T[:3, 3], "--quat",
                         *np.roll(Rotation.from_matrix(T[:3, :3]).as_quat(), 1), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["iterations"] == 0


# --- kinetree fk and the joint limits -----------------------------------------------------------

def test_fk_refuses_q_outside_the_limits(capsys):
    code, out, err = run(capsys, "fk", "puma560", "--q", 10, 0, 0, 0, 0, 0)
    assert code == 1 and out == ""
    assert err.strip() == ("kinetree fk: joint 'q1' position 10 is outside its limits [-2.792526803, 2.792526803] "
                           "rad (--ignore-limits to compute it anyway)")
    code, out, err = run(capsys, "fk", "puma560", "--deg", "--q", 161, 0, 0, 0, 0, -300)
    assert code == 1
    assert "joint 'q1' position 161 is outside its limits [-160, 160] deg" in err
    assert "joint 'q6' position -300 is outside its limits [-266, 266] deg" in err
    assert len(err.strip().splitlines()) == 1


def test_fk_of_a_projects_stored_configuration_outside_the_limits_warns(capsys, tmp_path):
    """Corke's qn has q3 = 180°, outside Puma's own limits: a project saved there still computes."""
    tree = load_robot("puma560")
    path = tmp_path / "qn.kinetree.json"
    save_project(tree, path, configuration=tree.named_poses["qn"])
    code, out, err = run(capsys, "fk", path, "--format", "json")
    assert code == 0 and "warning: the stored configuration is outside the limits" in err and "'q3'" in err
    np.testing.assert_allclose(json.loads(out)["matrix"], tree.get_transform(tree.named_poses["qn"], "link6"))


def test_fk_ignore_limits_and_values_at_the_limit(capsys):
    tree = load_robot("puma560")
    code, out, err = run(capsys, "fk", "puma560", "--q", 10, 0, 0, 0, 0, 0, "--ignore-limits", "--format", "json")
    assert code == 0, err
    np.testing.assert_allclose(json.loads(out)["matrix"], tree.get_transform([10, 0, 0, 0, 0, 0], "link6"))
    code, out, err = run(capsys, "fk", "puma560", "--deg", "--q", 160, -45, 45, -110, 100, 266)
    assert code == 0, err


def test_help_and_no_qt():
    """kinetree ik --help describes it, and the command runs without importing Qt."""
    r = subprocess.run([sys.executable, "-c", "import sys; from kinetree.app.main import main; "
                        "code = main(['ik', 'puma560', '--xyz', '0.3', '0.1', '0.4']); "
                        "assert 'PySide6' not in sys.modules; sys.exit(code)"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "ik", "--help"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "kinetree ik" in r.stdout and "--position-only" in r.stdout
