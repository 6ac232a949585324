"""The rigid body tree: bodies, their parent relations, configurations and kinematics."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .body import RigidBody
from .errors import (
    BaseBodyError,
    DuplicateNameError,
    InvalidConfigurationError,
    InvalidJointError,
    InvalidPropertyError,
    UnknownBodyError,
)
from .joint import AXIAL_TYPES, QUATERNION_ROWS, Joint, Mimic

Configuration = ArrayLike | Mapping[str, Any]


def unique_name(stem: str, taken: set[str], sep: str = "") -> str:
    """``stem``, or ``stem{sep}2``, ``stem{sep}3`` … — the first not in ``taken`` (which gains it)."""
    name, k = stem, 1
    while name in taken:
        k += 1
        name = f"{stem}{sep}{k}"
    taken.add(name)
    return name


class RigidBodyTree:
    """A tree of rigid bodies connected by joints, as MATLAB's ``rigidBodyTree``.

    The tree is stateless: joint positions live in a configuration (a flat vector in body
    order, or a ``{joint name: value}`` mapping) passed to each kinematics call.
    """

    def __init__(self, base_name: str = "base", gravity: ArrayLike = (0.0, 0.0, 0.0)) -> None:
        self._base = RigidBody(base_name)
        self._base._tree = self
        self._bodies: list[RigidBody] = []
        self._parent: dict[RigidBody, RigidBody] = {}
        self._by_name: dict[str, RigidBody] = {base_name: self._base}
        self._gravity = np.zeros(3)
        self.gravity = gravity
        self._revision = 0
        self._plan = None
        self._position_cache: list[tuple[RigidBody, int]] | None = None
        self._slot_cache: dict[str, slice] = {}
        self._extensions: tuple[str, ...] = ()

    @property
    def extensions(self) -> tuple[str, ...]:
        """Robot-level elements of the robot file that KineTree does not model
        (``<transmission>``, ``<gazebo>``, ``<ros2_control>`` …), as XML text in document order."""
        return self._extensions

    @extensions.setter
    def extensions(self, value: Iterable[str]) -> None:
        from .xml_fragment import check_fragments

        self._extensions = check_fragments(value, "robot extensions")

    # --- structure ---------------------------------------------------------------------------
    @property
    def base(self) -> RigidBody:
        return self._base

    @property
    def base_name(self) -> str:
        return self._base.name

    @base_name.setter
    def base_name(self, value: str) -> None:
        self._base.name = value

    @property
    def bodies(self) -> tuple[RigidBody, ...]:
        """The bodies in order (base excluded); parents always come before children."""
        return tuple(self._bodies)

    @property
    def body_names(self) -> list[str]:
        return [b.name for b in self._bodies]

    @property
    def end_effector(self) -> str | None:
        """The last leaf body (the tip of a chain), or ``None`` for an empty tree."""
        parents = set(self._parent.values())
        leaves = [b.name for b in self._bodies if b not in parents]
        return leaves[-1] if leaves else None

    @property
    def num_bodies(self) -> int:
        return len(self._bodies)

    @property
    def gravity(self) -> np.ndarray:
        return self._gravity.copy()

    @gravity.setter
    def gravity(self, value: ArrayLike) -> None:
        try:
            g = np.array(value, dtype=float).reshape(3)
        except (ValueError, TypeError):
            raise InvalidPropertyError(f"gravity must be 3 numbers, got {value!r}") from None
        if not np.all(np.isfinite(g)):
            raise InvalidPropertyError(f"gravity must be finite, got {g.tolist()}")
        self._gravity = g

    @property
    def revision(self) -> int:
        """Increases on every change to the tree (names, joints, transforms, properties)."""
        return self._revision

    def get_body(self, name: str) -> RigidBody:
        """The body called ``name`` (the base included). Edits to it go through the tree."""
        try:
            return self._by_name[name]
        except KeyError:
            raise UnknownBodyError(
                f"no body named {name!r}; bodies are: {', '.join(self._by_name) or 'none'}"
            ) from None

    def index_of(self, name: str) -> int:
        """Index of a body in :attr:`bodies` (−1 for the base)."""
        body = self.get_body(name)
        return -1 if body is self._base else self._bodies.index(body)

    def parent_name(self, name: str) -> str | None:
        body = self.get_body(name)
        return None if body is self._base else self._parent[body].name

    def _parent_of(self, body: RigidBody) -> RigidBody | None:
        return self._parent.get(body)

    def _children_of(self, body: RigidBody) -> tuple[RigidBody, ...]:
        return tuple(b for b in self._bodies if self._parent[b] is body)

    def descendants(self, name: str) -> list[str]:
        """Names of the body and all its descendants, in tree order."""
        root = self.get_body(name)
        keep = {root}
        for b in self._bodies:
            if self._parent[b] in keep:
                keep.add(b)
        return [b.name for b in self._bodies if b in keep]

    def joint_names(self) -> list[str]:
        return [b.joint.name for b in self._bodies]

    def find_joint(self, joint_name: str) -> RigidBody:
        """The body whose joint is called ``joint_name``."""
        for b in self._bodies:
            if b.joint.name == joint_name:
                return b
        raise UnknownBodyError(f"no joint named {joint_name!r}")

    # --- validation helpers ------------------------------------------------------------------
    def _check_body_rename(self, body: RigidBody, new: str) -> None:
        other = self._by_name.get(new)
        if other is not None and other is not body:
            raise DuplicateNameError(f"a body named {new!r} already exists in the tree")

    def _check_joint_rename(self, joint: Joint, new: str) -> None:
        for b in self._bodies:
            if b.joint is not joint and b.joint.name == new:
                raise DuplicateNameError(f"a joint named {new!r} already exists (body {b.name!r})")

    def _joint_renamed(self, old: str, new: str) -> None:
        """Keep mimic joints pointing at a renamed joint."""
        for b in self._bodies:
            m = b.joint.mimic
            if m is not None and m.joint == old:
                b.joint._mimic = Mimic(new, m.multiplier, m.offset)

    @staticmethod
    def _mimic_leaders(joints: Iterable[Joint]) -> dict[str, Joint]:
        """``{follower name: leader joint}`` for these joints; raises when a mimic names no joint
        of the set, a joint without a position of its own, or a joint that is itself mimicked."""
        joints = list(joints)
        by_name = {j.name: j for j in joints}
        leaders = {}
        for j in joints:
            m = j.mimic
            if m is None:
                continue
            leader = by_name.get(m.joint)
            if leader is None:
                raise InvalidJointError(f"joint {j.name!r} mimics {m.joint!r}, which is not a joint of this tree")
            if leader.type not in AXIAL_TYPES or leader.mimic is not None:
                raise InvalidJointError(
                    f"joint {j.name!r} mimics {m.joint!r}, which is "
                    + ("itself a mimic joint" if leader.mimic is not None else f"a {leader.type} joint")
                    + "; only a revolute or prismatic joint with its own position can be mimicked"
                )
            leaders[j.name] = leader
        return leaders

    def check_mimics(self) -> None:
        """Raise :class:`InvalidJointError` unless every mimic joint follows a revolute or
        prismatic joint of this tree that has its own position."""
        self._mimic_leaders(b.joint for b in self._bodies)

    def _check_mimic(self, joint: Joint, mimic: Mimic) -> None:
        followers = [b.joint.name for b in self._bodies if b.joint.mimic and b.joint.mimic.joint == joint.name]
        trial = joint.copy()
        trial._mimic = mimic
        others = (b.joint for b in self._bodies if b.joint.name not in followers)
        self._mimic_leaders(trial if j is joint else j for j in others)
        if followers:
            raise InvalidJointError(
                f"joint {joint.name!r} cannot mimic another: {', '.join(map(repr, followers))} mimic it"
            )

    def _check_new_bodies(self, bodies: Iterable[RigidBody], replacing: Iterable[RigidBody] = ()) -> None:
        gone = set(replacing)
        names = {n for n, b in self._by_name.items() if b not in gone}
        joints = {b.joint.name for b in self._bodies if b not in gone}
        for b in bodies:
            if b.name in names:
                raise DuplicateNameError(f"a body named {b.name!r} already exists in the tree")
            if b.joint.name in joints:
                raise DuplicateNameError(f"a joint named {b.joint.name!r} already exists in the tree")
            names.add(b.name)
            joints.add(b.joint.name)

    def _touch(self) -> None:
        self._revision += 1
        self._plan = None
        self._position_cache: list[tuple[RigidBody, int]] | None = None
        self._slot_cache: dict[str, slice] = {}
        self._by_name = {self._base.name: self._base, **{b.name: b for b in self._bodies}}

    def _attach(self, body: RigidBody, parent: RigidBody, index: int | None = None) -> RigidBody:
        b = body.copy()
        b._tree = self
        if index is None:
            self._bodies.append(b)
        else:
            self._bodies.insert(index, b)
        self._parent[b] = parent
        self._by_name[b.name] = b
        return b

    # --- edits -------------------------------------------------------------------------------
    def add_body(self, body: RigidBody, parent_name: str) -> RigidBody:
        """Add a copy of ``body`` under ``parent_name`` and return the copy now in the tree."""
        if not isinstance(body, RigidBody):
            raise InvalidPropertyError(f"add_body expects a RigidBody, got {type(body).__name__}")
        parent = self.get_body(parent_name)
        self._check_new_bodies([body])
        b = self._attach(body, parent)
        self._touch()
        return b

    def remove_body(self, name: str) -> RigidBodyTree:
        """Remove a body and its descendants; return them as a tree based at the parent's name."""
        body = self.get_body(name)
        if body is self._base:
            raise BaseBodyError(f"the base {name!r} cannot be removed")
        sub = self.subtree(name)
        gone = set(self.descendants(name))
        gone_joints = {self._by_name[n].joint.name for n in gone}
        for b in self._bodies:
            m = b.joint.mimic
            if b.name not in gone and m is not None and m.joint in gone_joints:
                raise InvalidJointError(
                    f"cannot remove {name!r}: joint {b.joint.name!r} (body {b.name!r}) mimics {m.joint!r}, "
                    "which would be removed"
                )
        for b in [b for b in self._bodies if b.name in gone]:
            self._bodies.remove(b)
            del self._parent[b]
            b._tree = None
        self._touch()
        return sub

    def subtree(self, name: str) -> RigidBodyTree:
        """A copy of the body and its descendants, based at the body's parent's name."""
        body = self.get_body(name)
        if body is self._base:
            return self.copy()
        tree = RigidBodyTree(self._parent[body].name, self._gravity)
        for n in self.descendants(name):
            b = self._by_name[n]
            tree._attach(b, tree._by_name[self._parent[b].name])
        tree._touch()
        return tree

    def add_subtree(self, parent_name: str, subtree: RigidBodyTree) -> None:
        """Attach copies of ``subtree``'s bodies; bodies on its base hang on ``parent_name``."""
        parent = self.get_body(parent_name)
        self._check_new_bodies(subtree.bodies)
        mapping = {subtree.base: parent}
        for b in subtree.bodies:
            mapping[b] = self._attach(b, mapping[subtree._parent[b]])
        self._touch()

    def replace_body(self, name: str, new_body: RigidBody) -> RigidBody:
        """Replace a body (name, joint, inertia, visuals) keeping its parent and children."""
        old = self.get_body(name)
        if old is self._base:
            raise BaseBodyError(f"the base {name!r} cannot be replaced")
        self._check_new_bodies([new_body], replacing=[old])
        self._mimic_leaders(new_body.joint if b is old else b.joint for b in self._bodies)
        i = self._bodies.index(old)
        parent = self._parent.pop(old)
        self._bodies.pop(i)
        b = self._attach(new_body, parent, i)
        for child in self._bodies:
            if self._parent[child] is old:
                self._parent[child] = b
        old._tree = None
        self._touch()
        return b

    def replace_joint(self, body_name: str, joint: Joint) -> None:
        """Give a body a copy of ``joint`` (to change a joint's type, say)."""
        body = self.get_body(body_name)
        if body is self._base:
            raise BaseBodyError(f"the base {body_name!r} has no joint to replace")
        for b in self._bodies:
            if b is not body and b.joint.name == joint.name:
                raise DuplicateNameError(f"a joint named {joint.name!r} already exists (body {b.name!r})")
        self._mimic_leaders(joint if b is body else b.joint for b in self._bodies)
        j = joint.copy()
        j._owner = body
        body._joint = j
        self._touch()

    def copy(self) -> RigidBodyTree:
        """A deep copy."""
        tree = RigidBodyTree(self.base_name, self._gravity)
        tree._take_base_properties(self._base)
        tree._extensions = self._extensions
        for b in self._bodies:
            tree._attach(b, tree._by_name[self._parent[b].name])
        tree._touch()
        return tree

    def _take_base_properties(self, base: RigidBody) -> None:
        """Give this tree's base the mass, inertia and visuals of ``base`` (another tree's)."""
        mine = self._base
        mine._mass, mine._com, mine._inertia = base._mass, base._com.copy(), base._inertia.copy()
        mine._visuals, mine._collisions, mine._extensions = base._visuals, base._collisions, base._extensions

    # --- configurations ----------------------------------------------------------------------
    def _positions(self) -> list[tuple[RigidBody, int]]:
        """Movable bodies with the start index of their joint's positions (cached until the
        tree changes; callers must not modify the list)."""
        if self._position_cache is None:
            out, slots, i = [], {}, 0
            for b in self._bodies:
                n = b.joint.position_count
                if n:
                    out.append((b, i))
                    sl = slice(i, i + n)
                    slots.setdefault(b.name, sl)  # first match wins, as a linear search would
                    slots.setdefault(b.joint.name, sl)
                    i += n
            self._position_cache, self._slot_cache, self._position_total = out, slots, i
        return self._position_cache

    @property
    def position_count(self) -> int:
        """Length of a configuration vector (cached with the slots: it is checked on every FK call)."""
        self._positions()
        return self._position_total

    def position_index(self, name: str) -> slice:
        """Slice of a configuration vector held by a joint (given its joint or body name)."""
        self._positions()
        sl = self._slot_cache.get(name)
        if sl is not None:
            return sl
        for b in self._bodies:
            if name in (b.joint.name, b.name):
                raise InvalidConfigurationError(f"joint of {name!r} {self._no_position_reason(b.joint)}")
        if name == self.base_name:
            raise InvalidConfigurationError(f"{name!r} is the base: it has no joint")
        raise UnknownBodyError(f"no joint or body named {name!r}")

    @staticmethod
    def _no_position_reason(joint: Joint) -> str:
        if joint.mimic is not None:
            return f"mimics {joint.mimic.joint!r}: it has no position of its own"
        return "is fixed: it has no position"

    @property
    def movable_joint_names(self) -> list[str]:
        return [b.joint.name for b, _ in self._positions()]

    def home_configuration(self) -> np.ndarray:
        """Every movable joint at its home position, as a flat vector."""
        parts = [np.atleast_1d(b.joint.home_position) for b, _ in self._positions()]
        return np.concatenate(parts) if parts else np.zeros(0)

    def random_configuration(self, rng: np.random.Generator | int | None = None) -> np.ndarray:
        """A configuration uniform within the limits (infinite limits: uniform in [−π, π];
        quaternions: uniform on the unit sphere)."""
        rng = np.random.default_rng(rng)
        q = np.zeros(self.position_count)
        for b, i in self._positions():
            j = b.joint
            lim = j._limits
            for k in range(j.position_count):
                lo, hi = lim[k]
                if math.isnan(lo):
                    continue
                lo, hi = max(lo, -math.pi if math.isinf(lo) else lo), min(hi, math.pi if math.isinf(hi) else hi)
                q[i + k] = rng.uniform(lo, hi)
            qrows = QUATERNION_ROWS.get(j.type)
            if qrows is not None:
                v = rng.normal(size=4)
                q[i + qrows.start : i + qrows.stop] = v / np.linalg.norm(v)
        return q

    def config_to_vector(self, config: Configuration) -> np.ndarray:
        """A flat configuration vector from a vector or a ``{joint name: value}`` mapping.

        A mapping may leave joints out: they take their home position.
        Raises :class:`InvalidConfigurationError` naming the bad joint or value.
        """
        n = self.position_count
        if isinstance(config, Mapping):
            q = self.home_configuration()
            slots = {b.joint.name: (b, i) for b, i in self._positions()}
            for name, value in config.items():
                if name not in slots:
                    joint = next((b.joint for b in self._bodies if b.joint.name == name), None)
                    raise InvalidConfigurationError(
                        f"joint {name!r} {self._no_position_reason(joint)}" if joint is not None
                        else f"configuration names unknown joint {name!r}"
                    )
                b, i = slots[name]
                try:
                    v = np.array(value, dtype=float).reshape(-1)
                except (TypeError, ValueError):
                    raise InvalidConfigurationError(f"joint {name!r}: value {value!r} is not numeric") from None
                if v.size != b.joint.position_count:
                    raise InvalidConfigurationError(
                        f"joint {name!r} takes {b.joint.position_count} values, got {v.size}"
                    )
                q[i : i + v.size] = v
            self._check_finite(q)
            return q
        try:
            q = np.array(config, dtype=float)
        except (TypeError, ValueError):
            raise InvalidConfigurationError(f"configuration is not numeric: {config!r}") from None
        if q.ndim != 1 or q.shape[0] != n:
            raise InvalidConfigurationError(
                f"configuration has {q.size} values of shape {q.shape}; this tree needs {n}"
            )
        self._check_finite(q)
        return q

    def config_to_dict(self, q: ArrayLike) -> dict[str, float | np.ndarray]:
        """``{joint name: value}`` for a flat configuration vector."""
        q = self.config_to_vector(q)
        out: dict[str, float | np.ndarray] = {}
        for b, i in self._positions():
            n = b.joint.position_count
            out[b.joint.name] = float(q[i]) if n == 1 else q[i : i + n].copy()
        return out

    def _check_finite(self, q: np.ndarray) -> None:
        if q.shape[-1] == 0:
            return
        rows = q.reshape(-1, q.shape[-1])
        bad_cols = np.flatnonzero(~np.isfinite(rows).all(axis=0))
        if bad_cols.size:
            k = int(bad_cols[0])
            value = rows[~np.isfinite(rows[:, k]), k][0]
            for b, i in self._positions():
                if i <= k < i + b.joint.position_count:
                    raise InvalidConfigurationError(
                        f"joint {b.joint.name!r}: position {k} is {value} (must be finite)"
                    )
        for b, i in self._positions():
            qrows = QUATERNION_ROWS.get(b.joint.type)
            if qrows is not None and np.any(np.linalg.norm(rows[:, i + qrows.start : i + qrows.stop], axis=1) < 1e-12):
                raise InvalidConfigurationError(f"joint {b.joint.name!r}: the quaternion is zero")

    def _config_array(self, q: Configuration) -> np.ndarray:
        """A (n,) or (N, n) validated configuration array."""
        if isinstance(q, Mapping):
            return self.config_to_vector(q)
        if (isinstance(q, np.ndarray) and q.dtype == np.float64 and q.ndim == 1
                and q.shape[0] == self.position_count and math.isfinite(q.sum())):
            return q  # the common case, checked cheaply (a NaN or ±inf makes the sum non-finite)
        try:
            Q = np.asarray(q, dtype=float)
        except (TypeError, ValueError):
            raise InvalidConfigurationError(f"configuration is not numeric: {q!r}") from None
        if Q.ndim == 2:
            if Q.shape[1] != self.position_count:
                raise InvalidConfigurationError(
                    f"batch of configurations has {Q.shape[1]} columns; this tree needs {self.position_count}"
                )
            self._check_finite(Q)
            return Q
        return self.config_to_vector(Q)

    # --- kinematics --------------------------------------------------------------------------
    def _kinematics(self):
        if self._plan is None:
            from .kinematics import KinematicPlan

            self._plan = KinematicPlan(self)
        return self._plan

    def forward_kinematics(self, q: Configuration) -> np.ndarray:
        """Pose of every body in the base frame.

        ``q``: one configuration → ``(num_bodies, 4, 4)`` in :attr:`body_names` order; a batch
        of shape ``(N, position_count)`` → ``(N, num_bodies, 4, 4)``.
        """
        Q = self._config_array(q)
        plan = self._kinematics()
        return plan.fk_single(Q) if Q.ndim == 1 else plan.fk_batch(Q)

    def get_transform(self, q: Configuration, source: str, target: str | None = None) -> np.ndarray:
        """Pose of body ``source`` in body ``target`` (the base when omitted).

        Returns ``(4, 4)`` for one configuration, ``(N, 4, 4)`` for a batch.
        """
        src = self.index_of(source)
        tgt = -1 if target is None else self.index_of(target)
        Q = self._config_array(q)
        return self._kinematics().relative(Q, src, tgt)

    def geometric_jacobian(self, q: Configuration, body: str) -> np.ndarray:
        """6×n geometric Jacobian of ``body``'s origin in the base frame, angular rows first."""
        Q = self.config_to_vector(q)
        return self._kinematics().jacobian(Q, self.index_of(body))

    def manipulability(self, q: Configuration, body: str, axes: str = "all") -> float:
        """Yoshikawa's measure ``sqrt(det(J Jᵀ))``; ``axes`` is ``"all"``, ``"trans"`` or ``"rot"``."""
        J = self.geometric_jacobian(q, body)
        rows = {"all": slice(0, 6), "rot": slice(0, 3), "trans": slice(3, 6)}
        if axes not in rows:
            raise InvalidConfigurationError(f"axes must be 'all', 'trans' or 'rot', got {axes!r}")
        J = J[rows[axes]]
        return float(math.sqrt(max(np.linalg.det(J @ J.T), 0.0)))

    # --- display -----------------------------------------------------------------------------
    def show_details(self) -> str:
        """A table of bodies, joints, parents and children, as MATLAB's ``showdetails``."""
        idx = {self._base: 0, **{b: i + 1 for i, b in enumerate(self._bodies)}}
        rows = [("Idx", "Body Name", "Joint Name", "Joint Type", "Parent Name(Idx)", "Children Name(s)")]
        for b in self._bodies:
            p = self._parent[b]
            kids = "  ".join(f"{c.name}({idx[c]})" for c in self._children_of(b))
            rows.append((str(idx[b]), b.name, b.joint.name, b.joint.type, f"{p.name}({idx[p]})", kids))
        widths = [max(len(r[c]) for r in rows) for c in range(6)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        rule = "-" * max(len(line) for line in lines)
        return "\n".join([f"Robot: ({self.num_bodies} bodies)", rule, lines[0], rule, *lines[1:], rule])

    def __repr__(self) -> str:
        return f"RigidBodyTree(base={self.base_name!r}, bodies={self.num_bodies}, positions={self.position_count})"
