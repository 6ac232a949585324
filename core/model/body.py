"""Rigid bodies, their visuals and collision geometry."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidPropertyError, PhysicsWarning
from ..names import MAX_NAME_LENGTH, MAX_PATH_LENGTH, derived_name, text_problem
from ..number_text import compact_text, numbers_text
from ..transforms import MAX_LENGTH, validate_transform
from .joint import Joint
from .xml_fragment import check_fragments

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

VISUAL_KINDS = ("box", "cylinder", "sphere", "mesh")


def _floats(value: Any, what: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in np.asarray(value, dtype=float).reshape(-1))
    except (TypeError, ValueError):
        raise InvalidPropertyError(f"{what} must be numbers, got {value!r:.80}") from None


@dataclass(frozen=True)
class Visual:
    """A shape posed in the body frame: something drawn with a body (``visuals``) or its
    collision geometry (``collisions``, where ``color`` is not used).

    ``size`` is ``(x, y, z)`` for a box, ``(radius, length)`` for a cylinder along z,
    ``(radius,)`` for a sphere, the scale ``(sx, sy, sz)`` for a mesh ``filename`` (negative
    entries mirror it). Sizes, scales and the pose's translation are at most
    :data:`~kinetree.core.transforms.MAX_LENGTH` in magnitude.
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
        if not isinstance(self.kind, str) or self.kind not in expected:
            raise InvalidPropertyError(
                f"visual kind {self.kind!r:.80} unknown; expected one of {', '.join(VISUAL_KINDS)}"
            )
        for attr, longest in (("filename", MAX_PATH_LENGTH), ("name", MAX_NAME_LENGTH)):
            if problem := text_problem(getattr(self, attr), allow_empty=True, max_length=longest, name=False):
                raise InvalidPropertyError(f"{self.kind} visual: {attr} {problem}")
        size = _floats(self.size, f"{self.kind} visual: size")
        # a mesh scale may be negative (a mirrored mesh), never zero
        ok = (lambda v: v != 0) if self.kind == "mesh" else (lambda v: v > 0)
        if len(size) != expected[self.kind] or not all(
                math.isfinite(v) and ok(v) and abs(v) <= MAX_LENGTH for v in size):
            what = "non-zero" if self.kind == "mesh" else "positive"
            raise InvalidPropertyError(
                f"{self.kind} visual: size must be {expected[self.kind]} {what} numbers of magnitude "
                f"at most {MAX_LENGTH:g}, got {list(size)}"
            )
        pose = validate_transform(self.pose, f"{self.kind} visual pose")
        if np.abs(pose[:3, 3]).max() > MAX_LENGTH:
            raise InvalidPropertyError(f"{self.kind} visual: pose translation {pose[:3, 3].tolist()} is "
                                       f"more than {MAX_LENGTH:g} m")
        color = _floats(self.color, f"{self.kind} visual: colour")
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

    def to_dict(self, color: bool = True) -> dict[str, Any]:
        """JSON-ready fields; ``color=False`` leaves the colour out (collision geometry)."""
        d: dict[str, Any] = {"kind": self.kind, "size": list(self.size), "pose": [list(r) for r in self.pose]}
        if color:
            d["color"] = list(self.color)
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


def _matrix(v: np.ndarray) -> np.ndarray:
    """The 3×3 tensor of ``[Ixx Iyy Izz Iyz Ixz Ixy]``."""
    ixx, iyy, izz, iyz, ixz, ixy = v
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def _from_corke_order(v: np.ndarray) -> np.ndarray:
    """MATLAB's ``[Ixx Iyy Izz Iyz Ixz Ixy]`` of Corke's ``[Ixx Iyy Izz Ixy Iyz Ixz]``."""
    return np.array([v[0], v[1], v[2], v[4], v[5], v[3]])


def _to_corke_order(v: np.ndarray) -> np.ndarray:
    return np.array([v[0], v[1], v[2], v[5], v[3], v[4]])


