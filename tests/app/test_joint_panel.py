"""Joint panel: the visuals list editor and the mimic row, driven through the real widgets."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from helpers.gui_actions import choose, type_into
from helpers.panels import click, click_row, undo_all
from kinetree.app.panels.joint import ERROR_STYLE
from kinetree.core import Joint, load_robot
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog


def labels(panel) -> list[str]:
    lw = panel.visual_list
    return [lw.item(i).text() for i in range(lw.count())]


def test_visual_list_add_edit_remove_undo(window, panel, qtbot, monkeypatch):
    doc = window.doc
    original, start = doc.serialized(), doc.undo_stack.count()
    n0 = len(doc.tree.get_body("link1").visuals)
    assert panel.visual_list.count() == n0

    click(qtbot, panel.add_visual_buttons["box"])
    click(qtbot, panel.add_visual_buttons["cylinder"])
    visuals = doc.tree.get_body("link1").visuals
    assert [v.kind for v in visuals[n0:]] == ["box", "cylinder"]
    assert labels(panel)[n0:] == [f"box {n0 + 1}", f"cylinder {n0 + 2}"]
    assert panel.visual_list.currentRow() == n0 + 1  # the new one is selected
    assert panel.visual_size_label.text().startswith("Radius length")

    # select the first added (the box) and resize it: one step, selection kept
    click_row(qtbot, panel.visual_list, n0)
    assert panel.visual_index == n0 and panel.visual_kind.currentText() == "box"
    type_into(qtbot, panel.fields["visual_size"], "0.3 0.2 0.1")
    assert doc.tree.get_body("link1").visuals[n0].size == (0.3, 0.2, 0.1)
    assert doc.undo_stack.count() == start + 3
    assert panel.visual_list.currentRow() == n0
    assert panel.fields["visual_size"].text() == "0.3  0.2  0.1"

    # pose: xyz, then roll/pitch/yaw in degrees
    type_into(qtbot, panel.fields["visual_xyz"], "0.1 0 0.05")
    type_into(qtbot, panel.fields["visual_rpy"], "0 90 0")
    T = doc.tree.get_body("link1").visuals[n0].matrix
    np.testing.assert_allclose(T[:3, 3], [0.1, 0, 0.05])
    np.testing.assert_allclose(T[:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-12)

    # colour through the dialog
    monkeypatch.setattr(QColorDialog, "getColor", staticmethod(lambda *a, **k: QColor(255, 0, 0)))
    click(qtbot, panel.visual_color)
    assert doc.tree.get_body("link1").visuals[n0].color == (1.0, 0.0, 0.0, 1.0)
    assert panel.visual_color.text() == "#ff0000"
    assert panel.visual_list.currentRow() == n0
    # only the alpha changed in the dialog: the other channels keep their exact floats
    def recolour(t):
        body = t.get_body("link1")
        body.visuals = [replace(v, color=(0.55, 0.25, 0.1, 1.0)) if i == n0 else v for i, v in enumerate(body.visuals)]

    doc.edit("colour", recolour)
    monkeypatch.setattr(QColorDialog, "getColor", staticmethod(lambda c, *a, **k: QColor.fromRgbF(c.redF(), c.greenF(),
                                                                                                  c.blueF(), 0.5)))
    click(qtbot, panel.visual_color)
    color = doc.tree.get_body("link1").visuals[n0].color
    assert color[:3] == (0.55, 0.25, 0.1) and abs(color[3] - 0.5) < 1e-4
    # a cancelled dialog changes nothing
    count = doc.undo_stack.count()
    monkeypatch.setattr(QColorDialog, "getColor", staticmethod(lambda *a, **k: QColor()))
    click(qtbot, panel.visual_color)
    assert doc.undo_stack.count() == count

    # the kind: box -> sphere keeps roughly the same extent
    choose(qtbot, panel.visual_kind, "sphere")
    assert doc.tree.get_body("link1").visuals[n0].kind == "sphere"
    assert doc.tree.get_body("link1").visuals[n0].size == (pytest.approx(0.15),)
    assert panel.visual_size_label.text() == "Radius (m)"

    # remove the cylinder
    click_row(qtbot, panel.visual_list, n0 + 1)
    click(qtbot, panel.remove_visual_button)
    assert [v.kind for v in doc.tree.get_body("link1").visuals[n0:]] == ["sphere"]
    assert panel.visual_list.currentRow() == n0
    assert doc.undo_stack.count() == start + 10  # add, add, size, xyz, rpy, colour x3, kind, remove

    undo_all(doc)
    assert doc.serialized() == original
    assert panel.visual_list.count() == n0


@pytest.mark.parametrize("text", ["0 0.1 0.1", "0", "a b c", "0.1 -0.1 0.1"])
def test_bad_visual_size_is_refused(window, panel, qtbot, text):
    doc = window.doc
    click(qtbot, panel.add_visual_buttons["box"])
    before, count = doc.serialized(), doc.undo_stack.count()
    field = panel.fields["visual_size"]
    type_into(qtbot, field, text)
    assert field.error and "box" in field.error
    assert field.styleSheet() == ERROR_STYLE
    assert panel.error_label.text() == field.error
    assert doc.serialized() == before
    assert doc.undo_stack.count() == count
    type_into(qtbot, field, "0.2 0.2 0.2")  # a good value clears the error
    assert field.error == "" and field.styleSheet() == ""
    assert doc.undo_stack.count() == count + 1


def test_visual_editors_disabled_without_visuals(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    doc.edit("Clear", lambda t: setattr(t.get_body("link2"), "visuals", ()))
    doc.select("link2")
    panel = window.joint
    assert panel.visual_list.count() == 0
    for w in (panel.remove_visual_button, panel.visual_color, panel.fields["visual_size"], panel.visual_kind):
        assert not w.isEnabled()
    click(qtbot, panel.add_visual_buttons["sphere"])
    assert panel.visual_list.currentRow() == 0 and panel.fields["visual_size"].isEnabled()
    assert panel.fields["visual_size"].text() == "0.06"


def test_set_mimic_through_widgets_and_undo(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    original, start = doc.serialized(), doc.undo_stack.count()
    ref = load_robot("two_link_planar")
    assert set(window.sliders.rows) == {"q1", "q2"}
    doc.select("link2")
    panel = window.joint
    assert panel.mimic_combo.isEnabled()
    assert [panel.mimic_combo.itemText(i) for i in range(panel.mimic_combo.count())] == ["(none)", "q1"]
    assert not panel.fields["mimic_multiplier"].isEnabled()

    choose(qtbot, panel.mimic_combo, "q1")
    m = doc.tree.get_body("link2").joint.mimic
    assert (m.joint, m.multiplier, m.offset) == ("q1", 1.0, 0.0)
    assert doc.undo_stack.count() == start + 1
    type_into(qtbot, panel.fields["mimic_multiplier"], "2")
    type_into(qtbot, panel.fields["mimic_offset"], "10")  # degrees
    m = doc.tree.get_body("link2").joint.mimic
    assert m.multiplier == 2.0 and m.offset == pytest.approx(math.radians(10))
    assert doc.undo_stack.count() == start + 3
    assert "mimics q1" in panel.title.text()
    assert panel.fields["limits"].isEnabled() and panel.fields["home"].isEnabled()

    # forward kinematics follows the leader; the sliders no longer list the follower
    assert doc.tree.position_count == 1
    a = 0.3
    poses = doc.tree.forward_kinematics([a])
    expected = ref.forward_kinematics([a, 2 * a + math.radians(10)])
    np.testing.assert_allclose(poses, expected, atol=1e-12)
    assert set(window.sliders.rows) == {"q1"}

    undo_all(doc)
    assert doc.serialized() == original
    assert set(window.sliders.rows) == {"q1", "q2"}
    assert doc.tree.get_body("link2").joint.mimic is None
    assert doc.tree.position_count == 2
    assert panel.mimic_combo.currentText() == "(none)"


def test_mimic_refused_in_place(window, qtbot):
    doc = window.doc
    doc.open("puma560")
    doc.select("link3")
    panel = window.joint
    choose(qtbot, panel.mimic_combo, "q2")
    assert doc.tree.get_body("link3").joint.mimic.joint == "q2"
    before, count = doc.serialized(), doc.undo_stack.count()
    doc.select("link2")
    assert "q3" not in [panel.mimic_combo.itemText(i) for i in range(panel.mimic_combo.count())]  # a mimic
    choose(qtbot, panel.mimic_combo, "q1")  # q3 mimics q2, so q2 cannot follow anyone
    assert "q3" in panel.error_label.text() and "mimic" in panel.error_label.text()
    assert panel.mimic_combo.currentText() == "(none)"
    assert doc.serialized() == before
    assert doc.undo_stack.count() == count
    # a bad multiplier on a mimic joint is refused in place too
    doc.select("link3")
    field = panel.fields["mimic_multiplier"]
    type_into(qtbot, field, "two")
    assert field.error and field.styleSheet() == ERROR_STYLE
    assert doc.serialized() == before
    # "(none)" stops mimicking, in one step
    choose(qtbot, panel.mimic_combo, "(none)")
    assert doc.tree.get_body("link3").joint.mimic is None
    assert doc.undo_stack.count() == count + 1
    assert not panel.fields["mimic_multiplier"].isEnabled()


def test_mimic_row_disabled_for_fixed_joints(window):
    window.doc.open("two_link_planar")
    window.doc.edit("fix", lambda t: t.replace_joint("link2", Joint("q2")))
    window.doc.select("link2")
    assert not window.joint.mimic_combo.isEnabled()
    assert not window.joint.fields["mimic_offset"].isEnabled()


def test_panel_screenshot(window, panel, tmp_path):
    window.doc.select("link2")
    window.joint.visual_index = 1
    window.joint.refresh()
    assert window.joint.visual_list.currentRow() == 1
    img = window.joint.grab()
    assert not img.isNull()
    img.save(str(tmp_path / "joint_panel.png"))


def test_mesh_visual_shows_file_and_scale(window, qtbot):
    doc = window.doc
    doc.open("two_link_planar")
    doc.edit("mesh", lambda t: t.get_body("link2").add_visual("mesh", (1, 1, 1), filename="meshes/forearm.stl"))
    doc.select("link2")
    panel = window.joint
    last = panel.visual_list.count() - 1
    assert panel.visual_list.item(last).text().endswith("(forearm.stl)")
    click_row(qtbot, panel.visual_list, last)
    assert panel.visual_file.isVisibleTo(panel) and panel.visual_file.isReadOnly()
    assert panel.visual_file.text() == "meshes/forearm.stl"
    assert panel.visual_size_label.text().startswith("Scale")
    type_into(qtbot, panel.fields["visual_size"], "0.001 0.001 0.001")
    v = doc.tree.get_body("link2").visuals[last]
    assert v.size == (0.001, 0.001, 0.001) and v.filename == "meshes/forearm.stl"
    click_row(qtbot, panel.visual_list, 0)
    assert not panel.visual_file.isVisibleTo(panel)


def test_a_refresh_that_changes_nothing_repaints_nothing(window, panel, qtbot):
    """A drag's commits refresh the panel several times a second: fields showing the same
    value are not restyled, and the visuals list is not refilled, so nothing is repainted."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QWidget

    class Paints(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[str] = []

        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() in (QEvent.Type.Paint, QEvent.Type.LayoutRequest):
                self.seen.append(f"{event.type().name} {obj.objectName() or type(obj).__name__}")
            return False

    window.show()
    qtbot.waitExposed(window)
    paints = Paints()
    widgets = [panel, *panel.findChildren(QWidget)]
    for w in widgets:
        w.installEventFilter(paints)
    for _ in range(40):  # until the window's first layouts and paints are over
        paints.seen.clear()
        qtbot.wait(50)
        if not paints.seen:
            break
    assert paints.seen == []
    items = [panel.visual_list.item(i) for i in range(panel.visual_list.count())]
    panel.refresh()
    qtbot.wait(100)
    assert paints.seen == []
    assert [panel.visual_list.item(i) for i in range(panel.visual_list.count())] == items
    T = np.eye(4)
    T[:3, 3] = (0.25, 0.5, 0.0)
    window.doc.edit("moved", lambda t: t.get_body("link1").joint.set_fixed_transform(T))
    qtbot.wait(50)
    assert panel.fields["xyz"].text().split() == ["0.25", "0.5", "0"]  # what changed is shown
    assert paints.seen  # and painted
    for w in widgets:
        w.removeEventFilter(paints)


def test_an_inertia_off_the_triangle_inequality_is_kept_and_the_window_says_why(window, qtbot):
    window.doc.open("two_link_planar")
    window.doc.select("link1")
    type_into(qtbot, window.joint.fields["inertia"], "0 0.35 0 0 0 0")  # Corke's Puma link 1, as he publishes it
    np.testing.assert_array_equal(window.doc.tree.get_body("link1").inertia, [0, 0.35, 0, 0, 0, 0])
    message = window.statusBar().currentMessage()
    assert "link1" in message and "≥" in message, message
