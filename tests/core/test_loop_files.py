"""Closed loops in robot files: round trips (loops, kinds, frames, actuated flags), the warnings
that say what a format cannot hold, the default actuation of a file that marks no joint passive,
and hostile loops (unknown bodies, bad numbers, over-constraint) refused naming file and line."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from kinetree.core import load_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io import export_robot, import_robot
from kinetree.core.io.mjcf.read import MjcfWarning
from kinetree.core.io.sdf.model import SdfWarning
from kinetree.core.io.urdf.check import UrdfWarning

MECHANISMS = ["four_bar", "slider_crank", "parallelogram_arm", "gripper_four_bar", "planar_3rrr", "delta_robot"]


def same_loops(a, b) -> None:
    assert [(lp.name, lp.kind, lp.body_a, lp.body_b) for lp in a.loops] == [
        (lp.name, lp.kind, lp.body_a, lp.body_b) for lp in b.loops]
    for x, y in zip(a.loops, b.loops):
        assert np.array_equal(x.frame_a, y.frame_a) and np.array_equal(x.frame_b, y.frame_b)
    flags = [{bd.joint.name: bd.joint.actuated for bd in t.bodies} for t in (a, b)]
    assert flags[0] == flags[1]


@pytest.mark.parametrize("name", MECHANISMS)
def test_urdf_writes_the_spanning_tree_warns_per_cut_loop_and_reads_its_loops_back(tmp_path, name):
    t = load_robot(name)
    path = tmp_path / f"{name}.urdf"
    with pytest.warns(UrdfWarning) as record:
        export_robot(t, path)
    cut = [str(w.message) for w in record if "cannot hold a closed loop" in str(w.message)]
    assert len(cut) == len(t.loops) and all(f"loop {lp.name!r}" in m for lp, m in zip(t.loops, cut))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the file marks its passive joints: no default actuation
        back = import_robot(path)
    same_loops(t, back)
    reopens_closed(t, back)
    q = t.home_configuration()
    assert np.allclose(back.forward_kinematics(q), t.forward_kinematics(q), atol=1e-12)


def reopens_closed(t, back) -> None:
    """``back`` (read from a file of ``t``) has ``t``'s home positions, and its home is closed."""
    homes = [{b.joint.name: b.joint.home_position for b in x.bodies if b.joint.type != "fixed"} for x in (t, back)]
    assert homes[0] == homes[1]
    q = back.home_configuration()
    assert np.abs(back.loop_residual(q)).max() <= 1e-12
    back.forward_kinematics(q)


def urdf_text(tmp_path, name: str = "four_bar") -> str:
    path = tmp_path / "x.urdf"
    with pytest.warns(UrdfWarning):
        export_robot(load_robot(name), path)
    return path.read_text()


def test_urdf_without_passive_joints_gets_the_first_free_joints_actuated(tmp_path):
    text = re.sub(r"\s*<passive joint=\"[^\"]+\"/>", "", urdf_text(tmp_path, "delta_robot"))
    path = tmp_path / "delta.urdf"
    path.write_text(text)
    with pytest.warns(UrdfWarning, match=r"no joint is marked passive: 'leg1_arm_joint', 'leg1_elbow_joint', "
                                         r"'leg1_forearm_joint' actuated"):
        t = import_robot(path)
    assert [b.joint.name for b in t.bodies if b.joint.actuated and b.joint.type != "fixed"] == [
        "leg1_arm_joint", "leg1_elbow_joint", "leg1_forearm_joint"]
    t.get_body("leg1_elbow").joint.actuated = True  # changeable in the API: the library's choice back
    for k in (1, 2, 3):
        t.get_body(f"leg{k}_arm").joint.actuated = True
    t.get_body("leg1_elbow").joint.actuated = False
    t.get_body("leg1_forearm").joint.actuated = False
    assert t.mobility() == 3
    t.solve_loops(load_robot("delta_robot").home_configuration())


