"""URDF import and export.

Import (:func:`import_urdf`, :func:`urdf_from_string`)
    The file is read with a hardened lxml parser (no DTD, no entities, no network, size cap of
    :data:`MAX_BYTES`, at most :data:`MAX_LINKS` links), every element KineTree uses is
    validated with its line number, and the validated document is handed to yourdfpy's parser
    for the data model. ``.xacro`` files are
    expanded first by :func:`kinetree.core.io.xacro.expand_xacro`, which runs no code of the file
    (line numbers then refer to the expanded URDF). Nothing
    half-loads: the result is a whole :class:`RigidBodyTree` or a :class:`FileFormatError` whose
    message names the file, the line and the element, e.g.
    ``robot.urdf:12: joint 'elbow': origin xyz contains nan``.

    - The tree's base is the URDF's root link. Bodies come parents first; among the joints whose
      parent is already placed, the one earliest in the file comes next (so a file written
      parents-first keeps its order, and an exported tree re-imports in the same body order).
    - Joint types: ``revolute``, ``continuous`` (revolute with limits (−∞, ∞)), ``prismatic``,
      ``fixed``, ``floating`` and ``planar``. ``<origin>`` becomes JointToParent; the axis is
      normalised (a zero or non-finite axis is an error). A planar joint whose axis is not z
      gets JointToParent = origin·R and ChildToJoint = Rᵀ, R the shortest rotation taking z onto
      the axis, so that the child frame is still the URDF joint frame.
    - Limits: ``lower > upper`` or non-finite bounds are errors. A revolute or prismatic joint
      without ``<limit>`` (required by the URDF spec) is accepted with KineTree's defaults
      ([−π, π], [−0.5, 0.5] m) and a :class:`UrdfWarning`; missing ``lower``/``upper``
      attributes default to 0, as in the spec. The home position is 0 clipped into the limits.
    - ``<mimic>`` becomes :class:`~kinetree.core.joint.Mimic` (the follower then has no position
      of its own). Chains of mimics are flattened onto the first joint that has a position.
    - ``<inertial>``: the URDF tensor is about the centre of mass in the inertial frame; it is
      rotated into the link frame and moved to the link origin (parallel axes), as KineTree
      stores ``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame. A link without ``<inertial>``
      gets mass 0 and zero inertia.
    - ``<visual>``: box, cylinder, sphere and mesh (with ``scale``), with ``<origin>`` and the
      material colour (inline, or a named material defined at robot level or on another
      visual). Other geometry (capsule, …), visuals without geometry, non-positive sizes and
      zero mesh scales are left out with a :class:`UrdfWarning`; a negative mesh scale (a
      mirrored mesh) is kept. Collision
      elements, transmissions, dynamics and Gazebo tags are ignored.
    - Mesh files are never loaded; their URI is resolved with :func:`resolve_mesh_uri` and the
      absolute path stored in the visual. An unresolved URI is kept as written and reported
      with a :class:`MeshNotFoundWarning`. Warnings are issued only when the import succeeds.

Export (:func:`export_urdf`, :func:`urdf_string`)
    Each body becomes a link named after it (the base is the root link) and each joint a joint
    named after it, in body order; numbers are written with ``repr`` (shortest exact form), so
    a round trip reproduces every body pose to rounding (≈1e-15).

    - origin = JointToParent with Corke's offset folded in (``·Rot(axis, offset)`` for revolute,
      ``·Trans(offset·axis)`` for prismatic joints).
    - ChildToJoint (standard DH puts the link's fixed part there) cannot be written on a URDF
      joint, whose child link frame *is* the joint frame. KineTree keeps every body frame exact:
      fixed joints take ``origin = JointToParent·ChildToJoint``; prismatic joints take
      ``origin·ChildToJoint`` with the axis rotated into the child frame (a translation commutes
      with a rigid transform that way); revolute joints do the same when ChildToJoint's
      translation lies along the axis (then the rotation commutes). Otherwise (revolute DH rows
      with ``a ≠ 0``, floating and planar joints) one extra massless link
      ``<joint>_frame`` is inserted, carrying the joint frame, followed by a fixed joint
      ``<joint>_child_to_joint`` whose origin is ChildToJoint. Re-importing gives these as an
      extra body with a fixed joint; the poses of all original bodies are unchanged.
    - Continuous revolute joints (both limits infinite) → ``continuous``; one infinite bound
      also gives ``continuous`` with a :class:`UrdfWarning`. An infinite prismatic bound is
      written as ±1.7976931348623157e308 (read back as ±∞). Home positions are not part of
      URDF and are lost; ``effort`` and ``velocity`` (not modelled) are written as 0.
    - floating → ``floating``; planar → ``planar`` with axis z of the joint frame; spherical has
      no URDF equivalent and raises :class:`FileFormatError` naming the joint.
    - Mimic joints → ``<mimic joint multiplier offset>``.
    - Inertials: mass, origin at the centre of mass, inertia about the centre of mass (the
      inverse of the import conversion); omitted for massless bodies with zero inertia.
    - Visuals with an inline material ``<material name="kt_color_N"><color rgba/></material>``,
      one name per distinct colour. Mesh paths under the output folder are written relative
      to it (``../`` for its parent folder, as in the usual ``urdf/`` + ``meshes/`` layout),
      other absolute paths as ``file://`` URIs, ``package://`` URIs as they are.
"""

