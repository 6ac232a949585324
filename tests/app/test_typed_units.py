"""Issue 17: a number typed with pi is radians wherever angles have a unit, explicit units
(90deg, 90°, 1.5708rad, 250mm, 0.25m) are converted to the field's unit, a unit of the other
kind and a decimal comma are refused with one line naming the field and the value."""

from __future__ import annotations

import math

import pytest
from helpers.panels import open_cell
from kinetree.app.panels.exercise import shown_answer
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


@pytest.fixture
def window(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def type_spin(qtbot, window, key: str, text: str):
    spin = window.sliders.rows[key].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    return spin


def q(doc, joint: str) -> float:
    return float(doc.configuration[doc.tree.position_index(joint)][0])


def test_pi_in_a_degree_spin_box_is_radians(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    assert window.sliders.degrees
    spin = type_spin(qtbot, window, "q1", "pi/2")
    assert q(doc, "q1") == math.pi / 2  # not 1.5708° = 0.0274 rad
    spin.clearFocus()
    qtbot.waitUntil(lambda: spin.lineEdit().text().startswith("90"))
    type_spin(qtbot, window, "q2", "-1.5708rad")
    assert q(doc, "q2") == pytest.approx(-1.5708, abs=1e-15)
    type_spin(qtbot, window, "q2", "45°")
    assert q(doc, "q2") == math.pi / 4
    type_spin(qtbot, window, "q2", "-2*pi/3")  # -119.99999999999999° shown: the radians typed are kept
    assert q(doc, "q2") == -2 * math.pi / 3
    window.sliders.angle_units.setCurrentIndex(1)  # radians
    window.sliders.angle_units.activated.emit(1)
    type_spin(qtbot, window, "q1", "90deg")
    assert q(doc, "q1") == math.pi / 2


def test_length_units_in_a_prismatic_spin_box(window, qtbot):
    doc = window.doc
    doc.open("cylindrical")  # q2, q3 prismatic, shown in m
    type_spin(qtbot, window, "q2", "250mm")
    assert q(doc, "q2") == 0.25
    window.sliders.length_units.setCurrentIndex(1)  # millimetres
    window.sliders.length_units.activated.emit(1)
    spin = type_spin(qtbot, window, "q3", "0.125m")
    assert q(doc, "q3") == 0.125
    spin = type_spin(qtbot, window, "q3", "30deg")  # an angle in a length box: refused, nothing moves
    assert q(doc, "q3") == 0.125
    assert spin.error == "q3: '30deg' is an angle; this field takes a length (m or mm)"


def test_refusals_name_the_field_and_the_value_in_the_unit_typed(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")  # limits ±180°
    spin = type_spin(qtbot, window, "q1", "250mm")
    assert spin.error == "q1: '250mm' is a length; this field takes an angle (° or rad)"
    spin = type_spin(qtbot, window, "q1", "1,5")
    assert spin.error == "q1: '1,5' has a decimal comma; use a point: 1.5"
    spin = type_spin(qtbot, window, "q1", "4rad")
    assert spin.error == "q1: 4 rad is outside the limits [-3.14159 rad, 3.14159 rad]"
    assert "\n" not in spin.error and q(doc, "q1") == 0.0


def test_dh_cells_read_pi_and_units(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    row = [e.body for e in window.dh.model.entries].index("link2")
    editor = open_cell(qtbot, window, row, 2)  # α, degrees
    qtbot.keyClicks(editor, "-pi/2")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.alpha == -math.pi / 2
    editor = open_cell(qtbot, window, row, 1)  # a, metres
    qtbot.keyClicks(editor, "431.8mm")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.a == 0.4318
    editor = open_cell(qtbot, window, row, 1)
    qtbot.keyClicks(editor, "0,5")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert editor.error == "a of link2: '0,5' has a decimal comma; use a point: 0.5"
    assert QApplication.focusWidget() is editor


def test_joint_panel_fields_read_pi_and_units(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    doc.select("link2")
    panel = window.joint
    for key, text in (("home", "pi/4"), ("xyz", "250mm 0 0.1m")):
        field = panel.fields[key]
        field.setFocus()
        field.selectAll()
        qtbot.keyClicks(field, text)
        qtbot.keyClick(field, Qt.Key.Key_Return)
    j = doc.tree.get_body("link2").joint
    assert j.home_position == math.pi / 4
    assert j.joint_to_parent_transform[:3, 3].tolist() == [0.25, 0.0, 0.1]
    field = panel.fields["mass"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "2kg")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert field.error.startswith("mass: '2kg' is not a number")
    assert doc.tree.get_body("link2").mass == 1.0


def test_pi_in_an_exercise_row_answer_is_radians(window, qtbot):
    window.doc.open("puma560")
    window.findChild(QAction, "toggle_exerciseDock").trigger()
    panel = window.exercise
    qtbot.waitUntil(lambda: panel.active and panel.exercise is not None, timeout=2000)
    panel.kind.setCurrentIndex(panel.kind.findData("row"))
    panel.seed.setValue(3)
    panel.new_exercise()
    panel.link.setCurrentIndex(0)
    panel.link.activated.emit(0)
    a, alpha, d, theta = shown_answer(panel.exercise)
    assert alpha == 90.0  # Puma link 1: α = 90°
    for cell, text in zip(panel.answer_cells(), [repr(a), "pi/2", f"{d * 1000!r}mm", f"{math.radians(theta)!r}rad"]):
        cell.clear()
        QTest.keyClicks(cell, text)
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4


def test_read_number_takes_pi_as_radians_only_when_pi_is_in_the_value():
    from kinetree.app.model.numbers import DEGREES, RADIANS, read_number
    assert read_number("pi/2", "α", DEGREES).value == 90.0
    assert read_number("pi/2*180/pi", "α", DEGREES) == (90.0, 90.0, "deg")  # converted by hand: degrees
    assert read_number("-2*pi/3", "α", DEGREES).value == pytest.approx(-120.0, abs=1e-12)
    assert read_number("-2*pi/3", "α", DEGREES).core == -2 * math.pi / 3  # the float typed, exactly
    assert read_number("90", "α", RADIANS).value == 90.0  # a bare number is in the field's unit
