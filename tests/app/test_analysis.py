"""View ▸ Workspace, Centre of mass, Gravity torques and Self-collision check (app/features/analysis.py),
driven through the real window: menu actions, spin boxes typed into, pixels read back."""

from __future__ import annotations

import time

import kinetree.app.features.analysis as analysis_module
import numpy as np
import pytest
from helpers.gui import image_array, project
from kinetree.app.panels.sliders import STANDARD_GRAVITY, torque_rows, torque_text
from kinetree.app.viewport.overlays.workspace_cloud import LUT
from kinetree.core import collision_available
from kinetree.core.kinematics.workspace import sample_workspace
from PySide6.QtCore import Qt
from PySide6.QtGui import QVector3D

SAMPLES = 20_000
BACKGROUND = np.array([28, 30, 36])  # the dark theme's

# a base box, and a box on link2 that a fixed joint hangs 0.4 m out along link1's x: turning
# j1 by +90° about y swings it down into the base (base and link2 are not parent and child)
URDF = """<?xml version="1.0"?>
<robot name="swing">
  <link name="base">
    <visual><geometry><box size="0.3 0.3 0.2"/></geometry>
      <material name="g"><color rgba="0.6 0.6 0.6 1"/></material></visual>
  </link>
  <link name="link1"/>
  <link name="link2">
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry><material name="g"/></visual>
  </link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="link1"/><origin xyz="0 0 0.45"/>
    <axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="j2" type="fixed"><parent link="link1"/><child link="link2"/><origin xyz="0.4 0 0"/></joint>
</robot>
"""


@pytest.fixture
def puma(window, qtbot, monkeypatch):
    monkeypatch.setattr(analysis_module, "WORKSPACE_SAMPLES", SAMPLES)
    window.resize(1280, 800)
    window.open_source("puma560", ask=False)
    qtbot.wait(20)
    return window


def frame(vp) -> np.ndarray:
    vp.set_full_detail()
    return image_array(vp.grabFramebuffer())


def type_spin(qtbot, window, key: str, text: str) -> None:
    """Type a value into a joint's spin box in the Joints panel and press Enter."""
    spin = window.sliders.rows[key].spin
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin.lineEdit(), text)
    qtbot.keyClick(spin.lineEdit(), Qt.Key.Key_Return)


def wait_cloud(qtbot, analysis, n: int = SAMPLES) -> None:
    qtbot.waitUntil(lambda: analysis.cloud.count == n and not analysis.computing, timeout=30_000)


# --- workspace -------------------------------------------------------------------------------
def test_workspace_cloud_is_drawn_coloured_with_its_legend(puma, qtbot):
    w, vp = puma, puma.viewport
    a = w.analysis
    vp.setCameraPosition(pos=QVector3D(0, 0, 0), distance=4.5, elevation=20, azimuth=30)
    qtbot.wait(20)
    before = frame(vp)
    assert not a.workspace_action.isChecked() and a.cloud.count == 0
    a.workspace_action.trigger()
    assert a.computing and a.progress.isVisible() and a.cancel_button.isVisible()
    wait_cloud(qtbot, a)
    assert not a.progress.isVisible()
    # the end effector's origins, as the engine samples them (float32 for the GPU)
    tree = w.doc.tree
    points, manip = sample_workspace(tree, tree.end_effector, SAMPLES, rng=analysis_module.WORKSPACE_SEED)
    np.testing.assert_allclose(a.cloud.points.pos, points, atol=1e-6)
    lo, hi = a.cloud.legend.range
    assert (lo, hi) == (manip.min(), manip.max())
    # highest manipulability: the colormap's last colour; lowest: its first
    assert a.cloud.points.color.shape == (SAMPLES, 4)
    np.testing.assert_allclose(a.cloud.points.color[np.argmax(manip)], LUT[255])
    np.testing.assert_allclose(a.cloud.points.color[np.argmin(manip)], LUT[0])
    after = frame(vp)
    px = np.floor(project(vp, points[:2000])).astype(int)  # the pixel a point falls in
    h, wd = after.shape[:2]
    inside = (px[:, 0] >= 0) & (px[:, 0] < wd) & (px[:, 1] >= 0) & (px[:, 1] < h)
    px = px[inside]
    assert len(px) > 1500
    at_points = np.abs(after[px[:, 1], px[:, 0]] - before[px[:, 1], px[:, 0]]).sum(axis=1) > 20
    assert at_points.mean() > 0.6, at_points.mean()  # most sample pixels coloured by the cloud
    # and coloured (purple…yellow blended over the background), not grey
    changed = np.abs(after - before).sum(axis=2) > 20
    assert changed.mean() > 0.05
    assert np.ptp(after[changed], axis=1).mean() > 25
    # the legend in the top-right corner: its bar runs from the first colour to the last
    rect = a.cloud.legend.rect
    assert rect.right() > wd - 40 and rect.top() < 40 and rect.width() > 150
    row = after[int(rect.bottom()) - 22]
    bar = row[int(rect.left()):int(rect.right())]
    purple, yellow = (LUT[0, :3] * 255).astype(int), (LUT[255, :3] * 255).astype(int)
    assert np.abs(bar - purple).sum(axis=1).min() < 40
    assert np.abs(bar - yellow).sum(axis=1).min() < 40
    assert "link6" in a.cloud.legend.title and f"{SAMPLES:,}" in a.cloud.legend.title
    assert w.settings.value("showWorkspace", type=bool) is True
    a.workspace_action.trigger()  # off: the cloud goes
    assert a.cloud.count == 0 and not a.cloud.points.visible()
    assert np.abs(frame(vp) - before).sum(axis=2).__gt__(20).mean() < 0.01


