"""URDF import and export.

Import (:func:`import_urdf`, :func:`urdf_from_string`)
    The file is read with a hardened lxml parser (no DTD, no entities, no network, size cap of
    :data:`MAX_BYTES`, at most :data:`MAX_LINKS` links), every element KineTree uses is
    validated with its line number, and the validated document is handed to yourdfpy's parser
    for the data model. ``.xacro`` files are
    expanded first by :func:`kinetree.core.io.xacro.expand.expand_xacro`, which runs no code of the file
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
    - ``<mimic>`` becomes :class:`~kinetree.core.model.joint.Mimic` (the follower then has no position
      of its own). Chains of mimics are flattened onto the first joint that has a position (export
      writes each follower onto that leader: the same motion). A ``<mimic>`` on a fixed, floating or
      planar joint is ignored with a :class:`UrdfWarning` naming file, line and joint (as urdfdom
      and Pinocchio do).
    - Numbers readers parse but KineTree does not model (``<limit>`` effort and velocity,
      ``<dynamics>``, ``<calibration>``, ``<safety_controller>``) must be finite numbers.
    - ``<inertial>``: the URDF tensor is about the centre of mass in the inertial frame; it is
      rotated into the link frame and moved to the link origin (parallel axes), as KineTree
      stores ``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame. A link without ``<inertial>``
      gets mass 0 and zero inertia.
    - ``<visual>``: box, cylinder, sphere and mesh (with ``scale``), with ``<origin>`` and the
      material colour (inline, or a named material defined at robot level or on another
      visual). Other geometry (capsule, …), visuals without geometry, non-positive sizes and
      zero mesh scales are not shown, with a :class:`UrdfWarning` (they are kept verbatim
      as link extensions); a negative mesh scale (a mirrored mesh) is kept. Sizes, scales,
      origins, masses and inertias must be finite and at most
      :data:`~kinetree.core.transforms.MAX_LENGTH` (1e6 m; masses and moments 1e12).
    - ``<collision>``: read like visuals (without material) into ``RigidBody.collisions``.
    - Elements KineTree does not model are kept verbatim, as XML text in document order
      (:mod:`kinetree.core.model.xml_fragment`): robot-level ``<transmission>``, ``<gazebo>``,
      ``<ros2_control>``, ``<sensor>`` … in ``RigidBodyTree.extensions``; a link's unknown
      children in ``RigidBody.extensions``; a joint's ``<dynamics>``, ``<calibration>``,
      ``<safety_controller>`` … in ``Joint.extensions``, with ``<limit>``'s non-zero effort
      and velocity as a ``<limit effort velocity/>`` extension. Export writes them back.
    - Mesh files are never loaded; their URI is resolved with :func:`resolve_mesh_uri` and the
      absolute path stored in the visual. An unresolved URI is kept as written and reported
      with a :class:`MeshNotFoundWarning`. Warnings are issued only when the import succeeds.
    - The numbers as read (each ``<origin>``'s xyz and rpy, each ``<inertial>``) and the mesh
      URIs as written are kept with the joint and body (not in projects), so that export writes
      them back, bit for bit, while what they gave is unchanged (see :func:`_fill_body`); so
      are the robot's name, its ``<material>`` definitions, each visual's ``<material>`` and
      the attributes of ``<robot>``, ``<link>`` and ``<joint>`` KineTree does not model.

Export (:func:`export_urdf`, :func:`urdf_string`)
    See :mod:`kinetree.core.io.urdf.write`.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ...disk.safe_io import MAX_BODIES
from ...errors import FileFormatError, KineTreeError
from ...model.body import RigidBody, Visual
from ...model.joint import Joint, Mimic
from ...model.xml_fragment import fragment_element
from ...transforms import axis_angle_rotation
from ...tree import RigidBodyTree
from ..loop_files import add_file_loops, default_actuation
from ..mjcf.files import vet_kept_files
from ..xacro.expand import expand_xacro
from .check import MeshNotFoundWarning, UrdfWarning, _Checked, check_document
from .parse import (
    _DEFAULT_COLOR,
    MAX_BYTES,
    _Ctx,
    _inertia_about_origin,
    _parse_xml,
    _read,
    _rgba,
    mesh_not_found_reason,
    resolve_mesh_uri,
)

__all__ = [
    "MAX_BYTES",
    "MAX_LINKS",
    "MeshNotFoundWarning",
    "UrdfWarning",
    "export_urdf",
    "import_urdf",
    "mesh_not_found_reason",
    "resolve_mesh_uri",
    "urdf_from_string",
    "urdf_string",
]

#: Robots with more links than this are refused (a 50 MB file could otherwise hold millions):
#: the root and the body cap every reader and writer shares.
MAX_LINKS = MAX_BODIES + 1

_BIG = sys.float_info.max


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


def _visuals(link, materials, base_dir, package_paths, source, out: _Checked, read: dict,
             tag: str = "visual") -> list[Visual]:
    """The link's visuals (``tag="visual"``) or collision shapes (``"collision"``); their
    origins and mesh URIs as read go into ``read`` (see :func:`_fill_body`)."""
    visuals = []
    shapes = link.visuals if tag == "visual" else link.collisions
    origins = out.link_origins.get(link.name, {}).get(tag, [])
    if len(origins) != len(shapes):  # cannot happen (the check pass keeps what yourdfpy reads)
        origins = [None] * len(shapes)
    mats = out.link_materials.get(link.name, []) if tag == "visual" else []
    known = len(mats) == len(shapes)  # else (cannot happen) the materials as read are not kept
    for k, (v, origin) in enumerate(zip(shapes, origins)):
        g = v.geometry
        color = _DEFAULT_COLOR
        material = getattr(v, "material", None)
        if material is not None:
            if material.color is not None:
                color = _rgba(material.color.rgba)
            elif material.name in materials:
                color = materials[material.name]
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
                shown = uri if len(uri) <= 200 else f"{uri[:100]}…({len(uri)} characters)"
                why = mesh_not_found_reason(uri, base_dir, package_paths)
                out.warnings.append((MeshNotFoundWarning, f"{source}: link {link.name!r}: {tag} mesh "
                                                          f"{shown!r} {why}; kept as written"))
        vis = Visual(kind, size, pose, color, filename, v.name or "")
        if origin is not None:
            read["poses"].setdefault(vis.pose, origin)
        if kind == "mesh":  # by shape (two may name one file differently), and by file after an edit
            read["meshes"].setdefault(vis, uri)
            read["meshes"].setdefault(filename, uri)
        if known:  # by shape (None: it had no material), and by the colour it gave after an edit
            read["materials"].setdefault(vis, mats[k])
            if mats[k] is not None:  # a visual moved or resized keeps its material; a new one of that colour does not
                read["materials"].setdefault((vis.color, vis.kind, vis.filename), mats[k])
        visuals.append(vis)
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


def _read_dynamics(joint: Joint, ctx: _Ctx, out: _Checked, line: int) -> None:
    """A kept ``<dynamics damping friction>`` becomes the joint's viscous and Coulomb friction
    (link side, gear ratio 1), written back on export; one with anything else stays kept as is."""
    for k, text in enumerate(joint.extensions):
        if not text.startswith("<dynamics"):
            continue
        el = fragment_element(text)
        if len(el) or set(el.attrib) - {"damping", "friction"}:
            return
        try:
            joint.viscous_friction = float(el.get("damping", 0.0))
            joint.coulomb_friction = float(el.get("friction", 0.0))
        except KineTreeError as e:
            out.warnings.append((UrdfWarning, f"{ctx.source}:{line}: {e}; <dynamics> kept as it is"))
            joint.viscous_friction, joint.coulomb_friction = 0.0, 0.0
            return
        joint.extensions = joint.extensions[:k] + joint.extensions[k + 1 :]
        return


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
    if uj.name in out.joint_origin:  # the origin's numbers as read and the transform they gave
        j._urdf_origin = (T, *out.joint_origin[uj.name])
    if uj.name in out.joint_attrs:  # attributes KineTree does not model (dont_collapse …)
        j._urdf_attrs = out.joint_attrs[uj.name]
    return j


def _build(root, ctx: _Ctx, base_dir, package_paths) -> tuple[RigidBodyTree, list]:
    import yourdfpy

    out = check_document(root, ctx, MAX_LINKS)
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
        tree.extensions = out.robot_ext
        # the robot's own data as read, on the base body (tree.copy() carries its _urdf_* attributes)
        for attr, value in (("_urdf_robot", out.robot_name), ("_urdf_robot_attrs", out.robot_attrs),
                            ("_urdf_materials", tuple(out.robot_materials))):
            if value:
                setattr(tree.base, attr, value)
        _fill_body(tree.base, links[out.root], materials, base_dir, package_paths, ctx, out)
        for jname in out.order:
            uj = jmap[jname]
            where = ("joint", jname, out.joint_line[jname])
            body = RigidBody(uj.child)
            joint = _make_joint(uj, jmap, ctx, out)
            joint.extensions = out.joint_ext.get(jname, ())
            if joint.extensions and joint.type in ("revolute", "prismatic"):
                _read_dynamics(joint, ctx, out, out.joint_line[jname])
            body.joint = joint
            where = ("link", uj.child, out.link_line[uj.child])
            _fill_body(body, links[uj.child], materials, base_dir, package_paths, ctx, out)
            # names, parents and order were checked above: attach without add_body's O(n) checks
            tree._attach(body, tree._by_name[uj.parent])
        tree.mark_changed()
        if out.loops is not None:
            _read_loops(tree, out, ctx)
    except FileFormatError:
        raise
    except KineTreeError as exc:
        kind, name, line = where
        raise ctx.error(line, f"{kind} {name!r}", str(exc)) from None
    out.warnings += [(UrdfWarning, msg) for msg in vet_kept_files(tree, base_dir, ctx.source)]
    return tree, out.warnings


def _read_loops(tree: RigidBodyTree, out: _Checked, ctx: _Ctx) -> None:
    """Loops and passive joints from KineTree's ``<kinetree_loops>`` (see :mod:`.loop_files`)."""
    loops, passive, homes = out.loops
    add_file_loops(tree, [(f"{ctx.source}:{line}", *rest) for line, *rest in loops])
    joints = {b.joint.name: b.joint for b in tree.bodies}
    # passive joints, then the closed configuration (URDF has no home positions)
    sets = [("passive", line, name, "actuated", False) for line, name in passive]
    sets += [("home", line, name, "home_position", value) for line, name, value in homes]
    for tag, line, name, attr, value in sets:
        element = f"<{tag} joint={name!r:.80}>"
        if name not in joints:
            raise ctx.error(line, element, "no joint of that name")
        try:
            setattr(joints[name], attr, value)
        except KineTreeError as exc:
            raise ctx.error(line, element, str(exc)) from None
    if actuated := default_actuation(tree):
        out.warnings.append((UrdfWarning, f"{ctx.source}: no joint is marked passive: {', '.join(map(repr, actuated))} "
                                          "actuated (the first the loops leave free), the others passive; change "
                                          "with joint.actuated"))


