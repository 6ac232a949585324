"""Named poses: the library's published ones, the mapping's rules, edits of the tree, and the
project file (version 3) round trip, with older versions still loading."""

from __future__ import annotations

import dataclasses
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
from kinetree.core.model.poses import MAX_POSES


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
    assert len(load_robot("kuka_kr5").named_poses) == 0 and robot_info("jaco")["poses"] == {}


def test_mapping_rules():
    tree = dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0), DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0, 1))])
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
    tree = dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0), DHLink("R", a=0.5, alpha=0, d=0, theta=0)])
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
    assert data["version"] == 3 < VERSION  # named poses without loops: the release before loops reads it
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


# --- found by review: poses lost, stale or unbounded; files always version 3 -----------------------

def test_replace_by_the_dh_chain_keeps_the_poses():
    from kinetree.core import extract_dh

    ur5 = load_robot("ur5")
    ext = extract_dh(ur5)
    chain = ext.to_tree()  # what "Replace by the DH chain" puts in place of the tree
    assert list(chain.named_poses) == ["home", "qz", "qr"]
    for name in ur5.named_poses:  # q_i is still joint i's: the tip is where it was
        np.testing.assert_array_equal(chain.named_poses[name], ur5.named_poses[name])
        np.testing.assert_allclose(chain.get_transform(chain.named_poses[name], ext.tip_name),
                                   ur5.get_transform(ur5.named_poses[name], ext.tip), atol=1e-12)
    chain.named_poses["mine"] = np.ones(6)
    assert "mine" not in ur5.named_poses and "mine" not in ext.to_tree().named_poses
    # a joint off the path is gone from the chain: added again later, it starts at its home
    tree = dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0), DHLink("R", a=0.5, alpha=0, d=0, theta=0)])
    side = RigidBody("side")
    side.joint = Joint("elbow_side", "revolute")
    tree.add_body(side, "link1")
    tree.named_poses["bent"] = [0.3, -0.6, 0.9]  # q1, q2, then the side joint added last
    chain = extract_dh(tree, "link2").to_tree()
    np.testing.assert_array_equal(chain.named_poses["bent"], [0.3, -0.6])
    side.joint.home_position = 0.2
    chain.add_body(side, "link1")
    np.testing.assert_array_equal(chain.named_poses["bent"], [0.3, -0.6, 0.2])


def test_a_removed_joint_added_again_starts_at_home():
    tree = dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0), DHLink("R", a=0.5, alpha=0, d=0, theta=0)])
    tree.named_poses["bent"] = [0.3, -0.6]
    tree.remove_body("link2")
    again = RigidBody("link2b")
    again.joint = Joint("q2", "revolute")  # a new joint under the old name
    tree.add_body(again, "link1")
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 0.0])
    # replaced by a body whose joint has another name, the old name's value goes too
    other = RigidBody("link2c")
    other.joint = Joint("other", "revolute")
    tree.named_poses["bent"] = [0.3, -0.6]
    tree.replace_body("link2b", other)
    tree.get_body("link2c").joint.name = "q2"
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 0.0])


def test_a_joint_whose_type_changes_takes_its_home():
    tree = dh_chain([DHLink("R", a=1, alpha=0, d=0, theta=0), DHLink("R", a=0.5, alpha=0, d=0, theta=0)])
    tree.named_poses["bent"] = [0.3, 1.5708]
    same = tree.get_body("link2").joint.copy()
    same.position_limits = [(-2.0, 2.0)]
    tree.replace_joint("link2", same)  # same name and type (a DH row edit): the value stays
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 1.5708])
    slider = Joint("q2", "prismatic")
    slider.position_limits = [(0.0, 0.5)]
    slider.home_position = 0.1
    tree.replace_joint("link2", slider)  # 1.5708 rad is no prismatic position
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 0.1])
    assert tree.within_limits(tree.named_poses["bent"])
    back = Joint("q2", "revolute")
    tree.replace_joint("link2", back)  # and the old value does not come back
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 0.0])
    body = tree.get_body("link1").copy()
    body.mass = 3.0
    tree.replace_body("link1", body)  # the same joint on a new body: kept
    np.testing.assert_array_equal(tree.named_poses["bent"], [0.3, 0.0])


