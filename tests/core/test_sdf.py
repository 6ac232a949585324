"""SDFormat import and export (core/io/sdf*.py): one small model per frame rule with poses computed
by hand, round trips URDF → SDF → KineTree and SDF → URDF → SDF on example-robot-data robots, Drake's
parser as the reference where it is installed, and hostile files."""

from __future__ import annotations

import math
import warnings
from importlib.metadata import PackageNotFoundError, distribution

import numpy as np
import pytest
from kinetree.core.errors import FileFormatError
from kinetree.core.io.files import export_robot, import_robot
from kinetree.core.io.sdf import MeshNotFoundWarning, SdfWarning, export_sdf, import_sdf, sdf_from_string, sdf_string
from kinetree.core.transforms import axis_angle_rotation, pose_from_xyz_rpy


def _sdf(body: str, version: str = "1.9") -> str:
    return f'<?xml version="1.0"?>\n<sdf version="{version}"><model name="m">{body}</model></sdf>'


def _rev(name, parent, child, axis="0 0 1", pose="", extra=""):
    return (f'<joint name="{name}" type="revolute">{pose}<parent>{parent}</parent><child>{child}</child>'
            f'<axis><xyz{extra}>{axis}</xyz><limit><lower>-3</lower><upper>3</upper></limit></axis></joint>')


def _T(xyz=(0, 0, 0), rpy=(0, 0, 0)):
    return pose_from_xyz_rpy(xyz, rpy)


def _rot(axis, q):
    T = np.eye(4)
    T[:3, :3] = axis_angle_rotation(np.asarray(axis, float) / np.linalg.norm(axis), q)
    return T


def _poses(tree, q):
    return np.array([tree.get_transform(q, b) for b in tree.body_names])


def _q_for(other, tree, q):
    """``q`` of ``tree`` for ``other``, which may hold a mimic follower of ``tree`` as a joint of its own
    (SDFormat 1.9 has no mimic)."""
    values = tree.config_to_dict(q)
    for b in tree.bodies:
        m = b.joint.mimic
        if m is not None:
            values[b.joint.name] = m.multiplier * float(np.ravel(values[m.joint])[0]) + m.offset
    names = set(other.config_to_dict(other.home_configuration()))
    return other.config_to_vector({k: v for k, v in values.items() if k in names})


# --- one rule each, by hand --------------------------------------------------------------

def test_link_pose_relative_to_a_sibling_link_and_joint_pose_default_is_the_child():
    t = sdf_from_string(_sdf('<link name="a"/>'
                             '<link name="b"><pose relative_to="a">1 0 0 0 0 1.5707963267948966</pose></link>'
                             '<link name="c"><pose relative_to="b">0 2 0 0 0 0</pose></link>'
                             + _rev("j1", "a", "b") + _rev("j2", "b", "c", "1 0 0",
                                                           '<pose>0 0 0.5 0 0 0</pose>')))
    assert t.base_name == "a" and t.body_names == ["b", "c"]
    q = np.array([0.3, -0.7])
    Xb = _T((1, 0, 0), (0, 0, math.pi / 2))
    np.testing.assert_allclose(t.get_transform(q, "b"), Xb @ _rot((0, 0, 1), 0.3), atol=1e-12)
    # j2's frame is in c (default), 0.5 up; it turns about its own x
    Xbc = _T((0, 2, 0))
    J = Xbc @ _T((0, 0, 0.5))
    expect = Xb @ _rot((0, 0, 1), 0.3) @ J @ _rot((1, 0, 0), -0.7) @ np.linalg.inv(_T((0, 0, 0.5)))
    np.testing.assert_allclose(t.get_transform(q, "c"), expect, atol=1e-12)


def test_frame_chain_and_attached_to():
    t = sdf_from_string(_sdf('<link name="a"/>'
                             '<frame name="f1" attached_to="a"><pose>0 0 1 0 0 0</pose></frame>'
                             '<frame name="f2" attached_to="f1"><pose>1 0 0 0 0 0</pose></frame>'
                             '<link name="b"><pose relative_to="f2">0 0 0 0 0 0</pose></link>'
                             '<joint name="j" type="prismatic"><parent>f1</parent><child>b</child>'
                             '<axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1</upper></limit></axis></joint>'))
    np.testing.assert_allclose(t.get_transform(np.array([0.25]), "b"), _T((1, 0.25, 1)), atol=1e-12)


