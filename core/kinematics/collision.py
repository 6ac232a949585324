"""Self-collision of a tree's bodies, as MATLAB's ``checkCollision(robot, q)`` with
``SkippedSelfCollisions="parent"``, with python-fcl (the optional extra ``kinetree[collision]``).

Each body collides through its collision geometry (``RigidBody.collisions``) or, when it has
none, its visuals. Pairs never reported: a body and its parent, and bodies already touching at
the home configuration (e.g. links whose meshes overlap at a joint). Boxes, spheres and
cylinders are exact primitives; meshes are read by :func:`kinetree.core.disk.mesh_reader.read_mesh`
(the viewport's reader: bounded, validated) and checked triangle by triangle. A mesh that cannot
be read is left out: ``CollisionChecker.skipped`` names it and why, and a
:class:`MeshSkippedWarning` says so.

Broad phase: the world-frame bounding boxes of every shape, vectorised; narrow phase: FCL on
the shape pairs whose boxes overlap, one contact a pair.
"""

from __future__ import annotations

import warnings
import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from ..disk.mesh_reader import read_mesh
from ..errors import FileFormatError
from ..model.body import Visual

if TYPE_CHECKING:
    from ..model.configuration import Configuration
    from ..tree import RigidBodyTree

_MESHES: OrderedDict[tuple[str, tuple[float, ...]], tuple[np.ndarray, np.ndarray, Any]] = OrderedDict()
_MESH_CACHE = 64  # meshes kept (vertices and faces): editing a tree rebuilds its checker without re-reading
_CUBE = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)


def collision_available() -> bool:
    """Whether python-fcl is installed (``pip install kinetree[collision]``)."""
    try:
        import fcl  # noqa: F401
    except ImportError:
        return False
    return True


def _fcl():
    try:
        import fcl
    except ImportError:
        raise ModuleNotFoundError("collision checking needs python-fcl: pip install 'kinetree[collision]' "
                                  "(or pip install python-fcl)") from None
    return fcl


class MeshSkippedWarning(UserWarning):
    """A mesh left out of the self-collision check (unreadable, invalid, too large …)."""


