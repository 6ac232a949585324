"""Batch inverse dynamics, compiled: the ``(N, …)`` path of
:func:`~kinetree.core.dynamics.rigid_body.inverse_dynamics` for trees of revolute, prismatic
and fixed joints (mimic joints included) when numba is installed.

The same base-frame formulation as :mod:`~kinetree.core.dynamics.compiled`, but each
configuration is one pass down the moving bodies (parents first) and one back up: velocities,
accelerations and the subtree forces follow the parent links instead of the plan's
ancestor/descendant incidence matrices (O(bodies) per configuration instead of O(bodies²)),
the poses are kept as 3×4 blocks in a scratch array reused over the batch, and the plan comes in
two flat arrays (:func:`batch_pack`) so that one call checks two arguments instead of ~30.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numba as nb
import numpy as np

from .compiled import add_motor_torques
from .plan import aba_constants

if TYPE_CHECKING:
    from .rigid_body import DynamicsPlan


def batch_pack(plan: DynamicsPlan) -> tuple[np.ndarray, np.ndarray] | None:
    """The plan in two flat arrays (ints, floats) for :func:`rnea_fk_batch`, or None when the
    tree has joints this kernel does not take (quaternion or planar: no compiled FK; a moving
    body with other than one column)."""
    if plan.fk_args is None or not plan.nb or plan.nc != plan.nm:
        return None
    got = getattr(plan, "_batch_pack", None)
    if got is None:
        if not (np.array_equal(plan.col_body, np.arange(plan.nm)) and np.array_equal(plan.carrier, plan.col_body)
                and np.array_equal(plan.col_frame, plan.moving)):
            return None  # every moving body turns its own single column about its own frame
        code, qi, gain, off, P0, Ps, parent, order = plan.fk_args
        nb_, nm, nmot = plan.npose, plan.nm, plan.motor_cols.size
        topo = aba_constants(plan).topo
        ints = np.concatenate([[nb_, nm, nmot], code, qi, parent, order, plan.moving, plan.mparent, topo,
                               plan.col_rot, plan.motor_cols]).astype(np.int64)
        floats = np.concatenate([gain, off, P0[:, :3, :].ravel(), Ps.reshape(nb_, 3, 4, 4)[:, :, :3, :].ravel(),
                                 plan.col_axis.ravel(), plan.col_point.ravel(), plan.m, plan.h.ravel(),
                                 plan.Io.ravel(), plan.jm, plan.visc, plan.tcp, plan.tcm]).astype(float)
        got = plan._batch_pack = (ints, floats)  # type: ignore[attr-defined]
    return got


@nb.njit(cache=True)
def _unpack(ints, floats):  # pragma: no cover - compiled
    """The plan's arrays from :func:`batch_pack`'s two flat arrays."""
    nbod, nm, nmot = ints[0], ints[1], ints[2]
    o = 3
    kind, qi, parent, order = ints[o:o + nbod], ints[o + nbod:o + 2 * nbod], ints[o + 2 * nbod:o + 3 * nbod], \
        ints[o + 3 * nbod:o + 4 * nbod]
    o += 4 * nbod
    moving, mparent, topo, col_rot = ints[o:o + nm], ints[o + nm:o + 2 * nm], ints[o + 2 * nm:o + 3 * nm], \
        ints[o + 3 * nm:o + 4 * nm]
    motor_cols = ints[o + 4 * nm:o + 4 * nm + nmot]
    gain, off = floats[:nbod], floats[nbod:2 * nbod]
    f0 = 2 * nbod
    P0 = floats[f0:f0 + 12 * nbod].reshape((nbod, 3, 4))
    f0 += 12 * nbod
    Ps = floats[f0:f0 + 36 * nbod].reshape((nbod, 3, 3, 4))
    f0 += 36 * nbod
    axis, point = floats[f0:f0 + 3 * nm].reshape((nm, 3)), floats[f0 + 3 * nm:f0 + 6 * nm].reshape((nm, 3))
    f0 += 6 * nm
    m, h, Io = floats[f0:f0 + nm], floats[f0 + nm:f0 + 4 * nm].reshape((nm, 3)), \
        floats[f0 + 4 * nm:f0 + 13 * nm].reshape((nm, 3, 3))
    f0 += 13 * nm
    jm, visc, tcp, tcm = floats[f0:f0 + nmot], floats[f0 + nmot:f0 + 2 * nmot], \
        floats[f0 + 2 * nmot:f0 + 3 * nmot], floats[f0 + 3 * nmot:f0 + 4 * nmot]
    return (nbod, nm, nmot, kind, qi, parent, order, moving, mparent, topo, col_rot, motor_cols, gain, off, P0, Ps,
            axis, point, m, h, Io, jm, visc, tcp, tcm)


@nb.njit(cache=True, inline="always")
def _poses(q, nbod, kind, qi, gain, off, P0, Ps, parent, order, T, L):  # pragma: no cover - compiled
    """Body poses (nbod, 3, 4) into ``T`` for one configuration (dynamics_numba._fk_into)."""
    for j in range(nbod):  # poses, 3×4, parents first
        i = order[j]
        if kind[i] == 1:
            th = q[qi[i]] * gain[i] + off[i]
            c0, c1 = np.sin(th), 1.0 - np.cos(th)
            for r in range(3):
                for s in range(4):
                    L[r, s] = P0[i, r, s] + c0 * Ps[i, 0, r, s] + c1 * Ps[i, 1, r, s]
        elif kind[i] == 2:
            c2 = q[qi[i]] * gain[i] + off[i]
            for r in range(3):
                for s in range(4):
                    L[r, s] = P0[i, r, s] + c2 * Ps[i, 2, r, s]
        else:
            for r in range(3):
                for s in range(4):
                    L[r, s] = P0[i, r, s]
        p = parent[i]
        if p < 0:
            for r in range(3):
                for s in range(4):
                    T[i, r, s] = L[r, s]
        else:
            for r in range(3):
                for s in range(4):
                    T[i, r, s] = T[p, r, 0] * L[0, s] + T[p, r, 1] * L[1, s] + T[p, r, 2] * L[2, s]
                T[i, r, 3] += T[p, r, 3]


@nb.njit(cache=True, inline="always")
def _column(R, t0, t1, t2, ax, pt, rot, Sk):  # pragma: no cover - compiled
    """A body's column: unit motion [ω; v] about the base origin, base frame, from its pose."""
    x0 = R[0, 0] * ax[0] + R[0, 1] * ax[1] + R[0, 2] * ax[2]
    x1 = R[1, 0] * ax[0] + R[1, 1] * ax[1] + R[1, 2] * ax[2]
    x2 = R[2, 0] * ax[0] + R[2, 1] * ax[1] + R[2, 2] * ax[2]
    if rot:
        p0 = R[0, 0] * pt[0] + R[0, 1] * pt[1] + R[0, 2] * pt[2] + t0
        p1 = R[1, 0] * pt[0] + R[1, 1] * pt[1] + R[1, 2] * pt[2] + t1
        p2 = R[2, 0] * pt[0] + R[2, 1] * pt[1] + R[2, 2] * pt[2] + t2
        Sk[0], Sk[1], Sk[2] = x0, x1, x2
        Sk[3], Sk[4], Sk[5] = p1 * x2 - p2 * x1, p2 * x0 - p0 * x2, p0 * x1 - p1 * x0
    else:
        Sk[0] = Sk[1] = Sk[2] = 0.0
        Sk[3], Sk[4], Sk[5] = x0, x1, x2


