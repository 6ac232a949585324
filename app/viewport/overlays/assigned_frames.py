"""The student's own DH frames (View ▸ Assign frames) painted over the scene: a triad per
assigned frame with x_i / z_i labels, the frame being assigned dashed, and the axis z_i must lie
along as a dashed line. It listens to the Assign frames state and to the document (frames are
rigid with their bodies, so they move with the robot); nobody pokes it."""

from __future__ import annotations

import numpy as np
from kinetree.core.dh.chain import subscript as sub
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

from ..labels import project_points, view_mvp

#: Triad arm length as a share of the robot's size.
ARM_SHARE = 0.2
COLORS = {"x": QColor(235, 70, 70), "y": QColor(80, 200, 90), "z": QColor(80, 140, 255)}
AXIS_COLOR = QColor(240, 200, 60)


class AssignedFrames(GLGraphicsItem):
    """Painted after the scene (over the links): the frames are what the student is looking at."""

    def __init__(self, view, state, doc) -> None:
        super().__init__()
        self.state, self.doc = state, doc
        self.font = QFont("DejaVu Sans", 11)
        self.font.setBold(True)
        self.drawn_labels: list[str] = []  # the labels of the last paint (tests read them)
        self.setDepthValue(104)
        self.setVisible(False)
        view.addItem(self)
        state.changed.connect(self._refresh)
        doc.configurationChanged.connect(self.update)

    def _refresh(self) -> None:
        self.setVisible(self.state.active)
        self.update()

    def world_frames(self) -> list[tuple[int, np.ndarray, bool]]:
        """(index, 4×4 pose at the document's configuration, is-the-pending-one) to draw."""
        fa = self.state.assignment
        if fa is None:
            return []
        frames = [(k, f.matrix, False) for k, f in enumerate(fa.frames)]
        if (pending := self.state.pending_frame()) is not None:
            frames.append((fa.step, pending.matrix, True))
        return [(k, self.state.moved(k, F), p) for k, F, p in frames]

    def paint(self) -> None:
        view = self.view()
        painter = QPainter(view.surface)
        self.paint_image(painter, view_mvp(view), view.width(), view.height())
        painter.end()

    def paint_image(self, painter: QPainter, mvp: np.ndarray, width: int, height: int, scale: float = 1.0) -> None:
        self.drawn_labels = []
        fa = self.state.assignment
        if fa is None or not self.state.active:
            return
        arm = ARM_SHARE * self.state.size
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        labels = getattr(self.view(), "labels", None)
        base = labels.font.pointSizeF() / 10 if labels is not None else 1.0  # follows View ▸ text size, Present
        font = QFont(self.font)
        font.setPointSizeF(self.font.pointSizeF() * base * scale)
        painter.setFont(font)
        dark = getattr(self.view(), "theme", "dark") == "dark"
        halo = QColor(0, 0, 0, 230) if dark else QColor(255, 255, 255, 230)
        if (line := self.state.target_line()) is not None:  # where z_i must lie
            p, u = line
            ends, front = project_points(mvp, np.array([p - 2 * arm * u, p + 2 * arm * u]), width, height)
            if front.all():
                pen = QPen(AXIS_COLOR, 2 * scale, Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawLine(QPointF(*ends[0]), QPointF(*ends[1]))
        tips: list[tuple[str, QPointF, list[int]]] = []  # (axis letter, arrow tip, frame numbers)
        for k, F, pending in self.world_frames():
            o = F[:3, 3]
            pts = np.array([o, o + arm * F[:3, 0], o + arm * F[:3, 1], o + arm * F[:3, 2]])
            px, front = project_points(mvp, pts, width, height)
            if not front.all() or not np.isfinite(px).all() or np.abs(px).max() > 1e6:
                continue
            for col, key in ((1, "x"), (2, "y"), (3, "z")):
                pen = QPen(COLORS[key], (2.0 if pending else 3.0) * scale,
                           Qt.PenStyle.DashLine if pending else Qt.PenStyle.SolidLine)
                painter.setPen(pen)
                painter.drawLine(QPointF(*px[0]), QPointF(*px[col]))
                if key == "y":
                    continue
                tip = QPointF(*px[col])
                same = next((t for t in tips if t[0] == key and (t[1] - tip).manhattanLength() < 6 * scale), None)
                if same is not None:  # coincident axes (frames 0 and 1 of most arms): one label "x₀, x₁"
                    same[2].append(k)
                else:
                    tips.append((key, tip, [k]))
        for key, tip, ks in tips:
            text = ", ".join(f"{key}{sub(k)}" for k in ks)  # the lecture's x₀, z₁
            at = tip + QPointF(4 * scale, -4 * scale)
            for color, d in ((halo, 1.0), (COLORS[key].lighter(130) if dark else COLORS[key].darker(130), 0.0)):
                painter.setPen(color)
                painter.drawText(at + QPointF(d, d), text)
            self.drawn_labels += [f"{key}{sub(k)}" for k in ks]
