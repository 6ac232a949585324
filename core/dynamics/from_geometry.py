"""Mass, centre of mass and inertia of a body from its geometry and a density.

Each shape (a visual, or a collision shape when the body has no visuals) is a solid of the
density: boxes, cylinders and spheres through trimesh's primitives (exact volumes and moments),
mesh files through the engine's safe reader (:mod:`kinetree.core.disk.mesh_reader`) scaled by
the visual's size. Each shape's moments about its own centre of mass are turned by its pose and
moved to the body frame with the parallel-axis theorem; the sum is what
:attr:`RigidBody.inertia` holds (``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ..disk.mesh_reader import read_mesh
from ..errors import InvalidPropertyError, KineTreeError
from ..model.body import RigidBody, Visual

__all__ = ["MassProperties", "NotAVolumeError", "mass_from_geometry", "shape_mass_properties"]

#: Densities beyond this (kg/m³; osmium is 22 590) are refused as a typing mistake.
MAX_DENSITY = 1e6


class NotAVolumeError(KineTreeError):
    """A shape encloses no volume (an open or inside-out mesh); ``shapes`` names them."""

    def __init__(self, message: str, shapes: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.shapes = shapes


class MassProperties(NamedTuple):
    """``mass`` (kg), ``center_of_mass`` (3, body frame) and ``inertia`` (6, ``[Ixx Iyy Izz Iyz
    Ixz Ixy]`` about the body frame), with ``source`` the shapes used ("visuals"/"collisions")."""

    mass: float
    center_of_mass: np.ndarray
    inertia: np.ndarray
    source: str


def _solid(v: Visual, what: str, use_bounds: bool):
    """A trimesh solid of ``v`` in its own frame (density 1), or raises NotAVolumeError."""
    import trimesh
    import trimesh.primitives as prim

    if v.kind == "box":
        return prim.Box(extents=v.size)
    if v.kind == "cylinder":
        return prim.Cylinder(radius=v.size[0], height=v.size[1])
    if v.kind == "sphere":
        return prim.Sphere(radius=v.size[0])
    arrays = read_mesh(v.filename)
    mesh = trimesh.Trimesh(np.array(arrays.vertices) * np.asarray(v.size), np.array(arrays.faces), process=False)
    if mesh.is_volume:
        return mesh
    if use_bounds:
        lo, hi = mesh.bounds
        box = prim.Box(extents=np.maximum(hi - lo, 0.0))
        box.apply_translation((lo + hi) / 2)
        return box
    raise NotAVolumeError(f"{what}: mesh {v.filename!r} encloses no volume (it is open, not one "
                          "consistently wound surface); its bounding box can stand in for it", (what,))


def shape_mass_properties(v: Visual, density: float, what: str = "shape",
                          use_bounds: bool = False) -> tuple[float, np.ndarray, np.ndarray]:
    """``(mass, centre of mass, 3×3 inertia about that centre)`` of ``v`` filled with
    ``density``, in the frame ``v``'s pose is given in (the body frame)."""
    solid = _solid(v, what, use_bounds)
    T = v.matrix
    R = T[:3, :3]
    mass = density * float(solid.volume)
    com = R @ np.asarray(solid.center_mass, dtype=float) + T[:3, 3]
    inertia = density * (R @ np.asarray(solid.moment_inertia, dtype=float) @ R.T)
    return mass, com, inertia


def mass_from_geometry(body: RigidBody, density: float = 1000.0, use_bounds: bool = False) -> MassProperties:
    """The mass properties of ``body``'s visuals (its collision shapes if it has no visuals),
    each a solid of ``density`` kg/m³. A mesh that encloses no volume raises
    :class:`NotAVolumeError` unless ``use_bounds``, which takes its bounding box instead."""
    try:
        density = float(density)
    except (TypeError, ValueError):
        raise InvalidPropertyError(f"body {body.name!r}: density {density!r} is not a number") from None
    if not math.isfinite(density) or not 0 < density <= MAX_DENSITY:
        raise InvalidPropertyError(f"body {body.name!r}: density must be > 0 and at most {MAX_DENSITY:g} kg/m³, "
                                   f"got {density:g}")
    source = "visuals" if body.visuals else "collisions"
    shapes = body.visuals or body.collisions
    if not shapes:
        raise InvalidPropertyError(f"body {body.name!r} has no visuals or collision shapes to take its mass from")
    parts, open_shapes = [], []
    for i, v in enumerate(shapes):
        what = f"body {body.name!r}: {source[:-1]} {i + 1} ({v.kind})"
        try:
            parts.append(shape_mass_properties(v, density, what, use_bounds))
        except NotAVolumeError as exc:
            open_shapes.append((what, str(exc)))
    if open_shapes:
        raise NotAVolumeError("; ".join(m for _w, m in open_shapes), tuple(w for w, _m in open_shapes))
    mass = sum(m for m, _c, _I in parts)
    com = sum(m * c for m, c, _I in parts) / mass
    total = np.zeros((3, 3))
    for m, c, I in parts:  # about the body frame's origin: parallel axes
        total += I + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
    inertia = np.array([total[0, 0], total[1, 1], total[2, 2], total[1, 2], total[0, 2], total[0, 1]])
    # rounding noise (a mesh centred at 0 gives a centroid of 1e-19) shown as a number would
    # suggest an asymmetry there is none of: below 1e-12 of the body's scale it is zero
    scale = max(float(np.abs(com).max()), math.sqrt(float(np.abs(inertia[:3]).max()) / mass), 1e-300)
    com[np.abs(com) < 1e-12 * scale] = 0.0
    inertia[np.abs(inertia) < 1e-12 * float(np.abs(inertia[:3]).max())] = 0.0
    return MassProperties(mass, com, inertia, source)
