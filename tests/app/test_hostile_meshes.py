"""Hostile mesh files in the app (issue 17): with View ▸ Self-collision check on, opening robots
whose meshes crash FCL, hang trimesh or hold NaN leaves the window alive and says which mesh was
left out; a NaN vertex no longer blanks the view; repeated triangles no longer defeat decimation."""

from __future__ import annotations

import os

import numpy as np
import pytest
from helpers.gui import image_array
from kinetree.app.viewport.meshes import decimate
from kinetree.core import collision_available
from PySide6.QtGui import QVector3D

URDF = """<robot name="r">
<link name="base"><visual><geometry><box size="0.3 0.3 0.3"/></geometry></visual></link>
<link name="arm"><visual><geometry><mesh filename="{0}"/></geometry></visual>
<collision><geometry><mesh filename="{0}"/></geometry></collision></link>
<joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 1"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"""


def robot(folder, name: str, mesh: str, content: str | None) -> str:
    if content is not None:
        (folder / mesh).write_text(content)
    path = folder / f"{name}.urdf"
    path.write_text(URDF.format(mesh))
    return str(path)


@pytest.mark.skipif(not collision_available(), reason="python-fcl is not installed")
def test_self_collision_check_survives_hostile_meshes(window, qtbot, tmp_path):
    os.mkfifo(tmp_path / "evil.mtl")
    cases = {  # robot → what the status bar must say about its mesh
        robot(tmp_path, "index", "bad.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
              "property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
              "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 999999\n"): "names vertex 999999",
        robot(tmp_path, "negative", "neg.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
              "property float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\n"
              "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 -5\n"): "names vertex -5",
        robot(tmp_path, "nan", "nan.obj", "v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n"): "is not finite",
    }
    fifo_robot = robot(tmp_path, "fifo", "fifo.obj", "mtllib evil.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    a = window.analysis
    a.collision_action.trigger()
    assert a.collision_on
    for path, said in cases.items():
        assert window.open_source(path, ask=False)
        qtbot.waitUntil(lambda said=said: said in window.statusBar().currentMessage(), timeout=5000)
        message = window.statusBar().currentMessage()
        assert "body 'arm'" in message and "left out" in message
        assert a.colliding == []
    assert window.open_source(fifo_robot, ask=False)  # returns: the mtllib FIFO is never opened
    assert a.check_collisions() == []
    assert window.isVisible()


def test_a_nan_vertex_leaves_the_rest_of_the_robot_drawn(window, qtbot, tmp_path, caplog):
    path = robot(tmp_path, "nan", "nan.obj", "v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n")
    vp = window.viewport
    window.resize(900, 700)
    assert window.open_source(path, ask=False)
    vp.fit()
    centre = vp.opts["center"]
    assert np.isfinite([centre.x(), centre.y(), centre.z(), vp.opts["distance"]]).all()
    vp.setCameraPosition(pos=QVector3D(0, 0, 0), distance=3, elevation=90, azimuth=-90)
    qtbot.wait(50)
    img = image_array(vp.grabFramebuffer())
    h, w = img.shape[:2]
    box = img[h // 2 - 3:h // 2 + 4, w // 2 - 3:w // 2 + 4].reshape(-1, 3).mean(axis=0)
    background = img[5:12, 5:12].reshape(-1, 3).mean(axis=0)
    assert np.abs(box - background).max() > 40, (box, background)  # the base box is drawn
    assert "nan.obj: mesh vertex 2 is not finite" in caplog.text


def test_repeated_triangles_do_not_defeat_decimation():
    """A sphere whose triangles each appear 8 times: clustering kept every copy and stopped at
    its coarsest grid far above the cap."""
    import trimesh

    sphere = trimesh.creation.icosphere(subdivisions=4)  # 5,120 triangles
    faces = np.tile(np.asarray(sphere.faces), (8, 1))
    v, f = decimate(np.asarray(sphere.vertices), faces, max_faces=1000)
    assert 64 <= len(f) <= 1000
    assert len(np.unique(np.sort(f, axis=1), axis=0)) == len(f)


def test_a_robot_draws_at_most_its_mesh_budget(window, tmp_path, monkeypatch, caplog):
    """Every body naming a mesh of the per-mesh cap made a robot of any size; now the robot's
    mesh triangles are capped as a whole (here 30: two boxes of 12 fit, the third does not)."""
    import kinetree.app.viewport.view as view_module
    import trimesh

    trimesh.creation.box().export(tmp_path / "box.stl")
    links = "".join(f'<link name="l{k}"><visual><geometry><mesh filename="box.stl"/></geometry></visual></link>'
                    f'<joint name="j{k}" type="fixed"><parent link="base"/><child link="l{k}"/>'
                    f'<origin xyz="{k} 0 0"/></joint>' for k in range(3))
    (tmp_path / "many.urdf").write_text(f'<robot name="m"><link name="base"/>{links}</robot>')
    monkeypatch.setattr(view_module, "MAX_ROBOT_MESH_FACES", 30)
    assert window.open_source(str(tmp_path / "many.urdf"), ask=False)
    vp = window.viewport
    assert vp.batch.face_count == 24 and vp.meshes_over_budget == 1
    assert "1 mesh visuals not drawn: the robot's meshes have more than 30 triangles to draw" in caplog.text
