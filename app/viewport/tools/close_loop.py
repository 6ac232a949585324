"""Closed loops in the viewport: the Close loop tool (O) and the loops drawn.

The tool: click a frame (or a surface point) on one body, then on another; a small dialog
chooses the constraint kind and which joints of the loop's path become passive (proposed: as
many as leave the mechanism its degrees of freedom, the joint nearest the base kept driven),
and OK closes the loop as one undo step (:meth:`RobotDocument.close_loop`). The loop frames sit
at the picked world points, turned alike: two picks of one point close at the current
configuration; two points apart are pulled together by the passive joints, or refused with the
reason. Esc cancels. A refusal (one body twice, a loop that locks the mechanism or over-
constrains it) is said on the status bar and changes nothing.

Every loop is drawn as a dashed closure: from each of its two bodies' frames to its loop frame,
with a dot where the loop joins (grey, visible on both themes), updated on every move.
"""

from __future__ import annotations

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.kinematics.loop_closing import loop_frames, loop_path, propose_passive
from kinetree.core.kinematics.loops import LOOP_KINDS
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout

from ...model.text import MAX_NAME, elide
from ..gl_programs import ON_TOP
from ..lines import DotsItem, LineItem
from .measure import Mark, pick_mark

#: The closure's colour per theme: light grey on the dark view, dark grey on the light one.
LOOP_RGBA = {"dark": (0.85, 0.85, 0.85, 1.0), "light": (0.35, 0.35, 0.38, 1.0)}
PICK_RGBA = (0.2, 0.9, 1.0, 1.0)
DASHES = 12  # dashes per closure segment
KIND_TEXT = {"hinge": "hinge (planar mechanisms)", "ball": "ball", "slider": "slider", "weld": "weld"}


def dashed(starts: np.ndarray, ends: np.ndarray, dashes: int = DASHES) -> np.ndarray:
    """Line-pair vertices of dashed segments from ``starts`` to ``ends`` (n, 3): ``dashes`` dashes each."""
    k = np.arange(dashes)
    t = np.stack([2 * k, 2 * k + 1], axis=1) / (2 * dashes)  # on, off, on …: each dash a line pair
    d = ends - starts
    return (starts[:, None, None, :] + t[None, :, :, None] * d[:, None, None, :]).reshape(-1, 3)


def dashed_ring(F: np.ndarray, radius: float, dashes: int = DASHES) -> np.ndarray:
    """Line-pair vertices of a dashed circle of ``radius`` about the z axis of the 4×4 frame ``F``."""
    a = np.arange(2 * dashes) * np.pi / dashes
    pts = F[:3, 3] + radius * (np.cos(a)[:, None] * F[:3, 0] + np.sin(a)[:, None] * F[:3, 1])
    return pts  # consecutive pairs: dash, gap, dash …


class LoopsDrawing:
    """The dashed closures of the document's loops (nothing drawn for a tree without loops)."""

    def __init__(self, view) -> None:
        self.view = view
        self.lines = LineItem(mode="lines", width=3, antialias=True, color=LOOP_RGBA["dark"])
        self.dots = DotsItem(size=11, pxMode=True, color=LOOP_RGBA["dark"])
        for item in (self.lines, self.dots):
            item.setGLOptions(ON_TOP)
            item.setDepthValue(11)
            item.setVisible(False)
            view.addItem(item)
        self._key = None
        self._records: list[tuple[int, np.ndarray, int, np.ndarray]] = []

    def update(self, poses: np.ndarray) -> None:
        """Draw the loops at ``poses`` (the bodies' world poses, in tree order)."""
        tree = self.view.doc.tree
        if not tree.loops or len(poses) != tree.num_bodies:
            if self.lines.visible():
                self.lines.setVisible(False)
                self.dots.setVisible(False)
            return
        key = (tree, tree.revision)
        if key != self._key:  # the loops' bodies and frames: once per tree version, not per frame
            self._key = key
            self._records = [(tree.index_of(lp.body_a), lp.frame_a, tree.index_of(lp.body_b), lp.frame_b)
                             for lp in tree.loops]
        P = np.concatenate([np.eye(4)[None], poses])  # index -1 (the base) → slot 0
        ends, starts, rings = [], [], []
        for ia, xa, ib, xb in self._records:
            for i, x in ((ia, xa), (ib, xb)):
                T = P[i + 1]
                starts.append(T[:3, 3])
                ends.append((T @ x)[:3, 3])
            rings.append(P[ia + 1] @ xa)
        starts, ends = np.array(starts), np.array(ends)
        color = LOOP_RGBA.get(self.view.theme, LOOP_RGBA["dark"])
        # a dashed ring about each loop frame's z (a hinge's axis): seen also where the two frames
        # meet their bodies' origins (the dashed lines from those origins then have no length)
        r = 0.6 * self.view._scale
        self.lines.setData(pos=np.vstack([dashed(starts, ends), *(dashed_ring(F, r) for F in rings)]), color=color)
        self.dots.setData(pos=ends, color=color)
        self.lines.setVisible(True)
        self.dots.setVisible(True)


