"""The Joint panel's "Visuals" and "Collisions" groups: the selected body's visuals (or its
collision shapes) as a list, with add, remove, kind, size, pose and (visuals only) colour
editors, each change one undo step."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from kinetree.core import KineTreeError, Visual
from kinetree.core.transforms import matrix_to_rpy, pose_from_xyz_rpy
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QColorDialog,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
)

from ..model.numbers import METRES, PLAIN, short_text
from ..model.text import plain_tip
from ..widgets.geometry_actions import add_mesh_dialog
from ..widgets.qt_utils import signals_blocked

if TYPE_CHECKING:
    from .joint import JointPanel

PRIMITIVES = ("box", "cylinder", "sphere")
DEFAULT_SIZES = {"box": (0.1, 0.1, 0.1), "cylinder": (0.05, 0.2), "sphere": (0.06,), "mesh": (1.0, 1.0, 1.0)}
SIZE_LABELS = {"box": "Size x y z (m)", "cylinder": "Radius length (m)", "sphere": "Radius (m)",
               "mesh": "Scale sx sy sz"}


def convert_size(kind: str, size: tuple[float, ...], new_kind: str) -> tuple[float, ...]:
    """A size for ``new_kind`` that roughly fills the same space as ``kind`` of ``size``."""
    if kind == "box":
        r, length = max(size[0], size[1]) / 2, size[2]
    elif kind == "cylinder":
        r, length = size
    elif kind == "sphere":
        r, length = size[0], 2 * size[0]
    else:
        return DEFAULT_SIZES[new_kind]
    if new_kind == "box":
        return (2 * r, 2 * r, length)
    if new_kind == "cylinder":
        return (r, length)
    if new_kind == "sphere":
        return (max(r, length / 2),)
    return DEFAULT_SIZES[new_kind]


def visual_label(index: int, v: Visual) -> str:
    return f"{v.kind} {index + 1}" + (f" — {v.name}" if v.name else "") + \
        (f" ({v.filename.replace(chr(92), '/').rsplit('/', 1)[-1]})" if v.filename else "")


def color_swatch(color: QColor) -> QIcon:
    pm = QPixmap(28, 14)
    pm.fill(color)
    return QIcon(pm)


#: The two modes: the body attribute edited, the word for one shape (field keys, undo texts).
MODES = {"visuals": "visual", "collisions": "collision"}
#: The colour RigidBody.add_collision gives (collision shapes do not use it).
COLLISION_COLOR = (0.7, 0.7, 0.75, 1.0)



def kept_channels(old: tuple[float, ...], initial: QColor, chosen: QColor) -> tuple[float, ...]:
    """The colour chosen in the dialog, keeping the stored float of every channel the user left
    as it was (a QColor holds 16 bits a channel: 0.55 comes back as 0.5500038…)."""
    a, b = initial.rgba64(), chosen.rgba64()
    pairs = ((a.red(), b.red(), chosen.redF()), (a.green(), b.green(), chosen.greenF()),
             (a.blue(), b.blue(), chosen.blueF()), (a.alpha(), b.alpha(), chosen.alphaF()))
    return tuple(float(o) if was == now else new for o, (was, now, new) in zip(old, pairs))

class VisualsEditor(QGroupBox):
    """Edits the visuals (``mode="visuals"``) or the collision shapes (``mode="collisions"``)
    of ``panel``'s selected body through the panel's undoable edits; its fields join
    ``panel.fields`` as ``visual_size``, ``visual_xyz``, ``visual_rpy`` (``collision_…``)."""

    def __init__(self, panel: JointPanel, mode: str = "visuals") -> None:
        if mode not in MODES:
            raise ValueError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
        super().__init__(mode.capitalize())
        self.panel = panel
        self.mode, self.word = mode, MODES[mode]
        w, cap = self.word, self.word.capitalize()
        self.visual_index = -1  # the selected row of the visual list (kept across refreshes)
        self._visual_body: str | None = None
        self._rows: list[tuple[str, str]] = []  # the list's (text, tooltip) rows as shown
        vlay = QVBoxLayout(self)
        self.visual_list = QListWidget()
        self.visual_list.setObjectName(f"{w}List")
        self.visual_list.setMaximumHeight(96)
        self.visual_list.currentRowChanged.connect(self._visual_row_changed)
        if mode == "visuals":  # a row clicked: the viewport's move/rotate handles act on that visual
            self.visual_list.setToolTip("Click a visual to move, turn or scale it in the viewport (W, E)")
            self.visual_list.itemPressed.connect(lambda item: panel.doc.select_visual(self.visual_list.row(item)))
            panel.doc.visualSelectionChanged.connect(self._visual_selected)
        vlay.addWidget(self.visual_list)
        row = QHBoxLayout()
        self.add_visual_buttons: dict[str, QPushButton] = {}
        for kind in PRIMITIVES:
            b = QPushButton(f"+ {kind}")
            b.setObjectName(f"add_{kind}" if mode == "visuals" else f"add_{w}_{kind}")
            b.setToolTip(f"add a {kind} to the body's {mode}")
            b.clicked.connect(lambda _=False, k=kind: self._add_visual(k))
            row.addWidget(b)
            self.add_visual_buttons[kind] = b
        self.add_mesh_button: QPushButton | None = None
        if mode == "visuals":
            self.add_mesh_button = QPushButton("+ mesh…")
            self.add_mesh_button.setObjectName("addMesh")
            self.add_mesh_button.setToolTip("add a mesh file (STL, OBJ, DAE, PLY) to the body's visuals")
            self.add_mesh_button.clicked.connect(lambda _=False: add_mesh_dialog(panel))
        vlay.addLayout(row)
        row = QHBoxLayout()  # a second row: one row of five buttons widens the Joint dock
        if self.add_mesh_button is not None:
            row.addWidget(self.add_mesh_button)
        self.remove_visual_button = QPushButton("Remove")
        self.remove_visual_button.setObjectName(f"remove{cap}")
        self.remove_visual_button.setToolTip(f"remove the selected {w}")
        self.remove_visual_button.clicked.connect(self._remove_visual)
        row.addWidget(self.remove_visual_button)
        vlay.addLayout(row)
        self.copy_button: QPushButton | None = None
        if mode == "collisions":  # the usual start: collide where the body is drawn
            self.copy_button = QPushButton("Copy visuals to collisions")
            self.copy_button.setObjectName("copyVisualsToCollisions")
            self.copy_button.setToolTip("replace the collision shapes by copies of the visuals")
            self.copy_button.clicked.connect(self._copy_visuals)
            vlay.addWidget(self.copy_button)
        vform = QFormLayout()
        self.visual_kind = QComboBox()
        self.visual_kind.setObjectName(f"{w}Kind")
        self.visual_kind.activated.connect(self._set_visual_kind)
        vform.addRow("Kind", self.visual_kind)
        self.visual_file = QLineEdit()
        self.visual_file.setObjectName(f"{w}File")
        self.visual_file.setReadOnly(True)
        vform.addRow("Mesh file", self.visual_file)
        self.visual_size_label = QLabel("Size")
        self.keys = {k: f"{w}_{k}" for k in ("size", "xyz", "rpy")}  # panel.fields keys
        panel.add_field(vform, self.keys["size"], self.visual_size_label, self._set_visual_size)
        panel.add_field(vform, self.keys["xyz"], "xyz (m)", self._set_visual_xyz, "position in the body frame")
        panel.add_field(vform, self.keys["rpy"], "roll pitch yaw", self._set_visual_rpy,
                        "orientation in the body frame")
        self.visual_color: QPushButton | None = None
        if mode == "visuals":  # collision shapes have no colour
            self.visual_color = QPushButton()
            self.visual_color.setObjectName("visualColor")
            self.visual_color.setToolTip("choose the colour (with opacity)")
            self.visual_color.clicked.connect(self._choose_visual_color)
            vform.addRow("Colour", self.visual_color)
        self.visual_form = vform
        vlay.addLayout(vform)

    # --- edits -------------------------------------------------------------------------------
    def _current_visual(self) -> Visual | None:
        name = self.panel.target()
        if name is None:
            return None
        shapes = getattr(self.panel.doc.tree.get_body(name), self.mode)
        return shapes[self.visual_index] if 0 <= self.visual_index < len(shapes) else None

    def _visual_edit(self, text: str, change: Callable[[Visual], Visual]) -> str | None:
        """Replace the selected shape by ``change(shape)`` as one undo step."""
        i = self.visual_index
        if self._current_visual() is None:
            return f"select a {self.word} first"

        def apply(b):
            vs = list(getattr(b, self.mode))
            try:
                vs[i] = change(vs[i])
            except KineTreeError as exc:
                if self.mode == "visuals":
                    raise
                # the core's shape type calls every shape "<kind> visual"; here it is a collision
                raise type(exc)(re.sub(r"^(\w+) visual:", r"collision \1:", str(exc), count=1)) from None
            if self.mode == "visuals":  # the user's own now: the library's name would let a DH edit redraw it
                vs[i] = replace(vs[i], name="")
            setattr(b, self.mode, vs)

        return self.panel.body_edit(f"{text} {i + 1}", apply)

    def _add_visual(self, kind: str) -> None:
        name = self.panel.target()
        if name is None:
            return
        n = len(getattr(self.panel.doc.tree.get_body(name), self.mode))
        self.visual_index = n  # the new one is selected after the refresh
        if self.mode == "visuals":
            message = self.panel.body_edit(f"Add {kind}", lambda b: b.add_visual(kind, DEFAULT_SIZES[kind]))
        else:
            message = self.panel.body_edit(f"Add collision {kind}",
                                           lambda b: b.add_collision(kind, DEFAULT_SIZES[kind]))
        if message:
            self.visual_index = n - 1
            self.panel.report(message)

    def _remove_visual(self) -> None:
        v, i = self._current_visual(), self.visual_index
        if v is None:
            return

        def remove(b):
            vs = list(getattr(b, self.mode))
            del vs[i]
            setattr(b, self.mode, vs)

        what = v.kind if self.mode == "visuals" else f"collision {v.kind}"
        self.panel.report(self.panel.body_edit(f"Remove {what} {i + 1}", remove))

    def _copy_visuals(self) -> None:
        name = self.panel.target()
        if name is None:
            return
        visuals = self.panel.doc.tree.get_body(name).visuals
        # colour is not used by collisions and names tie library visuals to their DH rows
        copies = [replace(v, color=COLLISION_COLOR, name="") for v in visuals]
        if list(self.panel.doc.tree.get_body(name).collisions) == copies:
            return  # nothing would change: no undo step
        self.visual_index = 0
        self.panel.report(self.panel.body_edit("Copy visuals to collisions",
                                               lambda b: setattr(b, "collisions", copies)))

    def _set_visual_kind(self, _index: int) -> None:
        v = self._current_visual()
        kind = self.visual_kind.currentText()
        if v is None or kind == v.kind:
            return
        message = self._visual_edit(f"Make a {kind} of {self.word}", lambda v: replace(
            v, kind=kind, size=convert_size(v.kind, v.size, kind), filename=v.filename if kind == "mesh" else ""))
        if message:
            self.panel.report(message)
            self.show_visual()

    def _set_visual_size(self, _text: str) -> str | None:
        v = self._current_visual()
        if v is None:
            return f"select a {self.word} first"
        n = len(DEFAULT_SIZES[v.kind])
        what = f"{v.kind} {SIZE_LABELS[v.kind].lower()}" if self.mode == "visuals" else \
            f"collision {v.kind} {SIZE_LABELS[v.kind].lower()}"
        size = tuple(self.panel.fields[self.keys["size"]].numbers(n, what))
        return self._visual_edit(f"Resize {self.word}", lambda v: replace(v, size=size))

    def _set_visual_xyz(self, _text: str) -> str | None:
        xyz = self.panel.fields[self.keys["xyz"]].numbers(3, f"{self.word} xyz")

        def move(v: Visual) -> Visual:
            T = v.matrix
            T[:3, 3] = xyz
            return replace(v, pose=T)

        return self._visual_edit(f"Move {self.word}", move)

    def _set_visual_rpy(self, _text: str) -> str | None:
        rpy = self.panel.fields[self.keys["rpy"]].numbers(3, f"{self.word} roll pitch yaw")
        return self._visual_edit(f"Turn {self.word}",
                                 lambda v: replace(v, pose=pose_from_xyz_rpy(v.matrix[:3, 3], rpy)))

    def _choose_visual_color(self) -> None:
        v = self._current_visual()
        if v is None:
            return
        initial = QColor.fromRgbF(*v.color)
        chosen = QColorDialog.getColor(initial, self, "Visual colour",
                                       QColorDialog.ColorDialogOption.ShowAlphaChannel)
        if not chosen.isValid() or chosen == initial:
            return
        rgba = kept_channels(v.color, initial, chosen)
        self.panel.report(self._visual_edit("Recolour visual", lambda v: replace(v, color=rgba)))

    def _visual_row_changed(self, row: int) -> None:
        self.visual_index = row
        self.show_visual()
        if self.mode == "visuals":
            self.panel.doc.select_visual(row)

    def _visual_selected(self, index: int | None) -> None:
        """The document's selected visual is the list's selected row (none: no row highlighted)."""
        with signals_blocked(self.visual_list):
            if index is None:
                self.visual_list.clearSelection()
            elif index < self.visual_list.count():
                self.visual_list.setCurrentRow(index)
                self.visual_index = index
        self.show_visual()

    # --- refresh -----------------------------------------------------------------------------
    def clear(self) -> None:
        self._visual_body = None
        with signals_blocked(self.visual_list):
            self.visual_list.clear()
        self._rows = []
        self.visual_index = -1
        self.show_visual()

    def show_visuals(self, b) -> None:
        if b.name != self._visual_body:  # another body: start at its first visual
            self._visual_body = b.name
            self.visual_index = 0
        shapes = getattr(b, self.mode)
        self.visual_index = min(max(self.visual_index, 0), len(shapes) - 1)
        if self.copy_button is not None:
            self.copy_button.setEnabled(bool(b.visuals))
        rows = [(visual_label(i, v), f"{v.kind} {'  '.join(short_text(s, 4) for s in v.size)}")
                for i, v in enumerate(shapes)]
        with signals_blocked(self.visual_list):
            if rows != self._rows:  # refilled only when a row changed: a drag's commits refresh often
                self._rows = rows
                self.visual_list.clear()
                for i, (text, tip) in enumerate(rows):
                    self.visual_list.addItem(text)
                    self.visual_list.item(i).setToolTip(tip)
            self.visual_list.setCurrentRow(self.visual_index)
            if self.mode == "visuals" and self.panel.doc.selected_visual != self.visual_index:
                self.visual_list.clearSelection()  # highlighted only while the handles act on it
        self.show_visual()

    def show_visual(self) -> None:
        """The editors of the selected shape (the list row ``visual_index``)."""
        v = self._current_visual()
        F = self.panel.fields
        size, xyz, rpy = (F[self.keys[k]] for k in ("size", "xyz", "rpy"))
        has = v is not None
        for w in (self.visual_kind, self.visual_color, self.remove_visual_button, size, xyz, rpy):
            if w is not None:
                w.setEnabled(has)
        kind = v.kind if has else "box"
        kinds = [*PRIMITIVES, "mesh"] if kind == "mesh" else list(PRIMITIVES)
        with signals_blocked(self.visual_kind):
            if [self.visual_kind.itemText(i) for i in range(self.visual_kind.count())] != kinds:
                self.visual_kind.clear()
                self.visual_kind.addItems(kinds)
            self.visual_kind.setCurrentText(kind)
        is_mesh = has and v.kind == "mesh"
        self.visual_file.setText(v.filename if is_mesh else "")
        self.visual_file.setToolTip(plain_tip(v.filename) if is_mesh else "")
        self.visual_file.setVisible(is_mesh)
        self.visual_form.labelForField(self.visual_file).setVisible(is_mesh)
        self.visual_size_label.setText(SIZE_LABELS[kind] if has else "Size")
        if not has:
            for f in (size, xyz, rpy):
                f.show_value("")
            if self.visual_color is not None:
                self.visual_color.setIcon(QIcon())
                self.visual_color.setText("—")
            return
        T = v.matrix
        size.show_numbers(v.size, quantity=PLAIN if v.kind == "mesh" else METRES)  # a mesh's size is its scale
        xyz.show_numbers(T[:3, 3], quantity=METRES)
        rpy.show_numbers(matrix_to_rpy(T), *self.panel.angle_units(True))
        if self.visual_color is None:
            return
        color = QColor.fromRgbF(*v.color)
        text = color.name() + ("" if v.color[3] >= 1 else f"  {v.color[3]:.0%}")
        if self.visual_color.text() != text or self.visual_color.icon().isNull():  # a new icon relays the panel out
            self.visual_color.setIcon(color_swatch(color))
            self.visual_color.setText(text)

