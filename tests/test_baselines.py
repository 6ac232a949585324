"""Baselines recorded before the engine moved into subpackages (issue 33): every command's
``--help``, the output of deterministic command runs and ``kinetree.core``'s public names must
stay byte-for-byte what ``tests/baselines/`` holds.

A change meant to alter one of them re-records it on purpose::

    KINETREE_RECORD_BASELINES=1 python -m pytest -q tests/test_baselines.py

(the recorded tests are then skipped, not passed); review the diff of ``tests/baselines/``."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from kinetree.app.cli import COMMANDS

BASELINES = Path(__file__).resolve().parent / "baselines"
RECORD = os.environ.get("KINETREE_RECORD_BASELINES") == "1"

#: deterministic runs (numbers printed at a fixed precision, no random restarts), by baseline name
RUNS = {
    "library": ["library"],
    "details_puma560": ["details", "puma560"],
    "details_quadruped": ["details", "quadruped"],
    "fk_puma560": ["fk", "puma560", "--q", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"],
    "fk_puma560_xyzrpy_deg": ["fk", "puma560", "--q", "10", "20", "30", "40", "50", "60", "--deg",
                              "--format", "xyzrpy", "--body", "link4"],
    "fk_scara_quat": ["fk", "scara", "--q", "0.1", "0.2", "0.05", "0.3", "--format", "quat", "--precision", "4"],
    "dh_puma560": ["dh", "puma560"],
    "dh_puma560_modified_deg": ["dh", "puma560", "--modified", "--deg"],
    "dh_stanford_lecture_latex": ["dh", "stanford_lecture", "--latex"],
    "symbolic_puma560": ["symbolic", "puma560"],
    "symbolic_stanford_lecture_link3_latex": ["symbolic", "stanford_lecture", "--link", "3", "--format", "latex"],
    "symbolic_two_link_planar_python": ["symbolic", "two_link_planar", "--format", "python", "--revolute", "theta"],
    "dynamics_puma560": ["dynamics", "puma560", "--q", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6",
                         "--qd", "1", "1", "1", "1", "1", "1", "--precision", "4"],
    "torques_puma560": ["torques", "puma560", "--poses", "qz", "qr", "--samples", "51"],
    "ik_puma560_position": ["ik", "puma560", "--xyz", "0.4", "0.1", "0.3", "--position-only", "--precision", "4"],
}


def _kinetree(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    # a fixed width: argparse wraps --help to the terminal's COLUMNS
    env = {**os.environ, "COLUMNS": "100", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], capture_output=True, env=env, cwd=cwd,
                          timeout=120)


def _check(name: str, actual: bytes) -> None:
    """Compare ``actual`` with the baseline ``name`` byte for byte (or record it)."""
    path = BASELINES / name
    if RECORD:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual)
        pytest.skip(f"recorded {path.relative_to(BASELINES.parent)}")
    assert path.is_file(), f"no baseline {path}: record it with KINETREE_RECORD_BASELINES=1"
    expected = path.read_bytes()
    if actual != expected:
        diff = difflib.unified_diff(expected.decode("utf-8", "replace").splitlines(keepends=True),
                                    actual.decode("utf-8", "replace").splitlines(keepends=True),
                                    f"baseline {name}", "now", n=2)
        pytest.fail(f"output differs from tests/baselines/{name} (re-record on purpose with "
                    f"KINETREE_RECORD_BASELINES=1):\n{''.join(diff) or '(whitespace or encoding only)'}",
                    pytrace=False)


@pytest.mark.parametrize("command", [None, *COMMANDS])
def test_help_is_the_baseline(command):
    args = ["--help"] if command is None else [command, "--help"]
    r = _kinetree(*args)
    assert r.returncode == 0, r.stderr.decode()
    _check(f"help/{command or 'kinetree'}.txt", r.stdout)


def test_every_command_has_a_help_baseline():
    recorded = {p.stem for p in (BASELINES / "help").glob("*.txt")}
    assert recorded == {"kinetree", *COMMANDS}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_command_output_is_the_baseline(name, tmp_path):
    r = _kinetree(*RUNS[name], cwd=tmp_path)
    assert r.returncode == 0, r.stderr.decode()
    # stderr holds warnings (e.g. the default gravity): part of the output
    _check(f"cli/{name}.txt", r.stdout + b"\n--- stderr ---\n" + r.stderr)


@pytest.mark.parametrize("suffix", [".csv", ".urdf", ".kinetree.json"])
def test_converted_file_is_the_baseline(suffix, tmp_path):
    out = tmp_path / f"puma560{suffix}"
    r = _kinetree("convert", "puma560", str(out), cwd=tmp_path)
    assert r.returncode == 0, r.stderr.decode()
    _check(f"convert/puma560{suffix}", out.read_bytes())


def test_core_public_names_are_the_baseline():
    code = "import kinetree.core as c; print('\\n'.join(sorted(c.__all__)))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()
    _check("core_public_names.txt", r.stdout)
