"""Line items drawn with fewer and cheaper GL calls than pyqtgraph's ``GLLinePlotItem``.

A frame draws about ten line sets (triads, links, joint axes, the handles, the DH overlay), each
changed at every move of a drag. pyqtgraph's paint asks the context's format, multiplies the
camera matrices and looks up its uniform at every paint, and passes its buffer offsets through
PyOpenGL's array conversion: ~0.25 ms an item under software GL. Here the frame's camera matrix
is shared (``view.frame_mvp``), the uniform location is asked once, and the pointer calls go
straight to GL. It draws exactly what ``GLLinePlotItem`` draws; ``setData`` and its data are
the same.
"""

from __future__ import annotations

import ctypes

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from OpenGL.raw.GL.VERSION import GL_2_0 as raw
from pyqtgraph.opengl.items.GLLinePlotItem import DirtyFlag
from PySide6.QtGui import QOpenGLContext, QSurfaceFormat

from .gl_programs import location


def _context_rules(view) -> tuple[bool, bool]:
    """Whether the view's context smooths lines (not GLES) and takes widths (not a
    forward-compatible core profile), as ``GLLinePlotItem`` decides; asked once per view."""
    rules = getattr(view, "_line_rules", None)
    if rules is None:
        context = QOpenGLContext.currentContext()
        fmt = context.format()
        core = (fmt.profile() == QSurfaceFormat.OpenGLContextProfile.CoreProfile
                and not fmt.testOption(QSurfaceFormat.FormatOption.DeprecatedFunctions))
        rules = view._line_rules = (not context.isOpenGLES(), not core)
    return rules


def _untransformed(item) -> bool:
    """Whether neither the item nor any item it is drawn in has a transform of its own."""
    while item is not None:
        if not item.transform().isIdentity():
            return False
        item = item.parentItem()
    return True


class LineItem(gl.GLLinePlotItem):
    """``GLLinePlotItem`` with a cheaper paint (see the module)."""

    def _mvp(self) -> np.ndarray:
        """The model-view-projection matrix, column-major float32 (as GL takes it)."""
        view = self.view()
        frame = getattr(view, "frame_mvp", None)
        if frame is not None and _untransformed(self):
            cached = getattr(view, "_frame_mvp_gl", None)
            if cached is None or cached[0] is not frame:
                cached = view._frame_mvp_gl = (frame, np.ascontiguousarray(frame.T, dtype=np.float32))
            return cached[1]
        return np.array(self.mvpMatrix().data(), dtype=np.float32)

    def paint(self) -> None:
        if self.pos is None:
            return
        self.setupGLState()
        mvp = self._mvp()
        if DirtyFlag.POSITION in self.dirty_bits:
            self.upload_vbo(self.m_vbo_position, self.pos)
        if DirtyFlag.COLOR in self.dirty_bits:
            self.upload_vbo(self.m_vbo_color, self.color)
        self.dirty_bits = DirtyFlag(0)
        if not len(self.pos):
            return
        program = self.getShaderProgram()
        per_vertex = isinstance(self.color, np.ndarray)
        self.m_vbo_position.bind()
        raw.glVertexAttribPointer(0, 3, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
        if per_vertex:
            self.m_vbo_color.bind()
            raw.glVertexAttribPointer(1, 4, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
        else:
            GL.glVertexAttrib4f(1, *self.color)
        self.m_vbo_position.release()
        smooth, widths = _context_rules(self.view())
        smooth = smooth and self.antialias
        if smooth:
            GL.glEnable(GL.GL_LINE_SMOOTH)
            GL.glEnable(GL.GL_BLEND)
            GL.glBlendFuncSeparate(GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA, GL.GL_ONE, GL.GL_ONE_MINUS_SRC_ALPHA)
            GL.glHint(GL.GL_LINE_SMOOTH_HINT, GL.GL_NICEST)
        if widths:
            GL.glLineWidth(self.width)
        GL.glEnableVertexAttribArray(0)
        if per_vertex:
            GL.glEnableVertexAttribArray(1)
        GL.glUseProgram(program)
        matrix = mvp.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        raw.glUniformMatrix4fv(location(program, "u_mvp"), 1, GL.GL_FALSE, matrix)
        GL.glDrawArrays(GL.GL_LINE_STRIP if self.mode == "line_strip" else GL.GL_LINES, 0, len(self.pos))
        GL.glUseProgram(0)
        GL.glDisableVertexAttribArray(0)
        if per_vertex:
            GL.glDisableVertexAttribArray(1)
        if smooth:
            GL.glDisable(GL.GL_LINE_SMOOTH)
            GL.glDisable(GL.GL_BLEND)
        GL.glLineWidth(1.0)


class GridItem(gl.GLGridItem):
    """pyqtgraph's grid, its lines drawn by a :class:`LineItem`."""

    def __init__(self) -> None:
        super().__init__()
        self.lineplot.setParentItem(None)
        self.lineplot = LineItem(parentItem=self, glOptions="translucent", mode="lines", antialias=True)
        self.updateLines()
