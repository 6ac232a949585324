"""The DH overlay: DH frames from the table agree with the tree, the a_i dimension line is drawn
in its colour where it projects and follows a slider, URDF chains get extract_dh's frames and a
legend, View ▸ DH parameters is remembered, and ``screenshot --teach`` draws it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.gui import image_array, project
from kinetree.app.main import main
from kinetree.app.model.dh_chain import dh_chain_to
from kinetree.app.viewport.overlays.dh_overlay import URDF_LEGEND
from kinetree.app.widgets.dh_colors import DH_COLORS
from kinetree.core import list_robots, load_robot
from kinetree.core.library import robot_info
from PySide6.QtGui import QAction, QImage, QVector3D

TEAL = tuple(int(DH_COLORS["a"][k:k + 2], 16) for k in (1, 3, 5))


def a_colored(a: np.ndarray) -> np.ndarray:
    """Pixels close to the a parameter's colour (antialiased edges excluded)."""
    return np.abs(a - np.array(TEAL)).max(axis=-1) < 40


def on_line(arr, vp, p0, p1, fractions=np.linspace(0.2, 0.8, 9)) -> int:
    """How many of the sample points along p0 → p1 have an a-coloured pixel within 1 px."""
    pts = [np.asarray(p0) + f * (np.asarray(p1) - np.asarray(p0)) for f in fractions]
    hits = 0
    for x, y in project(vp, pts):
        xi, yi = int(round(x)), int(round(y))
        hits += bool(a_colored(arr[yi - 1:yi + 2, xi - 1:xi + 2]).any())
    return hits


def dh_rotz(t):
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


@pytest.mark.parametrize("name", [n for n in list_robots() if robot_info(n)["convention"] != "loops"])
def test_dh_frames_are_the_body_frames_of_dh_robots(name):  # (closed loops: random configurations are open)
    """Frame i = base · A_1⋯A_i from the table alone equals the tree's FK pose of body i; a chain
    without stored rows (a tree's branch) gets extract_dh's frames, which still end at the tip."""
    tree = load_robot(name)
    chain = dh_chain_to(tree)
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = tree.random_configuration()
        q = np.where(np.isfinite(q), q, rng.uniform(-1, 1, len(q)))
        F = chain.frames(tree, q)
        P = tree.forward_kinematics(q)
        if chain.extracted:
            assert np.abs(F[-1] @ chain.tool - P[-1]).max() <= 1e-9
        else:
            idx = [tree.index_of(b) for b in chain.bodies]
            assert np.abs(F[1:] - P[idx]).max() <= 1e-12, name
    if name not in ("humanoid_upper_body", "quadruped"):
        assert not chain.extracted, f"{name} is a DH library robot: its own rows are used"


@pytest.fixture
def planar(window, qtbot):
    window.resize(1100, 800)
    window.doc.open("two_link_planar")
    vp = window.viewport
    # from above and a little in front: z (where the values' texts are moved) points up the screen
    vp.setCameraPosition(pos=QVector3D(0.75, 0, 0), distance=3, elevation=60, azimuth=-90)
    qtbot.wait(50)
    return window


def test_a_dimension_line_drawn_in_its_colour_and_following_a_slider(planar, qtbot):
    w = planar
    vp = w.viewport
    # nothing selected, View ▸ DH parameters off: no overlay
    before = image_array(vp.grabFramebuffer())
    assert on_line(before, vp, [1, 0, 0], [1.5, 0, 0]) == 0
    w.doc.select("link2")
    qtbot.wait(50)
    # selected, but View ▸ DH parameters off: still none
    assert on_line(image_array(vp.grabFramebuffer()), vp, [1, 0, 0], [1.5, 0, 0]) == 0
    w.findChild(QAction, "dhOverlayAction").trigger()
    qtbot.wait(50)
    overlay = w.dh_overlay
    assert overlay.link == 2
    # a₂ runs along the common normal from frame 1 (d₂ = 0, so at its origin) to frame 2
    a0, a1 = overlay.sketch.dimensions[(2, "a")]
    assert np.allclose(a0, [1, 0, 0], atol=1e-12) and np.allclose(a1, [1.5, 0, 0], atol=1e-12)
    arr = image_array(vp.grabFramebuffer())
    assert on_line(arr, vp, [1, 0, 0], [1.5, 0, 0]) >= 8, "the a₂ dimension line is not drawn where it projects"
    assert any(text.startswith("a₂ = 0.500 m") for _, text, _ in overlay.sketch.texts)

    # the joints panel's q2 spin box (what a slider drag sets): frame 2 turns about z₁
    w.sliders.rows["q2"].spin.setValue(60)
    qtbot.waitUntil(lambda: abs(w.doc.configuration[1] - math.radians(60)) < 1e-9, timeout=2000)
    qtbot.wait(50)
    P = w.doc.poses()
    assert np.abs(overlay.frames[1:] - P).max() <= 1e-12
    tip = [1 + 0.5 * math.cos(math.radians(60)), 0.5 * math.sin(math.radians(60)), 0]
    a0, a1 = overlay.sketch.dimensions[(2, "a")]
    assert np.allclose(a1, tip, atol=1e-12)
    moved = image_array(vp.grabFramebuffer())
    assert on_line(moved, vp, [1, 0, 0], tip) >= 7  # a text may cover a sample
    assert on_line(moved, vp, [1.1, 0, 0], [1.5, 0, 0], np.linspace(0.3, 1.0, 6)) <= 1  # gone from the old place
    # θ₂ is drawn as an arc with its value
    assert any(text == "θ₂ = 60°" for _, text, _ in overlay.sketch.texts)


