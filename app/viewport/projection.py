"""World points to view pixels: the camera's world → clip matrix and the projection under it.
Below :mod:`.labels` and :mod:`.label_layout` (which both project points), beside the overlays and
tools that draw at projected points (:mod:`.labels` re-exports both names)."""

from __future__ import annotations

import numpy as np


def view_mvp(view, viewport: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The 4×4 world → clip matrix of a ``GLViewWidget`` (for its own size, or ``viewport``)."""
    if viewport is None and (frame := getattr(view, "frame_mvp", None)) is not None:
        return frame  # inside a paint: the camera cannot move, and a frame's items ask often
    vp = viewport or view.getViewport()
    proj = np.array(view.projectionMatrix(vp, vp).data(), dtype=float).reshape(4, 4).T
    return proj @ np.array(view.viewMatrix().data(), dtype=float).reshape(4, 4).T


def project_points(mvp: np.ndarray, points: np.ndarray, width: float, height: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (x right, y down) of ``points`` under the 4×4 ``mvp``, and a mask of
    the points in front of the camera."""
    P = np.asarray(points, dtype=float) @ mvp[:, :3].T + mvp[:, 3]
    w = P[:, 3]
    front = w > 1e-9
    ndc = P[:, :3] / np.where(front, w, 1.0)[:, None]
    return np.c_[(ndc[:, 0] + 1) * width / 2, (1 - ndc[:, 1]) * height / 2], front
