"""``kinetree dynamics ROBOT --q … --qd … --qdd …``: the joint torques (inverse dynamics, RNEA),
motor inertia and friction included as the engine computes them. No Qt here.

``--q`` is a configuration (positions, ``tree.position_count`` values); ``--qd``/``--qdd`` one
value per degree of freedom (``tree.dof_names()``; the same count unless a joint is spherical or
floating). With ``--deg`` angles are in degrees (deg/s, deg/s²). Exit status 1 for a wrong
count, a non-finite value or a q outside the limits (unless ``--ignore-limits``).
"""

from __future__ import annotations

import argparse

import numpy as np
from kinetree.core.kinematics.loop_closing import freedoms

from .common import (
    InputError,
    add_gravity_argument,
    add_q_arguments,
    add_robot_argument,
    checked_configuration,
    chosen_gravity,
    fixed,
    open_source,
    warn,
)

#: Which degrees of freedom of each joint type are angles (--deg converts them).
_ANGLE_DOFS = {"revolute": [True], "prismatic": [False], "planar": [False, False, True],
               "spherical": [True] * 3, "floating": [True] * 3 + [False] * 3}


def _angle_dofs(j) -> list[bool]:
    if j._rows:  # a composite joint: its rotation rows
        return [k not in j.length_rows for k in range(j.position_count)]
    return _ANGLE_DOFS[j.type]


def add_parser(sub) -> argparse.ArgumentParser:
    d = sub.add_parser("dynamics", help="print the joint torques for q, qd and qdd (inverse dynamics)",
                       description="Inverse dynamics (RNEA, MATLAB's inverseDynamics, Corke's rne): the torque "
                       "(N·m) or force (N) of each degree of freedom for positions --q, velocities --qd and "
                       "accelerations --qdd, motor inertia and friction included.")
    add_robot_argument(d, help="library name or robot file")
    add_q_arguments(d, "the file's stored configuration, else home",
                    "angles in --q, --qd and --qdd in degrees (deg/s, deg/s²); torques stay N·m")
    d.add_argument("--qd", nargs="+", type=float, metavar="V", help="joint velocities, one per degree of freedom "
                   "(default 0)")
    d.add_argument("--qdd", nargs="+", type=float, metavar="V", help="joint accelerations (default 0)")
    add_gravity_argument(d)
    d.add_argument("--precision", type=int, default=6, choices=range(0, 18), metavar="N",
                   help="digits after the decimal point (default 6)")
    return d


def _rates(tree, values: list[float] | None, what: str, degrees: bool) -> np.ndarray:
    names = tree.dof_names()
    if values is None:
        return np.zeros(len(names))
    v = np.array(values, dtype=float)
    if v.size != len(names):
        raise InputError(f"{what} has {v.size} values; the robot has "
                         f"{freedoms(len(names))} ({', '.join(names)[:200]})")
    if not np.isfinite(v).all():
        bad = names[int(np.flatnonzero(~np.isfinite(v))[0])]
        raise InputError(f"{what}: the value for {bad} is not a finite number")
    if degrees:
        angle = np.array([a for b, _ in tree._positions() for a in _angle_dofs(b.joint)], dtype=bool)
        v = np.where(angle, np.radians(v), v)
    return v


def command(args: argparse.Namespace) -> int:
    tree, stored_q = open_source(args.robot, args)
    q = checked_configuration(tree, args, stored_q)
    qd, qdd = _rates(tree, args.qd, "--qd", args.deg), _rates(tree, args.qdd, "--qdd", args.deg)
    gravity, source = chosen_gravity(tree, args.gravity)
    if args.gravity is None and source.startswith("standard"):
        warn(args.command, f"gravity {' '.join(f'{g:g}' for g in gravity + 0.0)} m/s² ({source}; --gravity to choose)")
    work = tree.copy()
    work.gravity = gravity
    print(fixed(work.inverse_dynamics(q, qd, qdd), args.precision))
    return 0
