"""All the opaque visuals of a robot in one item: their triangles stay in GPU buffers in their
body's frame, and a frame uploads only each body's pose (12 floats) as shader uniforms.

One ``GLMeshItem`` per visual costs ~0.2 ms of Python and GL state per item and frame, so a
1000-body tree spent 0.27 s a frame there, before drawing a triangle. Here a frame is one draw
call per :data:`CHUNK` bodies. While the user drags, a decimated copy of the whole set (within
a triangle budget) is drawn instead; both copies stay on the GPU, switching is a flag.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from OpenGL import GL
from pyqtgraph.opengl import GLGraphicsItem, shaders
from PySide6 import QtOpenGL
from PySide6.QtGui import QOpenGLContext

from .meshes import FRAGMENT

#: Bodies per draw call: 3 vec4 uniforms each, 192 in all, within the 1024 uniform components
#: every OpenGL 3 driver offers a vertex shader (llvmpipe offers far more; a chunk is cheap).
CHUNK = 64
SHADER = "kinetree_batched"
shaders.ShaderProgram(SHADER, [
    shaders.VertexShader(f"""
        uniform mat4 u_mvp;
        uniform mat3 u_normal;
        uniform vec4 u_rows[{3 * CHUNK}];
        attribute vec4 a_position;
        attribute vec3 a_normal;
        attribute vec4 a_color;
        attribute float a_owner;
        varying vec4 v_color;
        varying vec3 v_normal;
        void main() {{
            int i = int(a_owner + 0.5) * 3;
            vec4 r0 = u_rows[i];
            vec4 r1 = u_rows[i + 1];
            vec4 r2 = u_rows[i + 2];
            vec4 p = vec4(dot(r0, a_position), dot(r1, a_position), dot(r2, a_position), 1.0);
            vec3 n = vec3(dot(r0.xyz, a_normal), dot(r1.xyz, a_normal), dot(r2.xyz, a_normal));
            v_normal = normalize(u_normal * n);
            v_color = a_color;
            gl_Position = u_mvp * p;
        }}
    """),
    shaders.FragmentShader(FRAGMENT),
])


@dataclass(frozen=True)
class Part:
    """One visual's triangles, drawn with the pose of body ``slot``: ``corners`` (k, 3, 3) in
    that body's frame (the visual's origin applied), their unit ``normals`` (k, 3), one RGBA
    ``color``. Parts are immutable: the same arrays move to another slot with :meth:`at`."""

    slot: int
    corners: np.ndarray
    normals: np.ndarray
    color: tuple[float, float, float, float]

    @property
    def face_count(self) -> int:
        return len(self.corners)

    def at(self, slot: int) -> Part:
        return self if slot == self.slot else Part(slot, self.corners, self.normals, self.color)


def part(slot: int, vertices: np.ndarray, faces: np.ndarray, matrix: np.ndarray, color) -> Part:
    """A :class:`Part` from an indexed mesh placed by ``matrix`` (4×4) in the body's frame."""
    v = np.asarray(vertices, dtype=float) @ matrix[:3, :3].T + matrix[:3, 3]
    corners = v[np.asarray(faces)].astype(np.float32)
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)  # degenerate: 0
    return Part(slot, corners, normals, tuple(float(c) for c in color))


class _Buffers:
    """The packed vertex arrays of a set of parts and their GPU copies (made at the first paint)."""

    def __init__(self, parts: list[Part]) -> None:
        parts = sorted(parts, key=lambda p: p.slot)  # a chunk's vertices must be contiguous
        self.faces = sum(p.face_count for p in parts)
        n = 3 * self.faces
        corners = np.concatenate([p.corners for p in parts]) if parts else np.zeros((0, 3, 3), np.float32)
        normals = np.concatenate([p.normals for p in parts]) if parts else np.zeros((0, 3), np.float32)
        slots = np.repeat(np.array([p.slot for p in parts], dtype=np.int64), [3 * p.face_count for p in parts])
        colors = np.repeat(np.array([np.clip(np.asarray(p.color) * 255 + 0.5, 0, 255) for p in parts],
                                    dtype=np.uint8).reshape(-1, 4), [3 * p.face_count for p in parts], axis=0)
        self.arrays = {
            "a_position": np.ascontiguousarray(corners.reshape(n, 3), dtype=np.float32),
            "a_normal": np.ascontiguousarray(np.repeat(normals, 3, axis=0), dtype=np.float32),
            "a_color": np.ascontiguousarray(colors),
            "a_owner": (slots % CHUNK).astype(np.float32),
        }
        chunk = slots // CHUNK
        starts = np.flatnonzero(np.r_[True, chunk[1:] != chunk[:-1]]) if n else np.zeros(0, dtype=int)
        ends = np.r_[starts[1:], n]
        #: (chunk, first vertex, vertex count) for each draw call
        self.draws = [(int(chunk[s]), int(s), int(e - s)) for s, e in zip(starts, ends)]
        self.vbos: dict[str, QtOpenGL.QOpenGLBuffer] = {}

    def bind(self, program: int) -> list[int]:
        """Upload once, then point the program's attributes at the buffers; returns the enabled locations."""
        if not self.vbos:
            for name, arr in self.arrays.items():
                vbo = QtOpenGL.QOpenGLBuffer(QtOpenGL.QOpenGLBuffer.Type.VertexBuffer)
                vbo.create()
                vbo.bind()
                vbo.allocate(arr, arr.nbytes)
                vbo.release()
                self.vbos[name] = vbo
        enabled = []
        for name, vbo in self.vbos.items():
            loc = GL.glGetAttribLocation(program, name)
            if loc == -1:
                continue
            size = self.arrays[name].shape[1] if self.arrays[name].ndim == 2 else 1
            vbo.bind()
            if name == "a_color":
                GL.glVertexAttribPointer(loc, 4, GL.GL_UNSIGNED_BYTE, True, 0, None)
            else:
                GL.glVertexAttribPointer(loc, size, GL.GL_FLOAT, False, 0, None)
            vbo.release()
            GL.glEnableVertexAttribArray(loc)
            enabled.append(loc)
        return enabled

    def release(self) -> None:
        for vbo in self.vbos.values():
            vbo.destroy()
        self.vbos = {}


