"""View ▸ Collision geometry: every body's collision shapes, translucent magenta over the robot.

One batched item for the whole robot, built only while shown (a robot's collision meshes are not
read unless asked for) and moved with the bodies' poses as the visuals are."""

from __future__ import annotations

import numpy as np

from .batched import BatchedMeshItem, Part, part
from .meshes import visual_mesh

#: Collision geometry: translucent magenta, unlike any visual default.
COLLISION_COLOR = (1.0, 0.15, 0.75, 0.45)


class CollisionLayer(BatchedMeshItem):
    """The collision shapes of a tree's base and bodies, slotted by label index (0: the base)."""

    def __init__(self) -> None:
        super().__init__(glOptions="translucent")
        self.setDepthValue(6)  # after the opaque visuals (and translucent ones), under the frames
        self.shown = False
        self.parts: list[Part] = []

    def build(self, tree) -> None:
        """Make the shapes of ``tree`` again (nothing while hidden, unless some are to be dropped)."""
        if not self.shown and not self.parts:
            return
        parts = []
        if self.shown:
            for slot, b in enumerate((tree.base, *tree.bodies)):
                for c in b.collisions:
                    if (md := visual_mesh(c)) is not None:
                        parts.append(part(slot, md.vertexes(), md.faces(), c.matrix, COLLISION_COLOR))
        self.parts = parts
        self.set_parts(parts)
        self.setVisible(bool(parts))

    def place(self, slot_poses: np.ndarray) -> None:
        """Move the shapes to the bodies' poses (by slot: the base first)."""
        self.set_transforms(slot_poses)