def test_axis_expressed_in_parent_versus_joint_frame():
    body = ('<link name="a"/><link name="b"><pose>0 0 0 0 0 1.5707963267948966</pose></link>')
    in_joint = sdf_from_string(_sdf(body + _rev("j", "a", "b", "1 0 0")))
    in_parent = sdf_from_string(_sdf(body + _rev("j", "a", "b", "1 0 0", extra=' expressed_in="a"')))
    q = np.array([0.4])
    Xb = _T(rpy=(0, 0, math.pi / 2))
    np.testing.assert_allclose(in_joint.get_transform(q, "b"), Xb @ _rot((1, 0, 0), 0.4), atol=1e-12)
    np.testing.assert_allclose(in_parent.get_transform(q, "b"), _rot((1, 0, 0), 0.4) @ Xb, atol=1e-12)


def test_sdf_1_6_use_parent_model_frame_and_1_9_expressed_in_model_agree():
    body = '<link name="a"/><link name="b"><pose>0 0 1 0 0.5 0</pose></link>'
    v16 = sdf_from_string(_sdf(body + '<joint name="j" type="revolute"><parent>a</parent><child>b</child><axis>'
                                      '<xyz>0 1 0</xyz><use_parent_model_frame>true</use_parent_model_frame>'
                                      '</axis></joint>', "1.6"))
    v19 = sdf_from_string(_sdf(body + _rev("j", "a", "b", "0 1 0", extra=' expressed_in="__model__"')))
    v16_joint = sdf_from_string(_sdf(body + _rev("j", "a", "b", "0 1 0"), "1.6"))
    q = np.array([0.9])
    expect = _T((0, 0, 1), (0, 0.5, 0)) @ _rot((0, 1, 0), 0.9)  # y of the model is y of b (pitch about y)
    np.testing.assert_allclose(v16.get_transform(q, "b"), v19.get_transform(q, "b"), atol=1e-12)
    np.testing.assert_allclose(v16_joint.get_transform(q, "b"), expect, atol=1e-12)


def test_universal_joint_is_two_revolutes_with_a_cross_body():
    t = sdf_from_string(_sdf('<link name="a"/><link name="b"><pose>0 0 1 0 0 0</pose></link>'
                             '<joint name="u" type="universal"><parent>a</parent><child>b</child>'
                             '<axis><xyz>1 0 0</xyz></axis><axis2><xyz>0 1 0</xyz></axis2></joint>'))
    assert t.body_names == ["u_cross", "b"] and t.get_body("u_cross").mass == 0.0
    q = np.array([0.3, -0.5])
    np.testing.assert_allclose(t.get_transform(q, "b"), _T((0, 0, 1)) @ _rot((1, 0, 0), 0.3) @ _rot((0, 1, 0), -0.5),
                               atol=1e-12)
    text = sdf_string(t)
    assert 'type="universal"' in text
    np.testing.assert_allclose(sdf_from_string(text).get_transform(q, "b"), t.get_transform(q, "b"), atol=1e-12)


def test_nested_models_are_flattened_with_double_colons_and_written_back_nested():
    t = sdf_from_string(_sdf('<link name="base"/><model name="arm"><pose>0 0 1 0 0 0</pose>'
                             '<link name="l1"><pose>1 0 0 0 0 0</pose></link>'
                             '<link name="l2"><pose relative_to="l1">0 1 0 0 0 0</pose></link>'
                             + _rev("j2", "l1", "l2") + '</model>'
                             '<joint name="mount" type="fixed"><parent>base</parent><child>arm::l1</child></joint>'))
    assert t.body_names == ["arm::l1", "arm::l2"] and "arm::j2" in t.joint_names()
    q = np.array([0.5])
    np.testing.assert_allclose(t.get_transform(q, "arm::l2"), _T((1, 1, 1)) @ _rot((0, 0, 1), 0.5),
                               atol=1e-12)  # j2 turns l2 about its own origin (the joint frame defaults to the child)
    text = sdf_string(t)
    assert '<model name="arm">' in text and "::" not in text.split("<model name=\"arm\">")[1].split("</model>")[0]
    np.testing.assert_allclose(_poses(sdf_from_string(text), q), _poses(t, q), atol=1e-12)