@pytest.mark.parametrize(("old", "new", "message"), [
    ('body_b="rocker"', 'body_b="nowhere"', r"x\.urdf:\d+: loop 'coupler_rocker': .*no body named 'nowhere'"),
    ('kind="hinge"', 'kind="cam"', r"x\.urdf:\d+: <loop name='coupler_rocker'>: unknown kind 'cam'"),
    ('frame_a="1.0 0.0 0.0 0.35', 'frame_a="1.0 0.0 0.0 nan', r"x\.urdf:\d+: <loop name='coupler_rocker'>: "
                                                              r"attribute 'frame_a' holds a non-finite number"),
    ('frame_a="1.0 0.0 0.0 0.35', 'frame_a="1.0 0.0 0.0', r"attribute 'frame_a' must be 12 numbers"),
    ('frame_a="1.0 0.0 0.0 0.35', 'frame_a="2.0 0.0 0.0 0.35', r"x\.urdf:\d+: loop 'coupler_rocker': .*frame_a"),
    ('<passive joint="coupler_joint"/>', '<passive joint="ghost"/>', r"x\.urdf:\d+: <passive joint='ghost'>: no joint"),
    ('<passive joint="coupler_joint"/>', '<cam/>', r"x\.urdf:\d+: <kinetree_loops>: unknown element <cam>"),
    ('<home joint="crank_joint"', '<home joint="ghost"', r"x\.urdf:\d+: <home joint='ghost'>: no joint"),
    ('<home joint="crank_joint" value="', '<home joint="crank_joint" value="9', r"x\.urdf:\d+: <home joint='crank_"
                                                                            r"joint'>: .*home position"),
    ('<home joint="crank_joint" value="', '<home joint="crank_joint" value="x', r"<home joint='crank_joint'>: value "
                                                                            r"'x.*' is not a number"),
    ('kind="hinge"', 'kind="weld"', r"x\.urdf:\d+: loop 'coupler_rocker': over-constrains the mechanism"),
])
def test_urdf_refuses_a_bad_loop_naming_file_line_and_element(tmp_path, old, new, message):
    text = urdf_text(tmp_path)
    assert old in text
    path = tmp_path / "x.urdf"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(FileFormatError, match=message):
        import_robot(path)


def test_urdf_refuses_a_second_loops_element_and_too_many_loops(tmp_path):
    text = urdf_text(tmp_path)
    block = text[text.index("<kinetree_loops>"):text.index("</kinetree_loops>") + len("</kinetree_loops>")]
    path = tmp_path / "x.urdf"
    path.write_text(text.replace(block, block + block))
    with pytest.raises(FileFormatError, match=r"x\.urdf:\d+: <kinetree_loops>: a robot has at most one"):
        import_robot(path)
    loop = re.search(r"<loop [^>]+/>", text).group(0)
    path.write_text(text.replace(loop, loop * 1001))
    with pytest.raises(FileFormatError, match=r"more than the 1000 loops"):
        import_robot(path)


def default_flags(tree):
    """``tree``'s joints' actuated flags as a file without passive markers gives them."""
    from kinetree.core.io.loop_files import default_actuation

    t = tree.copy()
    for b in t.bodies:
        b.joint.actuated = True
    default_actuation(t)
    return t


@pytest.mark.parametrize("name", MECHANISMS)
def test_sdformat_writes_loops_as_a_model_graph_cycle_and_reads_them_back(tmp_path, name):
    t = load_robot(name)
    path = tmp_path / f"{name}.sdf"
    with pytest.warns(SdfWarning, match=r"SDFormat cannot mark joints passive"):
        export_robot(t, path)
    with pytest.warns(SdfWarning, match=r"SDFormat marks no joint passive: '[^']+'.* actuated"):
        back = import_robot(path)
    assert [(lp.name, lp.kind, lp.body_a, lp.body_b) for lp in t.loops] == [
        (lp.name, lp.kind, lp.body_a, lp.body_b) for lp in back.loops]
    for x, y in zip(t.loops, back.loops):  # through rpy text: equal to rounding
        assert np.abs(x.frame_a - y.frame_a).max() <= 1e-12 and np.abs(x.frame_b - y.frame_b).max() <= 1e-12
    expected = default_flags(t)
    assert [b.joint.actuated for b in back.bodies] == [b.joint.actuated for b in expected.bodies]
    reopens_closed(t, back)  # the home as <initial_position>
    back.solve_loops(back.home_configuration())  # the default actuation leaves a solvable mechanism
    assert back.mobility() == t.mobility()


