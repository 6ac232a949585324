"""What the URDF reader shares with the writer, the project reader and the xacro expander (all
of which :mod:`.read` imports, so they import this module instead): the size limit, bounded XML
parsing, mesh URIs, colours and inertials as a URDF gives them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote

import numpy as np
from lxml import etree

from ...disk.safe_io import _kind, read_regular_file, xml_root
from ...errors import FileFormatError

#: Files (and strings) larger than this are refused before parsing.
MAX_BYTES = 50 * 1024 * 1024
_DEFAULT_COLOR = (0.7, 0.7, 0.75, 1.0)


# =============================================================================================
# mesh URIs
# =============================================================================================

def _package_candidates(folder: Path, pkg: str, sub: str) -> Iterable[Path]:
    if folder.name == pkg:
        yield folder / sub
    yield folder / pkg / sub


def resolve_mesh_uri(uri: str, urdf_dir: str | os.PathLike | None,
                     package_paths: Sequence[str | os.PathLike] = ()) -> str | None:
    """The absolute path of the file a URDF mesh URI names, or ``None`` if there is none.

    ``package://pkg/sub/file`` is looked for, in this order, in the URDF's folder and its
    ancestors (a folder named ``pkg``, or a folder holding ``pkg/``), then in ``package_paths``
    and then in ``$ROS_PACKAGE_PATH`` (each entry being the package itself or a folder holding
    it). ``file://`` URIs and plain paths are taken relative to ``urdf_dir`` unless absolute.
    Other schemes (``http://`` …) are not resolved. Nothing is read, only tested for existence.
    A URI the system cannot look up (``~nosuchuser/…``, a name too long, a NUL byte) is ``None``.
    """
    try:
        return _resolve_mesh_uri(uri, urdf_dir, package_paths)
    except (OSError, RuntimeError, ValueError):
        return None


def _mesh_candidates(uri: str, urdf_dir: str | os.PathLike | None,
                     package_paths: Sequence[str | os.PathLike]) -> Iterable[Path]:
    """The paths a mesh URI may name, in the order they are looked for."""
    if not isinstance(uri, str) or not uri:
        return
    base = Path(urdf_dir).absolute() if urdf_dir is not None else None
    if uri.startswith("package://"):
        # "package:///pkg/…" (an empty host, as some generators write) means the same as "package://pkg/…"
        pkg, _, sub = uri[len("package://"):].lstrip("/").partition("/")
        sub = unquote(sub)
        if not pkg or not sub:
            return
        roots: list[Path] = []
        if base is not None:
            roots += [base, *base.parents]
        roots += [Path(p).absolute() for p in package_paths]
        roots += [Path(p).absolute() for p in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
        for root in roots:
            yield from _package_candidates(root, pkg, sub)
        return
    if uri.startswith("file://"):
        path = unquote(uri[len("file://"):])
        if path.startswith("localhost/"):
            path = path[len("localhost"):]
    elif "://" in uri:
        return
    else:
        path = uri
    p = Path(path).expanduser()
    if not p.is_absolute():
        if base is None:
            return
        p = base / p
    yield p


def _resolve_mesh_uri(uri: str, urdf_dir: str | os.PathLike | None,
                      package_paths: Sequence[str | os.PathLike]) -> str | None:
    for cand in _mesh_candidates(uri, urdf_dir, package_paths):
        if cand.is_file():
            return str(cand.resolve())
    return None


def mesh_not_found_reason(uri: str, urdf_dir: str | os.PathLike | None,
                          package_paths: Sequence[str | os.PathLike] = ()) -> str:
    """Why :func:`resolve_mesh_uri` found no file: ``"not found"``, or what the first path it
    looked at that exists is instead (``"is a folder"``, ``"is a FIFO (named pipe), not a
    regular file"`` …)."""
    try:
        for cand in _mesh_candidates(uri, urdf_dir, package_paths):
            if os.path.lexists(cand):
                try:
                    mode = os.stat(cand).st_mode
                except OSError as exc:  # a dangling link, a folder we may not enter …
                    return f"not found ({exc.strerror or exc})"
                return f"is {_kind(mode)}, not a regular file"
    except (OSError, RuntimeError, ValueError):
        pass
    return "not found"


# =============================================================================================
# reading and checking the XML
# =============================================================================================

class _Ctx:
    """Where we are, for error messages: ``source:line: element: message``."""

    def __init__(self, source: str) -> None:
        self.source = source

    def error(self, el, what: str, msg: str) -> FileFormatError:
        line = el if isinstance(el, int) else getattr(el, "sourceline", None)
        where = f"{self.source}:{line}" if line else self.source
        return FileFormatError(f"{where}: {what}: {msg}" if what else f"{where}: {msg}")


def _line_of(data: bytes, index: int) -> int:
    return data.count(b"\n", 0, index) + 1


#: ``<?xml version="…"`` at the very start (after a UTF-8 BOM): libxml2 refuses versions other
#: than 1.x, but files shipped with simulators say ``version="0.0"`` and ROS's parser (TinyXML)
#: and Pinocchio read them, so any number is read as 1.0.
_XML_DECL_VERSION = re.compile(rb"""^(\xef\xbb\xbf)?<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])"""
                               rb"""([0-9]+(?:\.[0-9]+)*)\2""")


def _any_xml_version(data: bytes) -> bytes:
    m = _XML_DECL_VERSION.match(data)
    if m is None or m.group(3) in (b"1.0", b"1.1"):
        return data
    return data[:m.start(3)] + b"1.0" + data[m.end(3):]


def _parse_xml(data: bytes, ctx: _Ctx) -> etree._Element:
    """Parse with a parser that resolves nothing and refuses any DTD (an XML declaration may
    give any version number)."""
    if len(data) > MAX_BYTES:
        raise FileFormatError(f"{ctx.source}: {len(data) / 2**20:.0f} MB is more than the "
                              f"{MAX_BYTES // 2**20} MB a URDF may have")
    data = _any_xml_version(data)
    scan = data
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in data[:4]:  # UTF-16/32: scan the text
        for enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-32"):
            try:
                scan = data.decode(enc).encode("utf-8")
                break
            except UnicodeDecodeError:
                continue
    for token in (b"<!DOCTYPE", b"<!ENTITY"):
        i = scan.find(token)
        if i >= 0:
            raise ctx.error(_line_of(scan, i), token.decode()[2:].lower(),
                            "DTD and entity declarations are not allowed in a URDF")
    return xml_root(data, ctx.error, "a URDF")


def _read(path: Path) -> bytes:
    # regular files only (a FIFO would block, /dev/zero never ends), at most MAX_BYTES
    return read_regular_file(path, MAX_BYTES, "URDF")


def _inertia_about_origin(inertial) -> tuple[float, np.ndarray, np.ndarray]:
    m = float(inertial.mass or 0.0)
    T = inertial.origin if inertial.origin is not None else np.eye(4)
    R, c = T[:3, :3], T[:3, 3]
    Ic = np.asarray(inertial.inertia, dtype=float) if inertial.inertia is not None else np.zeros((3, 3))
    I = R @ Ic @ R.T + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    return m, c.copy(), np.array([I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]])


def _rgba(v) -> tuple[float, ...]:
    c = [min(1.0, max(0.0, float(x))) for x in v]
    return tuple(c + [1.0] * (4 - len(c)))
