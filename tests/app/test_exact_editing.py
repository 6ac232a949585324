"""Editors a user can trust: typed values reach the engine exactly, an untouched editor is no
edit, a refused value is explained where it was typed, and re-committing the Joint panel's shown
fixed transform never moves a body. Driven through the real widgets (keys typed, Enter pressed)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from helpers.gui_actions import type_into
from helpers.panels import dh_row, open_cell
from helpers.urdf import ALL_TYPES, CHAIN
from kinetree.app.model.numbers import exact_text
from kinetree.app.model.text import plain_tip
from kinetree.app.widgets.field import ERROR_STYLE
from kinetree.core import load_robot
from kinetree.core.io import import_robot
from kinetree.core.library import list_robots, robot_info
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

# robots whose every angle field is also turned and typed back (standard DH, modified DH, URDF)
CHANGE_AND_BACK = {"puma560", "puma560_mdh", "urdf_all_types"}


def paste_into(qtbot, field, text: str) -> None:
    """Replace a line edit's text as a paste does (fast for long loops), then press Enter."""
    field.setFocus()
    field.selectAll()
    field.insert(text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


@pytest.fixture
def window(window, qtbot):
    """The main window, active (keyboard focus moves as a user sees it)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def poses(doc) -> np.ndarray:
    q = doc.tree.random_configuration(np.random.default_rng(7))
    return np.concatenate([doc.tree.forward_kinematics(doc.tree.home_configuration()),
                           doc.tree.forward_kinematics(q)])


def significant_digits(message: str) -> list[int]:
    return [len(m.replace(".", "").lstrip("0")) for m in re.findall(r"\d+\.?\d*", message)]


# --- DH table ----------------------------------------------------------------------------------
def test_dh_editor_opens_with_the_exact_value(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    r = dh_row(window, "link3")
    assert window.dh.model.data(window.dh.model.index(r, 3)) == "0.15005"
    for col, text in ((1, "0.0203"), (3, "0.15005"), (2, "-90")):
        editor = open_cell(qtbot, window, r, col)
        assert editor.text() == text
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
    window.dh.units_combo.setCurrentIndex(1)
    window.dh.units_combo.activated.emit(1)
    editor = open_cell(qtbot, window, r, 2)
    assert editor.text() == "-1.57079632679"  # 12 digits; left as shown, the cell keeps -pi/2
    qtbot.keyClick(editor, Qt.Key.Key_Escape)


@pytest.mark.parametrize("close", ["enter", "click away"])
def test_untouched_dh_editor_is_no_edit(window, qtbot, close):
    doc = window.doc
    doc.open("puma560")
    before, count = doc.serialized(), doc.undo_stack.count()
    view = window.dh.view
    for body in ("link1", "link3", "link4"):
        r = dh_row(window, body)
        for col in range(8):
            if not window.dh.model.flags(window.dh.model.index(r, col)) & Qt.ItemFlag.ItemIsEditable:
                continue
            editor = open_cell(qtbot, window, r, col)
            if close == "enter":
                qtbot.keyClick(editor, Qt.Key.Key_Return)
            else:  # another cell
                qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                                 pos=view.visualRect(view.model().index((r + 1) % 6, 0)).center())
            qtbot.waitUntil(lambda e=editor: QApplication.focusWidget() is not e)
    assert doc.undo_stack.count() == count
    assert doc.serialized() == before


def test_typed_dh_values_arrive_exactly(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    r = dh_row(window, "link2")
    count = doc.undo_stack.count()
    editor = open_cell(qtbot, window, r, 1)
    qtbot.keyClicks(editor, "0.0203")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.a == 0.0203
    editor = open_cell(qtbot, window, r, 2)
    qtbot.keyClicks(editor, "-90")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.alpha == -math.pi / 2
    editor = open_cell(qtbot, window, r, 3)
    qtbot.keyClicks(editor, "-0.4318*2 + (0.1)")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.d == -0.7636  # added in decimal, as typed
    assert doc.undo_stack.count() == count + 3
    assert window.dh.view.currentIndex().row() == r  # the current cell is kept across the edits
    window.dh.units_combo.setCurrentIndex(1)
    window.dh.units_combo.activated.emit(1)
    editor = open_cell(qtbot, window, r, 2)
    qtbot.keyClicks(editor, "pi/2")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert doc.tree.get_body("link2").joint.dh_parameters.alpha == math.pi / 2
    j = doc.tree.get_body("link2").joint  # the engine's transform is the one of the stored row
    assert j.child_to_joint_transform[2, 1] == 1.0 and j.child_to_joint_transform[2, 3] == -0.7636


@pytest.mark.parametrize("text", ["abc", "nan", "inf", "1/0", "0.1.2", "pi pi"])
def test_bad_dh_text_is_refused_in_the_cell(window, qtbot, text):
    doc = window.doc
    doc.open("puma560")
    before, count = doc.serialized(), doc.undo_stack.count()
    r = dh_row(window, "link3")
    editor = open_cell(qtbot, window, r, 1)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert QApplication.focusWidget() is editor  # still open, with the message
    assert editor.styleSheet() == ERROR_STYLE
    assert "a of link3" in editor.toolTip() and repr(text) in editor.toolTip()
    assert window.dh.error_label.isVisible() and editor.toolTip() == plain_tip(window.dh.error_label.text())
    assert doc.serialized() == before and doc.undo_stack.count() == count
    # leaving it leaves the message on the cell itself
    window.joint.fields["mass"].setFocus()
    qtbot.waitUntil(lambda: window.dh.model.error_at(window.dh.model.index(r, 1)) != "")
    idx = window.dh.model.index(r, 1)
    assert "a of link3" in idx.data(Qt.ItemDataRole.ToolTipRole)
    assert idx.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert idx.data() == "0.0203"
    assert doc.serialized() == before and doc.undo_stack.count() == count


def test_dh_limit_error_in_degrees(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    before = doc.serialized()
    r = dh_row(window, "link3")
    editor = open_cell(qtbot, window, r, 6)  # min
    qtbot.keyClicks(editor, "200.123456789")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    message = editor.toolTip()
    hi = math.degrees(doc.tree.get_body("link3").joint.position_limits[1])
    assert f"min 200.123° is above max {hi:.6g}°" in message, message
    assert max(significant_digits(message.split(":", 1)[1])) <= 6
    assert doc.serialized() == before


# --- Joint panel -------------------------------------------------------------------------------
def test_joint_panel_unchanged_xyz_keeps_a_dh_frame(window, qtbot):
    """Puma link3 (standard DH): Enter in the shown xyz used to move its origin 0.0203 → 0.0406."""
    doc = window.doc
    doc.open("puma560")
    doc.select("link3")
    panel = window.joint
    before, count, P = doc.serialized(), doc.undo_stack.count(), poses(doc)
    for key in ("xyz", "rpy", "dh_a", "dh_alpha", "dh_d"):
        field = panel.fields[key]
        type_into(qtbot, field, field.text())
        assert doc.undo_stack.count() == count, key
    assert panel.fields["dh_a"].text() == "0.0203" and panel.fields["dh_d"].text() == "0.15005"
    assert panel.fields["dh_alpha"].text() == "-90"
    assert doc.serialized() == before
    np.testing.assert_array_equal(poses(doc), P)


def robots(tmp_path):
    for name in list_robots():
        if robot_info(name)["convention"] != "loops":  # a looped tree's random configurations are open
            yield name, load_robot(name)
    for name, text in (("urdf_chain", CHAIN), ("urdf_all_types", ALL_TYPES)):
        path = tmp_path / f"{name}.urdf"
        path.write_text(text)
        yield name, import_robot(path)


@pytest.mark.parametrize("degrees", [True, False])
def test_recommitting_any_shown_transform_keeps_every_pose(window, qtbot, tmp_path, degrees):
    """Every joint of every library robot and URDF fixture: Enter in each shown field, first with
    the shown text, then with each number retyped in parentheses (read by the parser); for some
    robots angles are also changed and then typed back as shown."""
    doc, panel = window.doc, window.joint
    panel.units_button.setChecked(degrees)
    checked = 0
    for name, tree in robots(tmp_path):
        doc.load(tree)
        for body in tree.body_names:
            doc.select(body)
            keys = ["xyz", "rpy"] + [k for k in ("dh_a", "dh_alpha", "dh_d", "dh_theta")
                                     if panel.dh_box.isVisible() and panel.fields[k].isEnabled()]
            for key in keys:
                field = panel.fields[key]
                P, start = poses(doc), doc.undo_stack.index()
                text = field.text()
                paste_into(qtbot, field, text)
                assert doc.undo_stack.index() == start, (name, body, key)
                # retyped (in parentheses) the shown text is read: 12 digits of the stored value
                paste_into(qtbot, field, "  ".join(f"({w})" for w in text.split()))
                assert not field.error, (name, body, key, field.error)
                assert np.abs(poses(doc) - P).max() <= 1e-10, (name, body, key, text)
                doc.undo_stack.setIndex(start)
                if degrees and key != "xyz" and name in CHANGE_AND_BACK:  # the commit path, not "no change"
                    shown = doc.undo_stack.index()
                    paste_into(qtbot, field, "  ".join(f"{w}+0.5" for w in text.split()))
                    assert doc.undo_stack.index() == shown + 1 and not field.error, (name, body, key)
                    paste_into(qtbot, field, text)
                    assert not field.error, (name, body, key, field.error)
                    assert np.abs(poses(doc) - P).max() <= 1e-10, (name, body, key, text)
                    doc.undo_stack.setIndex(start)  # a DH joint turned by rpy is a matrix now
                    np.testing.assert_array_equal(poses(doc), P)
                checked += 1
    assert checked > 2 * 127


def test_xyz_moves_the_joint_origin_by_exactly_the_typed_change(window, qtbot, tmp_path):
    doc, panel = window.doc, window.joint
    trees = dict(robots(tmp_path))
    for name in ("puma560", "puma560_mdh", "panda", "urdf_all_types"):
        doc.load(trees[name])
        for body in doc.tree.body_names:
            doc.select(body)
            before = doc.tree.copy()
            j0 = before.get_body(body).joint
            x, y, z = j0.joint_to_parent_transform[:3, 3]
            typed = exact_text(x + 0.125)
            paste_into(qtbot, panel.fields["xyz"], f"{typed} {exact_text(y)} {exact_text(z)}")
            j = doc.tree.get_body(body).joint
            T0, T = j0.joint_to_parent_transform, j.joint_to_parent_transform
            assert T[0, 3] == float(typed) and T[1, 3] == y and T[2, 3] == z, (name, body)
            np.testing.assert_array_equal(T[:3, :3], T0[:3, :3])
            np.testing.assert_array_equal(j.child_to_joint_transform, j0.child_to_joint_transform)
            for other in before.bodies:  # nothing else changed
                if other.name != body:
                    o = doc.tree.get_body(other.name).joint
                    np.testing.assert_array_equal(o.joint_to_parent_transform, other.joint.joint_to_parent_transform)
                    np.testing.assert_array_equal(o.child_to_joint_transform, other.joint.child_to_joint_transform)
            # the body moved by the typed change, expressed in its parent's frame
            q = before.home_configuration()
            parent = before.parent_name(body)
            Rp = np.eye(3) if parent == before.base_name else before.get_transform(q, parent)[:3, :3]
            moved = doc.tree.get_transform(q, body)[:3, 3] - before.get_transform(q, body)[:3, 3]
            np.testing.assert_allclose(moved, Rp @ [float(typed) - x, 0, 0], atol=1e-12)
            doc.undo_stack.undo()


@pytest.mark.parametrize("key, text, expected", [
    ("rpy", "0 -90 0", [0.0, -math.pi / 2, 0.0]),
    ("rpy", "pi/2*180/pi 0 0", [math.pi / 2, 0.0, 0.0]),
    ("offset", "-90", -math.pi / 2),
    ("home", "45", math.pi / 4),
])
def test_typed_joint_values_arrive_exactly(window, qtbot, key, text, expected):
    doc = window.doc
    doc.open("two_link_planar")
    doc.select("link2")
    type_into(qtbot, window.joint.fields[key], text)
    j = doc.tree.get_body("link2").joint
    if key == "rpy":
        from kinetree.core.transforms import rpy_to_matrix
        np.testing.assert_array_equal(j.joint_to_parent_transform[:3, :3], rpy_to_matrix(expected))
    else:
        assert getattr(j, {"offset": "offset", "home": "home_position"}[key]) == expected


@pytest.mark.parametrize("degrees, key, text, expected", [
    (True, "home", "500", "home 500° is outside the limits [-180°, 180°]"),
    (True, "limits", "100 -100.5", "limits: min 100° is above max -100.5°"),
    (True, "limits", "10 20", "limits [10°, 20°] leave out the home position 0°: move home first"),
    (False, "home", "4", "home 4 rad is outside the limits [-3.14159 rad, 3.14159 rad]"),
    (True, "xyz", "1 nan 0", "xyz: 'nan' is not a number"),
    (True, "mass", "heavy", "mass: 'heavy' is not a number"),
])
def test_refused_joint_value_is_explained_in_place(window, qtbot, degrees, key, text, expected):
    doc, panel = window.doc, window.joint
    doc.open("two_link_planar")
    doc.select("link2")
    panel.units_button.setChecked(degrees)
    before, count = doc.serialized(), doc.undo_stack.count()
    field = panel.fields[key]
    type_into(qtbot, field, text)
    assert field.error.startswith(expected), field.error
    assert field.styleSheet() == ERROR_STYLE and field.toolTip() == plain_tip(field.error)
    assert field.message.isVisible() and field.message.text() == field.error  # under the field
    assert max(significant_digits(field.error), default=0) <= 6
    assert doc.serialized() == before and doc.undo_stack.count() == count


def test_nothing_selected_shows_nothing(window):
    doc, panel = window.doc, window.joint
    doc.open("puma560")
    doc.select("link3")
    assert panel.fields["xyz"].text()
    doc.select(None)
    assert all(f.text() == "" for f in panel.fields.values())
    assert panel.matrix_label.text() == "" and panel.dh_label.text() == "" and panel.child_label.text() == ""
    assert panel.type_combo.currentText() == "" and panel.visual_list.count() == 0
    assert not panel.isEnabled()


# --- joint spin boxes --------------------------------------------------------------------------
def test_joint_spin_box_exact(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    spin = window.sliders.rows["q3"].spin
    count = doc.undo_stack.count()
    q3 = lambda: doc.configuration[doc.tree.position_index("q3")][0]  # noqa: E731
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "-90")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert q3() == -math.pi / 2 and doc.undo_stack.count() == count + 1
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)  # untouched: no edit
    window.dh.view.setFocus()
    qtbot.waitUntil(lambda: not spin.hasFocus())
    assert doc.undo_stack.count() == count + 1
    assert spin.lineEdit().text() == "-90°"
    # a value no short text reaches: 6 digits shown, the exact text while editing, kept as it is
    doc.set_joint_position("q3", 0.3)
    assert spin.lineEdit().text() == "17.1887°"
    count = doc.undo_stack.count()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    assert spin.lineEdit().text() == "17.1887338539°"  # 12 digits of 17.188733853924695
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    window.dh.view.setFocus()
    qtbot.waitUntil(lambda: not spin.hasFocus())
    assert q3() == 0.3 and doc.undo_stack.count() == count
    # radians: pi/2 arrives exactly
    window.sliders.angle_units.setCurrentIndex(1)
    window.sliders.angle_units.activated.emit(1)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), "pi/4")
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert q3() == math.pi / 4


@pytest.mark.parametrize("text, expected", [
    ("abc", "q3: 'abc' is not a number"),
    ("nan", "q3: 'nan' is not a number"),
    ("1000.123456", "q3: 1000.12° is outside the limits ["),
])
def test_joint_spin_box_refuses_in_place(window, qtbot, text, expected):
    doc = window.doc
    doc.open("puma560")
    spin = window.sliders.rows["q3"].spin
    before, count = doc.configuration, doc.undo_stack.count()
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    assert spin.error.startswith(expected), spin.error
    assert spin.toolTip() == plain_tip(spin.error) and "#e05050" in spin.styleSheet()
    assert spin.lineEdit().text().startswith(text)  # what was typed stays, to be corrected
    assert max(significant_digits(spin.error), default=0) <= 6
    np.testing.assert_array_equal(doc.configuration, before)
    assert doc.undo_stack.count() == count


def test_dh_edit_keeps_scroll_position_and_current_cell(window, qtbot):
    doc = window.doc
    doc.load(doc.tree.__class__())
    assert window.dh.paste_text("\n".join(f"0.1 0 {k / 100} 0" for k in range(40)))
    view = window.dh.view
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(bar.maximum())
    scrolled = bar.value()
    row = view.rowAt(view.viewport().height() - 5)
    editor = open_cell(qtbot, window, row, 1)
    qtbot.keyClicks(editor, "0.0203")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert window.dh.model.entries[row].link.a == 0.0203
    assert bar.value() == scrolled
    assert (view.currentIndex().row(), view.currentIndex().column()) == (row, 1)
