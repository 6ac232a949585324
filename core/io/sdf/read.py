"""SDFormat import: :func:`import_sdf` and :func:`sdf_from_string` (see :mod:`kinetree.core.io.sdf`
for the rules)."""

from __future__ import annotations

import heapq
import itertools
import math
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from lxml import etree

from ...disk.safe_io import MAX_BODIES, IncludeBudget, read_regular_file, xml_root
from ...errors import FileFormatError, KineTreeError
from ...kinematics.plan import _z_to_axis
from ...model.body import RigidBody, Visual
from ...model.joint import Joint
from ...transforms import inverse_transform
from ...tree import RigidBodyTree, unique_name
from ..loop_files import add_file_loops, default_actuation
from ..mjcf.files import vet_kept_files
from .elements import Ctx, real_root, sdf_version
from .frames import FrameGraph
from .model import SdfWarning, read_model

__all__ = ["MAX_BYTES", "MAX_ELEMENTS", "MAX_INCLUDES", "MAX_NESTING", "SdfWarning", "import_sdf", "sdf_from_string"]

#: Files (and strings) larger than this are refused before parsing.
MAX_BYTES = 50 * 1024 * 1024
#: Elements in one file (with its includes) at most: a 50 MB file could hold ten million.
MAX_ELEMENTS = 2_000_000
#: Models nested in models (``<model>`` or ``<include>``) at most this deep.
MAX_NESTING = 32
#: ``<include>`` elements read at most (an include may include again).
MAX_INCLUDES = 1000

_DEFAULT_COLOR = (0.7, 0.7, 0.75, 1.0)
_BIG = 1e16  # SDFormat's default limits: ±1e16 means unbounded
_XML_DECL_VERSION = re.compile(rb"""^(\xef\xbb\xbf)?<\?xml[ \t\r\n]+version[ \t\r\n]*=[ \t\r\n]*(["'])"""
                               rb"""([0-9]+(?:\.[0-9]+)*)\2""")


def parse_xml(data: bytes, ctx: Ctx, budget: list[int]) -> etree._Element:
    """Parse with a parser that resolves nothing and refuses any DTD; ``budget[0]``: how many
    elements may still be read (all files of one import share it)."""
    if len(data) > MAX_BYTES:
        raise FileFormatError(f"{ctx.source}: {len(data) / 2**20:.0f} MB is more than the "
                              f"{MAX_BYTES // 2**20} MB an SDFormat file may have")
    m = _XML_DECL_VERSION.match(data)
    if m is not None and m.group(3) not in (b"1.0", b"1.1"):
        data = data[:m.start(3)] + b"1.0" + data[m.end(3):]
    for token in (b"<!DOCTYPE", b"<!ENTITY"):
        i = data.find(token)
        if i >= 0:
            raise ctx.error(data.count(b"\n", 0, i) + 1, token.decode()[2:].lower(),
                            "DTD and entity declarations are not allowed in an SDFormat file")
    root = xml_root(data, ctx.error, "an SDFormat file")
    for n, el in enumerate(root.iter()):
        if n >= budget[0]:
            raise ctx.error(el, f"<{el.tag}>", f"more than {MAX_ELEMENTS} XML elements; an SDFormat robot "
                                               "may have at most that many")
    budget[0] -= sum(1 for _ in root.iter())
    return root


def _top_model(root, ctx: Ctx, found: list) -> etree._Element:
    """The one ``<model>`` of the file: the ``<sdf>``'s, or the one of its ``<world>``."""
    if root.tag != "sdf":
        raise ctx.error(root, f"<{root.tag}>", "the root element of an SDFormat file must be <sdf>")
    models = root.findall("model")
    worlds = root.findall("world")
    holder = "the file"
    if not models and len(worlds) == 1:
        models, holder = worlds[0].findall("model"), f"world {worlds[0].get('name')!r}"
        others = [c.tag for c in worlds[0] if isinstance(c.tag, str) and c.tag != "model"]
        if models and others:
            found.append((SdfWarning, f"{ctx.where(worlds[0])}: world {worlds[0].get('name')!r}: only its model is "
                                      f"read; its {', '.join(sorted(set(others)))} are not kept"))
    elif worlds:
        raise ctx.error(worlds[0], "<world>", f"the file holds {len(worlds)} worlds; KineTree opens one robot "
                                              "(an SDFormat file with one <model>)")
    if len(models) != 1:
        if not models:
            raise ctx.error(root, "<sdf>", f"{holder} holds no <model>; KineTree opens one robot (a <model>)")
        names = ", ".join(repr(m.get("name")) for m in models[:10])
        raise ctx.error(models[1], "<model>", f"{holder} holds {len(models)} models ({names}); KineTree opens "
                                              "one robot: save the one you want in an .sdf file of its own")
    return models[0]


