"""The IK handle: a user drags Puma's end effector with the mouse and the robot follows."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui import image_array, pixel
from helpers.gui import qtest_drag as drag
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest


@pytest.fixture
def puma(puma_bent_window):
    return puma_bent_window


def test_handle_on_the_end_effector_by_default_then_on_the_selected_body(puma):
    vp, doc = puma.viewport, puma.doc
    assert vp.ik_handle.body == doc.tree.end_effector
    assert np.allclose(vp.ik_handle.pose, doc.tree.get_transform(doc.configuration, doc.tree.end_effector))
    doc.select("link3")
    assert vp.ik_handle.body == "link3"
    doc.select(doc.tree.base_name)  # the base cannot move: the end effector again
    assert vp.ik_handle.body == doc.tree.end_effector


def test_dragging_the_x_arrow_moves_the_gripper_along_x_in_one_undo_step(puma):
    vp, doc = puma.viewport, puma.doc
    ee = doc.tree.end_effector
    T0 = doc.tree.get_transform(doc.configuration, ee)
    h = vp.ik_handle
    start = pixel(vp, T0[:3, 3] + 0.7 * h.size * T0[:3, 0])  # on the x arrow
    assert h.pick(start.x(), start.y()) == ("axis", 0)
    # move the mouse along the arrow's projection, by about 10 pixels (within reach)
    a, b = vp.project(np.array([T0[:3, 3], T0[:3, 3] + h.size * T0[:3, 0]]))
    direction = (b - a) / np.linalg.norm(b - a)
    end = start + QPoint(int(round(10 * direction[0])), int(round(10 * direction[1])))
    drag(vp, start, end)
    T1 = doc.tree.get_transform(doc.configuration, ee)
    moved = T1[:3, 3] - T0[:3, 3]
    along = moved @ T0[:3, 0]
    assert along > 0.005  # followed the mouse, along the arrow
    assert np.linalg.norm(moved - along * T0[:3, 0]) < 1e-6  # and only along it
    assert np.allclose(T1[:3, :3], T0[:3, :3], atol=1e-6)  # orientation kept
    assert vp.ik_handle.reached and h.last_result.success
    assert doc.undo_stack.count() == 1  # the whole drag: one undo step
    assert doc.tree.within_limits(doc.configuration)
    doc.undo_stack.undo()
    assert np.allclose(doc.tree.get_transform(doc.configuration, ee), T0)


def test_dragging_a_ring_turns_the_gripper_about_that_axis(puma):
    vp, doc = puma.viewport, puma.doc
    ee = doc.tree.end_effector
    T0 = doc.tree.get_transform(doc.configuration, ee)
    h = vp.ik_handle
    ring = h._ring(2)  # about the gripper's z axis
    px = vp.project(ring)
    # grab the point of the ring most across the view, drag it along the ring a little
    i = int(np.argmax(np.linalg.norm(px - px.mean(axis=0), axis=1)))
    start = QPoint(int(round(px[i, 0])), int(round(px[i, 1])))
    assert h.pick(start.x(), start.y()) == ("ring", 2)
    j = (i + 4) % len(px)
    drag(vp, start, QPoint(int(round(px[j, 0])), int(round(px[j, 1]))))
    T1 = doc.tree.get_transform(doc.configuration, ee)
    assert np.allclose(T1[:3, 3], T0[:3, 3], atol=1e-6)  # the origin stays
    assert np.allclose(T1[:3, 2], T0[:3, 2], atol=1e-6)  # turned about z
    assert not np.allclose(T1[:3, 0], T0[:3, 0], atol=1e-3)
    assert doc.undo_stack.count() == 1


def test_an_unreachable_target_keeps_the_best_pose_and_turns_the_handle_red(puma):
    vp, doc = puma.viewport, puma.doc
    ee = doc.tree.end_effector
    T0 = doc.tree.get_transform(doc.configuration, ee)
    h = vp.ik_handle
    start = pixel(vp, T0[:3, 3])
    assert h.pick(start.x(), start.y()) == ("centre", -1)
    drag(vp, start, start + QPoint(600, -300), steps=12)  # metres away: out of reach
    assert not h.reached and not h.last_result.success
    q = doc.configuration
    assert doc.tree.within_limits(q) and not np.allclose(q, [0.0, 0.6, -0.9, 0.0, 0.5, 0.0])
    img = image_array(vp.grabFramebuffer())
    centre = vp.project(h.pose[:3, 3][None])[0]
    x, y = int(round(centre[0])), int(round(centre[1]))
    patch = img[y - 3:y + 4, x - 3:x + 4].reshape(-1, 3)
    assert ((patch[:, 0] > 200) & (patch[:, 1] < 80) & (patch[:, 2] < 80)).sum() >= 10  # red


def test_a_click_on_the_handle_selects_and_changes_nothing(puma):
    vp, doc = puma.viewport, puma.doc
    ee = doc.tree.end_effector
    start = pixel(vp, doc.tree.get_transform(doc.configuration, ee)[:3, 3])
    QTest.mouseClick(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    assert doc.undo_stack.count() == 0 and doc.selection == ee


def type_target(w, text: str) -> None:
    from PySide6.QtWidgets import QLineEdit

    field = w.pose.findChild(QLineEdit, "poseTarget")
    w.pose.go_toggle.setChecked(True)  # "Go to…" shows the field
    assert field.isVisible()
    field.clear()
    QTest.keyClicks(field, text)
    QTest.keyClick(field, Qt.Key.Key_Return)


def test_typing_a_target_pose_and_pressing_enter_moves_the_end_effector_there(puma):
    from kinetree.core.transforms import pose_from_xyz_rpy

    doc = puma.doc
    puma.pose.set_mode("end_effector")
    puma.pose.units.setCurrentIndex(0)  # degrees
    type_target(puma, "0.4 0.1 0.3  0 90 0")  # the example: kinetree ik puma560 … --rpy 0 90 0 --deg
    T = doc.tree.get_transform(doc.configuration, doc.tree.end_effector)
    target = pose_from_xyz_rpy([0.4, 0.1, 0.3], np.radians([0, 90, 0]))
    assert np.abs(T - target).max() < 1e-6
    assert "reached" in puma.pose.go_status.text() and doc.undo_stack.count() == 1


def test_a_target_out_of_reach_says_how_far_and_bad_text_changes_nothing(puma):
    doc = puma.doc
    q0 = doc.configuration.copy()
    type_target(puma, "3 0 0 0 0 0")  # 3 m away: Puma reaches under 1 m
    status = puma.pose.go_status.text()
    assert status.startswith("out of reach") and " m and " in status
    assert doc.tree.within_limits(doc.configuration)
    q1 = doc.configuration.copy()
    type_target(puma, "0.4 0.1 nan 0 0 0")
    assert "target pose" in puma.pose.go_status.text() and np.array_equal(doc.configuration, q1)
    type_target(puma, "0.4 0.1")
    assert "6" in puma.pose.go_status.text() and np.array_equal(doc.configuration, q1)
    assert not np.array_equal(q0, q1)


def test_the_handle_can_be_hidden_and_that_is_remembered(puma, make_window):
    from PySide6.QtGui import QAction

    action = puma.findChild(QAction, "ikHandleAction")
    assert action.isChecked() and puma.viewport.ik_handle.centre.visible()
    action.trigger()
    vp = puma.viewport
    assert not vp.ik_handle.centre.visible()
    ee = puma.doc.tree.get_transform(puma.doc.configuration, puma.doc.tree.end_effector)[:3, 3]
    start = pixel(vp, ee)
    assert not vp.ik_handle.press(start.x(), start.y())  # hidden: a press there orbits the camera
    again = make_window()  # the same settings file
    assert not again.findChild(QAction, "ikHandleAction").isChecked() and not again.viewport.ik_handle.enabled


def test_go_to_a_pose_given_in_a_frame_holds_the_joints_that_move_the_frame(puma):
    """A target in link1's frame: q1 turns link1, so it is held (moving it, the target turned
    with the frame and a wrong pose was reported as reached)."""
    from kinetree.core.transforms import inverse_transform, matrix_to_rpy

    doc = puma.doc
    q0 = np.array([0.3, 0.5, -1.0, 0.2, 0.4, 0.1])
    doc.set_configuration(q0, "start")
    puma.pose.set_mode("end_effector")
    puma.pose.units.setCurrentIndex(1)  # radians
    puma.pose.frame_combo.setCurrentText("link3")
    ee = doc.tree.end_effector
    wanted = inverse_transform(doc.tree.get_transform(doc.configuration, "link3")) @ doc.tree.get_transform(
        np.array([0.3, 0.5, -1.0, 0.5, 0.9, -0.4]), ee)  # reachable by q4..q6 alone
    x, y, z = wanted[:3, 3]
    r, p, yw = matrix_to_rpy(wanted[:3, :3])
    type_target(puma, " ".join(repr(float(v)) for v in (x, y, z, r, p, yw)))
    q = doc.configuration
    assert "reached" in puma.pose.go_status.text()
    assert np.array_equal(q[:3], q0[:3])  # link3's joints held
    T = inverse_transform(doc.tree.get_transform(q, "link3")) @ doc.tree.get_transform(q, ee)
    assert np.abs(T - wanted).max() < 1e-6
    # (0.3, 0.2, 0.1) in link1's frame: the shoulder offset (d3 = 0.15005) keeps y there at
    # 0.15005 whatever q2..q6 do, so it is out of reach by 0.05 m, and said so
    puma.pose.frame_combo.setCurrentText("link1")
    type_target(puma, "0.3 0.2 0.1 0 0 0")
    assert puma.pose.go_status.text().startswith("out of reach") and doc.configuration[0] == q[0]
