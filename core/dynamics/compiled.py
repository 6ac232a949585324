"""Compiled RNEA and CRBA: the optional fast path of :mod:`~kinetree.core.dynamics.rigid_body`
(``pip install 'kinetree[fast]'``).

The same base-frame formulation and the same plan as the numpy path, written as loops over the
moving bodies and the velocity columns, so that one call costs a few hundred flops instead of
~50 numpy calls. The poses come from the kinematic plan (numpy for one configuration, its own
numba kernel for batches). Batches of revolute/prismatic trees take :mod:`.dynamics_batch`
instead (FK inside, one pass down and up the tree per configuration).

The kernels release the GIL (``nogil``): the Simulate dock steps the simulator on a worker thread,
and the GUI thread can draw while a kernel runs.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from ..kinematics.loops_compiled import _complex_terms


@nb.njit(cache=True, nogil=True, inline="always")
def _cross(a0, a1, a2, b0, b1, b2):  # pragma: no cover - compiled
    return a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0


@nb.njit(cache=True, nogil=True)
def _columns(T, col_frame, col_rot, col_axis, col_point, S):  # pragma: no cover - compiled
    """Columns S (nc, 6): unit motions about the base origin, base frame, from poses T."""
    nc = S.shape[0]
    nbod = T.shape[0]
    for c in range(nc):
        f = col_frame[c]
        for r in range(3):
            if f < nbod:
                ax = T[f, r, 0] * col_axis[c, 0] + T[f, r, 1] * col_axis[c, 1] + T[f, r, 2] * col_axis[c, 2]
                pt = (T[f, r, 0] * col_point[c, 0] + T[f, r, 1] * col_point[c, 1] + T[f, r, 2] * col_point[c, 2]
                      + T[f, r, 3])
            else:
                ax, pt = col_axis[c, r], col_point[c, r]
            S[c, r] = ax
            S[c, 3 + r] = pt  # the point for now
        if col_rot[c]:
            p0, p1, p2 = _cross(S[c, 3], S[c, 4], S[c, 5], S[c, 0], S[c, 1], S[c, 2])
            S[c, 3], S[c, 4], S[c, 5] = p0, p1, p2
        else:
            S[c, 3], S[c, 4], S[c, 5] = S[c, 0], S[c, 1], S[c, 2]
            S[c, 0] = S[c, 1] = S[c, 2] = 0.0


@nb.njit(cache=True, nogil=True)
def _frames(T, moving, col_frame, col_rot, col_axis, col_point, m, h, Io, S, hw, Iw, RI):  # pragma: no cover
    """Columns S (nc, 6) and base-frame inertia (hw, Iw) of the moving bodies from poses T."""
    _columns(T, col_frame, col_rot, col_axis, col_point, S)
    for k in range(moving.shape[0]):
        b = moving[k]
        t0, t1, t2 = T[b, 0, 3], T[b, 1, 3], T[b, 2, 3]
        hs = (T[b, 0, 0] * h[k, 0] + T[b, 0, 1] * h[k, 1] + T[b, 0, 2] * h[k, 2],
              T[b, 1, 0] * h[k, 0] + T[b, 1, 1] * h[k, 1] + T[b, 1, 2] * h[k, 2],
              T[b, 2, 0] * h[k, 0] + T[b, 2, 1] * h[k, 1] + T[b, 2, 2] * h[k, 2])
        hw[k, 0], hw[k, 1], hw[k, 2] = m[k] * t0 + hs[0], m[k] * t1 + hs[1], m[k] * t2 + hs[2]
        for r in range(3):
            for s in range(3):
                RI[r, s] = T[b, r, 0] * Io[k, 0, s] + T[b, r, 1] * Io[k, 1, s] + T[b, r, 2] * Io[k, 2, s]
        tt = t0 * t0 + t1 * t1 + t2 * t2
        th = t0 * hs[0] + t1 * hs[1] + t2 * hs[2]
        t = (t0, t1, t2)
        for r in range(3):
            for s in range(3):
                v = RI[r, 0] * T[b, s, 0] + RI[r, 1] * T[b, s, 1] + RI[r, 2] * T[b, s, 2]
                v -= m[k] * t[r] * t[s] + hs[r] * t[s] + t[r] * hs[s]
                if r == s:
                    v += m[k] * tt + 2.0 * th
                Iw[k, r, s] = v


@nb.njit(cache=True, nogil=True)
def _inertia_times(m, h, I, w0, w1, w2, v0, v1, v2, out):  # pragma: no cover - compiled
    c0, c1, c2 = _cross(h[0], h[1], h[2], v0, v1, v2)
    out[0] = I[0, 0] * w0 + I[0, 1] * w1 + I[0, 2] * w2 + c0
    out[1] = I[1, 0] * w0 + I[1, 1] * w1 + I[1, 2] * w2 + c1
    out[2] = I[2, 0] * w0 + I[2, 1] * w1 + I[2, 2] * w2 + c2
    d0, d1, d2 = _cross(w0, w1, w2, h[0], h[1], h[2])
    out[3], out[4], out[5] = m * v0 + d0, m * v1 + d1, m * v2 + d2


@nb.njit(cache=True, nogil=True)
def _scratch(nm, nc):  # pragma: no cover - compiled
    return (np.empty((nc, 6)), np.empty((nm, 3)), np.empty((nm, 3, 3)), np.empty((3, 3)), np.zeros((nm + 1, 6)),
            np.empty((nm, 6)), np.empty((nm, 6)), np.empty((nm, 6)), np.empty(6), np.empty(6))


@nb.njit(cache=True, nogil=True)
def rnea(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io,
         qdc, qddc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, tc):  # pragma: no cover - compiled
    """Column torques ``tc`` (nc,) for one configuration (see rigid_body_dynamics._rnea)."""
    _rnea(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io,
          qdc, qddc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, tc, _scratch(moving.shape[0], tc.shape[0]))


@nb.njit(cache=True, nogil=True)
def add_motor_torques(tc, qd, qdd, motor_cols, jm, visc, tcp, tcm):  # pragma: no cover - compiled
    """Corke's motor terms on the motor columns: ``Jm·G²·q̈ + B·G²·q̇ + Tc±`` (link side)."""
    for i in range(motor_cols.shape[0]):
        c = motor_cols[i]
        tc[c] += jm[i] * qdd[c] + visc[i] * qd[c]
        if qd[c] > 0:
            tc[c] += tcp[i]
        elif qd[c] < 0:
            tc[c] += tcm[i]


