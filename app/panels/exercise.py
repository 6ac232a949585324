"""The Exercise dock: the app hides one thing, the student works it out by hand and types it in.

What is asked, the joint values and the checking are :mod:`kinetree.app.model.exercises` (kinds:
the end pose, one A_i, one DH row, A_i in symbols; "nice" joint values, reproducible from a
seed); the printed sheet is :mod:`kinetree.app.panels.exercise_sheet`. The panel shows its own copy
of the DH table and never moves the robot until the student asks for the step-through.

Answers (:mod:`kinetree.app.model.answers`): numbers, ``pi`` arithmetic, units (``90deg``,
``1.5708rad``, ``250mm``), sin/cos/tan/sqrt/atan2, and for A_i in symbols the lecture's
``c1``, ``s12``, ``a1*c1``; nothing typed is evaluated as code. The radians box makes a bare
number in an angle entry radians. Reveal writes the answer under each entry, the student's
entry kept. Exam hides the DH table, the DH overlay, the Pose and Explain docks (the answers)
until the student ends it, with a confirmation.
"""

from __future__ import annotations

from collections.abc import Callable

from kinetree.core import KineTreeError
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QFontMetrics, QImage
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.dh_chain import SYMBOL, DHChain, cached_chain, chain_tip, sub
from ..model.exercises import (
    ANGLE_STEPS,
    DEFAULT_TOLERANCE,
    KINDS,
    ROW_PARAMS,
    Exercise,
    answer_texts,
    check_entries,
    make_exercise,
    make_sheet,
    shown_answer,
)
from ..model.numbers import fixed_text, read_number, short_text
from ..model.text import message_box, plain, plain_tip
from .exercise_sheet import HEADERS, joint_values_text, table_rows, write_sheet

MAX_SHEET = 50  # exercises on one exported sheet
WRONG = "background: #ffb3b3; color: #000;"
RIGHT = "background: #c8f0c8; color: #000;"
REVEALED = "color: #0b5394; font-weight: bold;"

__all__ = ["MAX_SHEET", "RIGHT", "WRONG", "ExercisePanel", "shown_answer"]


