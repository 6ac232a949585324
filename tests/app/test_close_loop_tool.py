"""The Close loop tool (O) as a user closes a four-bar in the window: two picks, the dialog's
kind and passive joints, OK: one undo step; the loop drawn dashed, the Bodies tree marks its
bodies, passive joints read-only in the Joints dock, the Actuated box in the Joint panel; and
every refusal said, nothing changed."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.arm import box
from helpers.gui import key, pixel
from helpers.gui import qtest_drag as drag
from helpers.loops import COUPLER, CRANK, ROCKER, four_bar, freudenstein, trans, wrap
from kinetree.core import RigidBody
from kinetree.core.kinematics.loop_closing import check_actuation, loop_path, propose_passive
from kinetree.core.model.joint import Joint
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def open_four_bar_with_tips():
    """The four-bar's bodies, every joint actuated, no loop, a fixed tip at the coupler's and at
    the rocker's end; and a configuration where the two tips meet."""
    closed = four_bar()
    q = closed.solve_loops(np.array([0.5, 1.0, 1.9]))
    t = four_bar()
    t.remove_loop("close")
    for name in ("coupler", "rocker"):
        t.get_body(name).joint.actuated = True
    for parent, length in (("coupler", COUPLER), ("rocker", ROCKER)):
        tip = RigidBody(f"{parent}_tip")
        tip.joint = Joint(f"{parent}_tip_joint", "fixed")
        tip.joint.set_fixed_transform(trans(length))
        t.add_body(tip, parent)
    t.get_body("crank").visuals = (box((CRANK, 0.02, 0.02), (CRANK / 2, 0, 0)),)  # a surface to pick
    return t, q


@pytest.fixture
def win(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    t, q = open_four_bar_with_tips()
    w.doc.load(t, q)
    w.viewport.setCameraPosition(distance=1.2, elevation=90, azimuth=-90)  # from above: the plane of the linkage
    w.viewport.repaint()
    key(qtbot, w, Qt.Key.Key_O)
    assert w.viewport.tool == "loop" and w.tool_actions["loop"].isChecked()
    return w


def tip_point(doc):
    return doc.pose_of("coupler_tip")[:3, 3]


def ok(dialog) -> None:
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def test_two_picks_and_ok_close_the_four_bar_as_one_undo_step(win, qtbot):
    vp, doc = win.viewport, win.doc
    before, steps = doc.configuration, doc.undo_stack.count()
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))  # the two tips meet: two frames there
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))  # the second pick takes the other one
    dialog = vp.close_loop.dialog
    assert dialog is not None and dialog.isVisible()
    assert {m.body for m in vp.close_loop.marks} == {"coupler_tip", "rocker_tip"}
    assert dialog.kind.currentData() == "hinge"
    # proposed: the crank (nearest the base) driven, the coupler and the rocker passive (mobility 1)
    assert {j for j, box in dialog.passive.items() if box.isChecked()} == {"coupler_joint", "rocker_joint"}
    assert not dialog.passive["crank_joint"].isChecked() and "1 degree of freedom" in dialog.note.text()
    model = win.bodies.model
    announced = set()
    model.dataChanged.connect(lambda first, _last, _roles=(): announced.add(model.name_of(first)))
    ok(dialog)
    assert {"crank", "coupler", "rocker", "coupler_tip", "rocker_tip"} <= announced  # their rows redrawn
    assert doc.undo_stack.count() == steps + 1 and len(doc.tree.loops) == 1
    assert np.allclose(doc.configuration, before, atol=1e-9)  # the picks coincide: closed as it stands
    assert [b.joint.name for b in doc.tree.bodies if not b.joint.actuated] == ["coupler_joint", "rocker_joint"]
    assert vp.tool == "pose"  # ready to drive it
    # the loop drawn: dashed closure from each tip's frame to the joined point, dots there
    assert vp.loops.lines.visible() and len(vp.loops.lines.pos) > 0
    assert np.allclose(vp.loops.dots.pos, tip_point(doc), atol=1e-9)
    # the Bodies tree marks every body the loop moves, the names stay plain
    marks = {model.name_of(model.index_of(n)): model.index_of(n).siblingAtColumn(3).data() for n in doc.tree.body_names}
    assert marks == {"crank": "⟲", "coupler": "⟲", "rocker": "⟲", "coupler_tip": "⟲", "rocker_tip": "⟲"}
    assert model.index_of("coupler").data() == "coupler" and model.index_of("base").siblingAtColumn(3).data() == ""
    # the Joints dock: the crank's slider drives; the passive joints are shown, read-only
    rows = win.sliders.rows
    assert rows["crank_joint"].slider.isEnabled()
    assert not rows["coupler_joint"].slider.isEnabled() and not rows["rocker_joint"].spin.isEnabled()
    assert "(passive)" in rows["rocker_joint"].name.text()
    doc.undo_stack.undo()
    assert doc.tree.loops == () and all(b.joint.actuated for b in doc.tree.bodies)
    assert not vp.loops.lines.visible() and model.index_of("crank").siblingAtColumn(3).data() == ""
    assert rows is not win.sliders.rows or win.sliders.rows["rocker_joint"].slider.isEnabled()


