"""SDFormat 1.9 export: :func:`export_sdf` and :func:`sdf_string` (see :mod:`kinetree.core.io.sdf`)."""

from __future__ import annotations

import math
import os
import warnings
from pathlib import Path

import numpy as np
from lxml import etree

from ...disk.safe_io import MAX_BODIES, atomic_write_text
from ...errors import FileFormatError, KineTreeError
from ...model.body import RigidBody, Visual
from ...model.xml_fragment import fragment_element
from ...transforms import axis_angle_rotation, matrix_to_rpy
from ...tree import RigidBodyTree
from ..mesh_copy import MeshCopies
from ..project_check import MAX_MASS, check_mass
from ..urdf.write import relative_mesh_uri
from .model import RESERVED, SdfWarning, reserved_name

__all__ = ["export_sdf", "sdf_string"]

_MODEL_KEEP = {"static", "self_collide", "allow_auto_disable", "enable_wind", "plugin", "gripper"}
_LINK_KEEP = {"gravity", "enable_wind", "self_collide", "kinematic", "must_be_base_link", "velocity_decay", "sensor",
              "projector", "audio_sink", "audio_source", "battery", "light", "particle_emitter", "visual",
              "collision"}
_JOINT_KEEP = {"sensor", "physics", "gearbox_ratio", "gearbox_reference_body", "thread_pitch", "screw_thread_pitch"}
_BIG = 1e16


def _num(x: float) -> str:
    v = float(x)
    return "0" if v == 0.0 else repr(v)


def _vec(v) -> str:
    return " ".join(_num(x) for x in v)


def _pose(parent, T: np.ndarray, rel: str | None = None) -> None:
    T = np.asarray(T, dtype=float)
    if np.array_equal(T, np.eye(4)) and rel is None:
        return
    el = etree.SubElement(parent, "pose")
    if rel is not None:
        el.set("relative_to", rel)
    el.text = f"{_vec(T[:3, 3])} {_vec(matrix_to_rpy(T[:3, :3]))}"


def _sub(parent, tag: str, text: str) -> etree._Element:
    el = etree.SubElement(parent, tag)
    el.text = text
    return el