def test_cancel_stops_the_sampling_and_turns_the_view_off(puma, qtbot, monkeypatch):
    monkeypatch.setattr(analysis_module, "WORKSPACE_SAMPLES", 5_000_000)  # seconds of work
    a = puma.analysis
    a.workspace_action.trigger()
    assert a.computing
    t = time.perf_counter()
    qtbot.mouseClick(a.cancel_button, Qt.MouseButton.LeftButton)
    assert not a.computing and not a.workspace_action.isChecked() and not a.progress.isVisible()
    assert puma.settings.value("showWorkspace", type=bool) is False
    # the worker stops at its next chunk: a job queued behind it runs at once
    assert a._pool.submit(lambda: 1).result(timeout=5) == 1
    assert time.perf_counter() - t < 3
    qtbot.wait(300)
    assert a.cloud.count == 0 and "cancelled" in puma.statusBar().currentMessage()


def test_closing_the_window_stops_the_sampling(make_window, qtbot, monkeypatch):
    monkeypatch.setattr(analysis_module, "WORKSPACE_SAMPLES", 5_000_000)
    w = make_window()
    w.open_source("puma560", ask=False)
    a = w.analysis
    a.workspace_action.trigger()
    future = a.future
    assert a.computing and not future.done()
    w.close()
    qtbot.waitUntil(lambda: a.closed and future.done(), timeout=5000)
    assert not a.computing and a.cloud.count == 0


def test_cloud_follows_the_tree_and_the_selection_not_the_configuration(puma, qtbot):
    w, a = puma, puma.analysis
    a.workspace_action.trigger()
    wait_cloud(qtbot, a)
    first = a.cloud.points.pos.copy()
    vp = w.viewport
    frame(vp)
    renders = a.cloud.points.renders
    type_spin(qtbot, w, "q2", "40")  # a configuration change: the same cloud, nothing computed
    assert w.doc.configuration[1] == pytest.approx(np.radians(40))
    assert not a.computing and a.cloud.count == SAMPLES and a.cloud.points.pos is not None
    np.testing.assert_array_equal(a.cloud.points.pos, first)
    frame(vp)
    assert a.cloud.points.renders == renders  # the robot moved, the camera did not: the same image
    vp.setCameraPosition(azimuth=vp.opts["azimuth"] + 20)
    frame(vp)
    assert a.cloud.points.renders == renders + 1
    # an edit of the kinematics: cleared with a note, then computed again for the new tree
    w.doc.edit("limit q2", lambda t: setattr(t.get_body("link2").joint, "position_limits", (-0.5, 0.5)))
    assert a.cloud.count == 0 and "changed" in a.cloud.legend.note
    wait_cloud(qtbot, a)
    assert not np.array_equal(a.cloud.points.pos, first)
    # another body selected: its workspace
    w.doc.select("link3")
    wait_cloud(qtbot, a)
    assert a.cloud_body == "link3" and "link3" in a.cloud.legend.title
    tree = w.doc.tree
    np.testing.assert_allclose(a.cloud.points.pos, sample_workspace(tree, "link3", SAMPLES, rng=0)[0], atol=1e-6)


