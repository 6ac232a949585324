"""Joints: the motion between a body and its parent, and the two fixed transforms around it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ..errors import InvalidConfigurationError, InvalidJointError, InvalidLimitsError, InvalidTransformError
from ..names import text_problem
from ..number_text import compact_text, numbers_text
from ..transforms import (
    MAX_LENGTH,
    axis_angle_rotation,
    dh_transform,
    mdh_transform,
    quat_to_rotation,
    validate_transform,
)
from .joint_motor import MotorMixin
from .real_numbers import complex_problem
from .xml_fragment import check_fragments

if TYPE_CHECKING:
    from .body import RigidBody

from .joint_subspace import (  # noqa: F401 - unit_axis: imported from here by other modules
    COMPOSITE_ROWS,
    COMPOSITE_TYPES,
    MAX_SUBSPACE_ROWS,
    elementary_motion,
    parse_motion_subspace,
    unit_axis,
)

JOINT_TYPES = ("fixed", "revolute", "prismatic", "floating", "spherical", "planar", *COMPOSITE_TYPES)
POSITION_COUNT = {"fixed": 0, "revolute": 1, "prismatic": 1, "floating": 7, "spherical": 4, "planar": 3,
                  **{t: 3 for t in COMPOSITE_ROWS}}
#: Joint types whose axis and offset the user may set.
AXIAL_TYPES = ("revolute", "prismatic")

_NAN2 = [math.nan, math.nan]
_DEFAULT_LIMITS = {
    "fixed": [_NAN2],
    "revolute": [[-math.pi, math.pi]],
    "prismatic": [[-0.5, 0.5]],
    "floating": [_NAN2] * 4 + [[-5.0, 5.0]] * 3,
    "spherical": [_NAN2] * 4,
    "planar": [[-5.0, 5.0], [-5.0, 5.0], [-math.pi, math.pi]],
}
_DEFAULT_HOME = {
    "fixed": [0.0],
    "revolute": [0.0],
    "prismatic": [0.0],
    "floating": [1.0, 0, 0, 0, 0, 0, 0],
    "spherical": [1.0, 0, 0, 0],
    "planar": [0.0, 0.0, 0.0],
}
_LIMITS_ARRAYS = {t: np.array(v, dtype=float) for t, v in _DEFAULT_LIMITS.items()}
_HOME_ARRAYS = {t: np.array(v, dtype=float) for t, v in _DEFAULT_HOME.items()}
_Z = np.array([0.0, 0.0, 1.0])
_NO_AXIS = np.full(3, math.nan)
_EYE4 = np.eye(4)
#: Rows of the position vector that hold a unit quaternion (their limits are NaN, unused).
QUATERNION_ROWS = {"floating": slice(0, 4), "spherical": slice(0, 4)}
#: Rows of the position vector that are lengths (metres); the other rows are angles.
#: Finite limits and home positions of length rows are at most MAX_LENGTH in magnitude.
LENGTH_ROWS = {"prismatic": slice(0, 1), "planar": slice(0, 2), "floating": slice(4, 7)}
_DEFAULT_SUBSPACE = ((0.0, 0.0, 1.0, 0.0, 0.0, 0.0),)  # a new custom joint: one rotation about z


@dataclass(frozen=True)
class DHRow:
    """A DH row as entered: ``convention`` is ``"dh"`` (standard) or ``"mdh"`` (Craig)."""

    a: float
    alpha: float
    d: float
    theta: float
    convention: Literal["dh", "mdh"] = "dh"

    def as_list(self) -> list[float]:
        return [self.a, self.alpha, self.d, self.theta]


@dataclass(frozen=True)
class Mimic:
    """A joint that follows another: its value is ``multiplier · q[joint] + offset`` (URDF's
    ``<mimic>``). A mimic joint has no position of its own in a configuration."""

    joint: str
    multiplier: float = 1.0
    offset: float = 0.0

    def __post_init__(self) -> None:
        _check_name(self.joint, "mimicked joint name")
        for field_name in ("multiplier", "offset"):
            try:
                raw = getattr(self, field_name)
                v = float(raw)
            except (TypeError, ValueError):
                raise InvalidJointError(f"mimic {field_name} must be a number, got {raw!r:.80}") from None
            if not math.isfinite(v) or abs(v) > MAX_LENGTH:
                raise InvalidJointError(f"mimic {field_name} must be finite and at most {MAX_LENGTH:g} "
                                        f"in magnitude, got {v}")
            object.__setattr__(self, field_name, v)


def _check_name(name: Any, what: str) -> str:
    problem = text_problem(name)
    if problem:
        raise InvalidJointError(f"{what} {problem}")
    return name


class Joint(MotorMixin):
    """A joint, as MATLAB's ``rigidBodyJoint`` plus Corke's ``offset`` and motor/friction model
    (:mod:`~kinetree.core.model.joint_motor`).

    The pose of the child body in its parent is
    ``joint_to_parent_transform · M(q + offset) · child_to_joint_transform``.
    ``motion_subspace`` (k×6 rows ``(r_x r_y r_z t_x t_y t_z)``) is a ``custom`` joint's, RBDL's
    ``Joint(SpatialVector, …)``: ``M`` is the rows' rotations and translations one after the
    other (:mod:`~kinetree.core.model.joint_subspace`); ``euler_*`` and ``translation_xyz`` have theirs.

    ``spherical`` and ``floating`` are RBDL's ``JointTypeSpherical`` and
    ``JointTypeFloatingBase``, but their positions are laid out as MATLAB's floating joint:
    the quaternion ``[w x y z]`` inline, w first (floating: ``[qw qx qy qz x y z]``), where RBDL
    keeps ``x y z`` inline (floating: ``[x y z qx qy qz]``) and appends each ``w`` after all
    other coordinates. Convert with ``RigidBodyTree.to_rbdl_q`` / ``from_rbdl_q``; RBDL's
    ``SetQuaternion`` / ``GetQuaternion`` are ``set_quaternion`` / ``get_quaternion`` on this
    layout (:mod:`~kinetree.core.dynamics.joint_space`).
    """

    def __init__(self, name: str, type: str = "fixed",  # noqa: A002 - MATLAB's name
                 motion_subspace: ArrayLike | None = None) -> None:
        if not isinstance(type, str) or type not in JOINT_TYPES:
            raise InvalidJointError(
                f"joint {name!r:.80}: unknown type {type!r:.80}; expected one of {', '.join(JOINT_TYPES)}"
            )
        self._name = _check_name(name, "joint name")
        self._type = type
        self._rows: tuple[tuple[float, ...], ...] = ()
        if type in COMPOSITE_TYPES:
            if type == "custom":
                rows = _DEFAULT_SUBSPACE if motion_subspace is None else parse_motion_subspace(motion_subspace, name)
            else:
                rows = COMPOSITE_ROWS[type]
                if motion_subspace is not None and parse_motion_subspace(motion_subspace, name) != rows:
                    raise InvalidJointError(f"joint {name!r:.80}: a {type} joint's motion subspace is fixed; "
                                            "use type 'custom' for other rows")
            self._rows = rows
            self._npos = len(rows)
            self._length_set = frozenset(k for k, r in enumerate(rows) if not any(r[:3]))
            self._limits = np.array([[-0.5, 0.5] if k in self._length_set else [-math.pi, math.pi]
                                     for k in range(len(rows))])
            self._home = np.zeros(len(rows))
        else:
            if motion_subspace is not None:
                raise InvalidJointError(f"joint {name!r:.80}: only {', '.join(COMPOSITE_TYPES)} joints take a "
                                        f"motion subspace, not a {type} joint")
            self._npos = POSITION_COUNT[type]
            rows_ = LENGTH_ROWS.get(type, slice(0, 0))
            self._length_set = frozenset(range(rows_.start, rows_.stop))
            # copies of prepared arrays: files create a few joints per body (np.eye costs 3x a copy)
            self._limits = _LIMITS_ARRAYS[type].copy()
            self._home = _HOME_ARRAYS[type].copy()
        self._axis = (_Z if type in AXIAL_TYPES or type == "planar" else _NO_AXIS).copy()
        self._offset = 0.0
        self._jtp = _EYE4.copy()
        self._ctj = _EYE4.copy()
        self._dh: DHRow | None = None
        self._mimic: Mimic | None = None
        self._extensions: tuple[str, ...] = ()
        self._owner: RigidBody | None = None
        self._actuated = True

    # --- identity ---------------------------------------------------------------------------
    @property
    def type(self) -> str:
        """Joint type (read-only; use ``RigidBodyTree.replace_joint`` to change it)."""
        return self._type

    @property
    def name(self) -> str:
        return self._name

    @name.setter
    def name(self, value: str) -> None:
        value = _check_name(value, "joint name")
        tree = self._tree()
        if tree is not None:
            tree._check_joint_rename(self, value)
        old, self._name = self._name, value
        if tree is not None:
            tree._joint_renamed(old, value)
        self._changed()

    @property
    def position_count(self) -> int:
        """How many numbers this joint takes in a configuration (0 for a mimic joint)."""
        return 0 if self._mimic is not None else self._npos

    @property
    def velocity_count(self) -> int:
        """How many velocities (degrees of freedom) this joint has (0 for a mimic joint): 6 for a
        floating joint, 3 for a spherical one, else :attr:`position_count`."""
        if self._mimic is not None:
            return 0
        return {"floating": 6, "spherical": 3}.get(self._type, self._npos)

    @property
    def motion_subspace(self) -> np.ndarray:
        """(k, 6) rows ``(r_x r_y r_z t_x t_y t_z)`` of a composite joint (``euler_*``,
        ``translation_xyz``, ``custom``): its k elementary motions, applied in order about the
        moving axes, unit axes. Empty (0, 6) for other joints. Read-only: a joint with other rows
        is a new joint (``RigidBodyTree.replace_joint``)."""
        return np.array(self._rows, dtype=float).reshape(-1, 6)

    @property
    def length_rows(self) -> frozenset[int]:
        """Rows of the joint's positions that are lengths (metres); the others are angles or a quaternion."""
        return self._length_set

    @property
    def mimic(self) -> Mimic | None:
        """The joint this one follows, or ``None``. Only revolute and prismatic joints can
        mimic, and only a revolute or prismatic joint that is not itself a mimic."""
        return self._mimic

    @mimic.setter
    def mimic(self, value: Mimic | None) -> None:
        if value is not None:
            if not isinstance(value, Mimic):
                raise InvalidJointError(f"joint {self._name!r}: mimic must be a Mimic or None, got {value!r}")
            if self._type not in AXIAL_TYPES:
                raise InvalidJointError(f"joint {self._name!r}: a {self._type} joint cannot mimic another")
            if value.joint == self._name:
                raise InvalidJointError(f"joint {self._name!r} cannot mimic itself")
            tree = self._tree()
            if tree is not None:
                tree._check_mimic(self, value)
        self._mimic = value
        self._changed()

    @property
    def actuated(self) -> bool:
        """True (the default) for a driven joint; False for a passive joint of a closed loop, whose
        position :meth:`~kinetree.core.tree.RigidBodyTree.solve_loops` solves."""
        return self._actuated

    @actuated.setter
    def actuated(self, value: bool) -> None:
        if not isinstance(value, (bool, np.bool_)):
            raise InvalidJointError(f"joint {self._name!r}: actuated must be True or False, got {value!r:.80}")
        if not value and (self._type not in AXIAL_TYPES or self._mimic is not None):
            # the loop solver moves one position per passive joint (no quaternion to renormalise)
            what = "a mimic joint" if self._mimic is not None else f"a {self._type} joint"
            raise InvalidJointError(f"joint {self._name!r}: only a revolute or prismatic joint can be passive, "
                                    f"not {what}")
        self._actuated = bool(value)
        self._changed()

    @property
    def extensions(self) -> tuple[str, ...]:
        """Elements of the robot file's joint that KineTree does not model (``<dynamics>``,
        ``<calibration>`` …), as XML text in document order, kept for export."""
        return self._extensions

    @extensions.setter
    def extensions(self, value: Any) -> None:
        self._extensions = check_fragments(value, f"joint {self._name!r}: extensions")
        self._changed()

    # --- limits and home ---------------------------------------------------------------------
    @property
    def position_limits(self) -> np.ndarray:
        """``[min, max]`` (shape (2,)) for 0/1-position joints, else an (n, 2) array."""
        return self._limits[0].copy() if self._limits.shape[0] == 1 else self._limits.copy()

    @position_limits.setter
    def position_limits(self, value: ArrayLike) -> None:
        lim = self._parse_limits(value)
        self._check_home(self._home, lim, "existing home position")
        self._limits = lim
        self._changed()

    def _parse_limits(self, value: ArrayLike) -> np.ndarray:
        if self._type == "fixed":
            raise InvalidLimitsError(f"joint {self._name!r} is fixed: it has no position limits")
        try:
            lim = np.array(value, dtype=float).reshape(-1, 2)
        except (TypeError, ValueError):
            lim = None
        if lim is None or lim.shape != self._limits.shape:
            shape = self._npos
            raise InvalidLimitsError(
                f"joint {self._name!r}: position limits must be {'2 numbers' if shape == 1 else f'{shape} pairs'} "
                f"[min, max], got {value!r:.80}"
            )
        return self._check_limits(lim)

    def _check_limits(self, lim: np.ndarray) -> np.ndarray:
        qrows = QUATERNION_ROWS.get(self._type)
        for i, (lo, hi) in enumerate(lim.tolist()):
            if qrows is not None and qrows.start <= i < qrows.stop:
                lim[i] = math.nan  # quaternion rows carry no limits
                continue
            if math.isnan(lo) or math.isnan(hi):
                raise InvalidLimitsError(f"joint {self._name!r}: position limit is NaN ({lo}, {hi})")
            if lo > hi:
                raise InvalidLimitsError(
                    f"joint {self._name!r}: position limits out of order: min {lo} > max {hi}"
                )
            if self._is_length_row(i) and any(math.isfinite(v) and abs(v) > MAX_LENGTH for v in (lo, hi)):
                raise InvalidLimitsError(
                    f"joint {self._name!r}: position limits ({lo:g}, {hi:g}) m are beyond ±{MAX_LENGTH:g} m "
                    "(leave a bound infinite for no limit)"
                )
        return lim

    def _is_length_row(self, i: int) -> bool:
        return i in self._length_set

    def _parse_home(self, value: Any) -> np.ndarray:
        if (problem := complex_problem(value)) is not None:
            raise InvalidLimitsError(f"joint {self._name!r}: home position {problem}")
        try:
            home = np.array(value, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            raise InvalidLimitsError(f"joint {self._name!r}: home position {value!r:.80} is not numeric") from None
        if home.shape != self._home.shape:
            raise InvalidLimitsError(
                f"joint {self._name!r}: home position needs {self._home.shape[0]} values, "
                f"got {home.shape[0]}"
            )
        return home

    def set_limits(self, limits: ArrayLike, home: ArrayLike | None = None) -> None:
        """Set the position limits and, optionally, the home position in one step.

        Use this when the new limits exclude the current home (a prismatic joint moved to
        ``[0.3, 1.2]`` say): either setter alone would refuse the intermediate state.
        """
        lim = self._parse_limits(limits)
        if home is None:
            h, what = self._home, "existing home position"
        else:
            h, what = self._parse_home(home), "home position"
        self._check_home(h, lim, what)
        self._limits, self._home = lim, h
        self._changed()

    @property
    def home_position(self) -> float | np.ndarray:
        """Home position: a float for 0/1-position joints, else an array."""
        return float(self._home[0]) if self._home.shape[0] == 1 else self._home.copy()

    @home_position.setter
    def home_position(self, value: ArrayLike) -> None:
        if self._type == "fixed":
            raise InvalidLimitsError(f"joint {self._name!r} is fixed: it has no home position")
        home = self._parse_home(value)
        self._check_home(home, self._limits, "home position")
        self._home = home
        self._changed()

    def _check_home(self, home: np.ndarray, lim: np.ndarray, what: str) -> None:
        if self._type == "fixed":
            return
        values = home.tolist()  # Python floats: much faster than numpy scalars one by one
        if not all(map(math.isfinite, values)):
            raise InvalidLimitsError(f"joint {self._name!r}: {what} {values} is not finite")
        qrows = QUATERNION_ROWS.get(self._type)
        if qrows is not None and max(map(abs, values[qrows])) < 1e-12 and np.linalg.norm(home[qrows]) < 1e-12:
            raise InvalidLimitsError(f"joint {self._name!r}: {what} has a zero quaternion")
        for i, (h, (lo, hi)) in enumerate(zip(values, lim.tolist())):
            if self._is_length_row(i) and abs(h) > MAX_LENGTH:
                raise InvalidLimitsError(f"joint {self._name!r}: {what} {h:g} m is beyond ±{MAX_LENGTH:g} m")
            if not math.isnan(lo) and not (lo <= h <= hi):
                raise InvalidLimitsError(
                    f"joint {self._name!r}: {what} {h:g} is outside the limits [{lo:g}, {hi:g}]"
                )

    # --- axis and offset ---------------------------------------------------------------------
    @property
    def axis(self) -> np.ndarray:
        """Unit motion axis in the joint frame (NaN for joints that have none)."""
        return self._axis.copy()

    @axis.setter
    def axis(self, value: ArrayLike) -> None:
        if self._type not in AXIAL_TYPES:
            raise InvalidJointError(
                f"joint {self._name!r}: the axis of a {self._type} joint cannot be set"
            )
        ax = unit_axis(value)
        if ax is None:
            raise InvalidJointError(
                f"joint {self._name!r}: axis must be 3 finite numbers, not all zero, got {value!r:.80}"
            )
        self._axis = ax
        self._changed()

    @property
    def offset(self) -> float:
        """Corke's offset: the joint moves by ``q + offset``."""
        return self._offset

    @offset.setter
    def offset(self, value: float) -> None:
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise InvalidJointError(f"joint {self._name!r}: offset {value!r:.80} is not a number") from None
        if not math.isfinite(v):
            raise InvalidJointError(f"joint {self._name!r}: offset must be finite, got {value!r}")
        if self._type == "prismatic" and abs(v) > MAX_LENGTH:
            raise InvalidJointError(f"joint {self._name!r}: offset {v:g} m is beyond ±{MAX_LENGTH:g} m")
        if self._type not in AXIAL_TYPES and v != 0.0:
            raise InvalidJointError(f"joint {self._name!r}: a {self._type} joint has no offset")
        self._offset = v
        self._changed()

    # --- fixed transforms --------------------------------------------------------------------
    @property
    def joint_to_parent_transform(self) -> np.ndarray:
        """Pose of the joint's predecessor frame in the parent body frame."""
        return self._jtp.copy()

    @property
    def child_to_joint_transform(self) -> np.ndarray:
        """Pose of the child body frame in the joint's successor frame."""
        return self._ctj.copy()

    @property
    def dh_parameters(self) -> DHRow | None:
        """The DH row the fixed transform was set from, or ``None`` for a plain matrix."""
        return self._dh

    def set_fixed_transform(self, value: ArrayLike, kind: str = "matrix") -> None:
        """Set the fixed transforms from a 4×4 matrix or a DH row ``[a, alpha, d, theta]``.

        ``kind`` is ``"matrix"`` (``joint_to_parent = T``, ``child_to_joint = I``), ``"child"``
        (``child_to_joint = T``, keeping ``joint_to_parent``), ``"dh"`` (standard DH, into
        ``child_to_joint``) or ``"mdh"`` (modified DH, into ``joint_to_parent``). The joint's
        own variable (θ for revolute, d for prismatic) is left out of the transform but kept
        in :attr:`dh_parameters`. A DH joint's axis is reset to z.
        """
        if not isinstance(kind, str):
            kind = repr(kind)[:80]  # refused below, by name
        if kind == "matrix":
            self._jtp = self._bounded(value, "fixed transform")
            self._ctj = np.eye(4)
            self._dh = None
        elif kind == "child":
            self._ctj = self._bounded(value, "child-to-joint transform")
            self._dh = None
        elif kind in ("dh", "mdh"):
            row = self._check_dh_row(value)
            a, alpha, d, theta = row
            if self._type == "revolute":
                theta = 0.0
            elif self._type == "prismatic":
                d = 0.0
            if kind == "dh":
                self._jtp, self._ctj = np.eye(4), dh_transform(a, alpha, d, theta)
            else:
                self._jtp, self._ctj = mdh_transform(a, alpha, d, theta), np.eye(4)
            self._dh = DHRow(*row, convention=kind)  # type: ignore[arg-type]
            if self._type in AXIAL_TYPES:
                self._axis = np.array([0.0, 0.0, 1.0])
        else:
            raise InvalidTransformError(
                f"joint {self._name!r}: unknown transform kind {kind!r}; use 'matrix', 'child', 'dh' or 'mdh'"
            )
        self._changed()

    def _bounded(self, value: ArrayLike, what: str) -> np.ndarray:
        T = validate_transform(value, f"joint {self._name!r}: {what}")
        if np.abs(T[:3, 3]).max() > MAX_LENGTH:
            raise InvalidTransformError(f"joint {self._name!r}: {what}: translation {T[:3, 3].tolist()} "
                                        f"is beyond ±{MAX_LENGTH:g} m")
        return T

    def _check_dh_row(self, value: ArrayLike) -> list[float]:
        try:
            row = np.array(value, dtype=float).reshape(-1)
        except (ValueError, TypeError):
            raise InvalidTransformError(
                f"joint {self._name!r}: DH row must be 4 numbers [a alpha d theta], got {value!r:.80}"
            ) from None
        if row.shape != (4,):
            raise InvalidTransformError(
                f"joint {self._name!r}: DH row must be 4 numbers [a alpha d theta], got {row.size}"
            )
        for label, v in zip(("a", "alpha", "d", "theta"), row.tolist()):
            if not math.isfinite(v):
                raise InvalidTransformError(f"joint {self._name!r}: DH {label} is {v}")
            if label in ("a", "d") and abs(v) > MAX_LENGTH:
                raise InvalidTransformError(f"joint {self._name!r}: DH {label} = {v:g} m is beyond ±{MAX_LENGTH:g} m")
        return row.tolist()

    # --- motion ------------------------------------------------------------------------------
    def motion_transform(self, q: ArrayLike = ()) -> np.ndarray:
        """``M(q + offset)``: the joint's own motion for its positions ``q`` (4×4)."""
        n = self._npos
        try:
            q = np.asarray(q, dtype=float).reshape(-1)
        except (TypeError, ValueError):
            q = None
        if q is None or q.size < n or not np.all(np.isfinite(q[:n])):
            raise InvalidConfigurationError(f"joint {self._name!r}: motion needs {n} finite numbers")
        M = np.eye(4)
        t = self._type
        if t == "revolute":
            M[:3, :3] = axis_angle_rotation(self._axis, q[0] + self._offset)
        elif t == "prismatic":
            M[:3, 3] = (q[0] + self._offset) * self._axis
        elif t == "floating":
            M[:3, :3] = quat_to_rotation(q[:4])
            M[:3, 3] = q[4:7]
        elif t == "spherical":
            M[:3, :3] = quat_to_rotation(q[:4])
        elif t == "planar":
            M[:3, :3] = axis_angle_rotation([0, 0, 1], q[2])
            M[:2, 3] = q[:2]
        elif self._rows:
            for qk, row in zip(q[:n].tolist(), self._rows):
                M = M @ elementary_motion(row, qk)
        return M

    def transform(self, q: ArrayLike = ()) -> np.ndarray:
        """Pose of the child body in the parent body for joint positions ``q``."""
        return self._jtp @ self.motion_transform(q) @ self._ctj

    # --- plumbing ----------------------------------------------------------------------------
    def copy(self) -> Joint:
        """A detached deep copy."""
        j = Joint.__new__(Joint)
        j.__dict__.update(self.__dict__)
        for key in ("_limits", "_home", "_axis", "_jtp", "_ctj"):
            setattr(j, key, getattr(self, key).copy())
        j._owner = None
        return j

    def _tree(self):
        return self._owner._tree if self._owner is not None else None

    def _changed(self) -> None:
        tree = self._tree()
        if tree is not None:
            tree.mark_changed()

    def __repr__(self) -> str:
        """One line, as MATLAB's object display in short: name, type, axis, limits, home."""
        parts = [repr(self._name), f"type={self._type!r}"]
        if self._type != "fixed":
            if self._type in AXIAL_TYPES:
                parts.append(f"axis={numbers_text(self._axis)}")
            if self._npos == 1:
                parts += [f"limits={numbers_text(self._limits[0])}", f"home={compact_text(self._home[0])}"]
            else:
                parts.append(f"positions={self._npos}")
            if self._offset:
                parts.append(f"offset={compact_text(self._offset)}")
        return f"Joint({', '.join(parts)})"

