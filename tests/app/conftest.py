"""Fixtures for the GUI tests: a real MainWindow on the (virtual) X display."""

from __future__ import annotations

import contextlib

import kinetree.app.main_window as main_window_module
import numpy as np
import pytest
from kinetree.app.main_window import MainWindow
from kinetree.core import RigidBodyTree
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

_ORIGINAL_CHECK_FINITE = RigidBodyTree._check_finite




def pytest_configure(config):
    config.addinivalue_line("markers", "unshimmed: run without the test-side workaround for the core empty-FK bug")


@pytest.fixture(autouse=True)
def _empty_fk_workaround(request, monkeypatch):
    """Work around the core empty-configuration bug (see test_startup.py) so the GUI itself
    can be tested (the app starts on an empty tree). Harmless once core is fixed; tests
    marked ``unshimmed`` document the bug."""
    if request.node.get_closest_marker("unshimmed") is None:
        def check_finite(self, q):
            if np.asarray(q).size:
                _ORIGINAL_CHECK_FINITE(self, q)

        monkeypatch.setattr(RigidBodyTree, "_check_finite", check_finite)


@pytest.fixture
def autosave_file(tmp_path, monkeypatch):
    path = tmp_path / "autosave.kinetree.json"
    monkeypatch.setattr(main_window_module, "autosave_path", lambda: path)
    return path


@pytest.fixture
def make_window(qtbot, tmp_path, autosave_file, monkeypatch):
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
def window(make_window) -> MainWindow:
    return make_window()


def is_stale_selection_error(exc_info) -> bool:
    """The known app bug: ``RobotDocument._restore`` emits ``treeChanged`` while the selection
    still names a body that the new tree no longer has, so ``JointPanel.refresh`` raises."""
    _type, exc, tb = exc_info
    from kinetree.core.errors import UnknownBodyError

    frames = []
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return isinstance(exc, UnknownBodyError) and "refresh" in frames


@contextlib.contextmanager
def tolerate_stale_selection(qtbot):
    """Let a test exercise edits that hit the known stale-selection bug; any other exception
    raised in a Qt slot still fails the test."""
    with qtbot.captureExceptions() as caught:
        yield
    others = [e for e in caught if not is_stale_selection_error(e)]
    assert not others, others


@pytest.fixture
def tolerate_stale(qtbot):
    """``with tolerate_stale(): ...`` — see :func:`tolerate_stale_selection`."""
    return lambda: tolerate_stale_selection(qtbot)