@nb.njit(cache=True, nogil=True)
def _rnea(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io,
          qdc, qddc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, tc, work):  # pragma: no cover - compiled
    nc, nm = col_body.shape[0], moving.shape[0]
    S, hw, Iw, RI, v, a, f, F, Ia, Iv = work
    _frames(T, moving, col_frame, col_rot, col_axis, col_point, m, h, Io, S, hw, Iw, RI)
    v[:] = 0.0
    for k in range(nm):
        for c in range(nc):
            if anc_c[k, c] != 0.0:
                for r in range(6):
                    v[k, r] += S[c, r] * qdc[c]
    for k in range(nm):
        for r in range(6):
            a[k, r] = a0[r]
    for c in range(nc):
        vc = v[carrier[c]]
        s0, s1, s2, s3, s4, s5 = (S[c, 0] * qdc[c], S[c, 1] * qdc[c], S[c, 2] * qdc[c], S[c, 3] * qdc[c],
                                  S[c, 4] * qdc[c], S[c, 5] * qdc[c])
        x0, x1, x2 = _cross(vc[0], vc[1], vc[2], s0, s1, s2)
        y0, y1, y2 = _cross(vc[0], vc[1], vc[2], s3, s4, s5)
        z0, z1, z2 = _cross(vc[3], vc[4], vc[5], s0, s1, s2)
        e = (S[c, 0] * qddc[c] + x0, S[c, 1] * qddc[c] + x1, S[c, 2] * qddc[c] + x2,
             S[c, 3] * qddc[c] + y0 + z0, S[c, 4] * qddc[c] + y1 + z1, S[c, 5] * qddc[c] + y2 + z2)
        for k in range(nm):
            if anc_c[k, c] != 0.0:
                for r in range(6):
                    a[k, r] += e[r]
    for k in range(nm):
        _inertia_times(m[k], hw[k], Iw[k], a[k, 0], a[k, 1], a[k, 2], a[k, 3], a[k, 4], a[k, 5], Ia)
        _inertia_times(m[k], hw[k], Iw[k], v[k, 0], v[k, 1], v[k, 2], v[k, 3], v[k, 4], v[k, 5], Iv)
        n0, n1, n2 = _cross(v[k, 0], v[k, 1], v[k, 2], Iv[0], Iv[1], Iv[2])
        p0, p1, p2 = _cross(v[k, 3], v[k, 4], v[k, 5], Iv[3], Iv[4], Iv[5])
        q0, q1, q2 = _cross(v[k, 0], v[k, 1], v[k, 2], Iv[3], Iv[4], Iv[5])
        f[k, 0] = Ia[0] + n0 + p0 - fext[k, 0]
        f[k, 1] = Ia[1] + n1 + p1 - fext[k, 1]
        f[k, 2] = Ia[2] + n2 + p2 - fext[k, 2]
        f[k, 3], f[k, 4], f[k, 5] = Ia[3] + q0 - fext[k, 3], Ia[4] + q1 - fext[k, 4], Ia[5] + q2 - fext[k, 5]
    F[:] = 0.0
    for k in range(nm):
        for j in range(nm):
            if desc[k, j] != 0.0:
                for r in range(6):
                    F[k, r] += f[j, r]
    for c in range(nc):
        k = col_body[c]
        tc[c] = (S[c, 0] * F[k, 0] + S[c, 1] * F[k, 1] + S[c, 2] * F[k, 2] + S[c, 3] * F[k, 3]
                 + S[c, 4] * F[k, 4] + S[c, 5] * F[k, 5])
    if use_motor:
        add_motor_torques(tc, qdc, qddc, motor_cols, jm, visc, tcp, tcm)


