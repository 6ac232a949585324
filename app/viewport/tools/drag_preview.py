"""A frame drag drawn ahead of the document.

Moving a body's frame moves it and its subtree rigidly: their poses are the drag start's
times the drag's world motion X, with no forward kinematics and no tree rebuilt. The viewport
draws those poses at every mouse move; the edit itself (a new tree, the panels refreshed,
derived link visuals refitted) reaches the document at most every ``COMMIT_MS`` (and no more
often than ten times its own cost: a 1000-body tree's edit takes 0.1-0.3 s) and at release,
all in the drag's one undo step.
"""

from __future__ import annotations

import time

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.transforms import axis_angle_rotation
from PySide6.QtCore import QTimer

#: While a drag goes on the document (and the panels that show it) follows this often.
COMMIT_MS = 200


def screw_motion(origin: np.ndarray, direction: np.ndarray, kind: str, amount: float) -> np.ndarray:
    """The world motion (4×4) of ``amount`` along ("axis") or about ("ring") the line
    ``origin`` + t·``direction`` (unit)."""
    X = np.eye(4)
    if kind == "axis":
        X[:3, 3] = amount * np.asarray(direction, dtype=float)
    else:
        R = axis_angle_rotation(direction, amount)
        X[:3, :3] = R
        X[:3, 3] = origin - R @ origin
    return X


class DragPreview:
    """The poses the viewport draws during a frame drag (see the module docstring)."""

    def __init__(self, view) -> None:
        self.view = view
        self._start: np.ndarray | None = None  # every body's pose when the drag began
        self._moved: np.ndarray | None = None  # which bodies the drag moves (the body, its subtree)
        self._X: np.ndarray | None = None  # the drawn world motion
        self._good: np.ndarray | None = None  # the motion the document last accepted
        self._pending: tuple | None = None  # (text, change, only, drag): the edit not yet made
        self._timer = QTimer(view, singleShot=True, interval=COMMIT_MS, timeout=self.commit)

    @property
    def active(self) -> bool:
        return self._X is not None

    def show(self, body: str, start: np.ndarray, X: np.ndarray, edit: tuple) -> None:
        """Draw ``body`` and its subtree moved by ``X`` from the poses ``start``; ``edit``
        (text, change, only, drag) is what the document gets for it, soon."""
        if self._X is None:
            tree = self.view.doc.tree
            names = tree.body_names
            self._moved = np.zeros(len(names), dtype=bool)
            self._moved[[names.index(n) for n in (body, *tree.descendants(body))]] = True
            self._start, self._good = start, np.eye(4)
        self._X, self._pending = X, edit
        self.view.redraw()
        if not self._timer.isActive():  # else the document had an edit lately: it gets this one later
            self.commit()

    @property
    def moved(self) -> np.ndarray | None:
        """Which bodies (a mask in the tree's order) the drag moves; None when there is no drag."""
        return self._moved if self._X is not None else None

    def poses(self, poses: np.ndarray) -> np.ndarray:
        """What to draw for the document's ``poses``: the preview's while a drag goes on."""
        if self._X is None or len(poses) != len(self._moved):
            return poses
        out = self._start.copy()
        out[self._moved] = self._X @ out[self._moved]
        return out

    def commit(self) -> None:
        """Give the document the edit of the drawn motion now (refused: the last good one is
        drawn); the next one waits."""
        self._timer.stop()
        if self._pending is None:
            return
        (text, change, only, drag), self._pending = self._pending, None
        t = time.perf_counter()
        try:
            self.view.doc.edit(text, change, drag=drag, only=only)
            self._good = self._X
        except KineTreeError as exc:  # e.g. beyond the largest length: the last good pose stays
            self._X = self._good
            self.view.doc.message.emit(str(exc))
            self.view.redraw()
        self._timer.setInterval(max(COMMIT_MS, int(10_000 * (time.perf_counter() - t))))
        if self._X is not None:
            self._timer.start()

    def finish(self) -> None:
        """The drag ended: its last edit reaches the document, which is drawn again."""
        self.commit()
        self.drop()

    def drop(self) -> None:
        """Forget the drag (Esc: its edit is not made); the document is drawn."""
        self._timer.stop()
        was, self._X, self._pending = self._X is not None, None, None
        if was:
            self.view.redraw()
