"""Pose panel: the pose of a chosen body in a chosen frame, in every common form."""

from __future__ import annotations

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.transforms import pose_from_xyz_rpy
from PySide6.QtCore import QEvent, QSettings, Qt
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import (  # noqa: F401 - pose_readouts is the dock's text, kept Qt-free in numbers
    DEGREES,
    METRES,
    RADIANS,
    fixed_text,
    numbers_of,
    pose_readouts,
    read_number,
    short_text,
)
from ..model.text import matrix_text, plain
from ..widgets.qt_utils import signals_blocked

POSE_OF = (("end_effector", "end effector"), ("selected", "selected body"))
ROWS = (("matrix", "T", "the 4×4 homogeneous transform"),
        ("rpy", "rpy", "roll, pitch, yaw about the fixed x, y, z axes: R = Rz(yaw)·Ry(pitch)·Rx(roll)"),
        ("zyz", "ZYZ", "Euler ZYZ angles φ θ ψ: R = Rz(φ)·Ry(θ)·Rz(ψ)"),
        ("quat", "quat", "unit quaternion w x y z"),
        ("axis_angle", "axis∠", "rotation axis [x y z] and angle"))


class PosePanel(QWidget):
    """Matrix, position, roll/pitch/yaw, ZYZ Euler, quaternion and axis–angle, live.

    Shows the end effector or the document's selected body ("pose of", remembered in
    ``settings``); choosing a body in its list selects that body in the document.
    """

    def __init__(self, doc: RobotDocument, parent=None, settings: QSettings | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.settings = settings
        self.T = np.eye(4)
        self.pose_of = QComboBox()
        self.pose_of.setObjectName("poseOf")
        for key, text in POSE_OF:
            self.pose_of.addItem(text, key)
        saved = settings.value("pose/of") if settings is not None else None
        self.pose_of.setCurrentIndex(max(self.pose_of.findData(saved), 0))
        self.pose_of.setToolTip("whose pose to show: the end effector, or the body selected in the tree, "
                                "the DH table or the viewport")
        self.body_combo = QComboBox()
        self.body_combo.setObjectName("poseBody")
        self.body_combo.setToolTip("the body whose pose is shown; choosing one selects it")
        self.frame_combo = QComboBox()
        self.frame_combo.setObjectName("poseFrame")
        self.frame_combo.setToolTip("the frame the pose is expressed in")
        self.units = QComboBox()
        self.units.addItems(["deg", "rad"])
        self.precision = QSpinBox()
        self.precision.setObjectName("posePrecision")
        self.precision.setRange(1, 12)
        self.precision.setValue(4)
        self.precision.setPrefix("digits ")
        for combo in (self.body_combo, self.frame_combo):  # long body names must not widen the panel
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(6)
        top = QHBoxLayout()
        top.addWidget(self.pose_of)
        top.addWidget(self.body_combo, 1)
        top.addWidget(QLabel("in"))
        top.addWidget(self.frame_combo, 1)
        opts = QHBoxLayout()
        opts.addWidget(self.units)
        opts.addWidget(self.precision)
        opts.addStretch(1)
        # one Copy button (text; NumPy and MATLAB in its menu) and the Go-to toggle: the panel
        # fits beside the view in a narrow window, under six sliders at 1280×800
        copy = QToolButton()
        copy.setObjectName("copy")
        copy.setText("Copy")
        copy.setToolTip("copy the matrix as text (the arrow: as a NumPy or MATLAB expression)")
        copy.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        copy.clicked.connect(lambda: self.copy("text"))
        menu = QMenu(copy)
        for style, label in (("text", "As text"), ("numpy", "As NumPy"), ("matlab", "As MATLAB")):
            menu.addAction(label, lambda s=style: self.copy(s)).setObjectName(f"copy_{style}")
        copy.setMenu(menu)
        opts.addWidget(copy)
        self.go_toggle = QPushButton("Go to…")
        self.go_toggle.setObjectName("poseGoToggle")
        self.go_toggle.setCheckable(True)
        self.go_toggle.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.go_toggle.setMinimumWidth(self.go_toggle.fontMetrics().horizontalAdvance("Go to…") + 16)
        self.go_toggle.setToolTip("type a target pose for the shown body (inverse kinematics)")
        opts.addWidget(self.go_toggle)

        mono = QFont("DejaVu Sans Mono", 10)
        self.labels: dict[str, QLabel] = {}

        def readout(key: str) -> QLabel:
            lab = QLabel()
            lab.setObjectName(f"pose_{key}")
            lab.setFont(mono)
            lab.setTextFormat(Qt.TextFormat.PlainText)  # no rich-text sniffing on every tick
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.labels[key] = lab
            return lab

        # one line per readout, the conventions in tooltips: the panel stays short enough to sit
        # under the joint sliders at 1280×800
        form = QFormLayout()
        form.setVerticalSpacing(2)
        xyz = QHBoxLayout()
        xyz.setSpacing(QFontMetrics(mono).horizontalAdvance("  "))  # as the matrix's column gap
        for key in "xyz":
            xyz.addWidget(readout(key))
        xyz.addStretch(1)
        for key, title, tip in ROWS:
            if key == "rpy":
                title_label = QLabel("x y z")
                title_label.setToolTip("position in metres")
                form.addRow(title_label, xyz)
            title_label = QLabel(title)
            title_label.setToolTip(tip)
            lab = readout(key)
            lab.setToolTip(tip)
            form.addRow(title_label, lab)
        # a target pose typed in: the shown body goes there by inverse kinematics
        self.target = QLineEdit()
        self.target.setObjectName("poseTarget")
        self.target.setPlaceholderText("x y z roll pitch yaw")
        self.target.setToolTip("a target pose for the shown body, in the chosen frame: x y z in metres, roll "
                               "pitch yaw in the shown unit (pi allowed); Enter or Go moves the body there")
        go = QPushButton("Go")
        go.setObjectName("poseGo")
        go.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        go.setMinimumWidth(go.fontMetrics().horizontalAdvance("Go") + 16)
        go.setToolTip("move the shown body to the typed pose (inverse kinematics; the joints stay within "
                      "their limits)")
        go.clicked.connect(self.go)
        self.target.returnPressed.connect(self.go)
        self.go_status = plain(QLabel())  # names the body
        self.go_status.setObjectName("poseGoStatus")
        self.go_status.setWordWrap(True)
        self.go_row = QWidget()  # shown by the Go-to toggle
        go_layout = QVBoxLayout(self.go_row)
        go_layout.setContentsMargins(0, 0, 0, 0)
        target_row = QHBoxLayout()
        target_row.addWidget(self.target, 1)
        target_row.addWidget(go)
        go_layout.addLayout(target_row)
        go_layout.addWidget(self.go_status)
        self.go_row.setVisible(False)
        self.go_toggle.toggled.connect(self._show_go)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(opts)
        layout.addLayout(form)
        layout.addWidget(self.go_row)
        layout.addStretch(1)
        self.pose_of.activated.connect(self._pose_of_chosen)
        self.body_combo.activated.connect(self._body_chosen)
        self.frame_combo.activated.connect(lambda _i: self.refresh())
        self.units.activated.connect(lambda _i: self.refresh())
        self.precision.valueChanged.connect(lambda _v: self.refresh())
        doc.treeChanged.connect(self._rebuild_choices)
        doc.configurationChanged.connect(self.refresh)
        doc.selectionChanged.connect(lambda _name: self._follow())
        self._rebuild_choices()

    def changeEvent(self, ev) -> None:  # noqa: N802
        if ev.type() == QEvent.Type.FontChange:  # presentation mode: the readout follows the text size
            for lab in self.labels.values():
                mono = QFont(lab.font())
                mono.setPointSizeF(self.font().pointSizeF())
                lab.setFont(mono)
        super().changeEvent(ev)

    def mode(self) -> str:
        """``"end_effector"`` or ``"selected"``."""
        return self.pose_of.currentData()

    def set_mode(self, mode: str) -> None:
        self.pose_of.setCurrentIndex(self.pose_of.findData(mode))
        self._pose_of_chosen()

    def _pose_of_chosen(self, _i: int = 0) -> None:
        if self.settings is not None:
            self.settings.setValue("pose/of", self.mode())
        self._follow()

    def _body_chosen(self, _i: int) -> None:
        # choosing a body sets the one selection; the panel then shows the selected body
        self.pose_of.setCurrentIndex(self.pose_of.findData("selected"))
        if self.settings is not None:
            self.settings.setValue("pose/of", "selected")
        self.doc.select(self.body_combo.currentText())
        self._follow()

    def shown_body(self) -> str | None:
        """The body whose pose the panel shows (None: nothing to show)."""
        tree = self.doc.tree
        if self.mode() == "end_effector":
            return tree.end_effector
        sel = self.doc.selection
        return sel if sel in tree.body_names else None

    def _follow(self) -> None:
        body = self.shown_body()
        with signals_blocked(self.body_combo):
            if body is None:
                self.body_combo.setCurrentIndex(-1)
            else:
                self.body_combo.setCurrentText(body)
        self.refresh()

    def _rebuild_choices(self, change=None) -> None:
        if change is not None and change.kind not in ("structure", "rename", "reset"):
            self._follow()  # the same bodies: the lists stand, the readout is redone
            return
        tree = self.doc.tree
        names = tree.body_names
        frames = [tree.base_name, *names]
        frame = self.frame_combo.currentText()
        with signals_blocked(self.body_combo, self.frame_combo):
            self.body_combo.clear()
            self.body_combo.addItems(names)
            self.frame_combo.clear()
            self.frame_combo.addItems(frames)
            self.frame_combo.setCurrentText(frame if frame in frames else tree.base_name)
        self._follow()

    def set_body(self, body: str, frame: str | None = None) -> None:
        """Show ``body`` (selecting it in the document) in ``frame``."""
        if frame is not None:
            self.frame_combo.setCurrentText(frame)
        self.body_combo.setCurrentText(body)
        self._body_chosen(self.body_combo.currentIndex())

    def refresh(self) -> None:
        tree = self.doc.tree
        body = self.shown_body()
        if not body:
            for lab in self.labels.values():
                lab.setText("—")
            return
        frame = self.frame_combo.currentText()
        try:
            T = self.doc.pose_of(body, None if frame in ("", tree.base_name) else frame)
        except KineTreeError as exc:
            self.labels["matrix"].setText(str(exc))
            return
        self.T = T
        for key, text in pose_readouts(T, self.precision.value(), self.units.currentIndex() == 0).items():
            self.labels[key].setText(text)

    def _show_go(self, on: bool) -> None:
        self.go_row.setVisible(on)
        if on:
            self.target.setFocus()

    def go(self) -> bool:
        """Move the shown body to the typed target pose; the outcome is said under the field."""
        body = self.shown_body()
        deg = self.units.currentIndex() == 0
        try:
            if body is None:
                raise KineTreeError("no body to move: select one")
            parts = numbers_of(self.target.text(), 6, "target pose")
            names = ("x", "y", "z", "roll", "pitch", "yaw")
            v = [read_number(p, f"target pose {n}", METRES if k < 3 else DEGREES if deg else RADIANS).value
                 for k, (p, n) in enumerate(zip(parts, names))]
            rpy = np.radians(v[3:]) if deg else np.array(v[3:])
            target = pose_from_xyz_rpy(v[:3], rpy)
            frame = self.frame_combo.currentText()
            result = self.doc.move_body_to(body, target, frame=frame if frame in self.doc.tree.body_names else None)
        except KineTreeError as exc:
            self._go_said(str(exc), ok=False)
            return False
        if result.success:
            self._go_said(f"{body} reached the target", ok=True)
        else:
            angle = np.degrees(result.orientation_error) if deg else result.orientation_error
            self._go_said(f"out of reach: {body} stopped {short_text(result.position_error, 3)} m and "
                          f"{short_text(angle, 3)}{'°' if deg else ' rad'} from the target (closest pose "
                          f"found within the joint limits)", ok=False)
        return result.success

    def _go_said(self, text: str, ok: bool) -> None:
        self.go_status.setText(text)
        self.go_status.setStyleSheet("" if ok else "color: #d33;")
        self.target.setStyleSheet("" if ok else "QLineEdit { border: 1px solid #d33; }")

    def copy(self, style: str) -> str:
        text = matrix_text(self.T, style, max(self.precision.value(), 6))
        QGuiApplication.clipboard().setText(text)
        self.doc.message.emit(f"Copied the pose as {'text' if style == 'text' else style}")
        return text


