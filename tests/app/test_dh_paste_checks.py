"""One body limit (MAX_BODIES) for paste with and without a header, Save, the autosave and its
restore: what can be pasted can be saved and restored, and a paste beyond it is refused with a
message naming the limit and the count (a 50,100-row paste was taken, Save refused it and the
autosave written anyway could not be restored). A pasted value is never changed silently: a
decimal comma or a number where the joint variable goes is refused naming the line and text."""

from __future__ import annotations

import pytest
from kinetree.app.panels.dh_table import parse_rows
from kinetree.core import KineTreeError, RigidBodyTree
from kinetree.core.disk.safe_io import MAX_BODIES
from kinetree.core.io import load_project

ROW = "0.1 0 0 q"
HEADER = "a alpha d theta"


def rows(n: int, header: bool = False) -> str:
    return "\n".join([HEADER] * header + [ROW] * n)


@pytest.mark.parametrize("header", [False, True])
def test_a_paste_beyond_the_limit_is_refused_naming_limit_and_count(window, header):
    window.doc.load(RigidBodyTree())
    assert not window.dh.paste_text(rows(MAX_BODIES + 100, header))
    message = window.statusBar().currentMessage()
    assert f"{MAX_BODIES + 100} rows" in message and f"at most {MAX_BODIES} bodies" in message
    assert window.doc.tree.num_bodies == 0 and not window.doc.modified


@pytest.mark.parametrize("header", [False, True])
def test_the_rows_already_there_count(window, header):
    window.doc.load(RigidBodyTree())
    assert window.dh.paste_text(rows(3))
    assert not window.dh.paste_text(rows(MAX_BODIES - 2, header))
    message = window.statusBar().currentMessage()
    assert f"{MAX_BODIES - 2} rows is more than the {MAX_BODIES - 3} that fit beside the 3 bodies" in message
    assert window.doc.tree.num_bodies == 3


def test_an_edit_beyond_the_limit_is_refused_by_the_document(window, monkeypatch):
    window.doc.open("two_link_planar")
    # the limit, reached (the paste's own check left out)
    monkeypatch.setattr("kinetree.app.model.document.MAX_BODIES", 2)
    assert not window.dh.paste_text(rows(1))
    assert window.statusBar().currentMessage() == "Paste 1 DH rows: 3 bodies is more than the 2 KineTree accepts"
    assert window.doc.tree.num_bodies == 2 and not window.doc.modified


def test_the_autosave_writes_nothing_restore_would_refuse(window, monkeypatch):
    window.doc.open("two_link_planar")
    assert window.dh.paste_text(rows(1))
    assert window.autosave()
    good = window.autosave_path().read_text()
    # one body too many for the reader (the document's own guard left out, as a path around it would)
    monkeypatch.setattr("kinetree.core.io.project.MAX_BODIES", window.doc.tree.num_bodies)
    assert window.dh.paste_text(rows(1))
    assert not window.autosave()
    assert "more than the" in window.statusBar().currentMessage()
    assert window.autosave_path().read_text() == good  # the last restorable autosave stays


def test_a_full_paste_saves_autosaves_and_restores(window):
    """The case of the report at the limit itself (~25 s: 50,000 bodies built, written, read)."""
    window.doc.load(RigidBodyTree())
    assert window.dh.paste_text(rows(MAX_BODIES))
    assert window.doc.tree.num_bodies == MAX_BODIES
    assert window.autosave()
    tree, _ = load_project(window.autosave_path())
    assert tree.num_bodies == MAX_BODIES


def test_with_a_header_as_many_rows_are_read():
    assert len(parse_rows(rows(MAX_BODIES, header=True), degrees=True)) == MAX_BODIES
    with pytest.raises(KineTreeError, match=f"{MAX_BODIES + 1} rows is more than the {MAX_BODIES}"):
        parse_rows(rows(MAX_BODIES + 1, header=True), degrees=True)


# --- values a paste used to change silently ----------------------------------------------------
@pytest.mark.parametrize(("text", "message"), [
    ("0,4318 0 0 q", "pasted line 1: '0,4318' has a decimal comma; use a point: 0.4318"),
    ("0.4318\t0\t0\tq\n0,5\t0\t0\tq", "pasted line 2: '0,5' has a decimal comma; use a point: 0.5"),
    ("0.4318;0;0;q\n1;-0,5;0;q", "pasted line 2: '-0,5' has a decimal comma; use a point: -0.5"),
])
def test_a_decimal_comma_is_refused_naming_the_line_and_text(window, text, message):
    window.doc.open("two_link_planar")
    before = window.doc.serialized()
    assert not window.dh.paste_text(text)
    assert window.statusBar().currentMessage() == message
    assert window.doc.serialized() == before


@pytest.mark.parametrize("header", [False, True])
def test_a_number_where_the_joint_variable_goes_is_refused_with_or_without_a_header(window, header):
    window.doc.load(RigidBodyTree())
    assert not window.dh.paste_text(rows(0, header) + ("\n" if header else "") + "0.4318 0 0 30")
    message = window.statusBar().currentMessage()
    theta = "theta" if header else "θ"  # the header's own name, else the table's
    assert f"line {1 + header}: no joint variable in '{theta}' ('30')" in message
    assert window.doc.tree.num_bodies == 0


def test_rows_that_say_where_the_variable_is_still_paste(window):
    window.doc.load(RigidBodyTree())
    assert window.dh.paste_text("0.4318 0 0 q\n0.1, 0, 0, 0\nR 0.2 0 0 30\n0.3 0 d1 30")
    links = window.dh.model.links()
    assert [(k.joint, k.a) for k in links] == [("R", 0.4318), ("R", 0.1), ("R", 0.2), ("P", 0.3)]
    assert links[2].theta == pytest.approx(0.5235987755982988) and links[3].theta == pytest.approx(0.5235987755982988)
