"""The mouse wheel changes a combo box, spin box or slider only when it has the focus: a wheel
turn over the Explain dock silently switched "constants as symbols" to "as numbers". Over an
unfocused one the wheel scrolls the scroll area (or dock) under it, as over a label.

One application-wide event filter (:func:`install_wheel_guard`), so that every such widget of
every dock and dialog is covered, those built later included. It only looks at two event types:
``Polish`` (once per widget: a wheel turn no longer gives the focus, ``Qt.StrongFocus``) and
``Wheel``.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QSlider, QWidget

#: the widgets whose value a wheel turn changes (QSlider, not QAbstractSlider: a scroll bar scrolls)
GUARDED = (QComboBox, QAbstractSpinBox, QSlider)


def scroll_instead(widget: QWidget, event: QEvent) -> None:
    """Hand the wheel ``event`` over ``widget`` to the nearest scroll area holding it (the list,
    dock or dialog it sits in); nothing happens without one."""
    parent = widget.parentWidget()
    while parent is not None and not isinstance(parent, QAbstractScrollArea):
        parent = parent.parentWidget()
    if parent is not None:
        QCoreApplication.sendEvent(parent.viewport(), event)


class WheelGuard(QObject):
    """The event filter: an unfocused guarded widget passes the wheel to its scroll area."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.Wheel:
            if isinstance(obj, GUARDED) and not obj.hasFocus():
                scroll_instead(obj, event)
                return True
        elif kind == QEvent.Type.Polish and isinstance(obj, GUARDED):
            if obj.focusPolicy() == Qt.FocusPolicy.WheelFocus:  # the default of combo and spin boxes
                obj.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a click or Tab still focuses it
        return False


def install_wheel_guard(app: QApplication | None = None) -> WheelGuard:
    """Install the one :class:`WheelGuard` on ``app`` (default: the running application); a
    second call returns the installed one."""
    app = app or QApplication.instance()
    guard = app.findChild(WheelGuard, "wheelGuard")
    if guard is None:
        guard = WheelGuard(app)
        guard.setObjectName("wheelGuard")
        app.installEventFilter(guard)
    return guard
