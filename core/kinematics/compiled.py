"""Compiled batch forward kinematics: the optional fast path (``pip install 'kinetree[fast]'``).

:meth:`KinematicPlan.fk_batch` sends large batches here when numba is installed (set
``KINETREE_NUMBA=0`` before the first large batch to keep numpy). It computes the same poses
from the same plan as the numpy path, to a few units in the last place: one parallel loop over
blocks of configurations, each block first taking the sines and cosines of all its revolute
angles, then composing every body (``parent · A · M(q) · B``, written straight into the result).

Why the sine and cosine are computed here: with numpy's (or libm's) ``sin``/``cos`` they cost
more than the 3× Pinocchio budget for the whole batch (~10 ns an angle), while the polynomial
below is plain arithmetic that the compiler vectorizes (~1.5 ns for both). It is derived from
fdlibm: its constants, a three-part Cody–Waite reduction by π/2 and the kernels' polynomials
(``e_rem_pio2.c``, ``k_sin.c``, ``k_cos.c``: "Copyright (C) 1993 by
Sun Microsystems, Inc. All rights reserved. Developed at SunSoft, a Sun Microsystems, Inc.
business. Permission to use, copy, modify, and distribute this software is freely granted,
provided that this notice is preserved."); the results are within 1.2e-16 of numpy's for
every angle (tests/core/test_kinematics_numba.py). A block with an angle of 1e6 rad or more
(or a NaN) takes all its sines and cosines from libm.

A process forked after the kernel ran computes in numpy: GNU OpenMP, numba's threading layer
where it is installed, kills a forked child that launches parallel work.
"""

from __future__ import annotations

import math
import os
import threading

import numba as nb
import numpy as np

from .joint_codes import KIND_CODES as _KIND_CODES

FIXED, RZ, TZ, PLANAR, FLOATING = (_KIND_CODES[k] for k in ("fixed", "rz", "tz", "planar", "floating"))

_INV_PIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e00  # the first 33 bits of π/2: k · _PIO2_1 is exact for k < 2^20
_PIO2_2 = 6.07710050630396597660e-11  # the next 33 bits
_PIO2_2T = 2.02226624879595063154e-21  # π/2 − _PIO2_1 − _PIO2_2
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
POLY_LIMIT = 1.0e6  # |angle| below this: the polynomial (the reduction stays exact)

# numba's default threading layer on a machine without TBB/OpenMP ("workqueue") aborts the
# process when two threads launch parallel kernels at once (the GUI computes in worker threads)
_launch = threading.Lock()
_forked = [False]  # set in a child forked from this process (see the module docstring)
os.register_at_fork(after_in_child=lambda: _forked.__setitem__(0, True))


@nb.njit(fastmath={"contract"}, cache=True)
def _sincos_inplace(S, C, n):  # pragma: no cover - compiled
    """S[:n] holds angles with |x| < POLY_LIMIT; replace them by their sines, cosines into C."""
    for i in range(n):
        x = S[i]
        k = math.floor(x * _INV_PIO2 + 0.5)  # nearest multiple of π/2
        y = ((x - k * _PIO2_1) - k * _PIO2_2) - k * _PIO2_2T  # |y| ≤ π/4
        z = y * y
        s = y + y * z * (_S1 + z * (_S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))))
        hz = 0.5 * z
        w = 1.0 - hz
        c = w + (((1.0 - w) - hz) + z * z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6))))))
        # quadrant k mod 4 in floating point and selects, not branches: the loop vectorizes
        m = k - 4.0 * math.floor(k * 0.25)
        odd = (m == 1.0) | (m == 3.0)
        so = c if odd else s
        co = s if odd else c
        S[i] = -so if m >= 2.0 else so
        C[i] = -co if (m == 1.0) | (m == 2.0) else co


