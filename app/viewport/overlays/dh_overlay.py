"""The DH overlay: DH frames, the common normal, a/d as dimension lines and θ/α as arcs.

For link i it draws frames i−1 and i as DH frames (z and x axes) and the four elementary
motions of A_i (standard ``Rz(θ)·Tz(d)·Tx(a)·Rx(α)`` or Craig's ``Rx(α)·Tx(a)·Rz(θ)·Tz(d)``),
each in its parameter's colour (:mod:`kinetree.app.widgets.dh_colors`, as the DH table's headers).
The frames come from the DH table and the current configuration alone (numpy), not from the
tree's body poses: for a robot built from DH rows they coincide; for any other chain (a URDF)
the table is :func:`~kinetree.core.extract_dh`'s, whose frames differ from the file's, and a
legend says so. It also draws the Explain dock's ghost frame.
"""

from __future__ import annotations

import math

import numpy as np
from kinetree.core import KineTreeError
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QStaticText, QVector3D

from ...model.dh_chain import PARAM, SYMBOL, DHChain, cached_chain, chain_tip, elementary, sub, value_text
from ...widgets.dh_colors import rgba
from ...widgets.text_style import plate_rgba, readable
from ..gl_programs import ON_TOP as VIEW_ON_TOP  # the viewport's own "drawn over the meshes"
from ..label_layout import (
    LabelLayout,
    Placed,
    draw_label_text,
    full_size_subscripts,
    label_advance,
    layout_of,
    pad_of,
    paint_placed,
    text_box,
)
from ..label_sprites import PASS_DEPTH, queue_sprites
from ..labels import project_points, view_mvp
from ..lines import LineItem

#: elementary motions of A_i, in order, per convention
X_COLOR, Z_COLOR = (1.0, 0.15, 0.15, 1.0), (0.1, 0.45, 1.0, 1.0)
GHOST_TEXT = (1.0, 1.0, 1.0, 1.0)
GHOST_COLORS = ((1.0, 0.35, 0.35, 0.8), (0.3, 0.9, 0.3, 0.8), (0.35, 0.6, 1.0, 0.8))
NEUTRAL = (0.75, 0.75, 0.78, 0.9)
NEUTRAL_ON_LIGHT = (0.25, 0.25, 0.3, 0.9)  # witness lines and the legend on the light background
LAYER_WIDTHS = {"frames": 4.5, "params": 2.5, "thin": 1.2}  # pixels at normal text size
URDF_LEGEND = ("DH frames computed by extract_dh: they differ from the file's own frames "
               "(the triads); only the tip pose is the same")


_X, _Y = np.array([1.0, 0, 0]), np.array([0, 1.0, 0])


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.cross for two 3-vectors, without its generality (ten times slower at this size)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


# --- geometry: line segments and texts ---------------------------------------------------------

