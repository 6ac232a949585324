"""The dynamics plan: per-tree constants of :mod:`~kinetree.core.dynamics.rigid_body` (moving
bodies, their merged inertia, and one column per joint velocity), rebuilt on every edit, and the
flat packings of it the compiled kernels read (:func:`packed`).

A composite joint of k rows (:mod:`~kinetree.core.model.joint_subspace`) becomes k − 1 massless virtual
bodies and its own, one column each, as RBDL emulates it: the algorithms need no other case.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kinematics.plan import _E, _K, _K2, _z_to_axis, elementary_motions

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

_E3 = np.eye(3)


def _inertia_about_origin(m: float, c: np.ndarray, inertia6: np.ndarray) -> np.ndarray:
    """KineTree stores inertia about the body frame origin: ``[Ixx Iyy Izz Iyz Ixz Ixy]``."""
    i = inertia6
    return np.array([[i[0], i[5], i[4]], [i[5], i[1], i[3]], [i[4], i[3], i[2]]], dtype=float)


def _moved(m: float, h: np.ndarray, I: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First moment and inertia about the origin of the frame in which ``T`` is given, for a
    body whose first moment ``h`` and inertia ``I`` are about its own origin (pose ``T``)."""
    R, t = T[:3, :3], T[:3, 3]
    hs = R @ h
    Io = R @ I @ R.T + m * (t @ t * _E3 - np.outer(t, t)) + 2 * (t @ hs) * _E3 - np.outer(hs, t) - np.outer(t, hs)
    return m * t + hs, Io


