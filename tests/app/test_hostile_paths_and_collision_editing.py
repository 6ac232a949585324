"""In the app (issue 9): xacro's $(env) opt-in as a setting, hostile mesh paths (a FIFO) and
collision geometry edited in the Joint panel like visuals."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import replace

import numpy as np
import pytest
from helpers.gui_actions import choose, type_into
from helpers.panels import click, click_row, undo_all
from kinetree.app.viewport.meshes import mesh_file
from kinetree.app.window.xacro_env import HINT, SETTING
from kinetree.core.io import open_robot
from kinetree.core.io.project import save_project
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QMessageBox, QPushButton

ENV_XACRO = """<?xml version="1.0"?>
<robot name="envbot" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <link name="$(env KT_TEST_LINK)"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="$(env KT_TEST_LINK)"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def warnings_shown(window, monkeypatch) -> list[tuple[str, str]]:
    """The window's message boxes, as (title, text), instead of modal dialogs."""
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append((box.windowTitle(), box.text()))
                        or QMessageBox.StandardButton.Ok)
    window.quiet = False  # show_error reaches the (patched) message box
    return shown


def test_env_in_xacro_is_refused_with_a_hint_until_allowed_in_the_file_menu(
        window, warnings_shown, make_window, tmp_path, monkeypatch):
    monkeypatch.setenv("KT_TEST_LINK", "forearm")
    path = tmp_path / "env.urdf.xacro"
    path.write_text(ENV_XACRO)
    action = window.allow_env_action
    assert action.isCheckable() and not action.isChecked()  # off by default
    assert action in window.menuBar().actions()[0].menu().actions()  # in the File menu

    assert not window.open_source(path, ask=False)
    assert len(warnings_shown) == 1
    title, text = warnings_shown[0]
    assert title == "Cannot open"
    assert "$(env KT_TEST_LINK)" in text and "reading environment variables is disabled" in text
    assert text.endswith(HINT) and action.text().replace("&", "") in text
    assert "forearm" not in window.doc.tree.body_names

    action.trigger()  # as the user does from the menu
    assert window.settings.value(SETTING, type=bool)
    assert window.open_source(path, ask=False)
    assert len(warnings_shown) == 1
    assert window.doc.tree.body_names == ["forearm"]

    # remembered: a later window starts allowed; unchecking refuses again
    later = make_window()
    assert later.allow_env_action.isChecked()
    later.allow_env_action.trigger()
    assert not later.settings.value(SETTING, type=bool)
    assert not later.open_source(path, ask=False)


def test_screenshot_reads_env_only_with_allow_env(tmp_path):
    path = tmp_path / "env.urdf.xacro"
    path.write_text(ENV_XACRO)
    png = tmp_path / "shot.png"
    env = {**os.environ, "KT_TEST_LINK": "forearm"}

    def run(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "kinetree.app", "screenshot", str(path), "-o", str(png),
                               "--size", "160x120", *extra], env=env, capture_output=True, text=True, timeout=60)

    r = run()
    assert r.returncode == 1 and not png.exists()
    assert r.stderr.startswith("kinetree screenshot: ") and "--allow-env" in r.stderr
    r = run("--allow-env")
    assert r.returncode == 0, r.stderr
    assert not QImage(str(png)).isNull()


def test_an_error_that_is_not_about_env_gets_no_hint(window, warnings_shown, tmp_path):
    path = tmp_path / "bad.urdf.xacro"
    path.write_text('<robot xmlns:xacro="http://www.ros.org/wiki/xacro"><xacro:nosuchmacro/></robot>')
    assert not window.open_source(path, ask=False)
    assert len(warnings_shown) == 1 and HINT not in warnings_shown[0][1]


