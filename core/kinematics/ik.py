"""Inverse kinematics: the joint positions that put a body at a target pose.

Levenberg–Marquardt on the geometric Jacobian, after Sugihara ("Solvability-unconcerned inverse
kinematics by the Levenberg–Marquardt method", IEEE T-RO 2011): the damping is ``c·E + w̄``,
``E`` half the weighted squared error, so it vanishes at a solution and the last steps are
Gauss–Newton steps (quadratic convergence, also near singular poses, where a fixed damping
crawls). A step that does not lower ``E`` is rejected and ``c`` grows; an accepted one shrinks
it. Every step is projected onto the joint limits: revolute positions wrap by 2π where that
lands inside, the others are clipped, and the columns clipped are held at their bound while
the rest of the step is solved again. An attempt that stalls ends, and the next starts from a
random in-limit configuration.

Conventions (as MATLAB's ``inverseKinematics``): the error is ``[ω; Δp]`` in the base frame,
``ω`` the rotation vector taking the body's orientation to the target's and ``Δp`` the
position difference; ``weights`` scale its six components, orientation first. A zero weight
drops a component: ``(0, 0, 0, 1, 1, 1)`` solves for the position only.

Configuration vectors hold the positions of the leaders only; a mimic joint on the path adds
``multiplier ×`` its column to its leader's (as :meth:`KinematicPlan.jacobian` does). Only the
positions that move the body are changed: every other position keeps its value in ``q0``.
Quaternion positions (floating and spherical joints) are solved too, on a slower generic path:
the step is taken in the four components and the quaternion normalised again after it.

Chains of revolute, prismatic and fixed joints (the common case) use :class:`_Chain`, a
specialised single-body FK + Jacobian: the fixed transforms between joints are merged once, so
one evaluation is a few vector operations and one 4×4 product per joint.
"""

from __future__ import annotations

import copy
import math
import weakref
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidIKOptionError, InvalidTransformError, LoopClosureError
from ..model.configuration import finite_range
from ..model.limits import limit_arrays
from ..transforms import MAX_LENGTH, validate_transform
from .plan import _E, _K, _K2

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

#: Sugihara's w̄, the damping left at a solution: tiny against the squared Jacobian of a metre-scale
#: arm (1e-4 made targets near shoulder singularities converge too slowly to be found at all).
DAMPING = 1e-9
#: An attempt ends when its best error has not halved (``_STALL``) in ``_PATIENCE`` iterations.
_STALL = 0.5
_PATIENCE = 8
#: ``c``: start, factor on a rejected step, factor on an accepted step, floor (tuned on the
#: benchmark's robots by the number of FK evaluations per solve; all solved either way).
_C_START, _GROW, _SHRINK, _C_MIN = 0.1, 10.0, 0.3, 1e-3
_TWO_PI = 2.0 * math.pi


@dataclass(frozen=True)
class IKResult:
    """What :func:`inverse_kinematics` found: the best configuration over all attempts."""

    #: full configuration vector (positions of the joints that do not move the body are q0's)
    q: np.ndarray
    #: both weighted errors within the tolerance
    success: bool
    #: distance from the body's origin to the target's (m)
    position_error: float
    #: angle of the rotation from the body's orientation to the target's (rad)
    orientation_error: float
    #: Levenberg–Marquardt iterations over all attempts
    iterations: int
    #: attempts made: 1 + the random restarts used
    attempts: int = 1


def _rotation_error(M: np.ndarray) -> tuple[list[float], float]:
    """Rotation vector ``ω`` and angle of the rotation matrix ``M`` (``exp([ω]) = M``)."""
    (a, b, c), (d, e, f), (g, h, i) = M.tolist()
    vx, vy, vz = h - f, c - g, d - b  # 2 sinθ · axis
    s = 0.5 * math.sqrt(vx * vx + vy * vy + vz * vz)
    co = 0.5 * (a + e + i - 1.0)
    theta = math.atan2(s, co)
    if s > 1e-6 or co > 0.0:
        k = theta / (2.0 * s) if s > 1e-12 else 0.5  # θ / (2 sinθ) → 1/2 at θ = 0
        return [vx * k, vy * k, vz * k], theta
    # θ near π: M ≈ 2kkᵀ − I, so the axis is the largest column of (M + I)/2
    S = (M + np.eye(3)) * 0.5
    j = int(np.argmax(np.diag(S)))
    axis = S[:, j] / math.sqrt(max(S[j, j], 1e-300))
    axis /= np.linalg.norm(axis)
    if axis @ (vx, vy, vz) < 0:
        axis = -axis
    return (theta * axis).tolist(), theta


