"""Forward dynamics by Featherstone's articulated-body algorithm (ABA), the default of
:func:`~kinetree.core.dynamics.rigid_body.forward_dynamics`.

Everything is in the base frame, as the rest of the engine (``rigid_body_dynamics``): the
articulated inertias of children add to their parent's without any change of frame, so the
three passes are sums over the plan's columns. A joint of ``k`` velocities (1, 3 for a
spherical or planar joint, 6 for a floating one) has a ``k×k`` ``D = Sᵀ·Iᴬ·S + G²·Jm``; motor
inertia enters as Pinocchio's armature and friction is taken off the torque first, so the result
inverts :func:`~kinetree.core.dynamics.rigid_body.inverse_dynamics` exactly as the Cholesky path
does. Mimic joints couple velocities that ABA's recursion treats as independent: for them the
Cholesky path runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..lazy import LazyImports
from . import rigid_body as rbd
from .plan import aba_constants, packed

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .rigid_body import DynamicsPlan

#: the batch kernel imports numba (~0.3 s): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"aba_batch": ".batch:aba_batch"})


def _friction_free(plan: DynamicsPlan, qdc: np.ndarray, tauc: np.ndarray) -> np.ndarray:
    """The torque left for the bodies once the motors' friction is paid."""
    if not plan.has_friction:
        return tauc
    mc = plan.motor_cols
    s = qdc[..., mc]
    u = tauc.copy()
    u[..., mc] -= plan.visc * s + np.where(s > 0, plan.tcp, np.where(s < 0, plan.tcm, 0.0))
    return u


def _aba_numpy(plan: DynamicsPlan, T: np.ndarray, qdc: np.ndarray, tauc: np.ndarray, a0: np.ndarray,
               fext: np.ndarray | None) -> np.ndarray:
    """Column accelerations for poses ``T`` (…, nb, 4, 4), a loop over bodies vectorized over ``…``."""
    cst = aba_constants(plan)
    S, h, Io = plan.frames(T)
    lead = S.shape[:-2]
    Sqd = S * qdc[..., None]
    v = plan.anc_c @ Sqd
    ve = np.concatenate([v, np.zeros((*lead, 1, 6))], axis=-2)
    cc = rbd._cross_motion(ve[..., plan.carrier, :], Sqd)
    cb = cst.bsum @ cc  # velocity-product accelerations summed per body
    pA = rbd._cross_force(v, rbd._apply_inertia(plan.m, h, Io, v))
    if fext is not None:
        pA = pA - fext
    H = np.zeros((*lead, plan.nm, 3, 3))
    H[..., 0, 1], H[..., 0, 2], H[..., 1, 2] = -h[..., 2], h[..., 1], -h[..., 0]
    H = H - np.swapaxes(H, -1, -2)
    IA = np.zeros((*lead, plan.nm, 6, 6))
    IA[..., :3, :3], IA[..., :3, 3:], IA[..., 3:, :3] = Io, H, np.swapaxes(H, -1, -2)
    IA[..., 3:, 3:] = plan.m[:, None, None] * np.eye(3)
    u = _friction_free(plan, qdc, tauc).copy()
    saved = {}
    for k in cst.topo[::-1]:
        cols = slice(int(cst.cstart[k]), int(cst.cstart[k] + cst.ncol[k]))
        Sk = S[..., cols, :]  # (…, n, 6)
        U = IA[..., k, :, :] @ np.swapaxes(Sk, -1, -2)  # (…, 6, n)
        D = Sk @ U + np.diag(cst.jm[cols])
        try:
            np.linalg.cholesky(D)
        except np.linalg.LinAlgError:
            rbd._singular()  # forward_dynamics has checked the Euler joints: a joint moving no mass
        Dinv = np.linalg.inv(D)
        u[..., cols] -= np.einsum("...ni,...i->...n", Sk, pA[..., k, :])
        saved[int(k)] = (cols, Sk, U, Dinv)
        p = int(plan.mparent[k])
        if p >= 0:
            UD = U @ Dinv
            Ia = IA[..., k, :, :] - UD @ np.swapaxes(U, -1, -2)
            IA[..., p, :, :] += Ia
            pA[..., p, :] += (pA[..., k, :] + np.einsum("...ij,...j->...i", Ia, cb[..., k, :])
                              + np.einsum("...ij,...j->...i", UD, u[..., cols]))
    qdd = np.empty_like(qdc)
    a = np.empty((*lead, plan.nm, 6))
    for k in cst.topo:
        cols, Sk, U, Dinv = saved[int(k)]
        p = int(plan.mparent[k])
        ap = (a0 if p < 0 else a[..., p, :]) + cb[..., k, :]
        x = np.einsum("...ij,...j->...i", Dinv, u[..., cols] - np.einsum("...ri,...r->...i", U, ap))
        qdd[..., cols] = x
        a[..., k, :] = ap + np.einsum("...ni,...n->...i", Sk, x)
    return qdd


def aba(tree: RigidBodyTree, plan: DynamicsPlan, Q: np.ndarray, qd: np.ndarray, tau: np.ndarray,
        fext: np.ndarray | None) -> np.ndarray:
    """Joint accelerations (…, dofs) of a plan without mimic joints (columns = dofs)."""
    cst = aba_constants(plan)
    a0 = rbd._gravity(tree)
    k = rbd._kernel()
    if k is None:
        return _aba_numpy(plan, rbd._poses(tree, Q), qd, tau, a0, fext)
    args = (plan.moving, plan.col_body, plan.col_frame, plan.col_rot, plan.col_axis, plan.col_point, plan.carrier,
            plan.m, plan.h, plan.Io, cst.topo, cst.mparent, cst.cstart, cst.ncol)
    mot = (plan.motor_cols, plan.jm, plan.visc, plan.tcp, plan.tcm, plan.has_motor)
    qdc, tauc = np.ascontiguousarray(qd), np.ascontiguousarray(tau)
    try:
        if Q.ndim == 1:
            out = np.empty(plan.nc)
            F = np.zeros((plan.nm, 6)) if fext is None else np.ascontiguousarray(fext)
            pk = packed(plan)
            if pk is not None:
                k.aba_packed(Q, *pk, qdc, tauc, a0, F, out)
                return out
            k.aba(rbd._poses(tree, Q, plan, k), *args, qdc, tauc, a0, F, *mot, out)
            return out
        flat = Q.reshape(-1, Q.shape[-1])
        n = flat.shape[0]
        out = np.empty((n, plan.nc))
        qdc, tauc = qdc.reshape(n, -1), tauc.reshape(n, -1)
        if (got := _LAZY.aba_batch(plan, flat, qdc, tauc, a0, fext)) is not None:  # FK inside, one compiled pass
            return got.reshape(*Q.shape[:-1], plan.nc)
        F = (np.zeros((1, plan.nm, 6)) if fext is None else
             np.ascontiguousarray(fext)[None] if fext.ndim == 2 else
             np.ascontiguousarray(np.broadcast_to(fext, (*Q.shape[:-1], plan.nm, 6)).reshape(n, plan.nm, 6)))
        for start in range(0, n, 8192):  # poses of one chunk at a time: bounded memory
            sl = slice(start, min(n, start + 8192))
            Fs = F if F.shape[0] == 1 else F[sl]
            k.aba_batch(rbd._poses(tree, flat[sl], plan), *args, qdc[sl], tauc[sl], a0, Fs, *mot, out[sl])
        return out.reshape(*Q.shape[:-1], plan.nc)
    except ValueError:
        rbd._singular(tree, Q)
        raise  # unreachable: _singular raises
