"""A number typed during or right after a frame or DH drag sets the dragged amount exactly, as
typing while dragging does in Blender: ``0.25`` (m, or ° on a ring), ``250mm``, ``90deg``,
``pi/2``. The text is shown beside the cursor; Enter applies it (in the drag's own undo step),
Backspace edits it, Esc drops it (during a drag, Esc puts the whole drag back). Keys reach
the viewport first: while text is typed, letters of units (the e of ``deg``) are not tool keys.
"""

from __future__ import annotations

from kinetree.core import KineTreeError
from PySide6.QtCore import QEvent, QObject, Qt

from ...model.numbers import DEGREES, METRES, read_number

#: What may begin a typed amount: anything else after a drag is another action.
STARTS = frozenset("0123456789.-+(")
_ENTER = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


class TypedAmount(QObject):
    """The typed text of the viewport's frame handle (an event filter on the viewport)."""

    def __init__(self, handle) -> None:
        super().__init__(handle.view)
        self.handle = handle
        self.text = ""
        handle.view.installEventFilter(self)

    def clear(self) -> None:
        if self.text:
            self.text = ""
            self.handle.readout.hide_text()

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt's name
        kind = ev.type()
        if kind == QEvent.Type.MouseButtonPress:
            self.clear()  # another gesture
            return False
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride):
            return False
        if not self._wants(ev):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            ev.accept()  # the key comes as a key press, not as a tool shortcut
            return True
        self._key(ev)
        return True

    def _wants(self, ev) -> bool:
        """Whether this key is part of a typed amount."""
        key, mods = ev.key(), ev.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if mods & ~Qt.KeyboardModifier.ShiftModifier:
            return False  # Ctrl+Z and friends stay what they are
        target = self.handle.typing_target()
        if target is None:
            self.text = ""
            return False
        if self.text:
            return key in (*_ENTER, Qt.Key.Key_Escape, Qt.Key.Key_Backspace) or bool(ev.text().isprintable()
                                                                                   and ev.text())
        if ev.text() and ev.text() in STARTS:
            return True
        if self.handle.dragging:
            return False
        self.handle._last = None  # any other key after the drag: typing no longer amends it
        return False

    def _key(self, ev) -> None:
        key, handle = ev.key(), self.handle
        if key == Qt.Key.Key_Escape:
            self.clear()
            if handle.dragging:
                handle.cancel()
            return
        if key == Qt.Key.Key_Backspace:
            self.text = self.text[:-1]
        elif key in _ENTER:
            self._apply()
            return
        else:
            self.text += ev.text()
        if self.text:
            handle.show_tip(f"{self.text} ⏎")
        else:
            handle.readout.hide_text()

    def _apply(self) -> None:
        handle = self.handle
        target = handle.typing_target()
        if target is None:
            self.clear()
            return
        angle = handle.amount_kind(target) == "angle"
        try:
            amount = read_number(self.text, "typed amount", DEGREES if angle else METRES).core
        except KineTreeError as exc:  # shown where the text is; the text stays to be corrected
            handle.show_tip(f"{self.text}: {exc}")
            handle.view.doc.message.emit(str(exc))
            return
        self.clear()
        ongoing = handle.dragging
        handle.set_amount(target, amount)
        if ongoing:  # Enter confirms: the drag ends here, the mouse no longer moves it
            handle.release()
