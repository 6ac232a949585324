"""URDF import, first pass: validate every element KineTree reads, with its line number, and
set aside (as XML text, see :mod:`kinetree.core.model.xml_fragment`) every element it does not model.

Used by :mod:`kinetree.core.io.urdf.read`; ``ctx`` is its ``_Ctx`` (``ctx.source``,
``ctx.error(element_or_line, what, message)``).
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np
from lxml import etree

from ...model.xml_fragment import fragment_text, xinclude_elements, xinclude_text
from ...transforms import MAX_LENGTH
from ..loop_files import LOOPS_TAG, read_loop_element

__all__ = ["MeshNotFoundWarning", "UrdfWarning"]

_URDF_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
_AXIS_TYPES = ("revolute", "continuous", "prismatic", "planar")
_GEOMETRIES = ("box", "cylinder", "sphere", "mesh")
#: The largest mass (kg) or moment of inertia (kg·m²) read (the project file's bound too).
MAX_MASS = 1e12
#: Children KineTree models; any other child is kept verbatim as an extension.
_ROBOT_MODELLED = ("link", "joint", "material")
_LINK_MODELLED = ("inertial", "visual", "collision")
_JOINT_MODELLED = ("parent", "child", "origin", "axis", "limit", "mimic")


class UrdfWarning(UserWarning):
    """Something in a URDF was left out or replaced by a default (the import still succeeds)."""


class MeshNotFoundWarning(UrdfWarning):
    """A mesh URI could not be resolved to a file; the visual keeps the URI as written."""


def _numbers(el, attr: str, counts: tuple[int, ...], ctx: Any, what: str, default: str | None = None,
             commas: bool = False, bound: float | None = None) -> np.ndarray | None:
    raw = el.get(attr, default)
    if raw is None:
        return None
    text = raw.replace(",", " ") if commas else raw
    try:
        v = np.array([float(t) for t in text.split()], dtype=float)
    except ValueError:
        raise ctx.error(el, what, f"{el.tag} {attr} {raw!r:.80} is not a list of numbers") from None
    if v.size not in counts:
        n = " or ".join(map(str, counts))
        raise ctx.error(el, what, f"{el.tag} {attr} {raw!r:.80} must be {n} number{'s' if counts != (1,) else ''}")
    bad = v[~np.isfinite(v)]
    if bad.size:
        raise ctx.error(el, what, f"{el.tag} {attr} contains {float(bad[0])!r}")
    if bound is not None and v.size and np.abs(v).max() > bound:
        raise ctx.error(el, what, f"{el.tag} {attr} value {float(v[np.abs(v).argmax()])!r} is more than "
                                  f"{bound:g} in magnitude")
    return v


def _scalar(el, attr: str, ctx: Any, what: str, default: str | None = None,
            bound: float | None = None) -> float | None:
    v = _numbers(el, attr, (1,), ctx, what, default, bound=bound)
    return None if v is None else float(v[0])


def _check_origin(parent, ctx: Any, what: str, bound: float | None = None) -> tuple[tuple, tuple] | None:
    """The ``<origin>``'s numbers as read, ``(xyz, rpy)``, or ``None`` without an origin."""
    o = parent.find("origin")
    if o is None:
        return None
    xyz = _numbers(o, "xyz", (3,), ctx, what, "0 0 0", bound=bound)
    rpy = _numbers(o, "rpy", (3,), ctx, what, "0 0 0", bound=bound)
    return tuple(xyz.tolist()), tuple(rpy.tolist())


def _finite(el, attr: str, ctx: Any, what: str) -> None:
    """An optional attribute that readers (urdfdom, Pinocchio) parse as a finite number."""
    raw = el.get(attr)
    if raw is None:
        return
    try:
        v = float(raw)
    except ValueError:
        raise ctx.error(el, what, f"{el.tag} {attr} {raw!r:.80} is not a number") from None
    if not np.isfinite(v):
        raise ctx.error(el, what, f"{el.tag} {attr} is {v!r}; it must be a finite number")


#: Numeric attributes of a joint's elements that KineTree does not model but URDF readers parse.
JOINT_NUMBERS = {"limit": ("effort", "velocity"), "dynamics": ("damping", "friction"),
                 "calibration": ("rising", "falling", "reference_position"),
                 "safety_controller": ("soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity")}