class CloseLoopDialog(QDialog):
    """Kind and passive joints of a loop between two picked points; OK closes it."""

    def __init__(self, tool: CloseLoopTool, a: Mark, b: Mark) -> None:
        super().__init__(tool.view.window())
        self.setObjectName("closeLoopDialog")
        self.setWindowTitle("Close loop")
        self.tool, self.a, self.b = tool, a, b
        doc = tool.view.doc
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel(f"Close a loop from {elide(a.text, MAX_NAME)} to {elide(b.text, MAX_NAME)}"))
        form = QFormLayout()
        self.kind = QComboBox()
        self.kind.setObjectName("loopKind")
        for kind in LOOP_KINDS:
            self.kind.addItem(KIND_TEXT[kind], kind)
        self.kind.setCurrentIndex(self.kind.findData("hinge"))
        self.kind.currentIndexChanged.connect(lambda _i: self.propose())
        form.addRow("Kind", self.kind)
        self.passive: dict[str, QCheckBox] = {}
        tree = doc.tree
        for body in loop_path(tree, a.body, b.body):
            joint = tree.get_body(body).joint
            if joint.position_count:
                box = QCheckBox(f"{joint.name} passive")
                box.setObjectName(f"passive_{joint.name}")
                box.setToolTip("passive: the loop sets it; else its slider drives it")
                box.toggled.connect(lambda _on: self._check())
                self.passive[joint.name] = box
                form.addRow("", box)
        lay.addLayout(form)
        self.note = QLabel()
        self.note.setObjectName("closeLoopNote")
        self.note.setWordWrap(True)
        lay.addWidget(self.note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.propose()

    def chosen(self) -> tuple[str, list[str]]:
        return self.kind.currentData(), [j for j, box in self.passive.items() if box.isChecked()]

    def propose(self) -> None:
        """The passive joints that leave the mechanism as many driven joints as degrees of freedom."""
        try:
            mobility = self.tool.mobility(self.a, self.b, self.kind.currentData())
            passive = propose_passive(self.tool.view.doc.tree, self.a.body, self.b.body, mobility)
        except KineTreeError as exc:
            passive, self.mobility = [], None
            self._say(str(exc), ok=False)
        else:
            self.mobility = mobility
        for joint, box in self.passive.items():
            box.blockSignals(True)
            box.setChecked(joint in passive)
            box.blockSignals(False)
        if self.mobility is not None:
            self._check()

    def _check(self) -> None:
        if self.mobility is None:
            return
        self._say(f"The closed mechanism has {self.mobility} degree{'s' if self.mobility != 1 else ''} of "
                  "freedom: as many joints stay driven (sliders); the passive ones follow the loop.")

    def _say(self, text: str, ok: bool = True) -> None:
        self.note.setText(text)
        self.note.setStyleSheet("" if ok else "color: #e05050")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)