# --- centre of mass --------------------------------------------------------------------------
def marker_pixels(vp, com) -> tuple[float, float]:
    """Fractions of near-black and near-white pixels in the disc around com's projection."""
    img = frame(vp)
    x, y = np.round(project(vp, com[None])[0]).astype(int)
    patch = img[y - 6:y + 7, x - 6:x + 7].reshape(-1, 3)
    return (patch.max(axis=1) < 40).mean(), (patch.min(axis=1) > 215).mean()


def test_com_marker_at_the_centre_of_mass_and_following_a_slider(puma, qtbot):
    w, vp, a = puma, puma.viewport, puma.analysis
    vp.setCameraPosition(pos=QVector3D(0.2, 0, 0.3), distance=2.5, elevation=15, azimuth=-60)
    qtbot.wait(20)
    com = w.doc.tree.center_of_mass(w.doc.configuration)
    black, white = marker_pixels(vp, com)
    assert black < 0.2 or white < 0.2  # no symbol there yet
    a.com_action.trigger()
    black, white = marker_pixels(vp, com)
    assert black > 0.2 and white > 0.2, (black, white)  # the black and white quarters
    assert a.com.text.startswith("CoM") and "23.45 kg" in a.com.text
    type_spin(qtbot, w, "q2", "60")  # the arm swings: the centre moves
    moved = w.doc.tree.center_of_mass(w.doc.configuration)
    assert np.linalg.norm(moved - com) > 0.05
    np.testing.assert_allclose(a.com.position, moved)
    black, white = marker_pixels(vp, moved)
    assert black > 0.2 and white > 0.2
    old = np.round(project(vp, com[None])[0]).astype(int)
    new = np.round(project(vp, moved[None])[0]).astype(int)
    assert np.abs(old - new).max() > 12  # far enough that the old place is free again
    black, white = marker_pixels(vp, com)
    assert black < 0.2 or white < 0.2
    a.com_action.trigger()
    assert not a.com.visible()


# --- gravity torques -------------------------------------------------------------------------
def shown_torques(window) -> dict[str, str]:
    return {k: r.torque.text() for k, r in window.sliders.rows.items()}


def expected_torques(window) -> dict[str, str]:
    tree = window.doc.tree
    tau = tree.gravity_torque(window.doc.configuration, STANDARD_GRAVITY)
    return {key: torque_text(v, "N·m", prefix) for (key, prefix), v in zip(torque_rows(tree), tau)}


def test_gravity_torques_beside_the_sliders_follow_the_configuration(puma, qtbot):
    w = puma
    rows = w.sliders.rows
    assert not any(r.torque.isVisible() for r in rows.values())
    type_spin(qtbot, w, "q2", "30")
    w.analysis.torque_action.trigger()
    assert all(r.torque.isVisible() for r in rows.values())
    assert shown_torques(w) == expected_torques(w)
    # the shoulder holds the arm: tens of N·m; q1 turns about the vertical, gravity does not
    assert 20 < abs(float(rows["q2"].torque.text().split()[0])) < 60
    assert rows["q1"].torque.text() == "0.000 N·m"
    assert "9.80665" in rows["q2"].torque.toolTip()
    type_spin(qtbot, w, "q3", "-80")
    assert shown_torques(w) == expected_torques(w)
    w.sliders.rows["q2"].slider.setValue(w.sliders.rows["q2"].slider.maximum())  # a drag's tick
    assert shown_torques(w) == expected_torques(w)
    w.analysis.torque_action.trigger()
    assert not any(r.torque.isVisible() for r in rows.values())
    w.docks["slidersDock"].hide()
    w.analysis.torque_action.trigger()  # on again, the Joints dock hidden: it is shown
    assert w.docks["slidersDock"].isVisible() and rows["q2"].torque.isVisible()
    assert shown_torques(w) == expected_torques(w)


