"""Rigid bodies and their visuals."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .errors import InvalidPropertyError
from .joint import Joint
from .transforms import validate_transform

if TYPE_CHECKING:
    from .tree import RigidBodyTree

VISUAL_KINDS = ("box", "cylinder", "sphere", "mesh")


@dataclass(frozen=True)
class Visual:
    """Something drawn with a body, posed in the body frame.

    ``size`` is ``(x, y, z)`` for a box, ``(radius, length)`` for a cylinder along z,
    ``(radius,)`` for a sphere, the scale ``(sx, sy, sz)`` for a mesh ``filename`` (negative
    entries mirror it).
    ``color`` is RGBA in 0…1.
    """

    kind: str
    size: tuple[float, ...]
    pose: tuple[tuple[float, ...], ...] = tuple(map(tuple, np.eye(4)))
    color: tuple[float, float, float, float] = (0.7, 0.7, 0.75, 1.0)
    filename: str = ""
    name: str = field(default="")

    def __post_init__(self) -> None:
        expected = {"box": 3, "cylinder": 2, "sphere": 1, "mesh": 3}
        if self.kind not in expected:
            raise InvalidPropertyError(
                f"visual kind {self.kind!r} unknown; expected one of {', '.join(VISUAL_KINDS)}"
            )
        size = tuple(float(v) for v in np.asarray(self.size, dtype=float).reshape(-1))
        # a mesh scale may be negative (a mirrored mesh), never zero
        ok = (lambda v: v != 0) if self.kind == "mesh" else (lambda v: v > 0)
        if len(size) != expected[self.kind] or not all(math.isfinite(v) and ok(v) for v in size):
            what = "non-zero" if self.kind == "mesh" else "positive"
            raise InvalidPropertyError(
                f"{self.kind} visual: size must be {expected[self.kind]} {what} numbers, got {list(size)}"
            )
        pose = validate_transform(self.pose, f"{self.kind} visual pose")
        color = tuple(float(v) for v in np.asarray(self.color, dtype=float).reshape(-1))
        if len(color) == 3:
            color = (*color, 1.0)
        if len(color) != 4 or not all(0.0 <= c <= 1.0 for c in color):
            raise InvalidPropertyError(f"visual colour must be RGB(A) in 0..1, got {list(color)}")
        if self.kind == "mesh" and not self.filename:
            raise InvalidPropertyError("mesh visual needs a filename")
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "pose", tuple(map(tuple, pose.tolist())))
        object.__setattr__(self, "color", color)

    @property
    def matrix(self) -> np.ndarray:
        """The pose as a 4×4 array."""
        return np.array(self.pose)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "size": list(self.size),
                             "pose": [list(r) for r in self.pose], "color": list(self.color)}
        if self.filename:
            d["filename"] = self.filename
        if self.name:
            d["name"] = self.name
        return d


def _vector(value: ArrayLike, n: int, what: str, body: str) -> np.ndarray:
    try:
        v = np.array(value, dtype=float).reshape(n)
    except (ValueError, TypeError):
        raise InvalidPropertyError(f"body {body!r}: {what} must be {n} numbers, got {value!r}") from None
    if not np.all(np.isfinite(v)):
        raise InvalidPropertyError(f"body {body!r}: {what} must be finite, got {v.tolist()}")
    return v


class RigidBody:
    """A rigid body: a name, the joint to its parent, inertial data and visuals.

    MATLAB's defaults: mass 1, centre of mass at the origin, inertia ``[1 1 1 0 0 0]``
    (``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame).
    """

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not name.strip():
            raise InvalidPropertyError(f"body name must be a non-empty string, got {name!r}")
        self._name = name
        self._joint = Joint(f"{name}_jnt")
        self._joint._owner = self
        self._mass = 1.0
        self._com = np.zeros(3)
        self._inertia = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
        self._visuals: tuple[Visual, ...] = ()
        self._tree: RigidBodyTree | None = None

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        if not isinstance(value, str) or not value.strip():
            raise InvalidPropertyError(f"body name must be a non-empty string, got {value!r}")
        if self._tree is not None:
            self._tree._check_body_rename(self, value)
        self._name = value
        self._changed()

    @property
    def joint(self) -> Joint:
        """The joint connecting this body to its parent."""
        return self._joint

    @joint.setter
    def joint(self, joint: Joint) -> None:
        if self._tree is not None:
            self._tree.replace_joint(self._name, joint)
            return
        j = joint.copy()
        j._owner = self
        self._joint = j

    @property
    def mass(self) -> float:
        return self._mass

    @mass.setter
    def mass(self, value: float) -> None:
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise InvalidPropertyError(f"body {self._name!r}: mass {value!r} is not a number") from None
        if not math.isfinite(v) or v < 0:
            raise InvalidPropertyError(f"body {self._name!r}: mass must be finite and ≥ 0, got {value!r}")
        self._mass = v
        self._changed()

    @property
    def center_of_mass(self) -> np.ndarray:
        return self._com.copy()

    @center_of_mass.setter
    def center_of_mass(self, value: ArrayLike) -> None:
        self._com = _vector(value, 3, "center of mass", self._name)
        self._changed()

    @property
    def inertia(self) -> np.ndarray:
        """``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame."""
        return self._inertia.copy()

    @inertia.setter
    def inertia(self, value: ArrayLike) -> None:
        v = _vector(value, 6, "inertia", self._name)
        if np.any(v[:3] < 0):
            raise InvalidPropertyError(
                f"body {self._name!r}: principal moments Ixx, Iyy, Izz must be ≥ 0, got {v[:3].tolist()}"
            )
        self._inertia = v
        self._changed()

    @property
    def visuals(self) -> tuple[Visual, ...]:
        return self._visuals

    @visuals.setter
    def visuals(self, value) -> None:
        items = tuple(value)
        for v in items:
            if not isinstance(v, Visual):
                raise InvalidPropertyError(f"body {self._name!r}: visuals must be Visual objects, got {v!r}")
        self._visuals = items
        self._changed()

    def add_visual(self, kind: str, size: ArrayLike, pose: ArrayLike | None = None,
                   color: ArrayLike = (0.7, 0.7, 0.75, 1.0), filename: str = "") -> Visual:
        """Append a visual (see :class:`Visual`) and return it."""
        v = Visual(kind, tuple(np.asarray(size, dtype=float).reshape(-1)),
                   np.eye(4) if pose is None else pose, tuple(color), filename)
        self.visuals = (*self._visuals, v)
        return v

    @property
    def parent(self) -> RigidBody | None:
        """The parent body (the tree's base for first-level bodies); ``None`` outside a tree."""
        return self._tree._parent_of(self) if self._tree is not None else None

    @property
    def children(self) -> tuple[RigidBody, ...]:
        return self._tree._children_of(self) if self._tree is not None else ()

    def copy(self) -> RigidBody:
        """A detached deep copy (not attached to any tree)."""
        b = RigidBody.__new__(RigidBody)
        b.__dict__.update(self.__dict__)
        b._com, b._inertia = self._com.copy(), self._inertia.copy()
        b._joint = self._joint.copy()
        b._joint._owner = b
        b._tree = None
        return b

    def _changed(self) -> None:
        if self._tree is not None:
            self._tree._touch()

    def __repr__(self) -> str:
        return f"RigidBody({self._name!r}, joint={self._joint!r})"
