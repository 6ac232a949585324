"""The build shortcuts (Ctrl+Shift+A, Ctrl+D, F2, Del) and the tool keys (Q/W/E/R) work where the
user's hands are: with the 3D view focused after a click in it, and after a click on a panel
button. Keys go to whatever has the focus, as a keyboard's do."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def focus_view_by_click(qtbot, w) -> None:
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    vp = w.viewport
    QTest.mouseClick(vp, Qt.MouseButton.LeftButton, pos=vp.rect().bottomLeft() + vp.rect().center() * 0.1)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is vp)


def key(qtbot, k, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(QApplication.focusWidget(), k, modifiers)


def test_build_shortcuts_work_with_the_view_focused(make_window, qtbot):
    w = make_window()
    doc = w.doc  # a new window: the empty robot
    focus_view_by_click(qtbot, w)  # the empty robot's hint says: press Ctrl+Shift+A
    for _ in range(2):
        key(qtbot, Qt.Key.Key_A, CTRL_SHIFT)
    assert len(doc.tree.body_names) == 2 and doc.selection == doc.tree.body_names[-1]
    key(qtbot, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)  # duplicate the selected subtree
    assert len(doc.tree.body_names) == 3
    key(qtbot, Qt.Key.Key_Delete)
    assert len(doc.tree.body_names) == 2
    assert QApplication.focusWidget() is w.viewport
    doc.select(doc.tree.body_names[0])
    key(qtbot, Qt.Key.Key_F2)  # rename: the Bodies panel's editor opens on the body
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, "shoulder")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "shoulder" in doc.tree.body_names)


def test_tool_keys_work_after_a_click_on_a_panel_button(make_window, qtbot):
    w = make_window()
    w.doc.open("puma560")
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    button = w.bodies.toolbar.widgetForAction(w.bodies.add_action)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # adds a child; the focus stays wherever it lands
    for k, tool in ((Qt.Key.Key_W, "move"), (Qt.Key.Key_E, "rotate"), (Qt.Key.Key_Q, "pose")):
        key(qtbot, k)
        assert w.viewport.tool == tool, (QApplication.focusWidget(), w.viewport.tool)


def on_screen(vp) -> bool:
    from kinetree.app.viewport.labels import project_points, view_mvp

    pts = vp._poses[:, :3, 3]
    px, front = project_points(view_mvp(vp), pts, vp.width(), vp.height())
    return bool(front.all() and (px >= 0).all() and (px[:, 0] < vp.width()).all() and (px[:, 1] < vp.height()).all())


def test_the_first_links_of_an_empty_robot_are_brought_into_view(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    vp = w.viewport
    zoom = vp.opts["distance"]  # the empty robot's: a few centimetres
    focus_view_by_click(qtbot, w)
    for _ in range(3):  # Getting started (resources/guide/getting-started.md): 0.3 m links
        key(qtbot, Qt.Key.Key_A, CTRL_SHIFT)
    assert len(w.doc.tree.body_names) == 3
    assert vp.opts["distance"] > 2 * zoom and on_screen(vp)


def test_a_camera_the_user_moved_is_not_fought(make_window, qtbot):
    w = make_window()
    w.doc.open("two_link_planar")
    vp = w.viewport
    vp.fit()
    vp.orbit(40, 10)  # the user turned the view, then zoomed in close
    vp.opts["distance"] *= 0.05
    seen = (vp.opts["distance"], vp.opts["azimuth"], vp.opts["elevation"])
    w.doc.select(w.doc.tree.body_names[-1])
    focus_view_by_click(qtbot, w)
    key(qtbot, Qt.Key.Key_A, CTRL_SHIFT)
    assert (vp.opts["distance"], vp.opts["azimuth"], vp.opts["elevation"]) == seen


def test_a_body_placed_a_few_pixels_inside_the_edge_is_brought_into_view(make_window, qtbot):
    # found by the SCARA journey (tests/app/test_journeys.py): the wrist added 0.3 m beyond the
    # P joint landed 3 px inside the view's left edge, counted as in view, its frame and move
    # handle cut by the edge
    from kinetree.app.model.edits import add_child
    from kinetree.app.viewport.labels import project_points, view_mvp

    w = make_window()
    w.resize(1280, 800)
    w.doc.open("two_link_planar")
    vp = w.viewport
    vp.fit()
    qtbot.waitUntil(lambda: vp.width() > 100)
    width, height = vp.width(), vp.height()
    mvp = view_mvp(vp)
    clip = mvp @ np.append(vp._poses[-1, :3, 3], 1.0)  # at the depth of the last body's origin
    ndc = clip[:3] / clip[3]
    ndc[0] = 2 * 3 / width - 1  # 3 px from the left edge
    edge = np.linalg.solve(mvp, np.append(ndc, 1.0) * clip[3])[:3]
    px, front = project_points(mvp, edge[None], width, height)
    assert front[0] and 0 <= px[0, 0] < 6  # in view, by a hair
    zoom = vp.opts["distance"]
    parent = w.doc.tree.body_names[-1]
    at = (np.linalg.inv(vp._poses[-1]) @ np.append(edge, 1.0))[:3]  # in the parent's frame
    assert w.doc.try_edit("Add a body there", lambda t: add_child(t, parent, "revolute", at)) is None
    assert vp.opts["distance"] != zoom  # fitted again ...
    px, front = project_points(view_mvp(vp), vp._poses[:, :3, 3], width, height)
    assert front.all() and (px[:, 0] >= 20).all(), px  # ... clear of the edge, its frame whole
    zoom = vp.opts["distance"]
    w.doc.try_edit("Add another", lambda t: add_child(t, parent, "fixed", np.zeros(3)))
    assert vp.opts["distance"] == zoom  # a body well inside: the view stays as the fit framed it
