"""Robot files in the app: import (menu, drop), export, DH tables from files and from geometry."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, distribution

import numpy as np
import pytest
import trimesh
from kinetree.app.panels.dh_table import DhOfChainDialog
from kinetree.core import import_robot, load_robot
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

ARM_URDF = """<?xml version="1.0"?>
<robot name="arm">
  <link name="base_link"><visual><geometry><mesh filename="package://arm_description/meshes/base.stl"/></geometry>
    <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material></visual></link>
  <link name="upper"><visual><origin xyz="0 0 0.2"/><geometry><cylinder radius="0.04" length="0.4"/></geometry>
  </visual></link>
  <link name="fore"><visual><geometry><mesh filename="package://arm_description/meshes/missing.stl"/></geometry>
  </visual></link>
  <link name="left"/><link name="right"/>
  <joint name="shoulder" type="revolute"><parent link="base_link"/><child link="upper"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="fore"/>
    <origin xyz="0 0 0.4" rpy="0.2 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="finger_l" type="prismatic"><parent link="fore"/><child link="left"/>
    <origin xyz="0 0.02 0.3"/><axis xyz="0 1 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/></joint>
  <joint name="finger_r" type="prismatic"><parent link="fore"/><child link="right"/>
    <origin xyz="0 -0.02 0.3"/><axis xyz="0 -1 0"/><limit lower="0" upper="0.04" effort="1" velocity="1"/>
    <mimic joint="finger_l"/></joint>