def _fill_body(body: RigidBody, link, materials, base_dir, package_paths, ctx: _Ctx, out: _Checked) -> None:
    """Fill ``body`` from the link. The numbers as read are kept (private attributes, copied
    with the body, not saved in projects) for export to write back while what they gave is
    unchanged: ``_urdf_inertial`` = (mass, centre of mass, inertia they gave, inertial as read),
    ``_urdf_shapes`` = {"poses": {pose: (xyz, rpy)}, "meshes": {shape or filename: URI as written},
    "materials": {visual or (colour, kind, mesh file): ``<material>`` text or None}}, ``_urdf_attrs`` = the link's
    attributes KineTree does not model."""
    if link.inertial is not None:
        m, c, inertia = _inertia_about_origin(link.inertial)
    else:
        m, c, inertia = 0.0, np.zeros(3), np.zeros(6)
    body.mass, body.center_of_mass = m, c
    body._set_inertia_as_read(inertia)  # as the file gives it, physical or not (written back as read)
    if link.inertial is not None and link.name in out.link_inertial:
        body._urdf_inertial = (m, tuple(c.tolist()), tuple(inertia.tolist()), out.link_inertial[link.name])
    read: dict = {"poses": {}, "meshes": {}, "materials": {}}
    body.visuals = _visuals(link, materials, base_dir, package_paths, ctx.source, out, read)
    body.collisions = _visuals(link, materials, base_dir, package_paths, ctx.source, out, read, "collision")
    if read["poses"] or read["meshes"] or read["materials"]:
        body._urdf_shapes = read
    if link.name in out.link_attrs:
        body._urdf_attrs = out.link_attrs[link.name]
    body.extensions = out.link_ext.get(link.name, ())


def _emit(found: list, on_warning: Callable[[str], None] | None) -> None:
    for cls, msg in found:
        if on_warning is not None:
            on_warning(msg)
        else:
            warnings.warn(msg, cls, stacklevel=3)


def _expand_xacro(path: Path, data: bytes, package_paths: Sequence[str | os.PathLike], allow_env: bool) -> bytes:
    # our own expander (core/io/xacro/expand.py): ROS xacro evaluates ${…} with Python's eval
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


# export lives in urdf_export.py; its names are re-exported here
from .write import export_urdf, urdf_string  # noqa: E402