def _long_chain(n: int):
    return dh_chain([DHLink("R", a=0.01, alpha=0, d=0, theta=0) for _ in range(n)])


def test_the_numbers_poses_hold_are_bounded(tmp_path):
    from kinetree.core.model.poses import MAX_POSE_VALUES

    tree = _long_chain(1500)
    fit = MAX_POSE_VALUES // 1500
    q = np.zeros(1500)
    for k in range(fit):
        tree.named_poses[f"p{k}"] = q
    with pytest.raises(InvalidConfigurationError, match=f"pose 'p{fit}': .*more than the {MAX_POSE_VALUES}"):
        tree.named_poses[f"p{fit}"] = q
    tree.named_poses["p0"] = np.ones(1500)  # replacing one is fine
    del tree.named_poses["p1"]
    tree.named_poses["last"] = q
    assert len(tree.named_poses) == fit
    # a project file: refused from the numbers it spells out, before any is read
    d = tree_to_dict(load_robot("two_link_planar"))
    d["named_poses"] = {f"p{k}": [0] * 1001 for k in range(1000)}
    path = tmp_path / "big.kinetree.json"
    path.write_text(json.dumps(d))
    with pytest.raises(FileFormatError, match=rf"{path.name}.*named_poses' holds 1001000 numbers, more than"):
        load_project(path)
    # ...or from what short mappings expand to on a long chain
    d = tree_to_dict(_long_chain(1500))
    d["named_poses"] = {f"p{k}": {} for k in range(fit + 1)}
    path.write_text(json.dumps(d))
    with pytest.raises(FileFormatError, match=rf"{path.name}: pose 'p{fit}': .*more than the {MAX_POSE_VALUES}"):
        load_project(path)


def test_reading_poses_after_an_edit_follows_the_tree():
    tree = _long_chain(300)
    for k in range(50):
        tree.named_poses[f"p{k}"] = np.full(300, k / 100)
    tree.get_body("link7").joint.name = "renamed"
    tree.remove_body("link300")
    poses = tree.named_poses.as_dict()
    assert all(v == [k / 100] * 299 for k, v in enumerate(poses.values()))
    tree.get_body("link1").joint.home_position = 0.5
    extra = RigidBody("tip")
    extra.joint = Joint("tipq", "revolute")
    tree.add_body(extra, "link299")
    assert tree.named_poses["p3"].tolist() == [0.03] * 299 + [0.0]


@pytest.mark.parametrize("with_poses, version", [(False, 2), (True, 3)])
def test_a_project_is_version_3_only_with_named_poses(tmp_path, with_poses, version):
    tree = load_robot("two_link_planar")
    tree.named_poses.replace({"up": [0.5, -0.25]} if with_poses else {})  # not the library's qz, example
    path = tmp_path / "p.kinetree.json"
    save_project(tree, path, np.array([0.1, 0.2]))
    data = json.loads(path.read_text())
    assert data["version"] == version and ("named_poses" in data) == with_poses
    loaded, q = load_project(path)
    assert q.tolist() == [0.1, 0.2] and loaded.named_poses == tree.named_poses
    assert dumps(loaded, q) == path.read_text()


def test_a_dh_row_deleted_then_added_again_starts_at_home():
    from kinetree.core import chain_dh_table, rebuild_chain

    tree = load_robot("puma560")
    qr = np.array([0.1, 0.2, -0.3, 0.4, 0.5, 0.6])  # q6 ≠ its home (0)
    tree.named_poses["qr"] = qr
    links = [e.link for e in chain_dh_table(tree)]
    fewer = rebuild_chain(tree, links[:-1])  # the last row (q6) deleted, as the DH table does
    again = rebuild_chain(fewer, [*(e.link for e in chain_dh_table(fewer)),
                                  dataclasses.replace(links[-1], name=None, joint_name=None)])
    assert again.movable_joint_names[-1] == "q6"  # the new row took the free name
    got = again.named_poses["qr"]
    assert np.array_equal(got[:5], qr[:5]) and got[5] == again.home_configuration()[5]
