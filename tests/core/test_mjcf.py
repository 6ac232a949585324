"""MJCF import and export against MuJoCo itself: small hand-written models, one per rule, whose
every body must stand where ``mj_kinematics`` puts it (1e-9) at 20 random configurations."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from helpers.mjcf import load_model, mujoco, same_poses, worst_pose_error
from kinetree.core import import_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io import export_robot
from kinetree.core.io.mjcf import MjcfWarning, export_mjcf, import_mjcf

RULES = """<mujoco model="rules">
  <compiler angle="degree" eulerseq="ZYX" autolimits="true"/>
  <default>
    <default class="arm">
      <joint axis="0 1 0" range="-90 90" damping="0.5" frictionloss="0.2" armature="0.01"/>
      <geom type="capsule" size="0.02" rgba="0.2 0.4 0.8 1"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="euler" pos="0.1 0.2 0.3" euler="30 20 10" childclass="arm">
      <joint name="j_euler" ref="15"/>
      <geom name="upper" fromto="0 0 0 0 0 0.3"/>
      <body name="xyaxes" pos="0 0 0.3" xyaxes="0 1 0 -1 0 0">
        <joint name="j_xyaxes" pos="0.05 0 0.02" axis="1 1 0"/>
        <geom fromto="0 0 0 0.2 0 0"/>
        <body name="zaxis" pos="0.2 0 0" zaxis="1 0 1">
          <joint name="slide" type="slide" axis="0 0 1" range="-0.1 0.2" ref="0.05"/>
          <geom type="cylinder" size="0.01 0.05"/>
          <body name="axisangle" axisangle="1 0 0 45" pos="0 0.1 0">
            <joint name="ball" class="main" type="ball" pos="0 0 0.05"/>
            <geom type="box" size="0.02 0.03 0.04"/>
            <frame pos="0.1 0 0" euler="0 0 90">
              <body name="in_frame" pos="0.05 0 0">
                <joint name="hx" type="hinge" axis="1 0 0" pos="0.01 0.02 0.03"/>
                <joint name="hy" type="hinge" axis="0 1 0" pos="-0.01 0 0.03" ref="-10"/>
                <joint name="sz" type="slide" axis="0 0.6 0.8" range="0 0.1"/>
                <geom type="sphere" size="0.03" contype="0" conaffinity="0" group="3"/>
                <site name="tip" pos="0 0 0.1"/>
              </body>
            </frame>
          </body>
        </body>
      </body>
    </body>
    <body name="floater" pos="1 0 0.5" quat="0.9 0 0.1 0">
      <freejoint name="free"/>
      <geom type="ellipsoid" size="0.1 0.2 0.3"/>
    </body>
  </worldbody>
</mujoco>
"""

RADIAN = """<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <body name="a" euler="0.3 -0.2 1.1" pos="0 0 1">
      <joint name="ja" axis="0 0 1" limited="true" range="-1 2" ref="0.4"/>
      <geom size="0.05"/>
      <body name="b" axisangle="0 1 1 0.7" pos="0.3 0 0">
        <joint name="jb" axis="1 0 0" pos="0.1 0 0"/>
        <geom type="cylinder" size="0.02 0.1"/>
        <body pos="0 0 0.2"><geom type="box" size="0.01 0.01 0.01"/></body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""

MIMIC = """<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <body name="hand"><geom size="0.05"/>
      <body name="left" pos="0 0.05 0"><joint name="fl" type="slide" axis="0 1 0" range="0 0.04" ref="0.01"/>
        <geom type="box" size="0.01 0.01 0.03"/></body>
      <body name="right" pos="0 -0.05 0"><joint name="fr" type="slide" axis="0 -1 0" range="-0.1 0.1" ref="0.02"/>
        <geom type="box" size="0.01 0.01 0.03"/></body>
    </body>
  </worldbody>
  <equality><joint joint1="fr" joint2="fl" polycoef="0.003 -1.5 0 0 0"/></equality>
  <actuator><position name="grip" joint="fl" kp="100"/></actuator>
  <sensor><jointpos name="fl_pos" joint="fl"/><framepos name="tip_pos" objtype="site" objname="s"/></sensor>
  <contact><exclude body1="left" body2="right"/></contact>
  <tendon><fixed name="t"><joint joint="fl" coef="1"/><joint joint="fr" coef="1"/></fixed></tendon>
  <worldbody><body name="cam_holder" pos="1 0 0"><camera name="c" pos="0 0 1"/><light name="l" pos="0 0 2"/>
    <site name="s" pos="0 0 0.3"/></body></worldbody>
</mujoco>
"""


