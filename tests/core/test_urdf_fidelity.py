"""URDF → URDF keeps what the file says: mesh URIs as written, origins and inertials bit for bit
(and byte-stable over repeated passes), refuses NaN where readers parse numbers, and loads a
fixed joint's <mimic> (ignored, with a warning)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from helpers.urdf import ALL_TYPES, EXAMPLE_ROBOTS, REAL_URDFS, _kinetree, _pkg, _quiet, joint, link, robot
from kinetree.core import FileFormatError, export_robot, import_robot
from kinetree.core.io import tree_from_dict
from kinetree.core.io.project import tree_to_dict
from kinetree.core.io.urdf.read import UrdfWarning, import_urdf, urdf_from_string, urdf_string
from lxml import etree

needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data not installed")
# the real files of the QA report, besides the test collection
EXTRA_URDFS = {"tiago": "tiago_description/robots/tiago.urdf", "talos_reduced": "talos_data/robots/talos_reduced.urdf",
               "ur5": "ur_description/urdf/ur5_robot.urdf"}


# --- the numbers as read, from the XML ------------------------------------------------------------

def _floats(el, attr: str, default: str) -> tuple[float, ...]:
    return tuple(float(t) for t in (el.get(attr, default) if el is not None else default).split())


def _origin(parent) -> tuple:
    o = parent.find("origin")
    return _floats(o, "xyz", "0 0 0") + _floats(o, "rpy", "0 0 0")


def _numbers(path_or_text) -> dict:
    """Every origin, mass and inertia of a URDF, as floats, by joint and link name."""
    root = etree.fromstring(Path(path_or_text).read_bytes() if isinstance(path_or_text, Path)
                            else path_or_text.encode(), etree.XMLParser(remove_comments=True))
    out: dict = {}
    for j in root.iterchildren("joint"):
        out["joint", j.get("name")] = _origin(j)
    for lk in root.iterchildren("link"):
        name = lk.get("name")
        ine = lk.find("inertial")
        if ine is not None and (ine.find("mass") is not None or ine.find("inertia") is not None):
            i = ine.find("inertia")
            out["inertial", name] = (_origin(ine), _floats(ine.find("mass"), "value", "0"),
                                     tuple(_floats(i, a, "0")[0] for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")))
        for tag in ("visual", "collision"):
            out[tag, name] = sorted(_origin(v) for v in lk.iterchildren(tag))
    return out


# --- origins and inertials ---------------------------------------------------------------------------

RPY_ROBOT = robot("\n".join([
    link("a", '<inertial><origin xyz="0.1 -0.2 0.3" rpy="0.1 0.2 0.3"/><mass value="0.7"/>'
              '<inertia ixx="0.00315" ixy="8.2904e-07" ixz="0.00015" iyy="0.00388" iyz="8.2299e-06" izz="0.004285"/>'
              '</inertial><visual><origin xyz="0.1 0 0" rpy="0.1 -4.71238898038 0.3"/>'
              '<geometry><box size="1 2 3"/></geometry></visual>'
              '<collision><origin xyz="0 0.1 0" rpy="0 -1.5708 0"/><geometry><sphere radius="0.1"/></geometry>'
              '</collision>'),
    link("b"), link("c"), link("d"),
    joint("j", "fixed", "a", "b", xyz="0 0 0", rpy="0.1 0.2 0.3", axis=None, limit=None),
    joint("k", "revolute", "b", "c", xyz="0.3 0.1 0.7", rpy="0 0 -4.71238898038"),
    joint("p", "prismatic", "c", "d", xyz="0 0 0", rpy="0 -1.5708 0", axis="0.6 0.8 0"),
]))


def test_origins_and_inertias_come_back_as_written_and_stay(tmp_path):
    """rpy 0.1 used to come back 0.09999999999999998 and drift on each pass; Panda's iyy
    0.00388 came back 0.0038800000000000006."""
    (tmp_path / "d0.urdf").write_text(RPY_ROBOT)
    for i in range(1, 4):  # through the command line, as the QA report did
        r = _kinetree("convert", f"d{i - 1}.urdf", f"d{i}.urdf", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    first = (tmp_path / "d1.urdf").read_text()
    assert _numbers(tmp_path / "d1.urdf") == _numbers(RPY_ROBOT)
    for attr in ('rpy="0.1 0.2 0.3"', 'rpy="0 0 -4.71238898038"', 'rpy="0 -1.5708 0"', 'iyy="0.00388"',
                 'rpy="0.1 -4.71238898038 0.3"', 'ixy="8.2904e-07"'):
        assert attr in first, attr
    # byte-stable after the first pass (the robot name is the file's, so compare without it)
    assert (tmp_path / "d3.urdf").read_text().replace('"d3"', '"d1"') == first


def test_edited_values_are_written_not_the_ones_read():
    tree = urdf_from_string(RPY_ROBOT)
    T = np.eye(4)
    T[:3, 3] = (1.0, 2.0, 3.0)
    tree.get_body("c").joint.set_fixed_transform(T)
    tree.base.inertia = 2 * tree.base.inertia
    v = tree.base.visuals[0]
    tree.base.visuals = [type(v)(v.kind, v.size, np.eye(4), v.color)]
    back = _numbers(urdf_string(tree))
    assert back["joint", "k"] == (1.0, 2.0, 3.0, 0.0, 0.0, 0.0)
    assert back["inertial", "a"][0] == (0.1, -0.2, 0.3, 0.0, 0.0, 0.0)  # computed: in link axes
    assert back["visual", "a"] == [(0.0,) * 6]
    assert back["collision", "a"] == _numbers(RPY_ROBOT)["collision", "a"]  # unchanged: as read
    again = urdf_from_string(urdf_string(tree))
    assert np.allclose(again.base.inertia, tree.base.inertia, rtol=0, atol=1e-15)
    assert np.allclose(again.base.center_of_mass, tree.base.center_of_mass, rtol=0, atol=1e-15)


def test_all_joint_types_byte_stable():
    once = urdf_string(urdf_from_string(ALL_TYPES))
    twice = urdf_string(urdf_from_string(once))  # (the first adds j_planar_x_frame: its axis is not z)
    assert urdf_string(urdf_from_string(twice)) == twice
    src, out = _numbers(ALL_TYPES), _numbers(once)
    planar_x = ("joint", "j_planar_x")  # a planar joint's axis is rewritten to z: its origin changes
    assert {k: v for k, v in out.items() if k in src and k != planar_x} == {k: v for k, v in src.items()
                                                                             if k != planar_x}


@needs_robots
@pytest.mark.parametrize("key", sorted({**REAL_URDFS, **EXTRA_URDFS}))
def test_real_robots_keep_numbers_uris_and_are_byte_stable(key, tmp_path):
    src = EXAMPLE_ROBOTS / {**REAL_URDFS, **EXTRA_URDFS}[key]
    tree = _quiet(import_robot, src)
    out1, out2 = tmp_path / "one" / "r.urdf", tmp_path / "two" / "r.urdf"
    out1.parent.mkdir()
    out2.parent.mkdir()
    export_robot(tree, out1)
    expected = _numbers(src)
    got = _numbers(out1)
    assert {k: got.get(k) for k in expected} == expected
    export_robot(_quiet(import_robot, out1, package_paths=(str(EXAMPLE_ROBOTS.parent),)), out2)
    assert out2.read_bytes() == out1.read_bytes()
    uris = {m.get("filename") for m in etree.parse(str(src)).iter("mesh") if m.get("filename").startswith("package:")}
    written = {m.get("filename") for m in etree.parse(str(out1)).iter("mesh")}
    assert uris <= written


# --- mesh URIs ---------------------------------------------------------------------------------

def _meshes(path: Path) -> list[str]:
    return [m.get("filename") for m in etree.parse(str(path)).iter("mesh")]


def test_package_uris_exported_as_written(tmp_path):
    pkg = _pkg(tmp_path)
    src = pkg / "urdf" / "r.urdf"
    written = _meshes(src)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for out in (pkg / "urdf" / "r_rt.urdf", elsewhere / "r_rt.urdf"):  # the QA report's command
        r = _kinetree("convert", str(src), str(out), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        got = _meshes(out)
        assert got[:2] == written[:2]  # package:// (even package:///) as written, wherever exported
        # a relative path or file:// URI: as written while it still names the file, else recomputed
        tree = import_robot(out, package_paths=(str(pkg.parent),))
        assert {v.filename for b in (tree.base, *tree.bodies) for v in (*b.visuals, *b.collisions)} == {
            str((pkg / "meshes" / "m.stl").resolve())}
        if out.parent == src.parent:
            assert got == written
        else:
            assert got[2] == "../ws/my_robot/meshes/m.stl" and got[3] == written[3]


def test_project_keeps_resolved_paths_and_uris(tmp_path):
    """The project stores the resolved path and the URI as written (see
    test_project_urdf_fidelity.py): exported as written."""
    pkg = _pkg(tmp_path)
    tree = tree_from_dict(tree_to_dict(import_robot(pkg / "urdf" / "r.urdf")))[0]
    assert tree.base.visuals[0].filename == str((pkg / "meshes" / "m.stl").resolve())
    export_robot(tree, pkg / "urdf" / "p.urdf")
    assert _meshes(pkg / "urdf" / "p.urdf") == _meshes(pkg / "urdf" / "r.urdf")


# --- refused numbers ------------------------------------------------------------------------------

@pytest.mark.parametrize("element, message", [
    ('<limit lower="-1" upper="1" effort="nan" velocity="1"/>', "limit effort is nan"),
    ('<limit lower="-1" upper="1" effort="1" velocity="inf"/>', "limit velocity is inf"),
    ('<limit lower="-1" upper="1" effort="-inf" velocity="1"/>', "limit effort is -inf"),
    ('<limit lower="-1" upper="1" effort="abc" velocity="1"/>', "limit effort 'abc' is not a number"),
    ('<dynamics damping="nan" friction="0"/>', "dynamics damping is nan"),
    ('<dynamics damping="0" friction="abc"/>', "dynamics friction 'abc' is not a number"),
    ('<safety_controller soft_lower_limit="nan" k_velocity="1"/>', "safety_controller soft_lower_limit is nan"),
    ('<safety_controller k_position="inf" k_velocity="1"/>', "safety_controller k_position is inf"),
    ('<calibration rising="nan"/>', "calibration rising is nan"),
])
def test_non_finite_joint_numbers_refused(tmp_path, element, message):
    text = robot(link("a") + link("b") + '\n' + joint("j", "revolute", "a", "b", limit=None, extra=element))
    (tmp_path / "bad.urdf").write_text(text)
    with pytest.raises(FileFormatError, match=rf"bad\.urdf:4: joint 'j': {message}"):
        import_urdf(tmp_path / "bad.urdf")


def test_export_refuses_a_kept_nan_effort_or_damping():
    """A project's joint extensions are written into the URDF: NaN would make it unreadable."""
    tree = urdf_from_string(robot(link("a") + link("b") + joint("j", "revolute", "a", "b")))
    for ext, message in (('<limit effort="nan" velocity="1"/>', "limit effort is nan"),
                         ('<dynamics damping="inf"/>', "dynamics damping is inf")):
        tree.get_body("b").joint.extensions = [ext]
        with pytest.raises(FileFormatError, match=f"joint 'j': extension 0: {message}"):
            urdf_string(tree)


