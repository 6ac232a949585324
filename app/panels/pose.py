"""Pose panel: the pose of a chosen body in a chosen frame, in every common form."""

from __future__ import annotations

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.transforms import rotation_readouts
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..document import RobotDocument
from ..qt_utils import signals_blocked
from ..text import matrix_text


class PosePanel(QWidget):
    """Matrix, position, roll/pitch/yaw, ZYZ Euler, quaternion and axis–angle, live."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.T = np.eye(4)
        self._user_body: str | None = None
        self.body_combo = QComboBox()
        self.body_combo.setObjectName("poseBody")
        self.frame_combo = QComboBox()
        self.frame_combo.setObjectName("poseFrame")
        self.units = QComboBox()
        self.units.addItems(["deg", "rad"])
        self.precision = QSpinBox()
        self.precision.setObjectName("posePrecision")
        self.precision.setRange(1, 12)
        self.precision.setValue(4)
        self.precision.setPrefix("digits ")
        top = QHBoxLayout()
        top.addWidget(QLabel("Body"))
        top.addWidget(self.body_combo, 1)
        top.addWidget(QLabel("in"))
        top.addWidget(self.frame_combo, 1)
        opts = QHBoxLayout()
        opts.addWidget(self.units)
        opts.addWidget(self.precision)
        opts.addStretch(1)

        mono = QFont("DejaVu Sans Mono", 10)
        self.labels: dict[str, QLabel] = {}
        form = QFormLayout()
        for key, title in (("matrix", "T (4×4)"), ("x", "x"), ("y", "y"), ("z", "z"),
                           ("rpy", "roll pitch yaw\n(XYZ fixed: Rz·Ry·Rx)"),
                           ("zyz", "Euler ZYZ\n(Rz(φ)·Ry(θ)·Rz(ψ))"),
                           ("quat", "quaternion\n(w x y z)"), ("axis_angle", "axis, angle")):
            lab = QLabel()
            lab.setObjectName(f"pose_{key}")
            lab.setFont(mono)
            lab.setTextFormat(Qt.TextFormat.PlainText)  # no rich-text sniffing on every tick
            lab.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.labels[key] = lab
            form.addRow(title, lab)
        copy_row = QHBoxLayout()
        for style, label in (("text", "Copy"), ("numpy", "Copy NumPy"), ("matlab", "Copy MATLAB")):
            b = QPushButton(label)
            b.setObjectName(f"copy_{style}")
            b.clicked.connect(lambda _=False, s=style: self.copy(s))
            copy_row.addWidget(b)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addLayout(opts)
        layout.addLayout(form)
        layout.addLayout(copy_row)
        layout.addStretch(1)
        self.body_combo.activated.connect(self._body_chosen)
        self.frame_combo.activated.connect(lambda _i: self.refresh())
        self.units.activated.connect(lambda _i: self.refresh())
        self.precision.valueChanged.connect(lambda _v: self.refresh())
        doc.treeChanged.connect(self._rebuild_choices)
        doc.configurationChanged.connect(self.refresh)
        self._rebuild_choices()

    def changeEvent(self, ev) -> None:  # noqa: N802
        if ev.type() == QEvent.Type.FontChange:  # presentation mode: the readout follows the text size
            for lab in self.labels.values():
                mono = QFont(lab.font())
                mono.setPointSizeF(self.font().pointSizeF())
                lab.setFont(mono)
        super().changeEvent(ev)

    def _body_chosen(self, _i: int) -> None:
        self._user_body = self.body_combo.currentText()
        self.refresh()

    def _rebuild_choices(self) -> None:
        tree = self.doc.tree
        names = tree.body_names
        frames = [tree.base_name, *names]
        body = self._user_body if self._user_body in names else tree.end_effector
        frame = self.frame_combo.currentText()
        with signals_blocked(self.body_combo, self.frame_combo):
            self.body_combo.clear()
            self.body_combo.addItems(names)
            if body:
                self.body_combo.setCurrentText(body)
            self.frame_combo.clear()
            self.frame_combo.addItems(frames)
            self.frame_combo.setCurrentText(frame if frame in frames else tree.base_name)
        self.refresh()

    def set_body(self, body: str, frame: str | None = None) -> None:
        self._user_body = body
        self.body_combo.setCurrentText(body)
        if frame is not None:
            self.frame_combo.setCurrentText(frame)
        self.refresh()

    def refresh(self) -> None:
        tree = self.doc.tree
        body = self.body_combo.currentText()
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
        d = self.precision.value()
        deg = self.units.currentIndex() == 0
        ang = (lambda v: np.degrees(v)) if deg else (lambda v: np.asarray(v))
        unit = "°" if deg else " rad"

        def row(values) -> str:  # a space for "+": widths stay put while values change sign
            return "  ".join(f"{v: .{d}f}" for v in np.round(np.asarray(values, dtype=float), d) + 0.0)

        L = self.labels
        L["matrix"].setText(matrix_text(T, "text", d))
        for k, key in enumerate("xyz"):
            L[key].setText(row([T[k, 3]]))
        r = rotation_readouts(T)
        L["rpy"].setText(row(ang(r["rpy"])) + unit)
        L["zyz"].setText(row(ang(r["zyz"])) + unit)
        L["quat"].setText(row(r["quat"]))
        L["axis_angle"].setText(f"[{row(r['axis'])}], {float(ang(r['angle'])):.{d}f}{unit}")

    def copy(self, style: str) -> str:
        text = matrix_text(self.T, style, max(self.precision.value(), 6))
        QGuiApplication.clipboard().setText(text)
        self.doc.message.emit(f"Copied the pose as {'text' if style == 'text' else style}")
        return text


