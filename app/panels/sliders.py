"""Joints panel: a slider and a spin box per movable joint; Home, Zero and Random."""

from __future__ import annotations

import math
import time

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.dh.chain import lecture_variables, variable_label
from kinetree.core.model.channels import RPY, channel_values, joint_channels, with_channel, zero_positions
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSlider,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import fixed_text, short_text
from ..model.text import MAX_NAME, elide, plain, plain_tip
from ..widgets.number_spin import ExactSpinBox, spin_units
from ..widgets.qt_utils import signals_blocked
from ..widgets.wheel_guard import scroll_instead

TICKS = 2000
PRISMATIC_RANGE = (-1.0, 1.0)  # for prismatic joints without finite limits, metres
ROW_SPACING = 4  # pixels between slider rows
BURST_S = 1.0  # wheel/key steps on one slider closer together than this are one undo step
#: A slider's minimum width without and with the torque column: the ~400 px default dock at 1280×800
#: stays unscrolled for Talos's names and the four-bar's "(passive)" rows (at 80: 2-12 px too wide).
SLIDER_MIN_PX = {False: 60, True: 60}
#: The most rows the panel builds at once: more joints are shown a page at a time. Qt lays out
#: a grid of rows in time that grows with the square of their number (4000 rows: 50 s).
PAGE_ROWS = 100
#: Gravity for the torque column when the robot sets none (``tree.gravity`` is 0 by default).
STANDARD_GRAVITY = (0.0, 0.0, -9.80665)


def torque_text(value: float, unit: str, prefix: str = "") -> str:
    """A torque as the Joints panel shows it: 2 decimals, 3 below 1 (no "-0", no "1e-17")."""
    return f"{prefix}{fixed_text(value, 2 if abs(value) >= 1 else 3)} {unit}"


def torque_rows(tree) -> list[tuple[str, str]]:
    """(row key, prefix) per DoF of ``tree.gravity_torque``: a one-DoF joint, a planar part or a
    floating joint's x/y/z on its own row; a spherical or floating joint's moment about its
    child frame's x/y/z axis on the roll/pitch/yaw row, prefixed "Mx"/"My"/"Mz"."""
    out = []
    for name in tree.dof_names():
        joint, _, part = name.rpartition(".")
        if joint and part in ("mx", "my", "mz"):
            out.append((f"{joint}.{RPY['xyz'.index(part[1])]}", f"M{part[1]} "))
        else:
            out.append((name, ""))
    return out


def channel_range(kind: str, lo: float, hi: float) -> tuple[float, float]:
    """Slider range: the limits when finite, else −π…π for angles and ±1 m for lengths."""
    if math.isfinite(lo) and math.isfinite(hi) and hi > lo:
        return lo, hi
    if kind == "angle":
        return (-math.pi, math.pi)
    return PRISMATIC_RANGE