@nb.njit(cache=True, error_model="numpy")
def _motion(kind, Q, n, j):  # pragma: no cover - compiled
    """3×4 motion of a planar/spherical/floating joint (as kinematics._general_motion)."""
    M = np.zeros((3, 4))
    if kind == PLANAR:
        c, s = math.cos(Q[n, j + 2]), math.sin(Q[n, j + 2])
        M[0, 0], M[0, 1], M[1, 0], M[1, 1], M[2, 2] = c, -s, s, c, 1.0
        M[0, 3], M[1, 3] = Q[n, j], Q[n, j + 1]
        return M
    w, x, y, z = Q[n, j], Q[n, j + 1], Q[n, j + 2], Q[n, j + 3]
    big = max(abs(w), abs(x), abs(y), abs(z))
    if big > 1e150:  # the squares would overflow
        w, x, y, z = w / big, x / big, y / big, z / big
    r = math.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / r, x / r, y / r, z / r
    M[0, 0], M[0, 1], M[0, 2] = 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)
    M[1, 0], M[1, 1], M[1, 2] = 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)
    M[2, 0], M[2, 1], M[2, 2] = 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)
    if kind == FLOATING:
        M[0, 3], M[1, 3], M[2, 3] = Q[n, j + 4], Q[n, j + 5], Q[n, j + 6]
    return M


