"""Joints defined by their motion subspace (RBDL's ``Joint(SpatialVector, …)`` and its 3-DoF
joints ``JointTypeEulerZYX``, ``EulerXYZ``, ``EulerYXZ`` and ``TranslationXYZ``).

A composite joint is k elementary motions applied one after the other, each about/along a unit
axis of the frame the previous ones moved (RBDL "emulates" such a joint as a chain of single-DoF
joints with massless bodies between them: the same kinematics and dynamics). Its positions are
the k angles (rad) or lengths (m), its velocities their rates.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidJointError
from ..transforms import axis_angle_rotation
from .real_numbers import complex_problem

#: RBDL's 3-DoF joints as their motion subspaces, rows ``(r_x r_y r_z t_x t_y t_z)`` applied one
#: after the other about the moving axes: ``euler_zyx`` is ``Rz(q0)·Ry(q1)·Rx(q2)``.
COMPOSITE_ROWS = {
    "euler_zyx": ((0.0, 0.0, 1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
    "euler_xyz": ((1.0, 0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)),
    "euler_yxz": ((0.0, 1.0, 0.0, 0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)),
    "translation_xyz": ((0.0, 0.0, 0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0, 1.0, 0.0),
                        (0.0, 0.0, 0.0, 0.0, 0.0, 1.0)),
}
#: Joints defined by their motion subspace (one elementary rotation or translation per row);
#: a "custom" joint takes its rows from the user (RBDL's ``Joint(SpatialVector, …)``).
COMPOSITE_TYPES = (*COMPOSITE_ROWS, "custom")
#: Most rows a custom joint's motion subspace may have.
MAX_SUBSPACE_ROWS = 6


def parse_motion_subspace(value: Any, joint: str) -> tuple[tuple[float, ...], ...]:
    """``value`` as 1 to 6 rows ``(r_x r_y r_z t_x t_y t_z)``, each a pure rotation or a pure
    translation about/along a non-zero axis, scaled to a unit axis; ``InvalidJointError``
    naming ``joint`` and the row otherwise (a helical row, mixing both, is refused)."""
    what = f"joint {joint!r:.80}: motion subspace"
    if (problem := complex_problem(value)) is not None:
        raise InvalidJointError(f"{what} {problem}")
    try:
        a = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise InvalidJointError(f"{what} must be rows of 6 numbers (r_x r_y r_z t_x t_y t_z), "
                                f"got {str(value)[:80]}") from None
    if a.ndim == 1 and a.size == 6:
        a = a[None]
    if a.ndim != 2 or a.shape[1] != 6 or not 1 <= a.shape[0] <= MAX_SUBSPACE_ROWS:
        raise InvalidJointError(f"{what} must be 1 to {MAX_SUBSPACE_ROWS} rows of 6 numbers "
                                f"(r_x r_y r_z t_x t_y t_z), got shape {a.shape}")
    rows = []
    for k, row in enumerate(a.tolist(), start=1):
        if not all(map(math.isfinite, row)):
            raise InvalidJointError(f"{what} row {k} {row} is not finite")
        rot, tra = any(row[:3]), any(row[3:])
        if rot and tra:
            raise InvalidJointError(f"{what} row {k} {row} mixes a rotation and a translation (a helical "
                                    "motion): each row must be a pure rotation (r) or a pure translation (t)")
        ax = unit_axis(row[:3] if rot else row[3:])
        if ax is None:
            raise InvalidJointError(f"{what} row {k} {row} is zero: it needs a rotation or translation axis")
        full = [*ax.tolist(), 0.0, 0.0, 0.0] if rot else [0.0, 0.0, 0.0, *ax.tolist()]
        rows.append(tuple(full))
    return tuple(rows)


def unit_axis(value: ArrayLike) -> np.ndarray | None:
    """``value`` (3 numbers) scaled to unit length, or ``None`` when it is not 3 finite numbers
    with a non-zero direction. Huge or tiny components are fine: the vector is divided by its
    largest component before its norm is taken, so the norm cannot overflow (1e200 1e200 1e200
    is the diagonal, not NaN)."""
    try:
        ax = np.array(value, dtype=float).reshape(3)
    except (ValueError, TypeError):
        return None
    if not np.all(np.isfinite(ax)):
        return None
    m = float(np.abs(ax).max())
    if m > 1e150:  # the squares would overflow: scale first
        s = ax / m
        return s / float(np.linalg.norm(s))
    n = float(np.linalg.norm(ax))
    if n < 1e-12:  # zero, or too small to be anything but noise
        return None
    return ax if abs(n - 1.0) < 4e-16 else ax / n  # keep unit axes bit-exact


def elementary_motion(row: ArrayLike, value: float) -> np.ndarray:
    """4×4 motion of one motion-subspace row (unit axis): a rotation by ``value`` rad about
    ``row[:3]`` or a translation by ``value`` m along ``row[3:]``."""
    M = np.eye(4)
    r = np.asarray(row, dtype=float)
    if r[:3].any():
        M[:3, :3] = axis_angle_rotation(r[:3], value)
    else:
        M[:3, 3] = value * r[3:]
    return M


#: The three Euler joints: singular where the middle angle is ±90° (its ``|cos|`` is the measure).
EULER_TYPES = ("euler_zyx", "euler_xyz", "euler_yxz")
#: Below this, the rotation axes of a composite joint count as lined up (an Euler-angle
#: singularity): ``|cos(middle angle)|`` of an Euler joint, else the smallest singular value of
#: the unit axes (:func:`rotation_axes_spread`). Accelerations there scale as 1/this.
SINGULAR_AXES = 1e-9


def rotation_axes_spread(rows: tuple[tuple[float, ...], ...], Q: np.ndarray) -> np.ndarray | None:
    """How far from lined up the rotation axes of a composite joint are, per configuration of
    its positions ``Q`` (shape (…, k)): the smallest singular value of its 2 or 3 unit axes, each
    in the joint frame as the rows before it turned it; ``None`` for a joint with fewer or more
    rotations (no Euler-angle singularity, or always redundant)."""
    rot = [k for k, r in enumerate(rows) if any(r[:3])]
    if len(rot) not in (2, 3):
        return None
    lead = Q.shape[:-1]
    R = np.broadcast_to(np.eye(3), (*lead, 3, 3))
    cols = []
    for k in rot:
        a = np.array(rows[k][:3])
        cols.append(R @ a)
        K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
        th = Q[..., k, None, None]
        R = R @ (np.eye(3) + np.sin(th) * K + (1 - np.cos(th)) * (K @ K))  # Rodrigues, per configuration
    return np.linalg.svd(np.stack(cols, axis=-1), compute_uv=False)[..., -1]
