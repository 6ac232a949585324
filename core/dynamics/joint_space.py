"""Moving in configuration space with RBDL's velocity convention: :func:`integrate` and
:func:`difference`. A spherical or floating joint has 4 quaternion numbers but 3 angular
velocities, the angular velocity in its child frame; every other position moves as ``q + qd·dt``.

RBDL's *position* layout differs from KineTree's (MATLAB's): KineTree keeps a joint's quaternion
``[w x y z]`` inline, w first (a floating joint: ``[qw qx qy qz x y z]``); RBDL keeps ``x y z``
inline and appends every joint's ``w`` after all other coordinates, in joint order (a floating
base: ``[x y z qx qy qz]`` inline, its ``qw`` at the end). :func:`to_rbdl_q` / :func:`from_rbdl_q`
convert; :func:`get_quaternion` / :func:`set_quaternion` are RBDL's ``Model::GetQuaternion`` /
``SetQuaternion`` on KineTree's layout. Velocities, accelerations and torques (one per DoF) agree
except for a floating joint's six, ``[ω ṗ]`` here and ``[ṗ ω]`` in RBDL (its translation joint
comes first): :func:`to_rbdl_qd` / :func:`from_rbdl_qd` convert those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError
from .rigid_body import _finite, _inputs, _rates, dynamics_plan

if TYPE_CHECKING:
    from ..tree import RigidBodyTree


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
    for b, i in tree.position_slots():
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


QUATERNION_JOINTS = ("spherical", "floating")


def _rbdl_order(tree: RigidBodyTree) -> np.ndarray:
    """``perm`` with ``rbdl_q = q[perm]`` (see the module docstring)."""
    inline: list[int] = []
    tail: list[int] = []
    for b, i in tree.position_slots():
        kind = b.joint.type
        if kind == "spherical":
            inline += [i + 1, i + 2, i + 3]
            tail.append(i)
        elif kind == "floating":  # RBDL's floating base: TranslationXYZ, then a spherical joint
            inline += [i + 4, i + 5, i + 6, i + 1, i + 2, i + 3]
            tail.append(i)
        else:
            inline += range(i, i + b.joint.position_count)
    return np.array(inline + tail, dtype=np.int64)


def to_rbdl_q(tree: RigidBodyTree, q: ArrayLike) -> np.ndarray:
    """``q`` (KineTree's layout, or a batch of them) in RBDL's layout: quaternion ``x y z``
    inline, every ``w`` appended at the end (module docstring). Same length, same numbers."""
    Q, _ = _inputs(tree, q)
    return Q[..., _rbdl_order(tree)]


def from_rbdl_q(tree: RigidBodyTree, q: ArrayLike) -> np.ndarray:
    """The inverse of :func:`to_rbdl_q`: an RBDL-ordered vector (or batch) in KineTree's layout."""
    n = tree.position_count
    try:
        R = np.array(q, dtype=float)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"RBDL q must be {n} numbers, got {str(q)[:80]}") from None
    if R.ndim == 0 or R.shape[-1] != n:
        raise InvalidConfigurationError(f"RBDL q must have {n} numbers (one per position), got shape {R.shape}")
    out = np.empty_like(R)
    out[..., _rbdl_order(tree)] = R
    return _inputs(tree, out)[0]  # the usual checks (finite, bounded)


def _rbdl_dof_order(tree: RigidBodyTree) -> np.ndarray:
    """``perm`` with ``rbdl_qd = qd[perm]``: a floating joint's ``[ω ṗ]`` becomes ``[ṗ ω]``."""
    perm = []
    for kind, _, d, n in _joint_slots(tree):
        perm += [d + 3, d + 4, d + 5, d, d + 1, d + 2] if kind == "floating" else range(d, d + n)
    return np.array(perm, dtype=np.int64)


def _lead(value: ArrayLike) -> tuple[int, ...]:
    """The batch shape of per-DoF values (``_rates`` then checks the rest)."""
    try:
        return np.shape(value)[:-1]
    except ValueError:  # ragged
        return ()


def to_rbdl_qd(tree: RigidBodyTree, qd: ArrayLike) -> np.ndarray:
    """Velocities, accelerations or torques (one per DoF, or a batch) in RBDL's order: a
    floating joint's ``[ω ṗ]`` as ``[ṗ ω]``; every other entry where it is."""
    V = _rates(tree, dynamics_plan(tree), qd, "qd", _lead(qd))
    return V[..., _rbdl_dof_order(tree)]


def from_rbdl_qd(tree: RigidBodyTree, qd: ArrayLike) -> np.ndarray:
    """The inverse of :func:`to_rbdl_qd`."""
    V = _rates(tree, dynamics_plan(tree), qd, "qd", _lead(qd))
    out = np.empty_like(V)
    out[..., _rbdl_dof_order(tree)] = V
    return out


