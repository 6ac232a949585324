"""``kinetree ik``: the joint positions that put a body at a pose. No Qt here.

The target is ``--xyz`` plus ``--rpy`` (roll, pitch, yaw about fixed x, y, z: what ``kinetree fk
--format xyzrpy`` prints, so fk → ik round-trips) or ``--quat`` (w x y z), in the base frame.
Without an orientation, or with ``--position-only``, only the position is solved for. Text
output is q on one line, in ``--q`` order and units, ready for ``kinetree fk --q``.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
from kinetree.core import inverse_kinematics
from kinetree.core.transforms import quat_to_rotation, rpy_to_matrix

from .common import InputError, add_robot_argument, angle_scale, configuration, fixed, name_arg, open_source

#: an unreachable target tries every restart (about 4 ms each for Puma): bounded, like every number
MAX_RESTARTS = 10_000


def _restarts(text: str) -> int:
    n = int(text)
    if not 0 <= n <= MAX_RESTARTS:
        raise argparse.ArgumentTypeError(f"must be 0..{MAX_RESTARTS}, got {n}")
    return n


def _numbers(values: list[float], what: str) -> np.ndarray:
    v = np.array(values, dtype=float)
    if not np.isfinite(v).all():
        raise InputError(f"{what} must be finite, got {' '.join(map(str, values))}")
    return v


def target_pose(args: argparse.Namespace) -> np.ndarray:
    """The 4×4 target of ``--xyz`` and ``--rpy``/``--quat``."""
    T = np.eye(4)
    T[:3, 3] = _numbers(args.xyz, "--xyz")
    if args.rpy is not None:
        rpy = _numbers(args.rpy, "--rpy")
        T[:3, :3] = rpy_to_matrix(np.radians(rpy) if args.deg else rpy)
    elif args.quat is not None:
        quat = _numbers(args.quat, "--quat")
        if np.abs(quat).max() < 1e-12:
            raise InputError("--quat is zero: it is no rotation")
        T[:3, :3] = quat_to_rotation(quat)
    return T


def command(args: argparse.Namespace) -> int:
    tree, stored_q = open_source(args.robot, args)
    body = args.body or tree.end_effector
    if body is None:
        raise InputError(f"{args.robot} has no bodies")
    if args.q0 is None and stored_q is not None:
        q0 = stored_q
    else:
        q0 = configuration(tree, args.q0, args.deg)
    position_only = args.position_only or (args.rpy is None and args.quat is None)
    weights = (0, 0, 0, 1, 1, 1) if position_only else None
    T = target_pose(args)
    r = inverse_kinematics(tree, body, T, q0, weights=weights, restarts=args.restarts, rng=args.seed)
    angle, unit = (np.degrees(r.orientation_error), "deg") if args.deg else (r.orientation_error, "rad")
    if not r.success:
        what = "position" if position_only else "pose"
        raise InputError(f"{body!r} cannot reach the {what} (no solution within the joint limits after "
                         f"{r.attempts} attempts): best position error {r.position_error:.6g} m, "
                         f"orientation error {angle:.6g} {unit}")
    q = r.q * angle_scale(tree) if args.deg else r.q
    if args.format == "json":
        print(json.dumps({"robot": args.robot, "body": body, "q": q.tolist(),
                          "q_units": "deg, m" if args.deg else "rad, m", "joints": tree.movable_joint_names,
                          "position_only": position_only, "position_error": r.position_error,
                          "orientation_error": float(angle), "orientation_error_units": unit,
                          "iterations": r.iterations, "attempts": r.attempts, "target": T.tolist()}, indent=2))
    else:
        print(fixed(q, args.precision))
    return 0


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("ik", help="joint positions that put a body at a pose (inverse kinematics)", description=(
        "Inverse kinematics: joint positions, within the limits, that put BODY (default: the end "
        "effector) at the pose --xyz and --rpy or --quat in the base frame. Without an orientation "
        "only the position is solved for. Prints q in configuration order (as fk's --q); exit 1, "
        "with the best residual, when the pose cannot be reached."))
    add_robot_argument(p, package_path=False)
    p.add_argument("--xyz", nargs=3, type=float, required=True, metavar=("X", "Y", "Z"), help="position (m)")
    rot = p.add_mutually_exclusive_group()
    rot.add_argument("--rpy", nargs=3, type=float, metavar=("R", "P", "Y"),
                     help="roll, pitch, yaw about fixed x, y, z (as fk --format xyzrpy prints; degrees with --deg)")
    rot.add_argument("--quat", nargs=4, type=float, metavar=("W", "X", "Y", "Z"), help="orientation quaternion")
    p.add_argument("--body", type=name_arg, help="body to place (default: the end effector)")
    p.add_argument("--q0", nargs="+", type=float, metavar="V",
                   help="start configuration (default: the file's stored one, else home)")
    p.add_argument("--deg", action="store_true", help="angles in --rpy, --q0 and the printed q in degrees")
    p.add_argument("--position-only", action="store_true", help="ignore the orientation")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--precision", type=int, default=9, choices=range(0, 18), metavar="N",
                   help="digits after the decimal point of q in text (default 9)")
    p.add_argument("--restarts", type=_restarts, default=50, metavar="N",
                   help=f"random restarts when an attempt fails (default 50, at most {MAX_RESTARTS})")
    p.add_argument("--seed", type=int, default=0, help="seed of the random restarts (default 0)")
    return p
