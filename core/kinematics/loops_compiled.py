"""Compiled :func:`~kinetree.core.kinematics.loops.solve_loops` for trees of revolute, prismatic and fixed
joints: the same Gauss–Newton iteration (bounded step, halving line search, the same singularity
test), with the forward kinematics of one configuration, the loop residual and the constraint
Jacobian computed in one compiled function instead of ~30 numpy calls per iteration. A warm
start on a Delta robot: ~1.3 ms in numpy, tens of µs here (tests/benchmarks/bench_loops.py).

The kernel only reports; whenever it does not end closed and regular, the numpy solver runs
again from the same start and raises its usual error naming the loop.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from .joint_codes import KIND_CODES as _KIND_CODES

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .plan import KinematicPlan

FIXED, RZ, TZ = _KIND_CODES["fixed"], _KIND_CODES["rz"], _KIND_CODES["tz"]
_KINDS = {"ball": 0, "hinge": 1, "slider": 2, "weld": 3}
_ROWS = np.array([3, 5, 5, 6], dtype=np.int64)


@nb.njit(cache=True)
def _mul(X, Y, out):  # pragma: no cover - compiled
    """out = X · Y for rigid 4×4 transforms (bottom row 0 0 0 1), written out: numba sends ``@``
    on small matrices to BLAS, whose call costs more than the arithmetic."""
    for i in range(3):
        x0, x1, x2, x3 = X[i, 0], X[i, 1], X[i, 2], X[i, 3]
        for j in range(4):
            out[i, j] = x0 * Y[0, j] + x1 * Y[1, j] + x2 * Y[2, j]
        out[i, 3] += x3
    out[3, 0], out[3, 1], out[3, 2], out[3, 3] = 0.0, 0.0, 0.0, 1.0


@nb.njit(cache=True)
def _poses(x, parent, kind, qi, gain, off, A, B, T, W, M, tmp):  # pragma: no cover - compiled
    """Body poses ``T`` and joint frames before the motion ``W`` (parent · A) for positions ``x``."""
    for k in range(parent.shape[0]):
        p = parent[k]
        if p < 0:
            W[k] = A[k]
        else:
            _mul(T[p], A[k], W[k])
        M[:, :] = 0.0
        M[0, 0] = M[1, 1] = M[2, 2] = M[3, 3] = 1.0
        if kind[k] == RZ:
            th = x[qi[k]] * gain[k] + off[k]
            c, s = np.cos(th), np.sin(th)
            M[0, 0], M[0, 1], M[1, 0], M[1, 1] = c, -s, s, c
        elif kind[k] == TZ:
            M[2, 3] = x[qi[k]] * gain[k] + off[k]
        _mul(W[k], M, tmp)
        _mul(tmp, B[k], T[k])


@nb.njit(cache=True)
def _frame(T, k, X, out):  # pragma: no cover - compiled
    if k < 0:
        out[:, :] = X
    else:
        _mul(T[k], X, out)


@nb.njit(cache=True)
def _residual_jacobian(x, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind, T, W):  # pragma: no cover
    """Stacked residual ``r`` (m,) and Jacobian ``J`` (m, n) of every loop at positions ``x``
    (real, or complex for :func:`_complex_terms`; ``T``, ``W`` of the same dtype)."""
    dt = x.dtype
    M, tmp, Fa, Fb = np.empty((4, 4), dt), np.empty((4, 4), dt), np.empty((4, 4), dt), np.empty((4, 4), dt)
    _poses(x, parent, kind, qi, gain, off, A, B, T, W, M, tmp)
    m = 0
    for i in range(la.shape[0]):
        m += _ROWS[lkind[i]]
    r = np.zeros(m, dt)
    J = np.zeros((m, n), dt)
    row = 0
    for i in range(la.shape[0]):
        _frame(T, la[i], Xa[i], Fa)
        _frame(T, lb[i], Xb[i], Fb)
        d0, d1, d2 = Fb[0, 3] - Fa[0, 3], Fb[1, 3] - Fa[1, 3], Fb[2, 3] - Fa[2, 3]
        kl = lkind[i]
        # the residual (as loops._residual_one)
        if kl == 2:
            r[row] = Fa[0, 0] * d0 + Fa[1, 0] * d1 + Fa[2, 0] * d2
            r[row + 1] = Fa[0, 1] * d0 + Fa[1, 1] * d1 + Fa[2, 1] * d2
            t0 = 2
        else:
            r[row], r[row + 1], r[row + 2] = d0, d1, d2
            t0 = 3
        pairs = ((0, 2), (1, 2), (1, 0))
        nrot = 0 if kl == 0 else (2 if kl == 1 else 3)
        for t in range(nrot):
            a, b = pairs[t]
            r[row + t0 + t] = Fa[0, a] * Fb[0, b] + Fa[1, a] * Fb[1, b] + Fa[2, a] * Fb[2, b]
        # the Jacobian: each joint on a's chain with sign −1 (ω: +1 in the rotation rows), on b's +1
        for side in range(2):
            k = la[i] if side == 0 else lb[i]
            sign = -1.0 if side == 0 else 1.0
            F = Fa if side == 0 else Fb
            px, py, pz = F[0, 3], F[1, 3], F[2, 3]
            while k >= 0:
                if kind[k] == RZ or kind[k] == TZ:
                    g = gain[k]
                    zx, zy, zz = W[k, 0, 2] * g, W[k, 1, 2] * g, W[k, 2, 2] * g
                    if kind[k] == RZ:  # ω = z, v = z × (p − o)
                        wx, wy, wz = zx, zy, zz
                        qx, qy, qz = px - W[k, 0, 3], py - W[k, 1, 3], pz - W[k, 2, 3]
                        vx, vy, vz = wy * qz - wz * qy, wz * qx - wx * qz, wx * qy - wy * qx
                    else:
                        wx, wy, wz = 0.0, 0.0, 0.0
                        vx, vy, vz = zx, zy, zz
                    c = qi[k]
                    if kl == 2:  # xa·d and ya·d: d moves by v_b − v_a, xa and ya turn with a
                        for e in range(2):
                            ex, ey, ez = Fa[0, e], Fa[1, e], Fa[2, e]
                            val = sign * (ex * vx + ey * vy + ez * vz)
                            if side == 0:  # (ea × d)·ωa
                                cx, cy, cz = ey * d2 - ez * d1, ez * d0 - ex * d2, ex * d1 - ey * d0
                                val += cx * wx + cy * wy + cz * wz
                            J[row + e, c] += val
                    else:
                        J[row, c] += sign * vx
                        J[row + 1, c] += sign * vy
                        J[row + 2, c] += sign * vz
                    for t in range(nrot):  # (ea_i × eb_j)·(ωa − ωb)
                        a, b = pairs[t]
                        ax, ay, az = Fa[0, a], Fa[1, a], Fa[2, a]
                        bx, by, bz = Fb[0, b], Fb[1, b], Fb[2, b]
                        cx, cy, cz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
                        J[row + t0 + t, c] -= sign * (cx * wx + cy * wy + cz * wz)
                k = parent[k]
        row += _ROWS[kl]
    return r, J


@nb.njit(cache=True)
def _complex_terms(x, v, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind):  # pragma: no cover
    """The loops' residual ``r``, Jacobian ``J`` and ``J̇v`` at positions ``x``, rates ``v``, from one
    complex-step evaluation at ``x + i·h·v``: its real part is ``(r, J)``, its imaginary part
    ``h·J̇`` (``J̇ = dJ/dt`` along ``v``) exact to rounding, no difference quotient (h = 1e-30)."""
    h = 1e-30
    nbod = parent.shape[0]
    z = x + 1j * h * v
    T = np.empty((nbod, 4, 4), np.complex128)
    W = np.empty((nbod, 4, 4), np.complex128)
    rc, Jc = _residual_jacobian(z, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind, T, W)
    m = rc.shape[0]
    r, J, bias = np.empty(m), np.empty((m, n)), np.zeros(m)
    for i in range(m):
        r[i] = rc[i].real
        for c in range(n):
            J[i, c] = Jc[i, c].real
            bias[i] += Jc[i, c].imag / h * v[c]
    return r, J, bias


@nb.njit(cache=True)
def kkt(M, rhs, J, gamma, ratio):  # pragma: no cover - compiled
    """``(x, λ)`` with ``M x = rhs + Jᵀλ`` and ``J x = gamma`` on the independent rows of ``J``
    (its left singular vectors above ``ratio`` of the largest), λ the least-norm one: the numpy
    ``dynamics.loops._kkt`` in one call. Raises ``np.linalg.LinAlgError`` when singular."""
    n, m = M.shape[0], J.shape[0]
    U, s, _ = np.linalg.svd(J, full_matrices=False)
    r = 0
    if s.size and s[0] > 0:
        for v in s:
            r += v > ratio * s[0]
    Ur = np.ascontiguousarray(U[:, :r])
    Jr = np.ascontiguousarray(Ur.T) @ J
    K = np.zeros((n + r, n + r))
    b = np.empty(n + r)
    K[:n, :n] = M
    K[:n, n:] = Jr.T
    K[n:, :n] = Jr
    b[:n] = rhs
    for i in range(r):
        acc = 0.0
        for k in range(m):
            acc += Ur[k, i] * gamma[k]
        b[n + i] = acc
    x = np.linalg.solve(K, b)
    return x[:n].copy(), Ur @ -x[n:]


@nb.njit(cache=True)
def _solve(x, P, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind, tol, max_iterations,
           singular_ratio):  # pragma: no cover - compiled
    """Gauss–Newton on the passive positions ``P`` (as loops.solve_loops). Returns the positions,
    the residual norm and whether the passive Jacobian is singular there."""
    nbod = parent.shape[0]
    T = np.empty((nbod, 4, 4))
    W = np.empty((nbod, 4, 4))
    r, J = _residual_jacobian(x, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind, T, W)
    err = np.sqrt(np.sum(r * r))
    for _ in range(max_iterations):
        if err <= tol:
            break
        Jp = np.ascontiguousarray(J[:, P])
        # the normal equations: a 10×10 solve costs a fraction of LAPACK's least squares; a
        # rank-deficient Jp (where they would fail) is singular and handed back to numpy anyway
        H = Jp.T @ Jp
        if Jp.shape[1] > Jp.shape[0] or not np.all(np.isfinite(H)):
            break
        step = np.linalg.solve(H + 1e-300 * np.eye(H.shape[0]), -(Jp.T @ r))
        if not np.all(np.isfinite(step)):
            break
        big = np.max(np.abs(step))
        step *= min(1.0, 0.5 / max(big, 1e-300))
        t, better = 1.0, False
        while t > 1e-6:
            trial = x.copy()
            trial[P] += t * step
            r2, J2 = _residual_jacobian(trial, n, parent, kind, qi, gain, off, A, B, la, lb, Xa, Xb, lkind, T, W)
            e2 = np.sqrt(np.sum(r2 * r2))
            if e2 < err:
                x, r, J, err, better = trial, r2, J2, e2, True
                break
            t *= 0.5
        if not better:
            break
    Jp = np.ascontiguousarray(J[:, P])
    singular = Jp.shape[1] > Jp.shape[0]
    if not singular:  # the singular values' squares: the Gram matrix's eigenvalues (ascending)
        lam = np.linalg.eigvalsh(Jp.T @ Jp)
        singular = np.sqrt(max(lam[0], 0.0)) < singular_ratio * max(np.sqrt(max(lam[-1], 0.0)), 1e-300)
    return x, err, singular


_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _arrays(tree: RigidBodyTree, plan: KinematicPlan) -> tuple | None:
    """The kernel's arrays for ``tree`` (kept per plan: a plan is rebuilt on every edit, loops
    included), or None when a joint is neither revolute, prismatic nor fixed."""
    hit = _CACHE.get(plan)
    if hit is not None:
        return hit[0]
    if any(k not in ("rz", "tz", "fixed") for k in plan.kind):
        data = None
    else:
        index = {b: i for i, b in enumerate(tree._bodies)}
        recs = list(tree._loops.values())
        data = (plan.parent.astype(np.int64), plan.kind_code.astype(np.int64), plan.qi.astype(np.int64),
                plan.gain.astype(float), plan.offset.astype(float), np.ascontiguousarray(plan.A),
                np.ascontiguousarray(plan.B),
                np.array([index.get(r.a, -1) for r in recs], dtype=np.int64),
                np.array([index.get(r.b, -1) for r in recs], dtype=np.int64),
                np.array([r.xa for r in recs]), np.array([r.xb for r in recs]),
                np.array([_KINDS[r.kind] for r in recs], dtype=np.int64))
    _CACHE[plan] = (data,)
    return data


def solve(tree: RigidBodyTree, x: np.ndarray, P: np.ndarray, tol: float, max_iterations: int,
          singular_ratio: float) -> np.ndarray | None:
    """The closed configuration from ``x`` (passive positions ``P``), or None when the kernel does
    not apply (a joint of another type) or does not end closed and regular (the caller's numpy
    solver then reports why)."""
    data = _arrays(tree, tree.kinematic_plan())
    if data is None or P.size == 0:
        return None
    try:
        out, err, singular = _solve(x.copy(), P.astype(np.int64), tree.position_count, *data, float(tol),
                                    int(max_iterations), float(singular_ratio))
    except np.linalg.LinAlgError:  # a singular normal matrix (the passive joints' Jacobian loses rank)
        return None
    return out if err <= tol and not singular else None


def terms(tree: RigidBodyTree, x: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The loops' residual, constraint Jacobian and bias ``J̇q̇`` (velocities ``v``) at positions
    ``x`` (:func:`_complex_terms`), or None when a joint is neither revolute, prismatic nor fixed
    (then positions and velocities may differ: the caller's numpy path serves)."""
    data = _arrays(tree, tree.kinematic_plan())
    if data is None:
        return None
    return _complex_terms(x, v, tree.position_count, *data)