class JointRow:
    """Widgets of one channel. ``to_display``/``from_display`` convert units."""

    def __init__(self, panel: JointsPanel, key: str, label: str, kind: str, lo: float, hi: float,
                 what: str | None = None) -> None:
        """``what`` names the joint in messages and the tool tip when ``label`` is its variable (θ₃)."""
        self.panel, self.key, self.kind = panel, key, kind
        self.lo, self.hi = channel_range(kind, lo, hi)
        self._shown: tuple | None = None  # (value, scale, decimals) last put on the widgets
        self.name = plain(QLabel(elide(label, MAX_NAME)))
        if len(label) > MAX_NAME or (what and what != label):
            self.name.setToolTip(plain_tip(elide(label if not what or what == label else f"{label}: joint {what}")))
        self.slider = _RowSlider(panel.input_filter, self, Qt.Orientation.Horizontal)
        self.slider.setObjectName(f"slider_{key}")
        self.slider.setRange(0, TICKS)
        self.slider.setMinimumWidth(SLIDER_MIN_PX[panel.show_torques])
        self.spin = _RowSpin(panel.input_filter, self, what or label)  # exact: never rounds what is typed or stored
        self.spin.setObjectName(f"spin_{key}")
        self.spin.setKeyboardTracking(False)
        self.spin.setMinimumWidth(90)
        self.limits = QLabel()
        self.limits.setStyleSheet("color: #999")
        self.torque = QLabel()  # gravity torque (JointsPanel.set_torques_visible), hidden by default
        self.torque.setObjectName(f"torque_{key}")
        self.torque.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if not panel.show_torques:
            self.torque.hide()  # explicitly: not shown with the grid (shown, it follows the grid)
        self._drag: int | None = None
        self._burst: int | None = None  # undo-merge token of the current run of wheel/key steps
        self._burst_time = 0.0
        self._wheel_rest = 0  # wheel angle not yet turned into a step (touchpads send small deltas)
        # no focus from the wheel: scrolling the list over a slider must not grab and move it
        self.slider.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.spin.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.slider.sliderPressed.connect(self._pressed)
        self.slider.sliderReleased.connect(self._released)
        self.slider.valueChanged.connect(self._slider_moved)
        self.spin.coreCommitted.connect(self._spin_changed)
        self.update_units()

    def scale(self) -> float:
        if self.kind == "angle":
            return math.degrees(1) if self.panel.degrees else 1.0
        return 1000.0 if self.panel.millimetres else 1.0

    def update_units(self) -> None:
        k = self.scale()
        with signals_blocked(self.spin):
            self.spin.set_units(*spin_units(self.kind, self.panel.degrees, self.panel.millimetres),
                                (self.lo, self.hi))
            self.spin.setSingleStep(self.panel.step.value())  # the step is in the shown unit
            self.spin.setSuffix(("°" if self.panel.degrees else " rad") if self.kind == "angle"
                                else (" mm" if self.panel.millimetres else " m"))
        self.limits.setText(f"[{short_text(self.lo * k, 4)}, {short_text(self.hi * k, 4)}]")

    def show(self, value: float) -> None:
        key = (value, self.scale(), self.spin.decimals())
        if key == self._shown:
            return  # dragging one joint of a 100-joint robot must not touch the other 99 rows
        self._shown = key
        with signals_blocked(self.slider, self.spin):
            t = (value - self.lo) / (self.hi - self.lo) if self.hi > self.lo else 0.0
            self.slider.setValue(int(round(min(max(t, 0.0), 1.0) * TICKS)))
            self.spin.show_core(value)

    def step_by(self, steps: float) -> None:
        """Move by ``steps`` times the panel's step (in the shown unit), clamped to the range.
        Steps that follow each other within BURST_S on the focused slider are one undo step."""
        value = self.panel.values().get(self.key)
        if value is None:
            return
        new = min(max(value + steps * self.panel.step_for(self.kind), self.lo), self.hi)
        self.set_core_value(new)

    def set_core_value(self, value: float) -> None:
        self.panel.set_value(self.key, value, self.burst())

    def burst(self) -> int:
        """The undo-merge token of the current run of steps (a new one after a pause)."""
        now = time.monotonic()
        if self._burst is None or now - self._burst_time > BURST_S:
            self._burst = self.panel.doc.begin_drag()
        self._burst_time = now
        return self._burst

    def end_burst(self) -> None:
        self._burst = None
        self._wheel_rest = 0

    def _pressed(self) -> None:
        self._drag = self.panel.doc.begin_drag()

    def _released(self) -> None:
        self._drag = None

    def _slider_moved(self, tick: int) -> None:
        value = self.lo + (self.hi - self.lo) * tick / TICKS
        self.panel.set_value(self.key, value, self._drag)

    def _spin_changed(self, core: float) -> None:
        self.panel.set_value(self.key, core, None)  # each spin-box step or typed value: one undo step


def _filtered(base: type) -> type:
    """``base`` whose wheel, key and focus-out events go through the panel's :class:`_InputFilter`
    first. Not an event filter on each widget: that ran Python for every event of every row
    (a 5000-joint tree re-laid out 20,000 widgets, each event through Python, per added row)."""

    class Filtered(base):
        def __init__(self, input_filter: _InputFilter, row: JointRow, *args) -> None:
            super().__init__(*args)
            self._filter, self.row = input_filter, row

        def wheelEvent(self, ev) -> None:  # noqa: N802
            if not self._filter.eventFilter(self, ev):
                super().wheelEvent(ev)

        def keyPressEvent(self, ev) -> None:  # noqa: N802
            if not self._filter.eventFilter(self, ev):
                super().keyPressEvent(ev)

        def focusOutEvent(self, ev) -> None:  # noqa: N802
            self._filter.eventFilter(self, ev)
            super().focusOutEvent(ev)

    Filtered.__name__ = Filtered.__qualname__ = f"Row{base.__name__}"
    return Filtered


