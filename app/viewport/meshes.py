"""Mesh data for primitive visuals (unit-free: sized by the visual)."""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl


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
    return None  # meshes from files: not drawn yet
