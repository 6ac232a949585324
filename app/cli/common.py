"""Headless sub-commands: ``details``, ``fk``, ``convert`` and ``library``. No Qt here.

Exit status: 0 on success, 1 for bad input (a one-line message on stderr), 2 for usage errors
(argparse's own convention), 141 when stdout is closed early (``| head -1``; as a tool killed
by SIGPIPE).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import warnings
from collections.abc import Callable

import numpy as np
from kinetree.core import list_robots, robot_info
from kinetree.core.io import export_robot, open_robot
from kinetree.core.transforms import matrix_to_quat, matrix_to_rpy

FORMATS = ("matrix", "xyzrpy", "quat", "json")


class InputError(Exception):
    """Bad input found by the CLI itself (exit status 1)."""


#: What argparse must take as a value, not an option: negative numbers in every notation float()
#: reads (``-1e-3``, ``-.5``, ``-1_000``, ``-inf``, ``-nan``); argparse alone knows only ``-1``
#: and ``-1.5`` and ends ``--q 0 -1e-3`` with "expected at least one argument".
NEGATIVE_NUMBER = re.compile(r"^-(\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(e[-+]?\d+)?$|^-(inf|infinity|nan)$", re.IGNORECASE)


def accept_negative_numbers(parser: argparse.ArgumentParser) -> None:
    """Make ``parser`` read every negative number as a value (it must have no option that looks
    like a number, which argparse would otherwise consult)."""
    parser._negative_number_matcher = NEGATIVE_NUMBER  # argparse's hook for exactly this


def name_arg(text: str) -> str:
    """A body name given on the command line: an empty one is a usage error, not "the default"."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def cmd_details(args: argparse.Namespace) -> int:
    tree, _ = open_robot(args.robot, allow_env=args.allow_env, package_paths=tuple(args.package_path))
    print(tree.show_details())
    return 0


def _configuration(tree, values: list[float] | None, degrees: bool) -> np.ndarray:
    if values is None:
        return tree.home_configuration()
    q = np.array(values, dtype=float)
    if degrees:
        # only angular positions: revolute joints and the angle of planar joints
        scale = np.ones(tree.position_count)
        for name in tree.movable_joint_names:
            j = tree.find_joint(name).joint
            sl = tree.position_index(name)
            if j.type == "revolute":
                scale[sl] = np.pi / 180
            elif j.type == "planar":
                scale[sl.start + 2] = np.pi / 180
        if q.size == scale.size:
            q = q * scale
    return tree.config_to_vector(q)


def pose_text(T: np.ndarray, fmt: str, digits: int, degrees: bool, extra: dict | None = None) -> str:
    """A pose in one of :data:`FORMATS` (rpy is roll, pitch, yaw about fixed x, y, z)."""
    xyz = T[:3, 3]
    rpy = matrix_to_rpy(T[:3, :3])
    quat = matrix_to_quat(T[:3, :3])  # w x y z
    ang = np.degrees(rpy) if degrees else rpy

    def nums(v) -> str:
        # rounding first keeps "-0.000000" out of the output
        return " ".join(f"{x:.{digits}f}" for x in np.round(np.asarray(v, dtype=float).ravel(), digits) + 0.0)

    if fmt == "matrix":
        return "\n".join(nums(row) for row in T)
    if fmt == "xyzrpy":
        return nums(np.concatenate([xyz, ang]))
    if fmt == "quat":
        return nums(np.concatenate([xyz, quat]))
    out = dict(extra or {})
    out.update({"matrix": T.tolist(), "xyz": xyz.tolist(),
                "rpy": ang.tolist(), "rpy_units": "deg" if degrees else "rad",
                "quaternion_wxyz": quat.tolist()})
    return json.dumps(out, indent=2)


def cmd_fk(args: argparse.Namespace) -> int:
    tree, stored_q = open_robot(args.robot, allow_env=args.allow_env, package_paths=tuple(args.package_path))
    if args.q is None and stored_q is not None:
        q = stored_q
    else:
        q = _configuration(tree, args.q, args.deg)
    bad = [] if args.ignore_limits else tree.limit_violations(q)
    if bad and args.q is None:  # the file's own configuration (a published pose may lie outside): said, used
        print(f"kinetree fk: warning: the stored configuration is outside the limits: "
              f"{'; '.join(v.describe(args.deg) for v in bad)}", file=sys.stderr)
    elif bad:
        raise InputError("; ".join(v.describe(args.deg) for v in bad) + " (--ignore-limits to compute it anyway)")
    body = args.body or tree.end_effector
    if body is None:
        raise InputError(f"{args.robot} has no bodies")
    T = tree.get_transform(q, body, args.frame)
    extra = {"body": body, "frame": args.frame or tree.base_name, "q": q.tolist(), "q_units": "rad, m"}
    print(pose_text(T, args.format, args.precision, args.deg, extra))
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    tree, q = open_robot(args.input, allow_env=args.allow_env,  # a project's stored configuration goes on
                         package_paths=tuple(args.package_path))
    count = export_robot(tree, args.output, tip=args.tip, convention=args.convention, units=args.units,
                         configuration=q)
    print(f"wrote {args.output} ({count} bodies)")  # what the file holds: a CSV holds one chain
    return 0


KINDS = {"dh": "DH", "mdh": "MDH", "urdf": "URDF tree"}


