"""Joint torques along a motion: inverse dynamics along the quintic through poses.

:func:`torque_profile` samples the joint-space motion the Poses dock plays and ``kinetree
animate`` renders (:func:`~kinetree.core.kinematics.trajectory.sample_trajectory`: quintic segments, at
rest at every pose, ``seconds`` per segment), takes its positions, velocities and
accelerations, and computes the torques in one batch call of
:func:`~kinetree.core.dynamics.rigid_body.inverse_dynamics` — motor inertia ``G²·Jm`` and
friction included, as Corke's ``rne`` (``motor=False`` leaves them out).

Each joint's **effort limit** is the ``effort`` of its URDF ``<limit>`` (kept in the joint's
extensions: KineTree reads it, does not model it); a joint without one has None. Units per
degree of freedom: N·m for a rotation, N for a translation.

A motion is in configuration space: joints whose positions are not their velocities
(spherical, floating: quaternions) are refused, as a quintic between quaternions is not a unit
quaternion.

**Closed loops** (:mod:`~kinetree.core.kinematics.loops`): the quintic drives the *actuated* joints; at each
sample the passive ones are solved (:func:`~kinetree.core.kinematics.loops.solve_loops`, warm-started from
the previous sample: the branch of the first pose), their velocities and accelerations follow
from ``J q̇ = 0`` and ``J q̈ + J̇q̇ = 0``, and the torques are
:func:`~kinetree.core.dynamics.loops.inverse_dynamics_constraints`' — the actuators' only, a passive
joint's is 0 (:attr:`TorqueProfile.passive` says which). Every pose must be closed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InvalidConfigurationError, LoopClosureError
from ..kinematics.loops import check_closed, solve_loops
from ..kinematics.trajectory import sample_trajectory
from ..model.xml_fragment import fragment_element
from .loops import _loop_terms, actuated_dofs, actuator_split
from .rigid_body import _poses, dynamics_plan, inverse_dynamics

if TYPE_CHECKING:
    from ..model.joint import Joint
    from ..tree import RigidBodyTree

__all__ = ["DEFAULT_SAMPLES", "MAX_SAMPLES", "Peak", "TorqueProfile", "dof_units", "effort_limits",
           "torque_profile"]

#: Samples of a profile unless asked otherwise (both ends included).
DEFAULT_SAMPLES = 501
#: The most samples a profile may have (a profile holds four (samples, dofs) arrays).
MAX_SAMPLES = 200_000
_UNIT = {"revolute": ["N·m"], "prismatic": ["N"], "planar": ["N", "N", "N·m"]}


def _units(j: Joint) -> list[str]:
    """Torque unit of each of the joint's degrees of freedom (a composite joint's: by row)."""
    if j._rows:
        return ["N" if k in j.length_rows else "N·m" for k in range(j.position_count)]
    return _UNIT[j.type]


@dataclass(frozen=True)
class Peak:
    """The largest magnitude of one joint's torque along the motion: ``value`` (signed) at ``time``."""

    value: float
    time: float


@dataclass(frozen=True, eq=False)
class TorqueProfile:
    """Torques along a motion: ``times`` (N,), ``q``/``qd``/``qdd``/``tau`` (N, dofs), one
    ``names``/``units``/``peaks``/``limits`` entry per degree of freedom
    (:meth:`~kinetree.core.tree.RigidBodyTree.dof_names` order) and the ``gravity`` used."""

    names: list[str]
    units: list[str]
    times: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    peaks: list[Peak]
    limits: list[float | None]
    gravity: np.ndarray
    #: per degree of freedom: a passive joint of a looped tree (its torque is 0); empty without loops
    passive: tuple[bool, ...] = ()

    def percent_of_limit(self) -> list[float | None]:
        """Each peak's magnitude in percent of its joint's effort limit (None: no limit)."""
        return [None if lim is None else 100.0 * abs(p.value) / lim for p, lim in zip(self.peaks, self.limits)]

    def over_limit(self) -> list[bool]:
        """Per joint: does the peak exceed the effort limit?"""
        return [lim is not None and abs(p.value) > lim for p, lim in zip(self.peaks, self.limits)]

    def csv_text(self) -> str:
        """``t`` and each joint's torque per sample, a header row naming joints and units."""
        head = ["t (s)"] + [f"{n} ({u})" for n, u in zip(self.names, self.units)]
        rows = [",".join(_csv_cell(h) for h in head)]
        rows += [",".join(repr(float(v)) for v in (t, *row)) for t, row in zip(self.times, self.tau)]
        return "\n".join(rows) + "\n"


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text


def effort_limit(joint: Joint) -> float | None:
    """The ``effort`` of ``joint``'s URDF ``<limit>`` extension (N·m or N), None without one
    (or when it is not a positive finite number: URDF's 0 means none given)."""
    for text in joint.extensions:
        el = fragment_element(text, f"joint {joint.name!r}: extension")
        if el.tag == "limit" and "effort" in el.attrib:
            try:
                v = float(el.attrib["effort"])
            except ValueError:
                return None
            return v if math.isfinite(v) and v > 0 else None
    return None


def _motion_joints(tree: RigidBodyTree) -> list[Joint]:
    joints = [b.joint for b, _ in tree.position_slots()]
    for j in joints:
        if j.type not in _UNIT and not j._rows:
            raise InvalidConfigurationError(
                f"torques along a motion: joint {j.name!r} is {j.type} (its positions are a quaternion, not "
                "what a quintic between poses can interpolate); only revolute, prismatic, planar and composite "
                "(Euler, translation_xyz, custom) joints")
    return joints


def dof_units(tree: RigidBodyTree) -> list[str]:
    """The unit of each degree of freedom's torque: ``"N·m"`` (a rotation) or ``"N"`` (a translation)."""
    return [u for j in _motion_joints(tree) for u in _units(j)]


