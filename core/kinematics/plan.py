"""Vectorized forward kinematics and Jacobians, compiled from a tree into flat arrays.

Every body's pose in its parent is ``A · M(q) · B`` with constant 4×4 ``A`` and ``B``. For
revolute and prismatic joints ``A`` and ``B`` absorb a rotation that takes the joint axis to z,
so ``M`` is always ``Rz(θ)`` or ``Tz(d)``: a column mix, never a generic 4×4 product.

* One configuration: ``A·Rz(θ)·B = P0 + sinθ·P1 + (1−cosθ)·P2`` (and ``P0 + d·P3`` for a
  prismatic joint) for all bodies at once, then one product per body, level by level.
* A batch: poses are kept as ``(4 columns, 3 rows, N)`` arrays; composing with a constant is
  one GEMM over the whole chunk and ``Rz``/``Tz`` are column mixes. Batches are processed in
  chunks that keep the working set in cache.
"""

from __future__ import annotations

import importlib.util
import math
import os
import warnings
from typing import TYPE_CHECKING

import numpy as np

from ..lazy import LazyImports
from ..model.joint import QUATERNION_ROWS
from ..transforms import inverse_transform
from .joint_codes import KIND_CODES as _KIND_CODES

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

#: the compiled kernel imports numba (~0.3 s): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {"kinematics_numba": ".compiled"})
_K = np.zeros((4, 4))
_K[0, 1], _K[1, 0] = -1.0, 1.0
_K2 = np.diag([-1.0, -1.0, 0.0, 0.0])
_E = np.zeros((4, 4))
_E[2, 3] = 1.0
_CACHE_BYTES = 1 << 20
COMPILED_MIN = 4096  # smaller batches stay in numpy: the kernel's gain is below a millisecond
_compiled: list[str | None] = []  # [backend] once looked up


def compiled_backend() -> str | None:
    """"numba" when large batches go through the compiled kernel (the ``fast`` extra is
    installed and ``KINETREE_NUMBA`` is not ``0`` when the first large batch runs), else None:
    numpy throughout."""
    if not _compiled:
        backend = None
        if os.environ.get("KINETREE_NUMBA", "1") != "0" and importlib.util.find_spec("numba"):
            try:
                backend = "numba" if _LAZY.kinematics_numba else None  # numba's import: ~0.3 s
            except (ImportError, OSError, RuntimeError) as e:  # installed but unusable
                warnings.warn(f"batch forward kinematics stays in numpy: numba failed to load ({e})",
                              RuntimeWarning, stacklevel=3)
        _compiled.append(backend)
    return _compiled[0]


def _z_to_axes(axes: np.ndarray) -> np.ndarray:
    """:func:`_z_to_axis` of each unit axis of ``axes`` (n, 3): n 4×4 rotations."""
    n = len(axes)
    R = np.tile(np.eye(4), (n, 1, 1))
    x, y, c = axes[:, 0], axes[:, 1], axes[:, 2]
    R[c < -1 + 1e-15, 1, 1] = R[c < -1 + 1e-15, 2, 2] = -1.0
    turn = np.flatnonzero((c <= 1 - 1e-15) & (c >= -1 + 1e-15))
    if turn.size:
        x, y, c = x[turn], y[turn], c[turn]
        s = np.array([math.hypot(a, b) for a, b in zip(x.tolist(), y.tolist())])  # as _z_to_axis, to the bit
        kx, ky = -y / s, x / s
        K = np.zeros((turn.size, 3, 3))
        K[:, 0, 2], K[:, 1, 2], K[:, 2, 0], K[:, 2, 1] = ky, -kx, -ky, kx
        KK = np.einsum("nij,njk->nik", K, K)
        R[turn, :3, :3] = np.eye(3) + s[:, None, None] * K + (1 - c)[:, None, None] * KK
        R[turn, :3, 2] = axes[turn]  # exact
    return R


