"""Joint-space motion through poses: quintic segments that start and stop at rest.

Each segment from ``q0`` to ``q1`` follows ``q(s) = q0 + (q1 − q0)·(10s³ − 15s⁴ + 6s⁵)`` for
``s = t / T`` in [0, 1]: velocity and acceleration are zero at both ends, so a motion through
several poses pauses at each (as Corke's ``jtraj`` with zero boundary velocities). Everything is
vectorized over time and joints.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError

__all__ = ["MAX_FRAMES", "joint_trajectory", "quintic", "sample_trajectory"]

#: The most samples :func:`joint_trajectory` makes (an hour at 60 fps is 216,000).
MAX_FRAMES = 1_000_000


def _blend(s: np.ndarray, derivative: int) -> np.ndarray:
    if derivative == 0:
        return s**3 * (10 - 15 * s + 6 * s * s)
    if derivative == 1:
        return 30 * s * s * (1 - s) ** 2
    if derivative == 2:
        return 60 * s * (1 - s) * (1 - 2 * s)
    raise InvalidConfigurationError(f"quintic: derivative must be 0, 1 or 2, got {derivative!r:.80}")


def quintic(q0: ArrayLike, q1: ArrayLike, t: ArrayLike, derivative: int = 0) -> np.ndarray:
    """Positions (or with ``derivative`` 1/2 the velocities/accelerations, per unit of ``t``) at
    normalized times ``t`` in [0, 1] (clipped) from ``q0`` to ``q1``: shape ``t.shape + q0.shape``."""
    a, b = _vector(q0, "q0"), _vector(q1, "q1")
    if a.shape != b.shape:
        raise InvalidConfigurationError(f"quintic: q0 has {a.size} values and q1 {b.size}")
    s = np.clip(np.asarray(t, dtype=float), 0.0, 1.0)
    if not np.all(np.isfinite(s)):
        raise InvalidConfigurationError("quintic: times must be finite")
    h = _blend(s, derivative)[..., None]
    return (a if derivative == 0 else 0.0) + h * (b - a)


def _vector(q: ArrayLike, what: str) -> np.ndarray:
    try:
        v = np.asarray(q, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"{what} is not a list of numbers: {q!r:.80}") from None
    if not np.all(np.isfinite(v)):
        raise InvalidConfigurationError(f"{what} has a value that is not finite: {v.tolist()!r:.80}")
    return v


def _waypoints(poses: Sequence[ArrayLike], seconds: float | Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """``(P, starts)``: poses (k, n) and each pose's time (k,), from a total or per-segment duration."""
    P = [_vector(q, f"pose {i}") for i, q in enumerate(poses)]
    if not P:
        raise InvalidConfigurationError("a trajectory needs at least one pose")
    if any(p.shape != P[0].shape for p in P):
        raise InvalidConfigurationError(f"poses differ in length: {[p.size for p in P]}")
    segments = len(P) - 1
    durations = np.atleast_1d(np.asarray(seconds, dtype=float))
    if durations.size == 1 and segments > 1:
        durations = np.full(segments, durations[0] / segments)
    if segments and durations.size != segments:
        raise InvalidConfigurationError(f"{durations.size} durations for {segments} segments")
    if not np.all(np.isfinite(durations)) or np.any(durations <= 0):
        raise InvalidConfigurationError(f"durations must be positive and finite, got {durations.tolist()}")
    starts = np.concatenate([[0.0], np.cumsum(durations[:segments])])
    return np.array(P), starts


def sample_trajectory(poses: Sequence[ArrayLike], seconds: float | Sequence[float], t: ArrayLike,
                      derivative: int = 0) -> np.ndarray:
    """The motion through ``poses`` at times ``t`` (seconds, clipped to the motion): shape
    ``(len(t), n)``. ``seconds`` is the whole motion's duration, shared equally by the segments,
    or one duration per segment. With ``derivative`` 1/2: velocities/accelerations per second."""
    P, starts = _waypoints(poses, seconds)
    t = np.atleast_1d(np.asarray(t, dtype=float))
    if not np.all(np.isfinite(t)):
        raise InvalidConfigurationError("trajectory times must be finite")
    if len(P) == 1:
        return np.repeat(P, t.size, axis=0) if derivative == 0 else np.zeros((t.size, P.shape[1]))
    k = np.clip(np.searchsorted(starts, t, side="right") - 1, 0, len(P) - 2)
    T = starts[k + 1] - starts[k]
    s = np.clip((t - starts[k]) / T, 0.0, 1.0)
    h = _blend(s, derivative)[:, None] / (T[:, None] ** derivative)
    return (P[k] if derivative == 0 else 0.0) + h * (P[k + 1] - P[k])


def joint_trajectory(poses: Sequence[ArrayLike], seconds: float | Sequence[float],
                     fps: float) -> tuple[np.ndarray, np.ndarray]:
    """``(t, Q)``: times ``k / fps`` for ``k = 0 … round(duration·fps)`` (both ends included, so
    ``round(duration·fps) + 1`` frames) and the configurations there, ``(frames, n)``."""
    P, starts = _waypoints(poses, seconds)
    try:
        fps = float(fps)
    except (TypeError, ValueError):
        raise InvalidConfigurationError(f"fps must be a number, got {fps!r:.80}") from None
    if not (np.isfinite(fps) and fps > 0):
        raise InvalidConfigurationError(f"fps must be positive and finite, got {fps}")
    duration = float(starts[-1])
    frames = round(duration * fps) + 1
    if frames > MAX_FRAMES:
        raise InvalidConfigurationError(f"{duration:g} s at {fps:g} fps is {frames} frames, more than {MAX_FRAMES}")
    t = np.minimum(np.arange(frames) / fps, duration)
    return t, sample_trajectory(P, np.diff(starts) if len(P) > 1 else 1.0, t)
