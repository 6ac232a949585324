"""Geometry from the GUI (issue 18 item 4): the base gets mass and shapes, mesh files are added
by a button or by dropping them on a body, and "Mass from geometry" fills the mass properties.
Driven through the real widgets and events; the engine's tree is read back."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from helpers.arm import arm_window, box
from helpers.gui import pixel
from helpers.gui_actions import type_into
from helpers.meshes import cube
from helpers.panels import click
from kinetree.core.io.project import load_project
from kinetree.core.io.urdf.read import import_urdf
from lxml import etree
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QMessageBox


@pytest.fixture
def win(make_window):
    return arm_window(make_window)


def drop(window, path, at: QPoint) -> bool:
    """Drag ``path`` over the window and drop it at ``at`` (window coordinates)."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(at, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    ev = QDropEvent(QPointF(at), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, ev)
    return enter.isAccepted()


def test_the_base_gets_mass_and_a_box_and_keeps_them_through_project_and_urdf(win, qtbot, tmp_path):
    doc, panel = win.doc, win.joint
    base = doc.tree.base_name
    doc.select(base)
    assert panel.isEnabled() and panel.fields["mass"].isEnabled()
    assert not panel.type_combo.isEnabled() and not panel.fixed_group.isEnabled()  # no joint
    type_into(qtbot, panel.fields["mass"], "4.5")
    assert doc.tree.base.mass == 4.5
    type_into(qtbot, panel.fields["com"], "0 0 0.05")
    click(qtbot, panel.add_visual_buttons["box"])
    assert [v.kind for v in doc.tree.base.visuals] == ["box"]
    type_into(qtbot, panel.fields["visual_size"], "0.3 0.3 0.1")
    assert doc.tree.base.visuals[0].size == (0.3, 0.3, 0.1)
    doc.save(tmp_path / "r.kinetree.json")
    doc.export(tmp_path / "r.urdf")
    for tree in (load_project(tmp_path / "r.kinetree.json")[0], import_urdf(tmp_path / "r.urdf")):
        assert tree.base.mass == 4.5 and tree.base.center_of_mass.tolist() == [0, 0, 0.05]
        assert [(v.kind, v.size) for v in tree.base.visuals] == [("box", (0.3, 0.3, 0.1))]
    doc.undo_stack.undo()  # the size, then the box
    doc.undo_stack.undo()
    assert doc.tree.base.visuals == ()


def test_add_mesh_button_adds_the_file_to_the_selected_body_in_one_step(win, qtbot, tmp_path, monkeypatch):
    doc, panel = win.doc, win.joint
    path = cube(tmp_path / "part.stl")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    doc.select("fore")
    count = doc.undo_stack.count()
    click(qtbot, panel.visuals.add_mesh_button)
    fore = doc.tree.get_body("fore")
    assert [(v.kind, v.filename) for v in fore.visuals][-1] == ("mesh", str(path))
    assert doc.undo_stack.count() == count + 1
    assert panel.visual_list.currentRow() == len(fore.visuals) - 1 and panel.visual_file.text() == str(path)
    bad = tmp_path / "bad.stl"
    bad.write_bytes(b"solid nothing here")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(bad), "")))
    click(qtbot, panel.visuals.add_mesh_button)
    assert doc.undo_stack.count() == count + 1 and "bad.stl" in panel.error_label.text()


def test_a_mesh_dropped_on_a_body_goes_on_that_body(win, qtbot, tmp_path):
    doc, vp = win.doc, win.viewport
    path = cube(tmp_path / "bracket.obj", (0.05, 0.05, 0.05))
    count = doc.undo_stack.count()
    at = vp.mapTo(win, pixel(vp, [0.85, 0, 0]))  # the middle of fore's box
    assert drop(win, path, at)
    qtbot.waitUntil(lambda: doc.undo_stack.count() == count + 1)
    assert doc.tree.get_body("fore").visuals[-1].filename == str(path)
    assert doc.tree.get_body("upper").visuals[-1].kind == "box"
    assert doc.selection == "fore" and doc.tree.num_bodies == 3  # added, not opened as a robot
    doc.undo_stack.undo()
    assert [v.kind for v in doc.tree.get_body("fore").visuals] == ["box"]


def test_a_mesh_dropped_on_empty_space_asks_which_body(win, qtbot, tmp_path, monkeypatch):
    doc, vp = win.doc, win.viewport
    path = cube(tmp_path / "plate.ply")
    doc.select("upper")
    asked = []

    def get_item(_parent, _title, _label, items, current, _editable):
        asked.append((list(items), current))
        return "tool", True

    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(get_item))
    count = doc.undo_stack.count()
    assert drop(win, path, vp.mapTo(win, QPoint(8, vp.height() - 8)))  # a corner: nothing drawn
    qtbot.waitUntil(lambda: doc.undo_stack.count() == count + 1)
    assert asked == [([doc.tree.base_name, "upper", "fore", "tool"], 1)]  # the selected body first
    assert doc.tree.get_body("tool").visuals[0].filename == str(path)