def test_world_joint_gives_a_world_base_and_model_pose_places_it():
    t = sdf_from_string(_sdf('<pose>0 0 2 0 0 0</pose><link name="a"><pose>1 0 0 0 0 0</pose></link>'
                             '<joint name="fix" type="fixed"><parent>world</parent><child>a</child></joint>'))
    assert t.base_name == "world"
    np.testing.assert_allclose(t.get_transform(t.home_configuration(), "a"), _T((1, 0, 2)), atol=1e-12)
    back = sdf_from_string(sdf_string(t))
    np.testing.assert_allclose(back.get_transform(back.home_configuration(), "a"), _T((1, 0, 2)), atol=1e-12)


def test_several_root_links_hang_from_the_world_by_floating_joints():
    with pytest.warns(SdfWarning, match="floating joint"):
        t = sdf_from_string(_sdf('<link name="a"><pose>1 0 0 0 0 0</pose></link><link name="b"/>'))
    assert t.base_name == "world" and [t.get_body(n).joint.type for n in t.body_names] == ["floating", "floating"]
    np.testing.assert_allclose(t.get_transform(t.home_configuration(), "a"), _T((1, 0, 0)), atol=1e-12)


def test_dynamics_limits_and_kept_elements():
    t = sdf_from_string(_sdf('<plugin name="p" filename="libx.so"/><link name="a"><sensor name="s" type="imu"/></link>'
                             '<link name="b"/><joint name="j" type="revolute"><parent>a</parent><child>b</child>'
                             '<axis><xyz>0 0 1</xyz><limit><lower>-1</lower><upper>2</upper><effort>10</effort>'
                             '<velocity>3</velocity></limit><dynamics><damping>0.5</damping><friction>0.25'
                             '</friction></dynamics></axis><sensor name="ft" type="force_torque"/></joint>'))
    j = t.get_body("b").joint
    assert tuple(j.position_limits) == (-1.0, 2.0)
    assert j.viscous_friction == 0.5 and j.coulomb_friction == (0.25, -0.25)
    assert any("plugin" in e for e in t.extensions) and any("sensor" in e for e in t.base.extensions)
    text = sdf_string(t)
    for piece in ('<plugin name="p" filename="libx.so"/>', '<sensor name="s" type="imu"/>', "<effort>10.0</effort>",
                  "<damping>0.5</damping>", '<sensor name="ft" type="force_torque"/>'):
        assert piece in text
    back = sdf_from_string(text).get_body("b").joint
    assert back.viscous_friction == 0.5 and back.extensions == j.extensions


# --- round trips on real robots ----------------------------------------------------------

def _robots():
    try:
        return distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")
    except PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")


ROBOTS = ["talos_data/robots/talos_full_v2.urdf", "panda_description/urdf/panda.urdf",
          "ur_description/urdf/ur5_robot.urdf"]


@pytest.mark.parametrize("rel", ROBOTS)
def test_urdf_to_sdf_to_urdf_round_trips_keep_every_body_pose(rel, tmp_path):
    src = _robots() / rel
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(src)
        export_robot(tree, tmp_path / "r.sdf")
        sdf = import_robot(tmp_path / "r.sdf")
        export_robot(sdf, tmp_path / "r.urdf")
        urdf = import_robot(tmp_path / "r.urdf")
        export_robot(urdf, tmp_path / "r2.sdf")
        sdf2 = import_robot(tmp_path / "r2.sdf")
    assert sdf.body_names == tree.body_names == urdf.body_names == sdf2.body_names
    for name in [tree.base_name, *tree.body_names]:  # masses and inertias (a massless link stays massless)
        a, b = tree.get_body(name), sdf2.get_body(name)
        assert b.mass == pytest.approx(a.mass, rel=1e-12, abs=1e-15), name
        np.testing.assert_allclose(b.inertia, a.inertia, rtol=1e-9, atol=1e-12, err_msg=name)
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = tree.random_configuration(rng)
        ref = _poses(tree, q)
        for other in (sdf, urdf, sdf2):
            np.testing.assert_allclose(_poses(other, _q_for(other, tree, q)), ref, atol=1e-12, rtol=0)


