"""The workspace cloud (View ▸ Workspace): where a body's origin gets over random in-limit
configurations, one point each, coloured by manipulability, with a colormap legend painted in
the view's top-right corner.

A million points are one :class:`GLScatterPlotItem` (pixel-sized points, float32 positions and
colours uploaded to the GPU once per cloud); the legend is painted with one QPainter pass, as
:mod:`.labels` paints the frame labels.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pyqtgraph.opengl as gl
from OpenGL import GL
from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QLinearGradient, QPainter

#: Point size in pixels: a million of them stay a cloud, not a blob.
POINT_PX = 2.0
#: Points drawn while the robot or the camera moves (the whole cloud when still).
INTERACTIVE_POINTS = 50_000
#: Still for this long (ms): the whole cloud is drawn again.
IDLE_MS = 300
#: Bar of the legend, pixels (times the export scale).
BAR_W, BAR_H = 180, 12
#: Opacity of a point: the robot shows through the cloud, dense regions look solid.
ALPHA = 0.35
#: 256 RGBA colours (float32) from low to high manipulability (viridis: readable in grey too).
LUT = np.full((256, 4), ALPHA, dtype=np.float32)
LUT[:, :3] = pg.colormap.get("viridis").getLookupTable(nPts=256, mode=pg.ColorMap.FLOAT)


CLOUD_GL = {GL.GL_DEPTH_TEST: True, GL.GL_BLEND: True, GL.GL_CULL_FACE: False,
            "glBlendFunc": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA), "glDepthMask": (GL.GL_FALSE,)}


def cloud_colors(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """(n, 4) float32 colours of ``values`` on :data:`LUT`, ``lo`` → first, ``hi`` → last."""
    t = np.asarray(values, dtype=np.float64) - lo
    t *= 255.0 / (hi - lo) if hi > lo else 0.0
    np.clip(t, 0, 255, out=t)
    return LUT[t.astype(np.uint8)]


def range_texts(lo: float, hi: float) -> tuple[str, str]:
    """The legend's end values, with the decimals that give ``hi`` three significant digits
    (a minimum of 1e-8 next to 0.12 reads "0.000", not "1.01e-08")."""
    if not (np.isfinite(lo) and np.isfinite(hi)) or hi <= 0 or not 1e-4 <= hi < 1e5:
        return f"{lo:.3g}", f"{hi:.3g}"
    decimals = max(0, 2 - int(np.floor(np.log10(hi))))
    return f"{lo:.{decimals}f}", f"{hi:.{decimals}f}"


class CloudPoints(gl.GLScatterPlotItem):
    """pyqtgraph's scatter item with a plain point shader: square pixel-sized points, no round
    sprite (its per-fragment ``discard`` made a million points cost ~4x more under Mesa's
    software renderer). Positions and colours are uploaded once per :meth:`setData`."""

    _program = None

    def __init__(self, **kwds) -> None:
        super().__init__(**kwds)
        self.limit: int | None = None  # draw only the first ``limit`` points (None: all)

    def set_limit(self, limit: int | None) -> None:
        """Draw the first ``limit`` points only (the samples are independent: a uniform subset),
        from the buffers already uploaded; None draws them all."""
        if limit != self.limit:
            self.limit = limit
            self.update()

    def drawn_count(self) -> int:
        n = 0 if self.pos is None else len(self.pos)
        return n if self.limit is None else min(n, self.limit)

    def paint(self) -> None:
        full = self.pos
        if full is None or self.limit is None or self.limit >= len(full) or self.dirty_bits:
            super().paint()  # (a new cloud is uploaded whole, then drawn)
            return
        self.pos = full[: self.limit]  # the draw call counts len(self.pos); the buffer is the whole cloud
        try:
            super().paint()
        finally:
            self.pos = full

    @staticmethod
    def getShaderProgram():  # noqa: N802 - pyqtgraph's name
        if CloudPoints._program is None:
            from OpenGL.GL import shaders
            from PySide6.QtGui import QOpenGLContext

            fmt = QOpenGLContext.currentContext().format()
            core = QOpenGLContext.currentContext().isOpenGLES() or fmt.version() >= (3, 1)
            head = ("#version 300 es\nprecision mediump float;\n" if QOpenGLContext.currentContext().isOpenGLES()
                    else "#version 140\n") if core else "#version 120\n"
            vin, vout, fin = ("in", "out", "in") if core else ("attribute", "varying", "varying")
            vert = (f"{head}uniform mat4 u_mvp; uniform mat4 u_modelview; uniform float u_scale;\n"
                    f"{vin} vec4 a_position; {vin} vec4 a_color; {vin} float a_size; {vout} vec4 v_color;\n"
                    "void main() { gl_Position = u_mvp * a_position; v_color = a_color; gl_PointSize = a_size; }\n")
            frag = (f"{head}{fin} vec4 v_color;\n"
                    + ("out vec4 fragColor; void main() { fragColor = v_color; }\n" if core
                       else "void main() { gl_FragColor = v_color; }\n"))
            program = shaders.compileProgram(shaders.compileShader(vert, GL.GL_VERTEX_SHADER),
                                             shaders.compileShader(frag, GL.GL_FRAGMENT_SHADER))
            for loc, name in enumerate(("a_position", "a_color", "a_size")):
                GL.glBindAttribLocation(program, loc, name)
            GL.glLinkProgram(program)
            CloudPoints._program = program
        return CloudPoints._program


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
        painter = QPainter(view)
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
        # hidden behind the robot (depth test) but never hiding it: blended, no depth written, and
        # drawn after the opaque meshes (0), before the translucent ones (5)
        self.points = CloudPoints(size=POINT_PX, pxMode=True, glOptions=CLOUD_GL)
        self.points.setDepthValue(4)
        self.points.setVisible(False)
        self.legend = CloudLegend()
        self.legend.setDepthValue(102)  # over the labels (100) and the DH texts (101)
        self.legend.setVisible(False)
        self.count = 0
        view.addItem(self.points)
        view.addItem(self.legend)

    def set_cloud(self, points: np.ndarray, colors: np.ndarray, lo: float, hi: float, title: str) -> None:
        """Draw ``points`` (n, 3) in ``colors`` (n, 4, float32); the legend spans ``lo``…``hi``."""
        self.count = len(points)
        self._idle.stop()
        self.points.set_limit(None)
        self.points.setData(pos=points, color=colors)
        self.points.setVisible(self.count > 0)
        self.legend.set_data(title, (lo, hi), "manipulability √det(J Jᵀ), low → high")

    def set_note(self, note: str) -> None:
        """Keep the cloud, change the legend's note (e.g. "recomputing…")."""
        self.legend.set_data(self.legend.title, self.legend.range, note)

    def clear(self, note: str = "") -> None:
        """No cloud (GPU memory freed); ``note`` says why in the legend's place, if given."""
        self.count = 0
        self.points.setVisible(False)
        self.points.setData(pos=np.zeros((0, 3), np.float32), color=np.zeros((0, 4), np.float32))
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