def check_joint_numbers(el, ctx: Any, what: str) -> None:
    """Refuse NaN, infinity or text in ``JOINT_NUMBERS`` of a joint child ``el``."""
    for attr in JOINT_NUMBERS.get(el.tag, ()):
        _finite(el, attr, ctx, what)


def _name(el, ctx: Any, what: str) -> str:
    name = el.get("name")
    if name is None or not name.strip():
        raise ctx.error(el, what, f"<{el.tag}> needs a non-empty name attribute")
    return name


class _Checked:
    """What the validation pass found: names, lines, the structure of the tree and the
    elements set aside (XML text in document order, by link, by joint and for the robot)."""

    def __init__(self) -> None:
        self.link_line: dict[str, int] = {}
        self.joint_line: dict[str, int] = {}
        self.order: list[str] = []  # joint names in body order
        self.root = ""
        self.warnings: list[tuple[type[Warning], str]] = []
        self.robot_ext: list[str] = []
        self.loops: tuple[list, list, list] | None = None  # <kinetree_loops>: (loops, passive joints, homes)
        self.link_ext: dict[str, list[str]] = {}
        self.joint_ext: dict[str, list[str]] = {}
        # the numbers as read, for export to write back while unchanged (see urdf_export)
        self.joint_origin: dict[str, tuple[tuple, tuple]] = {}
        self.link_inertial: dict[str, tuple] = {}
        self.link_origins: dict[str, dict[str, list]] = {}  # link -> visual/collision -> origins
        self.link_materials: dict[str, list] = {}  # link -> each kept visual's <material> text (or None)
        self.material_texts: dict[tuple, str] = {}
        # the robot's name, attributes KineTree does not model and <material> definitions, as read
        self.robot_name: str | None = None
        self.robot_attrs: dict[str, str] = {}
        self.robot_materials: list[str] = []
        self.link_attrs: dict[str, dict[str, str]] = {}
        self.joint_attrs: dict[str, dict[str, str]] = {}


def _check_shape(link: str, k: int, vis, ctx: Any, out: _Checked) -> bool:
    """Validate one ``<visual>`` or ``<collision>``; False if KineTree cannot model it (with a
    warning: it is then kept verbatim)."""
    what = f"link {link!r} {vis.tag} {k}"
    origin = _check_origin(vis, ctx, what, MAX_LENGTH)

    mat = vis.find("material")

    def ok() -> bool:  # modelled: its origin (and material) as read, in yourdfpy's order of the kept shapes
        out.link_origins.setdefault(link, {}).setdefault(vis.tag, []).append(origin)
        if vis.tag == "visual":
            out.link_materials.setdefault(link, []).append(None if mat is None else _material_text(mat, out))
        return True
    if mat is not None and vis.tag == "visual":
        col = mat.find("color")
        if col is not None:
            _numbers(col, "rgba", (3, 4), ctx, what, "1 1 1 1")
    geo = vis.find("geometry")
    shapes = [c for c in geo if isinstance(c.tag, str)] if geo is not None else []

    def skip(why: str) -> bool:
        out.warnings.append((UrdfWarning, f"{ctx.source}:{vis.sourceline}: {what}: {why}; {vis.tag} not "
                                          "shown (kept as written for export)"))
        return False

    if not shapes:
        return skip("no geometry")
    g = shapes[0]
    if g.tag not in _GEOMETRIES:
        return skip(f"geometry <{g.tag}> is not supported (only box, cylinder, sphere, mesh)")
    if g.tag == "box":
        size = _numbers(g, "size", (3,), ctx, what, commas=True, bound=MAX_LENGTH)
        if size is None:
            raise ctx.error(g, what, "box needs a size attribute")
    elif g.tag == "cylinder":
        r = _scalar(g, "radius", ctx, what, bound=MAX_LENGTH)
        length = _scalar(g, "length", ctx, what, bound=MAX_LENGTH)
        if r is None or length is None:
            raise ctx.error(g, what, "cylinder needs radius and length attributes")
        size = np.array([r, length])
    elif g.tag == "sphere":
        r = _scalar(g, "radius", ctx, what, bound=MAX_LENGTH)
        if r is None:
            raise ctx.error(g, what, "sphere needs a radius attribute")
        size = np.array([r])
    else:
        if not (g.get("filename") or "").strip():
            return skip("mesh without filename")
        size = _numbers(g, "scale", (1, 3), ctx, what, "1 1 1", commas=True, bound=MAX_LENGTH)
        if np.any(size == 0):
            return skip(f"mesh scale {size.tolist()} has a zero")
        return ok()  # a negative scale mirrors the mesh (left/right limbs share one file)
    if np.any(size <= 0):
        return skip(f"{g.tag} size {size.tolist()} is not positive")
    return ok()


