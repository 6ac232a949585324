"""The link Add child draws (a cylinder from the parent's origin to the child's) follows the
child through every move, including one onto the parent's origin and back out again."""

from __future__ import annotations

import numpy as np
from kinetree.app.edits import LINK_REST, add_child, link_name
from kinetree.core import RigidBodyTree


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
