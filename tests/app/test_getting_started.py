"""Getting started (resources/guide/getting-started.md; README's four steps), done as a user does
it: a 4-body arm (base → 3 revolute links → tool) with link geometry in six inputs, each a real
key press or click; then the links follow when a frame is dragged, and everything is undoable."""

from __future__ import annotations

import numpy as np
from helpers.gui import along, drag
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolButton

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def test_a_four_body_arm_with_geometry_in_six_inputs(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    doc, bodies = w.doc, w.bodies
    actions = 0

    def act():
        nonlocal actions
        actions += 1

    QTest.keyClick(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)  # 1. File ▸ New
    act()
    assert doc.tree.body_names == []
    for _ in range(3):  # 2–4. Ctrl+Shift+A: a revolute child of the selected body (the base), then selected
        QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_A, CTRL_SHIFT)
        act()
    button = next(b for b in bodies.findChildren(QToolButton) if b.defaultAction() is bodies.add_action)
    menu = bodies.add_menu
    click_when_shown(menu, bodies.add_actions["fixed"])  # 5–6. the Add child button's menu: Fixed joint
    QTest.mouseClick(button, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     QPoint(button.width() - 4, button.height() // 2))  # its menu arrow
    act()
    act()  # and the menu's entry
    assert actions == 6
    tree = doc.tree
    names = tree.body_names
    assert len(names) == 4
    assert [tree.get_body(n).joint.type for n in names] == ["revolute"] * 3 + ["fixed"]
    assert [tree.parent_name(n) for n in names] == [tree.base_name, *names[:3]]
    # every link has geometry: a cylinder from its origin to the next body's
    poses = doc.poses()
    for k in range(3):
        (v,) = tree.get_body(names[k]).visuals
        assert v.kind == "cylinder" and abs(v.size[1] - np.linalg.norm(poses[k + 1][:3, 3] - poses[k][:3, 3])) < 1e-12
    assert np.allclose(poses[3][:3, 3], [0.9, 0, 0])  # 0.3 m links along x
    assert doc.undo_stack.count() == 4
    # drag the tool's frame 50 mm along x (W): the last link's cylinder follows
    doc.select(names[3])
    vp = w.viewport
    vp.fit()
    vp.repaint()
    vp.setFocus()  # the user's click on the tool's body gave the viewport the keys
    qtbot.waitUntil(vp.hasFocus)
    QTest.keyClick(vp, Qt.Key.Key_W)
    T0 = doc.pose_of(names[3])
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 40)
    drag(vp, start, end)
    (v,) = doc.tree.get_body(names[2]).visuals
    moved = doc.pose_of(names[3])[0, 3] - T0[0, 3]
    assert moved > 0.01 and abs(v.size[1] - (0.3 + moved)) < 1e-9
    for _ in range(5):
        doc.undo_stack.undo()
    assert doc.tree.body_names == []


def click_when_shown(menu, action) -> None:
    """When ``menu`` opens, click its entry ``action`` (a menu's exec blocks until then)."""
    from PySide6.QtCore import QTimer

    def click():
        if not menu.isVisible():
            QTimer.singleShot(20, click)
            return
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         menu.actionGeometry(action).center())

    QTimer.singleShot(20, click)
    QApplication.processEvents()