class BatchedMeshItem(GLGraphicsItem.GLGraphicsItem):
    """Many meshes, each moved by the pose of its body (its *slot*), drawn in a few draw calls."""

    def __init__(self, glOptions: str | dict = "opaque") -> None:  # noqa: N803 (pyqtgraph's name)
        super().__init__()
        self.setGLOptions(glOptions)
        self._full = _Buffers([])
        self._coarse: _Buffers | None = None
        self._stale: list[_Buffers] = []  # replaced buffers, freed at the next paint (context current)
        self.detailed = True
        self._rows = np.zeros((0, 3, 4), dtype=np.float32)

    def set_parts(self, parts: list[Part]) -> None:
        """Replace every mesh (and drop the decimated copy)."""
        self._stale += [b for b in (self._full, self._coarse) if b is not None]
        self._full, self._coarse = _Buffers(parts), None
        self.update()

    def set_coarse_parts(self, parts: list[Part] | None) -> None:
        """The decimated copy drawn while not :attr:`detailed` (``None``: draw the full set)."""
        if self._coarse is not None:
            self._stale.append(self._coarse)
        self._coarse = _Buffers(parts) if parts is not None else None
        self.update()

    def set_transforms(self, poses: np.ndarray) -> None:
        """The pose (4×4, in the item's frame) of every slot, indexed by slot."""
        self._rows = np.ascontiguousarray(np.asarray(poses)[:, :3, :], dtype=np.float32)
        self.update()

    def set_detailed(self, on: bool) -> None:
        if on != self.detailed:
            self.detailed = on
            if self._coarse is not None:  # otherwise both look the same
                self.update()

    @property
    def face_count(self) -> int:
        return self._full.faces

    def drawn_face_count(self) -> int:
        """Triangles drawn now (the decimated copy's while not detailed)."""
        return self._drawn().faces

    def _drawn(self) -> _Buffers:
        return self._full if self.detailed or self._coarse is None else self._coarse

    def paint(self) -> None:
        for b in self._stale:
            b.release()
        self._stale = []
        buffers = self._drawn()
        if not buffers.draws:
            return
        self.setupGLState()
        shader = shaders.getShaderProgram(SHADER)
        context = QOpenGLContext.currentContext()
        program = shader.program(es2_compat=context.hasExtension(b"GL_ARB_ES2_compatibility"))
        enabled = buffers.bind(program)
        mvp = np.array(self.mvpMatrix().data(), dtype=np.float32)
        normal = np.array(self.modelViewMatrix().normalMatrix().data(), dtype=np.float32)
        rows = self._rows
        try:
            with shader:
                GL.glUniformMatrix4fv(GL.glGetUniformLocation(program, "u_mvp"), 1, False, mvp)
                GL.glUniformMatrix3fv(GL.glGetUniformLocation(program, "u_normal"), 1, False, normal)
                loc = GL.glGetUniformLocation(program, "u_rows")
                for chunk, first, count in buffers.draws:
                    block = rows[chunk * CHUNK:(chunk + 1) * CHUNK]
                    GL.glUniform4fv(loc, 3 * len(block), block)
                    GL.glDrawArrays(GL.GL_TRIANGLES, first, count)
        finally:
            for loc in enabled:
                GL.glDisableVertexAttribArray(loc)