@nb.njit(cache=True, nogil=True)
def rnea_batch(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io,
               qdc, qddc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, tc):  # pragma: no cover - compiled
    work = _scratch(moving.shape[0], tc.shape[1])
    for n in range(T.shape[0]):
        _rnea(T[n], moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io,
              qdc[n], qddc[n], a0, fext[n], motor_cols, jm, visc, tcp, tcm, use_motor, tc[n], work)


@nb.njit(cache=True, nogil=True)
def crba(T, moving, col_body, col_frame, col_rot, col_axis, col_point, desc, m, h, Io, upper, Mc):  # pragma: no cover
    """Column mass matrix ``Mc`` (nc, nc) for one configuration (see rigid_body_dynamics._crba)."""
    nc, nm = col_body.shape[0], moving.shape[0]
    S = np.empty((nc, 6))
    hw = np.empty((nm, 3))
    Iw = np.empty((nm, 3, 3))
    _frames(T, moving, col_frame, col_rot, col_axis, col_point, m, h, Io, S, hw, Iw, np.empty((3, 3)))
    mc = np.zeros(nm)
    hc = np.zeros((nm, 3))
    Ic = np.zeros((nm, 3, 3))
    for k in range(nm):
        for j in range(nm):
            if desc[k, j] != 0.0:
                mc[k] += m[j]
                for r in range(3):
                    hc[k, r] += hw[j, r]
                    for s in range(3):
                        Ic[k, r, s] += Iw[j, r, s]
    Fc = np.empty(6)
    for c2 in range(nc):
        k = col_body[c2]
        _inertia_times(mc[k], hc[k], Ic[k], S[c2, 0], S[c2, 1], S[c2, 2], S[c2, 3], S[c2, 4], S[c2, 5], Fc)
        for c in range(nc):
            if upper[c, c2] != 0.0:
                x = (S[c, 0] * Fc[0] + S[c, 1] * Fc[1] + S[c, 2] * Fc[2] + S[c, 3] * Fc[3] + S[c, 4] * Fc[4]
                     + S[c, 5] * Fc[5])
                Mc[c, c2] = x
                Mc[c2, c] = x


