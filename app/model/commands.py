"""Undo commands. Each one swaps whole document states, so undo restores them exactly; a tree
edit also carries what it touched (a TreeChange), so views redo only that."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtGui import QUndoCommand

from .changes import TreeChange
from .text import MAX_LINE, elide

if TYPE_CHECKING:
    from kinetree.core import RigidBodyTree

    from .document import RobotDocument

CONFIGURATION_ID = 1001
TREE_DRAG_ID = 1002


class TreeEditCommand(QUndoCommand):
    """A structural or property edit: holds the tree (and configuration) before and after.

    The document computes the new tree before pushing, so a failing edit never reaches the
    stack and never changes anything.
    """

    def __init__(self, doc: RobotDocument, text: str, before: tuple[RigidBodyTree, np.ndarray],
                 after: tuple[RigidBodyTree, np.ndarray], selection_after: str | None,
                 change: TreeChange, drag: int | None = None) -> None:
        super().__init__(elide(text, MAX_LINE))  # the Edit menu's Undo item, the history list
        self._doc, self.change, self._drag = doc, change, drag
        self._before, self._after = before, after
        self._sel_before, self._sel_after = doc.selection, selection_after

    def id(self) -> int:  # noqa: A003 - Qt's name
        return TREE_DRAG_ID if self._drag is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        """Every edit of one drag (a frame dragged in the viewport) is one undo step; a drag
        that ends where it began (Esc) leaves none."""
        if not isinstance(other, TreeEditCommand) or self._drag is None or other._drag != self._drag:
            return False

        kind = other.change.kind if other.change.at_least(self.change.kind) else self.change.kind
        self.change = TreeChange(kind, self.change.bodies | other.change.bodies,
                                 self.change.renamed + other.change.renamed)
        self._after, self._sel_after = other._after, other._sel_after
        self.setObsolete(self._after[0] is self._before[0])
        return True

    def redo(self) -> None:
        self._doc._restore(*self._after, self._sel_after, self.change)

    def undo(self) -> None:
        self._doc._restore(*self._before, self._sel_before, self.change.inverse())


class SetConfigurationCommand(QUndoCommand):
    """Joint positions changed. Consecutive commands of one slider drag merge into one."""

    def __init__(self, doc: RobotDocument, text: str, before: np.ndarray, after: np.ndarray,
                 drag: int | None) -> None:
        super().__init__(elide(text, MAX_LINE))
        self._doc, self._before, self._after, self._drag = doc, before, after, drag

    def id(self) -> int:  # noqa: A003 - Qt's name
        return CONFIGURATION_ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, SetConfigurationCommand) or self._drag is None or other._drag != self._drag:
            return False
        self._after = other._after
        self.setObsolete(bool(np.array_equal(self._before, self._after)))
        return True

    def redo(self) -> None:
        self._doc._set_configuration(self._after)

    def undo(self) -> None:
        self._doc._set_configuration(self._before)
