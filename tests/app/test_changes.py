"""Typed tree changes: each edit, its undo and its redo say what they touched, once."""

from __future__ import annotations

import pytest
from kinetree.app.model.changes import TreeChange, diff_trees
from kinetree.app.model.document import RobotDocument
from kinetree.app.model.edits import add_child, change_joint_type, move_subtree, rename_body
from kinetree.core import load_robot


@pytest.fixture
def doc(qapp):
    d = RobotDocument(load_robot("puma560"))
    seen: list = []
    d.treeChanged.connect(seen.append)
    d.configurationChanged.connect(lambda: seen.append("q"))
    d.seen = seen
    return d


def step(doc, action):
    doc.seen.clear()
    action()
    return list(doc.seen)


def test_add_remove_rename_joint_edit_undo_redo(doc):
    last = doc.tree.body_names[-1]
    # add: one structure change naming the new body and its parent (which gets the link drawn
    # to it), then the configuration (it grew)
    added = TreeChange("structure", frozenset({"body1", last}))
    seen = step(doc, lambda: doc.edit("add", lambda t: add_child(t, last, "revolute")))
    assert seen == [added, "q"]
    seen = step(doc, doc.undo_stack.undo)
    assert seen == [added, "q"]
    assert "body1" not in doc.tree.body_names
    seen = step(doc, doc.undo_stack.redo)
    assert seen[0] == added and seen.count("q") == 1

    # remove a subtree: every removed body is named
    sub = {"link5", *doc.tree.descendants("link5")}
    seen = step(doc, lambda: doc.edit("del", lambda t: t.remove_body("link5") and None))
    assert seen[0].kind == "structure" and seen[0].bodies == sub
    assert step(doc, doc.undo_stack.undo)[0].bodies == sub

    # rename: no configuration change at all
    seen = step(doc, lambda: doc.edit("ren", lambda t: rename_body(t, "link2", "upper")))
    assert seen == [TreeChange("rename", frozenset({"link2", "upper"}), (("link2", "upper"),))]
    assert step(doc, doc.undo_stack.undo) == [TreeChange("rename", frozenset({"link2", "upper"}),
                                                         (("upper", "link2"),))]

    # a joint edit touches that body only; its joint positions stay
    seen = step(doc, lambda: doc.edit("lim", lambda t: setattr(t.get_body("link3").joint, "position_limits",
                                                              (-1.0, 1.0))))
    assert seen == [TreeChange("joint", frozenset({"link3"}))]
    seen = step(doc, lambda: doc.edit("type", lambda t: change_joint_type(t, "link3", "fixed")))
    assert seen == [TreeChange("joint", frozenset({"link3"})), "q"]  # one position fewer

    # visuals and properties
    seen = step(doc, lambda: doc.edit("vis", lambda t: t.get_body("link4").add_visual("box", (1, 1, 1)) and None))
    assert seen == [TreeChange("visuals", frozenset({"link4"}))]
    seen = step(doc, lambda: doc.edit("mass", lambda t: setattr(t.get_body("link1"), "mass", 7.0)))
    assert seen == [TreeChange("properties", frozenset({"link1"}))]


def test_move_names_the_moved_body(doc):
    t2 = doc.tree.copy()
    move_subtree(t2, "link4", "link1")
    change = diff_trees(doc.tree, t2)
    assert change.kind == "structure" and change.bodies == {"link4"}


def test_load_is_a_reset_and_edit_copies_the_tree_once(doc, monkeypatch):
    seen = step(doc, lambda: doc.load(load_robot("two_link_planar")))
    assert seen[0] == TreeChange.reset()
    copies = []
    cls = type(doc.tree)
    original = cls.copy
    monkeypatch.setattr(cls, "copy", lambda self: copies.append(1) or original(self))
    doc.edit("add", lambda t: add_child(t, "link2", "prismatic"))
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    assert len(copies) == 1
    assert doc.tree.get_body("body1").joint.type == "prismatic"


def test_change_kinds_are_checked():
    with pytest.raises(ValueError, match="unknown tree change kind 'moved'"):
        TreeChange("moved")
    assert TreeChange("structure").at_least("joint") and not TreeChange("visuals").at_least("joint")


def test_diff_bodies_sees_what_diff_trees_sees_for_a_dragged_joint():
    from kinetree.app.model.changes import diff_bodies
    from kinetree.core import load_robot

    old = load_robot("puma560")
    new = old.copy()
    T = new.get_body("link3").joint.joint_to_parent_transform
    T[0, 3] += 0.01
    new.get_body("link3").joint.set_fixed_transform(T)
    expected = TreeChange("joint", frozenset({"link3"}))
    assert diff_bodies(old, new, ("link3", "link2")) == diff_trees(old, new) == expected
    assert diff_bodies(old, old.copy(), ("link3", old.base_name)).bodies == frozenset()
