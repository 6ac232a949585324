"""``kinetree convert IN OUT``: a robot file in another format. No Qt here."""

from __future__ import annotations

import argparse

from kinetree.core.io import export_robot

from .common import add_output_argument, add_robot_argument, name_arg, open_source


def add_parser(sub) -> argparse.ArgumentParser:
    c = sub.add_parser("convert", help="convert a robot file to another format", description=(
        "Convert between URDF (.urdf; .xacro is read only), SDFormat (.sdf, written as 1.9), MuJoCo MJCF "
        "(.xml, .mjcf), KineTree projects (.kinetree.json) and DH tables (.csv). Writing a CSV stores the chain "
        "from the base to --tip, computing its DH table from the geometry when the joints were not entered as "
        "DH rows. OUT must not be IN."))
    add_robot_argument(c, "input", help="library name or robot file")
    add_output_argument(c, "output", what="conversion",
                        help="file to write (not the input file); the extension chooses the format")
    c.add_argument("--tip", type=name_arg,
                   help="last body of the chain written to a DH CSV (default: the end effector)")
    c.add_argument("--convention", choices=("dh", "mdh"), help="DH convention for a CSV (default: as stored, else dh)")
    c.add_argument("--units", choices=("deg", "rad"), default="deg", help="angle units of a CSV (default deg)")
    return c


def command(args: argparse.Namespace) -> int:
    tree, q = open_source(args.input, args)  # a project's stored configuration goes on
    count = export_robot(tree, args.output, tip=args.tip, convention=args.convention, units=args.units,
                         configuration=q)
    print(f"wrote {args.output} ({count} bodies)")  # what the file holds: a CSV holds one chain
    return 0