@nb.njit(cache=True, nogil=True)
def factor_into(M, L):  # pragma: no cover - compiled
    """``L Lᵀ = M[:n, :n]`` into the lower triangle of L (n × n); False when M is not positive
    definite."""
    n = L.shape[0]
    for j in range(n):
        d = M[j, j]
        for k in range(j):
            d -= L[j, k] * L[j, k]
        if not d > 0.0:
            return False
        L[j, j] = np.sqrt(d)
        for i in range(j + 1, n):
            s = M[i, j]
            for k in range(j):
                s -= L[i, k] * L[j, k]
            L[i, j] = s / L[j, j]
    return True


@nb.njit(cache=True, nogil=True)
def _cholesky(M, n):  # pragma: no cover - compiled
    """The lower L with L Lᵀ = M[:n, :n]; raises when M is not positive definite."""
    L = np.zeros((n, n))
    if not factor_into(M, L):
        raise ValueError("not positive definite")
    return L


@nb.njit(cache=True, nogil=True)
def _solve_factored(L, b, x):  # pragma: no cover - compiled
    """``x = (L Lᵀ)⁻¹ b`` (forward, then back substitution)."""
    n = L.shape[0]
    y = np.empty(n)
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= L[i, k] * y[k]
        y[i] = s / L[i, i]
    for i in range(n - 1, -1, -1):
        s = y[i]
        for k in range(i + 1, n):
            s -= L[k, i] * x[k]
        x[i] = s / L[i, i]


@nb.njit(cache=True, nogil=True)
def cholesky_solve(M, b):  # pragma: no cover - compiled
    """``M⁻¹ b`` for a symmetric positive definite M; raises when M is not."""
    x = np.empty(M.shape[0])
    _solve_factored(_cholesky(M, M.shape[0]), b, x)
    return x


@nb.njit(cache=True, nogil=True)
def cholesky_solve_batch(M, b):  # pragma: no cover - compiled
    """:func:`cholesky_solve` for each of a batch: M (N, n, n), b (N, n)."""
    out = np.empty_like(b)
    for i in range(M.shape[0]):
        out[i] = cholesky_solve(M[i], b[i])
    return out


@nb.njit(cache=True, nogil=True)
def fk_single(q, kind, qi, gain, off, P0, Ps, parent, order):  # pragma: no cover - compiled
    """Body poses for one configuration of a tree of revolute, prismatic and fixed joints: the
    kinematic plan's ``P0 + sinθ·P1 + (1−cosθ)·P2 (+ d·P3)`` per body, composed parents first."""
    T = np.empty((P0.shape[0], 4, 4))
    _fk_into(q, kind, qi, gain, off, P0, Ps, parent, order, T, np.empty((4, 4)))
    return T


@nb.njit(cache=True, nogil=True)
def _fk_into(q, kind, qi, gain, off, P0, Ps, parent, order, T, L):  # pragma: no cover - compiled
    for o in range(P0.shape[0]):
        i = order[o]
        c0 = c1 = c2 = 0.0
        if kind[i] == 1:
            th = q[qi[i]] * gain[i] + off[i]
            c0, c1 = np.sin(th), 1.0 - np.cos(th)
        elif kind[i] == 2:
            c2 = q[qi[i]] * gain[i] + off[i]
        for r in range(4):
            for s in range(4):
                L[r, s] = P0[i, r, s] + c0 * Ps[i, 0, 4 * r + s] + c1 * Ps[i, 1, 4 * r + s] + c2 * Ps[i, 2, 4 * r + s]
        p = parent[i]
        if p < 0:
            T[i] = L
        else:
            for r in range(3):
                for s in range(4):
                    T[i, r, s] = T[p, r, 0] * L[0, s] + T[p, r, 1] * L[1, s] + T[p, r, 2] * L[2, s]
                T[i, r, 3] += T[p, r, 3]
            T[i, 3, 0] = T[i, 3, 1] = T[i, 3, 2] = 0.0
            T[i, 3, 3] = 1.0


