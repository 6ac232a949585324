"""Mesh data for visuals: primitives sized by the visual, and mesh files (STL, OBJ, PLY, DAE …)
read by the engine's mesh reader (:mod:`kinetree.core.disk.mesh_reader`: bounded, validated) on
first use, cached, and decimated to at most :data:`MAX_FACES` triangles each."""

from __future__ import annotations

import logging
from functools import cache, lru_cache

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.core.disk.mesh_reader import check_mesh_file, read_mesh, unique_rows
from kinetree.core.errors import FileFormatError
from pyqtgraph.opengl import shaders

log = logging.getLogger(__name__)

#: Name of KineTree's mesh shader: a light at the camera plus ambient, lit from both sides, so that
#: dark materials and meshes with inward-facing triangles stay readable (pyqtgraph's "shaded"
#: lights from a fixed oblique direction and leaves faces towards the viewer nearly black).
SHADER = "kinetree_lit"
#: The lighting of every mesh (also of :mod:`.batched`'s items): view-space normal, colour in.
FRAGMENT = """
    #ifdef GL_ES
    precision mediump float;
    #endif
    varying vec4 v_color;
    varying vec3 v_normal;
    void main() {
        float p = abs(dot(normalize(v_normal), normalize(vec3(0.35, 0.45, 1.0))));
        vec3 rgb = v_color.rgb * (0.3 + 0.7 * p) + vec3(0.06) * p * p * p;
        gl_FragColor = vec4(min(rgb, vec3(1.0)), v_color.a);
    }
"""
shaders.ShaderProgram(SHADER, [
    shaders.VertexShader("""
        uniform mat4 u_mvp;
        uniform mat3 u_normal;
        attribute vec4 a_position;
        attribute vec3 a_normal;
        attribute vec4 a_color;
        varying vec4 v_color;
        varying vec3 v_normal;
        void main() {
            v_normal = normalize(u_normal * a_normal);
            v_color = a_color;
            gl_Position = u_mvp * a_position;
        }
    """),
    shaders.FragmentShader(FRAGMENT),
])
#: Above this many triangles a mesh is decimated (software GL draws ~1M triangles per frame slowly).
MAX_FACES = 40_000


def box(size) -> gl.MeshData:
    sx, sy, sz = np.asarray(size, dtype=float) / 2
    v = np.array([[x, y, z] for x in (-sx, sx) for y in (-sy, sy) for z in (-sz, sz)])
    f = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    return gl.MeshData(vertexes=v, faces=f)


def cylinder(radius: float, length: float) -> gl.MeshData:
    """A closed cylinder along z, centred on the origin."""
    verts, faces = _unit_cylinder()
    return gl.MeshData(vertexes=verts * (radius, radius, length), faces=faces)


@cache
def _unit_cylinder() -> tuple[np.ndarray, np.ndarray]:
    """Vertices and faces of a closed cylinder of radius 1 and length 1 (scaled for each
    visual: a drag that refits a robot's links makes dozens of cylinders per edit)."""
    md = gl.MeshData.cylinder(rows=1, cols=24, radius=[1.0, 1.0], length=1.0)
    v = md.vertexes().copy()
    v[:, 2] -= 0.5
    n = 24
    verts = np.vstack([v, [[0, 0, -0.5], [0, 0, 0.5]]])
    c0, c1 = len(v), len(v) + 1
    lo = np.arange(n)
    hi = lo + (len(v) - n)
    faces = np.vstack([md.faces(), np.column_stack([np.full(n, c0), np.roll(lo, -1), lo]),
                       np.column_stack([np.full(n, c1), hi, np.roll(hi, -1)])])
    verts.setflags(write=False)
    faces.setflags(write=False)
    return verts, faces


def sphere(radius: float) -> gl.MeshData:
    return gl.MeshData.sphere(rows=12, cols=20, radius=radius)