def _z_to_axis(axis: np.ndarray) -> np.ndarray:
    """A 4×4 rotation whose z column is ``axis`` (unit)."""
    R = np.eye(4)
    x, y, c = (float(v) for v in axis)  # c = axis · z
    if c > 1 - 1e-15:
        return R
    if c < -1 + 1e-15:
        R[1, 1] = R[2, 2] = -1.0
        return R
    # Rodrigues about k = z × axis / |z × axis| = (-y, x, 0) / s (plain floats: a tree of 1000
    # joints builds its plan on every edit, and numpy's cross costs more than the whole formula)
    s = math.hypot(x, y)
    kx, ky = -y / s, x / s
    K = np.array([[0.0, 0.0, ky], [0.0, 0.0, -kx], [-ky, kx, 0.0]])
    R[:3, :3] = np.eye(3) + s * K + (1 - c) * (K @ K)
    R[:3, 2] = axis  # exact
    return R


def _run_or_index(idx: np.ndarray) -> slice | np.ndarray:
    """``idx`` as a slice when it is a run of consecutive integers, else itself."""
    if idx.size and np.array_equal(idx, np.arange(idx[0], idx[0] + idx.size)):
        return slice(int(idx[0]), int(idx[0]) + idx.size)
    return idx


def _quat_rotations(Qq: np.ndarray) -> np.ndarray:
    """(n, 3, 3) rotations from (n, 4) quaternions ``[w x y z]`` (normalised)."""
    if np.abs(Qq).max() > 1e150:  # the squares would overflow: scale first
        Qq = Qq / np.abs(Qq).max(axis=1, keepdims=True)
    q = Qq / np.linalg.norm(Qq, axis=1, keepdims=True)
    w, x, y, z = q.T
    R = np.empty((q.shape[0], 3, 3))
    R[:, 0, 0] = 1 - 2 * (y * y + z * z)
    R[:, 0, 1] = 2 * (x * y - w * z)
    R[:, 0, 2] = 2 * (x * z + w * y)
    R[:, 1, 0] = 2 * (x * y + w * z)
    R[:, 1, 1] = 1 - 2 * (x * x + z * z)
    R[:, 1, 2] = 2 * (y * z - w * x)
    R[:, 2, 0] = 2 * (x * z - w * y)
    R[:, 2, 1] = 2 * (y * z + w * x)
    R[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return R


def elementary_motion_1(row: tuple[float, ...], x: float) -> np.ndarray:
    """4×4 motion of one motion-subspace row (unit axis) by ``x``, from plain floats."""
    a, b, c = row[0], row[1], row[2]
    if a or b or c:
        co, si = math.cos(x), math.sin(x)
        k = 1.0 - co
        return np.array([[co + a * a * k, a * b * k - c * si, a * c * k + b * si, 0.0],
                         [a * b * k + c * si, co + b * b * k, b * c * k - a * si, 0.0],
                         [a * c * k - b * si, b * c * k + a * si, co + c * c * k, 0.0],
                         [0.0, 0.0, 0.0, 1.0]])
    return np.array([[1.0, 0.0, 0.0, x * row[3]], [0.0, 1.0, 0.0, x * row[4]], [0.0, 0.0, 1.0, x * row[5]],
                     [0.0, 0.0, 0.0, 1.0]])


def elementary_motions(row: tuple[float, ...], q: np.ndarray) -> np.ndarray:
    """(n, 4, 4) motions of one motion-subspace row (unit axis) for (n,) values: a rotation
    about ``row[:3]`` (Rodrigues) or a translation along ``row[3:]``."""
    if q.shape[0] == 1:  # one configuration (FK, the dynamics): plain floats cost a fifth
        return elementary_motion_1(row, float(q[0]))[None]
    M = np.zeros((q.shape[0], 4, 4))
    M[:, 3, 3] = 1.0
    if any(row[:3]):
        K = np.array([[0.0, -row[2], row[1]], [row[2], 0.0, -row[0]], [-row[1], row[0], 0.0]])
        M[:, :3, :3] = np.eye(3) + np.sin(q)[:, None, None] * K + (1.0 - np.cos(q))[:, None, None] * (K @ K)
    else:
        M[:, 0, 0] = M[:, 1, 1] = M[:, 2, 2] = 1.0
        M[:, :3, 3] = q[:, None] * np.asarray(row[3:])
    return M


def _general_motion(kind: str, q: np.ndarray, rows: tuple = ()) -> np.ndarray:
    """(n, 4, 4) motion of floating/spherical/planar/composite joints for (n, k) positions
    (``rows``: a composite joint's motion subspace)."""
    n = q.shape[0]
    if kind == "composite":
        M = elementary_motions(rows[0], q[:, 0])
        for k in range(1, len(rows)):
            M = M @ elementary_motions(rows[k], q[:, k])
        return M
    M = np.zeros((n, 4, 4))
    M[:, 3, 3] = 1.0
    if kind == "planar":
        c, s = np.cos(q[:, 2]), np.sin(q[:, 2])
        M[:, 0, 0], M[:, 0, 1], M[:, 1, 0], M[:, 1, 1] = c, -s, s, c
        M[:, 2, 2] = 1.0
        M[:, 0, 3], M[:, 1, 3] = q[:, 0], q[:, 1]
    else:
        M[:, :3, :3] = _quat_rotations(q[:, :4])
        if kind == "floating":
            M[:, :3, 3] = q[:, 4:7]
    return M


def _resolve_mimics(tree: RigidBodyTree, qi: np.ndarray) -> dict[int, tuple[int, float, float]]:
    """``{body index: (leader's position index, multiplier, offset)}`` for mimic joints."""
    bodies = tree.bodies
    leaders = tree._mimic_leaders(b.joint for b in bodies)  # raises for a broken mimic
    index = {b.joint.name: i for i, b in enumerate(bodies)}
    return {i: (int(qi[index[leaders[b.joint.name].name]]), b.joint.mimic.multiplier, b.joint.mimic.offset)
            for i, b in enumerate(bodies) if b.joint.mimic is not None}


class KinematicPlan:
    """Flat, read-only description of a tree for fast kinematics (rebuilt when it changes)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        bodies = tree.bodies
        index = {b: i for i, b in enumerate(bodies)}
        nb = self.nb = len(bodies)
        self.parent = np.array([index.get(b.parent, -1) for b in bodies], dtype=int)
        self.kind: list[str] = []
        self.rows: dict[int, tuple] = {}  # composite joints' motion subspaces, by body index
        self.qi = np.zeros(nb, dtype=int)
        A = np.tile(np.eye(4), (nb, 1, 1))
        B = np.tile(np.eye(4), (nb, 1, 1))
        offsets = np.zeros(nb)
        gains = np.ones(nb)
        qi = 0
        for i, b in enumerate(bodies):
            self.qi[i] = qi
            qi += b.joint.position_count
        self.mimics = _resolve_mimics(tree, self.qi)
        axial: list[int] = []  # revolute and prismatic bodies: A = jtp·Ra, B = Raᵀ·ctj, for all at once below
        for i, b in enumerate(bodies):
            j = b.joint
            jtp, ctj = j._jtp, j._ctj
            if j.type in ("revolute", "prismatic"):
                axial.append(i)
                A[i], B[i] = jtp, ctj
                self.kind.append("rz" if j.type == "revolute" else "tz")
                offsets[i] = j.offset
                if i in self.mimics:
                    self.qi[i], gains[i], extra = self.mimics[i]
                    offsets[i] += extra
            elif j.type == "fixed":
                A[i] = jtp @ ctj
                self.kind.append("fixed")
            else:
                A[i], B[i] = jtp, ctj
                if j._rows:
                    self.rows[i] = j._rows
                self.kind.append("composite" if j._rows else j.type)
        if axial:  # one batched product (per body it cost ~10 ms an edit at 1000 bodies)
            Ra = _z_to_axes(np.array([bodies[i].joint._axis for i in axial]))
            A[axial] = A[axial] @ Ra
            B[axial] = np.swapaxes(Ra, 1, 2) @ B[axial]
        self.position_count = qi
        self.A, self.B = A, B
        self.gain, self.offset = gains, offsets
        eye = np.eye(4)
        # one comparison for all bodies (np.array_equal per body cost ~4 ms an edit at 1000 bodies)
        self.A_is_I = np.all(A == eye, axis=(1, 2)).tolist()
        self.B_is_I = np.all(B == eye, axis=(1, 2)).tolist()

        kinds = np.array(self.kind, dtype=object)
        self.kind_code = np.array([_KIND_CODES[k] for k in self.kind], dtype=np.int64)
        self.rev = np.flatnonzero(kinds == "rz")
        self.pri = np.flatnonzero(kinds == "tz")
        self.rev_q, self.rev_off, self.rev_gain = self.qi[self.rev], offsets[self.rev], gains[self.rev]
        self.pri_q, self.pri_off, self.pri_gain = self.qi[self.pri], offsets[self.pri], gains[self.pri]
        if not self.mimics:  # the common case: skip the multiplications
            self.rev_gain = self.pri_gain = None
        # single configurations: a slice where the indices are a run (cheaper than fancy indexing)
        self.rev_1, self.rev_q_1 = _run_or_index(self.rev), _run_or_index(self.rev_q)
        self.rev_has_off = bool(np.any(self.rev_off))
        self.general = [i for i, k in enumerate(self.kind) if k not in ("rz", "tz", "fixed")]
        # only positions that are lengths can make a pose overflow (stored lengths are bounded)
        self.translates = bool(self.pri.size) or any(k in ("planar", "floating") for k in self.kind) or any(
            not any(r[:3]) for rows in self.rows.values() for r in rows)
        # single-configuration constants: A·M·B = P0 + Σ coef_k · P_k
        self.P0 = A @ B
        self.Pstack = np.stack([A @ _K @ B, A @ _K2 @ B, A @ _E @ B], axis=1).reshape(nb, 3, 16)
        # bodies grouped by depth; parents are always in an earlier level
        depth = np.zeros(nb, dtype=int)
        for i in range(nb):
            depth[i] = 0 if self.parent[i] < 0 else depth[self.parent[i]] + 1
        self.depth = depth
        self.levels = []
        for d in range(int(depth.max()) + 1 if nb else 0):
            idx = np.flatnonzero(depth == d)
            self.levels.append((idx, self.parent[idx], int(idx[0]) if idx.size == 1 else -1))
        # composing body by body costs ~1.3 µs a body, level by level ~3 µs a level: chains
        # (one body per level) go body by body, bushy trees level by level
        self.pairs = [(i, int(p)) for i, p in enumerate(self.parent) if p >= 0]
        self.by_body = nb * 1.3 <= len(self.levels) * 3.0 and all(p < c for c, p in self.pairs)
        # level by level works in depth order, so that each level is a slice (no scatter):
        # bodies at positions order[k]; a level is (slice, parents' positions)
        self.order = np.argsort(depth, kind="stable")
        self.position = np.empty(nb, dtype=int)
        self.position[self.order] = np.arange(nb)
        self.level_slices = []  # (slice, parents' positions) or, for one body, (position, parent's position)
        start = 0
        for idx, pidx, _single in self.levels:
            stop = start + idx.size
            if pidx[0] >= 0:  # the first level hangs on the base: nothing to compose
                parents = self.position[pidx]
                one = idx.size == 1
                self.level_slices.append((start, int(parents[0])) if one else (slice(start, stop), parents))
            start = stop

    # --- single configuration ---------------------------------------------------------------
    def fk_single(self, q: np.ndarray) -> np.ndarray:
        """(nb, 4, 4) body poses in the base frame for one configuration."""
        nb = self.nb
        coef = np.zeros((nb, 3))
        if self.rev.size:
            th = q[self.rev_q_1]
            if self.rev_gain is not None:
                th = th * self.rev_gain
            if self.rev_has_off:
                th = th + self.rev_off
            coef[self.rev_1, 0] = np.sin(th)
            coef[self.rev_1, 1] = 1.0 - np.cos(th)
        if self.pri.size:
            coef[self.pri, 2] = q[self.pri_q] * (1.0 if self.pri_gain is None else self.pri_gain) + self.pri_off
        Tpc = self.P0 + np.matmul(coef[:, None, :], self.Pstack).reshape(nb, 4, 4)
        for i in self.general:
            k = self.kind[i]
            qj = q[self.qi[i] : self.qi[i] + self.width(i)]
            Tpc[i] = self.A[i] @ _general_motion(k, qj[None], self.rows.get(i, ()))[0] @ self.B[i]
        if self.by_body:
            T = Tpc.copy()  # bodies on the base keep their own pose; parents come before children
            for c, p in self.pairs:
                np.dot(T[p], Tpc[c], out=T[c])  # 2-D dot: half the call cost of matmul
            return T
        T = Tpc[self.order]  # depth order: the base's children first
        for sl, parents in self.level_slices:
            np.matmul(T[parents], T[sl], out=T[sl])
        return T[self.position]

    def width(self, i: int) -> int:
        """How many positions body ``i``'s joint takes (a general joint: planar, quaternion, composite)."""
        rows = self.rows.get(i)
        return len(rows) if rows is not None else {"floating": 7, "spherical": 4, "planar": 3}[self.kind[i]]

    # --- batches -----------------------------------------------------------------------------
    def fk_batch(self, Q: np.ndarray, bodies: np.ndarray | None = None, *,
                 compiled: bool | None = None) -> np.ndarray:
        """(N, m, 4, 4) poses of ``bodies`` (an ancestor-closed, sorted index array; all
        bodies when omitted) for a batch ``Q`` of shape (N, position_count).

        ``compiled``: None runs batches of :data:`COMPILED_MIN` configurations or more through
        the numba kernel when it is available (:func:`compiled_backend`), False always uses
        numpy, True always the kernel (raising when numba is missing or cannot load). Trees with
        composite joints (``euler_*``, ``translation_xyz``, ``custom``) always take numpy."""
        sel = np.arange(self.nb) if bodies is None else np.asarray(bodies, dtype=int)
        Q = np.asarray(Q, dtype=np.float64)
        N, m = Q.shape[0], sel.size
        # composite joints have no compiled motion: their trees stay in numpy
        if not self.rows and (compiled or (compiled is None and N >= COMPILED_MIN and compiled_backend() is not None)):
            if compiled or _LAZY.kinematics_numba.usable():
                return _LAZY.kinematics_numba.fk_batch(self, Q, sel)
        out = np.empty((N, m, 4, 4))
        out[:, :, 3, :] = (0.0, 0.0, 0.0, 1.0)
        for start, n, poses in self.fk_chunks(Q, sel):
            out[start : start + n, :, :3, :] = poses.transpose(3, 0, 2, 1)
        return out

    def fk_chunks(self, Q: np.ndarray, sel: np.ndarray, chunk: int | None = None):
        """Yield ``(start, n, poses)`` for consecutive chunks of the batch ``Q``: ``poses`` is an
        (m, 4, 3, n) view — body ``sel[k]``'s four columns, rows x y z, for configurations
        ``Q[start : start + n]`` — valid until the next chunk is asked for. ``sel`` is an
        ancestor-closed, sorted index array; ``chunk`` (configurations a chunk) defaults to
        what keeps the working set in cache."""
        N, m = Q.shape[0], sel.size
        if N == 0 or m == 0:
            return
        slot = {int(b): k for k, b in enumerate(sel)}
        pslot = [slot[int(self.parent[b])] if self.parent[b] >= 0 else -1 for b in sel]
        if chunk is None:
            chunk = int(np.clip(_CACHE_BYTES // (96 * (m + 2)), 64, 4096))
        chunk = max(1, min(chunk, N))
        poses = np.empty((m, 12 * chunk))  # each body: (4 cols, 3 rows, n)
        scratch = np.empty(12 * chunk)
        t1, t2 = np.empty(3 * chunk), np.empty(3 * chunk)
        rev_slot = {int(b): r for r, b in enumerate(self.rev)}
        pri_slot = {int(b): r for r, b in enumerate(self.pri)}
        AT = np.ascontiguousarray(np.swapaxes(self.A, 1, 2))
        BT = np.ascontiguousarray(np.swapaxes(self.B, 1, 2))
        for start in range(0, N, chunk):
            n = min(chunk, N - start)
            q = Q[start : start + n]
            if self.rev.size:
                th = (q[:, self.rev_q] * (1.0 if self.rev_gain is None else self.rev_gain) + self.rev_off).T
                S, C = np.sin(th), np.cos(th)
            if self.pri.size:
                D = np.ascontiguousarray((q[:, self.pri_q] * (1.0 if self.pri_gain is None else self.pri_gain)
                                          + self.pri_off).T)
            for k, b in enumerate(sel):
                b = int(b)
                kind = self.kind[b]
                pose = poses[k, : 12 * n]
                X = pose if self.B_is_I[b] else scratch[: 12 * n]
                X2 = X.reshape(4, 3 * n)
                p = pslot[k]
                if p < 0:
                    X.reshape(4, 3, n)[...] = AT[b][:, :3, None]
                elif self.A_is_I[b]:
                    X[...] = poses[p, : 12 * n]
                else:
                    np.matmul(AT[b], poses[p, : 12 * n].reshape(4, 3 * n), out=X2)
                X3 = X.reshape(4, 3, n)
                if kind == "rz":
                    r = rev_slot[b]
                    c, s = C[r], S[r]
                    a1, a2 = t1[: 3 * n].reshape(3, n), t2[: 3 * n].reshape(3, n)
                    np.multiply(X3[0], s, out=a1)
                    np.multiply(X3[1], s, out=a2)
                    X3[0] *= c
                    X3[0] += a2
                    X3[1] *= c
                    X3[1] -= a1
                elif kind == "tz":
                    a1 = t1[: 3 * n].reshape(3, n)
                    np.multiply(X3[2], D[pri_slot[b]], out=a1)
                    X3[3] += a1
                elif kind != "fixed":
                    M = _general_motion(kind, q[:, self.qi[b] : self.qi[b] + self.width(b)], self.rows.get(b, ()))
                    X3[...] = np.einsum("krn,nkj->jrn", X3, M)
                if not self.B_is_I[b]:
                    np.matmul(BT[b], X2, out=pose.reshape(4, 3 * n))
            yield start, n, poses[:, : 12 * n].reshape(m, 4, 3, n)

    # --- derived quantities ------------------------------------------------------------------
    def ancestors(self, i: int) -> list[int]:
        """Indices of ``i`` and its ancestors, base excluded, sorted."""
        path = []
        while i >= 0:
            path.append(i)
            i = int(self.parent[i])
        return sorted(path)

    def relative(self, Q: np.ndarray, src: int, tgt: int) -> np.ndarray:
        """Pose of body ``src`` in body ``tgt`` (−1 = base) for one configuration or a batch."""
        if Q.ndim == 1:
            T = self.fk_single(Q)
            Ts = T[src] if src >= 0 else np.eye(4)
            return Ts if tgt < 0 else inverse_transform(T[tgt]) @ Ts
        sel = sorted(set(self.ancestors(src)) | set(self.ancestors(tgt)))
        if not sel:
            return np.tile(np.eye(4), (Q.shape[0], 1, 1))
        T = self.fk_batch(Q, np.array(sel))
        eye = np.broadcast_to(np.eye(4), (Q.shape[0], 4, 4))
        Ts = T[:, sel.index(src)] if src >= 0 else eye
        return Ts if tgt < 0 else np.matmul(inverse_transform(T[:, sel.index(tgt)]), Ts)

    def jacobian(self, q: np.ndarray, body: int) -> np.ndarray:
        """6×n geometric Jacobian (angular rows first) of a body's origin, base frame."""
        J = np.zeros((6, self.position_count))
        if body < 0:
            return J
        T = self.fk_single(q)
        pe = T[body, :3, 3]
        for i in self.ancestors(body):
            p = self.parent[i]
            X = (T[p] if p >= 0 else np.eye(4)) @ self.A[i]
            c, kind = self.qi[i], self.kind[i]
            gain = self.mimics[i][1] if i in self.mimics else 1.0  # a mimic adds to its leader's column
            if kind == "rz":
                z = X[:3, 2]
                J[:3, c] += gain * z
                J[3:, c] += gain * np.cross(z, pe - X[:3, 3])
            elif kind == "tz":
                J[3:, c] += gain * X[:3, 2]
            elif kind == "planar":
                x, y = q[c], q[c + 1]
                J[3:, c], J[3:, c + 1] = X[:3, 0], X[:3, 1]
                o = X[:3, 3] + x * X[:3, 0] + y * X[:3, 1]
                J[:3, c + 2] = X[:3, 2]
                J[3:, c + 2] = np.cross(X[:3, 2], pe - o)
            elif kind == "composite":
                F = X
                for e, row in enumerate(self.rows[i]):
                    if e:  # the frame the previous rows moved
                        F = F @ elementary_motions(self.rows[i][e - 1], q[c + e - 1 : c + e])[0]
                    if any(row[:3]):
                        a = F[:3, :3] @ row[:3]
                        J[:3, c + e] = a
                        J[3:, c + e] = np.cross(a, pe - F[:3, 3])
                    else:
                        J[3:, c + e] = F[:3, :3] @ row[3:]
            elif kind in QUATERNION_ROWS:
                quat = q[c : c + 4]
                norm = np.linalg.norm(quat)
                w, x, y, z = quat / norm
                G = 2.0 * np.array([[-x, w, -z, y], [-y, z, w, -x], [-z, -y, x, w]])
                u = quat / norm
                dnorm = (np.eye(4) - np.outer(u, u)) / norm  # derivative of q/|q|
                W = X[:3, :3] @ G @ dnorm
                o = X[:3, 3]
                if kind == "floating":
                    o = o + X[:3, :3] @ q[c + 4 : c + 7]
                    J[3:, c + 4 : c + 7] = X[:3, :3]
                J[:3, c : c + 4] = W
                J[3:, c : c + 4] = np.cross(W.T, pe - o).T
        return J


def frame_size(tree: RigidBodyTree, parent: np.ndarray | None = None, home: np.ndarray | None = None) -> float:
    """Length (m) of a drawn frame's axes (the viewport's triads, the exported web page's):
    half the typical link length at home, so that a hand or a humanoid with many short links is
    not buried under its own triads, within 3…15 % of the robot's size (at least 0.3 m) at home.
    ``parent``: each body's parent index (−1 for the base) when the caller has it; ``home``: the
    bodies' poses to measure instead of home's (a closed loop's home is often open)."""
    bodies = tree.bodies
    if not bodies:
        return float(np.clip(0.15, 0.03 * 0.5, 0.15 * 0.5))
    if home is None:
        home = tree.forward_kinematics(tree.home_configuration())
    extent = max(float(np.abs(home[:, :3, 3]).max()), 0.3)
    if parent is None:
        index = {b.name: i for i, b in enumerate(bodies)}
        parent = np.array([index.get(tree.parent_name(b.name), -1) for b in bodies], dtype=int)
    origins = np.vstack([np.zeros((1, 3)), home[:, :3, 3]])
    links = np.linalg.norm(origins[1:] - origins[np.asarray(parent) + 1], axis=1)
    links = links[links > 1e-6]
    typical = float(np.median(links)) if links.size else 0.3
    return float(np.clip(0.5 * typical, 0.03 * extent, 0.15 * extent))