FIFO_URDF = """<?xml version="1.0"?>
<robot name="fifo">
  <link name="base"><visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual></link>
  <link name="arm">
    <visual><geometry><mesh filename="MESH"/></geometry></visual>
    <visual><origin xyz="0 0 0.25"/><geometry><cylinder radius="0.05" length="0.5"/></geometry></visual>
    <collision><geometry><mesh filename="MESH"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""
#: A real triangle whose material library is the FIFO: trimesh opens what an OBJ names.
OBJ = "mtllib m.mtl\nv 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nf 1 2 3\n"


def _fifo_robot(tmp_path, source: str, monkeypatch):
    """(robot file, FIFO) for each way a FIFO reaches the mesh loader."""
    urdf = tmp_path / "fifo.urdf"
    if source == "obj_mtllib":
        fifo = tmp_path / "m.mtl"
        (tmp_path / "m.obj").write_text(OBJ)
        urdf.write_text(FIFO_URDF.replace("MESH", "m.obj"))
    else:
        fifo = tmp_path / "m.stl"
        urdf.write_text(FIFO_URDF.replace("MESH", "m.stl"))
    os.mkfifo(fifo)
    if source == "urdf":  # the import finds no file and keeps "m.stl", a name the app's cwd has
        monkeypatch.chdir(tmp_path)
    if source == "project":  # a project names the FIFO by its absolute path
        tree, _ = open_robot(urdf)
        arm = tree.get_body("arm")
        arm.visuals = [replace(arm.visuals[0], filename=str(fifo)), *arm.visuals[1:]]
        arm.collisions = [replace(arm.collisions[0], filename=str(fifo))]
        save_project(tree, tmp_path / "fifo.kinetree.json")
        return tmp_path / "fifo.kinetree.json", fifo
    return urdf, fifo


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("source", ["urdf", "project", "obj_mtllib"])
def test_a_fifo_mesh_is_skipped_and_the_robot_opens(window, qtbot, tmp_path, monkeypatch, source):
    path, fifo = _fifo_robot(tmp_path, source, monkeypatch)
    # watchdog: from 10 s on, whatever still waits to read the FIFO gets a writer (and so an
    # end of file), so that the test fails instead of hanging the suite
    unblocked, stop = threading.Event(), threading.Event()

    def release() -> None:
        stop.wait(10.0)
        while not stop.is_set():
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # succeeds only if a reader waits
                unblocked.set()
            except OSError:
                pass
            stop.wait(0.2)

    watchdog = threading.Thread(target=release, daemon=True)
    watchdog.start()
    try:
        assert window.open_source(path, ask=False)
        window.findChild(QAction, "collisionsAction").trigger()  # draw the collision mesh too
        qtbot.wait(50)
    finally:
        stop.set()
        watchdog.join()
    assert not unblocked.is_set(), "the mesh loader opened the FIFO"
    assert window.doc.tree.body_names == ["arm"]
    assert [v.kind for v in window.doc.tree.get_body("arm").visuals] == ["mesh", "cylinder"]
    img = window.viewport.grabFramebuffer()
    pixels = np.array([img.pixel(x, y) for x in range(0, img.width(), 16) for y in range(0, img.height(), 16)])
    assert len(np.unique(pixels)) > 3  # the robot (box, cylinder, frames) is drawn over the background
    if source == "obj_mtllib":  # the OBJ's own triangle is loaded, without its material
        assert mesh_file(str(tmp_path / "m.obj"), (1, 1, 1)).faceCount() == 1


# --- collision geometry in the Joint panel ---------------------------------------------------
def collision_labels(editor) -> list[str]:
    return [editor.visual_list.item(i).text() for i in range(editor.visual_list.count())]


def test_collision_list_add_edit_remove_undo(window, panel, qtbot, tmp_path):
    doc = window.doc
    ed = panel.collisions
    original, start = doc.serialized(), doc.undo_stack.count()
    visuals = doc.tree.get_body("link1").visuals
    assert doc.tree.get_body("link1").collisions == () and ed.visual_list.count() == 0
    assert ed.title() == "Collisions" and ed.visual_color is None  # no colour for collisions
    assert panel.findChild(QPushButton, "visualColor") is panel.visual_color
    for w in (ed.remove_visual_button, ed.visual_kind, panel.fields["collision_size"]):
        assert not w.isEnabled()

    click(qtbot, ed.add_visual_buttons["box"])
    click(qtbot, ed.add_visual_buttons["cylinder"])
    body = doc.tree.get_body("link1")
    assert [c.kind for c in body.collisions] == ["box", "cylinder"]
    assert body.visuals == visuals  # the visuals are not touched
    assert collision_labels(ed) == ["box 1", "cylinder 2"] and ed.visual_list.currentRow() == 1
    assert doc.undo_stack.text(start) == "Add collision box of link1"

    click_row(qtbot, ed.visual_list, 0)
    type_into(qtbot, panel.fields["collision_size"], "0.3 0.2 0.1")
    type_into(qtbot, panel.fields["collision_xyz"], "0.1 0 0.05")
    type_into(qtbot, panel.fields["collision_rpy"], "0 90 0")
    c = doc.tree.get_body("link1").collisions[0]
    assert c.size == (0.3, 0.2, 0.1)
    np.testing.assert_allclose(c.matrix[:3, 3], [0.1, 0, 0.05])
    np.testing.assert_allclose(c.matrix[:3, :3], [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], atol=1e-12)
    assert doc.undo_stack.count() == start + 5 and ed.visual_list.currentRow() == 0
    assert doc.undo_stack.text(start + 2) == "Resize collision 1 of link1"

    choose(qtbot, ed.visual_kind, "sphere")
    assert doc.tree.get_body("link1").collisions[0].kind == "sphere"
    assert doc.tree.get_body("link1").collisions[0].size == (pytest.approx(0.15),)

    # exported and read back: the edited shapes are the URDF's <collision> elements
    assert window.export_to(tmp_path / "c.urdf")
    back = open_robot(tmp_path / "c.urdf")[0].get_body("link1").collisions
    assert [(b.kind, b.size) for b in back] == [(c.kind, c.size) for c in doc.tree.get_body("link1").collisions]

    click_row(qtbot, ed.visual_list, 1)
    click(qtbot, ed.remove_visual_button)
    assert [c.kind for c in doc.tree.get_body("link1").collisions] == ["sphere"]
    assert doc.undo_stack.count() == start + 7  # add, add, size, xyz, rpy, kind, remove
    doc.undo_stack.undo()
    assert [c.kind for c in doc.tree.get_body("link1").collisions] == ["sphere", "cylinder"]
    assert collision_labels(ed) == ["sphere 1", "cylinder 2"]
    undo_all(doc)
    assert doc.serialized() == original and ed.visual_list.count() == 0


@pytest.mark.parametrize("text", ["0 0.1 0.1", "a b c", "0.1 0.1"])
def test_bad_collision_size_is_refused_in_place(window, panel, qtbot, text):
    doc = window.doc
    click(qtbot, panel.collisions.add_visual_buttons["box"])
    before, count = doc.serialized(), doc.undo_stack.count()
    field = panel.fields["collision_size"]
    type_into(qtbot, field, text)
    assert field.error and "collision box" in field.error
    assert panel.error_label.text() == field.error
    assert doc.serialized() == before and doc.undo_stack.count() == count
    type_into(qtbot, field, "0.2 0.2 0.2")
    assert field.error == "" and doc.tree.get_body("link1").collisions[0].size == (0.2, 0.2, 0.2)


def test_copy_visuals_to_collisions_is_one_step(window, panel, qtbot):
    doc = window.doc
    button = panel.collisions.copy_button
    assert panel.findChild(QPushButton, "copyVisualsToCollisions") is button and button.isEnabled()
    original, start = doc.serialized(), doc.undo_stack.count()
    click(qtbot, button)
    body = doc.tree.get_body("link1")
    assert len(body.collisions) == len(body.visuals) > 0
    for c, v in zip(body.collisions, body.visuals):
        assert (c.kind, c.size, c.pose, c.filename) == (v.kind, v.size, v.pose, v.filename)
    assert doc.undo_stack.count() == start + 1
    assert panel.collisions.visual_list.count() == len(body.visuals)
    click(qtbot, button)  # the same again: nothing to do, no undo step
    assert doc.undo_stack.count() == start + 1
    doc.undo_stack.undo()
    assert doc.serialized() == original
    # a body without visuals has nothing to copy
    doc.edit("Clear", lambda t: setattr(t.get_body("link2"), "visuals", ()))
    doc.select("link2")
    assert not button.isEnabled()