class CloseLoopTool:
    """Two picks, then :class:`CloseLoopDialog`; the marks and the pending closure drawn on top."""

    def __init__(self, view) -> None:
        self.view = view
        self.marks: list[Mark] = []
        self.dialog: CloseLoopDialog | None = None
        self.dots = DotsItem(size=13, pxMode=True, color=PICK_RGBA)
        self.line = LineItem(mode="lines", width=2, antialias=True, color=PICK_RGBA)
        for item in (self.dots, self.line):
            item.setGLOptions(ON_TOP)
            item.setDepthValue(12)
            item.setVisible(False)
            view.addItem(item)

    def click(self, x: float, y: float) -> Mark | None:
        """Pick the frame (or else the surface point) under (x, y); the second pick on another
        body opens the dialog."""
        if self.dialog is not None:
            return None
        mark = pick_mark(self.view, x, y, self.marks[0].body if self.marks else None)
        if mark is None:
            return None
        say = self.view.doc.message.emit
        if self.marks and mark.body == self.marks[0].body:
            say(f"Close loop: both points are on body {mark.body!r}; a loop joins two different bodies: "
                "click a point on another body (Esc cancels)")
            return None
        self.marks.append(mark)
        self._draw()
        if len(self.marks) == 1:
            say(f"Close loop: {mark.text} picked; now click a point on another body (Esc cancels)")
            return mark
        self.dialog = CloseLoopDialog(self, *self.marks)
        self.dialog.finished.connect(self._finished)
        self.dialog.open()
        return mark

    def frames(self, a: Mark, b: Mark, kind: str) -> tuple[np.ndarray, np.ndarray]:
        """The loop frames at the two picks: z along body b's (else a's) joint axis for a hinge or a
        slider, so a planar mechanism's closing hinge turns as its joints do."""
        doc = self.view.doc
        tree = doc.tree
        axis = None
        if kind in ("hinge", "slider"):
            for m in (b, a):
                j = tree.get_body(m.body).joint if m.body != tree.base_name else None
                if j is not None and j.type in ("revolute", "prismatic"):
                    axis = doc.pose_of(m.body)[:3, :3] @ j.axis
                    break
        return loop_frames(doc.pose_of(a.body), a.point, doc.pose_of(b.body), b.point, axis)

    def mobility(self, a: Mark, b: Mark, kind: str) -> int:
        """Degrees of freedom of the mechanism with this loop closed."""
        tree = self.view.doc.tree.copy()
        xa, xb = self.frames(a, b, kind)
        tree.add_loop(self.loop_name(), a.body, xa, b.body, xb, kind)
        return tree.mobility()

    def loop_name(self) -> str:
        taken = {lp.name for lp in self.view.doc.tree.loops}
        return next(f"loop{i}" for i in range(1, len(taken) + 2) if f"loop{i}" not in taken)

    def _finished(self, result: int) -> None:
        dialog, self.dialog = self.dialog, None
        marks = self.marks
        self.clear()
        if result != QDialog.DialogCode.Accepted or len(marks) != 2:
            return
        a, b = marks
        kind, passive = dialog.chosen()
        doc = self.view.doc
        name = self.loop_name()
        try:
            xa, xb = self.frames(a, b, kind)
            doc.close_loop(name, a.body, xa, b.body, xb, kind, passive)
        except KineTreeError as exc:
            doc.message.emit(f"Close loop: {exc}")
            return
        doc.message.emit(f"Closed {name} ({kind}) between {a.body!r} and {b.body!r}"
                         + (f"; passive: {', '.join(passive)}" if passive else ""))
        self.view.set_tool("pose")  # ready to drive it

    def clear(self) -> bool:
        """Esc: forget the picks (and close the dialog); True if there were any."""
        had = bool(self.marks)
        if self.dialog is not None:
            self.dialog.reject()
        self.marks = []
        self._draw()
        return had

    def set_active(self, on: bool) -> None:
        if not on:
            self.clear()
        elif not self.marks:
            self.view.doc.message.emit("Close loop: click a frame or a point on a body, then on another (Esc cancels)")

    def _draw(self) -> None:
        pts = np.array([m.point for m in self.marks]).reshape(-1, 3)
        self.dots.setVisible(len(pts) > 0)
        if len(pts):
            self.dots.setData(pos=pts)
        self.line.setVisible(len(pts) == 2)
        if len(pts) == 2:
            self.line.setData(pos=dashed(pts[:1], pts[1:]))
        self.view.update()

