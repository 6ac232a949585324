"""The workspace of a body: where its origin gets over random in-limit configurations, and how
well-conditioned the robot is there (Yoshikawa's manipulability), by batch forward kinematics.

Everything runs on chunks of configurations in the engine's structure-of-arrays layout
(:meth:`KinematicPlan.fk_chunks`): one million Puma 560 samples take well under a second and
about 30 MB besides the result. A chunk holds fewer configurations on a longer chain, so that it
takes at most :data:`CHUNK_BYTES` (64 MB) whatever the number of joints.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .. import compiled_warmup
from ..errors import InvalidConfigurationError, LoopClosureError
from ..model.configuration import MAX_LOOP_DRAWS, sampling_ranges
from .loops import SINGULAR_RATIO, _compiled, compiled_terms, passive_indices, rows, solve_loops
from .plan import elementary_motions

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .plan import KinematicPlan

#: At most this many samples a call (the result alone is 32 bytes a sample).
MAX_SAMPLES = 50_000_000
_LOOP_CHUNK = 512  # configurations a chunk at most on a tree with closed loops
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
    # a tree with loops solves each sample (the Delta: ~0.4 ms): short chunks keep progress and cancel prompt
    return max(1, min(_LOOP_CHUNK if tree._loops else _CHUNK, CHUNK_BYTES // per_sample))
_ROWS = {"all": slice(0, 6), "rot": slice(0, 3), "trans": slice(3, 6)}
#: On a tree with loops, a sample's passive joints are warm-started from the closest (actuated
#: values) of at most this many previously solved samples: a bounded search a sample.
_NEIGHBOURS = 4096
#: Gauss–Newton iterations a sample's loop solve may take: warm-started from a close solved
#: sample it converges in a few, and a draw that cannot be assembled (about one in six of a
#: Delta's) costs this many before it is drawn again (on the Delta, 20 or 40 iterations assemble
#: under 1% fewer draws than 100, at half or two thirds of the time).
_ITERATIONS = 30
#: Largest change of an actuated position (rad or m) between two solves of a walk to a sample.
_STEP = 0.1


def random_configurations(tree: RigidBodyTree, n: int, rng: np.random.Generator | int | None = None) -> np.ndarray:
    """``(n, position_count)`` random in-limit configurations, drawn as
    :meth:`random_configuration` draws one (uniform within the limits or a finite window of
    them; uniform unit quaternions), but all at once. They are the configurations
    :func:`sample_workspace` samples for the same ``n`` and ``rng``.

    On a tree with closed loops each is closed: its actuated values drawn, its passive ones
    solved, walked in steps of at most :data:`_STEP` from the closest (in actuated values) of the
    last :data:`_NEIGHBOURS` solved samples, home for the first, so the samples stay on home's
    assembly branch. A draw that cannot be assembled is drawn again, at most
    :data:`~kinetree.core.model.configuration.MAX_LOOP_DRAWS` times a sample, then
    :class:`LoopClosureError` names the loop."""
    rng = _generator(rng)
    n = _count(n)
    lo, hi, quats = sampling_ranges(tree)
    chunk = _chunk(tree)
    closer = _Closer(tree, lambda: _draw(rng, 1, lo, hi, quats)[0]) if tree._loops else None
    parts = []
    for s in range(0, n, chunk):
        Q = _draw(rng, min(chunk, n - s), lo, hi, quats)
        parts.append(Q if closer is None else closer.close(Q)[0])
    return np.concatenate(parts) if parts else np.zeros((0, lo.size))


class _Closer:
    """Closes random draws on a tree with loops: each draw's actuated values kept, its passive ones
    solved (as :func:`solve_loops`) by walking the actuated values from the closest of the last
    :data:`_NEIGHBOURS` solved samples (home for the first) in steps of at most :data:`_STEP`,
    each warm-started from the last: the assembly stays on home's branch. A draw that cannot be
    assembled is drawn again, at most :data:`MAX_LOOP_DRAWS` times, then :func:`solve_loops`'s
    :class:`LoopClosureError` names the loop. The compiled solver serves alone when it applies: a
    failed draw then costs no numpy re-solve (which only says why)."""

    def __init__(self, tree: RigidBodyTree, draw: Callable[[], np.ndarray]) -> None:
        self.tree, self.draw = tree, draw
        self.P = passive_indices(tree)
        self.A = np.setdiff1d(np.arange(tree.position_count), self.P)
        self.home = tree.home_configuration()
        self.seen = np.zeros((0, tree.position_count))  # the last solved samples (closed configurations)
        # the passive positions' limits: a solved angle is brought into them by whole turns
        limits = {i: (b.joint.position_limits, b.joint.type == "revolute")
                  for b, i in tree.position_slots() if b.joint.position_count == 1}
        self.limited = [(int(i), *limits[int(i)][0], limits[int(i)][1]) for i in self.P if int(i) in limits]
        kernel = _compiled() if self.P.size else None
        applies = kernel is not None and kernel._arrays(tree, tree.kinematic_plan()) is not None
        self.kernel = kernel if applies and compiled_warmup.may_compile(kernel._solve) else None

    def _start(self, q: np.ndarray) -> np.ndarray:
        if not len(self.seen):
            return self.home
        d = self.seen[:, self.A] - q[self.A]
        return self.seen[int(np.argmin(np.einsum("ij,ij->i", d, d)))]

    def _solve(self, x: np.ndarray) -> np.ndarray | None:
        if self.kernel is not None:
            return self.kernel.solve(self.tree, x, self.P, 1e-12, _ITERATIONS, SINGULAR_RATIO)
        try:
            return solve_loops(self.tree, x, 1e-12, _ITERATIONS, compiled=False)
        except LoopClosureError:
            return None

    def _walk(self, q: np.ndarray) -> np.ndarray | None:
        """The closed configuration with ``q``'s actuated values, walked to (None: not assembled)."""
        x = self._start(q)
        a0, da = x[self.A].copy(), q[self.A] - x[self.A]
        steps = max(1, int(np.ceil(float(np.abs(da).max(initial=0.0)) / _STEP)))
        for s in range(1, steps + 1):
            x = x.copy()
            x[self.A] = q[self.A] if s == steps else a0 + (s / steps) * da
            x = self._solve(x)
            if x is None:
                return None
        return self._within_limits(x)

    def _within_limits(self, x: np.ndarray) -> np.ndarray | None:
        """``x`` with each passive angle turned by whole turns into its limits (the same pose), or
        None where a passive position cannot be within them (the draw is made again)."""
        for i, lo, hi, revolute in self.limited:
            v = x[i]
            if revolute and not lo <= v <= hi and math.isfinite(lo):
                v = lo + (v - lo) % (2 * math.pi)
            if not lo - 1e-12 <= v <= hi + 1e-12:
                return None
            x[i] = v
        return x

    def close_one(self, q: np.ndarray) -> np.ndarray:
        """``q`` (a draw) closed, or the closed configuration of a later draw where it cannot be."""
        for _ in range(MAX_LOOP_DRAWS):
            x = self._walk(q)
            if x is not None:
                self.seen = np.concatenate([self.seen[-(_NEIGHBOURS - 1):], x[None]])
                return x
            last, q = q, self.draw()
        x = self._start(last).copy()
        x[self.A] = last[self.A]
        why = f"none of {MAX_LOOP_DRAWS} random draws of the actuated joints could be assembled"
        try:
            solve_loops(self.tree, x)  # why the last could not, naming the loop
        except LoopClosureError as e:
            raise LoopClosureError(f"{why}; the last: {e}") from None
        raise LoopClosureError(f"{why} on the assembly branch of home (loops {', '.join(self.tree._loops)[:200]})")

    def close(self, Q: np.ndarray, jacobians: bool = False) -> tuple[np.ndarray, list[np.ndarray]]:
        """``Q`` closed in place, row by row, and (``jacobians``) each row's constraint Jacobian
        (positions)."""
        out = []
        for k in range(len(Q)):
            Q[k] = self.close_one(Q[k])
            if jacobians:
                out.append(self._jacobian(Q[k]))
        return Q, out

    def _jacobian(self, x: np.ndarray) -> np.ndarray:
        """The constraint Jacobian at ``x`` (positions): the compiled kernel's where it applies (its
        joints' positions are their velocities), else :func:`rows`."""
        terms = compiled_terms(self.tree, x, np.zeros(x.size)) if self.kernel is not None else None
        return rows(self.tree, x, "positions")[1] if terms is None else terms[1]


