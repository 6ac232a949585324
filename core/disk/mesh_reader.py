"""The one reader of mesh files (STL, OBJ, PLY, OFF, COLLADA, glTF) for the viewport and the
self-collision check: a mesh name comes from a robot file, so it is hostile input.

- Only absolute paths are read: mesh URIs are resolved once, by the robot file's reader (a
  mesh it did not find keeps its URI as written, which must not be read from the current
  folder later).
- Only regular files (a FIFO would block forever, a device never ends), of at most
  :data:`MAX_MESH_BYTES`, read here once: trimesh never opens the path itself.
- Only uncompressed formats: trimesh inflates ``.bz2``/``.zip``/``.tar.gz`` archives (and
  pycollada zipped COLLADA) in memory without a bound (3 KB of bzip2 became 3 GB).
- The only files a mesh may name that are read are a glTF's buffers, through a resolver that
  follows the same rules, inside the mesh's folder, within the same byte budget; materials and
  textures are not read at all (colours come from the robot file).
- The result is checked (:func:`validate_mesh`): triangles only, every index in range, every
  vertex finite, at least one triangle; equal vertices are welded and collapsed or repeated
  triangles (either winding) removed.

Errors are :class:`~kinetree.core.errors.FileFormatError` naming the file and what is wrong.
"""

from __future__ import annotations

import io
import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..errors import FileFormatError
from .safe_io import check_regular_file, read_regular_file

__all__ = ["MAX_MESH_BYTES", "MAX_MESH_TRIANGLES", "MESH_FORMATS", "MeshArrays", "check_mesh_file", "read_mesh",
           "unique_rows", "validate_mesh"]

#: Larger mesh files are not read (the parsed arrays take several times the file's size).
MAX_MESH_BYTES = 200 * 2**20
#: Meshes with more triangles than this (after removing repeated ones) are refused.
MAX_MESH_TRIANGLES = 4_000_000
#: The formats read (file suffixes): trimesh's mesh formats that are not archives.
MESH_FORMATS = frozenset({"stl", "obj", "ply", "off", "dae", "glb", "gltf"})
#: Signatures of compressed data: refused whatever the suffix says (pycollada opens a zipped
#: COLLADA file named .dae). Binary STL is exempt: its 80-byte header is free text.
_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"),
               (b"PK\x05\x06", "zip"), (b"(\xb5/\xfd", "zstd"), (b"7z\xbc\xaf'\x1c", "7z"),
               (b"\x04\x22\x4d\x18", "lz4"), (b"\x5d\x00\x00", "lzma"))
_ARCHIVE_SUFFIXES = {"gz", "bz2", "xz", "zip", "zst", "7z", "lz4", "lzma", "tgz", "tbz2", "zae", "3mf", "3dxml"}


class MeshArrays(NamedTuple):
    """A mesh as read: ``vertices`` (n, 3) float64, ``faces`` (m, 3) int64 indices into them
    (both read-only: they are shared by every user of the cache)."""

    vertices: np.ndarray
    faces: np.ndarray


def _suffix(path: str) -> str:
    return Path(path).suffix.lstrip(".").lower()


def check_mesh_file(path: str | os.PathLike) -> os.stat_result:
    """``os.stat`` of a mesh file that :func:`read_mesh` would read, else a
    :class:`FileFormatError` saying why not: a relative path (not resolved), missing, a
    folder, a FIFO or device, too large, an archive or an unknown format."""
    path = os.fspath(path)
    if not os.path.isabs(path):
        raise FileFormatError(f"{path}: mesh not found (a relative path: a mesh is looked for where the robot "
                              "file names it, when the file is read)")
    try:
        st = check_regular_file(path)
    except ValueError as exc:  # a NUL byte in the name
        if isinstance(exc, FileFormatError):
            raise
        raise FileFormatError(f"{path!r}: mesh not found (not a valid file name)") from None
    if st.st_size > MAX_MESH_BYTES:
        raise FileFormatError(f"{path}: mesh file is {st.st_size / 2**20:.0f} MB; a mesh file may be at most "
                              f"{MAX_MESH_BYTES / 2**20:.0f} MB")
    kind = _suffix(path)
    if kind in _ARCHIVE_SUFFIXES:
        raise FileFormatError(f"{path}: a compressed or archive file ({kind}); KineTree reads uncompressed mesh "
                              f"files only ({', '.join(sorted(MESH_FORMATS))})")
    if kind not in MESH_FORMATS:
        raise FileFormatError(f"{path}: unknown mesh format {kind or '(no suffix)'!r}; KineTree reads "
                              f"{', '.join(sorted(MESH_FORMATS))}")
    return st


