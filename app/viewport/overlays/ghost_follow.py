"""The camera follows the Explain dock's ghost frame: when a step takes the ghost (its origin
or an axis tip) out of the view (only while it moves: opening a robot or picking a link is not
followed), the camera's centre eases (half a second, smoothstep) just far
enough towards it to bring it back inside, zooming out only if it cannot fit otherwise. The
orbit angles stay: the lecturer's chosen view is kept, only panned. A camera move of the user's
(or a Fit) during the easing ends it."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtGui import QVector3D

from ..labels import project_points, view_mvp

#: the part of the view's width and height kept clear round the ghost
MARGIN = 0.08
EASE_MS = 450
TICK_MS = 16


def _smoothstep(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


class GhostFollow:
    """Keeps ``state.ghost`` (a :class:`~kinetree.app.features.teach.TeachState`) in ``view`` while
    ``moving()`` says the ghost is being stepped."""

    def __init__(self, view, state, moving) -> None:
        self.view, self.state, self.moving = view, state, moving
        self._set: tuple | None = None  # the camera as the easing last left it
        self.timer = QTimer(view, interval=TICK_MS, timeout=self._tick)
        self._start = self._goal = np.zeros(3)
        self._distance = (0.0, 0.0)
        self._clock = QElapsedTimer()
        self.moves = 0  # eased camera moves so far
        state.changed.connect(self.check)

    def points(self) -> np.ndarray | None:
        """The ghost's origin and its three axis tips (and their letters), or None."""
        G = self.state.ghost
        if G is None:
            return None
        s = 2.6 * getattr(self.view, "_scale", 0.1)
        return np.vstack([G[:3, 3], G[:3, 3] + s * G[:3, :3].T])

    def _inside(self, pts: np.ndarray, center: np.ndarray, distance: float) -> bool:
        """Whether ``pts`` project inside the view's margin with the camera at ``center``, ``distance``."""
        view = self.view
        old_c, old_d = view.opts["center"], view.opts["distance"]
        view.opts["center"], view.opts["distance"] = QVector3D(*center.astype(float)), distance
        try:
            w, h = view.width(), view.height()
            px, front = project_points(view_mvp(view), pts, w, h)
        finally:
            view.opts["center"], view.opts["distance"] = old_c, old_d
        mx, my = MARGIN * w, MARGIN * h
        return bool(front.all() and (px[:, 0] >= mx).all() and (px[:, 0] <= w - mx).all()
                    and (px[:, 1] >= my).all() and (px[:, 1] <= h - my).all())

    def check(self) -> None:
        """Start easing the camera when the ghost has left the view."""
        view = self.view
        pts = self.points()
        if (pts is None or self.timer.isActive() or not self.moving() or not view.isVisible()
                or view.width() < 20 or view.height() < 20):
            return
        c = view.opts["center"]
        center = np.array([c.x(), c.y(), c.z()])
        distance = float(view.opts["distance"])
        if self._inside(pts, center, distance):
            return
        goal = pts[0]
        if self._inside(pts, goal, distance):
            lo, hi = 0.0, 1.0  # the least pan that brings it back
            for _ in range(12):
                mid = (lo + hi) / 2
                lo, hi = (lo, mid) if self._inside(pts, center + mid * (goal - center), distance) else (mid, hi)
            goal, far = center + hi * (goal - center), distance
        else:  # bigger than the view: centred on it, and farther away
            far = distance
            for _ in range(8):
                far *= 1.35
                if self._inside(pts, goal, far):
                    break
        self._start, self._goal = center, goal
        self._distance = (distance, far)
        self._clock.start()
        self._set = None
        self.moves += 1
        self.timer.start()

    def _camera(self) -> tuple:
        c = self.view.opts["center"]
        return c.x(), c.y(), c.z(), self.view.opts["distance"]

    def _tick(self) -> None:
        if self._set is not None and self._camera() != self._set:  # moved by someone else: theirs
            self.timer.stop()
            return
        u = _smoothstep(self._clock.elapsed() / EASE_MS)  # by the clock: slow frames do not slow it
        c = self._start + u * (self._goal - self._start)
        d0, d1 = self._distance
        self.view.setCameraPosition(pos=QVector3D(*c.astype(float)), distance=d0 + u * (d1 - d0))
        self._set = self._camera()
        if u >= 1.0:
            self.timer.stop()
            self.check()  # the ghost may have moved on meanwhile
