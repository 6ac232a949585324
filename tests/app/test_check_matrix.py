"""View ▸ Check a matrix…: a matrix typed or pasted (text or LaTeX) is compared entry by entry
with the pose between the chosen frames at the current configuration; the lecture's Stanford A₅
typo is caught (one entry, determinant −1)."""

from __future__ import annotations

import numpy as np
from kinetree.core.matrix_check import parse_matrix
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QLineEdit, QPlainTextEdit, QPushButton


def open_checker(window, qtbot) -> QDialog:
    window.check_matrix_action.trigger()  # View ▸ Check a matrix…
    dialog = window.findChild(QDialog, "checkMatrixDialog")
    qtbot.waitUntil(lambda: dialog.isVisible())
    return dialog


def pick(combo: QComboBox, text: str) -> None:
    combo.setFocus()
    QTest.keyClicks(combo, text)  # typing selects the matching entry, as a user does
    assert combo.currentText() == text


def type_lines(editor, lines) -> None:
    """Type each line, Return between them (keyClicks takes no line break)."""
    editor.setFocus()
    for k, line in enumerate(lines):
        if k:
            QTest.keyClick(editor, Qt.Key.Key_Return)
        QTest.keyClicks(editor, line)


def cell_style(dialog, r, c) -> str:
    return dialog.findChild(QLabel, f"matrixCell{r}{c}").styleSheet()


def test_a_typed_matrix_with_one_wrong_entry(window, qtbot):
    window.doc.open("puma560")
    q = np.array([0.3, 0.9, -0.5, 0.2, 0.4, -0.1])
    window.doc.set_configuration(q)
    dialog = open_checker(window, qtbot)
    pick(dialog.findChild(QComboBox, "checkOf"), "link3")
    pick(dialog.findChild(QComboBox, "checkIn"), "base")
    T = window.doc.tree.get_transform(q, "link3")
    typed = T.round(4).copy()
    typed[1, 2] += 0.05  # the student's mistake: entry (2,3)
    rows = [" ".join(f"{v:.4f}" for v in row) for row in typed[:3]]  # a 3×4, as slides often print it
    type_lines(dialog.findChild(QPlainTextEdit, "matrixInput"), rows)
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    verdict = dialog.findChild(QLabel, "matrixVerdict").text()
    assert verdict.startswith("1 of 16 entries differ from the pose of 'link3' in 'base' (tolerance 0.001)")
    assert f"(2,3): typed {typed[1, 2]:.6g}, is {T[1, 2]:.6g}" in verdict
    wrong = [(r, c) for r in range(1, 5) for c in range(1, 5) if "224" in cell_style(dialog, r, c)]
    assert wrong == [(2, 3)]
    # the robot moves on: the verdict follows (every rotation entry of link3 changes with q1)
    window.doc.set_configuration(q + 0.2)
    assert "entries differ" in dialog.findChild(QLabel, "matrixVerdict").text()
    assert len([1 for r in range(1, 4) for c in range(1, 5) if "224" in cell_style(dialog, r, c)]) > 1
    # a tighter tolerance flags the rounding too
    window.doc.set_configuration(q)
    tol = dialog.findChild(QLineEdit, "matrixTolerance")
    tol.selectAll()
    QTest.keyClicks(tol, "1e-9")
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    assert int(dialog.findChild(QLabel, "matrixVerdict").text().split()[0]) > 1


def test_the_lectures_stanford_a5_typo_pasted_as_latex(window, qtbot):
    window.doc.open("stanford_lecture")
    window.doc.set_configuration(np.array([0, 0, 0.5, 0, 0, 0]))  # θ5 = 0: c5 = 1, s5 = 0
    dialog = open_checker(window, qtbot)
    pick(dialog.findChild(QComboBox, "checkOf"), "link5")
    pick(dialog.findChild(QComboBox, "checkIn"), "link4")
    # the lecture's printed A5 at θ5 = 0, its third row [0 −1 0 0] (α5 = +90° gives [0 1 0 0])
    latex = (r"A_5 = \begin{bmatrix} 1 & 0 & 0 & 0 \\ 0 & 0 & -1 & 0 \\ 0 & -1 & 0 & 0 \\ 0 & 0 & 0 & 1 "
             r"\end{bmatrix}")
    QGuiApplication.clipboard().setText(latex)
    editor = dialog.findChild(QPlainTextEdit, "matrixInput")
    editor.setFocus()
    QTest.keySequence(editor, QKeySequence.StandardKey.Paste)
    assert editor.toPlainText() == latex
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    verdict = dialog.findChild(QLabel, "matrixVerdict").text()
    assert "1 of 16 entries differ" in verdict and "(3,2): typed -1, is 1" in verdict
    assert "determinant -1, not +1: it is no rotation (a mirror: a sign typo?)" in verdict
    # the corrected matrix is equal, and a proper rotation
    editor.selectAll()
    QTest.keyClicks(editor, "1 0 0 0; 0 0 -1 0; 0 1 0 0; 0 0 0 1")
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    assert dialog.findChild(QLabel, "matrixVerdict").text() == \
        "Equal: every entry of the pose of 'link5' in 'link4' is within 0.001."


def test_unreadable_cells_are_named(window, qtbot):
    window.doc.open("two_link_planar")
    dialog = open_checker(window, qtbot)
    type_lines(dialog.findChild(QPlainTextEdit, "matrixInput"), ["1 0 0 0", "0 c1 0 0", "0 0 1 0"])
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    assert dialog.findChild(QLabel, "matrixVerdict").text().startswith("matrix row 2, column 2: 'c1' is not a number")
    try:
        parse_matrix("x" * 20000)
    except Exception as exc:  # bounded before reading
        assert "20000 characters" in str(exc)