def _tree_of(graph: FrameGraph, data: dict, ctx: Ctx, found: list) -> RigidBodyTree:
    """Build the tree from the resolved frames and the read links and joints."""
    links, joints = data["links"], data["joints"]
    if len(links) > MAX_BODIES:
        raise FileFormatError(f"{ctx.source}: {len(links)} links is more than the {MAX_BODIES} a robot may have")
    for name in graph.frames:  # every pose, used or not: a cycle or unknown name anywhere is refused
        graph.pose(name)
    child_of: dict[str, dict] = {}
    loops: list = []
    for j in joints:
        j["parent_link"] = graph.link_of(j["parent"], j["frame"], "parent")
        j["child_link"] = graph.link_of(j["child"], j["frame"], "child")
        if j["child_link"] == "world":
            raise FileFormatError(f"{j['frame'].where}: joint {j['name']!r}: child is the world")
        if j["child_link"] == j["parent_link"]:
            raise FileFormatError(f"{j['frame'].where}: joint {j['name']!r}: parent and child are both link "
                                  f"{j['child_link']!r}")
        if j["child_link"] in child_of:  # a cycle in the model graph: this joint closes a loop
            loops.append(_loop_of(j, graph, child_of[j["child_link"]]))
            continue
        child_of[j["child_link"]] = j
    joints = [j for j in joints if child_of.get(j["child_link"]) is j]
    roots = [n for n in links if n not in child_of]
    to_world = any(j["parent_link"] == "world" for j in joints)
    if not roots and not to_world:
        raise FileFormatError(f"{ctx.source}: every link is the child of a joint: the joints form a loop")
    base = "world" if to_world or len(roots) > 1 else roots[0]
    base_pose = graph.pose("world") if base == "world" else graph.pose(base)
    tree = RigidBodyTree(base)
    tree.extensions = data["model_ext"]
    tree.base._sdf_model = data["model_info"]
    if base != "world":
        tree.base._sdf_root_pose = inverse_transform(graph.pose("world")) @ base_pose
        _fill(tree.base, links[base], graph, ctx)
    else:
        tree.base.mass = 0.0  # the world has no mass
        tree.base._set_inertia_as_read(np.zeros(6))
    kids: dict[str, list] = {}
    for j in joints:
        kids.setdefault(j["parent_link"], []).append(j)
    static = data["model_info"].get("static", False)
    free = []
    for r in roots if base == "world" else ():
        how = "a fixed joint (the model is static)" if static else "a floating joint"
        found.append((SdfWarning, f"{links[r]['frame'].where}: link {r!r} has no joint: it is attached to "
                                  f"the world by {how}"))
        free.append({"name": None, "type": "fixed" if static else "floating", "child_link": r, "parent_link": "world"})
    kids["world"] = free + kids.get("world", [])
    taken_bodies = {base, *links}
    taken_joints = {j["name"] for j in joints}
    # parents first; among the joints whose parent is placed, the earliest in the file next (as the URDF reader)
    order = {id(j): k for k, j in enumerate(joints)}
    heap: list = []
    tie = itertools.count()  # free links (no file order of their own) in the order they were found

    def ready(parent: str) -> None:
        for j in kids.get(parent, ()):
            heapq.heappush(heap, (order.get(id(j), -1), next(tie), j))

    ready(base)
    placed = 1
    attached = {base: tree.base}  # tree._by_name would re-index after every attach
    while heap:
        j = heapq.heappop(heap)[2]
        parent, child = j["parent_link"], j["child_link"]
        try:
            at = attached[parent]
            bodies = _joint_bodies(j, graph, taken_bodies, taken_joints)
            _fill(bodies[-1], links[child], graph, ctx)  # before attaching: no tree to notify
            for body in bodies:
                at = tree._attach(body, at)
            attached[child] = at
        except FileFormatError:
            raise
        except KineTreeError as exc:
            where = j["frame"].where if j.get("frame") else links[child]["frame"].where
            raise FileFormatError(f"{where}: joint {j['name'] or child!r}: {exc}") from None
        placed += 1
        ready(child)
    if placed < len(links) + (base == "world"):
        lost = [n for n in links if n not in tree._by_name]
        raise FileFormatError(f"{ctx.source}: links {', '.join(map(repr, lost[:5]))} are not connected to the "
                              f"base {base!r}: the joints form a loop")
    tree.mark_changed()
    if loops:
        add_file_loops(tree, loops)
        if actuated := default_actuation(tree):
            shown = ", ".join(map(repr, actuated))
            found.append((SdfWarning, f"{ctx.source}: SDFormat marks no joint passive: {shown} actuated (the first "
                                      "the loops leave free), the others passive; change with joint.actuated"))
    return tree