def test_cli_converts_urdf_to_sdf_and_back(tmp_path, capsys):
    from kinetree.app.cli import main

    src = _robots() / ROBOTS[1]
    assert main(["convert", str(src), str(tmp_path / "panda.sdf")]) == 0
    assert main(["convert", str(tmp_path / "panda.sdf"), str(tmp_path / "panda.urdf")]) == 0
    assert main(["details", str(tmp_path / "panda.sdf")]) == 0
    out = capsys.readouterr().out
    assert "panda.sdf" in out and "panda_link7" in out


# --- Drake as the reference --------------------------------------------------------------

DRAKE_MODELS = {
    "rules": _sdf('<link name="a"/><frame name="f" attached_to="a"><pose>0 0 1 0.1 0.2 0.3</pose></frame>'
                  '<link name="b"><pose relative_to="f">0.5 0 0 0 0.4 0</pose></link>'
                  '<link name="c"><pose relative_to="b">0 0.3 0 0.2 0 0</pose></link>'
                  '<link name="d"><pose relative_to="c">0 0 0.2 0 0 0</pose></link>'
                  + _rev("j1", "a", "b", "0 1 1", '<pose relative_to="f">0 0 0.1 0 0 0</pose>')
                  + _rev("j2", "b", "c", "1 0 0", extra=' expressed_in="a"')
                  + '<joint name="j3" type="prismatic"><parent>c</parent><child>d</child><axis><xyz>0 0 1</xyz>'
                    '<limit><lower>-1</lower><upper>1</upper></limit></axis></joint>'),
    "nested_world_1_9": _sdf('<pose>0.1 0.2 0.3 0.3 0.2 0.1</pose><link name="a"><pose>0 0 1 0 0 0</pose></link>'
                             '<joint name="w" type="revolute"><pose relative_to="__model__">0 0.5 0 0 0 0</pose>'
                             '<parent>world</parent><child>a</child><axis><xyz expressed_in="__model__">1 1 0</xyz>'
                             '</axis></joint><model name="arm"><pose relative_to="a">0.2 0 0 0 0 0.7</pose>'
                             '<link name="l1"><pose>0 0.1 0 0.3 0 0</pose></link><link name="l2">'
                             '<pose relative_to="l1">0.4 0 0 0 0.2 0</pose></link>'
                             + _rev("j2", "l1", "l2", "0 0 1", '<pose>0 0 0.05 0 0 0</pose>') + '</model>'
                             '<joint name="mount" type="revolute"><parent>a</parent><child>arm::l1</child>'
                             '<axis><xyz expressed_in="arm::l2">0 1 0</xyz></axis></joint>'),
    "sdf_1_6": _sdf('<link name="a"/><link name="b"><pose>0.1 0 1 0.2 0.5 0</pose></link>'
                    '<link name="c"><pose>0.3 0.2 1 0 0.5 0.4</pose></link>'
                    '<joint name="j1" type="revolute"><pose>0 0 -0.2 0 0 0</pose><parent>a</parent><child>b</child>'
                    '<axis><xyz>0 1 0</xyz><use_parent_model_frame>true</use_parent_model_frame></axis></joint>'
                    '<joint name="j2" type="prismatic"><parent>b</parent><child>c</child>'
                    '<axis><xyz>1 0 0</xyz></axis></joint>', "1.6"),
}


