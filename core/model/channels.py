"""Scalar channels of joint positions: what one slider or spin box moves.

A revolute or prismatic joint has one channel (its position); a planar joint three (x, y, θ);
a composite joint (Euler angles, translation_xyz, custom) one per row of its motion subspace;
a spherical joint roll, pitch and yaw of its quaternion; a floating joint x, y, z and those
three. Views dispatch on these instead of on joint type names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..transforms import matrix_to_quat, matrix_to_rpy, quat_to_rotation, rpy_to_matrix
from .configuration import finite_range
from .joint import AXIAL_TYPES, Joint

#: Joint types whose positions start with a unit quaternion (w, x, y, z).
QUATERNION_TYPES = ("floating", "spherical")
RPY = ("roll", "pitch", "yaw")


@dataclass(frozen=True)
class Channel:
    """One scalar control of a joint. ``part`` is "" for a one-position joint, else the planar
    row ("0", "1", "2") or the floating/spherical component ("x", "y", "z", "roll"…)."""

    key: str  # unique among a tree's channels: the joint's name, or "joint.part"
    label: str
    kind: str  # "angle" or "length"
    lo: float
    hi: float
    joint: str
    part: str


def is_axial(joint: Joint) -> bool:
    """True for a revolute or prismatic joint (one position along or about its axis)."""
    return joint.type in AXIAL_TYPES


def joint_channels(joint: Joint) -> list[Channel]:
    """The channels of ``joint`` (none when it has no positions: fixed, or a mimic)."""
    j, name = joint, joint.name
    if not j.position_count:
        return []
    # a slider spans the limits, or a finite window of them around home when they are unbounded
    lim, home = np.atleast_2d(j.position_limits), np.atleast_1d(j.home_position)
    span = lambda k, kind: finite_range(float(lim[k][0]), float(lim[k][1]), float(home[k]), kind)  # noqa: E731
    if j.type in AXIAL_TYPES:
        kind = "angle" if j.type == "revolute" else "length"
        return [Channel(name, name, kind, *span(0, kind), name, "")]
    if j.type == "planar":
        return [Channel(f"{name}.{k}", f"{name} {axis}", kind, *span(k, kind), name, str(k))
                for k, (axis, kind) in enumerate((("x", "length"), ("y", "length"), ("θ", "angle")))]
    if j._rows:
        return [Channel(f"{name}.{k}", f"{name} {row_label(row, k)}", kind, *span(k, kind), name, str(k))
                for k, row in enumerate(j._rows) for kind in ["length" if k in j.length_rows else "angle"]]
    out = []
    if j.type == "floating":
        out = [Channel(f"{name}.{a}", f"{name} {a}", "length", *span(4 + k, "length"), name, a)
               for k, a in enumerate("xyz")]
    return out + [Channel(f"{name}.{a}", f"{name} {a}", "angle", -math.pi, math.pi, name, a) for a in RPY]


def row_label(row: tuple[float, ...], k: int) -> str:
    """A composite joint's row as a slider label: ``rz`` for a rotation about z, ``x`` for a
    translation along x, ``r2``/``t2`` (the row number) about/along another axis."""
    rot = any(row[:3])
    ax = row[:3] if rot else row[3:]
    for name, unit in zip("xyz", ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))):
        if tuple(ax) == unit:
            return f"r{name}" if rot else name
    return f"{'r' if rot else 't'}{k}"


def channel_values(joint: Joint, positions: np.ndarray) -> dict[str, float]:
    """{channel part: value} of a joint at ``positions`` (its slice of a configuration)."""
    v = positions
    if joint.type in AXIAL_TYPES:
        return {"": float(v[0])}
    if joint.type == "planar" or joint._rows:
        return {str(k): float(v[k]) for k in range(joint.position_count)}
    rpy = matrix_to_rpy(quat_to_rotation(v[:4]))
    out = {a: float(x) for a, x in zip(RPY, rpy)}
    if joint.type == "floating":
        out.update({a: float(x) for a, x in zip("xyz", v[4:7])})
    return out


def with_channel(joint: Joint, positions: np.ndarray, part: str, value: float) -> np.ndarray:
    """``positions`` (the joint's slice) with one channel set to ``value`` (a new array)."""
    q = np.array(positions, dtype=float)
    if joint.type in AXIAL_TYPES:
        q[0] = value
    elif joint.type == "planar" or joint._rows:
        q[int(part)] = value
    elif part in ("x", "y", "z"):
        q[4 + "xyz".index(part)] = value
    else:
        vals = channel_values(joint, q)
        vals[part] = value
        q[:4] = matrix_to_quat(rpy_to_matrix([vals[a] for a in RPY]))
    return q


def zero_positions(joint: Joint) -> np.ndarray:
    """The joint's "zero": identity quaternions, and the home position of an axial joint
    whose limits exclude 0."""
    q = np.zeros(joint.position_count)
    if not q.size:
        return q
    if joint.type in QUATERNION_TYPES:
        q[0] = 1.0
    elif joint.type in AXIAL_TYPES:
        lo, hi = joint.position_limits
        if not lo <= 0 <= hi:
            q[:] = joint.home_position
    return q
