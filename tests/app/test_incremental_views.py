"""Views redo only what an edit touched: rows inserted/removed/updated (not reset), expansion
and selection kept, models pass Qt's model tester."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.app.model.document import RobotDocument
from kinetree.app.model.edits import move_subtree, rename_body
from kinetree.app.panels.bodies import BodiesPanel
from kinetree.app.panels.dh_table import DhTableModel
from kinetree.core import Joint, RigidBody, load_robot
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


@pytest.fixture
def panel(qtbot):
    doc = RobotDocument(load_robot("puma560"))
    p = BodiesPanel(doc)
    qtbot.addWidget(p)
    p.resize(400, 600)
    p.show()
    qtbot.waitExposed(p)
    resets = []
    p.model.modelReset.connect(lambda: resets.append(1))
    p.resets = resets
    return p


def expanded(p) -> set[str]:
    m, v, out = p.model, p.view, set()
    stack = [m.index(0, 0)]
    while stack:
        i = stack.pop()
        if v.isExpanded(i):
            out.add(m.name_of(i))
        stack.extend(m.index(r, 0, i) for r in range(m.rowCount(i)))
    return out


def shown_tree(p) -> dict[str, str]:
    """{body: parent} as the model shows it."""
    m, out = p.model, {}
    stack = [m.index(0, 0)]
    while stack:
        i = stack.pop()
        for r in range(m.rowCount(i)):
            c = m.index(r, 0, i)
            out[m.data(c)] = m.data(i)
            stack.append(c)
    return out


def plain_child(tree, parent: str) -> None:
    """A revolute body without visuals (Add child would draw a link on the parent)."""
    b = RigidBody(f"plain{len(tree.body_names)}")
    b.joint = Joint(f"plain_joint{len(tree.body_names)}", "revolute")
    tree.add_body(b, parent)


def tree_parents(doc) -> dict[str, str]:
    return {n: doc.tree.parent_name(n) for n in doc.tree.body_names}


def test_bodies_tree_keeps_expansion_and_selection_across_edit_and_undo(panel, qtbot):
    p, doc = panel, panel.doc
    p.view.collapse(p.model.index_of("link4"))
    p.view.setCurrentIndex(p.model.index_of("link2"))  # the user clicks a row
    assert doc.selection == "link2"
    before = expanded(p)
    assert "link4" not in before and "link3" in before
    p.add_action.trigger()  # a body under link2, now selected
    assert doc.selection == "body1" and shown_tree(p) == tree_parents(doc)
    assert expanded(p) == before | {"body1"}  # a new body shows expanded; the rest as it was
    assert not p.view.isExpanded(p.model.index_of("link4"))
    assert p.view.currentIndex() == p.model.index_of("body1")
    doc.undo_stack.undo()
    assert doc.selection == "link2" and p.view.currentIndex() == p.model.index_of("link2")
    assert expanded(p) == before and shown_tree(p) == tree_parents(doc)
    doc.undo_stack.redo()
    assert shown_tree(p) == tree_parents(doc) and not p.view.isExpanded(p.model.index_of("link4"))
    # rename by typing into the row: the row is updated, nothing reset, still collapsed
    p.view.setCurrentIndex(p.model.index_of("link4"))
    p.rename_action.trigger()
    editor = p.view.indexWidget(p.model.index_of("link4"))  # the open editor
    editor.selectAll()
    QTest.keyClicks(editor, "wrist")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "wrist" in doc.tree.body_names)  # the delegate commits queued
    assert "wrist" in doc.tree.body_names and p.model.data(p.model.index_of("wrist")) == "wrist"
    assert not p.view.isExpanded(p.model.index_of("wrist")) and doc.selection == "wrist"
    doc.undo_stack.undo()
    assert p.model.index_of("wrist").isValid() is False and p.model.data(p.model.index_of("link4")) == "link4"
    # delete and move subtrees, and undo them
    doc.select("link5")
    p.delete_action.trigger()
    assert "link5" not in shown_tree(p) and shown_tree(p) == tree_parents(doc)
    doc.undo_stack.undo()
    doc.edit("move", lambda t: move_subtree(t, "link5", "link1"))
    assert shown_tree(p) == tree_parents(doc)
    doc.undo_stack.undo()
    assert shown_tree(p) == tree_parents(doc) and expanded(p) >= before - {"link4"}
    assert p.resets == []  # every edit above followed row by row


def test_bodies_model_passes_the_model_tester(panel, qtmodeltester):
    doc = panel.doc
    qtmodeltester.check(panel.model)
    panel.add_child("prismatic")
    doc.edit("ren", lambda t: rename_body(t, "link3", "elbow"))
    doc.edit("move", lambda t: move_subtree(t, "elbow", "base"))
    qtmodeltester.check(panel.model)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    qtmodeltester.check(panel.model)


def test_new_document_resets_the_bodies_model(panel):
    panel.doc.load(load_robot("two_link_planar"))
    assert panel.resets == [1] and shown_tree(panel) == tree_parents(panel.doc)
    assert expanded(panel) == {"base", "link1", "link2"}


def test_dh_model_passes_the_model_tester(qtmodeltester, qapp):
    doc = RobotDocument(load_robot("puma560"))
    model = DhTableModel(doc)
    qtmodeltester.check(model)
    doc.edit("ren", lambda t: rename_body(t, "link3", "elbow"))
    qtmodeltester.check(model)


def test_slider_rows_follow_the_movable_joints(qtbot):
    from kinetree.app.model.edits import add_child, change_joint_type
    from kinetree.app.panels.sliders import JointsPanel

    doc = RobotDocument(load_robot("puma560"))
    panel = JointsPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    rows = dict(panel.rows)
    doc.edit("mass", lambda t: setattr(t.get_body("link2"), "mass", 3.0))  # no joint touched
    assert all(panel.rows[k] is r for k, r in rows.items()) and len(panel.rows) == 6
    reads = []
    values = panel.values
    panel.values = lambda joints=None: reads.append(joints) or values(joints)
    doc.edit("add", lambda t: add_child(t, "link6", "prismatic"))  # tree and configuration signals
    assert reads == [None]  # the rows are refreshed once, all of them (a new tree)
    doc.set_joint_position("q2", 0.5)
    assert reads == [None, {"q2"}]  # a move: only the moved joint's row is read
    del panel.values
    assert all(panel.rows[k] is r for k, r in rows.items()) and list(panel.rows)[-1] == "joint1"
    panel.rows["joint1"].slider.setValue(2000)  # the new row drives its joint
    assert doc.configuration[-1] == panel.rows["joint1"].hi
    for _ in range(3):  # the slider, the move of q2, the added body
        doc.undo_stack.undo()
    assert list(panel.rows) == list(rows) and all(panel.rows[k] is r for k, r in rows.items())
    # a joint made fixed loses its row; the others stay; undo puts a new row back in its place
    doc.edit("fix", lambda t: change_joint_type(t, "link3", "fixed"))
    assert "q3" not in panel.rows and panel.rows["q4"] is rows["q4"]
    doc.undo_stack.undo()
    assert list(panel.rows) == list(rows)
    layout_rows = [panel.grid.getItemPosition(panel.grid.indexOf(panel.rows[k].slider))[0] for k in panel.rows]
    assert layout_rows == sorted(layout_rows)  # shown in configuration order
    doc.set_joint_position("q3", 0.5)
    assert panel.rows["q3"].spin.value() == pytest.approx(28.6479, abs=1e-3)


def test_viewport_rebuilds_only_touched_bodies(make_window, monkeypatch):
    from kinetree.app.viewport.view import RobotViewport
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    parent = tree.base_name
    for k in range(30):  # translucent visuals: one item each
        b = RigidBody(f"b{k}")
        b.joint = Joint(f"j{k}", "revolute")
        b.add_visual("box", (0.1, 0.1, 0.1), color=(0.5, 0.5, 0.5, 0.5))
        tree.add_body(b, parent)
        parent = b.name if k % 3 else tree.base_name
    w = make_window()
    w.doc.load(tree)
    vp = w.viewport
    made = []
    original = RobotViewport._add_mesh_item
    monkeypatch.setattr(RobotViewport, "_add_mesh_item", lambda self, *a: made.append(a[0]) or original(self, *a))

    def items():  # the items themselves: held here, a freed item's id cannot be reused by a new one
        return {item for _, item, _ in vp._meshes}

    before = items()
    w.doc.edit("add", lambda t: plain_child(t, "b4"))  # a body without visuals
    assert made == [] and items() == before
    w.doc.edit("vis", lambda t: t.get_body("b7").add_visual("sphere", (0.1,), color=(1, 0, 0, 0.5)) and None)
    assert len(made) == 2 and len(items() - before) == 2  # b7's two visuals, nothing else
    w.doc.edit("lim", lambda t: setattr(t.get_body("b9").joint, "position_limits", (-1, 1)))
    w.doc.edit("mass", lambda t: setattr(t.get_body("b9"), "mass", 2.0))
    assert len(made) == 2
    doomed = {"b10", *w.doc.tree.descendants("b10")}
    w.doc.edit("del", lambda t: t.remove_body("b10") and None)
    assert len(made) == 2 and len(vp._meshes) == 31 - len(doomed)
    made.clear()
    w.doc.undo_stack.undo()  # the removed bodies come back, and only they are built
    assert len(made) == len(doomed) and len(vp._meshes) == 31
    made.clear()
    for _ in range(4):
        w.doc.undo_stack.undo()
    assert len(made) == 1 and len(items() & before) == 29 - len(doomed)  # b7 and the deleted ones are new
    assert len(vp._meshes) == 30
    owners = sorted(i for i, _, _ in vp._meshes)
    assert owners == list(range(30))  # every item follows its body's index
    w.doc.load(tree)  # a new document: all again
    assert len(made) == 31


def test_opaque_visuals_keep_their_gpu_copy_across_edits(make_window, monkeypatch):
    """Opaque visuals live in one batch: adding or removing a body without visuals (and the undo)
    uploads no triangles, and every visual still follows its own body."""
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    parent = tree.base_name
    for k in range(12):
        b = RigidBody(f"b{k}")
        b.joint = Joint(f"j{k}", "revolute")
        T = np.eye(4)
        T[:3, 3] = (0.1, 0.02 * k, 0.0)
        b.joint.set_fixed_transform(T)
        b.add_visual("box", (0.05, 0.05, 0.05), color=(0.2, 0.6, 0.9, 1.0))
        tree.add_body(b, parent)
        parent = b.name if k % 4 else tree.base_name
    w = make_window()
    w.doc.load(tree)
    vp = w.viewport
    uploads = []
    original = vp.batch.set_parts
    monkeypatch.setattr(vp.batch, "set_parts", lambda parts: uploads.append(len(parts)) or original(parts))

    def follows() -> bool:  # the pose each part is drawn with is its own body's
        rows = vp.batch._rows
        names = w.doc.tree.body_names
        return all(np.allclose(rows[vp._slots[n]], w.doc.poses()[i][:3], atol=1e-6) for i, n in enumerate(names))

    w.doc.edit("add", lambda t: plain_child(t, "b1"))  # inserted early: later indices shift
    assert uploads == [] and follows()
    w.doc.set_joint_position("j0", 0.7)  # b1..b3 move with it
    assert follows()
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()
    assert uploads == [] and follows()
    w.doc.edit("del", lambda t: t.remove_body("b5") and None)  # b5..b8 go: uploaded once, renumbered
    assert uploads == [8] and follows() and sorted(vp._slots.values()) == list(range(9))
