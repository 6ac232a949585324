"""Issue 17, "values that change without a word": what the user does in the app."""

from __future__ import annotations

import numpy as np
from kinetree.app.panels.dh_table import DhOfChainDialog
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton


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
