"""View ▸ Check a matrix…: a student types or pastes a 4×4 (text or LaTeX, as on a slide) and
sees, entry by entry, whether it is the pose of one frame in another at the current
configuration (:mod:`kinetree.core.matrix_check`), with a determinant ≠ +1 flagged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kinetree.core import KineTreeError
from kinetree.core.matrix_check import check_matrix, parse_matrix
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

from .numbers import read_number, short_text
from .qt_utils import menu_named
from .text import message_label

if TYPE_CHECKING:
    from .main_window import MainWindow

WRONG = "background: rgba(224, 80, 80, 110);"
RIGHT = "background: rgba(80, 180, 100, 80);"


class MatrixCheckDialog(QDialog):
    """A matrix typed or pasted, checked against the pose of "of" in "in" at the document's
    current configuration; checked again when the configuration or the robot changes."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.setObjectName("checkMatrixDialog")
        self.setWindowTitle("Check a matrix")
        self.doc = window.doc
        self.result = None
        self.of_combo, self.in_combo = QComboBox(), QComboBox()
        self.of_combo.setObjectName("checkOf")
        self.in_combo.setObjectName("checkIn")
        self.text = QPlainTextEdit()
        self.text.setObjectName("matrixInput")
        self.text.setPlaceholderText("4×4 (or 3×4): rows on lines, cells by spaces, commas or &; "
                                     "or LaTeX: A_3 = \\begin{bmatrix} … \\end{bmatrix}")
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
        self.doc.treeChanged.connect(lambda _c=None: (self._fill(), self._recheck()))
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
            typed = parse_matrix(self.text.toPlainText())
            expected = self.doc.tree.get_transform(self.doc.configuration, of, frame)
            self.result = check_matrix(typed, expected, tol)
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
                cell.setToolTip(f"is {short_text(res.expected[r, c], 8)}")
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
    menu_named(window, "&View").addAction(action)
    return action