def _drake_poses(text, tmp_path, names, kt_tree, q):
    pydrake = pytest.importorskip("pydrake.multibody.parsing")
    from pydrake.multibody.plant import MultibodyPlant

    path = tmp_path / "drake.sdf"
    path.write_text(text)
    plant = MultibodyPlant(0.0)
    pydrake.Parser(plant).AddModels(str(path))
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    values = kt_tree.config_to_dict(q)
    for b in kt_tree.bodies:  # a mimic follower (dropped by SDFormat 1.9) gets its value in Drake
        m = b.joint.mimic
        if m is not None:
            values[b.joint.name] = m.multiplier * float(np.ravel(values[m.joint])[0]) + m.offset
    model = sdf_from_string(text).base._sdf_model["name"] if "<model" in text else ""

    def split(name):  # Drake names a nested model's element within its own model instance "m::arm"
        scope, _, local = name.rpartition("::")
        inst = f"{model}::{scope}" if scope else model
        return local, plant.GetModelInstanceByName(inst) if plant.HasModelInstanceNamed(inst) else None

    for jn in kt_tree.joint_names():
        local, inst = split(jn)
        if inst is not None and not plant.HasJointNamed(local, inst) and plant.HasJointNamed(local):
            inst = None  # Drake files a joint to a nested model's link under another instance
        if not plant.HasJointNamed(local, *(() if inst is None else (inst,))):
            continue  # a free link's floating joint: Drake's free body at its default (the file's) pose
        j = plant.GetJointByName(local, *(() if inst is None else (inst,)))
        v = values.get(jn)
        if v is not None and j.num_positions() == 1:
            j.set_angle(ctx, float(np.ravel(v)[0])) if j.type_name() == "revolute" else j.set_translation(
                ctx, float(np.ravel(v)[0]))
    def pose(n):
        body = plant.world_body() if n == "world" else plant.GetBodyByName(*split(n))
        return body.EvalPoseInWorld(ctx).GetAsMatrix4()

    base = pose(kt_tree.base_name)
    return np.array([np.linalg.inv(base) @ pose(n) for n in names])


@pytest.mark.parametrize("name", list(DRAKE_MODELS))
def test_body_poses_equal_drakes_on_frame_rule_models(name, tmp_path):
    text = DRAKE_MODELS[name]
    t = sdf_from_string(text)
    rng = np.random.default_rng(1)
    for _ in range(5):
        q = t.random_configuration(rng)
        np.testing.assert_allclose(_poses(t, q), _drake_poses(text, tmp_path, t.body_names, t, q), atol=1e-12)


@pytest.mark.parametrize("rel", ROBOTS)
def test_exported_robots_load_in_drake_with_kinetree_poses(rel, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(_robots() / rel)
    text = sdf_string(tree)
    rng = np.random.default_rng(2)
    for _ in range(3):
        q = tree.random_configuration(rng)
        np.testing.assert_allclose(_poses(tree, q), _drake_poses(text, tmp_path, tree.body_names, tree, q),
                                   atol=1e-12)


# --- hostile files -----------------------------------------------------------------------

def _model_dir(tmp_path, text):
    d = tmp_path / "models" / "robot"
    d.mkdir(parents=True)
    (d / "model.sdf").write_text(text)
    return d / "model.sdf"


def test_include_escaping_the_folder_tree_is_refused(tmp_path):
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "model.sdf").write_text(_sdf('<link name="x"/>'))
    path = _model_dir(tmp_path, _sdf('<link name="a"/>\n<include><uri>../../secret</uri></include>'))
    with pytest.raises(FileFormatError, match=r"model\.sdf:3: <include>: URI '\.\./\.\./secret' leads outside"):
        import_sdf(path)


def test_include_of_a_sibling_model_is_flattened(tmp_path):
    sib = tmp_path / "models" / "hand"
    sib.mkdir(parents=True)
    (sib / "model.sdf").write_text(_sdf('<link name="palm"><pose>0 0 0.1 0 0 0</pose></link>'))
    path = _model_dir(tmp_path, _sdf('<link name="a"/><include><uri>model://hand</uri><name>h</name>'
                                     '<pose>1 0 0 0 0 0</pose></include><joint name="j" type="fixed">'
                                     '<parent>a</parent><child>h::palm</child></joint>'))
    t = import_sdf(path)
    np.testing.assert_allclose(t.get_transform(t.home_configuration(), "h::palm"), _T((1, 0, 0.1)), atol=1e-12)