def _material_text(mat, out: _Checked) -> str:
    """``fragment_text(mat)``, shared by the usual ``<material name="…"/>`` references (fast
    imports of big robots)."""
    if len(mat) or mat.text:
        return fragment_text(mat)
    key = tuple(mat.attrib.items())
    if key not in out.material_texts:
        out.material_texts[key] = fragment_text(mat)
    return out.material_texts[key]


def _set_aside(el, keep: list[str]) -> None:
    keep.append(fragment_text(el))
    el.getparent().remove(el)


def _check_link(el, ctx: Any, out: _Checked) -> None:
    name = _name(el, ctx, "link")
    if name in out.link_line:
        raise ctx.error(el, f"link {name!r}", f"duplicate link name (first defined on line {out.link_line[name]})")
    out.link_line[name] = el.sourceline or 0
    if len(el.attrib) > 1:
        out.link_attrs[name] = _unmodelled_attrs(el, ("name",))
    what = f"link {name!r}"
    keep = out.link_ext.setdefault(name, [])
    count = {"visual": 0, "collision": 0, "inertial": 0}
    for child in list(el):
        if not isinstance(child.tag, str) or child.tag not in _LINK_MODELLED:
            if isinstance(child.tag, str):
                _set_aside(child, keep)
            continue
        k = count[child.tag]
        count[child.tag] += 1
        if child.tag == "inertial":
            if k:  # yourdfpy reads the first one only
                _set_aside(child, keep)
            else:
                out.link_inertial[name] = _check_inertial(child, ctx, what)
        elif not _check_shape(name, k, child, ctx, out):
            _set_aside(child, keep)


def _unmodelled_attrs(el, modelled: tuple[str, ...]) -> dict[str, str]:
    """``el``'s attributes KineTree does not model (``version``, ``dont_collapse`` …), in order;
    only plain names (a namespaced one would come back under another prefix)."""
    return {k: v for k, v in el.attrib.items() if k not in modelled and not k.startswith("{")}


def _check_inertial(inertial, ctx: Any, what: str) -> tuple:
    """Validate an ``<inertial>``; its numbers as read: ``(xyz, rpy, mass, (ixx, ixy, ixz,
    iyy, iyz, izz))`` (the defaults for what is missing)."""
    xyz, rpy = _check_origin(inertial, ctx, what + " inertial", MAX_LENGTH) or ((0.0,) * 3, (0.0,) * 3)
    m = inertial.find("mass")
    mass = 0.0
    if m is not None:
        mass = _scalar(m, "value", ctx, what, "0", bound=MAX_MASS)
        if mass < 0:
            raise ctx.error(m, what, f"mass {mass!r} is negative")
    i = inertial.find("inertia")
    moments = [0.0] * 6
    if i is not None:
        for k, a in enumerate(("ixx", "ixy", "ixz", "iyy", "iyz", "izz")):
            moments[k] = _scalar(i, a, ctx, what, "0", bound=MAX_MASS)
            i.set(a, i.get(a, "0"))  # yourdfpy would default a missing moment to 1
    return xyz, rpy, mass, tuple(moments)


