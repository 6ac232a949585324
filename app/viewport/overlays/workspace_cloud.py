"""The workspace cloud (View ▸ Workspace): where a body's origin gets over random in-limit
configurations, one point each, coloured by manipulability, with a colormap legend painted in
the view's top-right corner.

A million points are splatted into an image with numpy (:class:`CloudImage`: a GL point costs
~0.7 µs under Mesa's software renderer, a million ~0.1 s this way) and painted behind the
robot; the legend is painted with one QPainter pass, as :mod:`.labels` paints the frame labels.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QLinearGradient, QPainter

from ...model.numbers import fixed_text, short_text
from ..labels import view_mvp

#: Points drawn while the camera moves (the whole cloud when still).
INTERACTIVE_POINTS = 100_000
#: Still for this long (ms): the whole cloud is drawn again.
IDLE_MS = 300
#: Images up to this many pixels are splatted with whole-image counts (larger: per hit pixel).
BINCOUNT_PIXELS = 4_000_000
#: Bar of the legend, pixels (times the export scale).
BAR_W, BAR_H = 180, 12
#: Opacity of one point in a pixel (n points: 1 - (1 - ALPHA)^n): dense regions look solid.
ALPHA = 0.35
#: 256 RGBA colours (float32) from low to high manipulability (viridis: readable in grey too).
LUT = np.full((256, 4), ALPHA, dtype=np.float32)
LUT[:, :3] = pg.colormap.get("viridis").getLookupTable(nPts=256, mode=pg.ColorMap.FLOAT)


def cloud_rows(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """(n,) uint8 :data:`LUT` rows of ``values``: ``lo`` → 0, ``hi`` → 255."""
    t = np.asarray(values, dtype=np.float64) - lo
    t *= 255.0 / (hi - lo) if hi > lo else 0.0
    np.clip(t, 0, 255, out=t)
    return np.rint(t).astype(np.uint8)


def range_texts(lo: float, hi: float) -> tuple[str, str]:
    """The legend's end values, with the decimals that give ``hi`` three significant digits
    (a minimum of 1e-8 next to 0.12 reads "0.000", not "1.01e-08")."""
    if not (np.isfinite(lo) and np.isfinite(hi)) or hi <= 0 or not 1e-4 <= hi < 1e5:
        return short_text(lo, 3), short_text(hi, 3)
    decimals = max(0, 2 - int(np.floor(np.log10(hi))))
    return fixed_text(lo, decimals), fixed_text(hi, decimals)


class CloudImage(GLGraphicsItem):
    """The points, splatted into an image on the CPU and painted behind the robot.

    Mesa's software renderer costs ~0.7 µs a GL point: a million were 0.6-1 s a frame. Projected
    with numpy and accumulated per pixel (each pixel: the mean colour index of its points, and
    ``1 - (1 - ALPHA)^count`` opaque), they are ~0.1 s, done again only when the camera or the
    view's size changes (moving the robot reuses the image). Painted first (depth value -1), so
    the robot and the grid are drawn over the cloud, never hidden by it.
    """

    def __init__(self) -> None:
        super().__init__()
        self.pos: np.ndarray | None = None  # (n, 3) float32
        self._index = np.zeros(0, np.uint8)  # each point's LUT row
        self.limit: int | None = None  # splat only the first ``limit`` points (None: all)
        self._key: tuple | None = None
        self._image: QImage | None = None
        self.renders = 0  # images made (tests and the benchmark count them)
        self.setDepthValue(-1)

    def set_data(self, pos: np.ndarray, rows: np.ndarray) -> None:
        """Points (n, 3) and their colours as :data:`LUT` rows (n,) uint8 (:func:`cloud_rows`)."""
        self.pos = np.ascontiguousarray(pos, dtype=np.float32).reshape(-1, 3)
        self._index = np.ascontiguousarray(rows, dtype=np.uint8).reshape(-1)
        self._key = None
        self.update()

    @property
    def color(self) -> np.ndarray:
        """(n, 4) RGBA of the points (float32)."""
        return LUT[self._index]

    def set_limit(self, limit: int | None) -> None:
        """Splat the first ``limit`` points only (the samples are independent: a uniform
        subset), e.g. while the camera moves; None: all."""
        if limit != self.limit:
            self.limit = limit
            self.update()

    def drawn_count(self) -> int:
        n = 0 if self.pos is None else len(self.pos)
        return n if self.limit is None else min(n, self.limit)

    def render(self, mvp: np.ndarray, width: int, height: int) -> QImage:
        """The cloud as seen through ``mvp`` in a ``width`` × ``height`` premultiplied image."""
        self.renders += 1
        k = self.drawn_count()
        W, H = int(width), int(height)
        rgba = np.zeros((H * W, 4), np.uint8)  # B, G, R, A (ARGB32 in memory, little-endian)
        if k and W > 0 and H > 0:
            M = np.asarray(mvp, dtype=np.float32)
            c = self.pos[:k] @ M[:, :3].T + M[:, 3]
            w = c[:, 3]
            front = w > 1e-6
            inv = 1.0 / np.where(front, w, 1.0)
            x = np.floor((c[:, 0] * inv + 1) * (W / 2))
            y = np.floor((1 - c[:, 1] * inv) * (H / 2))
            ok = front & (x >= 0) & (x < W) & (y >= 0) & (y < H)
            pix = y[ok].astype(np.int64) * W + x[ok].astype(np.int64)
            rows = self._index[:k][ok]
            if W * H <= BINCOUNT_PIXELS:  # per-pixel sums over the whole image: fastest
                count = np.bincount(pix, minlength=W * H)
                nz = np.flatnonzero(count)
                total, count = np.bincount(pix, weights=rows, minlength=W * H)[nz], count[nz]
            else:  # a large exported image: sums over the pixels hit only (memory ~ points)
                nz, where, count = np.unique(pix, return_inverse=True, return_counts=True)
                total = np.bincount(where, weights=rows, minlength=len(nz))
            alpha = 1.0 - (1.0 - ALPHA) ** count
            rgb = LUT[np.rint(total / count).astype(np.int64), :3] * alpha[:, None]  # premultiplied
            rgba[nz, 0], rgba[nz, 1], rgba[nz, 2] = (rgb[:, 2::-1] * 255 + 0.5).astype(np.uint8).T
            rgba[nz, 3] = (alpha * 255 + 0.5).astype(np.uint8)
        return QImage(rgba.data, W, H, 4 * W, QImage.Format.Format_ARGB32_Premultiplied).copy()

    def paint(self) -> None:
        view = self.view()
        if self.pos is None or not len(self.pos):
            return
        ratio = view.devicePixelRatioF()
        W, H = int(view.width() * ratio), int(view.height() * ratio)
        mvp = view_mvp(view)
        key = (mvp.tobytes(), W, H, self.drawn_count())
        if key != self._key:
            self._image, self._key = self.render(mvp, W, H), key
            self._image.setDevicePixelRatio(ratio)
        painter = QPainter(view.surface)
        painter.drawImage(QPointF(0, 0), self._image)
        painter.end()

    def paint_image(self, painter: QPainter, mvp: np.ndarray, width: int, height: int, scale: float = 1.0) -> None:
        """Into an exported image (painted over the scene there: the image has no depth)."""
        if self.pos is not None and len(self.pos):
            painter.drawImage(QPointF(0, 0), self.render(mvp, width, height))


class CloudLegend(GLGraphicsItem):
    """The colormap legend: a title, the gradient bar, and the values at its ends; or only a
    note (computing, cleared…) when there is no cloud."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.note = ""
        self.range: tuple[float, float] | None = None
        self.font = QFont("DejaVu Sans", 9)
        self.rect = QRectF()  # where the last paint put the box (widget pixels)

    def set_data(self, title: str = "", rng: tuple[float, float] | None = None, note: str = "") -> None:
        self.title, self.range, self.note = title, rng, note
        self.setVisible(bool(title or note))
        self.update()

    def paint(self) -> None:
        view = self.view()
        painter = QPainter(view.surface)
        self.paint_image(painter, None, view.width(), view.height(), 1.0)
        painter.end()

    def paint_image(self, painter: QPainter, _mvp, width: int, height: int, scale: float = 1.0) -> None:
        """Paint into ``painter`` (the widget, or an exported image ``scale`` times larger)."""
        view = self.view()
        dark = getattr(view, "theme", "dark") == "dark"
        font = QFont(self.font)
        text_scale = getattr(getattr(view, "labels", None), "font", None)
        base = text_scale.pointSizeF() / 10 if text_scale is not None else 1.0  # follows View ▸ text size
        font.setPointSizeF(self.font.pointSizeF() * base * scale)
        painter.setFont(font)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        m = QFontMetricsF(font)
        pad, bw, bh = 6 * scale, BAR_W * scale * base, BAR_H * scale * base
        lines = [t for t in (self.title, self.note) if t]
        w = max([m.horizontalAdvance(t) for t in lines] + [bw if self.range else 0]) + 2 * pad
        h = pad + m.height() * len(lines) + ((bh + m.height() + pad / 2) if self.range else 0) + pad / 2
        box = QRectF(width - w - 8 * scale, 8 * scale, w, h)
        self.rect = box
        painter.fillRect(box, QColor(20, 22, 28, 190) if dark else QColor(250, 250, 250, 215))
        painter.setPen(QColor(235, 235, 235) if dark else QColor(20, 20, 20))
        y = box.top() + pad
        for t in lines:
            painter.drawText(QPointF(box.left() + pad, y + m.ascent()), t)
            y += m.height()
        if self.range:
            bar = QRectF(box.left() + pad, y + pad / 2, bw, bh)
            grad = QLinearGradient(bar.topLeft(), bar.topRight())
            for k in (*range(0, 255, 15), 255):
                grad.setColorAt(k / 255, QColor.fromRgbF(*(float(c) for c in LUT[k, :3])))
            painter.fillRect(bar, grad)
            painter.setPen(QColor(120, 120, 120))
            painter.drawRect(bar)
            painter.setPen(QColor(235, 235, 235) if dark else QColor(20, 20, 20))
            lo, hi = range_texts(*self.range)
            ty = bar.bottom() + m.ascent() + 1
            painter.drawText(QPointF(bar.left(), ty), lo)
            painter.drawText(QPointF(bar.right() - m.horizontalAdvance(hi), ty), hi)


