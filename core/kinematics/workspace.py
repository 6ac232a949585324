"""The workspace of a body: where its origin gets over random in-limit configurations, and how
well-conditioned the robot is there (Yoshikawa's manipulability), by batch forward kinematics.

Everything runs on chunks of configurations in the engine's structure-of-arrays layout
(:meth:`KinematicPlan.fk_chunks`): one million Puma 560 samples take well under a second and
about 30 MB besides the result. A chunk holds fewer configurations on a longer chain, so that it
takes at most :data:`CHUNK_BYTES` (64 MB) whatever the number of joints.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InvalidConfigurationError
from ..model.configuration import sampling_ranges
from .plan import elementary_motions

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .plan import KinematicPlan

#: At most this many samples a call (the result alone is 32 bytes a sample).
MAX_SAMPLES = 50_000_000
_CHUNK = 8192  # configurations a chunk at most: numpy's per-call cost amortised, the working set ~10 MB
#: The memory one chunk of samples may take: a chunk holds fewer configurations on a long chain
#: (2,000 joints took 2.8 GB a chunk of 8,192).
CHUNK_BYTES = 64 * 2**20


def _chunk(tree: RigidBodyTree) -> int:
    """Configurations a chunk for ``tree``: its arrays a sample — the poses of every body (12
    numbers each, plus a scratch pose), the Jacobian (6 rows a position), the configuration, its
    angles' sines and cosines and their temporaries — within :data:`CHUNK_BYTES`. A function of
    the tree alone, so :func:`random_configurations` draws what :func:`sample_workspace` samples."""
    per_sample = 8 * (12 * (tree.num_bodies + 2) + 6 + 6 * tree.position_count + 6 * tree.position_count + 64)
    return max(1, min(_CHUNK, CHUNK_BYTES // per_sample))
_ROWS = {"all": slice(0, 6), "rot": slice(0, 3), "trans": slice(3, 6)}


def random_configurations(tree: RigidBodyTree, n: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """``(n, position_count)`` random in-limit configurations, drawn as
    :meth:`random_configuration` draws one (uniform within the limits or a finite window of
    them; uniform unit quaternions), but all at once. They are the configurations
    :func:`sample_workspace` samples for the same ``n`` and ``rng``."""
    rng = _generator(rng)
    n = _count(n)
    lo, hi, quats = sampling_ranges(tree)
    chunk = _chunk(tree)
    parts = [_draw(rng, min(chunk, n - s), lo, hi, quats) for s in range(0, n, chunk)]
    return np.concatenate(parts) if parts else np.zeros((0, lo.size))


def _draw(rng: np.random.Generator, n: int, lo: np.ndarray, hi: np.ndarray, quats: list[int]) -> np.ndarray:
    Q = rng.random((n, lo.size))
    Q *= hi - lo
    Q += lo
    np.clip(Q, lo, hi, out=Q)  # rounding may land just outside
    for i in quats:
        v = rng.normal(size=(n, 4))
        Q[:, i : i + 4] = v / np.linalg.norm(v, axis=1, keepdims=True)
    return Q


def _generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"rng: {rng!r:.80} is not a seed or a numpy Generator") from None


def _count(n: int) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 0 <= n <= MAX_SAMPLES:
        raise InvalidConfigurationError(f"number of samples must be an integer in 0..{MAX_SAMPLES:,}, got {n!r:.80}")
    return int(n)


def sample_workspace(tree: RigidBodyTree, body: str, n: int, rng: np.random.Generator | int | None = None,
                     *, axes: str = "all", progress: Callable[[int, int], object] | None = None,
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``(points, manipulability)``: the origin of ``body`` in the base frame, ``(n, 3)``, and
    Yoshikawa's measure ``sqrt(det(J Jᵀ))`` there, ``(n,)``, for ``n`` random configurations
    within the joint limits (as :meth:`random_configuration`: a ±π / ±1 m window around home
    where a limit is unbounded). The measure is :meth:`RigidBodyTree.manipulability`'s, from the
    same geometric Jacobian (``axes`` "all", "trans" or "rot"); it is 0 where the body's joints
    are fewer than the rows. Deterministic for a given ``rng`` (seed or Generator).

    ``progress(done, n)`` is called after every chunk of samples (from the calling thread: a GUI
    running this in a worker forwards it); an exception raised in it stops the sampling.
    """
    if not isinstance(axes, str) or axes not in _ROWS:
        raise InvalidConfigurationError(f"axes must be 'all', 'trans' or 'rot', got {axes!r:.80}")
    target = tree.index_of(body)
    rng = _generator(rng)
    n = _count(n)
    points, manip = np.zeros((n, 3)), np.zeros(n)
    if target < 0:  # the base: never moves, and no joint moves it
        return points, manip
    plan = tree.kinematic_plan()
    lo, hi, quats = sampling_ranges(tree)
    sel = np.array(plan.ancestors(target))
    cols = _columns(plan, sel)
    rows = _ROWS[axes]
    chunk = _chunk(tree)
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        Q = _draw(rng, m, lo, hi, quats)
        for _, _, poses in plan.fk_chunks(Q, sel, chunk=m):
            pe = poses[-1, 3]
            points[start : start + m] = pe.T
            J = _jacobian(plan, sel, cols, poses, Q)
            manip[start : start + m] = _sqrt_det_gram(J[rows])
            del J, poses  # the next chunk's arrays are not to be allocated beside these
        if progress is not None:
            progress(start + m, n)
    if not np.isfinite(points).all():
        raise InvalidConfigurationError(f"body {body!r}: its workspace is not finite (the numbers overflow)")
    return points, manip