def write(tmp_path, text: str, name: str = "model.xml"):
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def read(path, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MjcfWarning)
        return import_mjcf(path, **kw)


@pytest.mark.parametrize("text", [RULES, RADIAN, MIMIC], ids=["rules", "radian", "mimic"])
def test_every_body_stands_where_mujoco_puts_it(tmp_path, text):
    path = write(tmp_path, text)
    tree = read(path)
    assert worst_pose_error(tree, path, n=20) < 1e-9


def test_rules_become_kinetree_joints(tmp_path):
    tree = read(write(tmp_path, RULES))
    # several joints in one body: a chain, each further body named after its joint; the last keeps the name
    assert tree.parent_name("in_frame") == "hy" and tree.parent_name("hy") == "hx"
    assert tree.parent_name("hx") == "axisangle"
    assert tree.get_body("in_frame").joint.name == "sz"
    assert tree.get_body("hx").mass == 0 and tree.get_body("in_frame").mass > 0
    j = tree.get_body("euler").joint
    assert j.type == "revolute"
    np.testing.assert_allclose(j.position_limits, np.radians([-90, 90]))  # degrees of the file, by class
    assert j.home_position == pytest.approx(math.radians(15))  # ref
    assert j.offset == pytest.approx(-math.radians(15))
    assert (j.viscous_friction, j.coulomb_friction, j.motor_inertia) == (0.5, (0.2, -0.2), 0.01)
    assert tree.get_body("axisangle").joint.type == "spherical"
    assert tree.get_body("floater").joint.type == "floating"
    assert tree.get_body("zaxis").joint.type == "prismatic"
    assert tree.get_body("zaxis").joint.home_position == pytest.approx(0.05)
    # the body's childclass reaches into the <frame>
    np.testing.assert_allclose(tree.get_body("hx").joint.position_limits, np.radians([-90, 90]))
    # a hinge without range: unlimited
    radian = read(write(tmp_path, RADIAN, "radian.xml"))
    np.testing.assert_array_equal(radian.get_body("b").joint.position_limits, [-math.inf, math.inf])
    np.testing.assert_allclose(radian.get_body("a").joint.position_limits, [-1, 2])


def test_geoms_become_visuals_and_collisions(tmp_path):
    tree = read(write(tmp_path, RULES))
    euler = tree.get_body("euler")
    # a capsule (fromto) is drawn as a cylinder and two spheres; it collides (contype 1, group 0)
    assert [v.kind for v in euler.visuals] == ["cylinder", "sphere", "sphere"]
    assert euler.visuals[0].size == pytest.approx((0.02, 0.3))
    assert euler.visuals[0].color == pytest.approx((0.2, 0.4, 0.8, 1.0))
    np.testing.assert_allclose(euler.visuals[0].matrix[:3, 3], [0, 0, 0.15], atol=1e-12)
    assert len(euler.collisions) == 3
    # group 3, no contact: neither drawn nor colliding
    frame = tree.get_body("in_frame")
    assert frame.visuals == () and frame.collisions == ()
    assert [v.kind for v in tree.base.visuals] == ["box"]  # the plane, drawn as a thin box
    assert tree.base.collisions == ()


