"""What a user typed but has not applied yet counts when the window saves or closes; an unchecked
pose stays unchecked through a rename and its undo; an autosave sidecar that is not a regular
file neither hangs a start nor fills memory."""

from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest
from kinetree.app.window.recovery import find_orphans
from kinetree.core import load_robot
from kinetree.core.io import dumps
from kinetree.core.io.project import load_project
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox


@pytest.fixture
def window(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def type_without_enter(qtbot, field, text: str) -> None:
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    qtbot.keyClicks(field, text)


def test_closing_with_a_typed_value_asks(window, qtbot, monkeypatch):
    doc = window.doc
    doc.open("two_link_planar")
    doc.select("link1")
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        staticmethod(lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.Cancel))
    type_without_enter(qtbot, window.joint.fields["xyz"], "0.5 0 0")
    assert not window.close()  # the user cancels: the window and the typed value stay
    assert len(asked) == 1 and window.isVisible() and doc.modified
    np.testing.assert_array_equal(doc.tree.get_body("link1").joint.joint_to_parent_transform[:3, 3], [0.5, 0, 0])


def test_ctrl_s_saves_the_value_being_typed(window, qtbot, tmp_path):
    doc = window.doc
    path = tmp_path / "a.kinetree.json"
    doc.open("two_link_planar")
    doc.save(path)
    doc.select("link1")
    field = window.joint.fields["xyz"]
    type_without_enter(qtbot, field, "0.5 0 0")
    qtbot.keyClick(field, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    tree, _ = load_project(path)
    np.testing.assert_array_equal(tree.get_body("link1").joint.joint_to_parent_transform[:3, 3], [0.5, 0, 0])
    assert not doc.modified and field.hasFocus()  # saved, and the user goes on typing where they were


def test_an_unchecked_pose_stays_unchecked_through_rename_and_undo(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    window.poses_dock.show()
    poses = window.poses
    poses.set_checked("qr", False)
    assert window.playback.names == ["qz", "qs", "qn"]
    assert poses.rename("qr", "ready")
    assert window.playback.names == ["qz", "qs", "qn"]
    doc.undo_stack.undo()
    assert window.playback.names == ["qz", "qs", "qn"] and "qr" in poses.names()
    doc.undo_stack.redo()
    assert window.playback.names == ["qz", "qs", "qn"] and "ready" in poses.names()
    assert not poses.rename("ready", "qs")  # refused (taken): qs stays checked
    assert window.playback.names == ["qz", "qs", "qn"]
    poses.name_edit.setText("qr")  # a new pose under a name once unchecked takes part
    assert poses.save_current()
    assert "qr" in window.playback.names


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and /dev/zero are POSIX")
@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "folder"])
def test_a_sidecar_that_is_not_a_file_is_ignored(tmp_path, kind):
    stem = tmp_path / "autosave-999999-1"
    data, meta = stem.with_suffix(".kinetree.json"), stem.with_suffix(".meta.json")
    data.write_text(dumps(load_robot("two_link_planar")))
    {"fifo": os.mkfifo, "dev_zero": lambda p: p.symlink_to("/dev/zero"), "folder": os.mkdir}[kind](meta)
    result = []
    worker = threading.Thread(target=lambda: result.extend(o.info() for o in find_orphans(tmp_path)), daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "reading the sidecar hung"
    (info,) = result
    assert info.name == "untitled" and info.path is None  # the data still counts
