"""The tree as the engine's algorithms see it: :class:`TreeLike`.

The kinematics, dynamics, simulation, teaching and file modules use a tree through these named
internal methods (and the public API), not through its private attributes.
:class:`~kinetree.core.tree.RigidBodyTree` implements it. They are engine-internal: not among
``kinetree.core``'s public names, and free to change with the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    import numpy as np

    from ..kinematics.plan import KinematicPlan
    from .body import RigidBody


@runtime_checkable
class TreeLike(Protocol):
    """What an algorithm may use of a tree besides its public API."""

    @property
    def num_bodies(self) -> int: ...

    @property
    def position_count(self) -> int: ...

    def index_of(self, body: str) -> int: ...

    def position_slots(self) -> list[tuple[RigidBody, int]]:
        """Movable bodies with the start of their joint's slots in a configuration vector, in
        body order (cached until the tree changes: do not modify the list)."""
        ...

    def config_array(self, q: Any) -> np.ndarray:
        """``q`` (a vector, a batch or a ``{joint: value}`` mapping) as a validated (n,) or (N, n)
        float array."""
        ...

    def one_config(self, q: Any) -> np.ndarray:
        """:meth:`config_array` of one configuration (a batch refused)."""
        ...

    def kinematic_plan(self) -> KinematicPlan:
        """The compiled description of the tree the kinematics and dynamics run on (rebuilt
        after any change)."""
        ...

    def mark_changed(self) -> None:
        """Drop every cache after an edit made from outside the tree (names included)."""
        ...
