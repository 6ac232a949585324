"""No command writes over its input robot file, through a symlink or a hard link either: one
check (``check_outputs``) run for every output argument of every command (``dh --csv`` and
``torques --csv`` replaced the robot file)."""

from __future__ import annotations

import argparse
import os

import pytest
from kinetree.app.cli import build_parser
from kinetree.app.main import main

COMMANDS = {
    "convert": (["convert", "{src}", "{out}"], "conversion"),
    "dh": (["dh", "{src}", "--csv", "{out}"], "table"),
    "torques": (["torques", "{src}", "--poses", "qz", "qr", "--csv", "{out}"], "torques"),
    "screenshot": (["screenshot", "{src}", "-o", "{out}"], "screenshot"),
    "animate": (["animate", "{src}", "--poses", "qz", "qr", "-o", "{out}"], "animation"),
    "html": (["html", "{src}", "-o", "{out}"], "web page"),
}


@pytest.fixture
def robot(tmp_path, capsys):
    src = tmp_path / "puma.kinetree.json"
    assert main(["convert", "puma560", str(src)]) == 0  # a project keeps the named poses
    (tmp_path / "link.kinetree.json").symlink_to(src)
    os.link(src, tmp_path / "hard.kinetree.json")
    capsys.readouterr()
    return src


@pytest.mark.parametrize("name", COMMANDS)
def test_no_command_writes_over_its_input(robot, capsys, name):
    argv, what = COMMANDS[name]
    before = robot.read_bytes()
    folder = robot.parent
    for src, out in ((robot, robot), (robot, folder / "link.kinetree.json"), (robot, folder / "hard.kinetree.json"),
                     (folder / "link.kinetree.json", robot), (robot, folder / "." / robot.name)):
        assert main([a.format(src=src, out=out) for a in argv]) == 1
        assert capsys.readouterr().err == (f"kinetree {name}: {out} is the input file {src}: "
                                           f"write the {what} to another file\n")
    assert robot.read_bytes() == before and (folder / "link.kinetree.json").is_symlink()


@pytest.mark.parametrize("name", ["dh", "torques"])
def test_another_output_file_is_written(robot, capsys, name):
    out = robot.parent / "out.csv"
    assert main([a.format(src=robot, out=out) for a in COMMANDS[name][0]]) == 0
    assert out.read_text().strip()


def test_every_output_argument_is_checked():
    """An argument naming a file written (OUT, -o/--output) is declared with add_output_argument."""
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in sub.choices.items():
        outputs = parser.get_default("_outputs") or {}
        for action in parser._actions:
            if action.metavar == "OUT" or action.dest == "output":
                assert action.dest in outputs, (name, action.dest)
        assert sorted(outputs) == sorted(d for d in outputs if any(a.dest == d for a in parser._actions))
    assert {n for n, p in sub.choices.items() if p.get_default("_outputs")} == set(COMMANDS)