def test_the_crank_slider_turns_and_the_passive_rows_follow_the_loop(win, qtbot):
    vp, doc = win.viewport, win.doc
    for _ in range(2):
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))
    ok(vp.close_loop.dialog)
    row = win.sliders.rows["crank_joint"]
    row.slider.setFocus()
    qtbot.waitUntil(row.slider.hasFocus)
    win.sliders.step.setValue(10.0)
    drawn = []

    def press(k) -> None:
        QTest.keyClick(row.slider, k)
        q = doc.configuration
        assert abs(wrap(q[2] - freudenstein(q[0]))) <= 1e-9  # the open branch, as the closed form
        assert np.linalg.norm(doc.tree.loop_residual(q)) <= 1e-9
        passive = win.sliders.rows["rocker_joint"].spin  # read-only, moving as the loop demands
        assert abs(passive.core_of(passive.value()) - q[2]) <= 1e-3
        drawn.append(vp.loops.dots.pos[0].copy())

    while doc.configuration[0] > -math.pi + 1e-9:  # to the slider's end, 10° a key …
        press(Qt.Key.Key_Left)
    for _ in range(36):  # … and a full turn back
        press(Qt.Key.Key_Right)
    assert abs(doc.configuration[0] - math.pi) <= 1e-9
    assert np.allclose(drawn[-1], tip_point(doc), atol=1e-9)  # the drawing follows every move
    assert len({tuple(np.round(p, 6)) for p in drawn}) > 20


def test_esc_cancels_the_picks_and_the_dialog(win, qtbot):
    vp, doc = win.viewport, win.doc
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))
    assert len(vp.close_loop.marks) == 1 and vp.close_loop.dots.visible()
    QTest.keyClick(vp, Qt.Key.Key_Escape)
    assert vp.close_loop.marks == [] and not vp.close_loop.dots.visible() and vp.tool == "loop"
    for _ in range(2):
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))
    dialog = vp.close_loop.dialog
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert vp.close_loop.dialog is None and vp.close_loop.marks == []
    assert doc.tree.loops == () and doc.undo_stack.count() == 0


def test_two_picks_on_one_body_are_refused_naming_it(win, qtbot):
    vp, doc = win.viewport, win.doc
    messages = []
    doc.message.connect(messages.append)
    p = pixel(vp, (doc.pose_of("crank") @ [CRANK / 2, 0, 0.01, 1])[:3])  # on the crank's box, off its frames
    QTest.mouseClick(vp, LEFT, NONE, p)
    mark = vp.close_loop.marks[0]
    assert mark.body == "crank" and mark.pose is None  # a surface point
    QTest.mouseClick(vp, LEFT, NONE, p)
    assert vp.close_loop.dialog is None and vp.close_loop.marks == [mark]
    assert f"both points are on body {mark.body!r}" in win.statusBar().currentMessage()
    assert doc.tree.loops == ()


def test_a_loop_across_one_joint_or_that_locks_the_mechanism_is_refused_in_the_dialog(win, qtbot):
    vp, doc = win.viewport, win.doc
    # the rocker's tip and the rocker's own frame: the loop path is the tip's fixed joint only
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, doc.pose_of("rocker")[:3, 3]))
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, doc.pose_of("crank")[:3, 3]))  # crank and base share it
    dialog = vp.close_loop.dialog
    marks = {m.body for m in vp.close_loop.marks}
    assert dialog is not None, marks
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    text = dialog.note.text()
    assert "locks the mechanism" in text or "removes no degree of freedom" in text or "over-constrains" in text
    assert all(f"'{m}'" in text for m in marks)
    dialog.reject()
    assert doc.tree.loops == () and doc.undo_stack.count() == 0


