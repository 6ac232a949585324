"""MJCF export (re-exported by :mod:`kinetree.core.io.mjcf`).

Export (:func:`export_mjcf`, :func:`mjcf_string`)
    Each body becomes a ``<body>`` named after it whose frame is the KineTree body frame, so
    MuJoCo's ``xpos``/``xmat`` equal KineTree's body poses at every configuration (numbers are
    written with ``repr``, exact). With ``pose = JointToParent · M(q + offset) · ChildToJoint = C``:
    the body's ``pos``/``quat`` are ``JointToParent · C``; a revolute joint is a ``hinge`` with
    axis ``Cᵣᵀ·axis`` at the anchor ``C⁻¹·0`` and ``ref = −offset`` (MuJoCo's ``qpos`` is then
    KineTree's position); prismatic → ``slide``; spherical → ``ball`` (when ``C`` rotates, an extra
    body ``<name>_ball`` carries the joint); planar → two slides and a hinge (``<joint>_x``,
    ``<joint>_y``, ``<joint>``); a composite joint (``euler_*``, ``translation_xyz``, ``custom``) →
    one hinge or slide per row, ``<joint>_0`` … in order (MuJoCo applies a body's joints one after
    the other about the moving axes, as the rows); floating → ``freejoint`` (only on a child of the base with
    identity fixed transforms: MuJoCo's free body moves in the world frame, anything else is
    refused naming the joint). Limits → ``range`` (``limited="false"`` when both are infinite);
    viscous, Coulomb friction and motor inertia → ``damping``, ``frictionloss``, ``armature``
    (link side: ``G²B``, ``|G|·Tc``, ``G²Jm``; an asymmetric Coulomb friction, which
    ``frictionloss`` cannot hold, as the larger of Tc+ and −Tc−, with a warning naming the joints);
    mimics → ``<equality><joint polycoef>``. Home
    positions have no place in MJCF (MuJoCo's ``qpos0`` is ``ref``) and are not written.
    - Masses → ``<inertial>`` (centre of mass, ``fullinertia`` about it); the compiler has
      ``inertiafromgeom="false"`` so that MuJoCo takes exactly these. The inertia is written on its
      principal axes (``quat``, ``diaginertia``), as MuJoCo stores it: its ``fullinertia`` refuses
      a point mass. An inertia no body has (``A + B < C``, as some URDFs hold) makes the compiler
      ``balanceinertia="true"`` (MuJoCo then changes it), with a warning naming the bodies.
    - Visuals → geoms of group 2 that do not collide; collision shapes → geoms of group 3 that
      do;
      a collision shape equal to a visual is one geom of group 0 that collides (two geoms, one of
      each, in a body with other visuals: the import reads a colliding geom there as a collision
      shape only). Meshes
      MuJoCo reads (STL, OBJ, MSH) inside the output's folder tree are referenced relative to the
      output; others are copied (other formats converted to STL by trimesh) into
      ``<output name>_assets/`` next to it, so the file loads anywhere and reads back in KineTree
      (whose MJCF reader refuses files outside the model's folder). Each mesh is first read by
      :func:`~kinetree.core.disk.mesh_reader.read_mesh`; one it refuses is left out with a warning
      (MuJoCo would refuse the whole file).
    - What the MJCF import kept (``<mjcf>`` extensions: actuators, sensors, tendons, defaults,
      sites, cameras, lights …) is written back in place; texture and height-field files as
      meshes (referenced in place or copied). Those files were vetted by the import: the MJCF
      reader's, or :func:`~kinetree.core.io.mjcf.files.vet_kept_files` for fragments read from a
      URDF, SDFormat or project file (a file outside its folder tree is left out there).
      Extensions from other formats (a URDF's ``<transmission>`` …) are dropped with a
      :class:`~kinetree.core.errors.DroppedOnExportWarning`.
"""

from __future__ import annotations

import math
import os
import re
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
from lxml import etree

from ...disk.mesh_reader import read_mesh
from ...disk.safe_io import atomic_write_text
from ...errors import DroppedOnExportWarning, FileFormatError
from ...model.xml_fragment import fragment_element
from ...transforms import inverse_transform, matrix_to_quat
from ...tree import RigidBodyTree, unique_name
from ..mesh_copy import MeshCopies
from ..project_check import check_mass
from ..urdf.write import motor_losses, warn_motors_dropped
from .files import BASE_TEXT
from .loops import write_loops
from .read import KEPT_SECTIONS, KEPT_TAG, MjcfWarning

