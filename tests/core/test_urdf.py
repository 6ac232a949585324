"""URDF import and export (kinetree.core.io.urdf.read)."""

from __future__ import annotations

import math
import os
import time
import warnings

import numpy as np
import pytest
from helpers.urdf import ALL_TYPES, CHAIN, ROBOTS, assert_same_fk, joint, link, pinocchio_q, random_tree, robot
from kinetree.core import FileFormatError, Joint, RigidBody, RigidBodyTree, load_robot
from kinetree.core.io.urdf.read import (
    MeshNotFoundWarning,
    UrdfWarning,
    export_urdf,
    import_urdf,
    resolve_mesh_uri,
    urdf_from_string,
    urdf_string,
)
from kinetree.core.model.joint import Mimic
from scipy.spatial.transform import Rotation

yourdfpy = pytest.importorskip("yourdfpy")


def rot(axis, angle):
    T = np.eye(4)
    T[:3, :3] = Rotation.from_rotvec(np.asarray(axis, float) / np.linalg.norm(axis) * angle).as_matrix()
    return T


def trans(x=0.0, y=0.0, z=0.0):
    T = np.eye(4)
    T[:3, 3] = (x, y, z)
    return T


def rpy(r, p, y):
    T = np.eye(4)
    T[:3, :3] = Rotation.from_euler("xyz", [r, p, y]).as_matrix()
    return T