@nb.njit(cache=True, inline="always")
def _world_inertia(R, t0, t1, t2, mk, hk, Ik):  # pragma: no cover - compiled
    """First moment and (symmetric) inertia about the base origin, base frame, of a body of mass
    ``mk``, first moment ``hk`` and inertia ``Ik`` about its own origin (rigid_body_dynamics._moved)."""
    hs0 = R[0, 0] * hk[0] + R[0, 1] * hk[1] + R[0, 2] * hk[2]
    hs1 = R[1, 0] * hk[0] + R[1, 1] * hk[1] + R[1, 2] * hk[2]
    hs2 = R[2, 0] * hk[0] + R[2, 1] * hk[1] + R[2, 2] * hk[2]
    g0, g1, g2 = mk * t0 + hs0, mk * t1 + hs1, mk * t2 + hs2
    dg = mk * (t0 * t0 + t1 * t1 + t2 * t2) + 2.0 * (t0 * hs0 + t1 * hs1 + t2 * hs2)
    Iw00 = Iw01 = Iw02 = Iw11 = Iw12 = Iw22 = 0.0
    for c in range(3):
        y0 = R[0, 0] * Ik[0, c] + R[0, 1] * Ik[1, c] + R[0, 2] * Ik[2, c]
        y1 = R[1, 0] * Ik[0, c] + R[1, 1] * Ik[1, c] + R[1, 2] * Ik[2, c]
        y2 = R[2, 0] * Ik[0, c] + R[2, 1] * Ik[1, c] + R[2, 2] * Ik[2, c]
        Iw00 += y0 * R[0, c]
        Iw01 += y0 * R[1, c]
        Iw02 += y0 * R[2, c]
        Iw11 += y1 * R[1, c]
        Iw12 += y1 * R[2, c]
        Iw22 += y2 * R[2, c]
    Iw00 += dg - (mk * t0 * t0 + 2.0 * hs0 * t0)
    Iw11 += dg - (mk * t1 * t1 + 2.0 * hs1 * t1)
    Iw22 += dg - (mk * t2 * t2 + 2.0 * hs2 * t2)
    Iw01 -= mk * t0 * t1 + hs0 * t1 + t0 * hs1
    Iw02 -= mk * t0 * t2 + hs0 * t2 + t0 * hs2
    Iw12 -= mk * t1 * t2 + hs1 * t2 + t1 * hs2
    return g0, g1, g2, Iw00, Iw01, Iw02, Iw11, Iw12, Iw22