def test_mesh_visual_keeps_the_file_and_undoes_mujocos_recentring(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    mesh = trimesh.creation.box(extents=(0.2, 0.4, 0.6))
    mesh.apply_translation((1.0, 0.5, -0.3))  # MuJoCo moves these vertices to the mesh's centre
    (tmp_path / "meshes").mkdir()
    mesh.export(tmp_path / "meshes" / "part.stl")
    path = write(tmp_path, """<mujoco><compiler meshdir="meshes"/>
      <asset><mesh name="part" file="part.stl" scale="2 1 0.5"/></asset>
      <worldbody><body name="b" pos="0.1 0 0" euler="10 20 30"><joint axis="0 0 1"/>
        <geom type="mesh" mesh="part" pos="0 0.2 0" euler="0 90 0"/></body></worldbody></mujoco>""")
    tree = read(path)
    (v,) = tree.get_body("b").visuals
    assert v.kind == "mesh" and v.filename == str((tmp_path / "meshes" / "part.stl").resolve())
    assert v.size == (2.0, 1.0, 0.5)
    m = load_model(path)
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    T = tree.get_transform(tree.home_configuration(), "b") @ v.matrix
    ours = (T[:3, :3] @ (mesh.vertices * v.size).T).T + T[:3, 3]
    verts = m.mesh_vert[m.mesh_vertadr[0]:m.mesh_vertadr[0] + m.mesh_vertnum[0]]
    theirs = (d.geom_xmat[0].reshape(3, 3) @ verts.T).T + d.geom_xpos[0]
    key = lambda a: a[np.lexsort(np.round(a, 6).T)]  # noqa: E731
    np.testing.assert_allclose(key(ours), key(theirs), atol=1e-6)  # MuJoCo stores vertices as float32


def test_equality_becomes_mimic_and_the_rest_is_kept(tmp_path):
    tree = read(write(tmp_path, MIMIC))
    fr = tree.get_body("right").joint
    # MuJoCo: fr − 0.02 = 0.003 − 1.5·(fl − 0.01)
    assert fr.mimic is not None and fr.mimic.joint == "fl"
    assert fr.mimic.multiplier == -1.5 and fr.mimic.offset == pytest.approx(0.02 + 0.003 + 1.5 * 0.01)
    assert "fr" not in tree.movable_joint_names
    kept = "".join(tree.extensions)
    for tag in ("<actuator>", "<sensor>", "<contact>", "<tendon>"):
        assert tag in kept
    assert "polycoef" not in kept  # the equality became the mimic
    holder = "".join(tree.get_body("cam_holder").extensions)
    assert '<camera name="c"' in holder and '<light name="l"' in holder and '<site name="s"' in holder


def test_export_loads_in_mujoco_with_the_same_poses_and_kept_elements(tmp_path):
    src = write(tmp_path, MIMIC)
    tree = read(src)
    out = tmp_path / "out" / "copy.xml"
    out.parent.mkdir()
    assert export_mjcf(tree, out) == tree.num_bodies
    a, b = load_model(src), load_model(out)
    for field in ("nu", "nsensor", "ntendon", "nexclude", "nsite", "ncam", "nlight", "neq", "njnt", "nbody"):
        assert getattr(a, field) == getattr(b, field), field
    assert worst_pose_error(tree, out, n=20) < 1e-9  # KineTree's poses where MuJoCo puts the written bodies
    back = read(out)
    assert same_poses(tree, back) < 1e-12
    assert back.get_body("right").joint.mimic == tree.get_body("right").joint.mimic


@pytest.mark.parametrize("text", [RULES, RADIAN], ids=["rules", "radian"])
def test_round_trip_keeps_every_pose(tmp_path, text):
    tree = read(write(tmp_path, text))
    out = tmp_path / "back.mjcf"
    export_robot(tree, out)
    assert worst_pose_error(tree, out, n=20) < 1e-9
    back = read(out)
    assert back.body_names == tree.body_names  # the joint chain is one MJCF body again, read back the same
    assert same_poses(tree, back) < 1e-12
    for b in tree.bodies:
        assert back.get_body(b.name).mass == b.mass
        np.testing.assert_allclose(back.get_body(b.name).inertia, b.inertia, atol=1e-12)
        assert back.get_body(b.name).joint.viscous_friction == b.joint.viscous_friction


def test_library_robot_writes_an_mjcf_mujoco_agrees_with(tmp_path):
    from kinetree.core import load_robot

    tree = load_robot("puma560")  # DH joints (ChildToJoint ≠ I), a massless moving link
    out = tmp_path / "puma.xml"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        export_robot(tree, out)
    assert any("'link1' moves without mass" in str(w.message) for w in caught)
    assert worst_pose_error(tree, out, n=20) < 1e-9


def test_includes_and_frames(tmp_path):
    write(tmp_path, """<mujoco><default><joint axis="1 0 0" damping="2"/></default></mujoco>""", "parts/defaults.xml")
    write(tmp_path, """<mujoco><body name="inc" pos="0 0 0.4" euler="0 0 45"><joint name="ji"/>
        <geom size="0.1"/></body></mujoco>""", "parts/arm.xml")
    path = write(tmp_path, """<mujoco><include file="parts/defaults.xml"/><worldbody>
        <frame pos="1 0 0" quat="0 0 0 1"><include file="parts/arm.xml"/></frame></worldbody></mujoco>""")
    tree = read(path)
    assert tree.get_body("inc").joint.viscous_friction == 2.0
    np.testing.assert_allclose(tree.get_body("inc").joint.axis, [1, 0, 0])
    assert worst_pose_error(tree, path) < 1e-9


# --- dispatch ------------------------------------------------------------------------------------

def test_import_robot_reads_xml_by_its_root(tmp_path):
    assert import_robot(write(tmp_path, RADIAN, "m.xml")).body_names[:2] == ["a", "b"]
    assert import_robot(write(tmp_path, RADIAN, "m.mjcf")).num_bodies == 3
    urdf = '<robot name="r"><link name="a"/><link name="b"/><joint name="j" type="revolute"><parent link="a"/>' \
           '<child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>'
    assert import_robot(write(tmp_path, urdf, "r.xml")).body_names == ["b"]
    with pytest.raises(FileFormatError, match=r"s\.xml: the root element is <sdf>"):
        import_robot(write(tmp_path, "<sdf version='1.9'/>", "s.xml"))


# --- hostile input -------------------------------------------------------------------------------

def test_include_leaving_the_folder_is_refused(tmp_path):
    write(tmp_path, "<mujoco/>", "outside.xml")
    path = write(tmp_path, '<mujoco>\n<include file="../outside.xml"/></mujoco>', "model/m.xml")
    with pytest.raises(FileFormatError, match=r"m\.xml:2: <include file='../outside.xml'>: .*outside the model's "
                                              "folder"):
        import_mjcf(path)


@pytest.mark.parametrize("asset", ['<mesh file="/etc/passwd"/>', '<mesh file="../../x.stl"/>',
                                   '<texture type="2d" file="/dev/zero"/>', '<hfield file="~/h.png"/>'])
def test_asset_path_leaving_the_folder_is_refused(tmp_path, asset):
    path = write(tmp_path, f"<mujoco>\n<asset>\n{asset}</asset></mujoco>")
    with pytest.raises(FileFormatError, match=r"model\.xml:3: <(mesh|texture|hfield) .*(absolute|outside)"):
        import_mjcf(path)


def test_meshdir_leaving_the_folder_is_refused(tmp_path):
    path = write(tmp_path, '<mujoco><compiler meshdir="../"/>\n<asset><mesh file="x.stl"/></asset></mujoco>')
    with pytest.raises(FileFormatError, match="outside the model's folder"):
        import_mjcf(path)


def test_symlink_out_of_the_folder_is_refused(tmp_path):
    secret = tmp_path / "secret.stl"
    secret.write_text("solid x\nendsolid x\n")
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "link.stl").symlink_to(secret)
    path = write(tmp_path, '<mujoco><asset><mesh file="link.stl"/></asset></mujoco>', "m/m.xml")
    with pytest.raises(FileFormatError, match="outside the model's folder"):
        import_mjcf(path)