def test_absolute_mesh_path_is_not_read(tmp_path):
    path = _model_dir(tmp_path, _sdf('<link name="a"><visual name="v"><geometry><mesh><uri>/etc/passwd</uri>'
                                     '</mesh></geometry></visual></link>'))
    with pytest.warns(SdfWarning, match=r"model\.sdf:2: link 'a': visual 'v': mesh '/etc/passwd' is outside"):
        t = import_sdf(path)
    assert t.base.visuals[0].filename == "file:///etc/passwd"  # a URI the viewer never opens
    assert "<uri>file:///etc/passwd</uri>" in sdf_string(t)


def test_model_uri_mesh_in_the_models_own_folder_is_found(tmp_path):
    path = _model_dir(tmp_path, _sdf('<link name="a"><visual name="v"><geometry><mesh><uri>model://robot/meshes/m.stl'
                                     '</uri><scale>2 2 2</scale></mesh></geometry></visual></link>'))
    (path.parent / "meshes").mkdir()
    (path.parent / "meshes" / "m.stl").write_text("solid x\nendsolid x\n")
    v = import_sdf(path).base.visuals[0]
    assert v.filename == str((path.parent / "meshes" / "m.stl").resolve()) and v.size == (2.0, 2.0, 2.0)


def test_missing_mesh_is_a_warning_and_the_kinematics_load(tmp_path):
    path = _model_dir(tmp_path, _sdf('<link name="a"/><link name="b"><visual name="v"><geometry><mesh>'
                                     '<uri>model://robot/meshes/gone.stl</uri></mesh></geometry></visual></link>'
                                     + _rev("j", "a", "b")))
    with pytest.warns(MeshNotFoundWarning, match="gone.stl"):
        t = import_sdf(path)
    assert t.body_names == ["b"]


def test_cycle_of_relative_to_frames_is_refused_naming_them():
    text = _sdf('<link name="a"/><frame name="f1"><pose relative_to="f2"/></frame>'
                '<frame name="f2"><pose relative_to="f1"/></frame>')
    with pytest.raises(FileFormatError, match="cycle: f[12] → f[12] → f[12]"):
        sdf_from_string(text)


def test_unknown_relative_to_name_is_refused():
    with pytest.raises(FileFormatError, match="<string>:2: link 'a': pose relative_to 'nowhere' names no link"):
        sdf_from_string(_sdf('<link name="a"><pose relative_to="nowhere"/></link>'))


def test_huge_file_deep_nesting_and_entities_are_refused(tmp_path):
    big = tmp_path / "big.sdf"
    with open(big, "wb") as f:
        f.truncate(60 * 2**20)
    with pytest.raises(FileFormatError, match="at most 50 MB"):
        import_sdf(big)
    deep = _sdf('<link name="a"/>' + '<model name="n">' * 40 + '<link name="x"/>' + "</model>" * 40)
    with pytest.raises(FileFormatError, match="nested more than 32 deep"):
        sdf_from_string(deep)
    with pytest.raises(FileFormatError, match="DTD and entity"):
        sdf_from_string('<!DOCTYPE sdf [<!ENTITY x "y">]><sdf version="1.9"><model name="m"/></sdf>')


def test_several_models_are_refused_naming_them():
    with pytest.raises(FileFormatError, match="holds 2 models \\('a', 'b'\\)"):
        sdf_from_string('<sdf version="1.9"><world name="w"><model name="a"/><model name="b"/></world></sdf>')


def test_exported_meshes_are_relative_to_the_output(tmp_path):
    mesh = tmp_path / "out" / "meshes" / "m.stl"
    mesh.parent.mkdir(parents=True)
    mesh.write_text("solid x\nendsolid x\n")
    t = sdf_from_string(_sdf('<link name="a"/>'))
    t.base.add_visual("mesh", (1, 1, 1), filename=str(mesh))
    export_sdf(t, tmp_path / "out" / "r.sdf")
    assert "<uri>meshes/m.stl</uri>" in (tmp_path / "out" / "r.sdf").read_text()
    assert import_sdf(tmp_path / "out" / "r.sdf").base.visuals[0].filename == str(mesh.resolve())


