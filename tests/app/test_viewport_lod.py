"""Level of detail in the viewport: decimated meshes within a triangle budget while dragging,
full detail once still, no vertex uploads per tick."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from helpers.gui import image_array
from kinetree.app.viewport import label_sprites
from kinetree.app.viewport.lod import INTERACTIVE_FACES, simplify
from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction, QVector3D
from PySide6.QtOpenGL import QOpenGLBuffer
from PySide6.QtTest import QTest

URDF = """<?xml version="1.0"?>
<robot name="balls">
  <link name="base">
    <visual><geometry><mesh filename="{ball}"/></geometry></visual>
    <visual><origin xyz="0 0.9 0"/><geometry><mesh filename="{ball}"/></geometry></visual>
  </link>
  <link name="arm">
    <visual><origin xyz="0.9 0 0"/><geometry><mesh filename="{ball}"/></geometry></visual>
    <visual><origin xyz="0.9 0.9 0"/><geometry><mesh filename="{ball}"/></geometry></visual>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""


@pytest.fixture
def balls(make_window, tmp_path, qtbot):
    """Four heavy spheres (20,480 triangles each): more than the budget."""
    ball = tmp_path / "ball.stl"
    trimesh.creation.icosphere(subdivisions=5, radius=0.4).export(ball)
    path = tmp_path / "balls.urdf"
    path.write_text(URDF.format(ball=ball))
    w = make_window()
    w.resize(1200, 900)
    w.doc.open(path)
    w.viewport.setCameraPosition(pos=QVector3D(0.45, 0.45, 0), distance=3.5, elevation=90, azimuth=-90)
    qtbot.waitUntil(lambda: not w.viewport._idle.isActive(), timeout=3000)  # opened: still, full detail
    return w


def test_drag_draws_within_budget_then_full_detail_when_still(balls, qtbot):
    vp = balls.viewport
    full = vp.drawn_faces()
    assert full > INTERACTIVE_FACES  # the scene is heavy: the budget applies
    assert vp.batch.detailed and vp.batch.face_count == full == 4 * 20_480  # loaded: full, one item

    balls.doc.set_joint_position("j", 0.3)
    assert 0.8 * INTERACTIVE_FACES <= vp.drawn_faces() <= INTERACTIVE_FACES
    vp.grabFramebuffer()  # the decimated copy reaches the GPU once, here (repaint() may not paint yet)

    made = []
    original = QOpenGLBuffer.allocate

    def counting(self, *args):
        made.append(self)
        return original(self, *args)

    QOpenGLBuffer.allocate = counting
    try:
        rows = []
        for q in np.linspace(0.3, 0.9, 8):  # a drag: body poses change, vertex buffers do not
            balls.doc.set_joint_position("j", float(q))
            vp.grabFramebuffer()
            rows.append(vp.batch._rows.copy())
    finally:
        QOpenGLBuffer.allocate = original
    assert [b for b in made if b is not label_sprites._vbo] == []  # (the labels' quads stream, by design)
    assert not np.allclose(rows[0][1], rows[-1][1])  # the arm (slot 1) did move
    assert np.allclose(rows[0][0], rows[-1][0])  # the base (slot 0) did not
    assert vp.drawn_faces() <= INTERACTIVE_FACES

    qtbot.waitUntil(lambda: vp.drawn_faces() == full, timeout=3000)  # still: full detail again


def test_decimated_scene_looks_like_the_full_one(balls, qtbot):
    vp = balls.viewport
    full = image_array(vp.grabFramebuffer())
    vp._interacting()  # same pose, drawn as while dragging (what an orbit with the mouse does)
    assert vp.drawn_faces() <= INTERACTIVE_FACES
    coarse = image_array(vp.grabFramebuffer())
    corner = full[2, 2]  # the background
    drawn_full = np.abs(full - corner).sum(axis=2) > 40
    drawn_coarse = np.abs(coarse - corner).sum(axis=2) > 40
    assert drawn_full.sum() > 20_000  # the balls fill a good part of the view
    # the silhouettes agree but for a few rim pixels, and the shading is close: no cracks (STL
    # corners are welded before decimating), no dark faces
    assert (drawn_full ^ drawn_coarse).sum() < 0.005 * drawn_full.sum()
    both = drawn_full & drawn_coarse
    assert np.abs(full[both] - coarse[both]).mean() < 4