class _InputFilter(QObject):
    """Wheel and keys on the rows' sliders and spin boxes.

    Over an unfocused control the wheel scrolls the list (it used to move whichever slider
    was under the cursor, one undo step per notch). On a focused slider the wheel and the
    arrow/page keys step by the panel's step in the shown unit, merged into one undo step.
    """

    KEYS = {Qt.Key.Key_Left: -1, Qt.Key.Key_Down: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Up: 1,
            Qt.Key.Key_PageDown: -10, Qt.Key.Key_PageUp: 10}

    def __init__(self, panel: JointsPanel) -> None:
        super().__init__(panel)
        self.panel = panel

    def _row(self, obj: QObject) -> JointRow | None:
        row = getattr(obj, "row", None)
        return row if row is not None and self.panel.rows.get(row.key) is row else None

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        t = ev.type()
        if t not in (QEvent.Type.Wheel, QEvent.Type.KeyPress, QEvent.Type.FocusOut):
            return False
        row = self._row(obj)
        if row is None:
            return False
        if t == QEvent.Type.FocusOut:
            row.end_burst()
            return False
        if t == QEvent.Type.Wheel:
            if not obj.hasFocus():  # the app's wheel guard already scrolls the list (a panel on its own)
                scroll_instead(obj, ev)
                return True
            if obj is not row.slider:
                return False  # a focused spin box steps itself (by the same step)
            delta = ev.angleDelta().y() or ev.angleDelta().x()
            if ev.inverted():
                delta = -delta
            row._wheel_rest += delta
            steps = int(row._wheel_rest / 120)
            row._wheel_rest -= steps * 120
            if steps:
                row.step_by(steps)
            return True
        if obj is not row.slider or ev.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        key = ev.key()
        if key in self.KEYS:
            row.step_by(self.KEYS[key])
            return True
        if key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            row.set_core_value(row.lo if key == Qt.Key.Key_Home else row.hi)
            return True
        return False


_RowSlider = _filtered(QSlider)
_RowSpin = _filtered(ExactSpinBox)