def load(text, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning unless a test expects one
        return urdf_from_string(text, source="t.urdf", **kw)


# =============================================================================================
# import: structure, joints, kinematics
# =============================================================================================

def test_small_chain_structure_and_fk():
    tree = load(CHAIN)
    assert tree.base_name == "base"
    assert tree.body_names == ["l1", "l2"]
    assert tree.joint_names() == ["j1", "j2"]
    assert [b.joint.type for b in tree.bodies] == ["revolute", "revolute"]
    assert np.allclose(tree.get_body("l2").joint.position_limits, [-2, 2])
    q = [0.3, -0.8]
    expected = trans(z=0.5) @ rot([0, 0, 1], 0.3) @ trans(x=1) @ rot([0, 1, 0], -0.8)
    assert np.allclose(tree.get_transform(q, "l2"), expected, atol=1e-14)


def test_body_order_parents_first_then_file_order():
    tree = load(ALL_TYPES)
    # j_cont is first in the file but its parent 'a' only exists once j_rev is placed
    assert tree.joint_names() == ["j_rev", "j_cont", "j_pri", "j_fix", "j_float", "j_planar_z",
                                  "j_planar_x", "j_rev2"]
    assert tree.parent_name("c") == "a" and tree.parent_name("a") == "root"
    names = tree.body_names
    for b in names:
        p = tree.parent_name(b)
        assert p == "root" or names.index(p) < names.index(b)


def test_every_joint_type():
    tree = load(ALL_TYPES)
    j = {b.joint.name: b.joint for b in tree.bodies}
    assert j["j_rev"].type == "revolute" and np.allclose(j["j_rev"].axis, [0, 0, 1])
    assert j["j_cont"].type == "revolute"
    assert np.array_equal(j["j_cont"].position_limits, [-math.inf, math.inf])
    assert np.allclose(j["j_cont"].axis, [2 ** -0.5, 2 ** -0.5, 0])
    assert j["j_pri"].type == "prismatic" and np.allclose(j["j_pri"].position_limits, [-0.2, 0.7])
    assert j["j_fix"].type == "fixed"
    assert j["j_float"].type == "floating" and j["j_float"].position_count == 7
    assert j["j_planar_z"].type == "planar" and j["j_planar_x"].type == "planar"
    assert np.allclose(j["j_rev2"].axis, np.array([0.3, -0.4, 0.5]) / np.linalg.norm([0.3, -0.4, 0.5]))

    q = tree.config_to_vector({"j_rev": 0.4, "j_cont": 2.5, "j_pri": 0.3, "j_float": [0.9, 0.1, -0.3, 0.2, 1, 2, 3],
                               "j_planar_z": [0.1, 0.2, 0.3], "j_planar_x": [0.4, -0.5, 0.6], "j_rev2": -1.0})
    A = trans(z=1) @ rpy(0.1, 0.2, 0.3) @ rot([0, 0, 1], 0.4)
    assert np.allclose(tree.get_transform(q, "a"), A, atol=1e-14)
    C = A @ trans(0.1, 0.2, 0.3) @ rpy(0.3, -0.2, 0.1) @ rot([1, 1, 0], 2.5)
    assert np.allclose(tree.get_transform(q, "c"), C, atol=1e-14)
    B = trans(x=1) @ rpy(0, math.pi / 2, 0) @ trans(y=0.3)
    assert np.allclose(tree.get_transform(q, "b"), B, atol=1e-14)
    D = B @ trans(y=0.5) @ rpy(math.pi, 0, 0)
    assert np.allclose(tree.get_transform(q, "d"), D, atol=1e-14)
    quat = np.array([0.9, 0.1, -0.3, 0.2]) / np.linalg.norm([0.9, 0.1, -0.3, 0.2])
    M = np.eye(4)
    M[:3, :3] = Rotation.from_quat([*quat[1:], quat[0]]).as_matrix()
    M[:3, 3] = (1, 2, 3)
    assert np.allclose(tree.get_transform(q, "e"), D @ trans(x=0.2) @ rpy(0, 0, 0.7) @ M, atol=1e-14)
    F = A @ trans(y=0.3) @ trans(0.1, 0.2) @ rot([0, 0, 1], 0.3)
    assert np.allclose(tree.get_transform(q, "f"), F, atol=1e-14)
    # planar about x: the child moves in the joint's y-z plane and turns about x
    G_rel = np.linalg.inv(trans(x=-1) @ rpy(0.2, 0, 0)) @ tree.get_transform(q, "g")
    assert abs(G_rel[0, 3]) < 1e-14 and np.isclose(np.hypot(G_rel[1, 3], G_rel[2, 3]), np.hypot(0.4, 0.5))
    assert np.allclose(G_rel[:3, :3], rot([1, 0, 0], 0.6)[:3, :3], atol=1e-14)


def test_revolute_without_limit_warns_and_uses_defaults():
    text = robot(link("a") + link("b") + link("c")
                 + joint("r", "revolute", "a", "b", limit=None) + joint("p", "prismatic", "b", "c", limit=None))
    with pytest.warns(UrdfWarning) as rec:
        tree = urdf_from_string(text, source="t.urdf")
    msgs = [str(w.message) for w in rec]
    assert len(msgs) == 2 and "t.urdf:3: joint 'r': revolute joint without <limit>" in msgs[0]
    assert np.allclose(tree.get_body("b").joint.position_limits, [-math.pi, math.pi])
    assert np.allclose(tree.get_body("c").joint.position_limits, [-0.5, 0.5])


def test_home_is_zero_clipped_into_limits():
    text = robot(link("a") + link("b") + joint("p", "prismatic", "a", "b",
                                              limit='<limit lower="0.3" upper="1.2" effort="1" velocity="1"/>'))
    j = load(text).get_body("b").joint
    assert j.home_position == 0.3


def test_inertial_conversion_matches_hand_computation():
    inertial = ('<inertial><origin xyz="0.1 0.2 0.3" rpy="0 0 1.5707963267948966"/><mass value="2"/>'
                '<inertia ixx="1" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>')
    tree = load(robot(link("a") + link("b", inertial) + joint("j", "fixed", "a", "b", axis=None, limit=None)))
    b = tree.get_body("b")
    assert b.mass == 2.0
    assert np.allclose(b.center_of_mass, [0.1, 0.2, 0.3])
    # Rz(90°) swaps Ixx and Iyy; parallel axes: m(|c|²E − ccᵀ), |c|² = 0.14
    assert np.allclose(b.inertia, [2 + 0.26, 1 + 0.2, 3 + 0.1, -0.12, -0.06, -0.04], atol=1e-14)
    assert tree.base.mass == 0.0 and np.array_equal(tree.base.inertia, np.zeros(6))
    # and back: about the centre of mass, in link axes
    again = load(urdf_string(tree)).get_body("b")
    assert np.allclose(again.inertia, b.inertia, atol=1e-14)
    # unchanged, the inertial is written as read; without what was read (a project keeps it too)
    # it is computed: about the centre of mass, in link axes
    assert '<origin xyz="0.1 0.2 0.3" rpy="0 0 1.5707963267948966"/>' in urdf_string(tree)
    del b._urdf_inertial
    text = urdf_string(tree)
    xml = yourdfpy.URDF.load(_tmp_text(text), build_scene_graph=False, load_meshes=False)
    I = xml.link_map["b"].inertial.inertia
    assert np.allclose(I, np.diag([2.0, 1.0, 3.0]), atol=1e-14)


def _tmp_text(text):
    import io

    return io.BytesIO(text.encode())


def test_visual_types_and_colours(tmp_path):
    mesh = tmp_path / "part.stl"
    mesh.write_text("solid x\nendsolid x\n")  # never opened by the importer
    visuals = (
        '<visual name="v_box"><origin xyz="1 2 3" rpy="0.1 0 0"/><geometry><box size="0.1 0.2 0.3"/></geometry>'
        '<material name="red"><color rgba="1 0 0 1"/></material></visual>'
        '<visual><geometry><cylinder radius="0.05" length="0.4"/></geometry><material name="grey"/></visual>'
        '<visual><geometry><sphere radius="0.07"/></geometry><material name="red"/></visual>'
        '<visual><geometry><mesh filename="part.stl" scale="2 3 4"/></geometry></visual>'
        '<visual><geometry><capsule radius="0.1" length="0.3"/></geometry></visual>'
        '<visual><origin xyz="0 0 0"/></visual>'
    )
    text = ('<robot name="v"><material name="grey"><color rgba="0.5 0.5 0.5 0.8"/></material>'
            + link("a", visuals) + '</robot>')
    with pytest.warns(UrdfWarning) as rec:
        tree = urdf_from_string(text, source="v.urdf", base_dir=tmp_path)
    msgs = [str(w.message) for w in rec]
    assert any("geometry <capsule> is not supported" in m and "link 'a'" in m for m in msgs)
    assert any("no geometry" in m for m in msgs)
    v = tree.base.visuals
    assert [x.kind for x in v] == ["box", "cylinder", "sphere", "mesh"]
    assert v[0].size == (0.1, 0.2, 0.3) and v[0].name == "v_box"
    assert np.allclose(v[0].matrix, trans(1, 2, 3) @ rpy(0.1, 0, 0))
    assert v[0].color == (1.0, 0.0, 0.0, 1.0)
    assert v[1].size == (0.05, 0.4) and v[1].color == (0.5, 0.5, 0.5, 0.8)  # robot-level material
    assert v[2].size == (0.07,) and v[2].color == (1.0, 0.0, 0.0, 1.0)  # named on another visual
    assert v[3].size == (2.0, 3.0, 4.0) and v[3].filename == str(mesh.resolve())
    # round trip keeps kinds, sizes, poses, colours, names and the mesh file
    again = urdf_from_string(urdf_string(tree), base_dir=tmp_path).base.visuals
    assert [(x.kind, x.size, x.color, x.name, x.filename) for x in again] == \
           [(x.kind, x.size, x.color, x.name, x.filename) for x in v]
    assert all(np.allclose(a.matrix, b.matrix, atol=1e-15) for a, b in zip(again, v))


# =============================================================================================
# meshes
# =============================================================================================

@pytest.fixture
def package(tmp_path):
    """ws/my_pkg/{meshes/part.stl, urdf/} with a real STL written by trimesh."""
    trimesh = pytest.importorskip("trimesh")
    pkg = tmp_path / "ws" / "my_pkg"
    (pkg / "meshes").mkdir(parents=True)
    (pkg / "urdf").mkdir()
    trimesh.creation.box(extents=(0.1, 0.1, 0.1)).export(pkg / "meshes" / "part.stl")
    return pkg


def _mesh_robot(uri):
    return robot(link("a", f'<visual><geometry><mesh filename="{uri}"/></geometry></visual>'))


def test_package_uri_found_from_urdf_ancestors(package):
    target = str((package / "meshes" / "part.stl").resolve())
    uri = "package://my_pkg/meshes/part.stl"
    # a folder named my_pkg among the URDF's ancestors
    assert resolve_mesh_uri(uri, package / "urdf") == target
    # a folder holding my_pkg/ among the ancestors
    (package.parent / "robots").mkdir()
    assert resolve_mesh_uri(uri, package.parent / "robots") == target
    path = package / "urdf" / "r.urdf"
    path.write_text(_mesh_robot(uri))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tree = import_urdf(path)
    assert tree.base.visuals[0].filename == target


def test_package_paths_ros_package_path_file_and_relative(package, tmp_path, monkeypatch):
    target = str((package / "meshes" / "part.stl").resolve())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    uri = "package://my_pkg/meshes/part.stl"
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    assert resolve_mesh_uri(uri, elsewhere) is None
    assert resolve_mesh_uri(uri, elsewhere, [package.parent]) == target  # folder holding the package
    assert resolve_mesh_uri(uri, elsewhere, [package]) == target  # the package folder itself
    monkeypatch.setenv("ROS_PACKAGE_PATH", os.pathsep.join([str(tmp_path / "nothing"), str(package.parent)]))
    assert resolve_mesh_uri(uri, elsewhere) == target
    assert resolve_mesh_uri("file://" + target, elsewhere) == target
    assert resolve_mesh_uri("../ws/my_pkg/meshes/part.stl", elsewhere) == target
    assert resolve_mesh_uri("file://../ws/my_pkg/meshes/part.stl", elsewhere) == target
    assert resolve_mesh_uri("https://example.com/part.stl", elsewhere) is None
    assert resolve_mesh_uri("part.stl", None) is None
    tree = urdf_from_string(_mesh_robot(uri), package_paths=[package.parent])
    assert tree.base.visuals[0].filename == target


def test_missing_mesh_warns_and_still_imports(tmp_path, monkeypatch):
    monkeypatch.delenv("ROS_PACKAGE_PATH", raising=False)
    uri = "package://no_such_pkg/meshes/gone.dae"
    path = tmp_path / "r.urdf"
    path.write_text(_mesh_robot(uri))
    with pytest.warns(MeshNotFoundWarning, match=r"link 'a'.*package://no_such_pkg/meshes/gone\.dae"):
        tree = import_urdf(path)
    assert tree.base.visuals[0].filename == uri
    assert issubclass(MeshNotFoundWarning, UserWarning)


def test_mesh_export_paths(package, tmp_path):
    tree = urdf_from_string(_mesh_robot("package://my_pkg/meshes/part.stl"), base_dir=package / "urdf")
    out = package / "urdf" / "out.urdf"
    export_urdf(tree, out)
    assert 'filename="package://my_pkg/meshes/part.stl"' in out.read_text()  # the URI as read
    assert import_urdf(out).base.visuals[0].filename == tree.base.visuals[0].filename
    # a path without the URI it was read from (a project keeps the URI too): relative to the written file
    del tree.base._urdf_shapes
    export_urdf(tree, out)
    assert 'filename="../meshes/part.stl"' in out.read_text()
    assert import_urdf(out).base.visuals[0].filename == tree.base.visuals[0].filename
    text = urdf_string(tree)  # no file: an absolute file:// URI
    assert f'filename="file://{tree.base.visuals[0].filename}"' in text
    assert urdf_from_string(text).base.visuals[0].filename == tree.base.visuals[0].filename


# =============================================================================================
# mimic and xacro
# =============================================================================================

def _gripper(mimic='joint="fa_j" multiplier="-2" offset="0.01"'):
    lim = '<limit lower="0" upper="0.04" effort="1" velocity="1"/>'
    return robot("".join([
        link("palm"), link("fa"), link("fb"), link("fc"),
        joint("fa_j", "prismatic", "palm", "fa", xyz="0.01 0 0", axis="1 0 0", limit=lim),
        joint("fb_j", "prismatic", "palm", "fb", xyz="-0.01 0 0", axis="1 0 0", limit=lim,
              extra=f"<mimic {mimic}/>"),
        joint("fc_j", "revolute", "palm", "fc", axis="0 0 1", extra='<mimic joint="fb_j" multiplier="3"/>'),
    ]))


def test_mimic_honoured_in_fk():
    tree = load(_gripper())
    fb = tree.get_body("fb").joint
    assert fb.mimic == Mimic("fa_j", -2.0, 0.01)
    assert tree.get_body("fc").joint.mimic == Mimic("fa_j", -6.0, 0.03)  # chain flattened
    assert tree.position_count == 1 and tree.movable_joint_names == ["fa_j"]
    q = [0.015]
    assert np.allclose(tree.get_transform(q, "fa")[:3, 3], [0.025, 0, 0])
    assert np.allclose(tree.get_transform(q, "fb")[:3, 3], [-0.01 + (-2 * 0.015 + 0.01), 0, 0])
    assert np.allclose(tree.get_transform(q, "fc"), rot([0, 0, 1], -6 * 0.015 + 0.03))
    again = load(urdf_string(tree))
    assert again.get_body("fb").joint.mimic == fb.mimic
    assert_same_fk(tree, again)
    tree.get_body("fa").joint.offset = 0.002  # Corke offsets of leader and follower fold into origins
    tree.get_body("fc").joint.offset = -0.4
    assert_same_fk(tree, load(urdf_string(tree)))


@pytest.mark.parametrize("mimic, message", [
    ('joint="nope"', "mimics 'nope', which is not a joint"),
    ('joint="fb_j"', "mimic chain fb_j → fb_j is a cycle"),
    ('joint="fa_j" multiplier="nan"', "mimic multiplier contains nan"),
])
def test_bad_mimic(mimic, message):
    with pytest.raises(FileFormatError, match=r"t\.urdf:\d+: joint 'fb_j'.*" + message):
        load(_gripper(mimic))


XACRO = """<?xml version="1.0"?>
<robot name="xb" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="len" value="0.4"/>
  <xacro:macro name="segment" params="name parent">
    <link name="${name}"><visual><geometry><box size="0.1 0.1 ${len}"/></geometry></visual></link>
    <joint name="${name}_joint" type="revolute">
      <parent link="${parent}"/><child link="${name}"/>
      <origin xyz="0 0 ${len}"/><axis xyz="0 1 0"/>
      <limit lower="${-pi/2}" upper="${pi/2}" effort="1" velocity="1"/>
    </joint>
  </xacro:macro>
  <link name="base"/>
  <xacro:segment name="upper" parent="base"/>
  <xacro:segment name="lower" parent="upper"/>
</robot>
"""


def test_xacro_macro_and_property(tmp_path):
    path = tmp_path / "arm.urdf.xacro"
    path.write_text(XACRO)
    tree = import_urdf(path)
    assert tree.body_names == ["upper", "lower"]
    assert tree.joint_names() == ["upper_joint", "lower_joint"]
    assert np.allclose(tree.get_body("lower").joint.position_limits, [-math.pi / 2, math.pi / 2])
    assert tree.get_body("upper").visuals[0].size == (0.1, 0.1, 0.4)
    assert np.allclose(tree.get_transform([0, 0], "lower")[:3, 3], [0, 0, 0.8])


def test_xacro_error_is_file_format_error(tmp_path):
    path = tmp_path / "bad.xacro"
    path.write_text(XACRO.replace("${len}\"/></geometry>", "${undefined_thing}\"/></geometry>"))
    with pytest.raises(FileFormatError, match="bad.xacro: xacro expansion failed"):
        import_urdf(path)


# =============================================================================================
# round trips
# =============================================================================================

@pytest.mark.parametrize("name", ["quadruped", "humanoid_upper_body"])
def test_library_urdf_round_trip(name, tmp_path):
    tree = import_urdf(ROBOTS / f"{name}.urdf")
    out = tmp_path / f"{name}.urdf"
    export_urdf(tree, out)
    again = import_urdf(out)
    assert again.body_names == tree.body_names and again.joint_names() == tree.joint_names()
    assert_same_fk(tree, again)
    for a, b in zip((tree.base, *tree.bodies), (again.base, *again.bodies)):
        assert a.mass == b.mass and np.allclose(a.center_of_mass, b.center_of_mass, atol=1e-15)
        assert np.allclose(a.inertia, b.inertia, atol=1e-15)
        assert [(v.kind, v.size, v.color) for v in a.visuals] == [(v.kind, v.size, v.color) for v in b.visuals]
    # exporting again changes nothing but the last digit of a few angles
    first, second = out.read_text(), urdf_string(again, robot_name=name)
    assert len(first.splitlines()) == len(second.splitlines())


def test_all_joint_types_round_trip():
    tree = load(ALL_TYPES)
    again = load(urdf_string(tree))
    assert_same_fk(tree, again)
    j = {b.joint.name: b.joint for b in again.bodies}
    assert np.array_equal(j["j_cont"].position_limits, [-math.inf, math.inf])
    assert j["j_float"].type == "floating" and j["j_planar_x"].type == "planar"


@pytest.mark.parametrize("name", ["puma560", "puma560_mdh", "stanford", "scara", "cylindrical", "spherical_wrist"])
def test_dh_robots_round_trip(name):
    tree = load_robot(name)
    text = urdf_string(tree, robot_name=name)
    again = load(text)
    assert_same_fk(tree, again)  # every DH body keeps its pose (ChildToJoint handled)
    assert again.movable_joint_names == tree.movable_joint_names
    for b in tree.bodies:
        assert np.allclose(again.find_joint(b.joint.name).joint.position_limits, b.joint.position_limits)


def test_dh_child_to_joint_export_layout():
    tree = load_robot("puma560")
    names = {b.name: b.joint.dh_parameters for b in tree.bodies}
    again = load(urdf_string(tree))
    # rows with a ≠ 0 need the extra joint-frame link; rows with a = 0 fold into the origin
    extra = {b.name for b in again.bodies} - set(names)
    expect = {f"{tree.get_body(n).joint.name}_frame" for n, dh in names.items() if dh.a != 0}
    assert extra == expect and expect
    for b in again.bodies:
        if b.name in expect:
            child = next(c for c in again.bodies if again.parent_name(c.name) == b.name)
            assert child.joint.type == "fixed" and child.joint.name.endswith("_child_to_joint")


def test_offsets_and_child_to_joint_fold():
    tree = load_robot("stanford")
    tree.get_body(tree.body_names[1]).joint.offset = 0.3
    tree.get_body(tree.body_names[2]).joint.offset = 0.05  # prismatic
    rev = Joint("extra_rev", "revolute")
    rev.set_fixed_transform([0, 0.4, 0.2, 0], "dh")  # ChildToJoint translation along z: folds
    rev.offset = -0.7
    body = RigidBody("extra")
    body.joint = rev
    tree.add_body(body, tree.body_names[-1])
    again = load(urdf_string(tree))
    assert "extra_rev_frame" not in again.body_names
    assert_same_fk(tree, again)


def test_random_130_body_tree_round_trip():
    tree = random_tree()
    again = load(urdf_string(tree))
    assert again.body_names == tree.body_names
    assert_same_fk(tree, again, n=5)


def test_export_details(tmp_path):
    tree = RigidBodyTree("world")
    b = RigidBody("wheel")
    j = Joint("spin", "revolute")
    j.position_limits = (-math.inf, math.inf)
    j.axis = [1, 0, 0]
    b.joint = j
    tree.add_body(b, "world")
    tree.base.mass = 0
    tree.base.inertia = [0] * 6
    path = tmp_path / "wheel.urdf"
    export_urdf(tree, path)
    text = path.read_text()
    assert '<robot name="wheel">' in text and 'type="continuous"' in text and "<limit" not in text
    assert '<link name="world"/>' in text  # massless base: no inertial
    assert os.listdir(tmp_path) == ["wheel.urdf"]  # atomic write leaves no temp file
    assert 'name="custom"' in urdf_string(tree, robot_name="custom")
    # exact numbers: repr precision
    b2 = RigidBody("arm")
    j2 = Joint("lift", "prismatic")
    j2.set_fixed_transform(trans(1 / 3, 2 / 7, math.pi))
    b2.joint = j2
    tree.add_body(b2, "wheel")
    assert f'xyz="{1 / 3!r} {2 / 7!r} {math.pi!r}"' in urdf_string(tree)


def test_spherical_joint_export_refused():
    tree = RigidBodyTree()
    b = RigidBody("ball")
    b.joint = Joint("shoulder_ball", "spherical")
    tree.add_body(b, "base")
    with pytest.raises(FileFormatError, match="joint 'shoulder_ball'.*spherical joints have no URDF equivalent"):
        urdf_string(tree)


# =============================================================================================
# other parsers agree: yourdfpy and Pinocchio
# =============================================================================================

def test_export_parses_with_yourdfpy_and_same_fk():
    tree = import_urdf(ROBOTS / "quadruped.urdf")
    model = yourdfpy.URDF.load(_tmp_text(urdf_string(tree)), build_scene_graph=True, load_meshes=False)
    assert set(model.link_map) == {tree.base_name, *tree.body_names}
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = tree.random_configuration(rng)
        model.update_cfg({n: q[tree.position_index(n)][0] for n in tree.movable_joint_names})
        for name in tree.body_names:
            assert np.allclose(model.get_transform(name, tree.base_name), tree.get_transform(q, name), atol=1e-12)


@pytest.mark.parametrize("source", ["quadruped", "humanoid_upper_body", "puma560", "stanford"])
def test_pinocchio_agrees_on_exported_urdf(source):
    pin = pytest.importorskip("pinocchio")
    tree = import_urdf(ROBOTS / f"{source}.urdf") if source in ("quadruped", "humanoid_upper_body") \
        else load_robot(source)
    text = urdf_string(tree)
    texts = [text]
    if source in ("quadruped", "humanoid_upper_body"):
        texts.append((ROBOTS / f"{source}.urdf").read_text())  # and the hand-written file itself
    rng = np.random.default_rng(7)
    for t in texts:
        model = pin.buildModelFromXML(t)
        data = model.createData()
        frames = {name: model.getFrameId(name, pin.BODY) for name in tree.body_names}
        assert all(f < model.nframes for f in frames.values())
        for _ in range(20):
            q = tree.random_configuration(rng)
            pin.framesForwardKinematics(model, data, pinocchio_q(model, tree, q))
            fk = tree.forward_kinematics(q)
            for k, name in enumerate(tree.body_names):
                assert np.allclose(data.oMf[frames[name]].homogeneous, fk[k], atol=1e-12), name


def test_pinocchio_agrees_on_floating_and_planar_export():
    """Pinocchio ignores a planar joint's axis (always the x-y plane); KineTree exports planar
    joints with axis z plus a ChildToJoint link, so the exported file means the same to both."""
    pin = pytest.importorskip("pinocchio")
    tree = load(ALL_TYPES)
    model = pin.buildModelFromXML(urdf_string(tree))
    data = model.createData()
    rng = np.random.default_rng(11)
    for _ in range(20):
        q = tree.random_configuration(rng)
        pin.framesForwardKinematics(model, data, pinocchio_q(model, tree, q))
        for name in tree.body_names:
            M = data.oMf[model.getFrameId(name, pin.BODY)].homogeneous
            assert np.allclose(M, tree.get_transform(q, name), atol=1e-12), name


# =============================================================================================
# hostile and malformed input
# =============================================================================================

def _err(text, match):
    with pytest.raises(FileFormatError, match=match):
        urdf_from_string(text, source="bad.urdf")


def test_file_too_big_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.urdf"
    with open(path, "wb") as f:
        f.write(b"<robot name='x'>")
        f.truncate(200 * 1024 * 1024)  # sparse: no disk used
    t = time.perf_counter()
    with pytest.raises(FileFormatError, match=r"huge\.urdf: file is 200 MB"):
        import_urdf(path)
    assert time.perf_counter() - t < 0.5
    with pytest.raises(FileFormatError, match=r"<string>: 51 MB"):
        urdf_from_string(b" " * (51 * 1024 * 1024))


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE robot [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<robot name="&lol9;"><link name="&lol9;"/></robot>
"""


def test_entity_bomb_refused(tmp_path):
    t = time.perf_counter()
    _err(BILLION_LAUGHS, r"bad\.urdf:2: doctype: DTD and entity declarations are not allowed")
    _err('<?xml version="1.0"?>\n<robot name="r">\n<!ENTITY x "y">\n</robot>', r"bad\.urdf:3: entity")
    path = tmp_path / "bomb.xacro"
    path.write_text(BILLION_LAUGHS)
    with pytest.raises(FileFormatError, match=r"bomb\.xacro:2: doctype"):
        import_urdf(path)
    assert time.perf_counter() - t < 1.0


def test_utf16_doctype_refused():
    data = BILLION_LAUGHS.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>')
    with pytest.raises(FileFormatError, match="DTD and entity declarations are not allowed"):
        urdf_from_string(data.encode("utf-16"), source="bad.urdf")


def test_too_many_links_refused():
    from kinetree.core.io.urdf import read as urdf

    text = robot("".join(f'<link name="l{i}"/>' for i in range(urdf.MAX_LINKS + 1)))
    _err(text, rf"bad\.urdf:2: robot: {urdf.MAX_LINKS + 1} links is more than the {urdf.MAX_LINKS}")


def test_malformed_xml_reports_line():
    _err('<robot name="r">\n<link name="a">\n</robot>\n', r"bad\.urdf:3: malformed XML: .*link")
    _err("", r"bad\.urdf.*malformed XML")


AB = link("a") + link("b")


@pytest.mark.parametrize("body, match", [
    (link("a") + link("b") + joint("j", "revolute", "a", "zz"), r":\d+: joint 'j': child link 'zz' does not exist"),
    (link("a") + link("b") + joint("j", "revolute", "qq", "b"), r":\d+: joint 'j': parent link 'qq' does not exist"),
    (link("a") + link("b") + link("c") + joint("j", "revolute", "a", "b"), r"2 root links \('a', 'c'\)"),
    (link("a") + link("b") + joint("j", "revolute", "a", "b") + joint("k", "revolute", "b", "a"),
     "every link has a parent joint: the joints form a cycle"),
    (link("r") + link("a") + link("b") + joint("j", "revolute", "a", "b") + joint("k", "revolute", "b", "a"),
     r":\d+: joint 'j': link 'b' is not connected to the root link 'r': the joints form a cycle"),
    (link("a") + link("b") + link("c") + joint("j", "revolute", "a", "c") + joint("k", "revolute", "b", "c"),
     r"joint 'k': link 'c' already has a parent joint \('j'\)"),
    (link("a") + link("a"), r":3: link 'a': duplicate link name \(first defined on line 3\)"),
    (link("a") + link("b") + link("c") + joint("j", "fixed", "a", "b") + joint("j", "fixed", "a", "c"),
     r"joint 'j': duplicate joint name"),
    (link("a") + link("b") + joint("elbow", "revolute", "a", "b", xyz="0 nan 0"),
     r"bad\.urdf:3: joint 'elbow': origin xyz contains nan"),
    (AB + joint("elbow", "revolute", "a", "b", rpy="0 0 inf"), r"joint 'elbow': origin rpy contains inf"),
    (AB + joint("elbow", "revolute", "a", "b", xyz="0 0"), r"joint 'elbow': origin xyz '0 0' must be 3"),
    (AB + joint("elbow", "revolute", "a", "b", xyz="0 x 0"), r"origin xyz '0 x 0' is not a list"),
    (AB + joint("elbow", "revolute", "a", "b", axis="0 0 nan"), r"joint 'elbow': axis xyz contains nan"),
    (AB + joint("elbow", "revolute", "a", "b", axis="0 0 0"), r"joint 'elbow': axis \[0.0, 0.0, 0.0\] is zero"),
    (link("a") + link("b") + joint("elbow", "revolute", "a", "b",
                                   limit='<limit lower="nan" upper="1" effort="1" velocity="1"/>'),
     r"joint 'elbow': limit lower contains nan"),
    (link("a") + link("b") + joint("elbow", "prismatic", "a", "b",
                                   limit='<limit lower="0" upper="inf" effort="1" velocity="1"/>'),
     r"joint 'elbow': limit upper contains inf"),
    (link("a") + link("b") + joint("elbow", "revolute", "a", "b",
                                   limit='<limit lower="1" upper="-1" effort="1" velocity="1"/>'),
     r"bad\.urdf:3: joint 'elbow': limits out of order: lower 1.0 > upper -1.0"),
    (link("a") + link("b") + joint("elbow", "ball", "a", "b"), r"joint 'elbow': joint type 'ball' is not one of"),
    (link("a") + link("b") + '<joint name="j" type="fixed"><parent link="a"/></joint>', r"joint 'j': missing <child"),
    (link("a") + '<link/>', r":3: link: <link> needs a non-empty name"),
    (link("a", '<inertial><mass value="-1"/></inertial>'), r"link 'a': mass -1.0 is negative"),
    (link("a", '<inertial><mass value="1"/><inertia ixx="-1" iyy="1" izz="1"/></inertial>'),
     r"bad\.urdf:3: link 'a': .*principal moments"),  # an engine error, re-raised with file and line
    (link("a", '<visual><geometry><box size="1 nan 1"/></geometry></visual>'),
     r"link 'a' visual 0: box size contains nan"),
    (link("a", '<visual><geometry><box size="1 1 1"/></geometry><material><color rgba="1 0 x 1"/></material></visual>'),
     r"link 'a' visual 0: color rgba '1 0 x 1' is not a list of numbers"),
    ("", r"bad\.urdf:2: robot: no <link> elements"),
])
def test_invalid_urdf_names_file_line_and_element(body, match):
    _err(robot(body), match)


def test_non_robot_root_refused():
    _err('<?xml version="1.0"?>\n<sdf version="1.6"><model name="m"/></sdf>', r"bad\.urdf:2: root element is <sdf>")


def test_missing_file():
    with pytest.raises(FileFormatError, match="no such file"):
        import_urdf("/nonexistent/robot.urdf")