@nb.njit(cache=True)
def rnea_fk_batch(Q, qdc, qddc, ints, floats, a0, fext, use_motor, tc):  # pragma: no cover - compiled
    """Column torques ``tc`` (N, nm) for positions ``Q`` (N, positions), column velocities and
    accelerations ``qdc``, ``qddc`` (N, nm), gravity ``a0`` and wrenches ``fext`` ((1, nm, 6)
    for all configurations, or (N, nm, 6))."""
    (nbod, nm, nmot, kind, qi, parent, order, moving, mparent, topo, col_rot, motor_cols, gain, off, P0, Ps, axis,
     point, m, h, Io, jm, visc, tcp, tcm) = _unpack(ints, floats)
    T = np.empty((nbod, 3, 4))
    L = np.empty((3, 4))
    S = np.empty((nm, 6))
    v = np.empty((nm, 6))
    a = np.empty((nm, 6))
    F = np.empty((nm, 6))
    each = fext.shape[0] > 1
    for n in range(Q.shape[0]):
        q = Q[n]
        _poses(q, nbod, kind, qi, gain, off, P0, Ps, parent, order, T, L)
        fx = fext[n if each else 0]
        qd, qdd = qdc[n], qddc[n]
        for j in range(nm):  # down the tree: column, velocity, acceleration, the body's own force
            k = topo[j]
            b = moving[k]
            R = T[b]
            t0, t1, t2 = R[0, 3], R[1, 3], R[2, 3]
            _column(R, t0, t1, t2, axis[k], point[k], col_rot[k], S[k])
            pk = mparent[k]
            w = qd[k]
            s0, s1, s2, s3, s4, s5 = S[k, 0] * w, S[k, 1] * w, S[k, 2] * w, S[k, 3] * w, S[k, 4] * w, S[k, 5] * w
            for r in range(6):
                v[k, r] = (v[pk, r] if pk >= 0 else 0.0) + S[k, r] * w
            w0, w1, w2, u0, u1, u2 = v[k, 0], v[k, 1], v[k, 2], v[k, 3], v[k, 4], v[k, 5]
            e = qdd[k]
            # a = a_parent + S·qdd + v × (S·qd), v the body's own velocity (the carrier)
            a[k, 0] = (a[pk, 0] if pk >= 0 else a0[0]) + S[k, 0] * e + (w1 * s2 - w2 * s1)
            a[k, 1] = (a[pk, 1] if pk >= 0 else a0[1]) + S[k, 1] * e + (w2 * s0 - w0 * s2)
            a[k, 2] = (a[pk, 2] if pk >= 0 else a0[2]) + S[k, 2] * e + (w0 * s1 - w1 * s0)
            a[k, 3] = (a[pk, 3] if pk >= 0 else a0[3]) + S[k, 3] * e + ((w1 * s5 - w2 * s4) + (u1 * s2 - u2 * s1))
            a[k, 4] = (a[pk, 4] if pk >= 0 else a0[4]) + S[k, 4] * e + ((w2 * s3 - w0 * s5) + (u2 * s0 - u0 * s2))
            a[k, 5] = (a[pk, 5] if pk >= 0 else a0[5]) + S[k, 5] * e + ((w0 * s4 - w1 * s3) + (u0 * s1 - u1 * s0))
            # inertia about the base origin, base frame (see rigid_body_dynamics._moved)
            mk = m[k]
            g0, g1, g2, Iw00, Iw01, Iw02, Iw11, Iw12, Iw22 = _world_inertia(R, t0, t1, t2, mk, h[k], Io[k])
            # f = I·a + v ×* (I·v) − fext
            A0, A1, A2, A3, A4, A5 = a[k, 0], a[k, 1], a[k, 2], a[k, 3], a[k, 4], a[k, 5]
            ia0 = Iw00 * A0 + Iw01 * A1 + Iw02 * A2 + (g1 * A5 - g2 * A4)
            ia1 = Iw01 * A0 + Iw11 * A1 + Iw12 * A2 + (g2 * A3 - g0 * A5)
            ia2 = Iw02 * A0 + Iw12 * A1 + Iw22 * A2 + (g0 * A4 - g1 * A3)
            ia3, ia4, ia5 = mk * A3 + (A1 * g2 - A2 * g1), mk * A4 + (A2 * g0 - A0 * g2), mk * A5 + (A0 * g1 - A1 * g0)
            iv0 = Iw00 * w0 + Iw01 * w1 + Iw02 * w2 + (g1 * u2 - g2 * u1)
            iv1 = Iw01 * w0 + Iw11 * w1 + Iw12 * w2 + (g2 * u0 - g0 * u2)
            iv2 = Iw02 * w0 + Iw12 * w1 + Iw22 * w2 + (g0 * u1 - g1 * u0)
            iv3, iv4, iv5 = mk * u0 + (w1 * g2 - w2 * g1), mk * u1 + (w2 * g0 - w0 * g2), mk * u2 + (w0 * g1 - w1 * g0)
            F[k, 0] = ia0 + (w1 * iv2 - w2 * iv1) + (u1 * iv5 - u2 * iv4) - fx[k, 0]
            F[k, 1] = ia1 + (w2 * iv0 - w0 * iv2) + (u2 * iv3 - u0 * iv5) - fx[k, 1]
            F[k, 2] = ia2 + (w0 * iv1 - w1 * iv0) + (u0 * iv4 - u1 * iv3) - fx[k, 2]
            F[k, 3] = ia3 + (w1 * iv5 - w2 * iv4) - fx[k, 3]
            F[k, 4] = ia4 + (w2 * iv3 - w0 * iv5) - fx[k, 4]
            F[k, 5] = ia5 + (w0 * iv4 - w1 * iv3) - fx[k, 5]
        out = tc[n]
        for j in range(nm - 1, -1, -1):  # up the tree: each subtree's force onto its column and its parent
            k = topo[j]
            out[k] = (S[k, 0] * F[k, 0] + S[k, 1] * F[k, 1] + S[k, 2] * F[k, 2] + S[k, 3] * F[k, 3]
                      + S[k, 4] * F[k, 4] + S[k, 5] * F[k, 5])
            pk = mparent[k]
            if pk >= 0:
                for r in range(6):
                    F[pk, r] += F[k, r]
        if use_motor:
            add_motor_torques(out, qd, qdd, motor_cols, jm, visc, tcp, tcm)