def test_simplify_keeps_the_shape_and_caches():
    sphere = trimesh.creation.icosphere(subdivisions=5, radius=0.5)  # 20,480 triangles
    v, f = simplify(sphere.vertices, sphere.faces, 2000)
    assert 1500 <= len(f) <= 2000 and f.max() < len(v)
    radii = np.linalg.norm(v, axis=1)
    assert radii.min() > 0.45 and radii.max() < 0.52
    again = simplify(np.array(sphere.vertices), np.array(sphere.faces), 2000)
    assert again[0] is v  # computed once per mesh and target
    small_v, small_f = simplify(sphere.vertices, sphere.faces, 50_000)
    assert len(small_f) == len(sphere.faces)  # under the target: left alone


def star(arms: int = 5, length: int = 12):
    """A many-body robot: ``arms`` chains of ``length`` short links fanning out from the base."""
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree()
    for a in range(arms):
        parent = tree.base_name
        angle = 2 * np.pi * a / arms
        for k in range(length):
            body = RigidBody(f"arm{a}_link{k}")
            body.joint = Joint(f"arm{a}_j{k}", "revolute")
            T = np.eye(4)
            T[:3, 3] = (0.08 * np.cos(angle), 0.08 * np.sin(angle), 0.01) if k else (0.0, 0.0, 0.05)
            body.joint.set_fixed_transform(T)
            tree.add_body(body, parent)
            parent = body.name
    return tree


def no_overlaps(drawn) -> bool:
    rects = [r for _, r in drawn]
    return not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_labels_declutter_on_a_many_body_robot(make_window, qtbot):
    w = make_window()
    w.resize(1200, 900)
    w.doc.load(star())
    vp = w.viewport
    vp.setCameraPosition(pos=QVector3D(0, 0, 0), distance=2.2, elevation=90, azimuth=-90)

    def drawn_after_paint() -> list[str]:
        vp.labels.drawn = []
        vp.update()
        qtbot.waitUntil(lambda: len(vp.labels.drawn) > 0, timeout=3000)
        return [t for t, _ in vp.labels.drawn]

    # by default: the five end effectors only (nothing selected, nothing under the cursor)
    assert sorted(drawn_after_paint()) == [f"arm{a}_link11" for a in range(5)]
    assert no_overlaps(vp.labels.drawn)

    w.doc.select("arm2_link4")
    names = drawn_after_paint()
    assert "arm2_link4" in names and len(names) == 6

    hover = vp.project(vp._poses[w.doc.tree.body_names.index("arm0_link6"), :3, 3][None])[0]
    QTest.mouseMove(vp, QPoint(int(round(hover[0])), int(round(hover[1]))))
    qtbot.waitUntil(lambda: vp._hovered is not None, timeout=3000)
    assert "arm0_link6" in drawn_after_paint()

    action = w.findChild(QAction, "allLabelsAction")
    assert action is not None and action.isCheckable() and not action.isChecked()
    action.trigger()
    names = drawn_after_paint()
    # all labels asked for: many more drawn, but links a few pixels apart on screen would
    # overlap a more important label, and are left out
    assert 10 < len(names) < 61 and no_overlaps(vp.labels.drawn)
    assert {"arm2_link4", "arm0_link6"} <= set(names)
    assert w.settings.value("allLabels", type=bool) is True
    again = make_window()  # the same settings file: remembered
    assert again.findChild(QAction, "allLabelsAction").isChecked() and again.viewport.all_labels


def test_highlighted_bodies_are_drawn_red_and_follow_edits(balls, qtbot):
    vp = balls.viewport
    vp.set_full_detail()
    arm = vp.project(np.array([[0.9, 0.0, 0.0]]))[0]  # a ball of the arm (slot 1), seen from above
    base = vp.project(np.array([[0.0, 0.9, 0.0]]))[0]  # a ball of the base

    def colour(p) -> np.ndarray:
        a = image_array(vp.grabFramebuffer())
        x, y = int(round(p[0])), int(round(p[1]))
        return a[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3).mean(axis=0)

    before = colour(arm)
    vp.set_highlighted({"arm"})
    r, g, b = colour(arm)
    assert r > 150 and g < 60 and b < 60, (r, g, b)  # red, shaded
    assert np.abs(colour(base) - before).max() < 8  # the base is not
    vp.set_highlighted(())
    assert np.abs(colour(arm) - before).max() < 8
