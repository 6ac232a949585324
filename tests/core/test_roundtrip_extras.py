"""Nothing dropped on import → export: collision geometry and every URDF element KineTree does
not model (robot, link and joint extensions) survive URDF and project round trips."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS
from kinetree.core import (
    FileFormatError,
    InvalidPropertyError,
    Joint,
    KineTreeError,
    RigidBody,
    RigidBodyTree,
    Visual,
    import_robot,
)
from kinetree.core.io import dumps, load_project, save_project, tree_from_dict
from kinetree.core.io.project import VERSION
from kinetree.core.io.urdf.read import MeshNotFoundWarning, export_urdf, import_urdf, urdf_from_string, urdf_string
from kinetree.core.transforms import MAX_LENGTH

EVERY = """<?xml version="1.0"?>
<robot name="every" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <material name="blue"><color rgba="0 0 1 1"/></material>
  <link name="base">
    <inertial><origin xyz="0 0 0.1" rpy="0 0.2 0"/><mass value="2"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial>
    <visual name="body"><origin xyz="0 0 0.1"/><geometry><box size="0.2 0.2 0.2"/></geometry>
      <material name="blue"/></visual>
    <collision name="hull"><origin xyz="0 0 0.1" rpy="0.1 0 0.3"/>
      <geometry><box size="0.3 0.3 0.2"/></geometry></collision>
    <collision><geometry><capsule radius="0.1" length="0.3"/></geometry></collision>
    <self_collide>false</self_collide>
  </link>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="0.1 0 0"/><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision>
    <collision name="ball"><geometry><sphere radius="0.07"/></geometry></collision>
    <collision><geometry><mesh filename="meshes/arm.stl" scale="0.001 0.001 -0.001"/></geometry></collision>
    <visual><geometry><cylinder radius="0.04" length="0.4"/></geometry></visual>
  </link>
  <link name="hand"/>
  <link name="wheel"/>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 0.2" rpy="0 0 0.5"/><axis xyz="0 1 1"/>
    <limit lower="-1" upper="1.5" effort="10" velocity="2"/>
    <dynamics damping="0.1" friction="0.2"/>
    <calibration rising="0.0"/>
    <safety_controller soft_lower_limit="-0.9" soft_upper_limit="0.9" k_position="100" k_velocity="10"/>
    <custom_tag value="x"><nested>text &amp; more &lt;here&gt;</nested></custom_tag>
  </joint>
  <joint name="j2" type="prismatic">
    <parent link="arm"/><child link="hand"/><origin xyz="0.4 0 0"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="0.2" effort="0" velocity="0.0"/>
    <mimic joint="j1" multiplier="0.1" offset="0.05"/>
  </joint>
  <joint name="spin" type="continuous">
    <parent link="hand"/><child link="wheel"/><axis xyz="0 0 1"/><limit effort="5" velocity="30"/>
  </joint>
  <joint name="weld" type="fixed"><parent link="base"/><child link="tool"/><limit effort="3" velocity="0"/></joint>
  <link name="tool"/>
  <transmission name="t1">
    <type>transmission_interface/SimpleTransmission</type>
    <joint name="j1"><hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface></joint>
    <actuator name="m1"><mechanicalReduction>1</mechanicalReduction></actuator>
  </transmission>
  <gazebo reference="arm"><material>Gazebo/Red</material></gazebo>
  <gazebo>
    <plugin name="ctrl" filename="libgazebo_ros_control.so"><robotNamespace>/every</robotNamespace></plugin>
  </gazebo>
  <ros2_control name="Sys" type="system">
    <hardware><plugin>mock_components/GenericSystem</plugin></hardware>
    <joint name="j1"><command_interface name="position"><param name="min">-1</param></command_interface>
      <state_interface name="position"/></joint>
  </ros2_control>
  <sensor name="cam" type="camera" update_rate="30"><parent link="arm"/><origin xyz="0 0 0"/>
    <camera><image><width>640</width></image></camera></sensor>
  <xacro:unknown_thing a="1"/>
  <anything_else><deep><deeper k="v">words</deeper></deep></anything_else>
