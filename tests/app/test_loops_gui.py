"""Closed loops in the app: "Close loop" is one undoable edit that closes the configuration,
sliders drive the actuated joints only (the passive ones, shown read-only, are solved on each
move, on the shown branch), and a move the mechanism cannot make is refused with a message, never a traceback."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.loops import COUPLER, CRANK, ROCKER, four_bar, freudenstein, trans, wrap
from kinetree.app.model.document import RobotDocument
from kinetree.app.panels.sliders import JointsPanel
from kinetree.core import LoopClosureError, export_robot


def open_four_bar():
    """The four-bar's bodies without its loop, every joint actuated."""
    t = four_bar()
    t.remove_loop("close")
    for name in ("coupler", "rocker"):
        t.get_body(name).joint.actuated = True
    return t


def test_close_loop_is_one_undoable_edit_and_sliders_follow(qtbot):
    doc = RobotDocument(open_four_bar())
    doc.set_configuration([0.0, 1.0, 1.9])
    panel = JointsPanel(doc)
    qtbot.addWidget(panel)
    panel.show()
    assert list(panel.rows) == ["crank_joint", "coupler_joint", "rocker_joint"]
    steps = doc.undo_stack.count()
    doc.close_loop("close", "coupler", trans(COUPLER), "rocker", trans(ROCKER), "hinge",
                   passive=["coupler_joint", "rocker_joint"])
    assert doc.undo_stack.count() == steps + 1
    assert [lp.name for lp in doc.tree.loops] == ["close"]
    assert np.linalg.norm(doc.tree.loop_residual(doc.configuration)) <= 1e-12
    # passive joints: read-only rows that follow the loop; the crank's slider alone drives
    assert list(panel.rows) == ["crank_joint", "coupler_joint", "rocker_joint"]
    assert [r.slider.isEnabled() for r in panel.rows.values()] == [True, False, False]
    doc.undo_stack.undo()
    assert doc.tree.loops == () and list(panel.rows) == ["crank_joint", "coupler_joint", "rocker_joint"]
    assert np.array_equal(doc.configuration, [0.0, 1.0, 1.9])
    doc.undo_stack.redo()
    assert [lp.name for lp in doc.tree.loops] == ["close"]
    assert [r.slider.isEnabled() for r in panel.rows.values()] == [True, False, False]


def test_moving_the_crank_solves_the_passive_joints_on_the_shown_branch(qtbot):
    t = four_bar()
    doc = RobotDocument()
    doc.load(t, t.solve_loops(np.array([0.0, 1.0, 1.9])))
    drag = doc.begin_drag()
    for th in np.linspace(0.0, 2 * math.pi, 73)[1:]:  # a slider drag, 5° a tick
        doc.set_joint_position("crank_joint", th, drag)
        q = doc.configuration
        assert q[0] == th and abs(wrap(q[2] - freudenstein(th))) <= 1e-10
    doc.poses()  # closed: the views can draw it


def test_a_move_the_mechanism_cannot_make_is_refused_with_a_message(qtbot):
    t = four_bar(a=0.4)  # crank too long for a full turn
    doc = RobotDocument()
    doc.load(t, t.solve_loops(np.array([1.0, 2.0, 1.5])))
    before = doc.configuration
    with qtbot.waitSignal(doc.message) as said:
        doc.set_joint_position("crank_joint", math.pi)
    assert "loop 'close' cannot be assembled" in said.args[0]
    assert np.array_equal(doc.configuration, before)
    # a second loop on a one-degree-of-freedom four-bar: refused (over-constrained), nothing changes
    with pytest.raises(LoopClosureError, match="loop 'again' between 'coupler' and 'rocker': .* over-constrain"):
        doc.close_loop("again", "coupler", trans(COUPLER + CRANK * 9), "rocker", trans(ROCKER), "ball")
    assert [lp.name for lp in doc.tree.loops] == ["close"]


def test_a_document_made_from_a_looped_tree_starts_closed_or_says_why(qtbot):
    t = four_bar()
    with pytest.raises(LoopClosureError, match="loop 'close' cannot be assembled"):
        RobotDocument(t)  # home folds every link onto the x axis: no step from there closes it
    t.get_body("coupler").joint.home_position = 1.0
    t.get_body("rocker").joint.home_position = 1.9
    q = RobotDocument(t).configuration
    assert q[0] == 0.0 and np.linalg.norm(t.loop_residual(q)) <= 1e-12


def test_a_saved_looped_project_opens_closed(tmp_path, qtbot):
    path = tmp_path / "four_bar.kinetree.json"
    t = four_bar()
    export_robot(t, path, configuration=np.array([0.5, 1.0, 1.9]))  # saved open, near a closed pose
    doc = RobotDocument()
    doc.open(path)
    q = doc.configuration
    assert q[0] == 0.5 and np.linalg.norm(doc.tree.loop_residual(q)) <= 1e-12
    assert abs(wrap(q[2] - freudenstein(0.5))) <= 1e-10
