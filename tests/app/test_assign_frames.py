"""View ▸ Assign frames: the student walks Puma's frames with the real buttons, the dock checks
each step in words, and the derived table is the core's; nothing becomes an undo step."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui_actions import choose
from kinetree.app.viewport.offscreen import render_image
from kinetree.core.dh.frame_assignment import FrameAssignment
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


@pytest.fixture
def puma_window(window, qtbot):
    window.doc.open("puma560")
    window.doc.undo_stack.clear()
    window.findChild(type(window.assign_frames_dock.toggleViewAction()), "toggle_assignFramesDock").trigger()
    qtbot.waitUntil(window.assign_frames_dock.isVisible)
    return window


def click(qtbot, button) -> None:
    qtbot.waitUntil(button.isVisible)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def choose_axis(qtbot, panel, k: int | None = None) -> None:
    """Pick the axis z lies on in the combo, as a user does: axis ``k`` (default the right one)."""
    fa = panel.state.assignment
    choose(qtbot, panel.z_axis, fa.lines[fa.step if k is None else k].label)


def choose_z(qtbot, panel, which: int = 1, k: int | None = None) -> None:
    choose_axis(qtbot, panel, k)
    click(qtbot, panel.z_along if which > 0 else panel.z_against)


def assign_all(qtbot, panel, z_buttons) -> None:
    for which in z_buttons:
        choose_z(qtbot, panel, which)
        qtbot.waitUntil(lambda: panel.x_group.button(0) is not None)
        click(qtbot, panel.x_group.button(0))
        assert "valid frame" in panel.check.text()
        assert panel.next_button.isEnabled()
        click(qtbot, panel.next_button)


def table_cells(panel) -> list[list[str]]:
    m = panel.table_model
    return [[m.item(r, c).text() for c in range(m.columnCount())] for r in range(m.rowCount())]


@pytest.mark.parametrize("z_signs", [[1] * 7, [1, -1, 1, 1, -1, 1, 1]])
def test_puma_to_the_end_with_the_buttons(puma_window, qtbot, z_signs):
    w = puma_window
    panel = w.assign_frames
    assign_all(qtbot, panel, z_signs)
    assert "All 7 frames are assigned" in panel.title.text()
    core = FrameAssignment(w.doc.tree, w.doc.tree.end_effector).follow_offered(z_signs, [0] * 7)
    assert panel.table_model.rowCount() == 6
    for i, (row, cells) in enumerate(zip(core.rows, table_cells(panel)), start=1):
        assert cells[0] == f"{round(np.degrees(row.theta), 9) + 0.0:.6g}°"
        assert cells[2] == f"{round(row.a, 9) + 0.0:.6g}"
        assert cells[3] == f"{round(np.degrees(row.alpha), 9) + 0.0:.6g}°"
        assert cells[4] == row.variable_text(i)
    assert any(c[4].startswith("θ₂ = −q₂") for c in table_cells(panel)) == (z_signs[1] < 0)
    assert "T₆⁰ equals the robot's forward kinematics (largest difference" in panel.result.text()
    if z_signs[1] > 0 and z_signs[4] > 0:  # the first offers everywhere: extract_dh's own frames
        assert "Same table as DH of chain… (extract_dh)." in panel.result.text()
    else:
        assert "Compared with DH of chain…" in panel.result.text()
        assert "row 2 differs: your z₁ points against joint 2's axis" in panel.result.text()
    # the viewport draws the seven frames with their labels
    assert w.assigned_frames.visible()
    assert [k for k, _F, _p in w.assigned_frames.world_frames()] == list(range(7))
    w.viewport.fit()  # the whole robot in view
    render_image(w.viewport, 320, 240)  # paints the overlay into the image as into the widget
    assert {"x₀", "z₀", "x₆", "z₆"} <= set(w.assigned_frames.drawn_labels)
    assert w.doc.undo_stack.count() == 0  # frames do not edit the robot: no undo steps


def test_a_typed_wrong_x_is_explained_and_next_stays_off(puma_window, qtbot):
    w = puma_window
    panel = w.assign_frames
    assign_all(qtbot, panel, [1, 1])  # frames 0 and 1
    choose_z(qtbot, panel)
    good = w.assign_frames.state.candidates()[0]
    tilted = good.x + 0.2 * w.assign_frames.state.assignment.frames[1].z  # leaning towards z_1
    QTest.keyClicks(panel.x_edit, ", ".join(f"{v:.6f}" for v in tilted))
    QTest.keyClicks(panel.o_edit, ", ".join(f"{v:.6f}" for v in good.origin))
    QTest.keyClick(panel.o_edit, Qt.Key.Key_Return)
    text = panel.check.text()
    assert "x₂ is not perpendicular to z₁" in text and "DH1 fails" in text, text
    assert not panel.next_button.isEnabled()
    z = w.assign_frames.state.z()

    def type_frame(x, origin):
        panel.x_edit.clear()
        panel.o_edit.clear()
        QTest.keyClicks(panel.x_edit, ", ".join(f"{v:.12f}" for v in x))
        QTest.keyClicks(panel.o_edit, ", ".join(f"{v:.12f}" for v in origin))
        QTest.keyClick(panel.o_edit, Qt.Key.Key_Return)
        return panel.check.text()

    # z_1 ∥ z_2 (Puma's shoulder and elbow): the common normal may slide along z_2
    assert "a valid frame" in type_frame(good.x, good.origin + 0.12 * z)
    assert panel.next_button.isEnabled()
    # x_2 turned 30° about z_2: still ⟂ z_1, but passes a_2·sin 30° = 0.216 m from it
    turned = np.cos(np.radians(30)) * good.x + np.sin(np.radians(30)) * np.cross(z, good.x)
    text = type_frame(turned, good.origin)
    assert text == "x₂ does not meet z₁: they pass 0.216 m apart: DH2 fails", text
    assert not panel.next_button.isEnabled()
    click(qtbot, panel.back_button)
    assert "Frame 1 of 0…6" in panel.title.text()


def test_opening_another_robot_starts_over(puma_window, qtbot):
    w = puma_window
    panel = w.assign_frames
    assign_all(qtbot, panel, [1, 1, 1])
    w.doc.open("two_link_planar")
    qtbot.waitUntil(lambda: "Frame 0 of 0…2" in panel.title.text())


def test_drawn_frames_move_with_the_robot(puma_window, qtbot):
    """Frame n is drawn where F_0 · T_n^0(q) of the derived table puts it at the shown pose."""
    w = puma_window
    panel = w.assign_frames
    assign_all(qtbot, panel, [1] * 7)
    q = np.array([0.3, -0.4, 0.5, 0.2, -0.6, 0.7])
    w.doc.set_configuration(q)
    table = w.assign_frames.state.assignment.derive()
    drawn = dict((k, F) for k, F, _p in w.assigned_frames.world_frames())
    assert np.abs(drawn[6] - table.frames[0].matrix @ table.t_n0(q)).max() < 1e-12


def test_typed_text_that_is_not_three_numbers_is_refused_in_words(puma_window, qtbot):
    panel = puma_window.assign_frames
    choose_z(qtbot, panel)
    QTest.keyClicks(panel.x_edit, "1, zero")
    QTest.keyClick(panel.x_edit, Qt.Key.Key_Return)
    assert panel.check.text() == "Type x and the origin as three numbers each, e.g. 1, 0, 0"
    assert not panel.next_button.isEnabled()


def test_z_on_the_wrong_joint_axis_can_be_chosen_and_is_explained_with_dhs_rule(puma_window, qtbot):
    w = puma_window
    panel = w.assign_frames
    assign_all(qtbot, panel, [1, 1])  # frames 0 and 1
    fa = panel.state.assignment
    labels = [panel.z_axis.itemText(k) for k in range(panel.z_axis.count())]
    assert labels == [ln.label for ln in fa.lines] and len(labels) == 7  # every joint's axis and the tip's
    assert panel.z_axis.currentIndex() == -1 and "joint 3" not in panel.title.text()  # nothing given away
    assert w.assigned_frames.state.target_line() is None
    # z_2 on joint 2's axis (parallel to joint 3's at Puma's elbow): the classic mistake
    choose_z(qtbot, panel, 1, k=1)
    p, u = w.assigned_frames.state.target_line()  # the chosen axis is drawn
    assert np.allclose(np.cross(u, fa.lines[1].direction), 0)
    assert np.linalg.norm(np.cross(p - fa.lines[1].point, u)) < 1e-9
    click(qtbot, panel.x_group.button(0))
    text = panel.check.text()
    assert text.startswith("z₂ lies along joint 2's axis: DH's rule is zᵢ₋₁ along joint i's axis, "
                           "so z₂ belongs on joint 3's axis"), text
    assert not panel.next_button.isEnabled()
    # z_2 on joint 1's axis (perpendicular): the same rule
    choose_axis(qtbot, panel, 0)
    click(qtbot, panel.x_group.button(0))
    assert panel.check.text().startswith("z₂ lies along joint 1's axis: DH's rule"), panel.check.text()
    assert not panel.next_button.isEnabled()
    # the right axis: a valid frame, and on to frame 3
    choose_axis(qtbot, panel, 2)
    click(qtbot, panel.x_group.button(0))
    assert "valid frame" in panel.check.text()
    click(qtbot, panel.next_button)
    assert "Frame 3 of 0…6" in panel.title.text() and panel.z_axis.currentIndex() == -1
