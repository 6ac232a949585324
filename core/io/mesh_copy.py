"""Mesh files copied beside an exported robot file, so that the file loads anywhere and reads
back in KineTree (whose readers refuse files outside the model's folder tree). Shared by the
MJCF and SDFormat writers."""

from __future__ import annotations

import os
from pathlib import Path

from ..disk.mesh_reader import MAX_MESH_BYTES, read_mesh
from ..disk.safe_io import read_regular_file
from ..errors import FileFormatError


class MeshCopies:
    """The files copied into ``<output name>_assets/`` next to ``out`` (``None``: a string, not
    a file; nothing is copied). Each source is copied once; two of one name from different
    folders get ``_1``, ``_2`` … A file that cannot be copied is named in :attr:`dropped`."""

    def __init__(self, out: Path | None, dropped: list[str] | None = None) -> None:
        self.out = out
        self.copied: dict[str, str | None] = {}
        self.dropped: list[str] = [] if dropped is None else dropped  # the writer's own list, if it has one
        self._targets: set[str] = set()

    def rel(self, path: str) -> str:
        """``path`` as the output names it (relative to its folder, ``/``-separated)."""
        if self.out is None:
            return path
        return os.path.relpath(path, self.out.parent.absolute()).replace(os.sep, "/")

    def inside(self, path: str) -> bool:
        """Whether ``path`` is in the output's folder tree (where a reader looks)."""
        if self.out is None:
            return True
        try:
            return Path(path).resolve().is_relative_to(self.out.parent.resolve())
        except (OSError, RuntimeError):
            return False

    def copy(self, path: str, convert: bool = False) -> str | None:
        """The copy of ``path`` beside the output, as the output names it; ``convert``: written
        as STL through the project's mesh reader (a format the target cannot read). None when
        it cannot be read (said in :attr:`dropped`)."""
        if path in self.copied:
            return self.copied[path]
        assert self.out is not None
        folder = self.out.parent / f"{self.out.name.rsplit('.', 1)[0]}_assets"
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise FileFormatError(f"cannot write {folder}: {exc.strerror or exc}") from None
        stem = Path(path).stem
        target = folder / (stem + (".stl" if convert else Path(path).suffix.lower()))
        k = 1
        while str(target) in self._targets:  # two meshes of one name from different folders
            target = folder / f"{stem}_{k}{target.suffix}"
            k += 1
        try:
            if not convert:  # bounded, regular files only: the path came from a robot file
                target.write_bytes(read_regular_file(path, MAX_MESH_BYTES, "mesh file"))
            else:  # through the project's one mesh reader (bounded, no archives), as drawn
                import trimesh

                arrays = read_mesh(path)
                trimesh.Trimesh(arrays.vertices, arrays.faces, process=False).export(target)
        except (OSError, FileFormatError, ValueError) as exc:  # an unreadable mesh: the caller leaves it out
            self.dropped.append(f"mesh {path!r:.200}: {exc}")
            self.copied[path] = None
            return None
        self._targets.add(str(target))
        self.copied[path] = name = self.rel(str(target))
        return name