# --- non-physical inertia ------------------------------------------------------------------------

ODD_INERTIA = robot(link("a") + link("b", '<inertial><origin xyz="0 0 0" rpy="0 0 0"/><mass value="0.000001"/>'
                    '<inertia ixx="0.00000002371" ixy="0.00000006119" ixz="0.00000001179" iyy="0.00000002833" '
                    'iyz="0.00000000774" izz="0.00000003849"/></inertial>')
                    + joint("j", "fixed", "a", "b", axis=None, limit=None))  # Tiago's antenna


def test_non_physical_tensor_exported_as_read_and_named_when_edited(tmp_path):
    tree = urdf_from_string(ODD_INERTIA)
    assert _numbers(urdf_string(tree)) == _numbers(ODD_INERTIA)
    tree.get_body("b").mass = 2e-6  # edited: computed, and the tensor itself is wrong
    with pytest.raises(FileFormatError, match=r"body 'b': inertia about the centre of mass \[ixx iyy izz iyz ixz "
                                              r"ixy\] = \[2\.371e-08, .*\] is not physical: it has a negative "
                                              r"principal moment, -3\.53\d*e-08.*make it positive semi-definite"):
        export_robot(tree, tmp_path / "x.urdf")


@needs_robots
def test_tiago_converts(tmp_path):
    src = EXAMPLE_ROBOTS / EXTRA_URDFS["tiago"]
    r = _kinetree("convert", str(src), str(tmp_path / "tiago.urdf"), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _numbers(tmp_path / "tiago.urdf")["inertial", "base_antenna_left_link"] == _numbers(src)[
        "inertial", "base_antenna_left_link"]


# --- <mimic> on a fixed joint ----------------------------------------------------------------------

def test_fixed_joint_mimic_ignored_with_warning(tmp_path):
    text = robot(link("a") + link("b") + link("c") + "\n" + joint("lead", "revolute", "a", "b") + "\n"
                 + joint("f", "fixed", "b", "c", axis=None, limit=None, extra='<mimic joint="lead" multiplier="2"/>'))
    path = tmp_path / "m.urdf"
    path.write_text(text)
    with pytest.warns(UrdfWarning, match=r"m\.urdf:5: joint 'f': a fixed joint cannot mimic another; <mimic> "
                                         r"ignored"):
        tree = import_urdf(path)
    assert tree.get_body("c").joint.type == "fixed" and tree.get_body("c").joint.mimic is None
    assert "<mimic" not in urdf_string(tree)


@needs_robots
def test_talos_reduced_loads(tmp_path):
    src = EXAMPLE_ROBOTS / EXTRA_URDFS["talos_reduced"]
    with pytest.warns(UrdfWarning, match=r"talos_reduced\.urdf:1386: joint 'gripper_left_inner_double_joint': a "
                                         r"fixed joint cannot mimic another"):
        tree = import_robot(src)
    assert len(tree.bodies) == len(etree.parse(str(src)).getroot().findall("joint"))
    r = _kinetree("convert", str(src), str(tmp_path / "t.urdf"), cwd=tmp_path)  # the command line too
    assert r.returncode == 0, r.stderr


# --- found by review: the app edits copies; a string has no folder ------------------------------

@needs_robots
def test_a_copy_keeps_the_root_links_numbers_and_uris(tmp_path):
    """Every app edit works on tree.copy(): the root link (the tree's base) kept nothing as read."""
    tree = _quiet(import_robot, EXAMPLE_ROBOTS / REAL_URDFS["panda"])
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    export_robot(tree, tmp_path / "a" / "r.urdf")
    copy = tree.copy()
    copy.bodies[0].mass = copy.bodies[0].mass  # a no-op edit, as doc.edit makes on its copy
    export_robot(copy, tmp_path / "b" / "r.urdf")
    assert (tmp_path / "b" / "r.urdf").read_text() == (tmp_path / "a" / "r.urdf").read_text()


def test_a_urdf_string_names_meshes_that_resolve(tmp_path):
    """urdf_string has no output folder: a relative URI as read would name nothing."""
    pkg = _pkg(tmp_path)
    tree = import_robot(pkg / "urdf" / "r.urdf", package_paths=(str(pkg.parent),))
    text = urdf_string(tree)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no mesh 'not found'
        back = urdf_from_string(text, package_paths=(str(pkg.parent),))
    assert {v.filename for b in (back.base, *back.bodies) for v in (*b.visuals, *b.collisions)} == {
        str((pkg / "meshes" / "m.stl").resolve())}
    assert "package://my_robot/meshes/m.stl" in text  # a package URI still as written


def test_the_cli_finds_package_meshes_through_package_path(tmp_path):
    pkg = _pkg(tmp_path)
    out = tmp_path / "elsewhere" / "r.urdf"
    out.parent.mkdir()
    assert _kinetree("convert", str(pkg / "urdf" / "r.urdf"), str(out), cwd=tmp_path).returncode == 0
    lost = _kinetree("details", str(out), cwd=tmp_path)
    assert lost.returncode == 0 and "package://my_robot/meshes/m.stl' not found" in lost.stderr
    found = _kinetree("details", str(out), "--package-path", str(pkg.parent), cwd=tmp_path)
    assert found.returncode == 0 and "not found" not in found.stderr, found.stderr


def test_the_cli_finds_a_projects_package_meshes_through_package_path(tmp_path):
    pkg = _pkg(tmp_path)
    project = tmp_path / "elsewhere" / "r.kinetree.json"
    project.parent.mkdir()
    assert _kinetree("convert", str(pkg / "urdf" / "r.urdf"), str(project), cwd=tmp_path).returncode == 0
    moved = tmp_path / "moved"
    pkg.parent.rename(moved)  # the saved paths are gone; the URIs remain
    lost = _kinetree("details", str(project), cwd=tmp_path)
    assert lost.returncode == 0 and "mesh 'package:" in lost.stderr
    found = _kinetree("details", str(project), "--package-path", str(moved), cwd=tmp_path)
    # the package:// meshes are found; the relative and file:// ones named the old place
    assert found.returncode == 0 and "mesh 'package:" not in found.stderr and "body 'b'" in found.stderr, found.stderr
