"""MJCF import: MuJoCo's own compiler reads the vetted model, KineTree reads the compiled model.

See :mod:`kinetree.core.io.mjcf` for the rules.
"""

from __future__ import annotations

import copy
import math
import os
import warnings
from collections.abc import Callable

import numpy as np
from lxml import etree

from ...errors import FileFormatError, KineTreeError
from ...model.body import RigidBody, Visual
from ...model.joint import Joint, Mimic
from ...model.xml_fragment import fragment_text
from ...transforms import quat_to_rotation
from ...tree import RigidBodyTree, unique_name
from ..project_check import check_mass
from .files import BASE_TEXT, KEPT_TAG, SOURCE_ATTR, Vetted, _key, vet_model
from .loops import MARK, read_file_loops

__all__ = ["KEPT_TAG", "MjcfWarning", "import_mjcf"]

#: Top-level sections written back verbatim (``<compiler>`` is not: export writes its own).
KEPT_SECTIONS = ("option", "size", "visual", "statistic", "default", "custom", "extension", "asset", "contact",
                 "deformable", "equality", "tendon", "actuator", "sensor", "keyframe")
_BODY_KEPT = ("site", "camera", "light")
#: A body's attributes kept (the rest is its frame, name and class, which the tree holds).
_BODY_ATTRS = ("mocap", "gravcomp", "user")
#: A joint's attributes KineTree models (the others are kept).
_JOINT_MODELLED = ("name", "type", "pos", "axis", "ref", "range", "limited", "damping", "frictionloss", "armature")
_GEOM = {0: "plane", 1: "hfield", 2: "sphere", 3: "capsule", 4: "ellipsoid", 5: "cylinder", 6: "box", 7: "mesh",
         8: "sdf"}
_EQ_JOINT = 2  # mjEQ_JOINT


class MjcfWarning(UserWarning):
    """Something in an MJCF model was left out or approximated (the import still succeeds)."""


def _pose(pos, quat) -> np.ndarray:
    T = np.eye(4)
    T[:3, :3] = quat_to_rotation(quat)
    T[:3, 3] = pos
    return T


def _trans(p) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = p
    return T


def _mujoco():
    try:
        import mujoco
    except ImportError as exc:  # a declared dependency; a broken install says so
        raise FileFormatError(f"reading MJCF needs the 'mujoco' package ({exc})") from None
    return mujoco


def _compile(v: Vetted, found: list[str]):
    """:func:`_compile_spec` with MuJoCo's own warnings (a deprecated attribute …) added to
    ``found``, not written to a MUJOCO_LOG.TXT in the working folder."""
    mj = _mujoco()
    previous = mj.get_mju_user_warning()
    mj.set_mju_user_warning(lambda msg: found.append(f"{v.source}: MuJoCo: {' '.join(str(msg).split())}"))
    try:
        with warnings.catch_warnings(record=True) as caught:  # the bindings turn some into Python warnings
            warnings.simplefilter("always")
            result = _compile_spec(v, found)
    finally:
        mj.set_mju_user_warning(previous)
    found += [f"{v.source}: MuJoCo: {' '.join(str(w.message).split())}" for w in caught]
    return result


def _compile_spec(v: Vetted, found: list[str]):
    """The MjSpec and MjModel of the vetted model; a file MuJoCo would have to open that we did
    not hand it is dropped (with what uses it) and reported."""
    mj = _mujoco()
    try:
        spec = mj.MjSpec.from_string(v.xml, include=v.includes, assets=v.assets)
    except Exception as exc:  # MuJoCo raises ValueError; anything it raises is the file's fault
        raise FileFormatError(f"{v.source}: MuJoCo: {' '.join(str(exc).split())}") from None
    missing = {m[1]: m[2] for m in v.missing}

    def absent(folder: str, name: str) -> bool:
        return bool(name) and _key(folder, name) not in v.assets

    def note(name: str, what: str) -> None:
        found.append(missing.get(name, f"{v.source}: {what} file {name!r:.200} not found; what uses it is left out"))

    meshdir, texdir = spec.meshdir or "", spec.texturedir or ""
    for mesh in list(spec.meshes):
        if absent(meshdir, mesh.file):
            note(mesh.file, f"mesh {mesh.name!r}")
            for g in list(spec.geoms):
                if g.meshname == mesh.name:
                    spec.delete(g)
            spec.delete(mesh)
    for tex in list(spec.textures):
        names = [tex.file, *getattr(tex, "cubefiles", [])]
        if any(absent(texdir, n) for n in names if n):
            note(tex.file or next(n for n in names if n), f"texture {tex.name!r}")
            for mat in spec.materials:
                mat.textures = ["" if t == tex.name else t for t in mat.textures]
            spec.delete(tex)
    for hf in list(spec.hfields):
        if absent(meshdir, hf.file):
            note(hf.file, f"hfield {hf.name!r}")
            for g in list(spec.geoms):
                if g.hfieldname == hf.name:
                    spec.delete(g)
            spec.delete(hf)
    for skin in list(spec.skins):
        if absent(meshdir, skin.file):
            note(skin.file, f"skin {skin.name!r}")
            spec.delete(skin)
    try:
        model = spec.compile()
    except Exception as exc:
        raise FileFormatError(f"{v.source}: MuJoCo: {' '.join(str(exc).split())}") from None
    return spec, model


