"""Dynamics of closed loops (RBDL's constrained dynamics, for :mod:`~kinetree.core.kinematics.loops`).

A looped tree moves as its open tree with the loop equations ``r(q) = 0`` (:mod:`.loops`)
held by constraint forces: ``M q̈ + c(q, q̇) = τ + Jᵀλ`` with ``J = ∂r/∂q`` the constraint
Jacobian (:meth:`~kinetree.core.tree.RigidBodyTree.constraint_jacobian`), and the loops closed
at the acceleration level, ``J q̈ + J̇q̇ = 0``. So λ is RBDL's ``ConstraintSet::force``: for a
loop's position rows, the force (N, base frame) the loop puts on ``body_b`` at its frame (and the
opposite on ``body_a``); for its rotation rows, the couples keeping the axes together.

Functions, named after RBDL's and differing as said:

* :func:`constraint_bias` — ``J̇q̇`` (RBDL's ``γ`` is its negative), from the loop frames' spatial
  accelerations at ``q̈ = 0``.
* :func:`forward_dynamics_constraints_direct` — ``(q̈, λ)`` from the KKT system
  ``[M Jᵀ; J 0][q̈; −λ] = [τ − c; −J̇q̇ − 2α·Jq̇ − β²·r]`` (RBDL's ``ForwardDynamicsConstraintsDirect``;
  ``baumgarte=(α, β)``, off by default: the simulator projects instead). A loop's equations
  need not be independent (a hinge closing a planar four-bar has five rows of rank two): the
  rows are first reduced to an independent set (SVD of ``J``), which RBDL's dense KKT solve
  cannot take, and λ is the least-norm force, zero along the rows the motion never loads.
* :func:`compute_constraint_impulses` — the velocities after an inelastic constraint impulse
  (RBDL's ``ComputeConstraintImpulsesDirect``), i.e. ``q̇`` projected on ``J q̇ = 0`` in the
  mass metric, and the impulse.
* :func:`inverse_dynamics_constraints` — the actuator torques (actuated joints only, passive
  ones 0) and λ that produce a given consistent ``(q, q̇, q̈)``: ``S_aᵀτ_a + Jᵀλ = ID(q, q̇, q̈)``.
  RBDL's ``InverseDynamicsConstraints`` also picks the nearest feasible ``q̈`` for an
  under-actuated system; this refuses an inconsistent ``q̇``/``q̈`` instead (never changes a value
  silently). With more actuators than the motion needs, the least-norm split is returned.

Each function raises :class:`LoopClosureError` for a configuration a loop leaves open by more
than :data:`~kinetree.core.kinematics.loops.CLOSED_TOL`, as kinematics does. On a tree without loops they
reduce to the plain dynamics (and λ is empty).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .. import compiled_warmup
from ..errors import InvalidConfigurationError, InvalidPropertyError, LoopClosureError
from ..kinematics.loops import (
    _ROT,
    _compiled,
    _pose,
    _residual_one,
    check_closed,
    compiled_terms,
    cross3,
    jacobian_block,
)
from ..kinematics.loops import rows as loop_rows
from . import rigid_body as _rbd

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .plan import DynamicsPlan

__all__ = ["compute_constraint_impulses", "constraint_bias", "forward_dynamics_constraints_direct",
           "inverse_dynamics_constraints"]

#: Rows of ``J`` whose singular value is below this share of the largest are dependent ones.
RANK_RATIO = 1e-10
#: Relative tolerance on ``J q̇ = 0`` and ``J q̈ + J̇q̇ = 0`` for the rates given to inverse dynamics.
RATE_TOL = 1e-8
_ZERO6 = np.zeros(6)


def _frame_motion(tree: RigidBodyTree, plan: DynamicsPlan, T: np.ndarray, S: np.ndarray, v: np.ndarray,
                  a: np.ndarray, body, X: np.ndarray):
    """A loop frame (pose ``X`` on ``body``): its pose, angular and point Jacobians (3×dofs each),
    angular velocity, point velocity, angular acceleration and point acceleration (base frame;
    ``S``, ``v``, ``a``: the columns, velocities and accelerations of RNEA's forward pass)."""
    F = _pose(tree, T, body) @ X
    k = -1 if body is tree.base else int(plan.owner[tree._bodies.index(body)])
    if k < 0:  # the base, or a body fixed to it
        z, Z = np.zeros(3), np.zeros((3, plan.ndof))
        return F, Z, Z, z, z, z, z
    p = F[:3, 3]
    Jc = (S * plan.anc_c[k][:, None]).T  # 6 × columns: the body's spatial Jacobian
    Jk = Jc if plan.plain else Jc @ plan.P.T
    px, py, pz = p.tolist()
    skew = np.array([[0.0, -pz, py], [pz, 0.0, -px], [-py, px, 0.0]])
    w, vo, al, ao = v[k, :3], v[k, 3:], a[k, :3], a[k, 3:]
    vp = vo + cross3(w, p)
    return F, Jk[:3], Jk[3:] - skew @ Jk[:3], w, vp, al, ao + cross3(al, p) + cross3(w, vp)


def _loop_terms(tree: RigidBodyTree, plan: DynamicsPlan, T: np.ndarray,
                qd: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The loops' residual ``r``, Jacobian ``J`` and bias ``J̇q̇`` (each row's second time derivative
    at ``q̈ = 0``) from one pass of RNEA's forward recursion (``T``: the dynamics poses)."""
    S = plan.columns(T)
    _, _, v, a = _rbd._motion(plan, S, qd, np.zeros_like(qd), _ZERO6)
    res, jac, out = [], [], []
    for rec in tree._loops.values():
        Fa, Jwa, Jva, wa, va, ala, aa = _frame_motion(tree, plan, T, S, v, a, rec.a, rec.xa)
        Fb, Jwb, Jvb, wb, vb, alb, ab = _frame_motion(tree, plan, T, S, v, a, rec.b, rec.xb)
        res.append(_residual_one(rec, Fa, Fb))
        jac.append(jacobian_block(rec, Fa, Fb, Jwa, Jva, Jwb, Jvb))
        Ra, Rb = Fa[:3, :3], Fb[:3, :3]
        d, dd, ddd = Fb[:3, 3] - Fa[:3, 3], vb - va, ab - aa
        if rec.kind == "slider":  # (xa·d)¨ = ẍa·d + 2ẋa·ḋ + xa·d̈
            for i in (0, 1):
                x = Ra[:, i]
                xd = cross3(wa, x)
                xdd = cross3(ala, x) + cross3(wa, xd)
                out.append(float(xdd @ d + 2 * xd @ dd + x @ ddd))
        else:
            out += ddd.tolist()
        dw, dal = wa - wb, ala - alb
        for i, j in _ROT[rec.kind]:  # ((ea × eb)·(ωa − ωb))˙
            ea, eb = Ra[:, i], Rb[:, j]
            ead, ebd = cross3(wa, ea), cross3(wb, eb)
            out.append(float((cross3(ead, eb) + cross3(ea, ebd)) @ dw + cross3(ea, eb) @ dal))
    return np.concatenate(res), np.concatenate(jac), np.array(out)


def _independent(J: np.ndarray) -> np.ndarray:
    """``U`` whose columns span the range of ``J`` (its left singular vectors above :data:`RANK_RATIO`):
    ``Uᵀ J`` are independent rows equivalent to ``J``'s, and ``U μ`` the least-norm λ for them."""
    U, s, _ = np.linalg.svd(J, full_matrices=False)
    return U[:, : int(np.sum(s > RANK_RATIO * s[0])) if s.size and s[0] > 0 else 0]


def _kkt(M: np.ndarray, rhs: np.ndarray, J: np.ndarray, gamma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``x``, ``λ`` with ``M x = rhs + Jᵀλ`` and ``J x = gamma``: the KKT system on an independent
    set of rows of ``J``, λ the least-norm one."""
    n = M.shape[0]
    mod = _compiled()
    try:
        if mod is not None and compiled_warmup.may_compile(mod.kkt):  # ~6 µs instead of ~25
            c = np.ascontiguousarray  # one layout: no second compilation at run time
            return mod.kkt(c(M, dtype=float), c(rhs, dtype=float), c(J, dtype=float), c(gamma, dtype=float),
                           RANK_RATIO)
        Ur = _independent(J)
        r = Ur.shape[1]
        Jr = Ur.T @ J
        K = np.zeros((n + r, n + r))
        K[:n, :n], K[:n, n:], K[n:, :n] = M, Jr.T, Jr
        x = np.linalg.solve(K, np.concatenate([rhs, Ur.T @ gamma]))
    except np.linalg.LinAlgError:
        raise InvalidPropertyError("the constrained mass matrix is singular for this configuration: a motion the "
                                   "loops allow moves no mass (give its bodies mass or inertia)") from None
    return x[:n], Ur @ -x[n:]


def _closed(tree: RigidBodyTree, Q: np.ndarray) -> None:
    check_closed(tree, tree.kinematic_plan().fk_single(Q))


def constrained_accel(tree: RigidBodyTree, plan: DynamicsPlan, Q: np.ndarray, T: np.ndarray, qd: np.ndarray,
                      M: np.ndarray, rhs: np.ndarray,
                      baumgarte: tuple[float, float] = (0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
    """``(q̈, λ)`` for ``M q̈ = rhs + Jᵀλ`` with the loops closed at the acceleration level, no
    argument checks (the simulator's inner loop; ``T``: the dynamics poses of ``Q``)."""
    terms = compiled_terms(tree, Q, qd)  # ~5 µs instead of ~250 (revolute and prismatic trees)
    r, J, bias = terms if terms is not None else _loop_terms(tree, plan, T, qd)
    gamma = -bias
    alpha, beta = baumgarte
    if alpha or beta:
        gamma = gamma - 2.0 * alpha * (J @ qd) - beta * beta * r
    return _kkt(M, rhs, J, gamma)


def _baumgarte(value: ArrayLike) -> tuple[float, float]:
    try:
        alpha, beta = (float(x) for x in np.asarray(value, dtype=float).reshape(2))
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"baumgarte must be two numbers (α, β), got {value!r:.80}") from None
    if not (0 <= alpha <= 1e6 and 0 <= beta <= 1e6):
        raise InvalidConfigurationError(f"baumgarte: α and β must be 0 … 1e6 (1/s), got ({alpha!r}, {beta!r})")
    return alpha, beta


def constraint_bias(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike | None = None) -> np.ndarray:
    """``J̇q̇``, one value per loop equation (RBDL's ``γ = −J̇q̇``): the loop residual's second time
    derivative at ``q̈ = 0``, from the loop frames' spatial accelerations."""
    Q = tree.one_config(q)
    plan = _rbd.dynamics_plan(tree)
    qd_ = _rbd._rates(tree, plan, qd, "qd", ())
    if not tree._loops:
        return np.zeros(0)
    _closed(tree, Q)
    return _loop_terms(tree, plan, _rbd._poses(tree, Q, plan), qd_)[2]


def forward_dynamics_constraints_direct(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike | None = None,
                                        tau: ArrayLike | None = None, fext: ArrayLike | None = None,
                                        baumgarte: ArrayLike = (0.0, 0.0)) -> tuple[np.ndarray, np.ndarray]:
    """``(q̈, λ)`` of the looped tree for torques ``tau`` on every joint (friction and motor
    inertia included, as :func:`~kinetree.core.dynamics.rigid_body.forward_dynamics`); see the
    module docstring. One configuration."""
    Q = tree.one_config(q)
    plan = _rbd.dynamics_plan(tree)
    qd_, tau_ = _rbd._rates(tree, plan, qd, "qd", ()), _rbd._rates(tree, plan, tau, "tau", ())
    stab = _baumgarte(baumgarte)
    if not tree._loops:
        return _rbd.forward_dynamics(tree, Q, qd_, tau_, fext), np.zeros(0)
    _closed(tree, Q)
    M = _rbd.mass_matrix(tree, Q)
    c = _rbd.inverse_dynamics(tree, Q, qd_, None, fext)
    qdd, lam = constrained_accel(tree, plan, Q, _rbd._poses(tree, Q, plan), qd_, M, tau_ - c, stab)
    return _rbd._finite(qdd, "forward dynamics"), lam


def compute_constraint_impulses(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """``(q̇⁺, Λ)``: the velocities after the inelastic impulse ``Λ`` that closes every loop at
    the velocity level (``M(q̇⁺ − q̇) = JᵀΛ``, ``J q̇⁺ = 0``: the projection of ``q̇`` on the
    loops' velocities in the mass metric), RBDL's ``ComputeConstraintImpulsesDirect``."""
    Q = tree.one_config(q)
    plan = _rbd.dynamics_plan(tree)
    qd_ = _rbd._rates(tree, plan, qd, "qd", ())
    if not tree._loops:
        return qd_.copy(), np.zeros(0)
    _closed(tree, Q)
    return project_velocities(tree, Q, qd_, _rbd.mass_matrix(tree, Q))


def project_velocities(tree: RigidBodyTree, Q: np.ndarray, qd: np.ndarray,
                       M: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`compute_constraint_impulses` without argument checks (``M``: the mass matrix at ``Q``)."""
    J = loop_rows(tree, Q)[1]
    return _kkt(M, M @ qd, J, np.zeros(J.shape[0]))


def actuated_dofs(tree: RigidBodyTree) -> np.ndarray:
    """A flag per degree of freedom (:meth:`~kinetree.core.tree.RigidBodyTree.dof_names` order):
    is its joint actuated?"""
    return np.array([b.joint.actuated for b, _ in tree.position_slots() for _ in range(b.joint.velocity_count)],
                    dtype=bool)


def inverse_dynamics_constraints(tree: RigidBodyTree, q: ArrayLike, qd: ArrayLike | None = None,
                                 qdd: ArrayLike | None = None,
                                 fext: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(τ, λ)``: the torques of the actuated joints (one per degree of freedom, 0 for passive
    ones) and the constraint forces that give the looped tree the motion ``(q, q̇, q̈)`` (see the
    module docstring). Raises :class:`LoopClosureError` when ``q̇`` or ``q̈`` leave a loop open,
    or when the actuated joints cannot produce the motion (too few, or at a singularity)."""
    Q = tree.one_config(q)
    plan = _rbd.dynamics_plan(tree)
    qd_, qdd_ = _rbd._rates(tree, plan, qd, "qd", ()), _rbd._rates(tree, plan, qdd, "qdd", ())
    tau = _rbd.inverse_dynamics(tree, Q, qd_, qdd_, fext)
    if not tree._loops:
        return tau, np.zeros(0)
    _closed(tree, Q)
    _, J, bias = _loop_terms(tree, plan, _rbd._poses(tree, Q, plan), qd_)
    starts = loop_rows(tree, Q)[2]
    jn = float(np.abs(J).max(initial=0.0))
    for name, value, scale in (("qd", J @ qd_, jn * float(np.abs(qd_).max(initial=0.0))),
                               ("qdd", J @ qdd_ + bias, jn * float(np.abs(qdd_).max(initial=0.0))
                                + float(np.abs(bias).max(initial=0.0)))):
        bad = np.abs(value)
        if bad.max(initial=0.0) > RATE_TOL * (1.0 + scale):
            k = int(np.searchsorted(starts, int(np.argmax(bad)), side="right")) - 1
            raise LoopClosureError(f"{name} leaves loop {list(tree._loops)[k]!r} open: its equations' rate is "
                                   f"{float(bad.max()):.3g} (tolerance {RATE_TOL:g}·(1 + {scale:.3g})); give "
                                   "rates the closed mechanism can have")
    return actuator_split(J, actuated_dofs(tree), tau)


def actuator_split(J: np.ndarray, act: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(τ, λ)`` with ``τ`` zero where ``act`` is False and ``τ + Jᵀλ = tau`` (the open tree's
    inverse dynamics), least-norm when not unique; raises :class:`LoopClosureError` when none fits."""
    Ur = _independent(J)
    A = np.hstack([np.eye(tau.size)[:, act], (Ur.T @ J).T])
    x = np.linalg.lstsq(A, tau, rcond=None)[0]
    miss = float(np.abs(A @ x - tau).max(initial=0.0))
    if miss > 1e-9 * (1.0 + float(np.abs(tau).max(initial=0.0))):
        raise LoopClosureError(f"the actuated joints cannot produce this motion: {miss:.3g} N·m (or N) of the "
                               "joint torques is left that neither they nor the loops carry (too few actuated "
                               "joints, or a singular configuration)")
    out = np.zeros_like(tau)
    out[act] = x[: int(act.sum())]
    return out, Ur @ x[int(act.sum()):]


def check_start(tree: RigidBodyTree, q: np.ndarray, qd: np.ndarray) -> None:
    """Refuse a simulation state the loops leave open, in position or velocity (never moved
    silently): :class:`LoopClosureError` naming the loop. Nothing for a tree without loops."""
    if not tree._loops:
        return
    _closed(tree, q)
    _, J, starts = loop_rows(tree, q)
    bad = np.abs(J @ qd)
    if bad.max(initial=0.0) > 1e-9 * (1.0 + float(np.abs(qd).max(initial=0.0))):
        k = int(np.searchsorted(starts, int(np.argmax(bad)), side="right")) - 1
        raise LoopClosureError(f"the velocities leave loop {list(tree._loops)[k]!r} open (its equations "
                               f"change at {float(bad.max()):.3g}/s): start from velocities the closed "
                               "mechanism can have, e.g. at rest")


def project_state(tree: RigidBodyTree, q: np.ndarray, v: np.ndarray, mass) -> tuple[np.ndarray, np.ndarray]:
    """After a simulation step: ``q`` put back on the loops (Gauss–Newton, least-norm over every
    joint: the dynamics does not care which joints are actuated, and unlike
    :func:`~kinetree.core.kinematics.loops.solve_loops` it has no singular toggle positions) and ``v``
    projected on ``J q̇ = 0`` in the mass metric (an inelastic constraint impulse), so the loops
    stay closed to ~1e-13. ``mass(q)``: the mass matrix."""
    # without quaternion joints the positions' Jacobian is the velocities': the last one serves both
    same, Jv = tree.position_count == tree.dof_count, None
    zero = np.zeros(tree.dof_count)
    for _ in range(8):
        terms = compiled_terms(tree, q, zero) if same else None
        r, J, _ = terms if terms is not None else loop_rows(tree, q, "positions")
        if float(np.abs(r).max(initial=0.0)) <= 1e-14:
            Jv = J if same else None
            break
        q = q - np.linalg.lstsq(J, r, rcond=None)[0]
    if Jv is None:
        Jv = loop_rows(tree, q)[1]
    M = mass(q)
    return q, _kkt(M, M @ v, Jv, np.zeros(Jv.shape[0]))[0]
