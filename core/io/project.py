"""The KineTree project file (``*.kinetree.json``): a tree, and optionally a configuration.

Layout (every field is documented in README.md, "Project file")::

    {"format": "kinetree", "version": 3, "base_name": "base", "gravity": [0, 0, 0],
     "base": {"mass", "center_of_mass", "inertia", "visuals", "collisions",
              "extensions" (optional)} (optional),
     "bodies": [{"name", "parent", "mass", "center_of_mass", "inertia", "visuals", "collisions",
                 "extensions" (optional),
                 "joint": {"name", "type", "motion_subspace" (custom joints: k rows
                           (r_x r_y r_z t_x t_y t_z)), "axis", "position_limits", "home_position",
                           "offset", "joint_to_parent_transform", "child_to_joint_transform",
                           "dh": {"convention", "a", "alpha", "d", "theta"} | null,
                           "mimic": {"joint", "multiplier", "offset"} (optional),
                           "motor": {"gear_ratio", "motor_inertia", "viscous_friction",
                                     "coulomb_friction": [Tc+, Tc-]} (optional, Corke's model),
                           "extensions" (optional)}}],
     "extensions": [...] (optional),
     "configuration": [...],
     "named_poses": {"name": [...], ...} (optional),
     "loops": [{"name", "kind", "body_a", "frame_a", "body_b", "frame_b"}] (optional, version 4)}

Visuals and collisions are ``{"kind", "size", "pose", "color" (visuals only), "filename",
"name"}``; ``extensions`` are lists of XML element texts (robot-file elements KineTree does not
model, see :mod:`kinetree.core.model.xml_fragment`). ``named_poses`` are the tree's
:attr:`~kinetree.core.tree.RigidBodyTree.named_poses`, each a configuration vector, in order.
Version 1 (before collisions and extensions) loads as a tree without them, version 2 (before
named poses) as a tree without poses; a version newer than :data:`VERSION` is refused. A tree
without named poses is written as version 2, so the release before named poses still opens it;
a tree with closed loops or passive joints (``"actuated": false`` on a joint) as version 4, so
that a release before loops refuses it instead of dropping them; any other tree as before.

Non-finite limits are written as ``null`` (unbounded). Saving is atomic
(:func:`kinetree.core.disk.safe_io.atomic_write_text`). Loading reads regular files only and
checks every field's type, shape and range (:mod:`kinetree.core.io.project_check`) before
building anything.
"""

from __future__ import annotations

import json
import math
import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..disk.identity import FileIdentity
from ..disk.safe_io import MAX_BODIES, atomic_write_text, read_regular_file
from ..errors import FileFormatError, KineTreeError
from ..model.body import RigidBody, Visual
from ..model.bulk import gc_paused
from ..model.joint import JOINT_TYPES, QUATERNION_ROWS, Joint, Mimic
from ..tree import RigidBodyTree
from .mjcf.files import vet_kept_files
from .project_check import check_project, parse_json
from .urdf.check import MeshNotFoundWarning
from .urdf.parse import _inertia_about_origin, mesh_not_found_reason, resolve_mesh_uri

__all__ = ["FORMAT", "MAX_BYTES", "MIN_VERSION", "VERSION", "atomic_write_text", "dumps", "load_project",
           "project_text", "save_project", "tree_from_dict", "tree_to_dict"]

FORMAT = "kinetree"
VERSION = 4
#: The oldest version this KineTree reads (older ones are migrated on load).
MIN_VERSION = 1
MAX_BYTES = 50 * 1024 * 1024