@nb.njit(cache=True, nogil=True)
def _spd_inverse(D, n, out):  # pragma: no cover - compiled
    """``out[:n, :n] = D[:n, :n]⁻¹`` by Cholesky; raises when D is not positive definite."""
    L = _cholesky(D, n)
    e = np.zeros(n)
    for col in range(n):  # solve L Lᵀ x = e_col
        e[col] = 1.0
        _solve_factored(L, e, out[:n, col])
        e[col] = 0.0


@nb.njit(cache=True, nogil=True)
def aba(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, m, h, Io, topo, mparent, cstart,
        ncol, qdc, tauc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, qdd):  # pragma: no cover - compiled
    """Column accelerations ``qdd`` (nc,) by Featherstone's articulated-body algorithm, all in
    the base frame (see articulated_body.py): no transforms between bodies, the plan's columns."""
    nc, nm = col_body.shape[0], moving.shape[0]
    S = np.empty((nc, 6))
    hw = np.empty((nm, 3))
    Iw = np.empty((nm, 3, 3))
    _frames(T, moving, col_frame, col_rot, col_axis, col_point, m, h, Io, S, hw, Iw, np.empty((3, 3)))
    v = np.zeros((nm + 1, 6))  # row nm: the base, at rest
    for o in range(nm):
        k = topo[o]
        p = mparent[k] if mparent[k] >= 0 else nm
        for r in range(6):
            v[k, r] = v[p, r]
        for c in range(cstart[k], cstart[k] + ncol[k]):
            for r in range(6):
                v[k, r] += S[c, r] * qdc[c]
    u = tauc.copy()
    arm = np.zeros(nc)
    if use_motor:
        for i in range(motor_cols.shape[0]):
            c = motor_cols[i]
            arm[c] = jm[i]
            u[c] -= visc[i] * qdc[c]
            if qdc[c] > 0:
                u[c] -= tcp[i]
            elif qdc[c] < 0:
                u[c] -= tcm[i]
    IA = np.zeros((nm, 6, 6))
    pA = np.empty((nm, 6))
    cb = np.zeros((nm, 6))
    Iv = np.empty(6)
    for k in range(nm):
        for r in range(3):
            for s in range(3):
                IA[k, r, s] = Iw[k, r, s]
            IA[k, 3 + r, 3 + r] = m[k]
        hx, hy, hz = hw[k, 0], hw[k, 1], hw[k, 2]
        IA[k, 0, 4], IA[k, 0, 5], IA[k, 1, 3], IA[k, 1, 5], IA[k, 2, 3], IA[k, 2, 4] = -hz, hy, hz, -hx, -hy, hx
        for r in range(3):
            for s in range(3):
                IA[k, 3 + s, r] = IA[k, r, 3 + s]
        _inertia_times(m[k], hw[k], Iw[k], v[k, 0], v[k, 1], v[k, 2], v[k, 3], v[k, 4], v[k, 5], Iv)
        n0, n1, n2 = _cross(v[k, 0], v[k, 1], v[k, 2], Iv[0], Iv[1], Iv[2])
        p0, p1, p2 = _cross(v[k, 3], v[k, 4], v[k, 5], Iv[3], Iv[4], Iv[5])
        q0, q1, q2 = _cross(v[k, 0], v[k, 1], v[k, 2], Iv[3], Iv[4], Iv[5])
        pA[k, 0], pA[k, 1], pA[k, 2] = n0 + p0 - fext[k, 0], n1 + p1 - fext[k, 1], n2 + p2 - fext[k, 2]
        pA[k, 3], pA[k, 4], pA[k, 5] = q0 - fext[k, 3], q1 - fext[k, 4], q2 - fext[k, 5]
    for c in range(nc):
        vc = v[carrier[c]]
        s0, s1, s2 = S[c, 0] * qdc[c], S[c, 1] * qdc[c], S[c, 2] * qdc[c]
        s3, s4, s5 = S[c, 3] * qdc[c], S[c, 4] * qdc[c], S[c, 5] * qdc[c]
        x0, x1, x2 = _cross(vc[0], vc[1], vc[2], s0, s1, s2)
        y0, y1, y2 = _cross(vc[0], vc[1], vc[2], s3, s4, s5)
        z0, z1, z2 = _cross(vc[3], vc[4], vc[5], s0, s1, s2)
        k = col_body[c]
        cb[k, 0] += x0
        cb[k, 1] += x1
        cb[k, 2] += x2
        cb[k, 3] += y0 + z0
        cb[k, 4] += y1 + z1
        cb[k, 5] += y2 + z2
    U = np.empty((nc, 6))
    Dinv = np.empty((nm, 6, 6))
    D = np.empty((6, 6))
    UD = np.empty((6, 6))
    Ia = np.empty((6, 6))
    for o in range(nm - 1, -1, -1):
        k = topo[o]
        c0, n = cstart[k], ncol[k]
        for j in range(n):
            for r in range(6):
                x = 0.0
                for s in range(6):
                    x += IA[k, r, s] * S[c0 + j, s]
                U[c0 + j, r] = x
        for i in range(n):
            for j in range(n):
                x = 0.0
                for r in range(6):
                    x += S[c0 + i, r] * U[c0 + j, r]
                D[i, j] = x
            D[i, i] += arm[c0 + i]
            for r in range(6):
                u[c0 + i] -= S[c0 + i, r] * pA[k, r]
        _spd_inverse(D, n, Dinv[k])
        p = mparent[k]
        if p < 0:
            continue
        for r in range(6):  # UD = U·D⁻¹ (6×n)
            for j in range(n):
                x = 0.0
                for i in range(n):
                    x += U[c0 + i, r] * Dinv[k, i, j]
                UD[r, j] = x
        for r in range(6):
            for s in range(6):
                x = IA[k, r, s]
                for j in range(n):
                    x -= UD[r, j] * U[c0 + j, s]
                Ia[r, s] = x
        for r in range(6):
            x = pA[k, r]
            for s in range(6):
                x += Ia[r, s] * cb[k, s]
            for j in range(n):
                x += UD[r, j] * u[c0 + j]
            pA[p, r] += x
            for s in range(6):
                IA[p, r, s] += Ia[r, s]
    a = np.empty((nm, 6))
    ap = np.empty(6)
    w = np.empty(6)
    for o in range(nm):
        k = topo[o]
        p = mparent[k]
        for r in range(6):
            ap[r] = (a0[r] if p < 0 else a[p, r]) + cb[k, r]
        c0, n = cstart[k], ncol[k]
        for j in range(n):
            x = u[c0 + j]
            for r in range(6):
                x -= U[c0 + j, r] * ap[r]
            w[j] = x
        for i in range(n):
            x = 0.0
            for j in range(n):
                x += Dinv[k, i, j] * w[j]
            qdd[c0 + i] = x
        for r in range(6):
            x = ap[r]
            for j in range(n):
                x += S[c0 + j, r] * qdd[c0 + j]
            a[k, r] = x


