"""The viewport's drawing surface: a native OpenGL window that the viewport widget hosts.

A ``QOpenGLWidget`` draws into a texture, and Qt then composes that texture with the widgets'
image into the window at every frame: a clear and two quads the size of the viewport, one of
them blended. Under Mesa's software renderer that composition cost ~3–5 ms a frame, about as
much as drawing the robot (an empty 453×580 view: 4.2–5.6 ms a frame as a widget, 1.1–1.2 ms
as a window of its own). Here the scene is drawn straight into its window's back buffer and
swapped.

:class:`SurfaceView` (the base of ``RobotViewport``) stays the widget everyone talks to: its
input handlers, its overlays (made native, above this window) and the tests' ``QTest`` calls all
go to the widget, and :class:`GLSurface` hands the widget the input the window system gives it.
``update``, ``repaint``, ``grabFramebuffer`` and ``frameSwapped`` mean what they mean for a
``QOpenGLWidget``.
"""

from __future__ import annotations

from OpenGL import GL
from pyqtgraph.opengl.GLViewWidget import GLViewMixin
from PySide6.QtCore import QCoreApplication, QEvent, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QSurfaceFormat
from PySide6.QtOpenGL import QOpenGLWindow
from PySide6.QtWidgets import QVBoxLayout, QWidget

#: What the window system delivers to the surface and the viewport widget handles.
FORWARDED = frozenset({
    QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick,
    QEvent.Type.MouseMove, QEvent.Type.Wheel, QEvent.Type.KeyPress, QEvent.Type.KeyRelease,
    QEvent.Type.ShortcutOverride,  # a number typed after a drag is text, not the views' digit keys
    QEvent.Type.Enter, QEvent.Type.Leave, QEvent.Type.DragEnter, QEvent.Type.DragMove,
    QEvent.Type.DragLeave, QEvent.Type.Drop,
})


def surface_format() -> QSurfaceFormat:
    """What the scene needs of the window's buffers: 8 bits a colour (unasked, Xvfb's GLX gave
    RGB565 and banded the shading), depth, and stencil for QPainter's clips."""
    fmt = QSurfaceFormat.defaultFormat()
    for size in (fmt.setRedBufferSize, fmt.setGreenBufferSize, fmt.setBlueBufferSize):
        size(8)
    fmt.setDepthBufferSize(24)
    fmt.setStencilBufferSize(8)
    return fmt


class GLSurface(QOpenGLWindow):
    """Draws ``view`` (a :class:`SurfaceView`) and passes it its input."""

    def __init__(self, view) -> None:
        # made with a parent window, so Qt owns it: at exit PySide deletes what Python owns
        # before Qt closes the windows left open, and a container whose window was deleted
        # under it crashes Qt then
        view.winId()
        super().__init__(QOpenGLWindow.UpdateBehavior.NoPartialUpdate, view.windowHandle())
        self.view = view
        self.swapped_size = QSize()  # the size of the last frame shown
        self.frameSwapped.connect(lambda: setattr(self, "swapped_size", self.size()))
        self.setFormat(surface_format())
        self.holder = QWidget.createWindowContainer(self, view)
        # a native container holds the surface inside the view's window, under its overlays
        # (else the surface is a child of the top-level window, above the view and all in it)
        self.holder.setAttribute(Qt.WidgetAttribute.WA_NativeWindow)
        self.holder.winId()  # its window made now, so the overlays' windows (made later) stack above
        self.holder.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys go to the view (see event)

    def initializeGL(self) -> None:  # noqa: N802 - Qt's name
        self.view.initializeGL()

    def paintGL(self) -> None:  # noqa: N802
        ratio = self.devicePixelRatio()
        GL.glViewport(0, 0, int(self.width() * ratio), int(self.height() * ratio))
        self.view.paintGL()

    def event(self, ev: QEvent) -> bool:
        if ev.type() == QEvent.Type.FocusIn:
            # a click gave this window the window system's focus, and Qt then takes the focus
            # from the widgets: the view takes it back once that is done (a focus proxy on the
            # container would do it, but ties the view's lifetime to Qt's teardown at exit)
            QTimer.singleShot(0, self.view, lambda: self.view.setFocus(Qt.FocusReason.MouseFocusReason))
        if ev.type() in FORWARDED:
            if ev.type() == QEvent.Type.MouseButtonPress and self.view.focusPolicy() & Qt.FocusPolicy.ClickFocus:
                self.view.setFocus(Qt.FocusReason.MouseFocusReason)  # a click gives the viewport the keys
            QCoreApplication.sendEvent(self.view, ev)
            return True
        return super().event(ev)


class SurfaceView(GLViewMixin, QWidget):
    """pyqtgraph's ``GLViewWidget``, drawn by a :class:`GLSurface` filling it."""

    frameSwapped = Signal()  # a frame reached the screen

    def __init__(self, parent=None) -> None:
        self._frame_pending = False
        self._overlays: list[QWidget] = []
        super().__init__(parent)
        # native, and so the surface's container: the surface then sits inside this widget's
        # window, where the overlays (native too) stack above it; its siblings stay plain widgets
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_DontCreateNativeWidgetSiblings)
        self.setAttribute(Qt.WidgetAttribute.WA_NativeWindow)
        self.surface = GLSurface(self)
        self.surface.frameSwapped.connect(self.frameSwapped)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.surface.holder)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # as GLViewWidget

    def update(self, *args) -> None:
        """A frame soon (many calls before it: one frame); with a rectangle: the widget's own."""
        if args:
            super().update(*args)
        elif not self._frame_pending:
            self._frame_pending = True
            QTimer.singleShot(0, self, self._pending_frame)

    def _pending_frame(self) -> None:
        if self._frame_pending:
            self.repaint()

    def repaint(self, *args) -> None:
        """Draw a frame now (a pending one is then not drawn again); with a rectangle: the
        widget's own."""
        if args:
            super().repaint(*args)
            return
        self._frame_pending = False
        if self.surface.isExposed():
            QCoreApplication.sendEvent(self.surface, QEvent(QEvent.Type.UpdateRequest))
        else:
            self.surface.update()  # drawn when it shows

    def isValid(self) -> bool:  # noqa: N802 - QOpenGLWidget's names
        return self.surface.isValid()

    def context(self):
        return self.surface.context()

    def makeCurrent(self) -> None:  # noqa: N802
        self.surface.makeCurrent()

    def doneCurrent(self) -> None:  # noqa: N802
        self.surface.doneCurrent()

    def grabFramebuffer(self) -> QImage:  # noqa: N802
        """The scene drawn now, as the next frame shows it (read back, not swapped to the screen)."""
        if not self.surface.isValid():
            return QImage()
        if self.surface.size() != self.surface.swapped_size:
            # a real frame first: only a frame brings the window's buffers (and the size QPainter
            # items paint at) to a size just set
            self.repaint()
        self.surface.makeCurrent()
        GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, self.surface.defaultFramebufferObject())
        self.surface.paintGL()
        return self.surface.grabFramebuffer()

    def add_overlay(self, widget: QWidget) -> None:
        """Float ``widget`` (a child) over the scene: a native window above the surface's, so
        opaque (a translucent background would not show the scene through it)."""
        widget.setAttribute(Qt.WidgetAttribute.WA_NativeWindow)
        widget.raise_()
        self._overlays.append(widget)

    def showEvent(self, ev) -> None:  # noqa: N802
        super().showEvent(ev)
        for widget in self._overlays:  # above the surface, whatever order the windows were made in
            widget.raise_()