def _check_joint(el, ctx: Any, out: _Checked) -> tuple[str, str, str]:
    name = _name(el, ctx, "joint")
    what = f"joint {name!r}"
    if name in out.joint_line:
        raise ctx.error(el, what, f"duplicate joint name (first defined on line {out.joint_line[name]})")
    out.joint_line[name] = el.sourceline or 0
    if len(el.attrib) > 2:
        out.joint_attrs[name] = _unmodelled_attrs(el, ("name", "type"))
    jtype = el.get("type")
    if jtype not in _URDF_TYPES:
        raise ctx.error(el, what, f"joint type {jtype!r} is not one of {', '.join(_URDF_TYPES)}")
    ends = []
    for tag in ("parent", "child"):
        e = el.find(tag)
        if e is None or not (e.get("link") or "").strip():
            raise ctx.error(e if e is not None else el, what, f"missing <{tag} link=\"...\"/>")
        ends.append(e.get("link"))
    origin = _check_origin(el, ctx, what)
    if origin is not None:
        out.joint_origin[name] = origin
    ax = el.find("axis")
    if ax is not None:
        v = _numbers(ax, "xyz", (3,), ctx, what, "1 0 0")
        if jtype in _AXIS_TYPES and float(np.linalg.norm(v)) < 1e-12:
            raise ctx.error(ax, what, f"axis {v.tolist()} is zero")
    lim = el.find("limit")
    if lim is not None:
        vals = {a: _scalar(lim, a, ctx, what) for a in ("lower", "upper")}
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
            # real files have these (Talos's reduced grippers); urdfdom and Pinocchio ignore them
            out.warnings.append((UrdfWarning, f"{ctx.source}:{mim.sourceline}: {what}: a {jtype} joint "
                                              "cannot mimic another; <mimic> ignored (not written on export)"))
            el.remove(mim)
    for child in el:  # effort, velocity, damping … are not modelled, but URDF readers parse them
        if isinstance(child.tag, str):
            check_joint_numbers(child, ctx, what)
    keep = out.joint_ext.setdefault(name, [])
    if lim is not None:  # first: export writes <limit> before the other kept elements
        _keep_limit_extras(lim, keep)
    for child in list(el):  # <dynamics>, <calibration>, <safety_controller> … are not modelled
        if isinstance(child.tag, str) and child.tag not in _JOINT_MODELLED:
            _set_aside(child, keep)
    return name, ends[0], ends[1]


def _keep_limit_extras(lim, keep: list[str]) -> None:
    """``<limit>``'s attributes other than lower and upper (effort, velocity …), kept as a
    ``<limit>`` extension (the joint's first) that export merges back into the limit it writes. A zero effort or
    velocity is what export writes anyway: not kept, so round trips add nothing."""
    extra = {k: v for k, v in lim.attrib.items() if k not in ("lower", "upper")
             and not (k in ("effort", "velocity") and float(v) == 0.0)}
    if extra:
        keep.append(fragment_text(etree.Element("limit", extra)))


def check_document(root, ctx: Any, max_links: int) -> _Checked:
    """Validate what KineTree reads, set aside what it does not model, and order the joints."""
    if not isinstance(root.tag, str) or root.tag != "robot":
        raise ctx.error(root, "", f"root element is <{root.tag}>, expected <robot>")
    out = _Checked()
    for el in xinclude_elements(root):  # never kept: an XInclude-resolving reader of the export would follow it
        out.warnings.append((UrdfWarning, f"{ctx.source}:{el.sourceline}: XInclude element {xinclude_text(el)} "
                                          "dropped: KineTree does not keep XInclude elements"))
        parent = el.getparent()
        if parent is not None:  # not inside one already dropped
            if el.tail:  # the text after it stays
                prev = el.getprevious()
                if prev is not None:
                    prev.tail = (prev.tail or "") + el.tail
                else:
                    parent.text = (parent.text or "") + el.tail
            parent.remove(el)
    out.robot_name = root.get("name") or None
    if not out.robot_name:
        root.set("name", "robot")
    if len(root.attrib) > 1:
        out.robot_attrs = _unmodelled_attrs(root, ("name",))
    n_links = sum(1 for _ in root.iterchildren("link"))
    if n_links > max_links:
        raise ctx.error(root, "robot", f"{n_links} links is more than the {max_links} KineTree accepts")
    for el in list(root):  # <transmission>, <gazebo>, <ros2_control>, <sensor> … in document order
        if el.tag == LOOPS_TAG:  # KineTree's own: closed loops and passive joints
            if out.loops is not None:
                raise ctx.error(el, f"<{LOOPS_TAG}>", "a robot has at most one")
            out.loops = read_loop_element(el, ctx.error)
            root.remove(el)
        elif isinstance(el.tag, str) and el.tag not in _ROBOT_MODELLED:
            _set_aside(el, out.robot_ext)
    for el in root.findall("material"):
        out.robot_materials.append(fragment_text(el))
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
