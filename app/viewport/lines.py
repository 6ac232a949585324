"""Line and dot items drawn with fewer and cheaper GL calls than pyqtgraph's ``GLLinePlotItem``
and ``GLScatterPlotItem``.

A frame draws about ten line sets (triads, links, joint axes, the handles, the DH overlay), each
changed at every move of a drag. pyqtgraph's paint asks the context's format, multiplies the
camera matrices and looks up its uniform at every paint, and passes its buffer offsets through
PyOpenGL's array conversion: ~0.25 ms an item under software GL. Here the frame's camera matrix
is shared (``view.frame_mvp``), the uniform location is asked once, and the pointer calls go
straight to GL. It draws exactly what ``GLLinePlotItem`` draws; ``setData`` and its data are
the same. :class:`DotsItem` does the same for dots of a size in pixels (the handles' tips).
"""

from __future__ import annotations

import ctypes

import numpy as np
import pyqtgraph.opengl as gl
from OpenGL import GL
from OpenGL.raw.GL.VERSION import GL_2_0 as raw
from pyqtgraph.opengl.items import GLScatterPlotItem as scatter
from pyqtgraph.opengl.items.GLLinePlotItem import DirtyFlag
from PySide6.QtGui import QOpenGLContext, QSurfaceFormat

from .gl_programs import location


def _context_rules(view) -> tuple[bool, bool, bool, bool]:
    """Whether the view's context smooths lines (not GLES) and takes widths (not a
    forward-compatible core profile), as ``GLLinePlotItem`` decides, and whether it sets point
    sizes (not GLES) and takes point sprites (a compatibility profile), as ``GLScatterPlotItem``
    decides; asked once per view."""
    rules = getattr(view, "_line_rules", None)
    if rules is None:
        context = QOpenGLContext.currentContext()
        fmt = context.format()
        core = (fmt.profile() == QSurfaceFormat.OpenGLContextProfile.CoreProfile
                and not fmt.testOption(QSurfaceFormat.FormatOption.DeprecatedFunctions))
        desktop = not context.isOpenGLES()
        rules = view._line_rules = (desktop, not core, desktop, desktop and scatter._is_compatibility_profile(context))
    return rules


def _frame_mvp(item) -> np.ndarray:
    """The frame's camera matrix as GL takes it (column-major float32), made once per frame."""
    view = item.view()
    frame = getattr(view, "frame_mvp", None)
    if frame is None:
        return np.array(item.mvpMatrix().data(), dtype=np.float32)
    cached = getattr(view, "_frame_mvp_gl", None)
    if cached is None or cached[0] is not frame:
        cached = view._frame_mvp_gl = (frame, np.ascontiguousarray(frame.T, dtype=np.float32))
    return cached[1]


def _attribute(loc: int, size: int, data, vbo, constant) -> bool:
    """Point vertex attribute ``loc`` at ``vbo`` when ``data`` is per vertex (an array; True),
    else give it the one value ``data`` with ``constant`` (glVertexAttrib4f, say; False)."""
    if isinstance(data, np.ndarray):
        vbo.bind()
        raw.glVertexAttribPointer(loc, size, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
        vbo.release()
        return True
    constant(loc, *np.atleast_1d(np.asarray(data, dtype=float)))  # float64s: Python floats to ctypes
    return False


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
        return _frame_mvp(self) if _untransformed(self) else np.array(self.mvpMatrix().data(), dtype=np.float32)

    def paint(self) -> None:
        if self.pos is None:
            return
        self.setupGLState()
        mvp = self._mvp()
        if DirtyFlag.POSITION in self.dirty_bits:
            self.upload_vbo(self.m_vbo_position, self.pos)
        # (per-vertex colours replaced by one colour before a paint leave the flag set: nothing
        # to upload then; pyqtgraph's paint raises there)
        if DirtyFlag.COLOR in self.dirty_bits and isinstance(self.color, np.ndarray):
            self.upload_vbo(self.m_vbo_color, self.color)
        self.dirty_bits = DirtyFlag(0)
        if not len(self.pos):
            return
        program = self.getShaderProgram()
        _attribute(0, 3, self.pos, self.m_vbo_position, None)
        per_vertex = _attribute(1, 4, self.color, self.m_vbo_color, GL.glVertexAttrib4f)
        smooth, widths, _, _ = _context_rules(self.view())
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


class DotsItem(gl.GLScatterPlotItem):
    """``GLScatterPlotItem`` with the cheaper paint of :class:`LineItem` for dots of a size in
    pixels in untransformed items (the others are painted by pyqtgraph)."""

    def paint(self) -> None:
        if not self.pxMode or not _untransformed(self):
            super().paint()
            return
        if self.pos is None:
            return
        self.setupGLState()
        mvp = _frame_mvp(self)
        if scatter.DirtyFlag.POSITION in self.dirty_bits:
            self.upload_vbo(self.m_vbo_position, self.pos)
        if scatter.DirtyFlag.COLOR in self.dirty_bits:
            self.upload_vbo(self.m_vbo_color, self.color)
        if scatter.DirtyFlag.SIZE in self.dirty_bits:
            self.upload_vbo(self.m_vbo_size, self.size)
        self.dirty_bits = scatter.DirtyFlag(0)
        _, _, sizes, sprites = _context_rules(self.view())
        if sprites:
            GL.glEnable(GL.GL_POINT_SPRITE)
        if sizes:
            GL.glEnable(GL.GL_PROGRAM_POINT_SIZE)
        program = self.getShaderProgram()
        enabled = [loc for loc, n, data, vbo, constant in (
            (0, 3, self.pos, self.m_vbo_position, None),
            (1, 4, self.color, self.m_vbo_color, GL.glVertexAttrib4f),
            (2, 1, self.size, self.m_vbo_size, GL.glVertexAttrib1f)) if _attribute(loc, n, data, vbo, constant)]
        for loc in enabled:
            GL.glEnableVertexAttribArray(loc)
        GL.glUseProgram(program)
        # pixel-sized dots: the shader reads neither the model-view matrix nor a scale but 0
        matrix = mvp.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
        raw.glUniformMatrix4fv(location(program, "u_mvp"), 1, GL.GL_FALSE, matrix)
        GL.glUniform1f(location(program, "u_scale"), 0.0)
        GL.glDrawArrays(GL.GL_POINTS, 0, len(self.pos))
        GL.glUseProgram(0)
        for loc in enabled:
            GL.glDisableVertexAttribArray(loc)
