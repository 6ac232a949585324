"""What a person does to a widget, for the GUI tests: pick a combo entry, type into a field."""

from __future__ import annotations

from PySide6.QtCore import Qt


def type_into(qtbot, field, text: str) -> None:
    """Replace the line edit's text by typing, then press Enter."""
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def choose(qtbot, combo, text: str) -> None:
    """Pick an entry of a combo box as a user does: open its popup and click the entry."""
    row = combo.findText(text)
    assert row >= 0, [combo.itemText(i) for i in range(combo.count())]
    combo.showPopup()
    view = combo.view()
    qtbot.waitUntil(view.isVisible)
    rect = view.visualRect(view.model().index(row, 0))
    with qtbot.waitSignal(combo.activated, timeout=2000):
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: not view.isVisible())