from __future__ import annotations

import heapq
import math
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote

import numpy as np
from lxml import etree

from ..body import RigidBody, Visual
from ..errors import FileFormatError, KineTreeError
from ..joint import Joint, Mimic
from ..transforms import axis_angle_rotation, matrix_to_rpy
from ..tree import RigidBodyTree, unique_name
from .safe_io import atomic_write_text, read_regular_file

__all__ = [
    "MAX_BYTES",
    "MAX_LINKS",
    "MeshNotFoundWarning",
    "UrdfWarning",
    "export_urdf",
    "import_urdf",
    "resolve_mesh_uri",
    "urdf_from_string",
    "urdf_string",
]

#: Files (and strings) larger than this are refused before parsing.
MAX_BYTES = 50 * 1024 * 1024
#: Robots with more links than this are refused (a 50 MB file could otherwise hold millions).
MAX_LINKS = 10_000

_DEFAULT_COLOR = (0.7, 0.7, 0.75, 1.0)
_URDF_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
_AXIS_TYPES = ("revolute", "continuous", "prismatic", "planar")
_GEOMETRIES = ("box", "cylinder", "sphere", "mesh")
_BIG = sys.float_info.max


class UrdfWarning(UserWarning):
    """Something in a URDF was left out or replaced by a default (the import still succeeds)."""