class Sketch:
    """Segments in three layers (``frames``: the DH axes, widest; ``params``: dimension lines
    and arcs, drawn over the axes; ``thin``: witness and reference lines), with per-vertex
    colours, and texts at 3D points."""

    def __init__(self) -> None:
        self.layers: dict[str, list[tuple[np.ndarray, tuple]]] = {"frames": [], "params": [], "thin": []}
        self.texts: list[tuple[np.ndarray, str, tuple]] = []
        self.dimensions: dict[tuple[int, str], tuple[np.ndarray, np.ndarray]] = {}  # (link, param) → ends

    def line(self, p0, p1, color, layer: str = "params") -> None:
        self.layers[layer].append((np.array([p0, p1], dtype=float), color))

    def arrow_head(self, tip, u, size, color, layer: str = "params") -> None:
        """Two fins in each of two perpendicular planes: reads as an arrow from any view."""
        u = u / max(math.sqrt(u @ u), 1e-300)
        v = _cross(u, _X if abs(u[0]) < 0.9 else _Y)
        v /= math.sqrt(v @ v)
        w = _cross(u, v)
        back = tip - size * u
        fins = np.empty((8, 3))
        fins[0::2] = tip
        fins[1::2] = back + 0.45 * size * np.array([v, -v, w, -w])
        self.layers[layer].append((fins, color))

    def axis(self, origin, u, length, color, text, head) -> None:
        tip = origin + length * u
        self.line(origin, tip, color, "frames")
        self.arrow_head(tip, u, head, color, "frames")
        self.texts.append((tip + 0.12 * length * u, text, color))

    def arc(self, center, normal, start, angle, radius, color, text, head) -> None:
        """An arc about ``normal`` from the unit ``start`` through ``angle``, with an arrow."""
        m = max(4, int(abs(angle) / 0.08))
        t = np.linspace(0.0, angle, m + 1)
        side = _cross(normal, start)
        pts = center + radius * (np.cos(t)[:, None] * start + np.sin(t)[:, None] * side)
        self.layers["params"].append((np.repeat(pts, 2, axis=0)[1:-1], color))
        tangent = math.copysign(1.0, angle) * (-math.sin(angle) * start + math.cos(angle) * side)
        self.arrow_head(pts[-1], tangent, min(head, 0.5 * abs(angle) * radius), color)
        mid = 0.5 * angle
        self.texts.append((center + 1.25 * radius * (math.cos(mid) * start + math.sin(mid) * side), text, color))

    def dimension(self, p0, p1, offset, color, text, head, key, label_offset=None) -> None:
        """A dimension line from ``p0`` to ``p1``, moved by ``offset``, with witness lines; its
        text beside the middle (by ``label_offset``, default 0.8 × ``offset``)."""
        a, b = p0 + offset, p1 + offset
        if np.linalg.norm(offset) > 0:
            self.line(p0, p0 + 1.25 * offset, NEUTRAL, "thin")
            self.line(p1, p1 + 1.25 * offset, NEUTRAL, "thin")
        self.line(a, b, color)
        u = b - a
        size = min(head, 0.4 * np.linalg.norm(u))
        self.arrow_head(b, u, size, color)
        self.arrow_head(a, -u, size, color)
        self.dimensions[key] = (a, b)
        self.texts.append(((a + b) / 2 + (0.8 * offset if label_offset is None else label_offset), text, color))

    def arrays(self, layer: str) -> tuple[np.ndarray, np.ndarray]:
        segs = self.layers[layer]
        if not segs:
            return np.zeros((0, 3)), np.zeros((0, 4))
        pos = np.concatenate([p for p, _ in segs])
        col = np.repeat(np.array([c for _, c in segs], dtype=float), [len(p) for p, _ in segs], axis=0)
        return pos, col


def sketch_link(sk: Sketch, chain: DHChain, i: int, F_prev: np.ndarray, qi: float, scale: float) -> None:
    """Link ``i``'s four elementary motions from DH frame ``i − 1`` (``F_prev``)."""
    G = F_prev
    head = 0.25 * scale
    for kind, value in chain.steps(i, qi):
        param = PARAM[kind]
        color = rgba(param)
        name = f"{SYMBOL[param]}{sub(chain.index(i, param))}"
        H = G @ elementary(kind, value)
        o, x, z = G[:3, 3], G[:3, 0], G[:3, 2]
        if kind in ("Tx", "Tz") and abs(value) > 1e-9:
            text = f"{name} = {value_text(param, value)}"
            if kind == "Tx":  # on the common normal itself
                sk.line(o - 0.3 * scale * np.sign(value) * x, H[:3, 3] + 0.3 * scale * np.sign(value) * x,
                        NEUTRAL, "thin")
                sk.dimension(o, H[:3, 3], np.zeros(3), color, text, head, (i, param), 0.35 * scale * z)
            else:  # beside the z axis it runs along, on the side away from x
                sk.dimension(o, H[:3, 3], -0.45 * scale * H[:3, 0], color, text, head, (i, param))
        elif kind in ("Rz", "Rx") and abs(value) > 1e-9:
            text = f"{name} = {value_text(param, value)}"
            axis, start = (z, x) if kind == "Rz" else (x, z)
            end = H[:3, 0] if kind == "Rz" else H[:3, 2]
            radius = (1.3 if kind == "Rz" else 1.0) * scale
            sk.line(o, o + 1.2 * radius * start, NEUTRAL, "thin")  # where the angle starts
            sk.line(o, o + 1.2 * radius * end, NEUTRAL, "thin")
            sk.arc(o, axis, start, value, radius, color, text, head)
        G = H


