"""Mesh data for visuals: primitives sized by the visual, and mesh files (STL, OBJ, PLY, DAE …)
loaded with trimesh on first use, cached, and decimated when huge."""

from __future__ import annotations

import io
import logging
import os
from functools import lru_cache
from pathlib import Path

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.core.errors import FileFormatError
from kinetree.core.io.safe_io import check_regular_file, read_regular_file
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
#: Larger mesh files are not loaded (trimesh holds the whole file and more in memory).
MAX_MESH_BYTES = 200 * 2**20


def box(size) -> gl.MeshData:
    sx, sy, sz = np.asarray(size, dtype=float) / 2
    v = np.array([[x, y, z] for x in (-sx, sx) for y in (-sy, sy) for z in (-sz, sz)])
    f = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
    return gl.MeshData(vertexes=v, faces=f)


def cylinder(radius: float, length: float) -> gl.MeshData:
    """A closed cylinder along z, centred on the origin."""
    md = gl.MeshData.cylinder(rows=1, cols=24, radius=[radius, radius], length=length)
    v = md.vertexes().copy()
    v[:, 2] -= length / 2
    n = 24
    centers = np.array([[0, 0, -length / 2], [0, 0, length / 2]])
    verts = np.vstack([v, centers])
    c0, c1 = len(v), len(v) + 1
    faces = [md.faces()]
    lo = np.arange(n)
    hi = lo + (len(v) - n)
    faces.append(np.column_stack([np.full(n, c0), np.roll(lo, -1), lo]))
    faces.append(np.column_stack([np.full(n, c1), hi, np.roll(hi, -1)]))
    return gl.MeshData(vertexes=verts, faces=np.vstack(faces))


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
    """Vertex clustering: snap vertices to a grid coarse enough to leave about ``max_faces``
    triangles, merge each cell's vertices into their mean and drop collapsed triangles."""
    if len(faces) <= max_faces:
        return vertices, faces
    lo, hi = vertices.min(axis=0), vertices.max(axis=0)
    extent = float((hi - lo).max()) or 1.0
    cells = max(int(np.sqrt(max_faces / 2.0)), 8)  # a surface of n² cells has ~2n² triangles
    while True:
        key = np.floor((vertices - lo) / extent * cells).astype(np.int64)
        _, inverse, counts = np.unique(key, axis=0, return_inverse=True, return_counts=True)
        inverse = inverse.reshape(-1)
        f = inverse[faces]
        f = f[(f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])]
        if len(f) <= max_faces or cells <= 8:
            break
        cells = int(cells * 0.8)
    v = np.zeros((len(counts), 3))
    np.add.at(v, inverse, vertices)
    return v / counts[:, None], f


def _mesh_mtime(path: str, quiet: bool = False) -> float | None:
    """The modification time of ``path`` if it is a regular file of at most
    :data:`MAX_MESH_BYTES`, else ``None`` (logged unless ``quiet``): a mesh name comes from a
    robot file, and trimesh would wait forever on a FIFO or read a device without end."""
    try:
        st = check_regular_file(path)
    except FileFormatError as exc:  # missing, a folder, a FIFO, a device …
        if not quiet:
            log.warning("mesh file not loaded: %.300s", exc)
        return None
    except ValueError:  # a NUL byte in the name
        if not quiet:
            log.warning("mesh file not found: %.200s", path)
        return None
    if st.st_size > MAX_MESH_BYTES:
        if not quiet:
            log.warning("mesh file not loaded: %.200s is %d MB, more than %d MB", path,
                        st.st_size // 2**20, MAX_MESH_BYTES // 2**20)
        return None
    return st.st_mtime


def _safe_resolver(path: str):
    """trimesh's resolver for the files a mesh names (an OBJ's mtllib, a COLLADA texture):
    only regular files of at most :data:`MAX_MESH_BYTES` inside the mesh's folder (trimesh's
    own opens whatever the name is, and an OBJ naming a FIFO as its mtllib hung the loader)."""
    from trimesh.resolvers import FilePathResolver

    class SafeResolver(FilePathResolver):
        def get(self, name: str) -> bytes:
            parent = Path(self.parent).resolve()
            for candidate in (name.strip(), name.strip().lstrip("/"), os.path.split(name)[-1]):
                p = (parent / candidate).resolve()
                if p.is_relative_to(parent) and p.exists():
                    return read_regular_file(p, MAX_MESH_BYTES, "mesh file")
            raise FileNotFoundError(name)

        def namespaced(self, namespace: str) -> SafeResolver:
            return SafeResolver(os.path.join(self.parent, namespace))

    return SafeResolver(path)


@lru_cache(maxsize=256)
def _load(path: str, mtime: float) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        import trimesh

        # read here (a regular file, bounded), so trimesh never opens the path itself
        data = read_regular_file(path, MAX_MESH_BYTES, "mesh file")
        mesh = trimesh.load(io.BytesIO(data), file_type=Path(path).suffix.lstrip(".").lower(),
                            resolver=_safe_resolver(path), force="mesh", process=False)
        if not hasattr(mesh, "faces") or len(mesh.faces) == 0:
            log.warning("mesh %s has no triangles", path)
            return None
        # STL repeats each corner per triangle: weld equal corners, so each is shaded once
        vertices, inverse = np.unique(np.asarray(mesh.vertices, dtype=float), axis=0, return_inverse=True)
        return decimate(vertices, inverse.reshape(-1)[np.asarray(mesh.faces, dtype=np.int64)])
    except Exception as exc:  # trimesh raises many kinds; a broken mesh must not stop the app
        log.warning("cannot load mesh %s: %s", path, exc)
        return None


def mesh_file(path: str, scale) -> gl.MeshData | None:
    """A mesh file's triangles scaled by ``scale``, or ``None`` (logged) when it cannot be read."""
    mtime = _mesh_mtime(path)
    if mtime is None:
        return None
    data = _load(os.path.abspath(path), mtime)
    if data is None:
        return None
    v, f = data
    scale = np.asarray(scale, dtype=float)
    if np.prod(scale) < 0:  # mirrored: keep the triangles facing outwards
        f = f[:, ::-1]
    return gl.MeshData(vertexes=v * scale, faces=f)


def preload(tree) -> int:
    """Load (into the cache) every mesh file a tree's visuals use; safe in a worker thread.
    Returns how many were loaded."""
    n = 0
    for body in (tree.base, *tree.bodies):
        for v in body.visuals:
            if v.kind == "mesh":
                mtime = _mesh_mtime(v.filename, quiet=True)  # reported when drawn
                if mtime is not None:
                    _load(os.path.abspath(v.filename), mtime)
                    n += 1
    return n