</robot>
"""


def write_arm(tmp_path):
    """A ROS-style package: arm_description/{urdf,meshes}, one mesh present, one missing."""
    pkg = tmp_path / "arm_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "meshes").mkdir()
    trimesh.creation.box(extents=(0.3, 0.3, 0.1)).export(pkg / "meshes" / "base.stl")
    path = pkg / "urdf" / "arm.urdf"
    path.write_text(ARM_URDF)
    return path


def test_import_scrub_export_urdf(window, tmp_path):
    path = write_arm(tmp_path)
    assert window.open_source(path, ask=False)
    doc = window.doc
    assert doc.tree.body_names == ["upper", "fore", "left", "right"]
    assert doc.path is None and not window.isWindowModified()  # imported: Save goes to a new project
    assert "missing.stl" in window.statusBar().currentMessage()  # a warning, not a failed import
    # the mimic finger has no slider of its own
    assert list(window.sliders.rows) == ["shoulder", "elbow", "finger_l"]
    # the mesh that exists is drawn (base visual, at the origin); the missing one is skipped
    vp = window.viewport
    owners = {i for i, _item, _V in vp._meshes} | {p.slot - 1 for p in vp._parts}
    assert -1 in owners
    window.sliders.rows["elbow"].spin.setValue(40)
    window.sliders.rows["finger_l"].spin.setValue(0.03)  # metres, prismatic
    T = doc.tree.get_transform(doc.configuration, "right", "left")
    assert abs(T[1, 3] + (0.04 + 2 * 0.03)) < 1e-12  # both fingers opened by 0.03
    out = tmp_path / "out.urdf"
    assert window.export_to(out)
    back = import_robot(out)
    q = doc.configuration
    for body in doc.tree.body_names:
        np.testing.assert_allclose(back.get_transform(q, body), doc.tree.get_transform(q, body), atol=1e-12)


def test_bad_urdf_is_a_message_and_changes_nothing(window, tmp_path):
    window.doc.open("puma560")
    before = window.doc.serialized()
    bad = tmp_path / "bad.urdf"
    bad.write_text(ARM_URDF.replace('<parent link="upper"/>', '<parent link="nowhere"/>'))
    assert window.open_source(bad, ask=False) is False
    message = window.statusBar().currentMessage()
    assert "bad.urdf" in message and "nowhere" in message
    assert window.doc.serialized() == before


def _drop(window, path):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    drop = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                      Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, drop)
    return enter.isAccepted()


def test_dropping_a_file_opens_it(window, qtbot, tmp_path):
    path = write_arm(tmp_path)
    assert _drop(window, path)
    qtbot.waitUntil(lambda: window.doc.tree.num_bodies == 4)
    other = tmp_path / "notes.txt"
    other.write_text("x")
    assert not _drop(window, other)


def test_dh_table_csv_import_export_and_undo(window, tmp_path):
    window.doc.open("puma560")
    original = window.doc.serialized()
    csv = tmp_path / "puma.csv"
    assert window.dh.export_csv(str(csv))
    assert window.doc.serialized() == original  # exporting changes nothing
    assert csv.read_text().count("\n") >= 7
    window.doc.open("two_link_planar")
    two_link = window.doc.serialized()
    assert window.dh.import_csv(str(csv))
    assert window.dh.model.rowCount() == 6
    q = np.array([0.1, -0.4, 0.7, 0.3, -1.2, 2.0])
    np.testing.assert_allclose(window.doc.tree.get_transform(q, window.doc.tree.end_effector),
                               load_robot("puma560").get_transform(q, "link6"), atol=1e-12)
    window.doc.undo_stack.undo()
    assert window.doc.serialized() == two_link
    bad = tmp_path / "bad.csv"
    bad.write_text("type,a,alpha,d,theta\nR,1,abc,0,0\n")
    assert window.dh.import_csv(str(bad)) is False
    assert "bad.csv" in window.statusBar().currentMessage()
    assert window.doc.serialized() == two_link


def test_dh_of_an_imported_chain_replaces_the_robot_in_one_step(window, tmp_path):
    assert window.open_source(write_arm(tmp_path), ask=False)
    doc = window.doc
    before = doc.serialized()
    doc.select("fore")
    dialog = window.dh.show_chain_dh()
    assert isinstance(dialog, DhOfChainDialog)
    assert dialog.table.rowCount() == 2  # shoulder, elbow
    ext = dialog.extraction
    q = np.array([0.3, -0.8, 0.01])
    tip_before = doc.tree.get_transform(q, "fore")
    assert dialog.use_chain()
    assert sum(e.link is not None for e in window.dh.model.entries) == 2  # shoulder and elbow, as DH rows
    new_tip = doc.tree.get_transform(q[:2], ext.tip_name)
    np.testing.assert_allclose(new_tip, tip_before, atol=1e-10)
    doc.undo_stack.undo()
    assert doc.serialized() == before
    # a chain through a floating joint has no DH table: a message that names it, no dialog
    floating = tmp_path / "floating.urdf"
    floating.write_text('<robot name="f"><link name="w"/><link name="b"/><joint name="free" type="floating">'
                        '<parent link="w"/><child link="b"/></joint></robot>')
    assert window.open_source(floating, ask=False)
    assert window.dh.show_chain_dh() is None
    assert "free" in window.statusBar().currentMessage()


def test_real_robot_with_collada_meshes(window, tmp_path):
    """Baxter (example-robot-data): a two-arm URDF with DAE meshes opens, draws, scrubs, exports."""
    try:
        robots = distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    assert window.open_source(robots / "baxter_description/urdf/baxter.urdf", ask=False)
    vp = window.viewport
    drawn = len(vp._meshes) + len(vp._parts)
    assert drawn >= 20  # the DAE meshes loaded (trimesh + pycollada) and were drawn
    window.sliders.rows["left_s0"].spin.setValue(30)
    img = vp.render_image(320, 240)
    assert not img.isNull()
    window.doc.select("left_gripper")
    dialog = window.dh.show_chain_dh()
    assert dialog is not None and dialog.table.rowCount() == 7
    assert window.export_to(tmp_path / "baxter.urdf")
    back = import_robot(tmp_path / "baxter.urdf", package_paths=(str(robots),))  # its package:// URIs, kept
    q = window.doc.configuration
    np.testing.assert_allclose(back.get_transform(back.config_to_vector(window.doc.tree.config_to_dict(q)),
                                                  "left_gripper"),
                               window.doc.tree.get_transform(q, "left_gripper"), atol=1e-12)


def test_dh_of_chain_dialog_follows_later_edits(window, tmp_path):
    assert window.open_source(write_arm(tmp_path), ask=False)
    window.doc.select("fore")
    dialog = window.dh.show_chain_dh()
    assert dialog.use_button.isEnabled()
    window.doc.try_edit("Delete", lambda t: t.remove_body("fore") and None)
    assert dialog.extraction is None and not dialog.use_button.isEnabled()  # no stale table to apply
    assert dialog.use_chain() is False
    window.doc.undo_stack.undo()
    assert dialog.extraction is not None and dialog.use_button.isEnabled()
    dialog.close()


def test_export_says_which_named_poses_the_format_drops(window, tmp_path):
    window.doc.open("puma560")  # Corke's qz, qr, qs, qn
    messages = []
    window.doc.message.connect(messages.append)
    with pytest.warns(UserWarning, match="4 named poses not written"):
        assert window.export_to(tmp_path / "p.urdf")
    assert "4 named poses not written" in window.statusBar().currentMessage()
    with pytest.warns(UserWarning, match="4 named poses not written"):
        assert window.dh.export_csv(str(tmp_path / "p.csv"))
    assert "4 named poses not written" in messages[-1] and "save a project" in messages[-1]
    window.doc.open("kuka_kr5")  # no poses: nothing to say
    assert window.export_to(tmp_path / "t.urdf")
    assert window.statusBar().currentMessage() == f"Exported {tmp_path / 't.urdf'}"


def test_export_says_in_the_window_what_each_writer_warns(window, tmp_path):
    window.doc.open("puma560")  # Corke's motors: gear ratios, motor inertia, asymmetric Coulomb friction
    for name, says in (("p.urdf", "URDF has no gear ratio"), ("p.sdf", "SDFormat 1.9 has no gear ratio")):
        with pytest.warns(UserWarning):
            assert window.export_to(tmp_path / name)
        assert says in window.statusBar().currentMessage(), window.statusBar().currentMessage()