def sketch(chain: DHChain, frames: np.ndarray, qs: np.ndarray, links: list[int], scale: float,
           values: bool = True) -> Sketch:
    """Frames i − 1 and i and the motions of every link in ``links`` (only the frames when not
    ``values``: a figure that must not give the parameters away)."""
    sk = Sketch()
    for i in links if values else ():  # first: where texts overlap, the values win over the axis names
        sketch_link(sk, chain, i, frames[i - 1], qs[i - 1], scale)
    length = 1.8 * scale
    # axes that coincide (a spherical wrist's frames share an origin, and at zero some share an
    # axis) are drawn once with one label naming them all, "x₃,x₄": not a starburst of labels
    axes: dict[tuple, list] = {}
    for k in sorted({k for i in links for k in (i - 1, i)}):
        F = frames[k]
        for u, color, letter in ((F[:3, 2], Z_COLOR, "z"), (F[:3, 0], X_COLOR, "x")):
            key = tuple(np.round(np.r_[F[:3, 3], u] / max(1e-6 * scale, 1e-12)).astype(np.int64).tolist())
            axes.setdefault(key, [F[:3, 3], u, color, []])[3].append(letter + sub(chain.number(k)))
    for origin, u, color, names in axes.values():
        sk.axis(origin, u, length, color, ",".join(names), 0.3 * scale)
    return sk


# --- the scene items ---------------------------------------------------------------------------

def place_texts(texts: list[tuple[np.ndarray, str, tuple]], px: np.ndarray, front: np.ndarray,
                legend: list[list[tuple[str, tuple]]], font: QFont, dark: bool,
                layout: LabelLayout) -> tuple[QRectF | None, list[Placed], list[Placed], list[tuple[str, QRectF]]]:
    """Place the legend lines (coloured runs, on one plate) in the top-left corner, below anything
    over the view there, then the values and names at their pixels, placed by ``layout``
    (shared with the view's other labels: moved aside with a leader line where crowded, left out
    where there is no room). Returns the legend's plate (None: no legend), its runs, the labels
    placed, and what is drawn with its rectangles."""
    theme = "dark" if dark else "light"
    metrics = QFontMetricsF(font)
    full = full_size_subscripts(font)
    kept: list[tuple[str, QRectF]] = []
    box, runs = None, []
    if legend:
        pad = pad_of(metrics.height())
        width = max(sum(label_advance(metrics, t, full) for t, _ in line) for line in legend) + 2 * pad
        box = layout.free_below(QRectF(4, 4, width, len(legend) * metrics.height() + 2 * pad))
        layout.reserve(box)
        y = box.top() + pad
        for line in legend:
            x = box.left() + pad
            for text, color in line:
                rgb = readable(tuple(color[:3]), theme)
                run = QRectF(x, y, label_advance(metrics, text, full), metrics.height())
                runs.append(Placed(text, run, run.center(), False, (*rgb, 1.0), plate_rgba(theme), 0.0))
                x += run.width()
            kept.append(("".join(t for t, _ in line), QRectF(box.left() + pad, y, x - box.left() - pad,
                                                               metrics.height())))
            y += metrics.height()
        layout.placed.extend(runs)
    placed = []
    for (_, text, color), (x, yy), ok in zip(texts, px, front):
        if not (ok and np.isfinite(x) and np.isfinite(yy) and abs(x) < 1e6 and abs(yy) < 1e6):
            continue
        box_size = text_box(metrics, text, full=full)
        p = layout.label(text, x, yy, box_size, -box_size[0] / 2, -box_size[1] / 2, color, theme)
        if p is not None:
            placed.append(p)
            kept.append((text, p.rect))
    return box, runs, placed, kept


def paint_legend(painter: QPainter, box: QRectF | None, runs: list[Placed], font: QFont,
                 cache: dict[str, QStaticText]) -> None:
    """The legend's plate and its coloured runs (see :func:`place_texts`)."""
    if box is None:
        return
    painter.setFont(font)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    painter.setPen(QColor(0, 0, 0, 0))
    painter.setBrush(QColor.fromRgbF(*runs[0].plate if runs else plate_rgba("dark")))
    painter.drawRoundedRect(box, 4, 4)
    for run in runs:
        painter.setPen(QColor.fromRgbF(*run.color))
        draw_label_text(painter, run.rect.topLeft(), run.text, cache)


