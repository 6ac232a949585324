"""The simulator's compiled fast path (optional, :mod:`~kinetree.core.simulation.simulator` runs the same
in Python without numba): projected Gauss–Seidel for Coulomb friction, and whole RK4 steps."""

from __future__ import annotations

import numba as nb
import numpy as np

from ..dynamics.compiled import _fk_into, _rnea, _scratch, _solve_factored, _unpack, crba, factor_into


@nb.njit(cache=True, nogil=True)
def pgs(A, w, lo, hi, p, tol, sweeps):  # pragma: no cover - compiled
    """Minimise ``½ pᵀ A p + pᵀ w`` over ``lo ≤ p ≤ hi`` (A symmetric positive definite) from
    ``p``, in place; returns the sweeps used."""
    n = p.shape[0]
    r = w + A @ p
    for sweep in range(sweeps):
        biggest = 0.0
        for j in range(n):
            new = min(max(p[j] - r[j] / A[j, j], lo[j]), hi[j])
            d = new - p[j]
            if d != 0.0:
                for i in range(n):
                    r[i] += A[i, j] * d
                p[j] = new
                biggest = max(biggest, abs(d) * A[j, j])
        if biggest <= tol:
            return sweep + 1
    return sweeps


# --- a whole RK4 step compiled: revolute/prismatic/fixed trees (mimic joints included) ----------
# The Python Simulator._step_once is the reference: the same operations in the same order, with
# Cholesky solves in place of numpy's inverse and LU solves (tests/core/test_simulation_compiled.py
# compares them step by step). Everything here runs without the GIL: the Simulate dock's worker
# thread steps while the GUI thread draws.

@nb.njit(cache=True, nogil=True)
def _lu_solve(A, b):  # pragma: no cover - compiled
    """``A⁻¹ b`` by Gaussian elimination with partial pivoting (numpy.linalg.solve's method);
    None when A is singular."""
    n = A.shape[0]
    U = A.copy()
    x = b.copy()
    for j in range(n):
        p = j
        for i in range(j + 1, n):
            if abs(U[i, j]) > abs(U[p, j]):
                p = i
        if U[p, j] == 0.0:
            return None
        if p != j:
            for k in range(n):
                U[j, k], U[p, k] = U[p, k], U[j, k]
            x[j], x[p] = x[p], x[j]
        for i in range(j + 1, n):
            f = U[i, j] / U[j, j]
            if f != 0.0:
                for k in range(j, n):
                    U[i, k] -= f * U[j, k]
                x[i] -= f * x[j]
    for i in range(n - 1, -1, -1):
        s = x[i]
        for k in range(i + 1, n):
            s -= U[i, k] * x[k]
        x[i] = s / U[i, i]
    return x


@nb.njit(cache=True, nogil=True)
def _poses(q, pk, T):  # pragma: no cover - compiled
    oi, gain, off, P0, Ps = pk[0], pk[1], pk[2], pk[3], pk[4]
    _fk_into(q, oi[0], oi[1], gain, off, P0, Ps, oi[2], oi[3], T, np.empty((4, 4)))


@nb.njit(cache=True, nogil=True)
def _mass(T, ra, upper, col_dof, col_gain, plain, motor_diag, has_motor, Mc, M):  # pragma: no cover - compiled
    """``M = P Mc Pᵀ (+ motor diagonal)`` at poses T (``Mc`` zero where CRBA leaves it)."""
    crba(T, ra[0], ra[1], ra[2], ra[3], ra[4], ra[5], ra[8], ra[9], ra[10], ra[11], upper, Mc)  # same entries each time
    n, nc = M.shape[0], Mc.shape[0]
    if plain:
        for i in range(n):
            for j in range(n):
                M[i, j] = Mc[i, j]
    else:
        for i in range(n):
            for j in range(n):
                M[i, j] = 0.0
        for c in range(nc):
            dc, gc = col_dof[c], col_gain[c]
            for c2 in range(nc):
                x = Mc[c, c2]
                if x != 0.0:
                    M[dc, col_dof[c2]] += gc * x * col_gain[c2]
    if has_motor:
        for i in range(n):
            for j in range(n):
                M[i, j] += motor_diag[i, j]


@nb.njit(cache=True, nogil=True)
def _potential(T, mb, ch, g):  # pragma: no cover - compiled
    """``−Σ mᵢ g·cᵢ`` (the simulator's _Model.potential) at poses T."""
    out = 0.0
    for i in range(mb.shape[0]):
        pg = 0.0
        for r in range(3):
            pg += (T[i, r, 0] * ch[i, 0] + T[i, r, 1] * ch[i, 1] + T[i, r, 2] * ch[i, 2] + T[i, r, 3]) * g[r]
        out += mb[i] * pg
    return -out


