"""Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y for the document while an editor has the focus.

A line edit or spin box takes Ctrl+Z for its own text (a ShortcutOverride it accepts), so
after typing a joint value and pressing Enter, Ctrl+Z did nothing visible: the document's undo
never ran. Once an editor's edit is committed (Enter, a spin box step, or nothing typed since
it got the focus), these keys go to Edit ▸ Undo / Redo; while a text is being typed they still
undo the typing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QWidget

COMMITTED = "kinetreeCommitted"  # dynamic property: the editor holds no uncommitted typing
_NEUTRAL = {Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Tab,
            Qt.Key.Key_Backtab, Qt.Key.Key_Shift, Qt.Key.Key_Control, Qt.Key.Key_Alt, Qt.Key.Key_Meta,
            Qt.Key.Key_Escape}  # Escape restores the shown value: committed again (set below)
_STEPS = {Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown}


def undo_sequences() -> list[QKeySequence]:
    return QKeySequence.keyBindings(QKeySequence.StandardKey.Undo)


def redo_sequences() -> list[QKeySequence]:
    """The platform's Redo keys, and Ctrl+Y and Ctrl+Shift+Z on every platform."""
    keys = QKeySequence.keyBindings(QKeySequence.StandardKey.Redo)
    for extra in ("Ctrl+Shift+Z", "Ctrl+Y"):
        if QKeySequence(extra) not in keys:
            keys.append(QKeySequence(extra))
    return keys


def _editor(obj: QObject) -> bool:
    return isinstance(obj, (QLineEdit, QAbstractSpinBox))


def _line_edit(obj: QObject) -> QLineEdit | None:
    if isinstance(obj, QLineEdit):
        return obj
    try:
        return obj.lineEdit()
    except (AttributeError, RuntimeError):  # a spin box made by Qt, not by Python
        return None


def committed(editor: QObject) -> bool:
    """True when ``editor`` holds nothing typed since its last commit (or since it got the
    focus), and shows no refused text."""
    if getattr(editor, "error", ""):  # a refused value stays typed, with its message
        return False
    line = _line_edit(editor)
    if line is not None and not line.isUndoAvailable() and not line.isRedoAvailable():
        return True
    return editor.property(COMMITTED) is not False


class UndoKeys(QObject):
    """Lets the undo/redo keys through to the window's actions from a committed editor (see the
    module docstring). It filters the focused editor's events only: an application-wide filter
    would run Python for every event of every widget (paints, mouse moves while dragging)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.keys = {s.toString() for s in undo_sequences() + redo_sequences()}
        app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None and _editor(old):
            try:
                old.removeEventFilter(self)
            except RuntimeError:  # already deleted (a closed cell editor)
                pass
        if new is not None and _editor(new):
            new.setProperty(COMMITTED, True)  # nothing typed yet
            new.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        t = ev.type()
        if t not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) or not _editor(obj):
            return False
        combo = QKeySequence(ev.keyCombination()).toString()
        if t == QEvent.Type.ShortcutOverride:
            if combo in self.keys and committed(obj):
                ev.ignore()  # not the editor's: the shortcut (Edit ▸ Undo / Redo) runs
                return True
            return False
        key = ev.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape) or (
                key in _STEPS and isinstance(obj, QAbstractSpinBox)):
            obj.setProperty(COMMITTED, True)
        elif key not in _NEUTRAL and combo not in self.keys:
            obj.setProperty(COMMITTED, False)  # typed, pasted, deleted: not committed yet
        return False


def install_undo_keys(undo: QAction, redo: QAction) -> None:
    """Give ``undo``/``redo`` their keys (Ctrl+Y too) and let them through committed editors."""
    undo.setShortcuts(undo_sequences())
    redo.setShortcuts(redo_sequences())
    app = QApplication.instance()
    if app.findChild(UndoKeys) is None:  # one for every window
        UndoKeys(app)


def add_window_keys(window: QWidget, *actions: QAction) -> None:
    """``actions``' shortcuts work in ``window`` (a tool window such as the undo history), and
    Esc closes it."""
    for a in actions:
        window.addAction(a)
    close = QAction("Close", window)
    close.setObjectName("closeOnEscape")
    close.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    close.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    close.triggered.connect(window.close)
    window.addAction(close)