#: SDFormat joint types a loop may be, and the loop kind each reads as.
_LOOP_KINDS = {"revolute": "hinge", "continuous": "hinge", "prismatic": "slider", "ball": "ball", "fixed": "weld"}


def _loop_of(j: dict, graph: FrameGraph, first: dict) -> tuple:
    """The loop that joint ``j`` closes (its child link already hangs on joint ``first``): ``(where,
    name, kind, parent link, frame there, child link, frame there)``. The frame is the joint's, turned
    so that z is its axis; on the parent the frame ``<joint>__kinetree_parent`` when the file has one
    (KineTree writes it: the parent's side of a loop open at the zero configuration), else the
    joint's frame at the zero configuration the file describes."""
    where, name, t = j["frame"].where, j["name"], j["type"]
    if t not in _LOOP_KINDS:
        raise FileFormatError(f"{where}: joint {name!r}: link {j['child_link']!r} is already the child of joint "
                              f"{first['name']!r}, so this joint closes a loop, and a {t} joint cannot "
                              f"(a loop is {', '.join(_LOOP_KINDS)})")
    frame = j["frame"].name
    R = np.eye(4)
    if j["axes"]:
        ax = j["axes"][0]
        u = np.asarray(ax["xyz"], dtype=float)
        if ax["in"] is not None:
            u = graph.relative(frame, ax["in"])[:3, :3] @ u
        R = _z_to_axis(u / np.linalg.norm(u))
    side = frame + "__kinetree_parent"
    Xa = graph.relative(j["parent_link"], side if side in graph.frames else frame) @ R
    Xb = graph.relative(j["child_link"], frame) @ R
    return (where, name, _LOOP_KINDS[t], j["parent_link"], Xa, j["child_link"], Xb)


def _joint_bodies(j: dict, graph: FrameGraph, taken_bodies: set, taken_joints: set) -> list[RigidBody]:
    """The body (two for a universal joint) that joint ``j`` adds, with its joint."""
    child, parent = j["child_link"], j["parent_link"]
    if j["name"] is None:  # a free link of the model: floating (fixed when the model is static) from the world
        body = RigidBody(child)
        name = unique_name(f"{child}_{j['type']}", taken_joints, "_")
        taken_joints.add(name)
        joint = Joint(name, j["type"])
        joint.set_fixed_transform(graph.relative(parent, child))
        body.joint = joint
        return [body]
    name, frame = j["name"], j["frame"].name
    jtp = graph.relative(parent, frame)
    ctj = inverse_transform(j["frame"].X) if j["frame"].rel == child else graph.relative(frame, child)
    t = j["type"]
    kt = {"continuous": "revolute", "ball": "spherical", "universal": "revolute"}.get(t, t)
    joint = Joint(name, kt)
    body = RigidBody(child)
    if kt == "fixed":
        joint.set_fixed_transform(jtp @ ctj)
        joint.extensions = j["ext"]
        body.joint = joint
        return [body]
    joint.set_fixed_transform(jtp)
    if t != "universal" and not np.array_equal(ctj, np.eye(4)):
        joint.set_fixed_transform(ctj, "child")
    joint.extensions = j["ext"]
    axes = j["axes"]
    for ax in axes:  # into the joint frame
        if ax["in"] is not None:
            ax["xyz"] = graph.relative(frame, ax["in"])[:3, :3] @ ax["xyz"]
    if kt in ("revolute", "prismatic"):
        _set_axis(joint, axes[0], t == "continuous")
    if t != "universal":
        body.joint = joint
        return [body]
    cross = RigidBody(unique_name(f"{name}_cross", taken_bodies, "_"))
    taken_bodies.add(cross.name)
    cross.mass = 0.0
    cross._set_inertia_as_read(np.zeros(6))
    cross.joint = joint
    cross._sdf_universal = name
    second = Joint(unique_name(f"{name}_axis2", taken_joints, "_"), "revolute")
    taken_joints.add(second.name)
    if not np.array_equal(ctj, np.eye(4)):
        second.set_fixed_transform(ctj, "child")
    _set_axis(second, axes[1], False)
    body.joint = second
    return [cross, body]