class _Writer:
    def __init__(self, tree: RigidBodyTree, name: str, out_dir: Path | None, out_file: Path | None = None) -> None:
        self.tree = tree
        self.out_dir = out_dir
        self.files = MeshCopies(out_file) if out_file is not None else None  # meshes copied beside the file
        self.root = etree.Element("sdf", version="1.9")
        self.model = etree.SubElement(self.root, "model", name=name)
        self.scopes: dict[str, etree._Element] = {"": self.model}
        self.dropped: dict[str, list[str]] = {}
        self.lost: list[str] = []

    def scope(self, name: str) -> tuple[etree._Element, str]:
        """The ``<model>`` element a ``::`` name belongs in (made on first use) and its local name."""
        prefix, _, local = name.rpartition("::")
        if prefix not in self.scopes:
            outer, own = self.scope(prefix)
            self.scopes[prefix] = etree.SubElement(outer, "model", name=own)
        return self.scopes[prefix], local

    def keep(self, parent, texts, allowed: set[str], owner: str) -> dict:
        """Write the kept elements SDFormat can hold; return the ``<limit>`` one's attributes."""
        limit: dict = {}
        for k, text in enumerate(texts):
            try:
                el = fragment_element(text, f"{owner}: extension {k}")
            except KineTreeError as exc:
                raise FileFormatError(str(exc)) from None
            tag = etree.QName(el).localname
            if el.tag == "limit" and not len(el):  # effort and velocity (from a URDF or an SDFormat file)
                limit.update({a: el.get(a) for a in ("effort", "velocity") if el.get(a) is not None})
            elif el.tag in allowed or (el.prefix and ":" not in tag):
                parent.append(el)
            else:
                self.dropped.setdefault(f"<{el.tag}>", []).append(owner)
        return limit

    def mesh_uri(self, filename: str) -> str:
        """Relative to the output's folder (or its parent: the folder tree the reader looks in);
        a mesh elsewhere is copied beside the file (a ``file://`` URI would be refused on reading).
        A ``file://`` the import kept unread is written as it was, never read here."""
        uri = relative_mesh_uri(filename, self.out_dir)
        if self.files is not None and uri.startswith("file://") and os.path.isabs(filename):
            return self.files.copy(filename) or uri  # not copied: as before, and said (see sdf_string)
        return uri

    def link(self, body: RigidBody, pose: np.ndarray | None, rel: str | None) -> etree._Element:
        parent, local = self.scope(body.name)
        el = etree.SubElement(parent, "link", name=local)
        if pose is not None:
            _pose(el, pose, rel)
        m, c, Io = body.mass, body.center_of_mass, body.inertia
        # always written: a link without <inertial> has SDFormat's default mass 1, not 0
        Ixx, Iyy, Izz, Iyz, Ixz, Ixy = Io
        I = np.array([[Ixx, Ixy, Ixz], [Ixy, Iyy, Iyz], [Ixz, Iyz, Izz]])
        Ic = I - m * (float(c @ c) * np.eye(3) - np.outer(c, c))
        check_mass(body.name, m, "an SDFormat reader")
        if not np.abs(Ic).max() <= MAX_MASS:  # the reader's bound on each moment
            raise FileFormatError(f"body {body.name!r}: inertia about the centre of mass {np.abs(Ic).max():g} is "
                                  f"more than the {MAX_MASS:g} an SDFormat reader accepts")
        ine = etree.SubElement(el, "inertial")
        T = np.eye(4)
        T[:3, 3] = c
        _pose(ine, T)
        _sub(ine, "mass", _num(m))
        it = etree.SubElement(ine, "inertia")
        for tag, v in (("ixx", Ic[0, 0]), ("ixy", Ic[0, 1]), ("ixz", Ic[0, 2]), ("iyy", Ic[1, 1]),
                       ("iyz", Ic[1, 2]), ("izz", Ic[2, 2])):
            _sub(it, tag, _num(v))
        names: set[str] = set()
        for tag, shapes in (("visual", body.visuals), ("collision", body.collisions)):
            for k, v in enumerate(shapes):
                name = v.name if v.name and v.name not in names else f"{tag}_{k}"
                while name in names:
                    name += "_"
                names.add(name)
                self.shape(el, tag, name, v)
        self.keep(el, body.extensions, _LINK_KEEP, f"body {body.name!r}")
        return el

    def shape(self, parent, tag: str, name: str, v: Visual) -> None:
        ve = etree.SubElement(parent, tag, name=name)
        _pose(ve, v.matrix)
        g = etree.SubElement(etree.SubElement(ve, "geometry"), v.kind)
        if v.kind == "box":
            _sub(g, "size", _vec(v.size))
        elif v.kind == "cylinder":
            _sub(g, "radius", _num(v.size[0]))
            _sub(g, "length", _num(v.size[1]))
        elif v.kind == "sphere":
            _sub(g, "radius", _num(v.size[0]))
        else:
            _sub(g, "uri", self.mesh_uri(v.filename))
            if tuple(v.size) != (1.0, 1.0, 1.0):
                _sub(g, "scale", _vec(v.size))
        if tag == "visual":
            mat = etree.SubElement(ve, "material")
            for t in ("ambient", "diffuse"):
                _sub(mat, t, _vec(v.color))

    def axis(self, el, tag: str, j, limit: dict) -> None:
        ax = etree.SubElement(el, tag)
        _sub(ax, "xyz", _vec(j.axis))
        lo, hi = (float(x) for x in j.position_limits)
        if not (math.isinf(lo) and math.isinf(hi) and j.type == "revolute") or limit:
            lim = etree.SubElement(ax, "limit")
            _sub(lim, "lower", _num(max(lo, -_BIG)))
            _sub(lim, "upper", _num(min(hi, _BIG)))
            for k in ("effort", "velocity"):
                if k in limit:
                    _sub(lim, k, _num(float(limit[k])))
        if self.tree.loops and float(j.home_position) != 0.0:  # a looped tree's home: its closed configuration
            _sub(ax, "initial_position", _num(float(j.home_position)))
        g = abs(j.gear_ratio)
        tcp, tcm = j.coulomb_friction
        if j.viscous_friction or tcp:
            dyn = etree.SubElement(ax, "dynamics")
            _sub(dyn, "damping", _num(j.viscous_friction * g * g))
            _sub(dyn, "friction", _num(tcp * g))
        if j.gear_ratio != 1.0 or j.motor_inertia != 0.0 or tcm != -tcp:
            self.lost.append(j.name)
        if j.mimic is not None:
            self.lost.append(j.name)

    def joint(self, body: RigidBody, parent: str, world: bool) -> None:
        j = body.joint
        t = j.type
        jtp, ctj = j.joint_to_parent_transform, j.child_to_joint_transform
        if t == "floating" and world and parent == self.tree.base_name:
            self.link(body, jtp @ ctj, None)  # a link without a joint: free in the world
            return
        if t in ("floating", "planar") or j._rows:
            raise FileFormatError(f"joint {j.name!r} (body {body.name!r}): a {t} joint has no SDFormat equivalent"
                                  + (" except from the world" if t == "floating" else "")
                                  + "; replace it by revolute and prismatic joints before exporting")
        second = self._universal_child(body)
        if t in ("revolute", "prismatic") and j.offset:
            M = np.eye(4)
            if t == "revolute":
                M[:3, :3] = axis_angle_rotation(j.axis, j.offset)
            else:
                M[:3, 3] = j.offset * j.axis
            jtp = jtp @ M
        scope_el, local = self.scope(j.name)
        prefix = j.name[: len(j.name) - len(local)]
        jtype = {"spherical": "ball"}.get(t, t)
        if t == "revolute" and all(math.isinf(float(x)) for x in j.position_limits):
            jtype = "continuous"
        if second is not None:
            jtype = "universal"
        el = etree.SubElement(scope_el, "joint", name=local, type=jtype)
        world_parent = world and parent == self.tree.base_name
        rel = "__model__" if world_parent else self._local(parent, prefix, j)
        _pose(el, jtp, rel)
        _sub(el, "parent", "world" if world_parent else self._local(parent, prefix, j))
        child = second[0] if second is not None else body
        _sub(el, "child", self._local(child.name, prefix, j))
        texts = j.extensions
        if t in ("revolute", "prismatic"):
            kept = [x for x in texts if x.lstrip().startswith("<limit")]
            limit = self.keep(etree.Element("x"), kept, set(), f"joint {j.name!r}")
            self.axis(el, "axis", j, limit)
            texts = tuple(x for x in texts if x not in kept)
        if second is not None:
            j2 = second[0].joint
            limit2 = self.keep(etree.Element("x"), j2.extensions, set(), f"joint {j2.name!r}")
            self.axis(el, "axis2", j2, limit2)
            ctj = j2.child_to_joint_transform
        self.keep(el, texts, _JOINT_KEEP, f"joint {j.name!r}")
        # the child link's pose: in the joint frame when it can name the joint, else in its model frame
        cscope, _ = self.scope(child.name)
        if cscope is scope_el:
            self.link(child, ctj, local)
        else:
            self.link(child, self.home[child.name], None)
        if second is not None:
            self.written.add(child.name)

    def _local(self, name: str, prefix: str, j) -> str:
        if name.startswith(prefix):
            return name[len(prefix):]
        raise FileFormatError(f"joint {j.name!r}: body {name!r} is outside its model {prefix[:-2]!r}; an SDFormat "
                              "joint connects only links of its own model (or models nested in it)")

    def _universal_child(self, body: RigidBody):
        """``(child body,)`` when ``body`` is the massless cross of a universal joint read from SDFormat
        and still one, else ``None``."""
        if getattr(body, "_sdf_universal", None) != body.joint.name or body.joint.type != "revolute":
            return None
        kids = body.children
        if len(kids) != 1 or body.mass or body.visuals or body.collisions or body.extensions or body.joint.offset:
            return None
        k = kids[0].joint
        if k.type != "revolute" or k.offset or k.mimic is not None \
                or not np.array_equal(k.joint_to_parent_transform, np.eye(4)) \
                or not np.array_equal(body.joint.child_to_joint_transform, np.eye(4)):
            return None
        return (kids[0],)


