"""Small Qt helpers."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject


@contextmanager
def signals_blocked(*objects: QObject) -> Iterator[None]:
    """Block the objects' signals while a view writes into its own widgets.

    Not ``QSignalBlocker``: as a context manager in PySide6 6.12.0 its ``__exit__`` drops a
    reference to ``None`` on every use, and a few thousand slider refreshes abort Python.
    """
    previous = [o.blockSignals(True) for o in objects]
    try:
        yield
    finally:
        for o, was in zip(objects, previous):
            o.blockSignals(was)


def mono_font():
    """The fixed-pitch font with only its family set: its size follows the application font
    (View ▸ Larger text, Present mode), as a font with a point size of its own would not."""
    from PySide6.QtGui import QFont, QFontDatabase

    font = QFont()
    font.setFamilies([QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family(), "DejaVu Sans Mono"])
    return font


def commit_focused_editor():
    """Apply what is typed in the focused editor, as leaving it does (fields, spin boxes and
    table cells commit on focus-out), before a save or close reads the document; returns the
    widget, to give it the focus back."""
    from PySide6.QtWidgets import QApplication

    widget = QApplication.focusWidget()
    if widget is not None:
        widget.clearFocus()
    return widget
