"""Named poses: the library's published ones, the mapping's rules, edits of the tree, and the
project file (version 3) round trip, with older versions still loading."""

from __future__ import annotations

import json
from math import pi

import numpy as np
import pytest
from kinetree.core import (
    DHLink,
    FileFormatError,
    InvalidConfigurationError,
    Joint,
    RigidBody,
    dh_chain,
    load_robot,
    robot_info,
)
from kinetree.core.io.project import VERSION, dumps, load_project, save_project, tree_from_dict, tree_to_dict
from kinetree.core.poses import MAX_POSES


def test_puma_ships_corkes_poses():
    tree = load_robot("puma560")
    assert list(tree.named_poses) == ["qz", "qr", "qs", "qn"]
    np.testing.assert_array_equal(tree.named_poses["qz"], np.zeros(6))
    np.testing.assert_array_equal(tree.named_poses["qr"], [0, pi / 2, -pi / 2, 0, 0, 0])
    np.testing.assert_array_equal(tree.named_poses["qs"], [0, 0, -pi / 2, 0, 0, 0])
    np.testing.assert_array_equal(tree.named_poses["qn"], [0, pi / 4, pi, 0, pi / 4, 0])
    # the poses Corke describes: qz the lecture's reference (L shape), qr arm straight up
    at = {name: tree.get_transform(tree.named_poses[name], tree.end_effector)[:3, 3] for name in tree.named_poses}
    np.testing.assert_allclose(at["qz"], [0.4521, -0.15005, 0.4318], atol=1e-12)
    np.testing.assert_allclose(at["qr"], [0.0203, -0.15005, 0.8636], atol=1e-12)
    np.testing.assert_allclose(at["qs"], [0.8636, -0.15005, -0.0203], atol=1e-12)  # straight, horizontal
    assert robot_info("puma560")["poses"]["qn"] == [0, pi / 4, pi, 0, pi / 4, 0]


def test_panda_and_ur_poses():
    panda = load_robot("panda")
    assert list(panda.named_poses) == ["ready", "qr"]
    np.testing.assert_array_equal(panda.named_poses["ready"], panda.home_configuration())
    np.testing.assert_array_equal(panda.named_poses["qr"], [0, -0.3, 0, -2.2, 0, 2.0, pi / 4])
    assert panda.within_limits(panda.named_poses["qr"]) and panda.within_limits(panda.named_poses["ready"])
    for name in ("ur3", "ur5", "ur10"):
        ur = load_robot(name)
        np.testing.assert_array_equal(ur.named_poses["home"], ur.home_configuration())
        np.testing.assert_array_equal(ur.named_poses["qr"], [pi, 0, 0, 0, pi / 2, 0])
        np.testing.assert_array_equal(ur.named_poses["qz"], np.zeros(6))
    ur5 = load_robot("ur5")  # home is upright: the flange straight above the base's y offset
    np.testing.assert_allclose(ur5.get_transform(ur5.named_poses["home"], ur5.end_effector)[:3, 3],
                               [0, -0.19145, 0.089159 + 0.425 + 0.39225 + 0.09465], atol=1e-12)
    assert len(load_robot("two_link_planar").named_poses) == 0 and robot_info("scara")["poses"] == {}


def test_mapping_rules():
    tree = dh_chain([DHLink("R", 1, 0, 0, 0), DHLink("P", 0, 0, 0, 0, qlim=(0, 1))])
    poses = tree.named_poses
    poses["up"] = [0.5, 0.25]
    poses["named"] = {"q2": 0.75}  # joints left out take their home
    assert list(poses) == ["up", "named"] and len(poses) == 2 and "up" in poses and 3 not in poses
    np.testing.assert_array_equal(poses["named"], [0.0, 0.75])
    q = poses["up"]
    q[0] = 99.0  # a fresh vector each time
    assert poses["up"][0] == 0.5
    poses.rename("up", "raised")
    assert list(poses) == ["raised", "named"]
    del poses["named"]
    assert dict(poses.items()).keys() == {"raised"}
    for name, value, match in [
        ("", [0, 0], "pose name must be a non-empty string"),
        ("a\nb", [0, 0], "control character"),
        (7, [0, 0], "must be a string"),
        ("short", [0.0], "pose 'short': configuration has 1 values"),
        ("nan", [np.nan, 0], "pose 'nan': joint 'q1': position 0 is nan"),
        ("words", ["a", "b"], "pose 'words'"),
        ("ghost", {"q9": 1.0}, "unknown joint 'q9'"),
    ]:
        with pytest.raises(InvalidConfigurationError, match=match):
            poses[name] = value
    with pytest.raises(InvalidConfigurationError, match="no pose named 'nope'.*raised"):
        poses["nope"]
    with pytest.raises(InvalidConfigurationError, match="already exists"):
        poses["other"] = [0, 0]
        poses.rename("other", "raised")
    with pytest.raises(InvalidConfigurationError, match="no pose named"):
        del poses["nope"]
    with pytest.raises(InvalidConfigurationError, match="at most"):
        for k in range(MAX_POSES + 1):
            poses[f"p{k}"] = [0, 0]
    assert len(poses) == MAX_POSES
    poses.replace({"only": [1, 0]})
    assert list(poses) == ["only"]
    with pytest.raises(InvalidConfigurationError):
        poses.replace({"fine": [1, 0], "bad": [1]})
    assert list(poses) == ["only"]  # nothing changed


