"""DH panel and Joints panel: build an arm from the table, scrub it, one undo step per drag."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import RigidBodyTree
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def _lecture_arm_by_buttons(window) -> None:
    window.new_document()
    assert window.doc.tree.num_bodies == 0
    add = window.dh.buttons["add"]
    assert add.objectName() == "dh_add"
    add.click()
    add.click()
    model = window.dh.model
    assert model.rowCount() == 2
    assert model.setData(model.index(0, 1), 1)
    assert model.setData(model.index(1, 1), 0.5)


def test_two_link_arm_from_dh_buttons(window):
    _lecture_arm_by_buttons(window)
    assert list(window.sliders.rows) == ["q1", "q2"]
    window.sliders.rows["q1"].spin.setValue(60)
    window.sliders.rows["q2"].spin.setValue(30)
    assert window.pose.body_combo.currentText() == window.doc.tree.body_names[-1]
    assert window.pose.labels["x"].text().strip() == "0.5000"
    assert window.pose.labels["y"].text().strip() == "1.3660"
    assert window.pose.labels["z"].text().strip() == "0.0000"
    assert window.isWindowModified()


def test_two_link_arm_from_dh_paste(window):
    _lecture_arm_by_buttons(window)
    built = window.doc.tree
    window.doc.load(RigidBodyTree())
    assert window.dh.paste_text("1 0 0 0\n0.5 0 0 0")
    pasted = window.doc.tree
    assert pasted.num_bodies == 2
    assert [e.link.a for e in window.dh.model.entries] == [1.0, 0.5]
    q = [0.3, -1.1]
    assert abs(pasted.forward_kinematics(q) - built.forward_kinematics(q)).max() < 1e-12
    window.sliders.rows["q1"].spin.setValue(60)
    window.sliders.rows["q2"].spin.setValue(30)
    assert (window.pose.labels["x"].text().strip(), window.pose.labels["y"].text().strip()) == ("0.5000", "1.3660")


def test_bad_paste_changes_nothing(window):
    window.doc.open("two_link_planar")
    before = window.doc.serialized()
    count = window.doc.undo_stack.count()
    assert not window.dh.paste_text("1 0 zz 0")
    assert "not a number" in window.statusBar().currentMessage()
    assert window.doc.serialized() == before
    assert window.doc.undo_stack.count() == count


def test_slider_drag_is_one_undo_step(window):
    window.doc.open("two_link_planar")
    row = window.sliders.rows["q1"]
    stack = window.doc.undo_stack
    count = stack.count()
    y0 = window.pose.labels["y"].text().strip()
    row.slider.sliderPressed.emit()
    row.slider.setValue(1200)
    y1 = window.pose.labels["y"].text().strip()
    assert y1 != y0  # the pose follows the drag live
    for tick in (1300, 1400, 1500):
        row.slider.setValue(tick)
        assert window.pose.labels["y"].text().strip() != y1
    row.slider.sliderReleased.emit()
    assert stack.count() == count + 1
    q_after = window.doc.configuration
    stack.undo()
    assert window.doc.configuration.tolist() == [0.0, 0.0]
    assert window.pose.labels["y"].text().strip() == y0
    stack.redo()
    assert window.doc.configuration.tolist() == q_after.tolist()
    # a second drag is a second step
    row.slider.sliderPressed.emit()
    row.slider.setValue(200)
    row.slider.setValue(300)
    row.slider.sliderReleased.emit()
    assert stack.count() == count + 2


def test_keyboard_spin_steps_are_separate_commands(window):
    window.doc.open("two_link_planar")
    spin = window.sliders.rows["q2"].spin
    stack = window.doc.undo_stack
    count = stack.count()
    spin.setFocus()
    for _ in range(3):
        QTest.keyClick(spin, Qt.Key.Key_Up)
    assert stack.count() == count + 3
    assert abs(window.doc.configuration[1] - 0.0523598776) < 1e-6  # 3 × 1°
    stack.undo()
    assert abs(spin.value() - 2.0) < 1e-9


def test_editing_a_dh_row_redraws_the_library_links(window):
    """A lecturer changes a₁ of the two-link arm: the drawn link grows with it; undo shrinks it."""
    window.doc.open("two_link_planar")
    model = window.dh.model

    def drawn_length() -> float:
        return max(v.size[1] for v in window.doc.tree.get_body("link1").visuals if v.name == "link")

    assert drawn_length() == pytest.approx(1.0)
    assert model.setData(model.index(0, 1), 1.5)
    assert drawn_length() == pytest.approx(1.5)
    np.testing.assert_allclose(window.doc.tree.get_transform([0, 0], "link2")[:3, 3], [2.0, 0, 0], atol=1e-12)
    window.doc.undo_stack.undo()
    assert drawn_length() == pytest.approx(1.0)
