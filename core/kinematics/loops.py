"""Closed kinematic loops on a rigid body tree (RBDL's loop constraints, kinematics only).

A loop joins a frame on body ``a`` and a frame on body ``b`` (each a fixed 4×4 offset from its
body) that the tree alone does not hold together. With ``Fa = T_a·Xa`` and ``Fb = T_b·Xb`` in
the base frame, ``R = Raᵀ·Rb`` and ``d = pb − pa``, the residual of each kind is:

* ``ball`` (3): ``d`` — the two points coincide;
* ``hinge`` (5): ``d``, ``R[0,2]``, ``R[1,2]`` — and the z axes are parallel;
* ``slider`` (5): ``xa·d``, ``ya·d``, ``R[0,2]``, ``R[1,2]``, ``R[1,0]`` — z axes parallel, no
  turn about z, the points apart along z only;
* ``weld`` (6): ``d``, ``R[0,2]``, ``R[1,2]``, ``R[1,0]``.

Each rotation row ``ea_i·eb_j`` has the derivative ``(ea_i × eb_j)·(ωa − ωb)``, so the constraint
Jacobian is built from the two bodies' geometric Jacobians. The rotation rows are zero for a
half turn too (z axes anti-parallel): the solver works locally, warm-started from the given
configuration, and never jumps there from near the closed assembly.

:func:`solve_loops` keeps the actuated joints and solves the passive ones (Gauss–Newton with a
backtracking line search on the residual); :func:`loop_ik` solves an end-effector target over
every joint with the loop rows added, for parallel robots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .. import compiled_warmup
from ..errors import (
    FileFormatError,
    InvalidConfigurationError,
    InvalidIKOptionError,
    InvalidPropertyError,
    LoopClosureError,
)
from ..lazy import LazyImports
from ..names import text_problem
from ..transforms import MAX_LENGTH, validate_transform
from .plan import compiled_backend

if TYPE_CHECKING:
    from ..model.body import RigidBody
    from ..model.configuration import Configuration
    from ..tree import RigidBodyTree

__all__ = ["CLOSED_TOL", "LOOP_KINDS", "Loop", "loop_ik", "solve_loops"]

#: Equations per loop kind.
LOOP_KINDS = {"ball": 3, "hinge": 5, "slider": 5, "weld": 6}
#: Largest loop residual a kinematics call accepts on a looped tree.
CLOSED_TOL = 1e-9
#: Below this ratio of the passive Jacobian's smallest to largest singular value the
#: configuration is singular (two assembly branches meet).
SINGULAR_RATIO = 1e-6
MAX_LOOPS = 1000
#: the compiled solver imports numba (~0.3 s): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"loops_numba": ".loops_compiled"})
_ROT = {"ball": (), "hinge": ((0, 2), (1, 2)), "slider": ((0, 2), (1, 2), (1, 0)), "weld": ((0, 2), (1, 2), (1, 0))}


@dataclass(frozen=True, eq=False)
class Loop:
    """A loop-closure constraint (read-only): ``frame_a`` on ``body_a`` meets ``frame_b`` on ``body_b``."""

    name: str
    body_a: str
    frame_a: np.ndarray = field(repr=False)
    body_b: str
    frame_b: np.ndarray = field(repr=False)
    kind: str

    @property
    def equation_count(self) -> int:
        return LOOP_KINDS[self.kind]


class _Record:
    """A loop as the tree keeps it: body objects, so renames and replacements follow."""

    __slots__ = ("a", "b", "kind", "name", "xa", "xb")

    def __init__(self, name: str, a: RigidBody, xa: np.ndarray, b: RigidBody, xb: np.ndarray, kind: str) -> None:
        self.name, self.a, self.xa, self.b, self.xb, self.kind = name, a, xa, b, xb, kind

    def public(self) -> Loop:
        return Loop(self.name, self.a.name, self.xa.copy(), self.b.name, self.xb.copy(), self.kind)


def make_record(tree: RigidBodyTree, name: str, body_a: str, frame_a: ArrayLike, body_b: str,
                frame_b: ArrayLike, kind: str) -> _Record:
    """A checked loop record for ``tree`` (names, kind, frames; the two bodies must differ)."""

    if not isinstance(name, str):
        raise InvalidPropertyError(f"loop name must be text, got {name!r:.80}")
    if problem := text_problem(name):
        raise InvalidPropertyError(f"loop name {problem}")
    if name in tree._loops:
        raise InvalidPropertyError(f"a loop named {name!r} already exists")
    if len(tree._loops) >= MAX_LOOPS:
        raise InvalidPropertyError(f"loop {name!r}: a tree holds at most {MAX_LOOPS} loops")
    if not isinstance(kind, str) or kind not in LOOP_KINDS:
        raise InvalidPropertyError(f"loop {name!r}: unknown kind {kind!r:.80}; expected one of {', '.join(LOOP_KINDS)}")
    a, b = tree.get_body(body_a), tree.get_body(body_b)
    if a is b:
        raise InvalidPropertyError(f"loop {name!r}: both frames are on body {body_a!r}; a loop joins two bodies")
    xa = validate_transform(frame_a, f"loop {name!r}: frame_a")
    xb = validate_transform(frame_b, f"loop {name!r}: frame_b")
    for key, X in (("frame_a", xa), ("frame_b", xb)):
        if np.abs(X[:3, 3]).max() > MAX_LENGTH:
            raise InvalidPropertyError(f"loop {name!r}: {key} is {np.abs(X[:3, 3]).max():g} m from its body, "
                                       f"more than {MAX_LENGTH:g} m")
    return _Record(name, a, xa, b, xb, kind)


def refuse_loops(tree: RigidBodyTree, fmt: str) -> None:
    """Raise :class:`FileFormatError` when ``tree`` has loops or passive joints, which a file of
    format ``fmt`` cannot hold (a writer refuses rather than drop them)."""
    if tree._loops:
        names = ", ".join(repr(n) for n in list(tree._loops)[:5]) + (" …" if len(tree._loops) > 5 else "")
        raise FileFormatError(f"{fmt} cannot hold closed loops ({names}): save a KineTree project "
                              "(.kinetree.json), which keeps them, or remove the loops first")
    passive = [b.joint.name for b in tree.bodies if not b.joint.actuated]
    if passive:
        raise FileFormatError(f"{fmt} cannot mark joints passive ({', '.join(map(repr, passive[:5]))}): save a "
                              "KineTree project (.kinetree.json), or make them actuated first")


# --- residual and Jacobian -----------------------------------------------------------------------
def _pose(tree: RigidBodyTree, T: np.ndarray, body: RigidBody) -> np.ndarray:
    """Poses ``(..., 4, 4)`` of ``body`` from all-body poses ``T`` (the base: identity)."""
    if body is tree.base:
        return np.broadcast_to(np.eye(4), T.shape[:-3] + (4, 4))
    return T[..., tree._bodies.index(body), :, :]


def _residual_one(rec: _Record, Fa: np.ndarray, Fb: np.ndarray) -> np.ndarray:
    """(..., m) residual of one loop from its frames ``Fa``, ``Fb`` (..., 4, 4)."""
    d = Fb[..., :3, 3] - Fa[..., :3, 3]
    Ra, Rb = Fa[..., :3, :3], Fb[..., :3, :3]
    rows = []
    if rec.kind == "slider":
        rows += [np.einsum("...i,...i->...", Ra[..., :, 0], d), np.einsum("...i,...i->...", Ra[..., :, 1], d)]
    else:
        rows += [d[..., 0], d[..., 1], d[..., 2]]
    rows += [np.einsum("...k,...k->...", Ra[..., :, i], Rb[..., :, j]) for i, j in _ROT[rec.kind]]
    return np.stack(rows, axis=-1)


def residuals_from_poses(tree: RigidBodyTree, T: np.ndarray) -> list[np.ndarray]:
    """Each loop's residual ``(..., m)`` for all-body poses ``T`` (one configuration or a batch)."""
    return [_residual_one(r, _pose(tree, T, r.a) @ r.xa, _pose(tree, T, r.b) @ r.xb) for r in tree._loops.values()]