def effort_limits(tree: RigidBodyTree) -> list[float | None]:
    """Each degree of freedom's effort limit (:func:`effort_limit`; a planar joint's three share its one)."""
    return [effort_limit(j) for j in _motion_joints(tree) for _ in _units(j)]


def _pose(tree: RigidBodyTree, pose: Any, k: int) -> np.ndarray:
    if isinstance(pose, str):
        if pose not in tree.named_poses:
            known = ", ".join(tree.named_poses) or "none"
            raise InvalidConfigurationError(f"no pose named {pose!r:.80} (the robot's poses: {known[:300]})")
        return tree.named_poses[pose]
    try:
        return tree.config_to_vector(pose)
    except InvalidConfigurationError as exc:
        raise InvalidConfigurationError(f"pose {k + 1}: {exc}") from None


def torque_profile(tree: RigidBodyTree, poses: Sequence[Any], seconds: float | Sequence[float] = 2.0,
                   samples: int = DEFAULT_SAMPLES, gravity: Any = None, motor: bool = True) -> TorqueProfile:
    """The torques along the quintic motion through ``poses`` (names of ``tree.named_poses`` or
    configurations; two or more), ``seconds`` per segment (one number for all, or one per
    segment), at ``samples`` equally spaced times, both ends included. ``gravity`` (3 numbers)
    replaces ``tree.gravity`` for this computation; ``motor=False`` leaves out motor inertia and
    friction."""
    joints = _motion_joints(tree)
    if isinstance(poses, (str, bytes)) or len(poses) < 2:
        raise InvalidConfigurationError(f"torques along a motion need two poses or more, got {poses!r:.80}")
    P = [_pose(tree, p, k) for k, p in enumerate(poses)]
    segments = len(P) - 1
    try:
        durations = np.broadcast_to(np.asarray(seconds, dtype=float), (segments,)).copy()
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"seconds must be one number or one per segment ({segments}), "
                                        f"got {seconds!r:.80}") from None
    if not (np.all(np.isfinite(durations)) and np.all(durations > 0) and durations.sum() <= 1e6):
        raise InvalidConfigurationError(f"seconds per segment must be positive and finite (at most 1e6 s in all), "
                                        f"got {durations.tolist()!r:.80}")
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or not 2 <= samples <= MAX_SAMPLES:
        raise InvalidConfigurationError(f"samples must be a whole number from 2 to {MAX_SAMPLES}, got {samples!r:.80}")
    times = np.linspace(0.0, float(durations.sum()), int(samples))
    Q = sample_trajectory(P, durations, times)
    QD = sample_trajectory(P, durations, times, 1)
    QDD = sample_trajectory(P, durations, times, 2)
    work = tree
    if gravity is not None or not motor:
        work = tree.copy()
        if gravity is not None:
            work.gravity = gravity
        if not motor:
            for b in work.bodies:
                j = b.joint
                if j.type in ("revolute", "prismatic"):
                    j.motor_inertia, j.viscous_friction, j.coulomb_friction = 0.0, 0.0, 0.0
    passive: tuple[bool, ...] = ()
    if tree._loops:
        Q, QD, QDD, tau = _looped_motion(work, P, Q, QD, QDD)
        passive = tuple(bool(x) for x in ~actuated_dofs(tree))
    else:
        tau = inverse_dynamics(work, Q, QD, QDD)
    k = np.argmax(np.abs(tau), axis=0) if len(tau) else np.zeros(0, int)
    peaks = [Peak(float(tau[i, d]), float(times[i])) for d, i in enumerate(k)]
    units = [u for j in joints for u in _units(j)]
    limits = [effort_limit(j) for j in joints for _ in _units(j)]
    return TorqueProfile(tree.dof_names(), units, times, Q, QD, QDD, tau, peaks, limits, work.gravity, passive)


def _looped_motion(tree: RigidBodyTree, P: list[np.ndarray], Q: np.ndarray, QD: np.ndarray,
                   QDD: np.ndarray) -> tuple[np.ndarray, ...]:
    """The motion with the actuated joints' quintic kept and the passive joints solved on the
    loops at each sample, and the actuators' torques along it (see the module docstring)."""
    kin = tree.kinematic_plan()
    for k, p in enumerate(P):
        try:
            check_closed(tree, kin.fk_single(p))
        except LoopClosureError as exc:
            raise LoopClosureError(f"pose {k + 1}: {exc}") from None
    plan = dynamics_plan(tree)
    passive = ~actuated_dofs(tree)  # (positions are velocities here: _motion_joints refused quaternions)
    Q, QD, QDD = Q.copy(), QD.copy(), QDD.copy()
    q, jacobians = P[0].copy(), []
    for i in range(len(Q)):
        q[~passive] = Q[i, ~passive]
        q = Q[i] = solve_loops(tree, q)  # warm start: the previous sample's branch
        T = _poses(tree, q, plan)
        _, J, _ = _loop_terms(tree, plan, T, QD[i])
        Jp, Ja = J[:, passive], J[:, ~passive]
        QD[i, passive] = np.linalg.lstsq(Jp, -Ja @ QD[i, ~passive], rcond=None)[0]
        bias = _loop_terms(tree, plan, T, QD[i])[2]
        QDD[i, passive] = np.linalg.lstsq(Jp, -Ja @ QDD[i, ~passive] - bias, rcond=None)[0]
        jacobians.append(J)
    full = inverse_dynamics(tree, Q, QD, QDD)  # the open tree's, in one batch; then the loops' share
    tau = np.array([actuator_split(J, ~passive, f)[0] for J, f in zip(jacobians, full)])
    return Q, QD, QDD, tau