# --- Drake's own example models ----------------------------------------------------------

def _drake_examples():
    pytest.importorskip("pydrake.multibody.parsing")
    from pathlib import Path

    import pydrake

    return Path(pydrake.__file__).parent / "share/drake/examples"


@pytest.mark.parametrize("rel", ["acrobot/Acrobot.sdf", "multibody/cart_pole/cart_pole.sdf",
                                 "planar_gripper/planar_gripper.sdf"])
def test_drake_examples_load_with_drakes_body_poses(rel, tmp_path):
    path = _drake_examples() / rel
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t = import_sdf(path)
        back = sdf_from_string(sdf_string(t))
        export_robot(t, tmp_path / "r.urdf")  # SDF → URDF → SDF
        export_robot(import_robot(tmp_path / "r.urdf"), tmp_path / "r.sdf")
        again = import_robot(tmp_path / "r.sdf")
    # URDF has no child-to-joint transform: a <joint>_frame body may come in between (cart-pole's pin)
    assert set(t.body_names) <= set(again.body_names)
    text = path.read_text()
    rng = np.random.default_rng(3)
    for _ in range(4):
        q = t.random_configuration(rng)
        for b in t.bodies:  # free bodies stay where the file puts them (Drake's default pose)
            if b.joint.type == "floating":
                q[t.position_index(b.joint.name)] = b.joint.home_position
        np.testing.assert_allclose(_poses(t, q), _drake_poses(text, tmp_path, t.body_names, t, q), atol=1e-12)
        np.testing.assert_allclose(_poses(back, q), _poses(t, q), atol=1e-12)
        qa = _q_for(again, t, q)
        np.testing.assert_allclose([again.get_transform(qa, n) for n in t.body_names], _poses(t, q), atol=1e-12)


def test_cli_fk_of_an_sdf(tmp_path, capsys):
    from kinetree.app.cli import main

    path = tmp_path / "arm.sdf"
    path.write_text(_sdf('<link name="a"/><link name="b"><pose>0 0 1 0 0 0</pose></link>'
                         + _rev("j", "a", "b", "0 1 0", '<pose>0 0 -1 0 0 0</pose>')))
    assert main(["fk", str(path), "--q", "90", "--deg", "--format", "xyzrpy"]) == 0
    x, y, z, r, p, yaw = map(float, capsys.readouterr().out.split())
    np.testing.assert_allclose([x, y, z, p], [1, 0, 0, 90], atol=1e-6)  # about y, 1 m below b; degrees out


def test_symlinked_include_leading_outside_is_refused(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "model.sdf").write_text(_sdf('<link name="x"/>'))
    path = _model_dir(tmp_path, _sdf('<link name="a"/><include><uri>model://link</uri></include>'))
    (tmp_path / "models" / "link").symlink_to(outside)
    with pytest.raises(FileFormatError, match="leads outside the model's folder tree"):
        import_sdf(path)


def test_a_model_including_itself_stops_at_the_nesting_bound(tmp_path):
    path = _model_dir(tmp_path, _sdf('<link name="a"/><include><uri>model://robot</uri></include>'))
    with pytest.raises(FileFormatError, match="nested more than 32 deep"):
        import_sdf(path)


def test_element_count_is_bounded(monkeypatch):
    from kinetree.core.io.sdf import read as sdf_read

    monkeypatch.setattr(sdf_read, "MAX_ELEMENTS", 50)
    with pytest.raises(FileFormatError, match=r"<string>:2: <link>: more than 50 XML elements"):
        sdf_from_string(_sdf("".join(f'<link name="l{k}"/>' for k in range(60))))


def test_unmodelled_joint_type_is_refused_naming_it():
    with pytest.raises(FileFormatError, match="joint 's': type 'screw' is not one KineTree models"):
        sdf_from_string(_sdf('<link name="a"/><link name="b"/><joint name="s" type="screw"><parent>a</parent>'
                             '<child>b</child></joint>'))