def _columns(plan: KinematicPlan, sel: np.ndarray) -> dict[int, int]:
    """{configuration index: Jacobian column} for the positions that move the bodies ``sel``."""
    used: set[int] = set()
    width = {"rz": 1, "tz": 1, "planar": 3, "spherical": 4, "floating": 7, "fixed": 0}
    for i in sel:
        c = int(plan.qi[i])
        used.update(range(c, c + (len(plan.rows[i]) if i in plan.rows else width[plan.kind[i]])))
    return {c: k for k, c in enumerate(sorted(used))}


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross products of (3, n) column stacks."""
    return np.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _jacobian(plan: KinematicPlan, sel: np.ndarray, cols: dict[int, int], poses: np.ndarray,
              Q: np.ndarray) -> np.ndarray:
    """(6, k, n) geometric Jacobians (angular rows first) of body ``sel[-1]``'s origin, as
    :meth:`KinematicPlan.jacobian` computes one, for the chunk's poses (m, 4, 3, n)."""
    n = poses.shape[-1]
    J = np.zeros((6, len(cols), n))
    pe = poses[-1, 3]
    slot = {int(b): k for k, b in enumerate(sel)}
    for i in sel:
        i = int(i)
        p = int(plan.parent[i])
        A = plan.A[i]
        if p < 0:
            X = np.broadcast_to(A.T[:, :3, None], (4, 3, n))
        elif plan.A_is_I[i]:
            X = poses[slot[p]]
        else:  # the joint's frame: parent pose · A, column by column
            X = np.matmul(A.T, poses[slot[p]].reshape(4, 3 * n)).reshape(4, 3, n)
        kind, c = plan.kind[i], int(plan.qi[i])
        gain = plan.mimics[i][1] if i in plan.mimics else 1.0  # a mimic adds to its leader's column
        if kind == "rz":
            k = cols[c]
            J[:3, k] += gain * X[2]
            J[3:, k] += gain * _cross(X[2], pe - X[3])
        elif kind == "tz":
            J[3:, cols[c]] += gain * X[2]
        elif kind == "planar":
            o = X[3] + Q[:, c] * X[0] + Q[:, c + 1] * X[1]
            J[3:, cols[c]], J[3:, cols[c + 1]] = X[0], X[1]
            J[:3, cols[c + 2]] = X[2]
            J[3:, cols[c + 2]] = _cross(X[2], pe - o)
        elif kind == "composite":  # row e about/along its axis in the frame rows 0…e−1 moved
            F = X
            for e, row in enumerate(plan.rows[i]):
                if e:
                    M = elementary_motions(plan.rows[i][e - 1], Q[:, c + e - 1])  # (n, 4, 4)
                    F = np.einsum("krn,nkj->jrn", F, M)
                if any(row[:3]):
                    a = F[0] * row[0] + F[1] * row[1] + F[2] * row[2]
                    J[:3, cols[c + e]] = a
                    J[3:, cols[c + e]] = _cross(a, pe - F[3])
                else:
                    J[3:, cols[c + e]] = F[0] * row[3] + F[1] * row[4] + F[2] * row[5]
        elif kind in ("spherical", "floating"):
            quat = Q[:, c : c + 4]
            norm = np.linalg.norm(quat, axis=1)
            w, x, y, z = (quat / norm[:, None]).T
            # d(rotation)/d(quaternion) as angular velocity: X_R · G(u) / |q| (G·u = 0, so the
            # normalisation's projection drops out)
            G = 2.0 * np.array([[-x, w, -z, y], [-y, z, w, -x], [-z, -y, x, w]]) / norm
            o = X[3]
            if kind == "floating":
                o = o + X[0] * Q[:, c + 4] + X[1] * Q[:, c + 5] + X[2] * Q[:, c + 6]
                for a in range(3):
                    J[3:, cols[c + 4 + a]] = X[a]
            r = pe - o
            for col in range(4):
                W = X[0] * G[0, col] + X[1] * G[1, col] + X[2] * G[2, col]
                J[:3, cols[c + col]] = W
                J[3:, cols[c + col]] = _cross(W, r)
    return J


def _sqrt_det_gram(J: np.ndarray) -> np.ndarray:
    """``sqrt(det(J Jᵀ))`` for (r, k, n) stacks of Jacobians, by a Cholesky factorisation of the
    Gram matrices vectorised over n (the product of the squared pivots is the determinant); a
    non-positive pivot means a singular Gram matrix: 0, as ``max(det, 0)``."""
    r, k, n = J.shape
    if k < r:
        return np.zeros(n)
    G = np.empty((r, r, n))
    for a in range(r):
        for b in range(a + 1):
            G[a, b] = np.einsum("kn,kn->n", J[a], J[b])
    L = np.empty_like(G)
    det = np.ones(n)
    for j in range(r):
        d = G[j, j] - np.einsum("kn,kn->n", L[j, :j], L[j, :j]) if j else G[j, j].copy()
        good = d > 0
        det *= np.where(good, d, 0.0)
        dj = np.sqrt(np.where(good, d, 1.0))  # a singular sample keeps finite numbers (its det is 0)
        L[j, j] = dj
        for i in range(j + 1, r):
            v = G[i, j] - np.einsum("kn,kn->n", L[i, :j], L[j, :j]) if j else G[i, j]
            L[i, j] = v / dj
    return np.sqrt(det)
