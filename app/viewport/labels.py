"""Text labels at 3D points: placed together, drawn in one GL call (or one QPainter pass, for an image).

pyqtgraph's ``GLTextItem`` opens a QPainter per label per frame, which costs more than the
whole rest of the scene for a 100-body tree; this item projects every point with one matrix
product, places the labels with the view's layout and draws them all as atlas sprites
(:mod:`.label_sprites`).
"""

from __future__ import annotations

import numpy as np
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText

from .label_layout import (
    SEARCH_LABELS,
    LabelLayout,
    Placed,
    full_size_subscripts,
    layout_of,
    paint_placed,
    text_box,
)
from .label_sprites import PASS_DEPTH, draw_sprites, queue_sprites
from .projection import project_points, view_mvp  # noqa: F401 - view_mvp: imported from here


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
                hits: list[tuple[QRectF, list[int]]] | None = None, layout: LabelLayout | None = None,
                theme: str | None = None) -> list[tuple[str, QRectF]]:
    """Draw the texts at pixel positions ``px`` (where ``front``) with ``painter``, placed by
    :func:`place_labels`; ``cache`` keeps their layouts. Returns the drawn texts with their
    plate rectangles."""
    painter.setFont(font)
    if layout is None:
        layout = LabelLayout(painter.device().width(), painter.device().height())
    placed = place_labels(texts, px, front, color, font, order, hits, layout, theme)
    paint_placed(painter, placed, cache)
    return [(p.text, p.rect) for p in placed]