def test_ball_and_universal_joints_equal_drakes(tmp_path):
    pytest.importorskip("pydrake.multibody.parsing")
    from kinetree.core.transforms import quat_to_rotation
    from pydrake.math import RollPitchYaw
    from pydrake.multibody.parsing import Parser
    from pydrake.multibody.plant import MultibodyPlant

    text = _sdf('<link name="a"/><link name="b"><pose>0 0 1 0.2 0 0</pose></link>'
                '<link name="c"><pose>0 0.5 1 0 0.3 0</pose></link>'
                '<joint name="ball" type="ball"><pose>0 0 -0.1 0 0 0</pose><parent>a</parent><child>b</child></joint>'
                '<joint name="u" type="universal"><parent>b</parent><child>c</child><axis><xyz>1 0 0</xyz></axis>'
                '<axis2><xyz>0 1 0</xyz></axis2></joint>')
    t = sdf_from_string(text)
    path = tmp_path / "bu.sdf"
    path.write_text(text)
    plant = MultibodyPlant(0.0)
    Parser(plant).AddModels(str(path))
    plant.Finalize()
    ctx = plant.CreateDefaultContext()
    rng = np.random.default_rng(4)
    for _ in range(4):
        q = t.random_configuration(rng)
        v = t.config_to_dict(q)
        plant.GetJointByName("ball").set_angles(ctx, RollPitchYaw(quat_to_rotation(v["ball"])).vector())
        plant.GetJointByName("u").set_angles(ctx, [float(v["u"]), float(v["u_axis2"])])
        for name in ("b", "c"):
            X = plant.GetBodyByName(name).EvalPoseInWorld(ctx).GetAsMatrix4()
            np.testing.assert_allclose(t.get_transform(q, name), X, atol=1e-12)


def test_a_link_without_inertial_gets_sdformats_default_mass_and_a_massless_body_writes_mass_zero():
    t = sdf_from_string(_sdf('<link name="a"/><link name="b"/>' + _rev("j", "a", "b")))
    assert t.get_body("b").mass == 1.0 and list(t.get_body("b").inertia) == [1, 1, 1, 0, 0, 0]  # as libsdformat, Drake
    t.get_body("b").mass = 0.0
    t.get_body("b").inertia = [0, 0, 0, 0, 0, 0]
    back = sdf_from_string(sdf_string(t)).get_body("b")
    assert back.mass == 0.0 and not back.inertia.any()


def test_placement_frame_is_a_warning_not_a_silent_change():
    with pytest.warns(SdfWarning, match="placement_frame 'a' is not read"):
        sdf_from_string('<sdf version="1.9"><model name="m" placement_frame="a"><link name="a"/></model></sdf>')


def test_axis_elements_kinetree_does_not_hold_are_named_in_a_warning():
    with pytest.warns(SdfWarning, match=r"joint 'j' <axis>: mimic, limit stiffness not kept"):
        sdf_from_string(_sdf('<link name="a"/><link name="b"/><joint name="j" type="revolute"><parent>a</parent>'
                             '<child>b</child><axis><xyz>0 0 1</xyz><mimic joint="k"/><limit><stiffness>1</stiffness>'
                             '</limit></axis></joint>', "1.11"))


def test_shape_elements_kinetree_does_not_hold_are_counted_in_one_warning():
    shape = ('<visual name="v{k}"><geometry><sphere><radius>1</radius></sphere></geometry><transparency>0.5'
             '</transparency><material><diffuse>1 0 0 1</diffuse><specular>1 1 1 1</specular></material></visual>'
             '<collision name="c{k}"><geometry><sphere><radius>1</radius></sphere></geometry><surface/></collision>')
    with pytest.warns(SdfWarning, match=r"not kept .*: collision <surface> \(2\), material <specular> \(2\), "
                                        r"visual <transparency> \(2\)"):
        t = sdf_from_string(_sdf(f'<link name="a">{shape.format(k=1)}{shape.format(k=2)}</link>'))
    assert t.base.visuals[0].color == (1.0, 0.0, 0.0, 1.0)
