"""The measure tool (R): click two frames or two points on the robot's surfaces; the distance
between them (and its x/y/z parts) is drawn on a line between them, and for two frames also the
angle between their orientations and between their z axes (two joint axes). Measuring is not an
edit: nothing goes on the undo stack. A third click starts a new measurement; Esc clears it."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtGui import QFont

from ...model.numbers import fixed_text
from ..gl_programs import ON_TOP
from ..labels import LabelsItem
from ..lines import DotsItem, LineItem

MARK_RGBA = (1.0, 0.85, 0.1, 1.0)


@dataclass(frozen=True)
class Mark:
    """A picked point: a body's frame (``pose`` its 4×4 world pose) or a point on its surface."""

    body: str
    point: np.ndarray
    pose: np.ndarray | None = None

    @property
    def text(self) -> str:
        return f"{self.body} frame" if self.pose is not None else f"a point on {self.body}"


def pick_mark(view, x: float, y: float, other_than: str | None = None) -> Mark | None:
    """The frame under (x, y) of ``view``, else the surface point there, else None. ``other_than``:
    a body whose frame is passed over (a second pick where two frames coincide takes the other)."""
    frames = [k for k in view.picker.frames_at(x, y) if other_than is None or view._name(k) != other_than]
    if frames:
        k = frames[0]
        pose = view._slot_poses()[k].copy()
        return Mark(view._name(k), pose[:3, 3].copy(), pose)
    if (hit := view.picker.surface_point(x, y)) is not None:
        return Mark(view._name(hit[0]), hit[1])
    return None


@dataclass(frozen=True)
class Measurement:
    distance: float
    delta: np.ndarray  # b − a in the world frame
    angle: float | None = None  # rotation between two frames (rad)
    axis_angle: float | None = None  # between their z axes (rad)

    def text(self) -> str:
        d = [fixed_text(v, 1) for v in self.delta * 1000]  # fixed_text: never "-0.0" (issue 19)
        parts = [f"{fixed_text(self.distance * 1000, 1)} mm  (Δx {d[0]}, Δy {d[1]}, Δz {d[2]} mm)"]
        if self.angle is not None:
            parts.append(f"rotation {fixed_text(math.degrees(self.angle), 2)}°, "
                         f"z axes {fixed_text(math.degrees(self.axis_angle), 2)}° apart")
        return "; ".join(parts)


def measure(a: Mark, b: Mark) -> Measurement:
    delta = np.asarray(b.point, float) - np.asarray(a.point, float)
    if a.pose is None or b.pose is None:
        return Measurement(float(np.linalg.norm(delta)), delta)
    R = a.pose[:3, :3].T @ b.pose[:3, :3]
    angle = math.acos(float(np.clip((np.trace(R) - 1) / 2, -1.0, 1.0)))
    axis = math.acos(float(np.clip(a.pose[:3, 2] @ b.pose[:3, 2], -1.0, 1.0)))
    return Measurement(float(np.linalg.norm(delta)), delta, angle, axis)


class MeasureTool:
    """Clicks pick marks; the line, the marks and the reading are drawn on top."""

    def __init__(self, view) -> None:

        self.view = view
        self.marks: list[Mark] = []
        self.result: Measurement | None = None
        self.line = LineItem(mode="lines", width=3, antialias=True, color=MARK_RGBA)
        self.dots = DotsItem(size=12, pxMode=True, color=MARK_RGBA)
        self.reading = LabelsItem(QFont("DejaVu Sans", 12, QFont.Weight.Bold))
        for item, depth in ((self.line, 11), (self.dots, 11), (self.reading, 101)):
            item.setGLOptions(ON_TOP)
            item.setDepthValue(depth)
            item.setVisible(False)
            view.addItem(item)

    def click(self, x: float, y: float) -> Mark | None:
        """Pick the frame (or else the surface point) under (x, y) as the next mark."""
        view = self.view
        mark = pick_mark(view, x, y)
        if mark is None:
            return None
        if len(self.marks) >= 2:
            self.marks = []
        self.marks.append(mark)
        self.result = measure(*self.marks) if len(self.marks) == 2 else None
        self._draw()
        if self.result is not None:
            view.doc.message.emit(f"{self.marks[0].text} to {self.marks[1].text}: {self.result.text()}")
        return mark

    def clear(self) -> bool:
        """Esc: forget the marks; True if there were any."""
        had = bool(self.marks)
        self.marks, self.result = [], None
        self._draw()
        return had

    def set_active(self, on: bool) -> None:
        if not on:
            self.clear()

    def _draw(self) -> None:
        pts = np.array([m.point for m in self.marks]).reshape(-1, 3)
        self.dots.setVisible(len(pts) > 0)
        if len(pts):
            self.dots.setData(pos=pts)
        self.line.setVisible(len(pts) == 2)
        self.reading.setVisible(self.result is not None)
        if len(pts) == 2:
            self.line.setData(pos=pts)
            self.reading.set_data(texts=[f"{fixed_text(self.result.distance * 1000, 1)} mm"],
                                  positions=pts.mean(axis=0)[None], color=self.view.labels.color)
        self.view.update()
