"""The Joint panel's "Visuals" group: the selected body's visuals as a list, with add, remove,
kind, size, pose and colour editors (each change one undo step)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from kinetree.core import Visual
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

from ..numbers import short_text
from ..qt_utils import signals_blocked

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


class VisualsEditor(QGroupBox):
    """Edits the visuals of ``panel``'s selected body through the panel's undoable edits;
    its fields join ``panel.fields`` (``visual_size``, ``visual_xyz``, ``visual_rpy``)."""

    def __init__(self, panel: JointPanel) -> None:
        super().__init__("Visuals")
        self.panel = panel
        self.visual_index = -1  # the selected row of the visual list (kept across refreshes)
        self._visual_body: str | None = None
        vlay = QVBoxLayout(self)
        self.visual_list = QListWidget()
        self.visual_list.setObjectName("visualList")
        self.visual_list.setMaximumHeight(96)
        self.visual_list.currentRowChanged.connect(self._visual_row_changed)
        vlay.addWidget(self.visual_list)
        row = QHBoxLayout()
        self.add_visual_buttons: dict[str, QPushButton] = {}
        for kind in PRIMITIVES:
            b = QPushButton(f"+ {kind}")
            b.setObjectName(f"add_{kind}")
            b.setToolTip(f"add a {kind} to the body")
            b.clicked.connect(lambda _=False, k=kind: self._add_visual(k))
            row.addWidget(b)
            self.add_visual_buttons[kind] = b
        self.remove_visual_button = QPushButton("Remove")
        self.remove_visual_button.setObjectName("removeVisual")
        self.remove_visual_button.setToolTip("remove the selected visual")
        self.remove_visual_button.clicked.connect(self._remove_visual)
        row.addWidget(self.remove_visual_button)
        vlay.addLayout(row)
        vform = QFormLayout()
        self.visual_kind = QComboBox()
        self.visual_kind.setObjectName("visualKind")
        self.visual_kind.activated.connect(self._set_visual_kind)
        vform.addRow("Kind", self.visual_kind)
        self.visual_file = QLineEdit()
        self.visual_file.setObjectName("visualFile")
        self.visual_file.setReadOnly(True)
        vform.addRow("Mesh file", self.visual_file)
        self.visual_size_label = QLabel("Size")
        panel.add_field(vform, "visual_size", self.visual_size_label, self._set_visual_size)
        panel.add_field(vform, "visual_xyz", "xyz (m)", self._set_visual_xyz, "position in the body frame")
        panel.add_field(vform, "visual_rpy", "roll pitch yaw", self._set_visual_rpy, "orientation in the body frame")
        self.visual_color = QPushButton()
        self.visual_color.setObjectName("visualColor")
        self.visual_color.setToolTip("choose the colour (with opacity)")
        self.visual_color.clicked.connect(self._choose_visual_color)
        vform.addRow("Colour", self.visual_color)
        self.visual_form = vform
        vlay.addLayout(vform)

    # --- edits -------------------------------------------------------------------------------
    def _current_visual(self) -> Visual | None:
        name = self.panel.body()
        if name is None:
            return None
        visuals = self.panel.doc.tree.get_body(name).visuals
        return visuals[self.visual_index] if 0 <= self.visual_index < len(visuals) else None

    def _visual_edit(self, text: str, change: Callable[[Visual], Visual]) -> str | None:
        """Replace the selected visual by ``change(visual)`` as one undo step."""
        i = self.visual_index
        if self._current_visual() is None:
            return "select a visual first"

        def apply(b):
            vs = list(b.visuals)
            # an edited visual is the user's own: the library's name would let a DH edit redraw it
            vs[i] = replace(change(vs[i]), name="")
            b.visuals = vs

        return self.panel.body_edit(f"{text} {i + 1}", apply)

    def _add_visual(self, kind: str) -> None:
        name = self.panel.body()
        if name is None:
            return
        n = len(self.panel.doc.tree.get_body(name).visuals)
        self.visual_index = n  # the new one is selected after the refresh
        message = self.panel.body_edit(f"Add {kind}", lambda b: b.add_visual(kind, DEFAULT_SIZES[kind]))
        if message:
            self.visual_index = n - 1
            self.panel.report(message)

    def _remove_visual(self) -> None:
        v, i = self._current_visual(), self.visual_index
        if v is None:
            return

        def remove(b):
            vs = list(b.visuals)
            del vs[i]
            b.visuals = vs

        self.panel.report(self.panel.body_edit(f"Remove {v.kind} {i + 1}", remove))

    def _set_visual_kind(self, _index: int) -> None:
        v = self._current_visual()
        kind = self.visual_kind.currentText()
        if v is None or kind == v.kind:
            return
        message = self._visual_edit(f"Make a {kind} of visual", lambda v: replace(
            v, kind=kind, size=convert_size(v.kind, v.size, kind), filename=v.filename if kind == "mesh" else ""))
        if message:
            self.panel.report(message)
            self.show_visual()

    def _set_visual_size(self, _text: str) -> str | None:
        v = self._current_visual()
        if v is None:
            return "select a visual first"
        n = len(DEFAULT_SIZES[v.kind])
        size = tuple(self.panel.fields["visual_size"].numbers(n, f"{v.kind} {SIZE_LABELS[v.kind].lower()}"))
        return self._visual_edit("Resize visual", lambda v: replace(v, size=size))

    def _set_visual_xyz(self, _text: str) -> str | None:
        xyz = self.panel.fields["visual_xyz"].numbers(3, "visual xyz")

        def move(v: Visual) -> Visual:
            T = v.matrix
            T[:3, 3] = xyz
            return replace(v, pose=T)

        return self._visual_edit("Move visual", move)

    def _set_visual_rpy(self, _text: str) -> str | None:
        rpy = self.panel.fields["visual_rpy"].numbers(3, "visual roll pitch yaw")
        return self._visual_edit("Turn visual", lambda v: replace(v, pose=pose_from_xyz_rpy(v.matrix[:3, 3], rpy)))

    def _choose_visual_color(self) -> None:
        v = self._current_visual()
        if v is None:
            return
        initial = QColor.fromRgbF(*v.color)
        chosen = QColorDialog.getColor(initial, self, "Visual colour",
                                       QColorDialog.ColorDialogOption.ShowAlphaChannel)
        if not chosen.isValid() or chosen == initial:
            return
        rgba = (chosen.redF(), chosen.greenF(), chosen.blueF(), chosen.alphaF())
        self.panel.report(self._visual_edit("Recolour visual", lambda v: replace(v, color=rgba)))

    def _visual_row_changed(self, row: int) -> None:
        self.visual_index = row
        self.show_visual()

    # --- refresh -----------------------------------------------------------------------------
    def clear(self) -> None:
        self._visual_body = None
        with signals_blocked(self.visual_list):
            self.visual_list.clear()
        self.visual_index = -1
        self.show_visual()

    def show_visuals(self, b) -> None:
        if b.name != self._visual_body:  # another body: start at its first visual
            self._visual_body = b.name
            self.visual_index = 0
        n = len(b.visuals)
        self.visual_index = min(max(self.visual_index, 0), n - 1)
        with signals_blocked(self.visual_list):
            self.visual_list.clear()
            for i, v in enumerate(b.visuals):
                self.visual_list.addItem(visual_label(i, v))
                self.visual_list.item(i).setToolTip(f"{v.kind} {'  '.join(short_text(s, 4) for s in v.size)}")
            self.visual_list.setCurrentRow(self.visual_index)
        self.show_visual()

    def show_visual(self) -> None:
        """The editors of the selected visual (the list row ``visual_index``)."""
        v = self._current_visual()
        F = self.panel.fields
        has = v is not None
        for w in (self.visual_kind, self.visual_color, self.remove_visual_button,
                  F["visual_size"], F["visual_xyz"], F["visual_rpy"]):
            w.setEnabled(has)
        kind = v.kind if has else "box"
        with signals_blocked(self.visual_kind):
            self.visual_kind.clear()
            self.visual_kind.addItems([*PRIMITIVES, "mesh"] if kind == "mesh" else PRIMITIVES)
            self.visual_kind.setCurrentText(kind)
        is_mesh = has and v.kind == "mesh"
        self.visual_file.setText(v.filename if is_mesh else "")
        self.visual_file.setToolTip(v.filename if is_mesh else "")
        self.visual_file.setVisible(is_mesh)
        self.visual_form.labelForField(self.visual_file).setVisible(is_mesh)
        self.visual_size_label.setText(SIZE_LABELS[kind] if has else "Size")
        if not has:
            for key in ("visual_size", "visual_xyz", "visual_rpy"):
                F[key].show_value("")
            self.visual_color.setIcon(QIcon())
            self.visual_color.setText("—")
            return
        T = v.matrix
        F["visual_size"].show_numbers(v.size)
        F["visual_xyz"].show_numbers(T[:3, 3])
        F["visual_rpy"].show_numbers(matrix_to_rpy(T), *self.panel.angle_units(True))
        color = QColor.fromRgbF(*v.color)
        self.visual_color.setIcon(color_swatch(color))
        self.visual_color.setText(color.name() + ("" if v.color[3] >= 1 else f"  {v.color[3]:.0%}"))

