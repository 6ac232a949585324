"""Visuals and meshes for the web page (:mod:`.web_page`): each mesh file read once by the
engine's bounded reader (:func:`~kinetree.core.disk.mesh_reader.read_mesh`), decimated with
fast-simplification to fit the page's triangle budget, and embedded as base64 little-endian
float32 vertices and uint32 triangle indices."""

from __future__ import annotations

import base64
import math
from typing import Any

import numpy as np

from ..disk.mesh_reader import read_mesh
from ..errors import FileFormatError

#: Most triangles of one mesh in the page (the app's viewport draws at most as many).
MESH_TRIANGLES = 40_000
#: Most triangles of all meshes in one page (~24 bytes each once embedded: Talos ≈ 7 MB).
PAGE_TRIANGLES = 300_000


def _b64(a: np.ndarray, dtype: str) -> str:
    return base64.b64encode(np.ascontiguousarray(a, dtype=dtype).tobytes()).decode("ascii")


def _simplify(v: np.ndarray, f: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """``(v, f)`` reduced to about ``target`` triangles (never more than it had)."""
    try:
        import fast_simplification  # a base dependency; imported here as only the export needs it
    except ImportError:  # pragma: no cover - a broken install
        raise FileFormatError(f"web page: a mesh of {len(f):,} triangles is above the page's budget of {target:,} "
                              "and fast-simplification, which decimates it, is not installed") from None
    v2, f2 = fast_simplification.simplify(np.asarray(v, dtype=np.float32), np.asarray(f, dtype=np.int32),
                                          target_reduction=1.0 - target / len(f))
    return (v2, f2) if len(f2) else (v, f)


class MeshPacker:
    """Collects a tree's visuals as JSON-ready dicts; :meth:`pack` embeds the meshes they use."""

    def __init__(self, max_triangles: int = PAGE_TRIANGLES) -> None:
        self.max_triangles = int(max_triangles)
        self._index: dict[str, int] = {}
        self._files: list[str] = []
        self.meshes: list[dict[str, Any]] = []
        self._notes: list[str] = []

    def visual(self, v, owner: str) -> dict[str, Any]:
        """One visual of body ``owner`` (its mesh file queued for :meth:`pack`)."""
        d: dict[str, Any] = {"kind": v.kind, "size": [float(s) for s in v.size],
                             "pose": [float(x) for row in v.pose for x in row], "color": [float(c) for c in v.color]}
        if v.kind == "mesh":
            if v.filename not in self._index:
                self._index[v.filename] = len(self._files)
                self._files.append(v.filename)
            d["mesh"] = self._index[v.filename]
        return d

    def pack(self) -> list[dict[str, Any]]:
        """Read, decimate and encode every queued mesh; a file that cannot be read becomes an
        empty mesh and a note naming it."""
        read = []
        for path in self._files:
            try:
                m = read_mesh(path)
                read.append((np.asarray(m.vertices), np.asarray(m.faces)))
            except FileFormatError as exc:
                self._notes.append(f"mesh not in the page: {str(exc):.300}")
                read.append((np.zeros((0, 3)), np.zeros((0, 3), dtype=np.int64)))
        total = sum(len(f) for _v, f in read)
        share = min(1.0, self.max_triangles / total) if total else 1.0
        before = after = 0
        for path, (v, f) in zip(self._files, read):
            target = max(min(MESH_TRIANGLES, math.floor(len(f) * share)), min(len(f), 64))
            if len(f) > target:
                before += len(f)
                v, f = _simplify(v, f, target)
                after += len(f)
            self.meshes.append({"file": path.replace("\\", "/").rsplit("/", 1)[-1], "v": _b64(v, "<f4"),
                                "f": _b64(f, "<u4"), "triangles": len(f)})
        if before:
            self._notes.append(f"meshes decimated for the page: {before:,} triangles became {after:,} (budget "
                               f"{MESH_TRIANGLES:,} a mesh, {self.max_triangles:,} in all)")
        return self.meshes

    def notes(self) -> list[str]:
        return list(self._notes)
