"""Text for the panels and the clipboard: matrices, and user text cut to a size a label can show
and shown as plain text.

Qt guesses that a string is rich text (``Qt.mightBeRichText``) in labels, message boxes, tooltips
and ``QStaticText``: a body named ``<img src="/dev/zero">`` there read that file until memory ran
out, and ``<b>``, ``<font>`` or ``<a href>`` in a name drew spoofed text. Every name, path or
error message (errors quote file content) is shown through :func:`plain`, :func:`plain_tip`,
:func:`static_text` or :func:`message_box`; rich text the app builds (``<b>``, tables) escapes them
with ``html.escape``."""

from __future__ import annotations

import re

from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMessageBox, QSizePolicy, QStatusBar

from .numbers import fixed_text, matrix_text  # noqa: F401 - matrix_text lives with the numbers (no Qt)

#: The most characters of a message shown in a label, the status bar or a dialog.
MAX_MESSAGE = 300
#: A dialog has room for more (it wraps between words): the whole message, and any one word.
MAX_DIALOG, MAX_WORD = 1500, 200
#: The most characters of one line: a menu item (Undo …), an undo step, a panel's title.
MAX_LINE = 120
#: The most characters of one name or value shown in a label, a title or a header.
MAX_NAME = 60


def elide(text: object, limit: int = MAX_MESSAGE, word: int | None = None) -> str:
    """``text`` as at most ``limit`` characters: a longer one keeps its start and its end
    around "…" (a name typed or a file pasted by a user may be a megabyte; every label, status
    message and dialog shows it through this). ``word``: also cut any longer run without spaces."""
    text = str(text)
    if word is not None:
        if len(text) > 4 * limit:  # no regular expression over a megabyte
            text = text[:2 * limit] + "…" + text[-2 * limit:]
        text = re.sub(rf"\S{{{word + 1},}}", lambda m: elide(m.group(0), word), text)
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


class ElidingStatusBar(QStatusBar):
    """A status bar whose messages are cut to :data:`MAX_MESSAGE` characters (a 1 MB paste put
    a million characters there)."""

    def showMessage(self, message: str, timeout: int = 0) -> None:  # noqa: N802 - Qt's name
        super().showMessage(elide(message), timeout)


def plain(label: QLabel) -> QLabel:
    """``label`` showing its text as it is: never as rich text (a name may hold markup)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def plain_tip(text: object) -> str:
    """``text`` as a tooltip (or a dialog label) that shows it literally: Qt guesses the format
    of those and they have no plain-text flag, so this is rich text holding ``text`` escaped
    (spaces as spaces: a long message wraps, as Qt wraps a rich-text tooltip)."""
    return QtGui.Qt.convertFromPlainText(str(text), Qt.WhiteSpaceMode.WhiteSpaceNormal) if text else ""


Button = QMessageBox.StandardButton


def static_text(text: str) -> QtGui.QStaticText:
    """A ``QStaticText`` that draws ``text`` as it is (its default format guesses too: names
    drawn in the 3-D view)."""
    static = QtGui.QStaticText(text)
    static.setTextFormat(Qt.TextFormat.PlainText)
    return static


def message_box(parent, title: str, text: str, icon: QMessageBox.Icon = QMessageBox.Icon.Warning,
                buttons: Button = Button.Ok, default: Button = Button.NoButton) -> Button:
    """``QMessageBox.warning``/``question`` with ``text`` shown as plain text (the static
    functions guess its format, and an error message quotes names from the file); the button
    clicked."""
    box = QMessageBox(icon, title, text, buttons, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setDefaultButton(default)
    try:
        return Button(box.exec())
    finally:
        box.deleteLater()


def message_label(label: QLabel) -> QLabel:
    """Make ``label`` a plain-text message line that never widens its dock or the window: it
    wraps, and its width is the layout's, whatever the text (one long word was its minimum width)."""
    plain(label)
    label.setWordWrap(True)
    policy = label.sizePolicy()
    policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)
    label.setSizePolicy(policy)
    return label
