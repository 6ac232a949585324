"""``kinetree library``: the built-in robots. No Qt here."""

from __future__ import annotations

import argparse

from kinetree.core import list_robots, robot_info

KINDS = {"dh": "DH", "mdh": "MDH", "urdf": "URDF tree", "loops": "closed loops"}


def library_table() -> list[tuple[str, str, str, str]]:
    """(name, joints, kind, source) for each built-in robot, under a header row."""
    rows = [("name", "joints", "kind", "source")]
    for name in list_robots():
        info = robot_info(name)
        rows.append((name, str(info["dof"]), KINDS.get(info["convention"], info["convention"]),
                     info["short_source"]))
    return rows


def add_parser(sub) -> argparse.ArgumentParser:
    return sub.add_parser("library", help="list the built-in robots", description="List the built-in robots.")


def command(args: argparse.Namespace) -> int:
    rows = library_table()
    widths = [max(len(r[c]) for r in rows) for c in range(3)]
    for name, joints, kind, source in rows:
        print(f"{name.ljust(widths[0])}  {joints.rjust(widths[1])}  {kind.ljust(widths[2])}  {source}")
    return 0
