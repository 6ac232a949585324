"""Joints are found by joint name, never by body name: a body may be called like another body's
joint (URDF allows it). The command line and the Joints panel move the joint of that name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import shadowed_tree
from kinetree.app.main import main
from kinetree.core import Joint, RigidBody, RigidBodyTree
from kinetree.core.io.project import save_project
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton


@pytest.fixture
def window(window, qtbot):
    """The main window, active (keyboard focus moves as a user sees it)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


@pytest.fixture
def shadowed_file(tmp_path):
    path = tmp_path / "shadow.kinetree.json"
    save_project(shadowed_tree(), path)
    return path


def test_cli_degrees_apply_to_the_revolute_joint_named_elbow(shadowed_file, capsys):
    code = main(["fk", str(shadowed_file), "--deg", "--q", "0.5", "90", "--format", "xyzrpy"])
    out, err = capsys.readouterr()
    assert code == 0, err
    x, y, z, roll, pitch, yaw = (float(v) for v in out.split())
    # 0.5 m of slide (not 0.5°), then 90° at the elbow (not 90 rad): the tool 0.2 m along y
    assert (x, y, z) == pytest.approx((0.8, 0.2, 0.0), abs=1e-9)
    assert (roll, pitch, yaw) == pytest.approx((0.0, 0.0, 90.0), abs=1e-9)


def _type_into(qtbot, spin, text: str) -> None:
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def test_slider_labelled_elbow_moves_the_joint_elbow(window, qtbot, shadowed_file):
    doc = window.doc
    doc.open(str(shadowed_file))
    rows = window.sliders.rows
    assert [rows[k].name.text() for k in rows] == ["slide", "elbow"]
    _type_into(qtbot, rows["elbow"].spin, "45")
    tree, q = doc.tree, doc.configuration
    assert q[tree.position_index("elbow")][0] == pytest.approx(math.pi / 4)
    assert q[tree.position_index("slide")][0] == 0.0
    _type_into(qtbot, rows["slide"].spin, "0.25")
    q = doc.configuration
    np.testing.assert_allclose(q, [0.25, math.pi / 4])
    # the tool moved as the joints say: slide along x, then the elbow turned 45°
    c = math.cos(math.pi / 4)
    np.testing.assert_allclose(doc.tree.get_transform(q, "tool")[:3, 3], [0.55 + 0.2 * c, 0.2 * c, 0], atol=1e-12)


def test_joint_names_with_dots_have_working_controls(window, qtbot, tmp_path):
    tree = RigidBodyTree()
    arm = RigidBody("arm")
    arm.joint = Joint("arm.x", "revolute")  # looks like the x channel of a joint called "arm"
    tree.add_body(arm, "base")
    plate = RigidBody("plate")
    plate.joint = Joint("v1.2", "planar")
    tree.add_body(plate, "arm")
    path = tmp_path / "dots.kinetree.json"
    save_project(tree, path)
    doc = window.doc
    doc.open(str(path))
    _type_into(qtbot, window.sliders.rows["arm.x"].spin, "30")
    _type_into(qtbot, window.sliders.rows["v1.2.1"].spin, "0.5")  # the planar joint's y
    q = doc.configuration
    np.testing.assert_allclose(q, [math.radians(30), 0.0, 0.5, 0.0])


def test_random_button_with_unbounded_and_huge_limits(window, qtbot, tmp_path):
    tree = RigidBodyTree()
    parent = "base"
    for name, jtype, limits, home in (("a", "revolute", [5, math.inf], 5.0),
                                      ("b", "revolute", [-1e308, 1e308], 0.0),
                                      ("c", "prismatic", [0.3, math.inf], 0.3)):
        body = RigidBody(name)
        body.joint = Joint(f"j{name}", jtype)
        body.joint.set_limits(limits, home=home)
        tree.add_body(body, parent)
        parent = name
    path = tmp_path / "unbounded.kinetree.json"
    save_project(tree, path)
    doc = window.doc
    doc.open(str(path))
    button = window.sliders.findChild(QAbstractButton, "joints_random")
    assert button.isVisible()
    for _ in range(5):
        before = doc.configuration.copy()
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        q = doc.configuration
        assert not np.array_equal(q, before)
        assert np.isfinite(q).all()
        assert 5 <= q[0] <= 5 + math.pi and -math.pi <= q[1] <= math.pi and 0.3 <= q[2] <= 1.3
    # the sliders span the same finite windows, inside the limits (they spanned -pi..pi for (5, inf))
    spans = {key: (row.lo, row.hi) for key, row in window.sliders.rows.items()}
    assert spans == {"ja": (5.0, 5.0 + math.pi), "jb": (-math.pi, math.pi), "jc": (0.3, 1.3)}
    slider = window.sliders.rows["ja"].slider
    slider.setValue(slider.minimum())
    assert doc.configuration[0] == 5.0
