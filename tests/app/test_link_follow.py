"""The link Add child draws (a cylinder from the parent's origin to the child's) follows the
child through every move, including one onto the parent's origin and back out again."""

from __future__ import annotations

import numpy as np
from helpers.gui import LEFT, NONE, drag, pixel
from kinetree.app.model.edits import LINK_REST, add_child, link_name
from kinetree.core import RigidBodyTree
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest


def moved_to(body: str, xyz):
    def change(tree):
        T = np.eye(4)
        T[:3, 3] = xyz
        tree.get_body(body).joint.set_fixed_transform(T)
        return body
    return change


def link_of(doc, parent: str, child: str):
    return [v for v in doc.tree.get_body(parent).visuals if v.name == link_name(child)]


def test_a_child_moved_onto_its_parent_keeps_its_link_and_it_follows_again(window):
    doc, vp = window.doc, window.viewport
    tree = RigidBodyTree()
    first = add_child(tree, tree.base_name, "revolute", at=(0.3, 0.0, 0.0))
    child = add_child(tree, first, "revolute")  # 0.3 m along first's x, a link drawn to it
    doc.load(tree)
    (link0,) = link_of(doc, first, child)
    assert link0.size[1] == 0.3
    radius, color = 0.021, (0.1, 0.8, 0.2, 1.0)

    def restyled(tree):  # the user's own radius and colour stay through the moves
        b = tree.get_body(first)
        b.visuals = [v.__class__(v.kind, (radius, v.size[1]), v.pose, color, v.filename, v.name)
                     if v.name == link_name(child) else v for v in b.visuals]
        return first

    doc.edit("restyle link", restyled)
    doc.edit("move onto parent", moved_to(child, (0.0, 0.0, 0.0)))
    (rest,) = link_of(doc, first, child)  # kept, too short to see
    assert rest.size == (radius, LINK_REST) and rest.color == color
    vp.repaint()  # drawn without complaint
    doc.edit("move away", moved_to(child, (0.0, 0.2, 0.0)))
    (back,) = link_of(doc, first, child)
    assert back.size == (radius, 0.2) and back.color == color
    np.testing.assert_allclose(back.matrix[:3, 3], [0.0, 0.1, 0.0], atol=1e-15)
    np.testing.assert_allclose(back.matrix[:3, 2], [0.0, 1.0, 0.0], atol=1e-15)
    vp.repaint()


def test_a_child_added_at_its_parents_origin_still_gets_no_link():
    tree = RigidBodyTree()
    first = add_child(tree, tree.base_name, "revolute", at=(0.3, 0.0, 0.0))
    child = add_child(tree, first, "revolute", at=(0.0, 0.0, 0.0))
    assert not [v for v in tree.get_body(first).visuals if v.name == link_name(child)]


def test_w_moving_a_child_onto_its_parent_and_away_keeps_its_link(child_at_04_window, qtbot):
    win, body = child_at_04_window
    vp, doc = win.viewport, win.doc
    T0 = doc.pose_of(body)
    h = vp.frame_handle
    start = pixel(vp, T0[:3, 3] + 0.7 * h.size * T0[:3, 0])
    a, b = vp.project(np.array([T0[:3, 3], T0[:3, 3] + h.size * T0[:3, 0]]))
    drag(vp, start, start + QPoint(int(b[0] - a[0]) // 3, int(b[1] - a[1]) // 3), release=False)
    QTest.keyClicks(vp, "-0.4")  # onto the base's origin
    QTest.keyClick(vp, Qt.Key.Key_Enter)
    QTest.mouseRelease(vp, LEFT, NONE, start)
    assert doc.tree.get_body(body).joint.joint_to_parent_transform[:3, 3].tolist() == [0.0, 0.0, 0.0]
    (rest,) = link_of(doc, doc.tree.base_name, body)
    assert rest.size[1] == LINK_REST
    doc.select(body)  # the release, after Enter ended the drag, is a click beside it
    vp.repaint()
    T1 = doc.pose_of(body)
    start = pixel(vp, T1[:3, 3] + 0.7 * h.size * T1[:3, 0])
    drag(vp, start, start + QPoint(int(b[0] - a[0]) // 3, int(b[1] - a[1]) // 3), release=False)
    QTest.keyClicks(vp, "0.25")  # away again
    QTest.keyClick(vp, Qt.Key.Key_Enter)
    QTest.mouseRelease(vp, LEFT, NONE, start)
    assert doc.tree.get_body(body).joint.joint_to_parent_transform[:3, 3].tolist() == [0.25, 0.0, 0.0]
    (back,) = link_of(doc, doc.tree.base_name, body)
    assert back.size[1] == 0.25
    np.testing.assert_allclose(back.matrix[:3, 2], [1.0, 0.0, 0.0], atol=1e-15)