def _set_axis(joint: Joint, axis: dict, continuous: bool) -> None:
    joint.axis = axis["xyz"]
    lo, hi = (-math.inf, math.inf) if continuous else (axis["lower"], axis["upper"])
    lo = -math.inf if lo <= -_BIG else lo
    hi = math.inf if hi >= _BIG else hi
    # <initial_position> outside the limits is refused (naming the joint), not moved into them
    home = axis["initial"] if axis["initial"] is not None else min(max(0.0, lo), hi)
    joint.set_limits((lo, hi), home=home)
    joint.viscous_friction = axis["damping"]
    joint.coulomb_friction = axis["friction"]
    if axis["limit_ext"] is not None:
        joint.extensions = (*joint.extensions, axis["limit_ext"])


def _fill(body: RigidBody, link: dict, graph: FrameGraph, ctx: Ctx) -> None:
    """Mass, inertia, visuals, collisions and kept elements of a link."""
    m, X, I = link["inertial"]
    R, c = X[:3, :3], X[:3, 3]
    Io = R @ I @ R.T + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    body.mass, body.center_of_mass = m, c.copy()
    body._set_inertia_as_read(np.array([Io[0, 0], Io[1, 1], Io[2, 2], Io[1, 2], Io[0, 2], Io[0, 1]]))
    name = link["frame"].name
    for key, attr in (("visuals", "visuals"), ("collisions", "collisions")):
        shapes = []
        for v, rel in link[key]:
            pose = v.matrix if rel is None else graph.relative(name, rel) @ v.matrix
            shapes.append(v if rel is None else Visual(v.kind, v.size, pose, v.color, v.filename, v.name))
        setattr(body, attr, shapes)
    body.extensions = link["ext"]


def _emit(found: list, on_warning: Callable[[str], None] | None) -> None:
    for cls, msg in found:
        if on_warning is not None:
            on_warning(msg)
        else:
            warnings.warn(msg, cls, stacklevel=3)


def _read_file(path: Path, folder_root: Path, on_warning) -> RigidBodyTree:
    data = read_regular_file(path, MAX_BYTES, "SDFormat file")
    return _build(data, Ctx(str(path), path.parent.absolute()), folder_root, on_warning)


def _build(data: bytes, ctx: Ctx, folder_root: Path | None, on_warning) -> RigidBodyTree:
    real_root.cache_clear()  # a folder may have been re-linked since the last import
    found: list = []
    budget = [MAX_ELEMENTS]
    root = parse_xml(data, ctx, budget)
    version = sdf_version(root, ctx)
    if version > (1, 11):
        found.append((SdfWarning, f"{ctx.where(root)}: SDFormat {root.get('version').strip()} is newer than 1.11, "
                                  "the newest KineTree knows; read as 1.11"))
    model = _top_model(root, ctx, found)
    graph = FrameGraph()
    state = {"graph": graph, "links": {}, "joints": [], "model_ext": (), "found": found, "budget": budget,
             "includes": 0, "root": folder_root, "parse": parse_xml, "ctx_type": Ctx, "read": read_regular_file,
             "max_bytes": MAX_BYTES, "max_includes": MAX_INCLUDES, "max_nesting": MAX_NESTING,
             "include_budget": IncludeBudget()}
    read_model(model, ctx, version, "", None, state, 0)
    tree = _tree_of(graph, state, ctx, found)
    found += [(SdfWarning, msg) for msg in vet_kept_files(tree, folder_root, ctx.source)]
    if state.get("lost"):
        shown = ", ".join(f"{k} ({n})" for k, n in sorted(state["lost"].items()))
        found.append((SdfWarning, f"{ctx.source}: not kept (KineTree's shapes have no place for them): {shown}"))
    _emit(found, on_warning)
    return tree


def import_sdf(path: str | os.PathLike, *, on_warning: Callable[[str], None] | None = None) -> RigidBodyTree:
    """Read an SDFormat (``.sdf``) file into a new tree; see :mod:`kinetree.core.io.sdf`.

    Raises :class:`FileFormatError` naming the file, line and element for anything invalid;
    warnings (a missing mesh …) go to ``on_warning`` when given, else to :func:`warnings.warn`."""
    path = Path(path)
    return _read_file(path, path.parent.absolute().parent, on_warning)


def sdf_from_string(text: str | bytes, *, source: str = "<string>", base_dir: str | os.PathLike | None = None,
                    on_warning: Callable[[str], None] | None = None) -> RigidBodyTree:
    """Read SDFormat text into a new tree. ``source`` names it in messages; relative mesh URIs
    and includes are resolved against ``base_dir`` (unresolved when ``None``)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    folder = Path(base_dir).absolute() if base_dir is not None else None
    return _build(data, Ctx(source, folder), folder.parent if folder is not None else None, on_warning)