def test_include_cycle_and_doctype_are_refused(tmp_path):
    write(tmp_path, '<mujoco><include file="a.xml"/></mujoco>', "a.xml")
    with pytest.raises(FileFormatError, match="includes itself"):
        import_mjcf(tmp_path / "a.xml")
    path = write(tmp_path, '<!DOCTYPE m [<!ENTITY x SYSTEM "/etc/passwd">]><mujoco>&x;</mujoco>', "d.xml")
    with pytest.raises(FileFormatError, match="d.xml:1: doctype: DTD and entity declarations are not allowed"):
        import_mjcf(path)


def test_huge_file_and_too_many_elements_are_refused(tmp_path, monkeypatch):
    from kinetree.core.io.mjcf import files as mjcf_files

    path = write(tmp_path, "<mujoco><worldbody>" + "<body><geom size='1'/></body>" * 200 + "</worldbody></mujoco>")
    monkeypatch.setattr(mjcf_files, "MAX_BYTES", 1000)
    with pytest.raises(FileFormatError, match=r"model\.xml: file is .* at most 1000 bytes"):
        import_mjcf(path)
    monkeypatch.setattr(mjcf_files, "MAX_BYTES", 10**6)
    monkeypatch.setattr(mjcf_files, "MAX_ELEMENTS", 100)
    with pytest.raises(FileFormatError, match="more than 100 elements"):
        import_mjcf(path)