def _kept(el: etree._Element) -> str:
    """``el`` wrapped in ``<mjcf>``, without the include markers."""
    el = copy.deepcopy(el)
    for e in el.iter():
        if isinstance(e.tag, str) and SOURCE_ATTR in e.attrib:
            del e.attrib[SOURCE_ATTR]
    etree.cleanup_namespaces(el)
    wrap = etree.Element(KEPT_TAG)
    wrap.append(el)
    return fragment_text(wrap)


def _body_kept(body_el: etree._Element, childclass: str | None) -> list[str]:
    """The sites, cameras and lights of an MJCF body (or the worldbody) as kept fragments; those in
    ``<frame>``s keep the frames around them (stripped of bodies and geometry); a body's childclass
    becomes the ``class`` of what had none."""
    out = []
    for child in body_el:
        if not isinstance(child.tag, str):
            continue
        cls = child.get("childclass", childclass) if child.tag == "frame" else childclass
        if child.tag == "site" and MARK in (child.get("name") or ""):
            continue  # a loop's frame KineTree wrote: the loop is read from its equality
        if child.tag in _BODY_KEPT:
            c = copy.deepcopy(child)
            if cls and c.get("class") is None:
                c.set("class", cls)
            out.append(_kept(c))
        elif child.tag == "frame":
            f = copy.deepcopy(child)
            for e in list(f.iter()):
                if e is not f and isinstance(e.tag, str) and e.tag not in (*_BODY_KEPT, "frame"):
                    if e.getparent() is not None:
                        e.getparent().remove(e)
            for e in f.iter(*_BODY_KEPT):
                if cls and e.get("class") is None:
                    e.set("class", cls)
            if any(True for _ in f.iter(*_BODY_KEPT)):
                out.append(_kept(f))
    return out


def _body_elements(root: etree._Element) -> list[tuple[etree._Element, str | None]]:
    """MJCF ``<body>`` elements in MuJoCo's body order (depth first, frames transparent), each
    with the childclass in force inside it."""
    out: list[tuple[etree._Element, str | None]] = []

    def walk(el, cls):
        for child in el:
            if not isinstance(child.tag, str):
                continue
            if child.tag == "body":
                c = child.get("childclass", cls)
                out.append((child, c))
                walk(child, c)
            elif child.tag == "frame":
                walk(child, child.get("childclass", cls))

    for wb in root.iter("worldbody"):
        walk(wb, None)
    return out