def _limit(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None


def tree_to_dict(tree: RigidBodyTree, configuration: np.ndarray | None = None) -> dict[str, Any]:
    """A JSON-ready dictionary of the tree (and configuration)."""
    bodies = []
    for b in tree.bodies:
        j = b.joint
        jd: dict[str, Any] = {"name": j.name, "type": j.type}
        if j.type == "custom":
            jd["motion_subspace"] = j.motion_subspace.tolist()
        if j.type in ("revolute", "prismatic"):
            jd["axis"] = j.axis.tolist()
            jd["offset"] = j.offset
        if j.type != "fixed":
            jd["position_limits"] = [[_limit(lo), _limit(hi)] for lo, hi in j._limits]
            jd["home_position"] = j._home.tolist()
        if j.mimic is not None:
            jd["mimic"] = {"joint": j.mimic.joint, "multiplier": j.mimic.multiplier, "offset": j.mimic.offset}
        if j.type in ("revolute", "prismatic") and (j.has_motor_terms or j.gear_ratio != 1.0):
            jd["motor"] = j.motor_parameters()
        if not j.actuated:
            jd["actuated"] = False
        if j.extensions:
            jd["extensions"] = list(j.extensions)
        read = getattr(j, "_urdf_origin", None)
        if read is not None:
            jd["urdf_origin"] = {"xyz": list(read[1]), "rpy": list(read[2])}
        dh = j.dh_parameters
        if dh is not None:
            jd["dh"] = {"convention": dh.convention, "a": dh.a, "alpha": dh.alpha, "d": dh.d,
                        "theta": dh.theta}
        else:
            jd["joint_to_parent_transform"] = j.joint_to_parent_transform.tolist()
            if not np.array_equal(j.child_to_joint_transform, np.eye(4)):
                jd["child_to_joint_transform"] = j.child_to_joint_transform.tolist()
        bodies.append({
            "name": b.name,
            "parent": tree.parent_name(b.name),
            "joint": jd,
            **_inertia_and_visuals(b),
        })
    # the oldest version that holds what the tree has: older releases read the rest, and refuse
    # (rather than drop) loops
    looped = bool(tree.loops) or any(not b.joint.actuated for b in tree.bodies)
    version = 4 if looped else 3 if tree.named_poses else 2
    d: dict[str, Any] = {"format": FORMAT, "version": version, "base_name": tree.base_name,
                         "gravity": tree.gravity.tolist(), "bodies": bodies}
    d["base"] = _inertia_and_visuals(tree.base)
    if tree.extensions:
        d["extensions"] = list(tree.extensions)
    if configuration is not None:
        d["configuration"] = np.asarray(configuration, dtype=float).tolist()
    if tree.named_poses:
        d["named_poses"] = tree.named_poses.as_dict()
    if tree.loops:
        d["loops"] = [{"name": lp.name, "kind": lp.kind, "body_a": lp.body_a, "frame_a": lp.frame_a.tolist(),
                       "body_b": lp.body_b, "frame_b": lp.frame_b.tolist()} for lp in tree.loops]
    return d


def _inertia_and_visuals(b: RigidBody) -> dict[str, Any]:
    shapes = getattr(b, "_urdf_shapes", None)
    d = {"mass": b.mass, "center_of_mass": b.center_of_mass.tolist(), "inertia": b.inertia.tolist(),
         "visuals": [_shape_dict(v, shapes, True) for v in b.visuals],
         "collisions": [_shape_dict(c, shapes, False) for c in b.collisions]}
    if b.extensions:
        d["extensions"] = list(b.extensions)
    read = getattr(b, "_urdf_inertial", None)
    if read is not None:
        xyz, rpy, mass, moments = read[3]
        d["urdf_inertial"] = {"xyz": list(xyz), "rpy": list(rpy), "mass": mass, "inertia": list(moments)}
    return d


def _shape_dict(v: Visual, shapes: dict | None, color: bool) -> dict[str, Any]:
    """``v``'s fields, with its origin as read and mesh URI as written (what URDF export would
    write, see urdf_export ``_Writer.shape``) when the URDF import kept them."""
    d = v.to_dict(color)
    if shapes is not None:
        origin = shapes["poses"].get(v.pose)
        if origin is not None:
            d["urdf_origin"] = {"xyz": list(origin[0]), "rpy": list(origin[1])}
        uri = shapes["meshes"].get(v, shapes["meshes"].get(v.filename)) if v.kind == "mesh" else None
        if uri is not None:
            d["uri"] = uri
    return d


MAX_MISSING_LISTED = 50  # missing meshes named in warnings; past them a load stops looking


class _Reading:
    """What loading needs besides the dictionary: where to look again for a mesh whose saved
    path is gone (``base_dir``, its ancestors, ``package_paths``, ``$ROS_PACKAGE_PATH``), and
    the warnings found (issued once the load succeeds)."""

    def __init__(self, base_dir: str | os.PathLike | None, package_paths) -> None:
        self.base_dir, self.package_paths = base_dir, tuple(package_paths)
        self.warnings: list[str] = []
        self._compose = None
        self._resolved: dict[str, str | None] = {}  # URI → file: a robot names a mesh many times
        self.missing = 0  # meshes found nowhere

    def matrix(self, origin: dict) -> tuple[np.ndarray, tuple, tuple]:
        """``(transform, xyz, rpy)`` of an ``<origin>`` as read, the transform computed as
        yourdfpy computes it for the URDF import: bit for bit what export compares against, so
        numbers that do not give a body's current pose or inertia (a hand-edited or hostile
        file) are never written in its place."""
        if self._compose is None:
            from trimesh.transformations import compose_matrix  # yourdfpy's own (loaded only here)

            self._compose = compose_matrix
        xyz, rpy = tuple(map(float, origin["xyz"])), tuple(map(float, origin["rpy"]))
        return self._compose(translate=np.array(xyz), angles=np.array(rpy)), xyz, rpy

    def mesh_file(self, filename: str, uri: str, at: str) -> tuple[str, bool]:
        """``(path, keep_uri)``: the saved mesh path if it exists here, else the URI resolved
        again (a project copied with its package folder, or opened on another machine), else
        the saved path (warned). A ``package://`` URI is kept only if it names that path (export
        writes it without looking: a hand-edited or hostile one must not stand for another
        file); export checks other URIs against its own folder."""
        if filename and os.path.isabs(filename) and os.path.isfile(filename):
            path = filename
        else:
            path = self._resolve(uri)
            if path is None:
                self.missing += 1
                if self.missing <= MAX_MISSING_LISTED:
                    shown = uri if len(uri) <= 200 else f"{uri[:100]}…({len(uri)} characters)"
                    why = mesh_not_found_reason(uri, self.base_dir, self.package_paths)
                    self.warnings.append(f"{at}: mesh {shown!r} {why}; kept as saved")
                elif self.missing == MAX_MISSING_LISTED + 1:
                    self.warnings.append(f"{at}: and more meshes not found (not listed, no longer looked for)")
                return filename or uri, True
        if not uri.startswith("package://"):
            return path, True
        tail = uri[len("package://"):].lstrip("/")
        return path, Path(path).as_posix().endswith("/" + tail) or self._resolve(uri) == path

    def _resolve(self, uri: str) -> str | None:
        """The file ``uri`` names from here (cached; not looked for once many were missing)."""
        if uri not in self._resolved:
            if self.missing > MAX_MISSING_LISTED:  # bounded work for a hostile file
                return None
            self._resolved[uri] = resolve_mesh_uri(uri, self.base_dir, self.package_paths)
        return self._resolved[uri]


def _set_inertia_and_visuals(body: RigidBody, bd: Any, where: str, reading: _Reading) -> None:
    if not isinstance(bd, dict):
        raise FileFormatError(f"{where}: must be an object")
    body.mass = bd.get("mass", 1.0)
    body.center_of_mass = bd.get("center_of_mass", [0, 0, 0])
    body._set_inertia_as_read(bd.get("inertia", [1, 1, 1, 0, 0, 0]))  # as saved, physical or not
    read: dict = {"poses": {}, "meshes": {}}  # as urdf._fill_body keeps them
    body.visuals = _shapes(bd, "visuals", where, reading, read)
    body.collisions = _shapes(bd, "collisions", where, reading, read)  # absent in version 1
    if read["poses"] or read["meshes"]:
        body._urdf_shapes = read
    body.extensions = _get(bd, "extensions", where, [])
    inertial = bd.get("urdf_inertial")
    if inertial is not None:  # what the numbers give, as the URDF import computes it
        from types import SimpleNamespace

        T, xyz, rpy = reading.matrix(inertial)
        mass = float(inertial["mass"])
        ixx, ixy, ixz, iyy, iyz, izz = moments = tuple(map(float, inertial["inertia"]))
        tensor = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
        m, c, inertia = _inertia_about_origin(SimpleNamespace(mass=mass, origin=T, inertia=tensor))
        body._urdf_inertial = (m, tuple(c.tolist()), tuple(inertia.tolist()), (xyz, rpy, mass, moments))


def _shapes(bd: dict, key: str, where: str, reading: _Reading, read: dict) -> list[Visual]:
    """The visuals or collisions; their origins and mesh URIs as read go into ``read``."""
    items = _get(bd, key, where, [])
    if not isinstance(items, list):
        raise FileFormatError(f"{where}: {key}: must be a list")
    out = []
    for k, v in enumerate(items):
        at = f"{where}: {key}[{k}]"
        if not isinstance(v, dict):
            raise FileFormatError(f"{at}: must be an object")
        filename, uri = v.get("filename", ""), v.get("uri")
        if uri is not None and v.get("kind") == "mesh":
            filename, keep = reading.mesh_file(filename, uri, at)
            uri = uri if keep else None
        try:
            vis = Visual(_get(v, "kind", at), _get(v, "size", at), v.get("pose", np.eye(4)),
                         v.get("color", (0.7, 0.7, 0.75, 1)), filename, v.get("name", ""))
        except KineTreeError as exc:
            raise FileFormatError(f"{at}: {exc}") from None
        if "urdf_origin" in v:
            T, xyz, rpy = reading.matrix(v["urdf_origin"])
            if tuple(map(tuple, T.tolist())) == vis.pose:  # else not this shape's origin: not kept
                read["poses"].setdefault(vis.pose, (xyz, rpy))
        if uri is not None and vis.kind == "mesh":
            read["meshes"].setdefault(vis, uri)
            read["meshes"].setdefault(vis.filename, uri)
        out.append(vis)
    return out


def _get(d: dict, key: str, where: str, default: Any = ...) -> Any:
    if key in d:
        return d[key]
    if default is ...:
        raise FileFormatError(f"{where}: missing field {key!r}")
    return default


def _joint_from_dict(jd: dict, where: str, reading: _Reading) -> Joint:
    if not isinstance(jd, dict):
        raise FileFormatError(f"{where}: 'joint' must be an object")
    jtype = _get(jd, "type", where)
    if jtype not in JOINT_TYPES:
        raise FileFormatError(f"{where}: unknown joint type {jtype!r}")
    j = Joint(_get(jd, "name", where), jtype, jd.get("motion_subspace"))
    dh = jd.get("dh")
    if dh is not None:
        j.set_fixed_transform([_get(dh, k, where + ".dh") for k in ("a", "alpha", "d", "theta")],
                              _get(dh, "convention", where + ".dh"))
    elif "joint_to_parent_transform" in jd:
        j.set_fixed_transform(jd["joint_to_parent_transform"])
    if dh is None and "child_to_joint_transform" in jd:
        j.set_fixed_transform(jd["child_to_joint_transform"], "child")
    if "axis" in jd:
        j.axis = jd["axis"]
    if "offset" in jd:
        j.offset = jd["offset"]
    if "position_limits" in jd:
        raw = np.array(jd["position_limits"], dtype=object).reshape(-1, 2)
        lim = np.array([[-math.inf if lo is None else lo, math.inf if hi is None else hi]
                        for lo, hi in raw], dtype=float)
        qrows = QUATERNION_ROWS.get(jtype)
        if qrows is not None:
            lim[qrows] = math.nan
        j.set_limits(lim if lim.shape[0] > 1 else lim[0], jd.get("home_position"))
    motor = jd.get("motor")
    if motor is not None:
        for key in ("gear_ratio", "motor_inertia", "viscous_friction", "coulomb_friction"):
            if key in motor:
                setattr(j, key, motor[key])
    mimic = jd.get("mimic")
    if mimic is not None:
        if not isinstance(mimic, dict):
            raise FileFormatError(f"{where}: 'mimic' must be an object")
        j.mimic = Mimic(_get(mimic, "joint", where + ".mimic"), mimic.get("multiplier", 1.0), mimic.get("offset", 0.0))
    if "actuated" in jd:
        j.actuated = jd["actuated"]
    j.extensions = _get(jd, "extensions", where, [])
    if "urdf_origin" in jd:  # export writes it while the joint's origin is still its transform
        j._urdf_origin = reading.matrix(jd["urdf_origin"])
    return j


def tree_from_dict(d: Any, source: str = "project", *, base_dir: str | os.PathLike | None = None,
                   package_paths: Sequence[str | os.PathLike] = (),
                   on_warning: Callable[[str], None] | None = None) -> tuple[RigidBodyTree, np.ndarray | None]:
    """Rebuild a tree (and the stored configuration, if any) from :func:`tree_to_dict`'s output.

    A mesh saved with its URI (``uri``) whose saved path does not exist is looked for again
    from ``base_dir`` (the project's folder), ``package_paths`` and ``$ROS_PACKAGE_PATH``; one
    not found is kept with a :class:`~kinetree.core.io.urdf.read.MeshNotFoundWarning` (to
    ``on_warning`` when given), issued only when the load succeeds."""
    reading = _Reading(base_dir, package_paths)
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise FileFormatError(f"{source}: not a KineTree project (missing \"format\": \"{FORMAT}\")")
    version = d.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise FileFormatError(f"{source}: 'version' must be an integer, got {version!r}")
    if version > VERSION:
        raise FileFormatError(
            f"{source}: project version {version} is newer than this KineTree understands "
            f"(up to {VERSION}); please update KineTree"
        )
    if version < MIN_VERSION:
        raise FileFormatError(f"{source}: project version {version} is unknown (versions start at {MIN_VERSION})")
    # version 1 -> 2 added collisions and extensions, 2 -> 3 named poses, 3 -> 4 loops and passive joints
    # (all optional): older files read as is
    check_project(d, source)
    try:
        tree = RigidBodyTree(_get(d, "base_name", source, "base"), _get(d, "gravity", source, [0, 0, 0]))
        bodies = _get(d, "bodies", source)
        if not isinstance(bodies, list):
            raise FileFormatError(f"{source}: 'bodies' must be a list")
        items = []  # added at once: linear time, and a mimic joint may come before its leader
        for k, bd in enumerate(bodies):
            where = f"{source}: bodies[{k}]"
            if not isinstance(bd, dict):
                raise FileFormatError(f"{where}: must be an object")
            where = f"{source}: body {bd.get('name', k)!r}"
            body = RigidBody(_get(bd, "name", where))
            body.joint = _joint_from_dict(_get(bd, "joint", where), where, reading)
            _set_inertia_and_visuals(body, bd, where, reading)
            items.append((body, _get(bd, "parent", where)))
        tree.add_bodies(items)
        if "base" in d:
            _set_inertia_and_visuals(tree.base, d["base"], f"{source}: base", reading)
        tree.extensions = _get(d, "extensions", source, [])
        tree.check_mimics()
        q = d.get("configuration")
        config = tree.config_to_vector(q) if q is not None else None
        tree.named_poses.replace(d.get("named_poses") or {})
        for ld in d.get("loops", []):  # version 4
            tree.add_loop(ld["name"], ld["body_a"], ld["frame_a"], ld["body_b"], ld["frame_b"], ld["kind"])
        reading.warnings += vet_kept_files(tree, Path(base_dir) if base_dir is not None else None, source)
    except FileFormatError:
        raise
    except KineTreeError as exc:
        raise FileFormatError(f"{source}: {exc}") from None
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise FileFormatError(f"{source}: malformed field ({type(exc).__name__}: {exc})") from None
    if reading.warnings:
        for msg in reading.warnings:
            if on_warning is not None:
                on_warning(msg)
            else:
                warnings.warn(msg, MeshNotFoundWarning, stacklevel=3)
    return tree, config


def dumps(tree: RigidBodyTree, configuration: np.ndarray | None = None, compact: bool = False) -> str:
    """The project file text (stable key order, so equal trees give equal text); ``compact``:
    on one line, as the autosave writes it (json's C encoder takes no indent: the indented
    text of 49,000 bodies took 5 s, the compact one a tenth of that)."""
    return _text(tree_to_dict(tree, configuration), compact)


def _text(d: dict, compact: bool) -> str:
    return json.dumps(d, indent=None if compact else 1, allow_nan=False, separators=(",", ":") if compact else None)


def save_project(tree: RigidBodyTree, path: str | os.PathLike,
                 configuration: np.ndarray | None = None) -> FileIdentity:
    """Save atomically to ``path``; return the saved file's identity (see
    :mod:`kinetree.core.disk.identity`: the app compares it with the file later).
    What :func:`load_project` would refuse is not written: a
    :class:`FileFormatError` names the body and field out of the reader's bounds, or says the
    tree has more than :data:`~kinetree.core.disk.safe_io.MAX_BODIES` bodies or the file would be
    over :data:`MAX_BYTES`."""
    return atomic_write_text(path, project_text(tree, configuration, Path(path).name))


def project_text(tree: RigidBodyTree, configuration: np.ndarray | None = None, name: str = "project",
                 compact: bool = False) -> str:
    """The project text of ``tree`` (as :func:`dumps`, ``compact`` too) if :func:`load_project`
    would read it back, else a :class:`FileFormatError` naming ``name`` and what is out of the
    reader's bounds (more than :data:`~kinetree.core.disk.safe_io.MAX_BODIES` bodies, a field, over
    :data:`MAX_BYTES`): Save and the autosave write nothing that could not be opened or restored."""
    if len(tree.bodies) > MAX_BODIES:
        raise FileFormatError(f"{name}: {len(tree.bodies)} bodies is more than the {MAX_BODIES} "
                              "a project may have to be read back")
    d = tree_to_dict(tree, configuration)
    check_project(d, name)  # the reader's own checks: whatever is saved loads
    text = _text(d, compact)
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise FileFormatError(f"{name}: the project would be {size / 2**20:.1f} MB, more than the "
                              f"{MAX_BYTES // 2**20} MB a project may have to be read back")
    return text


def load_project(path: str | os.PathLike, *, package_paths: Sequence[str | os.PathLike] = (),
                 on_warning: Callable[[str], None] | None = None) -> tuple[RigidBodyTree, np.ndarray | None]:
    """Load a project file; raises :class:`FileFormatError` naming the file and the problem.
    A mesh whose saved path is gone is looked for again from its URI as written (see
    :func:`tree_from_dict`: the project's folder and its ancestors, ``package_paths``,
    ``$ROS_PACKAGE_PATH``); warnings go to ``on_warning`` when given, else to
    :func:`warnings.warn`."""
    path = Path(path)
    data = read_regular_file(path, MAX_BYTES, "project")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    with gc_paused():  # a third of a big load was garbage-collector passes
        return tree_from_dict(parse_json(text, str(path)), str(path), base_dir=path.parent.absolute(),
                              package_paths=package_paths, on_warning=on_warning)
