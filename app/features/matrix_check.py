"""View ▸ Check a matrix…: a student types or pastes a 4×4 (text or LaTeX, as on a slide) and
sees, entry by entry, whether it is the pose of one frame in another at the current
configuration (:mod:`kinetree.core.teach.matrix_check`), with a determinant ≠ +1 flagged.

A matrix of numbers is compared numerically. One in the lecture's symbols (``c_5``, ``s_{23}``,
``a_2 c_2``, ``d_3``, ``\\sqrt{3}/2``) is compared with the robot's symbolic pose
(:func:`~kinetree.core.teach.symbolic.symbolic_model`): a symbolic entry by equivalence, as an
exercise's answer (:mod:`.answers`: an allow-list walk, never ``eval``), a number entry
numerically, where the pose's entry is a constant (a DH length may be typed as its number)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.lazy import LazyImports
from kinetree.core.teach.matrix_check import MatrixCheck, check_matrix, matrix_cells
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
)

from ..model.numbers import read_number, short_text
from ..model.text import message_label
from ..window.features import At, Feature, MenuId

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: the symbolic model and the expression parser import sympy (~0.5 s): loaded with the first
#: matrix that is not all numbers (see kinetree.core.lazy)
_SYMPY = LazyImports(__name__, {
    "symbolic_model": "kinetree.core.teach.symbolic:symbolic_model",
    "to_text": "kinetree.core.teach.symbolic:to_text", "equivalent": "..model.answers:equivalent",
    "parse_expression": "..model.answers:parse_expression", "symbol_names": "..model.answers:symbol_names",
})

WRONG = "background: rgba(224, 80, 80, 110);"
RIGHT = "background: rgba(80, 180, 100, 80);"


def _numbers(cells: list[list[str]]) -> np.ndarray | None:
    """The cells' values when every one is a number (``sqrt(3)/2`` too); None when one is not."""
    out = np.empty((4, 4))
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            try:
                out[r, c] = read_number(cell, "matrix").value
            except KineTreeError:
                try:
                    out[r, c] = _SYMPY.parse_expression(cell, "matrix", numeric=True, radians=True)[0]
                except KineTreeError:
                    return None
    return out


def _symbolic_verdict(tree, of: str, frame: str, cells: list[list[str]], tol: float):
    """(the symbolic model, the typed expressions, which entries differ, the texts) of a matrix
    in the lecture's symbols, against the symbolic pose of ``of`` in ``frame``. Independent of
    the configuration: computed once per text, robot and frames."""
    import sympy as sp

    symbolic_model, to_text = _SYMPY.symbolic_model, _SYMPY.to_text
    equivalent, parse_expression, symbol_names = _SYMPY.equivalent, _SYMPY.parse_expression, _SYMPY.symbol_names
    try:
        model = symbolic_model(tree, of, "symbolic", frame=frame)
    except KineTreeError as exc:
        raise KineTreeError(f"matrix: its entries hold symbols, and {exc}") from None
    names = symbol_names(sp.Matrix([*model.matrix, *model.variables, *model.parameters]))
    constants = set(model.parameters)
    typed, wrong = [], np.zeros((4, 4), dtype=bool)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            value, _ = parse_expression(cell, f"matrix row {r + 1}, column {c + 1}", names, radians=True)
            expected = model.matrix[r, c]
            as_numbers = expected.subs(model.parameters)  # the DH constants as this robot's numbers
            if not value.free_symbols:  # a number: numerically, against a constant entry only
                ok = not as_numbers.free_symbols and abs(float(value - as_numbers)) <= tol
            else:
                ok = equivalent(value, expected) or (not value.free_symbols & constants
                                                     and equivalent(value, as_numbers, tolerance=tol))
            typed.append(value)
            wrong[r, c] = not ok
    texts = ([[cells[r][c] for c in range(4)] for r in range(4)],
             [[to_text(model.matrix[r, c], model.order[r][c]) for c in range(4)] for r in range(4)])
    return model, typed, wrong, texts


