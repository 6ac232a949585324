"""An exported SDFormat file reopens whole in KineTree: meshes outside the folder tree its reader
looks in are copied beside it (as the MJCF export does), from a URDF, an MJCF or a built tree."""

from __future__ import annotations

import warnings
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import numpy as np
import pytest
import trimesh
from kinetree.core import RigidBody, RigidBodyTree
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.sdf import SdfWarning, export_sdf, import_sdf, sdf_from_string


def stl(path: Path, extents=(0.1, 0.2, 0.3)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    trimesh.creation.box(extents=extents).export(path)
    return path


def meshes(tree: RigidBodyTree) -> list[tuple[str, str, bytes, tuple, np.ndarray]]:
    """Every mesh shape: (body, visual/collision, file content, scale, pose)."""
    out = []
    for b in (tree.base, *tree.bodies):
        for kind, shapes in (("visual", b.visuals), ("collision", b.collisions)):
            out += [(b.name, kind, Path(v.filename).read_bytes(), tuple(v.size), np.asarray(v.matrix))
                    for v in shapes if v.kind == "mesh"]
    return out


def assert_same_meshes(a: RigidBodyTree, b: RigidBodyTree) -> None:
    ma, mb = meshes(a), meshes(b)
    assert ma and len(ma) == len(mb)
    for x, y in zip(ma, mb):
        assert x[:4] == y[:4]
        np.testing.assert_allclose(y[4], x[4], rtol=0, atol=1e-12)


def reopened(path: Path) -> RigidBodyTree:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no mesh left unread, not found or outside the folder tree
        return import_robot(path)


def test_meshes_outside_the_folder_tree_are_copied_beside_the_file(tmp_path):
    a = stl(tmp_path / "src" / "meshes" / "part.stl")
    b = stl(tmp_path / "elsewhere" / "part.stl", (0.3, 0.1, 0.1))  # same name, another folder
    tree = RigidBodyTree()
    body = RigidBody("b")
    T = np.eye(4)
    T[:3, 3] = (0.1, 0.2, 0.3)
    body.visuals = ()
    tree.add_body(body, tree.base_name)
    body = tree.get_body("b")
    body.add_visual("mesh", (2.0, 2.0, 2.0), filename=str(a), pose=T)
    body.add_visual("mesh", (1.0, 1.0, 1.0), filename=str(b))
    body.add_collision("mesh", (0.5, 0.5, 0.5), filename=str(a))
    out = tmp_path / "deep" / "out" / "robot.sdf"
    out.parent.mkdir(parents=True)
    export_sdf(tree, out)
    text = out.read_text()
    assert "file://" not in text
    assert "<uri>robot_assets/part.stl</uri>" in text and "<uri>robot_assets/part_1.stl</uri>" in text
    back = reopened(out)
    assert_same_meshes(tree, back)
    assert all(Path(m).parent == out.parent / "robot_assets" for m in
               (v.filename for v in back.get_body("b").visuals))


def test_a_mesh_inside_the_folder_tree_is_referenced_not_copied(tmp_path):
    mesh = stl(tmp_path / "meshes" / "m.stl")
    t = sdf_from_string('<sdf version="1.9"><model name="robot"><link name="a"/></model></sdf>')
    t.base.add_visual("mesh", (1, 1, 1), filename=str(mesh))
    (tmp_path / "out").mkdir()
    export_sdf(t, tmp_path / "out" / "r.sdf")  # the reader looks in the folder holding out/ too
    assert "<uri>../meshes/m.stl</uri>" in (tmp_path / "out" / "r.sdf").read_text()
    assert not (tmp_path / "out" / "r_assets").exists()
    assert import_sdf(tmp_path / "out" / "r.sdf").base.visuals[0].filename == str(mesh.resolve())


def test_a_file_uri_the_import_left_unread_is_not_copied(tmp_path):
    secret = stl(tmp_path / "outside" / "secret.stl")
    model = tmp_path / "models" / "robot" / "model.sdf"
    model.parent.mkdir(parents=True)
    model.write_text(f'<sdf version="1.9"><model name="robot"><link name="a"><visual name="v"><geometry><mesh>'
                     f'<uri>{secret.as_uri()}</uri></mesh></geometry></visual></link></model></sdf>')
    with pytest.warns(SdfWarning, match="outside the model's folder tree"):
        tree = import_sdf(model)
    out = tmp_path / "out" / "r.sdf"
    out.parent.mkdir()
    export_sdf(tree, out)
    assert f"<uri>{secret.as_uri()}</uri>" in out.read_text()  # kept as written, never read
    assert not (tmp_path / "out" / "r_assets").exists()


URDF = """<robot name="r">
  <link name="base"/>
  <link name="arm">
    <visual><origin xyz="0 0 0.1" rpy="0 0 0.5"/><geometry><mesh filename="meshes/arm.stl" scale="1 2 3"/></geometry>
    </visual>
    <collision><geometry><mesh filename="meshes/arm.stl"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""

MJCF = """<mujoco model="m">
  <compiler meshdir="meshes"/>
  <asset><mesh name="arm" file="arm.stl" scale="1 2 3"/></asset>
  <worldbody>
    <body name="arm" pos="0 0 0.1">
      <joint name="j" type="hinge" axis="0 0 1"/>
      <geom type="mesh" mesh="arm" pos="0.1 0 0" rgba="1 0 0 1"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("fmt, text", [("urdf", URDF), ("xml", MJCF)])
def test_urdf_and_mjcf_to_sdf_reopen_with_the_same_meshes(fmt, text, tmp_path):
    src = tmp_path / "src" / f"robot.{fmt}"
    stl(src.parent / "meshes" / "arm.stl")
    src.write_text(text)
    tree = import_robot(src)
    out = tmp_path / "a" / "b" / "r.sdf"
    out.parent.mkdir(parents=True)
    export_robot(tree, out)
    assert "file://" not in out.read_text()
    assert_same_meshes(tree, reopened(out))


def test_a_real_robot_exported_as_sdf_reopens_with_every_mesh(tmp_path):
    try:
        robots = Path(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots"))
    except PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(robots / "ur_description" / "urdf" / "ur5_robot.urdf")
    out = tmp_path / "ur5.sdf"
    export_robot(tree, out)
    back = reopened(out)
    assert_same_meshes(tree, back)
    assert len(meshes(back)) >= 7
