"""One selection, a default layout that shows every control, predictable wheel/keys, quitting,
the title, and the no-display and library command lines."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap

import pytest
from helpers.gui import settle, sliders_visible
from kinetree.app.cli import library as cli
from kinetree.app.main import main
from kinetree.app.window.layout import default_window_size
from kinetree.core import list_robots
from kinetree.core.library.sources import SHORT_SOURCES
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QToolButton


def click_tree_row(window, name: str) -> None:
    view = window.bodies.view
    rect = view.visualRect(window.bodies.model.index_of(name))
    assert rect.isValid() and view.viewport().rect().contains(rect.center()), name
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())


def click_empty_viewport(window) -> None:
    vp = window.viewport
    pos = QPoint(6, 6)  # a corner: no frame origin is drawn there
    assert vp.body_at(pos.x(), pos.y()) is None
    QTest.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)


def wheel(widget, notches: int = -1) -> None:
    """One wheel event of ``notches`` notches (negative: towards the user, scrolling down)."""
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)


def focus(qtbot, window, widget) -> None:
    window.activateWindow()
    widget.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=3000)


# --- one selection ---------------------------------------------------------------------------

def test_reclick_after_viewport_deselect_selects_and_add_child_goes_under_it(window, qtbot):
    """The reported repro: tree click, empty-viewport click (deselects), the same row again."""
    window.doc.open("puma560")
    settle(qtbot)
    click_tree_row(window, "link1")
    assert window.doc.selection == "link1"
    click_empty_viewport(window)
    assert window.doc.selection is None
    assert window.bodies.view.selectionModel().selectedRows() == []  # the highlight went too
    click_tree_row(window, "link1")
    assert window.doc.selection == "link1"
    assert [window.bodies.model.name_of(i) for i in window.bodies.view.selectionModel().selectedRows()] == ["link1"]
    window.bodies.add_action.trigger()
    new = window.doc.selection
    assert new not in ("link1", None)
    assert window.doc.tree.parent_name(new) == "link1"


def test_actions_follow_the_document_selection(window, qtbot):
    window.doc.open("two_link_planar")
    b = window.bodies
    assert window.doc.selection is None
    assert not b.delete_action.isEnabled() and not b.duplicate_action.isEnabled()
    assert "under base" in b.add_action.toolTip()
    window.doc.select("base")
    assert not b.delete_action.isEnabled() and b.rename_action.isEnabled()
    window.doc.select("link2")
    assert b.delete_action.isEnabled() and b.duplicate_action.isEnabled()
    assert "under link2" in b.add_action.toolTip()
    b.delete_action.trigger()
    assert "link2" not in window.doc.tree.body_names
    assert window.doc.selection == "link1"  # the parent is selected after the delete
    assert b.delete_action.isEnabled()


def test_dh_rows_viewport_and_pose_share_the_selection(make_window, qtbot, tmp_path):
    window = make_window("pose.ini")
    window.doc.open("puma560")
    settle(qtbot)
    dh = window.dh.view
    rect = dh.visualRect(window.dh.model.index(2, 1))
    QTest.mouseClick(dh.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())
    assert window.doc.selection == "link3"
    assert [i.data() for i in window.bodies.view.selectionModel().selectedRows()] == ["link3"]
    if dh.state() == QAbstractItemView.State.EditingState:  # the click opened the cell's editor
        editor = dh.indexWidget(dh.currentIndex())
        assert editor is not None  # (QTest aborts the process on a None widget)
        QTest.keyClick(editor, Qt.Key.Key_Escape)
    assert dh.state() != QAbstractItemView.State.EditingState
    steps = window.doc.undo_stack.count()
    window.doc.select("link5")  # e.g. a viewport pick: the DH row follows
    assert dh.currentIndex().row() == 4 and dh.selectionModel().isRowSelected(4)
    # ... without opening the row's cell editor (whose commit would add an undo step)
    assert dh.state() != QAbstractItemView.State.EditingState
    window.doc.select("link2")
    window.doc.select("link6")
    assert dh.state() != QAbstractItemView.State.EditingState
    assert window.doc.undo_stack.count() == steps
    window.doc.select("link5")
    click_empty_viewport(window)
    assert not dh.selectionModel().hasSelection()
    # clicking the row that is still current selects it again
    QTest.mouseClick(dh.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     dh.visualRect(window.dh.model.index(4, 0)).center())
    assert window.doc.selection == "link5"

    pose = window.pose
    assert pose.mode() == "end_effector" and pose.body_combo.currentText() == "link6"
    pose.set_mode("selected")
    assert pose.body_combo.currentText() == "link5"
    x_link5 = pose.labels["x"].text()
    window.doc.select("link2")
    assert pose.body_combo.currentText() == "link2" and pose.labels["x"].text() != x_link5
    pose.body_combo.setCurrentText("link4")
    pose.body_combo.activated.emit(pose.body_combo.currentIndex())  # as a user's choice
    assert window.doc.selection == "link4"
    window.doc.select(None)
    assert pose.labels["x"].text() == "—"
    # remembered for the next window
    again = make_window("pose.ini")
    assert again.pose.mode() == "selected"


# --- input -----------------------------------------------------------------------------------

def test_wheel_over_unfocused_slider_scrolls_the_list_and_moves_nothing(window, qtbot):
    window.resize(1280, 800)
    window.doc.open("humanoid_upper_body")  # 19 sliders: the list scrolls
    settle(qtbot)
    panel = window.sliders
    bar = panel.scroll.verticalScrollBar()
    assert bar.maximum() > 0
    q, steps = window.doc.configuration, window.doc.undo_stack.count()
    row = next(iter(panel.rows.values()))
    assert not row.slider.hasFocus()
    for widget in (row.slider, row.spin):
        before = bar.value()
        wheel(widget, -1)
        assert bar.value() > before  # the list scrolled instead
    assert (window.doc.configuration == q).all()
    assert window.doc.undo_stack.count() == steps
    assert not row.slider.hasFocus()  # the wheel does not take the focus either


def test_wheel_and_key_steps_on_a_focused_slider_are_one_undo_step(window, qtbot, monkeypatch):
    import kinetree.app.panels.sliders as sliders

    monkeypatch.setattr(sliders, "BURST_S", 0.3)
    window.doc.open("puma560")
    panel = window.sliders
    row = panel.rows["q2"]
    focus(qtbot, window, row.slider)
    stack = window.doc.undo_stack
    start, count = panel.values()["q2"], stack.count()
    wheel(row.slider, 1)
    wheel(row.slider, 1)
    QTest.keyClick(row.slider, Qt.Key.Key_Right)
    assert panel.values()["q2"] == pytest.approx(start + math.radians(3))  # step 1 in degrees
    assert stack.count() == count + 1  # the burst is one step
    qtbot.wait(400)  # a pause ends the burst
    QTest.keyClick(row.slider, Qt.Key.Key_Left)
    assert stack.count() == count + 2
    stack.undo()
    stack.undo()
    assert panel.values()["q2"] == pytest.approx(start)


def test_step_is_in_the_shown_unit(window, qtbot):
    window.doc.open("cylindrical")  # θ1 revolute, d2 and d3 prismatic
    panel = window.sliders
    panel.angle_units.setCurrentIndex(1)
    panel.angle_units.activated.emit(1)  # radians
    panel.step.setValue(0.5)
    q1 = panel.rows[window.doc.tree.bodies[0].joint.name]
    assert q1.spin.singleStep() == pytest.approx(0.5)
    focus(qtbot, window, q1.slider)
    before = panel.values()[q1.key]
    QTest.keyClick(q1.slider, Qt.Key.Key_Right)
    assert panel.values()[q1.key] == pytest.approx(before + 0.5)  # 0.5 rad, not 0.5°

    panel.length_units.setCurrentIndex(1)
    panel.length_units.activated.emit(1)  # millimetres
    panel.step.setValue(5)
    d2 = panel.rows[window.doc.tree.bodies[1].joint.name]
    assert d2.kind == "length" and d2.spin.singleStep() == pytest.approx(5)
    focus(qtbot, window, d2.slider)
    before = panel.values()[d2.key]
    QTest.keyClick(d2.slider, Qt.Key.Key_Up)
    assert panel.values()[d2.key] == pytest.approx(before + 0.005)  # 5 mm


QUIT_SCRIPT = textwrap.dedent("""
    import sys
    from kinetree.app.main import make_application
    app = make_application([])
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtGui import QAction
    from kinetree.app.window.main_window import MainWindow
    w = MainWindow(settings=QSettings(sys.argv[1], QSettings.Format.IniFormat))
    w.show()
    w.open_source("two_link_planar", ask=False)
    w.findChild(QAction, "undoHistoryAction").trigger()
    assert w.undo_view.isVisible()
    QTimer.singleShot(300, w.findChild(QAction, "quitAction").trigger)
    code = app.exec()
    print("exited", code, [x.objectName() for x in app.topLevelWidgets() if x.isVisible()])