def check_text(tree, q: np.ndarray, of: str, frame: str, text: str, tol: float,
               cache: dict | None = None) -> MatrixCheck:
    """Read the matrix ``text`` and compare it with the pose of ``of`` in ``frame`` at ``q``:
    numbers numerically; the lecture's symbols against the symbolic pose (``cache`` keeps that
    verdict while only the configuration changes). Raises :class:`KineTreeError` naming the
    cell that cannot be read."""
    cells = matrix_cells(text)
    expected = tree.get_transform(q, of, frame)
    typed = _numbers(cells)
    if typed is not None:
        return check_matrix(typed, expected, tol)
    key = (text, of, frame, tol)
    if cache is None or cache.get("key") != key:
        verdict = _symbolic_verdict(tree, of, frame, cells, tol)
        if cache is not None:
            cache.clear()
            cache.update(key=key, verdict=verdict)
    else:
        verdict = cache["verdict"]
    model, exprs, wrong, texts = verdict
    at = {**model.parameters, **dict(zip(model.variables, np.asarray(q, dtype=float)))}
    if np.abs(model.evaluate(q) - expected).max() > 1e-9:  # never a verdict about other frames
        raise KineTreeError(f"matrix: its entries hold symbols, but the symbolic pose of {of!r} in {frame!r} is "
                            "not between the robot's frames (a frame off its DH table): type numbers")
    values = np.empty((4, 4))
    for k, e in enumerate(exprs):
        v = complex(e.evalf(15, subs=at))
        values[k // 4, k % 4] = v.real if abs(v.imag) <= 1e-12 else np.nan
    return check_matrix(values, expected, tol, wrong, texts)


class MatrixCheckDialog(QDialog):
    """A matrix typed or pasted, checked against the pose of "of" in "in" at the document's
    current configuration; checked again when the configuration or the robot changes."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("checkMatrixDialog")
        self.setWindowTitle("Check a matrix")
        self.doc = window.doc
        self.result = None
        self._symbolic: dict = {}  # the last symbolic verdict (see check_text)
        self.of_combo, self.in_combo = QComboBox(), QComboBox()
        self.of_combo.setObjectName("checkOf")
        self.in_combo.setObjectName("checkIn")
        self.text = QPlainTextEdit()
        self.text.setObjectName("matrixInput")
        self.text.setPlaceholderText("4×4 (or 3×4): rows on lines, cells by spaces, commas or &; "
                                     "or LaTeX: A_3 = \\begin{bmatrix} … \\end{bmatrix}; numbers or the "
                                     "lecture's symbols (c_5, a_2 c_{23}, d_3)")
        self.tolerance = QLineEdit("0.001")
        self.tolerance.setObjectName("matrixTolerance")
        self.button = QPushButton("Check")
        self.button.setObjectName("checkMatrix")
        self.button.clicked.connect(lambda _checked=False: self.check())
        form = QFormLayout()
        form.addRow("pose of", self.of_combo)
        form.addRow("in frame", self.in_combo)
        form.addRow("tolerance", self.tolerance)
        grid = QGridLayout()
        self.cells = []
        for r in range(4):
            row = []
            for c in range(4):
                label = QLabel("")
                label.setObjectName(f"matrixCell{r + 1}{c + 1}")
                label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                label.setMinimumWidth(70)
                grid.addWidget(label, r, c)
                row.append(label)
            self.cells.append(row)
        self.verdict = message_label(QLabel(""))
        self.verdict.setObjectName("matrixVerdict")
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.button)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        layout.addLayout(grid)
        layout.addWidget(self.verdict)
        self.resize(520, 460)
        self._fill()
        self.doc.treeChanged.connect(lambda _c=None: (self._symbolic.clear(), self._fill(), self._recheck()))
        self.doc.configurationChanged.connect(self._recheck)

    def _fill(self) -> None:
        tree = self.doc.tree
        names = [tree.base_name, *tree.body_names]
        for combo, default in ((self.of_combo, self.doc.selection or tree.end_effector), (self.in_combo, None)):
            current = combo.currentText() or default or tree.base_name
            combo.blockSignals(True)
            combo.clear()
            combo.addItems(names)
            combo.setCurrentIndex(max(names.index(current) if current in names else 0, 0))
            combo.blockSignals(False)

    def _recheck(self) -> None:
        if self.result is not None:  # a verdict is shown: it stays true to what the robot is now
            self.check()

    def check(self) -> bool:
        """Read the matrix and compare it; False (and the message shown) when it cannot be read."""
        of, frame = self.of_combo.currentText(), self.in_combo.currentText()
        try:
            tol = read_number(self.tolerance.text(), "tolerance").value
            self.result = check_text(self.doc.tree, self.doc.configuration, of, frame, self.text.toPlainText(),
                                     tol, self._symbolic)
        except KineTreeError as exc:
            self.result = None
            self.verdict.setText(str(exc))
            for row in self.cells:
                for cell in row:
                    cell.setText("")
                    cell.setStyleSheet("")
            return False
        res = self.result
        for r in range(4):
            for c in range(4):
                cell = self.cells[r][c]
                cell.setText(short_text(res.typed[r, c], 5))
                cell.setStyleSheet(WRONG if res.wrong[r, c] else RIGHT)
                now = short_text(res.expected[r, c], 8)
                cell.setToolTip(f"is {now}" if res.expected_text is None else f"is {res.expected_text[r][c]} (= {now})")
        self.verdict.setText("\n".join(res.lines(f"the pose of {of!r} in {frame!r}")))
        return True


def install_matrix_check(window: MainWindow) -> QAction:
    """View ▸ Check a matrix…"""
    action = QAction("Check a &matrix…", window)
    action.setObjectName("checkMatrixAction")
    action.setToolTip("Type or paste a 4×4 (text or LaTeX) and see which entries differ from the pose "
                      "between two frames at the current configuration")

    def show() -> None:
        dialog = window.findChild(MatrixCheckDialog, "checkMatrixDialog")
        if dialog is None:
            dialog = MatrixCheckDialog(window)
        dialog.show()
        dialog.raise_()

    action.triggered.connect(show)
    window.check_matrix_action = action
    return action


FEATURE = Feature("matrix_check", install_matrix_check, actions={
    "checkMatrixAction": At(MenuId.VIEW, "tools", 70)})
