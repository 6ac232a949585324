"""Fixtures for the GUI tests: a real MainWindow on the (virtual) X display."""

from __future__ import annotations

import kinetree.app.window.recovery as recovery_module
import pytest
from desktop import Desktop
from kinetree.app.window.main_window import MainWindow
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox


@pytest.fixture
def autosave_dir(tmp_path, monkeypatch):
    """Autosaves and their locks go to a temporary folder, never the user's data folder."""
    path = tmp_path / "autosave"
    monkeypatch.setattr(recovery_module, "autosave_dir", lambda: path)
    return path


@pytest.fixture
def autosave_file(autosave_dir):  # the older name, for tests that only need the isolation
    return autosave_dir


@pytest.fixture
def make_window(qtbot, tmp_path, autosave_dir, monkeypatch):
    """Factory for windows; closing a modified window discards without asking."""
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))

    def make(name: str = "s.ini") -> MainWindow:
        w = MainWindow(settings=QSettings(str(tmp_path / name), QSettings.Format.IniFormat))
        w.quiet = True
        w.autosave_timer.stop()  # tests call autosave() themselves
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        return w

    return make


@pytest.fixture
def screen_size(monkeypatch):
    """``screen_size(w, h)``: the screens' available area is w×h from then on (pytest-xvfb's
    screen is 800×600; View ▸ Reset layout fits the window into the screen)."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    def set_size(width: int, height: int) -> None:
        monkeypatch.setattr(QScreen, "availableGeometry", lambda _s: QRect(0, 0, width, height))

    return set_size


@pytest.fixture
def window(make_window) -> MainWindow:
    return make_window()


@pytest.fixture
def panel(window):
    """The Joint panel, showing link1 of the two-link planar arm."""
    window.doc.open("two_link_planar")
    window.doc.select("link1")
    return window.joint


@pytest.fixture
def desktop(tmp_path):
    """A :class:`desktop.Desktop` (a private X screen running the app, driven by X events) for one
    test, closed after it; the app's output is printed (pytest shows it when the test fails)."""
    d = Desktop(tmp_path)
    yield d
    print(d.close())
