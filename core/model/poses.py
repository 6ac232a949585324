"""Named poses: a tree's mapping ``name -> configuration`` (Corke's ``qz``, ``qr``…).

``tree.named_poses`` is a :class:`NamedPoses`, a mutable mapping in insertion order. Names
follow the rules of body and joint names (:func:`kinetree.core.names.text_problem`); a value
is a configuration vector or a ``{joint name: value}`` mapping, checked as
:meth:`~kinetree.core.tree.RigidBodyTree.config_to_vector` checks one (length, finite numbers).
Reading a pose gives a fresh vector of the tree's current :attr:`position_count`.

A pose is kept per joint name, so it survives edits of the tree: a joint added later takes its
home position, a removed joint is dropped (a joint added again under its name starts at home),
a renamed joint keeps its value, a joint whose type or position count changes takes its home.
Limits are not enforced (a published pose may lie outside a model's limits: Corke's Puma ``qn``
has q3 = π beyond its −225°…45° range, the same angle as −π), as with any configuration.

At most :data:`MAX_POSES` poses and :data:`MAX_POSE_VALUES` stored numbers in all (a project
file is hostile input, and the GUI reads every pose after each edit). A pose is stored as the
vector it was given plus the joint layout of the tree then (shared by the poses stored at one
revision), so reading one costs a vector copy, plus one O(joints) mapping per layout and tree
revision after the tree changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import InvalidConfigurationError
from ..names import text_problem

if TYPE_CHECKING:
    from ..tree import RigidBodyTree
    from .joint import Joint

__all__ = ["MAX_POSES", "MAX_POSE_VALUES", "NamedPoses"]

#: The most poses one tree may hold (a project file is hostile input: bound what it may ask for).
MAX_POSES = 1000
#: The most numbers all of a tree's poses may hold together (poses × position count).
MAX_POSE_VALUES = 1_000_000


class _Layout:
    """Joint names, types and slices of the configuration vector at one tree revision."""

    __slots__ = ("names", "types", "starts", "counts", "index")

    def __init__(self, names: list[str | None], types: list[str], starts: list[int], counts: list[int]) -> None:
        self.names, self.types, self.starts, self.counts = names, types, starts, counts
        self.index = {n: k for k, n in enumerate(names) if n is not None}

    @classmethod
    def of(cls, tree: RigidBodyTree) -> _Layout:
        pos = tree.position_slots()
        return cls([b.joint.name for b, _ in pos], [b.joint.type for b, _ in pos], [i for _, i in pos],
                   [b.joint.position_count for b, _ in pos])

    def copy(self) -> _Layout:
        return _Layout(list(self.names), list(self.types), list(self.starts), list(self.counts))

    def rename(self, old: str, new: str) -> None:
        k = self.index.pop(old, None)
        if k is not None:
            self.names[k] = new
            self.index[new] = k

    def drop(self, name: str) -> None:
        k = self.index.pop(name, None)
        if k is not None:
            self.names[k] = None


class NamedPoses(MutableMapping):
    """``name -> configuration vector`` of one tree (see the module docstring)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        self._tree = tree
        self._poses: dict[str, tuple[_Layout, np.ndarray]] = {}
        self._total = 0  # numbers stored
        self._rev: int | None = None  # tree revision the caches below belong to
        self._layout: _Layout | None = None  # the tree's layout at that revision
        self._home = np.zeros(0)
        self._maps: dict[_Layout, tuple[np.ndarray, np.ndarray] | None] = {}  # None: the same layout

    # --- caches ----------------------------------------------------------------------------------
    def _fresh(self) -> None:
        if self._rev != self._tree.revision:
            self._rev = self._tree.revision
            self._layout = _Layout.of(self._tree)
            self._home = self._tree.home_configuration()
            self._maps = {self._layout: None}

    def _forget(self) -> None:
        self._rev = None
        self._layout = None
        self._maps = {}

    def _map(self, layout: _Layout) -> tuple[np.ndarray, np.ndarray] | None:
        """``(src, dst)``: ``q[dst] = stored[src]`` puts a pose stored under ``layout`` into a
        configuration of the tree now; ``None`` when the layouts are the same."""
        self._fresh()
        if layout in self._maps:
            return self._maps[layout]
        cur = self._layout
        src: list[int] = []
        dst: list[int] = []
        for k, name in enumerate(cur.names):
            j = layout.index.get(name)
            if j is not None and layout.types[j] == cur.types[k] and layout.counts[j] == cur.counts[k]:
                src.extend(range(layout.starts[j], layout.starts[j] + cur.counts[k]))
                dst.extend(range(cur.starts[k], cur.starts[k] + cur.counts[k]))
        out = (np.array(src, dtype=np.intp), np.array(dst, dtype=np.intp))
        self._maps[layout] = out
        return out

    # --- mapping -------------------------------------------------------------------------------
    def __getitem__(self, name: str) -> np.ndarray:
        try:
            layout, v = self._poses[name]
        except (KeyError, TypeError):
            raise InvalidConfigurationError(self._unknown(name)) from None
        m = self._map(layout)
        if m is None:
            return v.copy()
        q = self._home.copy()
        q[m[1]] = v[m[0]]
        return q

    def __setitem__(self, name: str, config: Any) -> None:
        problem = text_problem(name)
        if problem is not None:
            raise InvalidConfigurationError(f"pose name {problem}")
        if name not in self._poses and len(self._poses) >= MAX_POSES:
            raise InvalidConfigurationError(f"pose {name!r}: a tree may hold at most {MAX_POSES} poses")
        try:
            q = self._tree.config_to_vector(config)
        except InvalidConfigurationError as exc:
            raise InvalidConfigurationError(f"pose {name!r}: {exc}") from None
        old = self._poses[name][1].size if name in self._poses else 0
        if self._total - old + q.size > MAX_POSE_VALUES:
            raise InvalidConfigurationError(
                f"pose {name!r}: the poses would hold {self._total - old + q.size} numbers, more than the "
                f"{MAX_POSE_VALUES} a tree may hold ({q.size} positions per pose)")
        q = q.copy()
        q.flags.writeable = False
        self._fresh()
        self._poses[name] = (self._layout, q)
        self._total += q.size - old

    def __delitem__(self, name: str) -> None:
        try:
            _, v = self._poses.pop(name)
        except (KeyError, TypeError):
            raise InvalidConfigurationError(self._unknown(name)) from None
        self._total -= v.size

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._poses))

    def __len__(self) -> int:
        return len(self._poses)

    def __contains__(self, name: object) -> bool:
        try:
            return name in self._poses
        except TypeError:
            return False

    def __eq__(self, other: object) -> bool:
        # Mapping's own __eq__ compares the vectors with ==, which numpy answers elementwise
        if not isinstance(other, Mapping):
            return NotImplemented
        return list(self) == list(other) and all(np.array_equal(self[k], other[k]) for k in self)

    __hash__ = None  # type: ignore[assignment] - mutable

    def _unknown(self, name: Any) -> str:
        known = ", ".join(self._poses) or "none"
        return f"no pose named {name!r:.80} (poses: {known:.200})"

    # --- edits beyond a mapping's ----------------------------------------------------------------
    def rename(self, old: str, new: str) -> None:
        """Rename a pose, keeping its place in the order."""
        if old not in self._poses:
            raise InvalidConfigurationError(self._unknown(old))
        problem = text_problem(new)
        if problem is not None:
            raise InvalidConfigurationError(f"pose name {problem}")
        if new != old and new in self._poses:
            raise InvalidConfigurationError(f"a pose named {new!r} already exists")
        self._poses = {(new if k == old else k): v for k, v in self._poses.items()}

    def as_dict(self) -> dict[str, list[float]]:
        """``{name: vector as a list}`` in order (what a project file stores)."""
        return {name: self[name].tolist() for name in self._poses}

    def replace(self, poses: Mapping[str, Any]) -> None:
        """Replace every pose with ``poses`` (all checked first: nothing changes on an error)."""
        fresh = NamedPoses(self._tree)
        for name, q in poses.items():
            fresh[name] = q
        self._poses, self._total = fresh._poses, fresh._total

    # --- hooks for the tree ------------------------------------------------------------------------
    def _layouts(self) -> set[_Layout]:
        out = {layout for layout, _ in self._poses.values()}
        if self._layout is not None:
            out.add(self._layout)
        return out

    def _copy_for(self, tree: RigidBodyTree, joints: Iterable[str] | None = None) -> NamedPoses:
        """The same poses on ``tree`` (a copy of this one's tree, or a tree sharing joint names);
        with ``joints``, only the values of those joints are kept. Stored vectors are read-only
        and shared; layouts are copied (the hooks below change them in place)."""
        other = NamedPoses(tree)
        copies = {layout: layout.copy() for layout in {layout for layout, _ in self._poses.values()}}
        if joints is not None:
            keep = set(joints)
            for layout in copies.values():
                for name in [n for n in layout.index if n not in keep]:
                    layout.drop(name)
        other._poses = {k: (copies[layout], v) for k, (layout, v) in self._poses.items()}
        other._total = self._total
        return other

    def _joint_renamed(self, old: str, new: str) -> None:
        for layout in self._layouts():
            layout.rename(old, new)
        self._forget()

    def _joints_removed(self, names: Iterable[str]) -> None:
        """Joints left the tree: their values are dropped (a joint added later under one of
        these names is a new joint and starts at its home)."""
        names = list(names)
        for layout in self._layouts():
            for name in names:
                layout.drop(name)
        self._forget()

    def _joint_replaced(self, old: Joint, new: Joint) -> None:
        """A body's joint ``old`` gave way to ``new``: values are kept only for the same joint
        name, type and position count (1.5708 rad is no prismatic position)."""
        if (old.name, old.type, old.position_count) != (new.name, new.type, new.position_count):
            self._joints_removed({old.name, new.name})

    def __repr__(self) -> str:
        return f"NamedPoses({list(self._poses)})"