def test_deep_nesting_is_refused(tmp_path):
    path = write(tmp_path, "<mujoco><worldbody>" + "<body>" * 5000 + "</body>" * 5000 + "</worldbody></mujoco>")
    with pytest.raises(FileFormatError, match=r"model\.xml:1: malformed XML: nested more than \d+ elements deep"):
        import_mjcf(path)


def test_missing_mesh_is_a_warning_and_the_kinematics_load(tmp_path):
    path = write(tmp_path, """<mujoco><asset><mesh name="gone" file="gone.stl"/></asset>
      <worldbody><body name="b" pos="0 0 1"><joint name="j" axis="0 1 0"/><geom type="mesh" mesh="gone"/>
      <geom size="0.1"/></body></worldbody></mujoco>""")
    notes: list[str] = []
    tree = import_mjcf(path, on_warning=notes.append)
    assert len(notes) == 1 and "model.xml:1: <mesh name='gone' file='gone.stl'>: file 'gone.stl' not found" in notes[0]
    assert [v.kind for v in tree.get_body("b").visuals] == ["sphere"]
    assert tree.movable_joint_names == ["j"]
    with pytest.warns(MjcfWarning, match="gone.stl"):
        import_mjcf(path)


def test_mujoco_never_opens_a_file_itself(tmp_path, monkeypatch):
    """MuJoCo falls back to the file system (relative to the working folder) for a file it is not
    given: the missing mesh must be dropped before it looks, not found in the working folder."""
    trimesh = pytest.importorskip("trimesh")
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    trimesh.creation.box(extents=(1, 1, 1)).export(cwd / "gone.stl")
    monkeypatch.chdir(cwd)
    path = write(tmp_path, """<mujoco><asset><mesh name="gone" file="gone.stl"/></asset>
      <worldbody><body name="b"><joint/><geom type="mesh" mesh="gone"/><geom size="0.1"/></body></worldbody>
      </mujoco>""", "model/m.xml")
    notes: list[str] = []
    tree = import_mjcf(path, on_warning=notes.append)
    assert "gone.stl' not found" in notes[0]
    assert [v.kind for v in tree.get_body("b").visuals] == ["sphere"]


def test_model_assets_are_refused(tmp_path):
    write(tmp_path, "<mujoco/>", "other.xml")
    path = write(tmp_path, '<mujoco><asset>\n<model name="o" file="other.xml"/></asset></mujoco>')
    with pytest.raises(FileFormatError, match=r"model\.xml:2: <model name='o' file='other.xml'>: model assets"):
        import_mjcf(path)


