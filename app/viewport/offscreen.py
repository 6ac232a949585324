"""The scene rendered offscreen at any size (export, screenshots), its painted items and
labels drawn into the image as the widget draws them.

One :class:`OffscreenTarget` per process owns the GL context every offscreen render uses (on
a ``QOffscreenSurface``, in the viewports' share group) and the framebuffer it draws into: both
made once and reused, whatever windows open and close between renders, and released before
the application object. A render never draws with whatever context happens to be current: a
viewport whose window has not shown yet has no context of its own, and pyqtgraph's
``renderToArray`` then drew with the last one made current — a closed window's, which crashed
the process under load.
"""

from __future__ import annotations

import atexit

import numpy as np
from OpenGL import GL
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QFont, QImage, QOffscreenSurface, QOpenGLContext, QPainter
from PySide6.QtOpenGL import QOpenGLFramebufferObject

from .label_layout import LabelLayout, begin_frame
from .labels import draw_labels, project_points, view_mvp
from .surface import surface_format

#: The largest framebuffer side used (bigger images are drawn in tiles).
MAX_TILE = 4096
#: Drawn beyond each edge of a tile, so that wide lines and points cut by it still reach it.
PADDING = 256


class OffscreenTarget:
    """The process's offscreen GL context and framebuffer (see :func:`target`)."""

    def __init__(self) -> None:
        self.surface = QOffscreenSurface()
        self.surface.setFormat(surface_format())
        self.surface.create()
        self.context = QOpenGLContext()
        self.context.setFormat(surface_format())
        # the viewports' share group: their buffers, textures and programs are drawn from here
        self.context.setShareContext(QOpenGLContext.globalShareContext())
        if not self.context.create():
            raise RuntimeError("no OpenGL context could be made for offscreen rendering")
        self.fbo: QOpenGLFramebufferObject | None = None
        self.max_side = 0

    def render(self, view, width: int, height: int) -> np.ndarray:
        """``view``'s GL scene at ``width`` × ``height``: (h, w, 4) BGRA, top row first."""
        previous = QOpenGLContext.currentContext()
        previous_surface = previous.surface() if previous is not None else None
        if not self.context.makeCurrent(self.surface):
            raise RuntimeError("the offscreen OpenGL context could not be made current")
        try:
            return self._render_current(view, width, height)
        finally:
            self.context.doneCurrent()
            if previous is not None and previous_surface is not None:
                previous.makeCurrent(previous_surface)

    def _render_current(self, view, width: int, height: int) -> np.ndarray:
        if not self.max_side:
            self.max_side = min(MAX_TILE, int(GL.glGetIntegerv(GL.GL_MAX_RENDERBUFFER_SIZE)),
                                int(GL.glGetIntegerv(GL.GL_MAX_TEXTURE_SIZE)))
        for item in view.items:  # a view never shown has not set its items up in any context
            if not item.isInitialized():
                item.initialize()
        tiled = width > self.max_side or height > self.max_side
        pad = PADDING if tiled else 0
        side_w = self.max_side if tiled else width
        side_h = self.max_side if tiled else height
        fbo = self._framebuffer(side_w, side_h)
        out = np.empty((height, width, 4), dtype=np.ubyte)
        data = np.empty((side_h, side_w, 4), dtype=np.ubyte)
        step_w, step_h = side_w - 2 * pad, side_h - 2 * pad
        for x in range(-pad, width - pad, step_w):
            for y in range(-pad, height - pad, step_h):
                x2, y2 = min(x + side_w, width + pad), min(y + side_h, height + pad)
                w2, h2 = x2 - x, y2 - y
                fbo.bind()
                GL.glViewport(0, 0, w2, h2)
                view.paint(region=(x, height - y - h2, w2, h2), viewport=(0, 0, width, height))
                GL.glFinish()
                GL.glReadPixels(0, 0, side_w, side_h, GL.GL_BGRA, GL.GL_UNSIGNED_BYTE, data)
                rows = data[::-1]  # GL's first row is the bottom one
                out[y + pad:y2 - pad, x + pad:x2 - pad] = rows[side_h - h2 + pad:side_h - pad, pad:w2 - pad]
        fbo.release()
        return out

    def _framebuffer(self, width: int, height: int) -> QOpenGLFramebufferObject:
        """The framebuffer, made anew only when it is smaller than asked (or far larger)."""
        fbo = self.fbo
        small = fbo is None or fbo.width() < width or fbo.height() < height
        if small or fbo.width() * fbo.height() > 4 * width * height:
            self.fbo = None  # the old one is deleted with the context current
            fbo = self.fbo = QOpenGLFramebufferObject(width, height,
                                                      QOpenGLFramebufferObject.Attachment.CombinedDepthStencil)
            if not fbo.isValid():
                self.fbo = None
                raise RuntimeError(f"no {width}×{height} OpenGL framebuffer could be made for offscreen rendering")
        return fbo

    def release(self) -> None:
        """Delete the framebuffer (with the context current) and the context."""
        if self.fbo is not None and self.context.makeCurrent(self.surface):
            self.fbo = None
            self.context.doneCurrent()
        self.fbo = None
        self.surface.destroy()