def visual_mesh(visual) -> gl.MeshData | None:
    if visual.kind == "box":
        return box(visual.size)
    if visual.kind == "cylinder":
        return cylinder(*visual.size)
    if visual.kind == "sphere":
        return sphere(visual.size[0])
    if visual.kind == "mesh":
        return mesh_file(visual.filename, visual.size)
    return None


def decimate(vertices: np.ndarray, faces: np.ndarray, max_faces: int = MAX_FACES) -> tuple[np.ndarray, np.ndarray]:
    """Vertex clustering: snap vertices to a grid coarse enough to leave at most ``max_faces``
    triangles, merge each cell's vertices into their mean and drop collapsed and repeated
    triangles (clustering makes neighbours equal; left in, they kept a mesh above the cap)."""
    if len(faces) <= max_faces:
        return vertices, faces
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    extent = float((hi - lo).max()) or 1.0
    cells = max(int(np.sqrt(max_faces / 2.0)), 2)  # a surface of n² cells has ~2n² triangles
    while True:
        key = np.floor((vertices - lo) / extent * cells).astype(np.int64)
        _, _, inverse = unique_rows(key)
        counts = np.bincount(inverse)
        f = inverse[faces]
        f = f[(f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])]
        _, first, _ = unique_rows(np.sort(f, axis=1))
        f = f[np.sort(first)]
        # 2³ cells hold at most 56 distinct triangles: the loop ends below any cap of 56 or more
        if len(f) <= max_faces or cells <= 1:
            break
        cells = max(int(cells * 0.8), 1) if cells > 2 else 1
    v = np.zeros((len(counts), 3))
    np.add.at(v, inverse, vertices)
    return v / counts[:, None], f


@lru_cache(maxsize=256)
def _load(path: str, size: int, mtime_ns: int) -> tuple[np.ndarray, np.ndarray] | None:
    """A mesh file's welded, decimated triangles (cached by file version), or ``None`` (logged)."""
    try:
        mesh = read_mesh(path)  # the engine's reader: bounded, validated (welded), shared with the collision check
        return decimate(mesh.vertices, mesh.faces)
    except FileFormatError as exc:
        log.warning("mesh not drawn: %.400s", exc)
    except MemoryError:
        log.warning("mesh not drawn: %.200s: too large for the memory left", path)
    return None


def _version(path: str, quiet: bool = False) -> tuple[int, int] | None:
    """(size, mtime) of a mesh file the reader accepts, else ``None`` (logged unless ``quiet``)."""
    try:
        st = check_mesh_file(path)
    except FileFormatError as exc:  # relative (not found by the robot's reader), missing, a FIFO …
        if not quiet:
            log.warning("mesh not drawn: %.400s", exc)
        return None
    return st.st_size, st.st_mtime_ns


def mesh_file(path: str, scale) -> gl.MeshData | None:
    """A mesh file's triangles scaled by ``scale``, or ``None`` (logged) when it cannot be read."""
    version = _version(path)
    if version is None:
        return None
    data = _load(path, *version)
    if data is None:
        return None
    v, f = data
    scale = np.asarray(scale, dtype=float)
    v = v * scale
    if not np.isfinite(v).all():  # a huge scale of a large mesh: one infinity would blank the view
        log.warning("mesh not drawn: %.300s: scaled by %s it leaves the float range", path, tuple(scale))
        return None
    if np.prod(scale) < 0:  # mirrored: keep the triangles facing outwards
        f = f[:, ::-1]
    return gl.MeshData(vertexes=v, faces=f)


def preload(tree) -> int:
    """Load (into the cache) every mesh file a tree's visuals use; safe in a worker thread.
    Returns how many were loaded."""
    n = 0
    for body in (tree.base, *tree.bodies):
        for v in body.visuals:
            if v.kind == "mesh":
                version = _version(v.filename, quiet=True)  # reported when drawn
                if version is not None:
                    _load(v.filename, *version)
                    n += 1
    return n