def place_labels(texts: list[str], px: np.ndarray, front: np.ndarray, color: QColor, font: QFont,
                 order: list[int] | None, hits: list[tuple[QRectF, list[int]]] | None, layout: LabelLayout,
                 theme: str | None = None, keep: dict[int, tuple[float, float, bool]] | None = None) -> list[Placed]:
    """Place the texts at pixel positions ``px`` (where ``front``).

    ``order`` lists the labels to place, most important first (default: all, in index order).
    Each is placed by ``layout`` (shared with the view's other labels, see
    :mod:`.label_layout`): up and right of its point, or moved aside with a leader line, or
    left out when there is no room, so what is drawn never overlaps. Each goes on a plate of
    the ``theme`` (default: dark for a light ``color``) in a colour readable on it. ``hits``
    gets each placed rectangle with the indices of the labels it shows (for picking). ``keep``
    maps a label's index to its plate's offset from its point in the last frame (and whether it
    had a leader): a searching label takes that offset again while it is free, so it moves with
    its point instead of jumping between spots."""
    if theme is None:
        theme = "dark" if color.lightness() > 128 else "light"
    # frames that coincide on screen (a spherical wrist, a body on a fixed joint) share one label
    groups: dict[tuple[int, int], list] = {}
    ks = np.arange(len(texts)) if order is None else np.array([k for k in order if k < len(texts)], dtype=int)
    # (an order from before an edit may name removed bodies)
    at = px[ks].reshape(-1, 2)
    ok = front[ks] & np.all(np.isfinite(at), axis=1) & np.all(np.abs(at) < 1e6, axis=1)
    ks, at = ks[ok], at[ok]
    cells = np.round(at / 5).astype(np.int64)  # half to even, as Python's round
    for k, (x, y), (i, j) in zip(ks.tolist(), at.tolist(), cells.tolist()):
        group = groups.setdefault((i, j), [x, y, [], []])
        group[2].append(texts[k])
        group[3].append(k)
    metrics = QFontMetricsF(font)
    widths = _widths(font)
    full = full_size_subscripts(font)
    rgb = color.getRgbF()
    placed = []
    groups = list(groups.values())  # in priority order: the first label of a group set it
    searching = max(0, SEARCH_LABELS - layout.searched)
    for x, y, names, indices in groups[:searching]:  # one by one: each may search for a spot
        text = ", ".join(names)
        box = text_box(metrics, text, widths, full)
        last = keep.get(indices[0]) if keep else None
        p = layout.label(text, x, y, box, 4, -4 - box[1], rgb, theme, last)
        if p is not None:
            placed.append((p, indices))
    rest = groups[searching:]
    if rest:  # the others take their usual spot or none: all at once
        joined = [", ".join(names) for _, _, names, _ in rest]
        boxes = np.array([text_box(metrics, text, widths, full) for text in joined]).reshape(-1, 3)
        xy = np.array([(x, y) for x, y, _, _ in rest], dtype=float)
        x0, y0 = xy[:, 0] + 4, xy[:, 1] - 4 - boxes[:, 1]
        taken = layout.place_usual(np.c_[x0, y0, x0 + boxes[:, 0], y0 + boxes[:, 1]])
        text_color, plate = layout.colors(rgb, theme)
        for k in np.flatnonzero(taken).tolist():
            x, y, _, indices = rest[k]
            w, h, pad = boxes[k].tolist()
            p = Placed(joined[k], QRectF(float(x0[k]), float(y0[k]), w, h), QPointF(x, y), False, text_color, plate,
                       pad)
            layout.placed.append(p)
            placed.append((p, indices))
    if hits is not None:
        hits.extend((p.rect, indices) for p, indices in placed)
    return [p for p, _ in placed]


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

    screen_space = True  # laid out in the widget's pixels (offscreen images leave it out)

    def __init__(self, font: QFont | None = None) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.positions = np.zeros((0, 3))
        self.color = QColor(255, 255, 255)
        self.font = font or QFont("DejaVu Sans", 10)
        # owned by the item, so the Qt objects go away with the view, never after the application
        self.static_texts: dict[str, QStaticText] = {}
        self.order: list[int] | None = None
        #: while a frame drag moves some labels' points (a mask over the labels), the others keep
        #: the places they had when it began
        self.moving: np.ndarray | None = None
        self._still: tuple | None = None  # (key, placed, hits, rectangles, moving labels' order)
        self.drawn: list[tuple[str, QRectF]] = []  # what the last paint drew, and where
        self.drawn_bodies: list[tuple[QRectF, list[int]]] = []  # each drawn label's rectangle and indices
        #: set by the view while the robot moves (a slider drag): each label keeps its plate's
        #: offset from its point while that spot stays free (see place_labels' ``keep``)
        self.sticky = False
        self._offsets: dict[int, tuple[float, float, bool]] = {}  # label index → last frame's offset, leader

    def set_data(self, texts: list[str] | None = None, positions: np.ndarray | None = None,
                 color: QColor | None = None, order: list[int] | None | bool = False,
                 moving: np.ndarray | None | bool = False) -> None:
        if texts is not None:
            self.texts = list(texts)
        if positions is not None:
            self.positions = np.asarray(positions, dtype=float).reshape(-1, 3)
        if color is not None:
            self.color = color
        if order is not False:  # None is a value here: every label
            self.order = order
        if moving is not False:
            self.moving = moving
        if texts is not None or color is not None or order is not False:
            self._still = None
        self.update()

    def paint(self) -> None:
        if not self.texts or len(self.positions) != len(self.texts):
            return
        view = self.view()
        layout = layout_of(view)
        mvp = view_mvp(view)
        px, front = project_points(mvp, self.positions, view.width(), view.height())
        theme = getattr(view, "theme", None)
        moving = self.moving
        if moving is None or len(moving) != len(self.texts):
            self._still = None
            self.drawn_bodies = []
            placed = place_labels(self.texts, px, front, self.color, self.font, self.order, self.drawn_bodies,
                                  layout, theme, self._offsets if self.sticky else None)
            self._offsets = {hit[1][0]: (p.rect.left() - p.anchor.x(), p.rect.top() - p.anchor.y(), p.leader)
                             for p, hit in zip(placed, self.drawn_bodies)}
        else:
            placed = self._place_moving(layout, px, front, theme, moving,
                                        (mvp.tobytes(), view.width(), view.height(), theme, moving.tobytes()))
        # below the sprite pass: drawn by it, with the view's other labels, in one call
        (queue_sprites if self.depthValue() < PASS_DEPTH else draw_sprites)(view, placed, self.font)
        self.drawn = [(p.text, p.rect) for p in placed]

    def _place_moving(self, layout: LabelLayout, px: np.ndarray, front: np.ndarray, theme, moving: np.ndarray,
                      key: tuple) -> list[Placed]:
        """A frame of a drag: the labels that do not move keep the places the drag's first frame
        gave them (laid out as usual, all together); those that move are placed around them."""
        if self._still is None or self._still[0] != key:  # the drag's first frame (or the camera moved)
            hits: list[tuple[QRectF, list[int]]] = []
            placed = place_labels(self.texts, px, front, self.color, self.font, self.order, hits, layout, theme)
            keep = [(p, hit) for p, hit in zip(placed, hits) if not moving[hit[1]].any()]
            rects = np.array([(p.rect.left(), p.rect.top(), p.rect.right(), p.rect.bottom()) for p, _ in keep])
            order = [k for k in (range(len(self.texts)) if self.order is None else self.order)
                     if k < len(moving) and moving[k]]
            self._still = (key, [p for p, _ in keep], [hit for _, hit in keep], rects.reshape(-1, 4), order)
            self.drawn_bodies = hits
            return placed
        _, still, still_hits, rects, order = self._still
        layout.keep(still, rects)
        self.drawn_bodies = list(still_hits)
        return still + place_labels(self.texts, px, front, self.color, self.font, order, self.drawn_bodies, layout,
                                    theme)

    def label_anchors(self) -> np.ndarray:
        """The points whose labels may be drawn (the layout keeps other labels off them)."""
        if len(self.positions) != len(self.texts):
            return np.zeros((0, 3))
        if self.order is None:
            return self.positions
        return self.positions[[k for k in self.order if k < len(self.positions)]]
