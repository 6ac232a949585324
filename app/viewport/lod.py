"""Level of detail for mesh visuals: while the user drags (a slider, the camera) the scene is drawn
from decimated copies that fit a triangle budget; once still, at full detail.

Software GL (llvmpipe) spends its time shading vertices and setting up triangles, so a robot with
200k mesh triangles (Talos) drags at a third of the frame rate of the same robot at 60k. The
copies are made once per mesh (cached by content) and kept on the GPU next to the full meshes:
switching detail is a flag, never a vertex upload.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.core.disk.mesh_reader import unique_rows

from .meshes import decimate

log = logging.getLogger(__name__)

#: Triangles drawn for the whole scene while interacting. llvmpipe's cost grows with the triangle
#: count, not the pixels (Talos fitted in a 453×580 view, 2 cores: 30 ms CPU a frame at 60,000,
#: 17 ms at 20,000); at a fitted robot's size 20,000 looks like full detail, and full detail
#: comes back 300 ms after the drag.
INTERACTIVE_FACES = 20_000
#: Milliseconds without a configuration change or camera move before full detail is drawn again.
IDLE_MS = 300
#: No decimated copy has fewer triangles than this (a recognisable shape, whatever the budget).
MIN_FACES = 64

_CACHE: OrderedDict[tuple[bytes, int], tuple[np.ndarray, np.ndarray]] = OrderedDict()
_CACHE_SIZE = 512


def simplify(vertices: np.ndarray, faces: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """About ``target`` triangles of the mesh: quadric decimation (``fast-simplification``), or
    vertex clustering when that is missing or fails. Results are cached by content and target."""
    vertices = np.ascontiguousarray(vertices, dtype=np.float64)
    faces = np.ascontiguousarray(faces, dtype=np.int64)
    if len(faces) <= target:
        return vertices, faces
    key = (hashlib.blake2b(vertices.tobytes() + faces.tobytes(), digest_size=16).digest(), int(target))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    result = None
    # STL files repeat each corner per triangle: weld equal corners first, or the decimation
    # collapses every triangle on its own and opens cracks all over the surface
    welded, _, inverse = unique_rows(vertices)
    wfaces = inverse[faces]
    wfaces = wfaces[(wfaces[:, 0] != wfaces[:, 1]) & (wfaces[:, 1] != wfaces[:, 2]) & (wfaces[:, 0] != wfaces[:, 2])]
    try:
        import fast_simplification

        v, f = fast_simplification.simplify(welded.astype(np.float32), wfaces.astype(np.int32),
                                            target_reduction=max(0.0, 1.0 - target / max(len(wfaces), 1)))
        if 0 < len(f) <= 1.2 * target:  # it may stop early (odd topology): then cluster instead
            result = np.asarray(v, dtype=np.float64), np.asarray(f, dtype=np.int64)
        else:
            log.info("quadric decimation left %d of %d triangles (target %d)", len(f), len(wfaces), target)
    except Exception as exc:  # a missing package or a degenerate mesh must not stop the drawing
        log.info("quadric decimation failed (%s); clustering vertices instead", exc)
    if result is None:
        result = decimate(welded, wfaces, max(int(target), MIN_FACES))
    _CACHE[key] = result
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return result


class LodMeshItem(gl.GLMeshItem):
    """A mesh item that can draw a decimated copy of itself instead (same transform, colour and
    GL state); both stay in GPU buffers, so :meth:`set_detailed` costs nothing per frame."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._kwargs = {k: v for k, v in kwargs.items() if k != "meshdata"}
        self.coarse: gl.GLMeshItem | None = None
        self.detailed = True

    @property
    def face_count(self) -> int:
        return self.opts["meshdata"].faceCount()

    def drawn_face_count(self) -> int:
        """Triangles this item draws now (its decimated copy's while not detailed)."""
        if self.detailed or self.coarse is None:
            return self.face_count
        return self.coarse.opts["meshdata"].faceCount()

    def set_target(self, target: int | None) -> None:
        """Make (or drop, for ``None`` or a target at or above the full count) the decimated copy."""
        md = self.opts["meshdata"]
        if target is None or target >= md.faceCount() or md.hasFaceIndexedData():
            self.coarse = None
            return
        v, f = simplify(md.vertexes(), md.faces(), max(int(target), MIN_FACES))
        self.coarse = gl.GLMeshItem(meshdata=gl.MeshData(vertexes=v, faces=f), **self._kwargs)

    def set_detailed(self, on: bool) -> None:
        if on != self.detailed:
            self.detailed = on
            if self.coarse is not None:  # otherwise it looks the same either way
                self.update()

    def paint(self) -> None:
        coarse = self.coarse
        if self.detailed or coarse is None:
            super().paint()
            return
        if coarse.view() is not self.view():  # drawn through this item, never added to the view
            coarse._setView(self.view())
        coarse.paint()  # the view's model-view matrix already holds this item's transform


def assign_targets(items: list[LodMeshItem], budget: int) -> int:
    """Share ``budget`` triangles among ``items`` in proportion to their size (a mesh's share of
    the scene's detail stays the same); returns the triangles drawn while interacting."""
    total = sum(it.face_count for it in items)
    if total <= budget:
        for it in items:
            it.set_target(None)
        return total
    ratio = budget / total
    for it in items:
        it.set_target(int(it.face_count * ratio))
    return sum(it.coarse.opts["meshdata"].faceCount() if it.coarse else it.face_count for it in items)