def closer(tree: RigidBodyTree, rng: np.random.Generator) -> _Closer:
    """The :class:`_Closer` of :meth:`random_configuration` (its draws: ``tree._random_open_configuration``)."""
    return _Closer(tree, lambda: tree._random_open_configuration(rng))


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

    On a tree with closed loops the samples are closed (:func:`random_configurations`: actuated
    values drawn, passive ones solved), and the measure is of the Jacobian with respect to the
    actuated joints, ``J·N`` with ``N = [I; −Jp⁺·Ja]`` in configuration order (``Jp``, ``Ja``: the
    constraint Jacobian's passive and actuated columns): how the actuators move the body.

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
    closer = _Closer(tree, lambda: _draw(rng, 1, lo, hi, quats)[0]) if tree._loops else None
    for start in range(0, n, chunk):
        m = min(chunk, n - start)
        Q = _draw(rng, m, lo, hi, quats)
        if closer is not None:
            Q, Jc = closer.close(Q, jacobians=True)
        for _, _, poses in plan.fk_chunks(Q, sel, chunk=m):
            pe = poses[-1, 3]
            points[start : start + m] = pe.T
            J = _jacobian(plan, sel, cols, poses, Q)
            if closer is not None:
                J = _actuated_jacobian(J, cols, Jc, closer.P, closer.A)
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


def _actuated_jacobian(J: np.ndarray, cols: dict[int, int], Jc: list[np.ndarray], P: np.ndarray,
                       A: np.ndarray) -> np.ndarray:
    """(6, actuated, n): the body's Jacobians ``J`` (6, k, n; columns ``cols``) times ``N = [I; −Jp⁺·Ja]``,
    the passive joints' motion for a motion of the actuated ones (``Jc``: each sample's
    constraint Jacobian); ``Jp⁺`` the pseudo-inverse (a quaternion's extra column is free)."""
    n = J.shape[-1]
    full = np.zeros((6, len(P) + len(A), n))
    full[:, list(cols)] = J
    out = np.empty((6, len(A), n))
    for s in range(n):
        S = np.linalg.lstsq(Jc[s][:, P], Jc[s][:, A], rcond=None)[0]
        out[:, :, s] = full[:, A, s] - full[:, P, s] @ S
    return out


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