class _Budget:
    def __init__(self, left: int) -> None:
        self.left = left


def _resolver(path: str, budget: _Budget, buffers: bool):
    """trimesh's resolver for the files a mesh names: with ``buffers`` (glTF), regular files
    inside the mesh's folder, sharing the mesh file's byte budget; images never, nor anything
    for other formats (an OBJ's mtllib, a COLLADA texture: not drawn, and an image inflates)."""
    from trimesh.resolvers import FilePathResolver

    class SafeResolver(FilePathResolver):
        def get(self, name: str) -> bytes:
            if not buffers or _suffix(name) in {"png", "jpg", "jpeg", "bmp", "tga", "tif", "tiff", "gif", "webp",
                                                "dds", "ktx2"}:
                raise FileNotFoundError(name)
            parent = Path(self.parent).resolve()
            for candidate in (name.strip(), name.strip().lstrip("/"), os.path.split(name)[-1]):
                p = (parent / candidate).resolve()
                if p.is_relative_to(parent) and os.path.lexists(p):
                    data = read_regular_file(p, budget.left, "mesh's remaining budget for the files it names")
                    budget.left -= len(data)
                    return data
            raise FileNotFoundError(name)

        def namespaced(self, namespace: str) -> SafeResolver:
            return SafeResolver(os.path.join(self.parent, namespace))

    return SafeResolver(path)


def unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, first, inverse)`` as ``np.unique(a, axis=0, return_index=True,
    return_inverse=True)`` gives them for a 2-D numeric array (rows sorted, ``first`` the
    index of each one's first occurrence), 10–50× faster: numpy compares rows as opaque bytes,
    here they are sorted by their columns (``-0.0`` equals ``0.0``; no NaN expected)."""
    a = np.asarray(a)
    if not len(a):
        return a, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if a.dtype.kind in "iu" and a.shape[1] <= 3 and a.min() >= 0 and a.max() < 2**21:
        key = np.zeros(len(a), dtype=np.int64)  # small integers: one number a row
        for col in a.T:
            key = (key << 21) | col.astype(np.int64)
        order = np.argsort(key, kind="stable")
        k = key[order]
        new = np.empty(len(a), dtype=bool)
        new[0] = True
        new[1:] = k[1:] != k[:-1]
    else:
        order = np.lexsort(a.T[::-1])  # stable: the first of equal rows comes first
        k = a[order]
        new = np.empty(len(a), dtype=bool)
        new[0] = True
        new[1:] = (k[1:] != k[:-1]).any(axis=1)
    inverse = np.empty(len(a), dtype=np.int64)
    inverse[order] = np.cumsum(new) - 1
    first = order[new]
    return a[first], first, inverse


def validate_mesh(vertices, faces, source: str) -> MeshArrays:
    """The mesh as float64 vertices (equal ones welded) and int64 triangles (collapsed and
    repeated ones removed), or a
    :class:`FileFormatError` naming ``source``: no triangles, a face index out of range (FCL
    crashes on it, numpy wraps a negative one), a NaN or infinite vertex (the whole view
    would turn NaN), or more than :data:`MAX_MESH_TRIANGLES` triangles."""
    v = np.asarray(vertices)
    if v.dtype != np.float32:  # float32 (binary STL) is welded as read: half the memory and sorting
        v = v.astype(np.float64, copy=False)
    f = np.asarray(faces)
    if v.ndim != 2 or v.shape[1] != 3 or not len(v):
        raise FileFormatError(f"{source}: mesh has no vertices")
    if f.ndim != 2 or f.shape[1] != 3 or not len(f):
        raise FileFormatError(f"{source}: mesh has no triangles")
    if not np.issubdtype(f.dtype, np.integer):
        raise FileFormatError(f"{source}: mesh face indices are not integers")
    f = f.astype(np.int64, copy=False)
    bad = (f < 0) | (f >= len(v))
    if bad.any():
        k = int(np.argmax(bad.any(axis=1)))
        index = int(f[k][bad[k]][0])
        raise FileFormatError(f"{source}: mesh face {k} names vertex {index}; the mesh has {len(v)} vertices "
                              f"(0 to {len(v) - 1})")
    finite = np.isfinite(v).all(axis=1)
    if not finite.all():
        k = int(np.argmin(finite))
        raise FileFormatError(f"{source}: mesh vertex {k} is not finite ({', '.join(map(str, v[k]))})")
    # STL repeats each corner per triangle: weld equal corners (so a triangle repeated is seen
    # as such, and each corner is shaded once), then drop triangles collapsed or repeated (either
    # winding): a million copies of a box defeated decimation and cost a gigabyte for 12 triangles
    v, _, inverse = unique_rows(v)
    v = v.astype(np.float64, copy=False)
    f = inverse[f]
    f = f[(f[:, 0] != f[:, 1]) & (f[:, 1] != f[:, 2]) & (f[:, 0] != f[:, 2])]
    if not len(f):
        raise FileFormatError(f"{source}: mesh has no triangles (all of them collapsed to a line or a point)")
    _, first, _ = unique_rows(np.sort(f, axis=1))
    if len(first) < len(f):
        f = f[np.sort(first)]
    if len(f) > MAX_MESH_TRIANGLES:
        raise FileFormatError(f"{source}: mesh has {len(f):,} triangles; a mesh may have at most "
                              f"{MAX_MESH_TRIANGLES:,}")
    v = np.ascontiguousarray(v)
    f = np.ascontiguousarray(f)
    v.flags.writeable = f.flags.writeable = False
    return MeshArrays(v, f)


_STL_ROW = np.dtype([("normal", "<f4", 3), ("corners", "<f4", (3, 3)), ("attr", "<u2")])


def _binary_stl(data: bytes) -> tuple[np.ndarray, np.ndarray] | None:
    """A binary STL's corners (float32, read in place) and triangles, or ``None`` if ``data``
    is not one (ASCII STL is left to trimesh). Through trimesh, a million triangles took
    ~600 MB beyond the file (float64 copies, a scene turned into a mesh)."""
    if len(data) < 84:
        return None
    n = int.from_bytes(data[80:84], "little")
    if len(data) != 84 + 50 * n or (data[:5].lower() == b"solid" and b"facet" in data[:1000]):
        return None
    corners = np.frombuffer(data, dtype=_STL_ROW, count=n, offset=84)["corners"].reshape(-1, 3)
    return corners, np.arange(3 * n, dtype=np.int64).reshape(-1, 3)


def _parse(path: str) -> MeshArrays:
    data = read_regular_file(path, MAX_MESH_BYTES, "mesh file")
    kind = _suffix(path)
    if kind == "stl" and (stl := _binary_stl(data)) is not None:
        return validate_mesh(*stl, path)
    import trimesh  # only here: its import takes 1.5-5 s, a binary STL does without it

    if kind != "stl":
        for magic, what in _COMPRESSED:
            if data.startswith(magic):
                raise FileFormatError(f"{path}: {what}-compressed data; KineTree reads uncompressed mesh files only")
    extra = {"skip_materials": True} if kind in ("obj", "gltf", "glb") else {}  # colours come from the robot
    try:
        mesh = trimesh.load(io.BytesIO(data), file_type=kind, force="mesh", process=False,
                            resolver=_resolver(path, _Budget(MAX_MESH_BYTES), buffers=kind == "gltf"), **extra)
    except FileFormatError:
        raise
    except MemoryError:
        raise FileFormatError(f"{path}: mesh too large for the memory left") from None
    except Exception as exc:  # noqa: BLE001 - trimesh and its parsers raise any kind on malformed data
        raise FileFormatError(f"{path}: cannot read mesh ({type(exc).__name__}: {str(exc)[:200]})") from None
    del data
    return validate_mesh(getattr(mesh, "vertices", np.empty((0, 3))), getattr(mesh, "faces", np.empty((0, 3))),
                         path)


_CACHE: OrderedDict[tuple, MeshArrays | FileFormatError] = OrderedDict()
_CACHE_BYTES = 256 * 2**20  # arrays kept: the viewport and the collision check read the same files
_LOCK = threading.Lock()


def _nbytes(item: MeshArrays | FileFormatError) -> int:
    return item.vertices.nbytes + item.faces.nbytes if isinstance(item, MeshArrays) else 0


def read_mesh(path: str | os.PathLike) -> MeshArrays:
    """The vertices and triangles of the mesh file at the absolute ``path`` (see the module's
    rules), cached by path, size and modification time (safe from any thread). Raises
    :class:`FileFormatError` naming the file and the problem."""
    path = os.fspath(path)
    st = check_mesh_file(path)
    key = (path, st.st_size, st.st_mtime_ns, MAX_MESH_BYTES, MAX_MESH_TRIANGLES)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
    if hit is None:
        try:
            hit = _parse(path)
        except FileFormatError as exc:
            hit = exc
        with _LOCK:
            _CACHE[key] = hit
            while len(_CACHE) > 1 and (len(_CACHE) > 512 or sum(map(_nbytes, _CACHE.values())) > _CACHE_BYTES):
                _CACHE.popitem(last=False)
    if isinstance(hit, FileFormatError):
        raise FileFormatError(str(hit))
    return hit