__all__ = ["MUJOCO_MESH_SUFFIXES", "export_mjcf", "mjcf_string"]

#: Mesh files MuJoCo reads itself; others are converted to STL on export.
MUJOCO_MESH_SUFFIXES = (".stl", ".obj", ".msh")
#: What a massless moving body gets (``boundmass``, ``boundinertia``): MuJoCo refuses it otherwise.
MIN_MASS = 1e-9
MIN_INERTIA = 1e-12
_BEFORE_WORLD = ("option", "size", "visual", "statistic", "default", "custom", "extension", "asset")


def _num(x: float) -> str:
    v = float(x)
    return "0" if v == 0.0 else repr(v)


def _vec(v) -> str:
    return " ".join(_num(x) for x in v)


def _unwrap(text: str, what: str) -> list[etree._Element] | None:
    el = fragment_element(text, what)
    if el.tag != KEPT_TAG:
        return None
    return [c for c in el if isinstance(c.tag, str)]


class _Writer:
    def __init__(self, tree: RigidBodyTree, out: Path | None) -> None:
        self.tree, self.out = tree, out
        self.mesh_names: dict[tuple[str, tuple], str] = {}
        self.copied: dict[str, str] = {}
        self.dropped: list[str] = []
        self.files = MeshCopies(out, self.dropped)  # meshes copied beside the output
        self.geom_names: set[str] = set()
        self.body_names: set[str] = {b.name for b in tree.bodies}
        self.equalities: list[etree._Element] = []
        self.mesh_assets: list[etree._Element] = []
        self.degree = False
        self.massless: list[str] = []  # moving bodies without mass (MuJoCo refuses them)
        self.unbalanced: list[str] = []  # bodies whose inertia breaks the triangle inequality
        self.motors_lost: dict[str, set[str]] = {}  # joint → what of its motor MJCF cannot hold

    # --- files ----------------------------------------------------------------------------
    def mesh_file(self, path: str, ok: bool | None = None) -> str | None:
        """The name of ``path`` in the written file (copied or converted when needed); ``ok``:
        MuJoCo reads it as it is (default: by its suffix)."""
        if path in self.copied:
            return self.copied[path]
        mesh = ok is None
        if mesh:
            ok = path.lower().endswith(MUJOCO_MESH_SUFFIXES)
            try:  # MuJoCo refuses the whole file for one broken mesh: check each as the viewport reads it
                read_mesh(path)
            except FileFormatError as exc:
                self.dropped.append(f"mesh {exc}")
                self.copied[path] = ""
                return None
        if ok and self.files.inside(path):
            name = self.files.rel(path)
        elif self.out is None:
            name = path
        else:
            name = self.files.copy(path, convert=not ok) or ""
        self.copied[path] = name
        return name or None

    # --- elements -------------------------------------------------------------------------
    def geom(self, parent, v, visual: bool, collides: bool) -> None:
        attrs: dict[str, str] = {}
        name = v.name if v.name and v.name not in self.geom_names else ""
        if name:
            self.geom_names.add(name)
            attrs["name"] = name
        T = np.asarray(v.matrix)
        s = v.size
        if v.kind == "box":
            attrs.update(type="box", size=_vec(np.asarray(s) / 2))
        elif v.kind == "sphere":
            attrs.update(type="sphere", size=_vec(s))
        elif v.kind == "cylinder":
            attrs.update(type="cylinder", size=_vec((s[0], s[1] / 2)))
        else:
            file = self.mesh_file(v.filename)
            if not file:
                return
            key = (file, tuple(s))
            if key not in self.mesh_names:
                mname = unique_name(f"mesh_{Path(file).stem}", set(self.mesh_names.values()), "_")
                self.mesh_names[key] = mname
                self.mesh_assets.append(etree.Element("mesh", name=mname, file=file, scale=_vec(s)))
            attrs.update(type="mesh", mesh=self.mesh_names[key])
        attrs.update(pos=_vec(T[:3, 3]), quat=_vec(matrix_to_quat(T[:3, :3])))
        group = "0" if visual and collides else ("2" if visual else "3")
        flag = "1" if collides else "0"
        attrs.update(group=group, contype=flag, conaffinity=flag)
        if visual:
            attrs["rgba"] = _vec(v.color)
        etree.SubElement(parent, "geom", attrs)

    def geoms(self, el, body) -> None:
        def key(v):
            return v.kind, v.size, v.pose, v.filename, v.name

        cols = list(body.collisions)
        keys = [key(c) for c in cols]
        # one geom for a shape that is both, unless the body has visual-only geoms: MuJoCo's
        # convention (and the import) then takes a colliding geom for collision geometry only
        share = not Counter(map(key, body.visuals)) - Counter(keys)
        for v in body.visuals:
            both = share and key(v) in keys
            if both:
                i = keys.index(key(v))
                del cols[i], keys[i]
            self.geom(el, v, True, both)
        for c in cols:
            self.geom(el, c, False, True)

    def inertial(self, el, body) -> None:
        m = body.mass
        check_mass(body.name, m, "the MJCF reader")
        if m <= 0 and not np.any(body.inertia):
            return
        c, Io = body.center_of_mass, body.inertia
        I = np.array([[Io[0], Io[5], Io[4]], [Io[5], Io[1], Io[3]], [Io[4], Io[3], Io[2]]])
        Ic = I - m * (float(c @ c) * np.eye(3) - np.outer(c, c))
        # principal axes, as MuJoCo stores them: its fullinertia refuses a zero moment (a point mass)
        lam, R = np.linalg.eigh((Ic + Ic.T) / 2)
        if np.linalg.det(R) < 0:
            R[:, 0] = -R[:, 0]
        tol = 1e-12 * max(float(np.abs(I).max()), m * float(c @ c))
        if lam.min() < -tol:
            raise FileFormatError(f"body {body.name!r}: inertia about the centre of mass {Ic.tolist()} is not "
                                  "positive semi-definite; an MJCF inertial cannot hold it")
        lam = np.maximum(lam, 0.0)
        if lam[0] + lam[1] < lam[2] - tol:  # eigh sorts them: only this inequality can fail
            self.unbalanced.append(body.name)
        etree.SubElement(el, "inertial", pos=_vec(c), quat=_vec(matrix_to_quat(R)), mass=_num(m),
                         diaginertia=_vec(lam))

    def joint_el(self, el, tag: str, name: str, j, axis, pos, lim, ref: float) -> None:
        a = {"name": name, "type": tag, "pos": _vec(pos), "axis": _vec(axis), "ref": _num(ref)}
        lo, hi = (float(x) for x in np.asarray(lim, dtype=float).reshape(-1)[:2])
        if math.isinf(lo) and math.isinf(hi):
            a["limited"] = "false"
        else:
            if math.isinf(lo) or math.isinf(hi):
                self.dropped.append(f"joint {name!r}: the one-sided limit ({lo:g}, {hi:g}) (MJCF limits have "
                                    "both ends); written without limits")
                a["limited"] = "false"
            else:
                a.update(limited="true", range=_vec((lo, hi)))
        if j is not None:
            G = j.gear_ratio
            tc = max(j.coulomb_friction[0], -j.coulomb_friction[1])  # frictionloss is symmetric
            self.motors_lost[j.name] = motor_losses(j, link_side=True)
            a.update(damping=_num(G * G * j.viscous_friction), frictionloss=_num(abs(G) * tc),
                     armature=_num(G * G * j.motor_inertia))
            for k, text in enumerate(j.extensions):  # the MJCF joint's other attributes (stiffness, class …)
                for item in _unwrap(text, f"joint {name!r} extension {k}") or []:
                    if item.tag == "joint" and not len(item):
                        for key, value in item.attrib.items():
                            a.setdefault(key, value)
        etree.SubElement(el, "joint", a)

    def _link(self, b) -> bool:
        """A chain link as the MJCF import makes of a body with several joints: massless, nothing
        on it, one child, named after its revolute or prismatic joint (``<joint>_2`` … when a body
        has the joint's name)."""
        j = b.joint.name
        named = b.name == j or (j in self.body_names and re.fullmatch(re.escape(j) + r"_\d+", b.name) is not None)
        return (named and b.joint.type in ("revolute", "prismatic") and b.mass == 0
                and not np.any(b.inertia) and not b.visuals and not b.collisions and not b.extensions
                and len(b.children) == 1)

    def axial(self, el, j, G: np.ndarray) -> None:
        """Joint ``j`` seen from a body frame ``G`` after it: its motion ``M`` is ``G⁻¹·M·G`` there,
        a rotation about ``Gᵣᵀ·axis`` through ``G⁻¹·0`` (or a slide along ``Gᵣᵀ·axis``)."""
        Gi = inverse_transform(G)
        tag = "hinge" if j.type == "revolute" else "slide"
        self.joint_el(el, tag, j.name, j, G[:3, :3].T @ j.axis, Gi[:3, 3], j.position_limits, -j.offset)
        self.mimic(j)

    def body(self, parent_el, body) -> None:
        chain = []
        end = body
        while self._link(end):
            chain.append(end)
            end = end.children[0]
        if chain and end.joint.type not in ("revolute", "prismatic", "fixed"):
            chain, end = [], body
        if chain:
            # pose = F0·M1·F1·M2 ⋯ Mn·Fn = (F0⋯Fn)·Π Gᵢ⁻¹·Mᵢ·Gᵢ with Gᵢ = Fᵢ⋯Fn: one MJCF body, n joints
            joints = [b.joint for b in chain] + ([end.joint] if end.joint.type != "fixed" else [])
            Fs = [chain[0].joint.joint_to_parent_transform]
            for k in range(1, len(chain)):
                Fs.append(chain[k - 1].joint.child_to_joint_transform @ chain[k].joint.joint_to_parent_transform)
            last = chain[-1].joint.child_to_joint_transform @ end.joint.joint_to_parent_transform
            if end.joint.type == "fixed":
                Fs.append(last @ end.joint.child_to_joint_transform)
            else:
                Fs += [last, end.joint.child_to_joint_transform]
            Gs = [Fs[-1]]
            for F in reversed(Fs[1:-1]):
                Gs.insert(0, F @ Gs[0])
            pose = Fs[0] @ Gs[0]
            el = etree.SubElement(parent_el, "body", name=end.name, pos=_vec(pose[:3, 3]),
                                  quat=_vec(matrix_to_quat(pose[:3, :3])))
            for j, G in zip(joints, Gs):
                self.axial(el, j, G)
        else:
            el = self.one_joint(parent_el, body)
        self.finish(el, end)

    def one_joint(self, parent_el, body):
        j = body.joint
        jtp, C = j.joint_to_parent_transform, j.child_to_joint_transform
        Ci = inverse_transform(C)
        anchor = Ci[:3, 3]
        Rt = C[:3, :3].T
        el_parent = parent_el
        pose = jtp @ C
        if j.type == "spherical" and not np.array_equal(C[:3, :3], np.eye(3)):
            name = unique_name(f"{body.name}_ball", self.body_names, "_")
            self.body_names.add(name)
            el_parent = etree.SubElement(parent_el, "body", name=name, pos=_vec(jtp[:3, 3]),
                                         quat=_vec(matrix_to_quat(jtp[:3, :3])))
            etree.SubElement(el_parent, "joint", name=j.name, type="ball", pos="0 0 0")
            pose = C
        el = etree.SubElement(el_parent, "body", name=body.name, pos=_vec(pose[:3, 3]),
                              quat=_vec(matrix_to_quat(pose[:3, :3])))
        lims = j.position_limits.reshape(-1, 2)
        if j.type in ("revolute", "prismatic"):
            self.axial(el, j, C)
        elif j.type == "spherical" and el_parent is parent_el:
            etree.SubElement(el, "joint", name=j.name, type="ball", pos=_vec(anchor))
        elif j.type == "planar":
            for k, suffix in enumerate(("_x", "_y")):
                self.joint_el(el, "slide", f"{j.name}{suffix}", None, Rt[:, k], anchor, lims[k], 0.0)
            self.joint_el(el, "hinge", j.name, None, Rt[:, 2], anchor, lims[2], 0.0)
        elif j._rows:
            for k, row in enumerate(j._rows):
                rot = any(row[:3])
                self.joint_el(el, "hinge" if rot else "slide", f"{j.name}_{k}", None,
                              Rt @ np.array(row[:3] if rot else row[3:]), anchor, lims[k], 0.0)
        elif j.type == "floating":
            eye = np.eye(4)
            if parent_el.tag != "worldbody" or not (np.array_equal(jtp, eye) and np.array_equal(C, eye)):
                raise FileFormatError(f"joint {j.name!r}: a floating joint in MJCF (freejoint) moves its body in "
                                      "the world frame: it must join a child of the base with identity fixed "
                                      "transforms")
            home = np.asarray(j.home_position, dtype=float)
            el.set("pos", _vec(home[4:7]))
            el.set("quat", _vec(home[:4] / np.linalg.norm(home[:4])))
            etree.SubElement(el, "freejoint", name=j.name)
        return el

    def mimic(self, j) -> None:
        if j.mimic is not None:
            lead = self.tree.find_joint(j.mimic.joint).joint
            # MuJoCo: q1 − ref1 = c0 + c1·(q2 − ref2), with ref = −offset
            c1 = j.mimic.multiplier
            c0 = j.mimic.offset + j.offset - c1 * lead.offset
            self.equalities.append(etree.Element("joint", joint1=j.name, joint2=lead.name,
                                                 polycoef=_vec((c0, c1, 0, 0, 0))))

    def finish(self, el, body) -> None:
        if body.joint.type != "fixed" and body.mass <= 0:
            self.massless.append(body.name)
        self.inertial(el, body)
        self.geoms(el, body)
        self.kept_into(el, body.extensions, f"body {body.name!r}")
        for child in body.children:
            self.body(el, child)

    def kept_into(self, el, extensions, what: str) -> None:
        for k, text in enumerate(extensions):
            items = _unwrap(text, f"{what} extension {k}")
            if items is None:
                self.dropped.append(f"{what}: <{fragment_element(text).tag}>")
                continue
            for item in items:
                if item.tag == "body" and not len(item):  # the body's own attributes (mocap, gravcomp)
                    for key, value in item.attrib.items():
                        if el.get(key) is None:
                            el.set(key, value)
                else:
                    el.append(item)

    def asset_files(self, asset) -> None:
        for e in asset:
            if isinstance(e.tag, str):
                for attr, val in list(e.attrib.items()):
                    if attr.startswith("file") and os.path.isabs(val):
                        e.set(attr, self.mesh_file(val, ok=True) or val)

    def document(self, model_name: str) -> etree._Element:
        tree = self.tree
        root = etree.Element("mujoco", model=model_name)
        compiler = etree.SubElement(root, "compiler", angle="radian", inertiafromgeom="false", autolimits="true")
        sections: dict[str, list[etree._Element]] = {}
        for k, text in enumerate(tree.extensions):
            items = _unwrap(text, f"robot extension {k}")
            if items is None:
                self.dropped.append(f"robot: <{fragment_element(text).tag}>")
                continue
            for item in items:
                if item.tag == "compiler":  # the kept one says how to read kept angles
                    for key in ("angle", "eulerseq"):
                        if item.get(key) is not None:
                            compiler.set(key, item.get(key))
                    continue
                sections.setdefault(item.tag if item.tag in KEPT_SECTIONS else "other", []).append(item)
        self.degree = compiler.get("angle") == "degree"
        option = sections.setdefault("option", [etree.Element("option")])[0]
        option.set("gravity", _vec(tree.gravity))
        world = etree.Element("worldbody")
        base = world
        if tree.base_name != "world":  # the base as a body welded to the world, named in <custom>
            base = etree.SubElement(world, "body", name=tree.base_name)
            self.inertial(base, tree.base)
            custom = sections.setdefault("custom", [etree.Element("custom")])[-1]
            etree.SubElement(custom, "text", name=BASE_TEXT, data=tree.base_name)
        self.geoms(base, tree.base)
        self.kept_into(base, tree.base.extensions, "base")
        for child in tree.base.children:  # a free joint is MuJoCo's on a child of the world only
            self.body(world if child.joint.type == "floating" else base, child)
        if self.degree:
            self.to_degrees(world)
        if self.massless:  # MuJoCo refuses a moving body without mass: its smallest values, said so
            compiler.set("boundmass", _num(MIN_MASS))
            compiler.set("boundinertia", _num(MIN_INERTIA))
            self.dropped += [f"{n!r} moves without mass (given MuJoCo's minimum {MIN_MASS:g} kg)"
                             for n in self.massless]
        if self.unbalanced:  # MuJoCo refuses such a file unless told to fix the inertias itself
            compiler.set("balanceinertia", "true")
            self.dropped += [f"{n!r} has an inertia no body has (MuJoCo balances it)" for n in self.unbalanced]
        if self.mesh_assets:
            sections.setdefault("asset", [etree.Element("asset")])
            sections["asset"][-1].extend(self.mesh_assets)
        for a in sections.get("asset", []):
            self.asset_files(a)
        if self.equalities:
            eq = sections.setdefault("equality", [etree.Element("equality")])[-1]
            eq.extend(self.equalities)
        for tag in _BEFORE_WORLD:
            root.extend(sections.pop(tag, []))
        root.append(world)
        for tag in KEPT_SECTIONS:
            root.extend(sections.pop(tag, []))
        for rest in sections.values():
            root.extend(rest)
        return root

    def to_degrees(self, world) -> None:
        """The file's kept elements read angles in degrees: so must our hinges' range and ref."""
        for e in world.iter("joint"):
            if e.get("type") == "hinge":  # kept body fragments hold no joints: these are ours
                for attr in ("range", "ref"):
                    if e.get(attr) is not None:
                        e.set(attr, _vec(math.degrees(float(x)) for x in e.get(attr).split()))


