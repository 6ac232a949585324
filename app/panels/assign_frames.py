"""View ▸ Assign frames: the student assigns the current robot's DH frames in the lecture's
order (z_i on a joint's axis, chosen among all of them, then x_i and the origin) and the dock
checks each step in words (z_i on joint i+1's axis, DH1, DH2); at the end it shows the DH table
of the student's frames, how close its T_n^0 is to the robot's forward kinematics, and why it
differs from "DH of chain…"'s table.

Assigning frames does not edit the robot, so it makes no undo steps. The frames live in an
:class:`AssignState`; the viewport's :class:`~..viewport.assigned_frames.AssignedFrames`
listens to it."""

from __future__ import annotations

import math

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.dh.chain import subscript as _sub
from kinetree.core.dh.frame_assignment import Frame, FrameAssignment, compare_with_extraction
from kinetree.core.number_text import short_text
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.text import plain

#: Random configurations T_n^0 is compared at.
FK_SAMPLES = 20
TYPED = 1000  # the button id of "my own x and origin"
HEADERS = ["θ", "d", "a", "α", "variable"]


def _num(v: float, digits: int = 6) -> str:
    return short_text(v, digits)


def _vec(v) -> str:
    return "(" + ", ".join(_num(c, 3) for c in v) + ")"


def _deg(v: float) -> str:
    return f"{_num(math.degrees(v))}°"


class AssignState(QObject):
    """The assignment under way for the document's robot (chain base → end effector) and the
    student's pending choices for the next frame; ``changed`` after every change."""

    changed = Signal()

    def __init__(self, doc: RobotDocument) -> None:
        super().__init__()
        self.doc = doc
        self.active = False
        self.assignment: FrameAssignment | None = None
        self.error = ""
        self.z_line: int | None = None  # the axis (index into the assignment's lines) z lies on; None: not chosen
        self.z_sign = 0  # +1 along the axis, −1 against, 0 not chosen yet
        self.pick: int | None = None  # index into candidates(), or -1: typed
        self.typed: tuple[np.ndarray, np.ndarray] | None = None
        self.size = 1.0
        self._q0_poses: dict[str, np.ndarray] = {}

    def restart(self) -> None:
        """Start over for the document's robot as it is now."""
        tree = self.doc.tree
        self.assignment, self.error = None, ""
        try:
            self.assignment = FrameAssignment(tree, tree.end_effector)
        except KineTreeError as exc:
            self.error = str(exc)
        if self.assignment is not None:
            fa = self.assignment
            q0 = tree.home_configuration()
            for name in fa.joint_names:
                q0[tree.position_index(name)] = 0.0
            self._q0_poses = dict(zip(tree.body_names, tree.forward_kinematics(q0)))
            self.size = max(0.2, max(float(np.linalg.norm(ln.point)) for ln in fa.lines))
        self._clear_pending()
        self.changed.emit()

    def set_active(self, on: bool) -> None:
        self.active = on
        if on and self.assignment is None and not self.error:
            self.restart()
        else:
            self.changed.emit()

    def tree_changed(self, _change=None) -> None:
        """The robot was edited or another one opened: its frames start over (now, or when the
        dock is next shown)."""
        if self.active:
            self.restart()
        else:
            self.assignment, self.error = None, ""

    def _clear_pending(self) -> None:
        self.z_line, self.z_sign, self.pick, self.typed = None, 0, None, None

    # --- the pending frame ---
    def z(self) -> np.ndarray | None:
        fa = self.assignment
        if fa is None or fa.complete or not self.z_sign or self.z_line is None:
            return None
        return fa.z_choices(self.z_line)[0 if self.z_sign > 0 else 1]

    def candidates(self):
        z = self.z()
        return [] if z is None else self.assignment.x_candidates(z, self.z_line)

    def choose_axis(self, line: int) -> None:
        """The axis z lies on: any joint's (or the tip's), so the wrong one can be chosen and explained."""
        self.z_line, self.pick = line, None
        self.changed.emit()

    def choose_z(self, sign: int) -> None:
        self.z_sign, self.pick = sign, None
        self.changed.emit()

    def choose_x(self, index: int) -> None:
        self.pick = index
        self.changed.emit()

    def type_x(self, x: np.ndarray, origin: np.ndarray) -> None:
        self.pick, self.typed = -1, (x, origin)
        self.changed.emit()

    def pending(self) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(z, x, origin) of the pending choice, None until z and x are chosen."""
        z = self.z()
        if z is None or self.pick is None:
            return None
        if self.pick < 0:
            return None if self.typed is None else (z, *self.typed)
        c = self.candidates()[self.pick]
        return z, c.x, c.origin

    def pending_frame(self) -> Frame | None:
        p = self.pending()
        if p is None:
            return None
        try:
            return self.assignment.check(*p)[0]
        except KineTreeError:
            return None

    def problems(self) -> list[str] | None:
        p = self.pending()
        if p is None:
            return None
        try:
            return self.assignment.check(*p)[1]
        except KineTreeError as exc:
            return [str(exc)]

    def next(self) -> None:
        p = self.pending()
        if p is None or self.problems():
            return
        self.assignment.accept(*p)
        self._clear_pending()
        self.changed.emit()

    def back(self) -> None:
        if self.assignment is not None:
            self.assignment.back()
        self._clear_pending()
        self.changed.emit()

    # --- for drawing ---
    def target_line(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The axis chosen for z_i (moved to the document's configuration), while choosing;
        None until one is chosen (drawing the right one would give it away)."""
        fa = self.assignment
        if fa is None or fa.complete or self.z_line is None:
            return None
        line = fa.lines[self.z_line]
        F = np.eye(4)
        F[:3, 2], F[:3, 3] = line.direction, line.point
        M = self.moved(self.z_line, F)  # line k is fixed in the body frame k moves with
        return M[:3, 3], M[:3, 2]

    def moved(self, k: int, F: np.ndarray) -> np.ndarray:
        """Frame ``k`` (world, at q = 0) where the document's configuration puts it: frame k is
        rigid with the body joint k moves (frame 0 with the base)."""
        fa = self.assignment
        if k == 0:
            return F
        body = fa.bodies[k - 1]
        P0 = self._q0_poses.get(body)
        if P0 is None or body not in self.doc.tree.body_names:
            return F
        P = self.doc.poses()[self.doc.tree.body_names.index(body)]
        return P @ np.linalg.solve(P0, F)


