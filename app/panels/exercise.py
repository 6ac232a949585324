"""Exercise mode: the app hides one thing, the student works it out by hand and types it in.

What is hidden (``kind``):

* ``"pose"``: the end pose T₀ⁿ = A₁⋯Aₙ (a 4×4), from the DH table and the joint values;
* ``"link"``: one A_i (a 4×4), likewise;
* ``"row"``: one DH row (a, α, d, θ at the shown joint values), from its A_i, which is given.

The configuration is random within the joint limits and reproducible (a seed): whole degrees
for revolute joints and whole millimetres for prismatic ones, so the values shown are exact
and an answer can be right to any tolerance. The panel shows its own copy of the DH table (the
DH table dock is not touched) and never moves the robot until the student asks for the
step-through. Answers are typed as numbers (:func:`~kinetree.app.numbers.read_number`:
``pi/2``, ``-0.4318*2``; nothing typed is evaluated as code) and checked entry by entry within
a tolerance (absolute, in the shown units). Export sheet writes N exercises and, on pages of its
own, their answer key to a PDF.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from kinetree.core import KineTreeError, RigidBodyTree
from PySide6.QtCore import QMarginsF, Qt
from PySide6.QtGui import QFontDatabase, QFontMetrics, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import (
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

from ..numbers import DEGREES, METRES, PLAIN, Quantity, fixed_text, read_number, short_text
from ..viewport.dh_overlay import SYMBOL, DHChain, cached_chain, chain_tip, sub

KINDS = {"pose": "the end pose T₀ⁿ", "link": "one link's A_i", "row": "one DH row"}
ROW_PARAMS = ("a", "alpha", "d", "theta")
DEFAULT_TOLERANCE = 1e-3
MAX_SHEET = 50  # exercises on one exported sheet
WRONG = "background: #ffb3b3; color: #000;"
RIGHT = "background: #c8f0c8; color: #000;"


@dataclass
class Exercise:
    """One exercise on ``chain``: ``q`` the configuration (the tree's, with the chain's joints
    set), ``link`` the link asked about (1-based; the last one for ``"pose"``), ``answer`` a 4×4
    or, for ``"row"``, ``[a, α, d, θ]`` (metres, radians); ``given`` the A_i shown for ``"row"``."""

    kind: str
    chain: DHChain
    link: int
    seed: int
    q: np.ndarray
    qs: np.ndarray  # the chain's joint values
    answer: np.ndarray
    given: np.ndarray | None = None

    @property
    def title(self) -> str:
        n = self.chain.count
        if self.kind == "pose":
            return f"Find T{sub(0)}{sup(n)} = " + "·".join(f"A{sub(j)}" for j in range(1, n + 1))
        if self.kind == "link":
            return f"Find A{sub(self.link)}"
        return f"Find DH row {self.link} (a, α, d, θ) from A{sub(self.link)}"


def sup(k: int) -> str:
    return str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def random_configuration(tree: RigidBodyTree, chain: DHChain, base_q: np.ndarray, seed: int) -> np.ndarray:
    """``base_q`` with the chain's joints at random values within their limits: whole degrees
    (revolute) or whole millimetres (prismatic); ±180° / 0…0.5 m where a limit is infinite."""
    rng = np.random.default_rng(seed)
    q = np.array(base_q, dtype=float)
    for body, joint, link in zip(chain.bodies, chain.joints, chain.links):
        lo, hi = (float(x) for x in tree.get_body(body).joint.position_limits)
        k = tree.position_index(joint).start
        unit = math.radians(1) if link.joint == "R" else 1e-3
        window = (-180, 180) if link.joint == "R" else (0, 500)
        first = math.ceil(lo / unit) if math.isfinite(lo) else window[0]
        last = math.floor(hi / unit) if math.isfinite(hi) else window[1]
        if first <= last:
            q[k] = int(rng.integers(first, last + 1)) * unit
        else:  # no whole degree (millimetre) within the limits: their middle, or the finite bound
            q[k] = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else (lo if math.isfinite(lo) else hi)
        q[k] = min(max(q[k], lo), hi)  # rounding of the unit must not step outside
    return q


def make_exercise(tree: RigidBodyTree, chain: DHChain, kind: str, link: int, seed: int,
                  base_q: np.ndarray | None = None) -> Exercise:
    """The exercise of ``kind`` about ``link`` (ignored for ``"pose"``) at the configuration of ``seed``."""
    if kind not in KINDS:
        raise KineTreeError(f"exercise kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if chain.count == 0:
        raise KineTreeError("the chain has no movable joint: nothing to ask")
    link = chain.count if kind == "pose" else min(max(int(link), 1), chain.count)
    q = random_configuration(tree, chain, tree.home_configuration() if base_q is None else base_q, seed)
    qs = chain.variables(tree, q)
    A = chain.link_transform(link, qs[link - 1])
    if kind == "pose":
        F = chain.frames(tree, q)
        answer = np.linalg.solve(F[0], F[-1])  # A₁⋯Aₙ: DH frame n in DH frame 0
    elif kind == "link":
        answer = A
    else:
        v = chain.values(link, qs[link - 1])
        answer = np.array([v[p] for p in ROW_PARAMS])
    return Exercise(kind, chain, link, seed, q, qs, answer, A if kind == "row" else None)


def is_angle(kind: str, k: int) -> bool:
    return kind == "row" and ROW_PARAMS[k] in ("alpha", "theta")


def entry_quantity(kind: str, k: int) -> Quantity:
    """What answer entry ``k`` is, in the units shown: a row's α, θ in degrees, a, d and a
    matrix's translation in metres, the rest plain numbers."""
    if kind == "row":
        return DEGREES if is_angle(kind, k) else METRES
    return METRES if k % 4 == 3 and k < 12 else PLAIN


