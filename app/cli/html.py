"""``kinetree html ROBOT -o robot.html``: the robot as one self-contained web page (sliders, the
pose readout, frames, the DH axes, the named poses; see :mod:`kinetree.core.io.web_page`). No Qt here."""

from __future__ import annotations

import argparse
import os

from kinetree.core.io.web_page import write_web_page

from .common import add_output_argument, add_q_arguments, add_robot_argument, checked_configuration, open_source, warn


def add_parser(sub) -> argparse.ArgumentParser:
    h = sub.add_parser("html", help="write the robot as a self-contained web page", description=(
        "Write one HTML file that shows the robot in any browser with nothing else installed and no network: "
        "a slider per joint within its limits, the end effector's pose as the Pose dock prints it, frames and "
        "DH axes, the named poses with playback. Meshes are embedded (decimated to the page's budget). Joint "
        "types the page does not model (floating, planar, spherical, composite) and closed loops are refused."))
    add_robot_argument(h, help="library name or robot file")
    add_output_argument(h, "-o", "--output", what="web page", required=True, help="HTML file to write")
    add_q_arguments(h, "the file's stored configuration, else home", "angles in --q in degrees")
    h.add_argument("--title", help="the page's title (default: the output file's name)")
    return h


def command(args: argparse.Namespace) -> int:
    tree, stored = open_source(args.robot, args)
    q = checked_configuration(tree, args, stored, verb="show")
    notes = write_web_page(tree, args.output, q, title=args.title or "")
    for note in notes:
        warn(args.command, note)
    print(f"wrote {args.output} ({tree.num_bodies} bodies, {os.path.getsize(args.output) / 1e6:.1f} MB)")
    return 0