def test_the_actuated_box_swaps_the_driven_joint_and_refuses_none_or_too_many(win, qtbot):
    vp, doc = win.viewport, win.doc
    for _ in range(2):
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))
    ok(vp.close_loop.dialog)
    panel = win.joint
    doc.select("crank")
    assert panel.actuated.isVisibleTo(panel) and panel.actuated.isChecked()
    steps = doc.undo_stack.count()
    panel.actuated.click()  # the last driven joint: refused, the box stays checked
    assert panel.actuated.isChecked() and doc.tree.get_body("crank").joint.actuated
    assert "'crank_joint' cannot be made passive" in panel.error_label.text()
    assert "no joint would be actuated" in win.statusBar().currentMessage()
    doc.select("rocker")
    assert not panel.actuated.isChecked()
    panel.actuated.click()  # two driven joints for one degree of freedom: over-constrained
    assert not doc.tree.get_body("rocker").joint.actuated and doc.undo_stack.count() == steps
    assert "over-constrain" in panel.error_label.text() and "leave 1 degree of freedom;" in panel.error_label.text()
    doc.select("coupler_tip")
    assert not panel.actuated.isVisibleTo(panel)  # a fixed joint: nothing to drive


def test_proposal_and_checks_name_the_bodies_and_joints():
    t, _q = open_four_bar_with_tips()
    assert loop_path(t, "coupler_tip", "rocker_tip") == ["crank", "rocker", "coupler", "rocker_tip", "coupler_tip"]
    assert propose_passive(t, "coupler_tip", "rocker_tip", 1) == ["coupler_joint", "rocker_joint"]
    from kinetree.core import LoopClosureError

    with pytest.raises(LoopClosureError, match="both points are on body 'crank'"):
        propose_passive(t, "crank", "crank", 1)
    with pytest.raises(LoopClosureError, match="'rocker' and 'rocker_tip' locks the mechanism"):
        propose_passive(t, "rocker", "rocker_tip", 0)
    with pytest.raises(LoopClosureError, match="removes no degree of freedom"):
        propose_passive(t, "rocker", "rocker_tip", 3)
    # across the coupler's own joint, at that joint's axis: the hinge adds nothing the joint has not
    across = t.copy()
    across.add_loop("x", "crank", trans(CRANK), "coupler", np.eye(4), "hinge")
    with pytest.raises(LoopClosureError, match=r"'crank' and 'coupler' removes no degree of freedom \(the joints "
                                               r"between them: 'coupler_joint'\)"):
        propose_passive(t, "crank", "coupler", across.mobility())
    looped = four_bar()
    check_actuation(looped)
    looped.get_body("crank").joint.actuated = False
    with pytest.raises(LoopClosureError, match="no joint would be actuated"):
        check_actuation(looped)
    looped.get_body("crank").joint.actuated = True
    looped.get_body("rocker").joint.actuated = True
    with pytest.raises(LoopClosureError, match=r"2 driven joints \('crank_joint', 'rocker_joint'\) over-constrain"):
        check_actuation(looped)
    assert CRANK < ROCKER  # the four-bar these tests close is a crank-rocker


def test_dragging_the_ik_handle_keeps_the_loop_closed_in_one_undo_step(win, qtbot):
    vp, doc = win.viewport, win.doc
    for _ in range(2):
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, tip_point(doc)))
    ok(vp.close_loop.dialog)
    doc.select("coupler_tip")
    vp.repaint()
    before, steps = doc.configuration, doc.undo_stack.count()
    h = vp.ik_handle
    T0 = doc.pose_of("coupler_tip")
    start = pixel(vp, T0[:3, 3] + 0.7 * h.size * T0[:3, 0])  # on the x arrow
    assert h.pick(start.x(), start.y()) == ("axis", 0)
    a, b = vp.project(np.array([T0[:3, 3], T0[:3, 3] + h.size * T0[:3, 0]]))
    direction = (b - a) / np.linalg.norm(b - a)
    drag(vp, start, start + QPoint(int(round(15 * direction[0])), int(round(15 * direction[1]))))
    q = doc.configuration
    assert abs(q[0] - before[0]) > 1e-3  # the crank turned …
    assert np.linalg.norm(doc.tree.loop_residual(q)) <= 1e-9  # … and the loop stayed closed
    assert abs(wrap(q[2] - freudenstein(q[0]))) <= 1e-9
    moved = doc.pose_of("coupler_tip")[:3, 3] - T0[:3, 3]
    assert moved @ T0[:3, 0] > 0  # the tip went the way it was dragged (as far as its path lets it)
    assert doc.undo_stack.count() == steps + 1


