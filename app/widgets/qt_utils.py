"""Small Qt helpers."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget


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


class _Relay(QObject):
    done = Signal()


def wait_responsive(future: Future, window: QWidget, text: str) -> bool:
    """Wait for ``future`` (work in another thread) with ``window`` repainting but disabled, and a
    progress dialog with Cancel (``text``) if it takes long; False if the user cancelled. A dialog
    that started the work is then gone from the screen at once, not left drawn over a window that
    paints nothing until the work is done (a second Enter, a click, for a dialog that looks stuck)."""
    if future.done():
        return True
    loop = QEventLoop()
    relay = _Relay()
    relay.done.connect(loop.quit, Qt.ConnectionType.QueuedConnection)
    future.add_done_callback(lambda _f: relay.done.emit())
    dialog = QProgressDialog(text, "Cancel", 0, 0, window)
    dialog.setWindowTitle("KineTree")
    dialog.setMinimumDuration(400)
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setAutoClose(False)
    dialog.setValue(0)
    cancelled: list[bool] = []
    dialog.canceled.connect(lambda: (cancelled.append(True), loop.quit()))
    window.setEnabled(False)
    dialog.setEnabled(True)  # a dialog is a child of the window: disabling that would disable Cancel
    try:
        if not future.done():
            loop.exec()
    finally:
        window.setEnabled(True)
        dialog.canceled.disconnect()  # closing the dialog emits canceled too
        dialog.close()
        dialog.deleteLater()
    return not cancelled


def run_responsive(window: QWidget, text: str, work: Callable[[], object]) -> Future:
    """``work()`` in a thread of its own (a daemon: a cancelled, abandoned call never holds up
    quitting), waited for by :func:`wait_responsive`; its future (cancelled if the user did)."""
    future: Future = Future()
    future.set_running_or_notify_cancel()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller through the future
            future.set_exception(exc)

    threading.Thread(target=run, name="kinetree-work", daemon=True).start()
    if not wait_responsive(future, window, text):
        future = Future()
        future.cancel()
    return future
