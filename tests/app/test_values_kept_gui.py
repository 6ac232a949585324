"""Issue 17, "values that change without a word": what the user does in the app."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui_actions import choose
from helpers.panels import open_cell
from kinetree.app.panels.dh_table import DhOfChainDialog
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton


@pytest.fixture
def window(window, qtbot):
    """The main window, active (keyboard focus moves as a user sees it)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def _set_base(t):
    t.gravity = (0, 0, -9.81)
    t.base.mass = 5.0
    t.base.center_of_mass = [0.01, 0.02, -0.1]
    t.base.inertia = [0.3, 0.4, 0.5, 0.01, 0.02, 0.03]


def test_replace_robot_by_dh_chain_keeps_gravity_and_base(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    doc.edit("Base and gravity", _set_base)
    mass, qn = doc.tree.mass, [0, 0.7854, 3.1416, 0, 0.7854, 0]
    torques = doc.tree.gravity_torque(qn)
    doc.select("link6")
    qtbot.mouseClick(window.dh.buttons["compute"], Qt.MouseButton.LeftButton)  # "DH of chain…"
    dialog = window.dh.findChild(DhOfChainDialog, "dhOfChainDialog")
    assert dialog is not None
    qtbot.mouseClick(dialog.findChild(QPushButton, "dhUseChain"), Qt.MouseButton.LeftButton)
    tree = doc.tree
    np.testing.assert_array_equal(tree.gravity, [0, 0, -9.81])
    assert tree.base.mass == 5.0 and abs(tree.mass - mass) < 1e-12
    np.testing.assert_array_equal(tree.base.center_of_mass, [0.01, 0.02, -0.1])
    np.testing.assert_array_equal(tree.base.inertia, [0.3, 0.4, 0.5, 0.01, 0.02, 0.03])
    np.testing.assert_allclose(tree.gravity_torque(qn), torques, atol=1e-9)


# --- retyping a joint ------------------------------------------------------------------------------


def _q(doc, joint: str) -> float:
    return float(doc.configuration[doc.tree.position_index(joint)][0])


def test_joint_panel_retype_gives_a_position_the_new_joint_allows(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    doc.set_configuration({"q1": 0.0, "q2": np.radians(60)})
    doc.select("link2")
    count = doc.undo_stack.count()
    choose(qtbot, window.joint.type_combo, "prismatic")
    j = doc.tree.get_body("link2").joint
    assert j.type == "prismatic"
    lo, hi = j.position_limits
    q2 = _q(doc, "q2")
    assert lo <= q2 <= hi and q2 == j.home_position  # not 1.047 m
    assert window.sliders.rows["q2"].spin.core == q2  # and that is what the spin box shows
    assert doc.undo_stack.count() == count + 1
    doc.undo_stack.undo()  # one step: the revolute joint at 60° again
    assert doc.tree.get_body("link2").joint.type == "revolute" and _q(doc, "q2") == np.radians(60)


def test_dh_cell_retype_gives_the_new_types_default_limits(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    doc.set_configuration({"q2": np.radians(40)})
    row = [e.body for e in window.dh.model.entries].index("link2")
    before = doc.tree.get_body("link2").joint
    count = doc.undo_stack.count()
    editor = open_cell(qtbot, window, row, 0)
    editor.selectAll()
    qtbot.keyClicks(editor, "P")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    j = doc.tree.get_body("link2").joint
    assert j.type == "prismatic"
    np.testing.assert_array_equal(j.position_limits, [-0.5, 0.5])  # not ±3.14159 "m"
    assert j.offset == before.dh_parameters.d and j.dh_parameters.theta == before.offset  # same link at q = 0
    assert _q(doc, "q2") == j.home_position
    assert doc.undo_stack.count() == count + 1
    editor = open_cell(qtbot, window, row, 0)
    editor.selectAll()
    qtbot.keyClicks(editor, "R")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    j = doc.tree.get_body("link2").joint
    np.testing.assert_array_equal(j.position_limits, [-np.pi, np.pi])
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.tree.get_body("link2").joint.type == "revolute" and _q(doc, "q2") == np.radians(40)
    np.testing.assert_array_equal(doc.tree.get_body("link2").joint.position_limits, before.position_limits)