def shown_answer(ex: Exercise, degrees: bool = True) -> list[float]:
    """The answer's entries in the shown units (row angles in degrees when ``degrees``)."""
    flat = ex.answer.reshape(-1)
    return [math.degrees(v) if degrees and is_angle(ex.kind, k) else float(v) for k, v in enumerate(flat)]


def check(ex: Exercise, typed: list[float | None], tolerance: float, degrees: bool = True) -> list[bool]:
    """Which typed entries (shown units; ``None``: empty or not a number) are within
    ``tolerance`` of the answer; angles of a DH row modulo a full turn."""
    turn = 360.0 if degrees else 2 * math.pi
    out = []
    for k, (t, a) in enumerate(zip(typed, shown_answer(ex, degrees))):
        if t is None:
            out.append(False)
            continue
        diff = t - a
        if is_angle(ex.kind, k):
            diff = (diff + turn / 2) % turn - turn / 2
        out.append(abs(diff) <= tolerance)
    return out


def number_text(v: float) -> str:
    """Enough digits to equal the answer to 1e-12 (rounding noise below 1e-15 shown as 0)."""
    return "0" if abs(v) < 1e-15 else short_text(v, 15)


def joint_values_text(ex: Exercise) -> str:
    parts = []
    for k, link in enumerate(ex.chain.links, start=1):
        v = ex.qs[k - 1]
        parts.append(f"q{k} = {short_text(math.degrees(v), 6)}°" if link.joint == "R"
                     else f"q{k} = {short_text(v, 6)} m")
    return ", ".join(parts)


def table_rows(ex: Exercise) -> list[list[str]]:
    """The exercise's copy of the DH table: per link the joint, a (m), α (°), d (m), θ (°),
    the variable as ``q_k`` (+ offset); the hidden row (``"row"``) as ``?``."""
    rows = []
    for k, link in enumerate(ex.chain.links, start=1):
        if ex.kind == "row" and k == ex.link:
            rows.append([link.joint_name or f"q{k}", "?", "?", "?", "?"])
            continue
        a, d = short_text(link.a, 6), short_text(link.d, 6)
        alpha, theta = short_text(math.degrees(link.alpha), 6), short_text(math.degrees(link.theta), 6)
        if link.joint == "R":
            theta = variable_text(k, link.offset, link.flip, True)
        else:
            d = variable_text(k, link.offset, link.flip, False)
        rows.append([link.joint_name or f"q{k}", a, alpha, d, theta])
    return rows


HEADERS = ["joint", "a (m)", "α (°)", "d (m)", "θ (°)"]


