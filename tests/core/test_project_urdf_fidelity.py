"""URDF → project → URDF gives the bytes URDF → URDF gives: a project keeps each origin's and
inertial's numbers as read and each mesh URI as written (``urdf_origin``, ``urdf_inertial``,
``uri``), finds a package's meshes again where the project was copied with it, and refuses a
hostile value of those keys naming the body and the key."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS, _pkg, _quiet, joint, link, robot
from kinetree.core import FileFormatError, export_robot, import_robot
from kinetree.core.io.project import load_project
from kinetree.core.io.urdf.read import MeshNotFoundWarning
from lxml import etree

needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data not installed")
#: What a project keeps of the URDF as read (the URDF reader may keep more, e.g. the robot's name).
CARRIED = ("_urdf_origin", "_urdf_inertial", "_urdf_shapes")


def _carried_only(tree):
    """``tree`` with only what a project carries of the URDF as read (the reference export)."""
    for obj in (tree.base, *tree.bodies, *(b.joint for b in tree.bodies)):
        for attr in [a for a in vars(obj) if a.startswith("_urdf_") and a not in CARRIED]:
            delattr(obj, attr)
        shapes = getattr(obj, "_urdf_shapes", None)
        if shapes is not None:
            obj._urdf_shapes = {k: shapes[k] for k in ("poses", "meshes")}
    return tree


def _via_project(src: Path, tmp: Path, **load) -> tuple[bytes, bytes]:
    """(URDF → URDF, URDF → project → URDF), both written as ``r.urdf`` in sibling folders of
    ``tmp`` (same depth: relative mesh paths compare)."""
    for sub in ("direct", "via", "project"):
        (tmp / sub).mkdir(exist_ok=True)
    tree = _carried_only(_quiet(import_robot, src))
    export_robot(tree, tmp / "direct" / "r.urdf")
    export_robot(tree, tmp / "project" / "r.kinetree.json")
    loaded = _quiet(load_project, tmp / "project" / "r.kinetree.json", **load)[0]
    export_robot(loaded, tmp / "via" / "r.urdf")
    return (tmp / "direct" / "r.urdf").read_bytes(), (tmp / "via" / "r.urdf").read_bytes()


@needs_robots
@pytest.mark.parametrize("name", sorted(REAL_URDFS))
def test_real_robot_urdf_project_urdf_same_bytes(name, tmp_path):
    direct, via = _via_project(EXAMPLE_ROBOTS / REAL_URDFS[name], tmp_path)
    assert via == direct
    # and the project itself round-trips byte for byte (saved again after loading)
    p = tmp_path / "project" / "r.kinetree.json"
    export_robot(_quiet(load_project, p)[0], tmp_path / "again.kinetree.json")
    assert (tmp_path / "again.kinetree.json").read_bytes() == p.read_bytes()


def test_handmade_numbers_kept(tmp_path):
    """rpy 0.1 and an inertial given off its centre, rotated: as written after a project."""
    inertial = ('<inertial><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/><mass value="1.7"/>'
                '<inertia ixx="0.00388" ixy="0.0001" ixz="0" iyy="0.0031" iyz="0" izz="0.002"/></inertial>')
    box = '<visual><origin xyz="0.01 0 0.03" rpy="0.1 0 1.2"/><geometry><box size="1 2 3"/></geometry></visual>'
    src = tmp_path / "h.urdf"
    src.write_text(robot(link("base", inertial) + link("l1", inertial + box)
                         + joint("j1", "revolute", "base", "l1", xyz="0.1 0 0.3", rpy="0.1 0.2 0.3")))
    direct, via = _via_project(src, tmp_path)
    assert via == direct
    root = etree.fromstring(via)

    def floats(xpath: str, attr: str) -> list[float]:
        return [float(x) for x in root.find(xpath).get(attr).split()]
    # as written, bit for bit (computed from the matrices they come back a few ulps off)
    assert floats("joint/origin", "rpy") == floats("link[@name='l1']/inertial/origin", "rpy") == [0.1, 0.2, 0.3]
    assert floats("link[@name='l1']/inertial/inertia", "ixx") == [0.00388]
    assert floats("link[@name='l1']/visual/origin", "rpy") == [0.1, 0.0, 1.2]
    saved = json.loads((tmp_path / "project" / "r.kinetree.json").read_text())
    assert saved["version"] == 2  # an older KineTree reads it (and ignores the new keys)
    body = saved["bodies"][0]
    assert body["joint"]["urdf_origin"] == {"xyz": [0.1, 0.0, 0.3], "rpy": [0.1, 0.2, 0.3]}
    assert body["urdf_inertial"]["inertia"] == [0.00388, 0.0001, 0.0, 0.0031, 0.0, 0.002]
    assert saved["base"]["urdf_inertial"]["mass"] == 1.7


def test_edited_project_numbers_win(tmp_path):
    """A project edited by hand (mass, joint transform, shape pose): the edit is exported, not the
    numbers as read, which no longer give it."""
    _, _ = _via_project(_write_handmade(tmp_path), tmp_path)
    p = tmp_path / "project" / "r.kinetree.json"
    d = json.loads(p.read_text())
    d["bodies"][0]["mass"] = 2.5
    d["bodies"][0]["joint"]["joint_to_parent_transform"][0][3] = 0.75
    d["bodies"][0]["visuals"][0]["pose"][2][3] = 0.5
    p.write_text(json.dumps(d))
    export_robot(load_project(p)[0], tmp_path / "edited.urdf")
    root = etree.parse(str(tmp_path / "edited.urdf")).getroot()
    l1 = root.find("link[@name='l1']")
    assert _floats(l1.find("inertial/mass"), "value") == [2.5]
    assert _floats(root.find("joint/origin"), "xyz") == [0.75, 0.0, 0.3]
    assert _floats(l1.find("visual/origin"), "xyz")[2] == 0.5


def _floats(el, attr: str) -> list[float]:
    return [float(x) for x in el.get(attr).split()]


def _write_handmade(tmp_path: Path) -> Path:
    src = tmp_path / "h.urdf"
    src.write_text(robot(link("base") + link("l1", (
        '<inertial><origin xyz="0.1 0 0" rpy="0.1 0 0"/><mass value="1"/>'
        '<inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>'
        '<visual><origin xyz="0 0 0.1" rpy="0.1 0 0"/><geometry><box size="1 1 1"/></geometry></visual>'))
        + joint("j1", "revolute", "base", "l1", xyz="0.1 0 0.3", rpy="0.1 0 0")))
    return src


# --- package:// meshes ------------------------------------------------------------------------------

def _kinetree(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "ROS_PACKAGE_PATH": ""}
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def _meshes(path: Path) -> list[str]:
    return [m.get("filename") for m in etree.parse(str(path)).iter("mesh")]


def test_package_uris_through_a_project(tmp_path):
    pkg = _pkg(tmp_path)
    src = pkg / "urdf" / "r.urdf"
    direct, via = _via_project(src, pkg)
    assert via == direct
    assert _meshes(pkg / "via" / "r.urdf")[:2] == _meshes(src)[:2]  # package:// and package:/// as written
    saved = json.loads((pkg / "project" / "r.kinetree.json").read_text())
    visual = saved["base"]["visuals"][0]
    assert visual["uri"] == "package://my_robot/meshes/m.stl"
    assert visual["filename"] == str((pkg / "meshes" / "m.stl").resolve())


def test_project_copied_with_its_package_finds_the_meshes(tmp_path):
    """The QA scenario through the CLI: convert a URDF to a project inside its package, copy the
    workspace elsewhere (the first one gone), convert the copy back to URDF."""
    pkg = _pkg(tmp_path / "one")
    src = pkg / "urdf" / "r.urdf"
    r = _kinetree("convert", str(src), str(pkg / "urdf" / "r.kinetree.json"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    moved = tmp_path / "two" / "ws"
    shutil.copytree(pkg.parent, moved)
    shutil.rmtree(tmp_path / "one")
    copy = moved / "my_robot"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree, _ = load_project(copy / "urdf" / "r.kinetree.json")
    mesh = str((copy / "meshes" / "m.stl").resolve())
    files = {b.name: [v.filename for v in (*b.visuals, *b.collisions)] for b in (tree.base, *tree.bodies)}
    # package://, package:/// and the relative path: found in the copy; file:// named the old machine's file
    assert files["a"] == [mesh, mesh] and files["b"] == [mesh]
    assert files["c"] == [str(tmp_path / "one" / "ws" / "my_robot" / "meshes" / "m.stl")]
    missing = [str(w.message) for w in caught if issubclass(w.category, MeshNotFoundWarning)]
    assert len(missing) == 1 and "body 'c'" in missing[0] and "visuals[0]" in missing[0] \
        and "file://" in missing[0] and "not found" in missing[0]
    # the copy, converted back from the project, names the meshes as converting its URDF does
    # (whole files compare in test_package_uris_through_a_project)
    for source, out in ((copy / "urdf" / "r.kinetree.json", "out_p"), (copy / "urdf" / "r.urdf", "out_u")):
        (copy / out).mkdir()
        r = _kinetree("convert", str(source), str(copy / out / "r.urdf"), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    assert _meshes(copy / "out_p" / "r.urdf") == _meshes(copy / "out_u" / "r.urdf")
    assert _meshes(copy / "out_p" / "r.urdf")[:3] == ["package://my_robot/meshes/m.stl",
                                                     "package:///my_robot/meshes/m.stl", "../meshes/m.stl"]


def test_package_paths_find_a_moved_package(tmp_path, monkeypatch):
    pkg = _pkg(tmp_path / "one")
    tree = _quiet(import_robot, pkg / "urdf" / "r.urdf")
    project = tmp_path / "elsewhere" / "r.kinetree.json"
    project.parent.mkdir()
    export_robot(tree, project)
    shutil.copytree(pkg.parent, tmp_path / "pkgs")
    shutil.rmtree(tmp_path / "one")
    mesh = str((tmp_path / "pkgs" / "my_robot" / "meshes" / "m.stl").resolve())
    monkeypatch.setenv("ROS_PACKAGE_PATH", "")
    messages: list[str] = []
    loaded = load_project(project, package_paths=(str(tmp_path / "pkgs"),), on_warning=messages.append)[0]
    assert [v.filename for v in (*loaded.base.visuals, *loaded.base.collisions)] == [mesh, mesh]
    assert len(messages) == 2  # the relative path and the file:// URI named the old files
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(tmp_path / "pkgs"))
    loaded = _quiet(load_project, project)[0]
    assert loaded.base.visuals[0].filename == mesh


# --- hostile projects -------------------------------------------------------------------------------

def _saved(tmp_path: Path) -> dict:
    pkg = _pkg(tmp_path)
    tree = _quiet(import_robot, pkg / "urdf" / "r.urdf")
    inertial = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>'
                '<visual><origin xyz="0 0 0.1" rpy="0.1 0 0"/><geometry><box size="1 1 1"/></geometry></visual>')
    src = tmp_path / "x.urdf"
    src.write_text(robot(link("base") + link("l1", inertial) + joint("j1", "revolute", "base", "l1", rpy="0.1 0 0")))
    other = _quiet(import_robot, src)
    export_robot(tree, tmp_path / "p.kinetree.json")
    d = json.loads((tmp_path / "p.kinetree.json").read_text())
    export_robot(other, tmp_path / "q.kinetree.json")
    d["bodies"] += json.loads((tmp_path / "q.kinetree.json").read_text())["bodies"]
    d["bodies"][-1]["parent"] = "a"
    return d


def _set(d: dict, path: tuple, value) -> None:
    for key in path[:-1]:
        d = d[key]
    if value is _DEL:
        del d[path[-1]]
    else:
        d[path[-1]] = value


_DEL = object()
_L1 = ("bodies", 2)


@pytest.mark.parametrize("path, value, words", [
    ((*_L1, "joint", "urdf_origin", "rpy"), _DEL, ["body 'l1'", "joint 'j1'", "missing field 'rpy'", "urdf_origin"]),
    ((*_L1, "joint", "urdf_origin", "xyz"), [1, 2], ["body 'l1'", "urdf_origin.xyz", "3 numbers"]),
    ((*_L1, "joint", "urdf_origin", "rpy", 0), 1e400, ["body 'l1'", "urdf_origin.rpy[0]", "too large"]),
    ((*_L1, "joint", "urdf_origin"), "0 0 0", ["body 'l1'", "urdf_origin", "must be an object"]),
    ((*_L1, "visuals", 0, "urdf_origin", "rpy", 1), "0", ["body 'l1'", "visuals[0].urdf_origin.rpy[1]", "number"]),
    ((*_L1, "visuals", 0, "urdf_origin", "xyz", 2), 1e9, ["body 'l1'", "visuals[0].urdf_origin.xyz[2]", "range"]),
    ((*_L1, "visuals", 0, "uri"), "package://p/m.stl", ["body 'l1'", "visuals[0].uri", "only a mesh"]),
    ((*_L1, "urdf_inertial", "mass"), -1.0, ["body 'l1'", "urdf_inertial.mass", "negative"]),
    ((*_L1, "urdf_inertial", "mass"), True, ["body 'l1'", "urdf_inertial.mass", "must be a number"]),
    ((*_L1, "urdf_inertial", "inertia"), [1, 0, 0, 1, 0], ["body 'l1'", "urdf_inertial.inertia", "6 numbers"]),
    ((*_L1, "urdf_inertial", "inertia", 3), 1e13, ["body 'l1'", "urdf_inertial.inertia[3]", "range"]),
    ((*_L1, "urdf_inertial"), [1], ["body 'l1'", "urdf_inertial", "must be an object"]),
    ((*_L1, "urdf_inertial", "xyz"), _DEL, ["body 'l1'", "missing field 'xyz'", "urdf_inertial"]),
    (("bodies", 0, "visuals", 0, "uri"), "package://my_robot/\x00m.stl", ["body 'b'", "visuals[0].uri", "control"]),
    (("bodies", 0, "visuals", 0, "uri"), 5, ["body 'b'", "visuals[0].uri", "must be a string"]),
    (("bodies", 0, "visuals", 0, "uri"), "", ["body 'b'", "visuals[0].uri", "non-empty"]),
    pytest.param(("bodies", 0, "visuals", 0, "uri"), "package://" + "x" * 5000,
                 ["body 'b'", "visuals[0].uri", "5010 characters"], id="uri-too-long"),
    (("base", "collisions", 0, "uri"), {}, ["base", "collisions[0].uri", "must be a string"]),
    (("base", "urdf_inertial"), {"xyz": [0, 0, 0], "rpy": [0, 0, 0], "mass": 1, "inertia": [float("nan")] * 6},
     ["base", "urdf_inertial.inertia[0]", "NaN"]),
])
def test_hostile_as_read_values_refused(tmp_path, path, value, words):
    d = _saved(tmp_path)
    assert [b["name"] for b in d["bodies"]] == ["b", "c", "l1"]
    _set(d, path, value)
    p = tmp_path / "hostile.kinetree.json"
    p.write_text(json.dumps(d))
    with pytest.raises(FileFormatError) as exc:
        load_project(p)
    for word in words:
        assert word in str(exc.value), (word, str(exc.value))


def test_as_read_values_that_do_not_give_the_body_are_not_written(tmp_path):
    """Numbers as read that do not give the loaded origin or inertia (hand-made or hostile) are
    never written in their place: export computes them from what the body holds."""
    d = _saved(tmp_path)
    body = d["bodies"][2]
    body["joint"]["urdf_origin"]["rpy"] = [0.5, 0, 0]
    body["urdf_inertial"]["mass"] = 1000.0
    body["visuals"][0]["urdf_origin"]["xyz"] = [0, 0, 0.7]
    p = tmp_path / "h.kinetree.json"
    p.write_text(json.dumps(d))
    export_robot(_quiet(load_project, p)[0], tmp_path / "h.urdf")
    root = etree.parse(str(tmp_path / "h.urdf")).getroot()
    l1 = root.find("link[@name='l1']")
    assert _floats(l1.find("inertial/mass"), "value") == [1.0]
    assert _floats(l1.find("visual/origin"), "xyz") == [0.0, 0.0, 0.1]
    assert _floats(root.find("joint[@name='j1']/origin"), "rpy")[0] == pytest.approx(0.1, abs=1e-15)


# --- found by review: a URI beside an existing file; many missing meshes -------------------------

def _package_project(tmp_path: Path) -> dict:
    """The project of _pkg's robot, as a dictionary to tamper with (written back to p.kinetree.json)."""
    export_robot(_quiet(import_robot, _pkg(tmp_path) / "urdf" / "r.urdf"), tmp_path / "p.kinetree.json")
    return json.loads((tmp_path / "p.kinetree.json").read_text())


def test_a_package_uri_naming_another_file_is_not_exported(tmp_path):
    d = _package_project(tmp_path)
    visual = d["base"]["visuals"][0]
    assert visual["uri"] == "package://my_robot/meshes/m.stl"
    visual["uri"] = "package://evil_pkg/other.stl"  # beside a filename that exists
    (tmp_path / "p.kinetree.json").write_text(json.dumps(d))
    back, _ = load_project(tmp_path / "p.kinetree.json")
    export_robot(back, tmp_path / "out.urdf")
    assert "evil_pkg" not in (tmp_path / "out.urdf").read_text()


def test_many_missing_meshes_are_bounded_work(tmp_path):
    d = _package_project(tmp_path)
    template = d["base"]["visuals"][0]
    d["base"]["visuals"] = [{**template, "filename": f"/gone/{k}.stl", "uri": f"package://gone{k}/m.stl"}
                            for k in range(2000)]
    (tmp_path / "p.kinetree.json").write_text(json.dumps(d))
    seen = []
    back, _ = load_project(tmp_path / "p.kinetree.json", on_warning=seen.append)
    assert len(back.base.visuals) == 2000  # kept as saved
    assert len(seen) == 51 and "no longer looked for" in seen[-1]