class DynamicsPlan:
    """Per-tree constants of the dynamics (rebuilt with the kinematic plan on every edit)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        plan = self.kin = tree.kinematic_plan()
        bodies = tree.bodies
        nb = plan.nb
        # moving bodies (a joint with its own motion, mimic followers included), as indices into
        # the poses; a composite joint of k rows first adds k − 1 massless virtual bodies, the
        # frames between its elementary motions (RBDL's emulation), at pose indices nb, nb + 1, …
        moving: list[int] = []
        mparent_l: list[int] = []
        slot: dict[int, int] = {}
        self.virtual: list[tuple[int, int, tuple, int, int]] = []  # (body, parent, rows, first position, first pose)
        nv = 0
        for i in range(nb):
            if plan.kind[i] == "fixed":
                continue
            p = int(plan.parent[i])
            while p >= 0 and p not in slot:  # the nearest moving ancestor
                p = int(plan.parent[p])
            up = slot[p] if p >= 0 else -1
            rows = plan.rows.get(i)
            if rows is not None and len(rows) > 1:
                self.virtual.append((i, int(plan.parent[i]), rows, int(plan.qi[i]), nb + nv))
                for _ in range(len(rows) - 1):
                    moving.append(nb + nv)
                    mparent_l.append(up)
                    up = len(moving) - 1
                    nv += 1
            slot[i] = len(moving)
            moving.append(i)
            mparent_l.append(up)
        self.nv = nv
        nm = self.nm = len(moving)
        self.moving = np.array(moving, dtype=int)
        owner = np.full(nb, -1)  # moving ancestor-or-self, −1 = the base
        rel = [np.eye(4)] * nb  # pose of each body in its owner
        for i in range(nb):
            p = int(plan.parent[i])
            if plan.kind[i] != "fixed":
                owner[i], rel[i] = slot[i], np.eye(4)
            elif p >= 0:
                owner[i], rel[i] = owner[p], rel[p] @ plan.A[i]
            else:
                owner[i] = -1
        self.owner = owner
        # merged inertia of each moving body in its own frame: mass, first moment, inertia at origin
        m = np.zeros(nm)
        h = np.zeros((nm, 3))
        Io = np.zeros((nm, 3, 3))
        for i, b in enumerate(bodies):
            k = owner[i]
            if k < 0 or (b.mass == 0 and not np.any(b.inertia)):
                continue
            hb, Ib = _moved(b.mass, b.mass * np.asarray(b.center_of_mass), _inertia_about_origin(
                b.mass, b.center_of_mass, np.asarray(b.inertia)), rel[i])
            m[k] += b.mass
            h[k] += hb
            Io[k] += Ib
        self.m, self.h, self.Io = m, h, Io
        # moving-body incidence: anc[i, k] = 1 when k is i or an ancestor of i
        mparent = np.array(mparent_l, dtype=int)
        self.mparent = mparent
        anc = np.zeros((nm, nm))
        for i in range(nm):
            k = i
            while k >= 0:
                anc[i, k] = 1.0
                k = int(mparent[k])
        self.anc, self.desc = anc, np.ascontiguousarray(anc.T)
        # columns: one per joint velocity of a moving body; each is a rotation about or a
        # translation along a unit axis fixed in the body's own frame ("self") or in the frame
        # its joint hangs on ("parent")
        pos2dof, d = {}, 0
        for b, i in tree.position_slots():
            pos2dof[i] = d
            d += b.joint.velocity_count
        self.ndof = d
        cols: list[tuple[int, int, bool, np.ndarray, np.ndarray, int, float]] = []
        motor = []
        for k, i in enumerate(moving):
            if i >= nb:  # a composite joint's virtual body: its columns come with the real body
                continue
            kind, A, B = plan.kind[i], plan.A[i], plan.B[i]
            Binv = np.linalg.inv(B)
            p = int(plan.parent[i])
            dof = pos2dof[int(plan.qi[i])]
            gain = float(plan.gain[i])
            j = bodies[i].joint
            if kind in ("rz", "tz"):
                cols.append((k, i, kind == "rz", Binv[:3, 2], Binv[:3, 3], dof, gain))
                g = abs(j.gear_ratio)
                motor.append((len(cols) - 1, g * g * j.motor_inertia, g * g * j.viscous_friction,
                              g * j.coulomb_friction[0], g * j.coulomb_friction[1]))
                continue
            X = A  # axes in the parent-side frame, expressed in the parent body frame
            if kind == "composite":  # row e turns about its axis in the frame after rows 0…e (virtual bodies)
                rows = plan.rows[i]
                n = len(rows)
                for e, row in enumerate(rows):
                    rot, ax = bool(any(row[:3])), np.array(row[:3] if any(row[:3]) else row[3:])
                    if e < n - 1:
                        cols.append((k - n + 1 + e, int(moving[k - n + 1 + e]), rot, ax, np.zeros(3), dof + e, 1.0))
                    else:
                        cols.append((k, i, rot, Binv[:3, :3] @ ax, Binv[:3, 3], dof + e, 1.0))
            elif kind == "planar":
                cols += [(k, p, False, X[:3, 0], X[:3, 3], dof, 1.0), (k, p, False, X[:3, 1], X[:3, 3], dof + 1, 1.0),
                         (k, i, True, Binv[:3, 2], Binv[:3, 3], dof + 2, 1.0)]
            else:  # spherical, floating: ω along the child joint frame's axes
                cols += [(k, i, True, Binv[:3, a], Binv[:3, 3], dof + a, 1.0) for a in range(3)]
                if kind == "floating":
                    cols += [(k, p, False, X[:3, a], X[:3, 3], dof + 3 + a, 1.0) for a in range(3)]
        nc = self.nc = len(cols)
        self.col_body = np.array([c[0] for c in cols], dtype=int)
        frame = np.array([c[1] for c in cols], dtype=int)
        self.col_frame = np.where(frame < 0, nb + nv, frame)  # nb + nv = the base (identity)
        self.col_rot = np.array([c[2] for c in cols], dtype=bool)
        self.col_axis = np.array([c[3] for c in cols]).reshape(nc, 3)
        self.col_point = np.array([c[4] for c in cols]).reshape(nc, 3)
        self.col_dof = np.array([c[5] for c in cols], dtype=int)
        self.col_gain = np.array([c[6] for c in cols])
        # carrier: the body whose velocity turns the column (its own for "self" axes)
        own = frame == self.moving[self.col_body] if nc else np.zeros(0, bool)
        self.carrier = np.where(own, self.col_body, np.where(self.col_body >= 0, mparent[self.col_body], -1))
        self.carrier = np.where(self.carrier < 0, nm, self.carrier)  # nm = the base (at rest)
        self.all_rot_self = bool(nc) and bool(self.col_rot.all() and own.all())
        self.anc_c = anc[:, self.col_body] if nc else np.zeros((nm, 0))  # body i moves with column c
        # mass-matrix masks: upper[c, c'] when c's body is c''s or an ancestor; strict without same body
        self.upper = anc[self.col_body][:, self.col_body].T if nc else np.zeros((0, 0))
        same = self.col_body[:, None] == self.col_body[None, :]
        self.strict_low = (self.upper * ~same).T
        self.P = np.zeros((d, nc))
        self.P[self.col_dof, np.arange(nc)] = self.col_gain
        self.plain = bool(np.array_equal(self.P, np.eye(d))) if d == nc else False
        mot = np.array(motor).reshape(-1, 5)
        self.motor_cols = mot[:, 0].astype(int)
        self.jm, self.visc, self.tcp, self.tcm = mot[:, 1], mot[:, 2], mot[:, 3], mot[:, 4]
        self.has_motor = bool(mot[:, 1:].any())
        self.has_friction = bool(mot[:, 2:].any())
        self.motor_diag = np.zeros((d, d))
        if mot.size:
            Pm = self.P[:, self.motor_cols]
            self.motor_diag = (Pm * self.jm) @ Pm.T
        self.nb = nb
        self.body_index = {b.name: i for i, b in enumerate(bodies)}
        # the compiled single-configuration FK's constants (trees without quaternion/planar
        # joints); composite joints as RBDL's emulation: a rotation or slide per row, through
        # their virtual bodies (poses nb, nb + 1, …: the layout of extend)
        kin = plan
        self.npose = nb + nv
        self.fk_args = None
        if all(kin.kind[i] == "composite" for i in kin.general):
            self.fk_args = _compiled_fk_args(kin, self.virtual, nb + nv)
        self.gravity_pack = None
        if self.fk_args is not None:  # the compiled gravity torque's constants in two flat arrays
            c, qi_, gn, off, P0, Ps, par, order = self.fk_args
            self.gravity_pack = (
                np.concatenate([c, qi_, par, order, self.moving, self.col_body, self.col_frame, self.col_rot]).astype(
                    np.int64),
                np.concatenate([gn, off, P0.ravel(), Ps.ravel(), self.col_axis.ravel(), self.col_point.ravel(), m,
                                h.ravel(), self.desc.ravel()]), nb + nv, nm)
        self.merge = np.zeros((nm, nb))
        self.merge[owner[owner >= 0], np.flatnonzero(owner >= 0)] = 1.0

    # --- per configuration ------------------------------------------------------------------
    def extend(self, T: np.ndarray, Q: np.ndarray) -> np.ndarray:
        """Body poses ``T`` (…, nb, 4, 4) followed by the poses of the composite joints' virtual
        bodies for positions ``Q`` (…, positions): (…, nb + nv, 4, 4), what the algorithms take."""
        if not self.nv:
            return T
        lead = T.shape[:-3]
        nb = T.shape[-3]
        Te = np.empty((*lead, nb + self.nv, 4, 4))
        Te[..., :nb, :, :] = T
        Qf = Q.reshape(-1, Q.shape[-1])
        A = self.kin.A
        for i, p, rows, c, v0 in self.virtual:
            F = A[i] if p < 0 else T[..., p, :, :] @ A[i]
            for e in range(len(rows) - 1):
                F = F @ elementary_motions(rows[e], Qf[:, c + e]).reshape(*lead, 4, 4)
                Te[..., v0 + e, :, :] = F
        return Te

    def columns(self, T: np.ndarray) -> np.ndarray:
        """Columns ``S`` (…, nc, 6): each velocity's unit motion ``[ω; v]`` about the base
        origin, base frame, from the body poses ``T`` (…, nb, 4, 4)."""
        if self.all_rot_self:
            Rm, tm = T[..., self.moving, :3, :3], T[..., :3, 3][..., self.moving, :]
            Rf, tf = Rm[..., self.col_body, :, :], tm[..., self.col_body, :]
        else:
            Te = np.concatenate([T, np.broadcast_to(np.eye(4), (*T.shape[:-3], 1, 4, 4))], axis=-3)
            Rf, tf = Te[..., self.col_frame, :3, :3], Te[..., :3, 3][..., self.col_frame, :]
        ax = np.einsum("...ij,...j->...i", Rf, self.col_axis)
        S = np.empty((*ax.shape[:-1], 6))
        S[..., :3] = ax
        S[..., 3:] = ax
        pt = np.einsum("...ij,...j->...i", Rf, self.col_point) + tf
        if self.all_rot_self:
            S[..., 3:] = _cross(pt, ax)
        else:
            S[..., :3] *= self.col_rot[:, None]
            S[..., 3:] = np.where(self.col_rot[:, None], _cross(pt, ax), ax)
        return S

    def frames(self, T: np.ndarray) -> tuple[np.ndarray, ...]:
        """Columns ``S`` (…, nc, 6) and world inertia (m, h, Io) of the moving bodies from the
        body poses ``T`` (…, nb, 4, 4)."""
        S = self.columns(T)
        Rm, tm = T[..., self.moving, :3, :3], T[..., :3, 3][..., self.moving, :]
        hs = np.einsum("...ij,...j->...i", Rm, self.h)
        h = self.m[:, None] * tm + hs
        # inertia about the base origin: R·Io·Rᵀ + shift terms (see _moved)
        Io = Rm @ self.Io @ np.swapaxes(Rm, -1, -2)
        tt = np.einsum("...i,...i->...", tm, tm)
        th = np.einsum("...i,...i->...", tm, hs)
        Io += ((self.m * tt + 2 * th)[..., None, None] * _E3
               - self.m[:, None, None] * tm[..., :, None] * tm[..., None, :]
               - hs[..., :, None] * tm[..., None, :] - tm[..., :, None] * hs[..., None, :])
        return S, h, Io


def _compiled_fk_args(kin, virtual: list, npose: int) -> tuple:
    """``(code, qi, gain, offset, P0, Pstack, parent, order)`` of the compiled FK over the bodies
    and the composite joints' virtual bodies: each pose ``A·M(q)·B`` with ``M`` a rotation about
    or a slide along z (the row's axis turned to z), as the kinematic plan's revolute joints."""
    nb = kin.nb
    code = np.zeros(npose, dtype=np.int64)
    qi, parent = np.zeros(npose, dtype=np.int64), np.full(npose, -1, dtype=np.int64)
    gain, off = np.ones(npose), np.zeros(npose)
    A, B = np.tile(np.eye(4), (npose, 1, 1)), np.tile(np.eye(4), (npose, 1, 1))
    code[:nb] = [{"fixed": 0, "rz": 1, "tz": 2}.get(k, 1) for k in kin.kind]
    qi[:nb], parent[:nb], gain[:nb], off[:nb] = kin.qi, kin.parent, kin.gain, kin.offset
    A[:nb], B[:nb] = kin.A, kin.B
    first = {i: v0 for i, _p, _rows, _c, v0 in virtual}
    for i, rows in kin.rows.items():
        prev, n = int(kin.parent[i]), len(rows)
        for e, row in enumerate(rows):
            rot = bool(any(row[:3]))
            Ra = _z_to_axis(np.array(row[:3] if rot else row[3:]))
            k = i if e == n - 1 else first[i] + e
            code[k], qi[k], gain[k], off[k], parent[k] = (1 if rot else 2), kin.qi[i] + e, 1.0, 0.0, prev
            A[k] = (kin.A[i] if e == 0 else np.eye(4)) @ Ra
            B[k] = Ra.T @ (kin.B[i] if e == n - 1 else np.eye(4))
            prev = k
    depth = np.zeros(npose, dtype=int)
    for k in range(npose):
        p = int(parent[k])
        while p >= 0:
            depth[k] += 1
            p = int(parent[p])
    P0 = A @ B
    Ps = np.stack([A @ _K @ B, A @ _K2 @ B, A @ _E @ B], axis=1).reshape(npose, 3, 16)
    order = np.argsort(depth, kind="stable").astype(np.int64)
    if not kin.rows:  # the kinematic plan's own arrays (kept bit for bit)
        P0, Ps = kin.P0, kin.Pstack
    return (code, qi, gain, off, np.ascontiguousarray(P0), np.ascontiguousarray(Ps), parent, order)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a × b`` over the last axis (numpy's cross has a large fixed cost on small arrays)."""
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    return np.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)


