"""Bodies panel actions and undo/redo of long random edit sequences."""

from __future__ import annotations

import random

import pytest
from kinetree.app.model.edits import move_subtree
from kinetree.core import JOINT_TYPES
from PySide6.QtCore import Qt


def parents(tree) -> dict[str, str]:
    return {n: tree.parent_name(n) for n in tree.body_names}


def test_body_actions_and_undo_to_original(window):
    _body_actions(window)


def _body_actions(window):
    window.doc.open("two_link_planar")
    doc, model = window.doc, window.bodies.model
    original = doc.serialized()

    window.bodies.add_child("revolute")  # nothing selected → under the base
    assert parents(doc.tree) == {"link1": "base", "link2": "link1", "body1": "base"}
    assert doc.selection == "body1"
    assert doc.tree.get_body("body1").joint.type == "revolute"

    assert model.setData(model.index_of("body1"), "gripper")
    assert "gripper" in doc.tree.body_names and "body1" not in doc.tree.body_names
    assert model.data(model.index_of("gripper")) == "gripper"


    window.bodies.add_child("prismatic")  # under the selection (gripper)
    assert parents(doc.tree)["body1"] == "gripper"
    assert doc.tree.get_body("body1").joint.type == "prismatic"

    doc.select("link2")
    window.bodies.delete_action.trigger()
    assert "link2" not in doc.tree.body_names
    assert doc.selection == "link1"

    doc.select("body1")
    window.bodies.change_type("fixed")
    assert doc.tree.get_body("body1").joint.type == "fixed"

    # the view shows what the document holds: base → link1, gripper; gripper → body1
    assert model.rowCount() == 1 and model.rowCount(model.index(0, 0)) == 2

    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.serialized() == original
    assert not window.isWindowModified()


def test_reparent_by_drop_and_by_edit(window):
    # regression: RigidBodyTree.descendants listed the body twice, so every move failed
    window.doc.open("two_link_planar")
    doc, model = window.doc, window.bodies.model
    window.bodies.add_child("revolute")
    doc.select(None)
    original = doc.serialized()
    window.statusBar().clearMessage()
    model.dropMimeData(model.mimeData([model.index_of("body1")]), Qt.DropAction.MoveAction, -1, -1,
                       model.index_of("link2"))
    assert window.statusBar().currentMessage() == ""  # no error reported
    assert doc.tree.parent_name("body1") == "link2"
    doc.edit("Move body1", lambda t: move_subtree(t, "body1", "link1"))
    assert doc.tree.parent_name("body1") == "link1"
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.serialized() == original


def test_duplicate_leaf_adds_one_body(window):
    # regression: the same descendants bug made two copies of a leaf
    window.doc.open("two_link_planar")
    window.doc.select("link2")
    window.bodies.duplicate_action.trigger()
    assert window.doc.tree.body_names == ["link1", "link2", "link2_copy"]
    assert window.doc.selection == "link2_copy"


def test_duplicate_is_undoable(window):
    window.doc.open("two_link_planar")
    before = window.doc.serialized()
    window.doc.select("link1")
    window.bodies.duplicate_action.trigger()
    assert window.doc.tree.num_bodies > 2
    assert window.doc.tree.parent_name(window.doc.selection) == "base"
    window.doc.undo_stack.undo()
    assert window.doc.serialized() == before


@pytest.mark.parametrize("how", ["rename", "delete", "undo_add"])
def test_editing_the_selected_body_raises_no_exception(window, qtbot, how):
    window.doc.open("two_link_planar")
    model = window.bodies.model
    with qtbot.captureExceptions() as caught:
        if how == "rename":
            window.doc.select("link2")
            assert model.setData(model.index_of("link2"), "tip")
        elif how == "delete":
            window.doc.select("link2")
            window.bodies.delete_action.trigger()
        else:
            window.bodies.add_child("revolute")
            window.doc.undo_stack.undo()
    assert caught == []