def variable_text(k: int, offset: float, flip: bool, degrees: bool) -> str:
    """The variable's cell: ``q2``, ``q2 + 90`` (an offset, shown unit), ``−q2`` (a flipped axis)."""
    sign = "−" if flip else ""
    if not offset:
        return f"{sign}q{k}"
    o = math.degrees(offset) if degrees else offset
    return f"{sign}(q{k} {'+' if o >= 0 else '−'} {short_text(abs(o), 6)})"


def matrix_html(M: np.ndarray, blank: bool = False, digits: int = 4) -> str:
    cells = "".join("<tr>" + "".join(f"<td align='right' width='70'>{'' if blank else fixed_text(v, digits)}</td>"
                                     for v in row) + "</tr>" for row in M)
    return f"<table border='1' cellspacing='0' cellpadding='6'>{cells}</table>"


def exercise_html(ex: Exercise, number: int) -> str:
    """One exercise as HTML for the printed sheet."""
    conv = "standard DH" if ex.chain.convention == "dh" else "modified DH (Craig)"
    table = "".join("<tr>" + "".join(f"<td align='center'>{html.escape(c)}</td>" for c in r) + "</tr>"
                    for r in table_rows(ex))
    head = "".join(f"<th>{h}</th>" for h in HEADERS)
    out = [f"<h3>Exercise {number}: {html.escape(ex.title)}</h3>",
           f"<p>{conv}. Joint values: {html.escape(joint_values_text(ex))}</p>",
           f"<table border='1' cellspacing='0' cellpadding='4'><tr>{head}</tr>{table}</table>"]
    if ex.kind == "row":
        out.append(f"<p>A{sub(ex.link)} =</p>" + matrix_html(ex.given))
        out.append("<p>a = ________ m &nbsp; α = ________ ° &nbsp; d = ________ m &nbsp; θ = ________ °</p>")
    else:
        out.append("<p>Answer:</p>" + matrix_html(np.zeros((4, 4)), blank=True))
    return "".join(out)


def answer_html(ex: Exercise, number: int) -> str:
    if ex.kind == "row":
        a, al, d, th = shown_answer(ex)
        body = (f"<p>a = {fixed_text(a, 4)} m, α = {fixed_text(al, 2)}°, d = {fixed_text(d, 4)} m, "
                f"θ = {fixed_text(th, 2)}°</p>")
    else:
        body = matrix_html(ex.answer)
    return f"<h3>Exercise {number}: {html.escape(ex.title)}</h3>{body}"


def write_sheet(exercises: list[Exercise], path: str, robot: str = "") -> None:
    """A PDF: the exercises, then (from a new page) the answer key."""
    parts = [f"<h1>Forward kinematics exercises{': ' + html.escape(robot) if robot else ''}</h1>"]
    for n, ex in enumerate(exercises, start=1):
        parts.append(exercise_html(ex, n))
    parts.append("<h1 style='page-break-before: always'>Answer key</h1>")
    for n, ex in enumerate(exercises, start=1):
        parts.append(answer_html(ex, n))
    doc = QTextDocument()
    doc.setHtml("".join(parts))
    from ..safe_output import atomic_output

    with atomic_output(path) as tmp:  # a failed write leaves the old sheet, never half a PDF
        writer = QPdfWriter(str(tmp))
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
        writer.setTitle("KineTree exercises")
        doc.print_(writer)
        del writer  # closes the file