@nb.njit(cache=True)
def crba_fk_batch(Q, ints, floats, Mc):  # pragma: no cover - compiled
    """Column mass matrices ``Mc`` (N, nm, nm) for positions ``Q`` (N, positions): each body's
    composite inertia summed up the parent links, then each column's composite force projected
    on the columns of the body and its ancestors (dynamics_numba.crba, O(bodies·depth))."""
    (nbod, nm, nmot, kind, qi, parent, order, moving, mparent, topo, col_rot, motor_cols, gain, off, P0, Ps, axis,
     point, m, h, Io, jm, visc, tcp, tcm) = _unpack(ints, floats)
    T = np.empty((nbod, 3, 4))
    L = np.empty((3, 4))
    S = np.empty((nm, 6))
    C = np.empty((nm, 10))  # composite inertia: m, first moment (3), inertia 00 01 02 11 12 22
    for n in range(Q.shape[0]):
        _poses(Q[n], nbod, kind, qi, gain, off, P0, Ps, parent, order, T, L)
        for k in range(nm):
            R = T[moving[k]]
            t0, t1, t2 = R[0, 3], R[1, 3], R[2, 3]
            _column(R, t0, t1, t2, axis[k], point[k], col_rot[k], S[k])
            C[k, 0] = m[k]
            (C[k, 1], C[k, 2], C[k, 3], C[k, 4], C[k, 5], C[k, 6], C[k, 7], C[k, 8],
             C[k, 9]) = _world_inertia(R, t0, t1, t2, m[k], h[k], Io[k])
        for j in range(nm - 1, -1, -1):  # children before parents
            k = topo[j]
            p = mparent[k]
            if p >= 0:
                for r in range(10):
                    C[p, r] += C[k, r]
        out = Mc[n]
        out[:] = 0.0
        for k in range(nm):
            mk, g0, g1, g2 = C[k, 0], C[k, 1], C[k, 2], C[k, 3]
            i00, i01, i02, i11, i12, i22 = C[k, 4], C[k, 5], C[k, 6], C[k, 7], C[k, 8], C[k, 9]
            w0, w1, w2, u0, u1, u2 = S[k, 0], S[k, 1], S[k, 2], S[k, 3], S[k, 4], S[k, 5]
            f0 = i00 * w0 + i01 * w1 + i02 * w2 + (g1 * u2 - g2 * u1)
            f1 = i01 * w0 + i11 * w1 + i12 * w2 + (g2 * u0 - g0 * u2)
            f2 = i02 * w0 + i12 * w1 + i22 * w2 + (g0 * u1 - g1 * u0)
            f3, f4, f5 = mk * u0 + (w1 * g2 - w2 * g1), mk * u1 + (w2 * g0 - w0 * g2), mk * u2 + (w0 * g1 - w1 * g0)
            c = k
            while c >= 0:
                x = S[c, 0] * f0 + S[c, 1] * f1 + S[c, 2] * f2 + S[c, 3] * f3 + S[c, 4] * f4 + S[c, 5] * f5
                out[c, k] = x
                out[k, c] = x
                c = mparent[c]