def _bodies_read_back(root: etree._Element) -> int:
    """How many bodies (besides the base) reading the document gives: one per joint of a body
    with joints (the chain), one for a body without."""
    return sum(max(1, sum(1 for c in b if c.tag in ("joint", "freejoint"))) for b in root.iter("body"))


def _text(tree: RigidBodyTree, out: Path | None, model_name: str | None, counts: list | None = None) -> str:
    if "world" in tree.body_names:  # the base may be the world; MuJoCo refuses another body of its name
        raise FileFormatError("body 'world': MJCF reserves the name 'world' for its worldbody (MuJoCo refuses a "
                              "second one); rename the body before exporting")
    w = _Writer(tree, out)
    root = w.document(model_name or tree.base_name)
    hinges = write_loops(root, tree)
    passive = [b.joint.name for b in tree.bodies if not b.joint.actuated]
    if passive and not tree.loops:  # the actuators mark them only in a file with loops
        warnings.warn(f"MJCF marks passive joints only in a model with loops: {', '.join(map(repr, passive[:5]))} "
                      "read back actuated (a project keeps them)", MjcfWarning, stacklevel=3)
    if hinges:
        warnings.warn(f"MJCF has no hinge equality: loop{'s' if len(hinges) > 1 else ''} "
                      f"{', '.join(map(repr, hinges))} written as two <connect> constraints along the axis (the "
                      "MuJoCo idiom), which KineTree reads back as one hinge", MjcfWarning, stacklevel=3)
    if counts is not None:
        counts.append(_bodies_read_back(root) - (tree.base_name != "world"))  # the base's own <body>
    warn_motors_dropped(w.motors_lost, "MJCF", "frictionloss holds the larger of Tc+ and −Tc− (link side)")
    if w.dropped:
        counts = Counter(w.dropped)
        shown = "; ".join(f"{n} × {what}" if n > 1 else what for what, n in list(counts.items())[:6])
        warnings.warn(f"{out.name if out else 'MJCF'}: not as in KineTree ({len(w.dropped)}): "
                      f"{shown}{' …' if len(counts) > 6 else ''}", DroppedOnExportWarning, stacklevel=3)
    return etree.tostring(root, pretty_print=True, encoding="unicode")


def mjcf_string(tree: RigidBodyTree, model_name: str | None = None) -> str:
    """The MJCF text of ``tree`` (mesh paths absolute, as no output folder is known)."""
    return _text(tree, None, model_name)


def export_mjcf(tree: RigidBodyTree, path: str | os.PathLike, *, model_name: str | None = None) -> int:
    """Write ``tree`` as an MJCF file (atomically; see the module docstring); return how many
    bodies reading it back gives."""
    path = Path(path)
    counts: list[int] = []
    text = _text(tree, path, model_name, counts)
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise FileFormatError(str(exc)) from None
    return counts[0]