class MeshNotFoundWarning(UrdfWarning):
    """A mesh URI could not be resolved to a file; the visual keeps the URI as written."""


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
    """
    if not isinstance(uri, str) or not uri:
        return None
    base = Path(urdf_dir).absolute() if urdf_dir is not None else None
    if uri.startswith("package://"):
        # "package:///pkg/…" (an empty host, as some generators write) means the same as "package://pkg/…"
        pkg, _, sub = uri[len("package://"):].lstrip("/").partition("/")
        sub = unquote(sub)
        if not pkg or not sub:
            return None
        roots: list[Path] = []
        if base is not None:
            roots += [base, *base.parents]
        roots += [Path(p).absolute() for p in package_paths]
        roots += [Path(p).absolute() for p in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
        for root in roots:
            for cand in _package_candidates(root, pkg, sub):
                if cand.is_file():
                    return str(cand.resolve())
        return None
    if uri.startswith("file://"):
        path = unquote(uri[len("file://"):])
        if path.startswith("localhost/"):
            path = path[len("localhost"):]
    elif "://" in uri:
        return None
    else:
        path = uri
    p = Path(path).expanduser()
    if not p.is_absolute():
        if base is None:
            return None
        p = base / p
    return str(p.resolve()) if p.is_file() else None


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
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             dtd_validation=False, remove_comments=True, remove_pis=True, collect_ids=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or (exc.position[0] if exc.position else None)
        raise ctx.error(line or 0, "", f"malformed XML: {exc.msg}") from None
    except ValueError as exc:
        raise ctx.error(0, "", f"malformed XML: {exc}") from None
    info = root.getroottree().docinfo
    if info.internalDTD is not None or info.externalDTD is not None or info.doctype:
        raise ctx.error(0, "doctype", "DTD and entity declarations are not allowed in a URDF")
    return root


def _numbers(el, attr: str, counts: tuple[int, ...], ctx: _Ctx, what: str, default: str | None = None,
             commas: bool = False) -> np.ndarray | None:
    raw = el.get(attr, default)
    if raw is None:
        return None
    text = raw.replace(",", " ") if commas else raw
    try:
        v = np.array([float(t) for t in text.split()], dtype=float)
    except ValueError:
        raise ctx.error(el, what, f"{el.tag} {attr} {raw!r} is not a list of numbers") from None
    if v.size not in counts:
        n = " or ".join(map(str, counts))
        raise ctx.error(el, what, f"{el.tag} {attr} {raw!r} must be {n} number{'s' if counts != (1,) else ''}")
    bad = v[~np.isfinite(v)]
    if bad.size:
        raise ctx.error(el, what, f"{el.tag} {attr} contains {float(bad[0])!r}")
    return v


def _scalar(el, attr: str, ctx: _Ctx, what: str, default: str | None = None) -> float | None:
    v = _numbers(el, attr, (1,), ctx, what, default)
    return None if v is None else float(v[0])


def _check_origin(parent, ctx: _Ctx, what: str) -> None:
    o = parent.find("origin")
    if o is not None:
        _numbers(o, "xyz", (3,), ctx, what, "0 0 0")
        _numbers(o, "rpy", (3,), ctx, what, "0 0 0")


def _name(el, ctx: _Ctx, what: str) -> str:
    name = el.get("name")
    if name is None or not name.strip():
        raise ctx.error(el, what, f"<{el.tag}> needs a non-empty name attribute")
    return name


class _Checked:
    """What the validation pass found: names, lines and the structure of the tree."""

    def __init__(self) -> None:
        self.link_line: dict[str, int] = {}
        self.joint_line: dict[str, int] = {}
        self.order: list[str] = []  # joint names in body order
        self.root = ""
        self.warnings: list[tuple[type[Warning], str]] = []


def _check_visual(link: str, k: int, vis, ctx: _Ctx, out: _Checked) -> bool:
    """Validate one ``<visual>``; False if it is to be left out (with a warning)."""
    what = f"link {link!r} visual {k}"
    _check_origin(vis, ctx, what)
    mat = vis.find("material")
    if mat is not None:
        col = mat.find("color")
        if col is not None:
            _numbers(col, "rgba", (3, 4), ctx, what, "1 1 1 1")
    geo = vis.find("geometry")
    shapes = [c for c in geo if isinstance(c.tag, str)] if geo is not None else []

    def skip(why: str) -> bool:
        out.warnings.append((UrdfWarning, f"{ctx.source}:{vis.sourceline}: {what}: {why}; visual left out"))
        return False

    if not shapes:
        return skip("no geometry")
    g = shapes[0]
    if g.tag not in _GEOMETRIES:
        return skip(f"geometry <{g.tag}> is not supported (only box, cylinder, sphere, mesh)")
    if g.tag == "box":
        size = _numbers(g, "size", (3,), ctx, what, commas=True)
        if size is None:
            raise ctx.error(g, what, "box needs a size attribute")
    elif g.tag == "cylinder":
        r, length = _scalar(g, "radius", ctx, what), _scalar(g, "length", ctx, what)
        if r is None or length is None:
            raise ctx.error(g, what, "cylinder needs radius and length attributes")
        size = np.array([r, length])
    elif g.tag == "sphere":
        r = _scalar(g, "radius", ctx, what)
        if r is None:
            raise ctx.error(g, what, "sphere needs a radius attribute")
        size = np.array([r])
    else:
        if not (g.get("filename") or "").strip():
            return skip("mesh without filename")
        size = _numbers(g, "scale", (1, 3), ctx, what, "1 1 1", commas=True)
        if np.any(size == 0):
            return skip(f"mesh scale {size.tolist()} has a zero")
        return True  # a negative scale mirrors the mesh (left/right limbs share one file)
    if np.any(size <= 0):
        return skip(f"{g.tag} size {size.tolist()} is not positive")
    return True


def _check_link(el, ctx: _Ctx, out: _Checked) -> None:
    name = _name(el, ctx, "link")
    if name in out.link_line:
        raise ctx.error(el, f"link {name!r}", f"duplicate link name (first defined on line {out.link_line[name]})")
    out.link_line[name] = el.sourceline or 0
    what = f"link {name!r}"
    inertial = el.find("inertial")
    if inertial is not None:
        _check_origin(inertial, ctx, what + " inertial")
        m = inertial.find("mass")
        if m is not None:
            mass = _scalar(m, "value", ctx, what, "0")
            if mass < 0:
                raise ctx.error(m, what, f"mass {mass!r} is negative")
        i = inertial.find("inertia")
        if i is not None:
            for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"):
                _scalar(i, a, ctx, what, "0")
                i.set(a, i.get(a, "0"))  # yourdfpy would default a missing moment to 1
    for c in el.findall("collision"):  # KineTree has no collision model; yourdfpy need not see them
        el.remove(c)
    for k, vis in enumerate(el.findall("visual")):
        if not _check_visual(name, k, vis, ctx, out):
            el.remove(vis)


def _check_joint(el, ctx: _Ctx, out: _Checked) -> tuple[str, str, str]:
    name = _name(el, ctx, "joint")
    what = f"joint {name!r}"
    if name in out.joint_line:
        raise ctx.error(el, what, f"duplicate joint name (first defined on line {out.joint_line[name]})")
    out.joint_line[name] = el.sourceline or 0
    jtype = el.get("type")
    if jtype not in _URDF_TYPES:
        raise ctx.error(el, what, f"joint type {jtype!r} is not one of {', '.join(_URDF_TYPES)}")
    ends = []
    for tag in ("parent", "child"):
        e = el.find(tag)
        if e is None or not (e.get("link") or "").strip():
            raise ctx.error(e if e is not None else el, what, f"missing <{tag} link=\"...\"/>")
        ends.append(e.get("link"))
    _check_origin(el, ctx, what)
    ax = el.find("axis")
    if ax is not None:
        v = _numbers(ax, "xyz", (3,), ctx, what, "1 0 0")
        if jtype in _AXIS_TYPES and float(np.linalg.norm(v)) < 1e-12:
            raise ctx.error(ax, what, f"axis {v.tolist()} is zero")
    lim = el.find("limit")
    if lim is not None:
        vals = {a: _scalar(lim, a, ctx, what) for a in ("lower", "upper")}
        for a in ("effort", "velocity"):  # not modelled, but yourdfpy reads them as numbers
            raw = lim.get(a)
            try:
                float(raw if raw is not None else 0)
            except ValueError:
                raise ctx.error(lim, what, f"limit {a} {raw!r} is not a number") from None
        lo, hi = vals["lower"] or 0.0, vals["upper"] or 0.0
        if jtype in ("revolute", "prismatic") and lo > hi:
            raise ctx.error(lim, what, f"limits out of order: lower {lo!r} > upper {hi!r}")
    mim = el.find("mimic")
    if mim is not None:
        if not (mim.get("joint") or "").strip():
            raise ctx.error(mim, what, "<mimic> needs a joint attribute")
        _scalar(mim, "multiplier", ctx, what)
        _scalar(mim, "offset", ctx, what)
        if jtype not in ("revolute", "continuous", "prismatic"):
            raise ctx.error(mim, what, f"a {jtype} joint cannot mimic another")
    for tag in ("dynamics", "calibration", "safety_controller"):  # not modelled
        for e in el.findall(tag):
            el.remove(e)
    return name, ends[0], ends[1]


def _check_document(root, ctx: _Ctx) -> _Checked:
    """Validate what KineTree reads, prune what it ignores, and order the joints."""
    if not isinstance(root.tag, str) or root.tag != "robot":
        raise ctx.error(root, "", f"root element is <{root.tag}>, expected <robot>")
    if not root.get("name"):
        root.set("name", "robot")
    out = _Checked()
    n_links = sum(1 for _ in root.iterchildren("link"))
    if n_links > MAX_LINKS:
        raise ctx.error(root, "robot", f"{n_links} links is more than the {MAX_LINKS} KineTree accepts")
    for el in root.findall("material"):
        col = el.find("color")
        if col is not None:
            _numbers(col, "rgba", (3, 4), ctx, f"material {el.get('name')!r}", "1 1 1 1")
    for el in root.findall("link"):
        _check_link(el, ctx, out)
    if not out.link_line:
        raise ctx.error(root, "robot", "no <link> elements")
    joints: list[tuple[str, str, str, etree._Element]] = []
    parent_of: dict[str, str] = {}
    for el in root.findall("joint"):
        name, parent, child = _check_joint(el, ctx, out)
        for role, link in (("parent", parent), ("child", child)):
            if link not in out.link_line:
                raise ctx.error(el, f"joint {name!r}", f"{role} link {link!r} does not exist")
        if child in parent_of:
            raise ctx.error(el, f"joint {name!r}", f"link {child!r} already has a parent joint "
                                                   f"({parent_of[child]!r}); a URDF must be a tree")
        if parent == child:
            raise ctx.error(el, f"joint {name!r}", f"link {child!r} is its own parent (cycle)")
        parent_of[child] = name
        joints.append((name, parent, child, el))
    roots = [n for n in out.link_line if n not in parent_of]
    if len(roots) > 1:
        raise ctx.error(root, "robot", f"{len(roots)} root links ({', '.join(map(repr, roots))}); "
                                       "a URDF must have exactly one link without a parent joint")
    if not roots:
        raise ctx.error(root, "robot", "every link has a parent joint: the joints form a cycle")
    out.root = roots[0]
    # parents first; among the ready joints, the earliest in the file
    by_parent: dict[str, list[int]] = {}
    for k, (_, parent, _, _) in enumerate(joints):
        by_parent.setdefault(parent, []).append(k)
    ready = list(by_parent.get(out.root, []))
    heapq.heapify(ready)
    while ready:
        k = heapq.heappop(ready)
        out.order.append(joints[k][0])
        for c in by_parent.get(joints[k][2], []):
            heapq.heappush(ready, c)
    if len(out.order) != len(joints):
        placed = set(out.order)
        name, _, child, el = next(j for j in joints if j[0] not in placed)
        raise ctx.error(el, f"joint {name!r}", f"link {child!r} is not connected to the root link "
                                               f"{out.root!r}: the joints form a cycle")
    return out


# =============================================================================================
# building the tree
# =============================================================================================

def _z_onto(axis: np.ndarray) -> np.ndarray:
    """4×4 rotation taking z onto the unit ``axis`` (identity for z itself)."""
    z = np.array([0.0, 0.0, 1.0])
    T = np.eye(4)
    c = float(axis @ z)
    if c > 1.0 - 1e-15:
        return T
    if c < -1.0 + 1e-15:
        T[:3, :3] = np.diag([1.0, -1.0, -1.0])
        return T
    v = np.cross(z, axis)
    T[:3, :3] = axis_angle_rotation(v / np.linalg.norm(v), math.acos(max(-1.0, min(1.0, c))))
    return T


def _inertia_about_origin(inertial) -> tuple[float, np.ndarray, np.ndarray]:
    m = float(inertial.mass or 0.0)
    T = inertial.origin if inertial.origin is not None else np.eye(4)
    R, c = T[:3, :3], T[:3, 3]
    Ic = np.asarray(inertial.inertia, dtype=float) if inertial.inertia is not None else np.zeros((3, 3))
    I = R @ Ic @ R.T + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    return m, c.copy(), np.array([I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]])


def _materials(robot) -> dict[str, tuple[float, ...]]:
    out: dict[str, tuple[float, ...]] = {}
    for m in robot.materials:
        if m.name and m.color is not None:
            out.setdefault(m.name, _rgba(m.color.rgba))
    for link in robot.links:  # urdfdom makes named link-level materials global too
        for v in link.visuals:
            m = v.material
            if m is not None and m.name and m.color is not None:
                out.setdefault(m.name, _rgba(m.color.rgba))
    return out


def _rgba(v) -> tuple[float, ...]:
    c = [min(1.0, max(0.0, float(x))) for x in v]
    return tuple(c + [1.0] * (4 - len(c)))


def _visuals(link, materials, base_dir, package_paths, source, out: _Checked) -> list[Visual]:
    visuals = []
    for v in link.visuals:
        g = v.geometry
        color = _DEFAULT_COLOR
        if v.material is not None:
            if v.material.color is not None:
                color = _rgba(v.material.color.rgba)
            elif v.material.name in materials:
                color = materials[v.material.name]
        pose = v.origin if v.origin is not None else np.eye(4)
        filename = ""
        if g.box is not None:
            kind, size = "box", tuple(g.box.size)
        elif g.cylinder is not None:
            kind, size = "cylinder", (g.cylinder.radius, g.cylinder.length)
        elif g.sphere is not None:
            kind, size = "sphere", (g.sphere.radius,)
        else:
            kind = "mesh"
            s = g.mesh.scale
            size = (1.0, 1.0, 1.0) if s is None else tuple(np.broadcast_to(np.asarray(s, dtype=float), (3,)))
            uri = g.mesh.filename.strip()
            found = resolve_mesh_uri(uri, base_dir, package_paths)
            filename = found or uri
            if found is None:
                out.warnings.append((MeshNotFoundWarning,
                                     f"{source}: link {link.name!r}: mesh {uri!r} not found; kept as written"))
        visuals.append(Visual(kind, size, pose, color, filename, v.name or ""))
    return visuals


def _mimic_target(name: str, jmap, ctx: _Ctx, lines) -> tuple[str, float, float]:
    """Follow a mimic chain down to a joint with its own position: (leader, multiplier, offset)."""
    mult, off, seen, cur = 1.0, 0.0, [name], jmap[name]
    while cur.mimic is not None:
        m = cur.mimic
        what = f"joint {name!r}"
        if m.joint not in jmap:
            raise ctx.error(lines[cur.name], what, f"mimics {m.joint!r}, which is not a joint of this robot")
        if m.joint in seen:
            raise ctx.error(lines[cur.name], what, f"mimic chain {' → '.join(seen + [m.joint])} is a cycle")
        k, o = float(1.0 if m.multiplier is None else m.multiplier), float(m.offset or 0.0)
        mult, off = mult * k, off + mult * o  # value = mult·cur + off and cur = k·next + o
        seen.append(m.joint)
        cur = jmap[m.joint]
    if cur.type not in ("revolute", "continuous", "prismatic"):
        raise ctx.error(lines[name], f"joint {name!r}", f"mimics {cur.name!r}, a {cur.type} joint; only revolute, "
                                                       "continuous and prismatic joints can be mimicked")
    return cur.name, mult, off


def _make_joint(uj, jmap, ctx: _Ctx, out: _Checked) -> Joint:
    line = out.joint_line[uj.name]
    T = np.array(uj.origin, dtype=float) if uj.origin is not None else np.eye(4)
    t = uj.type
    kt = {"continuous": "revolute"}.get(t, t)
    j = Joint(uj.name, kt)
    axis = np.asarray(uj.axis if uj.axis is not None else [1.0, 0.0, 0.0], dtype=float)
    if kt in ("revolute", "prismatic"):
        j.set_fixed_transform(T)
        j.axis = axis
        if t == "continuous":
            lo, hi = -math.inf, math.inf
        elif uj.limit is None:
            out.warnings.append((UrdfWarning, f"{ctx.source}:{line}: joint {uj.name!r}: {t} joint without <limit> "
                                              f"(required by URDF); KineTree's default limits used"))
            lo, hi = (float(x) for x in j.position_limits)
        else:
            lo = float(uj.limit.lower) if uj.limit.lower is not None else 0.0
            hi = float(uj.limit.upper) if uj.limit.upper is not None else 0.0
            lo = -math.inf if lo <= -_BIG else lo
            hi = math.inf if hi >= _BIG else hi
        j.set_limits((lo, hi), home=min(max(0.0, lo), hi))
        if uj.mimic is not None:
            leader, mult, off = _mimic_target(uj.name, jmap, ctx, out.joint_line)
            j.mimic = Mimic(leader, mult, off)
    elif kt == "planar":
        R = _z_onto(axis / np.linalg.norm(axis))
        j.set_fixed_transform(T @ R)
        if not np.array_equal(R, np.eye(4)):
            j.set_fixed_transform(R.T, "child")
    else:
        j.set_fixed_transform(T)
    return j


def _build(root, ctx: _Ctx, base_dir, package_paths) -> tuple[RigidBodyTree, list]:
    import yourdfpy

    out = _check_document(root, ctx)
    try:
        robot = yourdfpy.URDF._parse_robot(root)
    except Exception as exc:  # validated above; anything left is a malformed corner we missed
        raise ctx.error(0, "", f"cannot be read as URDF ({type(exc).__name__}: {exc})") from None
    links = {lk.name: lk for lk in robot.links}
    jmap = {j.name: j for j in robot.joints}
    materials = _materials(robot)
    where = ("link", out.root, out.link_line.get(out.root, 0))
    try:
        tree = RigidBodyTree(out.root)
        _fill_body(tree.base, links[out.root], materials, base_dir, package_paths, ctx, out)
        for jname in out.order:
            uj = jmap[jname]
            where = ("joint", jname, out.joint_line[jname])
            body = RigidBody(uj.child)
            body.joint = _make_joint(uj, jmap, ctx, out)
            where = ("link", uj.child, out.link_line[uj.child])
            _fill_body(body, links[uj.child], materials, base_dir, package_paths, ctx, out)
            # names, parents and order were checked above: attach without add_body's O(n) checks
            tree._attach(body, tree._by_name[uj.parent])
        tree._touch()
    except FileFormatError:
        raise
    except KineTreeError as exc:
        kind, name, line = where
        raise ctx.error(line, f"{kind} {name!r}", str(exc)) from None
    return tree, out.warnings


def _fill_body(body: RigidBody, link, materials, base_dir, package_paths, ctx: _Ctx, out: _Checked) -> None:
    if link.inertial is not None:
        m, c, inertia = _inertia_about_origin(link.inertial)
    else:
        m, c, inertia = 0.0, np.zeros(3), np.zeros(6)
    body.mass, body.center_of_mass, body.inertia = m, c, inertia
    body.visuals = _visuals(link, materials, base_dir, package_paths, ctx.source, out)


def _emit(found: list, on_warning: Callable[[str], None] | None) -> None:
    for cls, msg in found:
        if on_warning is not None:
            on_warning(msg)
        else:
            warnings.warn(msg, cls, stacklevel=3)


def _read(path: Path) -> bytes:
    # regular files only (a FIFO would block, /dev/zero never ends), at most MAX_BYTES
    return read_regular_file(path, MAX_BYTES, "URDF")


def _expand_xacro(path: Path, data: bytes, package_paths: Sequence[str | os.PathLike], allow_env: bool) -> bytes:
    # our own expander (core/io/xacro.py): ROS xacro evaluates ${…} with Python's eval
    from .xacro import expand_xacro

    return expand_xacro(path, package_paths=package_paths, allow_env=allow_env, data=data)


def import_urdf(path: str | os.PathLike, *, package_paths: Sequence[str | os.PathLike] = (),
                on_warning: Callable[[str], None] | None = None, allow_env: bool = False) -> RigidBodyTree:
    """Read a URDF (or ``.xacro``) file into a new tree; see the module docstring for the rules.

    Raises :class:`FileFormatError` naming the file, line and element for anything invalid.
    Warnings (a missing mesh …) go to ``on_warning`` when given (safe from any thread), else to
    :func:`warnings.warn`. ``allow_env`` lets a xacro read environment variables
    (``$(env X)``, ``$(optenv X)``); without it they are an error.
    """
    path = Path(path)
    data = _read(path)
    ctx = _Ctx(str(path))
    if path.name.endswith(".xacro"):
        data = _expand_xacro(path, data, package_paths, allow_env)
        ctx = _Ctx(f"{path} (expanded xacro)")
    tree, found = _build(_parse_xml(data, ctx), ctx, path.parent.absolute(), package_paths)
    _emit(found, on_warning)
    return tree


def urdf_from_string(text: str | bytes, *, source: str = "<string>", base_dir: str | os.PathLike | None = None,
                     package_paths: Sequence[str | os.PathLike] = ()) -> RigidBodyTree:
    """Read URDF text into a new tree. ``source`` names it in messages; relative mesh paths are
    resolved against ``base_dir`` (unresolved if ``None``)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    ctx = _Ctx(source)
    tree, found = _build(_parse_xml(data, ctx), ctx, Path(base_dir).absolute() if base_dir else None,
                         package_paths)
    _emit(found, None)
    return tree


