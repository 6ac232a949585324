"""Found by typing into the editors as a user does: Escape cancels in every editor, an edit of one
property keeps the joint's others (mimic, axis, URDF extensions), a limit typed as shown is
accepted, an overflow is no "no limit", and a refusal's numbers tell the value from the limit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.panels import dh_row, open_cell
from kinetree.core import Mimic
from PySide6.QtCore import Qt


@pytest.fixture
def window(window, qtbot):
    """The main window, active (keyboard focus moves as a user sees it)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def type_keys(qtbot, line_edit, text: str, key=Qt.Key.Key_Return) -> None:
    line_edit.setFocus()
    qtbot.waitUntil(line_edit.hasFocus)
    line_edit.selectAll()
    qtbot.keyClicks(line_edit, text)
    qtbot.keyClick(line_edit, key)


def leave(qtbot, window, widget) -> None:
    """Click elsewhere: focus goes to the DH table."""
    window.dh.view.setFocus()
    qtbot.waitUntil(lambda: not widget.hasFocus())


def test_escape_in_a_joint_field_cancels(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    doc.select("link2")
    field = window.joint.fields["home"]
    shown, steps = field.text(), doc.undo_stack.count()
    type_keys(qtbot, field, "45", Qt.Key.Key_Escape)
    assert field.text() == shown
    leave(qtbot, window, field)
    assert doc.tree.get_body("link2").joint.home_position == 0.0
    assert doc.undo_stack.count() == steps and field.error == ""


def test_escape_in_a_joint_spin_box_cancels(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    spin = window.sliders.rows["q2"].spin
    before, steps = doc.configuration.copy(), doc.undo_stack.count()
    type_keys(qtbot, spin.lineEdit(), "45", Qt.Key.Key_Escape)
    assert spin.lineEdit().text().rstrip("°").strip() == "0"
    leave(qtbot, window, spin)
    np.testing.assert_array_equal(doc.configuration, before)
    assert doc.undo_stack.count() == steps
    type_keys(qtbot, spin.lineEdit(), "1e400", Qt.Key.Key_Return)  # refused: red, with a message
    assert spin.error
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Escape)  # Escape also clears the refusal
    assert spin.error == ""
    np.testing.assert_array_equal(doc.configuration, before)


def test_a_dh_cell_edit_keeps_the_mimic_and_the_extensions(window, qtbot):
    doc = window.doc
    doc.open("puma560")

    def prepare(t):
        j = t.get_body("link3").joint
        j.mimic = Mimic("q2", 2.0, 0.1)
        j.extensions = ('<dynamics damping="0.7"/>',)

    doc.edit("mimic", prepare)
    motor = doc.tree.get_body("link3").joint.motor_parameters()
    assert motor["gear_ratio"] == -53.7063  # Corke's Puma motor
    editor = open_cell(qtbot, window, dh_row(window, "link3"), 1)
    editor.selectAll()
    qtbot.keyClicks(editor, "0.5")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    j = doc.tree.get_body("link3").joint
    assert j.dh_parameters.a == 0.5
    assert j.mimic == Mimic("q2", 2.0, 0.1)
    assert j.extensions == ('<dynamics damping="0.7"/>',)
    assert j.motor_parameters() == motor  # gear, motor inertia and friction stay


def test_revolute_to_prismatic_and_back_keeps_the_axis(window, qtbot):
    doc = window.doc
    doc.open("humanoid_upper_body")
    body = next(b.name for b in doc.tree.bodies if b.joint.name == "l_elbow")
    before = doc.tree.get_body(body).joint
    axis, extensions = before.axis.copy(), before.extensions
    assert not np.allclose(axis, [0, 0, 1]) and extensions

    def motor(t):
        j = t.get_body(body).joint
        j.viscous_friction, j.gear_ratio = 0.01, 2.0

    doc.edit("motor", motor)
    doc.select(body)
    combo = window.joint.type_combo
    steps = doc.undo_stack.count()
    for jtype in ("prismatic", "revolute"):
        combo.setCurrentText(jtype)
        combo.activated.emit(combo.currentIndex())
        j = doc.tree.get_body(body).joint
        assert j.type == jtype
        np.testing.assert_array_equal(j.axis, axis)
        assert j.extensions == extensions
        assert j.viscous_friction == 0.01 and j.gear_ratio == 2.0  # the motor stays with the axis
    assert doc.undo_stack.count() == steps + 2  # limits are reset (radians and metres differ): undo
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    np.testing.assert_array_equal(doc.tree.get_body(body).joint.position_limits, before.position_limits)


def test_a_limit_typed_as_shown_is_accepted(window, qtbot):
    """Jaco's q3 minimum is radians(19) stored; the app's exact 19° is one ulp below it."""
    doc = window.doc
    doc.open("jaco")
    row = window.sliders.rows["q3"]
    lo = next(b.joint for b in doc.tree.bodies if b.joint.name == "q3").position_limits[0]
    assert lo == math.radians(19) and "19" in row.limits.text()
    type_keys(qtbot, row.spin.lineEdit(), "19")
    assert row.spin.error == ""
    assert doc.configuration[doc.tree.position_index("q3")] == lo  # the limit itself, exactly


def test_an_overflow_is_not_an_unbounded_limit(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    before = doc.serialized()
    editor = open_cell(qtbot, window, dh_row(window, "link3"), 7)
    editor.selectAll()
    qtbot.keyClicks(editor, "1e400")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert "type inf for no limit" in editor.error
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert doc.serialized() == before
    doc.open("two_link_planar")
    doc.select("link2")
    field = window.joint.fields["limits"]
    type_keys(qtbot, field, "-1e400 1e400")
    assert "not finite" in field.error
    assert np.isfinite(doc.tree.get_body("link2").joint.position_limits).all()
    type_keys(qtbot, field, "-inf inf")  # the word is the way to say "no limit"
    assert field.error == "" and np.isinf(doc.tree.get_body("link2").joint.position_limits).all()


def test_a_refusal_shows_the_digits_that_differ(window, qtbot):
    doc = window.doc
    doc.open("stanford")
    units = window.sliders.length_units
    units.setCurrentIndex(1)
    units.activated.emit(1)
    row = window.sliders.rows["q3"]
    type_keys(qtbot, row.spin.lineEdit(), "1270.0000001")
    assert "1270.0000001 mm is outside the limits [304.8 mm, 1270 mm]" in row.spin.error