def test_mujoco_compile_error_names_the_file_and_line(tmp_path):
    path = write(tmp_path, '<mujoco>\n<worldbody>\n<body>\n<joint type="bad"/></body></worldbody></mujoco>')
    with pytest.raises(FileFormatError, match=r"model\.xml: MuJoCo: XML Error: invalid keyword: 'bad' "
                                              r"Element 'joint', line 4"):
        import_mjcf(path)


def _every_joint_kind():
    """A tree with each KineTree joint type and non-identity ChildToJoint transforms (DH rows, a
    rotated spherical joint, a planar joint on a tilted frame, a floating base)."""
    from kinetree.core import RigidBody, RigidBodyTree
    from kinetree.core.model.joint import Joint
    from kinetree.core.transforms import pose_from_xyz_rpy

    tree = RigidBodyTree("ground")
    specs = [("float", "floating", "ground", None), ("dh", "revolute", "float", ("dh", [0.3, 0.5, 0.1, 0.2])),
             ("mdh", "prismatic", "dh", ("mdh", [0.1, -0.4, 0.2, 0.3])),
             ("ball", "spherical", "mdh", ("child", pose_from_xyz_rpy([0.1, 0.2, 0.3], [0.3, -0.2, 0.5]))),
             ("plane", "planar", "ball", ("child", pose_from_xyz_rpy([0.0, 0.1, -0.2], [0.4, 0.1, -0.3]))),
             ("tool", "fixed", "plane", ("matrix", pose_from_xyz_rpy([0.0, 0.0, 0.1], [0.0, 0.2, 0.0])))]
    for name, kind, parent, fixed in specs:
        body = RigidBody(name)
        j = Joint(f"j_{name}", kind)
        if kind != "floating":
            j.set_fixed_transform(pose_from_xyz_rpy([0.2, -0.1, 0.3], [0.1, 0.2, 0.3]))
        if fixed is not None:
            j.set_fixed_transform(fixed[1], fixed[0])
        if kind == "revolute":
            j.offset = 0.25
            j.viscous_friction, j.gear_ratio = 0.3, 2.0
        if kind == "prismatic":
            j.offset = -0.05
        body.joint = j
        body.mass, body.center_of_mass, body.inertia = 1.5, (0.01, 0.02, 0.03), (0.1, 0.2, 0.25, 0.01, 0.0, 0.02)
        tree.add_body(body, parent)
    return tree


def test_export_of_every_joint_kind_puts_bodies_where_kinetree_has_them(tmp_path):
    tree = _every_joint_kind()
    out = tmp_path / "kinds.xml"
    export_mjcf(tree, out)
    m = load_model(out)
    d = mujoco.MjData(m)
    adr = {mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j): int(m.jnt_qposadr[j]) for j in range(m.njnt)}
    rng = np.random.default_rng(5)
    for _ in range(20):
        q = tree.random_configuration(rng)
        values = tree.config_to_dict(q)
        qpos = m.qpos0.copy()
        for name, v in values.items():
            v = np.atleast_1d(v)
            if name == "j_float":
                qpos[adr[name]:adr[name] + 7] = [*v[4:7], *v[:4]]
            elif name == "j_ball":
                qpos[adr[name]:adr[name] + 4] = v
            elif name == "j_plane":
                qpos[adr["j_plane_x"]], qpos[adr["j_plane_y"]], qpos[adr[name]] = v
            else:
                qpos[adr[name]] = v[0]
        d.qpos[:] = qpos
        mujoco.mj_kinematics(m, d)
        for b in tree.bodies:
            i = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_BODY, b.name)
            T = tree.get_transform(q, b.name)
            np.testing.assert_allclose(d.xpos[i], T[:3, 3], atol=1e-9, err_msg=b.name)
            np.testing.assert_allclose(d.xmat[i].reshape(3, 3), T[:3, :3], atol=1e-9, err_msg=b.name)
    # link side: damping = G²·B
    assert m.dof_damping[m.jnt_dofadr[mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, "j_dh")]] == pytest.approx(1.2)
    # masses and inertias as KineTree has them
    back = read(out)
    for b in tree.bodies:
        assert back.get_body(b.name).mass == pytest.approx(b.mass, rel=1e-12)
        np.testing.assert_allclose(back.get_body(b.name).inertia, b.inertia, atol=1e-12)
        np.testing.assert_allclose(back.get_body(b.name).center_of_mass, b.center_of_mass, atol=1e-12)