""")


def test_quit_with_the_undo_history_open_exits(tmp_path):
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    proc = subprocess.run([sys.executable, "-c", QUIT_SCRIPT, str(tmp_path / "quit.ini")], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "exited 0 []" in proc.stdout  # no window left visible, the event loop returned


# --- layout and title ------------------------------------------------------------------------

def dh_rows_visible(window) -> int:
    view = window.dh.view
    return sum(view.viewport().rect().contains(view.visualRect(window.dh.model.index(r, c)))
               for r in range(window.dh.model.rowCount()) for c in (0, 7)) // 2


def test_default_layout_at_1280x800_shows_every_control(window, qtbot, screen_size):
    screen_size(1280, 800)
    window.resize(1280, 800)
    window.reset_layout()
    window.doc.open("puma560")
    window.doc.select("link3")
    settle(qtbot, 100)
    assert len(window.sliders.rows) == 6 and sliders_visible(window) == 6
    assert window.dh.model.rowCount() == 6 and dh_rows_visible(window) == 6
    docks = window.docks
    for key in ("bodiesDock", "jointDock"):  # side by side in time: neither is a hidden tab
        assert window.tabifiedDockWidgets(docks[key]) == []
        assert not docks[key].widget().visibleRegion().isEmpty()
    for key, dock in docks.items():
        assert dock.isVisible() and not dock.isFloating(), key
    bar = window.bodies.toolbar
    for action in bar.actions():
        assert bar.widgetForAction(action).isVisible(), action.text()
    ext = bar.findChild(QToolButton, "qt_toolbar_ext_button")
    assert ext is None or not ext.isVisible()  # no ">>" overflow
    # the left column runs the full height beside the DH table
    assert window.corner(Qt.Corner.BottomLeftCorner) == Qt.DockWidgetArea.LeftDockWidgetArea
    assert docks["jointDock"].geometry().bottom() > docks["dhDock"].geometry().top()
    joint_scroll = window.joint.findChild(type(window.sliders.scroll))
    assert not joint_scroll.horizontalScrollBar().isVisible()
    # the viewport keeps a usable share
    assert window.viewport.width() >= 300 and window.viewport.height() >= 300


def test_a_new_window_fills_most_of_the_screen(window):
    avail = window.screen().availableGeometry()
    size = default_window_size(window)
    assert size.width() >= 0.9 * avail.width() - 1 and size.height() >= 0.9 * avail.height() - 1
    assert size.width() <= avail.width() and size.height() <= avail.height()
    # (pytest-xvfb's screen is 800×600: narrower than the DH table's row of buttons)
    assert window.size() == size.expandedTo(window.minimumSizeHint())
    assert avail.contains(window.frameGeometry().center())
    # on a screen this narrow the DH table runs the full width, under the Joint panel too
    left = window.docks["jointDock"].minimumSizeHint().width() + window.docks["dhDock"].minimumSizeHint().width()
    if left > avail.width():
        assert window.corner(Qt.Corner.BottomLeftCorner) == Qt.DockWidgetArea.BottomDockWidgetArea
        assert window.minimumSizeHint().width() <= window.docks["dhDock"].minimumSizeHint().width() + 20


def test_reset_layout_undoes_rearranged_docks(window, qtbot):
    window.resize(1280, 800)
    d = window.docks
    window.tabifyDockWidget(d["bodiesDock"], d["jointDock"])
    d["slidersDock"].setFloating(True)
    d["poseDock"].hide()
    window.findChild(QAction, "resetLayoutAction").trigger()
    settle(qtbot)
    assert window.tabifiedDockWidgets(d["bodiesDock"]) == []
    assert all(dock.isVisible() and not dock.isFloating() for dock in d.values())
    assert window.dockWidgetArea(d["bodiesDock"]) == window.dockWidgetArea(d["jointDock"]) \
        == Qt.DockWidgetArea.LeftDockWidgetArea
    assert window.dockWidgetArea(d["dhDock"]) == Qt.DockWidgetArea.BottomDockWidgetArea


def test_a_saved_layout_of_the_old_version_is_ignored(make_window, tmp_path):
    old = make_window("old.ini")
    old.tabifyDockWidget(old.docks["bodiesDock"], old.docks["jointDock"])  # the old default
    old.settings.setValue("windowState", old.saveState())  # saved without a layout version
    old.settings.sync()
    new = make_window("old.ini")
    assert new.tabifiedDockWidgets(new.docks["bodiesDock"]) == []
    new.tabifyDockWidget(new.docks["bodiesDock"], new.docks["jointDock"])
    new.close()  # saves this version's state: restored as the user left it
    again = make_window("old.ini")
    assert again.tabifiedDockWidgets(again.docks["bodiesDock"]) == [again.docks["jointDock"]]


def test_larger_text_at_1920x1080_keeps_six_sliders(make_window, qtbot, screen_size):
    screen_size(1920, 1080)
    base = QApplication.font().pointSizeF()
    window = make_window("big.ini")
    try:
        window.resize(1920, 1080)
        window.reset_layout()
        window.doc.open("puma560")
        window.set_text_scale(1.5)
        settle(qtbot, 200)
        assert QApplication.font().pointSizeF() == pytest.approx(base * 1.5)
        assert sliders_visible(window) == 6
        assert dh_rows_visible(window) == 6
    finally:
        window.set_text_scale(1.0)
        QApplication.processEvents()


def test_title_names_the_document(window, tmp_path):
    def shown() -> str:
        return window.windowTitle().replace("[*]", "*" if window.isWindowModified() else "")

    assert shown() == "untitled — KineTree"
    window.open_source("puma560", ask=False)
    assert shown() == "puma560 — KineTree"
    window.doc.set_joint_position("q1", 0.5)
    assert shown() == "puma560* — KineTree"
    path = tmp_path / "arm.kinetree.json"
    window.doc.save(path)
    assert shown() == "arm.kinetree.json — KineTree"
    window.doc.open("ur5")  # documents opened without the window name themselves too
    assert shown() == "ur5 — KineTree"


# --- command line ----------------------------------------------------------------------------

def test_no_display_exits_1_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["XDG_RUNTIME_DIR"] = str(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "kinetree.app", "puma560"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and proc.stdout == ""
    assert "no display" in lines[0]
    for command in ("screenshot", "details", "fk", "convert", "library"):
        assert command in lines[0]


def test_library_prints_a_table(capsys):
    assert main(["library"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split() == ["name", "joints", "kind", "source"]
    assert [line.split()[0] for line in lines[1:]] == list_robots()
    for line, (name, joints, kind, source) in zip(lines[1:], cli.library_table()[1:]):
        assert int(joints) >= 1 and kind in ("DH", "MDH", "URDF tree", "closed loops")
        assert line.endswith(source) and source == SHORT_SOURCES[name]
        assert "``" not in line and ":math:" not in line and len(line) < 120
    row = {r[0]: r for r in cli.library_table()}
    assert row["puma560"][1:3] == ("6", "DH") and row["panda"][2] == "MDH"
    assert row["quadruped"][2] == "URDF tree"
    assert row["delta_robot"][1:3] == ("13", "closed loops")


def test_the_dh_docks_buttons_stay_in_view_with_rows_that_are_not_dh_rows(window, qtbot, screen_size):
    screen_size(1280, 800)
    window.resize(1280, 800)
    window.reset_layout()
    for _ in range(3):  # Add child: joints from a matrix, greyed in the DH table, with a note
        window.bodies.add_action.trigger()
    qtbot.wait(50)
    assert window.dh.note.text()
    area = window.dh.parentWidget().parentWidget()  # the dock's scroll area
    for button in window.dh.buttons.values():
        top_left = button.mapTo(area, button.rect().topLeft())
        bottom_right = button.mapTo(area, button.rect().bottomRight())
        assert area.rect().contains(top_left) and area.rect().contains(bottom_right), button.text()
    assert window.dh.height() <= area.height()  # nothing to scroll to