def test_an_ik_drag_past_the_mechanisms_limit_stops_closed_and_says_why(make_window, qtbot):
    w = make_window()
    t = four_bar(a=0.4)  # crank too long for a full turn
    w.doc.load(t, t.solve_loops(np.array([1.0, 2.0, 1.5])))
    doc = w.doc
    target = np.eye(4)
    target[:3, 3] = [-0.4, 0.0, 0.0]  # the crank's tip at a half turn: no assembly there
    token = doc.begin_drag()
    with qtbot.waitSignal(doc.message, timeout=10000) as said:
        for _ in range(30):  # mouse moves of one drag, each a few live iterations
            doc.move_body_to("coupler", target, token, live=True, position_only=True)
    assert "stopped at the mechanism's limit: loop 'close' cannot be assembled" in said.args[0]
    q = doc.configuration
    assert np.linalg.norm(doc.tree.loop_residual(q)) <= 1e-9 and 1.5 < q[0] < math.pi
    assert "stopped at the mechanism's limit" in w.statusBar().currentMessage()


def test_a_refused_slider_tick_at_the_limit_costs_a_bounded_solve(qtbot, monkeypatch):
    """At the mechanism's limit every tick of a drag is refused: each must stay within a frame's
    time (it solved twice with 100 steps: up to 2,944 evaluations of the loop equations)."""
    import kinetree.core.kinematics.loops as loops
    from kinetree.app.model.document import RobotDocument

    count = [0]
    rows = loops.rows

    def counted(*args, **kwargs):
        count[0] += 1
        return rows(*args, **kwargs)

    monkeypatch.setattr(loops, "rows", counted)
    t = four_bar(a=0.4)  # crank too long for a full turn
    doc = RobotDocument()
    doc.load(t, t.solve_loops(np.array([1.0, 2.0, 1.5])))
    said = []
    doc.message.connect(said.append)
    drag, theta, costs = doc.begin_drag(), doc.configuration[0], []
    while len(said) < 5:  # 0.01 rad a tick, past the limit
        theta += 0.01
        count[0] = 0
        doc.set_joint_position("crank_joint", theta, drag)
        costs.append(count[0])
    assert abs(doc.configuration[0] - (theta - 0.05)) < 1e-9  # stopped at the last closed tick
    assert max(costs[:-5]) <= 6 and max(costs[-5:]) <= 400, costs[-5:]


def test_two_surface_points_close_the_loop_pulling_them_together(make_window, qtbot):
    """Issue 35: pick a frame *or a surface point*. Two points on the coupler's and the rocker's
    surfaces, apart: OK closes the loop there, the passive joints pull the points together, the
    crank keeps its angle, one undo step."""
    w = make_window()
    w.resize(1280, 800)
    t, q = open_four_bar_with_tips()
    t.get_body("coupler").visuals = (box((COUPLER, 0.02, 0.02), (COUPLER / 2, 0, 0)),)
    t.get_body("rocker").visuals = (box((ROCKER, 0.02, 0.02), (ROCKER / 2, 0, 0)),)
    w.doc.load(t, q)
    vp, doc = w.viewport, w.doc
    vp.setCameraPosition(distance=1.2, elevation=90, azimuth=-90)
    vp.repaint()
    key(qtbot, w, Qt.Key.Key_O)
    steps = doc.undo_stack.count()
    picks = [(doc.pose_of(body) @ [0.7 * length, 0.0, 0.01, 1.0])[:3] for body, length in
             (("coupler", COUPLER), ("rocker", ROCKER))]  # on each box's top, 30 % short of the tips
    for p in picks:
        QTest.mouseClick(vp, LEFT, NONE, pixel(vp, p))
    marks = vp.close_loop.marks
    assert [(m.body, m.pose) for m in marks] == [("coupler", None), ("rocker", None)]  # surface points
    assert 0.05 < np.linalg.norm(marks[0].point - marks[1].point) < 0.2  # apart
    poses = {b: doc.pose_of(b) for b in ("coupler", "rocker")}  # where the picks were made
    ok(vp.close_loop.dialog)
    (lp,) = doc.tree.loops
    assert (lp.body_a, lp.body_b) == ("coupler", "rocker") and doc.undo_stack.count() == steps + 1
    after = doc.configuration
    assert after[0] == q[0] and np.linalg.norm(after[1:] - q[1:]) > 1e-3  # the crank kept, the rest moved
    assert np.linalg.norm(doc.tree.loop_residual(after)) <= 1e-9
    # the loop frames sit at the picked points, on their bodies
    for m, body, frame in ((marks[0], "coupler", lp.frame_a), (marks[1], "rocker", lp.frame_b)):
        T = poses[body]
        assert np.allclose(T[:3, :3] @ frame[:3, 3] + T[:3, 3], m.point, atol=1e-9)
    doc.undo_stack.undo()
    assert doc.tree.loops == () and np.allclose(doc.configuration, q)
