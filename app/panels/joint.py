"""Joint panel: every property of the selected body and its joint, editable in place."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import numpy as np
from kinetree.core import JOINT_TYPES, KineTreeError, Mimic, RigidBodyTree, Visual
from kinetree.core.transforms import matrix_to_rpy, pose_from_xyz_rpy
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPixmap
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
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..document import RobotDocument
from ..edits import change_joint_type
from ..qt_utils import signals_blocked

ERROR_STYLE = "QLineEdit { background: #5a1d1d; color: white; border: 1px solid #e05050; }"
PRIMITIVES = ("box", "cylinder", "sphere")
NO_MIMIC = "(none)"
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


def parse_numbers(text: str, n: int, what: str) -> list[float]:
    parts = [p for p in text.replace(",", " ").split() if p]
    if len(parts) != n:
        raise KineTreeError(f"{what}: expected {n} number{'s' if n > 1 else ''}, got {len(parts)}")
    try:
        return [float(p) for p in parts]
    except ValueError:
        raise KineTreeError(f"{what}: {text!r} is not a number") from None


def fmt(values, digits: int = 6) -> str:
    return "  ".join(f"{v:.{digits}g}" for v in np.atleast_1d(values))


class Field(QLineEdit):
    """A line edit that applies its text through ``commit(text)`` on Enter/focus-out and
    shows the engine's message in place (red) when the value is refused."""

    def __init__(self, commit: Callable[[str], str | None], tip: str = "") -> None:
        super().__init__()
        self._commit = commit
        self._tip = tip
        self.setToolTip(tip)
        self.error = ""
        self.editingFinished.connect(self._apply)

    def show_value(self, text: str) -> None:
        with signals_blocked(self):
            self.setText(text)
        self.set_error("")

    def set_error(self, message: str) -> None:
        self.error = message
        self.setStyleSheet(ERROR_STYLE if message else "")
        self.setToolTip(message or self._tip)

    def _apply(self) -> None:
        if not self.isModified():
            return
        self.setModified(False)
        try:
            message = self._commit(self.text())
        except KineTreeError as exc:
            message = str(exc)
        self.set_error(message or "")


