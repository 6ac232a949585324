"""The move (W) and rotate (E) handles: drag the selected body's frame, and with it the body and
its subtree, by editing its joint's fixed transform; the configuration is untouched.

Arrows move along, rings turn about, the body's own axes (or its parent's: :attr:`FrameHandle.
local`). A drag snaps to :attr:`FrameHandle.step` (m) and 15°, freely with Ctrl held; the amount
is shown beside the cursor. Every mouse move is an edit merged into one undo step; Esc during
the drag puts the frame back (the merged step then vanishes from the history).
"""

from __future__ import annotations

import math

import numpy as np
from kinetree.core import KineTreeError
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QToolTip

from ..numbers import signed_text
from .ik_handle import IkHandle

#: Rotation snap (radians).
ANGLE_STEP = math.radians(15.0)


def moved_joint_transforms(joint, parent_pose: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The joint's (joint_to_parent, child_to_joint) that move its body's world pose by the world
    motion ``X`` (4×4, applied on the left) at any configuration: the joint frame moves with it."""
    jtp = np.linalg.inv(parent_pose) @ X @ parent_pose @ joint.joint_to_parent_transform
    return jtp, joint.child_to_joint_transform


class FrameHandle(IkHandle):
    """Arrows (``mode`` "move") or rings ("rotate") on the selected body's frame."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.local = True  # the body's own axes; False: its parent's
        self.step = 0.01  # m: the grid step a move snaps to

    @property
    def mode(self) -> str:
        return getattr(self.view, "tool", "pose")

    @property
    def active(self) -> bool:
        return self.mode in ("move", "rotate")

    def target_body(self) -> str | None:
        """The selected body (not the base: it has no joint to move)."""
        tree = self.view.doc.tree
        name = self.view.doc.selection
        if name is None or name == tree.base_name or name not in tree.body_names:
            return None
        return name

    def refresh(self) -> None:
        if self._grab is None:
            self.body = self.target_body() if self.active else None
            if self.body is not None:
                tree, poses = self.view.doc.tree, self.view.doc.poses()
                self.pose = poses[tree.body_names.index(self.body)].copy()
                if not self.local:  # the parent's axes, at the body's origin
                    parent = tree.parent_name(self.body)
                    R = np.eye(3) if parent == tree.base_name else poses[tree.body_names.index(parent)][:3, :3]
                    self.pose[:3, :3] = R
        self.size = 2.2 * self.view.frame_size
        self._draw()

    def _draw(self) -> None:
        super()._draw()
        if self.body is not None:  # only the parts of this mode
            self.rings.setVisible(self.mode == "rotate")
            self.arrows.setVisible(self.mode == "move")
            self.centre.setVisible(self.mode == "move")

    def pick(self, x: float, y: float):
        part = super().pick(x, y)
        if part is None or (part[0] == "ring") != (self.mode == "rotate"):
            return None
        return part

    def press(self, x: float, y: float) -> bool:
        if not super().press(x, y):
            return False
        doc = self.view.doc
        if doc.tree.get_body(self.body).joint.dh_parameters is not None:
            # a drag would turn its DH row into a plain matrix: the DH table is where it changes
            self._grab = None
            doc.message.emit(f"{self.body} is defined by a DH row: change its a, α, d or θ in the DH table")
            return True
        self._grab["tree"] = doc.tree  # put back by Esc
        parent = doc.tree.parent_name(self.body)
        self._grab["parent_pose"] = (np.eye(4) if parent == doc.tree.base_name
                                     else doc.poses()[doc.tree.body_names.index(parent)])
        self._grab["body_pose"] = doc.poses()[doc.tree.body_names.index(self.body)]
        self._grab["shown"] = ""
        return True

    def _snap(self, value: float, step: float) -> float:
        return value if self._grab.get("free") or step <= 0 else round(value / step) * step

    def _snap_length(self, distance: float) -> float:
        d = self._snap(distance, self.step)
        self._grab["shown"] = f"{signed_text(d * 1000, 1)} mm"
        return d

    def _snap_angle(self, angle: float) -> float:
        a = self._snap(angle, ANGLE_STEP)
        self._grab["shown"] = f"{signed_text(math.degrees(a), 1)}°"
        return a

    def move(self, x: float, y: float, free: bool = False) -> None:
        """Drag to (x, y); ``free`` (Ctrl held): no snapping."""
        if self._grab is None:
            return
        self._grab["free"] = free
        target = self._dragged(x, y)
        if target is None:
            return
        g = self._grab
        if g["kind"] == "centre":  # a free move in the view plane, snapped along the handle's axes
            R = g["start"][:3, :3]
            delta = R.T @ (target[:3, 3] - g["start"][:3, 3])
            target[:3, 3] = g["start"][:3, 3] + R @ np.array([self._snap(v, self.step) for v in delta])
            g["shown"] = ", ".join(signed_text(v * 1000, 1) for v in R.T @ (target[:3, 3] - g["start"][:3, 3])) + " mm"
        X = target @ np.linalg.inv(g["start"])  # the world motion of the handle
        self.pose = target
        self._apply(X)
        self._draw()
        if g["shown"]:
            QToolTip.showText(self.view.mapToGlobal(QPoint(int(x) + 16, int(y) + 16)), g["shown"], self.view)

    def _apply(self, X: np.ndarray) -> None:
        g = self._grab
        body = self.body
        jtp, ctj = moved_joint_transforms(g["tree"].get_body(body).joint, g["parent_pose"], X)

        def change(tree):
            joint = tree.get_body(body).joint
            joint.set_fixed_transform(jtp)
            joint.set_fixed_transform(ctj, "child")
            return body

        verb = "Move" if self.mode == "move" else "Rotate"
        try:
            self.view.doc.edit(f"{verb} frame of {body}", change, drag=g["drag"])
        except KineTreeError as exc:  # e.g. beyond the largest length: the last good pose stays
            self.view.doc.message.emit(str(exc))

    def cancel(self) -> bool:
        """Esc during a drag: the frame goes back; True if a drag was cancelled."""
        g = self._grab
        if g is None:
            return False
        original = g["tree"]
        if self.view.doc.tree is not original:
            self.view.doc.edit("Cancel", lambda _tree: original, drag=g["drag"])
        self._grab = None
        QToolTip.hideText()
        self.refresh()
        return True

    def release(self) -> None:
        if self._grab is not None:
            QToolTip.hideText()
            self._grab = None
            self.refresh()