@pytest.mark.parametrize("middle", ["robot.urdf", "robot.kinetree.json"])
def test_kept_elements_survive_a_urdf_or_project_in_between(tmp_path, middle):
    src = write(tmp_path, MIMIC)
    tree = read(src)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        export_robot(tree, tmp_path / middle)
        again = import_robot(tmp_path / middle)
        export_robot(again, tmp_path / "again.xml")
    a, b = load_model(src), load_model(tmp_path / "again.xml")
    for field in ("nu", "nsensor", "ntendon", "nexclude", "nsite", "ncam", "nlight", "neq"):
        assert getattr(a, field) == getattr(b, field), field
    assert worst_pose_error(tree, tmp_path / "again.xml") < 1e-9


def test_export_copies_or_converts_meshes_and_drops_an_unreadable_one(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    from kinetree.core import RigidBody, RigidBodyTree
    from kinetree.core.io.files import DroppedOnExportWarning

    meshes = tmp_path / "meshes"
    meshes.mkdir()
    trimesh.creation.box(extents=(0.1, 0.2, 0.3)).export(meshes / "box.stl")
    trimesh.creation.icosphere().export(meshes / "ball.ply")  # a format MuJoCo does not read
    (meshes / "bad.obj").write_text("v 0 0 nan\nf 1 1 1\n")
    tree = RigidBodyTree()
    body = RigidBody("b")
    for name in ("box.stl", "ball.ply", "bad.obj"):
        body.add_visual("mesh", (1, 1, 1), filename=str(meshes / name))
    tree.add_body(body, "base")
    out = tmp_path / "out" / "r.xml"
    out.parent.mkdir()
    with pytest.warns(DroppedOnExportWarning, match=r"bad\.obj"):
        export_mjcf(tree, out)
    assets = sorted(p.name for p in (tmp_path / "out" / "r_assets").iterdir())
    assert assets == ["ball.stl", "box.stl"]  # outside the output's folder: copied beside it
    m = load_model(out)
    assert m.nmesh == 2
    back = read(out)
    assert [Path(v.filename).name for v in back.get_body("b").visuals] == ["box.stl", "ball.stl"]


def test_replicated_bodies_read_and_their_sites_are_not_misplaced(tmp_path):
    path = write(tmp_path, """<mujoco><worldbody>
      <replicate count="3" offset="0.5 0 0"><body name="leg" pos="0 0 1"><joint name="hip"/><geom size="0.1"/>
        <site name="foot"/></body></replicate>
      <body name="after"><joint name="j"/><geom size="0.1"/><site name="marker"/></body></worldbody></mujoco>""")
    notes: list[str] = []
    tree = import_mjcf(path, on_warning=notes.append)
    assert tree.num_bodies == 4
    assert worst_pose_error(tree, path) < 1e-9
    assert all(not b.extensions for b in tree.bodies)  # by element order "marker" would land on a leg
    assert any("not kept" in n and "replicate" in n for n in notes)


def test_mujocos_warnings_are_ours_and_leave_no_log_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, """<mujoco><compiler settotalmass="3"/><worldbody><body name="b"><joint/>
      <geom size="0.1"/></body></worldbody></mujoco>""")
    notes: list[str] = []
    tree = import_mjcf(path, on_warning=notes.append)
    assert tree.get_body("b").mass == pytest.approx(3.0)
    assert any("MuJoCo" in n and "settotalmass" in n for n in notes)
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists()
