"""``ExactSpinBox``: a spin box for one joint value that neither rounds nor loses what is typed.

A ``QDoubleSpinBox`` rounds every value to its ``decimals`` (2 in degrees: typing 12.345° stored
12.35°) and converts units by multiplying (−90° became −1.5707963267948968, not −π/2). This one
keeps the value in core units, shows 6 significant digits while it is not being edited and the
exact text (:func:`~kinetree.app.model.numbers.exact_text`) while it has focus, reads typed arithmetic
(``pi/2``, ``-90``) and units (``90deg``, ``1.5708rad``, ``250mm``: see
:func:`~kinetree.app.model.numbers.read_number`), converts degrees with
:func:`~kinetree.app.model.numbers.to_radians`, and shows a
refused value (not a number, out of limits) in place: red, with the message as tooltip.
"""

from __future__ import annotations

import math

from kinetree.core import KineTreeError
from kinetree.core.model.limits import LIMIT_TOLERANCE
from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QToolTip

from ..model.numbers import (
    DEGREES,
    METRES,
    MILLIMETRES,
    PLAIN,
    RADIANS,
    UNIT_LABEL,
    Conversion,
    Quantity,
    Reading,
    core_to_unit,
    exact_text,
    identity,
    metres_to_mm,
    mm_to_metres,
    read_number,
    short_text,
    to_degrees,
    to_radians,
)
from ..model.text import plain_tip

ERROR_STYLE = "QDoubleSpinBox { background: #5a1d1d; color: white; border: 1px solid #e05050; }"
MAX_DECIMALS = 323  # Qt's limit: rounding to this many decimals keeps every double as it is


