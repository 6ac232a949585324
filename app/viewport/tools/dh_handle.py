"""The W/E handles' own parts for what a plain frame drag cannot say: the four DH motions of a
DH-defined body, and the joint axis.

A DH-defined body (its joint has a DH row) offers exactly its four DH motions instead of the
frame's arrows and rings, each drawn on the screw line it moves along or about, in the DH
overlay's colours: standard DH, d along and θ about z_{i−1} (at the joint's frame, the
previous DH frame), a along and α about x_i (at the body's frame); modified DH (Craig), a along
and α about x_{i−1} (at the parent's frame), d along and θ about z_i (at the body's). W shows
the arrows (d, a), E the rings (θ, α). A drag edits that DH cell (the variable's own cell, θ of
a revolute joint or d of a prismatic one, edits its offset), snapped as a frame drag is; the
DH table and overlay follow the document. Every other body with a revolute or prismatic joint
shows its joint axis as a long orange arrow: dragging its tip re-orients the axis, snapped to
±x/±y/±z of the body frame as it is at the joint's zero (Ctrl: free).
"""

from __future__ import annotations

import math
import operator

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.library.visuals import derived_look
from kinetree.core.model.joint import AXIAL_TYPES

from ...model.numbers import decimal_sum, signed_text
from ...widgets.dh_colors import rgba
from ..gl_programs import ON_TOP
from ..labels import project_points, view_mvp
from ..lines import DotsItem, LineItem
from .drag_preview import screw_motion
from .ik_handle import PICK_PX, RING_SEGMENTS, _segment_distance, mouse_ray
from .visual_handle import VisualFrameHandle

#: The DH row's cells a drag edits, in DHRow's order (a, alpha, d, theta).
CELLS = ("a", "alpha", "d", "theta")
SYMBOL = {"a": "a", "alpha": "α", "d": "d", "theta": "θ"}
AXIS_RGBA = (1.0, 0.6, 0.1, 0.9)  # the joint axes' orange
#: The joint axis arrow is this many handle sizes long; its outer part is the tip to drag.
AXIS_LENGTH, TIP_FROM = 1.6, 1.2


def _line_parameter(o: np.ndarray, u: np.ndarray, ro: np.ndarray, rd: np.ndarray) -> float | None:
    """Where the mouse ray (ro, rd) passes nearest the line o + t·u: t (None: parallel)."""
    b, w0 = float(u @ rd), o - ro
    denom = 1.0 - b * b
    if denom < 1e-6:
        return None
    return float((b * (rd @ w0) - (u @ w0)) / denom)


def _plane_hit(o: np.ndarray, n: np.ndarray, ro: np.ndarray, rd: np.ndarray) -> np.ndarray | None:
    den = float(rd @ n)
    if abs(den) < 1e-6:
        return None
    return ro + float((o - ro) @ n) / den * rd


