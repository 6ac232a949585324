"""``kinetree details ROBOT``: the body/joint table (as MATLAB's ``showdetails``). No Qt here."""

from __future__ import annotations

import argparse

from .common import add_robot_argument, open_source


def add_parser(sub) -> argparse.ArgumentParser:
    d = sub.add_parser("details", help="print the body/joint table of a robot",
                       description="Print the body/joint table (as MATLAB's showdetails).")
    add_robot_argument(d)
    return d


def command(args: argparse.Namespace) -> int:
    tree, _ = open_source(args.robot, args)
    print(tree.show_details())
    return 0
