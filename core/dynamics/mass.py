"""Mass properties of a tree: total mass, centre of mass and gravity torques.

Each body's inertial data is its ``mass`` and ``center_of_mass`` (in the body frame; see
:class:`~kinetree.core.model.body.RigidBody`). Only these two matter here: the rotational inertia,
stored about the body frame, does not enter statics.

**Degrees of freedom.** :func:`gravity_torque` returns one value per joint degree of freedom,
in movable-joint order (the order of :attr:`RigidBodyTree.movable_joint_names`), so its length
is :func:`dof_count`, not ``position_count``:

============  ====  ==========================================================================
joint         DoFs  values
============  ====  ==========================================================================
revolute      1     torque about the axis (N·m)
prismatic     1     force along the axis (N)
planar        3     ``∂V/∂x``, ``∂V/∂y`` (N, along the joint frame's x and y) and the torque
                    about its z axis: exactly the derivatives by the positions ``[x y θ]``
composite     k     ``∂V/∂q`` for each row (angle or length) of an ``euler_*``,
                    ``translation_xyz`` or ``custom`` joint (RBDL's generalized forces)
spherical     3     moment about the joint origin, in the joint's child (successor) frame,
                    as Pinocchio's (conjugate to the angular velocity in that frame)
floating      6     that moment first (as the quaternion comes first in the positions), then
                    the force ``∂V/∂[x y z]`` along the axes of the frame the translation is
                    given in (the joint's parent-side frame, as the positions)
============  ====  ==========================================================================

So for every position that is not a quaternion the value is ``∂V/∂q``, ``V`` the potential
energy. Pinocchio's free-flyer orders ``[force, moment]`` and expresses the force in the child
frame: ``ours[3:6] = R · pin[0:3]`` and ``ours[0:3] = pin[3:6]``, ``R`` the base orientation.

**Mimic joints** have no DoF of their own: the follower moves as
``multiplier · leader + offset``, so its torque, times the multiplier, is added to its leader's
entry (``∂V/∂q_leader`` by the chain rule) — the torque the leader's motor must give when the
coupling is rigid, as Pinocchio's mimic joints (``buildModelFromUrdf(..., mimic=True)``).
MATLAB has no mimic joints.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidPropertyError
from ..kinematics.loops import require_closed
from ..transforms import MAX_LENGTH

if TYPE_CHECKING:
    from ..kinematics.plan import KinematicPlan
    from ..model.configuration import Configuration
    from ..tree import RigidBodyTree

#: Degrees of freedom of each joint type (a mimic joint has none).
DOF_COUNT = {"fixed": 0, "revolute": 1, "prismatic": 1, "planar": 3, "spherical": 3, "floating": 6}
_DOF_PARTS = {"planar": ("0", "1", "2"), "spherical": ("mx", "my", "mz"),
              "floating": ("mx", "my", "mz", "x", "y", "z")}


class _MassData:
    """Per-plan constants: masses, centres of mass and where each body's torque goes."""

    def __init__(self, tree: RigidBodyTree, plan: KinematicPlan) -> None:
        bodies = tree.bodies
        self.m = np.array([b.mass for b in bodies])
        self.c = np.array([b.center_of_mass for b in bodies]).reshape(-1, 3)
        self.base_m, self.base_c = tree.base.mass, tree.base.center_of_mass
        pos2dof, d = {}, 0
        for b, i in tree.position_slots():
            pos2dof[i] = d
            d += b.joint.velocity_count
        self.ndof = d
        movable = [k != "fixed" for k in plan.kind]
        self.dof = np.array([pos2dof[int(plan.qi[i])] if mv else -1 for i, mv in enumerate(movable)], dtype=int)
        self.gain = np.ones(plan.nb)
        for i, (_, k, _) in plan.mimics.items():
            self.gain[i] = k
        # subtree sums: one product with the subtree incidence matrix for small trees, else
        # level by level, deepest first (levels come in depth order)
        self.subtree = None
        if plan.nb <= 256:
            S = np.eye(plan.nb)
            for i in range(plan.nb):
                for a in plan.ancestors(i):
                    S[a, i] = 1.0
            self.subtree = S
        self.up = [(idx[pidx >= 0], pidx[pidx >= 0]) for idx, pidx, _ in reversed(plan.levels)]
        self.up = [(i, p) for i, p in self.up if i.size]
        # revolute and prismatic torques → DoFs (times the mimic gains), as matrices when small
        self.scatter = []
        for rows in (plan.rev, plan.pri):
            P = None
            if plan.nb <= 256:
                P = np.zeros((self.ndof, rows.size))
                P[self.dof[rows], np.arange(rows.size)] = self.gain[rows]
            self.scatter.append((rows, P))