def rnea_batch(plan: DynamicsPlan, Q: np.ndarray, qdc: np.ndarray, qddc: np.ndarray, a0: np.ndarray,
               fext: np.ndarray | None, use_motor: bool, tc: np.ndarray) -> bool:
    """Column torques of a batch into ``tc`` (N, nc) by :func:`rnea_fk_batch`: positions ``Q``
    (N, positions), column rates (N, nc), merged ``fext`` (nm, 6) or (…, nm, 6). False (``tc``
    untouched) when the tree is not one the kernel takes (:func:`batch_pack`)."""
    pk = batch_pack(plan)
    if pk is None:
        return False
    rnea_fk_batch(np.ascontiguousarray(Q), np.ascontiguousarray(qdc), np.ascontiguousarray(qddc), *pk, a0,
                  _wrenches(plan, fext, Q.shape[0]), use_motor, tc)
    return True


def _wrenches(plan: DynamicsPlan, fext: np.ndarray | None, n: int) -> np.ndarray:
    """Merged wrenches as the kernels take them: (1, nm, 6) for every configuration or (n, nm, 6)."""
    if fext is None:
        return np.zeros((1, plan.nm, 6))
    if fext.ndim == 2:
        return np.ascontiguousarray(fext)[None]
    return np.ascontiguousarray(np.broadcast_to(fext, (*fext.shape[:-2], plan.nm, 6)).reshape(n, plan.nm, 6))


