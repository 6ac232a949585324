"""The Poses dock: save the current configuration under a typed name, go to it, rename, delete,
reorder — each one undo step, bad names refused in place — and the poses survive a project file."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.panels import open_planar_without_poses, settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit


def show_poses(window, qtbot) -> None:
    """View ▸ Poses."""
    window.findChild(QAction, "toggle_posesDock").trigger()
    settle(qtbot)
    assert window.poses.isVisible()


def type_name(window, qtbot, text: str) -> None:
    edit = window.poses.name_edit
    edit.clear()
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)
    settle(qtbot)


def click_row(window, name: str, double: bool = False) -> None:
    lst = window.poses.list
    item = window.poses._item(name)
    rect = lst.visualItemRect(item)
    # right of the check box: a click on the text selects the row without toggling the box
    pos = rect.center()
    pos.setX(rect.left() + rect.width() // 2)
    click = QTest.mouseDClick if double else QTest.mouseClick
    if double:
        QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)
    click(lst.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, pos)


def test_dock_hidden_by_default_then_a_tab_beside_the_pose_dock(window, qtbot, screen_size):
    screen_size(1280, 800)
    window.resize(1280, 800)
    window.reset_layout()
    settle(qtbot, 60)
    dock, pose = window.poses_dock, window.docks["poseDock"]
    assert not dock.isVisible() and pose.isVisible()
    show_poses(window, qtbot)
    assert window.tabifiedDockWidgets(pose) == [dock] and not dock.isFloating()
    assert not dock.widget().visibleRegion().isEmpty()  # in front
    assert window.size().height() == 800  # the tab bar fits in the window
    window.reset_layout()
    settle(qtbot)
    assert not dock.isVisible() and pose.isVisible()
    assert stray_tab_bars(window) == []


def stray_tab_bars(window) -> list[list[str]]:
    """Visible dock tab bars over the menu bar (Qt left one there for a dock tabbed while hidden)."""
    from PySide6.QtWidgets import QTabBar

    menu = window.menuBar().geometry()
    return [[tb.tabText(i) for i in range(tb.count())] for tb in window.findChildren(QTabBar)
            if tb.isVisible() and tb.geometry().intersects(menu)]


def test_no_dock_tab_bar_covers_the_menu_bar(tmp_path, autosave_dir, qtbot):
    from kinetree.app.window.main_window import MainWindow
    from PySide6.QtCore import QSettings

    window = MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.quiet = True
    window.autosave_timer.stop()
    qtbot.addWidget(window)
    window.resize(1280, 800)  # sized before it is first shown, as the app starts
    window.show()
    settle(qtbot, 60)
    assert stray_tab_bars(window) == []  # the File menu is visible and clickable
    show_poses(window, qtbot)
    window.poses_dock.hide()
    window.explain_dock.show()
    window.explain_dock.hide()
    window.reset_layout()
    settle(qtbot)
    assert stray_tab_bars(window) == []
    assert window.tabifiedDockWidgets(window.docks["dhDock"]) == []  # hidden: no tab yet
    window.explain_dock.show()
    settle(qtbot)
    assert window.tabifiedDockWidgets(window.docks["dhDock"]) == [window.explain_dock]


def test_library_poses_are_listed_all_checked(window, qtbot):
    window.doc.open("puma560")
    assert window.poses.names() == ["qz", "qr", "qs", "qn"]
    assert window.playback.names == ["qz", "qr", "qs", "qn"]
    item = window.poses._item("qr")
    assert item.toolTip() == "q = [0  1.571  -1.571  0  0  0]"  # Corke's qr: q2 = π/2, q3 = −π/2


def test_save_go_to_rename_delete_each_one_undo_step(window, qtbot):
    doc = window.doc
    open_planar_without_poses(doc)
    show_poses(window, qtbot)
    stack = doc.undo_stack
    q = np.array([0.3, -0.5])
    doc.set_configuration(q)
    n = stack.count()
    type_name(window, qtbot, "elbow up")
    assert list(doc.tree.named_poses) == ["elbow up"]
    np.testing.assert_array_equal(doc.tree.named_poses["elbow up"], q)
    assert window.poses.names() == ["elbow up"] and stack.count() == n + 1
    assert window.poses.name_edit.text() == ""  # ready for the next name
    assert not window.poses.error.isVisible()
    stack.undo()
    assert len(doc.tree.named_poses) == 0 and window.poses.names() == []
    stack.redo()
    assert window.poses.names() == ["elbow up"]

    # go to: double-click, one undo step
    doc.set_configuration([0.0, 0.0])
    n = stack.count()
    click_row(window, "elbow up", double=True)
    settle(qtbot)
    np.testing.assert_array_equal(doc.configuration, q)
    assert stack.count() == n + 1 and "Go to pose" in stack.undoText()
    stack.undo()
    np.testing.assert_array_equal(doc.configuration, [0.0, 0.0])

    # rename in place: F2, type, Enter
    click_row(window, "elbow up")
    window.poses.list.setFocus()
    QTest.keyClick(window.poses.list, Qt.Key.Key_F2)
    settle(qtbot)
    editor = window.poses.list.findChild(QLineEdit)
    assert editor is not None and editor.isVisible()
    editor.selectAll()
    QTest.keyClicks(editor, "reach")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    settle(qtbot)
    assert list(doc.tree.named_poses) == ["reach"] and window.poses.names() == ["reach"]
    np.testing.assert_array_equal(doc.tree.named_poses["reach"], q)
    stack.undo()
    assert window.poses.names() == ["elbow up"]
    stack.redo()

    # delete with the button
    click_row(window, "reach")
    n = stack.count()
    QTest.mouseClick(window.poses.buttons["delete"], Qt.MouseButton.LeftButton)
    assert window.poses.names() == [] and stack.count() == n + 1
    stack.undo()
    assert window.poses.names() == ["reach"]


@pytest.mark.parametrize("bad, reason", [("", "non-empty"), ("   ", "non-empty"), ("x" * 1001, "1001 characters")])
def test_bad_names_are_refused_in_place(window, qtbot, bad, reason):
    open_planar_without_poses(window.doc)
    show_poses(window, qtbot)
    n = window.doc.undo_stack.count()
    edit = window.poses.name_edit
    if len(bad) > 50:
        edit.setText(bad[:-1])  # typing a thousand keys is slow: the last one is typed
        QTest.keyClicks(edit, bad[-1])
        QTest.keyClick(edit, Qt.Key.Key_Return)
        settle(qtbot)
    else:
        type_name(window, qtbot, bad)
    assert window.poses.error.isVisible() and reason in window.poses.error.text()
    assert edit.text() == bad  # kept, to be corrected
    assert window.doc.undo_stack.count() == n and len(window.doc.tree.named_poses) == 0
    QTest.keyClicks(edit, "a")  # typing clears the complaint
    assert not window.poses.error.isVisible()


def test_rename_to_an_existing_name_is_refused_in_place(window, qtbot):
    window.doc.open("puma560")
    show_poses(window, qtbot)
    n = window.doc.undo_stack.count()
    click_row(window, "qs")
    window.poses.start_rename()
    settle(qtbot)
    editor = window.poses.list.findChild(QLineEdit)
    editor.selectAll()
    QTest.keyClicks(editor, "qr")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    settle(qtbot)
    assert "already exists" in window.poses.error.text() and window.poses.error.isVisible()
    assert window.poses.names() == ["qz", "qr", "qs", "qn"] and window.doc.undo_stack.count() == n


def test_up_and_down_reorder_as_undo_steps(window, qtbot):
    window.doc.open("puma560")
    show_poses(window, qtbot)
    qr = window.doc.tree.named_poses["qr"]
    click_row(window, "qr")
    QTest.mouseClick(window.poses.buttons["down"], Qt.MouseButton.LeftButton)
    assert window.poses.names() == ["qz", "qs", "qr", "qn"] == list(window.doc.tree.named_poses)
    assert window.poses.list.currentItem().text() == "qr"  # the moved pose stays current
    np.testing.assert_array_equal(window.doc.tree.named_poses["qr"], qr)
    QTest.mouseClick(window.poses.buttons["up"], Qt.MouseButton.LeftButton)
    QTest.mouseClick(window.poses.buttons["up"], Qt.MouseButton.LeftButton)
    assert window.poses.names() == ["qr", "qz", "qs", "qn"]
    assert not window.poses.buttons["up"].isEnabled()  # at the top
    for _ in range(3):
        window.doc.undo_stack.undo()
    assert window.poses.names() == ["qz", "qr", "qs", "qn"]
    assert window.playback.names == ["qz", "qr", "qs", "qn"]  # playback follows the order


def test_saving_over_a_name_updates_it(window, qtbot):
    window.doc.open("puma560")
    show_poses(window, qtbot)
    window.doc.set_configuration(np.full(6, 0.1))
    type_name(window, qtbot, "qs")
    assert window.poses.names() == ["qz", "qr", "qs", "qn"]  # kept in place
    np.testing.assert_allclose(window.doc.tree.named_poses["qs"], np.full(6, 0.1))
    assert window.doc.undo_stack.undoText().startswith("Update pose")


def test_poses_survive_save_and_reopen(make_window, qtbot, tmp_path):
    w = make_window()
    open_planar_without_poses(w.doc)
    show_poses(w, qtbot)
    w.doc.set_configuration([0.25, 1.0])
    type_name(w, qtbot, "first")
    w.doc.set_configuration([-1.0, 0.5])
    type_name(w, qtbot, "second")
    path = tmp_path / "arm.kinetree.json"
    assert w._save_to(path)
    other = make_window("other.ini")
    assert other.open_source(str(path), ask=False)
    assert other.poses.names() == ["first", "second"]
    np.testing.assert_array_equal(other.doc.tree.named_poses["first"], [0.25, 1.0])
    np.testing.assert_array_equal(other.doc.tree.named_poses["second"], [-1.0, 0.5])
    click_row(other, "first", double=True)
    np.testing.assert_array_equal(other.doc.configuration, [0.25, 1.0])


def test_a_pose_edit_is_a_narrow_tree_change(window, qtbot):
    """Views that redo work by kind skip it: the edit classifies as a property change of no body."""
    window.doc.open("puma560")
    changes = []
    window.doc.treeChanged.connect(changes.append)
    window.poses.delete("qn")
    assert len(changes) == 1 and changes[0].kind == "properties" and not changes[0].bodies


def test_delete_key_in_the_list_deletes_the_pose_not_the_selected_body(window, qtbot):
    window.doc.open("puma560")
    window.doc.select("link3")
    show_poses(window, qtbot)
    click_row(window, "qr")
    window.activateWindow()
    window.poses.list.setFocus()
    qtbot.waitUntil(window.poses.list.hasFocus)
    QTest.keyClick(window.poses.list, Qt.Key.Key_Delete)
    settle(qtbot)
    assert window.poses.names() == ["qz", "qs", "qn"]
    assert "link3" in window.doc.tree.body_names
    assert window.poses.list.currentItem().text() == "qs"  # the next pose, ready for another Delete
