"""Text labels at 3D points, drawn with one QPainter pass for all of them.

pyqtgraph's ``GLTextItem`` opens a QPainter per label per frame, which costs more than the
whole rest of the scene for a 100-body tree; this item projects every point with one matrix
product and draws all texts in one painter session.
"""

from __future__ import annotations

import numpy as np
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, QRectF
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


def label_order(count: int, selected: int | None, hovered: int | None, leaves, all_labels: bool) -> list[int]:
    """Indices of the labels to draw, most important first: the body under the cursor, the
    selected one, the end effectors (``leaves``), then (with ``all_labels``) every other one."""
    order: list[int] = []
    seen: set[int] = set()
    for k in (hovered, selected, *leaves, *(range(count) if all_labels else ())):
        if k is not None and 0 <= k < count and k not in seen:
            seen.add(k)
            order.append(k)
    return order


def draw_labels(painter: QPainter, texts: list[str], px: np.ndarray, front: np.ndarray, color: QColor,
                font: QFont, cache: dict[str, QStaticText], order: list[int] | None = None,
                hits: list[tuple[QRectF, list[int]]] | None = None) -> list[tuple[str, QRectF]]:
    """Draw the texts at pixel positions ``px`` (where ``front``); ``cache`` keeps their layouts.

    ``order`` lists the labels to draw, most important first (default: all, in index order). A
    label whose rectangle would overlap one already kept is dropped, so what is drawn stays
    readable. Returns the drawn texts with their rectangles; ``hits`` gets each drawn rectangle
    with the indices of the labels it shows (for picking)."""
    painter.setFont(font)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    # frames that coincide on screen (a spherical wrist, a body on a fixed joint) share one label
    groups: dict[tuple[int, int], list] = {}
    for k in range(len(texts)) if order is None else order:
        if k >= len(texts):  # an order from before an edit removed bodies
            continue
        (x, y), ok = px[k], front[k]
        if ok and np.isfinite(x) and np.isfinite(y) and abs(x) < 1e6 and abs(y) < 1e6:
            group = groups.setdefault((round(x / 5), round(y / 5)), [x, y, [], []])
            group[2].append(texts[k])
            group[3].append(k)
    metrics = QFontMetricsF(font)
    ascent, height = metrics.ascent(), metrics.height()
    widths = _widths(font)
    kept: list[tuple[str, QRectF, QPointF]] = []
    # kept rectangles (x0, y0, x1, y1) by the 64-px cells they cover: a 1000-body tree's labels
    # are checked against their neighbours only, in plain Python numbers
    cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
    for x, y, names, indices in groups.values():  # in priority order: the first label of a group set it
        text = ", ".join(names)
        width = widths.get(text)
        if width is None:
            width = widths[text] = metrics.horizontalAdvance(text) + 1
        x0, y0 = x + 4, y - 4 - ascent
        x1, y1 = x0 + width, y0 + height
        covered = [(i, j) for i in range(int(x0 // 64), int(x1 // 64) + 1)
                   for j in range(int(y0 // 64), int(y1 // 64) + 1)]
        if not any(x0 < r[2] and r[0] < x1 and y0 < r[3] and r[1] < y1 for c in covered for r in cells.get(c, ())):
            kept.append((text, QRectF(x0, y0, width, height), QPointF(x0, y0)))
            if hits is not None:
                hits.append((kept[-1][1], indices))
            for c in covered:
                cells.setdefault(c, []).append((x0, y0, x1, y1))
    shadow = QColor(0, 0, 0, 200) if color.lightness() > 128 else QColor(255, 255, 255, 200)
    for pen, dx in ((shadow, 1.0), (color, 0.0)):  # a 1-px shadow keeps text readable over meshes
        painter.setPen(pen)
        for text, _, at in kept:
            static = cache.get(text)
            if static is None:  # laid out once, drawn every frame
                if len(cache) > 4096:  # names come and go with edits: keep the cache bounded
                    cache.clear()
                static = cache[text] = QStaticText(text)
                static.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
            painter.drawStaticText(at + QPointF(dx, dx), static)
    return [(text, rect) for text, rect, _ in kept]


_WIDTHS: dict[str, dict[str, float]] = {}


def _widths(font: QFont) -> dict[str, float]:
    """Text widths in ``font``, measured once per text (bounded: names come and go with edits)."""
    key = font.key()
    cache = _WIDTHS.setdefault(key, {})
    if len(cache) > 8192:
        cache.clear()
    return cache


class LabelsItem(GLGraphicsItem):
    """Texts at 3D positions; ``set_data`` updates positions in place. ``order`` (see
    :func:`label_order`) says which are drawn, most important first; ``None`` draws all."""

    def __init__(self, font: QFont | None = None) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.positions = np.zeros((0, 3))
        self.color = QColor(255, 255, 255)
        self.font = font or QFont("DejaVu Sans", 10)
        # owned by the item, so the Qt objects go away with the view, never after the application
        self.static_texts: dict[str, QStaticText] = {}
        self.order: list[int] | None = None
        self.drawn: list[tuple[str, QRectF]] = []  # what the last paint drew, and where
        self.drawn_bodies: list[tuple[QRectF, list[int]]] = []  # each drawn label's rectangle and indices

    def set_data(self, texts: list[str] | None = None, positions: np.ndarray | None = None,
                 color: QColor | None = None, order: list[int] | None | bool = False) -> None:
        if texts is not None:
            self.texts = list(texts)
        if positions is not None:
            self.positions = np.asarray(positions, dtype=float).reshape(-1, 3)
        if color is not None:
            self.color = color
        if order is not False:  # None is a value here: every label
            self.order = order
        self.update()

    def paint(self) -> None:
        if not self.texts or len(self.positions) != len(self.texts):
            return
        view = self.view()
        px, front = project_points(view_mvp(view), self.positions, view.width(), view.height())
        painter = QPainter(view)
        self.drawn_bodies = []
        self.drawn = draw_labels(painter, self.texts, px, front, self.color, self.font, self.static_texts,
                                 self.order, self.drawn_bodies)
        painter.end()
