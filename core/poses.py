"""Named poses: a tree's mapping ``name -> configuration`` (Corke's ``qz``, ``qr``…).

``tree.named_poses`` is a :class:`NamedPoses`, a mutable mapping in insertion order. Names
follow the rules of body and joint names (:func:`kinetree.core.names.text_problem`); a value
is a configuration vector or a ``{joint name: value}`` mapping, checked as
:meth:`~kinetree.core.tree.RigidBodyTree.config_to_vector` checks one (length, finite numbers).
Reading a pose gives a fresh vector of the tree's current :attr:`position_count`.

A pose is kept per joint name, so it survives edits of the tree: a joint added later takes its
home position, a removed joint is dropped, a renamed joint keeps its value. Limits are not
enforced (a published pose may lie outside a model's limits: Corke's Puma ``qn`` has
q3 = π beyond its −225°…45° range, the same angle as −π), as with any configuration.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import InvalidConfigurationError
from .names import text_problem

if TYPE_CHECKING:
    from .tree import RigidBodyTree

__all__ = ["MAX_POSES", "NamedPoses"]

#: The most poses one tree may hold (a project file is hostile input: bound what it may ask for).
MAX_POSES = 1000


class NamedPoses(MutableMapping):
    """``name -> configuration vector`` of one tree (see the module docstring)."""

    def __init__(self, tree: RigidBodyTree) -> None:
        self._tree = tree
        self._poses: dict[str, dict[str, np.ndarray]] = {}

    # --- mapping -------------------------------------------------------------------------------
    def __getitem__(self, name: str) -> np.ndarray:
        try:
            stored = self._poses[name]
        except (KeyError, TypeError):
            raise InvalidConfigurationError(self._unknown(name)) from None
        q = self._tree.home_configuration()
        for b, i in self._tree._positions():
            v = stored.get(b.joint.name)
            if v is not None and v.size == b.joint.position_count:  # a joint whose type changed: home
                q[i:i + v.size] = v
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
        stored = {}
        for b, i in self._tree._positions():
            v = q[i:i + b.joint.position_count].copy()
            v.flags.writeable = False
            stored[b.joint.name] = v
        self._poses[name] = stored

    def __delitem__(self, name: str) -> None:
        try:
            del self._poses[name]
        except (KeyError, TypeError):
            raise InvalidConfigurationError(self._unknown(name)) from None

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
        self._poses = fresh._poses

    # --- hooks for the tree ------------------------------------------------------------------------
    def _copy_for(self, tree: RigidBodyTree) -> NamedPoses:
        """The same poses on ``tree`` (a copy of this one's tree); stored arrays are read-only."""
        other = NamedPoses(tree)
        other._poses = {k: dict(v) for k, v in self._poses.items()}
        return other

    def _joint_renamed(self, old: str, new: str) -> None:
        for stored in self._poses.values():
            if old in stored:
                stored[new] = stored.pop(old)

    def __repr__(self) -> str:
        return f"NamedPoses({list(self._poses)})"
