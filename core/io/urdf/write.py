"""URDF export (re-exported by :mod:`kinetree.core.io.urdf.read`).

Export (:func:`export_urdf`, :func:`urdf_string`)
    Each body becomes a link named after it (the base is the root link) and each joint a joint
    named after it, in body order; numbers are written with ``repr`` (shortest exact form), so
    a round trip reproduces every body pose to rounding (≈1e-15). An origin or inertial whose
    transform or mass properties are still what the URDF import read is written with the
    numbers as read (rpy ``0.1`` stays ``0.1``, not ``0.09999999999999998``): URDF → URDF
    gives the same numbers, and repeated passes the same bytes.

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
      URDF and are lost; ``effort`` and ``velocity`` (not modelled) come from the joint's
      ``<limit>`` extension (kept by the import), else are written as 0.
    - floating → ``floating``; planar → ``planar`` with axis z of the joint frame; spherical and
      composite (``euler_*``, ``translation_xyz``, ``custom``) joints have no URDF equivalent and
      raise :class:`FileFormatError` naming the joint.
    - Mimic joints → ``<mimic joint multiplier offset>``.
    - Inertials: as read while unchanged (even a tensor that is not physical, as in Tiago's
      files); else mass, origin at the centre of mass, inertia about the centre of mass (the
      inverse of the import conversion); omitted for massless bodies with zero inertia. A body
      whose inertia about the centre of mass is not positive semi-definite (e.g. a mass away
      from the body origin with a body-frame inertia smaller than ``m·|c|²``) or over
      :data:`~kinetree.core.io.project_check.MAX_MASS` has no valid URDF inertial: refused
      with a :class:`FileFormatError` naming the body.
    - A visual read from a URDF keeps its ``<material>`` as read (name, ``<texture>`` …) while
      that still gives its colour (a reference to a named material is resolved as the reader
      does, against what is written), and has none if it had none; the robot-level
      ``<material>`` definitions are written back as read, first. Other visuals get an inline
      ``<material name="kt_color_N"><color rgba/></material>``, one name per distinct colour
      (never a name the file uses). The robot's name and the attributes of ``<robot>``,
      ``<link>`` and ``<joint>`` KineTree does not model are written as read.
    - A mesh read from a URDF is written with its URI as written there: a ``package://`` URI
      always, a relative path or ``file://`` URI while it still names the file from the output
      folder. Other mesh paths under the output folder
      are written relative to it (``../`` for its parent folder, as in the usual ``urdf/`` +
      ``meshes/`` layout), other absolute paths as ``file://`` URIs.
    - Collision geometry → ``<collision>`` (name, origin, geometry), after the visuals.
    - Elements KineTree does not model (``extensions`` of the tree, of each body and of each
      joint, kept by the import) are written back verbatim in their order: a link's after its
      collisions, a joint's after its mimic, the robot's after the last joint. A kept
      ``<inertial>``/``<visual>``/``<collision>`` the importer would refuse is refused, as is
      a non-finite effort, velocity, damping … of a joint's kept ``<limit>``, ``<dynamics>`` ….
    - What the URDF reader would refuse is not written: more than ``MAX_BODIES + 1`` links
      (the extra ``<joint>_frame`` links count) or more than its byte limit.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from pathlib import Path

import numpy as np
from lxml import etree

from ...disk.safe_io import MAX_BODIES, atomic_write_text
from ...errors import FileFormatError, KineTreeError
from ...model.body import RigidBody, Visual
from ...model.xml_fragment import fragment_element
from ...names import derived_name
from ...transforms import axis_angle_rotation, matrix_to_rpy
from ...tree import RigidBodyTree, unique_name
from ..loop_files import LOOPS_TAG, loop_element
from ..project_check import MAX_MASS, check_extensions, check_mass
from .check import UrdfWarning, check_joint_numbers
from .parse import _DEFAULT_COLOR, MAX_BYTES, _rgba, resolve_mesh_uri

__all__ = ["export_urdf", "motor_losses", "urdf_string", "warn_motors_dropped"]

_BIG = sys.float_info.max
_NEW = object()  # a visual whose material as read is not known (not from a URDF, or edited)
#: The URDF reader's size limit: a written file must read back.
_MAX_URDF_BYTES = MAX_BYTES
#: Extension tags that would change the robot's structure if written back where they are kept.
_STRUCTURAL = {"robot": ("link", "joint"), "joint": ("parent", "child", "origin", "axis", "mimic")}


def _num(x: float) -> str:
    v = float(x)
    if v == 0.0:
        return "0"
    if math.isinf(v):
        return repr(math.copysign(_BIG, v))
    return repr(v)


def _vec(v) -> str:
    return " ".join(_num(x) for x in v)


def _origin(parent, T: np.ndarray, as_read: tuple | None = None) -> None:
    """``<origin>`` of ``T``: the numbers as read (``(xyz, rpy)``, kept by the import) when
    given, else computed (rpy of a rotation comes back a few ulps off, so computing the
    numbers of an unchanged origin would change them on every round trip)."""
    if as_read is None:
        T = np.asarray(T, dtype=float)
        as_read = (T[:3, 3], matrix_to_rpy(T[:3, :3]))
    etree.SubElement(parent, "origin", xyz=_vec(as_read[0]), rpy=_vec(as_read[1]))


def _write_dynamics(el, j) -> set[str]:
    """``<dynamics damping friction>`` from the joint's friction, referred to the link side
    (``B·G²``, ``|G|·Tc``); returns what URDF cannot hold of the joint's motor (gear ratio,
    motor inertia, asymmetric Coulomb friction)."""
    g = abs(j.gear_ratio)
    tcp, tcm = j.coulomb_friction
    if j.viscous_friction or tcp or tcm:
        etree.SubElement(el, "dynamics", damping=_num(j.viscous_friction * g * g), friction=_num(tcp * g))
    return motor_losses(j)


_MOTOR = ("gear ratio", "motor inertia", "asymmetric Coulomb friction")


def motor_losses(j, link_side: bool = False) -> set[str]:
    """What a format without KineTree's motor model loses of joint ``j``: its gear ratio and motor
    inertia (not when the format holds their ``link_side`` equivalents, as MJCF's ``armature``),
    and an asymmetric Coulomb friction (every format's friction is one number)."""
    tcp, tcm = j.coulomb_friction
    return {what for what, bad in zip(_MOTOR, (not link_side and j.gear_ratio != 1.0,
                                               not link_side and j.motor_inertia != 0.0, tcm != -tcp)) if bad}


def warn_motors_dropped(lost: dict[str, set[str]], fmt: str = "URDF",
                        holds: str = "<dynamics> holds the link-side damping and friction (Tc+)",
                        stacklevel: int = 4) -> None:
    """One warning for every joint (``lost``: name → :func:`motor_losses`) whose motor ``fmt``
    cannot hold, saying what the file ``holds`` instead."""
    lost = {name: what for name, what in lost.items() if what}
    if not lost:
        return
    names = list(lost)
    shown = ", ".join(repr(n) for n in names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
    what = [w for w in _MOTOR if any(w in v for v in lost.values())]
    warnings.warn(f"joint{'s' if len(names) > 1 else ''} {shown}: {fmt} has no {', '.join(what)}: {holds}; "
                  "a project (.kinetree.json) keeps them all", UserWarning, stacklevel=stacklevel)


def _joint_origin_as_read(joint, T: np.ndarray) -> tuple | None:
    """The joint's origin numbers as read, if ``T`` is still the transform they gave."""
    read = getattr(joint, "_urdf_origin", None)
    return read[1:] if read is not None and np.array_equal(read[0], T) else None


def _inertial_as_read(body: RigidBody) -> tuple | None:
    """The body's ``<inertial>`` numbers as read, if its mass properties are still what they gave."""
    read = getattr(body, "_urdf_inertial", None)
    if read is None or body.mass != read[0] or tuple(body.center_of_mass.tolist()) != read[1] \
            or tuple(body.inertia.tolist()) != read[2]:
        return None
    return read[3]


def _inertia_about_com(body: RigidBody) -> np.ndarray:
    """The body's 3×3 inertia about its centre of mass, or :class:`FileFormatError` naming the
    body when that is not a physical inertia (a URDF cannot hold it)."""
    m, c, Io = body.mass, body.center_of_mass, body.inertia
    I = np.array([[Io[0], Io[5], Io[4]], [Io[5], Io[1], Io[3]], [Io[4], Io[3], Io[2]]])
    shift = m * (float(c @ c) * np.eye(3) - np.outer(c, c))  # as the import's, so round trips are exact
    Ic = I - shift
    rows = Ic.tolist()  # plain floats: a 20,000-body export checks them in a few ms
    # rounding of the parallel-axis subtraction: relative to the larger of the two terms
    tol = 1e-12 * max(max(map(abs, Io.tolist())), m * float(c @ c))
    # Gershgorin: a moment at least its row's off-diagonal sum is PSD (most inertias, cheaply)
    if all(r[i] >= 0.0 and 2 * r[i] >= sum(map(abs, r)) for i, r in enumerate(rows)):
        lowest = 0.0
    else:
        lowest = float(np.linalg.eigvalsh(Ic).min())
    if lowest < -tol:
        tensor = [float(Ic[i, j]) for i, j in ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))]
        if m * float(c @ c) == 0.0:  # the tensor itself is wrong
            why, fix = "", "make it positive semi-definite (e.g. smaller products of inertia)"
        else:
            why = f" (its body-frame inertia {Io.tolist()} less mass {m!r} at centre of mass {c.tolist()})"
            fix = "raise the inertia or move the centre of mass"
        raise FileFormatError(
            f"body {body.name!r}: inertia about the centre of mass [ixx iyy izz iyz ixz ixy] = {tensor}{why} "
            f"is not physical: it has a negative principal moment, {lowest:.6g} (a real body's principal "
            f"moments are ≥ 0, each at most the sum of the other two); a URDF cannot hold it: {fix}")
    big = max(abs(x) for r in rows for x in r)
    if big > MAX_MASS:
        raise FileFormatError(f"body {body.name!r}: inertia about the centre of mass {big:g} is more than "
                              f"{MAX_MASS:g}; a URDF reader refuses it")
    for i in range(3):
        if Ic[i, i] < 0.0:
            Ic[i, i] = 0.0  # a rounding-size negative moment is a zero one
    return Ic



def relative_mesh_uri(filename: str, out_dir: Path | None) -> str:
    """A mesh's reference in a file written to ``out_dir``: a URI or relative name as it is, an
    absolute path relative to the output's folder (or its parent), else a ``file://`` URI."""
    if "://" in filename or not os.path.isabs(filename):
        return filename
    p = Path(filename)
    if out_dir is not None:
        for up, start in enumerate((out_dir, out_dir.parent)):
            try:
                return "../" * up + p.relative_to(start).as_posix()
            except ValueError:
                pass
    return p.as_uri()

class _ExportCtx:
    """The ``ctx`` of urdf_check's checks, for kept elements (no file or line yet)."""

    @staticmethod
    def error(el, what: str, msg: str) -> FileFormatError:
        return FileFormatError(f"{what}: {msg}")


class _Writer:
    def __init__(self, tree: RigidBodyTree, robot_name: str, out_dir: Path | None) -> None:
        self.tree = tree
        self.out_dir = out_dir
        self.root = etree.Element("robot", name=robot_name)
        self.root.attrib.update(getattr(tree.base, "_urdf_robot_attrs", {}))
        self.motors_lost: dict[str, set[str]] = {}  # joint → what of its motor URDF cannot hold
        self.colors: dict[tuple[float, ...], str] = {}
        # each visual's <visual> element, colour and <material> as read (None: none; _NEW: not known)
        self.materials: list[tuple[etree._Element, tuple[float, ...], str | None]] = []
        self.links = {tree.base_name, *tree.body_names}
        self.joints = set(tree.joint_names())

    def mesh_path(self, filename: str, uri: str | None = None) -> str:
        """The mesh's URI: ``uri`` (as written in the URDF read) if it still names the file
        from the output folder (a ``package://`` URI always), else one computed from the path."""
        if uri is not None and uri != filename:
            if uri.startswith("package://") or (
                    resolve_mesh_uri(uri, self.out_dir) == filename if self.out_dir is not None
                    else uri.startswith("file://")):  # a string has no folder: only absolute URIs hold
                return uri
        return relative_mesh_uri(filename, self.out_dir)

    def link(self, body: RigidBody) -> None:
        el = etree.SubElement(self.root, "link", name=body.name)
        el.attrib.update(getattr(body, "_urdf_attrs", {}))
        m, c, Io = body.mass, body.center_of_mass, body.inertia
        read = _inertial_as_read(body)
        own = bool(read is not None or m != 0.0 or np.any(c != 0.0) or np.any(Io != 0.0))
        if read is not None:  # unchanged: as read, bit for bit (even a tensor that is not physical)
            origin, mass, moments = read[:2], read[2], read[3]
        elif own:
            check_mass(body.name, m, "a URDF reader")
            Ic = _inertia_about_com(body)
            origin, mass = (c, (0.0, 0.0, 0.0)), m
            moments = (Ic[0, 0], Ic[0, 1], Ic[0, 2], Ic[1, 1], Ic[1, 2], Ic[2, 2])
        if own:
            ine = etree.SubElement(el, "inertial")
            _origin(ine, np.eye(4), origin)
            etree.SubElement(ine, "mass", value=_num(mass))
            etree.SubElement(ine, "inertia", dict(zip(("ixx", "ixy", "ixz", "iyy", "iyz", "izz"), map(_num, moments))))
        shapes = getattr(body, "_urdf_shapes", None) or {"poses": {}, "meshes": {}}
        mats = shapes.get("materials", {})
        for v in body.visuals:
            ve = self.shape(el, "visual", v, shapes)
            color = tuple(v.color)
            # the material as read while the visual (or its colour, kind and mesh file) is unchanged
            self.materials.append((ve, color, mats.get(v, mats.get((color, v.kind, v.filename), _NEW))))
        for c in body.collisions:
            self.shape(el, "collision", c, shapes)
        if body.extensions:
            check_extensions(body.extensions, f"body {body.name!r}", "link", own)
        self.extensions(el, body.extensions, f"body {body.name!r}")

    def write_materials(self) -> None:
        """Give each visual its ``<material>``: as read if it still gives the visual's colour
        (a reference to a named material is resolved as the reader does, against what is
        written), none if it had none, else ``kt_color_N`` with the colour inline."""
        def rgba(mat) -> tuple[float, ...]:
            return _rgba((mat.find("color").get("rgba") or "1 1 1 1").split())

        named: dict[str, tuple[float, ...]] = {}  # the reader's global materials, robot-level first
        taken = set()
        for mat in self.root.iterchildren("material"):
            taken.add(mat.get("name"))
            if mat.get("name") and mat.find("color") is not None:
                named.setdefault(mat.get("name"), rgba(mat))
        placed, count = [], 0
        for ve, color, text in self.materials:
            mat = None if text in (None, _NEW) else fragment_element(text)
            if mat is not None:
                taken.add(mat.get("name"))
                if mat.get("name") and mat.find("color") is not None:
                    named.setdefault(mat.get("name"), rgba(mat))
            placed.append((ve, color, text, mat))
        for ve, color, text, mat in placed:
            if mat is not None and mat.find("color") is None \
                    and named.get(mat.get("name"), _DEFAULT_COLOR) != color:
                mat = None  # the name now gives another colour (its definition was edited)
            if mat is None and text is not None:
                if color not in self.colors:
                    while f"kt_color_{count}" in taken:  # never a name the file uses
                        count += 1
                    self.colors[color] = f"kt_color_{count}"
                    count += 1
                mat = etree.Element("material", name=self.colors[color])
                etree.SubElement(mat, "color", rgba=_vec(color))
            if mat is not None:
                ve.append(mat)

    def shape(self, parent, tag: str, v: Visual, read: dict) -> etree._Element:
        """``read``: the body's shape origins and mesh URIs as read (see urdf._fill_body)."""
        ve = etree.SubElement(parent, tag, name=v.name) if v.name else etree.SubElement(parent, tag)
        _origin(ve, v.matrix, read["poses"].get(v.pose))
        g = etree.SubElement(ve, "geometry")
        if v.kind == "box":
            etree.SubElement(g, "box", size=_vec(v.size))
        elif v.kind == "cylinder":
            etree.SubElement(g, "cylinder", radius=_num(v.size[0]), length=_num(v.size[1]))
        elif v.kind == "sphere":
            etree.SubElement(g, "sphere", radius=_num(v.size[0]))
        else:
            uri = read["meshes"].get(v, read["meshes"].get(v.filename))
            me = etree.SubElement(g, "mesh", filename=self.mesh_path(v.filename, uri))
            if tuple(v.size) != (1.0, 1.0, 1.0):
                me.set("scale", _vec(v.size))
        return ve

    @staticmethod
    def extensions(parent, texts: tuple[str, ...], owner: str, level: str = "",
                   limit: etree._Element | None = None) -> None:
        """Append the kept elements to ``parent``. On a joint, a ``<limit>`` extension carries
        the limit's unmodelled attributes (effort, velocity …): merged into ``limit`` (the one
        written from KineTree's limits), or written alone when there is none."""
        for k, text in enumerate(texts):
            what = f"{owner}: extension {k}"
            try:
                ext = fragment_element(text, what)
            except KineTreeError as exc:
                raise FileFormatError(str(exc)) from None
            if ext.tag in _STRUCTURAL.get(level, ()):
                raise FileFormatError(f"{what}: a <{ext.tag}> element cannot be written back here "
                                      "(it would change the robot's structure)")
            if level == "joint":  # a NaN effort or damping (from a project file) would make the URDF unreadable
                check_joint_numbers(ext, _ExportCtx(), what)
            if level == "joint" and ext.tag == "limit":
                for bound in ("lower", "upper"):  # KineTree's own limits decide these
                    ext.attrib.pop(bound, None)
                if limit is not None:
                    limit.attrib.update(ext.attrib)
                    continue
                limit = ext
            parent.append(ext)

    def joint_el(self, name: str, jtype: str, parent: str, child: str, T: np.ndarray,
                 as_read: tuple | None = None, attrs: dict | None = None) -> etree._Element:
        el = etree.SubElement(self.root, "joint", name=name, type=jtype)
        el.attrib.update(attrs or {})
        etree.SubElement(el, "parent", link=parent)
        etree.SubElement(el, "child", link=child)
        _origin(el, T, as_read)
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
        if j._rows:
            raise FileFormatError(
                f"joint {j.name!r} (body {body.name!r}): a {t} joint ({len(j._rows)} motions, RBDL's motion "
                "subspace) has no URDF equivalent; replace it by a chain of revolute and prismatic joints "
                "with massless links before exporting (MJCF export writes it as it is)"
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
            child = unique_name(derived_name(j.name, "_frame"), self.links, "_")
        el = self.joint_el(j.name, urdf_type, parent, child, origin, _joint_origin_as_read(j, origin),
                           getattr(j, "_urdf_attrs", None))
        if axis is not None:
            etree.SubElement(el, "axis", xyz=_vec(axis))
        limit = None
        if t in ("revolute", "prismatic"):
            if urdf_type != "continuous":
                lo, hi = (float(x) for x in j.position_limits)
                limit = etree.SubElement(el, "limit", lower=_num(lo), upper=_num(hi), effort="0", velocity="0")
            if j.mimic is not None:
                etree.SubElement(el, "mimic", joint=j.mimic.joint, multiplier=_num(j.mimic.multiplier),
                                 offset=_num(j.mimic.offset))
        if t in ("revolute", "prismatic") and (lost := _write_dynamics(el, j)):
            self.motors_lost[j.name] = lost
        if j.extensions:
            check_extensions(j.extensions, f"joint {j.name!r}", "joint")
        self.extensions(el, j.extensions, f"joint {j.name!r}", "joint", limit)
        if extra:
            etree.SubElement(self.root, "link", name=child)
            fixed = unique_name(derived_name(j.name, "_child_to_joint"), self.joints, "_")
            self.joint_el(fixed, "fixed", child, body.name, ctj)


def urdf_string(tree: RigidBodyTree, robot_name: str | None = None) -> str:
    """The URDF text of ``tree`` (see the module docstring for how each part is written); the
    robot is named ``robot_name``, else as in the URDF read, else ``robot``."""
    return _export(tree, robot_name or getattr(tree.base, "_urdf_robot", None) or "robot", None)


def _export(tree: RigidBodyTree, robot_name: str, out_dir: Path | None) -> str:
    for lp in tree.loops:  # URDF is a tree: its readers see the spanning tree only
        warnings.warn(f"URDF cannot hold a closed loop: loop {lp.name!r} ({lp.kind} between {lp.body_a!r} and "
                      f"{lp.body_b!r}) is cut, the URDF holds the spanning tree; the loop is kept in "
                      f"<{LOOPS_TAG}>, which KineTree's URDF import reads back", UrdfWarning, stacklevel=4)
    if len(tree.bodies) > MAX_BODIES:  # early: the links counted below may only add to this
        raise FileFormatError(f"{len(tree.bodies)} bodies is more than the {MAX_BODIES} a URDF may have "
                              "to be read back")
    w = _Writer(tree, robot_name, out_dir)
    w.root.append(etree.Comment(" Exported by KineTree "))
    for text in getattr(tree.base, "_urdf_materials", ()):  # the robot's <material> definitions as read
        w.root.append(fragment_element(text))
    w.link(tree.base)
    for b in tree.bodies:
        w.link(b)
        w.joint(b, tree.parent_name(b.name))
    w.write_materials()
    warn_motors_dropped(w.motors_lost)
    check_extensions(tree.extensions, "robot", "robot")
    w.extensions(w.root, tree.extensions, "robot", "robot")
    if (kept := loop_element(tree)) is not None:
        w.root.append(kept)
    n_links = sum(1 for _ in w.root.iterchildren("link"))
    if n_links > MAX_BODIES + 1:  # the URDF reader's limit
        raise FileFormatError(f"{n_links} URDF links (with the root and any <joint>_frame links) is more than "
                              f"the {MAX_BODIES + 1} a URDF may have to be read back")
    data = etree.tostring(w.root, pretty_print=True, xml_declaration=True, encoding="utf-8")
    if len(data) > _MAX_URDF_BYTES:
        raise FileFormatError(f"the URDF would be {len(data) / 2**20:.1f} MB, more than the "
                              f"{_MAX_URDF_BYTES // 2**20} MB a URDF may have to be read back")
    return data.decode("utf-8")


def export_urdf(tree: RigidBodyTree, path: str | os.PathLike, *, robot_name: str | None = None) -> None:
    """Write ``tree`` as URDF to ``path`` atomically; the robot is named ``robot_name``, else as
    in the URDF read, else after the file. Raises :class:`FileFormatError` for a spherical joint."""
    path = Path(path)
    name = robot_name or getattr(tree.base, "_urdf_robot", None) or path.name.split(".")[0] or "robot"
    atomic_write_text(path, _export(tree, name, path.parent.resolve()))
