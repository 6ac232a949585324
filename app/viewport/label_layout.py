"""Labels that never overlap: a screen-space layout shared by every label item of a view.

Each frame, the view's label items (frame names, the DH overlay's values and axis names, the
ghost's label and letters, the world axis letters, the measure reading) ask one
:class:`LabelLayout` for a place, most important first. A label goes to its usual spot when
that is free and covers no other labelled point; otherwise a greedy search tries spots around
its point (16 directions, growing distances) and takes the nearest free one that covers the
fewest other points, and a leader line joins it to its point. A label with no free spot left
is not drawn. The search is numpy over the candidates; only the first :data:`SEARCH_LABELS`
labels of a frame search (a 1000-body tree's other labels take their usual spot or none).

:func:`paint_placed` draws what was placed: a plate (:mod:`kinetree.app.widgets.text_style`), the leader, the text.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import numpy as np
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QStaticText

from ..model.text import static_text
from ..widgets.text_style import full_size_subscripts, plate_rgba, readable
from .projection import project_points, view_mvp

#: labels per frame that search for a free spot (the others: their usual spot, or none)
SEARCH_LABELS = 64
#: pixels kept free between two labels
GAP = 2.0
_ANGLES = np.radians([-45, -20, -70, 0, -90, 20, -110, 45, -135, 70, -160, 90, 180, 135, 110, 160])
#: subscript characters (x₃, θ₁₀) and the full-size characters drawn for them at a lecture's text size
_SUBSCRIPT = "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ"
_FULL_SIZE = str.maketrans(_SUBSCRIPT, "0123456789+-=()aeoxhklmnpstij")
_SUBSCRIPT_SET = frozenset(_SUBSCRIPT)
#: leader lines are neutral grey, light on a dark plate and dark on a light one: in a label's
#: colour (an axis's red or blue) a leader read as one more axis
LEADER_ON_DARK, LEADER_ON_LIGHT = (0.75, 0.75, 0.78, 0.85), (0.3, 0.3, 0.35, 0.85)
#: distances (in label heights) from the point to the nearest edge of a candidate spot
_RADII = (0.3, 0.9, 1.7, 2.7, 4.0, 5.5)


@dataclass
class Placed:
    """A label as drawn: its text, its plate rectangle (pixels), its point, whether it needs a
    leader line, its text colour and plate colour (0…1 RGBA)."""

    text: str
    rect: QRectF
    anchor: QPointF
    leader: bool
    color: tuple[float, float, float, float]
    plate: tuple[float, float, float, float]
    pad: float
    #: how the GPU draws it (label_sprites): kept while the label keeps its place
    quads: tuple | None = field(default=None, repr=False, compare=False)


class LabelLayout:
    """Free space for labels in one frame of a ``width`` × ``height`` view."""

    def __init__(self, width: float = 0, height: float = 0) -> None:
        self.begin(width, height)

    def begin(self, width: float, height: float, crowd: np.ndarray | None = None,
              obstacles: list[QRectF] | tuple = ()) -> None:
        """A new frame: nothing placed; ``crowd`` (k, 2) are the points labels should keep clear
        of (every labelled point, frame origins); ``obstacles`` are rectangles to keep clear of
        (widgets over the view)."""
        self.width, self.height = float(width), float(height)
        self._rects = np.zeros((32, 4))
        self._n = 0
        self._cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        self.crowd = np.zeros((0, 2)) if crowd is None else np.asarray(crowd, dtype=float).reshape(-1, 2)
        self._crowd_cells = _grid(self.crowd)
        self._bulk = np.zeros((0, 4))  # rectangles placed by place_usual (not in the cells)
        self.placed: list[Placed] = []
        self._colors: dict[tuple, tuple] = {}  # (colour, theme) → (readable RGBA, plate RGBA)
        self.searched = 0
        self.seconds = 0.0  # spent placing in this frame
        for r in obstacles:
            self._add(r.left(), r.top(), r.right(), r.bottom())

    # --- occupancy -----------------------------------------------------------------------------
    def _add(self, x0: float, y0: float, x1: float, y1: float) -> None:
        if self._n == len(self._rects):
            self._rects = np.concatenate([self._rects, np.zeros_like(self._rects)])
        self._rects[self._n] = (x0, y0, x1, y1)
        self._n += 1
        for c in self._cells_of(x0, y0, x1, y1):
            self._cells.setdefault(c, []).append((x0, y0, x1, y1))

    @staticmethod
    def _cells_of(x0, y0, x1, y1):
        i0, i1, j0, j1 = int(x0 // 64), int(x1 // 64), int(y0 // 64), int(y1 // 64)
        if i0 == i1 and j0 == j1:  # most labels: one cell
            return ((i0, j0),)
        return [(i, j) for i in range(i0, i1 + 1) for j in range(j0, j1 + 1)]

    def is_free(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """No placed label (or obstacle) within :data:`GAP` of the rectangle."""
        g = GAP
        get = self._cells.get
        # plain loops: a 1000-body tree asks this for every label of every frame
        for c in self._cells_of(x0 - g, y0 - g, x1 + g, y1 + g):
            for r in get(c, ()):
                if x0 < r[2] + g and r[0] < x1 + g and y0 < r[3] + g and r[1] < y1 + g:
                    return False
        B = self._bulk
        return not (len(B) and ((x0 < B[:, 2] + g) & (B[:, 0] < x1 + g) & (y0 < B[:, 3] + g)
                                & (B[:, 1] < y1 + g)).any())

    def free_below(self, rect: QRectF) -> QRectF:
        """``rect`` moved down past whatever is placed (or an obstacle) where it is."""
        r = QRectF(rect)
        for _ in range(self._n + 1):
            R = self._rects[:self._n]
            hit = ((R[:, 0] < r.right() + GAP) & (r.left() < R[:, 2] + GAP)
                   & (R[:, 1] < r.bottom() + GAP) & (r.top() < R[:, 3] + GAP))
            if not hit.any():
                break
            r.moveTop(float(R[hit, 3].max()) + GAP + 2)
        return r

    def reserve(self, rect: QRectF) -> None:
        """Keep ``rect`` clear of labels from now on (the overlay's legend)."""
        self._add(rect.left(), rect.top(), rect.right(), rect.bottom())

    # --- placement -----------------------------------------------------------------------------
    def place(self, x: float, y: float, w: float, h: float, dx: float, dy: float) -> tuple[float, float, bool] | None:
        """The top-left corner of a free ``w`` × ``h`` spot for the label of point (x, y) and
        whether it was moved from its usual spot (top-left at (x + dx, y + dy)): then it needs a
        leader line. None: no free spot (the label is not drawn)."""
        t0 = time.perf_counter()
        try:
            return self._place(x, y, w, h, dx, dy)
        finally:
            self.seconds += time.perf_counter() - t0

    def _place(self, x, y, w, h, dx, dy):
        x0, y0 = x + dx, y + dy
        free = self.is_free(x0, y0, x0 + w, y0 + h)
        search = self.searched < SEARCH_LABELS
        if search:  # the first labels of a frame (the most important) keep clear of the crowd too
            self.searched += 1
        if free and (not search or not self._covers_crowd(x, y, x0, y0, x0 + w, y0 + h)):
            self._add(x0, y0, x0 + w, y0 + h)
            return x0, y0, False
        if not search:
            return None
        radii = np.array(_RADII) * h
        cx = x + np.cos(_ANGLES)[None, :] * (radii[:, None] + w / 2)
        cy = y + np.sin(_ANGLES)[None, :] * (radii[:, None] + h / 2)
        cand = np.empty((1 + cx.size, 4))
        cand[0] = (x0, y0, x0 + w, y0 + h)
        cand[1:, 0], cand[1:, 1] = cx.ravel() - w / 2, cy.ravel() - h / 2
        cand[1:, 2], cand[1:, 3] = cand[1:, 0] + w, cand[1:, 1] + h
        R = self._rects[:self._n]
        g = GAP
        # only the placed rectangles that reach the candidates' bounding box can hit one
        R = R[(R[:, 0] < cand[:, 2].max() + g) & (R[:, 2] + g > cand[:, 0].min())
              & (R[:, 1] < cand[:, 3].max() + g) & (R[:, 3] + g > cand[:, 1].min())]
        hit = ((cand[:, None, 0] < R[None, :, 2] + g) & (R[None, :, 0] < cand[:, None, 2] + g)
               & (cand[:, None, 1] < R[None, :, 3] + g) & (R[None, :, 1] < cand[:, None, 3] + g)).any(axis=1)
        outside = ((cand[:, 0] < 0) | (cand[:, 1] < 0) | (cand[:, 2] > self.width) | (cand[:, 3] > self.height))
        score = self._crowding(x, y, cand) * 1e3 + np.arange(len(cand))
        score[hit] = np.inf
        score[1:][outside[1:]] = np.inf  # moved, a label stays in the view (its usual spot may not)
        k = int(np.argmin(score))
        if not np.isfinite(score[k]):
            return None
        bx0, by0, bx1, by1 = cand[k]
        self._add(bx0, by0, bx1, by1)
        return bx0, by0, k > 0

    def _covers_crowd(self, x: float, y: float, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the rectangle covers a crowd point other than the label's own (asked only
        for the first :data:`SEARCH_LABELS` labels of a frame)."""
        P = self._crowd_in(x0, y0, x1, y1)
        return bool(((P[:, 0] > x0) & (P[:, 0] < x1) & (P[:, 1] > y0) & (P[:, 1] < y1)
                     & (np.abs(P[:, 0] - x) + np.abs(P[:, 1] - y) > 3)).any())

    def _crowd_in(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        """The crowd points in the grid cells the rectangle touches (a superset of those in it)."""
        keys, points = self._crowd_cells
        j0, j1 = int(y0 // 64) + (1 << 20), int(y1 // 64) + (1 << 20)
        spans = []
        for i in range(int(x0 // 64), int(x1 // 64) + 1):  # a column's cells are contiguous in key order
            column = (i + (1 << 20)) * (1 << 21)
            lo, hi = bisect_left(keys, column + j0), bisect_right(keys, column + j1)
            if hi > lo:
                spans.append(points[lo:hi])
        return spans[0] if len(spans) == 1 else np.concatenate(spans) if spans else np.zeros((0, 2))

    def _crowding(self, x: float, y: float, cand: np.ndarray) -> np.ndarray:
        """How many crowd points (other than the label's own, within 3 px) each candidate covers."""
        P = self._crowd_in(cand[:, 0].min(), cand[:, 1].min(), cand[:, 2].max(), cand[:, 3].max())
        if not len(P):
            return np.zeros(len(cand))
        near = P[(np.abs(P[:, 0] - x) < cand[:, 2].max() - x + 4) & (np.abs(P[:, 1] - y) < cand[:, 3].max() - y + 4)
                 & (np.abs(P[:, 0] - x) + np.abs(P[:, 1] - y) > 3)]
        if not len(near):
            return np.zeros(len(cand))
        return ((near[None, :, 0] > cand[:, None, 0]) & (near[None, :, 0] < cand[:, None, 2])
                & (near[None, :, 1] > cand[:, None, 1]) & (near[None, :, 1] < cand[:, None, 3])).sum(axis=1)

    def place_usual(self, rects: np.ndarray) -> np.ndarray:
        """Labels that do not search (a frame's labels past :data:`SEARCH_LABELS`), all at
        once: each of ``rects`` (n, 4: x0 y0 x1 y1), in priority order, takes its usual spot when
        that is free of what is placed and of the earlier ones taken (as :meth:`place` one by
        one would). Returns which were taken; they are recorded as placed rectangles."""
        t0 = time.perf_counter()
        rects = np.asarray(rects, dtype=float).reshape(-1, 4)
        g = GAP

        def clash(A, B):
            return ((A[:, None, 0] < B[None, :, 2] + g) & (B[None, :, 0] < A[:, None, 2] + g)
                    & (A[:, None, 1] < B[None, :, 3] + g) & (B[None, :, 1] < A[:, None, 3] + g))

        blocked = clash(rects, self._rects[:self._n]).any(axis=1)
        if len(self._bulk):
            blocked |= clash(rects, self._bulk).any(axis=1)
        ii, jj = np.nonzero(np.tril(clash(rects, rects), -1))  # earlier labels each one would cover
        starts = np.searchsorted(ii, np.arange(len(rects) + 1)).tolist()
        jj = jj.tolist()
        taken = [False] * len(rects)
        for i, b in enumerate(blocked.tolist()):
            if not b and not any(taken[j] for j in jj[starts[i]:starts[i + 1]]):
                taken[i] = True
        taken = np.array(taken, dtype=bool)
        self.keep([], rects[taken])
        self.seconds += time.perf_counter() - t0
        return taken

    def keep(self, placed: list[Placed], rects: np.ndarray) -> None:
        """Labels placed in an earlier frame stay where they were: ``placed`` with their
        ``rects`` (n, 4: x0 y0 x1 y1), recorded as placed without any test."""
        rects = np.asarray(rects, dtype=float).reshape(-1, 4)
        self._bulk = np.concatenate([self._bulk, rects])
        while self._n + len(rects) > len(self._rects):
            self._rects = np.concatenate([self._rects, np.zeros_like(self._rects)])
        self._rects[self._n:self._n + len(rects)] = rects
        self._n += len(rects)
        self.placed.extend(placed)

    def colors(self, color, theme: str) -> tuple[tuple, tuple]:
        """The readable text colour (RGBA) of ``color`` on the ``theme``'s plate, and the plate."""
        key = (tuple(color[:3]), theme)
        colors = self._colors.get(key)
        if colors is None:
            colors = self._colors[key] = ((*readable(tuple(float(c) for c in color[:3]), theme), 1.0),
                                          plate_rgba(theme))
        return colors

    def label(self, text: str, x: float, y: float, box: tuple[float, float, float], dx: float, dy: float,
              color, theme: str, last: tuple[float, float, bool] | None = None) -> Placed | None:
        """Place the text whose plate is ``box`` (width, height, padding: :func:`text_box`) for
        point (x, y) and record it with its readable colour and plate (None: not drawn).
        ``last``: the plate's offset from its point in the previous frame and its leader flag,
        taken again when still free and inside the view (a label does not jump during a drag)."""
        w, h, pad = box
        at = None
        if last is not None:
            x0, y0 = x + last[0], y + last[1]
            inside = 0 <= x0 and 0 <= y0 and x0 + w <= self.width and y0 + h <= self.height
            if (inside or not last[2]) and self.is_free(x0, y0, x0 + w, y0 + h):  # as place(): moved stays inside
                self.searched += 1  # it counts as one of the frame's searching labels
                self._add(x0, y0, x0 + w, y0 + h)
                at = (x0, y0, bool(last[2]))
        if at is None:
            at = self.place(x, y, w, h, dx, dy)
        if at is None:
            return None
        colors = self.colors(color, theme)
        p = Placed(text, QRectF(at[0], at[1], w, h), QPointF(x, y), at[2], colors[0], colors[1], pad)
        self.placed.append(p)
        return p


def _cell_key(i, j):
    """One integer per 64-pixel cell (cells within ±2^20 of the view's origin)."""
    return (np.asarray(i, dtype=np.int64) + (1 << 20)) * (1 << 21) + (np.asarray(j, dtype=np.int64) + (1 << 20))


def _grid(points: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The sorted keys of the 64-pixel cells ``points`` (k, 2) fall in (the cells of
    LabelLayout._cells_of), and the points in that order."""
    cells = np.clip(np.floor(points / 64), -(1 << 20), (1 << 20) - 1)  # far points: in the edge cells
    keys = _cell_key(cells[:, 0], cells[:, 1]) if len(points) else np.zeros(0, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    return keys[order].tolist(), points[order]


def pad_of(height: float) -> float:
    """The plate's margin round a text ``height`` pixels high (more at larger text)."""
    return max(2.0, round(0.12 * height, 1))


def paint_placed(painter: QPainter, labels: list[Placed], cache: dict[str, QStaticText] | None = None,
                 ascent_shift: float = 0.0) -> None:
    """Draw the labels: leader lines first, then each plate and its text."""
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    for p in labels:
        if p.leader:
            r = p.rect
            end = QPointF(min(max(p.anchor.x(), r.left()), r.right()), min(max(p.anchor.y(), r.top()), r.bottom()))
            pen = QPen(QColor.fromRgbF(*leader_rgba(p)))
            pen.setWidthF(max(1.5, r.height() / 14))
            painter.setPen(pen)
            painter.drawLine(p.anchor, end)
            painter.setBrush(QColor.fromRgbF(*leader_rgba(p)))
            dot = max(2.0, r.height() / 10)
            painter.drawEllipse(p.anchor, dot, dot)
    painter.setPen(QColor(0, 0, 0, 0))
    # plates unsmoothed: a 4-px corner looks the same, and OpenGL's paint engine fills an
    # antialiased path in several passes (the costliest call of a 1000-body tree's frame)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    plate = None
    for p in labels:  # brush and pen set only when they change: most labels share them
        if p.plate != plate:
            plate = p.plate
            painter.setBrush(QColor.fromRgbF(*plate))
        radius = min(4.0, p.pad)
        painter.drawRoundedRect(p.rect, radius, radius)
    cache = {} if cache is None else cache
    if len(cache) > 4096:  # names and values come and go: keep the cache bounded
        cache.clear()
    color = None
    for p in labels:
        if p.color != color:
            color = p.color
            painter.setPen(QColor.fromRgbF(*color))
        draw_label_text(painter, QPointF(p.rect.left() + p.pad, p.rect.top() + p.pad + ascent_shift), p.text, cache)


# --- one layout per view, begun at every frame ------------------------------------------------
class _FrameStart(GLGraphicsItem):
    """Painted first in every frame (lowest depth): starts the view's layout afresh, with every
    labelled point and frame origin as the crowd and the widgets over the view as obstacles."""

    def __init__(self, layout: LabelLayout) -> None:
        super().__init__()
        self.layout = layout
        self.setDepthValue(-1e9)

    def paint(self) -> None:
        begin_frame(self.view(), self.layout)


def crowd_points(view) -> np.ndarray:
    """3D points labels keep clear of: every label item's points and the body frame origins."""
    items = tuple(view.items)  # the items themselves, not ids: a removed item's id may be reused
    cached = getattr(view, "_anchored_items", None)
    if cached is None or cached[0] != items:  # asking every item (Qt objects) costs ~0.2 ms a frame
        cached = view._anchored_items = (items, [it for it in items if hasattr(it, "label_anchors")])
    pts = [it.label_anchors() for it in cached[1] if it.visible()]
    poses = getattr(view, "_poses", None)
    if poses is not None and len(poses):
        pts.append(poses[:, :3, 3])
    pts = [np.asarray(p, dtype=float).reshape(-1, 3) for p in pts if len(p)]
    return np.vstack(pts) if pts else np.zeros((0, 3))


def begin_frame(view, layout: LabelLayout, mvp: np.ndarray | None = None, width: int | None = None,
                height: int | None = None) -> None:
    """Start ``layout`` for a frame of ``view`` (or an exported image of ``width`` × ``height``)."""
    w = view.width() if width is None else width
    h = view.height() if height is None else height
    px, front = project_points(view_mvp(view) if mvp is None else mvp, crowd_points(view), w, h)
    ok = front & np.all(np.isfinite(px), axis=1)
    obstacles = []
    if width is None:  # on the widget: the tool bar, the grid's scale, a hint over the view
        obstacles = [QRectF(c.geometry()) for c in view.children() if c.isWidgetType() and c.isVisible()
                     and not c.geometry().contains(view.rect())]
    layout.begin(w, h, px[ok], obstacles)


def layout_of(view) -> LabelLayout:
    """The view's shared layout (made, and begun for this frame, on first use)."""
    layout = getattr(view, "_label_layout", None)
    if layout is None:
        layout = view._label_layout = LabelLayout()
        view.addItem(_FrameStart(layout))
        begin_frame(view, layout)
    return layout


def leader_rgba(p: Placed) -> tuple[float, float, float, float]:
    """The colour of ``p``'s leader line and of the dot at its point."""
    return LEADER_ON_DARK if sum(p.plate[:3]) < 1.5 else LEADER_ON_LIGHT


def _runs(text: str) -> list[tuple[str, bool]]:
    """``text`` in runs of (characters, subscript?), the subscripts as full-size characters."""
    runs: list[tuple[str, bool]] = []
    for ch in text:
        low = ch in _SUBSCRIPT_SET
        if runs and runs[-1][1] == low:
            runs[-1] = (runs[-1][0] + ch, low)
        else:
            runs.append((ch, low))
    return [(t.translate(_FULL_SIZE) if low else t, low) for t, low in runs]


def label_advance(metrics: QFontMetricsF, text: str, full: bool) -> float:
    """The width of ``text`` as a label draws it (``full``: its subscripts full size)."""
    if not full or _SUBSCRIPT_SET.isdisjoint(text):
        return metrics.horizontalAdvance(text)
    return sum(metrics.horizontalAdvance(t) for t, _ in _runs(text))


def draw_label_text(painter: QPainter, at: QPointF, text: str, cache: dict[str, QStaticText] | None = None) -> None:
    """Draw a label's ``text`` (plain text, never markup) with its top left at ``at``, in the
    painter's font; at a lecture's size (:func:`full_size_subscripts`) its subscripts are
    full-size characters lowered by a quarter of the font's ascent (within its descent)."""
    font = painter.font()
    if full_size_subscripts(font) and not _SUBSCRIPT_SET.isdisjoint(text):
        metrics = QFontMetricsF(font)
        x, base = at.x(), at.y() + metrics.ascent()
        drop = min(0.25 * metrics.ascent(), metrics.descent())
        for t, low in _runs(text):
            painter.drawText(QPointF(x, base + (drop if low else 0.0)), t)
            x += metrics.horizontalAdvance(t)
        return
    static = None if cache is None else cache.get(text)
    if static is None:  # laid out once, drawn every frame
        static = static_text(text)
        static.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
        if cache is not None:
            cache[text] = static
    painter.drawStaticText(at, static)


def text_box(metrics, text: str, widths: dict[str, float] | None = None,
             full: bool = False) -> tuple[float, float, float]:
    """Width and height of ``text``'s plate in ``metrics``' font, and its padding (``full``: its
    subscripts drawn full size, :func:`full_size_subscripts` of that font)."""
    width = None if widths is None else widths.get(text)
    if width is None:
        width = label_advance(metrics, text, full) + 1
        if widths is not None:
            widths[text] = width
    h = metrics.height()
    pad = pad_of(h)
    return width + 2 * pad, h + 2 * pad, pad

