"""Typed tree changes: what an edit touched, so that views redo only that. No Qt here."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from kinetree.core import RigidBodyTree
from kinetree.core.kinematics.loop_closing import loop_path

#: From narrowest to broadest. ``reset`` is a new document: everything is new.
KINDS = ("rename", "properties", "visuals", "joint", "structure", "reset")
_JOINT_SKIP = {"_owner"}
_BODY_SKIP = {"_joint", "_tree", "_name"}
_VISUAL_KEYS = {"_visuals", "_collisions"}


@dataclass(frozen=True)
class TreeChange:
    """What changed in the tree, as the views need to know it.

    ``kind``: ``structure`` (bodies added, removed or moved), ``joint`` (a joint's type, name,
    axis, limits, transform…), ``visuals`` (visuals or collision geometry), ``properties``
    (mass, inertia, extensions, the tree's gravity), ``rename`` (bodies renamed, nothing else),
    ``reset`` (another document). ``bodies``: the names touched, before and after the change
    (a renamed body is in under both names). ``renamed``: (old, new) body names.
    """

    kind: str
    bodies: frozenset[str] = field(default_factory=frozenset)
    renamed: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown tree change kind {self.kind!r} (expected one of {KINDS})")

    @classmethod
    def reset(cls) -> TreeChange:
        return cls("reset")

    def inverse(self) -> TreeChange:
        """The change that undoes this one (the same bodies, renames reversed)."""
        return TreeChange(self.kind, self.bodies, tuple((new, old) for old, new in self.renamed))

    def at_least(self, kind: str) -> bool:
        """True if this change is ``kind`` or broader (a structure change is also a joint change…)."""
        return KINDS.index(self.kind) >= KINDS.index(kind)


def _same(a, b) -> bool:
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.shape == b.shape
                and a.dtype == b.dtype and a.tobytes() == b.tobytes())
    try:
        return bool(a == b)
    except (TypeError, ValueError):  # containers of arrays: compare what they hold
        return False


def _differs(a: dict, b: dict, skip: set[str]) -> set[str]:
    """Keys of two objects' ``__dict__`` whose values differ."""
    if a.keys() == b.keys():  # the common case: the same attributes (a copy of the object)
        return {k for k, v in a.items() if k not in skip and v is not b[k] and not _same(v, b[k])}
    return {k for k in a.keys() | b.keys() if k not in skip and not _same(a.get(k), b.get(k))}


def _body_kind(old, new) -> str | None:
    """The broadest kind of difference between two bodies' contents (names aside)."""
    if _differs(old._joint.__dict__, new._joint.__dict__, _JOINT_SKIP):
        return "joint"
    keys = _differs(old.__dict__, new.__dict__, _BODY_SKIP)
    if keys & _VISUAL_KEYS:
        return "visuals"
    return "properties" if keys else None


def _loop_keys(tree: RigidBodyTree) -> set[tuple]:
    """What each loop of ``tree`` is: name, bodies, kind and frames."""
    return {(r.name, r.a.name, r.b.name, r.kind, r.xa.tobytes(), r.xb.tobytes()) for r in tree._loops.values()}


def diff_trees(old: RigidBodyTree, new: RigidBodyTree) -> TreeChange:
    """What an edit turned ``old`` into ``new`` (both trees are read, never changed)."""
    old_names = [old.base_name, *old.body_names]
    new_names = [new.base_name, *new.body_names]
    old_parent = {n: old.parent_name(n) for n in old_names[1:]}
    new_parent = {n: new.parent_name(n) for n in new_names[1:]}
    kinds: set[str] = set()
    touched: set[str] = set()
    renamed: list[tuple[str, str]] = []
    old_bodies = {b.name: b for b in old.bodies}
    new_bodies = {b.name: b for b in new.bodies}
    old_bodies[old.base_name], new_bodies[new.base_name] = old.base, new.base
    pairs: list[tuple[str, str]]
    if len(old_names) == len(new_names):
        # same shape by position: a rename keeps a body's place
        index = {n: i for i, n in enumerate(new_names)}
        old_index = {n: i for i, n in enumerate(old_names)}
        same_shape = all(old_index[old_parent[o]] == index[new_parent[n]]
                         for o, n in zip(old_names[1:], new_names[1:]))
    else:
        same_shape = False
    if same_shape:
        pairs = list(zip(old_names, new_names))
        renamed = [(o, n) for o, n in pairs if o != n]
        if renamed:
            kinds.add("rename")
            touched.update(x for pair in renamed for x in pair)
    else:
        kinds.add("structure")
        common = old_bodies.keys() & new_bodies.keys()
        touched.update(old_bodies.keys() ^ new_bodies.keys())
        touched.update(n for n in common if n in old_parent and old_parent[n] != new_parent.get(n))
        pairs = [(n, n) for n in new_names if n in common]
    for o, n in pairs:
        kind = _body_kind(old_bodies[o], new_bodies[n])
        if kind is not None:
            kinds.add(kind)
            touched.update((o, n))
    if old._loops or new._loops:  # a loop closed, opened or changed: its bodies' rows and drawing
        was, now = _loop_keys(old), _loop_keys(new)
        if was != now:
            kinds.add("joint")
            for tree in (old, new):  # every body on the loop's path: its row shows the loop mark
                for key in (was ^ now) & _loop_keys(tree):
                    touched.update(loop_path(tree, key[1], key[2]))
    if not _same(old.gravity, new.gravity) or old.extensions != new.extensions:
        kinds.add("properties")
        touched.add(new.base_name)
    kind = max(kinds, key=KINDS.index) if kinds else "properties"
    return TreeChange(kind, frozenset(touched), tuple(renamed))


def diff_bodies(old: RigidBodyTree, new: RigidBodyTree, names) -> TreeChange:
    """As :func:`diff_trees`, for an edit known to touch only the contents of the bodies
    ``names`` (same structure, same names): a drag's edit, diffed in O(len(names)), not O(tree)."""
    kinds: set[str] = set()
    touched: set[str] = set()
    for n in names:
        o = old.base if n == old.base_name else old.get_body(n)
        b = new.base if n == new.base_name else new.get_body(n)
        kind = _body_kind(o, b)
        if kind is not None:
            kinds.add(kind)
            touched.add(n)
    return TreeChange(max(kinds, key=KINDS.index) if kinds else "properties", frozenset(touched))
