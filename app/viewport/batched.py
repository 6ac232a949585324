"""All the opaque visuals of a robot in one item: their triangles stay in GPU buffers in their
body's frame, and a frame uploads only each body's pose (12 floats) as shader uniforms.

One ``GLMeshItem`` per visual costs ~0.2 ms of Python and GL state per item and frame, so a
1000-body tree spent 0.27 s a frame there, before drawing a triangle. Here a frame is one draw
call per :data:`CHUNK` bodies. Triangles are indexed (each vertex shaded once, not once per
triangle corner: software GL spends its time there) and lit flat with the normal of the
triangle computed per fragment from screen-space derivatives, so no per-corner normals are
needed. While the user drags, a decimated copy of the whole set (within a triangle budget) is
drawn instead; both copies stay on the GPU, switching is a flag.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from OpenGL import GL
from pyqtgraph.opengl import GLGraphicsItem
from PySide6 import QtOpenGL

from .gl_programs import Program, location

#: Bodies per draw call: 3 vec4 uniforms (the pose) and a float (the tint) each, 192 vec4 slots
#: with the matrices, within the 256 (1024 components) every OpenGL 3 driver offers a vertex shader
CHUNK = 48
_VERTEX = f"""
    uniform mat4 u_mvp;
    uniform mat4 u_mv;
    uniform vec4 u_rows[{3 * CHUNK}];
    uniform float u_tint[{CHUNK}];
    attribute vec4 a_position;
    attribute vec4 a_color;
    attribute float a_owner;
    varying vec4 v_color;
    varying vec3 v_view;
    void main() {{
        int k = int(a_owner + 0.5);
        int i = k * 3;
        vec4 p = vec4(dot(u_rows[i], a_position), dot(u_rows[i + 1], a_position),
                      dot(u_rows[i + 2], a_position), 1.0);
        // a highlighted body (self-collision, tint 1) is drawn red, its shading kept; the body
        // under the cursor (tint 0.5) lighter; a dimmed one (tint -1, Present mode) greyed
        v_color = u_tint[k] > 0.75 ? vec4(1.0, 0.12, 0.1, a_color.a)
                : u_tint[k] > 0.25 ? vec4(min(a_color.rgb * 1.3 + vec3(0.15), vec3(1.0)), a_color.a)
                : u_tint[k] < -0.5 ? vec4(mix(a_color.rgb, vec3(0.5), 0.7), a_color.a) : a_color;
        v_view = (u_mv * p).xyz;
        gl_Position = u_mvp * p;
    }}
"""
# the lighting of meshes.FRAGMENT: a light at the camera plus ambient, lit from both sides
_FRAGMENT = """
    varying vec4 v_color;
    varying vec3 v_view;
    void main() {
        vec3 n = normalize(cross(dFdx(v_view), dFdy(v_view)));
        float p = abs(dot(n, normalize(vec3(0.35, 0.45, 1.0))));
        vec3 rgb = v_color.rgb * (0.3 + 0.7 * p) + vec3(0.06) * p * p * p;
        gl_FragColor = vec4(min(rgb, vec3(1.0)), v_color.a);
    }
"""
_PROGRAM = Program("batched mesh", _VERTEX, _FRAGMENT)


@dataclass(frozen=True)
class Part:
    """One visual's triangles, drawn with the pose of body ``slot``: ``vertices`` (m, 3) in that
    body's frame (the visual's origin applied), ``faces`` (k, 3) indices, one RGBA ``color``.
    Parts are immutable: the same arrays move to another slot with :meth:`at`."""

    slot: int
    vertices: np.ndarray
    faces: np.ndarray
    color: tuple[float, float, float, float]

    @property
    def face_count(self) -> int:
        return len(self.faces)

    def at(self, slot: int) -> Part:
        return self if slot == self.slot else Part(slot, self.vertices, self.faces, self.color)


def part(slot: int, vertices: np.ndarray, faces: np.ndarray, matrix: np.ndarray, color) -> Part:
    """A :class:`Part` from an indexed mesh placed by ``matrix`` (4×4) in the body's frame."""
    v = np.asarray(vertices, dtype=float) @ matrix[:3, :3].T + matrix[:3, 3]
    return Part(slot, v.astype(np.float32), np.asarray(faces, dtype=np.uint32).reshape(-1, 3),
                tuple(float(c) for c in color))


