"""What reading an SDFormat file and reading one of its models share: the message context, the
``<sdf version>``, numbers, poses, URIs and kept elements. Below :mod:`.read` and :mod:`.model`
(the reader calls the model reader, which reads numbers and URIs the same way)."""

from __future__ import annotations

import functools
import math
import os
import re
from pathlib import Path
from urllib.parse import unquote

import numpy as np

from ...errors import FileFormatError
from ...model.xml_fragment import fragment_text
from ...transforms import MAX_LENGTH, quat_to_rotation, rpy_to_matrix


class Ctx:
    """Where we are, for messages: ``file:line: element: message``."""

    def __init__(self, source: str, folder: Path | None) -> None:
        self.source = source
        self.folder = folder

    def where(self, el) -> str:
        line = el if isinstance(el, int) else getattr(el, "sourceline", None)
        return f"{self.source}:{line}" if line else self.source

    def error(self, el, what: str, msg: str) -> FileFormatError:
        return FileFormatError(f"{self.where(el)}: {what}: {msg}" if what else f"{self.where(el)}: {msg}")


def sdf_version(root, ctx: Ctx) -> tuple[int, int]:
    """The ``(major, minor)`` of the root ``<sdf version>``, refused unless 1.5 or later."""
    text = root.get("version")
    if text is None:
        raise ctx.error(root, "<sdf>", "has no version attribute")
    m = re.fullmatch(r"\s*(\d{1,3})\.(\d{1,3})\s*", text)
    if m is None:
        raise ctx.error(root, "<sdf>", f"version {text!r:.40} is not a number like 1.9")
    v = (int(m.group(1)), int(m.group(2)))
    if v < (1, 5):
        raise ctx.error(root, "<sdf>", f"version {text} is older than 1.5; KineTree reads SDFormat 1.5 to 1.11 "
                                       "(convert it with `gz sdf -p`)")
    return v


def floats(text: str | None, n: int, ctx: Ctx, el, what: str, bound: float = MAX_LENGTH) -> list[float]:
    """``n`` finite numbers of magnitude at most ``bound`` from ``text``."""
    parts = (text or "").split()
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        raise ctx.error(el, what, f"{(text or '').strip()!r:.80} is not {n} numbers") from None
    if len(vals) != n:
        raise ctx.error(el, what, f"{(text or '').strip()!r:.80} is not {n} numbers")
    for v in vals:
        if not math.isfinite(v) or abs(v) > bound:
            raise ctx.error(el, what, f"{v} is not a finite number of magnitude at most {bound:g}")
    return vals


def pose_matrix(el, ctx: Ctx, what: str) -> np.ndarray:
    """The 4×4 of a ``<pose>`` element (``x y z roll pitch yaw``, ``degrees``, or 7 numbers with
    ``rotation_format="quat_xyzw"``)."""
    T = np.eye(4)
    if el is None or not (el.text or "").strip():
        return T
    if el.get("rotation_format", "euler_rpy") == "quat_xyzw":
        v = floats(el.text, 7, ctx, el, f"{what} pose")
        q = np.array([v[6], v[3], v[4], v[5]])
        if np.linalg.norm(q) < 1e-9:
            raise ctx.error(el, f"{what} pose", "quaternion is zero")
        T[:3, :3] = quat_to_rotation(q / np.linalg.norm(q))
    else:
        v = floats(el.text, 6, ctx, el, f"{what} pose")
        rpy = np.radians(v[3:]) if el.get("degrees", "false").strip() in ("true", "1") else v[3:]
        T[:3, :3] = rpy_to_matrix(rpy)
    T[:3, 3] = v[:3]
    return T


@functools.lru_cache(maxsize=16)
def real_root(root: Path) -> Path:
    """The folder tree's real path, once per import (every mesh and include is checked against it)."""
    return Path(os.path.realpath(root))


def resolve_uri(uri: str, ctx: Ctx, root: Path | None, el, what: str, outside: list | None = None) -> Path | None:
    """The path a ``model://NAME/…``, ``file://`` or relative URI names, or ``None`` when
    nothing can be looked up (no folder). A path outside the model's folder tree (``root``,
    the folder holding the model's folder) is refused naming the file, line and element, or,
    with ``outside`` given, appended to it (and ``None`` returned)."""
    if ctx.folder is None or root is None:
        return None
    scheme = "model://" if uri.startswith("model://") else "package://" if uri.startswith("package://") else None
    if scheme is not None:  # package:// as Drake's and ROS's SDFormat files use it: the same folders
        name, _, sub = unquote(uri[len(scheme):]).lstrip("/").partition("/")
        if not name:
            raise ctx.error(el, what, f"URI {uri!r:.200} names no model")
        cands = ([ctx.folder / sub] if ctx.folder.name == name else []) + [root / name / sub]
        path = next((c for c in cands if c.exists()), cands[-1])
    elif uri.startswith("file://"):
        path = Path(unquote(uri[len("file://"):]))
    elif "://" in uri:
        if outside is not None:
            return None  # not looked up: a missing mesh
        raise ctx.error(el, what, f"URI {uri!r:.200}: only model://, package://, file:// and relative URIs are read")
    else:
        path = Path(unquote(uri))
    if not path.is_absolute():
        path = ctx.folder / path
    try:
        real, top = Path(os.path.realpath(path)), real_root(root)
    except (OSError, ValueError):
        raise ctx.error(el, what, f"URI {uri!r:.200} cannot be looked up") from None
    if not real.is_relative_to(top):
        if outside is not None:  # the caller warns and keeps it unread
            outside.append(real)
            return None
        raise ctx.error(el, what, f"URI {uri!r:.200} leads outside the model's folder tree {str(top)!r}; "
                                  "KineTree reads only files inside it")
    return real


def kept(el) -> str:
    """An element kept verbatim (see :mod:`kinetree.core.model.xml_fragment`)."""
    return fragment_text(el)