@nb.njit(cache=True, nogil=True)
def _quad(M, v):  # pragma: no cover - compiled
    s = 0.0
    for i in range(v.shape[0]):
        r = 0.0
        for j in range(v.shape[0]):
            r += M[i, j] * v[j]
        s += v[i] * r
    return s


@nb.njit(cache=True, nogil=True)
def simulate(q, v, ints, floats, ra, upper, col_dof, col_gain, motor_diag, a0, damping, target, mb, ch, g,
             S, tcp, tcm, impulse, stop_pos, stop_dof, stop_lo, stop_hi, flags, params, out):  # pragma: no cover
    """``flags[0]`` steps of ``flags[1]`` RK4 substeps of ``params[0]`` s, in place on ``q``, ``v``,
    ``impulse`` (Coulomb warm start); ``out[0]`` += the work done, ``out[1]`` = the steps done.
    Returns 0, 1 when the velocities diverged, 2 for a singular mass matrix (q, v then hold the
    last good substep's state)."""
    pk = _unpack(ints, floats)
    oi = pk[0]  # ra: the plan's own arrays for RNEA and CRBA (from the list, numba's loops run ~25 % slower)
    nsteps, nsub, plain, has_motor, viscous, holding, coulomb, limits = (
        flags[0], flags[1], flags[2] != 0, flags[3] != 0, flags[4] != 0, flags[5] != 0, flags[6] != 0, flags[7] != 0)
    hs, kp, kd, rest = params[0], params[1], params[2], params[3]
    n, nc, nm, nf, ns = v.shape[0], col_dof.shape[0], ra[0].shape[0], S.shape[0], stop_pos.shape[0]
    T = np.empty((ints[0], 4, 4))
    Mc, M, L, Mq = np.zeros((nc, nc)), np.empty((n, n)), np.zeros((n, n)), np.empty(n)
    have_M = factored = False
    work = _scratch(nm, nc)
    fext, zc, qdc, tc = np.zeros((nm, 6)), np.zeros(nc), np.empty(nc), np.empty(nc)
    ag = a0 if not holding else np.zeros(6)
    qs, us, vs = np.empty(n), np.empty((4, n)), np.empty(n)
    acc, pw = np.empty((4, n)), np.empty(4)
    tau, rhs, dv, col = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    X = np.empty((n, nf))
    W = out[0]
    for step in range(nsteps):
        for _sub in range(nsub):
            V_before = 0.0
            if holding:
                _poses(q, pk, T)
                V_before = _potential(T, mb, ch, g)
            for k in range(4):  # the four stages
                a = 0.0 if k == 0 else (hs if k == 3 else 0.5 * hs)
                for i in range(n):
                    if k == 0:
                        qs[i], vs[i] = q[i], v[i]
                    else:
                        qs[i] = q[i] + a * us[k - 1, i]
                        vs[i] = v[i] + a * acc[k - 1, i]
                    us[k, i] = vs[i]
                for i in range(n):
                    t = 0.0
                    if viscous:
                        d = 0.0
                        for j in range(n):
                            d += damping[i, j] * vs[j]
                        t -= d
                    if holding:
                        t += kp * (target[i] - qs[i]) - kd * vs[i]
                    tau[i] = t
                p = 0.0
                for i in range(n):
                    p += tau[i] * vs[i]
                pw[k] = p
                _poses(qs, pk, T)
                for c in range(nc):
                    qdc[c] = vs[c] if plain else vs[col_dof[c]] * col_gain[c]
                _rnea(T, ra[0], ra[1], ra[2], ra[3], ra[4], ra[5], ra[6], ra[7], ra[8], ra[9], ra[10], ra[11],
                      qdc, zc, ag, fext, oi[9], pk[12], pk[13], pk[14], pk[15], False, tc, work)
                for i in range(n):
                    rhs[i] = tau[i]
                if plain:
                    for i in range(n):
                        rhs[i] -= tc[i]
                else:
                    for c in range(nc):
                        rhs[col_dof[c]] -= col_gain[c] * tc[c]
                same = have_M
                if same:
                    for i in range(n):
                        if Mq[i] != qs[i]:
                            same = False
                            break
                if not same:
                    _mass(T, ra, upper, col_dof, col_gain, plain, motor_diag, has_motor, Mc, M)
                    Mq[:] = qs
                    have_M, factored = True, False
                if not factored:
                    if not factor_into(M, L):
                        return 2
                    factored = True
                _solve_factored(L, rhs, acc[k])
            qn, vn = np.empty(n), np.empty(n)
            for i in range(n):
                qn[i] = q[i] + hs / 6 * (us[0, i] + 2 * us[1, i] + 2 * us[2, i] + us[3, i])
                vn[i] = v[i] + hs / 6 * (acc[0, i] + 2 * acc[1, i] + 2 * acc[2, i] + acc[3, i])
            W += hs / 6 * (pw[0] + 2 * pw[1] + 2 * pw[2] + pw[3])
            if holding:  # the compensation's own work: g(q)·q̇ integrates to the change of V
                _poses(qn, pk, T)
                W += _potential(T, mb, ch, g) - V_before
            hit = False
            if limits:
                for s in range(ns):
                    x = qn[stop_pos[s]]
                    if x < stop_lo[s] or x > stop_hi[s]:
                        hit = True
            if coulomb or hit:  # impulses, and the energy they take counted exactly
                _poses(qn, pk, T)
                _mass(T, ra, upper, col_dof, col_gain, plain, motor_diag, has_motor, Mc, M)
                e_before = 0.5 * _quad(M, vn) + _potential(T, mb, ch, g)
                have_M = factored = False
                if not factor_into(M, L):
                    return 2
                if coulomb:
                    for f in range(nf):  # X = M⁻¹ Sᵀ
                        _solve_factored(L, S[f], col)
                        X[:, f] = col
                    A, w = np.zeros((nf, nf)), np.zeros(nf)
                    for f in range(nf):
                        for i in range(n):
                            if S[f, i] != 0.0:  # one entry a row but for a joint's mimic followers
                                w[f] += S[f, i] * vn[i]
                                for f2 in range(nf):
                                    A[f, f2] += S[f, i] * X[i, f2]
                    lo, hi = -tcp * hs, -tcm * hs
                    stick = _lu_solve(A, -w)  # the impulse that stops every joint
                    inside = stick is not None
                    if stick is not None:
                        for f in range(nf):
                            if not (lo[f] <= stick[f] <= hi[f]):
                                inside = False
                    if inside:
                        impulse[:] = stick
                    else:
                        for f in range(nf):
                            impulse[f] = min(max(impulse[f], lo[f]), hi[f])
                        big = 0.0
                        for f in range(nf):
                            big = max(big, abs(w[f]))
                        pgs(A, w, lo, hi, impulse, 1e-13 * (1.0 + big), 200)
                    for i in range(n):
                        d = 0.0
                        for f in range(nf):
                            d += X[i, f] * impulse[f]
                        dv[i] = d
                    # the impulse acts through the step (as a constant torque): a stuck joint does not creep
                    for i in range(n):
                        vn[i] += dv[i]
                        qn[i] += 0.5 * hs * dv[i]
                if limits:
                    into = np.zeros(ns, np.bool_)
                    nin = 0
                    for s in range(ns):
                        x = qn[stop_pos[s]]
                        if x < stop_lo[s] or x > stop_hi[s]:
                            low = x < stop_lo[s]
                            qn[stop_pos[s]] = stop_lo[s] if low else stop_hi[s]
                            vd = vn[stop_dof[s]]
                            if (vd < 0) if low else (vd > 0):
                                into[s] = True
                                nin += 1
                    if nin:
                        d = stop_dof[into]
                        Y = np.empty((n, nin))  # the stopped joints' columns of M⁻¹
                        for j in range(nin):
                            col[:] = 0.0
                            col[d[j]] = 1.0
                            _solve_factored(L, col.copy(), col)
                            Y[:, j] = col
                        K = np.empty((nin, nin))
                        r, vin = np.empty(nin), vn[d]
                        for j in range(nin):
                            r[j] = -(1.0 + rest) * vin[j]
                            for j2 in range(nin):
                                K[j, j2] = Y[d[j], j2]
                        lam = _lu_solve(K, r)
                        if lam is None:
                            return 2
                        for i in range(n):
                            x = 0.0
                            for j in range(nin):
                                x += Y[i, j] * lam[j]
                            vn[i] += x
                        for j in range(nin):  # what the impulse solves for, without its rounding
                            vn[d[j]] = -rest * vin[j]
                _poses(qn, pk, T)
                _mass(T, ra, upper, col_dof, col_gain, plain, motor_diag, has_motor, Mc, M)
                Mq[:] = qn  # the next step's first stage starts here
                have_M, factored = True, False
                W += 0.5 * _quad(M, vn) + _potential(T, mb, ch, g) - e_before
            for i in range(n):
                if not (np.isfinite(vn[i]) and abs(vn[i]) < 1e6):
                    out[0] = W
                    return 1
            q[:] = qn
            v[:] = vn
            out[0] = W
        out[1] = step + 1
    return 0