class ExactSpinBox(QDoubleSpinBox):
    """A ``QDoubleSpinBox`` whose ``value()`` is in the shown unit, and which also holds the
    core value (:attr:`core`): ``coreCommitted(core)`` is emitted with the exact core value of
    what was typed (or stepped), never with a rounded or re-converted one."""

    coreCommitted = Signal(float)

    def __init__(self, what: str = "value") -> None:
        super().__init__()
        self.what = what
        self.to_shown: Conversion = identity
        self.from_shown: Conversion = identity
        self.unit = ""  # for messages: "°", " rad", " m", " mm"
        self.core = 0.0
        self.core_range = (-math.inf, math.inf)
        self.error = ""
        self._exact = False  # the exact text while editing, 6 significant digits otherwise
        self._typed: tuple[float, float] | None = None  # (shown, core) of the last text read
        self.setDecimals(MAX_DECIMALS)
        self.setKeyboardTracking(False)
        self.valueChanged.connect(self._value_changed)

    # --- units and value ---------------------------------------------------------------------
    def set_units(self, to_shown: Conversion, from_shown: Conversion, unit: str,
                  core_range: tuple[float, float]) -> None:
        self.to_shown, self.from_shown, self.unit = to_shown, from_shown, unit
        self.core_range = core_range
        blocked = self.blockSignals(True)
        self.setRange(to_shown(core_range[0]), to_shown(core_range[1]))
        self.setValue(to_shown(self.core))
        self.blockSignals(blocked)

    def show_core(self, value: float) -> None:
        """Show a core value (signals blocked)."""
        self.core = value
        blocked = self.blockSignals(True)
        self.setValue(self.to_shown(value))
        self.lineEdit().setText(self.textFromValue(self.value()))
        self.blockSignals(blocked)
        self.set_error("")

    def core_of(self, shown: float) -> float:
        """The core value of a shown value: the stored one when it is what is shown, a limit
        when it is that limit as shown (19° is not always the float radians(19) stored)."""
        if shown == self.to_shown(self.core):
            return self.core
        typed = self._typed is not None and self._typed[0] == shown  # -2*pi/3, not radians(-119.99…°)
        core = self._typed[1] if typed else self.from_shown(shown)
        at = self._at_limit(core)
        return core if at is None else at

    def _at_limit(self, core: float) -> float | None:
        """The limit ``core`` is within LIMIT_TOLERANCE of (the engine's slack), or None."""
        for bound in self.core_range:
            if math.isfinite(bound) and abs(core - bound) <= LIMIT_TOLERANCE * max(1.0, abs(bound)):
                return bound
        return None

    @property
    def quantity(self) -> Quantity:
        """What the box holds, from its unit (typed units and ``pi`` are read for it)."""
        return {"°": DEGREES, " rad": RADIANS, " m": METRES, " mm": MILLIMETRES}.get(self.unit, PLAIN)

    def read(self, text: str) -> Reading:
        reading = read_number(text, self.what, self.quantity)
        if self.quantity.kind != "plain":
            self._typed = (reading.value, reading.core)
        return reading

    # --- text --------------------------------------------------------------------------------
    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt's name
        core = self.core_of(value)
        if self._exact:
            return exact_text(core, self.to_shown, self.from_shown)
        return short_text(value)

    def valueFromText(self, text: str) -> float:  # noqa: N802
        body = self._strip(text)
        if body == self._strip(self.textFromValue(self.value())):
            return self.value()  # as shown: no change
        try:
            return self.read(body).value
        except KineTreeError:
            return self.value()

    def validate(self, text: str, pos: int) -> object:
        # anything may be typed (arithmetic, pi); Enter decides, with a message if refused
        return QValidator.State.Acceptable, text, pos

    def _strip(self, text: str) -> str:
        text = text.strip()
        suffix = self.suffix().strip()
        if suffix and text.endswith(suffix):
            text = text[: -len(suffix)].strip()
        return text

    def refusal(self) -> str:
        """Why the typed text cannot be committed ("" if it can), in the shown unit."""
        body = self._strip(self.lineEdit().text())
        try:
            reading = self.read(body)
        except KineTreeError as exc:
            return str(exc)
        core = self.core_of(reading.value) if body != self._strip(self.textFromValue(self.value())) else self.core
        lo, hi = self.core_range
        if not lo <= core <= hi:
            if self.quantity.unit and reading.unit != self.quantity.unit:  # said in the unit typed
                to_typed, unit = core_to_unit(reading.unit), UNIT_LABEL[reading.unit]
                value, low, high = distinct_texts(reading.typed, to_typed(lo), to_typed(hi))
            else:
                value, low, high = distinct_texts(reading.value, self.to_shown(lo), self.to_shown(hi))
                unit = self.unit
            return f"{self.what}: {value}{unit} is outside the limits [{low}{unit}, {high}{unit}]"
        return ""

    def set_error(self, message: str) -> None:
        self.error = message
        self.setStyleSheet(ERROR_STYLE if message else "")
        self.setToolTip(plain_tip(message))  # quotes the typed text
        if message and self.isVisible():
            QToolTip.showText(self.mapToGlobal(QPoint(0, self.height())), self.toolTip(), self)

    # --- events ------------------------------------------------------------------------------
    def keyPressEvent(self, ev) -> None:  # noqa: N802
        if ev.key() == Qt.Key.Key_Escape:  # cancel: the value as it was, nothing committed
            self.lineEdit().setText(self.textFromValue(self.value()))
            self.lineEdit().selectAll()
            self.set_error("")
            return
        if ev.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            message = self.refusal()
            if message:  # the typed text stays, with its message; nothing changes
                self.set_error(message)
                return
            self.set_error("")
        super().keyPressEvent(ev)

    def focusInEvent(self, ev) -> None:  # noqa: N802
        self._exact = True
        self.lineEdit().setText(self.textFromValue(self.value()))
        super().focusInEvent(ev)

    def focusOutEvent(self, ev) -> None:  # noqa: N802
        message = self.refusal()
        if message:  # leaving a refused text: the value stays, the message says why
            self.lineEdit().setText(self.textFromValue(self.value()))
        super().focusOutEvent(ev)
        self._exact = False
        self.lineEdit().setText(self.textFromValue(self.value()))
        self.set_error(message)

    def _value_changed(self, shown: float) -> None:
        core = self.core_of(shown)
        if core != self.core:
            self.core = core
            self.coreCommitted.emit(core)


def distinct_texts(value: float, *limits: float) -> tuple[str, ...]:
    """``value`` and ``limits`` as short texts, with more digits where 6 would show the value
    equal to a limit it lies outside of (``1270.0000001 mm`` is not ``1270 mm``)."""
    for digits in (6, 10, 14, 17):
        # + 0.0: a -0.0 (a flipped zero) reads "0", never "-0"
        texts = tuple(short_text(v) if digits == 6 else f"{v + 0.0:.{digits}g}" for v in (value, *limits))
        if texts[0] not in texts[1:]:
            return texts
    return texts


def spin_units(kind: str, degrees: bool, millimetres: bool) -> tuple[Conversion, Conversion, str]:
    """(core → shown, shown → core, unit) of a joint channel of ``kind`` "angle" or "length"."""
    if kind == "angle":
        return (to_degrees, to_radians, "°") if degrees else (identity, identity, " rad")
    if millimetres:
        return metres_to_mm, mm_to_metres, " mm"
    return identity, identity, " m"