FOUR_BAR_SDF = """<?xml version="1.0"?>
<sdf version="1.9"><model name="four_bar">
  <link name="ground"/>
  <link name="crank"/>
  <link name="coupler"><pose>0.1 0 0 0 0 0</pose></link>
  <link name="rocker"><pose>0.4 0 0 0 0 0</pose></link>
  <joint name="crank_joint" type="revolute"><parent>ground</parent><child>crank</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-7</lower><upper>7</upper></limit></axis></joint>
  <joint name="coupler_joint" type="revolute"><parent>crank</parent><child>coupler</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-7</lower><upper>7</upper></limit></axis></joint>
  <joint name="rocker_joint" type="revolute"><parent>ground</parent><child>rocker</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-7</lower><upper>7</upper></limit></axis></joint>
  <joint name="pin" type="revolute"><pose>0 0.3 0 0 0 0</pose><parent>coupler</parent><child>rocker</child>
    <axis><xyz>0 0 1</xyz><limit><lower>-7</lower><upper>7</upper></limit></axis></joint>
</model></sdf>
"""


def test_sdformat_loop_from_another_tool_is_read_at_its_joint_frame(tmp_path):
    """A four-bar closed at the file's zero configuration, the loop joint's frame given in the child
    (SDFormat's default) only: the parent's side is where that frame sits at zero."""
    path = tmp_path / "four_bar.sdf"
    path.write_text(FOUR_BAR_SDF)
    with pytest.warns(SdfWarning, match=r"'crank_joint' actuated"):
        t = import_robot(path)
    (lp,) = t.loops
    assert (lp.name, lp.kind, lp.body_a, lp.body_b) == ("pin", "hinge", "coupler", "rocker")
    Xa, Xb = np.eye(4), np.eye(4)
    Xa[:2, 3], Xb[:2, 3] = (0.3, 0.3), (0.0, 0.3)
    assert np.allclose(lp.frame_a, Xa, atol=1e-15) and np.allclose(lp.frame_b, Xb, atol=1e-15)
    assert t.mobility() == 1 and [b.joint.actuated for b in t.bodies] == [True, False, False]
    q = t.solve_loops([0.5, -0.5, 0.1])
    assert np.abs(t.loop_residual(q)).max() <= 1e-12


@pytest.mark.parametrize(("old", "new", "message"), [
    ('name="pin" type="revolute"', 'name="pin" type="universal"', r"four_bar\.sdf:\d+: joint 'pin': link 'rocker' is "
                                                                  r"already the child of joint 'rocker_joint', so this "
                                                                  r"joint closes a loop, and a universal joint cannot"),
    ('name="pin" type="revolute"', 'name="pin" type="fixed"', r"four_bar\.sdf:\d+: loop 'pin': over-constrains"),
    ("<parent>coupler</parent>", "<parent>nowhere</parent>", r"four_bar\.sdf:\d+: .*'nowhere'"),
])
def test_sdformat_refuses_a_bad_loop_naming_file_line_and_joint(tmp_path, old, new, message):
    assert old in FOUR_BAR_SDF
    path = tmp_path / "four_bar.sdf"
    path.write_text(FOUR_BAR_SDF.replace(old, new, 1))
    with pytest.raises(FileFormatError, match=message):
        import_robot(path)


def movable_flags(tree) -> dict[str, bool]:
    return {b.joint.name: b.joint.actuated for b in tree.bodies if b.joint.type != "fixed"}


@pytest.mark.parametrize("name", MECHANISMS)
def test_mjcf_writes_loops_as_site_equalities_and_actuators_and_reads_them_back(tmp_path, name):
    t = load_robot(name)
    path = tmp_path / f"{name}.xml"
    with pytest.warns(MjcfWarning, match=r"MJCF has no hinge equality: loops? '") as record:
        export_robot(t, path)
    hinges = [lp.name for lp in t.loops if lp.kind == "hinge"]
    assert all(f"{n!r}" in str(record[0].message) for n in hinges)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the actuators mark the actuated joints: no default actuation
        back = import_robot(path)
    assert [(lp.name, lp.kind, lp.body_a, lp.body_b) for lp in t.loops] == [
        (lp.name, lp.kind, lp.body_a, lp.body_b) for lp in back.loops]
    for x, y in zip(t.loops, back.loops):
        assert np.abs(x.frame_a - y.frame_a).max() <= 1e-12 and np.abs(x.frame_b - y.frame_b).max() <= 1e-12
    assert movable_flags(back) == movable_flags(t)
    assert not any("kinetree_" in x for x in back.extensions)  # our sites, constraints, motors, key: not kept
    reopens_closed(t, back)  # the home as the keyframe __kinetree_home
    assert back.mobility() == t.mobility()