class _Reader:
    def __init__(self, v: Vetted, spec, model, warn: list[str]) -> None:
        self.v, self.spec, self.m, self.warn = v, spec, model, warn
        self.body_names: set[str] = set()
        self.joint_names: set[str] = set()
        self.mj_body: dict[int, RigidBody] = {}  # MuJoCo body id → the KineTree body with its frame
        self.jnt_of: dict[int, Joint] = {}
        self.jnt_body: dict[int, str] = {}  # MuJoCo joint id → the body it moves
        self.approximated: dict[str, int] = {}
        self.mimicked: set[tuple[str, str]] = set()
        self.mesh_files: list[str] | None = None
        self.clipped: dict[str, str] = {}  # joint name -> what was clipped: its ref outside its range
        self.loop_xml: set[tuple[int, int]] = set()  # (<equality> section, child) of the elements read as loops

    def name(self, kind: str, i: int, stem: str) -> str:
        import mujoco

        return mujoco.mj_id2name(self.m, kind, i) or ""

    def build(self) -> RigidBodyTree:
        import mujoco

        m = self.m
        world = self.name(mujoco.mjtObj.mjOBJ_BODY, 0, "world") or "world"
        # the MJCF bodies keep their names: a chain body named after a joint yields to them
        self.mj_names = [self.name(mujoco.mjtObj.mjOBJ_BODY, b, "") for b in range(m.nbody)]
        b0 = self.base_body()
        tree = RigidBodyTree(base_name=self.mj_names[b0] if b0 else world, gravity=m.opt.gravity.copy())
        tree.base.mass = 0.0  # the world has no mass (a RigidBody starts with MATLAB's 1 kg)
        tree.base._set_inertia_as_read(np.zeros(6))
        self.body_names.add(tree.base_name)
        self.body_names.update(n for n in self.mj_names if n)
        self.mj_body[0] = tree.base
        self.geoms(0, tree.base)
        if b0:  # KineTree's base, written as a body welded to the world at its origin
            self.mj_body[b0] = tree.base
            self.mass(b0, tree.base)
            self.geoms(b0, tree.base)
        items: list[tuple[RigidBody, str]] = []
        for b in range(1, m.nbody):
            if b == b0:
                continue
            parent = self.mj_body[int(m.body_parentid[b])].name
            for body in self.body_chain(b):
                items.append((body, parent))
                parent = body.name
        tree.add_bodies(items)  # copies: point our maps at the bodies in the tree
        self.mj_body = {b: tree.get_body(body.name) for b, body in self.mj_body.items()}
        self.jnt_of = {j: tree.get_body(self.jnt_body[j]).joint for j in self.jnt_of}
        self.mimics(tree)
        return tree

    def base_body(self) -> int | None:
        """The body KineTree wrote as its base (named by ``<custom><text name="kinetree_base">``):
        a child of the world without joints, at the world's origin; None when there is none."""
        import mujoco

        m = self.m
        t = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_TEXT, BASE_TEXT)
        if t < 0:
            return None
        adr, size = int(m.text_adr[t]), int(m.text_size[t])
        name = bytes(m.text_data[adr:adr + size]).split(b"\0", 1)[0].decode("utf-8", "replace")
        b = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, name) if name else -1
        if (b <= 0 or m.body_parentid[b] != 0 or m.body_jntnum[b] or np.any(m.body_pos[b])
                or not np.array_equal(m.body_quat[b], [1, 0, 0, 0])):
            return None
        return int(b)

    @staticmethod
    def _new_body(name: str) -> RigidBody:
        body = RigidBody(name)
        body.mass = 0.0  # a RigidBody starts with MATLAB's 1 kg; MuJoCo's massless bodies have none
        body._set_inertia_as_read(np.zeros(6))
        return body

    def body_chain(self, b: int) -> list[RigidBody]:
        import mujoco

        m = self.m
        mj_name = self.name(mujoco.mjtObj.mjOBJ_BODY, b, "") or f"body{b}"
        T_b = _pose(m.body_pos[b], m.body_quat[b])
        adr, n = int(m.body_jntadr[b]), int(m.body_jntnum[b])
        chain: list[RigidBody] = []
        own = mj_name if self.mj_names[b] else unique_name(mj_name, self.body_names, "_")
        self.body_names.add(own)
        if n == 0:
            body = self._new_body(own)
            j = Joint(unique_name(f"{body.name}_fixed", self.joint_names, "_"), "fixed")
            self.joint_names.add(j.name)
            j.set_fixed_transform(T_b)
            body.joint = j
            chain.append(body)
        for k in range(n):
            jid = adr + k
            jname = self.name(mujoco.mjtObj.mjOBJ_JOINT, jid, "") or f"joint{jid}"
            jname = unique_name(jname, self.joint_names, "_")
            self.joint_names.add(jname)
            last = k == n - 1
            bname = own if last else unique_name(jname, self.body_names, "_")
            self.body_names.add(bname)
            body = self._new_body(bname)
            body.joint = self.joint(jid, jname, T_b if k == 0 else np.eye(4))
            self.jnt_body[jid] = bname
            chain.append(body)
        body = chain[-1]
        self.mj_body[b] = body
        self.mass(b, body)
        self.geoms(b, body)
        return chain

    def joint(self, jid: int, name: str, pre: np.ndarray) -> Joint:
        m = self.m
        jtype = int(m.jnt_type[jid])  # 0 free, 1 ball, 2 slide, 3 hinge
        p = m.jnt_pos[jid].copy()
        qadr, dadr = int(m.jnt_qposadr[jid]), int(m.jnt_dofadr[jid])
        if jtype == 0:
            j = Joint(name, "floating")
            q0 = m.qpos0[qadr:qadr + 7]
            lim = [[math.nan, math.nan]] * 4 + [[-math.inf, math.inf]] * 3
            j.set_limits(lim, np.concatenate([q0[3:7], q0[:3]]))
        elif jtype == 1:
            j = Joint(name, "spherical")
            j.set_fixed_transform(pre @ _trans(p))
            j.set_fixed_transform(_trans(-p), "child")
        else:
            j = Joint(name, "revolute" if jtype == 3 else "prismatic")
            j.axis = m.jnt_axis[jid]
            ref = float(m.qpos0[qadr])
            if jtype == 3:
                j.set_fixed_transform(pre @ _trans(p))
                j.set_fixed_transform(_trans(-p), "child")
            else:
                j.set_fixed_transform(pre)
            j.offset = -ref
            lo, hi = (float(x) for x in m.jnt_range[jid]) if m.jnt_limited[jid] else (-math.inf, math.inf)
            home = min(max(ref, lo), hi)
            if home != ref:
                self.clipped[name] = f"{name!r} ({ref:g} → {home:g})"
            j.set_limits([lo, hi], home)
            j.viscous_friction = float(m.dof_damping[dadr])
            j.coulomb_friction = float(m.dof_frictionloss[dadr])
            j.motor_inertia = float(m.dof_armature[dadr])
        self.jnt_of[jid] = j
        return j

    def mass(self, b: int, body: RigidBody) -> None:
        m = self.m
        mass = float(m.body_mass[b])
        if mass <= 0:
            return
        try:
            check_mass(body.name, mass, "KineTree")  # as every other reader: a project could not hold it
        except FileFormatError as exc:
            raise FileFormatError(f"{self.v.source}: {exc}") from None
        c = m.body_ipos[b].copy()
        R = quat_to_rotation(m.body_iquat[b])
        I = R @ np.diag(m.body_inertia[b]) @ R.T + mass * (float(c @ c) * np.eye(3) - np.outer(c, c))
        body.mass = mass
        body.center_of_mass = c
        body._set_inertia_as_read(np.array([I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]]))

    def geoms(self, b: int, body: RigidBody) -> None:
        import mujoco

        m = self.m
        adr, n = int(m.body_geomadr[b]), int(m.body_geomnum[b])
        if adr < 0:
            return
        visuals, collisions = list(body.visuals), list(body.collisions)
        geoms = range(adr, adr + n)
        colliding = {g: bool(int(m.geom_contype[g]) or int(m.geom_conaffinity[g])) for g in geoms}
        shown = {g: int(m.geom_group[g]) < 3 for g in geoms}  # groups 0-2: what MuJoCo's viewer draws
        # MuJoCo's convention: a body with visual-only geoms (contype = conaffinity = 0) draws those,
        # its colliding geoms are its collision geometry (drawn on top, they would z-fight)
        has_visual = any(shown[g] and not colliding[g] for g in geoms)
        for g in geoms:
            shapes = self.shapes(g, self.name(mujoco.mjtObj.mjOBJ_GEOM, g, ""))
            if shown[g] and not (colliding[g] and has_visual):
                visuals += shapes
            if colliding[g] and _GEOM[int(m.geom_type[g])] != "plane":
                collisions += shapes
        body.visuals = visuals
        body.collisions = collisions

    def shapes(self, g: int, name: str) -> list[Visual]:
        m = self.m
        kind = _GEOM[int(m.geom_type[g])]
        T = _pose(m.geom_pos[g], m.geom_quat[g])
        s = m.geom_size[g]
        mat = int(m.geom_matid[g])
        rgba = m.mat_rgba[mat] if mat >= 0 else m.geom_rgba[g]
        color = tuple(float(min(1.0, max(0.0, c))) for c in rgba)
        if kind == "sphere":
            return [Visual("sphere", (s[0],), T, color, name=name)]
        if kind == "box":
            return [Visual("box", 2 * s[:3], T, color, name=name)]
        if kind == "cylinder":
            return [Visual("cylinder", (s[0], 2 * s[1]), T, color, name=name)]
        if kind == "capsule":
            return [Visual("cylinder", (s[0], 2 * s[1]), T, color, name=name),
                    Visual("sphere", (s[0],), T @ _trans((0, 0, s[1])), color),
                    Visual("sphere", (s[0],), T @ _trans((0, 0, -s[1])), color)]
        if kind == "ellipsoid":
            self.approximated["ellipsoids drawn as their bounding box"] = \
                self.approximated.get("ellipsoids drawn as their bounding box", 0) + 1
            return [Visual("box", 2 * s[:3], T, color, name=name)]
        if kind == "plane":
            half = [x if x > 0 else 10.0 for x in s[:2]]
            return [Visual("box", (2 * half[0], 2 * half[1], 1e-3), T @ _trans((0, 0, -5e-4)), color, name=name)]
        if kind == "mesh":
            mid = int(m.geom_dataid[g])
            if self.mesh_files is None:  # spec.meshes builds a new list on each access
                self.mesh_files = [mesh.file for mesh in self.spec.meshes]
            path = self.v.by_name.get(("mesh", self.mesh_files[mid])) if mid < len(self.mesh_files) else None
            if not path:
                self.approximated["meshes without a file (vertices in the XML) not drawn"] = \
                    self.approximated.get("meshes without a file (vertices in the XML) not drawn", 0) + 1
                return []
            # MuJoCo moves a mesh's vertices to its inertial frame and the geom with them: undo that
            M = _pose(m.mesh_pos[mid], m.mesh_quat[mid])
            return [Visual("mesh", tuple(m.mesh_scale[mid]), T @ np.linalg.inv(M), color, path, name=name)]
        self.approximated[f"{kind} geoms not drawn"] = self.approximated.get(f"{kind} geoms not drawn", 0) + 1
        return []

    def mimics(self, tree: RigidBodyTree) -> set[tuple[str, str]]:
        """Active joint equalities with a linear polynomial between two hinge/slide joints become
        mimics; returns the (joint1, joint2) names as written of those converted."""
        import mujoco

        m = self.m
        done: set[tuple[str, str]] = set()
        for e in range(m.neq):
            if int(m.eq_type[e]) != _EQ_JOINT or not m.eq_active0[e]:
                continue
            j1, j2 = int(m.eq_obj1id[e]), int(m.eq_obj2id[e])
            c = m.eq_data[e][:5]
            if j2 < 0 or np.any(c[2:] != 0) or j1 not in self.jnt_of or j2 not in self.jnt_of:
                continue
            f, lead = self.jnt_of[j1], self.jnt_of[j2]
            if f.type not in ("revolute", "prismatic") or lead.type not in ("revolute", "prismatic"):
                continue
            ref1, ref2 = float(m.qpos0[m.jnt_qposadr[j1]]), float(m.qpos0[m.jnt_qposadr[j2]])
            try:
                f.mimic = Mimic(lead.name, float(c[1]), ref1 + float(c[0]) - float(c[1]) * ref2)
                tree.check_mimics()
            except KineTreeError:
                f.mimic = None
                continue
            done.add((mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j1) or "",
                      mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j2) or ""))
        self.mimicked = done
        return done

    def keep(self, tree: RigidBodyTree) -> None:
        root = self.v.root
        kept: list[str] = []
        section = -1  # <equality> sections seen
        for el in root:
            if not isinstance(el.tag, str) or el.tag not in KEPT_SECTIONS:
                continue
            el = copy.deepcopy(el)
            if el.tag == "custom":  # our own note naming the base is written again on export
                for e in list(el):
                    if isinstance(e.tag, str) and e.tag == "text" and e.get("name") == BASE_TEXT:
                        el.remove(e)
                if not len(el):
                    continue
            if el.tag == "equality":
                section += 1
                for i, e in enumerate(list(el)):
                    pair = (e.get("joint1"), e.get("joint2"))
                    if isinstance(e.tag, str) and e.tag == "joint" and pair in self.mimicked \
                            or (section, i) in self.loop_xml:
                        el.remove(e)
                if not len(el):
                    continue
            if el.tag in ("actuator", "keyframe"):  # KineTree's motors marking actuated joints, its home key
                for e in list(el):
                    if isinstance(e.tag, str) and MARK in (e.get("name") or ""):
                        el.remove(e)
                if not len(el):
                    continue
            if el.tag == "asset":
                self.asset_paths(el)
            kept.append(_kept(el))
        comp = etree.Element("compiler", angle="degree" if self.spec.compiler.degree else "radian",
                             eulerseq="".join(self.spec.compiler.eulerseq))
        kept.insert(0, _kept(comp))  # how the kept elements' angles read
        tree.extensions = kept
        world_kept = [x for wb in root.iter("worldbody") for x in _body_kept(wb, None)]
        if world_kept:
            tree.base.extensions = world_kept
        elements = _body_elements(root)
        # <body> elements are MuJoCo's bodies in order, unless <replicate> or <attach> made more
        if len(elements) != self.m.nbody - 1 or any(
                el.get("name") not in (None, self.mj_names[b]) for b, (el, _) in enumerate(elements, start=1)):
            if any(True for el, _ in elements for _ in el.iter(*_BODY_KEPT)):
                self.warn.append(f"{self.v.source}: the bodies' sites, cameras and lights are not kept (the file "
                                 "makes bodies that are not <body> elements: <replicate> or <attach>)")
            return
        for b, (el, cls) in enumerate(elements, start=1):
            frags = _body_kept(el, cls)
            attrs = {k: v for k, v in el.attrib.items() if k in _BODY_ATTRS}
            if attrs:  # an empty <body> carries the body's own attributes KineTree does not model
                frags.insert(0, _kept(etree.Element("body", attrs)))
            if frags:  # the base: the world's kept elements, then its own body's
                body = self.mj_body[b]
                body.extensions = [*body.extensions, *frags] if body is tree.base else frags
            self.joint_attributes(b, el, cls)

    def joint_attributes(self, b: int, el: etree._Element, cls: str | None) -> None:
        """Each joint's attributes KineTree does not model (``stiffness``, ``springref``, ``solref``
        …, and its class: the body's childclass when it names none) kept as ``<mjcf><joint/></mjcf>``."""
        own: list[tuple[etree._Element, str | None]] = []

        def walk(e, c):
            for child in e:
                if not isinstance(child.tag, str):
                    continue
                if child.tag in ("joint", "freejoint"):
                    own.append((child, c))
                elif child.tag == "frame":
                    walk(child, child.get("childclass", c))

        walk(el, cls)
        adr, n = int(self.m.body_jntadr[b]), int(self.m.body_jntnum[b])
        if len(own) != n:
            return
        for k, (e, c) in enumerate(own):
            attrs = {a: v for a, v in e.attrib.items() if a not in _JOINT_MODELLED and not a.startswith("{")}
            if e.tag == "joint" and c and "class" not in attrs:
                attrs["class"] = c
            joint = self.jnt_of.get(adr + k)
            if attrs and joint is not None and joint.type in ("revolute", "prismatic"):
                joint.extensions = [_kept(etree.Element("joint", attrs))]

    def asset_paths(self, asset: etree._Element) -> None:
        """Meshes go (they are written from the visuals); files of the other assets become
        absolute paths (export writes them relative to its own file)."""
        for e in list(asset):
            if not isinstance(e.tag, str):
                continue
            if e.tag == "mesh":
                asset.remove(e)
                continue
            for attr, val in list(e.attrib.items()):
                if attr.startswith("file"):
                    path = self.v.by_name.get((e.tag, val))
                    if path is None:  # missing: it was dropped from the model, so from the file too
                        asset.remove(e)
                        break
                    e.set(attr, path)


def import_mjcf(path: str | os.PathLike, *, on_warning: Callable[[str], None] | None = None) -> RigidBodyTree:
    """Read an MJCF (MuJoCo XML) robot (see :mod:`kinetree.core.io.mjcf`)."""
    v = vet_model(path)
    warn: list[str] = []
    spec, model = _compile(v, warn)
    r = _Reader(v, spec, model, warn)
    try:
        tree = r.build()
        read_file_loops(r, tree, v, warn)
        r.keep(tree)
    except FileFormatError:
        raise
    except KineTreeError as exc:
        raise FileFormatError(f"{v.source}: {exc}") from None
    if r.clipped:
        warn.append(f"{v.source}: {len(r.clipped)} joint(s) whose ref (MuJoCo's qpos0) is outside the range get the "
                    f"nearest limit as home position: {', '.join(list(r.clipped.values())[:5])}"
                    f"{' …' if len(r.clipped) > 5 else ''}")
    for what, count in r.approximated.items():
        warn.append(f"{v.source}: {count} {what}")
    for msg in warn:
        if on_warning is not None:
            on_warning(msg)
        else:
            warnings.warn(msg, MjcfWarning, stacklevel=2)
    return tree