#: The SDFormat joint type each loop kind is written as (read back by sdf_read._LOOP_KINDS).
_LOOP_TYPES = {"hinge": "continuous", "slider": "prismatic", "ball": "ball", "weld": "fixed"}


def _write_loops(w: _Writer, tree: RigidBodyTree, world: bool) -> None:
    """Each loop as a joint whose child link already has a parent (a cycle in the model graph), at
    the loop's frame on the child (z: the hinge's or slider's axis), with the frame on the parent
    as ``<frame name="<loop>__kinetree_parent">`` (exact also where the loop is open at the zero
    configuration the file describes). SDFormat marks no joint passive: a warning says so."""
    taken = {b.joint.name for b in tree.bodies}
    for lp in tree.loops:
        a, Xa, b, Xb = lp.body_a, lp.frame_a, lp.body_b, lp.frame_b
        if world and b == tree.base_name:  # the world cannot be a child: the loop seen from its other side
            a, Xa, b, Xb = b, Xb, a, Xa
        if lp.name in taken or reserved_name(lp.name) or "::" in lp.name + a + b:
            raise FileFormatError(f"loop {lp.name!r}: SDFormat writes a loop as a joint of that name, which clashes "
                                  "with a joint or is reserved, or joins a nested model's link; rename it first")
        parent = "world" if world and a == tree.base_name else a
        rel = "__model__" if parent == "world" else parent
        frame = etree.SubElement(w.model, "frame", name=f"{lp.name}__kinetree_parent", attached_to=rel)
        _pose(frame, Xa, rel)
        el = etree.SubElement(w.model, "joint", name=lp.name, type=_LOOP_TYPES[lp.kind])
        _pose(el, Xb, b)
        _sub(el, "parent", parent)
        _sub(el, "child", b)
        if lp.kind in ("hinge", "slider"):
            axis = etree.SubElement(el, "axis")
            _sub(axis, "xyz", "0 0 1")
            if lp.kind == "slider":
                limit = etree.SubElement(axis, "limit")
                _sub(limit, "lower", _num(-_BIG))
                _sub(limit, "upper", _num(_BIG))
    passive = [b.joint.name for b in tree.bodies if not b.joint.actuated]
    if passive:
        shown = ", ".join(map(repr, passive[:5])) + (" …" if len(passive) > 5 else "")
        warnings.warn(f"SDFormat cannot mark joints passive ({shown}): reading the file back actuates the first "
                      "joints the loops leave free instead (a project keeps them)", SdfWarning, stacklevel=4)


