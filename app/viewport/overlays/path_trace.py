"""The end effector's path through the playback motion, drawn in the viewport.

One line strip: the end effector's origin at the motion's samples (one batch forward
kinematics of the end effector's chain only, per change of the motion, never per frame), and a
dot at each pose the motion goes through. It listens to the playback state (and the tree,
through it); it never moves. In the main window it is drawn (and computed) only while the Poses
dock is open: a robot's poses are not a motion nobody asked to see.
"""

from __future__ import annotations

import numpy as np

from ..gl_programs import ON_TOP
from ..lines import DotsItem, LineItem

#: samples per second of motion, and the most a path holds (a long motion is sampled coarser)
SAMPLES_PER_SECOND = 60.0
MAX_SAMPLES = 2000
#: the most body poses one path computes (samples × bodies in the end effector's chain): a
#: 3000-body chain gets 333 samples (0.4 s), not 2000 (2 s); a Puma keeps its 2000
MAX_BODY_SAMPLES = 1_000_000
COLOR = (0.05, 0.7, 1.0, 1.0)  # unlike the axes (RGB), the joint axes (amber) and collisions (magenta)


class PathTrace:
    """Adds its items to ``view``; follows ``state.changed``."""

    def __init__(self, view, doc, state, active: bool = True) -> None:

        self.view, self.doc, self.state = view, doc, state
        self.visible = True  # Trace checked
        self.active = bool(active)  # the Poses dock open (always, headless)
        self.positions = np.zeros((0, 3))
        self.line = LineItem(mode="line_strip", width=3, antialias=True, color=COLOR)
        self.dots = DotsItem(size=9, color=COLOR, pxMode=True)
        for item in (self.line, self.dots):
            item.setGLOptions(ON_TOP)  # a path is read through the links it passes behind
            item.setDepthValue(9)
            view.addItem(item)
        state.changed.connect(self.update)
        self.update()

    def set_visible(self, on: bool) -> None:
        self.visible = bool(on)
        self.update()

    def set_active(self, on: bool) -> None:
        """Draw (and compute) the path only while ``on``: the Poses dock is open."""
        if bool(on) != self.active:
            self.active = bool(on)
            self.update()

    def samples(self) -> np.ndarray:
        """The configurations the path is drawn through."""
        duration = self.state.duration()
        tree = self.doc.tree
        chain = len(tree._kinematics().ancestors(tree.index_of(tree.end_effector))) if tree.end_effector else 1
        most = max(100, min(MAX_SAMPLES, MAX_BODY_SAMPLES // max(chain, 1)))
        fps = min(SAMPLES_PER_SECOND, (most - 1) / duration) if duration > 0 else SAMPLES_PER_SECOND
        return self.state.samples(fps)

    def update(self) -> None:
        tree = self.doc.tree
        body = tree.end_effector
        on = self.visible and self.active and body is not None
        Q = self.samples() if on else np.zeros((0, 0))
        if len(Q) < 2 or tree.index_of(body) < 0:  # (the base never moves)
            self.positions = np.zeros((0, 3))
            for item in (self.line, self.dots):
                item.setVisible(False)
            return
        self.positions = self._origins(Q)
        self.line.setData(pos=self.positions)
        self.dots.setData(pos=self._origins(np.array(self.state.waypoints())))
        for item in (self.line, self.dots):
            item.setVisible(True)

    def _origins(self, Q: np.ndarray) -> np.ndarray:
        """The end effector's origin at each configuration of ``Q``: forward kinematics of its
        chain alone (a 3000-body tree's every body at 2000 samples would be 0.8 GB)."""
        tree = self.doc.tree
        plan = tree._kinematics()
        sel = np.array(plan.ancestors(tree.index_of(tree.end_effector)))
        out = np.empty((len(Q), 3))
        for start, n, poses in plan.fk_chunks(Q, sel, chunk=min(len(Q), 512)):
            out[start:start + n] = poses[-1, 3].T
        return out
