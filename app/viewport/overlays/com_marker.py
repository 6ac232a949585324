"""The centre-of-mass marker (View ▸ Centre of mass): the engineering symbol, a disc in black
and white quarters, painted over the scene at the projected centre, with "CoM" and the total mass.
The position is handed in (the analysis module computes ``tree.center_of_mass(q)``)."""

from __future__ import annotations

import numpy as np
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from ..labels import project_points, view_mvp

#: Radius of the symbol in pixels (times the text scale).
RADIUS_PX = 9.0


class ComMarker(GLGraphicsItem):
    """Painted last (over meshes and frames): the centre of mass must not hide inside the links."""

    def __init__(self, view) -> None:
        super().__init__()
        self.position: np.ndarray | None = None
        self.text = "CoM"
        self.font = QFont("DejaVu Sans", 10)
        self.drawn_at: QPointF | None = None  # widget pixel of the last paint (None: not drawn)
        self.setDepthValue(103)
        self.setVisible(False)
        view.addItem(self)

    def set_position(self, position: np.ndarray | None, text: str = "CoM") -> None:
        """The centre in the base frame (None: nothing drawn) and the text beside it."""
        self.position = None if position is None else np.asarray(position, dtype=float).reshape(3)
        self.text = text
        self.update()

    def paint(self) -> None:
        view = self.view()
        painter = QPainter(view.surface)
        self.paint_image(painter, view_mvp(view), view.width(), view.height(), 1.0)
        painter.end()

    def paint_image(self, painter: QPainter, mvp: np.ndarray, width: int, height: int, scale: float = 1.0) -> None:
        """Paint into ``painter`` (the widget, or an exported image ``scale`` times larger)."""
        self.drawn_at = None
        if self.position is None:
            return
        px, front = project_points(mvp, self.position[None], width, height)
        x, y = px[0]
        if not (front[0] and np.isfinite(x) and np.isfinite(y) and abs(x) < 1e6 and abs(y) < 1e6):
            return
        labels = getattr(self.view(), "labels", None)
        base = labels.font.pointSizeF() / 10 if labels is not None else 1.0  # follows View ▸ text size
        r = RADIUS_PX * base * scale
        c = QPointF(x, y)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        disc = QRectF(x - r, y - r, 2 * r, 2 * r)
        painter.setPen(QPen(QColor(0, 0, 0), max(1.0, 1.5 * scale)))
        painter.setBrush(QColor(255, 255, 255))
        painter.drawEllipse(disc)
        painter.setBrush(QColor(0, 0, 0))
        for start in (0, 180):  # two opposite quarters black: the checkered CoM symbol
            painter.drawPie(disc, start * 16, 90 * 16)
        painter.setPen(QPen(QColor(255, 255, 255), max(1.0, scale)))  # a halo: readable on black too
        painter.setBrush(QColor(0, 0, 0, 0))
        painter.drawEllipse(disc.adjusted(-1.5 * scale, -1.5 * scale, 1.5 * scale, 1.5 * scale))
        font = QFont(self.font)
        font.setPointSizeF(self.font.pointSizeF() * base * scale)
        font.setBold(True)
        painter.setFont(font)
        m = QFontMetricsF(font)
        at = c + QPointF(r + 5 * scale, m.ascent() / 2 - 1)
        dark = getattr(self.view(), "theme", "dark") == "dark"
        for color, d in ((QColor(0, 0, 0, 220) if dark else QColor(255, 255, 255, 230), 1.0),
                         (QColor(255, 255, 255) if dark else QColor(10, 10, 10), 0.0)):
            painter.setPen(color)
            painter.drawText(at + QPointF(d, d), self.text)
        self.drawn_at = c