def sdf_string(tree: RigidBodyTree, model_name: str | None = None, out_dir: Path | None = None, *,
               out_file: Path | None = None) -> str:
    """The SDFormat 1.9 text of ``tree``; the model is named ``model_name``, else as read, else ``robot``.
    ``out_file``: the file it is written to (in ``out_dir``): meshes outside the folder tree it
    is read with are copied into ``<name>_assets/`` beside it."""
    if len(tree.bodies) > MAX_BODIES:
        raise FileFormatError(f"{len(tree.bodies)} bodies is more than the {MAX_BODIES} an SDFormat file may have "
                              "to be read back")
    info = getattr(tree.base, "_sdf_model", None) or {}
    w = _Writer(tree, model_name or info.get("name") or "robot", out_dir, out_file)
    w.root.insert(0, etree.Comment(" Exported by KineTree "))
    base = tree.base
    world = base.name == "world"
    if world and (base.mass or base.visuals or base.collisions or base.extensions):
        raise FileFormatError("body 'world' (the base): SDFormat reserves the name 'world' for the world, which has "
                              "no mass, shapes or elements; rename the base before exporting")
    named = [("body", b.name) for b in ([] if world else [base]) + list(tree.bodies)]  # 'world' base: the world
    for kind, name in [*named, *(("joint", b.joint.name) for b in tree.bodies)]:
        if any(reserved_name(part) for part in name.split("::")):  # a '::' name is written as nested models
            raise FileFormatError(f"{kind} {name!r}: SDFormat reserves it ({RESERVED}); rename it before exporting")
    w.home = {base.name: np.eye(4)}
    for b in tree.bodies:
        q = np.zeros(max(1, b.joint.position_count))
        if b.joint.type in ("spherical", "floating"):
            q[0] = 1.0  # the identity quaternion
        w.home[b.name] = w.home[tree.parent_name(b.name)] @ b.joint.transform(q)
    if not world:
        w.link(base, getattr(base, "_sdf_root_pose", None), None)
    w.written = set()
    for b in tree.bodies:
        if b.name not in w.written:
            w.joint(b, tree.parent_name(b.name), world)
    _write_loops(w, tree, world)
    w.keep(w.model, tree.extensions, _MODEL_KEEP, "robot")
    if w.dropped:
        shown = "; ".join(f"{tag} of {', '.join(o[:3])}{' …' if len(o) > 3 else ''}"
                          for tag, o in ((t, list(dict.fromkeys(v))) for t, v in w.dropped.items()))
        warnings.warn(f"elements SDFormat cannot hold not written: {shown}", SdfWarning, stacklevel=3)
    if w.files is not None and w.files.dropped:
        warnings.warn(f"meshes not copied beside the file, referenced where they are (a reader may refuse "
                      f"them): {'; '.join(w.files.dropped[:3])}{' …' if len(w.files.dropped) > 3 else ''}",
                      SdfWarning, stacklevel=3)
    if w.lost:
        names = ", ".join(map(repr, dict.fromkeys(w.lost)))
        warnings.warn(f"joints {names}: SDFormat 1.9 has no gear ratio, motor inertia, asymmetric Coulomb "
                      "friction or mimic; written without them (a project keeps them)", SdfWarning, stacklevel=3)
    return etree.tostring(w.root, pretty_print=True, xml_declaration=True, encoding="utf-8").decode("utf-8")


def export_sdf(tree: RigidBodyTree, path: str | os.PathLike, *, model_name: str | None = None) -> None:
    """Write ``tree`` as SDFormat 1.9 to ``path`` atomically (meshes relative to its folder, those
    outside the folder tree copied beside it)."""
    path = Path(path)
    info = getattr(tree.base, "_sdf_model", None) or {}
    name = model_name or info.get("name") or getattr(tree.base, "_urdf_robot", None) or path.name.split(".")[0]
    out = path.parent.resolve() / path.name
    atomic_write_text(path, sdf_string(tree, name or "robot", out.parent, out_file=out))
