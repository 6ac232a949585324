"""View ▸ Collision geometry: collision shapes drawn translucent in their own colour, remembered."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui import image_array, project
from PySide6.QtGui import QAction, QVector3D

# the base: a grey visual cube inside a taller collision box; the tip: a collision sphere off
# its joint axis, so that it moves when the joint turns
URDF = """<?xml version="1.0"?>
<robot name="c">
  <link name="base">
    <visual><geometry><box size="0.3 0.3 0.3"/></geometry></visual>
    <collision><geometry><box size="0.8 0.8 0.5"/></geometry></collision>
  </link>
  <link name="tip">
    <collision><origin xyz="0.3 0 0"/><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="tip"/><origin xyz="-0.6 0.7 0"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""
#: Sample points (top view, z = 0): over the visual (clear of the frames drawn at the origin),
#: over the background inside the collision box, the sphere at home and at q = 1.
OVER_VISUAL, OVER_BACKGROUND = (-0.075, -0.075, 0.0), (-0.27, -0.23, 0.0)
SPHERE_HOME = (-0.3, 0.7, 0.0)
SPHERE_MOVED = (-0.6 + 0.3 * np.cos(1.0), 0.7 + 0.3 * np.sin(1.0), 0.0)


def magenta(a):
    """Pixels dominated by the collision colour's red and blue, with little green."""
    return (a[..., 0] > a[..., 1] + 30) & (a[..., 2] > a[..., 1] + 25)


def mostly(mask) -> bool:
    """At least 80 % of a patch (a grid line or a mesh edge may cross it)."""
    return mask.mean() >= 0.8


def patch(a, xy, r=3):
    x, y = (int(round(v)) for v in xy)
    return a[y - r:y + r + 1, x - r:x + r + 1]


@pytest.fixture
def collision_window(make_window, tmp_path, qtbot):
    path = tmp_path / "c.urdf"
    path.write_text(URDF)
    w = make_window()
    w.resize(1400, 1000)
    w.doc.open(path)
    handle = w.findChild(QAction, "ikHandleAction")
    if handle.isChecked():  # its 80-pixel arrows on the tip would cross the sampled patches
        handle.trigger()
    vp = w.viewport
    vp.setCameraPosition(pos=QVector3D(-0.1, 0.25, 0), distance=3, elevation=90, azimuth=-90)
    qtbot.wait(50)
    return w


def test_collision_geometry_drawn_where_the_box_is(collision_window, qtbot):
    w = collision_window
    vp = w.viewport
    action = w.findChild(QAction, "collisionsAction")
    assert action is not None and action.isCheckable() and not action.isChecked()  # off by default
    vis_px, bg_px, home_px, moved_px = project(vp, [OVER_VISUAL, OVER_BACKGROUND, SPHERE_HOME, SPHERE_MOVED])
    before = image_array(vp.grabFramebuffer())
    for px in (vis_px, bg_px, home_px, moved_px):
        assert not magenta(patch(before, px)).any()

    action.trigger()
    qtbot.wait(50)
    assert action.isChecked() and vp.collisions.shown
    after = image_array(vp.grabFramebuffer())
    assert mostly(magenta(patch(after, bg_px))), "no collision box drawn at its place"
    assert mostly(magenta(patch(after, vis_px))), "the collision box is not drawn over the visual"
    assert mostly(magenta(patch(after, home_px))), "the tip's collision sphere is not drawn"
    assert not magenta(patch(after, moved_px)).any()
    # translucent: the grey visual shows through, so the box looks different over it
    over_visual = patch(after, vis_px).reshape(-1, 3).mean(axis=0)
    over_background = patch(after, bg_px).reshape(-1, 3).mean(axis=0)
    assert np.abs(over_visual - over_background).max() > 20, (over_visual, over_background)

    # the sphere is attached to the tip: it follows the joint
    w.doc.set_configuration(np.array([1.0]))
    qtbot.wait(50)
    moved = image_array(vp.grabFramebuffer())
    assert mostly(magenta(patch(moved, moved_px)))
    assert not magenta(patch(moved, home_px)).any()

    action.trigger()  # off again
    qtbot.wait(50)
    off = image_array(vp.grabFramebuffer())
    assert not magenta(patch(off, bg_px)).any()
    assert not magenta(patch(off, moved_px)).any()


def test_collision_view_remembered(make_window, tmp_path, qtbot):
    path = tmp_path / "c.urdf"
    path.write_text(URDF)
    first = make_window("remember.ini")
    first.findChild(QAction, "collisionsAction").trigger()
    first.close()
    second = make_window("remember.ini")
    assert second.findChild(QAction, "collisionsAction").isChecked()
    assert second.viewport.collisions.shown
    second.doc.open(path)
    assert len(second.viewport.collisions.parts) == 2  # built for the newly opened robot
    fresh = make_window("other.ini")
    assert not fresh.findChild(QAction, "collisionsAction").isChecked()