class JointsPanel(QWidget):
    """Rows of controls built when the tree changes, refreshed when the configuration does."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.degrees = True
        self.millimetres = False
        self.rows: dict[str, JointRow] = {}
        self.input_filter = _InputFilter(self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()  # the buttons, then the units: on one line, or one above the other (fit_docks)
        buttons, units = QHBoxLayout(), QHBoxLayout()
        for label, slot, tip in (("Home", self.home, "every joint to its home position"),
                                 ("Zero", self.zero, "every joint to zero (or its home when 0 is out of limits)"),
                                 ("Random", self.randomize, "every joint to a random position within its limits")):
            # tool buttons: as wide as their text (push buttons take 80 px each), so that the
            # panel fits beside the view in a narrow window
            b = QToolButton(text=label, toolTip=tip, objectName=f"joints_{label.lower()}")
            b.clicked.connect(slot)
            buttons.addWidget(b)
        buttons.addStretch(1)
        self.angle_units, self.length_units = QComboBox(), QComboBox()
        for box, items in ((self.angle_units, ["deg", "rad"]), (self.length_units, ["m", "mm"])):
            box.addItems(items)
            box.activated.connect(self._units_changed)
        self.step = QDoubleSpinBox()
        self.step.setObjectName("jointStep")
        self.step.setPrefix("step ")
        self.step.setDecimals(3)
        self.step.setRange(0.001, 90)
        self.step.setValue(1.0)
        self.step.setToolTip("Step of the arrow keys and the wheel on a focused slider, and of the "
                             "spin boxes, in the shown unit (deg or rad; m or mm)")
        self.step.valueChanged.connect(self._units_changed)
        units.addStretch(1)
        for w in (self.angle_units, self.length_units, self.step):
            units.addWidget(w)
        top.addLayout(buttons)
        top.addLayout(units)
        outer.addLayout(top)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        outer.addWidget(self.scroll)
        self.empty = QLabel("No movable joints")
        outer.addWidget(self.empty)
        self.page = 0  # shown rows: PAGE_ROWS channels from page * PAGE_ROWS
        self._page_of_joint: dict[str, int] = {}
        pager = QHBoxLayout()
        self.page_prev, self.page_next = QToolButton(), QToolButton()
        self.page_label = QLabel()
        self.page_label.setObjectName("jointsPage")
        for b, text, step in ((self.page_prev, "◀", -1), (self.page_next, "▶", 1)):
            b.setText(text)
            b.setObjectName(f"joints_page_{'prev' if step < 0 else 'next'}")
            b.clicked.connect(lambda _=False, step=step: self.show_page(self.page + step))
        pager.addWidget(self.page_prev)
        pager.addWidget(self.page_label, 1)
        pager.addWidget(self.page_next)
        self.pager = QWidget()
        self.pager.setLayout(pager)
        self.pager.setToolTip("A robot with many joints shows them a page at a time; selecting a body "
                              "shows the page of its joint")
        outer.addWidget(self.pager)
        self._specs: list[tuple] = []
        self._rows_version = 0  # counts row sets: new rows have shown nothing yet
        self._shown_key: tuple | None = None
        self._shown_q = np.zeros(0)
        self._joint_at: list[str] = []  # the joint of each configuration entry
        self.show_torques = False
        self._torque_key: tuple | None = None  # (tree, revision) the torque rows were mapped for
        self._torque_rows: list[tuple[str, str]] = []
        doc.treeChanged.connect(self._on_tree_changed)
        doc.configurationChanged.connect(self.refresh)
        doc.selectionChanged.connect(self._show_page_of)
        self._rebuild()

    def step_for(self, kind: str) -> float:
        """The step in core units (rad, m): the step box counts in the shown unit."""
        s = self.step.value()
        if kind == "angle":
            return math.radians(s) if self.degrees else s
        return s / 1000 if self.millimetres else s

    def _units_changed(self, *_args) -> None:
        self.degrees = self.angle_units.currentIndex() == 0
        self.millimetres = self.length_units.currentIndex() == 1
        for row in self.rows.values():
            row.update_units()
        self.refresh()

    # --- rows --------------------------------------------------------------------------------
    def _channels(self):
        """(key, label, kind, lo, hi, (joint name, part), passive) for every scalar control, in
        configuration order (see :mod:`kinetree.core.model.channels`). A joint set by a DH row is labelled
        with the lecture's variable (θ₁, d₃; its name too unless that is q1 or theta1). A passive
        joint of a closed loop gets a read-only row: its value follows the loop, solved."""
        variables = lecture_variables(self.doc.tree)
        for b in self.doc.tree.bodies:
            for c in joint_channels(b.joint):
                label = variable_label(c.label, variables) if c.part == "" and c.label == c.joint else c.label
                yield c.key, label, c.kind, c.lo, c.hi, (c.joint, c.part), not b.joint.actuated

    def _on_tree_changed(self, change=None) -> None:
        """Rows follow the movable joints: untouched rows stay (with their focus and drag),
        changed ones are replaced in place, new ones added at the end; else (and for another
        document) all are rebuilt."""
        specs = list(self._channels())
        if specs != self._specs and (change is None or change.kind == "reset" or not self._follow(specs)):
            if change is None or change.kind == "reset":
                self.page = 0
            self._rebuild(specs)
        else:
            self.refresh()

    def _rebuild(self, specs: list[tuple] | None = None) -> None:
        inner = QWidget()
        self.grid = grid = QGridLayout(inner)
        grid.setColumnStretch(1, 1)
        # as app/window/layout.py reckons a row: six rows fit the default Joints dock at 1280×800
        grid.setContentsMargins(4, 4, 4, 4)
        grid.setVerticalSpacing(ROW_SPACING)
        grid.setHorizontalSpacing(4)  # between a row's name, slider, spin box and limits
        self.rows = {}
        self.channels: dict[str, tuple[str, str]] = {}
        self._grid_row: dict[str, int] = {}
        self._specs = list(self._channels()) if specs is None else specs
        pages = max(1, -(-len(self._specs) // PAGE_ROWS))
        self.page = min(max(self.page, 0), pages - 1)
        first = self.page * PAGE_ROWS
        for r, spec in enumerate(self._specs[first:first + PAGE_ROWS]):
            self._add_row(spec, r)
        self._update_pager()
        self._end = len(self.rows)
        self._rows_version += 1
        grid.setRowStretch(self._end, 1)
        self.scroll.setWidget(inner)
        self.empty.setVisible(not self.rows)
        self.refresh()

    def _update_pager(self) -> None:
        """The pager's label and buttons, and which page each joint is on, for ``_specs``."""
        pages = max(1, -(-len(self._specs) // PAGE_ROWS))
        first = self.page * PAGE_ROWS
        self._page_of_joint = {}
        if pages > 1:
            for k, spec in enumerate(self._specs):
                self._page_of_joint.setdefault(spec[5][0], k // PAGE_ROWS)
        self.pager.setVisible(pages > 1)
        self.page_label.setText(f"joints {first + 1}–{first + len(self.rows)} of {len(self._specs)}")
        self.page_prev.setEnabled(self.page > 0)
        self.page_next.setEnabled(self.page < pages - 1)

    def show_page(self, page: int) -> None:
        """Show the rows of page ``page`` (of PAGE_ROWS channels each)."""
        if page != self.page and 0 <= page * PAGE_ROWS < len(self._specs):
            self.page = page
            self._rebuild(self._specs)

    def _show_page_of(self, body: str | None) -> None:
        """A body was selected: show the page of its joint's row (when the rows are paged)."""
        if not self._page_of_joint or body is None:
            return
        try:
            joint = self.doc.tree.get_body(body).joint.name
        except KineTreeError:  # the base
            return
        page = self._page_of_joint.get(joint)
        if page is not None:
            self.show_page(page)

    def _add_row(self, spec: tuple, r: int) -> None:
        key, label, kind, lo, hi, channel, passive = spec
        row = JointRow(self, key, label, kind, lo, hi, None if channel[1] else channel[0])  # messages name the joint
        if passive:  # shown, moving as the loop demands, never set by hand
            for w in (row.slider, row.spin):
                w.setEnabled(False)
                w.setToolTip(f"{channel[0]} is passive: the closed loop sets it (Joint panel ▸ Actuated to drive it)")
            row.name.setText(f"{row.name.text()} (passive)")
        self.rows[key] = row
        self.channels[key] = channel
        self._grid_row[key] = r
        for c, w in enumerate((row.name, row.slider, row.spin, row.limits, row.torque)):
            self.grid.addWidget(w, r, c)
            if self.grid.parentWidget().isVisible() and (w is not row.torque or self.show_torques):
                w.show()  # now, not at the next event loop pass: it can take the focus at once

    def _drop_row(self, key: str) -> None:
        row = self.rows.pop(key)
        del self.channels[key], self._grid_row[key]
        for w in (row.name, row.slider, row.spin, row.limits, row.torque):
            self.grid.removeWidget(w)
            w.hide()
            w.deleteLater()

    def _follow(self, specs: list[tuple]) -> bool:
        """Change only the rows that differ; False if the order does not allow it. Paged, the
        shown page's rows follow its slice of ``specs`` (a body added to a 1000-body tree adds
        one row to the last page instead of building the page's 100 rows again)."""
        first = self.page * PAGE_ROWS
        shown, specs_all = self._specs[first:first + PAGE_ROWS], specs
        specs = specs[first:first + PAGE_ROWS]
        if first and not specs:
            return False  # the page is gone: rebuilt (at a valid page)
        old = {s[0]: s for s in shown}
        keys = [s[0] for s in specs]
        kept = [k for k in keys if k in old]
        places = [self._grid_row[k] for k in kept]
        if places != sorted(places) or keys[:len(kept)] != kept or len(specs) - len(kept) > 200:
            return False  # reordered, or new rows before old ones: rebuild
        new_keys = set(keys)
        for key in [s[0] for s in shown]:
            if key not in new_keys:
                self._drop_row(key)
        self.grid.setRowStretch(self._end, 0)
        for spec in specs:
            key = spec[0]
            if key in old and old[key] == spec:
                continue
            r = self._grid_row[key] if key in old else self._end
            if key in old:
                self._drop_row(key)
            else:
                self._end += 1
            self._add_row(spec, r)
        self.grid.setRowStretch(self._end, 1)
        self.rows = {k: self.rows[k] for k in keys}  # configuration order, as built
        self._rows_version += 1
        self._specs = specs_all
        self._update_pager()
        self.empty.setVisible(not self.rows)
        self.refresh()
        return True

    def values(self, joints: set[str] | None = None) -> dict[str, float]:
        """Current value of every channel (core units), from the document (of ``joints`` only)."""
        tree, q = self.doc.tree, self.doc.configuration
        out = {}
        for b in tree.bodies:
            j = b.joint
            if j.position_count and (joints is None or j.name in joints):
                for part, v in channel_values(j, q[tree.position_index(j.name)]).items():
                    out[f"{j.name}.{part}" if part else j.name] = v
        return out

    def refresh(self) -> None:
        # an edit that moves joints signals the tree and then the configuration: show them once
        tree, q = self.doc.tree, self.doc.configuration
        key = (tree, tree.revision, self._rows_version, self.degrees, self.millimetres, self.step.value())
        joints = None
        if key == self._shown_key and len(q) == len(self._shown_q):
            # only the configuration moved: dragging one joint of a 1000-joint tree reads one joint
            changed = np.flatnonzero(q != self._shown_q)
            if not changed.size:
                return
            joints = {self._joint_at[i] for i in changed}
        else:
            self._joint_at = []  # configuration entries follow the bodies' order
            for b in tree.bodies:
                self._joint_at += [b.joint.name] * b.joint.position_count
        self._shown_key, self._shown_q = key, q.copy()
        for key, value in self.values(joints).items():
            if key in self.rows:
                self.rows[key].show(value)
        if self.show_torques:  # every joint's torque follows any joint: once per change, only while shown
            self._show_torques(tree, q)

    # --- gravity torques ---------------------------------------------------------------------
    def set_torques_visible(self, on: bool) -> None:
        """Show each joint's gravity torque (N·m, or N along a length) beside its slider: what
        holds the robot still at the shown configuration under ``tree.gravity``, or standard
        gravity along −z when the robot sets none."""
        self.show_torques = bool(on)
        for row in self.rows.values():
            row.torque.setVisible(self.show_torques)
            row.slider.setMinimumWidth(SLIDER_MIN_PX[self.show_torques])
        if self.show_torques:
            self._torque_key = None
            self._show_torques(self.doc.tree, self.doc.configuration)

    def _show_torques(self, tree, q: np.ndarray) -> None:
        g = tree.gravity if np.any(tree.gravity) else np.array(STANDARD_GRAVITY)
        key = (tree, tree.revision)
        if key != self._torque_key:  # rows and their tooltips: once per tree version
            self._torque_key, self._torque_rows = key, torque_rows(tree)
            where = ("tree.gravity" if np.any(tree.gravity)
                     else "standard gravity along −z (the robot sets no gravity)")
            tip = (f"Gravity torque: what the joint must give to hold the robot still here, under "
                   f"g = ({short_text(g[0])}, {short_text(g[1])}, {short_text(g[2])}) m/s², {where}")
            for row in self.rows.values():
                row.torque.setToolTip(tip)
                row.torque.setText("")
        try:
            tau = tree.actuated_gravity_torque(q, g)  # on loops: the actuated joints hold it
        except KineTreeError as exc:  # e.g. numbers that overflow: say so instead of stale values
            for row in self.rows.values():
                row.torque.setText("?")
                row.torque.setToolTip(plain_tip(exc))
            self._torque_key = None
            return
        for (key, prefix), value in zip(self._torque_rows, tau):
            row = self.rows.get(key)
            if row is not None:
                text = torque_text(value, "N·m" if row.kind == "angle" else "N", prefix)
                if row.torque.text() != text:
                    row.torque.setText(text)

    def set_value(self, key: str, value: float, drag: int | None) -> None:
        """A control moved: turn channel values back into the joint's positions."""
        tree = self.doc.tree
        # the joint by its name as the row was built: keys are not parsed (joint names may hold
        # dots), and joints are looked up by joint name only (a body may share the name)
        joint, part = self.channels[key]
        if not part:
            self.doc.set_joint_position(joint, value, drag)
            return
        q = self.doc.configuration
        sl = tree.position_index(joint)
        q[sl] = with_channel(tree.find_joint(joint).joint, q[sl], part, value)
        self.doc.set_configuration(q, f"Move {joint}", drag)

    # --- buttons -----------------------------------------------------------------------------
    def home(self) -> None:
        self.doc.set_configuration(self.doc.tree.home_configuration(), "Home pose")

    def zero(self) -> None:
        tree = self.doc.tree
        q = np.zeros(tree.position_count)
        for b in tree.bodies:  # quaternions: identity, not zero; limits that exclude 0: home
            if b.joint.position_count:
                q[tree.position_index(b.joint.name)] = zero_positions(b.joint)
        self.doc.set_configuration(q, "Zero pose")

    def randomize(self) -> None:
        self.doc.set_random_configuration("Random pose")