class DhFrameHandle(VisualFrameHandle):
    """The frame handle, with DH motions for DH-defined bodies and the joint axis arrow."""

    def __init__(self, view) -> None:
        super().__init__(view)
        self.parts: dict[str, tuple[str, np.ndarray, np.ndarray]] = {}  # DH cell → (kind, origin, direction)
        self.axis_part: tuple[np.ndarray, np.ndarray] | None = None  # joint axis: origin, world direction
        self.dh_lines = LineItem(mode="lines", width=4, antialias=True)
        self.dh_tips = DotsItem(size=12, pxMode=True)
        for item in (self.dh_lines, self.dh_tips):
            item.setGLOptions(ON_TOP)
            item.setDepthValue(9)
            view.addItem(item)

    # --- what is shown -----------------------------------------------------------------------
    def items(self) -> tuple:
        return (*super().items(), self.dh_lines, self.dh_tips)

    def refresh(self) -> None:
        super().refresh()
        if self._grab is None:
            self._find_parts()
        self._draw()

    def _find_parts(self) -> None:
        self.parts, self.axis_part = {}, None
        if self.body is None or self.visual is not None:  # a visual: its own handle, no DH motions
            return
        tree, poses = self.view.doc.tree, self.view.doc.poses()
        joint = tree.get_body(self.body).joint
        parent = tree.parent_name(self.body)
        parent_pose = np.eye(4) if parent == tree.base_name else poses[tree.body_names.index(parent)]
        body_pose = poses[tree.body_names.index(self.body)]
        J = parent_pose @ joint.joint_to_parent_transform  # the joint's frame, before its motion
        row = joint.dh_parameters
        if row is None:
            if joint.type in AXIAL_TYPES:
                moved = body_pose @ np.linalg.inv(joint.child_to_joint_transform)
                self.axis_part = (moved[:3, 3], J[:3, :3] @ joint.axis)
            return
        axis = J[:3, :3] @ joint.axis  # ±z: a flipped row turns the other way
        variable = self.variable_cell(joint)
        if row.convention == "dh":
            z_o, z, x_o, x = J[:3, 3], J[:3, 2], body_pose[:3, 3], body_pose[:3, 0]
        else:
            x_o, x, z_o, z = parent_pose[:3, 3], parent_pose[:3, 0], body_pose[:3, 3], body_pose[:3, 2]
        self.parts = {"d": ("axis", z_o, axis if variable == "d" else z),
                      "theta": ("ring", z_o, axis if variable == "theta" else z),
                      "a": ("axis", x_o, x), "alpha": ("ring", x_o, x)}

    @staticmethod
    def variable_cell(joint) -> str | None:
        return {"revolute": "theta", "prismatic": "d"}.get(joint.type)

    def _shown_parts(self) -> list[tuple[str, str, np.ndarray, np.ndarray]]:
        want = "axis" if self.mode == "move" else "ring"
        return [(name, kind, o, u) for name, (kind, o, u) in self.parts.items() if kind == want]

    def _circle(self, o: np.ndarray, u: np.ndarray) -> np.ndarray:
        a = np.cross(u, [1.0, 0, 0] if abs(u[0]) < 0.9 else [0, 1.0, 0])
        a /= np.linalg.norm(a)
        b = np.cross(u, a)
        t = np.linspace(0, 2 * np.pi, RING_SEGMENTS + 1)
        return o + 0.8 * self.size * (np.outer(np.cos(t), a) + np.outer(np.sin(t), b))

    def _draw(self) -> None:
        super()._draw()
        if not hasattr(self, "dh_lines"):
            return  # the base class draws once before this part exists
        dh = bool(self.parts) and self.body is not None
        if dh:  # the DH motions replace the frame's arrows and rings
            for item in (self.arrows, self.rings, self.centre):
                item.setVisible(False)
        segs, cols, tips, tip_cols = [], [], [], []
        for name, kind, o, u in (self._shown_parts() if dh else []):
            if kind == "axis":
                segs.append(np.array([o, o + self.size * u]))
                cols.append(np.tile(rgba(name), (2, 1)))
                tips.append(o + self.size * u)
                tip_cols.append(rgba(name))
            else:
                ring = self._circle(o, u)
                segs.append(np.stack([ring[:-1], ring[1:]], axis=1).reshape(-1, 3))
                cols.append(np.tile(rgba(name), (2 * RING_SEGMENTS, 1)))
        if self.axis_part is not None and self.body is not None and self.active:
            o, u = self.axis_part
            segs.append(np.array([o, o + AXIS_LENGTH * self.size * u]))
            cols.append(np.tile(AXIS_RGBA, (2, 1)))
            tips.append(o + AXIS_LENGTH * self.size * u)
            tip_cols.append(AXIS_RGBA)
        self.dh_lines.setVisible(bool(segs))
        self.dh_tips.setVisible(bool(tips))
        if segs:
            self.dh_lines.setData(pos=np.vstack(segs), color=np.vstack(cols))
        if tips:
            self.dh_tips.setData(pos=np.array(tips), color=np.array(tip_cols))

    # --- picking -----------------------------------------------------------------------------
    def pick(self, x: float, y: float):
        """("dh", cell), ("tip", -1) (the joint axis), else a frame part (not on a DH body)."""
        if self.body is None or not self.active:
            return None
        p = np.array([x, y], dtype=float)
        mvp, w, h = view_mvp(self.view), self.view.width(), self.view.height()
        if self.axis_part is not None:
            o, u = self.axis_part
            px, front = project_points(mvp, np.array([o + TIP_FROM * self.size * u,
                                                      o + AXIS_LENGTH * self.size * u]), w, h)
            if front.all() and _segment_distance(p, px[0], px[1]) <= PICK_PX:
                return ("tip", -1)
        if not self.parts:
            return super().pick(x, y)
        best = None
        for name, kind, o, u in self._shown_parts():
            pts = np.array([o, o + self.size * u]) if kind == "axis" else self._circle(o, u)
            px, front = project_points(mvp, pts, w, h)
            if not front.all():
                continue
            d = min(_segment_distance(p, px[i], px[i + 1]) for i in range(len(px) - 1))
            if d <= PICK_PX and (best is None or d < best[0]):
                best = (d, ("dh", name))
        return None if best is None else best[1]

    # --- dragging ----------------------------------------------------------------------------
    def press(self, x: float, y: float) -> bool:
        if not self.active:
            return False
        part = self.pick(x, y)
        if part is None or part[0] not in ("dh", "tip"):
            return super().press(x, y)
        self._last = None
        doc = self.view.doc
        ro, rd = mouse_ray(self.view, x, y)
        g = {"kind": part[0], "axis": None, "start": self.pose.copy(), "drag": doc.begin_drag(),
             "tree": doc.tree, "poses": doc.poses(), "shown": "", "free": False}
        if part[0] == "dh":
            kind, o, u = self.parts[part[1]]
            joint = doc.tree.get_body(self.body).joint
            g.update(cell=part[1], line=kind, o=o, u=u, row=joint.dh_parameters, offset=joint.offset,
                     variable=self.variable_cell(joint), joint_axis=joint.axis,
                     refit=derived_look(doc.tree))  # found once: each commit redraws in it
        else:
            o, u = self.axis_part
            tree, poses = doc.tree, doc.poses()
            joint = tree.get_body(self.body).joint
            parent = tree.parent_name(self.body)
            parent_pose = np.eye(4) if parent == tree.base_name else poses[tree.body_names.index(parent)]
            forward = mouse_ray(self.view, self.view.width() / 2, self.view.height() / 2)[1]
            R = (parent_pose @ joint.joint_to_parent_transform)[:3, :3]
            # snapped to the body's axes where the joint is at zero: clean numbers in the joint's
            # frame (x, y or z itself when the body sits on its joint frame, as URDF bodies do)
            g.update(o=o, u=u, normal=forward, joint_rotation=R,
                     body_rotation=R @ joint.child_to_joint_transform[:3, :3])
        self._grab = g
        g["hit"] = self._part_hit(ro, rd)
        return True

    def _part_hit(self, ro: np.ndarray, rd: np.ndarray):
        g = self._grab
        if g["kind"] == "tip":
            return _plane_hit(g["o"] + AXIS_LENGTH * self.size * g["u"], g["normal"], ro, rd)
        if g["line"] == "axis":
            return _line_parameter(g["o"], g["u"], ro, rd)
        return _plane_hit(g["o"], g["u"], ro, rd)

    def amount_kind(self, g: dict) -> str | None:
        if g["kind"] == "dh":
            return "length" if g["line"] == "axis" else "angle"
        return None if g["kind"] == "tip" else super().amount_kind(g)

    def move(self, x: float, y: float, free: bool = False) -> None:
        g = self._grab
        if g is None or g["kind"] not in ("dh", "tip"):
            super().move(x, y, free)
            return
        self.cursor = (x, y)
        if self.typed.text:
            return
        g["free"] = free
        hit = self._part_hit(*mouse_ray(self.view, x, y))
        if hit is None or g["hit"] is None:
            return
        if g["kind"] == "tip":
            self._turn_axis(hit)
        elif g["line"] == "axis":
            self._set_amount(self._snap_length(hit - g["hit"]))
        else:
            u, v, n = g["hit"] - g["o"], hit - g["o"], g["u"]
            self._set_amount(self._snap_angle(math.atan2(float(np.cross(u, v) @ n), float(u @ v))))
        self.show_tip(g["shown"])

    def _set_amount(self, amount: float) -> None:
        g = self._grab
        if g["kind"] != "dh":
            super()._set_amount(amount)
            return
        body, cell, row = self.body, g["cell"], g["row"]
        quantity = (f"{signed_text(amount * 1000, 1)} mm" if g["line"] == "axis"
                    else f"{signed_text(math.degrees(amount), 1)}°")
        g["shown"] = f"{SYMBOL[cell]} {quantity}" + (" (offset)" if cell == g["variable"] else "")

        def change(tree):
            joint = tree.get_body(body).joint
            add = decimal_sum if g["line"] == "axis" else operator.add  # lengths as typed: 0.4-0.1 is 0.3
            if cell == g["variable"]:  # the joint's variable: its offset moves the link
                joint.offset = add(float(g["offset"]), amount)
            else:
                values = row.as_list()
                k = CELLS.index(cell)
                values[k] = add(float(values[k]), amount)
                joint.set_fixed_transform(values, row.convention)
                joint.axis = g["joint_axis"]  # a flipped row stays flipped
            if g["refit"] is not None:  # a library robot's drawn links follow, as in the DH table
                g["refit"].apply(tree)
            return body

        # each DH motion moves the body and its subtree rigidly along or about the line drawn;
        # redrawn links may be on any body: then the whole tree is diffed
        only = None if g["refit"] is not None else self.touched(body)
        self.preview(screw_motion(g["o"], g["u"], g["line"], amount),
                     (f"Drag DH {SYMBOL[cell]} of {body}", change, only, g["drag"]))

    def _edit(self, text: str, change, only=None) -> None:
        try:
            self.view.doc.edit(text, change, drag=self._grab["drag"], only=only)
        except KineTreeError as exc:  # beyond the largest length, say: the last good value stays
            self.view.doc.message.emit(str(exc))

    def _turn_axis(self, hit: np.ndarray) -> None:
        g = self._grab
        w = AXIS_LENGTH * self.size * g["u"] + hit - g["hit"]  # the tip follows the cursor
        if np.linalg.norm(w) < 1e-9:
            return
        w = w / np.linalg.norm(w)
        if g["free"]:
            g["shown"] = "axis " + " ".join(signed_text(v, 3) for v in g["body_rotation"].T @ w)
        else:  # the nearest of ±x, ±y, ±z of the body frame
            local = g["body_rotation"].T @ w
            k = int(np.argmax(np.abs(local)))
            sign = 1.0 if local[k] > 0 else -1.0
            w = sign * g["body_rotation"][:, k]
            g["shown"] = f"axis {'+' if sign > 0 else '−'}{'xyz'[k]}"
        axis = g["joint_rotation"].T @ w
        body = self.body
        joint = self.view.doc.tree.get_body(body).joint
        if np.allclose(joint.axis, axis, atol=1e-12):
            return  # no change, no edit

        def change(tree):
            tree.get_body(body).joint.axis = axis
            return body

        self._edit(f"Turn the axis of {joint.name}", change, self.touched(body))
        self.axis_part = (g["o"], w)
        self._draw()