def check_closed(tree: RigidBodyTree, T: np.ndarray) -> None:
    """Raise :class:`LoopClosureError` naming the worst loop when poses ``T`` leave a loop open by
    more than :data:`CLOSED_TOL` (only called on a tree with loops)."""
    for rec, r in zip(tree._loops.values(), residuals_from_poses(tree, T)):
        err = np.sqrt((r * r).sum(axis=-1))
        worst = float(err.max(initial=0.0))
        if not worst <= CLOSED_TOL:
            where = f" (configuration {int(np.argmax(err))} of the batch)" if err.ndim else ""
            raise LoopClosureError(f"loop {rec.name!r} is open by {worst:.3g}{where}, more than {CLOSED_TOL:g}: "
                                   "close the configuration with solve_loops first")


def _compiled():
    """:mod:`.loops_compiled` when numba is available, else None."""
    if compiled_backend() != "numba":
        return None
    return _LAZY.loops_numba  # numba's import: ~0.3 s, paid on the first compiled call only


def compiled_terms(tree: RigidBodyTree, q: np.ndarray,
                   qd: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The loops' residual, constraint Jacobian and ``J̇q̇`` at ``q``, ``qd`` from the compiled kernel
    (a tree of revolute, prismatic and fixed joints, numba available and the kernel compiled or
    allowed to compile now: :func:`~kinetree.core.compiled_warmup.may_compile`), else None."""
    mod = _compiled()
    if mod is None or not compiled_warmup.may_compile(mod._complex_terms):
        return None
    return mod.terms(tree, q, qd)


def require_closed(tree: RigidBodyTree, q: Configuration | None) -> None:
    """:func:`check_closed` for configuration(s) ``q`` (home when None): the check every public
    kinematics and dynamics call of a looped tree makes (only called on a tree with loops)."""
    Q = tree.config_array(tree.home_configuration() if q is None else q)
    plan = tree.kinematic_plan()
    check_closed(tree, plan.fk_single(Q) if Q.ndim == 1 else plan.fk_batch(Q))


def _point_jacobian(tree: RigidBodyTree, q: np.ndarray, T: np.ndarray, body: RigidBody, p: np.ndarray,
                    space: str) -> tuple[np.ndarray, np.ndarray]:
    """``(Jω, Jv)`` of point ``p`` (base frame) fixed on ``body``."""
    if body is tree.base:
        n = tree.position_count if space == "positions" else tree.dof_count
        return np.zeros((3, n)), np.zeros((3, n))
    J = tree._geometric_jacobian(q, body.name, space)  # unchecked: solver iterates are open
    o = T[tree._bodies.index(body), :3, 3]
    rx, ry, rz = p - o
    skew = np.array([[0.0, -rz, ry], [rz, 0.0, -rx], [-ry, rx, 0.0]])
    return J[:3], J[3:] - skew @ J[:3]


def jacobian_block(rec: _Record, Fa: np.ndarray, Fb: np.ndarray, wa: np.ndarray, va: np.ndarray, wb: np.ndarray,
                   vb: np.ndarray) -> np.ndarray:
    """One loop's Jacobian rows from its frames ``Fa``, ``Fb`` and their angular and point
    Jacobians ``(wa, va)``, ``(wb, vb)`` (3×n each; 3-vectors give the rows' rates instead)."""
    Jd = vb - va
    Ra, Rb = Fa[:3, :3], Fb[:3, :3]
    if rec.kind == "slider":
        d = Fb[:3, 3] - Fa[:3, 3]
        block = [cross3(Ra[:, i], d) @ wa + Ra[:, i] @ Jd for i in (0, 1)]
    else:
        block = list(Jd)
    block += [cross3(Ra[:, i], Rb[:, j]) @ (wa - wb) for i, j in _ROT[rec.kind]]
    return np.array(block)


def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a × b`` of two 3-vectors (numpy's cross costs ~10 µs of set-up on them)."""
    a0, a1, a2 = a.tolist()
    b0, b1, b2 = b.tolist()
    return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])


def rows(tree: RigidBodyTree, q: np.ndarray, space: str = "velocities") -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Stacked residual, constraint Jacobian and each loop's first row (one more at the end)."""
    T = tree.kinematic_plan().fk_single(q)
    res, jac, starts = [], [], [0]
    for rec in tree._loops.values():
        Fa, Fb = _pose(tree, T, rec.a) @ rec.xa, _pose(tree, T, rec.b) @ rec.xb
        res.append(_residual_one(rec, Fa, Fb))
        block = jacobian_block(rec, Fa, Fb, *_point_jacobian(tree, q, T, rec.a, Fa[:3, 3], space),
                               *_point_jacobian(tree, q, T, rec.b, Fb[:3, 3], space))
        jac.append(block)
        starts.append(starts[-1] + len(block))
    n = tree.position_count if space == "positions" else tree.dof_count
    J = np.concatenate(jac) if jac else np.zeros((0, n))
    return (np.concatenate(res) if res else np.zeros(0)), J, starts


# --- solving --------------------------------------------------------------------------------------
def _owner(tree: RigidBodyTree, starts: list[int], weights: np.ndarray) -> str:
    """The loop whose rows carry most of ``weights`` (one per row)."""
    names = list(tree._loops)
    mass = [float(np.sum(weights[starts[k]:starts[k + 1]] ** 2)) for k in range(len(names))]
    return names[int(np.argmax(mass))]


def passive_indices(tree: RigidBodyTree) -> np.ndarray:
    """Configuration indices of the passive joints."""
    return np.array([i for b, i in tree.position_slots() if not b.joint.actuated], dtype=int)


def _singular_loop(tree: RigidBodyTree, Jp: np.ndarray, starts: list[int]) -> str | None:
    """The loop at a singular configuration of the passive joints (their Jacobian rank-deficient)."""
    if Jp.shape[1] == 0:
        return None
    U, s, _ = np.linalg.svd(Jp, full_matrices=False)
    if Jp.shape[1] > Jp.shape[0] or s[-1] < SINGULAR_RATIO * max(s[0], 1e-300):
        return _owner(tree, starts, U[:, -1])
    return None


def solve_loops(tree: RigidBodyTree, q: Configuration, tol: float = 1e-12, max_iterations: int = 100,
                compiled: bool | None = None) -> np.ndarray:
    """The closed configuration reached from ``q`` with the actuated joints kept (see
    :meth:`~kinetree.core.tree.RigidBodyTree.solve_loops`). Passive joints the loops leave free
    (more passive joints than independent loop equations, such as a coupler's idle spin) make
    the passive Jacobian rank-deficient everywhere: reported as singular, keep one actuated.

    ``compiled``: None (default) solves a tree of revolute, prismatic and fixed joints in the
    compiled kernel (:mod:`.loops_numba`) when numba is available (in the app, once its warm-up
    has compiled it: :func:`~kinetree.core.compiled_warmup.may_compile`), False always in numpy."""
    if not (isinstance(tol, (int, float)) and 0 < tol < 1):
        raise InvalidIKOptionError(f"solve_loops: tol must be a number in (0, 1), got {tol!r:.80}")
    Q = tree.config_array(q)
    if Q.ndim != 1:
        raise InvalidConfigurationError("solve_loops takes one configuration, not a batch")
    x = np.array(Q, dtype=float)
    if not tree._loops:
        return x
    P = passive_indices(tree)
    loops_numba = _compiled() if compiled is not False and P.size else None
    if loops_numba is not None:
        if compiled or compiled_warmup.may_compile(loops_numba._solve):
            closed = loops_numba.solve(tree, x, P, tol, max_iterations, SINGULAR_RATIO)
            if closed is not None:
                return closed
    r, J, starts = rows(tree, x, "positions")
    err = float(np.linalg.norm(r))
    for _ in range(max_iterations):
        if err <= tol:
            break
        Jp = J[:, P]
        if P.size == 0:
            break
        step = np.linalg.lstsq(Jp, -r, rcond=None)[0]
        # a bounded step keeps to the branch of the start (no jump across to the other assembly)
        step *= min(1.0, 0.5 / max(float(np.abs(step).max()), 1e-300))
        t, better = 1.0, False
        while t > 1e-6:
            trial = x.copy()
            trial[P] += t * step
            r2, J2, _ = rows(tree, trial, "positions")
            e2 = float(np.linalg.norm(r2))
            if e2 < err:
                x, r, J, err, better = trial, r2, J2, e2, True
                break
            t *= 0.5
        if not better:
            break
    if P.size == 0 and err > tol:
        raise LoopClosureError(f"loop {_owner(tree, starts, r)!r} is open by {err:.3g} and no joint is passive: "
                               "mark the loop's unactuated joints passive (joint.actuated = False)")
    singular = _singular_loop(tree, J[:, P], starts)
    if err > tol:
        per = [float(np.linalg.norm(r[starts[k]:starts[k + 1]])) for k in range(len(tree._loops))]
        name = list(tree._loops)[int(np.argmax(per))]
        raise LoopClosureError(f"loop {name!r} cannot be assembled for these actuated joint values: residual "
                               f"{max(per):.3g} left (tolerance {tol:g})"
                               + (", the passive joints stretched to a singular configuration" if singular else ""))
    if singular is not None:
        raise LoopClosureError(f"loop {singular!r} is at a singular (toggle) configuration: the passive joints' "
                               "constraint Jacobian loses rank, so the assembly branch is undetermined here")
    return x


def loop_ik(tree: RigidBodyTree, body: str, target: ArrayLike, q0: Configuration | None = None, *,
            weights: ArrayLike = (1.0, 1.0, 1.0, 1.0, 1.0, 1.0), tol: float = 1e-12,
            max_iterations: int = 200) -> np.ndarray:
    """A closed configuration near ``q0`` (default: home) that puts ``body`` at pose ``target``
    (4×4, base frame): Gauss–Newton over every joint on the pose error (rows ``[rot; pos]``
    weighted by ``weights``, as :func:`~kinetree.core.kinematics.ik.inverse_kinematics`) with the loop rows
    added. Raises :class:`LoopClosureError` when target and loops cannot both be met."""
    Tt = validate_transform(target, "loop_ik: target")
    w = np.asarray(weights, dtype=float).reshape(-1)
    if w.shape != (6,) or not np.all(np.isfinite(w)) or np.any(w < 0):
        raise InvalidIKOptionError(f"loop_ik: weights must be 6 non-negative numbers, got {weights!r:.80}")
    x = np.array(tree.home_configuration() if q0 is None else tree.config_array(q0), dtype=float)
    k = tree.index_of(body)
    plan = tree.kinematic_plan()

    def errors(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        T = plan.fk_single(x)[k] if k >= 0 else np.eye(4)
        Re = Tt[:3, :3] @ T[:3, :3].T  # rotation still to do, base frame
        rot = 0.5 * np.array([Re[2, 1] - Re[1, 2], Re[0, 2] - Re[2, 0], Re[1, 0] - Re[0, 1]])
        pose = np.concatenate([rot, Tt[:3, 3] - T[:3, 3]]) * w
        r, J, _ = rows(tree, x, "positions")
        Jt = tree._geometric_jacobian(x, body) if k >= 0 else np.zeros((6, x.size))  # x may be open
        return np.concatenate([-pose, r]), np.vstack([Jt * w[:, None], J])

    e, J = errors(x)
    err = float(np.linalg.norm(e))
    for _ in range(max_iterations):
        if err <= tol:
            return x
        step = np.linalg.lstsq(J, -e, rcond=None)[0]
        step *= min(1.0, 0.5 / max(float(np.abs(step).max()), 1e-300))
        t = 1.0
        while t > 1e-6:
            e2, J2 = errors(x + t * step)
            if float(np.linalg.norm(e2)) < err:
                x, e, J, err = x + t * step, e2, J2, float(np.linalg.norm(e2))
                break
            t *= 0.5
        else:
            break
    if err <= tol:
        return x
    raise LoopClosureError(f"loop_ik: body {body!r} cannot reach the target with every loop closed "
                           f"(residual {err:.3g} left)")
