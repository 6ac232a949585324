"""The "Loading…" dialog of a slow open has a Cancel button that abandons the load and gives the
window back; the next open does not wait for the abandoned one."""

from __future__ import annotations

import threading

from kinetree.app.window import reading
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton


def _click_cancel_when_shown(window, seen: dict) -> None:
    """Poll (from the open's own event loop) for the progress dialog; note the window's state,
    then click its Cancel button."""

    def look():
        dialogs = [w for w in QApplication.topLevelWidgets() if isinstance(w, QProgressDialog) and w.isVisible()]
        if not dialogs:
            QTimer.singleShot(20, look)
            return
        seen["window enabled"] = window.isEnabled()
        button = dialogs[0].findChild(QPushButton)
        seen["cancel"] = button is not None and button.text() == "Cancel" and button.isEnabled()
        button.click()

    QTimer.singleShot(0, look)


def test_cancel_abandons_a_slow_load_and_the_next_one_runs(window, monkeypatch):
    window.doc.open("two_link_planar")
    release = threading.Event()
    real = reading.read_robot

    def slow(source, allow_env=False):
        release.wait(30)  # a parse that takes long
        return real(source, allow_env)

    monkeypatch.setattr(reading, "read_robot", slow)
    seen: dict = {}
    _click_cancel_when_shown(window, seen)
    try:
        assert window.open_source("puma560", ask=False) is False
        assert seen == {"window enabled": False, "cancel": True}
        assert window.isEnabled()
        assert window.doc.tree.base_name == "base" and "link1" in window.doc.tree.body_names  # unchanged
        assert "cancelled" in window.statusBar().currentMessage()
        # the abandoned read still blocks its worker: the next open must not queue behind it
        monkeypatch.setattr(reading, "read_robot", real)
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(release.set)  # if it queued, this unblocks it: then the test fails below
        timer.start(10_000)
        assert window.open_source("puma560", ask=False)
        assert not release.is_set()
        assert window.doc.tree.num_bodies == 6
    finally:
        release.set()


def test_a_slow_load_that_finishes_opens_and_gives_the_window_back(window, monkeypatch):
    release = threading.Event()
    real = reading.read_robot

    def slow(source, allow_env=False):
        release.wait(30)
        return real(source, allow_env)

    monkeypatch.setattr(reading, "read_robot", slow)
    seen: dict = {}

    def look():  # the dialog is up: let the read finish (closing the dialog must not count as Cancel)
        if any(isinstance(w, QProgressDialog) and w.isVisible() for w in QApplication.topLevelWidgets()):
            seen["window enabled"] = window.isEnabled()
            release.set()
        else:
            QTimer.singleShot(20, look)

    QTimer.singleShot(0, look)
    try:
        assert window.open_source("puma560", ask=False)
        assert seen == {"window enabled": False}
        assert window.isEnabled() and window.doc.tree.num_bodies == 6
    finally:
        release.set()