_CACHE: weakref.WeakKeyDictionary[Any, _MassData] = weakref.WeakKeyDictionary()


def _data(tree: RigidBodyTree) -> tuple[KinematicPlan, _MassData]:
    plan = tree.kinematic_plan()  # rebuilt whenever the tree (masses included) changes
    data = _CACHE.get(plan)
    if data is None:
        data = _CACHE[plan] = _MassData(tree, plan)
    return plan, data


def total_mass(tree: RigidBodyTree) -> float:
    """The mass of every body, base included (kg)."""
    return float(tree.base.mass + sum(b.mass for b in tree.bodies))


def dof_count(tree: RigidBodyTree) -> int:
    """Number of joint degrees of freedom: the length of :func:`gravity_torque`."""
    return sum(b.joint.velocity_count for b, _ in tree.position_slots())


def dof_names(tree: RigidBodyTree) -> list[str]:
    """A label per degree of freedom, in :func:`gravity_torque` order: the joint's name for a
    revolute or prismatic joint, else ``"joint.part"`` where part is ``0``/``1``/``2`` for a
    planar joint's ``x``/``y``/``θ`` or a composite joint's rows (as their :mod:`~kinetree.core.model.channels`
    keys), ``x``/``y``/``z``
    for a floating joint's translation, ``mx``/``my``/``mz`` for moments about the child frame's
    axes."""
    out = []
    for b, _ in tree.position_slots():
        j = b.joint
        parts = tuple(map(str, range(j.position_count))) if j._rows else _DOF_PARTS.get(j.type)
        out += [j.name] if parts is None else [f"{j.name}.{p}" for p in parts]
    return out


def _configuration(tree: RigidBodyTree, q: Configuration | None) -> np.ndarray:
    return tree.home_configuration() if q is None else tree.config_array(q)


def center_of_mass(tree: RigidBodyTree, q: Configuration | None = None) -> np.ndarray:
    """Centre of mass of the whole robot, base included, in the base frame, as MATLAB's
    ``centerOfMass``: ``(3,)`` for one configuration (home when ``q`` is None), ``(N, 3)`` for a
    batch of shape ``(N, position_count)``.

    Raises :class:`InvalidPropertyError` when the tree has no mass (the centre is undefined).
    """
    Q = _configuration(tree, q)
    plan, d = _data(tree)
    total = d.base_m + d.m.sum()
    if not total > 0:
        raise InvalidPropertyError("the tree has no mass (every body's mass is 0): its centre of mass is undefined")
    T = tree.forward_kinematics(Q)
    p = np.einsum("...ij,...j->...i", T[..., :3, :3], d.c) + T[..., :3, 3]
    return (np.einsum("i,...ij->...j", d.m, p) + d.base_m * d.base_c) / total