def _quaternion_slot(tree: RigidBodyTree, body: str) -> int:
    """Where ``body``'s joint quaternion starts in a configuration vector."""
    joint = tree.get_body(body).joint
    if joint.type not in QUATERNION_JOINTS:
        raise InvalidConfigurationError(f"body {body!r}: its joint {joint.name!r} is {joint.type}, it has no "
                                        "quaternion (only spherical and floating joints have one)")
    return tree.position_index(joint.name).start


def get_quaternion(tree: RigidBodyTree, body: str, q: ArrayLike) -> np.ndarray:
    """The quaternion ``[w x y z]`` of ``body``'s spherical or floating joint in ``q`` (RBDL's
    ``Model::GetQuaternion``, by body name, on KineTree's layout; RBDL's ``Quaternion`` is
    ``(x, y, z, w)``). As stored: KineTree normalises it where it is used."""
    i = _quaternion_slot(tree, body)
    Q, _ = _inputs(tree, q)
    return Q[..., i : i + 4].copy()


def set_quaternion(tree: RigidBodyTree, body: str, quat: ArrayLike, q: ArrayLike) -> np.ndarray:
    """A copy of ``q`` with ``body``'s joint quaternion set to ``quat`` ``[w x y z]`` (RBDL's
    ``Model::SetQuaternion``, by body name, on KineTree's layout). Stored as given (not
    normalised; it is where it is used); a zero or non-finite quaternion is refused."""
    i = _quaternion_slot(tree, body)
    try:
        v = np.array(quat, dtype=float).reshape(4)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"body {body!r}: quaternion must be 4 numbers [w x y z], "
                                        f"got {str(quat)[:80]}") from None
    if not (np.isfinite(v).all() and 1e-12 < np.linalg.norm(v) < 1e12):
        raise InvalidConfigurationError(f"body {body!r}: quaternion [w x y z] must be finite and of non-zero "
                                        f"length, got {v.tolist()}")
    Q, _ = _inputs(tree, q)
    out = np.array(Q, dtype=float)
    out[..., i : i + 4] = v
    return out


class JointSpaceMixin:
    """:func:`integrate`, :func:`difference` and RBDL's q layout helpers as
    :class:`~kinetree.core.tree.RigidBodyTree` methods."""

    def integrate(self, q: ArrayLike, qd: ArrayLike, dt: float = 1.0) -> np.ndarray:
        """Positions after velocities ``qd`` for ``dt`` (quaternions kept unit; RBDL's convention)."""
        return integrate(self, q, qd, dt)  # type: ignore[arg-type]

    def difference(self, q0: ArrayLike, q1: ArrayLike) -> np.ndarray:
        """Velocities taking ``q0`` to ``q1`` in one second (inverse of :meth:`integrate`)."""
        return difference(self, q0, q1)  # type: ignore[arg-type]

    def to_rbdl_q(self, q: ArrayLike) -> np.ndarray:
        """``q`` in RBDL's layout (quaternion ``w`` last, after all other coordinates): :func:`to_rbdl_q`."""
        return to_rbdl_q(self, q)  # type: ignore[arg-type]

    def from_rbdl_q(self, q: ArrayLike) -> np.ndarray:
        """An RBDL-ordered ``q`` in KineTree's layout (``w`` first, inline): :func:`from_rbdl_q`."""
        return from_rbdl_q(self, q)  # type: ignore[arg-type]

    def to_rbdl_qd(self, qd: ArrayLike) -> np.ndarray:
        """Velocities/accelerations/torques in RBDL's order (floating ``[ṗ ω]``): :func:`to_rbdl_qd`."""
        return to_rbdl_qd(self, qd)  # type: ignore[arg-type]

    def from_rbdl_qd(self, qd: ArrayLike) -> np.ndarray:
        """RBDL-ordered velocities/accelerations/torques in KineTree's order: :func:`from_rbdl_qd`."""
        return from_rbdl_qd(self, qd)  # type: ignore[arg-type]

    def get_quaternion(self, body: str, q: ArrayLike) -> np.ndarray:
        """``[w x y z]`` of ``body``'s spherical/floating joint in ``q`` (RBDL's ``GetQuaternion``)."""
        return get_quaternion(self, body, q)  # type: ignore[arg-type]

    def set_quaternion(self, body: str, quat: ArrayLike, q: ArrayLike) -> np.ndarray:
        """A copy of ``q`` with ``body``'s quaternion ``[w x y z]`` set (RBDL's ``SetQuaternion``)."""
        return set_quaternion(self, body, quat, q)  # type: ignore[arg-type]