class ExercisePanel(QWidget):
    """The exercise dock's contents. Read-only for the document: it moves the robot only when
    the student asks for the step-through (``on_step_through``, given the exercise)."""

    def __init__(self, doc, state, on_step_through: Callable[[Exercise], None] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("exercisePanel")
        self.doc, self.state, self.on_step_through = doc, state, on_step_through
        self.exercise: Exercise | None = None
        self.active = False
        self.stale = True  # the robot changed: a new exercise when next shown
        self.marks: list[bool] | None = None

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
        self.new_button.setToolTip("The next seed: another random configuration")
        top.addWidget(self.new_button)
        top.addStretch(1)
        top.addWidget(QLabel("tolerance"))
        self.tolerance = QLineEdit(str(DEFAULT_TOLERANCE), objectName="exerciseTolerance")
        self.tolerance.setToolTip("Largest accepted error of an entry, absolute, in the units shown")
        self.tolerance.setMaximumWidth(80)
        top.addWidget(self.tolerance)
        self.export_button = QPushButton("Export sheet…", objectName="exerciseExport", clicked=self._export_clicked)
        self.export_button.setToolTip("A PDF with several exercises like this one and their answer key")
        top.addWidget(self.export_button)
        for w in (self.kind, self.link):
            w.activated.connect(lambda _r: self.new_exercise())
        self.seed.editingFinished.connect(self._seed_edited)

        self.question = QLabel(objectName="exerciseQuestion", wordWrap=True)
        self.question.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableWidget(0, len(HEADERS), objectName="exerciseTable")
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        rows = QFontMetrics(self.table.font()).height() + 6  # compact: six rows fit under the viewport
        self.table.verticalHeader().setMinimumSectionSize(rows)
        self.table.verticalHeader().setDefaultSectionSize(rows)
        self.table.horizontalHeader().setStretchLastSection(True)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.given = QLabel(objectName="exerciseGiven")
        self.given.setFont(mono)
        self.given.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        left = QVBoxLayout()
        left.addWidget(self.question)
        beside = QHBoxLayout()  # the given A_i beside the table: the dock is short at 1280×800
        beside.addWidget(self.table, 1)
        beside.addWidget(self.given, 0, Qt.AlignmentFlag.AlignTop)
        left.addLayout(beside, 1)

        self.answer_title = QLabel(objectName="exerciseAnswerTitle")
        grid = QGridLayout()
        grid.setSpacing(4)
        self.headers = [QLabel() for _ in range(4)]
        for c, h in enumerate(self.headers):
            grid.addWidget(h, 0, c, Qt.AlignmentFlag.AlignHCenter)
        self.cells: list[QLineEdit] = []
        for r in range(4):
            for c in range(4):
                e = QLineEdit(objectName=f"exerciseCell{r}{c}")
                e.setFont(mono)
                e.setMinimumWidth(70)
                e.returnPressed.connect(self.check)
                grid.addWidget(e, r + 1, c)
                self.cells.append(e)
        buttons = QHBoxLayout()
        self.check_button = QPushButton("Check", objectName="exerciseCheck", clicked=self.check)
        self.reveal_button = QPushButton("Reveal", objectName="exerciseReveal", clicked=self.reveal)
        self.step_button = QPushButton("Step through…", objectName="exerciseStepThrough", clicked=self.step_through)
        self.step_button.setToolTip("Set the robot to this configuration and step through the link in the "
                                    "Explain dock")
        for b in (self.check_button, self.reveal_button, self.step_button):
            buttons.addWidget(b)
        self.result = QLabel(objectName="exerciseResult", wordWrap=True)
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

    def new_exercise(self) -> None:
        """An exercise of the chosen kind, link and seed, on the chain of the selection."""
        self.stale = False
        self.marks = None
        try:
            chain = self._chain()
            link = self.link.currentData() or 1
            ex = make_exercise(self.doc.tree, chain, self.kind.currentData(), link, self.seed.value(),
                               self.doc.configuration)
        except KineTreeError as exc:
            self.exercise = None
            self.question.setText(f"No exercise on this robot: {exc}")
            self.table.setRowCount(0)
            self.given.clear()
            for w in (self.check_button, self.reveal_button, self.step_button, self.export_button):
                w.setEnabled(False)
            return
        for w in (self.check_button, self.reveal_button, self.step_button, self.export_button):
            w.setEnabled(True)
        self.exercise = ex
        self._fill_links(chain, ex.link)
        self._show(ex)

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

    def _show(self, ex: Exercise) -> None:
        conv = "standard DH" if ex.chain.convention == "dh" else "modified DH (Craig)"
        extracted = ", the DH table extract_dh computes for this chain" if ex.chain.extracted else ""
        self.question.setText(f"{ex.title}  ({conv}{extracted})\nJoint values: {joint_values_text(ex)}")
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
            names = [f"{SYMBOL[p]}{sub(ex.chain.index(ex.link, p))} ({'°' if p in ('alpha', 'theta') else 'm'})"
                     for p in ROW_PARAMS]
        else:
            self.given.clear()
            self.answer_title.setText(ex.title.replace("Find ", "") + " =")
            names = ["", "", "", ""]
        for h, name in zip(self.headers, names):
            h.setText(name)
            h.setVisible(bool(name))
        for k, cell in enumerate(self.cells):
            cell.clear()
            cell.setStyleSheet("")
            cell.setToolTip("")
            cell.setVisible(ex.kind != "row" or k < 4)
        self.result.clear()

    # --- answering ---------------------------------------------------------------------------
    def answer_cells(self) -> list[QLineEdit]:
        """The cells of the answer: 16 (row by row) for a matrix, 4 (a, α, d, θ) for a DH row."""
        return self.cells[:4] if self.exercise is not None and self.exercise.kind == "row" else self.cells

    def tolerance_value(self) -> float:
        tol = read_number(self.tolerance.text(), "tolerance").value
        if tol < 0:
            raise KineTreeError(f"tolerance: must be ≥ 0, got {short_text(tol)}")
        return tol

    def check(self) -> bool:
        """Mark each wrong (or unreadable) entry red; True when every entry is right."""
        ex = self.exercise
        if ex is None:
            return False
        try:
            tol = self.tolerance_value()
        except KineTreeError as exc:
            self.result.setText(str(exc))
            return False
        typed, problems = [], {}
        for k, cell in enumerate(self.answer_cells()):
            try:
                what = f"entry {ROW_PARAMS[k]}" if ex.kind == "row" else f"entry ({k // 4 + 1}, {k % 4 + 1})"
                typed.append(read_number(cell.text(), what, entry_quantity(ex.kind, k)).value)
            except KineTreeError as exc:
                typed.append(None)
                problems[k] = str(exc)
        self.marks = check(ex, typed, tol)
        for k, (cell, ok) in enumerate(zip(self.answer_cells(), self.marks)):
            cell.setStyleSheet(RIGHT if ok else WRONG)
            cell.setToolTip("" if ok else problems.get(k, f"off by more than {short_text(tol)}"))
        wrong = self.marks.count(False)
        self.result.setText(f"Correct: every entry within {short_text(tol)}." if not wrong else
                            f"{wrong} of {len(self.marks)} entries wrong "
                            f"(red; tolerance {short_text(tol)} in the units shown).")
        return not wrong

    def reveal(self) -> None:
        """Fill in the answer (enough digits to be exact to 1e-12)."""
        ex = self.exercise
        if ex is None:
            return
        for cell, v in zip(self.answer_cells(), shown_answer(ex)):
            cell.setText(number_text(v))
            cell.setStyleSheet("")
            cell.setToolTip("")
        self.result.setText("The answer. Step through… shows how it is built.")

    def step_through(self) -> None:
        if self.exercise is not None and self.on_step_through is not None:
            self.on_step_through(self.exercise)

    # --- export ------------------------------------------------------------------------------
    def sheet_exercises(self, count: int) -> list[Exercise]:
        """``count`` exercises of the chosen kind and link, seeds from the current one on."""
        if self.exercise is None:
            raise KineTreeError("no exercise on this robot to export")
        ex = self.exercise
        count = min(max(int(count), 1), MAX_SHEET)
        return [make_exercise(self.doc.tree, ex.chain, ex.kind, ex.link, ex.seed + k, self.doc.configuration)
                for k in range(count)]

    def export_sheet(self, path: str, count: int = 4) -> None:
        """Write ``count`` exercises and their answer key to the PDF ``path``."""
        write_sheet(self.sheet_exercises(count), path, self.doc.name)

    def _export_clicked(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        count, ok = QInputDialog.getInt(self, "Export sheet", "Exercises on the sheet:", 4, 1, MAX_SHEET)
        if not ok:
            return
        path, _ = QFileDialog.getSaveFileName(self, "Export exercise sheet", "exercises.pdf", "PDF (*.pdf)")
        if not path:
            return
        try:
            self.export_sheet(path, count)
        except (KineTreeError, OSError) as exc:
            QMessageBox.warning(self, "Export sheet", str(exc))