def gravity_torque(tree: RigidBodyTree, q: Configuration | None = None,
                   gravity: ArrayLike | None = None) -> np.ndarray:
    """Joint torques and forces that hold the robot still under gravity (MATLAB's
    ``gravityTorque``, Pinocchio's ``computeGeneralizedGravity``): ``∂V/∂q`` where ``V`` is the
    potential energy, one value per degree of freedom (see the module docstring for floating,
    spherical, planar and mimic joints). ``q`` defaults to home, ``gravity`` to ``tree.gravity``
    (which is ``[0 0 0]`` unless set, as in MATLAB: set it, e.g. to ``[0 0 −9.81]``).

    Each joint carries the weight of its subtree: ``τ = −a · ((C − M·o) × g)`` for a revolute
    joint about unit axis ``a`` through ``o``, with ``M`` the subtree's mass and ``C`` its first
    moment; ``τ = −M · a · g`` for a prismatic joint.
    """
    Q = _configuration(tree, q)
    if Q.ndim != 1:
        Q = tree.config_to_vector(Q)  # one configuration only: says so
    g = tree.gravity if gravity is None else np.asarray(gravity, dtype=float).reshape(3)
    if not all(-MAX_LENGTH <= x <= MAX_LENGTH for x in g.tolist()):  # NaN fails too
        raise InvalidPropertyError(f"gravity must be 3 finite numbers of magnitude at most {MAX_LENGTH:g}, "
                                   f"got {g.tolist()}")
    plan, d = _data(tree)
    tau = np.zeros(d.ndof)
    if not plan.nb:
        return tau
    if all(plan.kind[i] == "composite" for i in plan.general):  # the compiled RNEA at rest (~20× faster)
        k = _rbd._kernel()
        if k is not None:
            dp = _rbd.dynamics_plan(tree)
            if dp.nc:
                tc = np.empty(dp.nc)
                k.gravity(Q, *dp.gravity_pack[:2], dp.gravity_pack[2], dp.gravity_pack[3], g, tc)
                tau = tc if dp.plain else tc @ dp.P.T
            if not math.isfinite(sum(tau.tolist())):
                raise InvalidPropertyError("gravity torque is not finite for this configuration (the numbers overflow)")
            return tau
    if plan.rows:  # composite joints: the RNEA at rest (their columns turn with q)
        dp = _rbd.dynamics_plan(tree)
        a0 = np.zeros(6)
        a0[3:] = -g
        zero = np.zeros(d.ndof)
        tau = _rbd._rnea(dp, _rbd._poses(tree, Q, dp), zero, zero, a0, None, motor=False)
        if not np.isfinite(tau).all():
            raise InvalidPropertyError("gravity torque is not finite for this configuration (the numbers overflow)")
        return tau
    T = tree.forward_kinematics(Q)
    R, t = T[:, :3, :3], T[:, :3, 3]
    C = d.m[:, None] * (np.einsum("bij,bj->bi", R, d.c) + t)  # first moments m·p
    if d.subtree is not None:
        M, C = d.subtree @ d.m, d.subtree @ C
    else:
        M = d.m.copy()
        for idx, parents in d.up:
            np.add.at(M, parents, M[idx])
            np.add.at(C, parents, C[idx])
    # each joint's parent-side frame X = T_parent · A (for revolute/prismatic: z is the axis)
    Tp = np.concatenate([T, np.eye(4)[None]])[plan.parent]  # parent −1 → the base (identity)
    X = Tp @ plan.A
    W = np.cross(C, g) - M[:, None] * np.cross(X[:, :3, 3], g)  # (C − M·o) × g, for o = X's origin
    for (rows, P), value in zip(d.scatter, (lambda i: np.einsum("bi,bi->b", X[i, :3, 2], W[i]),
                                            lambda i: M[i] * (X[i, :3, 2] @ g))):
        if not rows.size:
            continue
        if P is not None:
            tau -= P @ value(rows)
        else:
            np.add.at(tau, d.dof[rows], -d.gain[rows] * value(rows))
    for i in plan.general:
        k, c, s = plan.kind[i], int(plan.qi[i]), d.dof[i]
        Xr, o = X[i, :3, :3], X[i, :3, 3]
        if k == "planar":
            x, y = Q[c], Q[c + 1]
            w = np.cross(C[i] - M[i] * (o + x * Xr[:, 0] + y * Xr[:, 1]), g)
            tau[s : s + 2] = -M[i] * (Xr[:, :2].T @ g)
            tau[s + 2] = -Xr[:, 2] @ w
        else:  # spherical, floating: R_child = T_i · B⁻¹ (its rotation), origin o (+ X·p)
            Rs = R[i] @ plan.B[i, :3, :3].T
            if k == "floating":
                o = o + Xr @ Q[c + 4 : c + 7]
                tau[s + 3 : s + 6] = -M[i] * (Xr.T @ g)
            tau[s : s + 3] = -Rs.T @ np.cross(C[i] - M[i] * o, g)
    if not np.isfinite(tau).all():
        raise InvalidPropertyError("gravity torque is not finite for this configuration (the numbers overflow)")
    return tau


from . import rigid_body as _rbd  # noqa: E402 - it imports this module


class MassPropertiesMixin:
    """Mass-property methods of :class:`~kinetree.core.tree.RigidBodyTree` (see
    :mod:`kinetree.core.dynamics.mass`)."""

    @property
    def mass(self) -> float:
        """Total mass, base included (kg)."""
        return total_mass(self)

    @property
    def dof_count(self) -> int:
        """Number of joint degrees of freedom (the length of :meth:`gravity_torque`)."""
        return dof_count(self)

    def dof_names(self) -> list[str]:
        """A label per degree of freedom (see :func:`kinetree.core.dynamics.mass.dof_names`)."""
        return dof_names(self)

    def center_of_mass(self, q: Configuration | None = None) -> np.ndarray:
        """Centre of mass of the whole robot, base included, in the base frame (MATLAB's
        ``centerOfMass``); see :func:`kinetree.core.dynamics.mass.center_of_mass`."""
        return center_of_mass(self, q)

    def gravity_torque(self, q: Configuration | None = None, gravity: ArrayLike | None = None) -> np.ndarray:
        """Joint torques holding the robot still under ``tree.gravity``, one per degree of freedom
        in movable-joint order; see :func:`kinetree.core.dynamics.mass.gravity_torque`."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return gravity_torque(self, q, gravity)