class _Buffers:
    """The packed arrays of a set of parts and their GPU copies (made at the first paint)."""

    def __init__(self, parts: list[Part]) -> None:
        parts = sorted(parts, key=lambda p: p.slot)  # a chunk's triangles must be contiguous
        self.faces = sum(p.face_count for p in parts)
        counts = [len(p.vertices) for p in parts]
        offsets = np.cumsum([0, *counts[:-1]]).astype(np.uint32)
        slots = np.repeat(np.array([p.slot for p in parts], dtype=np.int64), counts)
        colors = np.array([np.clip(np.asarray(p.color) * 255 + 0.5, 0, 255) for p in parts], dtype=np.uint8)
        self.arrays = {
            "a_position": np.ascontiguousarray(np.concatenate([p.vertices for p in parts]) if parts
                                               else np.zeros((0, 3)), dtype=np.float32),
            "a_color": np.ascontiguousarray(np.repeat(colors.reshape(-1, 4), counts, axis=0)),
            "a_owner": (slots % CHUNK).astype(np.float32),
        }
        self.indices = (np.concatenate([p.faces.ravel() + o for p, o in zip(parts, offsets)]).astype(np.uint32)
                        if parts else np.zeros(0, dtype=np.uint32))
        face_chunk = np.repeat(np.array([p.slot // CHUNK for p in parts], dtype=np.int64),
                               [p.face_count for p in parts])
        starts = np.flatnonzero(np.r_[True, face_chunk[1:] != face_chunk[:-1]]) if self.faces else np.zeros(0, int)
        ends = np.r_[starts[1:], self.faces]
        #: (chunk, first index, index count) for each draw call
        self.draws = [(int(face_chunk[s]), 3 * int(s), 3 * int(e - s)) for s, e in zip(starts, ends)]
        self.vbos: dict[str, QtOpenGL.QOpenGLBuffer] = {}

    def bind(self, program: int) -> list[int]:
        """Upload once, then point the program's attributes at the buffers; returns the enabled
        attribute locations (the index buffer stays bound)."""
        if not self.vbos:
            kinds = {name: QtOpenGL.QOpenGLBuffer.Type.VertexBuffer for name in self.arrays}
            for name, arr in [*self.arrays.items(), ("indices", self.indices)]:
                vbo = QtOpenGL.QOpenGLBuffer(kinds.get(name, QtOpenGL.QOpenGLBuffer.Type.IndexBuffer))
                vbo.create()
                vbo.bind()
                vbo.allocate(arr, arr.nbytes)
                vbo.release()
                self.vbos[name] = vbo
        enabled = []
        for name, arr in self.arrays.items():
            loc = location(program, name, attribute=True)
            if loc == -1:
                continue
            vbo = self.vbos[name]
            vbo.bind()
            if name == "a_color":
                GL.glVertexAttribPointer(loc, 4, GL.GL_UNSIGNED_BYTE, True, 0, None)
            else:
                GL.glVertexAttribPointer(loc, arr.shape[1] if arr.ndim == 2 else 1, GL.GL_FLOAT, False, 0, None)
            vbo.release()
            GL.glEnableVertexAttribArray(loc)
            enabled.append(loc)
        self.vbos["indices"].bind()
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
        self._tint = np.zeros(0, dtype=np.float32)
        self._red: list[int] = []
        self._hovered: int | None = None
        self._dimmed: list[int] = []

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

    def set_highlighted(self, slots) -> None:
        """Draw the meshes of these slots in red (none: every mesh in its own colour)."""
        self._red = [int(s) for s in slots]
        self._set_tint()

    def set_hovered(self, slot: int | None) -> None:
        """Draw the meshes of this slot lighter (the body under the cursor); None: none."""
        self._hovered = slot
        self._set_tint()

    def set_dimmed(self, slots) -> None:
        """Draw the meshes of these slots greyed (Present mode: all but the selected body's)."""
        self._dimmed = [int(s) for s in slots]
        self._set_tint()

    def _set_tint(self) -> None:
        hovered = [] if self._hovered is None else [self._hovered]
        tint = np.zeros(max([len(self._rows), *(s + 1 for s in [*self._red, *hovered, *self._dimmed])]),
                        dtype=np.float32)
        tint[self._dimmed] = -1.0
        tint[hovered] = 0.5
        tint[self._red] = 1.0
        if not np.array_equal(tint, self._tint):
            self._tint = tint
            self.update()

    def set_detailed(self, on: bool) -> None:
        if on != self.detailed:
            self.detailed = on
            if self._coarse is not None:  # otherwise both look the same
                self.update()

    @property
    def face_count(self) -> int:
        return self._full.faces

    @property
    def coarse_face_count(self) -> int:
        """Triangles of the decimated copy (of the full set when there is none)."""
        return (self._coarse or self._full).faces

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
        if not buffers.draws or (chosen := _PROGRAM.get()) is None:
            return
        shader, program = chosen
        self.setupGLState()
        enabled = buffers.bind(program)
        mvp = np.array(self.mvpMatrix().data(), dtype=np.float32)
        mv = np.array(self.modelViewMatrix().data(), dtype=np.float32)
        rows = self._rows
        try:
            with shader:
                GL.glUniformMatrix4fv(location(program, "u_mvp"), 1, False, mvp)
                GL.glUniformMatrix4fv(location(program, "u_mv"), 1, False, mv)
                loc = location(program, "u_rows")
                tint_loc = location(program, "u_tint")
                tint = np.zeros(CHUNK, dtype=np.float32)
                for chunk, first, count in buffers.draws:
                    block = rows[chunk * CHUNK:(chunk + 1) * CHUNK]
                    GL.glUniform4fv(loc, 3 * len(block), block)
                    tint[:] = 0.0
                    part = self._tint[chunk * CHUNK:(chunk + 1) * CHUNK]
                    tint[:len(part)] = part
                    GL.glUniform1fv(tint_loc, CHUNK, tint)
                    GL.glDrawElements(GL.GL_TRIANGLES, count, GL.GL_UNSIGNED_INT, GL.GLvoidp(4 * first))
        finally:
            buffers.vbos["indices"].release()
            for loc in enabled:
                GL.glDisableVertexAttribArray(loc)
