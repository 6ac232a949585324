"""``kinetree fk ROBOT``: the pose of a body (forward kinematics). No Qt here."""

from __future__ import annotations

import argparse
import json

import numpy as np
from kinetree.core.transforms import matrix_to_quat, matrix_to_rpy

from .common import InputError, add_q_arguments, add_robot_argument, checked_configuration, fixed, name_arg, open_source

FORMATS = ("matrix", "xyzrpy", "quat", "json")


def pose_text(T: np.ndarray, fmt: str, digits: int, degrees: bool, extra: dict | None = None) -> str:
    """A pose in one of :data:`FORMATS` (rpy is roll, pitch, yaw about fixed x, y, z)."""
    xyz = T[:3, 3]
    rpy = matrix_to_rpy(T[:3, :3])
    quat = matrix_to_quat(T[:3, :3])  # w x y z
    ang = np.degrees(rpy) if degrees else rpy
    if fmt == "matrix":
        return "\n".join(fixed(row, digits) for row in T)
    if fmt == "xyzrpy":
        return fixed(np.concatenate([xyz, ang]), digits)
    if fmt == "quat":
        return fixed(np.concatenate([xyz, quat]), digits)
    out = dict(extra or {})
    out.update({"matrix": T.tolist(), "xyz": xyz.tolist(),
                "rpy": ang.tolist(), "rpy_units": "deg" if degrees else "rad",
                "quaternion_wxyz": quat.tolist()})
    return json.dumps(out, indent=2, allow_nan=False)  # never Infinity (not JSON)


def add_parser(sub) -> argparse.ArgumentParser:
    f = sub.add_parser("fk", help="print the pose of a body", description=(
        "Forward kinematics: the pose of BODY (default: the end effector) in FRAME (default: the "
        "base). Formats: matrix (4 rows), xyzrpy (x y z roll pitch yaw), quat (x y z qw qx qy qz), json."))
    add_robot_argument(f, help="library name or robot file")
    add_q_arguments(f, "the file's stored configuration, else home", "angles (in --q and in the output) in degrees")
    f.add_argument("--body", type=name_arg, help="body whose pose to print (default: the last leaf)")
    f.add_argument("--in", dest="frame", type=name_arg, metavar="FRAME", help="reference body (default: the base)")
    f.add_argument("--format", choices=FORMATS, default="matrix")
    f.add_argument("--precision", type=int, default=6, choices=range(0, 18), metavar="N",
                   help="digits after the decimal point (default 6)")
    return f


def command(args: argparse.Namespace) -> int:
    tree, stored_q = open_source(args.robot, args)
    q = checked_configuration(tree, args, stored_q)
    body = args.body or tree.end_effector
    if body is None:
        raise InputError(f"{args.robot} has no bodies")
    with np.errstate(over="ignore", invalid="ignore"):  # the core refuses an overflowing pose, in words
        T = tree.get_transform(q, body, args.frame)
    extra = {"body": body, "frame": args.frame or tree.base_name, "q": q.tolist(), "q_units": "rad, m"}
    print(pose_text(T, args.format, args.precision, args.deg, extra))
    return 0