class _Chain:
    """FK and Jacobian of one body whose path from the base holds only revolute, prismatic and
    fixed joints, in the coordinates ``x`` (the positions that move the body)."""

    def __init__(self, plan, path: list[int], col: dict[int, int]) -> None:
        pending = np.eye(4)
        Ls, entries = [], []
        for i in path:
            if plan.kind[i] == "fixed":
                pending = pending @ plan.A[i]  # a fixed joint's B is the identity
            else:
                Ls.append(pending @ plan.A[i])
                entries.append(i)
                pending = plan.B[i]
        m = self.m = len(entries)
        self.first = Ls[0] if m else pending
        N = np.array(Ls[1:] + [pending]) if m else np.zeros((0, 4, 4))
        self.N16 = N.reshape(m, 16)
        self.KN, self.K2N, self.EN = ((P @ N).reshape(m, 16) for P in (_K, _K2, _E))
        rev = np.array([plan.kind[i] == "rz" for i in entries], dtype=bool)
        self.rev, self.pri = rev.astype(float), (~rev).astype(float)
        self.pri_rows = np.flatnonzero(~rev)
        self.col = np.array([col[int(plan.qi[i])] for i in entries], dtype=int)
        self.gain = np.array([plan.mimics[i][1] if i in plan.mimics else 1.0 for i in entries])
        self.offset = np.array([plan.rev_off[list(plan.rev).index(i)] if plan.kind[i] == "rz"
                                else plan.pri_off[list(plan.pri).index(i)] for i in entries])
        self.plain = bool(np.all(self.gain == 1.0))
        self.S = np.zeros((m, len(col)))  # path entry → column, with the mimic's multiplier
        self.S[np.arange(m), self.col] = self.gain
        self.identity = self.S.shape == (m, m) and bool(np.array_equal(self.S, np.eye(m)))

    def pose(self, x: np.ndarray) -> tuple[np.ndarray, list | None]:
        """Pose of the body at ``x``, and the frames of its joints for :meth:`jacobian` (returned,
        not kept: a cached chain may serve two threads)."""
        m = self.m
        if m == 0:
            return self.first, None
        th = x[self.col] if self.plain else x[self.col] * self.gain
        th = th + self.offset
        # Rz(θ)·N = N + sinθ·K·N + (1 − cosθ)·K²·N, Tz(d)·N = N + d·E·N (np.dot: 4×4 products
        # cost half of what matmul's ufunc machinery does)
        if self.pri_rows.size:
            s, v, d = np.sin(th) * self.rev, (1.0 - np.cos(th)) * self.rev, th * self.pri
            ML = self.N16 + s[:, None] * self.KN + v[:, None] * self.K2N + d[:, None] * self.EN
        else:
            ML = self.N16 + np.sin(th)[:, None] * self.KN + (1.0 - np.cos(th))[:, None] * self.K2N
        dot = np.dot
        a = self.first
        X = [a]
        for M in ML.reshape(m, 4, 4):
            a = dot(a, M)
            X.append(a)
        return a, X

    def jacobian(self, frames: list | None) -> np.ndarray:
        """6×n Jacobian (angular rows first, base frame) from the frames :meth:`pose` returned."""
        m = self.m
        if m == 0:
            return np.zeros((6, self.S.shape[1]))
        F = np.array(frames)
        Zt = F[:m, :3, 2].T
        z0, z1, z2 = Zt
        d0, d1, d2 = F[m, :3, 3, None] - F[:m, :3, 3].T  # joint origin → body origin
        Jp = np.empty((6, m))
        Jp[:3] = Zt
        Jp[3] = z1 * d2 - z2 * d1
        Jp[4] = z2 * d0 - z0 * d2
        Jp[5] = z0 * d1 - z1 * d0
        if self.pri_rows.size:  # a prismatic joint moves along its axis and does not turn
            Jp[3:, self.pri_rows] = Zt[:, self.pri_rows]
            Jp[:3, self.pri_rows] = 0.0
        return Jp if self.identity else np.dot(Jp, self.S)


