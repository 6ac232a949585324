"""Joint panel: every property of the selected body and its joint, editable in place."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from kinetree.core import JOINT_TYPES, KineTreeError, RigidBodyTree
from kinetree.core.transforms import matrix_to_rpy, pose_from_xyz_rpy
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..document import RobotDocument
from ..qt_utils import signals_blocked
from .bodies import change_joint_type

ERROR_STYLE = "QLineEdit { background: #5a1d1d; color: white; border: 1px solid #e05050; }"


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
        self.visuals_label = QLabel()
        self.visuals_label.setWordWrap(True)
        vlay.addWidget(self.visuals_label)
        row = QHBoxLayout()
        for kind in ("box", "cylinder", "sphere"):
            b = QPushButton(f"+ {kind}")
            b.clicked.connect(lambda _=False, k=kind: self._add_visual(k))
            row.addWidget(b)
        clear = QPushButton("Clear")
        clear.clicked.connect(self._clear_visuals)
        row.addWidget(clear)
        vlay.addLayout(row)
        self._field(form_or := QFormLayout(), "visual_size", "Last visual size", self._set_visual_size)
        self._field(form_or, "visual_color", "Last visual colour (r g b)", self._set_visual_color)
        vlay.addLayout(form_or)
        lay.addWidget(visuals)
        lay.addStretch(1)

        doc.treeChanged.connect(self.refresh)
        doc.selectionChanged.connect(lambda _n: self.refresh())
        self.refresh()

    def _field(self, form: QFormLayout, key: str, label: str, commit, tip: str = "") -> Field:
        f = Field(commit, tip)
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

    def _add_visual(self, kind: str) -> None:
        size = {"box": (0.1, 0.1, 0.1), "cylinder": (0.05, 0.2), "sphere": (0.06,)}[kind]
        self._commit_report(self._body_edit(f"Add {kind}", lambda b: b.add_visual(kind, size)))

    def _clear_visuals(self) -> None:
        self._commit_report(self._body_edit("Clear visuals", lambda b: setattr(b, "visuals", ())))

    def _replace_last_visual(self, text: str, **changes) -> str | None:
        from dataclasses import replace

        name = self._body()
        if name is None or not self.doc.tree.get_body(name).visuals:
            return "the body has no visual to edit"
        return self._body_edit(
            text, lambda b: setattr(b, "visuals", (*b.visuals[:-1], replace(b.visuals[-1], **changes))))

    def _set_visual_size(self, text: str) -> str | None:
        vals = [float(v) for v in text.replace(",", " ").split()] if text.strip() else []
        return self._replace_last_visual("Resize visual", size=tuple(vals))

    def _set_visual_color(self, text: str) -> str | None:
        rgb = parse_numbers(text, 3, "colour")
        return self._replace_last_visual("Recolour visual", color=(*rgb, 1.0))

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
            return
        b = self.doc.tree.get_body(name)
        j = b.joint
        self.title.setText(f"{name}: {j.type} joint")
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
        self.visuals_label.setText("\n".join(f"{v.kind} {fmt(v.size, 3)}" for v in b.visuals) or "none")
        last = b.visuals[-1] if b.visuals else None
        F["visual_size"].show_value(fmt(last.size) if last else "")
        F["visual_color"].show_value(fmt(last.color[:3], 3) if last else "")
        self.fields["visual_size"].setEnabled(last is not None)
        self.fields["visual_color"].setEnabled(last is not None)