def _inertia_vector(value: ArrayLike, body: str, what: str, corke: bool = False) -> np.ndarray:
    """``[Ixx Iyy Izz Iyz Ixz Ixy]`` of 3 principal moments, 6 numbers (MATLAB's order, or
    Corke's with ``corke``) or a symmetric 3×3 matrix."""
    try:
        a = np.array(value, dtype=float)
    except (ValueError, TypeError):
        a = None
    order = "[Ixx Iyy Izz Ixy Iyz Ixz]" if corke else "[Ixx Iyy Izz Iyz Ixz Ixy]"
    if a is None or a.shape not in ((3,), (6,), (3, 3)):
        raise InvalidPropertyError(f"body {body!r}: {what} must be 3 numbers [Ixx Iyy Izz], 6 numbers {order} "
                                   f"or a 3×3 matrix, got {value!r:.120}")
    if not np.all(np.isfinite(a)):
        raise InvalidPropertyError(f"body {body!r}: {what} must be finite, got {a.tolist()}")
    if a.shape == (3, 3):
        if not np.allclose(a, a.T, rtol=0, atol=1e-12 * max(1.0, float(np.abs(a).max()))):
            raise InvalidPropertyError(f"body {body!r}: {what} matrix must be symmetric, got {a.tolist()}")
        return np.array([a[0, 0], a[1, 1], a[2, 2], a[1, 2], a[0, 2], a[0, 1]])
    if a.shape == (3,):
        return np.array([*a, 0.0, 0.0, 0.0])
    return _from_corke_order(a) if corke else a


def inertia_problem(v: ArrayLike) -> str:
    """Why ``[Ixx Iyy Izz Iyz Ixz Ixy]`` is no mass distribution's inertia ("" if it is one):
    its principal moments must be ≥ 0 and each at most the sum of the other two (the triangle
    inequality), up to rounding."""
    return _negative_moment(v) or _triangle_violation(v)


def _tolerance(eig: np.ndarray) -> float:
    return 1e-9 * max(float(np.abs(eig).max()), 1e-300)


def _negative_moment(v: ArrayLike) -> str:
    """Why the tensor is refused outright ("" if it is not): a principal moment < 0."""
    eig = np.linalg.eigvalsh(_matrix(np.asarray(v, dtype=float)))
    return f"principal moment {eig[0]:.6g} < 0" if eig[0] < -_tolerance(eig) else ""


def _triangle_violation(v: ArrayLike) -> str:
    """The triangle inequality the tensor breaks ("" if none), by axis names when it is diagonal
    (``Ixx + Izz ≥ Iyy``), else by principal moments."""
    v = np.asarray(v, dtype=float)
    eig = np.linalg.eigvalsh(_matrix(v))
    if eig[2] <= eig[0] + eig[1] + _tolerance(eig):
        return ""
    if not np.any(v[3:]):
        names = ("Ixx", "Iyy", "Izz")
        k = int(np.argmax(v[:3]))
        o = [i for i in range(3) if i != k]
        return (f"it breaks the triangle inequality {names[o[0]]} + {names[o[1]]} ≥ {names[k]} "
                f"({v[o[0]]:.6g} + {v[o[1]]:.6g} < {v[k]:.6g})")
    return (f"its principal moments {numbers_text(eig)} break the triangle inequality I1 + I2 ≥ I3 "
            f"({eig[0]:.6g} + {eig[1]:.6g} < {eig[2]:.6g})")