class AssignFramesPanel(QWidget):
    """The steps, with real buttons; the derived table in :attr:`table_model`."""

    def __init__(self, state: AssignState) -> None:
        super().__init__()
        self.state = state
        self.setObjectName("assignFramesPanel")
        lay = QVBoxLayout(self)
        self.title = plain(QLabel())  # names the bodies on the axis, or an error quoting them
        self.title.setWordWrap(True)
        self.title.setObjectName("assignTitle")
        lay.addWidget(self.title)
        row = QHBoxLayout()
        self.z_axis = QComboBox()
        self.z_axis.setObjectName("assignZAxis")
        self.z_axis.setPlaceholderText("the axis z lies on…")
        self.z_axis.setToolTip("Every joint's axis (at q = 0) and the tip's approach axis: choose the one z lies on")
        self.z_axis.activated.connect(lambda k: self.state.choose_axis(k))
        row.addWidget(self.z_axis, 1)
        self._axes_of = None  # the assignment the combo lists the axes of
        self.z_along = QPushButton("z along the axis")
        self.z_against = QPushButton("z against")
        for b, sign in ((self.z_along, 1), (self.z_against, -1)):
            b.setCheckable(True)
            b.clicked.connect(lambda _=False, s=sign: self.state.choose_z(s))
            row.addWidget(b)
        lay.addLayout(row)
        self.x_box = QWidget()
        self.x_layout = QVBoxLayout(self.x_box)
        self.x_layout.setContentsMargins(0, 0, 0, 0)
        self.x_group = QButtonGroup(self)
        self.x_group.idClicked.connect(self._x_clicked)
        lay.addWidget(self.x_box)
        typed = QGridLayout()
        self.typed_radio = QRadioButton("my own x and origin:")
        self.x_group.addButton(self.typed_radio, TYPED)
        self.x_edit = QLineEdit()
        self.x_edit.setPlaceholderText("x direction, e.g. 1, 0, 0")
        self.o_edit = QLineEdit()
        self.o_edit.setPlaceholderText("origin in metres, e.g. 0, 0, 0.5")
        for e in (self.x_edit, self.o_edit):
            e.returnPressed.connect(self._typed)
        typed.addWidget(self.typed_radio, 0, 0, 1, 2)
        typed.addWidget(QLabel("x"), 1, 0)
        typed.addWidget(self.x_edit, 1, 1)
        typed.addWidget(QLabel("origin"), 2, 0)
        typed.addWidget(self.o_edit, 2, 1)
        self.typed_box = QWidget()
        self.typed_box.setLayout(typed)
        lay.addWidget(self.typed_box)
        self.check = plain(QLabel())
        self.check.setObjectName("assignCheck")
        self.check.setWordWrap(True)
        self.check.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.check)
        nav = QHBoxLayout()
        self.back_button = QPushButton("Back")
        self.next_button = QPushButton("Next")
        self.restart_button = QPushButton("Start over")
        self.back_button.clicked.connect(self.state.back)
        self.next_button.clicked.connect(self.state.next)
        self.restart_button.clicked.connect(self.state.restart)
        for b in (self.back_button, self.next_button, self.restart_button):
            nav.addWidget(b)
        lay.addLayout(nav)
        self.table_model = QStandardItemModel(0, len(HEADERS), self)
        self.table_model.setHorizontalHeaderLabels(HEADERS)
        self.table = QTableView()
        self.table.setModel(self.table_model)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        row_h = self.table.fontMetrics().height() + 6
        self.table.verticalHeader().setDefaultSectionSize(row_h)
        self.table.setMinimumHeight(row_h * 7 + 8)  # six rows and the header without scrolling
        lay.addWidget(self.table)
        self.result = plain(QLabel())
        self.result.setObjectName("assignResult")
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.result)
        note = QLabel("Assigning frames does not change the robot, so it adds no undo steps.")
        note.setWordWrap(True)
        lay.addWidget(note)
        lay.addStretch(1)
        self._shown_step: tuple | None = None
        state.changed.connect(self.refresh)
        self.refresh()

    def _x_clicked(self, index: int) -> None:
        if index == TYPED:
            self._typed()
        else:
            self.state.choose_x(index)

    def _typed(self) -> None:
        try:
            x = np.array([float(v) for v in self.x_edit.text().replace(";", ",").split(",")])
            o = np.array([float(v) for v in self.o_edit.text().replace(";", ",").split(",")])
            if x.shape != (3,) or o.shape != (3,) or not (np.isfinite(x).all() and np.isfinite(o).all()):
                raise ValueError
        except ValueError:
            self.check.setText("Type x and the origin as three numbers each, e.g. 1, 0, 0")
            return
        self.typed_radio.setChecked(True)
        self.state.type_x(x, o)

    def _axis_items(self) -> None:
        """The combo lists the assignment's axes; its current one is the state's choice."""
        fa = self.state.assignment
        if fa is not self._axes_of:
            self._axes_of = fa
            self.z_axis.clear()
            for line in fa.lines if fa is not None else ():
                self.z_axis.addItem(line.label)
        self.z_axis.setCurrentIndex(-1 if self.state.z_line is None else self.state.z_line)

    def _candidate_buttons(self) -> None:
        key = (id(self.state.assignment), self.state.assignment.step if self.state.assignment else None,
               self.state.z_line, self.state.z_sign)
        if key == self._shown_step:
            return
        self._shown_step = key
        for b in list(self.x_group.buttons()):
            if b is not self.typed_radio:
                self.x_group.removeButton(b)
                b.setParent(None)  # out of findChild's reach now, not at the next event loop turn
                b.deleteLater()
        self.typed_radio.setChecked(False)
        for k, c in enumerate(self.state.candidates()):
            b = QRadioButton(f"{c.text}\nx{_sub(self.state.assignment.step)} = {_vec(c.x)}, origin {_vec(c.origin)}")
            b.setObjectName(f"xCandidate{k}")
            self.x_group.addButton(b, k)
            self.x_layout.addWidget(b)

    def refresh(self) -> None:
        st, fa = self.state, self.state.assignment
        if fa is None:
            self.title.setText(st.error or "No robot")
            for w in (self.z_axis, self.z_along, self.z_against, self.next_button, self.back_button):
                w.setEnabled(False)
            self._candidate_buttons()
            self._axis_items()
            return
        self._candidate_buttons()
        self._axis_items()
        done = fa.complete
        i = fa.step
        if done:
            self.title.setText(f"All {fa.n + 1} frames are assigned (0…{fa.n}).")
        else:
            self.title.setText(f"Frame {i} of 0…{fa.n}: choose the axis z{_sub(i)} lies on and its direction, "
                               f"then x{_sub(i)} and the origin o{_sub(i)}.")
        for w in (self.z_axis, self.z_along, self.z_against, self.x_box, self.typed_box, self.check,
                  self.next_button):
            w.setVisible(not done)  # the finished table gets the room
        self.table.setVisible(done)
        for w in (self.z_axis, self.z_along, self.z_against):
            w.setEnabled(True)
        self.z_along.setChecked(st.z_sign > 0)
        self.z_against.setChecked(st.z_sign < 0)
        self.typed_box.setEnabled(bool(st.z_sign) and not done)
        self.back_button.setEnabled(fa.step > 0)
        problems = st.problems()
        self.next_button.setEnabled(problems == [])
        if done:
            self.check.setText("")
        elif st.z_line is None:
            self.check.setText(f"Choose the axis z{_sub(i)} lies on.")
        elif not st.z_sign:
            self.check.setText(f"Choose the direction of z{_sub(i)}.")
        elif problems is None:
            self.check.setText(f"Choose x{_sub(i)}.")
        elif problems:
            self.check.setText("\n".join(problems))
        else:
            xi, zp = f"x{_sub(i)}", f"z{_sub(i - 1)}"
            ok = f"{xi} ⟂ {zp} (DH1) and {xi} meets {zp} (DH2): a valid frame." if i else "A valid frame 0."
            self.check.setText(ok)
        self._show_result()

    def _show_result(self) -> None:
        fa = self.state.assignment
        self.table_model.removeRows(0, self.table_model.rowCount())
        if fa is None or not fa.complete:
            self.result.setText("")
            return
        table = fa.derive()
        for i, row in enumerate(table.rows, start=1):
            cells = [_deg(row.theta), _num(row.d), _num(row.a), _deg(row.alpha), row.variable_text(i)]
            items = [QStandardItem(c) for c in cells]
            self.table_model.appendRow(items)
            self.table_model.setVerticalHeaderItem(i - 1, QStandardItem(str(i)))
        self.table.resizeColumnsToContents()
        rng = np.random.default_rng(0)
        configs = rng.uniform(-math.pi, math.pi, (FK_SAMPLES, fa.n))
        diff = table.fk_difference(configs)
        verdict = "equals" if diff < 1e-9 else "DIFFERS from"
        lines = [f"T{_sub(fa.n)}⁰ {verdict} the robot's forward kinematics (largest difference {diff:.1e} "
                 f"over {FK_SAMPLES} random configurations)."]
        try:
            diffs = compare_with_extraction(table, fa)
        except KineTreeError as exc:
            diffs, lines = [], lines + [f"No comparison with DH of chain…: {exc}"]
        if diffs:
            lines.append("Compared with DH of chain… (extract_dh):")
            lines += [f"• {text}" for _i, text in diffs]
        else:
            lines.append("Same table as DH of chain… (extract_dh).")
        self.result.setText("\n".join(lines))