class _Generic:
    """FK and Jacobian through the whole-tree plan: any joint types (quaternions included)."""

    def __init__(self, plan, body: int, q0: np.ndarray, active: np.ndarray) -> None:
        self.plan, self.body, self.q, self.active = plan, body, q0.copy(), active

    def pose(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        q = self.q.copy()
        q[self.active] = x
        return self.plan.fk_single(q)[self.body], q

    def jacobian(self, q: np.ndarray) -> np.ndarray:
        return self.plan.jacobian(q, self.body)[:, self.active]


class _Problem:
    """Everything about (tree, body) that does not depend on the target: built once per tree
    revision and body, and kept (a GUI drag solves the same problem at every mouse move)."""

    def __init__(self, tree: RigidBodyTree, body: int) -> None:
        plan = tree.kinematic_plan()
        path = []
        i = body
        while i >= 0:
            path.append(i)
            i = int(plan.parent[i])
        path.reverse()
        widths = {"floating": 7, "spherical": 4, "planar": 3}
        cols: set[int] = set()
        quats: list[int] = []
        for i in path:
            k = plan.kind[i]
            if k in ("rz", "tz"):
                cols.add(int(plan.qi[i]))
            elif k in widths or k == "composite":
                start = int(plan.qi[i])
                cols.update(range(start, start + plan.width(i)))
                if k in ("floating", "spherical"):
                    quats.append(start)
        self.active = np.array(sorted(cols), dtype=int)
        col = {c: n for n, c in enumerate(self.active.tolist())}
        self.quats = [np.arange(col[s], col[s] + 4) for s in quats]
        self.fast = all(plan.kind[i] in ("rz", "tz", "fixed") for i in path)
        self.chain = _Chain(plan, path, col) if self.fast else None
        self.plan, self.body = plan, body
        lo, hi, angle = limit_arrays(tree)
        home = tree.home_configuration()
        a = self.active
        self.lo, self.hi = lo[a], hi[a]
        # the window random restarts draw from: the limits, or home ± π (± 1 m) where unbounded
        self.sample = np.array([finite_range(lo[c], hi[c], home[c], "angle" if angle[c] else "length")
                                for c in a.tolist()]).reshape(-1, 2)
        # revolute columns may move by 2π to get back within their limits: every joint that
        # follows them on the path is revolute with an integer multiplier
        wrap = np.zeros(a.size, dtype=bool)
        if self.fast and self.chain.m:
            ok = {}
            for c, g, r in zip(self.chain.col.tolist(), self.chain.gain.tolist(), self.chain.rev.tolist()):
                ok[c] = ok.get(c, True) and r and float(g).is_integer()
            for c, v in ok.items():
                wrap[c] = v
        self.wrap = wrap & (np.isfinite(self.lo) | np.isfinite(self.hi))

    def project(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """``x`` within the limits (wrapped by 2π where that lands inside, clipped otherwise)
        and the mask of the clipped columns (None when none was)."""
        lo, hi = self.lo, self.hi
        out = (x < lo) | (x > hi)
        clipped = None
        if out.any():
            w = out & self.wrap
            if w.any():
                k = np.where(x > hi, np.ceil((x - hi) / _TWO_PI), -np.ceil((lo - x) / _TWO_PI))
                y = x - k * _TWO_PI
                inside = w & (y >= lo) & (y <= hi)
                x = np.where(inside, y, x)
                out &= ~inside
            if out.any():
                x = np.clip(x, lo, hi)
                clipped = out
        for r in self.quats:
            x[r] /= np.linalg.norm(x[r])
        return x, clipped

    def step(self, x: np.ndarray, H: np.ndarray, g: np.ndarray) -> np.ndarray:
        """The damped step ``H·dx = g`` from ``x``, projected onto the limits. Columns the
        projection clips stay at their bound and the others are solved again without them
        (a plain clip would lose the step's coordination, and the solver would crawl along the
        bound)."""
        try:
            xn, clipped = self.project(x + np.linalg.solve(H, g))
        except np.linalg.LinAlgError:  # singular to rounding (huge lengths): no step, more damping
            return x
        fixed = clipped
        for _ in range(3):
            if clipped is None or fixed.all():
                break
            free = ~fixed
            d = xn - x
            Hf = H[free]
            rhs = g[free] - Hf[:, fixed] @ d[fixed]
            xt = xn.copy()
            try:
                xt[free] = x[free] + np.linalg.solve(Hf[:, free], rhs)
            except np.linalg.LinAlgError:
                break
            xn, clipped = self.project(xt)
            if clipped is not None:
                fixed = fixed | clipped
        return xn

    def random(self, rng: np.random.Generator) -> np.ndarray:
        lo, hi = self.sample[:, 0], self.sample[:, 1]
        x = lo + (hi - lo) * rng.random(lo.size)
        for r in self.quats:
            v = rng.normal(size=4)
            x[r] = v / np.linalg.norm(v)
        return np.clip(x, self.lo, self.hi)


_PROBLEMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _problem(tree: RigidBodyTree, body: int) -> _Problem:
    rev, cache = _PROBLEMS.get(tree, (None, None))
    if rev != tree.revision:
        cache = {}
        _PROBLEMS[tree] = (tree.revision, cache)
    p = cache.get(body)
    if p is None:
        p = cache[body] = _Problem(tree, body)
    return p


def _locked(prob: _Problem, tree: RigidBodyTree, joints: Iterable[str], q: np.ndarray) -> _Problem:
    """A copy of ``prob`` whose columns of ``joints`` are held at their values in ``q`` (as
    limits with lower = upper: every step clips them and solves the rest without them)."""
    if isinstance(joints, str):
        raise InvalidIKOptionError(f"locked must be joint names, not the string {joints!r:.80}")
    cols = {c for name in joints for c in range(*tree.position_index(name).indices(q.size))}
    mask = np.isin(prob.active, sorted(cols))
    if not mask.any():
        return prob
    prob = copy.copy(prob)
    held = np.clip(q[prob.active], prob.lo, prob.hi)
    prob.lo, prob.hi = np.where(mask, held, prob.lo), np.where(mask, held, prob.hi)
    prob.sample = np.where(mask[:, None], held[:, None], prob.sample)
    prob.wrap = prob.wrap & ~mask
    return prob


def _weights(weights: ArrayLike | None) -> np.ndarray:
    if weights is None:
        return np.ones(6)
    try:
        w = np.array(weights, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidIKOptionError(f"weights must be 6 numbers, got {weights!r:.80}") from None
    if w.size != 6:
        raise InvalidIKOptionError(f"weights must be 6 numbers (orientation x y z, position x y z), got {w.size}")
    if not np.isfinite(w).all() or (w < 0).any():
        raise InvalidIKOptionError(f"weights must be finite and >= 0, got {w.tolist()}")
    if not w.any():
        raise InvalidIKOptionError("weights are all zero: nothing to solve for")
    return w


def _count(value: int, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
        raise InvalidIKOptionError(f"{what} must be an integer >= {least}, got {value!r:.40}")
    return int(value)


def inverse_kinematics(tree: RigidBodyTree, body: str, target: ArrayLike, q0: ArrayLike | None = None, *,
                       weights: ArrayLike | None = None, max_iterations: int = 100, restarts: int = 50,
                       tolerance: float = 1e-6, rng: np.random.Generator | int | None = None,
                       locked: Iterable[str] = ()) -> IKResult:
    """Joint positions that put ``body`` at the pose ``target`` (4×4, base frame).

    Starts from ``q0`` (default: home; clipped into the limits), then from up to ``restarts``
    random in-limit configurations while an attempt fails; each attempt runs at most
    ``max_iterations`` Levenberg–Marquardt steps. Every returned ``q`` is within the limits.
    ``success`` means the weighted components of the error are within ``tolerance`` (metres for
    the position, radians for the orientation); otherwise ``q`` is the best attempt's.
    ``weights``: 6 values ≥ 0, orientation x y z then position x y z (default all 1); zero
    drops a component. ``rng``: a seed or Generator for the restarts; ``None`` is seed 0, so
    a call always gives the same answer. ``locked``: joints whose positions keep their ``q0``
    values (e.g. those that move a reference frame the target is given in).

    Raises :class:`UnknownBodyError` (body), :class:`InvalidTransformError` (target),
    :class:`InvalidConfigurationError` (q0), :class:`LoopClosureError` (a tree with closed loops:
    :meth:`~kinetree.core.tree.RigidBodyTree.loop_ik` keeps them closed) or
    :class:`InvalidIKOptionError` (the rest)."""
    b = tree.index_of(body)
    if b < 0:
        raise InvalidIKOptionError(f"{body!r} is the base: it cannot move")
    if tree._loops:  # the open tree's solution would leave them open, and say success
        raise LoopClosureError(f"inverse_kinematics for body {body!r}: the tree has closed loops "
                               f"({', '.join(map(repr, tree._loops))}) that it would leave open: use "
                               "loop_ik (tree.loop_ik(body, target, q0)), which keeps every loop closed")
    T = validate_transform(target, f"IK target for body {body!r}")
    if np.abs(T[:3, 3]).max() > MAX_LENGTH:  # as every length in a tree: squares must not overflow
        raise InvalidTransformError(f"IK target for body {body!r}: position {T[:3, 3].tolist()} is beyond "
                                    f"±{MAX_LENGTH:g} m")
    w = _weights(weights)
    max_iterations = _count(max_iterations, "max_iterations", 1)
    restarts = _count(restarts, "restarts", 0)
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and tolerance > 0):
        raise InvalidIKOptionError(f"tolerance must be a finite number > 0, got {tolerance!r:.40}")
    if rng is None:
        rng = 0
    if isinstance(rng, bool) or not isinstance(rng, (int, np.integer, np.random.Generator)):
        raise InvalidIKOptionError(f"rng: {rng!r:.80} is not a seed (int) or a numpy Generator")
    if isinstance(rng, (int, np.integer)) and rng < 0:
        raise InvalidIKOptionError(f"rng: seed {rng} is negative")
    generator = rng if isinstance(rng, np.random.Generator) else None  # made at the first restart
    q = tree.home_configuration() if q0 is None else tree.config_to_vector(q0).copy()

    prob = _problem(tree, b)
    if locked:
        prob = _locked(prob, tree, locked, q)
    solver = prob.chain if prob.fast else _Generic(prob.plan, b, q, prob.active)
    Rt = T[:3, :3].copy()
    px, py, pz = T[:3, 3].tolist()
    wl = w.tolist()
    rot_all, pos_all = all(w[:3] > 0), all(w[3:] > 0)
    rot_mask, pos_mask = w[:3] > 0, w[3:] > 0
    n = prob.active.size
    stop = tolerance * 1e-3  # one more step from here costs little and leaves margin for rounding

    def errors(Tc: np.ndarray) -> tuple[np.ndarray, float, bool, bool, float, float]:
        """(error vector, weighted cost E, within the tolerance, within ``stop``, angle, distance)."""
        omega, angle = _rotation_error(np.dot(Rt, Tc[:3, :3].T))
        x, y, z = Tc[:3, 3].tolist()
        ev = [*omega, px - x, py - y, pz - z]
        E = 0.5 * sum(wi * v * v for wi, v in zip(wl, ev))
        dist = math.sqrt(ev[3] * ev[3] + ev[4] * ev[4] + ev[5] * ev[5])
        e = np.array(ev)
        er = angle if rot_all else float(np.linalg.norm(e[:3][rot_mask]))
        ep = dist if pos_all else float(np.linalg.norm(e[3:][pos_mask]))
        return e, E, er <= tolerance and ep <= tolerance, er <= stop and ep <= stop, angle, dist

    best = None  # (ok, cost, x, angle, dist): a solution within the tolerance beats any that is not
    iterations = attempts = 0
    x0 = prob.project(q[prob.active].copy())[0]
    for attempt in range(restarts + 1):
        attempts += 1
        if attempt:
            if generator is None:  # most solves need no restart, and a Generator costs 15 µs
                generator = np.random.default_rng(rng)
            x = prob.random(generator)
        else:
            x = x0
        Tc, ctx = solver.pose(x)
        e, E, ok, done, angle, dist = errors(Tc)
        J = None  # the Jacobian at x, computed when a step needs it
        c = _C_START  # multiplies the damping: grows on a rejected step, shrinks on an accepted one
        att_best, since = E, 0
        for _ in range(max_iterations):
            if done or n == 0:
                break
            iterations += 1
            if J is None:
                J = solver.jacobian(ctx)
            JW = J.T * w
            H = np.dot(JW, J)
            H.reshape(-1)[:: n + 1] += c * E + DAMPING  # the diagonal, as a view
            xn = prob.step(x, H, np.dot(JW, e))
            Tc, ctxn = solver.pose(xn)
            en, En, okn, donen, anglen, distn = errors(Tc)
            if En < E:
                x, e, E, ok, done, angle, dist = xn, en, En, okn, donen, anglen, distn
                ctx, J = ctxn, None
                c = max(c * _SHRINK, _C_MIN)
            else:
                c *= _GROW
            if E < att_best * _STALL:
                att_best, since = E, 0
            else:
                since += 1
                if since >= _PATIENCE:
                    break
        if best is None or (ok, -E) > (best[0], -best[1]):
            best = (ok, E, x, angle, dist)
        if ok or n == 0:
            break
    ok, _, x, angle, dist = best
    q[prob.active] = x
    return IKResult(q=q, success=bool(ok), position_error=dist, orientation_error=angle,
                    iterations=iterations, attempts=attempts)
