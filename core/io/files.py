"""One entry point for robot files: :func:`import_robot` and :func:`export_robot` choose the
format from the file name.

=====================  ========================  =========================
extension              read                      write
=====================  ========================  =========================
``.urdf``              URDF (yourdfpy)           URDF
``.xacro``             xacro → URDF (xacrodoc)   —
``.kinetree.json``,    KineTree project          KineTree project
``.json``
``.csv``, ``.tsv``     DH table (serial chain)   DH table of the chain to ``tip``
=====================  ========================  =========================
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import FileFormatError, KineTreeError
from ..tree import RigidBodyTree

READ_SUFFIXES = (".urdf", ".xacro", ".kinetree.json", ".json", ".csv", ".tsv")
WRITE_SUFFIXES = (".urdf", ".kinetree.json", ".json", ".csv", ".tsv")


def file_kind(path: str | os.PathLike) -> str:
    """``"urdf"``, ``"xacro"``, ``"project"`` or ``"dh_csv"`` from the file name."""
    name = Path(path).name.lower()
    if name.endswith(".xacro"):
        return "xacro"
    if name.endswith(".urdf"):
        return "urdf"
    if name.endswith(".json"):
        return "project"
    if name.endswith((".csv", ".tsv")):
        return "dh_csv"
    raise FileFormatError(
        f"{Path(path).name}: unknown file type; KineTree reads {', '.join(READ_SUFFIXES)}"
    )


def import_robot(path: str | os.PathLike, *, package_paths: tuple[str, ...] = ()) -> RigidBodyTree:
    """Read a robot from a URDF, xacro, project or DH-table CSV file.

    Errors are :class:`~kinetree.core.errors.FileFormatError` (or another
    :class:`~kinetree.core.errors.KineTreeError`) naming the file; nothing is half-loaded.
    ``package_paths`` are extra folders searched for ``package://`` mesh URIs.
    """
    kind = file_kind(path)
    if not Path(path).is_file():
        raise FileFormatError(f"{path}: no such file")
    if kind in ("urdf", "xacro"):
        from .urdf import import_urdf

        return import_urdf(path, package_paths=package_paths)
    if kind == "project":
        from .project import load_project

        return load_project(path)[0]
    from ..dh import dh_chain
    from .dh_csv import read_dh_csv

    table = read_dh_csv(path)
    try:
        return dh_chain(table.links, table.convention)
    except KineTreeError as exc:
        raise FileFormatError(f"{Path(path).name}: {exc}") from None


def export_robot(tree: RigidBodyTree, path: str | os.PathLike, *, tip: str | None = None,
                 convention: str | None = None, units: str = "deg") -> None:
    """Write ``tree`` to a URDF, project or DH-table CSV file (atomically).

    A CSV holds the serial chain from the base to ``tip`` (default: the end effector): the DH
    rows stored on its joints when every joint has one, else the table computed from the
    geometry (:func:`kinetree.core.dh_extract.extract_dh`, in ``convention``, default standard);
    a chain that is not DH-expressible raises an error naming the joint.
    """
    kind = file_kind(path)
    if kind == "xacro":
        raise FileFormatError(f"{Path(path).name}: KineTree reads xacro but writes plain URDF; use .urdf")
    if kind == "urdf":
        from .urdf import export_urdf

        export_urdf(tree, path)
    elif kind == "project":
        from .project import save_project

        save_project(tree, path)
    else:
        from .dh_csv import write_dh_csv

        links, conv = dh_table_of(tree, tip, convention)
        write_dh_csv(path, links, convention=conv, units=units)


def dh_table_of(tree: RigidBodyTree, tip: str | None = None, convention: str | None = None):
    """``(links, convention)`` of the chain to ``tip``: the stored DH rows when the chain was
    built from a DH table in ``convention`` (or any, when ``None``), otherwise extracted from
    the geometry."""
    from ..dh import chain_dh_table

    entries = chain_dh_table(tree, tip)
    conventions = {e.convention for e in entries}
    stored = entries and all(e.link is not None for e in entries) and len(conventions) == 1
    if stored and convention in (None, *conventions):
        return [e.link for e in entries], entries[0].convention
    from ..dh_extract import extract_dh

    ext = extract_dh(tree, tip, convention or "dh")
    return ext.links, ext.convention


def open_robot(source: str | os.PathLike):
    """``(tree, configuration or None)`` from a file of any readable kind or a library name.

    A string that names no existing file and has no robot-file extension is looked up in the
    library (:func:`kinetree.core.load_robot`).
    """
    p = Path(source)
    if p.is_file() or p.name.lower().endswith(READ_SUFFIXES):
        if file_kind(p) == "project":
            from .project import load_project

            return load_project(p)
        return import_robot(p), None
    from ..library import load_robot

    return load_robot(str(source)), None