class ExercisePanel(QWidget):
    """The exercise dock's contents. Read-only for the document: it moves the robot only when
    the student asks for the step-through (``on_step_through``, given the exercise). Exam mode
    is ``state.exam`` (the teach state's ``examChanged``), which the answer-showing views follow."""

    def __init__(self, doc, state, on_step_through: Callable[[Exercise], None] | None = None,
                 parent: QWidget | None = None, render_figure: Callable[[], QImage | None] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercisePanel")
        self.doc, self.state, self.on_step_through = doc, state, on_step_through
        self.render_figure = render_figure
        self.exercise: Exercise | None = None
        self.active = False
        self.stale = True  # the robot changed: a new exercise when next shown
        self.marks: list[bool] | None = None
        self.last_sheet_exercises: list[Exercise] = []  # the last exported sheet, for the caller
        self.last_sheet = None

        top = QHBoxLayout()
        top.addWidget(QLabel("Hide"))
        self.kind = QComboBox(objectName="exerciseKind")
        for key, label in KINDS.items():
            self.kind.addItem(label, key)
        top.addWidget(self.kind)
        self.link_label = QLabel("link")
        top.addWidget(self.link_label)
        self.link = QComboBox(objectName="exerciseLink")
        top.addWidget(self.link)
        top.addWidget(QLabel("seed"))
        self.seed = QSpinBox(objectName="exerciseSeed", minimum=0, maximum=999_999)
        top.addWidget(self.seed)
        self.new_button = QPushButton("New exercise", objectName="exerciseNew", clicked=self.next_exercise)
        self.new_button.setToolTip("The next seed: other joint values")
        top.addWidget(self.new_button)
        top.addStretch(1)
        self.export_button = QPushButton("Export sheet…", objectName="exerciseExport", clicked=self._export_clicked)
        self.export_button.setToolTip("A PDF of mixed exercises (kinds and links) from this seed, with a figure "
                                      "of the robot and an answer key")
        top.addWidget(self.export_button)
        options = QHBoxLayout()
        options.addWidget(QLabel("angles"))
        self.angle_step = QComboBox(objectName="exerciseAngles")
        for step in ANGLE_STEPS:
            self.angle_step.addItem(f"multiples of {step}°" if step > 1 else "whole degrees", step)
        self.angle_step.setToolTip("Joint angles of the exercises: multiples of 30° (exact sines and cosines) "
                                   "by default; prismatic joints at multiples of 50 mm")
        options.addWidget(self.angle_step)
        self.radians = QCheckBox("radians", objectName="exerciseRadians")
        self.radians.setToolTip("Angles in answers and joint values in radians: a bare number is radians "
                                "(90deg still reads as degrees)")
        options.addWidget(self.radians)
        options.addWidget(QLabel("tolerance"))
        self.tolerance = QLineEdit(str(DEFAULT_TOLERANCE), objectName="exerciseTolerance")
        self.tolerance.setToolTip("Largest accepted error of an entry, absolute, in the units shown")
        self.tolerance.setMaximumWidth(80)
        options.addWidget(self.tolerance)
        options.addStretch(1)
        self.exam = QCheckBox("Exam", objectName="exerciseExam")
        self.exam.setToolTip("Hide the DH table, the DH overlay, the Pose, Explain and Assign frames docks and "
                             "the Joint dock's fixed transform, and disable Check a matrix (they show the "
                             "answers) until the exam is ended")
        self.exam.clicked.connect(self._exam_clicked)
        options.addWidget(self.exam)
        for w in (self.kind, self.link, self.angle_step):
            w.activated.connect(lambda _r: self.new_exercise())
        self.radians.toggled.connect(lambda _on: self._units_changed())
        self.seed.editingFinished.connect(self._seed_edited)
        state.examChanged.connect(self._exam_changed)

        self.question = plain(QLabel(objectName="exerciseQuestion", wordWrap=True))
        self.table = QTableWidget(0, len(HEADERS), objectName="exerciseTable")
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        rows = QFontMetrics(self.table.font()).height() + 6  # compact: six rows fit under the viewport
        self.table.verticalHeader().setMinimumSectionSize(rows)
        self.table.verticalHeader().setDefaultSectionSize(rows)
        self.table.horizontalHeader().setStretchLastSection(True)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.given = plain(QLabel(objectName="exerciseGiven"))
        self.given.setFont(mono)
        self.given.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QVBoxLayout()
        left.addWidget(self.question)
        beside = QHBoxLayout()  # the given A_i beside the table: the dock is short at 1280×800
        beside.addWidget(self.table, 1)
        beside.addWidget(self.given, 0, Qt.AlignmentFlag.AlignTop)
        left.addLayout(beside, 1)

        self.answer_title = plain(QLabel(objectName="exerciseAnswerTitle"))
        grid = QGridLayout()
        grid.setSpacing(2)
        self.headers = [plain(QLabel()) for _ in range(4)]
        for c, h in enumerate(self.headers):
            grid.addWidget(h, 0, c, Qt.AlignmentFlag.AlignHCenter)
        self.cells: list[QLineEdit] = []
        self.solutions: list[QLabel] = []  # the revealed answer under each entry
        for r in range(4):
            for c in range(4):
                e = QLineEdit(objectName=f"exerciseCell{r}{c}")
                e.setFont(mono)
                e.setMinimumWidth(70)
                e.returnPressed.connect(self.check)
                grid.addWidget(e, 2 * r + 1, c)
                self.cells.append(e)
                s = plain(QLabel(objectName=f"exerciseSolution{r}{c}"))
                s.setStyleSheet(REVEALED)
                s.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                s.hide()
                grid.addWidget(s, 2 * r + 2, c, Qt.AlignmentFlag.AlignRight)
                self.solutions.append(s)
        buttons = QHBoxLayout()
        self.check_button = QPushButton("Check", objectName="exerciseCheck", clicked=self.check)
        self.reveal_button = QPushButton("Reveal", objectName="exerciseReveal", clicked=self.reveal)
        self.step_button = QPushButton("Step through…", objectName="exerciseStepThrough", clicked=self.step_through)
        self.step_button.setToolTip("Set the robot to this configuration and step through the link in the "
                                    "Explain dock")
        for b in (self.check_button, self.reveal_button, self.step_button):
            buttons.addWidget(b)
        self.result = plain(QLabel(objectName="exerciseResult", wordWrap=True))
        right = QVBoxLayout()
        right.addWidget(self.answer_title)
        right.addLayout(grid)
        right.addLayout(buttons)
        right.addWidget(self.result)
        right.addStretch(1)

        body = QHBoxLayout()
        body.addLayout(left, 3)
        body.addSpacing(12)
        body.addLayout(right, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(options)
        layout.addLayout(body, 1)
        doc.treeChanged.connect(lambda _c: self._tree_changed())

    # --- lifecycle ---------------------------------------------------------------------------
    def set_active(self, on: bool) -> None:
        """The dock shown: a first exercise (or a new one for a changed robot). Hidden: nothing."""
        self.active = bool(on)
        if on and self.stale:
            self.new_exercise()

    def _tree_changed(self) -> None:
        self.stale = True
        if self.active:
            self.new_exercise()

    def _chain(self) -> DHChain:
        tree = self.doc.tree
        return cached_chain(tree, chain_tip(tree, self.doc.selection), self.state.convention)

    def _seed_edited(self) -> None:
        # editingFinished also comes when the box merely loses focus: typed answers stay then
        if self.exercise is None or self.seed.value() != self.exercise.seed:
            self.new_exercise()

    def next_exercise(self) -> None:
        self.seed.setValue(self.seed.value() + 1)
        self.new_exercise()

    @property
    def in_radians(self) -> bool:
        return self.radians.isChecked()

    def new_exercise(self) -> None:
        """An exercise of the chosen kind, link and seed, on the chain of the selection."""
        self.stale = False
        self.marks = None
        try:
            chain = self._chain()
            link = self.link.currentData() or 1
            ex = make_exercise(self.doc.tree, chain, self.kind.currentData(), link, self.seed.value(),
                               self.doc.configuration, self.angle_step.currentData())
        except KineTreeError as exc:
            self.exercise = None
            self.question.setText(f"No exercise on this robot: {exc}")
            self.table.setRowCount(0)
            self.given.clear()
            for w in (self.check_button, self.reveal_button, self.step_button, self.export_button):
                w.setEnabled(False)
            return
        self.exercise = ex
        self._enable()
        self._fill_links(chain, ex.link)
        self._show(ex)

    def _enable(self) -> None:
        exam = self.state.exam
        on = self.exercise is not None
        self.check_button.setEnabled(on)
        self.export_button.setEnabled(on)  # in an exam, a sheet without its answer key
        # in an exam nothing shows the answer: no Reveal, no step-through in the Explain dock
        self.reveal_button.setEnabled(on and not exam)
        self.step_button.setEnabled(on and not exam)

    def _fill_links(self, chain: DHChain, current: int) -> None:
        self.link.blockSignals(True)
        self.link.clear()
        for i, body in enumerate(chain.bodies, start=1):
            self.link.addItem(f"{i}: {body}", i)
        self.link.setCurrentIndex(current - 1)
        self.link.blockSignals(False)
        pose = self.kind.currentData() == "pose"
        self.link.setEnabled(not pose)
        self.link_label.setEnabled(not pose)

    def _units_changed(self) -> None:
        """Radians on or off: the question and the headers in the new unit, the entries kept."""
        if self.exercise is not None:
            self._show_question(self.exercise)
            if any(s.isVisible() for s in self.solutions):
                self.reveal()

    def _show_question(self, ex: Exercise) -> None:
        conv = "standard DH" if ex.chain.convention == "dh" else "modified DH (Craig)"
        extracted = ", the DH table extract_dh computes for this chain" if ex.chain.extracted else ""
        values = "" if ex.kind == "symbolic" else f"\nJoint values: {joint_values_text(ex, self.in_radians)}"
        self.question.setText(f"{ex.title}  ({conv}{extracted}){values}")
        if ex.kind == "row":
            unit = "rad" if self.in_radians else "°"
            names = [f"{SYMBOL[p]}{sub(ex.chain.index(ex.link, p))} ({unit if p in ('alpha', 'theta') else 'm'})"
                     for p in ROW_PARAMS]
        else:
            names = ["", "", "", ""]
        for h, name in zip(self.headers, names):
            h.setText(name)
            h.setVisible(bool(name))

    def _show(self, ex: Exercise) -> None:
        self._show_question(ex)
        rows = table_rows(ex)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if text == "?":
                    item.setBackground(Qt.GlobalColor.yellow)
                    item.setForeground(Qt.GlobalColor.black)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        header = self.table.horizontalHeader()  # every value whole: as wide as the columns
        self.table.setMinimumWidth(sum(header.sectionSize(c) for c in range(len(HEADERS))) + 8
                                   + 2 * self.table.frameWidth()
                                   + self.style().pixelMetric(self.style().PixelMetric.PM_ScrollBarExtent))
        if ex.kind == "row":
            self.given.setText(f"A{sub(ex.link)} =\n" + "\n".join(
                "  ".join(fixed_text(v, 4).rjust(8) for v in row) for row in ex.given))
            self.answer_title.setText(f"DH row {ex.link}:")
        else:
            self.given.clear()
            self.answer_title.setText(ex.title.replace("Find ", "").split(" in symbols")[0] + " =")
        for k, cell in enumerate(self.cells):
            cell.clear()
            cell.setStyleSheet("")
            cell.setToolTip("")
            cell.setVisible(k < ex.entries)
        for s in self.solutions:
            s.clear()
            s.hide()
        self.result.clear()

    # --- answering ---------------------------------------------------------------------------
    def answer_cells(self) -> list[QLineEdit]:
        """The cells of the answer: 16 (row by row) for a matrix, 4 (a, α, d, θ) for a DH row."""
        return self.cells[:self.exercise.entries] if self.exercise is not None else self.cells

    def tolerance_value(self) -> float:
        tol = read_number(self.tolerance.text(), "tolerance").value
        if tol < 0:
            raise KineTreeError(f"tolerance: must be ≥ 0, got {short_text(tol)}")
        return tol

    def check(self) -> bool:
        """Mark each wrong (or unreadable) entry red, its reason in the tooltip; True when every
        entry is right."""
        ex = self.exercise
        if ex is None:
            return False
        try:
            tol = self.tolerance_value()
        except KineTreeError as exc:
            self.result.setText(str(exc))
            return False
        results = check_entries(ex, [cell.text() for cell in self.answer_cells()], tol, self.in_radians)
        self.marks = [ok for ok, _ in results]
        for cell, (ok, why) in zip(self.answer_cells(), results):
            cell.setStyleSheet(RIGHT if ok else WRONG)
            cell.setToolTip(plain_tip(why))  # quotes what was typed
        wrong = self.marks.count(False)
        problem = next((why for ok, why in results if not ok and "not" in why), "")
        note = next((why for ok, why in results if ok and why), "")  # e.g. an equivalent DH row
        where = "equivalent" if ex.kind == "symbolic" else f"within {short_text(tol)}"
        if not wrong:
            self.result.setText(f"Correct: every entry {where}." + (f"\n{note[0].upper()}{note[1:]}." if note else ""))
        else:
            self.result.setText(f"{wrong} of {len(self.marks)} entries wrong "
                                f"(red; tolerance {short_text(tol)} in the units shown)."
                                + (f"\n{problem}" if problem else ""))
        return not wrong

    def reveal(self) -> None:
        """Show the answer under each entry (exact forms such as π/2 and √3/2 where there are,
        else 4 significant digits; symbols in the lecture's notation); typed entries are kept."""
        ex = self.exercise
        if ex is None or self.state.exam:
            return
        for s, text in zip(self.solutions, answer_texts(ex, self.in_radians)):
            s.setText(text)
            s.show()
        self.result.setText("The answers are under your entries. Step through… shows how they are built.")

    def step_through(self) -> None:
        if self.exercise is not None and self.on_step_through is not None and not self.state.exam:
            self.on_step_through(self.exercise)

    # --- exam ----------------------------------------------------------------------------------
    def _exam_clicked(self, on: bool) -> None:
        if on:
            self.state.set_exam(True)
            return
        answer = QMessageBox.question(self, "End the exam",
                                      "End the exam? The DH table, the DH overlay, Pose, Explain, "
                                      "Assign frames, Check a matrix and the Joint dock's fixed transform "
                                      "show the answers again.",
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        if answer == QMessageBox.StandardButton.Yes:
            self.state.set_exam(False)
        else:
            self.exam.setChecked(True)

    def _exam_changed(self, on: bool) -> None:
        self.exam.setChecked(on)
        if on:
            for s in self.solutions:
                s.hide()
        self._enable()

    # --- export ------------------------------------------------------------------------------
    def sheet_exercises(self, count: int) -> list[Exercise]:
        """Up to ``count`` exercises of mixed kinds and links, from the current seed on."""
        if self.exercise is None:
            raise KineTreeError("no exercise on this robot to export")
        count = min(max(int(count), 1), MAX_SHEET)
        return make_sheet(self.doc.tree, self.exercise.chain, count, self.seed.value(), self.doc.configuration,
                          self.angle_step.currentData())

    def export_sheet(self, path: str, count: int = 6):
        """Write ``count`` exercises, a figure of the robot and their answer key to the PDF
        ``path`` (in an exam, no key: it could hold the exam's own exercise); returns the sheet's
        layout (its pages)."""
        figure = self.render_figure() if self.render_figure is not None else None
        self.last_sheet_exercises = self.sheet_exercises(count)
        self.last_sheet = write_sheet(self.last_sheet_exercises, path, self.doc.name, figure, self.in_radians,
                                      answers=not self.state.exam)
        return self.last_sheet

    def _export_clicked(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        count, ok = QInputDialog.getInt(self, "Export sheet", "Exercises on the sheet:", 6, 1, MAX_SHEET)
        if not ok:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export exercise sheet", "exercises.pdf", "PDF (*.pdf)")
        if not path:
            return
        try:
            self.export_sheet(path, count)
        except (KineTreeError, OSError) as exc:
            message_box(self, "Export sheet", str(exc))