class JointPanel(QWidget):
    """Form for the selected body: names, joint type, axis, limits, offset, fixed transform,
    DH row, inertia and visuals."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.degrees = True
        self.fields: dict[str, Field] = {}
        self.visual_index = -1  # the selected row of the visual list (kept across refreshes)
        self._visual_body: str | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: bold")
        self.error_label = QLabel()
        self.error_label.setObjectName("jointError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #e05050")
        outer.addWidget(self.title)
        outer.addWidget(self.error_label)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        outer.addWidget(scroll)
        inner = QWidget()
        scroll.setWidget(inner)
        lay = QVBoxLayout(inner)

        names = QFormLayout()
        self._field(names, "body_name", "Body name", self._set_body_name)
        self._field(names, "joint_name", "Joint name", self._set_joint_name)
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("jointType")
        self.type_combo.addItems(JOINT_TYPES)
        self.type_combo.activated.connect(self._set_type)
        names.addRow("Joint type", self.type_combo)
        lay.addLayout(names)

        motion = QGroupBox("Motion")
        form = QFormLayout(motion)
        self._field(form, "axis", "Axis (x y z)", self._set_axis, "three numbers; normalised")
        presets = QHBoxLayout()
        for label, ax in (("x", (1, 0, 0)), ("y", (0, 1, 0)), ("z", (0, 0, 1)), ("−z", (0, 0, -1))):
            b = QPushButton(label)
            b.setMaximumWidth(40)
            b.clicked.connect(lambda _=False, ax=ax: self._commit_report(self._set_axis(" ".join(map(str, ax)))))
            presets.addWidget(b)
        self.preset_box = QWidget()
        self.preset_box.setLayout(presets)
        form.addRow("", self.preset_box)
        self.units_button = QPushButton("degrees")
        self.units_button.setCheckable(True)
        self.units_button.setChecked(True)
        self.units_button.toggled.connect(self._toggle_units)
        form.addRow("Angle units", self.units_button)
        self._field(form, "limits", "Limits (min max)", self._set_limits, "inf allowed for continuous joints")
        self._field(form, "home", "Home", self._set_home)
        self._field(form, "offset", "Offset", self._set_offset, "the joint moves by q + offset")
        mimic = QHBoxLayout()
        mimic.setContentsMargins(0, 0, 0, 0)
        self.mimic_combo = QComboBox()
        self.mimic_combo.setObjectName("mimicJoint")
        self.mimic_combo.setToolTip("follow another joint: value = multiplier · q[joint] + offset")
        self.mimic_combo.activated.connect(self._set_mimic_joint)
        mimic.addWidget(self.mimic_combo, 1)
        for key, sign, commit, tip in (
                ("mimic_multiplier", "×", self._set_mimic_multiplier,
                 "multiplier (core units: m/rad or rad/m when the two joint types differ)"),
                ("mimic_offset", "+", self._set_mimic_offset, "offset, in this joint's units")):
            mimic.addWidget(QLabel(sign))
            f = Field(self._guard(commit), tip)
            f.setObjectName(key)
            self.fields[key] = f
            mimic.addWidget(f, 1)
        self.mimic_box = QWidget()
        self.mimic_box.setLayout(mimic)
        form.addRow("Mimics", self.mimic_box)
        lay.addWidget(motion)

        fixed = QGroupBox("Fixed transform (joint to parent)")
        form = QFormLayout(fixed)
        self._field(form, "xyz", "xyz (m)", self._set_xyz_rpy)
        self._field(form, "rpy", "roll pitch yaw", self._set_xyz_rpy)
        self.matrix_label = QLabel()
        self.matrix_label.setFont(QFont("DejaVu Sans Mono", 9))
        self.matrix_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("Matrix", self.matrix_label)
        self.dh_label = QLabel()
        self.dh_label.setObjectName("dhRow")
        form.addRow("DH row", self.dh_label)
        lay.addWidget(fixed)

        inertial = QGroupBox("Inertia")
        form = QFormLayout(inertial)
        self._field(form, "mass", "Mass (kg)", self._set_mass)
        self._field(form, "com", "Centre of mass", self._set_com)
        self._field(form, "inertia", "Ixx Iyy Izz Iyz Ixz Ixy", self._set_inertia)
        lay.addWidget(inertial)

        visuals = QGroupBox("Visuals")
        vlay = QVBoxLayout(visuals)
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
        f = Field(self._guard(self._set_visual_size))
        f.setObjectName("visual_size")
        self.fields["visual_size"] = f
        vform.addRow(self.visual_size_label, f)
        self._field(vform, "visual_xyz", "xyz (m)", self._set_visual_xyz, "position in the body frame")
        self._field(vform, "visual_rpy", "roll pitch yaw", self._set_visual_rpy, "orientation in the body frame")
        self.visual_color = QPushButton()
        self.visual_color.setObjectName("visualColor")
        self.visual_color.setToolTip("choose the colour (with opacity)")
        self.visual_color.clicked.connect(self._choose_visual_color)
        vform.addRow("Colour", self.visual_color)
        self.visual_form = vform
        vlay.addLayout(vform)
        lay.addWidget(visuals)
        lay.addStretch(1)

        doc.treeChanged.connect(self.refresh)
        doc.selectionChanged.connect(lambda _n: self.refresh())
        self.refresh()

    def _guard(self, commit: Callable[[str], str | None]) -> Callable[[str], str | None]:
        """``commit`` with its parse errors shown in the panel's message line too."""
        def guarded(text: str) -> str | None:
            try:
                return commit(text)
            except KineTreeError as exc:
                self.error_label.setText(str(exc))
                raise

        return guarded

    def _field(self, form: QFormLayout, key: str, label: str, commit, tip: str = "") -> Field:
        f = Field(self._guard(commit), tip)
        f.setObjectName(key)
        form.addRow(label, f)
        self.fields[key] = f
        return f

    # --- helpers -----------------------------------------------------------------------------
    def _body(self) -> str | None:
        name = self.doc.selection
        return name if name and name != self.doc.tree.base_name else None

    def _angle_scale(self) -> float:
        j = self.doc.tree.get_body(self._body()).joint if self._body() else None
        return math.degrees(1) if self.degrees and j is not None and j.type == "revolute" else 1.0

    def _commit_report(self, message: str | None) -> None:
        self.error_label.setText(message or "")

    def _edit(self, text: str, change: Callable[[RigidBodyTree], object]) -> str | None:
        message = self.doc.try_edit(text, change)
        self.error_label.setText(message or "")
        return message

    def _joint_edit(self, text: str, change: Callable) -> str | None:
        name = self._body()
        if name is None:
            return "select a body first"
        return self._edit(f"{text} of {name}", lambda t: change(t.get_body(name).joint))

    def _body_edit(self, text: str, change: Callable) -> str | None:
        name = self._body()
        if name is None:
            return "select a body first"
        return self._edit(f"{text} of {name}", lambda t: change(t.get_body(name)))

    # --- commits -----------------------------------------------------------------------------
    def _set_body_name(self, text: str) -> str | None:
        old = self.doc.selection
        if old is None:
            return None
        new = text.strip()

        def rename(t):
            t.get_body(old).name = new
            return new

        return self._edit(f"Rename {old} to {new}", rename)

    def _set_joint_name(self, text: str) -> str | None:
        return self._joint_edit("Rename joint", lambda j: setattr(j, "name", text.strip()))

    def _set_type(self, _index: int) -> None:
        name = self._body()
        if name is None:
            return
        jt = self.type_combo.currentText()
        self._edit(f"Make {name}'s joint {jt}", lambda t: change_joint_type(t, name, jt))
        self.refresh()

    def _set_axis(self, text: str) -> str | None:
        ax = parse_numbers(text, 3, "axis")
        return self._joint_edit("Set axis", lambda j: setattr(j, "axis", ax))

    def _set_limits(self, text: str) -> str | None:
        lo, hi = np.array(parse_numbers(text, 2, "limits")) / self._angle_scale()
        return self._joint_edit("Set limits", lambda j: setattr(j, "position_limits", [lo, hi]))

    def _set_home(self, text: str) -> str | None:
        h = parse_numbers(text, 1, "home")[0] / self._angle_scale()
        return self._joint_edit("Set home", lambda j: setattr(j, "home_position", h))

    def _set_offset(self, text: str) -> str | None:
        v = parse_numbers(text, 1, "offset")[0] / self._angle_scale()
        return self._joint_edit("Set offset", lambda j: setattr(j, "offset", v))

    def _set_xyz_rpy(self, _text: str) -> str | None:
        xyz = parse_numbers(self.fields["xyz"].text(), 3, "xyz")
        rpy = np.array(parse_numbers(self.fields["rpy"].text(), 3, "roll pitch yaw"))
        if self.degrees:
            rpy = np.radians(rpy)
        T = pose_from_xyz_rpy(xyz, rpy)

        def apply(j):
            ctj = j.child_to_joint_transform
            j.set_fixed_transform(T)
            if not np.allclose(ctj, np.eye(4)):  # keep the whole link transform, now as a matrix
                j.set_fixed_transform(T @ ctj)

        return self._joint_edit("Set fixed transform", apply)

    def _set_mass(self, text: str) -> str | None:
        m = parse_numbers(text, 1, "mass")[0]
        return self._body_edit("Set mass", lambda b: setattr(b, "mass", m))

    def _set_com(self, text: str) -> str | None:
        c = parse_numbers(text, 3, "centre of mass")
        return self._body_edit("Set centre of mass", lambda b: setattr(b, "center_of_mass", c))

    def _set_inertia(self, text: str) -> str | None:
        v = parse_numbers(text, 6, "inertia")
        return self._body_edit("Set inertia", lambda b: setattr(b, "inertia", v))

    # --- mimic -------------------------------------------------------------------------------
    def _set_mimic(self, leader: str | None, multiplier: float | None = None,
                   offset: float | None = None) -> str | None:
        name = self._body()
        if name is None:
            return "select a body first"
        current = self.doc.tree.get_body(name).joint.mimic
        if leader is None:
            if current is None:
                return None
            return self._joint_edit("Stop mimicking", lambda j: setattr(j, "mimic", None))
        mult = multiplier if multiplier is not None else (current.multiplier if current else 1.0)
        off = offset if offset is not None else (current.offset if current else 0.0)
        new = Mimic(leader, mult, off)
        if new == current:
            return None
        return self._joint_edit(f"Mimic {leader}", lambda j: setattr(j, "mimic", new))

    def _set_mimic_joint(self, _index: int) -> None:
        text = self.mimic_combo.currentText()
        try:
            if text == NO_MIMIC:
                message = self._set_mimic(None)
            else:  # keep the multiplier and offset shown (unless they are refused values)
                F = self.fields
                mult = off = None
                if not F["mimic_multiplier"].error:
                    mult = parse_numbers(F["mimic_multiplier"].text() or "1", 1, "mimic multiplier")[0]
                if not F["mimic_offset"].error:
                    off = parse_numbers(F["mimic_offset"].text() or "0", 1, "mimic offset")[0] / self._angle_scale()
                message = self._set_mimic(text, mult, off)
        except KineTreeError as exc:
            message = str(exc)
        if message:  # refused: the combo goes back to what the tree says, the message stays
            self.error_label.setText(message)
            self.mimic_combo.setToolTip(message)
            body = self._body()
            if body is not None:
                self._show_mimic(self.doc.tree.get_body(body).joint)

    def _mimic_leader(self) -> str | None:
        name = self._body()
        m = self.doc.tree.get_body(name).joint.mimic if name else None
        return m.joint if m else None

    def _set_mimic_multiplier(self, text: str) -> str | None:
        leader = self._mimic_leader()
        if leader is None:
            return "choose a joint to mimic first"
        return self._set_mimic(leader, multiplier=parse_numbers(text, 1, "mimic multiplier")[0])

    def _set_mimic_offset(self, text: str) -> str | None:
        leader = self._mimic_leader()
        if leader is None:
            return "choose a joint to mimic first"
        v = parse_numbers(text, 1, "mimic offset")[0] / self._angle_scale()
        return self._set_mimic(leader, offset=v)

    # --- visuals -----------------------------------------------------------------------------
    def _current_visual(self) -> Visual | None:
        name = self._body()
        if name is None:
            return None
        visuals = self.doc.tree.get_body(name).visuals
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

        return self._body_edit(f"{text} {i + 1}", apply)

    def _add_visual(self, kind: str) -> None:
        name = self._body()
        if name is None:
            return
        n = len(self.doc.tree.get_body(name).visuals)
        self.visual_index = n  # the new one is selected after the refresh
        message = self._body_edit(f"Add {kind}", lambda b: b.add_visual(kind, DEFAULT_SIZES[kind]))
        if message:
            self.visual_index = n - 1
            self._commit_report(message)

    def _remove_visual(self) -> None:
        v, i = self._current_visual(), self.visual_index
        if v is None:
            return

        def remove(b):
            vs = list(b.visuals)
            del vs[i]
            b.visuals = vs

        self._commit_report(self._body_edit(f"Remove {v.kind} {i + 1}", remove))

    def _set_visual_kind(self, _index: int) -> None:
        v = self._current_visual()
        kind = self.visual_kind.currentText()
        if v is None or kind == v.kind:
            return
        message = self._visual_edit(f"Make a {kind} of visual", lambda v: replace(
            v, kind=kind, size=convert_size(v.kind, v.size, kind), filename=v.filename if kind == "mesh" else ""))
        if message:
            self._commit_report(message)
            self._show_visual()

    def _set_visual_size(self, text: str) -> str | None:
        v = self._current_visual()
        if v is None:
            return "select a visual first"
        n = len(DEFAULT_SIZES[v.kind])
        size = tuple(parse_numbers(text, n, f"{v.kind} {SIZE_LABELS[v.kind].lower()}"))
        return self._visual_edit("Resize visual", lambda v: replace(v, size=size))

    def _set_visual_xyz(self, text: str) -> str | None:
        xyz = parse_numbers(text, 3, "visual xyz")

        def move(v: Visual) -> Visual:
            T = v.matrix
            T[:3, 3] = xyz
            return replace(v, pose=T)

        return self._visual_edit("Move visual", move)

    def _set_visual_rpy(self, text: str) -> str | None:
        rpy = np.array(parse_numbers(text, 3, "visual roll pitch yaw"))
        if self.degrees:
            rpy = np.radians(rpy)
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
        self._commit_report(self._visual_edit("Recolour visual", lambda v: replace(v, color=rgba)))

    def _visual_row_changed(self, row: int) -> None:
        self.visual_index = row
        self._show_visual()

    def _toggle_units(self, on: bool) -> None:
        self.degrees = on
        self.units_button.setText("degrees" if on else "radians")
        self.refresh()

    # --- refresh -----------------------------------------------------------------------------
    def refresh(self) -> None:
        name = self._body()
        self.setEnabled(name is not None)
        self.error_label.setText("")
        if name is None:
            self.title.setText("Select a body (the base has no joint)")
            for f in self.fields.values():
                f.show_value("")
            self._visual_body = None
            with signals_blocked(self.visual_list, self.mimic_combo):
                self.visual_list.clear()
                self.mimic_combo.clear()
            self.visual_index = -1
            self._show_visual()
            return
        b = self.doc.tree.get_body(name)
        j = b.joint
        self.title.setText(f"{name}: {j.type} joint" + (f", mimics {j.mimic.joint}" if j.mimic else ""))
        k = self._angle_scale()
        axial = j.type in ("revolute", "prismatic")
        F = self.fields
        F["body_name"].show_value(b.name)
        F["joint_name"].show_value(j.name)
        with signals_blocked(self.type_combo):
            self.type_combo.setCurrentText(j.type)
        F["axis"].show_value(fmt(j.axis) if axial else "")
        for key in ("axis", "limits", "home", "offset"):
            F[key].setEnabled(axial)
        self.preset_box.setEnabled(axial)
        if axial:
            lo, hi = j.position_limits
            F["limits"].show_value(fmt([lo * k, hi * k]))
            F["home"].show_value(fmt(j.home_position * k))
            F["offset"].show_value(fmt(j.offset * k))
        else:
            for key in ("limits", "home", "offset"):
                F[key].show_value("")
        T = j.joint_to_parent_transform @ j.child_to_joint_transform if j.dh_parameters is not None \
            else j.joint_to_parent_transform
        rpy = matrix_to_rpy(T)
        F["xyz"].show_value(fmt(T[:3, 3]))
        F["rpy"].show_value(fmt(np.degrees(rpy) if self.degrees else rpy))
        self.matrix_label.setText("\n".join("  ".join(f"{v: .4f}" for v in row) for row in T))
        dh = j.dh_parameters
        if dh is None:
            self.dh_label.setText("— (set from a matrix)")
        else:
            a_unit = "°" if self.degrees else " rad"
            ang = math.degrees if self.degrees else (lambda x: x)
            self.dh_label.setText(
                f"{'standard' if dh.convention == 'dh' else 'modified'}: a={dh.a:g}  α={ang(dh.alpha):g}{a_unit}  "
                f"d={dh.d:g}  θ={ang(dh.theta):g}{a_unit}")
        F["mass"].show_value(f"{b.mass:g}")
        F["com"].show_value(fmt(b.center_of_mass))
        F["inertia"].show_value(fmt(b.inertia))
        self._show_mimic(j)
        self._show_visuals(b)

    def _show_mimic(self, j) -> None:
        """The "Mimics" row: candidates are the other revolute/prismatic joints with a position."""
        axial = j.type in ("revolute", "prismatic")
        leaders = [o.joint.name for o in self.doc.tree.bodies
                   if o.joint is not j and o.joint.type in ("revolute", "prismatic") and o.joint.mimic is None]
        m = j.mimic if axial else None
        with signals_blocked(self.mimic_combo):
            self.mimic_combo.clear()
            self.mimic_combo.addItems([NO_MIMIC, *leaders])
            self.mimic_combo.setCurrentText(m.joint if m else NO_MIMIC)
        self.mimic_combo.setEnabled(axial)
        self.mimic_combo.setToolTip("follow another joint: value = multiplier · q[joint] + offset")
        F = self.fields
        F["mimic_multiplier"].show_value(f"{m.multiplier:g}" if m else "1")
        F["mimic_offset"].show_value(fmt(m.offset * self._angle_scale()) if m else "0")
        for key in ("mimic_multiplier", "mimic_offset"):
            F[key].setEnabled(m is not None)

    def _show_visuals(self, b) -> None:
        if b.name != self._visual_body:  # another body: start at its first visual
            self._visual_body = b.name
            self.visual_index = 0
        n = len(b.visuals)
        self.visual_index = min(max(self.visual_index, 0), n - 1)
        with signals_blocked(self.visual_list):
            self.visual_list.clear()
            for i, v in enumerate(b.visuals):
                self.visual_list.addItem(visual_label(i, v))
                self.visual_list.item(i).setToolTip(f"{v.kind} {fmt(v.size, 4)}")
            self.visual_list.setCurrentRow(self.visual_index)
        self._show_visual()

    def _show_visual(self) -> None:
        """The editors of the selected visual (the list row ``visual_index``)."""
        v = self._current_visual()
        F = self.fields
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
        rpy = matrix_to_rpy(T)
        F["visual_size"].show_value(fmt(v.size))
        F["visual_xyz"].show_value(fmt(np.where(np.abs(T[:3, 3]) < 1e-12, 0.0, T[:3, 3])))
        F["visual_rpy"].show_value(fmt(np.degrees(rpy) if self.degrees else rpy))
        color = QColor.fromRgbF(*v.color)
        self.visual_color.setIcon(color_swatch(color))
        self.visual_color.setText(color.name() + ("" if v.color[3] >= 1 else f"  {v.color[3]:.0%}"))