_TARGET: OffscreenTarget | None = None


def target() -> OffscreenTarget:
    """The process's :class:`OffscreenTarget`, made at the first render."""
    global _TARGET
    if _TARGET is None:
        _TARGET = OffscreenTarget()
        app = QCoreApplication.instance()
        app.aboutToQuit.connect(release_target)
        # atexit runs last-registered first, so before PySide's own clean-up of the application
        atexit.register(release_target)
    return _TARGET


def release_target() -> None:
    """Release the offscreen context and framebuffer (a later render makes them anew)."""
    global _TARGET
    if _TARGET is not None:
        _TARGET.release()
        _TARGET = None


def render_image(view, width: int, height: int) -> QImage:
    """A QImage of ``view``'s scene at ``width`` × ``height``, with labels."""
    view.set_full_detail()
    # screen-space items are laid out for the widget, not for the offscreen tiles: the frame
    # names, and the items painted with a QPainter (the DH overlay's texts), are drawn into the
    # image below; the others (the axis letters, the text by the cursor) are left out, and so are
    # the handles a drag grabs (an exported picture shows the robot, not the tools)
    handles = {id(it) for handle in (view.ik_handle, view.frame_handle) for it in handle.items()}
    hidden = [it for it in view.items if (getattr(it, "screen_space", False) or hasattr(it, "paint_image")
                                          or id(it) in handles) and it.visible()]
    painted = [it for it in hidden if hasattr(it, "paint_image")]
    for it in hidden:
        it.setVisible(False)
    try:
        arr = target().render(view, width, height)
    finally:
        for it in hidden:
            it.setVisible(True)
    img = QImage(arr.data, width, height, arr.strides[0], QImage.Format.Format_ARGB32).copy()
    layout = LabelLayout()  # the image's labels kept apart as the widget's are
    begin_frame(view, layout, view_mvp(view, (0, 0, width, height)), width, height)
    if painted:
        painter = QPainter(img)
        for it in painted:
            it.paint_image(painter, view_mvp(view, (0, 0, width, height)), width, height,
                           max(1.0, height / max(view.height(), 1)),
                           **({"layout": layout} if getattr(it, "uses_layout", False) else {}))
        painter.end()
    if view.show_labels and view.labels.texts:
        px, front = project_points(view_mvp(view, (0, 0, width, height)), view.labels.positions, width, height)
        font = QFont(view.labels.font)
        font.setPointSizeF(font.pointSizeF() * max(1.0, height / max(view.height(), 1)))
        painter = QPainter(img)
        draw_labels(painter, view.labels.texts, px, front, view.labels.color, font, view.labels.static_texts,
                    view.labels.order, layout=layout, theme=view.theme)
        painter.end()
    return img