def test_dh_parameters_action_shows_every_link_and_is_remembered(make_window, qtbot):
    w = make_window("dh.ini")
    w.doc.open("puma560")
    action = w.findChild(QAction, "dhOverlayAction")
    assert action is not None and action.isCheckable() and not action.isChecked()
    assert not w.dh_overlay.text.visible()
    action.trigger()
    qtbot.wait(20)
    keys = set(w.dh_overlay.sketch.dimensions)
    assert {(2, "a"), (3, "a"), (3, "d"), (4, "d")} <= keys
    assert w.dh_overlay.text.visible()
    w.close()
    again = make_window("dh.ini")
    again.doc.open("puma560")
    assert again.findChild(QAction, "dhOverlayAction").isChecked()
    assert (2, "a") in again.dh_overlay.sketch.dimensions


URDF = """<?xml version="1.0"?>
<robot name="offset_arm">
  <link name="base"/><link name="l1"/><link name="l2"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0 0 0.4"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0.4 0.1 0.2" rpy="1.5707963 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>
"""


def test_urdf_chain_shows_extracted_frames_and_a_legend(window, qtbot, tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(URDF)
    window.doc.open(path)
    window.doc.set_configuration(np.array([0.3, -0.5]))
    window.doc.select("l2")
    window.findChild(QAction, "dhOverlayAction").trigger()
    qtbot.wait(50)
    overlay = window.dh_overlay
    assert overlay.chain.extracted and overlay.link == 2
    assert [URDF_LEGEND] in [[t for t, _ in line] for line in overlay.text.legend]
    # the DH frames differ from the URDF's body frames, but the tip is where the tree has it
    P = window.doc.poses()
    assert np.abs(overlay.frames[1] - P[0]).max() > 1e-3
    assert np.abs(overlay.frames[-1] @ overlay.chain.tool - P[-1]).max() <= 1e-9
    window.viewport.update()
    qtbot.waitUntil(lambda: any(text == URDF_LEGEND for text, _ in overlay.text.drawn), timeout=2000)


def test_screenshot_teach_writes_the_overlay(tmp_path, capsys):
    plain, teach = tmp_path / "plain.png", tmp_path / "teach.png"
    assert main(["screenshot", "two_link_planar", "-o", str(plain), "--size", "640x400"]) == 0
    assert main(["screenshot", "two_link_planar", "--teach", "2", "--q", "0.3", "0.6", "-o", str(teach),
                 "--size", "640x400"]) == 0
    a, b = (image_array(QImage(str(p))) for p in (plain, teach))
    assert a.shape == b.shape == (400, 640, 3)
    assert a_colored(b).sum() >= 30 and a_colored(a).sum() == 0  # the a₂ line (and its text)
    assert main(["screenshot", "two_link_planar", "--teach", "3", "-o", str(tmp_path / "x.png")]) == 1
    assert "links 1 to 2" in capsys.readouterr().err


def test_dh_table_headers_wear_the_overlay_colours(window):
    """The overlay's colours, made readable on the header as the Explain dock's are (issue 31:
    the gold α was 1.9:1); what the header holds is the readable version of each overlay colour."""
    from kinetree.app.widgets.text_style import readable_name
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    model = window.dh.model
    names = {}
    for col in range(model.columnCount()):
        brush = model.headerData(col, Qt.Orientation.Horizontal, Qt.ItemDataRole.ForegroundRole)
        name = model.headerData(col, Qt.Orientation.Horizontal).split(" ")[0].rstrip("ᵢ₋₁")  # aᵢ, θᵢ (°)
        names[name] = brush.color().name() if brush else None
    light = QGuiApplication.palette().button().color().lightnessF() > 0.5
    for header, parameter in (("a", "a"), ("α", "alpha"), ("d", "d"), ("θ", "theta")):
        assert names[header] == readable_name(DH_COLORS[parameter], light), header
    assert names["Joint"] is None and names["offset"] is None
