"""``kinetree dh ROBOT``: the DH table of the chain to the end effector (or ``--tip``), computed
from the geometry as the GUI's "DH of chain…" computes it, and in words how and why it differs
from the robot's own rows (the frames differ, the end effector does not). No Qt here.

``--csv OUT`` writes the table as a DH table file (with its base and tool lines); ``--latex``
prints it as a LaTeX ``tabular`` in the lecture's columns (a_i, α_i, d_i, θ_i).
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from kinetree.core.dh.chain import chain_numbering, joint_variable
from kinetree.core.dh.explain import explain_extraction
from kinetree.core.dh.extract import extract_dh
from kinetree.core.io.dh_csv import DHTable, write_dh_csv

from .common import InputError, add_output_argument, add_robot_argument, name_arg, open_source


def _angle(v: float, deg: bool) -> str:
    if deg:
        d = math.degrees(v)
        return f"{0.0 if abs(d) < 1e-9 else d:.6g}"
    f = Fraction(v / math.pi).limit_denominator(12)
    if abs(float(f) * math.pi - v) < 1e-12:  # a nice multiple of pi, as the lecture writes it
        if f == 0:
            return "0"
        num = "" if abs(f.numerator) == 1 else str(abs(f.numerator))
        text = f"{'-' if f < 0 else ''}{num}{'*' if num else ''}pi" + (f"/{f.denominator}" if f.denominator > 1 else "")
        return text
    return f"{v:.6g}"


def _length(v: float) -> str:
    return f"{0.0 if abs(v) < 1e-12 else v:.6g}"


def _cells(links, deg: bool) -> list[list[str]]:
    rows = []
    # a part of a larger robot keeps its numbers (the lecture's wrist: θ4, θ5, θ6)
    first = 1 + chain_numbering([link.joint_name for link in links])
    for k, link in enumerate(links, start=first):
        theta = joint_variable("R", k, "text") if link.joint == "R" else _angle(link.theta, deg)
        d = joint_variable("P", k, "text") if link.joint == "P" else _length(link.d)
        offset = _angle(link.offset, deg) if link.joint == "R" else _length(link.offset)
        rows.append([str(k), link.joint, _length(link.a), _angle(link.alpha, deg), d, theta, offset, link.name])
    return rows


def _latex_angle(text: str) -> str:
    return text.replace("*pi", r"\pi").replace("pi", r"\pi")


def _latex(links, deg: bool, convention: str) -> str:
    alpha = r"\alpha_{i-1}" if convention == "mdh" else r"\alpha_i"
    a = "a_{i-1}" if convention == "mdh" else "a_i"
    lines = [r"\begin{tabular}{c|cccc}", rf"Link & ${a}$ & ${alpha}$ & $d_i$ & $\theta_i$ \\ \hline"]
    for k, jt, ra, ral, rd, rth, _off, _name in _cells(links, deg):
        th = joint_variable("R", k, "latex") if jt == "R" else _latex_angle(rth)
        dd = joint_variable("P", k, "latex") if jt == "P" else rd
        lines.append(f"{k} & ${ra}$ & ${_latex_angle(ral)}$ & ${dd}$ & ${th}$ \\\\")
    lines.append(r"\end{tabular}")
    return "\n".join(lines)


def _table(links, deg: bool) -> str:
    unit = "deg" if deg else "rad"
    head = ["i", "type", "a (m)", f"α ({unit})", "d (m)", f"θ ({unit})", "offset", "body"]
    rows = [head, *_cells(links, deg)]
    widths = [max(len(r[c]) for r in rows) for c in range(len(head))]
    return "\n".join("  ".join(r[c].ljust(widths[c]) for c in range(len(head))).rstrip() for r in rows)


def command(args: argparse.Namespace) -> int:
    tree, _ = open_source(args.robot, args)
    if tree.num_bodies == 0:
        raise InputError(f"{args.robot} has no bodies")
    convention = "mdh" if args.modified else "dh"
    ext = extract_dh(tree, args.tip, convention)
    if not ext.links:
        raise InputError(f"the chain to {ext.tip!r} has no joints: no DH table")
    why = explain_extraction(tree, ext, degrees=args.deg)
    name = "modified (Craig)" if args.modified else "standard"
    if args.latex:
        print(f"% {name} DH table of the chain to {ext.tip!r}, computed from the geometry")
        print(_latex(ext.links, args.deg, convention))
        print("\n".join(f"% {line}" for line in why.lines))
    else:
        print(f"# {name} DH table of the chain to {ext.tip!r}, computed from the geometry")
        print(_table(ext.links, args.deg))
        print("\n".join(f"# {line}" for line in why.lines))
    if args.csv:
        write_dh_csv(args.csv, DHTable(ext.links, convention, ext.base, ext.tool, ext.tip_name
                                       if ext.tip_name != ext.links[-1].name else ""),
                     units="deg" if args.deg else "rad")
        print(f"# wrote {args.csv}")
    return 0


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("dh", help="print the DH table of a robot's chain and why it differs from its own rows",
                       description=(
                           "Print the standard (or --modified) DH table of the chain from the base to the end "
                           "effector (or --tip), computed from the joint axes as the GUI's 'DH of chain…' does, "
                           "and say in words which rows differ from the robot's own, how the frames moved and "
                           "why (the end effector is checked equal)."))
    add_robot_argument(p)
    p.add_argument("--tip", type=name_arg, help="last body of the chain (default: the end effector)")
    p.add_argument("--modified", action="store_true", help="modified DH (Craig) instead of standard")
    p.add_argument("--deg", action="store_true", help="angles in degrees (default: radians, π as pi)")
    add_output_argument(p, "--csv", what="table", metavar="OUT",
                        help="also write the table to OUT as a DH table file (not the input file)")
    p.add_argument("--latex", action="store_true", help="print the table as a LaTeX tabular")
    return p