def draw_texts(painter: QPainter, texts: list[tuple[np.ndarray, str, tuple]], px: np.ndarray, front: np.ndarray,
               legend: list[list[tuple[str, tuple]]], font: QFont, dark: bool,
               cache: dict[str, QStaticText] | None = None,
               layout: LabelLayout | None = None) -> list[tuple[str, QRectF]]:
    """Place (:func:`place_texts`) and paint the legend and the labels with ``painter`` (an
    exported image). Returns what was drawn, with rectangles."""
    painter.setFont(font)
    if layout is None:
        layout = LabelLayout(painter.device().width(), painter.device().height())
    cache = {} if cache is None else cache
    if len(cache) > 2048:  # θ's text changes with every slider tick: keep the cache bounded
        cache.clear()
    box, runs, placed, kept = place_texts(texts, px, front, legend, font, dark, layout)
    paint_legend(painter, box, runs, font, cache)
    paint_placed(painter, placed, cache)
    return kept


def style_of(view) -> tuple:
    return getattr(view, "theme", "dark"), view.labels.font.pointSizeF()


class DHTextItem(GLGraphicsItem):
    """The overlay's texts, painted with one QPainter pass (see labels.LabelsItem)."""

    uses_layout = True  # paint_image places its texts with the exported image's label layout

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[tuple[np.ndarray, str, tuple]] = []
        self.legend: list[list[tuple[str, tuple]]] = []
        self.font = QFont("DejaVu Sans", 11)
        self.dark = True
        self.drawn: list[tuple[str, QRectF]] = []
        self.style = None  # (theme, label size) the overlay was built for
        self.static_texts: dict[str, QStaticText] = {}
        self.restyle = None  # called (once painting is done) when the view's theme or text size changed
        self.legend_box: QRectF | None = None  # the legend as the last frame placed it, painted by DHLegendItem
        self.legend_runs: list[Placed] = []

    def paint(self) -> None:
        """Place the texts; the labels join the view's sprite pass (drawn with its other labels:
        every leader line under every plate) and the legend is painted after it
        (:class:`DHLegendItem`), so that no leader line crosses the legend's plate."""
        view = self.view()
        # View ▸ Light background and the text size have no signal: noticed here
        if self.restyle is not None and style_of(view) != self.style:
            QTimer.singleShot(0, view, self.restyle)  # not after the view is gone
        self.dark = getattr(view, "theme", "dark") == "dark"
        pts = np.array([p for p, _, _ in self.texts]).reshape(-1, 3)
        px, front = project_points(view_mvp(view), pts, view.width(), view.height())
        self.legend_box, self.legend_runs, placed, self.drawn = place_texts(
            self.texts, px, front, self.legend, self.font, self.dark, layout_of(view))
        queue_sprites(view, placed, self.font)

    def label_anchors(self) -> np.ndarray:
        """The points the texts belong to (the layout keeps other labels off them)."""
        return np.array([p for p, _, _ in self.texts]).reshape(-1, 3)

    def paint_image(self, painter: QPainter, mvp: np.ndarray, width: int, height: int, scale: float = 1.0,
                    end: bool = False, layout: LabelLayout | None = None) -> None:
        """Paint into ``painter`` (the widget, or an exported image ``scale`` times larger),
        placing the texts with ``layout`` (the view's, shared with its other labels)."""
        pts = np.array([p for p, _, _ in self.texts]).reshape(-1, 3)
        px, front = project_points(mvp, pts, width, height)
        font = QFont(self.font)
        font.setPointSizeF(font.pointSizeF() * scale)
        # the widget's own cache; an exported image (another font size) lays its texts out anew
        self.drawn = draw_texts(painter, self.texts, px, front, self.legend, font, self.dark,
                                self.static_texts if scale == 1.0 else None, layout)
        if end:
            painter.end()


