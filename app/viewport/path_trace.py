"""The end effector's path through the playback motion, drawn in the viewport.

One line strip: the end effector's origin at the motion's samples (one batch forward
kinematics call per change of the motion, never per frame), and a dot at each pose the motion
goes through. It listens to the playback state (and the tree, through it); it never moves.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl

#: samples per second of motion, and the most a path holds (a long motion is sampled coarser)
SAMPLES_PER_SECOND = 60.0
MAX_SAMPLES = 2000
COLOR = (0.05, 0.7, 1.0, 1.0)  # unlike the axes (RGB), the joint axes (amber) and collisions (magenta)


class PathTrace:
    """Adds its items to ``view``; follows ``state.changed``."""

    def __init__(self, view, doc, state) -> None:
        from .view import ON_TOP

        self.view, self.doc, self.state = view, doc, state
        self.visible = True
        self.positions = np.zeros((0, 3))
        self.line = gl.GLLinePlotItem(mode="line_strip", width=3, antialias=True, color=COLOR)
        self.dots = gl.GLScatterPlotItem(size=9, color=COLOR, pxMode=True)
        for item in (self.line, self.dots):
            item.setGLOptions(ON_TOP)  # a path is read through the links it passes behind
            item.setDepthValue(9)
            view.addItem(item)
        state.changed.connect(self.update)
        self.update()

    def set_visible(self, on: bool) -> None:
        self.visible = bool(on)
        self.update()

    def samples(self) -> np.ndarray:
        """The configurations the path is drawn through."""
        duration = self.state.duration()
        fps = min(SAMPLES_PER_SECOND, (MAX_SAMPLES - 1) / duration) if duration > 0 else SAMPLES_PER_SECOND
        return self.state.samples(fps)

    def update(self) -> None:
        tree = self.doc.tree
        body = tree.end_effector
        Q = self.samples() if self.visible and body is not None else np.zeros((0, 0))
        if len(Q) < 2:
            self.positions = np.zeros((0, 3))
            for item in (self.line, self.dots):
                item.setVisible(False)
            return
        i = tree.index_of(body)
        self.positions = tree.forward_kinematics(Q)[:, i, :3, 3]
        waypoints = np.array(self.state.waypoints())
        self.line.setData(pos=self.positions)
        self.dots.setData(pos=tree.forward_kinematics(waypoints)[:, i, :3, 3])
        for item in (self.line, self.dots):
            item.setVisible(True)
