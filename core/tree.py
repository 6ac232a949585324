"""The rigid body tree: bodies, their parent relations, configurations and kinematics."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

from .dynamics.jacobians import JacobianMixin
from .dynamics.joint_space import JointSpaceMixin
from .dynamics.mass import MassPropertiesMixin
from .dynamics.rigid_body import DynamicsMixin
from .dynamics.table import DynamicsTableMixin, dynamics_table
from .errors import (
    BaseBodyError,
    DuplicateNameError,
    InvalidConfigurationError,
    InvalidJointError,
    InvalidPropertyError,
    LoopClosureError,
    UnknownBodyError,
)
from .kinematics.collision import CollisionMixin
from .kinematics.loops import check_closed
from .kinematics.plan import KinematicPlan
from .model.body import RigidBody
from .model.configuration import Configuration, ConfigurationMixin
from .model.joint import AXIAL_TYPES, Joint, Mimic
from .model.poses import NamedPoses
from .model.xml_fragment import check_fragments
from .names import derived_name
from .transforms import MAX_LENGTH
from .tree_loops import LoopsMixin

__all__ = ["Configuration", "RigidBodyTree", "unique_name"]


def unique_name(stem: str, taken: set[str], sep: str = "") -> str:
    """``stem``, or ``stem{sep}2``, ``stem{sep}3`` … — the first not in ``taken`` (which gains it)."""
    name, k = derived_name(stem, ""), 1
    while name in taken:
        k += 1
        name = derived_name(stem, f"{sep}{k}")
    taken.add(name)
    return name


def _take_properties(mine: RigidBody, base: RigidBody) -> None:
    """Give ``mine`` the mass, inertia and visuals of ``base`` (another tree's base)."""
    mine._mass, mine._com, mine._inertia = base._mass, base._com.copy(), base._inertia.copy()
    mine._visuals, mine._collisions, mine._extensions = base._visuals, base._collisions, base._extensions
    mine.__dict__.update({k: v for k, v in base.__dict__.items() if k.startswith("_urdf_")})  # as read


class RigidBodyTree(ConfigurationMixin, MassPropertiesMixin, DynamicsMixin, JointSpaceMixin, JacobianMixin,
                    DynamicsTableMixin, CollisionMixin, LoopsMixin):
    """A tree of rigid bodies connected by joints, as MATLAB's ``rigidBodyTree``.

    The tree is stateless: joint positions live in a configuration (a flat vector in body
    order, or a ``{joint name: value}`` mapping) passed to each kinematics call.
    """

    def __init__(self, base_name: str = "base", gravity: ArrayLike = (0.0, 0.0, 0.0)) -> None:
        self._base = RigidBody(base_name)
        self._base._tree = self
        self._bodies: list[RigidBody] = []
        self._parent: dict[RigidBody, RigidBody] = {}
        # name indexes, kept up to date by additions and rebuilt lazily after other edits
        # (a rename goes through mark_changed): adding n bodies one by one stays linear
        self._body_index: dict[str, RigidBody] = {base_name: self._base}
        self._joint_index: dict[str, RigidBody] = {}
        self._index_stale = False
        self._gravity = np.zeros(3)
        self.gravity = gravity
        self._revision = 0
        self._plan = None
        self._position_cache: list[tuple[RigidBody, int]] | None = None
        self._slot_cache: dict[str, slice] = {}
        self._extensions: tuple[str, ...] = ()
        self._named_poses = NamedPoses(self)
        self._loops: dict = {}  # {name: loops._Record}, in insertion order

    @property
    def named_poses(self) -> NamedPoses:
        """Named configurations, ``{name: vector}`` (:mod:`kinetree.core.model.poses`)."""
        return self._named_poses

    @property
    def extensions(self) -> tuple[str, ...]:
        """Robot-level elements of the robot file that KineTree does not model
        (``<transmission>``, ``<gazebo>``, ``<ros2_control>`` …), as XML text in document order."""
        return self._extensions

    @extensions.setter
    def extensions(self, value: Iterable[str]) -> None:
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
        if not np.all(np.isfinite(g)) or np.abs(g).max() > MAX_LENGTH:
            raise InvalidPropertyError(f"gravity must be finite and at most {MAX_LENGTH:g} m/s², got {g.tolist()}")
        self._gravity = g

    @property
    def revision(self) -> int:
        """Increases on every change to the tree (names, joints, transforms, properties)."""
        return self._revision

    @property
    def _by_name(self) -> dict[str, RigidBody]:
        """``{body name: body}``, the base included."""
        if self._index_stale:
            self._reindex()
        return self._body_index

    @property
    def _by_joint(self) -> dict[str, RigidBody]:
        """``{joint name: body whose joint it is}``."""
        if self._index_stale:
            self._reindex()
        return self._joint_index

    def _reindex(self) -> None:
        self._body_index = {self._base.name: self._base, **{b.name: b for b in self._bodies}}
        self._joint_index = {b.joint.name: b for b in self._bodies}
        self._index_stale = False

    def get_body(self, name: str) -> RigidBody:
        """The body called ``name`` (the base included). Edits to it go through the tree."""
        try:
            return self._by_name[name]
        except (KeyError, TypeError):  # TypeError: an unhashable "name"
            names = list(self._by_name)
            listed = ", ".join(names[:20]) + (f" … ({len(names) - 20} more)" if len(names) > 20 else "")
            raise UnknownBodyError(f"no body named {name!r:.80}; bodies are: {listed}") from None

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
        """The body whose joint is called ``joint_name`` (joint names only: a body may share
        its name with another body's joint, as URDF allows)."""
        try:
            return self._by_joint[joint_name]
        except (KeyError, TypeError):
            raise UnknownBodyError(f"no joint named {joint_name!r}") from None

    # --- validation helpers ------------------------------------------------------------------
    def _check_body_rename(self, body: RigidBody, new: str) -> None:
        other = self._by_name.get(new)
        if other is not None and other is not body:
            raise DuplicateNameError(f"a body named {new!r} already exists in the tree")

    def _check_joint_rename(self, joint: Joint, new: str) -> None:
        b = self._by_joint.get(new)
        if b is not None and b.joint is not joint:
            raise DuplicateNameError(f"a joint named {new!r} already exists (body {b.name!r})")

    def _joint_renamed(self, old: str, new: str) -> None:
        """Keep mimic joints and named poses pointing at a renamed joint."""
        self._named_poses._joint_renamed(old, new)
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
            if j.mimic is not None:
                leaders[j.name] = RigidBodyTree._check_leader(j, by_name.get(j.mimic.joint))
        return leaders

    @staticmethod
    def _check_leader(follower: Joint, leader: Joint | None) -> Joint:
        """``leader``, unless it cannot be what ``follower`` mimics (``None``: no such joint)."""
        m = follower.mimic
        if leader is None:
            raise InvalidJointError(f"joint {follower.name!r} mimics {m.joint!r}, which is not a joint of this tree")
        if leader.type not in AXIAL_TYPES or leader.mimic is not None:
            raise InvalidJointError(
                f"joint {follower.name!r} mimics {m.joint!r}, which is "
                + ("itself a mimic joint" if leader.mimic is not None else f"a {leader.type} joint")
                + "; only a revolute or prismatic joint with its own position can be mimicked"
            )
        return leader

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
        """Raise unless ``bodies`` can join the tree (in place of ``replacing``): bodies with
        unused body and joint names, whose mimic joints follow a joint of the tree or of
        ``bodies`` that has a position of its own. Linear in ``len(bodies)``."""
        bodies = list(bodies)
        gone = set(replacing)
        names, joints = self._by_name, self._by_joint
        new_names: set[str] = set()
        new_joints: dict[str, Joint] = {}
        for b in bodies:
            if not isinstance(b, RigidBody):
                raise InvalidPropertyError(f"expected a RigidBody, got {type(b).__name__}")
            other = names.get(b.name)
            if b.name in new_names or (other is not None and other not in gone):
                raise DuplicateNameError(f"a body named {b.name!r} already exists in the tree")
            other = joints.get(b.joint.name)
            if b.joint.name in new_joints or (other is not None and other not in gone):
                raise DuplicateNameError(f"a joint named {b.joint.name!r} already exists in the tree")
            new_names.add(b.name)
            new_joints[b.joint.name] = b.joint
        for b in bodies:
            m = b.joint.mimic
            if m is not None:
                leader = new_joints.get(m.joint)
                if leader is None:
                    owner = joints.get(m.joint)
                    leader = owner.joint if owner is not None and owner not in gone else None
                self._check_leader(b.joint, leader)

    def _invalidate(self) -> None:
        """The tree changed, names excepted (or the indexes were updated): drop the caches."""
        self._revision += 1
        self._plan = None
        self._position_cache: list[tuple[RigidBody, int]] | None = None
        self._slot_cache: dict[str, slice] = {}

    def mark_changed(self) -> None:
        """Anything changed, names included (:class:`~kinetree.core.model.protocol.TreeLike`)."""
        self._invalidate()
        self._index_stale = True

    _touch = mark_changed  # its former private name (app code, other branches)

    def _attach(self, body: RigidBody, parent: RigidBody, index: int | None = None) -> RigidBody:
        b = body.copy()
        b._tree = self
        if index is None:
            self._bodies.append(b)
        else:
            self._bodies.insert(index, b)
        self._parent[b] = parent
        self._by_name[b.name] = b
        self._by_joint[b.joint.name] = b
        return b

    # --- edits -------------------------------------------------------------------------------
    def add_body(self, body: RigidBody, parent_name: str) -> RigidBody:
        """Add a copy of ``body`` under ``parent_name`` and return the copy now in the tree.

        A mimic joint must follow a joint already in the tree (see :meth:`add_bodies`)."""
        if not isinstance(body, RigidBody):
            raise InvalidPropertyError(f"add_body expects a RigidBody, got {type(body).__name__}")
        parent = self.get_body(parent_name)
        self._check_new_bodies([body])
        b = self._attach(body, parent)
        self._invalidate()
        return b

    def add_bodies(self, items: Iterable[tuple[RigidBody, str]]) -> list[RigidBody]:
        """Add copies of many bodies, each given as ``(body, parent name)``; return the copies.

        A parent is a body of the tree or one earlier in ``items``; a mimic joint may follow a
        joint added later in ``items`` (as in a file). All or nothing, in linear time."""
        try:
            pairs = [(b, p) for b, p in items]
        except (TypeError, ValueError):
            raise InvalidPropertyError("add_bodies expects (body, parent name) pairs") from None
        self._check_new_bodies(b for b, _ in pairs)
        names = self._by_name
        added: set[str] = set()
        for b, p in pairs:
            if not isinstance(p, str) or (p not in names and p not in added):
                raise UnknownBodyError(f"body {b.name!r}: its parent {p!r} is not a body of the tree "
                                       "(nor one added before it)")
            added.add(b.name)
        out = [self._attach(b, self._by_name[p]) for b, p in pairs]
        self._invalidate()
        return out

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
        for rec in self._loops.values():
            if rec.a.name in gone or rec.b.name in gone:
                raise LoopClosureError(f"cannot remove {name!r}: loop {rec.name!r} joins {rec.a.name!r} and "
                                       f"{rec.b.name!r}; remove the loop first")
        for b in self._bodies:
            if b.name in gone:
                del self._parent[b]
                b._tree = None
        self._bodies = [b for b in self._bodies if b.name not in gone]
        self._named_poses._joints_removed(gone_joints)  # a joint added again under a name starts at home
        self.mark_changed()
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
        tree.mark_changed()
        self._copy_loops_to(tree, {b: tree._by_name[b.name] for b in self._bodies if b.name in tree._by_name})
        return tree

    def add_subtree(self, parent_name: str, subtree: RigidBodyTree, replace_base: bool = True) -> None:
        """Attach copies of ``subtree``'s bodies under ``parent_name`` (MATLAB's ``addSubtree``).
        ``replace_base`` (MATLAB's ``ReplaceBase``, default true): the subtree's base is replaced
        by ``parent_name``, the bodies on it hang there; false: the base is added as a body of
        its own (its name, mass, inertia and visuals) on a fixed joint ``<base>_jnt`` with the
        identity transform, as MATLAB's ``rigidBody`` default, and they hang on it."""
        parent = self.get_body(parent_name)
        if not isinstance(subtree, RigidBodyTree):
            raise InvalidPropertyError(f"add_subtree expects a RigidBodyTree, got {type(subtree).__name__}")
        if not isinstance(replace_base, (bool, np.bool_)):
            raise InvalidPropertyError(f"add_subtree: replace_base must be True or False, got {replace_base!r:.80}")
        bodies = list(subtree.bodies)
        base = None
        if not replace_base:
            base = RigidBody(subtree.base_name)
            _take_properties(base, subtree.base)
            bodies.insert(0, base)
        self._check_new_bodies(bodies)
        clash = [n for n in subtree._loops if n in self._loops]
        if clash:  # before any body is attached: all or nothing
            raise DuplicateNameError(f"add_subtree: the subtree's loop {clash[0]!r} has the name of a loop "
                                     "of this tree")
        mapping = {subtree.base: parent if base is None else self._attach(base, parent)}
        for b in subtree.bodies:
            mapping[b] = self._attach(b, mapping[subtree._parent[b]])
        self._invalidate()
        subtree._copy_loops_to(self, mapping)

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
        for rec in self._loops.values():
            rec.a, rec.b = (b if rec.a is old else rec.a), (b if rec.b is old else rec.b)
        old._tree = None
        self._named_poses._joint_replaced(old.joint, b.joint)
        self.mark_changed()
        return b

    def replace_joint(self, body_name: str, joint: Joint) -> None:
        """Give a body a copy of ``joint`` (to change a joint's type, say)."""
        body = self.get_body(body_name)
        if body is self._base:
            raise BaseBodyError(f"the base {body_name!r} has no joint to replace")
        if not isinstance(joint, Joint):
            raise InvalidJointError(f"body {body_name!r}: replace_joint expects a Joint, got {type(joint).__name__}")
        b = self._by_joint.get(joint.name)
        if b is not None and b is not body:
            raise DuplicateNameError(f"a joint named {joint.name!r} already exists (body {b.name!r})")
        self._mimic_leaders(joint if b is body else b.joint for b in self._bodies)
        j = joint.copy()
        j._owner = body
        self._named_poses._joint_replaced(body._joint, j)
        body._joint = j
        self.mark_changed()

    def copy(self) -> RigidBodyTree:
        """A deep copy."""
        tree = RigidBodyTree(self.base_name, self._gravity)
        tree._take_base_properties(self._base)
        tree._extensions = self._extensions
        tree._named_poses = self._named_poses._copy_for(tree)
        for b in self._bodies:
            tree._attach(b, tree._by_name[self._parent[b].name])
        tree.mark_changed()
        self._copy_loops_to(tree, {self._base: tree._base, **{b: tree._by_name[b.name] for b in self._bodies}})
        return tree

    def _copy_loops_to(self, tree: RigidBodyTree, mapping: dict[RigidBody, RigidBody]) -> None:
        """Copy into ``tree`` the loops whose two bodies ``mapping`` takes there."""
        for rec in self._loops.values():
            if rec.a in mapping and rec.b in mapping:
                tree.add_loop(rec.name, mapping[rec.a].name, rec.xa, mapping[rec.b].name, rec.xb, rec.kind)

    def _take_base_properties(self, base: RigidBody) -> None:
        """Give this tree's base the mass, inertia and visuals of ``base`` (another tree's)."""
        _take_properties(self._base, base)

    # --- kinematics --------------------------------------------------------------------------
    def kinematic_plan(self) -> KinematicPlan:
        """The compiled tree the kinematics run on, rebuilt after any change
        (:class:`~kinetree.core.model.protocol.TreeLike`)."""
        if self._plan is None:
            self._plan = KinematicPlan(self)
        return self._plan

    _kinematics = kinematic_plan  # its former private name (app code, other branches)

    def forward_kinematics(self, q: Configuration) -> np.ndarray:
        """Pose of every body in the base frame.

        ``q``: one configuration → ``(num_bodies, 4, 4)`` in :attr:`body_names` order; a batch
        of shape ``(N, position_count)`` → ``(N, num_bodies, 4, 4)``.
        """
        Q = self.config_array(q)
        plan = self.kinematic_plan()
        T = plan.fk_single(Q) if Q.ndim == 1 else plan.fk_batch(Q)
        if plan.translates and self._may_overflow(Q) and not np.isfinite(T).all():
            self._non_finite(T)
        if self._loops:  # a tree without loops pays one dictionary test
            check_closed(self, T)
        return T

    @staticmethod
    def _may_overflow(Q: np.ndarray) -> bool:
        """False when every pose is surely finite, checked on the (smaller) input: stored
        lengths are at most MAX_LENGTH and mimic gains at most 1e6, so positions below 1e150
        cannot overflow a pose of any tree that fits in memory."""
        if Q.ndim == 1 and Q.size <= 32:  # (Q is finite here) Python floats beat numpy calls
            return not max(map(abs, Q.tolist()), default=0.0) < 1e150
        return not np.abs(Q).max(initial=0.0) < 1e150

    def _non_finite(self, T: np.ndarray, names: list[str] | None = None) -> None:
        """Raise for poses ``T`` (..., m, 4, 4) of bodies ``names`` (default: all) that are not
        finite: every stored number is bounded, so only huge joint positions get here."""
        ok = np.isfinite(T).reshape(-1, T.shape[-3], 16).all(axis=(0, 2))
        name = (names or self.body_names)[int(np.argmin(ok))]
        raise InvalidConfigurationError(
            f"body {name!r}: its pose is not finite for this configuration (the joint positions are "
            "so large that the numbers overflow)")

    def get_transform(self, q: Configuration, source: str, target: str | None = None) -> np.ndarray:
        """Pose of body ``source`` in body ``target`` (the base when omitted).

        Returns ``(4, 4)`` for one configuration, ``(N, 4, 4)`` for a batch.
        """
        src = self.index_of(source)
        tgt = -1 if target is None else self.index_of(target)
        Q = self.config_array(q)
        plan = self.kinematic_plan()
        T = plan.relative(Q, src, tgt)
        if plan.translates and self._may_overflow(Q) and not np.isfinite(T).all():
            self._non_finite(T[..., None, :, :], [source])
        if self._loops:
            check_closed(self, plan.fk_single(Q) if Q.ndim == 1 else plan.fk_batch(Q))
        return T

    def one_config(self, q: Configuration) -> np.ndarray:
        """:meth:`config_array` of one configuration, a batch refused
        (:class:`~kinetree.core.model.protocol.TreeLike`)."""
        Q = self.config_array(q)
        if Q.ndim != 1:
            raise InvalidConfigurationError("expected one configuration, not a batch")
        return Q

    _one_config = one_config  # its former private name (app code, other branches)

    # --- display -----------------------------------------------------------------------------
    def show_details(self, dynamics: bool = False) -> str:
        """A table of bodies, joints, parents and children, as MATLAB's ``showdetails``; with
        ``dynamics``, Corke's table of each body's m, r, I, Jm, B, Tc, G and qlim follows."""
        idx = {self._base: 0, **{b: i + 1 for i, b in enumerate(self._bodies)}}
        rows = [("Idx", "Body Name", "Joint Name", "Joint Type", "Parent Name(Idx)", "Children Name(s)")]
        children: dict[RigidBody, list[RigidBody]] = {}
        for b in self._bodies:  # once for all bodies: asking each body is quadratic
            children.setdefault(self._parent[b], []).append(b)
        for b in self._bodies:
            p = self._parent[b]
            kids = "  ".join(f"{c.name}({idx[c]})" for c in children.get(b, ()))
            rows.append((str(idx[b]), b.name, b.joint.name, b.joint.type, f"{p.name}({idx[p]})", kids))
        widths = [max(len(r[c]) for r in rows) for c in range(6)]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
        rule = "-" * max(len(line) for line in lines)
        text = "\n".join([f"Robot: ({self.num_bodies} bodies)", rule, lines[0], rule, *lines[1:], rule])
        return f"{text}\n\n{dynamics_table(self)}" if dynamics else text

    def __repr__(self) -> str:
        return f"RigidBodyTree(base={self.base_name!r}, bodies={self.num_bodies}, positions={self.position_count})"
