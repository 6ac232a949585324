"""The move (W) and rotate (E) handles: drag the selected body's frame, and with it the body and
its subtree, by editing its joint's fixed transform; the configuration is untouched.

Arrows move along, rings turn about, the body's own axes (or its parent's: :attr:`FrameHandle.
local`). A drag snaps to :attr:`FrameHandle.step` (m) and 15°, freely with Ctrl held; the amount
is shown beside the cursor. Every mouse move is an edit merged into one undo step; Esc during
the drag puts the frame back (the merged step then vanishes from the history).
"""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
from kinetree.core.transforms import axis_angle_rotation

from ...model.numbers import EDIT_DIGITS, decimal_sum, signed_text
from .cursor_text import CursorText
from .ik_handle import IkHandle
from .typed_amount import TypedAmount

#: Rotation snap (radians).
ANGLE_STEP = math.radians(15.0)


def moved_joint_transforms(joint, parent_pose: np.ndarray, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The joint's (joint_to_parent, child_to_joint) that move its body's world pose by the world
    motion ``X`` (4×4, applied on the left) at any configuration: the joint frame moves with it."""
    old = joint.joint_to_parent_transform
    if np.array_equal(X[:3, :3], np.eye(3)) or np.abs(X[:3, :3] - np.eye(3)).max() < 1e-12:
        # a move: the joint translates by the motion seen in its parent's frame, added in decimal
        # to what was there (0.4 moved by -0.1 is 0.3, not 0.30000000000000004)
        jtp = old.copy()
        d = tidy_motion(parent_pose[:3, :3].T @ X[:3, 3])
        jtp[:3, 3] = [decimal_sum(t, v) for t, v in zip(old[:3, 3].tolist(), d)]
        return jtp, joint.child_to_joint_transform
    jtp = np.linalg.inv(parent_pose) @ X @ parent_pose @ old
    return jtp, joint.child_to_joint_transform


def tidy_motion(d: np.ndarray) -> list[float]:
    """A motion vector to :data:`EDIT_DIGITS` significant digits of its largest component: what
    lies below is rounding noise of the matrix products (-0.1 along z arrives as
    (1e-18, -2e-17, -0.09999999999999998))."""
    scale = float(np.abs(d).max())
    if scale == 0.0 or not math.isfinite(scale):
        return [float(v) for v in d]
    places = EDIT_DIGITS - 1 - math.floor(math.log10(scale))
    return [float(round(Decimal(repr(float(v))), places)) + 0.0 for v in d]  # + 0.0: no -0.0


class FrameHandle(IkHandle):
    """Arrows (``mode`` "move") or rings ("rotate") on the selected body's frame."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.local = True  # the body's own axes; False: its parent's
        self.step = 0.01  # m: the grid step a move snaps to
        self.cursor = (0.0, 0.0)  # the last mouse position of a drag: typed text is shown there
        self._last: dict | None = None  # the drag just ended: a number typed next amends it
        self.typed = TypedAmount(self)
        self.readout = CursorText(view)
        view.doc.selectionChanged.connect(self._forget_last)  # another action: typing no longer amends

    def _forget_last(self, *_args) -> None:
        self._last = None

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
        self.size = self._screen_size()
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
        self._last = None  # a new gesture: typing no longer amends the previous drag
        if not super().press(x, y):
            return False
        doc = self.view.doc
        self._grab["tree"] = doc.tree  # put back by Esc
        parent = doc.tree.parent_name(self.body)
        self._grab["parent_pose"] = (np.eye(4) if parent == doc.tree.base_name
                                     else doc.poses()[doc.tree.body_names.index(parent)])
        self._grab["poses"] = doc.poses()
        self._grab["shown"] = ""
        return True

    def _snap(self, value: float, step: float) -> float:
        return value if self._grab.get("free") or step <= 0 else round(value / step) * step

    def _snap_length(self, distance: float) -> float:
        d = self._snap(distance, self.step)
        if d != distance:  # a whole number of steps, in decimal: 57 × 0.01 is 0.57, not 0.5700000000000001
            d = float(round(distance / self.step) * Decimal(repr(float(self.step))))
        self._grab["shown"] = f"{signed_text(d * 1000, 1)} mm"
        return d

    def _snap_angle(self, angle: float) -> float:
        a = self._snap(angle, ANGLE_STEP)
        self._grab["shown"] = f"{signed_text(math.degrees(a), 1)}°"
        return a

    def move(self, x: float, y: float, free: bool = False) -> None:
        """Drag to (x, y); ``free`` (Ctrl held): no snapping."""
        self.cursor = (x, y)
        if self._grab is None or self.typed.text:  # a typed amount rules over the mouse
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
        self.show_tip(g["shown"])

    def show_tip(self, text: str) -> None:
        """``text`` beside the cursor (the dragged amount, or the number being typed)."""
        if text:
            x, y = self.cursor
            self.readout.show_text(text, x + 16, y + 16)

    # --- an exact amount, typed during or right after a drag -----------------------------------
    def amount_kind(self, g: dict) -> str | None:
        """What the drag ``g`` moves by: "length", "angle" or None (no single amount)."""
        return {"axis": "length", "ring": "angle"}.get(g["kind"])

    def typing_target(self) -> dict | None:
        """The drag a typed number sets: the one under way, else the one just ended if nothing
        happened since (the document is as it left it)."""
        if self._grab is not None:
            return self._grab if self.amount_kind(self._grab) else None
        last, doc = self._last, self.view.doc
        if last is None or not self.active or doc.tree is not last.get("after") \
                or doc.undo_stack.index() != last.get("index"):
            self._last = None
            return None
        return last

    def set_amount(self, g: dict, amount: float) -> None:
        """Redo the drag ``g`` from its start by exactly ``amount`` (m or rad), in its undo step."""
        ongoing = g is self._grab
        self._grab = g
        try:
            self._set_amount(amount)
        finally:
            if not ongoing:
                self.view.preview.finish()
                self._grab = None
                g["after"], g["index"] = self.view.doc.tree, self.view.doc.undo_stack.index()
                self.refresh()

    def _set_amount(self, amount: float) -> None:
        g = self._grab
        T = g["start"].copy()
        a = T[:3, g["axis"]]
        if g["kind"] == "axis":
            T[:3, 3] += amount * a
        else:
            T[:3, :3] = axis_angle_rotation(a, amount) @ T[:3, :3]
        self.pose = T
        self._apply(T @ np.linalg.inv(g["start"]))
        self._draw()

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
        self.preview(X, (f"{verb} frame of {body}", change, self.touched(body), g["drag"]))

    def preview(self, X: np.ndarray, edit: tuple) -> None:
        """Draw the body and its subtree moved by the world motion ``X`` now; the document gets
        ``edit`` (text, change, only, drag) soon, and at the latest when the drag ends."""
        self.view.preview.show(self.body, self._grab["poses"], X, edit)

    def touched(self, body: str) -> tuple[str, str]:
        """What moving ``body``'s joint can change: it, and its parent (a link drawn to it)."""
        return body, self.view.doc.tree.parent_name(body)

    def cancel(self) -> bool:
        """Esc during a drag: the frame goes back; True if a drag was cancelled."""
        g = self._grab
        if g is None:
            return False
        original = g["tree"]
        self.view.preview.drop()
        if self.view.doc.tree is not original:
            self.view.doc.edit("Cancel", lambda _tree: original, drag=g["drag"])
        self._grab = None
        self.typed.clear()
        self.readout.hide_text()
        self.refresh()
        return True

    def release(self) -> None:
        if self._grab is not None:
            g = self._grab
            if not self.typed.text:
                self.readout.hide_text()
            self.view.preview.finish()
            self._grab = None
            g["after"], g["index"] = self.view.doc.tree, self.view.doc.undo_stack.index()
            self._last = g if self.amount_kind(g) else None
            self.refresh()
