""""DH of chain…" says why its table differs from the robot's own: the rows that differ are
marked and named, the frames' changes explained, and the end effector said (and checked) equal."""

from __future__ import annotations

import re

from kinetree.app.panels.dh_of_chain import DhOfChainDialog
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel


def open_dialog(window, qtbot) -> DhOfChainDialog:
    QTest.mouseClick(window.dh.buttons["compute"], Qt.MouseButton.LeftButton)  # DH of chain…
    dialog = window.dh.findChild(DhOfChainDialog, "dhOfChainDialog")
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible())
    return dialog


def test_ur5s_computed_table_names_its_changed_rows_and_why(window, qtbot):
    window.doc.open("ur5")
    dialog = open_dialog(window, qtbot)
    why = dialog.findChild(QLabel, "dhWhy").text()
    assert why.startswith("Rows 2, 3, 4, 5, 6 differ from the robot's own table")
    assert "row 2: a -0.425 m → 0.425 m, θ 0° → 180°" in why
    assert "frame 2: x_2 points the other way along the common normal" in why
    assert "the end effector is the same" in why
    assert float(re.search(r"largest difference ([0-9.e+-]+)", why).group(1)) < 1e-12
    marked = [r for r in range(dialog.table.rowCount()) if dialog.table.item(r, 0).background().style()
              != Qt.BrushStyle.NoBrush]
    assert marked == [1, 2, 3, 4, 5]  # rows 2…6
    tip = QTextDocumentFragment.fromHtml(dialog.table.item(1, 2).toolTip()).toPlainText()  # shown as plain text
    assert tip.startswith("row 2: a -0.425 m")
    dialog.close()


def test_puma_equal_then_the_other_convention(window, qtbot):
    window.doc.open("puma560")
    dialog = open_dialog(window, qtbot)
    label = dialog.findChild(QLabel, "dhWhy")
    assert label.text() == "The computed table equals the robot's own rows."
    combo = dialog.convention
    combo.setFocus()
    QTest.keyClick(combo, Qt.Key.Key_Down)  # Modified DH (Craig)
    qtbot.waitUntil(lambda: combo.currentData() == "mdh")
    combo.activated.emit(combo.currentIndex())
    assert label.text().startswith("The robot's own rows are standard DH")
    dialog.close()