def library_table() -> list[tuple[str, str, str, str]]:
    """(name, joints, kind, source) for each built-in robot, under a header row."""
    rows = [("name", "joints", "kind", "source")]
    for name in list_robots():
        info = robot_info(name)
        rows.append((name, str(info["dof"]), KINDS.get(info["convention"], info["convention"]),
                     info["short_source"]))
    return rows


def cmd_library(args: argparse.Namespace) -> int:
    rows = library_table()
    widths = [max(len(r[c]) for r in rows) for c in range(3)]
    for name, joints, kind, source in rows:
        print(f"{name.ljust(widths[0])}  {joints.rjust(widths[1])}  {kind.ljust(widths[2])}  {source}")
    return 0


def add_subcommands(sub) -> dict[str, Callable[[argparse.Namespace], int]]:
    """Register the headless sub-commands on an argparse sub-parser group."""
    d = sub.add_parser("details", help="print the body/joint table of a robot",
                       description="Print the body/joint table (as MATLAB's showdetails).")
    d.add_argument("robot", help="library name or robot file (.urdf, .xacro, .kinetree.json, .csv)")

    f = sub.add_parser("fk", help="print the pose of a body", description=(
        "Forward kinematics: the pose of BODY (default: the end effector) in FRAME (default: the "
        "base). Formats: matrix (4 rows), xyzrpy (x y z roll pitch yaw), quat (x y z qw qx qy qz), json."))
    f.add_argument("robot", help="library name or robot file")
    f.add_argument("--q", nargs="+", type=float, metavar="V",
                   help="joint positions in configuration order (default: home)")
    f.add_argument("--deg", action="store_true", help="angles (in --q and in the output) in degrees")
    f.add_argument("--body", type=name_arg, help="body whose pose to print (default: the last leaf)")
    f.add_argument("--in", dest="frame", type=name_arg, metavar="FRAME", help="reference body (default: the base)")
    f.add_argument("--format", choices=FORMATS, default="matrix")
    f.add_argument("--precision", type=int, default=6, choices=range(0, 18), metavar="N",
                   help="digits after the decimal point (default 6)")
    f.add_argument("--ignore-limits", action="store_true", help="accept a q outside the joint limits")

    c = sub.add_parser("convert", help="convert a robot file to another format", description=(
        "Convert between URDF (.urdf; .xacro is read only), KineTree projects (.kinetree.json) and DH "
        "tables (.csv). Writing a CSV stores the chain from the base to --tip, computing its DH "
        "table from the geometry when the joints were not entered as DH rows."))
    c.add_argument("input", help="library name or robot file")
    c.add_argument("output", help="file to write; the extension chooses the format")
    c.add_argument("--tip", type=name_arg,
                   help="last body of the chain written to a DH CSV (default: the end effector)")
    c.add_argument("--convention", choices=("dh", "mdh"), help="DH convention for a CSV (default: as stored, else dh)")
    c.add_argument("--units", choices=("deg", "rad"), default="deg", help="angle units of a CSV (default deg)")

    for p in (d, f, c):  # off by default: a xacro's $(env X) would copy the environment into the model
        p.add_argument("--allow-env", action="store_true",
                       help="let a .xacro read environment variables ($(env X), $(optenv X))")
        p.add_argument("--package-path", action="append", default=[], metavar="DIR",
                       help="a folder holding ROS packages, for package:// mesh URIs (repeatable; "
                            "$ROS_PACKAGE_PATH and the file's ancestor folders are searched too)")

    sub.add_parser("library", help="list the built-in robots", description="List the built-in robots.")
    from .ik import add_parser as add_ik  # here: ik imports this module
    from .ik import cmd_ik

    add_ik(sub)
    from .symbolic import add_parser as add_symbolic
    from .symbolic import cmd_symbolic

    add_symbolic(sub)
    for parser in sub.choices.values():  # also the commands registered before ours (screenshot)
        accept_negative_numbers(parser)
    return {"details": cmd_details, "fk": cmd_fk, "convert": cmd_convert, "library": cmd_library, "ik": cmd_ik,
            "symbolic": cmd_symbolic}


def run(command: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """Run a sub-command. A warning becomes a line ``kinetree CMD: warning: …`` on stderr; bad
    input one line on stderr and exit status 1; a closed stdout (``| head -1``) ends it
    quietly with status 141."""
    from kinetree.core import KineTreeError

    def show(message, category, filename, lineno, file=None, line=None) -> None:
        print(f"kinetree {args.command}: warning: {message}", file=sys.stderr)  # not the core's source line

    try:
        with warnings.catch_warnings():
            warnings.showwarning = show
            code = command(args)
        sys.stdout.flush()  # a closed pipe shows here, not as a message at exit
        return code
    except BrokenPipeError:  # the reader went away (`| head -1`): end quietly, as a SIGPIPE'd tool does
        # stdout to /dev/null: the interpreter's last flush must not raise again
        # (https://docs.python.org/3/library/signal.html#note-on-sigpipe)
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor (captured in a test)
            pass
        return 141  # 128 + SIGPIPE, the status a shell reports for such a tool
    except (KineTreeError, InputError, OSError) as exc:
        print(f"kinetree {args.command}: {exc}", file=sys.stderr)
        return 1
