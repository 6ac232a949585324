"""Shader programs that compile wherever the viewport runs: each is tried as desktop GLSL 1.20,
then as GLSL ES 1.00 (a core profile's ES 2 compatibility, as on macOS), and the first variant
that compiles is kept (chosen once per process: the viewports' contexts are shared)."""

from __future__ import annotations

import logging

from OpenGL import GL
from pyqtgraph.opengl import shaders
from PySide6.QtGui import QOpenGLContext

#: GL options of items drawn over everything else (handles, markers): no depth test, blended.
ON_TOP = {GL.GL_DEPTH_TEST: False, GL.GL_BLEND: True, GL.GL_CULL_FACE: False,
          "glBlendFunc": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)}

log = logging.getLogger(__name__)

#: (vertex header, fragment header) of each variant, in the order they are tried
_HEADERS = (("#version 120\n", "#version 120\n"),
            ("#version 100\n", "#version 100\n#extension GL_OES_standard_derivatives : enable\n"
                               "precision mediump float;\n"))


class Program:
    """A shader program given as GLSL bodies (no ``#version``); :meth:`get` compiles it."""

    def __init__(self, name: str, vertex: str, fragment: str) -> None:
        self.name = name
        self._variants = [shaders.ShaderProgram(f"kinetree_{name}_{k}", [shaders.VertexShader(v + vertex),
                                                                       shaders.FragmentShader(f + fragment)])
                          for k, (v, f) in enumerate(_HEADERS)]
        self._chosen: shaders.ShaderProgram | None = None
        self._failed = False

    def get(self) -> tuple[shaders.ShaderProgram, int] | None:
        """The compiled variant and its GL program id (None, logged once, if none compiles)."""
        if self._chosen is not None:
            return self._chosen, self._chosen.program()
        if self._failed:
            return None
        context = QOpenGLContext.currentContext()
        es2 = context is not None and context.hasExtension(b"GL_ARB_ES2_compatibility")
        for shader in self._variants:
            try:
                program = shader.program(es2_compat=es2)
            except Exception as exc:  # noqa: BLE001 (any compile or link failure: try the next variant)
                log.info("shader %s not compiled: %.300s", shader.name, exc)
                continue
            if program != -1:
                self._chosen = shader
                return shader, program
        log.warning("no %s shader compiles on this OpenGL: it is not drawn", self.name)
        self._failed = True
        return None


_LOCATIONS: dict[tuple[int, str, bool], int] = {}


def location(program: int, name: str, attribute: bool = False) -> int:
    """The location of a uniform (or an attribute) of ``program``, asked of GL once (a frame
    draws a dozen programs' items; program ids are per process, as the contexts share them)."""
    key = (program, name, attribute)
    found = _LOCATIONS.get(key)
    if found is None:
        found = _LOCATIONS[key] = int((GL.glGetAttribLocation if attribute else GL.glGetUniformLocation)(program, name))
    return found
