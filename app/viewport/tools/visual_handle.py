"""The move (W) and rotate (E) handles on a visual: when a visual of the selected body is
selected (in the Joint panel's visuals list: the document's ``selected_visual``), the arrows
move it, the rings turn it and the squares beyond the arrows' tips scale it along that axis
(W, Local axes), in the body's frame; the joint is untouched. Snapping, Ctrl, the amount beside
the cursor, a typed amount, one undo step per drag and Esc work as for a frame.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from kinetree.core import KineTreeError

from ...model.numbers import fixed_text
from ..gl_programs import ON_TOP
from ..labels import project_points, view_mvp
from ..lines import DotsItem
from .frame_handle import FrameHandle
from .ik_handle import AXIS_RGBA, PICK_PX, IkHandle, mouse_ray

#: The scale squares sit this many handle sizes from the origin (beyond the arrows' tips).
SCALE_AT = 1.2
#: A scale drag snaps to this factor step (Ctrl: free).
SCALE_STEP = 0.05


def scaled(visual, axis: int, factor: float):
    """``visual`` scaled by ``factor`` along its own ``axis`` (a sphere and a cylinder's radius:
    round, so along any axis but a cylinder's z)."""
    size = list(visual.size)
    if visual.kind in ("box", "mesh"):
        size[axis] *= factor
    elif visual.kind == "cylinder":
        size[1 if axis == 2 else 0] *= factor
    else:
        size[0] *= factor
    return replace(visual, size=tuple(size), name="")


class VisualFrameHandle(FrameHandle):
    """The frame handle, acting on the selected visual when there is one."""

    def __init__(self, view) -> None:
        super().__init__(view)

        self.scale_tips = DotsItem(size=13, pxMode=True)
        self.scale_tips.setGLOptions(ON_TOP)
        self.scale_tips.setDepthValue(9)
        view.addItem(self.scale_tips)
        view.doc.visualSelectionChanged.connect(self._visual_selected)

    def items(self) -> tuple:
        return (*super().items(), self.scale_tips)

    def _visual_selected(self, _index) -> None:
        if self._grab is not None:
            self.cancel()
        self.refresh()

    @property
    def visual(self) -> int | None:
        """The index of the visual the handle acts on (None: the body's frame)."""
        return self.view.doc.selected_visual if self.active else None

    def target_body(self) -> str | None:
        if self.visual is not None:
            return self.view.doc.selection  # the base's visuals too
        return super().target_body()

    def _body_pose(self, body: str) -> np.ndarray:
        tree = self.view.doc.tree
        return np.eye(4) if body == tree.base_name else self.view.doc.poses()[tree.body_names.index(body)]

    def refresh(self) -> None:
        if self._grab is not None or self.visual is None:
            super().refresh()
            return
        self.body = self.target_body()
        B = self._body_pose(self.body)
        self.pose = B @ self.view.doc.tree.get_body(self.body).visuals[self.visual].matrix
        if not self.local:  # the body's axes, at the visual's origin
            self.pose[:3, :3] = B[:3, :3]
        self.size = self._screen_size()
        self._draw()

    def _tips(self) -> np.ndarray:
        return self.pose[:3, 3] + SCALE_AT * self.size * self.pose[:3, :3].T

    def _draw(self) -> None:
        super()._draw()
        if not hasattr(self, "scale_tips"):
            return  # the base class draws once before this part exists
        shown = self.body is not None and self.visual is not None and self.mode == "move" and self.local
        self.scale_tips.setVisible(shown)
        if shown:
            self.scale_tips.setData(pos=self._tips(), color=np.array(AXIS_RGBA))

    def pick(self, x: float, y: float):
        if self.visual is not None and self.scale_tips.visible():
            px, front = project_points(view_mvp(self.view), self._tips(), self.view.width(), self.view.height())
            d = np.linalg.norm(px - np.array([x, y]), axis=1)
            k = int(np.argmin(d))
            if front[k] and d[k] <= PICK_PX:
                return ("scale", k)
        return super().pick(x, y)

    def press(self, x: float, y: float) -> bool:
        if self.visual is None:
            return super().press(x, y)
        self._last = None  # a new gesture: typing no longer amends the previous drag
        if not IkHandle.press(self, x, y):
            return False
        g, tree = self._grab, self.view.doc.tree
        g.update(tree=tree, shown="", visual=self.visual, body_pose=self._body_pose(self.body),
                 shape=tree.get_body(self.body).visuals[self.visual])
        return True

    def move(self, x: float, y: float, free: bool = False) -> None:
        g = self._grab
        if g is None or g["kind"] != "scale":
            super().move(x, y, free)
            return
        self.cursor = (x, y)
        hit = self._hit(*mouse_ray(self.view, x, y))
        if hit is None or g["hit"] is None:
            return
        factor = 1.0 + (hit - g["hit"]) / (SCALE_AT * self.size)
        if not free:
            factor = round(factor / SCALE_STEP) * SCALE_STEP
        factor = max(factor, SCALE_STEP)
        g["shown"] = f"× {fixed_text(factor, 2 if not free else 3)}"
        self._edit_visual("Scale", scaled(g["shape"], g["axis"], factor))
        self.show_tip(g["shown"])

    def _apply(self, X: np.ndarray) -> None:
        g = self._grab
        if "visual" not in g:
            super()._apply(X)
            return
        B = g["body_pose"]
        V = np.linalg.inv(B) @ X @ B @ g["shape"].matrix
        verb = "Move" if self.mode == "move" else "Turn"
        try:
            shape = replace(g["shape"], pose=V, name="")
        except KineTreeError as exc:  # beyond the largest length: the last good pose stays
            self.view.doc.message.emit(str(exc))
            return
        self._edit_visual(verb, shape)

    def _edit_visual(self, verb: str, shape) -> None:
        g, body = self._grab, self.body
        i = g["visual"]

        def change(tree):
            b = tree.get_body(body)
            shapes = list(b.visuals)
            shapes[i] = shape
            b.visuals = shapes
            return body

        try:
            self.view.doc.edit(f"{verb} {shape.kind} {i + 1} of {body}", change, drag=g["drag"], only=(body,))
        except KineTreeError as exc:
            self.view.doc.message.emit(str(exc))

    def amount_kind(self, g: dict) -> str | None:
        return None if g["kind"] == "scale" else super().amount_kind(g)
