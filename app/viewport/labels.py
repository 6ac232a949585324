"""Text labels at 3D points, drawn with one QPainter pass for all of them.

pyqtgraph's ``GLTextItem`` opens a QPainter per label per frame, which costs more than the
whole rest of the scene for a 100-body tree; this item projects every point with one matrix
product and draws all texts in one painter session.
"""

from __future__ import annotations

import numpy as np
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText


def view_mvp(view, viewport: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """The 4×4 world → clip matrix of a ``GLViewWidget`` (for its own size, or ``viewport``)."""
    vp = viewport or view.getViewport()
    proj = np.array(view.projectionMatrix(vp, vp).data(), dtype=float).reshape(4, 4).T
    return proj @ np.array(view.viewMatrix().data(), dtype=float).reshape(4, 4).T


def project_points(mvp: np.ndarray, points: np.ndarray, width: float, height: float) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates (x right, y down) of ``points`` under the 4×4 ``mvp``, and a mask of
    the points in front of the camera."""
    P = np.c_[points, np.ones(len(points))] @ mvp.T
    w = P[:, 3]
    front = w > 1e-9
    ndc = P[:, :3] / np.where(front, w, 1.0)[:, None]
    return np.c_[(ndc[:, 0] + 1) * width / 2, (1 - ndc[:, 1]) * height / 2], front


def draw_labels(painter: QPainter, texts: list[str], px: np.ndarray, front: np.ndarray, color: QColor,
                font: QFont, cache: dict[str, QStaticText]) -> None:
    """Draw the texts at pixel positions ``px`` (where ``front``); ``cache`` keeps their layouts."""
    painter.setFont(font)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    # frames that coincide on screen (a spherical wrist, a body on a fixed joint) share one label
    groups: dict[tuple[int, int], list] = {}
    for text, (x, y), ok in zip(texts, px, front):
        if ok and np.isfinite(x) and np.isfinite(y):
            groups.setdefault((round(x / 5), round(y / 5)), [x, y, []])[2].append(text)
    shadow = QColor(0, 0, 0, 200) if color.lightness() > 128 else QColor(255, 255, 255, 200)
    ascent = QFontMetricsF(font).ascent()
    for pen, dx in ((shadow, 1.0), (color, 0.0)):  # a 1-px shadow keeps text readable over meshes
        painter.setPen(pen)
        for x, y, names in groups.values():
            text = ", ".join(names)
            static = cache.get(text)
            if static is None:  # laid out once, drawn every frame
                if len(cache) > 4096:  # names come and go with edits: keep the cache bounded
                    cache.clear()
                static = cache[text] = QStaticText(text)
                static.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
            painter.drawStaticText(QPointF(x + 4 + dx, y - 4 + dx - ascent), static)


class LabelsItem(GLGraphicsItem):
    """Texts at 3D positions; ``set_data`` updates positions in place."""

    def __init__(self, font: QFont | None = None) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.positions = np.zeros((0, 3))
        self.color = QColor(255, 255, 255)
        self.font = font or QFont("DejaVu Sans", 10)
        # owned by the item, so the Qt objects go away with the view, never after the application
        self.static_texts: dict[str, QStaticText] = {}

    def set_data(self, texts: list[str] | None = None, positions: np.ndarray | None = None,
                 color: QColor | None = None) -> None:
        if texts is not None:
            self.texts = list(texts)
        if positions is not None:
            self.positions = np.asarray(positions, dtype=float).reshape(-1, 3)
        if color is not None:
            self.color = color
        self.update()

    def paint(self) -> None:
        if not self.texts or len(self.positions) != len(self.texts):
            return
        view = self.view()
        px, front = project_points(view_mvp(view), self.positions, view.width(), view.height())
        painter = QPainter(view)
        draw_labels(painter, self.texts, px, front, self.color, self.font, self.static_texts)
        painter.end()