class WorkspaceCloud(QObject):
    """The cloud's scatter item and its legend, added to ``view``; read-only (the analysis
    module computes the cloud and hands it over).

    While the user moves the robot or the camera only :data:`INTERACTIVE_POINTS` of the cloud
    are drawn (a million points cost ~0.3-0.9 s a frame under Mesa's software renderer); all of
    them once still for :data:`IDLE_MS`."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self._idle = QTimer(self, singleShot=True, interval=IDLE_MS, timeout=lambda: self.points.set_limit(None))
        view.installEventFilter(self)  # the camera moving: see interacting()
        self.points = CloudImage()
        self.points.setVisible(False)
        self.legend = CloudLegend()
        self.legend.setDepthValue(102)  # over the labels (100) and the DH texts (101)
        self.legend.setVisible(False)
        self.count = 0
        view.addItem(self.points)
        view.addItem(self.legend)

    def set_cloud(self, points: np.ndarray, rows: np.ndarray, lo: float, hi: float, title: str) -> None:
        """Draw ``points`` (n, 3) in colours ``rows`` (:func:`cloud_rows` of the values); the
        legend spans ``lo``…``hi``."""
        self.count = len(points)
        self._idle.stop()
        self.points.set_limit(None)
        self.points.set_data(points, rows)
        self.points.setVisible(self.count > 0)
        self.legend.set_data(title, (lo, hi), "manipulability √det(J Jᵀ), low → high")

    def set_note(self, note: str) -> None:
        """Keep the cloud, change the legend's note (e.g. "recomputing…")."""
        self.legend.set_data(self.legend.title, self.legend.range, note)

    def clear(self, note: str = "") -> None:
        """No cloud (GPU memory freed); ``note`` says why in the legend's place, if given."""
        self.count = 0
        self.points.setVisible(False)
        self.points.set_data(np.zeros((0, 3), np.float32), np.zeros(0, np.uint8))
        self.legend.set_data("", None, note)

    def interacting(self) -> None:
        """The scene is moving: draw a subset of a large cloud until still for IDLE_MS."""
        if self.count > INTERACTIVE_POINTS and self.points.visible():
            self.points.set_limit(INTERACTIVE_POINTS)
            self._idle.start()

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        t = ev.type()
        if t == QEvent.Type.Wheel or (t == QEvent.Type.MouseMove and ev.buttons()):
            self.interacting()
        return False

    def set_visible(self, on: bool) -> None:
        self.points.setVisible(bool(on) and self.count > 0)
        self.legend.setVisible(bool(on) and bool(self.legend.title or self.legend.note))

    @property
    def items(self) -> tuple:
        return self.points, self.legend