def crba_batch(plan: DynamicsPlan, Q: np.ndarray) -> np.ndarray | None:
    """Column mass matrices (N, nc, nc) of a batch of positions ``Q`` (N, positions) by
    :func:`crba_fk_batch`, or None when the tree is not one the kernel takes (:func:`batch_pack`)."""
    pk = batch_pack(plan)
    if pk is None:
        return None
    Mc = np.empty((Q.shape[0], plan.nc, plan.nc))
    crba_fk_batch(np.ascontiguousarray(Q), *pk, Mc)
    return Mc


@nb.njit(cache=True)
def aba_fk_batch(Q, qdc, tauc, ints, floats, a0, fext, use_motor, qdd):  # pragma: no cover - compiled
    """Column accelerations ``qdd`` (N, nm) by Featherstone's articulated-body algorithm for a
    tree without mimic joints (dynamics_numba.aba with one column per body: D is a number).
    Raises ValueError when some D is not positive (a joint that moves no mass)."""
    (nbod, nm, nmot, kind, qi, parent, order, moving, mparent, topo, col_rot, motor_cols, gain, off, P0, Ps, axis,
     point, m, h, Io, jm, visc, tcp, tcm) = _unpack(ints, floats)
    T = np.empty((nbod, 3, 4))
    L = np.empty((3, 4))
    S = np.empty((nm, 6))
    v = np.empty((nm, 6))
    cb = np.empty((nm, 6))
    pA = np.empty((nm, 6))
    IA = np.empty((nm, 6, 6))
    U = np.empty((nm, 6))
    D = np.empty(nm)
    u = np.empty(nm)
    a = np.empty((nm, 6))
    arm = np.zeros(nm)
    if use_motor:
        for i in range(nmot):
            arm[motor_cols[i]] = jm[i]
    each = fext.shape[0] > 1
    for n in range(Q.shape[0]):
        _poses(Q[n], nbod, kind, qi, gain, off, P0, Ps, parent, order, T, L)
        fx = fext[n if each else 0]
        qd = qdc[n]
        for k in range(nm):
            u[k] = tauc[n, k]
        if use_motor:
            for i in range(nmot):
                c = motor_cols[i]
                u[c] -= visc[i] * qd[c]
                if qd[c] > 0:
                    u[c] -= tcp[i]
                elif qd[c] < 0:
                    u[c] -= tcm[i]
        for j in range(nm):  # down: velocities, bias accelerations, rigid inertias and bias forces
            k = topo[j]
            R = T[moving[k]]
            t0, t1, t2 = R[0, 3], R[1, 3], R[2, 3]
            _column(R, t0, t1, t2, axis[k], point[k], col_rot[k], S[k])
            pk = mparent[k]
            w = qd[k]
            s0, s1, s2, s3, s4, s5 = S[k, 0] * w, S[k, 1] * w, S[k, 2] * w, S[k, 3] * w, S[k, 4] * w, S[k, 5] * w
            for r in range(6):
                v[k, r] = (v[pk, r] if pk >= 0 else 0.0) + S[k, r] * w
            w0, w1, w2, u0, u1, u2 = v[k, 0], v[k, 1], v[k, 2], v[k, 3], v[k, 4], v[k, 5]
            cb[k, 0], cb[k, 1], cb[k, 2] = w1 * s2 - w2 * s1, w2 * s0 - w0 * s2, w0 * s1 - w1 * s0
            cb[k, 3] = (w1 * s5 - w2 * s4) + (u1 * s2 - u2 * s1)
            cb[k, 4] = (w2 * s3 - w0 * s5) + (u2 * s0 - u0 * s2)
            cb[k, 5] = (w0 * s4 - w1 * s3) + (u0 * s1 - u1 * s0)
            mk = m[k]
            g0, g1, g2, i00, i01, i02, i11, i12, i22 = _world_inertia(R, t0, t1, t2, mk, h[k], Io[k])
            I = IA[k]
            I[0, 0], I[0, 1], I[0, 2], I[1, 1], I[1, 2], I[2, 2] = i00, i01, i02, i11, i12, i22
            I[1, 0], I[2, 0], I[2, 1] = i01, i02, i12
            I[0, 3], I[0, 4], I[0, 5], I[1, 3], I[1, 4], I[1, 5] = 0.0, -g2, g1, g2, 0.0, -g0
            I[2, 3], I[2, 4], I[2, 5] = -g1, g0, 0.0
            for r in range(3):
                for s in range(3):
                    I[3 + s, r] = I[r, 3 + s]
                    I[3 + r, 3 + s] = mk if r == s else 0.0
            iv0 = i00 * w0 + i01 * w1 + i02 * w2 + (g1 * u2 - g2 * u1)
            iv1 = i01 * w0 + i11 * w1 + i12 * w2 + (g2 * u0 - g0 * u2)
            iv2 = i02 * w0 + i12 * w1 + i22 * w2 + (g0 * u1 - g1 * u0)
            iv3, iv4, iv5 = mk * u0 + (w1 * g2 - w2 * g1), mk * u1 + (w2 * g0 - w0 * g2), mk * u2 + (w0 * g1 - w1 * g0)
            pA[k, 0] = (w1 * iv2 - w2 * iv1) + (u1 * iv5 - u2 * iv4) - fx[k, 0]
            pA[k, 1] = (w2 * iv0 - w0 * iv2) + (u2 * iv3 - u0 * iv5) - fx[k, 1]
            pA[k, 2] = (w0 * iv1 - w1 * iv0) + (u0 * iv4 - u1 * iv3) - fx[k, 2]
            pA[k, 3] = (w1 * iv5 - w2 * iv4) - fx[k, 3]
            pA[k, 4] = (w2 * iv3 - w0 * iv5) - fx[k, 4]
            pA[k, 5] = (w0 * iv4 - w1 * iv3) - fx[k, 5]
        for j in range(nm - 1, -1, -1):  # up: articulated inertias and bias forces onto the parents
            k = topo[j]
            I = IA[k]
            d = arm[k]
            for r in range(6):
                x = 0.0
                for s in range(6):
                    x += I[r, s] * S[k, s]
                U[k, r] = x
                d += S[k, r] * x
                u[k] -= S[k, r] * pA[k, r]
            if not d > 0.0:
                raise ValueError("not positive definite")
            D[k] = d
            p = mparent[k]
            if p < 0:
                continue
            ud = u[k] / d
            for r in range(6):
                x = pA[k, r] + U[k, r] * ud
                for s in range(6):
                    ia = I[r, s] - U[k, r] * U[k, s] / d
                    x += ia * cb[k, s]
                    IA[p, r, s] += ia
                pA[p, r] += x
        out = qdd[n]
        for j in range(nm):  # down: accelerations
            k = topo[j]
            p = mparent[k]
            x = u[k]
            for r in range(6):
                a[k, r] = (a0[r] if p < 0 else a[p, r]) + cb[k, r]
                x -= U[k, r] * a[k, r]
            out[k] = x / D[k]
            for r in range(6):
                a[k, r] += S[k, r] * out[k]


def aba_batch(plan: DynamicsPlan, Q: np.ndarray, qdc: np.ndarray, tauc: np.ndarray, a0: np.ndarray,
              fext: np.ndarray | None) -> np.ndarray | None:
    """Column accelerations (N, nc) of a batch by :func:`aba_fk_batch` (positions ``Q`` (N,
    positions), rates (N, nc), merged ``fext`` (nm, 6) or (…, nm, 6)), or None when the tree is
    not one the kernel takes (:func:`batch_pack`). Raises ValueError for a joint moving no mass."""
    pk = batch_pack(plan)
    if pk is None or not plan.plain:
        return None
    out = np.empty((Q.shape[0], plan.nc))
    aba_fk_batch(np.ascontiguousarray(Q), np.ascontiguousarray(qdc), np.ascontiguousarray(tauc), *pk, a0,
                 _wrenches(plan, fext, Q.shape[0]), plan.has_motor, out)
    return out
