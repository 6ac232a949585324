"""``Field``: a line edit that commits on Enter / focus-out, cancels on Escape and shows a
refusal in place."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kinetree.core import KineTreeError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from ..model.numbers import (
    PLAIN,
    Conversion,
    Quantity,
    exact_text,
    identity,
    numbers_of,
    read_number,
    same_numbers,
    split_numbers,
)
from ..model.text import elide, message_label, plain_tip
from .qt_utils import signals_blocked

ERROR_STYLE = "QLineEdit { background: #5a1d1d; color: white; border: 1px solid #e05050; }"


class Field(QLineEdit):
    """A line edit that applies its text through ``commit(text)`` on Enter/focus-out and shows
    the refusal in place: red, as its tooltip and in :attr:`message` (a label the form puts
    under the field).

    Numbers are shown exactly (:meth:`show_numbers`); :meth:`numbers` reads them back, keeping
    the stored float of every word the user left as shown. A commit of the shown text (or of
    the same words) is no edit at all.
    """

    def __init__(self, commit: Callable[[str], str | None], tip: str = "") -> None:
        super().__init__()
        self._commit = commit
        self._tip = tip
        self.setToolTip(tip)
        self.error = ""
        self._shown = ""
        self._stored: list[float] = []
        self._from_shown: Conversion = identity
        self.quantity: Quantity = PLAIN  # what the numbers are (typed units and pi are read for it)
        self.message = message_label(QLabel())
        self.message.setStyleSheet("color: #e05050")
        self.message.setVisible(False)
        self.editingFinished.connect(self._apply)

    def setObjectName(self, name: str) -> None:  # noqa: N802 - Qt's spelling
        super().setObjectName(name)
        self.message.setObjectName(f"{name}_message")

    def show_value(self, text: str) -> None:
        """Show ``text`` as the current value (signals blocked) and clear any refusal."""
        self._stored, self._from_shown, self.quantity = [], identity, PLAIN
        self._show(text)

    def show_numbers(self, values: Sequence[float], to_shown: Conversion = identity,
                     from_shown: Conversion = identity, quantity: Quantity = PLAIN) -> None:
        """Show core values in the shown unit, each as the shortest text that converts back
        to the identical float; ``quantity`` says what they are (angle, length, plain) in that
        unit, for reading typed units and ``pi``."""
        self._stored, self._from_shown, self.quantity = [float(v) for v in values], from_shown, quantity
        self._show("  ".join(exact_text(float(v), to_shown, from_shown) for v in values))

    def _show(self, text: str) -> None:
        self._shown = text
        if text != self.text() or self.isModified():  # the same text again: no relayout, no repaint
            with signals_blocked(self):
                self.setText(text)
        self.setModified(False)
        self.set_error("")

    def numbers(self, n: int, what: str, allow_inf: bool = False) -> list[float]:
        """The ``n`` typed numbers in core units; a word left as shown keeps its stored float."""
        parts = numbers_of(self.text(), n, what)
        shown = split_numbers(self._shown, n)
        same = len(shown) == n == len(self._stored)
        return [self._stored[i] if same and p.strip() == shown[i].strip() else self._core(p, what, allow_inf)
                for i, p in enumerate(parts)]

    def _core(self, text: str, what: str, allow_inf: bool) -> float:
        reading = read_number(text, what, self.quantity, allow_inf)
        # an angle or a length goes to core units (rad, m) from the unit it was typed in
        return reading.core if self.quantity.kind != "plain" else self._from_shown(reading.value)

    def set_tip(self, tip: str) -> None:
        """The tooltip shown while there is no refusal."""
        self._tip = tip
        if not self.error:
            self.setToolTip(tip)

    def set_error(self, message: str) -> None:
        if message == self.error:  # a panel refresh clears every field: restyling costs ~0.1 ms each
            return
        self.error = message
        self.setStyleSheet(ERROR_STYLE if message else "")
        self.setToolTip(plain_tip(elide(message)) if message else elide(self._tip))  # quotes file content
        self.message.setText(elide(message))
        self.message.setVisible(bool(message))

    def keyPressEvent(self, ev) -> None:  # noqa: N802 - Qt's name
        if ev.key() == Qt.Key.Key_Escape:  # cancel: the shown value back, nothing committed
            self._show(self._shown)
            self.selectAll()
            return
        super().keyPressEvent(ev)

    @property
    def unchanged(self) -> bool:
        """True when the text holds the same words as the value shown."""
        return same_numbers(self.text(), self._shown)

    def _same_values(self) -> bool:
        """True when the text reads as exactly the stored numbers (``(0.5)`` over ``0.5``)."""
        if not self._stored:
            return False
        try:
            return self.numbers(len(self._stored), "value", allow_inf=True) == self._stored
        except KineTreeError:
            return False

    def _apply(self) -> None:
        if not self.isModified():
            return
        self.setModified(False)
        if self.unchanged or self._same_values():  # leaving an editor as it was is no edit
            self.set_error("")
            return
        try:
            message = self._commit(self.text())
        except KineTreeError as exc:
            message = str(exc)
        self.set_error(message or "")