@nb.njit(cache=True, nogil=True)
def aba_batch(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, m, h, Io, topo, mparent,
              cstart, ncol, qdc, tauc, a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, qdd):  # pragma: no cover
    each = fext.shape[0] > 1
    for n in range(T.shape[0]):
        aba(T[n], moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, m, h, Io, topo, mparent,
            cstart, ncol, qdc[n], tauc[n], a0, fext[n if each else 0], motor_cols, jm, visc, tcp, tcm, use_motor,
            qdd[n])


@nb.njit(cache=True, nogil=True)
def jacobian(T, col_frame, col_rot, col_axis, col_point, cols, p, J):  # pragma: no cover - compiled
    """Columns ``cols`` of the geometric Jacobian ``J`` (6, nc; zero elsewhere) of the point
    ``p``: ``[ω; v_p]`` per unit velocity, base frame."""
    S = np.empty((col_frame.shape[0], 6))
    _columns(T, col_frame, col_rot, col_axis, col_point, S)
    for c in cols:
        x0, x1, x2 = _cross(S[c, 0], S[c, 1], S[c, 2], p[0], p[1], p[2])
        J[0, c], J[1, c], J[2, c] = S[c, 0], S[c, 1], S[c, 2]
        J[3, c], J[4, c], J[5, c] = S[c, 3] + x0, S[c, 4] + x1, S[c, 5] + x2


