"""Exact cell editing for table views: a plain line edit opened with the cell's exact text.

The model gives the exact text as its ``EditRole`` and keeps the message of a refused edit
(``error_at(index)``). Leaving an editor whose text did not change is no edit; Enter on a refused
value keeps the editor open, red, with the message beside it; clicking away from a refused value
closes the editor and the cell itself shows the message (red, tooltip).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QPoint, Qt
from PySide6.QtGui import QBrush, QColor, QPalette
from PySide6.QtWidgets import QAbstractItemDelegate, QLineEdit, QStyledItemDelegate, QToolTip, QWidget

from ..model.numbers import same_numbers
from ..model.text import elide, plain_tip
from .field import ERROR_STYLE


class CellEditor(QLineEdit):
    """The editor of one cell: remembers the text it opened with and whether it committed."""

    def __init__(self, parent: QWidget, index: QModelIndex) -> None:
        super().__init__(parent)
        self.setObjectName("cellEditor")
        self.index = QPersistentModelIndex(index)
        self.original: str | None = None
        self.committed = False
        self.error = ""

    def show_error(self, message: str) -> None:
        self.error = message
        self.setStyleSheet(ERROR_STYLE if message else "")
        self.setToolTip(plain_tip(elide(message)))  # quotes the typed text and names
        if message and self.isVisible():
            QToolTip.showText(self.mapToGlobal(QPoint(0, self.height())), self.toolTip(), self)


class ExactDelegate(QStyledItemDelegate):
    """Opens :class:`CellEditor` on ``EditRole`` text; commits through ``model.setData``."""

    def initStyleOption(self, option, index: QModelIndex) -> None:  # noqa: N802
        super().initStyleOption(option, index)
        model = index.model()
        if hasattr(model, "error_at") and model.error_at(index):  # red even in a selected row
            option.backgroundBrush = QBrush(QColor("#5a1d1d"))
            option.palette.setColor(QPalette.ColorRole.Highlight, QColor("#a02828"))
            option.palette.setColor(QPalette.ColorRole.HighlightedText, QColor("white"))

    def createEditor(self, parent: QWidget, option, index: QModelIndex) -> QWidget:  # noqa: N802
        return CellEditor(parent, index)

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:  # noqa: N802
        if not isinstance(editor, CellEditor):
            super().setEditorData(editor, index)
            return
        if editor.original is not None:
            return  # the model refreshed while the editor is open: keep what is being typed
        text = index.data(Qt.ItemDataRole.EditRole)
        editor.original = "" if text is None else str(text)
        editor.setText(editor.original)
        editor.selectAll()

    def setModelData(self, editor: QWidget, model, index: QModelIndex) -> None:  # noqa: N802
        if isinstance(editor, CellEditor):
            self.commit(editor)
        else:
            super().setModelData(editor, model, index)

    def commit(self, editor: CellEditor) -> str:
        """Apply the editor's text once; the refusal's message, or "" (also for no edit)."""
        if editor.committed or editor.original is None or same_numbers(editor.text(), editor.original):
            return ""
        index = QModelIndex(editor.index)
        model = index.model()
        if model is None:
            return ""
        if model.setData(index, editor.text(), Qt.ItemDataRole.EditRole):
            editor.committed = True
            return ""
        message = model.error_at(index) or "refused"
        editor.show_error(message)
        return message

    def eventFilter(self, editor: QObject, event: QEvent) -> bool:  # noqa: N802
        if (isinstance(editor, CellEditor) and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            if self.commit(editor):
                return True  # refused: the editor stays open with its message
            self.closeEditor.emit(editor, QAbstractItemDelegate.EndEditHint.NoHint)
            return True
        return super().eventFilter(editor, event)
