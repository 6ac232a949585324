"""RBDL's Euler and custom joints in the GUI: picked in the Joint panel's type combo, moved by
their sliders (one per row), custom rows typed in the panel; the engine gets what was shown."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.gui_actions import choose, type_into
from PySide6.QtCore import Qt
from scipy.spatial.transform import Rotation


def type_spin(qtbot, window, key: str, text: str) -> None:
    spin = window.sliders.rows[key].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


@pytest.fixture
def window(make_window):
    w = make_window()
    w.doc.open("two_link_planar")
    w.doc.select("link2")
    return w


def test_pick_euler_zyx_and_move_its_sliders(window, qtbot):
    doc = window.doc
    choose(qtbot, window.joint.type_combo, "Euler ZYX")
    j = doc.tree.get_body("link2").joint
    assert j.type == "euler_zyx" and j.position_count == 3
    assert window.joint.type_combo.currentText() == "Euler ZYX"
    qtbot.waitUntil(lambda: {f"{j.name}.0", f"{j.name}.1", f"{j.name}.2"} <= set(window.sliders.rows))
    assert [window.sliders.rows[f"{j.name}.{k}"].name.text() for k in range(3)] == [
        f"{j.name} {a}" for a in ("rz", "ry", "rx")]
    type_spin(qtbot, window, f"{j.name}.1", "30")  # degrees, as shown
    type_spin(qtbot, window, f"{j.name}.2", "-45")
    i = doc.tree.position_index(j.name)
    q = doc.configuration
    assert q[i.start : i.stop].tolist() == [0.0, math.radians(30), math.radians(-45)]
    T = doc.tree.forward_kinematics(q)[doc.tree.index_of("link2")]
    P = doc.tree.forward_kinematics(q)[doc.tree.index_of("link1")]
    R = np.linalg.inv(P @ j.joint_to_parent_transform)[:3, :3] @ T[:3, :3]
    np.testing.assert_allclose(R, Rotation.from_euler("ZYX", [0, 30, -45], degrees=True).as_matrix(), atol=1e-12)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.tree.get_body("link2").joint.type == "revolute"


def test_custom_joint_rows_typed_in_the_panel(window, qtbot):
    doc = window.doc
    choose(qtbot, window.joint.type_combo, "custom")
    field = window.joint.fields["subspace"]
    assert field.isEnabled() and field.text() == "0 0 1 0 0 0"
    type_into(qtbot, field, "0 0 0 1 0 0; 0 0 0 0 2 0; 0 0 1 0 0 0")  # RBDL's planar example
    j = doc.tree.get_body("link2").joint
    np.testing.assert_array_equal(j.motion_subspace, [[0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0]])
    assert field.text() == "0 0 0 1 0 0; 0 0 0 0 1 0; 0 0 1 0 0 0"  # normalised, as the engine has it
    qtbot.waitUntil(lambda: f"{j.name}.2" in window.sliders.rows)
    assert [window.sliders.rows[f"{j.name}.{k}"].kind for k in range(3)] == ["length", "length", "angle"]
    type_into(qtbot, field, "1 0 0 0 0 1")  # helical: refused in place, nothing changed
    assert "row 1" in field.error and "mixes a rotation and a translation" in field.error
    assert doc.tree.get_body("link2").joint.position_count == 3
    type_into(qtbot, field, "0 0 0 0 0 0")
    assert "row 1" in field.error and "is zero" in field.error