class DHLegendItem(GLGraphicsItem):
    """The overlay's legend, painted after the labels' sprite pass (their leader lines under its
    plate), where :class:`DHTextItem` placed it in this frame."""

    screen_space = True  # an exported image has DHTextItem.paint_image paint the legend

    def __init__(self, text: DHTextItem) -> None:
        super().__init__()
        self.text = text
        self.setDepthValue(PASS_DEPTH + 0.1)

    def paint(self) -> None:
        if self.text.visible() and self.text.legend_box is not None:
            painter = QPainter(self.view().surface)
            paint_legend(painter, self.text.legend_box, self.text.legend_runs, self.text.font, self.text.static_texts)
            painter.end()


class DHOverlay:
    """Draws the DH overlay in ``view`` for ``doc``: every link of the chain when
    ``state.show_all`` (View ▸ DH parameters), the selected link when ``state.show_selected``
    (the Explain dock), nothing otherwise; and ``state.ghost`` (a 4×4 or None). Read-only: it
    listens to the document and the teach state and never edits either."""

    def __init__(self, view, doc, state) -> None:
        self.view, self.doc, self.state = view, doc, state
        self.lines = {layer: LineItem(mode="lines", width=width, antialias=True)
                      for layer, width in LAYER_WIDTHS.items()}
        self.ghost = LineItem(mode="lines", width=8, antialias=True)
        self.text = DHTextItem()  # placed before the frame names (depth 98): the values matter more
        self.text.restyle = self._update

        self.legend = DHLegendItem(self.text)
        for depth, item in ((20, self.lines["thin"]), (21, self.lines["frames"]), (22, self.lines["params"]),
                            (23, self.ghost), (98, self.text), (PASS_DEPTH + 0.1, self.legend)):
            if item not in (self.text, self.legend):
                item.setGLOptions(VIEW_ON_TOP)
            item.setDepthValue(depth)
            item.setVisible(False)
            view.addItem(item)
        self.chain: DHChain | None = None
        self.problem = ""
        self._key: tuple | None = None
        self._tree = None  # the tree _key belongs to
        self.sketch = Sketch()
        self.frames = np.zeros((0, 4, 4))
        self.link: int | None = None  # the selected link
        doc.treeChanged.connect(self._update)
        doc.configurationChanged.connect(self._update)
        doc.selectionChanged.connect(self._update)
        state.changed.connect(self._update)
        self._update()

    @property
    def items(self) -> tuple:
        return (*self.lines.values(), self.ghost, self.text, self.legend)

    def _chain(self) -> None:
        """The chain to draw, recomputed only when the tree, the selection or the convention
        changed, and only when something will be drawn: the selected link, or every link."""
        tree, selected = self.doc.tree, self.doc.selection
        key = (tree.revision, selected, self.state.convention, self.state.show_all, self.state.show_selected)
        if key == self._key and tree is self._tree:  # the tree itself: an id may be reused
            return
        self._key, self._tree = key, tree
        self.chain, self.problem = None, ""
        if not self.state.show_all and (not self.state.show_selected or selected is None
                                        or selected == tree.base_name):
            return  # View ▸ DH parameters off and no link explained: nothing drawn, nothing computed
        tip = chain_tip(tree, selected)
        if tip is None:
            self.problem = "the robot has no bodies"
            return
        try:
            self.chain = cached_chain(tree, tip, self.state.convention)
        except KineTreeError as exc:
            self.problem = str(exc)

    def _update(self, *_args) -> None:
        view, tree = self.view, self.doc.tree
        self._chain()
        chain = self.chain
        scale = getattr(view, "_scale", 0.1)
        k = view.labels.font.pointSizeF() / 10  # presentation mode: larger text, thicker lines
        self.link = chain.link_of(tree, self.doc.selection) if chain else None
        want = self.state.show_all or (self.state.show_selected and self.link is not None)
        links: list[int] = []
        legend: list[list[tuple[str, tuple]]] = []
        q = self.doc.configuration
        if chain is not None and want:
            self.frames = chain.frames(tree, q)
            qs = chain.variables(tree, q)
            links = list(range(1, chain.count + 1)) if self.state.show_all else [self.link]
            values = not self.state.frames_only
            self.sketch = sketch(chain, self.frames, qs, links, scale, values)
            legend = self._legend(chain, qs) if values else []
        else:
            self.sketch = Sketch()
            if want or (self.state.show_all and self.problem):
                legend = [[(f"No DH overlay: {self.problem}", NEUTRAL)]]
        for layer, item in self.lines.items():
            pos, col = self.sketch.arrays(layer)
            width = LAYER_WIDTHS[layer]
            if getattr(view, "theme", "dark") != "dark" and len(col):
                col[np.all(col == NEUTRAL, axis=1)] = NEUTRAL_ON_LIGHT
            item.setData(pos=pos, color=col, width=width * k)
            item.setVisible(len(pos) > 0)
        self._update_ghost(scale, k)
        self.text.texts = self.sketch.texts
        if self.state.ghost is not None:
            G = self.state.ghost  # first: the ghost's texts win over the others
            tips = [(G[:3, 3] + 2.5 * scale * G[:3, k], name, GHOST_COLORS[k]) for k, name in enumerate("xyz")]
            label = [(G[:3, 3] - 0.6 * scale * G[:3, 2], self.state.ghost_label, GHOST_TEXT)] \
                if self.state.ghost_label else []
            self.text.texts = [*label, *tips, *self.text.texts]
        self.text.legend = legend
        if self.text.font.pointSizeF() != 11 * k:
            self.text.static_texts.clear()  # laid out for the old size
        self.text.font = QFont(view.labels.font.family(), 1)
        self.text.font.setPointSizeF(11 * k)
        self.text.dark = getattr(view, "theme", "dark") == "dark"
        self.text.style = style_of(view)
        self.text.setVisible(bool(self.text.texts or legend))
        self.legend.setVisible(bool(legend))
        self.text.update()

    def _legend(self, chain: DHChain, qs: np.ndarray) -> list[list[tuple[str, tuple]]]:
        kind = "standard DH" if chain.convention == "dh" else "modified DH (Craig)"
        lines = []
        if self.link is not None:
            i = self.link
            v = chain.values(i, qs[i - 1])
            lines.append([(f"Link {chain.number(i)} ({chain.bodies[i - 1]}), {kind}:", NEUTRAL)])
            lines.append([])  # the values on a line of their own: the legend fits a narrow view at large text
            for p in ("a", "alpha", "d", "theta"):
                lines[-1].append((f"{SYMBOL[p]}{sub(chain.index(i, p))} = {value_text(p, v[p])}   ", rgba(p)))
        else:
            lines.append([(f"DH parameters, {kind}", NEUTRAL)])
        if chain.extracted and self.doc.from_file and not self._frames_are_body_frames(chain):
            # a robot built in the app has no file whose frames these could differ from
            lines.append([(URDF_LEGEND, NEUTRAL)])
        return lines

    def _frames_are_body_frames(self, chain: DHChain) -> bool:
        """True when the DH frames (at the current configuration) are the chain bodies' own
        (modified DH of a chain whose joints are on the bodies' z axes)."""
        tree = self.doc.tree
        P = self.doc.poses()
        idx = [tree.index_of(b) for b in chain.bodies]
        return len(self.frames) == len(idx) + 1 and bool(np.abs(self.frames[1:] - P[idx]).max() <= 1e-9)

    def _update_ghost(self, scale: float, k: float) -> None:
        T = self.state.ghost
        if T is None:
            self.ghost.setVisible(False)
            return
        s = 2.2 * scale
        o = T[:3, 3]
        pos = np.array([o, o + s * T[:3, 0], o, o + s * T[:3, 1], o, o + s * T[:3, 2]])
        self.ghost.setData(pos=pos, color=np.repeat(np.array(GHOST_COLORS), 2, axis=0), width=8 * k)
        self.ghost.setVisible(True)

    def focus(self) -> None:
        """Centre the camera on what the overlay draws, close enough to read it (screenshots)."""
        pts = [p for layer in self.sketch.layers.values() for p, _ in layer]
        if not pts:
            return
        pts = np.vstack(pts)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        radius = max(float(np.linalg.norm(hi - lo)) / 2, 3 * getattr(self.view, "_scale", 0.1))
        distance = min(self.view.opts["distance"], 3.2 * radius)
        self.view.setCameraPosition(pos=QVector3D(*((lo + hi) / 2).astype(float)), distance=distance)
