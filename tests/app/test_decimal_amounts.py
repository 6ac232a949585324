"""Typed amounts add as a person adds them (0.4 moved by -0.1 is 0.3, in the engine, the Joint
panel, the link cylinder and the saved project), and editors open a value with at most 12
significant digits without ever changing it when left as shown."""

from __future__ import annotations

import json

import numpy as np
import pytest
from helpers.gui import LEFT, NONE, arrow_drag, drag, pixel, row
from kinetree.app.model.edits import link_name
from kinetree.app.model.numbers import exact_text, parse_number, to_degrees, to_radians
from kinetree.core.io import import_robot
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

NOISY = (0.30000000000000004, 0.037980719999999996, -6.938893903907228e-18, 8.39002383070992)


def significant_digits(text: str) -> int:
    mantissa = text.lower().split("e")[0].lstrip("-").replace(".", "").lstrip("0")
    return len(mantissa.rstrip("0")) if "." in text.split("e")[0] else len(mantissa)


def test_typed_arithmetic_adds_in_decimal():
    assert parse_number("0.4-0.1") == 0.3
    assert parse_number("0.4 + -0.1") == 0.3
    assert parse_number("0.1+0.2") == 0.3
    assert parse_number("pi/2 + 0") == np.pi / 2


@pytest.mark.parametrize("value", NOISY)
def test_a_17_digit_value_opens_with_at_most_12_significant_digits(value):
    text = exact_text(value)
    assert significant_digits(text) <= 12, text
    assert float(text) == pytest.approx(value, rel=1e-11, abs=0)
    assert significant_digits(exact_text(value, to_degrees, to_radians)) <= 12


def test_typed_values_open_without_an_exponent():
    assert exact_text(1e-5) == "0.00001"
    assert exact_text(0.3) == "0.3"
    assert exact_text(250.0) == "250"


def test_a_typed_minus_01_from_04_gives_exactly_03_everywhere(child_at_04_window, qtbot, tmp_path):
    win, body = child_at_04_window
    vp, doc = win.viewport, win.doc
    T0 = doc.pose_of(body)
    h = vp.frame_handle
    a, b = vp.project(np.array([T0[:3, 3], T0[:3, 3] + h.size * T0[:3, 0]]))
    start = pixel(vp, T0[:3, 3] + 0.7 * h.size * T0[:3, 0])
    drag(vp, start, start + QPoint(int(b[0] - a[0]) // 3, int(b[1] - a[1]) // 3), release=False)
    QTest.keyClicks(vp, "-0.1")
    QTest.keyClick(vp, Qt.Key.Key_Enter)
    QTest.mouseRelease(vp, LEFT, NONE, start)
    jtp = doc.tree.get_body(body).joint.joint_to_parent_transform
    assert jtp[:3, 3].tolist() == [0.3, 0.0, 0.0]  # not 0.30000000000000004
    np.testing.assert_array_equal(jtp[:3, :3], np.eye(3))
    doc.select(body)  # the release, after Enter ended the drag, is a click beside it
    assert win.joint.fields["xyz"].text() == "0.3  0  0"
    link = next(v for v in doc.tree.base.visuals if v.name == link_name(body))
    assert link.size[1] == 0.3 and link.matrix[:3, 3].tolist() == [0.15, 0.0, 0.0]
    path = tmp_path / "moved.ktree.json"
    doc.save(path)
    text = path.read_text()
    assert "0.30000000000000004" not in text and "0.15000000000000002" not in text
    assert json.loads(text)  # a project file, read back below
    again = import_robot(path)
    assert again.get_body(body).joint.joint_to_parent_transform[0, 3] == 0.3


def test_a_field_left_as_it_opened_keeps_the_stored_17_digit_value(child_at_04_window, qtbot):
    win, body = child_at_04_window
    doc = win.doc

    def noisy(tree):
        T = np.eye(4)
        T[:3, 3] = (0.037980719999999996, -6.938893903907228e-18, 8.39002383070992)
        tree.get_body(body).joint.set_fixed_transform(T)
        return body

    doc.edit("noisy origin", noisy)
    count = doc.undo_stack.count()
    field = win.joint.fields["xyz"]
    assert field.text() == "0.03798072  -6.93889390391e-18  8.39002383071"
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    field.setFocus()
    field.selectAll()
    field.insert(field.text())  # retyped as shown
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert doc.undo_stack.count() == count
    assert doc.tree.get_body(body).joint.joint_to_parent_transform[:3, 3].tolist() == [
        0.037980719999999996, -6.938893903907228e-18, 8.39002383070992]


def test_a_dh_cell_left_as_it_opened_keeps_the_stored_value(window):
    doc = window.doc
    doc.open("puma560")
    model = window.dh.view.model()
    idx = model.index(2, 3)  # link3's d
    assert model.setData(idx, 0.037980719999999996)
    count = doc.undo_stack.count()
    shown = model.data(idx, Qt.ItemDataRole.EditRole)
    assert shown == "0.03798072"
    assert model.setData(idx, shown)
    assert doc.undo_stack.count() == count
    assert doc.tree.get_body(model.entries[2].body).joint.dh_parameters.d == 0.037980719999999996


def test_dh_arrow_lengths_add_in_decimal(puma_handle_window, qtbot):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    d0 = row(doc).d
    assert d0 == 0.15005
    arrow_drag(vp, "d", 40)
    QTest.keyClicks(vp, "-0.1")  # right after the drag: its amount, exactly
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert row(doc).d == 0.05005  # not 0.05004999999999998
    doc.undo_stack.undo()
    a0 = row(doc).a
    arrow_drag(vp, "a", 60)  # snapped to 10 mm steps
    a = row(doc).a
    assert a != a0 and a == float(f"{a:.4f}")  # 0.4318 + k × 0.01, no float noise


def test_a_snapped_length_is_a_whole_number_of_steps_in_decimal(puma_handle_window):
    h = puma_handle_window.viewport.frame_handle
    h._grab = {"free": False}  # the snapping of a drag under way
    try:
        assert [h._snap_length(x) for x in (0.5703, 0.0698, -0.2899)] == [0.57, 0.07, -0.29]  # 57 × 0.01 …
    finally:
        h._grab = None
