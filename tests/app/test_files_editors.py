"""Save/open round trips, refused files, and refused values in editors (autosave and recovery:
test_recovery.py)."""

from __future__ import annotations

import json

import pytest
from kinetree.app.model.text import plain_tip
from kinetree.app.panels.joint import ERROR_STYLE
from PySide6.QtCore import Qt


def test_save_open_round_trip(window, tmp_path):
    window.doc.open("puma560")
    window.sliders.rows["q2"].spin.setValue(30)
    window.sliders.rows["q5"].spin.setValue(-45)
    assert window.isWindowModified()
    path = tmp_path / "p.kinetree.json"
    assert window._save_to(path)
    assert path.exists()
    assert not window.isWindowModified()
    assert window.windowTitle().startswith("p.kinetree.json")
    saved = window.doc.serialized()
    window.sliders.rows["q1"].spin.setValue(10)
    assert window.isWindowModified()
    window.new_document()
    assert window.doc.tree.num_bodies == 0
    assert window.open_source(path, ask=False)
    assert window.doc.serialized() == saved
    assert not window.isWindowModified()
    assert window.doc.path == path
    assert window.recent_files()[0] == str(path)


@pytest.mark.parametrize("content, needle", [
    (None, "99"),  # version 99
    ('{"format": "kinetree", "version": 1, "bodies": [', ""),  # malformed JSON
    ("[]", ""),
])
def test_refused_files_leave_document_unchanged(window, tmp_path, content, needle):
    window.doc.open("two_link_planar")
    window.sliders.rows["q1"].spin.setValue(20)
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    path = tmp_path / "bad.kinetree.json"
    if content is None:
        good = json.loads(before)
        good["version"] = 99
        content = json.dumps(good)
    path.write_text(content)
    assert window.open_source(path, ask=False) is False
    message = window.statusBar().currentMessage()
    assert message and needle in message
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count
    assert window.doc.path is None


# --- refused values in editors -----------------------------------------------------------------
def _commit(field, text):
    field.setText(text)
    field.setModified(True)
    field.editingFinished.emit()


@pytest.mark.parametrize("key, text", [
    ("limits", "1 -1"),
    ("limits", "1"),
    ("axis", "0 0 0"),
    ("axis", "a b c"),
    ("mass", "-1"),
    ("home", "500"),  # degrees; limits are ±180°
    ("joint_name", "q2"),  # link2's joint is already called q2
    ("body_name", "link2"),
    ("inertia", "1 2 3"),
])
def test_joint_panel_refuses_bad_values(window, key, text):
    window.doc.open("two_link_planar")
    window.doc.select("link1")
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    field = window.joint.fields[key]
    assert field.isEnabled()
    _commit(field, text)
    assert field.error, f"{key}={text!r} was accepted"
    assert field.styleSheet() == ERROR_STYLE and "#e05050" in field.styleSheet()
    assert field.toolTip() == plain_tip(field.error)
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count
    # a good value clears the error
    good = {"limits": "-90 90", "axis": "0 0 -1", "mass": "2", "home": "10", "joint_name": "shoulder",
            "body_name": "upper", "inertia": "2 2 2 0 0 0"}[key]
    _commit(field, good)
    assert field.error == ""
    assert field.styleSheet() == ""
    assert window.doc.undo_stack.count() == count + 1


def test_dh_table_refuses_non_number(window):
    window.doc.open("two_link_planar")
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    m = window.dh.model
    for col, value in ((1, "abc"), (2, "1e"), (0, "X")):
        assert m.setData(m.index(0, col), value) is False
        assert window.statusBar().currentMessage()
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count
    assert not (m.flags(m.index(0, 4)) & Qt.ItemFlag.ItemIsEditable)  # θ is the variable


def test_bodies_model_refuses_duplicate_name(window):
    window.doc.open("two_link_planar")
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    m = window.bodies.model
    assert m.setData(m.index_of("link2"), "link1") is False
    assert "link1" in window.statusBar().currentMessage()
    idx = m.index_of("link2")
    assert m.setData(m.index(idx.row(), 1, idx.parent()), "q1") is False
    assert m.setData(m.index_of("link2"), "") is False
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count
