"""Adding a body to a deep 1000-body tree redoes only what the new body touched (issue 32:
keypress to drawn frame <= 250 ms, tests/benchmarks/bench_big_tree.py --bare): the Bodies panel
measures the new row only, the Joints dock adds one row to its page, and the IK handle reads the
chain to the selected body instead of the whole tree's Jacobian."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import Joint, RigidBody, RigidBodyTree, load_robot

N = 1000


def deep_tree(n: int = N, seed: int = 0) -> RigidBodyTree:
    """Bodies each under one of the last eight added (a deep tree, no visuals): revolute, every
    fourth fixed (so the Joints dock's last page has room)."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree()
    names = [tree.base_name]
    for i in range(n):
        b = RigidBody(f"b{i}")
        b.joint = Joint(f"j{i}", "fixed" if i % 4 == 3 else "revolute")
        if i % 4 != 3:
            b.joint.axis = rng.normal(size=3)
        T = np.eye(4)
        T[:3, 3] = rng.uniform(-0.2, 0.2, 3)
        b.joint.set_fixed_transform(T)
        tree.add_body(b, names[int(rng.integers(max(0, len(names) - 8), len(names)))])
        names.append(b.name)
    return tree


@pytest.fixture
def big(make_window):
    w = make_window()
    w.doc.load(deep_tree())
    w.doc.select(w.doc.tree.body_names[-2])  # a deepest movable body: the Joints dock shows its (last) page
    return w


def test_adding_a_body_measures_only_the_new_row(big, monkeypatch):
    fitted = []
    # fitting a column to its contents reads every row (~0.4 s an edit at 1000 bodies)
    monkeypatch.setattr(big.bodies.view, "resizeColumnToContents", fitted.append)
    view, model = big.bodies.view, big.bodies.model
    view.setColumnWidth(0, 10)
    big.bodies.add_child("revolute")
    assert len(big.doc.tree.body_names) == N + 1 and not fitted
    new = big.bodies.view.currentIndex()
    assert model.name_of(new) == big.doc.selection
    assert view.columnWidth(0) >= view.sizeHintForIndex(new.siblingAtColumn(0)).width()  # still widened to fit it


def test_adding_a_body_adds_one_row_to_the_shown_page(big):
    sliders = big.sliders
    before = dict(sliders.rows)
    assert sliders.pager.isVisible() and len(before) < 100  # the last page, with room
    big.bodies.add_child("revolute")
    new = big.doc.selection
    joint = big.doc.tree.get_body(new).joint.name
    assert list(sliders.rows)[:-1] == list(before) and list(sliders.rows)[-1] == joint
    assert all(sliders.rows[k] is row for k, row in before.items())  # the page's rows were kept
    assert sliders.page_label.text().endswith(f"of {len(sliders._specs)}")
    big.doc.undo_stack.undo()
    assert list(sliders.rows) == list(before)


@pytest.mark.parametrize("robot, holds", [("puma560", True), ("two_link_planar", False), ("scara", False)])
def test_the_ik_handle_reads_the_chain_not_the_jacobian(make_window, monkeypatch, robot, holds):
    w = make_window()
    w.doc.load(load_robot(robot))
    w.doc.set_configuration(w.doc.tree.random_configuration(np.random.default_rng(1)), "away from home")  # not singular
    tip = w.doc.tree.body_names[-1]
    handle = w.viewport.ik_handle
    expected = handle.orientation_holdable(tip)
    assert expected is holds
    J = w.doc.tree.geometric_jacobian(w.doc.configuration, tip)
    moving = int((np.abs(J).max(axis=0) > 1e-12).sum())
    assert expected == (moving >= 6 and np.linalg.matrix_rank(J[:3], tol=1e-9) == 3)  # the Jacobian's answer

    def no_jacobian(*_a, **_k):
        raise AssertionError("the whole tree's Jacobian was built")

    monkeypatch.setattr(type(w.doc.tree), "geometric_jacobian", no_jacobian)
    assert handle.orientation_holdable(tip) is holds
