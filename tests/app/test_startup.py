"""The window starts on an empty document and builds a robot from it."""

from __future__ import annotations

from kinetree.app.window.main_window import MainWindow
from PySide6.QtCore import QSettings


def test_window_starts_and_builds_from_empty_document(qtbot, tmp_path, autosave_file):
    w = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    w.quiet = True
    qtbot.addWidget(w)
    w.show()
    w.dh.buttons["add"].click()
    assert w.doc.tree.num_bodies == 1
    w.doc.undo_stack.undo()
    assert w.doc.tree.num_bodies == 0
    w.doc.undo_stack.resetClean()
    w.doc.undo_stack.setClean()
