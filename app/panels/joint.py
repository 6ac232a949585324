"""Joint panel: every property of the selected body and its joint, editable in place.

Every number is shown exactly (see :mod:`kinetree.app.model.numbers`), so committing a shown value
changes nothing; the fixed transform shown and edited is the joint-to-parent transform, with the
child-to-joint transform (a standard DH row's link transform) kept as it is.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from kinetree.core import JOINT_TYPES, KineTreeError, Mimic, RigidBodyTree
from kinetree.core.kinematics.loop_closing import loop_joints
from kinetree.core.library import refit_visuals
from kinetree.core.model.joint import AXIAL_TYPES
from kinetree.core.transforms import matrix_to_rpy, rpy_to_matrix
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.edits import change_joint_subspace, change_joint_type
from ..model.numbers import (
    DEGREES,
    METRES,
    RADIANS,
    Conversion,
    Quantity,
    fixed_text,
    identity,
    parse_numbers,
    short_text,
    to_degrees,
    to_radians,
)
from ..model.text import MAX_NAME, elide, message_label, plain_tip
from ..widgets.field import ERROR_STYLE, Field
from ..widgets.geometry_actions import DEFAULT_DENSITY, mass_from_geometry_dialog
from ..widgets.icons import type_label
from ..widgets.qt_utils import mono_font, signals_blocked
from .visuals_editor import DEFAULT_SIZES, PRIMITIVES, SIZE_LABELS, VisualsEditor, convert_size

__all__ = ["ERROR_STYLE", "DEFAULT_SIZES", "PRIMITIVES", "SIZE_LABELS", "Field", "JointPanel", "convert_size"]

NO_MIMIC = "(none)"
DH_FIELDS = (("dh_a", "a", False), ("dh_alpha", "α", True), ("dh_d", "d", False), ("dh_theta", "θ", True))


class JointPanel(QWidget):
    """Form for the selected body: names, joint type, axis, limits, offset, fixed transform,
    DH row, inertia, visuals and collision geometry."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.degrees = True
        self.fields: dict[str, Field] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        self.title = message_label(QLabel())
        self.title.setStyleSheet("font-weight: bold")
        self.error_label = message_label(QLabel())
        self.error_label.setObjectName("jointError")
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
        self.add_field(names, "body_name", "Body name", self._set_body_name)
        self.add_field(names, "joint_name", "Joint name", self._set_joint_name)
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("jointType")
        for jt in JOINT_TYPES:
            self.type_combo.addItem(type_label(jt), jt)
        self.type_combo.activated.connect(self._set_type)
        names.addRow("Joint type", self.type_combo)
        self.actuated = QCheckBox("Actuated")
        self.actuated.setObjectName("jointActuated")
        self.actuated.setToolTip("Checked: driven by its slider; else passive, the closed loop sets it (a "
                                 "mechanism keeps as many driven joints as it has degrees of freedom)")
        self.actuated.clicked.connect(self._set_actuated)
        names.addRow("", self.actuated)
        lay.addLayout(names)

        motion = self.motion_group = QGroupBox("Motion")
        form = self.motion_form = QFormLayout(motion)
        self.add_field(form, "axis", "Axis (x y z)", self._set_axis, "three numbers; normalised")
        presets = QHBoxLayout()
        for label, ax in (("x", (1, 0, 0)), ("y", (0, 1, 0)), ("z", (0, 0, 1)), ("−z", (0, 0, -1))):
            b = QPushButton(label)
            b.setMaximumWidth(40)
            b.clicked.connect(lambda _=False, ax=ax: self._preset_axis(ax))
            presets.addWidget(b)
        self.preset_box = QWidget()
        self.preset_box.setLayout(presets)
        form.addRow("", self.preset_box)
        self.units_button = QPushButton("degrees")
        self.units_button.setCheckable(True)
        self.units_button.setChecked(True)
        self.units_button.toggled.connect(self._toggle_units)
        form.addRow("Angle units", self.units_button)
        self.add_field(form, "limits", "Limits (min max)", self._set_limits, "inf allowed for continuous joints")
        self.add_field(form, "home", "Home", self._set_home)
        self.add_field(form, "offset", "Offset", self._set_offset, "the joint moves by q + offset")
        self.add_field(form, "subspace", "Motion rows", self._set_subspace,
                       "rows r_x r_y r_z t_x t_y t_z separated by ';' (RBDL's motion subspace): each a rotation about "
                       "or a translation along an axis, applied in order; editable for a custom joint")
        mimic = QHBoxLayout()
        mimic.setContentsMargins(0, 0, 0, 0)
        self.mimic_combo = QComboBox()
        self._leaders: list[str] | None = None  # the joints the combo lists (refilled when they change)
        self.mimic_combo.setObjectName("mimicJoint")
        self.mimic_combo.setToolTip("follow another joint: value = multiplier · q[joint] + offset")
        self.mimic_combo.activated.connect(self._set_mimic_joint)
        mimic.addWidget(self.mimic_combo, 1)
        messages = QVBoxLayout()
        for key, sign, commit, tip in (
                ("mimic_multiplier", "×", self._set_mimic_multiplier,
                 "multiplier (core units: m/rad or rad/m when the two joint types differ)"),
                ("mimic_offset", "+", self._set_mimic_offset, "offset, in this joint's units")):
            mimic.addWidget(QLabel(sign))
            mimic.addWidget(self._new_field(key, commit, tip), 1)
            messages.addWidget(self.fields[key].message)
        self.mimic_box = QWidget()
        self.mimic_box.setLayout(mimic)
        form.addRow("Mimics", self.mimic_box)
        form.addRow("", messages)
        lay.addWidget(motion)

        fixed = self.fixed_group = QGroupBox("Fixed transform (joint to parent)")
        form = QFormLayout(fixed)
        self.add_field(form, "xyz", "xyz (m)", self._set_xyz, "the joint's origin in the parent body frame")
        self.add_field(form, "rpy", "roll pitch yaw", self._set_rpy, "the joint frame's orientation in the parent")
        self.matrix_label = QLabel()
        self.matrix_label.setFont(mono_font())  # sized by the application font
        self.matrix_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("Matrix", self.matrix_label)
        self.child_label = QLabel()
        self.child_label.setObjectName("childToJoint")
        self.child_label.setToolTip("child to joint: the body frame in the joint's moving frame (kept by "
                                    "xyz/rpy edits)")
        form.addRow("Child to joint", self.child_label)
        self.dh_label = QLabel()
        self.dh_label.setObjectName("dhRow")
        form.addRow("DH row", self.dh_label)
        dh_row, dh_messages = QGridLayout(), QVBoxLayout()  # a α on one line, d θ on the next
        dh_row.setContentsMargins(0, 0, 0, 0)
        dh_row.setColumnStretch(1, 1)
        dh_row.setColumnStretch(3, 1)
        for i, (key, label, _angle) in enumerate(DH_FIELDS):
            dh_row.addWidget(QLabel(label), i // 2, 2 * (i % 2))
            dh_row.addWidget(self._new_field(key, lambda _t, key=key: self._set_dh(key)), i // 2, 2 * (i % 2) + 1)
            dh_messages.addWidget(self.fields[key].message)
        self.dh_box = QWidget()
        self.dh_box.setLayout(dh_row)
        form.addRow("", self.dh_box)
        form.addRow("", dh_messages)
        lay.addWidget(fixed)

        inertial = QGroupBox("Inertia")
        form = QFormLayout(inertial)
        self.add_field(form, "mass", "Mass (kg)", self._set_mass)
        self.add_field(form, "com", "Centre of mass", self._set_com)
        self.add_field(form, "inertia", "Ixx Iyy Izz Iyz Ixz Ixy", self._set_inertia)
        self.density = QLineEdit(DEFAULT_DENSITY)
        self.density.setObjectName("density")
        self.density.setToolTip("density of the solids, kg/m³ (a unit may follow: 7.8 g/cm³); Enter fills "
                                "the mass properties")
        self.density.returnPressed.connect(lambda: mass_from_geometry_dialog(self))
        self.mass_button = QPushButton("Mass from geometry")
        self.mass_button.setObjectName("massFromGeometry")
        self.mass_button.setToolTip("fill mass, centre of mass and inertia from the visuals (or the collision "
                                    "shapes) as solids of the density")
        self.mass_button.clicked.connect(lambda _=False: mass_from_geometry_dialog(self))
        form.addRow("Density (kg/m³)", self.density)
        form.addRow("", self.mass_button)
        lay.addWidget(inertial)

        self.visuals = VisualsEditor(self)
        lay.addWidget(self.visuals)
        self.collisions = VisualsEditor(self, mode="collisions")
        lay.addWidget(self.collisions)
        lay.addStretch(1)
        # the visuals editor's widgets, under the names the panel has always had
        for name in ("visual_list", "add_visual_buttons", "remove_visual_button", "visual_kind",
                     "visual_file", "visual_size_label", "visual_color", "visual_form"):
            setattr(self, name, getattr(self.visuals, name))

        doc.treeChanged.connect(self.refresh)
        doc.selectionChanged.connect(lambda _n: self.refresh())
        self.refresh()

    @property
    def visual_index(self) -> int:
        return self.visuals.visual_index

    @visual_index.setter
    def visual_index(self, i: int) -> None:
        self.visuals.visual_index = i

    def _guard(self, commit: Callable[[str], str | None]) -> Callable[[str], str | None]:
        """``commit`` with its refusals shown in the panel's message line too."""
        def guarded(text: str) -> str | None:
            try:
                message = commit(text)
            except KineTreeError as exc:
                self.error_label.setText(elide(str(exc)))
                raise
            self.error_label.setText(elide(message or ""))
            return message

        return guarded

    def _new_field(self, key: str, commit, tip: str = "") -> Field:
        f = Field(self._guard(commit), tip)
        f.setObjectName(key)
        self.fields[key] = f
        return f

    def add_field(self, form: QFormLayout, key: str, label, commit, tip: str = "") -> Field:
        """A :class:`Field` in ``form``, with its message line under it."""
        f = self._new_field(key, commit, tip)
        form.addRow(label, f)
        form.addRow("", f.message)
        return f

    # --- helpers -----------------------------------------------------------------------------
    def body(self) -> str | None:
        """The selected body, if it has a joint (the base has none)."""
        name = self.doc.selection
        return name if name and name != self.doc.tree.base_name else None

    def target(self) -> str | None:
        """The selected body, the base included: mass, inertia and shapes are edited on it."""
        return self.doc.selection or None

    def angle_units(self, angle: bool) -> tuple[Conversion, Conversion, Quantity]:
        """(core → shown, shown → core, quantity) for an angle (``angle``) or a length."""
        if angle:
            return (to_degrees, to_radians, DEGREES) if self.degrees else (identity, identity, RADIANS)
        return identity, identity, METRES

    def _joint_units(self) -> tuple[Conversion, Conversion, Quantity]:
        j = self.doc.tree.get_body(self.body()).joint if self.body() else None
        return self.angle_units(j is not None and j.type == "revolute")

    def _shown(self, value: float) -> str:
        """A joint value for a message: in the shown unit, at most 6 significant digits."""
        j = self.doc.tree.get_body(self.body()).joint
        if j.type == "revolute":
            return f"{short_text(to_degrees(value))}°" if self.degrees else f"{short_text(value)} rad"
        return f"{short_text(value)} m"

    def report(self, message: str | None) -> None:
        self.error_label.setText(elide(message or ""))

    def _edit(self, text: str, change: Callable[[RigidBodyTree], object]) -> str | None:
        message = self.doc.try_edit(text, change)
        self.error_label.setText(elide(message or ""))
        return message

    def _joint_edit(self, text: str, change: Callable) -> str | None:
        name = self.body()
        if name is None:
            return "select a body first"
        return self._edit(f"{text} of {name}", lambda t: change(t.get_body(name).joint))

    def body_edit(self, text: str, change: Callable) -> str | None:
        """Change the selected body, the base included (one undo step); the refusal's message, or None."""
        name = self.target()
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

    def _set_actuated(self, on: bool) -> None:
        name = self.body()
        if name is None:
            return
        try:
            self.doc.set_actuated(self.doc.tree.get_body(name).joint.name, on)
            self.error_label.setText("")
        except KineTreeError as exc:  # refused: said, and the box shows the joint as it is
            self.doc.message.emit(str(exc))  # the status bar too, as every refused edit
            self.error_label.setText(elide(str(exc)))
            with signals_blocked(self.actuated):
                self.actuated.setChecked(self.doc.tree.get_body(name).joint.actuated)

    def _set_type(self, _index: int) -> None:
        name = self.body()
        if name is None:
            return
        jt = self.type_combo.currentData()
        if jt != self.doc.tree.get_body(name).joint.type:
            self._edit(f"Make {name}'s joint {jt}", lambda t: change_joint_type(t, name, jt))
        self.refresh()

    def _set_subspace(self, text: str) -> str | None:
        name = self.body()
        if name is None:
            return "select a body first"
        pieces = [p for p in text.split(";") if p.strip()]
        rows = [parse_numbers(p, 6, f"motion row {k}") for k, p in enumerate(pieces, start=1)]
        return self._edit(f"Set the motion rows of {name}", lambda t: change_joint_subspace(t, name, rows))

    def _set_axis(self, _text: str) -> str | None:
        ax = self.fields["axis"].numbers(3, "axis")
        return self._joint_edit("Set axis", lambda j: setattr(j, "axis", ax))

    def _preset_axis(self, ax: tuple[int, int, int]) -> None:
        name = self.body()
        if name is None or np.array_equal(self.doc.tree.get_body(name).joint.axis, ax):
            return
        self.report(self._joint_edit("Set axis", lambda j: setattr(j, "axis", ax)))

    def _set_limits(self, _text: str) -> str | None:
        lo, hi = self.fields["limits"].numbers(2, "limits", allow_inf=True)
        j = self.doc.tree.get_body(self.body()).joint
        if lo > hi:
            return f"limits: min {self._shown(lo)} is above max {self._shown(hi)}"
        if not lo <= j.home_position <= hi:
            return (f"limits [{self._shown(lo)}, {self._shown(hi)}] leave out the home position "
                    f"{self._shown(j.home_position)}: move home first")
        return self._joint_edit("Set limits", lambda j: setattr(j, "position_limits", [lo, hi]))

    def _set_home(self, _text: str) -> str | None:
        h = self.fields["home"].numbers(1, "home")[0]
        lo, hi = self.doc.tree.get_body(self.body()).joint.position_limits
        if not lo <= h <= hi:
            return f"home {self._shown(h)} is outside the limits [{self._shown(lo)}, {self._shown(hi)}]"
        return self._joint_edit("Set home", lambda j: setattr(j, "home_position", h))

    def _set_offset(self, _text: str) -> str | None:
        v = self.fields["offset"].numbers(1, "offset")[0]
        return self._joint_edit("Set offset", lambda j: setattr(j, "offset", v))

    def _set_joint_to_parent(self, what: str, T: np.ndarray) -> str | None:
        """New joint-to-parent transform ``T``; child-to-joint (a DH link transform) is kept."""
        def apply(j):
            ctj = j.child_to_joint_transform
            j.set_fixed_transform(T)
            if not np.array_equal(ctj, np.eye(4)):
                j.set_fixed_transform(ctj, "child")

        return self._joint_edit(what, apply)

    def _set_xyz(self, _text: str) -> str | None:
        T = self.doc.tree.get_body(self.body()).joint.joint_to_parent_transform
        T[:3, 3] = self.fields["xyz"].numbers(3, "xyz")  # the rotation stays bit for bit
        return self._set_joint_to_parent("Move joint origin", T)

    def _set_rpy(self, _text: str) -> str | None:
        T = self.doc.tree.get_body(self.body()).joint.joint_to_parent_transform
        T[:3, :3] = rpy_to_matrix(self.fields["rpy"].numbers(3, "roll pitch yaw"))
        return self._set_joint_to_parent("Turn joint frame", T)

    def _set_dh(self, key: str) -> str | None:
        name = self.body()
        dh = self.doc.tree.get_body(name).joint.dh_parameters
        if dh is None:
            return "this joint has no DH row (set from a matrix)"
        row = dh.as_list()
        i = [k for k, _l, _a in DH_FIELDS].index(key)
        row[i] = self.fields[key].numbers(1, f"DH {DH_FIELDS[i][1]}")[0]

        def change(t: RigidBodyTree) -> None:
            j = t.get_body(name).joint
            axis = j.axis
            j.set_fixed_transform(row, dh.convention)
            j.axis = axis  # a flipped DH joint (axis −z) stays flipped
            refit_visuals(self.doc.tree, t)  # a library robot's drawn links follow the new row

        return self._edit(f"Set DH {DH_FIELDS[i][1]} of {name}", change)

    def _set_mass(self, _text: str) -> str | None:
        m = self.fields["mass"].numbers(1, "mass")[0]
        return self.body_edit("Set mass", lambda b: setattr(b, "mass", m))

    def _set_com(self, _text: str) -> str | None:
        c = self.fields["com"].numbers(3, "centre of mass")
        return self.body_edit("Set centre of mass", lambda b: setattr(b, "center_of_mass", c))

    def _set_inertia(self, _text: str) -> str | None:
        v = self.fields["inertia"].numbers(6, "inertia")
        return self.body_edit("Set inertia", lambda b: setattr(b, "inertia", v))

    # --- mimic -------------------------------------------------------------------------------
    def _set_mimic(self, leader: str | None, multiplier: float | None = None,
                   offset: float | None = None) -> str | None:
        name = self.body()
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
                if not F["mimic_multiplier"].error and F["mimic_multiplier"].text().strip():
                    mult = F["mimic_multiplier"].numbers(1, "mimic multiplier")[0]
                if not F["mimic_offset"].error and F["mimic_offset"].text().strip():
                    off = F["mimic_offset"].numbers(1, "mimic offset")[0]
                message = self._set_mimic(text, mult, off)
        except KineTreeError as exc:
            message = str(exc)
        if message:  # refused: the combo goes back to what the tree says, the message stays
            self.error_label.setText(elide(message))
            self.mimic_combo.setToolTip(plain_tip(elide(message)))
            body = self.body()
            if body is not None:
                self._show_mimic(self.doc.tree.get_body(body).joint)

    def _mimic_leader(self) -> str | None:
        name = self.body()
        m = self.doc.tree.get_body(name).joint.mimic if name else None
        return m.joint if m else None

    def _set_mimic_multiplier(self, _text: str) -> str | None:
        leader = self._mimic_leader()
        if leader is None:
            return "choose a joint to mimic first"
        return self._set_mimic(leader, multiplier=self.fields["mimic_multiplier"].numbers(1, "mimic multiplier")[0])

    def _set_mimic_offset(self, _text: str) -> str | None:
        leader = self._mimic_leader()
        if leader is None:
            return "choose a joint to mimic first"
        return self._set_mimic(leader, offset=self.fields["mimic_offset"].numbers(1, "mimic offset")[0])

    def _toggle_units(self, on: bool) -> None:
        self.degrees = on
        self.units_button.setText("degrees" if on else "radians")
        self.refresh()

    def set_answers_hidden(self, on: bool) -> None:
        """Hide the fixed transform, the DH row and the offset (θ or d of the row is q + offset):
        an exam asks for them; or show them again."""
        self.fixed_group.setVisible(not on)
        self.motion_form.setRowVisible(self.fields["offset"], not on)

    # --- refresh -----------------------------------------------------------------------------
    def refresh(self) -> None:
        name, target = self.body(), self.target()
        self.setEnabled(target is not None)
        self.error_label.setText("")
        for w in (self.motion_group, self.fixed_group, self.type_combo, self.fields["joint_name"]):
            w.setEnabled(name is not None)  # the base has no joint: only its mass and shapes
        if name is None:  # nothing selected (or the base): no joint value of an earlier body stays
            self.actuated.hide()
            self.title.setText("Select a body" if target is None else
                               f"{elide(target, MAX_NAME)}: the base (no joint; mass and shapes)")
            for f in self.fields.values():
                f.show_value("")
            for label in (self.matrix_label, self.child_label, self.dh_label):
                label.setText("")
            with signals_blocked(self.mimic_combo, self.type_combo):
                self.mimic_combo.clear()
                self.type_combo.setCurrentIndex(-1)
            if target is None:
                self.visuals.clear()
                self.collisions.clear()
            else:
                self._show_body(self.doc.tree.base)
            return
        b = self.doc.tree.get_body(name)
        j = b.joint
        self.title.setText(f"{elide(name, MAX_NAME)}: {j.type} joint"
                           + (f", mimics {elide(j.mimic.joint, MAX_NAME)}" if j.mimic else ""))
        units = self._joint_units()
        axial = j.type in AXIAL_TYPES
        F = self.fields
        F["body_name"].show_value(b.name)
        F["joint_name"].show_value(j.name)
        with signals_blocked(self.type_combo):
            self.type_combo.setCurrentIndex(self.type_combo.findData(j.type))
        F["subspace"].setEnabled(j.type == "custom")
        F["subspace"].show_value("; ".join(" ".join(short_text(v) for v in row) for row in j.motion_subspace))
        for key in ("axis", "limits", "home", "offset"):
            F[key].setEnabled(axial)
        self.preset_box.setEnabled(axial)
        if axial:
            F["axis"].show_numbers(j.axis)
            F["limits"].show_numbers(j.position_limits, *units)
            F["home"].show_numbers([j.home_position], *units)
            F["offset"].show_numbers([j.offset], *units)
        else:
            for key in ("axis", "limits", "home", "offset"):
                F[key].show_value("")
        T = j.joint_to_parent_transform
        F["xyz"].show_numbers(T[:3, 3], quantity=METRES)
        F["rpy"].show_numbers(matrix_to_rpy(T), *self.angle_units(True))
        self.matrix_label.setText("\n".join("  ".join(fixed_text(v, 4, sign_space=True) for v in row) for row in T))
        C = j.child_to_joint_transform
        identity_ctj = np.array_equal(C, np.eye(4))
        rpy_c = matrix_to_rpy(C)
        rpy_c = np.degrees(rpy_c) if self.degrees else rpy_c
        self.child_label.setText("identity" if identity_ctj else
                                 f"xyz {'  '.join(map(short_text, C[:3, 3]))}   "
                                 f"rpy {'  '.join(map(short_text, rpy_c))}")
        self._show_dh(j)
        self._show_mimic(j)
        self._show_body(b)
        self.actuated.setVisible(j.name in loop_joints(self.doc.tree) or not j.actuated)
        with signals_blocked(self.actuated):
            self.actuated.setChecked(j.actuated)

    def _show_body(self, b) -> None:
        """What every body has, the base included: name, mass properties, visuals, collisions."""
        F = self.fields
        F["body_name"].show_value(b.name)
        F["mass"].show_numbers([b.mass])
        F["com"].show_numbers(b.center_of_mass, quantity=METRES)
        F["inertia"].show_numbers(b.inertia)
        self.visuals.show_visuals(b)
        self.collisions.show_visuals(b)

    def _show_dh(self, j) -> None:
        dh = j.dh_parameters
        self.dh_box.setVisible(dh is not None)
        if dh is None:
            self.dh_label.setText("— (set from a matrix)")
            for key, _label, _angle in DH_FIELDS:
                self.fields[key].show_value("")
            return
        self.dh_label.setText(f"{'standard' if dh.convention == 'dh' else 'modified (Craig)'}, "
                              f"angles in {'degrees' if self.degrees else 'radians'}")
        variable = {"revolute": "dh_theta", "prismatic": "dh_d"}.get(j.type)
        for (key, _label, angle), v in zip(DH_FIELDS, dh.as_list()):
            self.fields[key].show_numbers([v], *self.angle_units(angle))
            self.fields[key].setEnabled(key != variable)  # the joint's own variable: q
            self.fields[key].set_tip("the joint variable (not part of the fixed transform)"
                                     if key == variable else "")

    def _show_mimic(self, j) -> None:
        """The "Mimics" row: candidates are the other revolute/prismatic joints with a position."""
        axial = j.type in AXIAL_TYPES
        leaders = [o.joint.name for o in self.doc.tree.bodies
                   if o.joint is not j and o.joint.type in AXIAL_TYPES and o.joint.mimic is None]
        m = j.mimic if axial else None
        with signals_blocked(self.mimic_combo):
            if leaders != self._leaders:  # refilling 5000 names costs 0.1 s an edit
                self._leaders = leaders
                self.mimic_combo.clear()
                self.mimic_combo.addItems([NO_MIMIC, *leaders])
            self.mimic_combo.setCurrentText(m.joint if m else NO_MIMIC)
        self.mimic_combo.setEnabled(axial)
        self.mimic_combo.setToolTip("follow another joint: value = multiplier · q[joint] + offset")
        F = self.fields
        F["mimic_multiplier"].show_numbers([m.multiplier if m else 1.0])
        F["mimic_offset"].show_numbers([m.offset if m else 0.0], *self._joint_units())
        for key in ("mimic_multiplier", "mimic_offset"):
            F[key].setEnabled(m is not None)