def test_meshes_keep_their_file_and_package_uri_through_urdf_and_project(win, qtbot, tmp_path, monkeypatch):
    pkg = tmp_path / "ws" / "my_robot"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "meshes").mkdir()
    (pkg / "package.xml").write_text("<package><name>my_robot</name></package>")
    cube(pkg / "meshes" / "link.stl")
    src = pkg / "urdf" / "r.urdf"
    src.write_text('<robot name="r"><link name="base"/><link name="l1"><visual><geometry>'
                   '<mesh filename="package://my_robot/meshes/link.stl"/></geometry></visual></link>'
                   '<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>'
                   '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')
    win.open_source(src, ask=False)
    added = cube(tmp_path / "added.stl")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(added), "")))
    win.doc.select(win.doc.tree.base_name)
    click(qtbot, win.joint.visuals.add_mesh_button)  # a mesh on the base, from the GUI
    out = tmp_path / "out"
    out.mkdir()
    win.doc.save(out / "r.kinetree.json")
    win.doc.export(out / "r.urdf")
    meshes = [m.get("filename") for m in etree.parse(str(out / "r.urdf")).iter("mesh")]
    assert meshes == ["../added.stl", "package://my_robot/meshes/link.stl"]
    # the URDF written outside the package finds it on the package path, as ROS would
    for tree in (load_project(out / "r.kinetree.json")[0], import_urdf(out / "r.urdf", package_paths=[pkg.parent])):
        assert tree.base.visuals[0].filename == str(added)
        assert tree.get_body("l1").visuals[0].filename == str((pkg / "meshes" / "link.stl").resolve())


def box_body(win) -> None:
    """fore's only visual: a 0.1×0.2×0.3 box centred at x = 0.1 (6 kg at 1000 kg/m³)."""
    def set_box(t):
        t.get_body("fore").visuals = (box((0.1, 0.2, 0.3), (0.1, 0, 0)),)

    win.doc.edit("Box", set_box)


def test_mass_from_geometry_fills_mass_com_and_inertia_in_one_step(win, qtbot):
    doc, panel = win.doc, win.joint
    box_body(win)
    doc.select("fore")
    count = doc.undo_stack.count()
    click(qtbot, panel.mass_button)  # the default density: 1000 kg/m³
    fore = doc.tree.get_body("fore")
    assert fore.mass == pytest.approx(6.0)
    assert fore.center_of_mass == pytest.approx([0.1, 0, 0])
    assert fore.inertia == pytest.approx([0.065, 0.11, 0.085, 0, 0, 0], abs=1e-12)
    assert doc.undo_stack.count() == count + 1
    assert panel.fields["mass"].text() == "6"  # 12 digits of 6.000000000000001
    assert panel.fields["mass"].numbers(1, "mass") == [fore.mass]  # left as shown: the engine's value
    type_into(qtbot, panel.density, "2.7 g/cm³")  # Enter in the density field fills too
    assert doc.tree.get_body("fore").mass == pytest.approx(6.0 * 2.7)
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.tree.get_body("fore").mass == 1.0  # as before, in two steps
    type_into(qtbot, panel.density, "-3")
    assert "density" in panel.error_label.text() and doc.undo_stack.count() == count + 2


def test_an_open_mesh_asks_for_its_bounding_box(win, qtbot, tmp_path, monkeypatch):
    doc, panel = win.doc, win.joint
    box = trimesh.creation.box(extents=(0.2, 0.2, 0.2))
    path = tmp_path / "open.stl"
    trimesh.Trimesh(box.vertices, box.faces[:-2]).export(path)
    doc.edit("Open mesh", lambda t: setattr(t.get_body("fore"), "visuals", ()) or
             t.get_body("fore").add_visual("mesh", (1, 1, 1), filename=str(path)))
    doc.select("fore")
    count = doc.undo_stack.count()
    answers = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(QMessageBox, "exec", lambda _box: answers.pop())
    click(qtbot, panel.mass_button)
    assert "encloses no volume" in panel.error_label.text() and doc.undo_stack.count() == count
    answers.append(QMessageBox.StandardButton.Yes)
    click(qtbot, panel.mass_button)
    assert doc.tree.get_body("fore").mass == pytest.approx(8.0) and doc.undo_stack.count() == count + 1
    assert np.allclose(doc.tree.get_body("fore").inertia[:3], 8 / 12 * 0.08)