def test_poses_follow_edits_of_the_tree():
    tree = dh_chain([DHLink("R", 1, 0, 0, 0), DHLink("R", 0.5, 0, 0, 0)])
    tree.named_poses["bent"] = [0.3, -0.6]
    copy = tree.copy()
    tree.get_body("link1").joint.name = "shoulder"  # a renamed joint keeps its value
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, -0.6])
    extra = RigidBody("link3")
    extra.joint = Joint("wrist", "revolute")
    extra.joint.home_position = 0.2
    tree.add_body(extra, "link2")  # a new joint takes its home
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, -0.6, 0.2])
    tree.remove_body("link2")  # removed joints are dropped
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3])
    # the copy kept its own poses
    np.testing.assert_array_equal(copy.named_poses["bent"], [0.3, -0.6])
    assert copy.named_poses == {"bent": [0.3, -0.6]} and copy.named_poses != tree.named_poses
    assert copy.copy().named_poses == copy.named_poses
    copy.named_poses["other"] = [0, 0]
    assert "other" not in tree.named_poses


def test_project_round_trip_keeps_every_pose(tmp_path):
    tree = load_robot("puma560")
    tree.named_poses["mine"] = tree.random_configuration(4)
    path = tmp_path / "puma.kinetree.json"
    q = tree.named_poses["qn"]
    save_project(tree, path, q)
    data = json.loads(path.read_text())
    assert data["version"] == VERSION == 3
    assert list(data["named_poses"]) == ["qz", "qr", "qs", "qn", "mine"]
    loaded, config = load_project(path)
    np.testing.assert_array_equal(config, q)
    assert list(loaded.named_poses) == list(tree.named_poses)
    for name in tree.named_poses:
        assert loaded.named_poses[name].tolist() == tree.named_poses[name].tolist()  # bit for bit
    assert dumps(loaded, config) == dumps(tree, q)  # and everything else
    # saved again: the same text
    save_project(loaded, tmp_path / "again.kinetree.json", config)
    assert (tmp_path / "again.kinetree.json").read_text() == path.read_text()


@pytest.mark.parametrize("version", [1, 2])
def test_older_versions_load_without_poses(tmp_path, version):
    d = tree_to_dict(load_robot("two_link_planar"), np.array([0.1, 0.2]))
    d["version"] = version
    d.pop("named_poses", None)
    path = tmp_path / f"v{version}.kinetree.json"
    path.write_text(json.dumps(d))
    tree, q = load_project(path)
    assert len(tree.named_poses) == 0 and q.tolist() == [0.1, 0.2]
    tree.named_poses["new"] = [0, 0]
    save_project(tree, path)
    assert json.loads(path.read_text())["version"] == 3  # saved again, it is a version-3 file


@pytest.mark.parametrize("poses, match", [
    ([1, 2], "field 'named_poses' must be an object"),
    ({"a": "up"}, r"named_poses\['a'\]' must be a list of numbers"),
    ({"a": None}, r"named_poses\['a'\]' must be a list"),
    ({"a\u0000": [0, 0]}, "pose name .* control character"),
    ({"a": [0, "x"]}, r"named_poses\['a'\]\[1\]' must be a number"),
    ({"a": [0, 1e999]}, r"named_poses\['a'\]\[1\]' is too large"),
    ({"a": [0, 0, 0]}, "pose 'a': configuration has 3 values"),
    ({"a": {"q7": 1}}, "pose 'a': configuration names unknown joint 'q7'"),
    ({f"p{k}": [0, 0] for k in range(MAX_POSES + 1)}, f"more than the {MAX_POSES}"),
])
def test_hostile_poses_are_refused_with_the_file_and_field(tmp_path, poses, match):
    d = tree_to_dict(load_robot("two_link_planar"))
    d["named_poses"] = poses
    path = tmp_path / "bad.kinetree.json"
    path.write_text(json.dumps(d).replace("Infinity", "1e999"))
    with pytest.raises(FileFormatError, match=match) as info:
        load_project(path)
    assert str(path) in str(info.value)
    with pytest.raises(FileFormatError, match=match):
        tree_from_dict(d, "bad")


def test_a_dh_table_edit_keeps_the_poses():
    from kinetree.core import chain_dh_table, rebuild_chain

    puma = load_robot("puma560")
    links = [e.link for e in chain_dh_table(puma)]
    links[1].a = 0.5  # an edit in the DH table rebuilds the chain
    edited = rebuild_chain(puma, links)
    assert list(edited.named_poses) == ["qz", "qr", "qs", "qn"]
    np.testing.assert_array_equal(edited.named_poses["qn"], puma.named_poses["qn"])
    edited.named_poses["x"] = np.zeros(6)
    assert "x" not in puma.named_poses