def test_mjcf_refuses_a_slider_loop_and_warns_for_passive_joints_without_loops(tmp_path):
    t = load_robot("four_bar")
    lp = t.remove_loop("coupler_rocker")
    t.add_loop("guide", lp.body_a, lp.frame_a, lp.body_b, lp.frame_b, "slider")
    with pytest.raises(FileFormatError, match=r"MJCF cannot hold the slider loop 'guide'"):
        export_robot(t, tmp_path / "s.xml")
    t = load_robot("four_bar")
    t.remove_loop("coupler_rocker")
    with pytest.warns(MjcfWarning, match=r"passive joints only in a model with loops: 'coupler_joint', 'rocker_joint'"):
        export_robot(t, tmp_path / "open.xml")
    assert not list(tmp_path.glob("s.xml"))


FOUR_BAR_MJCF = """<mujoco model="four_bar">
  <worldbody>
    <body name="crank">
      <joint name="crank_joint" type="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01"/>
      <body name="coupler" pos="0.1 0 0">
        <joint name="coupler_joint" type="hinge" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0.3 0.3 0" size="0.01"/>
      </body>
    </body>
    <body name="rocker" pos="0.4 0 0">
      <joint name="rocker_joint" type="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0 0.3 0" size="0.01"/>
    </body>
  </worldbody>
  <equality>
    <connect name="pin" body1="coupler" body2="rocker" anchor="0.3 0.3 0"/>
  </equality>
  <actuator>
    <motor joint="crank_joint"/>
  </actuator>
</mujoco>
"""


def test_mjcf_connect_from_another_tool_is_a_ball_loop_and_its_actuator_marks_the_crank(tmp_path):
    path = tmp_path / "four_bar.xml"
    path.write_text(FOUR_BAR_MJCF)
    t = import_robot(path)
    (lp,) = t.loops
    assert (lp.name, lp.kind, lp.body_a, lp.body_b) == ("pin", "ball", "coupler", "rocker")
    assert np.allclose(lp.frame_a[:3, 3], [0.3, 0.3, 0.0]) and np.allclose(lp.frame_b[:3, 3], [0.0, 0.3, 0.0])
    assert movable_flags(t) == {"crank_joint": True, "coupler_joint": False, "rocker_joint": False}
    assert t.mobility() == 1
    q = t.solve_loops([0.5, -0.5, 0.1])
    assert np.abs(t.loop_residual(q)).max() <= 1e-12
    assert any("<actuator>" in x for x in t.extensions) and not any("<connect" in x for x in t.extensions)
    path.write_text(FOUR_BAR_MJCF.replace('<motor joint="crank_joint"/>', ""))
    with pytest.warns(MjcfWarning, match=r"no joint has an actuator: 'crank_joint' actuated"):
        t = import_robot(path)
    assert movable_flags(t) == {"crank_joint": True, "coupler_joint": False, "rocker_joint": False}


@pytest.mark.parametrize(("old", "new", "message"), [
    ('<connect name="pin" body1="coupler" body2="rocker" anchor="0.3 0.3 0"/>',
     '<weld name="pin" body1="coupler" body2="rocker"/>', r"four_bar\.xml:\d+: loop 'pin': over-constrains"),
    ('body2="rocker"', 'body2="nowhere"', r"four_bar\.xml.*nowhere"),
])
def test_mjcf_refuses_a_bad_loop_naming_the_file(tmp_path, old, new, message):
    path = tmp_path / "four_bar.xml"
    path.write_text(FOUR_BAR_MJCF.replace(old, new))
    with pytest.raises(FileFormatError, match=message):
        import_robot(path)


@pytest.mark.parametrize("name", MECHANISMS)
def test_project_file_keeps_every_mechanism_exactly_and_reopens_closed(tmp_path, name):
    t = load_robot(name)
    path = tmp_path / f"{name}.kinetree.json"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        export_robot(t, path)
        back = import_robot(path)
    same_loops(t, back)
    q = back.home_configuration()
    assert np.array_equal(q, t.home_configuration()) and np.abs(back.loop_residual(q)).max() <= 1e-12
    back.forward_kinematics(q)  # the closure check passes on the reopened home


def test_dh_table_still_refuses_loops_naming_them(tmp_path):
    with pytest.raises(FileFormatError, match=r"DH table \(CSV\) cannot hold closed loops \('coupler_rocker'\)"):
        export_robot(load_robot("four_bar"), tmp_path / "four_bar.csv")