</robot>
"""


# --- comparing trees --------------------------------------------------------------------------

def _close(a, b, what, tol=1e-12):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, what
    finite = np.isfinite(a) & np.isfinite(b)
    scale = max(1.0, float(np.abs(a[finite]).max(initial=0.0)))
    diff = np.abs(np.where(finite, a, 0.0) - np.where(finite, b, 0.0))
    same = (a == b) | (np.isnan(a) & np.isnan(b)) | (finite & (diff <= tol * scale))
    assert same.all(), f"{what}: {a.tolist()} != {b.tolist()}"


def _same_shapes(a: tuple[Visual, ...], b: tuple[Visual, ...], what: str, color: bool) -> None:
    assert len(a) == len(b), f"{what}: {len(a)} != {len(b)}"
    for k, (u, v) in enumerate(zip(a, b)):
        w = f"{what}[{k}]"
        assert (u.kind, u.filename, u.name) == (v.kind, v.filename, v.name), w
        _close(u.size, v.size, w + " size")
        _close(u.matrix, v.matrix, w + " pose")
        if color:
            _close(u.color, v.color, w + " colour")


def assert_same_tree(a: RigidBodyTree, b: RigidBodyTree) -> None:
    """Everything a URDF round trip keeps: names, order, parents, joints (types, axes, fixed
    transforms, limits, mimics), inertials, visuals, collisions and every extension."""
    assert a.base_name == b.base_name
    assert a.body_names == b.body_names
    assert a.extensions == b.extensions
    for x, y in zip((a.base, *a.bodies), (b.base, *b.bodies)):
        w = f"body {x.name!r}"
        if x is not a.base:
            assert a.parent_name(x.name) == b.parent_name(y.name), w
        _close(x.mass, y.mass, w + " mass")
        _close(x.center_of_mass, y.center_of_mass, w + " centre of mass")
        _close(x.inertia, y.inertia, w + " inertia")
        _same_shapes(x.visuals, y.visuals, w + " visuals", color=True)
        _same_shapes(x.collisions, y.collisions, w + " collisions", color=False)
        assert x.extensions == y.extensions, w
    for x, y in zip(a.bodies, b.bodies):
        i, j = x.joint, y.joint
        w = f"joint {i.name!r}"
        assert (i.name, i.type, i.mimic) == (j.name, j.type, j.mimic), w
        _close(i.joint_to_parent_transform, j.joint_to_parent_transform, w + " joint_to_parent")
        _close(i.child_to_joint_transform, j.child_to_joint_transform, w + " child_to_joint")
        _close(i.axis, j.axis, w + " axis")
        _close(i.position_limits, j.position_limits, w + " limits")
        _close(i.home_position, j.home_position, w + " home")
        assert i.extensions == j.extensions, w


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


@pytest.fixture
def every(tmp_path) -> tuple[RigidBodyTree, Path]:
    (tmp_path / "meshes").mkdir()
    (tmp_path / "meshes" / "arm.stl").write_bytes(b"solid x\nendsolid x\n")
    path = tmp_path / "every.urdf"
    path.write_text(EVERY)
    return _quiet(import_urdf, path), path


# --- the hand-written URDF --------------------------------------------------------------------

def test_every_extension_kept_where_it_came_from(every):
    tree, path = every
    tags = [t.split(" ", 1)[0].split(">", 1)[0] for t in tree.extensions]
    assert tags == ["<transmission", "<gazebo", "<gazebo", "<ros2_control", "<sensor", "<xacro:unknown_thing",
                    "<anything_else"]
    assert "EffortJointInterface" in tree.extensions[0] and "reference=\"arm\"" in tree.extensions[1]
    assert 'xmlns:xacro="http://www.ros.org/wiki/xacro"' in tree.extensions[5]  # namespace kept with it
    # the link's unknown child and its capsule collision (not modelled, so kept as written)
    assert tree.base.extensions == ('<collision><geometry><capsule radius="0.1" length="0.3"/></geometry></collision>',
                                    "<self_collide>false</self_collide>")
    j1 = tree.get_body("arm").joint
    assert [t.split(" ", 1)[0] for t in j1.extensions] == ["<limit", "<calibration",
                                                         "<safety_controller", "<custom_tag"]
    # <dynamics damping friction> is modelled: Corke's viscous and Coulomb friction, gear ratio 1
    assert (j1.viscous_friction, j1.coulomb_friction, j1.gear_ratio) == (0.1, (0.2, -0.2), 1.0)
    assert j1.extensions[0] == '<limit effort="10" velocity="2"/>'  # what KineTree's limits do not hold
    assert "text &amp; more &lt;here&gt;" in j1.extensions[3]  # escaped text stays escaped
    assert tree.get_body("hand").joint.extensions == ()  # zero effort and velocity: what export writes
    hull, = tree.base.collisions
    assert (hull.kind, hull.name, hull.size) == ("box", "hull", (0.3, 0.3, 0.2))
    _close(hull.matrix[:3, 3], [0, 0, 0.1], "hull origin")
    cyl, ball, mesh = tree.get_body("arm").collisions
    assert (cyl.kind, cyl.size, ball.kind, ball.name, ball.size) == ("cylinder", (0.05, 0.4), "sphere", "ball", (0.07,))
    assert mesh.kind == "mesh" and mesh.size == (0.001, 0.001, -0.001)
    assert mesh.filename == str((path.parent / "meshes" / "arm.stl").resolve())


def test_every_extension_survives_urdf_round_trip(every, tmp_path):
    tree, _ = every
    out = tmp_path / "out" / "every.urdf"
    out.parent.mkdir()
    export_urdf(tree, out)
    back = _quiet(import_urdf, out)
    assert_same_tree(tree, back)
    text = out.read_text()
    assert '<limit lower="-1.0" upper="1.5" effort="10" velocity="2"/>' in text  # one limit, merged
    assert text.count("<limit") == 4  # j1, j2, and the continuous and fixed joints' effort and velocity
    assert '<limit effort="5" velocity="30"/>' in text and '<limit effort="3"/>' in text
    for piece in ("<transmission", "<ros2_control", "<self_collide>false</self_collide>",
                  '<dynamics damping="0.1" friction="0.2"/>', "<capsule", "<collision name=\"hull\">"):
        assert piece in text
    again = _quiet(urdf_from_string, urdf_string(back), base_dir=out.parent)
    assert_same_tree(tree, again)


def test_every_extension_survives_project_round_trip(every, tmp_path):
    tree, _ = every
    project = tmp_path / "every.kinetree.json"
    save_project(tree, project)
    data = json.loads(project.read_text())
    assert data["version"] == 2  # no named poses: the release before them reads it
    assert len(data["extensions"]) == 7 and data["base"]["collisions"][0]["name"] == "hull"
    assert "color" not in data["base"]["collisions"][0]
    loaded, _ = load_project(project)
    assert_same_tree(tree, loaded)
    # import → save project → load project → export → import: still everything
    out = tmp_path / "again.urdf"
    export_urdf(loaded, out)
    assert_same_tree(tree, _quiet(import_urdf, out))
    assert dumps(loaded) == dumps(tree)


def test_tree_copy_and_edits_keep_extensions(every):
    tree, _ = every
    copy = tree.copy()
    assert_same_tree(tree, copy)
    body = tree.get_body("arm")
    dup = body.copy()
    assert dup.collisions == body.collisions and dup.extensions == body.extensions
    assert dup.joint.extensions == body.joint.extensions


# --- real robots ------------------------------------------------------------------------------

ROBOTS, URDFS = EXAMPLE_ROBOTS, REAL_URDFS
needs_robots = pytest.mark.skipif(ROBOTS is None, reason="example-robot-data is not installed")


def _real(key: str) -> RigidBodyTree:
    return _quiet(import_robot, ROBOTS / URDFS[key], package_paths=(str(ROBOTS),))


@needs_robots
@pytest.mark.parametrize("key", sorted(URDFS))
def test_real_robot_round_trip_keeps_everything(key, tmp_path):
    tree = _real(key)
    bodies = (tree.base, *tree.bodies)
    assert sum(len(b.collisions) for b in bodies) > 0
    out = tmp_path / f"{key}.urdf"
    export_urdf(tree, out)
    back = _quiet(import_urdf, out, package_paths=(str(ROBOTS), str(ROBOTS.parent)))  # package:// as read
    assert_same_tree(tree, back)
    meshes = [c.filename for b in bodies for c in b.collisions if c.kind == "mesh"]
    assert all(os.path.isfile(f) for f in meshes)
    loaded, _ = tree_from_dict(json.loads(dumps(tree)))
    assert_same_tree(tree, loaded)


@needs_robots
def test_real_robots_carry_extensions():
    """The robot files do have transmissions, gazebo tags and joint dynamics: they are kept."""
    pr2 = _real("pr2")
    assert sum(t.startswith("<transmission") for t in pr2.extensions) > 10
    assert any(t.startswith("<gazebo") for t in pr2.extensions)
    assert sum(b.joint.viscous_friction > 0 for b in pr2.bodies) > 10  # <dynamics damping>, modelled
    assert any(e.startswith("<safety_controller") for b in pr2.bodies for e in b.joint.extensions)


# --- project versions -------------------------------------------------------------------------

def test_version_1_project_loads_without_collisions(every, tmp_path):
    tree, _ = every
    d = json.loads(dumps(tree))
    d["version"] = 1
    for bd in (d["base"], *d["bodies"]):
        bd.pop("collisions")
        bd.pop("extensions", None)
        bd["joint"].pop("extensions", None) if "joint" in bd else None
    d.pop("extensions")
    path = tmp_path / "old.kinetree.json"
    path.write_text(json.dumps(d))
    loaded, _ = load_project(path)
    assert loaded.body_names == tree.body_names
    assert all(b.collisions == () and b.extensions == () for b in (loaded.base, *loaded.bodies))
    assert loaded.extensions == () and all(b.joint.extensions == () for b in loaded.bodies)
    assert loaded.base.visuals == tree.base.visuals
    q = tree.random_configuration(3)
    _close(loaded.forward_kinematics(q), tree.forward_kinematics(q), "poses")
    # saved again, it is a version-2 file (version 3 only with named poses)
    save_project(loaded, path)
    assert json.loads(path.read_text())["version"] == 2


def test_version_1_text_from_an_older_kinetree_loads(tmp_path):
    path = tmp_path / "v1.kinetree.json"
    path.write_text(json.dumps({
        "format": "kinetree", "version": 1, "base_name": "base", "gravity": [0, 0, -9.81],
        "bodies": [{"name": "b1", "parent": "base", "mass": 1.0, "center_of_mass": [0, 0, 0],
                    "inertia": [1, 1, 1, 0, 0, 0],
                    "visuals": [{"kind": "sphere", "size": [0.1], "color": [1, 0, 0, 1]}],
                    "joint": {"name": "j1", "type": "revolute", "axis": [0, 0, 1], "offset": 0.0,
                              "position_limits": [[-1.0, 1.0]], "home_position": [0.0],
                              "joint_to_parent_transform": np.eye(4).tolist()}}]}))
    tree, _ = load_project(path)
    assert tree.body_names == ["b1"] and tree.get_body("b1").collisions == ()
    assert tree.get_body("b1").visuals[0].kind == "sphere"


@pytest.mark.parametrize("version", [VERSION + 1, 99])
def test_newer_project_version_refused(version, every, tmp_path):
    d = json.loads(dumps(every[0]))
    d["version"] = version
    with pytest.raises(FileFormatError, match=rf"version {version} is newer.*up to {VERSION}"):
        tree_from_dict(d, "new.kinetree.json")


@pytest.mark.parametrize("field, value, match", [
    ("collisions", [{"kind": "box", "size": [1, 2]}], r"collisions\[0\].*size"),
    ("collisions", [{"kind": "box", "size": [1, 1, 1], "name": {"a": 1}}], r"collisions\[0\].*name"),
    ("visuals", [{"kind": "box", "size": [1, 1, 1], "name": {"a": 1}}], r"visuals\[0\].*name"),
    ("collisions", "box", r"collisions"),
    ("extensions", ["<a>"], r"extensions\[0\].*well-formed"),
    ("extensions", ['<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>'], r"DTD"),
    ("extensions", ["<a>&ext;</a>"], r"well-formed"),
    ("extensions", [{"tag": "a"}], r"extensions\[0\].*str"),
    ("extensions", "<a/>", r"extensions"),
])
def test_bad_shapes_and_extensions_in_project_refused(field, value, match, every):
    d = json.loads(dumps(every[0]))
    d["bodies"][0][field] = value
    with pytest.raises(FileFormatError, match=match):
        tree_from_dict(d, "bad.kinetree.json")


def test_bad_robot_and_joint_extensions_in_project_refused(every):
    d = json.loads(dumps(every[0]))
    d["extensions"] = ["not xml"]
    with pytest.raises(FileFormatError, match=r"robot extensions\[0\]"):
        tree_from_dict(d, "bad.kinetree.json")
    d = json.loads(dumps(every[0]))
    d["bodies"][0]["joint"]["extensions"] = [5]
    with pytest.raises(FileFormatError, match=r"joint 'j1': extensions\[0\]"):
        tree_from_dict(d, "bad.kinetree.json")


def test_structural_extensions_not_exported():
    """A project could say anything: a robot-level <link> or a joint-level <origin> would change
    the robot written, so export refuses them by name."""
    tree = RigidBodyTree("base")
    tree.extensions = ['<link name="ghost"/>']
    with pytest.raises(FileFormatError, match=r"robot: extension 0: a <link> element"):
        urdf_string(tree)
    tree = RigidBodyTree("base")
    b = RigidBody("b")
    j = Joint("j", "revolute")
    j.extensions = ['<origin xyz="1 0 0"/>']
    b.joint = j
    tree.add_body(b, "base")
    with pytest.raises(FileFormatError, match=r"joint 'j': extension 0: a <origin> element"):
        urdf_string(tree)


# --- body setters -----------------------------------------------------------------------------

@pytest.mark.parametrize("action", [
    lambda b: setattr(b, "visuals", None),
    lambda b: setattr(b, "visuals", 5),
    lambda b: setattr(b, "visuals", "box"),
    lambda b: setattr(b, "visuals", [None]),
    lambda b: setattr(b, "collisions", None),
    lambda b: setattr(b, "collisions", [{"kind": "box"}]),
    lambda b: setattr(b, "extensions", None),
    lambda b: setattr(b, "extensions", "<a/>"),
    lambda b: setattr(b, "extensions", [b"<a/>"]),
    lambda b: setattr(b, "extensions", ["<a/><b/>"]),
    lambda b: setattr(b, "joint", None),
    lambda b: setattr(b, "joint", "revolute"),
    lambda b: b.add_visual("box", "abc"),
    lambda b: b.add_visual("box", None),
    lambda b: b.add_visual("box", (1, 1, 1), color=None),
    lambda b: b.add_visual("box", (1, 1, 1), color="red"),
    lambda b: b.add_visual("box", (1, 1, 1), pose="x"),
    lambda b: b.add_visual("box", (1, 1, 1), filename=3),
    lambda b: b.add_visual("box", (1, 1, 1), name={"a": 1}),
    lambda b: b.add_visual({"box": 1}, (1, 1, 1)),
    lambda b: b.add_visual(None, (1, 1, 1)),
    lambda b: b.add_visual("box", (2 * MAX_LENGTH, 1, 1)),
    lambda b: b.add_visual("box", (1, 1, 1), pose=np.diag([1, 1, 1, 1.0]) + np.eye(4, k=3) * 2 * MAX_LENGTH),
    lambda b: b.add_collision("box", "abc"),
    lambda b: b.add_collision("mesh", (1, 1, 1)),
    lambda b: b.add_collision("sphere", (float("nan"),)),
    lambda b: b.add_collision("cylinder", (1, 1), name=["n"]),
    lambda b: Visual("box", (1, 1, 1), name={"a": 1}),
    lambda b: Visual("box", "abc"),
    lambda b: Visual("box", (1, 1, 1), color=None),
    lambda b: Visual("mesh", (1, 1, 1), filename=None),
])
def test_body_setters_raise_kinetree_errors(action):
    b = RigidBody("b")
    with pytest.raises(KineTreeError) as info:
        action(b)
    assert isinstance(info.value, (InvalidPropertyError, KineTreeError))
    assert b.visuals == () and b.collisions == () and b.extensions == ()


def test_add_collision_and_name():
    b = RigidBody("b")
    c = b.add_collision("cylinder", (0.1, 0.5), np.eye(4), name="shaft")
    v = b.add_visual("box", (1, 2, 3), color=(1, 0, 0), name="shell")
    assert b.collisions == (c,) and (c.kind, c.size, c.name) == ("cylinder", (0.1, 0.5), "shaft")
    assert b.visuals == (v,) and v.color == (1.0, 0.0, 0.0, 1.0) and v.name == "shell"
    b.extensions = ["<a  x='1'>\n  <b/>\n</a>"]
    assert b.extensions == ('<a x="1"><b/></a>',)  # re-serialized by lxml


# --- numbers and mesh names in URDF visuals, collisions and inertials -------------------------

def _link(inner: str) -> str:
    return f'<?xml version="1.0"?>\n<robot name="r">\n<link name="a">\n{inner}\n</link>\n</robot>\n'


@pytest.mark.parametrize("inner, match", [
    ('<visual><geometry><box size="1e7 1 1"/></geometry></visual>', r"bad\.urdf:4: link 'a' visual 0: box size"),
    ('<collision><geometry><sphere radius="2e6"/></geometry></collision>',
     r"bad\.urdf:4: link 'a' collision 0: sphere radius value 2000000\.0 is more than 1e\+06"),
    ('<collision><origin xyz="0 0 1e9"/><geometry><sphere radius="1"/></geometry></collision>',
     r"link 'a' collision 0: origin xyz"),
    ('<collision><geometry><cylinder radius="inf" length="1"/></geometry></collision>', r"collision 0.*inf"),
    ('<collision><geometry><box size="1 nan 1"/></geometry></collision>', r"collision 0.*nan"),
    ('<collision><geometry><mesh filename="m.stl" scale="1e300 1 1"/></geometry></collision>', r"collision 0.*scale"),
    ('<visual><origin rpy="1e308 0 0"/><geometry><sphere radius="1"/></geometry></visual>', r"visual 0: origin rpy"),
    ('<inertial><origin xyz="1e7 0 0"/><mass value="1"/></inertial>', r"link 'a' inertial: origin xyz"),
    ('<inertial><mass value="1e13"/></inertial>', r"link 'a': mass value"),
    ('<inertial><mass value="1"/><inertia ixx="1e300"/></inertial>', r"link 'a': inertia ixx"),
])
def test_urdf_numbers_bounded(inner, match):
    with pytest.raises(FileFormatError, match=match):
        urdf_from_string(_link(inner), source="bad.urdf")


@pytest.mark.parametrize("uri", ["~nosuchuser_kinetree/m.stl", "m" * 4000 + ".stl", "package://p/a%00b.stl",
                                 "file://~nosuchuser_kinetree/m.stl"])
@pytest.mark.parametrize("tag", ["visual", "collision"])
def test_unresolvable_mesh_is_a_warning_naming_it(uri, tag, tmp_path):
    text = _link(f'<{tag}><geometry><mesh filename="{uri}"/></geometry></{tag}>')
    with pytest.warns(MeshNotFoundWarning) as rec:
        tree = urdf_from_string(text, source="m.urdf", base_dir=tmp_path)
    msg = str(rec[0].message)
    assert f"{tag} mesh" in msg and uri[:50] in msg and len(msg) < 400
    shapes = tree.base.visuals if tag == "visual" else tree.base.collisions
    assert shapes[0].filename == uri
    # and it is written back as it was
    assert uri.replace("&", "&amp;") in urdf_string(tree)
