"""Driving the panels as a user does: buttons, list rows, DH cells, the Torques dock."""

from __future__ import annotations

from kinetree.app.widgets.cell_editor import CellEditor
from kinetree.core.library import load_robot
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def click_row(qtbot, list_widget, row: int) -> None:
    rect = list_widget.visualItemRect(list_widget.item(row))
    qtbot.mouseClick(list_widget.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def undo_all(doc) -> None:
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()


def open_cell(qtbot, window, row: int, col: int) -> CellEditor:
    """Open a DH cell's editor as a user does: make it current, press F2."""
    view = window.dh.view
    idx = view.model().index(row, col)
    view.setFocus()
    view.setCurrentIndex(idx)
    if not isinstance(QApplication.focusWidget(), CellEditor):  # the edit triggers may open it already
        qtbot.keyClick(view, Qt.Key.Key_F2)
    editor = QApplication.focusWidget()
    assert isinstance(editor, CellEditor), editor
    return editor


def dh_row(window, body: str) -> int:
    return [e.body for e in window.dh.model.entries].index(body)


EFFORTS = (97, 40, 30, 0, 10, 10)


def open_planar_without_poses(doc) -> None:
    """The two-link planar arm with its library poses removed: a robot with no named poses."""
    tree = load_robot("two_link_planar")
    tree.named_poses.replace({})
    doc.load(tree, name="two_link_planar")


def settle(qtbot, ms: int = 30) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def click_check_box(window, name: str) -> None:
    lst = window.poses.list
    rect = lst.visualItemRect(window.poses._item(name))
    box = QPoint(rect.left() + rect.height() // 2, rect.center().y())
    QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box)


def puma_with_limits(window, qtbot) -> None:
    """Puma with URDF effort limits and gravity (one edit), the Poses dock shown, qz → qr checked."""
    window.doc.open("puma560")

    def limits(tree) -> None:
        for b, effort in zip(tree.bodies, EFFORTS):
            if effort:
                b.joint.extensions = (f'<limit effort="{effort}" velocity="2"/>',)
        tree.gravity = [0, 0, -9.81]

    assert window.doc.try_edit("Effort limits", limits) is None
    window.findChild(QAction, "toggle_posesDock").trigger()  # View ▸ Poses
    settle(qtbot)
    for name in ("qs", "qn"):
        click_check_box(window, name)
    assert window.playback.playable() == ["qz", "qr"]


def open_torques(window, qtbot) -> None:
    qtbot.mouseClick(window.poses.torques_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.torques.isVisible() and window.torques.profile is not None)
