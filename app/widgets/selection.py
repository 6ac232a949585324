"""Keep a row-per-body item view in step with the document's selection (the only truth)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject
from PySide6.QtWidgets import QAbstractItemView

from ..model.document import RobotDocument


class RowSelectionLink(QObject):
    """Selecting a row selects its body in the document; a document selection highlights the
    row of that body (or clears the view's selection when no row shows it).

    ``body_of_row(row)`` names the body a row shows (``None``: no body).
    A click on a row selects its body even when the row is already current.
    """

    def __init__(self, doc: RobotDocument, view: QAbstractItemView, body_of_row: Callable[[int], str | None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent or view)
        self.doc, self.view, self.body_of_row = doc, view, body_of_row
        self._syncing = False
        view.selectionModel().currentRowChanged.connect(self._row_changed)
        view.pressed.connect(lambda index: self._row_changed(index))
        view.model().modelReset.connect(self.sync)
        doc.selectionChanged.connect(lambda _name: self.sync())
        self.sync()

    def _row_changed(self, index: QModelIndex, _previous: QModelIndex | None = None) -> None:
        if self._syncing or not index.isValid():
            return
        name = self.body_of_row(index.row())
        if name is not None:
            self.doc.select(name)

    def row_of(self, name: str | None) -> int:
        if name is None:
            return -1
        for r in range(self.view.model().rowCount()):
            if self.body_of_row(r) == name:
                return r
        return -1

    def sync(self) -> None:
        row = self.row_of(self.doc.selection)
        sm = self.view.selectionModel()
        self._syncing = True
        try:
            if row < 0:
                sm.clearSelection()
                sm.clearCurrentIndex()
            elif self.view.currentIndex().row() != row or not sm.isRowSelected(row, QModelIndex()):
                col = max(self.view.currentIndex().column(), 0)
                index = self.view.model().index(row, col)
                # a selection made elsewhere moves the current cell without opening its editor
                # (a table editable on CurrentChanged would otherwise start editing, and commit)
                triggers = self.view.editTriggers()
                self.view.setEditTriggers(triggers & ~QAbstractItemView.EditTrigger.CurrentChanged)
                try:
                    sm.setCurrentIndex(index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                                       | QItemSelectionModel.SelectionFlag.Rows)
                finally:
                    self.view.setEditTriggers(triggers)
                self.view.scrollTo(index)
        finally:
            self._syncing = False
