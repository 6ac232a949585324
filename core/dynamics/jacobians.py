"""Jacobians in the velocity space of the dynamics: the geometric Jacobian of a body, its time
derivative (Corke's ``jacob_dot``) and the centre-of-mass Jacobian; Corke's end-effector-frame
``jacobe`` (``[v; ω]`` in the body's frame) is :meth:`JacobianMixin.jacobe`.

One column per :meth:`~kinetree.core.tree.RigidBodyTree.dof_names` entry (``dof_count``
columns: a spherical joint's three are the angular velocity in its child frame, RBDL's
convention), rows ``[ω; v]`` in the base frame (MATLAB's layout: angular first), ``v`` the
velocity of the body's origin. They are built from the dynamics plan's columns (each velocity's
unit motion about the base origin, :meth:`DynamicsPlan.columns`): the column of velocity ``c`` at
point ``p`` is ``[s_ω; s_v + s_ω × p]``, and it turns with the body that carries its axis, so
``ṡ = v_carrier ×ₘ s``. Without quaternion joints this is exactly the position-space Jacobian.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError, InvalidPropertyError
from ..kinematics.loops import require_closed
from ..model.joint import QUATERNION_ROWS
from . import rigid_body as rbd
from .mass import total_mass

if TYPE_CHECKING:
    from ..model.configuration import Configuration
    from ..tree import RigidBodyTree
    from .rigid_body import DynamicsPlan


def _body_columns(plan: DynamicsPlan, k: int) -> np.ndarray:
    """Columns that move moving body ``k`` (its own and its ancestors'), cached per plan."""
    cache = getattr(plan, "_jac_cols", None)
    if cache is None:
        cache = plan._jac_cols = [np.flatnonzero(plan.anc_c[j]).astype(np.int64)  # type: ignore[attr-defined]
                                  for j in range(plan.nm)]
    return cache[k]


def _to_dofs(plan: DynamicsPlan, Jc: np.ndarray) -> np.ndarray:
    return Jc if plan.plain else Jc @ plan.P.T


def _one(tree: RigidBodyTree, q: Configuration) -> np.ndarray:
    """One validated configuration (a float vector of the right length passes at once)."""
    Q = tree.config_array(q)
    return Q if Q.ndim == 1 else tree.config_to_vector(Q)  # a batch: says it takes one


def _checked(J: np.ndarray, body: str, what: str) -> np.ndarray:
    if not math.isfinite(sum(J.ravel().tolist())):
        raise InvalidConfigurationError(f"body {body!r}: its {what} is not finite for this configuration "
                                        "(the joint positions are so large that the numbers overflow)")
    return J


def velocity_jacobian(tree: RigidBodyTree, q: Configuration, body: str) -> np.ndarray:
    """(6, dof_count) geometric Jacobian of ``body``'s origin, ``[ω; v]`` in the base frame,
    one column per velocity (see the module docstring)."""
    i = tree.index_of(body)
    Q = _one(tree, q)
    plan = rbd.dynamics_plan(tree)
    k = int(plan.owner[i]) if i >= 0 else -1  # −1: the base
    if k < 0:
        return np.zeros((6, plan.ndof))
    cols = _body_columns(plan, k)
    kern = rbd._kernel()
    T = rbd._poses(tree, Q, plan, kern)
    p = T[i, :3, 3]
    Jc = np.zeros((6, plan.nc))
    if kern is not None:
        kern.jacobian(T, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point, cols, p, Jc)
    else:
        S = plan.columns(T)[cols]
        Jc[:3, cols] = S[:, :3].T
        Jc[3:, cols] = (S[:, 3:] + rbd._cross(S[:, :3], p)).T
    return _checked(_to_dofs(plan, Jc), body, "Jacobian")


def jacobian_dot(tree: RigidBodyTree, q: Configuration, qd: ArrayLike, body: str) -> np.ndarray:
    """(6, dof_count) time derivative ``J̇`` of :func:`velocity_jacobian` at velocities ``qd``
    (Pinocchio's ``getFrameJacobianTimeVariation``, LOCAL_WORLD_ALIGNED, rows ``[ω; v]``);
    ``jacobian_dot(q, qd, body) @ qd`` is Corke's ``jacob_dot(q, qd)``, the acceleration of the
    body origin at ``qdd = 0``, without gravity."""
    i = tree.index_of(body)
    Q = _one(tree, q)
    plan = rbd.dynamics_plan(tree)
    qd_ = rbd._rates(tree, plan, qd, "qd", ())
    k = int(plan.owner[i]) if i >= 0 else -1  # −1: the base
    if k < 0:
        return np.zeros((6, plan.ndof))
    cols = _body_columns(plan, k)
    T = rbd._poses(tree, Q)
    S = plan.columns(T)
    qdc = qd_[plan.col_dof] * plan.col_gain
    v = plan.anc_c @ (S * qdc[:, None])
    ve = np.concatenate([v, np.zeros((1, 6))])
    Sd = rbd._cross_motion(ve[plan.carrier], S)[cols]
    S = S[cols]
    p = T[i, :3, 3]
    pd = v[k, 3:] + rbd._cross(v[k, :3], p)  # velocity of the body origin
    Jc = np.zeros((6, plan.nc))
    Jc[:3, cols] = Sd[:, :3].T
    Jc[3:, cols] = (Sd[:, 3:] + rbd._cross(Sd[:, :3], p) + rbd._cross(S[:, :3], pd)).T
    return _checked(_to_dofs(plan, Jc), body, "Jacobian derivative")


def com_jacobian(tree: RigidBodyTree, q: Configuration | None = None) -> np.ndarray:
    """(3, dof_count) Jacobian of the whole robot's centre of mass (base and bodies fixed to it
    included, as :meth:`~kinetree.core.tree.RigidBodyTree.center_of_mass`), base frame:
    ``d/dt center_of_mass(q) = com_jacobian(q) @ qd`` (Pinocchio's ``jacobianCenterOfMass``)."""
    Q = tree.home_configuration() if q is None else _one(tree, q)
    plan = rbd.dynamics_plan(tree)
    total = total_mass(tree)
    if not total > 0:
        raise InvalidPropertyError("the tree has no mass (every body's mass is 0): its centre of mass is undefined")
    if not plan.nc:
        return np.zeros((3, plan.ndof))
    S, h, _ = plan.frames(rbd._poses(tree, Q))
    msub, hsub = plan.desc @ plan.m, plan.desc @ h  # mass and first moment of each subtree
    b = plan.col_body
    Jc = (msub[b, None] * S[:, 3:] + rbd._cross(S[:, :3], hsub[b])).T / total
    return _checked(_to_dofs(plan, Jc), "(centre of mass)", "centre-of-mass Jacobian")


JACOBIAN_SPACES = ("positions", "velocities")
#: Trees up to this many bodies take the compiled velocity Jacobian for ``space="positions"``.
DENSE_PLAN_BODIES = 2000


class JacobianMixin:
    """Jacobians of :class:`~kinetree.core.tree.RigidBodyTree` (see :mod:`kinetree.core.dynamics.jacobians`)."""

    def geometric_jacobian(self, q: Configuration, body: str, space: str = "positions") -> np.ndarray:
        """6×n geometric Jacobian of ``body``'s origin in the base frame, angular rows first.
        ``space="positions"``: a column per position (4 for a quaternion: ``d/dq`` of the
        normalised quaternion), as the IK solver uses; ``"velocities"``: a column per
        ``dof_names`` entry (ω in a spherical joint's child frame, RBDL's convention). Without
        spherical or floating joints the two are the same matrix (the compiled path). On a
        looped tree ``q`` must close the loops (:class:`~kinetree.core.errors.LoopClosureError`)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return self._geometric_jacobian(q, body, space)

    def _geometric_jacobian(self, q: Configuration, body: str, space: str = "positions") -> np.ndarray:
        """:meth:`geometric_jacobian` without the loop check (the loop solvers' open iterates)."""
        if space not in JACOBIAN_SPACES:
            raise InvalidConfigurationError(f"geometric Jacobian: space must be 'positions' or 'velocities', "
                                            f"got {space!r:.80}")
        plan = self.kinematic_plan()  # type: ignore[attr-defined]
        # the dynamics plan holds a dense ancestor table (12 GB for a 40,000-body chain): the
        # kinematic plan's Jacobian, the same matrix without quaternion joints, serves big trees
        quaternions = any(plan.kind[i] in QUATERNION_ROWS for i in plan.general)
        if space == "velocities" or (not quaternions and self.num_bodies <= DENSE_PLAN_BODIES):  # type: ignore[attr-defined]
            return velocity_jacobian(self, q, body)  # type: ignore[arg-type]
        Q = _one(self, q)  # type: ignore[arg-type]
        return _checked(plan.jacobian(Q, self.index_of(body)), body, "Jacobian")  # type: ignore[attr-defined]

    def jacobe(self, q: Configuration, body: str, space: str = "velocities") -> np.ndarray:
        """6×n geometric Jacobian of ``body``'s origin expressed in ``body``'s own frame, rows
        ``[v; ω]`` (velocity first), as Corke's ``jacobe``; :meth:`geometric_jacobian` is
        MATLAB's layout instead (base frame, ``[ω; v]``). ``space`` as there."""
        J = self.geometric_jacobian(q, body, space)
        Rt = self.get_transform(q, body)[:3, :3].T  # type: ignore[attr-defined]
        return np.concatenate([Rt @ J[3:], Rt @ J[:3]])

    def manipulability(self, q: Configuration, body: str, axes: str = "all") -> float:
        """Yoshikawa's measure ``sqrt(det(J Jᵀ))``; ``axes`` is ``"all"``, ``"trans"`` or ``"rot"``."""
        J = self.geometric_jacobian(q, body)
        rows = {"all": slice(0, 6), "rot": slice(0, 3), "trans": slice(3, 6)}
        if not isinstance(axes, str) or axes not in rows:
            raise InvalidConfigurationError(f"axes must be 'all', 'trans' or 'rot', got {axes!r}")
        J = J[rows[axes]]
        return float(math.sqrt(max(np.linalg.det(J @ J.T), 0.0)))

    def jacobian_dot(self, q: Configuration, qd: ArrayLike, body: str) -> np.ndarray:
        """``J̇`` of the velocity-space geometric Jacobian of ``body`` (Corke's ``jacob_dot`` is
        ``jacobian_dot(q, qd, body) @ qd``)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return jacobian_dot(self, q, qd, body)  # type: ignore[arg-type]

    def com_jacobian(self, q: Configuration | None = None) -> np.ndarray:
        """(3, dof_count) Jacobian of the centre of mass (Pinocchio's ``jacobianCenterOfMass``)."""
        if self._loops:  # type: ignore[attr-defined]
            require_closed(self, q)  # type: ignore[arg-type]
        return com_jacobian(self, q)  # type: ignore[arg-type]