class AbaConstants:
    """Per-plan constants of ABA: moving bodies parents first, each body's run of columns."""

    def __init__(self, plan: DynamicsPlan) -> None:
        nm = plan.nm
        depth = np.zeros(nm, dtype=int)
        for k in range(nm):
            p = k
            while plan.mparent[p] >= 0:
                p = int(plan.mparent[p])
                depth[k] += 1
        self.topo = np.argsort(depth, kind="stable").astype(np.int64)
        self.ncol = np.bincount(plan.col_body, minlength=nm).astype(np.int64)
        self.cstart = np.zeros(nm, dtype=np.int64)
        self.cstart[1:] = np.cumsum(self.ncol)[:-1]  # a body's columns are contiguous, bodies in order
        self.mparent = plan.mparent.astype(np.int64)
        self.bsum = (plan.col_body[None, :] == np.arange(nm)[:, None]).astype(float)
        self.jm = np.zeros(plan.nc)
        self.jm[plan.motor_cols] = plan.jm


def packed(plan: DynamicsPlan) -> tuple[np.ndarray, np.ndarray] | None:
    """The plan in two flat arrays (ints, floats) for the compiled single-configuration RNEA
    and ABA with FK inside (dynamics_numba._unpack reads them), or None for trees with
    quaternion or planar joints (no compiled FK)."""
    if plan.fk_args is None or not plan.nb:
        return None
    got = getattr(plan, "_packed", None)
    if got is None:
        cst = aba_constants(plan)
        code, qi, gain, off, P0, Ps, parent, order = plan.fk_args
        dims = [plan.npose, plan.nm, plan.nc, plan.motor_cols.size, int(plan.has_motor)]
        ints = np.concatenate([dims, code, qi, parent, order, plan.moving, plan.col_body, plan.col_frame, plan.col_rot,
                               plan.carrier, plan.motor_cols, cst.topo, cst.mparent, cst.cstart, cst.ncol])
        floats = np.concatenate([gain, off, P0.ravel(), Ps.ravel(), plan.col_axis.ravel(), plan.col_point.ravel(),
                                 plan.m, plan.h.ravel(), plan.Io.ravel(), plan.anc_c.ravel(), plan.desc.ravel(),
                                 plan.jm, plan.visc, plan.tcp, plan.tcm])
        got = plan._packed = (ints.astype(np.int64), floats.astype(float))  # type: ignore[attr-defined]
    return got


def aba_constants(plan: DynamicsPlan) -> AbaConstants:
    """The plan's :class:`AbaConstants`, built once per plan."""
    c = getattr(plan, "_aba", None)
    if c is None:
        c = plan._aba = AbaConstants(plan)  # type: ignore[attr-defined]
    return c