@nb.njit(cache=True, nogil=True)
def gravity(q, ints, floats, nbod, nm, g, tc):  # pragma: no cover - compiled
    """Column torques ``tc`` holding the tree still under gravity ``g``: FK, then each subtree's
    weight about each column (RNEA at rest). The plan comes packed in two flat arrays
    (see rigid_body_dynamics.DynamicsPlan.gravity_pack): numba checks every argument's type on
    each call, ~0.25 µs an array, more than the arithmetic of a six-joint arm."""
    nc = tc.shape[0]
    kind, qi, parent, order = ints[:nbod], ints[nbod:2 * nbod], ints[2 * nbod:3 * nbod], ints[3 * nbod:4 * nbod]
    o = 4 * nbod
    moving, col_body = ints[o:o + nm], ints[o + nm:o + nm + nc]
    col_frame, col_rot = ints[o + nm + nc:o + nm + 2 * nc], ints[o + nm + 2 * nc:o + nm + 3 * nc]
    gain, off = floats[:nbod], floats[nbod:2 * nbod]
    o = 2 * nbod
    P0 = floats[o:o + 16 * nbod].reshape((nbod, 4, 4))
    o += 16 * nbod
    Ps = floats[o:o + 48 * nbod].reshape((nbod, 3, 16))
    o += 48 * nbod
    col_axis = floats[o:o + 3 * nc].reshape((nc, 3))
    col_point = floats[o + 3 * nc:o + 6 * nc].reshape((nc, 3))
    o += 6 * nc
    m, h = floats[o:o + nm], floats[o + nm:o + 4 * nm].reshape((nm, 3))
    desc = floats[o + 4 * nm:o + 4 * nm + nm * nm].reshape((nm, nm))
    T = np.empty((nbod, 4, 4))
    _fk_into(q, kind, qi, gain, off, P0, Ps, parent, order, T, np.empty((4, 4)))
    S = np.empty((nc, 6))
    _columns(T, col_frame, col_rot, col_axis, col_point, S)
    f = np.empty((nm, 6))
    for k in range(nm):
        b = moving[k]
        hw = np.empty(3)
        for r in range(3):
            hw[r] = m[k] * T[b, r, 3] + T[b, r, 0] * h[k, 0] + T[b, r, 1] * h[k, 1] + T[b, r, 2] * h[k, 2]
        n0, n1, n2 = _cross(hw[0], hw[1], hw[2], -g[0], -g[1], -g[2])
        f[k, 0], f[k, 1], f[k, 2] = n0, n1, n2
        f[k, 3], f[k, 4], f[k, 5] = -m[k] * g[0], -m[k] * g[1], -m[k] * g[2]
    for c in range(nc):
        k = col_body[c]
        x = 0.0
        for j in range(nm):
            if desc[k, j] != 0.0:
                for r in range(6):
                    x += S[c, r] * f[j, r]
        tc[c] = x


@nb.njit(cache=True, nogil=True)
def _unpack(ints, floats):  # pragma: no cover - compiled
    """The plan's arrays from the two flat arrays of articulated_body.packed (one call's
    argument checks instead of ~25: see :func:`gravity`)."""
    nbod, nm, nc, nmot = ints[0], ints[1], ints[2], ints[3]
    o = 5
    out_i = []
    for n in (nbod, nbod, nbod, nbod, nm, nc, nc, nc, nc, nmot, nm, nm, nm, nm):
        out_i.append(ints[o:o + n])
        o += n
    f = 0
    gain, off = floats[:nbod], floats[nbod:2 * nbod]
    f = 2 * nbod
    P0 = floats[f:f + 16 * nbod].reshape((nbod, 4, 4))
    f += 16 * nbod
    Ps = floats[f:f + 48 * nbod].reshape((nbod, 3, 16))
    f += 48 * nbod
    col_axis = floats[f:f + 3 * nc].reshape((nc, 3))
    col_point = floats[f + 3 * nc:f + 6 * nc].reshape((nc, 3))
    f += 6 * nc
    m = floats[f:f + nm]
    h = floats[f + nm:f + 4 * nm].reshape((nm, 3))
    Io = floats[f + 4 * nm:f + 13 * nm].reshape((nm, 3, 3))
    f += 13 * nm
    anc_c = floats[f:f + nm * nc].reshape((nm, nc))
    desc = floats[f + nm * nc:f + nm * nc + nm * nm].reshape((nm, nm))
    f += nm * nc + nm * nm
    jm, visc, tcp, tcm = floats[f:f + nmot], floats[f + nmot:f + 2 * nmot], floats[f + 2 * nmot:f + 3 * nmot], \
        floats[f + 3 * nmot:f + 4 * nmot]
    return (out_i, gain, off, P0, Ps, col_axis, col_point, m, h, Io, anc_c, desc, jm, visc, tcp, tcm)