class RigidBody:
    """A rigid body: a name, the joint to its parent, inertial data, visuals, collision
    geometry and the robot file's elements KineTree does not model (``extensions``).

    MATLAB's defaults: mass 1, centre of mass at the origin, inertia ``[1 1 1 0 0 0]``
    (``[Ixx Iyy Izz Iyz Ixz Ixy]`` about the body frame).
    """

    def __init__(self, name: str) -> None:
        if problem := text_problem(name):
            raise InvalidPropertyError(f"body name {problem}")
        self._name = name
        self._joint = Joint(derived_name(name, "_jnt"))
        self._joint._owner = self
        self._mass = 1.0
        self._com = np.zeros(3)
        self._inertia = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
        self._visuals: tuple[Visual, ...] = ()
        self._collisions: tuple[Visual, ...] = ()
        self._extensions: tuple[str, ...] = ()
        self._tree: RigidBodyTree | None = None

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        if problem := text_problem(value):
            raise InvalidPropertyError(f"body name {problem}")
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
        if not isinstance(joint, Joint):
            raise InvalidPropertyError(f"body {self._name!r}: joint must be a Joint, got {joint!r:.80}")
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
        """``[Ixx Iyy Izz Iyz Ixz Ixy]`` (MATLAB's order) about the body frame.

        Set it from 3 numbers (principal moments ``[Ixx Iyy Izz]``), 6 numbers in MATLAB's
        order, or a symmetric 3×3 matrix; a negative principal moment is refused, a moment
        larger than the sum of the other two (the triangle inequality, broken by published
        tables such as Corke's Puma 560) is kept with a :class:`PhysicsWarning`. Corke's order
        ``[Ixx Iyy Izz Ixy Iyz Ixz]`` about the centre of mass goes through
        :meth:`set_inertia_corke` / :attr:`inertia_corke`."""
        return self._inertia.copy()

    @inertia.setter
    def inertia(self, value: ArrayLike) -> None:
        v = _inertia_vector(value, self._name, "inertia")
        hint = ""
        if len(np.asarray(value, dtype=float).reshape(-1)) == 6 and not inertia_problem(_from_corke_order(v)):
            hint = ("; read in Corke's order [Ixx Iyy Izz Ixy Iyz Ixz] it would be physical: "
                    "use set_inertia_corke")
        self._check_physical(v, f"inertia [Ixx Iyy Izz Iyz Ixz Ixy] = {numbers_text(v)}", hint)
        self._set_inertia_as_read(v)

    def _check_physical(self, v: np.ndarray, shown: str, hint: str = "") -> None:
        """Refuse a negative principal moment; warn (:class:`PhysicsWarning`) and keep a tensor
        that breaks the triangle inequality, as published tables hold (Corke's Puma link 1)."""
        if problem := _negative_moment(v):
            raise InvalidPropertyError(f"body {self._name!r}: {shown} is not physical: {problem}{hint}")
        if problem := _triangle_violation(v):
            warnings.warn(f"body {self._name!r}: {shown}: {problem}, which no mass distribution does; "
                          f"kept as given{hint}", PhysicsWarning, stacklevel=3)

    def _set_inertia_as_read(self, value: ArrayLike) -> None:
        """The 6 numbers as a file or a published table gives them, physical or not (URDF
        files and Corke's Puma hold tensors that break the triangle inequality; they load and
        are written back as read). Finite, principal moments ≥ 0."""
        v = _vector(value, 6, "inertia", self._name)
        if np.any(v[:3] < 0):
            raise InvalidPropertyError(
                f"body {self._name!r}: principal moments Ixx, Iyy, Izz must be ≥ 0, got {v[:3].tolist()}"
            )
        self._inertia = v
        self._changed()

    @property
    def inertia_corke(self) -> np.ndarray:
        """Corke's ``I``: ``[Ixx Iyy Izz Ixy Iyz Ixz]`` about the centre of mass (his ``r``).
        Setting it moves the tensor to the body frame with the current mass and centre of mass;
        see :meth:`set_inertia_corke`."""
        m, c = self._mass, self._com
        I = _matrix(self._inertia) - m * (float(c @ c) * np.eye(3) - np.outer(c, c))
        return np.array([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[1, 2], I[0, 2]])

    @inertia_corke.setter
    def inertia_corke(self, value: ArrayLike) -> None:
        self.set_inertia_corke(value)

    def set_inertia_corke(self, I: ArrayLike, m: float | None = None, r: ArrayLike | None = None) -> None:
        """Set mass properties as Corke's ``Link`` holds them: ``I`` is ``[Ixx Iyy Izz]``,
        ``[Ixx Iyy Izz Ixy Iyz Ixz]`` (his order) or a 3×3 matrix, about the centre of mass;
        ``m`` and ``r`` (mass, centre of mass in the body frame) replace the body's when given.
        Stored about the body frame (parallel axes), as :attr:`inertia` is. Checked about the
        centre of mass as :attr:`inertia` is (negative moments refused, a broken triangle
        inequality warned about: Corke's own Puma link 1 has ``I = [0 0.35 0]``)."""
        v = _inertia_vector(I, self._name, "Corke inertia", corke=True)
        self._check_physical(v, f"Corke inertia [Ixx Iyy Izz Ixy Iyz Ixz] = {numbers_text(_to_corke_order(v))}")
        old = self._mass, self._com
        try:
            if m is not None:
                self.mass = m
            if r is not None:
                self.center_of_mass = r
            mass, c = self._mass, self._com
            M = _matrix(v) + mass * (float(c @ c) * np.eye(3) - np.outer(c, c))
            # checked (and warned about) about the centre of mass, as given, above
            self._set_inertia_as_read([M[0, 0], M[1, 1], M[2, 2], M[1, 2], M[0, 2], M[0, 1]])
        except InvalidPropertyError:
            self._mass, self._com = old
            raise

    @property
    def visuals(self) -> tuple[Visual, ...]:
        return self._visuals

    @visuals.setter
    def visuals(self, value: Iterable[Visual]) -> None:
        self._visuals = self._shapes(value, "visuals")
        self._changed()

    @property
    def collisions(self) -> tuple[Visual, ...]:
        """Collision geometry: :class:`Visual` shapes whose colour is not used."""
        return self._collisions

    @collisions.setter
    def collisions(self, value: Iterable[Visual]) -> None:
        self._collisions = self._shapes(value, "collisions")
        self._changed()

    @property
    def extensions(self) -> tuple[str, ...]:
        """Elements of the robot file's link that KineTree does not model, as XML text in
        document order (kept for export; see :mod:`kinetree.core.model.xml_fragment`)."""
        return self._extensions

    @extensions.setter
    def extensions(self, value: Iterable[str]) -> None:
        self._extensions = check_fragments(value, f"body {self._name!r}: extensions")
        self._changed()

    def _shapes(self, value: Any, what: str) -> tuple[Visual, ...]:
        if value is None or isinstance(value, (str, bytes, Visual)):
            raise InvalidPropertyError(f"body {self._name!r}: {what} must be a list of Visual objects, "
                                       f"got {value!r:.80}")
        try:
            items = tuple(value)
        except TypeError:
            raise InvalidPropertyError(f"body {self._name!r}: {what} must be a list of Visual objects, "
                                       f"got {value!r:.80}") from None
        for v in items:
            if not isinstance(v, Visual):
                raise InvalidPropertyError(f"body {self._name!r}: {what} must be Visual objects, got {v!r:.80}")
        return items

    def _make_shape(self, what: str, kind: str, size: ArrayLike, pose: ArrayLike | None, color: ArrayLike,
                    filename: str, name: str) -> Visual:
        try:
            return Visual(kind, _floats(size, f"{kind} {what}: size"), np.eye(4) if pose is None else pose,
                          _floats(color, f"{kind} {what}: colour"), filename, name)
        except InvalidPropertyError as exc:
            raise InvalidPropertyError(f"body {self._name!r}: {exc}") from None

    def add_visual(self, kind: str, size: ArrayLike, pose: ArrayLike | None = None,
                   color: ArrayLike = (0.7, 0.7, 0.75, 1.0), filename: str = "", name: str = "") -> Visual:
        """Append a visual (see :class:`Visual`) and return it."""
        v = self._make_shape("visual", kind, size, pose, color, filename, name)
        self.visuals = (*self._visuals, v)
        return v

    def add_collision(self, kind: str, size: ArrayLike, pose: ArrayLike | None = None, filename: str = "",
                      name: str = "") -> Visual:
        """Append a collision shape (see :class:`Visual`; no colour) and return it."""
        v = self._make_shape("collision", kind, size, pose, (0.7, 0.7, 0.75, 1.0), filename, name)
        self.collisions = (*self._collisions, v)
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
            self._tree.mark_changed()

    def __repr__(self) -> str:
        """One line, as MATLAB's object display in short: name, joint, mass, centre of mass, parent."""
        parent = self.parent
        where = f", parent={parent.name!r}" if parent is not None else ""
        return (f"RigidBody({self._name!r}, joint={self._joint!r}, mass={compact_text(self._mass)}, "
                f"com={numbers_text(self._com)}{where})")