def _mesh(filename: str, scale: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(vertices scaled, faces) of a mesh file (cached); :class:`FileFormatError` when it
    cannot be used."""
    key = (filename, tuple(scale))
    hit = _MESHES.get(key)
    mesh = read_mesh(filename)  # checks the file again (it may have changed) and caches its arrays
    if hit is not None and hit[2] is mesh:
        _MESHES.move_to_end(key)
        return hit[0], hit[1]
    v = mesh.vertices * np.asarray(scale, dtype=float)
    if not np.isfinite(v).all():  # a huge scale of a large mesh
        raise FileFormatError(f"{filename}: mesh scaled by {tuple(scale)} has coordinates beyond the float range")
    _MESHES[key] = (v, mesh.faces, mesh)
    while len(_MESHES) > _MESH_CACHE:
        _MESHES.popitem(last=False)
    return v, mesh.faces


def _geometry(fcl: Any, shape: Visual) -> tuple[Any, np.ndarray, np.ndarray]:
    """(FCL geometry, local AABB centre, half extents) of a shape; :class:`FileFormatError`
    for a mesh that cannot be used."""
    s = shape.size
    if shape.kind == "box":
        return fcl.Box(*s), np.zeros(3), np.array(s) / 2
    if shape.kind == "sphere":
        return fcl.Sphere(s[0]), np.zeros(3), np.full(3, s[0])
    if shape.kind == "cylinder":
        return fcl.Cylinder(s[0], s[1]), np.zeros(3), np.array([s[0], s[0], s[1] / 2])
    v, f = _mesh(shape.filename, s)  # validated: FCL crashes on an index out of range
    g = fcl.BVHModel()
    g.beginModel(len(v), len(f))
    g.addSubModel(v, f)
    g.endModel()
    lo, hi = v.min(axis=0), v.max(axis=0)
    return g, (lo + hi) / 2, (hi - lo) / 2


class CollisionChecker:
    """Self-collision checks of one tree (as it is when built: rebuild after edits, which
    :func:`check_collision` does by itself)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        fcl = self._fcl = _fcl()
        self._tree = weakref.ref(tree)  # the cache below is keyed by the tree's plan: no cycle through it
        self.names = [tree.base_name, *tree.body_names]
        self.skipped: list[str] = []  # "body: mesh file: why" of meshes left out
        objects, owner, poses, centres, halves = [], [], [], [], []
        for k, body in enumerate((tree.base, *tree.bodies)):
            for shape in body.collisions or body.visuals:
                try:
                    geom, centre, half = _geometry(fcl, shape)
                except FileFormatError as exc:
                    self.skipped.append(f"{body.name}: {exc}")
                    warnings.warn(f"self-collision check: body {body.name!r}: {exc}; left out", MeshSkippedWarning,
                                  stacklevel=3)
                    continue
                objects.append(fcl.CollisionObject(geom, fcl.Transform()))
                owner.append(k)
                poses.append(shape.matrix)
                centres.append(centre)
                halves.append(half)
        self._objects = objects
        self._owner = np.array(owner, dtype=int)
        self._poses = np.array(poses).reshape(-1, 4, 4)
        # each shape's local bounding-box corners, in its body's frame
        corners = np.array(centres).reshape(-1, 1, 3) + _CUBE * np.array(halves).reshape(-1, 1, 3)
        self._corners = np.einsum("sij,scj->sci", self._poses[:, :3, :3], corners) + self._poses[:, None, :3, 3]
        parent = {b.name: tree.parent_name(b.name) for b in tree.bodies}
        index = {n: i for i, n in enumerate(self.names)}
        nb = len(self.names)
        allowed = ~np.eye(nb, dtype=bool)
        for child, p in parent.items():
            allowed[index[child], index[p]] = allowed[index[p], index[child]] = False
        self._allowed = allowed
        self.excluded_at_home: list[tuple[str, str]] = self._colliding(tree.home_configuration())
        for a, b in self.excluded_at_home:
            allowed[index[a], index[b]] = allowed[index[b], index[a]] = False

    def check(self, q: Configuration) -> list[tuple[str, str]]:
        """Pairs of bodies in contact at ``q`` (names, each pair in body order, pairs sorted),
        parent–child pairs and pairs touching at home left out."""
        return self._colliding(q)

    def _colliding(self, q: Configuration) -> list[tuple[str, str]]:
        if not self._objects:
            return []
        fcl = self._fcl
        tree = self._tree()
        if tree is None:
            raise ReferenceError("the tree of this collision checker no longer exists")
        T = tree.forward_kinematics(q)
        T = np.concatenate([np.eye(4)[None], T])  # index 0: the base
        Tb = T[self._owner]
        world = np.einsum("sij,scj->sci", Tb[:, :3, :3], self._corners) + Tb[:, None, :3, 3]
        lo, hi = world.min(axis=1), world.max(axis=1)
        overlap = ((lo[:, None] <= hi[None]) & (lo[None] <= hi[:, None])).all(axis=2)
        o = self._owner
        candidates = np.argwhere(np.triu(overlap & self._allowed[o[:, None], o[None]], 1))
        found: set[tuple[int, int]] = set()
        placed: set[int] = set()
        request = fcl.CollisionRequest(num_max_contacts=1, enable_contact=False)
        for s1, s2 in candidates:
            pair = (min(o[s1], o[s2]), max(o[s1], o[s2]))
            if pair in found:
                continue
            for s in (s1, s2):
                if s not in placed:
                    P = Tb[s] @ self._poses[s]
                    self._objects[s].setTransform(fcl.Transform(P[:3, :3], P[:3, 3]))
                    placed.add(s)
            if fcl.collide(self._objects[s1], self._objects[s2], request, fcl.CollisionResult()):
                found.add(pair)
        return [(self.names[a], self.names[b]) for a, b in sorted(found)]


_CHECKERS: weakref.WeakKeyDictionary[Any, CollisionChecker] = weakref.WeakKeyDictionary()


def collision_checker(tree: RigidBodyTree) -> CollisionChecker:
    """The tree's checker, built once per version of the tree (an edit makes a new one)."""
    plan = tree.kinematic_plan()  # rebuilt whenever the tree (visuals included) changes
    checker = _CHECKERS.get(plan)
    if checker is None:
        checker = _CHECKERS[plan] = CollisionChecker(tree)
    return checker


def check_collision(tree: RigidBodyTree, q: Configuration) -> list[tuple[str, str]]:
    """Pairs of bodies in contact at ``q``, as ``(name, name)`` in body order (the base first),
    sorted; a body and its parent, and bodies touching at home, are never reported (MATLAB's
    ``checkCollision`` with ``SkippedSelfCollisions="parent"``, plus the home pairs). Raises
    ``ModuleNotFoundError`` without python-fcl (see :func:`collision_available`)."""
    return collision_checker(tree).check(q)


class CollisionMixin:
    """Collision methods of :class:`~kinetree.core.tree.RigidBodyTree`."""

    def check_collision(self, q: Configuration) -> list[tuple[str, str]]:
        """Pairs of bodies in contact at ``q`` (see :func:`kinetree.core.kinematics.collision.check_collision`)."""
        return check_collision(self, q)
