"""The headless sub-commands: details, fk, convert, library — outputs and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from kinetree.app.main import main
from kinetree.core import list_robots, load_robot
from kinetree.core.io import load_project

PUMA_Q = ["0.1", "-0.4", "0.7", "0.3", "-1.2", "2.0"]
# kinematics.md's reference pose for that configuration
PUMA_T = np.array([[-0.588693, -0.382105, 0.712346, 0.303036], [0.769194, -0.535755, 0.348292, -0.120398],
                   [0.248558, 0.752969, 0.609308, 0.250363], [0, 0, 0, 1]])


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_fk_prints_the_lecture_pose(capsys):
    code, out, err = run(capsys, "fk", "puma560", "--q", *PUMA_Q)
    assert code == 0, err
    T = np.array([[float(v) for v in line.split()] for line in out.strip().splitlines()])
    np.testing.assert_allclose(T, PUMA_T, atol=1e-6)


def test_fk_formats_body_frame_and_degrees(capsys):
    tree = load_robot("puma560")
    q = np.array([float(v) for v in PUMA_Q])
    code, out, _ = run(capsys, "fk", "puma560", "--q", *PUMA_Q, "--body", "link3", "--in", "link1",
                       "--format", "json", "--precision", "12")
    assert code == 0
    data = json.loads(out)
    np.testing.assert_allclose(data["matrix"], tree.get_transform(q, "link3", "link1"), atol=1e-15)
    assert data["body"] == "link3" and data["frame"] == "link1"
    code, out, _ = run(capsys, "fk", "two_link_planar", "--q", "60", "30", "--deg", "--format", "xyzrpy")
    assert code == 0
    np.testing.assert_allclose([float(v) for v in out.split()], [0.5, 1.366025, 0, 0, 0, 90], atol=1e-6)
    code, out, _ = run(capsys, "fk", "two_link_planar", "--q", "0", "0", "--format", "quat")
    assert [float(v) for v in out.split()] == [1.5, 0, 0, 1, 0, 0, 0]


def test_details_and_library(capsys):
    code, out, _ = run(capsys, "details", "two_link_planar")
    assert code == 0
    assert out.strip() == load_robot("two_link_planar").show_details()
    code, out, _ = run(capsys, "library")
    assert code == 0
    assert [line.split()[0] for line in out.strip().splitlines()[1:]] == list_robots()  # under a header


def test_convert_to_project_and_back(capsys, tmp_path):
    out_file = tmp_path / "puma.kinetree.json"
    code, out, err = run(capsys, "convert", "puma560", str(out_file))
    assert code == 0, err
    tree, _ = load_project(out_file)
    q = load_robot("puma560").random_configuration(4)
    np.testing.assert_allclose(tree.forward_kinematics(q), load_robot("puma560").forward_kinematics(q), atol=1e-15)
    code, out, _ = run(capsys, "fk", str(out_file), "--q", *PUMA_Q)
    assert code == 0


@pytest.mark.parametrize("args, message", [
    (["fk", "no_such_robot"], "no robot named 'no_such_robot'"),
    (["fk", "puma560", "--q", "1", "2"], "has 2 values"),
    (["fk", "puma560", "--body", "nope"], "nope"),
    (["details", "missing.urdf"], "missing.urdf"),
    (["convert", "puma560", "out.docx"], "unknown file type"),
])
def test_bad_input_is_one_line_and_exit_1(capsys, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 1
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("args", [["fk"], ["fk", "puma560", "--format", "yaml"], ["frobnicate", "x", "y"],
                                  ["fk", "puma560", "--q", "abc"]])
def test_usage_errors_exit_2(capsys, args):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert "usage" in err


def test_help_for_each_command(capsys):
    for cmd in ("details", "fk", "convert", "library", "screenshot"):
        code, out, _ = run(capsys, cmd, "--help")
        assert code == 0 and f"kinetree {cmd}" in out


def test_console_script_exit_codes_without_traceback():
    """The real process: the exit status reaches the shell and nothing imports Qt."""
    ok = subprocess.run([sys.executable, "-m", "kinetree.app", "fk", "puma560", "--q", *PUMA_Q,
                         "--format", "xyzrpy"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, "-m", "kinetree.app", "fk", "nope"], capture_output=True, text=True,
                         timeout=60)
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    code = ("import sys; from kinetree.app.main import main; main(['fk', 'puma560']); "
            "assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'")
    noqt = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert noqt.returncode == 0, noqt.stderr
