"""Deep chains in the Bodies view, and long user text in labels and the status bar (issue 17)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from kinetree.app.model.text import MAX_MESSAGE
from kinetree.app.widgets.cell_editor import CellEditor
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

# Opened in a child process: a crash of Qt (the tree view recursed once per nesting level and
# overflowed the stack at ~30,000 levels) would otherwise take pytest down with it.
_OPEN_DEEP = r"""
import json, sys, tempfile
from kinetree.app.main import make_application
from kinetree.app.window.main_window import MainWindow
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

app = make_application(sys.argv)
w = MainWindow(settings=QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat))
w.quiet = True
w.show()
app.processEvents()
out = {"opened": w.open_source(sys.argv[1], ask=False)}
app.processEvents()
view, model = w.bodies.view, w.bodies.model
out["bodies"] = w.doc.tree.num_bodies
# selection follows the document both ways, even for a body far down the chain
w.doc.select("link39000")
app.processEvents()
out["view_current"] = model.name_of(view.currentIndex())
w.doc.select("link123")
app.processEvents()
index = model.index_of("link123")
rect = view.visualRect(index).intersected(view.viewport().rect())  # the part of the row in sight
out["row_in_sight"] = rect.width() > 20 and model.name_of(view.currentIndex()) == "link123"
w.doc.select(None)
app.processEvents()
QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
out["doc_selection"] = w.doc.selection
depth, i = 0, index
while i.isValid():
    depth, i = depth + 1, i.parent()
out["view_depth_of_link123"] = depth
# a 30,000-row paste into the DH table of a new robot
w.new_document()
QGuiApplication.clipboard().setText("\n".join(["0.01 0 0 q"] * 30000))
QTest.mouseClick(w.dh.buttons["paste"], Qt.MouseButton.LeftButton)
app.processEvents()
out["pasted"] = w.doc.tree.num_bodies
w.doc.undo_stack.setClean()
print(json.dumps(out))
"""


def test_a_40000_body_chain_opens_and_a_30000_row_paste_works(tmp_path):
    path = tmp_path / "chain.csv"
    path.write_text("type,a,alpha,d,theta\n" + "R,0.01,0,0,q\n" * 40000)
    r = subprocess.run([sys.executable, "-c", _OPEN_DEEP, str(path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["opened"] and out["bodies"] == 40000
    assert out["view_current"] == "link39000"
    assert out["row_in_sight"] and out["doc_selection"] == "link123"
    assert out["view_depth_of_link123"] <= 40  # the view's nesting is bounded, whatever the chain
    assert out["pasted"] == 30000


def _widths(window) -> dict[str, int]:
    return {"window": window.width(), **{k: d.width() for k, d in window.docks.items()}}


def _settle(qtbot, window) -> None:
    """Let pending layout requests run (a widened label re-lays the window out)."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    QApplication.processEvents()


@pytest.mark.parametrize(("column", "length"), [(1, 200), (0, 5000)])  # a (numbers: 200 at most), type
def test_a_refused_long_dh_cell_text_does_not_widen_the_window(window, qtbot, column, length):
    window.doc.open("puma560")
    _settle(qtbot, window)
    before = _widths(window)
    view = window.dh.view
    view.setFocus()
    view.setCurrentIndex(view.model().index(1, column))
    if not isinstance(QApplication.focusWidget(), CellEditor):
        qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, CellEditor)
    QTest.keyClicks(editor, "x" * length)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    _settle(qtbot, window)
    assert window.dh.error_label.isVisible()
    assert len(window.dh.error_label.text()) <= MAX_MESSAGE
    assert len(window.statusBar().currentMessage()) <= MAX_MESSAGE
    assert _widths(window) == before


def test_a_long_body_name_does_not_widen_the_docks(window, qtbot):
    window.doc.open("puma560")
    window.doc.select("link2")
    _settle(qtbot, window)
    before = _widths(window)
    name = "n" * 996
    field = window.joint.fields["body_name"]
    field.setFocus()
    field.selectAll()
    QTest.keyClicks(field, name)
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert name in window.doc.tree.body_names  # the engine has the whole name
    _settle(qtbot, window)
    assert len(window.joint.title.text()) <= MAX_MESSAGE
    assert _widths(window) == before
    field = window.joint.fields["joint_name"]  # the Joints panel's rows, the mimic list show it
    field.setFocus()
    field.selectAll()
    QTest.keyClicks(field, "j" * 996)
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert window.doc.tree.get_body(name).joint.name == "j" * 996
    window.doc.select("link4")
    _settle(qtbot, window)
    assert _widths(window) == before
    # and by typing into the Bodies view's row
    bodies = window.bodies
    window.doc.select("link3")
    bodies.rename_action.trigger()
    editor = bodies.view.indexWidget(bodies.model.index_of("link3"))
    editor.selectAll()
    QTest.keyClicks(editor, "m" * 996)
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "m" * 996 in window.doc.tree.body_names)
    _settle(qtbot, window)
    assert _widths(window) == before


def test_a_huge_paste_puts_a_short_message_in_the_status_bar(window, qtbot):
    window.doc.open("puma560")
    _settle(qtbot, window)
    before = _widths(window)
    QGuiApplication.clipboard().setText("y" * 1_000_000)
    qtbot.mouseClick(window.dh.buttons["paste"], Qt.MouseButton.LeftButton)
    message = window.statusBar().currentMessage()
    assert "pasted line 1" in message and len(message) <= MAX_MESSAGE
    _settle(qtbot, window)
    assert _widths(window) == before


def test_the_joints_panel_shows_many_joints_a_page_at_a_time(window, qtbot):
    from kinetree.app.panels.sliders import PAGE_ROWS
    from kinetree.core.io import import_robot

    n = 2 * PAGE_ROWS + 50
    path = window.settings.fileName() + ".csv"
    with open(path, "w") as f:
        f.write("type,a,alpha,d,theta\n" + "R,0.01,0,0,q\n" * n)
    assert import_robot(path).num_bodies == n
    assert window.open_source(path, ask=False)
    panel = window.sliders
    assert len(panel.rows) == PAGE_ROWS and panel.pager.isVisible()  # not n rows of widgets
    assert "q1" in panel.rows and f"q{PAGE_ROWS + 1}" not in panel.rows
    qtbot.mouseClick(panel.page_next, Qt.MouseButton.LeftButton)
    assert f"q{PAGE_ROWS + 1}" in panel.rows and "q1" not in panel.rows
    # selecting a body shows its joint's page; its slider moves the engine's joint
    window.doc.select(f"link{n}")
    assert f"q{n}" in panel.rows and panel.page_label.text() == f"joints {2 * PAGE_ROWS + 1}–{n} of {n}"
    spin = panel.rows[f"q{n}"].spin
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin.lineEdit(), "45")
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    q = window.doc.configuration[window.doc.tree.position_index(f"q{n}")]
    assert float(q[0]) == pytest.approx(0.7853981633974483)
    qtbot.mouseClick(panel.page_prev, Qt.MouseButton.LeftButton)
    assert f"q{PAGE_ROWS + 1}" in panel.rows


def test_elide_keeps_start_and_end_and_bounds_words():
    from kinetree.app.model.text import elide

    assert elide("short") == "short"
    cut = elide("a" * 500 + "END", 100)
    assert len(cut) == 100 and cut.startswith("a" * 60) and cut.endswith("END") and "…" in cut
    dialog = elide("file /tmp/x.urdf: " + "z" * 5000 + " refused", 1500, 200)
    assert dialog.startswith("file /tmp/x.urdf: ") and dialog.endswith(" refused")
    assert max(len(w) for w in dialog.split()) == 200
