"""Moving in configuration space with RBDL's velocity convention: :func:`integrate` and
:func:`difference`. A spherical or floating joint has 4 quaternion numbers but 3 angular
velocities, the angular velocity in its child frame; every other position moves as ``q + qd·dt``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .errors import InvalidConfigurationError
from .rigid_body_dynamics import _finite, _inputs, _rates, dynamics_plan

if TYPE_CHECKING:
    from .tree import RigidBodyTree


def _quat_mul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    aw, ax, ay, az = np.moveaxis(a, -1, 0)
    bw, bx, by, bz = np.moveaxis(b, -1, 0)
    return np.stack([aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw], axis=-1)


def _quat_exp(r: np.ndarray) -> np.ndarray:
    """Unit quaternion ``[w x y z]`` of the rotation vector ``r``."""
    th = np.linalg.norm(r, axis=-1, keepdims=True)
    half = 0.5 * th
    k = np.where(th > 1e-8, np.sin(half) / np.where(th > 1e-8, th, 1.0), 0.5 - th * th / 48.0)
    return np.concatenate([np.cos(half), k * r], axis=-1)


def _quat_log(q: np.ndarray) -> np.ndarray:
    """Rotation vector of the unit quaternion ``q`` (the shorter way round)."""
    q = np.where(q[..., :1] < 0, -q, q)
    v = q[..., 1:]
    s = np.linalg.norm(v, axis=-1, keepdims=True)
    th = 2.0 * np.arctan2(s, q[..., :1])
    return np.where(s > 1e-12, th / np.where(s > 1e-12, s, 1.0), 2.0 / q[..., :1]) * v


def _joint_slots(tree: RigidBodyTree) -> list[tuple[str, int, int, int]]:
    """``(type, first position, first DoF, DoFs)`` of each joint with positions."""
    out, d = [], 0
    for b, i in tree._positions():
        out.append((b.joint.type, i, d, b.joint.velocity_count))
        d += b.joint.velocity_count
    return out


def integrate(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike, dt: float = 1.0) -> np.ndarray:
    """Positions after moving at velocities ``qd`` for ``dt`` seconds from ``q``: ``q + qd·dt``
    except for quaternions, turned by the angular velocity in the child frame (RBDL's
    convention: ``Q ← Q ⊗ exp(ω·dt)``, unit length kept). Batches: (N, positions) and (N, dofs)."""
    Q, lead = _inputs(tree, q)
    plan = dynamics_plan(tree)
    V = _rates(tree, plan, qd, "qd", lead)
    dt = float(dt)
    if not (np.isfinite(dt) and abs(dt) <= 1e6):
        raise InvalidConfigurationError(f"dt must be a finite number of seconds (at most 1e6), got {dt}")
    out = Q.copy()
    for kind, i, d, n in _joint_slots(tree):
        if kind in ("spherical", "floating"):
            quat = Q[..., i : i + 4] / np.linalg.norm(Q[..., i : i + 4], axis=-1, keepdims=True)
            new = _quat_mul(quat, _quat_exp(V[..., d : d + 3] * dt))
            out[..., i : i + 4] = new / np.linalg.norm(new, axis=-1, keepdims=True)
            if kind == "floating":
                out[..., i + 4 : i + 7] += V[..., d + 3 : d + 6] * dt
        else:
            out[..., i : i + n] += V[..., d : d + n] * dt
    return _finite(out, "integrate")


def difference(tree: RigidBodyTree, q0: ArrayLike, q1: ArrayLike) -> np.ndarray:
    """The velocities (one per DoF) that take ``q0`` to ``q1`` in one second: ``integrate(q0,
    difference(q0, q1), 1) == q1`` (quaternions up to sign)."""
    Q0, lead = _inputs(tree, q0)
    Q1, lead1 = _inputs(tree, q1)
    if lead1 != lead:
        raise InvalidConfigurationError(f"q0 and q1 must have the same shape, got {Q0.shape} and {Q1.shape}")
    out = np.zeros((*lead, dynamics_plan(tree).ndof))
    for kind, i, d, n in _joint_slots(tree):
        if kind in ("spherical", "floating"):
            a = Q0[..., i : i + 4] / np.linalg.norm(Q0[..., i : i + 4], axis=-1, keepdims=True)
            b = Q1[..., i : i + 4] / np.linalg.norm(Q1[..., i : i + 4], axis=-1, keepdims=True)
            conj = a * np.array([1.0, -1.0, -1.0, -1.0])
            out[..., d : d + 3] = _quat_log(_quat_mul(conj, b))
            if kind == "floating":
                out[..., d + 3 : d + 6] = Q1[..., i + 4 : i + 7] - Q0[..., i + 4 : i + 7]
        else:
            out[..., d : d + n] = Q1[..., i : i + n] - Q0[..., i : i + n]
    return _finite(out, "difference")


class JointSpaceMixin:
    """:func:`integrate` and :func:`difference` as :class:`~kinetree.core.tree.RigidBodyTree` methods."""

    def integrate(self, q: ArrayLike, qd: ArrayLike, dt: float = 1.0) -> np.ndarray:
        """Positions after velocities ``qd`` for ``dt`` (quaternions kept unit; RBDL's convention)."""
        return integrate(self, q, qd, dt)  # type: ignore[arg-type]

    def difference(self, q0: ArrayLike, q1: ArrayLike) -> np.ndarray:
        """Velocities taking ``q0`` to ``q1`` in one second (inverse of :meth:`integrate`)."""
        return difference(self, q0, q1)  # type: ignore[arg-type]
