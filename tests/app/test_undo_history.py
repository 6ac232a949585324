"""Issue 17: the undo history is bounded by a memory budget (each tree edit keeps a whole copy
of the tree: 7 MB a step on a 2,000-body tree, without bound); the Undo history says so."""

from __future__ import annotations

import gc
import tracemalloc

from kinetree.app.model import document
from kinetree.app.model.edits import rename_body
from kinetree.core import Joint, RigidBody, RigidBodyTree


def _chain(n: int) -> RigidBodyTree:
    tree = RigidBodyTree()
    parent = tree.base_name
    for k in range(n):
        body, joint = RigidBody(f"b{k}"), Joint(f"j{k}", "revolute")
        body.joint = joint
        tree.add_body(body, parent)
        parent = body.name
    return tree


def test_history_of_a_2000_body_tree_keeps_what_fits_and_says_so(window, monkeypatch):
    tree = _chain(2000)
    step = document.snapshot_bytes(tree)
    monkeypatch.setattr(document, "HISTORY_BYTES", 4 * step + step // 2)  # 4 steps, for a short test
    window.doc.load(tree, name="chain")
    assert window.doc.undo_stack.undoLimit() == 4
    label = window.undo_view.emptyLabel()
    assert "keeps the last 4 steps" in label and "older ones are dropped" in label


def test_history_memory_stays_within_the_budget(qapp, monkeypatch):
    """The document alone (views keep their own items): 8 edits of a 2,000-body tree held 8
    copies (55 MB); with room for 4 steps, 4 copies and the current tree."""
    tree = _chain(2000)
    step = document.snapshot_bytes(tree)
    monkeypatch.setattr(document, "HISTORY_BYTES", 4 * step + step // 2)
    doc = document.RobotDocument()
    doc.load(tree, name="chain")
    tracemalloc.start()
    try:
        for k in range(8):
            doc.edit(f"Rename b{k}", lambda t, k=k: rename_body(t, f"b{k}", f"r{k}"))
        gc.collect()  # a dropped tree is a cycle (bodies point back at it): the collector frees it
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert doc.undo_stack.count() == 4  # the 4 oldest steps were dropped
    assert held < 6 * step, (held, step)  # 4 steps (and the current tree), not 8
    for _ in range(4):
        doc.undo_stack.undo()
    assert [doc.tree.body_names[k] for k in range(8)] == ["r0", "r1", "r2", "r3", "b4", "b5", "b6", "b7"]
    assert not doc.undo_stack.canUndo()


def test_a_small_robot_keeps_a_long_history(window):
    window.doc.open("puma560")
    limit = window.doc.undo_stack.undoLimit()
    assert 5000 < limit <= document.MAX_HISTORY_STEPS
    assert f"keeps the last {limit} steps" in window.undo_view.emptyLabel()
