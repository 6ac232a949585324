"""``kinetree torques ROBOT --poses P1 P2 [P3 …]``: each joint's peak torque along the motion
through named poses (the Poses dock's quintic, ``--seconds`` per segment), motor inertia and
friction included, with its effort limit and the peak in percent of it; ``--csv`` writes the
whole profile. No Qt here.

Exit status 1 for bad input: an unknown pose (the message lists the robot's poses), a joint
whose positions are a quaternion, a CSV that cannot be written; 2 for a ``--seconds`` or
``--samples`` out of range. A peak over its limit is reported, not an error.
"""

from __future__ import annotations

import argparse
import math

from kinetree.core.dynamics.torque_profile import DEFAULT_SAMPLES, MAX_SAMPLES, torque_profile

from ..widgets.safe_output import atomic_output
from .common import (
    add_gravity_argument,
    add_output_argument,
    add_robot_argument,
    chosen_gravity,
    fixed,
    open_source,
    positive_arg,
)


def _samples(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not 2 <= v <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"must be from 2 to {MAX_SAMPLES}, got {text!r}")
    return v


def add_parser(sub) -> argparse.ArgumentParser:
    t = sub.add_parser(
        "torques", help="print each joint's peak torque along a motion through named poses",
        description="Inverse dynamics along the joint-space motion through the robot's named poses (quintic, at "
        "rest at each, as the Poses dock plays it), motor inertia and friction included: each joint's peak "
        "torque (N·m) or force (N), when it occurs, the joint's effort limit (URDF <limit effort>) and the "
        "peak in percent of it.")
    add_robot_argument(t, package_path=False, help="library name or robot file")
    t.add_argument("--poses", nargs="+", required=True, metavar="P",
                   help="named poses to pass through, in order (at least two)")
    t.add_argument("--seconds", type=positive_arg, default=2.0, help="seconds per segment (default 2)")
    t.add_argument("--samples", type=_samples, default=DEFAULT_SAMPLES,
                   help=f"times sampled through the whole motion, both ends included (default {DEFAULT_SAMPLES})")
    add_gravity_argument(t)
    t.add_argument("--no-motor", action="store_true", help="leave out motor inertia and friction")
    add_output_argument(t, "--csv", what="torques", metavar="OUT",
                        help="write t and every joint's torque at each sample to OUT (not the input file)")
    return t


def _cell(value: float | None, unit: str = "", digits: int = 3) -> str:
    if value is None:
        return "—"
    return f"{fixed([value], digits)} {unit}".rstrip()


def command(args: argparse.Namespace) -> int:
    tree, _ = open_source(args.robot, args)
    gravity, source = chosen_gravity(tree, args.gravity)
    prof = torque_profile(tree, args.poses, args.seconds, args.samples, gravity, motor=not args.no_motor)
    if args.csv:  # first: a file that cannot be written prints nothing else
        with atomic_output(args.csv) as tmp:
            tmp.write_text(prof.csv_text(), encoding="utf-8")
    segments = len(args.poses) - 1
    print(f"{' → '.join(args.poses)}: {args.seconds:g} s per segment ({args.seconds * segments:g} s), "
          f"{args.samples} samples; gravity {' '.join(f'{g:g}' for g in prof.gravity + 0.0)} m/s² ({source}); "
          f"{'without' if args.no_motor else 'with'} motor inertia and friction")
    rows = [("joint", "peak", "at t (s)", "limit", "% of limit", "")]
    for name, unit, peak, lim, pct, over in zip(prof.names, prof.units, prof.peaks, prof.limits,
                                                prof.percent_of_limit(), prof.over_limit()):
        rows.append((name, _cell(peak.value, unit), fixed([peak.time], 3), _cell(lim, unit),
                     "—" if pct is None else f"{pct:.1f}" if math.isfinite(pct) else str(pct),
                     "OVER LIMIT" if over else ""))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    if args.csv:
        print(f"wrote {len(prof.times)} samples to {args.csv}")
    return 0
