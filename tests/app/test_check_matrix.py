"""View ▸ Check a matrix…: a matrix typed or pasted (text or LaTeX) is compared entry by entry
with the pose between the chosen frames at the current configuration; the lecture's Stanford A₅
typo is caught (one entry, determinant −1). The lecture's own printed matrices are read (issue 31,
item 4): ``c_5``, ``s_{23}``, ``a_2 c_2``, ``d_3``, ``\\sqrt{3}/2``, a pasted ``\\begin{bmatrix} …``;
symbolic entries are compared with the robot's symbolic pose, numbers numerically. The LaTeX
below is the lecture's text (its DH chapter), copied as printed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from kinetree.app.features.matrix_check import check_text
from kinetree.app.model.answers import parse_expression, symbol_names
from kinetree.core import KineTreeError
from kinetree.core.library import load_robot
from kinetree.core.teach.matrix_check import parse_matrix
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
    type_lines(dialog.findChild(QPlainTextEdit, "matrixInput"), ["1 0 0 0", "0 c9 0 0", "0 0 1 0"])  # no joint 9
    QTest.mouseClick(dialog.findChild(QPushButton, "checkMatrix"), Qt.MouseButton.LeftButton)
    assert dialog.findChild(QLabel, "matrixVerdict").text().startswith(
        "matrix row 2, column 2: 'c9' is not an allowed answer (unknown name 'c9'; allowed: pi,")
    try:
        parse_matrix("x" * 20000)
    except Exception as exc:  # bounded before reading
        assert "20000 characters" in str(exc)


LECTURE = {
    "planar A1": ("two_link_planar", "link1", "base",
                  r"A_1 = \begin{bmatrix} c_1 & -s_1 & 0 & a_1 c_1 \\ s_1 & c_1 & 0 & a_1 s_1 \\ 0 & 0 & 1 & 0 \\ "
                  r"0 & 0 & 0 & 1 \end{bmatrix}"),
    "planar T2": ("two_link_planar", "link2", "base",
                  r"T_2^0 = A_1 A_2 = \begin{bmatrix} c_{12} & -s_{12} & 0 & a_1 c_1 + a_2 c_{12} \\ s_{12} & c_{12} & "
                  r"0 & a_1 s_1 + a_2 s_{12} \\ 0 & 0 & 1 & 0 \\ 0 & 0 & 0 & 1 \end{bmatrix}"),
    "cylindrical T3": ("cylindrical", "link3", "base",
                       r"T_3^0 = A_1 A_2 A_3 = \begin{bmatrix} c_1 & 0 & -s_1 & -s_1 d_3 \\ s_1 & 0 & c_1 & c_1 d_3 \\ "
                       r"0 & -1 & 0 & d_1 + d_2 \\ 0 & 0 & 0 & 1 \end{bmatrix}"),
    "scara A2": ("scara", "link2", "link1",
                 r"A_2 = \begin{bmatrix} c_2 & s_2 & 0 & a_2c_2 \\ s_2 & -c_2 & 0 & a_2s_2 \\ 0 & 0 & -1 & 0 \\ "
                 r"0 & 0 & 0 & 1 \end{bmatrix}"),
    "stanford A2": ("stanford_lecture", "link2", "link1",
                    r"A_2 = \begin{bmatrix} c_2 & 0 & s_2 & 0 \\ s_2 & 0 & -c_2 & 0 \\ 0 & 1 & 0 & d_2 \\ "
                    r"0 & 0 & 0 & 1 \end{bmatrix}"),
    "stanford A3": ("stanford_lecture", "link3", "link2",
                    r"A_3 = \begin{bmatrix} 1 & 0 & 0 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 1 & d_3 \\ 0 & 0 & 0 & 1 "
                    r"\end{bmatrix}"),
    "stanford A6": ("stanford_lecture", "link6", "link5",
                    r"A_6 = \begin{bmatrix} c_6 & -s_6 & 0 & 0 \\ s_6 & c_6 & 0 & 0 \\ 0 & 0 & 1 & d_6 \\ "
                    r"0 & 0 & 0 & 1 \end{bmatrix}"),
    "wrist T63": ("stanford_lecture", "link6", "link3",
                  r"\begin{bmatrix} c_4 c_5 c_6 - s_4 s_6 & -c_4 c_5 s_6 - s_4 c_6 & c_4 s_5 & c_4 s_5 d_6 \\ "
                  r"s_4 c_5 c_6 + c_4 s_6 & -s_4 c_5 s_6 + c_4 c_6 & s_4 s_5 & s_4 s_5 d_6 \\ -s_5 c_6 & s_5 s_6 & "
                  r"c_5 & c_5 d_6 \\ 0 & 0 & 0 & 1 \end{bmatrix}"),
}
#: the lecture's Stanford A5 (its third row printed [0 −1 0 0]; α5 = +90° gives [0 1 0 0], as the
#: same lecture's spherical wrist prints it)
STANFORD_A5 = (r"A_5 = \begin{bmatrix} c_5 & 0 & s_5 & 0 \\ s_5 & 0 & -c_5 & 0 \\ 0 & -1 & 0 & 0 \\ 0 & 0 & 0 & 1 "
               r"\end{bmatrix}")
WRIST_A5 = (r"A_5 = \begin{bmatrix} c_5 & 0 & s_5 & 0 \\ s_5 & 0 & -c_5 & 0 \\ 0 & 1 & 0 & 0 \\ 0 & 0 & 0 & 1 "
            r"\end{bmatrix}")


def configuration(tree, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, tree.position_count)


@pytest.mark.parametrize("case", sorted(LECTURE))
def test_the_lectures_printed_matrices_are_read_and_equal(case):
    robot, of, frame, latex = LECTURE[case]
    tree = load_robot(robot)
    result = check_text(tree, configuration(tree), of, frame, latex, 1e-3)
    assert result.lines("T") == ["Equal: every entry of T is within 0.001."]
    assert np.allclose(result.typed, result.expected, atol=1e-9)  # its value at q, for the determinant


def test_the_lectures_stanford_a5_typo_is_caught_in_symbols():
    tree = load_robot("stanford_lecture")
    q = configuration(tree)
    lines = check_text(tree, q, "link5", "link4", STANFORD_A5, 1e-3).lines("A5")
    assert lines[:2] == ["1 of 16 entries differ from A5 (tolerance 0.001):", "  (3,2): typed -1, is 1"]
    assert "determinant -1, not +1" in lines[2]
    assert check_text(tree, q, "link5", "link4", WRIST_A5, 1e-3).equal


def test_a_wrong_symbol_is_named_with_what_it_should_be():
    tree = load_robot("stanford_lecture")
    typo = WRIST_A5.replace(r"c_5 & 0 & s_5", r"c_5 & 0 & -s_5", 1)
    result = check_text(tree, configuration(tree), "link5", "link4", typo, 1e-3)
    assert result.lines("A5")[:2] == ["1 of 16 entries differ from A5 (tolerance 0.001):", "  (1,3): typed -s5, is s5"]
    # a number where the entry varies with the joint is wrong, even where it happens to agree
    at_zero = WRIST_A5.replace(r"c_5 & 0 & s_5", r"c_5 & 0 & 0", 1)
    q = np.zeros(6)
    assert not check_text(tree, q, "link5", "link4", at_zero, 1e-3).equal


def test_a_dh_length_may_be_typed_as_its_number():
    tree = load_robot("two_link_planar")
    a1 = tree.get_body("link1").joint.dh_parameters.a
    typed = f"c1, -s1, 0, {a1:g}*c1; s1, c1, 0, {a1:g} s1; 0, 0, 1, 0"
    assert check_text(tree, configuration(tree), "link1", "base", typed, 1e-3).equal
    off = f"c1, -s1, 0, {a1 + 0.01:g}*c1; s1, c1, 0, {a1:g} s1; 0, 0, 1, 0"
    assert check_text(tree, configuration(tree), "link1", "base", off, 1e-3).lines()[1].startswith("  (1,4)")


@pytest.mark.parametrize("half_root_3", [r"\sqrt{3}/2", "sqrt(3)/2", r"\frac{\sqrt{3}}{2}"])
def test_exact_numbers_as_printed(half_root_3):
    """A numeric A1 of the planar arm at q1 = 30°, its cosines as the lecture prints them."""
    tree = load_robot("two_link_planar")
    q = np.array([math.pi / 6, 0.0])
    typed = (rf"\begin{{bmatrix}} {half_root_3} & -1/2 & 0 & {half_root_3} \\ \frac{{1}}{{2}} & {half_root_3} & 0 & "
             r"0.5 \\ 0 & 0 & 1 & 0 \\ 0 & 0 & 0 & 1 \end{bmatrix}")
    result = check_text(tree, q, "link1", "base", typed, 1e-9)
    assert result.equal and result.typed_text is None  # numbers: compared numerically


@pytest.mark.parametrize(("text", "value"), [("c_5", "cos(q5)"), ("s_{23}", "sin(q2 + q3)"), ("c5", "cos(q5)"),
                                             ("d_3", "d3"), ("a_2", "a2"), ("a_2 c_{23}", "a2*cos(q2 + q3)"),
                                             ("-s_1 d_3", "-d3*sin(q1)"),
                                             ("a1c1 + a2c12", "a1*cos(q1) + a2*cos(q1 + q2)"),
                                             (r"\sqrt{3}/2", "sqrt(3)/2"), (r"c_{\theta_1}", "cos(q1)")])
def test_the_answer_reader_takes_the_lectures_notation(text, value):
    import sympy as sp

    symbols = sp.symbols("q1:7 a1 a2 d3")
    names = symbol_names(sp.Matrix(symbols))
    typed, _ = parse_expression(text, "entry", names, radians=True)
    assert sp.simplify(typed - sp.sympify(value, locals={s.name: s for s in symbols})) == 0


@pytest.mark.parametrize("text", ["0 5", "__import__('os')", "c_5.real", r"\input{x}", "s_{23}(1)"[:-3] + "[0]"])
def test_what_is_no_expression_is_still_refused(text):
    import sympy as sp

    names = symbol_names(sp.Matrix(sp.symbols("q1:7")))
    with pytest.raises(KineTreeError):
        parse_expression(text, "entry", names, radians=True)


def test_the_dialog_checks_the_pasted_lecture_a5_in_symbols(window, qtbot):
    window.doc.open("stanford_lecture")
    window.doc.set_configuration(np.array([0.3, -0.2, 0.5, 0.4, 0.7, -0.1]))
    dialog = open_checker(window, qtbot)
    pick(dialog.findChild(QComboBox, "checkOf"), "link5")
    pick(dialog.findChild(QComboBox, "checkIn"), "link4")
    QGuiApplication.clipboard().setText(STANFORD_A5)
    editor = dialog.findChild(QPlainTextEdit, "matrixInput")
    editor.setFocus()
    QTest.keySequence(editor, QKeySequence.StandardKey.Paste)
    button = dialog.findChild(QPushButton, "checkMatrix")
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    verdict = dialog.findChild(QLabel, "matrixVerdict")
    assert "1 of 16 entries differ" in verdict.text() and "(3,2): typed -1, is 1" in verdict.text()
    assert "224" in dialog.findChild(QLabel, "matrixCell32").styleSheet()
    assert dialog.findChild(QLabel, "matrixCell23").toolTip() == f"is -c5 (= {-math.cos(0.7):.8g})"
    cell = dialog.findChild(QLabel, "matrixCell11")  # c5 at q5 = 0.7, shown as a number
    assert cell.text() == f"{math.cos(0.7):.5g}"[:len(cell.text())]
    # the configuration moves: the verdict stays, the shown values follow
    window.doc.set_configuration(np.array([0.3, -0.2, 0.5, 0.4, 0.1, -0.1]))
    assert "(3,2): typed -1, is 1" in verdict.text()
    assert dialog.findChild(QLabel, "matrixCell11").text().startswith("0.995")


def test_cells_split_as_typed():
    """Spaces between cells: an operator with a space after it joins its neighbours (MATLAB's rule);
    commas and ``&`` split only outside parentheses."""
    from kinetree.core.teach.matrix_check import matrix_cells

    rows = matrix_cells("c1 -s1 0 a1*c1 + a2*c12\ns1 c1 0 a1 * s1\n0 0 1 0")
    assert rows[0] == ["c1", "-s1", "0", "a1*c1 + a2*c12"] and rows[1] == ["s1", "c1", "0", "a1 * s1"]
    assert matrix_cells("atan2(1, 2), 0, 0, 0; 0, 1, 0, 0; 0, 0, 1, 0")[0] == ["atan2(1, 2)", "0", "0", "0"]
    assert matrix_cells(r"$T = \left[\begin{matrix} s_{23} & 0 & 0 & d_3 \\ 0&1&0&0 \\ 0&0&1&0 \end{matrix}\right]$"
                        )[0] == ["s23", "0", "0", "d3"]
    with pytest.raises(KineTreeError, match="expected 4 rows of 4 entries"):
        matrix_cells("c1 - s1 0 0\n0 1 0 0\n0 0 1 0")  # 'c1 - s1' is one cell: 3 in the first row
