"""One entry point for robot files (core.io.files): import_robot / export_robot / open_robot."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers.urdf import joint, link, robot
from kinetree.core import export_robot, import_robot, load_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io import open_robot, read_dh_csv, save_project
from kinetree.core.io.dh_csv import DHTable
from kinetree.core.io.files import dh_table_of
from kinetree.core.io.urdf.read import urdf_from_string

SUFFIX = {"project": ".kinetree.json", "urdf": ".urdf", "csv": ".csv"}
FORMATS = list(SUFFIX)

# first joint axis tilted and off the base origin, a prismatic joint, the tip offset and turned:
# its DH table needs base ≠ I and tool ≠ I
TILTED = robot("\n".join([
    link("world"), link("l1"), link("l2"), link("l3"), link("l4"), link("tcp"),
    joint("j1", "revolute", "world", "l1", xyz="0.1 -0.05 0.3", rpy="0.2 -0.3 0.1", axis="0.3 0.4 1",
          limit='<limit lower="-2.5" upper="2.5" effort="1" velocity="1"/>'),
    joint("j2", "revolute", "l1", "l2", xyz="0 0.1 0.4", rpy="0 0.4 0", axis="0 1 0",
          limit='<limit lower="-2" upper="2" effort="1" velocity="1"/>'),
    joint("j3", "prismatic", "l2", "l3", xyz="0.3 0 0.05", rpy="0.1 0 0", axis="1 0 0.2",
          limit='<limit lower="-0.1" upper="0.4" effort="1" velocity="1"/>'),
    joint("j4", "revolute", "l3", "l4", xyz="0.2 0.03 0", rpy="0 0 0.5", axis="0 -1 1",
          limit='<limit lower="-3" upper="3" effort="1" velocity="1"/>'),
    joint("tcp_fixed", "fixed", "l4", "tcp", xyz="0.05 0.02 0.1", rpy="0.3 0.2 -0.4", axis=None, limit=None),
]), name="tilted")

HUMANOID_TIP = "l_tool"  # the left hand's tool frame (a fixed body after the wrist)
ROBOTS = {"puma560": None, "stanford": None, "panda": None, "humanoid_upper_body": HUMANOID_TIP, "tilted": "tcp"}


def _robot(name: str):
    if name == "tilted":
        return urdf_from_string(TILTED)
    return load_robot(name)


def _same_tip(original, tip: str, other, other_tip: str, n: int = 10, seed: int = 7) -> None:
    """The tip poses agree at ``n`` random configurations of ``original`` (passed to ``other`` by
    joint name: ``other`` may hold only the path's joints)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        q = original.random_configuration(rng)
        values = original.config_to_dict(q)
        q_other = other.config_to_vector({j: values[j] for j in other.movable_joint_names})
        A, B = original.get_transform(q, tip), other.get_transform(q_other, other_tip)
        assert np.abs(A - B).max() <= 1e-10, (tip, other_tip, np.abs(A - B).max())


@pytest.mark.parametrize("first, second", list(itertools.product(FORMATS, FORMATS)))
@pytest.mark.parametrize("name", list(ROBOTS))
def test_round_trip_through_format_pairs(name, first, second, tmp_path):
    """original → first → second → first: the tip pose never changes."""
    original = _robot(name)
    tip = ROBOTS[name] or original.end_effector
    tree, current_tip = original, tip
    for k, fmt in enumerate([first, second, first]):
        path = tmp_path / f"stage{k}{SUFFIX[fmt]}"
        export_robot(tree, path, tip=current_tip)
        tree = import_robot(path)
        if fmt == "csv":  # a serial chain whose last body stands for the tip
            current_tip = tree.body_names[-1]
        _same_tip(original, tip, tree, current_tip)


@pytest.mark.parametrize("convention", ["dh", "mdh"])
@pytest.mark.parametrize("units", ["deg", "rad"])
def test_csv_keeps_base_and_tool(convention, units, tmp_path):
    urdf = tmp_path / "tilted.urdf"
    urdf.write_text(TILTED, encoding="utf-8")
    original = import_robot(urdf)
    table = dh_table_of(original, "tcp", convention)
    assert isinstance(table, DHTable) and table.convention == convention
    assert table.base is not None and table.tool is not None
    assert np.abs(table.base - np.eye(4)).max() > 0.1 and np.abs(table.tool - np.eye(4)).max() > 0.1
    assert table.tool_name == "tcp"

    path = tmp_path / "arm.csv"
    export_robot(original, path, tip="tcp", convention=convention, units=units)
    text = path.read_text(encoding="utf-8")
    assert "\n# base: xyz=" in text and "\n# tool: xyz=" in text and text.count(" name=tcp\n") == 1
    back = read_dh_csv(path)
    np.testing.assert_allclose(back.base, table.base, rtol=0, atol=1e-12)
    np.testing.assert_allclose(back.tool, table.tool, rtol=0, atol=1e-12)
    chain = import_robot(path)
    assert chain.body_names == ["dh_base", "l1", "l2", "l3", "l4", "tcp"]
    assert chain.movable_joint_names == ["j1", "j2", "j3", "j4"]
    assert chain.get_body("dh_base").joint.type == "fixed" and chain.get_body("tcp").joint.type == "fixed"
    _same_tip(original, "tcp", chain, "tcp")


def test_stored_dh_rows_have_no_base_or_tool(tmp_path):
    table = dh_table_of(load_robot("puma560"))
    assert (table.base, table.tool, table.tool_name) == (None, None, "")
    path = tmp_path / "puma.csv"
    export_robot(load_robot("puma560"), path)
    assert "# base" not in path.read_text() and "# tool" not in path.read_text()
    assert import_robot(path).body_names == [f"link{k}" for k in range(1, 7)]


def test_humanoid_path_to_the_hand(tmp_path):
    humanoid = load_robot("humanoid_upper_body")
    assert HUMANOID_TIP in humanoid.body_names
    path = tmp_path / "left_arm.csv"
    export_robot(humanoid, path, tip=HUMANOID_TIP)
    chain = import_robot(path)
    assert chain.body_names[-1] == HUMANOID_TIP and chain.body_names[0] == "torso"
    assert len(chain.movable_joint_names) == 8
    _same_tip(humanoid, HUMANOID_TIP, chain, HUMANOID_TIP)


# --- errors ----------------------------------------------------------------------------------

def test_unknown_extension(tmp_path):
    path = tmp_path / "robot.step"
    path.write_text("solid\n")
    with pytest.raises(FileFormatError, match=r"robot\.step: unknown file type"):
        import_robot(path)
    with pytest.raises(FileFormatError, match=r"robot\.step: unknown file type"):
        export_robot(load_robot("puma560"), path)


def test_xacro_export_refused(tmp_path):
    path = tmp_path / "robot.urdf.xacro"
    with pytest.raises(FileFormatError, match=r"robot\.urdf\.xacro: KineTree reads xacro but writes plain URDF"):
        export_robot(load_robot("puma560"), path)
    assert not path.exists()


@pytest.mark.parametrize("suffix", [".urdf", ".xacro", ".kinetree.json", ".csv", ".tsv"])
def test_missing_file(suffix, tmp_path):
    path = tmp_path / f"nope{suffix}"
    with pytest.raises(FileFormatError, match="no such file") as exc:
        import_robot(path)
    assert str(path) in str(exc.value)


@pytest.mark.parametrize("text", ["x,y,z\n1,2,3\n", "<robot name='r'><link name='a'/></robot>\n", "\n"])
def test_csv_that_is_not_a_dh_table(text, tmp_path):
    path = tmp_path / "points.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileFormatError) as exc:
        import_robot(path)
    assert str(exc.value).startswith(str(path))


def test_csv_rows_that_make_no_chain(tmp_path):
    path = tmp_path / "twice.csv"
    path.write_text("type,a,alpha,d,theta,name\nR,0,0,0,q1,arm\nR,0,0,0,q2,arm\n", encoding="utf-8")
    with pytest.raises(FileFormatError, match="twice.csv: "):
        import_robot(path)


# --- open_robot --------------------------------------------------------------------------------

def test_open_library_name():
    tree, q = open_robot("panda")
    assert q is None and tree.body_names == load_robot("panda").body_names


def test_open_project_with_configuration(tmp_path):
    puma = load_robot("puma560")
    q = puma.random_configuration(3)
    path = tmp_path / "arm.kinetree.json"
    save_project(puma, path, q)
    tree, stored = open_robot(path)
    np.testing.assert_allclose(stored, q, rtol=0, atol=0)
    np.testing.assert_allclose(tree.forward_kinematics(stored), puma.forward_kinematics(q), rtol=0, atol=1e-12)
    tree, stored = open_robot(str(path))
    assert stored is not None


def test_open_urdf(tmp_path):
    path = tmp_path / "tilted.urdf"
    path.write_text(TILTED, encoding="utf-8")
    tree, q = open_robot(path)
    assert q is None and tree.base_name == "world" and tree.body_names[-1] == "tcp"
    _same_tip(urdf_from_string(TILTED), "tcp", tree, "tcp")


def test_open_missing_robot_file(tmp_path):
    with pytest.raises(FileFormatError, match="no such file"):
        open_robot(tmp_path / "gone.urdf")


def test_dh_csv_keeps_home_positions(tmp_path):
    """Panda's home is its ready pose, not zero: a CSV round trip keeps it (URDF has no home)."""
    panda = load_robot("panda")
    assert np.abs(panda.home_configuration()).max() > 0.5
    export_robot(panda, tmp_path / "panda.csv")
    back = import_robot(tmp_path / "panda.csv")
    np.testing.assert_allclose(back.home_configuration(), panda.home_configuration(), atol=1e-12)