@nb.njit(parallel=True, cache=True, error_model="numpy")
def _fk_kernel(Q, order, pslot, kind, qi, gain, off, A, a_eye, B, b_eye, rev, block, out):  # pragma: no cover
    """out[n, k] = pose of the body in slot k for configuration Q[n]; slots are visited in
    ``order`` (parents first), ``pslot[k]`` is the parent's slot or −1 for the base, and the
    per-slot arrays describe that body's joint. ``rev`` lists the revolute slots."""
    N, m, nr = Q.shape[0], order.shape[0], rev.shape[0]
    for blk in nb.prange((N + block - 1) // block):
        n0 = blk * block
        nn = min(N, n0 + block) - n0
        S = np.empty(max(nr, 1) * block)
        C = np.empty(max(nr, 1) * block)
        huge = False
        for r in range(nr):
            k = rev[r]
            for i in range(nn):
                th = Q[n0 + i, qi[k]] * gain[k] + off[k]
                S[r * block + i] = th
                huge |= not abs(th) < POLY_LIMIT
        if huge:
            for t in range(nr * block):
                th = S[t]
                S[t], C[t] = math.sin(th), math.cos(th)
        else:
            _sincos_inplace(S, C, nr * block)
        for i in range(nn):
            n = n0 + i
            r = 0  # revolute slots are visited in the order of ``rev``
            for o in range(m):
                k = order[o]
                p = pslot[k]
                Ak = A[k]
                if p < 0:
                    x00, x01, x02, x03 = Ak[0, 0], Ak[0, 1], Ak[0, 2], Ak[0, 3]
                    x10, x11, x12, x13 = Ak[1, 0], Ak[1, 1], Ak[1, 2], Ak[1, 3]
                    x20, x21, x22, x23 = Ak[2, 0], Ak[2, 1], Ak[2, 2], Ak[2, 3]
                else:
                    P = out[n, p]
                    if a_eye[k]:
                        x00, x01, x02, x03 = P[0, 0], P[0, 1], P[0, 2], P[0, 3]
                        x10, x11, x12, x13 = P[1, 0], P[1, 1], P[1, 2], P[1, 3]
                        x20, x21, x22, x23 = P[2, 0], P[2, 1], P[2, 2], P[2, 3]
                    else:
                        x00 = P[0, 0] * Ak[0, 0] + P[0, 1] * Ak[1, 0] + P[0, 2] * Ak[2, 0]
                        x01 = P[0, 0] * Ak[0, 1] + P[0, 1] * Ak[1, 1] + P[0, 2] * Ak[2, 1]
                        x02 = P[0, 0] * Ak[0, 2] + P[0, 1] * Ak[1, 2] + P[0, 2] * Ak[2, 2]
                        x03 = P[0, 0] * Ak[0, 3] + P[0, 1] * Ak[1, 3] + P[0, 2] * Ak[2, 3] + P[0, 3]
                        x10 = P[1, 0] * Ak[0, 0] + P[1, 1] * Ak[1, 0] + P[1, 2] * Ak[2, 0]
                        x11 = P[1, 0] * Ak[0, 1] + P[1, 1] * Ak[1, 1] + P[1, 2] * Ak[2, 1]
                        x12 = P[1, 0] * Ak[0, 2] + P[1, 1] * Ak[1, 2] + P[1, 2] * Ak[2, 2]
                        x13 = P[1, 0] * Ak[0, 3] + P[1, 1] * Ak[1, 3] + P[1, 2] * Ak[2, 3] + P[1, 3]
                        x20 = P[2, 0] * Ak[0, 0] + P[2, 1] * Ak[1, 0] + P[2, 2] * Ak[2, 0]
                        x21 = P[2, 0] * Ak[0, 1] + P[2, 1] * Ak[1, 1] + P[2, 2] * Ak[2, 1]
                        x22 = P[2, 0] * Ak[0, 2] + P[2, 1] * Ak[1, 2] + P[2, 2] * Ak[2, 2]
                        x23 = P[2, 0] * Ak[0, 3] + P[2, 1] * Ak[1, 3] + P[2, 2] * Ak[2, 3] + P[2, 3]
                kd = kind[k]
                if kd == RZ:
                    s, c = S[r * block + i], C[r * block + i]
                    r += 1
                    x00, x01 = c * x00 + s * x01, c * x01 - s * x00
                    x10, x11 = c * x10 + s * x11, c * x11 - s * x10
                    x20, x21 = c * x20 + s * x21, c * x21 - s * x20
                elif kd == TZ:
                    d = Q[n, qi[k]] * gain[k] + off[k]
                    x03 += d * x02
                    x13 += d * x12
                    x23 += d * x22
                elif kd != FIXED:
                    M = _motion(kd, Q, n, qi[k])
                    y00 = x00 * M[0, 0] + x01 * M[1, 0] + x02 * M[2, 0]
                    y01 = x00 * M[0, 1] + x01 * M[1, 1] + x02 * M[2, 1]
                    y02 = x00 * M[0, 2] + x01 * M[1, 2] + x02 * M[2, 2]
                    x03 = x00 * M[0, 3] + x01 * M[1, 3] + x02 * M[2, 3] + x03
                    y10 = x10 * M[0, 0] + x11 * M[1, 0] + x12 * M[2, 0]
                    y11 = x10 * M[0, 1] + x11 * M[1, 1] + x12 * M[2, 1]
                    y12 = x10 * M[0, 2] + x11 * M[1, 2] + x12 * M[2, 2]
                    x13 = x10 * M[0, 3] + x11 * M[1, 3] + x12 * M[2, 3] + x13
                    y20 = x20 * M[0, 0] + x21 * M[1, 0] + x22 * M[2, 0]
                    y21 = x20 * M[0, 1] + x21 * M[1, 1] + x22 * M[2, 1]
                    y22 = x20 * M[0, 2] + x21 * M[1, 2] + x22 * M[2, 2]
                    x23 = x20 * M[0, 3] + x21 * M[1, 3] + x22 * M[2, 3] + x23
                    x00, x01, x02, x10, x11, x12, x20, x21, x22 = y00, y01, y02, y10, y11, y12, y20, y21, y22
                O = out[n, k]
                if b_eye[k]:
                    O[0, 0], O[0, 1], O[0, 2], O[0, 3] = x00, x01, x02, x03
                    O[1, 0], O[1, 1], O[1, 2], O[1, 3] = x10, x11, x12, x13
                    O[2, 0], O[2, 1], O[2, 2], O[2, 3] = x20, x21, x22, x23
                else:
                    Bk = B[k]
                    O[0, 0] = x00 * Bk[0, 0] + x01 * Bk[1, 0] + x02 * Bk[2, 0]
                    O[0, 1] = x00 * Bk[0, 1] + x01 * Bk[1, 1] + x02 * Bk[2, 1]
                    O[0, 2] = x00 * Bk[0, 2] + x01 * Bk[1, 2] + x02 * Bk[2, 2]
                    O[0, 3] = x00 * Bk[0, 3] + x01 * Bk[1, 3] + x02 * Bk[2, 3] + x03
                    O[1, 0] = x10 * Bk[0, 0] + x11 * Bk[1, 0] + x12 * Bk[2, 0]
                    O[1, 1] = x10 * Bk[0, 1] + x11 * Bk[1, 1] + x12 * Bk[2, 1]
                    O[1, 2] = x10 * Bk[0, 2] + x11 * Bk[1, 2] + x12 * Bk[2, 2]
                    O[1, 3] = x10 * Bk[0, 3] + x11 * Bk[1, 3] + x12 * Bk[2, 3] + x13
                    O[2, 0] = x20 * Bk[0, 0] + x21 * Bk[1, 0] + x22 * Bk[2, 0]
                    O[2, 1] = x20 * Bk[0, 1] + x21 * Bk[1, 1] + x22 * Bk[2, 1]
                    O[2, 2] = x20 * Bk[0, 2] + x21 * Bk[1, 2] + x22 * Bk[2, 2]
                    O[2, 3] = x20 * Bk[0, 3] + x21 * Bk[1, 3] + x22 * Bk[2, 3] + x23
                O[3, 0], O[3, 1], O[3, 2], O[3, 3] = 0.0, 0.0, 0.0, 1.0


def usable() -> bool:
    """False in a process forked from one that imported the kernel (GNU OpenMP is not fork-safe)."""
    return not _forked[0]


def fk_batch(plan, Q: np.ndarray, sel: np.ndarray) -> np.ndarray:
    """(N, m, 4, 4) poses of the bodies ``sel`` (ancestor-closed) for the batch ``Q`` of shape
    (N, position_count): what :meth:`KinematicPlan.fk_batch` returns, computed by the kernel."""
    if Q.ndim != 2 or Q.shape[1] != plan.position_count:
        raise ValueError(f"Q has shape {Q.shape}; the plan needs (N, {plan.position_count})")
    N, m = Q.shape[0], sel.size
    out = np.empty((N, m, 4, 4))
    if N == 0 or m == 0:
        return out
    slot = np.full(plan.nb, -1, dtype=np.int64)
    slot[sel] = np.arange(m)
    parents = plan.parent[sel]
    pslot = np.where(parents >= 0, slot[np.maximum(parents, 0)], -1).astype(np.int64)
    if np.any((pslot < 0) & (parents >= 0)):
        raise ValueError("bodies must include every ancestor of each selected body")
    order = np.argsort(plan.depth[sel], kind="stable").astype(np.int64)  # parents first
    kind = plan.kind_code[sel]
    rev = order[kind[order] == RZ]  # the revolute slots in the order the kernel meets them
    block = int(np.clip(4096 // max(rev.size, 1), 16, 256))  # keep a block's angles in cache
    # C-ordered, float64 and writeable: one compiled signature (a read-only array is another)
    Q = np.require(Q, np.float64, ["C", "W"])
    with _launch:
        _fk_kernel(Q, order, pslot, kind, plan.qi[sel].astype(np.int64), plan.gain[sel], plan.offset[sel],
                   np.ascontiguousarray(plan.A[sel, :3]), np.asarray(plan.A_is_I)[sel],
                   np.ascontiguousarray(plan.B[sel, :3]), np.asarray(plan.B_is_I)[sel], rev, block, out)
    return out