def test_delete_base_is_refused(window):
    window.doc.open("two_link_planar")
    before = window.doc.serialized()
    window.doc.select("base")
    assert not window.bodies.delete_action.isEnabled()  # offered only for a body
    assert "base cannot be deleted" in window.bodies.delete_action.toolTip()
    window.bodies.delete()  # called anyway (a script): refused with a message
    assert window.doc.serialized() == before
    assert "base cannot be deleted" in window.statusBar().currentMessage()


def test_move_under_own_subtree_is_refused(window):
    window.doc.open("two_link_planar")
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    model = window.bodies.model
    model.dropMimeData(model.mimeData([model.index_of("link1")]), Qt.DropAction.MoveAction, -1, -1,
                       model.index_of("link2"))
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count
    assert "own subtree" in window.statusBar().currentMessage()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_undo_redo_exactly(window, seed):
    _random_edits(window, seed)


def _random_edits(window, seed):
    rnd = random.Random(seed)
    window.doc.open("puma560")
    doc, stack, model = window.doc, window.doc.undo_stack, window.bodies.model
    states = {stack.index(): doc.serialized()}
    for step in range(30):
        names = doc.tree.body_names
        doc.select(rnd.choice([doc.tree.base_name, *names]))
        op = rnd.choice(["add", "add", "rename", "delete", "type", "slider", "slider", "joint_name", "duplicate"])
        if op == "add":
            window.bodies.add_child(rnd.choice(JOINT_TYPES))
        elif op == "rename" and names:
            model.setData(model.index_of(rnd.choice(names)), f"b{step}")
        elif op == "delete":
            window.bodies.delete_action.trigger()
        elif op == "type":
            window.bodies.change_type(rnd.choice(JOINT_TYPES))
        elif op == "joint_name" and names:
            idx = model.index_of(rnd.choice(names))
            model.setData(model.index(idx.row(), 1, idx.parent()), f"j{step}")
        elif op == "duplicate":
            window.bodies.duplicate_action.trigger()
        elif op == "slider" and window.sliders.rows:
            row = window.sliders.rows[rnd.choice(list(window.sliders.rows))]
            row.slider.sliderPressed.emit()
            for _ in range(3):
                row.slider.setValue(rnd.randrange(0, 2001))
            row.slider.sliderReleased.emit()
        states[stack.index()] = doc.serialized()
    final, end = doc.serialized(), stack.index()
    assert stack.count() == end >= 15
    while stack.canUndo():
        stack.undo()
        assert doc.serialized() == states[stack.index()]
    assert doc.serialized() == states[0]
    assert not doc.modified
    while stack.canRedo():
        stack.redo()
    assert doc.serialized() == final
    assert len(model._name) == doc.tree.num_bodies + 1
    assert all(model.name_of(model.parent(model.index_of(n))) == doc.tree.parent_name(n) for n in doc.tree.body_names)
    assert list(window.pose.body_combo.itemText(i) for i in range(window.pose.body_combo.count())) \
        == doc.tree.body_names


def test_an_edit_that_breaks_a_mimic_is_a_message_not_a_broken_document(window):
    from kinetree.app.model.edits import change_joint_type

    window.doc.open("humanoid_upper_body")
    before, count = window.doc.serialized(), window.doc.undo_stack.count()
    error = window.doc.try_edit("Change joint type", lambda t: change_joint_type(t, "l_finger_a", "fixed"))
    assert error and "l_finger_b_joint" in error and "l_finger_a_joint" in error
    assert window.doc.serialized() == before and window.doc.undo_stack.count() == count
    window.doc.poses()  # the kinematics still run
    # a follower changed to another axial type keeps following
    assert window.doc.try_edit("Change joint type", lambda t: change_joint_type(t, "l_finger_b", "revolute")) is None
    assert window.doc.tree.get_body("l_finger_b").joint.mimic.joint == "l_finger_a_joint"
