"""Command-line parsing: negative numbers in every notation are values, empty body names are
usage errors, hostile files are one-line errors (never a traceback or a hang)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from kinetree.app.cli import build_parser
from kinetree.app.main import main
from kinetree.core import load_robot


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _fk_json(capsys, *q: str):
    # --ignore-limits: these tests are about parsing numbers, and some (-100 rad) are out of limits
    code, out, err = run(capsys, "fk", "puma560", "--format", "json", "--ignore-limits", "--q", *q)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("text, value", [("-1e-3", -1e-3), ("-.5", -0.5), ("-1E+2", -100.0), ("-2.", -2.0),
                                         ("-1_0", -10.0), ("-0", 0.0), ("-3", -3.0)])
def test_negative_numbers_in_any_notation_are_values(capsys, text, value):
    data = _fk_json(capsys, "0", text, "0", "0", "0", "0")
    assert data["q"] == pytest.approx([0, value, 0, 0, 0, 0])
    tree = load_robot("puma560")
    T = tree.get_transform(np.array([0, value, 0, 0, 0, 0.0]), tree.end_effector)
    np.testing.assert_allclose(data["matrix"], T, atol=1e-12)


def test_negative_numbers_first_and_last(capsys):
    data = _fk_json(capsys, "-1e-3", "0", "0", "0", "0", "-2.5e-1")
    assert data["q"] == pytest.approx([-1e-3, 0, 0, 0, 0, -0.25])


@pytest.mark.parametrize("text", ["-inf", "-Infinity", "-nan", "inf", "nan"])
def test_non_finite_values_are_input_errors_not_usage_errors(capsys, text):
    code, out, err = run(capsys, "fk", "puma560", "--q", "0", text, "0", "0", "0", "0")
    assert code == 1, err
    assert out == ""
    assert "must be finite" in err and "joint 'q2'" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [["fk", "puma560", "--body", ""], ["fk", "puma560", "--body", "  "],
                                  ["fk", "puma560", "--in", ""], ["convert", "puma560", "x.csv", "--tip", ""]])
def test_empty_body_names_are_usage_errors(capsys, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2
    assert "must not be empty" in err
    assert out == ""
    assert not (tmp_path / "x.csv").exists()


def test_options_are_still_options(capsys):
    """Widening what counts as a number must not swallow real options or typos."""
    code, _, err = run(capsys, "fk", "puma560", "--q", "0", "0", "0", "0", "0", "0", "-x")
    assert code == 2 and "unrecognized arguments: -x" in err
    code, out, _ = run(capsys, "fk", "puma560", "--q", "0", "0", "0", "0", "0", "-1e-3", "--deg",
                       "--format", "xyzrpy")
    assert code == 0 and len(out.split()) == 6


def test_screenshot_q_takes_negative_numbers_too():
    parser = build_parser()
    args = parser.parse_args(["screenshot", "puma560", "-o", "x.png", "--q", "0", "-1e-3", "-.5", "-inf"])
    assert args.q[:3] == [0.0, -1e-3, -0.5] and args.q[3] == -np.inf


@pytest.mark.skipif(os.name != "posix", reason="FIFOs are POSIX")
def test_fifo_robot_is_a_one_line_error(capsys, tmp_path):
    fifo = tmp_path / "robot.kinetree.json"
    os.mkfifo(fifo)
    code, out, err = run(capsys, "details", str(fifo))
    assert code == 1
    assert err.strip().splitlines() == [f"kinetree details: {fifo}: is a FIFO (named pipe), not a regular file; "
                                        "KineTree reads only files"]


def test_real_process(tmp_path):
    """The console entry point, as a user types it."""
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "fk", "puma560", "--q", "0", "-1e-3", "-.5", "0",
                        "-1E-2", "0", "--format", "json"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["q"] == pytest.approx([0, -1e-3, -0.5, 0, -1e-2, 0])
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "fk", "puma560", "--q", "0", "-inf", "0", "0", "0",
                        "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "must be finite" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "kinetree.app", "fk", "puma560", "--body", ""],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--body: must not be empty" in r.stderr
