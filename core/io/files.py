"""One entry point for robot files: :func:`import_robot` and :func:`export_robot` choose the
format from the file name.

=====================  ========================  =========================
extension              read                      write
=====================  ========================  =========================
``.urdf``              URDF (yourdfpy)           URDF
``.xacro``             xacro → URDF (own)       —
``.sdf``               SDFormat 1.5–1.11         SDFormat 1.9
``.kinetree.json``,    KineTree project          KineTree project
``.json``
``.csv``, ``.tsv``     DH table (serial chain)   DH table of the chain to ``tip``
``.xml``, ``.mjcf``    MJCF (MuJoCo's compiler)  MJCF
=====================  ========================  =========================

An ``.xml`` file is read as MJCF when its root element is ``<mujoco>`` and as URDF when it is
``<robot>``.

A DH table file carries, besides the rows, the fixed ``base`` (robot base → DH frame 0) and
``tool`` (last DH frame → tip body) transforms (see :mod:`kinetree.core.io.dh_csv`), so the tip
pose survives any round trip: reading one gives a fixed body ``dh_base`` before the rows when
base ≠ I and a fixed tool body (the original tip's name, else ``tool``) after them when tool ≠ I.
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..dh.chain import chain_dh_table
from ..dh.extract import extract_dh
from ..disk.safe_io import check_regular_file
from ..errors import DroppedOnExportWarning, FileFormatError, KineTreeError  # noqa: F401 - imported from here
from ..kinematics.loops import refuse_loops
from ..lazy import LazyImports
from ..tree import RigidBodyTree, unique_name
from .dh_csv import DEFAULT_LIMITS, DHTable, read_dh_csv, write_dh_csv

#: the readers and writers of the other formats, imported when a file of theirs is first read or
#: written (see kinetree.core.lazy): MJCF's reader loads MuJoCo, the XML ones lxml and their checks
_FORMATS = LazyImports(__name__, {
    "import_mjcf": ".mjcf:import_mjcf", "export_mjcf": ".mjcf:export_mjcf",
    "import_urdf": ".urdf.read:import_urdf", "export_urdf": ".urdf.write:export_urdf",
    "import_sdf": ".sdf:import_sdf", "export_sdf": ".sdf:export_sdf",
    "load_project": ".project:load_project", "save_project": ".project:save_project",
})

READ_SUFFIXES = (".urdf", ".xacro", ".sdf", ".kinetree.json", ".json", ".csv", ".tsv", ".xml", ".mjcf")
WRITE_SUFFIXES = (".urdf", ".sdf", ".kinetree.json", ".json", ".csv", ".tsv", ".xml", ".mjcf")

_ROOT_TAG = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def xml_root_tag(path: str | os.PathLike) -> str | None:
    """The name of the root element of the XML file ``path`` (from its first 64 KB, after the
    declaration and comments), or ``None`` when it cannot be told."""
    try:  # non-blocking and checked on the open descriptor: a FIFO swapped in must not hang us
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            head = f.read(65536)
        except OSError:
            return None
    head = re.sub(rb"<!--.*?-->", b"", re.sub(rb"<\?.*?\?>", b"", head, flags=re.S), flags=re.S)
    m = _ROOT_TAG.search(head)
    return m.group(1).decode("ascii", "replace") if m else None


def file_kind(path: str | os.PathLike, *, reading: bool = False) -> str:
    """``"urdf"``, ``"xacro"``, ``"sdf"``, ``"project"``, ``"dh_csv"`` or ``"mjcf"`` from the file name; an
    ``.xml`` file being read (``reading``) is URDF when its root element is ``<robot>``."""
    name = Path(path).name.lower()
    if name.endswith(".sdf"):
        return "sdf"
    if name.endswith(".mjcf"):
        return "mjcf"
    if name.endswith(".xml"):
        if reading and os.path.isfile(path):
            root = xml_root_tag(path)
            if root == "robot":
                return "urdf"
            if root not in ("mujoco", None):
                raise FileFormatError(f"{Path(path).name}: the root element is <{root:.40}>; KineTree reads an .xml "
                                      "file whose root is <mujoco> (MJCF) or <robot> (URDF)")
        return "mjcf"
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


def import_robot(path: str | os.PathLike, *, package_paths: tuple[str, ...] = (),
                 on_warning: Callable[[str], None] | None = None, allow_env: bool = False) -> RigidBodyTree:
    """Read a robot from a URDF, xacro, SDFormat, MJCF, project or DH-table CSV file.

    Errors are :class:`~kinetree.core.errors.FileFormatError` (or another
    :class:`~kinetree.core.errors.KineTreeError`) naming the file; nothing is half-loaded.
    Only regular files (or symlinks to them) are read: FIFOs, devices, sockets and folders are
    refused before opening.
    ``package_paths`` are extra folders searched for ``package://`` mesh URIs; warnings (a
    missing mesh …) go to ``on_warning`` when given, else to :func:`warnings.warn`. A xacro may
    read environment variables (``$(env X)``) only with ``allow_env=True``.
    """
    check_regular_file(path)  # each reader checks again as it opens; this gives the message early
    kind = file_kind(path, reading=True)
    if kind == "mjcf":
        return _FORMATS.import_mjcf(path, on_warning=on_warning)
    if kind in ("urdf", "xacro"):
        return _FORMATS.import_urdf(path, package_paths=package_paths, on_warning=on_warning, allow_env=allow_env)
    if kind == "sdf":
        return _FORMATS.import_sdf(path, on_warning=on_warning)
    if kind == "project":
        return _FORMATS.load_project(path, package_paths=package_paths, on_warning=on_warning)[0]
    table = read_dh_csv(path)
    try:
        return table.to_tree()
    except KineTreeError as exc:
        raise FileFormatError(f"{Path(path).name}: {exc}") from None


def export_robot(tree: RigidBodyTree, path: str | os.PathLike, *, tip: str | None = None,
                 convention: str | None = None, units: str = "deg",
                 configuration: np.ndarray | None = None) -> int:
    """Write ``tree`` to a URDF, SDFormat, MJCF, project or DH-table CSV file (atomically); return how many
    bodies the file holds (as reading it back gives: a CSV holds one chain).

    A project also holds ``configuration`` (when given) and the named poses; a URDF or CSV
    cannot: their named poses are dropped with a :class:`DroppedOnExportWarning` saying how
    many.

    A CSV holds the serial chain from the base to ``tip`` (default: the end effector) as
    :func:`dh_table_of` gives it — rows plus the fixed base and tool transforms and the tip's
    name; a chain that is not DH-expressible raises an error naming the joint.

    Every writer refuses (with a :class:`~kinetree.core.errors.KineTreeError` naming the body,
    joint, row or field) what its reader would refuse, so whatever is written reads back: more
    than :data:`~kinetree.core.disk.safe_io.MAX_BODIES` bodies, a file over the reader's byte
    limit, a URDF inertial that is not a physical inertia, a DH table without rows (a chain
    with no moving joint) or with a value out of the reader's bounds.
    """
    if not Path(path).name.lower().endswith(WRITE_SUFFIXES + (".xacro",)):
        raise FileFormatError(f"{Path(path).name}: unknown file type; KineTree writes {', '.join(WRITE_SUFFIXES)}")
    kind = file_kind(path)
    if kind == "xacro":
        raise FileFormatError(f"{Path(path).name}: KineTree reads xacro but writes plain URDF; use .urdf")
    if kind == "project":
        _FORMATS.save_project(tree, path, configuration)
        return tree.num_bodies
    if kind == "urdf":
        _FORMATS.export_urdf(tree, path)
        count = _urdf_bodies(path)
    elif kind == "sdf":
        _FORMATS.export_sdf(tree, path)
        count = tree.num_bodies
    elif kind == "mjcf":
        count = _FORMATS.export_mjcf(tree, path)
    else:
        refuse_loops(tree, "a DH table (CSV)")
        table = dh_table_of(tree, tip, convention)
        write_dh_csv(path, table, units=units)
        count = table.num_bodies  # rows, and the base and tool bodies reading adds
    poses = list(tree.named_poses)
    if poses:
        shown = ", ".join(map(repr, poses[:5])) + (", …" if len(poses) > 5 else "")
        fmt = {"urdf": "a URDF", "sdf": "an SDFormat", "mjcf": "an MJCF"}.get(kind, "a DH table")
        warnings.warn(f"{Path(path).name}: {len(poses)} named pose{'s' if len(poses) > 1 else ''} not written "
                      f"({shown}): {fmt} file cannot hold named poses; a project (.kinetree.json) keeps them",
                      DroppedOnExportWarning, stacklevel=2)
    return count


def _urdf_bodies(path: str | os.PathLike) -> int:
    """The bodies a URDF file gives: its links but the root (a frame link the writer adds for a
    joint's child transform is one)."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True)  # our own output
    return len(etree.parse(str(path), parser).getroot().findall("link")) - 1


def dh_table_of(tree: RigidBodyTree, tip: str | None = None, convention: str | None = None) -> DHTable:
    """The :class:`~kinetree.core.io.dh_csv.DHTable` of the chain base → ``tip`` (default: the
    last body), with ``tip pose = base · A_1(q_1) ⋯ A_n(q_n) · tool``.

    The stored DH rows when every moving body on the path was built from a DH row in
    ``convention`` (or any one convention, when ``None``), between at most one fixed body
    first (its transform is ``base``) and one fixed body last (``tool``, ``tool_name`` its
    name): the shape :meth:`DHTable.to_tree` builds, so a table read and written back keeps
    its rows, base and tool. Limits equal to the reader's defaults (±180° for R, ±0.5 m for P)
    are left empty, as an empty cell reads back as them. Otherwise the table computed from the
    geometry (:func:`kinetree.core.dh.extract.extract_dh`, in ``convention``, default
    standard), with its ``base`` and ``tool`` transforms and ``tool_name`` the body that
    :meth:`DHTable.to_tree` must create to stand for the tip (the tip's own name unless a
    row already uses it)."""
    stored = _stored_table(tree, tip, convention)
    if stored is not None:
        return stored
    ext = extract_dh(tree, tip, convention or "dh")
    eye = np.eye(4)
    return DHTable(ext.links, ext.convention, None if np.array_equal(ext.base, eye) else ext.base,
                   None if np.array_equal(ext.tool, eye) else ext.tool, ext.tip_name)


def _stored_table(tree: RigidBodyTree, tip: str | None, convention: str | None) -> DHTable | None:
    """The table of the stored DH rows on the path to ``tip`` (see :func:`dh_table_of`), or
    ``None`` when the path is not [fixed body] + DH rows in one convention + [fixed body]."""
    from dataclasses import replace

    entries = chain_dh_table(tree, tip)

    def fixed(k: int) -> np.ndarray | None:  # the fixed transform of entry k, None when not fixed
        if not entries or entries[k].link is not None:
            return None
        j = tree.get_body(entries[k].body).joint
        return j.transform() if j.type == "fixed" else None

    base = fixed(0)
    first = 0 if base is None else 1
    tool = fixed(-1) if len(entries) > first + 1 else None
    rows = entries[first:len(entries) - (tool is not None)]
    conventions = {e.convention for e in rows}
    if not rows or any(e.link is None for e in rows) or len(conventions) != 1:
        return None
    if any(tree.get_body(e.body).joint.mimic is not None for e in rows):
        return None  # a table has no place for a mimic: extract_dh refuses it, saying so
    if convention not in (None, *conventions):
        return None
    eye = np.eye(4)
    links = [replace(e.link, qlim=None) if e.link.qlim == DEFAULT_LIMITS[e.link.joint] else e.link for e in rows]
    base = None if base is None or np.array_equal(base, eye) else base
    tool_name = "" if tool is None else entries[-1].body
    tool = None if tool is None or np.array_equal(tool, eye) else tool
    taken = {tree.base_name, *(e.body for e in entries[:-1])}
    if tool is not None and tool_name == unique_name("tool", taken):  # the name reading gives a nameless tool
        tool_name = ""
    return DHTable(links, rows[0].convention, base, tool, tool_name)


def open_robot(source: str | os.PathLike, *, on_warning: Callable[[str], None] | None = None,
               allow_env: bool = False, package_paths: tuple[str, ...] = ()):
    """``(tree, configuration or None)`` from a file of any readable kind or a library name.

    A string that names no existing file and has no robot-file extension is looked up in the
    library (:func:`kinetree.core.load_robot`). ``on_warning``, ``allow_env`` and
    ``package_paths`` as for :func:`import_robot`.
    """
    p = Path(source)
    if p.is_file() or p.name.lower().endswith(READ_SUFFIXES):
        if file_kind(p) == "project":
            return _FORMATS.load_project(p, package_paths=package_paths, on_warning=on_warning)
        return import_robot(p, on_warning=on_warning, allow_env=allow_env, package_paths=package_paths), None
    from ..library import load_robot

    return load_robot(str(source)), None