@nb.njit(cache=True, nogil=True)
def rnea_packed(q, ints, floats, qdc, qddc, a0, fext, use_motor, tc):  # pragma: no cover - compiled
    """FK and :func:`rnea` for one configuration of a revolute/prismatic/fixed tree."""
    oi, gain, off, P0, Ps, col_axis, col_point, m, h, Io, anc_c, desc, jm, visc, tcp, tcm = _unpack(ints, floats)
    kind, qi, parent, order, moving, col_body, col_frame, col_rot, carrier, motor_cols = (
        oi[0], oi[1], oi[2], oi[3], oi[4], oi[5], oi[6], oi[7], oi[8], oi[9])
    T = np.empty((P0.shape[0], 4, 4))
    _fk_into(q, kind, qi, gain, off, P0, Ps, parent, order, T, np.empty((4, 4)))
    _rnea(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, anc_c, desc, m, h, Io, qdc, qddc,
          a0, fext, motor_cols, jm, visc, tcp, tcm, use_motor, tc, _scratch(moving.shape[0], tc.shape[0]))


@nb.njit(cache=True, nogil=True)
def aba_packed(q, ints, floats, qdc, tauc, a0, fext, qdd):  # pragma: no cover - compiled
    """FK and :func:`aba` for one configuration of a revolute/prismatic/fixed tree."""
    oi, gain, off, P0, Ps, col_axis, col_point, m, h, Io, anc_c, desc, jm, visc, tcp, tcm = _unpack(ints, floats)
    kind, qi, parent, order, moving, col_body, col_frame, col_rot, carrier, motor_cols = (
        oi[0], oi[1], oi[2], oi[3], oi[4], oi[5], oi[6], oi[7], oi[8], oi[9])
    T = np.empty((P0.shape[0], 4, 4))
    _fk_into(q, kind, qi, gain, off, P0, Ps, parent, order, T, np.empty((4, 4)))
    aba(T, moving, col_body, col_frame, col_rot, col_axis, col_point, carrier, m, h, Io, oi[10], oi[11], oi[12],
        oi[13], qdc, tauc, a0, fext, motor_cols, jm, visc, tcp, tcm, ints[4] != 0, qdd)


@nb.njit(cache=True)
def loop_stage(q, qd, a0, fk_args, rnea_args, zero_c, fext, motor, crba_args, mass, n, loop_args):  # pragma: no cover
    """One RK4 stage of a looped tree of revolute, prismatic and fixed joints (no mimic) in one call:
    the bias torques (RNEA at q̈ = 0), the mass matrix when ``mass``, and the loops' residual,
    Jacobian and J̇q̇. Unlike the kernels above it keeps the GIL: its microseconds cost less than
    handing the lock to the GUI thread and waiting to get it back, three times a stage."""
    T = fk_single(q, *fk_args)
    nc = zero_c.shape[0]
    tc = np.empty(nc)
    rnea(T, *rnea_args, qd, zero_c, a0, fext, *motor, tc)
    Mc = np.zeros((nc, nc))
    if mass:
        crba(T, *crba_args, Mc)
    r, J, bias = _complex_terms(q, qd, n, *loop_args)
    return tc, Mc, r, J, bias