# =============================================================================================
# export
# =============================================================================================

def _num(x: float) -> str:
    v = float(x)
    if v == 0.0:
        return "0"
    if math.isinf(v):
        return repr(math.copysign(_BIG, v))
    return repr(v)


def _vec(v) -> str:
    return " ".join(_num(x) for x in v)


def _origin(parent, T: np.ndarray) -> None:
    T = np.asarray(T, dtype=float)
    etree.SubElement(parent, "origin", xyz=_vec(T[:3, 3]), rpy=_vec(matrix_to_rpy(T[:3, :3])))


class _Writer:
    def __init__(self, tree: RigidBodyTree, robot_name: str, out_dir: Path | None) -> None:
        self.tree = tree
        self.out_dir = out_dir
        self.root = etree.Element("robot", name=robot_name)
        self.colors: dict[tuple[float, ...], str] = {}
        self.links = {tree.base_name, *tree.body_names}
        self.joints = set(tree.joint_names())

    def mesh_path(self, filename: str) -> str:
        if "://" in filename or not os.path.isabs(filename):
            return filename
        p = Path(filename)
        if self.out_dir is not None:
            for up, start in enumerate((self.out_dir, self.out_dir.parent)):
                try:
                    return "../" * up + p.relative_to(start).as_posix()
                except ValueError:
                    pass
        return p.as_uri()

    def link(self, body: RigidBody) -> None:
        el = etree.SubElement(self.root, "link", name=body.name)
        m, c, Io = body.mass, body.center_of_mass, body.inertia
        if m != 0.0 or np.any(c != 0.0) or np.any(Io != 0.0):
            I = np.array([[Io[0], Io[5], Io[4]], [Io[5], Io[1], Io[3]], [Io[4], Io[3], Io[2]]])
            Ic = I - m * (float(c @ c) * np.eye(3) - np.outer(c, c))
            ine = etree.SubElement(el, "inertial")
            etree.SubElement(ine, "origin", xyz=_vec(c), rpy="0 0 0")
            etree.SubElement(ine, "mass", value=_num(m))
            etree.SubElement(ine, "inertia", ixx=_num(Ic[0, 0]), ixy=_num(Ic[0, 1]), ixz=_num(Ic[0, 2]),
                             iyy=_num(Ic[1, 1]), iyz=_num(Ic[1, 2]), izz=_num(Ic[2, 2]))
        for v in body.visuals:
            ve = etree.SubElement(el, "visual", name=v.name) if v.name else etree.SubElement(el, "visual")
            _origin(ve, v.matrix)
            g = etree.SubElement(ve, "geometry")
            if v.kind == "box":
                etree.SubElement(g, "box", size=_vec(v.size))
            elif v.kind == "cylinder":
                etree.SubElement(g, "cylinder", radius=_num(v.size[0]), length=_num(v.size[1]))
            elif v.kind == "sphere":
                etree.SubElement(g, "sphere", radius=_num(v.size[0]))
            else:
                me = etree.SubElement(g, "mesh", filename=self.mesh_path(v.filename))
                if tuple(v.size) != (1.0, 1.0, 1.0):
                    me.set("scale", _vec(v.size))
            color = tuple(v.color)
            name = self.colors.setdefault(color, f"kt_color_{len(self.colors)}")
            mat = etree.SubElement(ve, "material", name=name)
            etree.SubElement(mat, "color", rgba=_vec(color))

    def joint_el(self, name: str, jtype: str, parent: str, child: str, T: np.ndarray) -> etree._Element:
        el = etree.SubElement(self.root, "joint", name=name, type=jtype)
        etree.SubElement(el, "parent", link=parent)
        etree.SubElement(el, "child", link=child)
        _origin(el, T)
        return el

    def joint(self, body: RigidBody, parent: str) -> None:
        j = body.joint
        jtp, ctj = j.joint_to_parent_transform, j.child_to_joint_transform
        ctj_is_I = np.array_equal(ctj, np.eye(4))
        t = j.type
        if t == "spherical":
            raise FileFormatError(
                f"joint {j.name!r} (body {body.name!r}): spherical joints have no URDF equivalent; "
                "replace it by three revolute joints (or a floating joint) before exporting"
            )
        origin, axis, urdf_type, extra = jtp, None, t, False
        if t == "fixed":
            origin = jtp @ ctj
        elif t == "revolute":
            a = j.axis
            A = jtp.copy()
            A[:3, :3] = jtp[:3, :3] @ axis_angle_rotation(a, j.offset) if j.offset else jtp[:3, :3]
            p = ctj[:3, 3]
            if ctj_is_I:
                origin, axis = A, a
            elif np.linalg.norm(p - (p @ a) * a) <= 1e-12 * (1.0 + np.linalg.norm(p)):
                origin, axis = A @ ctj, ctj[:3, :3].T @ a
            else:
                origin, axis, extra = A, a, True
            lo, hi = (float(x) for x in j.position_limits)
            if math.isinf(lo) or math.isinf(hi):
                if not (math.isinf(lo) and math.isinf(hi)):
                    warnings.warn(f"joint {j.name!r}: half-bounded revolute limits [{lo}, {hi}] "
                                  "exported as a continuous joint", UrdfWarning, stacklevel=4)
                urdf_type = "continuous"
        elif t == "prismatic":
            a = j.axis
            A = jtp.copy()
            A[:3, 3] += jtp[:3, :3] @ (j.offset * a)
            origin, axis = A @ ctj, ctj[:3, :3].T @ a
        elif t == "planar":
            axis, extra = np.array([0.0, 0.0, 1.0]), not ctj_is_I
        else:  # floating
            extra = not ctj_is_I
        child = body.name
        if extra:
            child = unique_name(f"{j.name}_frame", self.links, "_")
        el = self.joint_el(j.name, urdf_type, parent, child, origin)
        if axis is not None:
            etree.SubElement(el, "axis", xyz=_vec(axis))
        if t in ("revolute", "prismatic"):
            if urdf_type != "continuous":
                lo, hi = (float(x) for x in j.position_limits)
                etree.SubElement(el, "limit", lower=_num(lo), upper=_num(hi), effort="0", velocity="0")
            if j.mimic is not None:
                etree.SubElement(el, "mimic", joint=j.mimic.joint, multiplier=_num(j.mimic.multiplier),
                                 offset=_num(j.mimic.offset))
        if extra:
            etree.SubElement(self.root, "link", name=child)
            self.joint_el(unique_name(f"{j.name}_child_to_joint", self.joints, "_"), "fixed", child, body.name, ctj)


def urdf_string(tree: RigidBodyTree, robot_name: str | None = None) -> str:
    """The URDF text of ``tree`` (see the module docstring for how each part is written)."""
    return _export(tree, robot_name or "robot", None)


def _export(tree: RigidBodyTree, robot_name: str, out_dir: Path | None) -> str:
    w = _Writer(tree, robot_name, out_dir)
    w.root.append(etree.Comment(" Exported by KineTree "))
    w.link(tree.base)
    for b in tree.bodies:
        w.link(b)
        w.joint(b, tree.parent_name(b.name))
    return etree.tostring(w.root, pretty_print=True, xml_declaration=True, encoding="utf-8").decode("utf-8")


def export_urdf(tree: RigidBodyTree, path: str | os.PathLike, *, robot_name: str | None = None) -> None:
    """Write ``tree`` as URDF to ``path`` atomically; the robot is named after the file unless
    ``robot_name`` is given. Raises :class:`FileFormatError` for a spherical joint."""
    path = Path(path)
    name = robot_name or path.name.split(".")[0] or "robot"
    atomic_write_text(path, _export(tree, name, path.parent.resolve()))
