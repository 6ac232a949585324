"""Joints panel: a slider and a spin box per movable joint; Home, Zero and Random."""

from __future__ import annotations

import math

import numpy as np
from kinetree.core.transforms import matrix_to_quat, matrix_to_rpy, quat_to_rotation, rpy_to_matrix
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from ..document import RobotDocument
from ..qt_utils import signals_blocked

TICKS = 2000
PRISMATIC_RANGE = (-1.0, 1.0)  # for prismatic joints without finite limits, metres


def channel_range(kind: str, lo: float, hi: float) -> tuple[float, float]:
    """Slider range: the limits when finite, else −π…π for angles and ±1 m for lengths."""
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
        return lo, hi
    if kind == "angle":
        return (-math.pi, math.pi)
    return PRISMATIC_RANGE


class JointRow:
    """Widgets of one channel. ``to_display``/``from_display`` convert units."""

    def __init__(self, panel: JointsPanel, key: str, label: str, kind: str, lo: float, hi: float) -> None:
        self.panel, self.key, self.kind = panel, key, kind
        self.lo, self.hi = channel_range(kind, lo, hi)
        self._shown: tuple | None = None  # (value, scale, decimals) last put on the widgets
        self.name = QLabel(label)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName(f"slider_{key}")
        self.slider.setRange(0, TICKS)
        self.slider.setMinimumWidth(120)
        self.spin = QDoubleSpinBox()
        self.spin.setObjectName(f"spin_{key}")
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(90)
        self.limits = QLabel()
        self.limits.setStyleSheet("color: #999")
        self._drag: int | None = None
        self.slider.sliderPressed.connect(self._pressed)
        self.slider.sliderReleased.connect(self._released)
        self.slider.valueChanged.connect(self._slider_moved)
        self.spin.valueChanged.connect(self._spin_changed)
        self.update_units()

    def scale(self) -> float:
        if self.kind == "angle":
            return math.degrees(1) if self.panel.degrees else 1.0
        return 1000.0 if self.panel.millimetres else 1.0

    def update_units(self) -> None:
        k = self.scale()
        with signals_blocked(self.spin):
            self.spin.setDecimals(2 if k != 1.0 else 4)
            self.spin.setRange(self.lo * k, self.hi * k)
            step = self.panel.step_for(self.kind)
            self.spin.setSingleStep(step)
            self.spin.setSuffix(("°" if self.panel.degrees else " rad") if self.kind == "angle"
                                else (" mm" if self.panel.millimetres else " m"))
        self.limits.setText(f"[{self.lo * k:.4g}, {self.hi * k:.4g}]")

    def show(self, value: float) -> None:
        key = (value, self.scale(), self.spin.decimals())
        if key == self._shown:
            return  # dragging one joint of a 100-joint robot must not touch the other 99 rows
        self._shown = key
        with signals_blocked(self.slider, self.spin):
            t = (value - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.0
            self.slider.setValue(int(round(min(max(t, 0.0), 1.0) * TICKS)))
            self.spin.setValue(value * self.scale())

    def _pressed(self) -> None:
        self._drag = self.panel.doc.begin_drag()

    def _released(self) -> None:
        self._drag = None

    def _slider_moved(self, tick: int) -> None:
        value = self.lo + (self.hi - self.lo) * tick / TICKS
        self.panel.set_value(self.key, value, self._drag)

    def _spin_changed(self, shown: float) -> None:
        self.panel.set_value(self.key, shown / self.scale(), None)


class JointsPanel(QWidget):
    """Rows of controls built when the tree changes, refreshed when the configuration does."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.degrees = True
        self.millimetres = False
        self.rows: dict[str, JointRow] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        for label, slot in (("Home", self.home), ("Zero", self.zero), ("Random", self.randomize)):
            b = QPushButton(label)
            b.setObjectName(f"joints_{label.lower()}")
            b.clicked.connect(slot)
            top.addWidget(b)
        self.angle_units = QComboBox()
        self.angle_units.addItems(["deg", "rad"])
        self.angle_units.activated.connect(self._units_changed)
        self.length_units = QComboBox()
        self.length_units.addItems(["m", "mm"])
        self.length_units.activated.connect(self._units_changed)
        self.step = QDoubleSpinBox()
        self.step.setObjectName("jointStep")
        self.step.setPrefix("step ")
        self.step.setDecimals(3)
        self.step.setRange(0.001, 90)
        self.step.setValue(1.0)
        self.step.setToolTip("Spin-box step (in the shown unit)")
        self.step.valueChanged.connect(self._units_changed)
        top.addStretch(1)
        for w in (self.angle_units, self.length_units, self.step):
            top.addWidget(w)
        outer.addLayout(top)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        outer.addWidget(self.scroll)
        self.empty = QLabel("No movable joints")
        outer.addWidget(self.empty)
        doc.treeChanged.connect(self._rebuild)
        doc.configurationChanged.connect(self.refresh)
        self._rebuild()

    def step_for(self, kind: str) -> float:
        s = self.step.value()
        if kind == "angle" and not self.degrees:
            return s * math.pi / 180
        if kind == "length" and not self.millimetres:
            return s / 1000 * 10  # 1 → 1 cm steps in metres
        return s

    def _units_changed(self, *_args) -> None:
        self.degrees = self.angle_units.currentIndex() == 0
        self.millimetres = self.length_units.currentIndex() == 1
        for row in self.rows.values():
            row.update_units()
        self.refresh()

    # --- rows --------------------------------------------------------------------------------
    def _channels(self):
        """(key, label, kind, lo, hi) for every scalar control, in configuration order."""
        tree = self.doc.tree
        for b in tree.bodies:
            j = b.joint
            if not j.position_count:  # fixed, or a mimic that follows another joint
                continue
            if j.type in ("revolute", "prismatic"):
                lo, hi = j.position_limits
                yield j.name, j.name, "angle" if j.type == "revolute" else "length", lo, hi
            elif j.type == "planar":
                lim = j.position_limits
                for k, (axis, kind) in enumerate((("x", "length"), ("y", "length"), ("θ", "angle"))):
                    yield f"{j.name}.{k}", f"{j.name} {axis}", kind, *lim[k]
            elif j.type in ("floating", "spherical"):
                lim = j.position_limits
                if j.type == "floating":
                    for k, axis in enumerate("xyz"):
                        yield f"{j.name}.{axis}", f"{j.name} {axis}", "length", *lim[4 + k]
                for axis in ("roll", "pitch", "yaw"):
                    yield f"{j.name}.{axis}", f"{j.name} {axis}", "angle", -math.pi, math.pi

    def _rebuild(self) -> None:
        inner = QWidget()
        grid = QGridLayout(inner)
        grid.setColumnStretch(1, 1)
        self.rows = {}
        for r, (key, label, kind, lo, hi) in enumerate(self._channels()):
            row = JointRow(self, key, label, kind, lo, hi)
            self.rows[key] = row
            for c, w in enumerate((row.name, row.slider, row.spin, row.limits)):
                grid.addWidget(w, r, c)
        grid.setRowStretch(len(self.rows), 1)
        self.scroll.setWidget(inner)
        self.empty.setVisible(not self.rows)
        self.refresh()

    def values(self) -> dict[str, float]:
        """Current value of every channel (core units), from the document."""
        tree, q = self.doc.tree, self.doc.configuration
        out = {}
        for b in tree.bodies:
            j = b.joint
            if not j.position_count:
                continue
            sl = tree.position_index(j.name)
            v = q[sl]
            if j.type in ("revolute", "prismatic"):
                out[j.name] = float(v[0])
            elif j.type == "planar":
                out.update({f"{j.name}.{k}": float(v[k]) for k in range(3)})
            else:
                rpy = matrix_to_rpy(quat_to_rotation(v[:4]))
                out.update({f"{j.name}.{a}": float(x) for a, x in zip(("roll", "pitch", "yaw"), rpy)})
                if j.type == "floating":
                    out.update({f"{j.name}.{a}": float(x) for a, x in zip("xyz", v[4:7])})
        return out

    def refresh(self) -> None:
        for key, value in self.values().items():
            if key in self.rows:
                self.rows[key].show(value)

    def set_value(self, key: str, value: float, drag: int | None) -> None:
        """A control moved: turn channel values back into the joint's positions."""
        tree = self.doc.tree
        joint, _, part = key.partition(".")
        if not part:
            self.doc.set_joint_position(joint, value, drag)
            return
        body = tree.find_joint(joint)
        q = self.doc.configuration
        sl = tree.position_index(joint)
        if body.joint.type == "planar":
            q[sl.start + int(part)] = value
        else:
            vals = self.values()
            vals[key] = value
            if part in "xyz" and len(part) == 1:
                q[sl.start + 4 + "xyz".index(part)] = value
            else:
                rpy = [vals[f"{joint}.{a}"] for a in ("roll", "pitch", "yaw")]
                q[sl.start : sl.start + 4] = matrix_to_quat(rpy_to_matrix(rpy))
        self.doc.set_configuration(q, f"Move {joint}", drag)

    # --- buttons -----------------------------------------------------------------------------
    def home(self) -> None:
        self.doc.set_configuration(self.doc.tree.home_configuration(), "Home pose")

    def zero(self) -> None:
        tree = self.doc.tree
        q = np.zeros(tree.position_count)
        home = tree.home_configuration()
        for b in tree.bodies:  # quaternions: identity, not zero
            if not b.joint.position_count:
                continue
            if b.joint.type in ("floating", "spherical"):
                sl = tree.position_index(b.joint.name)
                q[sl.start] = 1.0
            elif b.joint.type in ("revolute", "prismatic"):
                lo, hi = b.joint.position_limits
                if not lo <= 0 <= hi:
                    q[tree.position_index(b.joint.name)] = home[tree.position_index(b.joint.name)]
        self.doc.set_configuration(q, "Zero pose")

    def randomize(self) -> None:
        self.doc.set_configuration(self.doc.tree.random_configuration(), "Random pose")