def test_torque_rows_map_dofs_to_slider_rows():
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    b = RigidBody("ball")
    b.joint = Joint("sph", "spherical")
    tree.add_body(b, tree.base_name)
    c = RigidBody("arm")
    c.joint = Joint("elbow", "revolute")
    tree.add_body(c, "ball")
    assert torque_rows(tree) == [("sph.roll", "Mx "), ("sph.pitch", "My "), ("sph.yaw", "Mz "), ("elbow", "")]
    assert torque_text(-0.0, "N") == "0.000 N" and torque_text(1e-17, "N·m") == "0.000 N·m"
    assert torque_text(-32.9612, "N·m", "Mx ") == "Mx -32.96 N·m"


# --- self-collision --------------------------------------------------------------------------
@pytest.mark.skipif(not collision_available(), reason="python-fcl is not installed")
def test_self_collision_turns_the_bodies_in_contact_red(window, qtbot, tmp_path):
    path = tmp_path / "swing.urdf"
    path.write_text(URDF)
    w, vp = window, window.viewport
    w.resize(1280, 800)
    w.open_source(str(path), ask=False)
    vp.setCameraPosition(pos=QVector3D(0, 0, 0.2), distance=2.2, elevation=0, azimuth=-90)  # from the front
    qtbot.wait(20)
    a = w.analysis
    a.collision_action.trigger()
    assert a.colliding == []

    def colour(p) -> np.ndarray:
        img = frame(vp)
        x, y = np.round(project(vp, np.array([p]))[0]).astype(int)
        return img[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)

    side = (0.09, 0.0, -0.06)  # the front face of the base box, clear of the frames at its centre
    grey = colour(side)
    assert abs(grey[0] - grey[2]) < 30
    type_spin(qtbot, w, "j1", "90")  # link2 swings down into the base
    qtbot.waitUntil(lambda: a.colliding == [("base", "link2")], timeout=3000)
    r, g, b = colour(side)
    assert r > 120 and g < 80 and b < 80, (r, g, b)
    assert "base – link2" in w.statusBar().currentMessage()
    assert a.check_seconds < 0.05
    type_spin(qtbot, w, "j1", "0")
    qtbot.waitUntil(lambda: a.colliding == [], timeout=3000)
    assert np.abs(colour(side) - grey).max() < 10
    a.collision_action.trigger()  # off: no more checks, nothing red
    type_spin(qtbot, w, "j1", "90")
    qtbot.wait(50)
    assert a.colliding == [] and np.abs(colour(side) - grey).max() < 10


def test_self_collision_disabled_without_python_fcl(make_window, monkeypatch):
    monkeypatch.setattr(analysis_module, "collision_available", lambda: False)
    w = make_window("nofcl.ini")
    action = w.analysis.collision_action
    assert not action.isEnabled() and "python-fcl" in action.toolTip()
    w.analysis.set_collision_check(True)
    assert not w.analysis.collision_on


def test_analysis_toggles_are_remembered(make_window, monkeypatch):
    monkeypatch.setattr(analysis_module, "WORKSPACE_SAMPLES", 2000)
    w = make_window()
    a = w.analysis
    actions = [a.workspace_action, a.com_action, a.torque_action]
    if collision_available():
        actions.append(a.collision_action)
    assert not any(x.isChecked() for x in actions)  # off by default
    for x in actions:
        x.trigger()
    again = make_window()  # the same settings file
    b = again.analysis
    assert b.workspace_on and b.com_on and again.sliders.show_torques
    assert all(x.isChecked() for x in (b.workspace_action, b.com_action, b.torque_action))
    assert b.collision_on == collision_available()


def test_cloud_image_of_a_large_export_equals_the_viewport_way(qapp, monkeypatch):
    """Exported images larger than BINCOUNT_PIXELS are splatted per hit pixel: the same image."""
    import kinetree.app.viewport.overlays.workspace_cloud as wc

    rng = np.random.default_rng(0)
    item = wc.CloudImage()
    item.set_data(rng.normal(size=(50_000, 3)).astype(np.float32), rng.integers(0, 256, 50_000).astype(np.uint8))
    mvp = np.array([[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 0.1, 0], [0, 0, 0.1, 1]])
    whole = image_array(item.render(mvp, 400, 300))
    monkeypatch.setattr(wc, "BINCOUNT_PIXELS", 10)
    np.testing.assert_array_equal(image_array(item.render(mvp, 400, 300)), whole)
    assert (whole.sum(axis=2) > 0).mean() > 0.05  # something was drawn
    # a pixel hit by many points is nearly opaque; the colours are colormap rows
    assert item.render(mvp, 4, 3).pixelColor(2, 1).alpha() > 250
