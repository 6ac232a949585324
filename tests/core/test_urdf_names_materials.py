"""URDF → URDF keeps the robot's name, the attributes KineTree does not model (``version``,
``dont_collapse`` …), material names, robot-level ``<material>`` definitions and ``<texture>``;
a visual without a material gets none and an all-zero ``<inertial>`` stays. An edited colour
is written, never the stale material."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS, _kinetree, _quiet
from kinetree.core.io.urdf.read import export_urdf, import_urdf, urdf_from_string, urdf_string
from kinetree.core.model.xml_fragment import fragment_text
from lxml import etree

needs_robots = pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data not installed")

TEXTURED = """<robot name="r" version="1.0">
<material name="tex"><texture filename="package://foo/tex.png"/></material>
<material name="LightGrey"><color rgba="0.7 0.7 0.7 1.0"/></material>
<link name="a" custom="yes"><visual><geometry><box size="1 1 1"/></geometry><material name="tex"/></visual>
  <visual><geometry><sphere radius="0.5"/></geometry><material name="LightGrey"/></visual>
  <visual><geometry><sphere radius="0.2"/></geometry></visual></link>
<link name="b"><inertial><mass value="0"/><inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial>
  <visual>
    <geometry><box size="1 2 3"/></geometry><material name="red"><color rgba="1 0 0 1"/></material></visual></link>
<link name="c"><visual><geometry><box size="1 2 3"/></geometry><material name="red"/></visual></link>
<joint name="j" type="fixed" dont_collapse="true"><parent link="a"/><child link="b"/></joint>
<joint name="k" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/>
  <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>
"""




def _summary(path_or_text) -> dict:
    """Name, attributes, robot-level materials and each visual's material, from the XML."""
    data = Path(path_or_text).read_bytes() if isinstance(path_or_text, Path) else path_or_text.encode()
    root = etree.fromstring(data, etree.XMLParser(remove_comments=True))
    attrs = lambda el: {k: v for k, v in el.attrib.items() if not k.startswith("{")}  # noqa: E731
    mat = lambda v: None if v.find("material") is None else fragment_text(v.find("material"))  # noqa: E731
    return {"robot": attrs(root),
            "materials": [fragment_text(m) for m in root.iterchildren("material")],
            "links": {lk.get("name"): (attrs(lk), [mat(v) for v in lk.iterchildren("visual")])
                      for lk in root.iterchildren("link")},
            "joints": {j.get("name"): attrs(j) for j in root.iterchildren("joint")},
            "inertials": {lk.get("name"): lk.find("inertial") is not None for lk in root.iterchildren("link")}}


def _colours(tree) -> list:
    return [[v.color for v in b.visuals] for b in (tree.base, *tree.bodies)]


def test_cli_convert_keeps_names_attributes_materials_and_texture(tmp_path):
    (tmp_path / "a.urdf").write_text(TEXTURED)
    for src, dst in (("a.urdf", "out01.urdf"), ("out01.urdf", "out02.urdf")):  # as the QA report did
        r = _kinetree("convert", src, dst, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    got = _summary(tmp_path / "out01.urdf")
    assert got == _summary(TEXTURED)  # name, version, custom, dont_collapse, all materials, zero inertial
    assert got["materials"][0] == '<material name="tex"><texture filename="package://foo/tex.png"/></material>'
    assert got["links"]["a"][1][2] is None  # no material: none written (it used to gain kt_color_0)
    assert "kt_color" not in (tmp_path / "out01.urdf").read_text()
    assert (tmp_path / "out02.urdf").read_bytes() == (tmp_path / "out01.urdf").read_bytes()
    assert _colours(_quiet(import_urdf, tmp_path / "out01.urdf")) == _colours(_quiet(import_urdf, tmp_path / "a.urdf"))


def test_robot_name_order_and_tree_copy(tmp_path):
    tree = urdf_from_string(TEXTURED).copy()  # every app edit works on a copy
    export_urdf(tree, tmp_path / "out.urdf")
    assert _summary(tmp_path / "out.urdf")["robot"] == {"name": "r", "version": "1.0"}
    export_urdf(tree, tmp_path / "out.urdf", robot_name="given")
    assert _summary(tmp_path / "out.urdf")["robot"]["name"] == "given"
    assert _summary(urdf_string(tree))["robot"]["name"] == "r"
    unnamed = urdf_from_string('<robot><link name="a"/></robot>')
    export_urdf(unnamed, tmp_path / "stem.urdf")
    assert _summary(tmp_path / "stem.urdf")["robot"]["name"] == "stem"


def test_edited_colours_are_written_not_the_stale_material():
    tree = urdf_from_string(TEXTURED).copy()
    a, b = tree.base, tree.get_body("b")
    a.visuals = [a.visuals[0], a.visuals[1].__class__(**{**vars(a.visuals[1]), "color": (0.0, 0.0, 1.0, 1.0)}),
                 a.visuals[2].__class__(**{**vars(a.visuals[2]), "color": (0.0, 1.0, 0.0, 1.0)})]
    b.visuals = [b.visuals[0].__class__(**{**vars(b.visuals[0]), "color": (0.0, 0.5, 0.0, 1.0)})]  # defines "red"
    text = urdf_string(tree)
    back = urdf_from_string(text)
    assert _colours(back) == _colours(tree)  # c's reference to "red" no longer names red: written inline
    assert _colours(back)[2] == [(1.0, 0.0, 0.0, 1.0)]
    links = _summary(text)["links"]
    assert links["a"][1][0] == '<material name="tex"/>'  # unchanged: as read
    assert all("kt_color" in m for m in (*links["a"][1][1:], *links["b"][1], *links["c"][1]))
    assert urdf_string(urdf_from_string(text)) == text


def test_moved_visual_keeps_its_material_name():
    tree = urdf_from_string(TEXTURED)
    v = tree.base.visuals[1]
    tree.base.visuals = [tree.base.visuals[0], v.__class__(**{**vars(v), "pose": ((1.0, 0, 0, 0.5), (0, 1.0, 0, 0),
                                                                                  (0, 0, 1.0, 0), (0, 0, 0, 1.0))})]
    assert _summary(urdf_string(tree))["links"]["a"][1] == ['<material name="tex"/>', '<material name="LightGrey"/>']


def test_kt_colour_names_never_reuse_a_name_of_the_file():
    text = TEXTURED.replace('name="tex"', 'name="kt_color_0"')
    tree = urdf_from_string(text)
    v = tree.get_body("c").visuals[0]
    tree.get_body("c").visuals = [v.__class__(**{**vars(v), "color": (0.0, 0.0, 1.0, 1.0)})]
    text = urdf_string(tree)
    assert _colours(urdf_from_string(text)) == _colours(tree)
    root = etree.fromstring(text.encode())  # for readers where the robot-level definition wins (urdfdom)
    assert root.find("link[@name='c']/visual/material").get("name") not in {"kt_color_0", "LightGrey", "red"}


@needs_robots
@pytest.mark.parametrize("key", sorted(REAL_URDFS))
def test_real_robots_keep_names_attributes_and_materials(key, tmp_path):
    src = EXAMPLE_ROBOTS / REAL_URDFS[key]
    export_urdf(_quiet(import_urdf, src).copy(), tmp_path / "out.urdf")
    want, got = _summary(src), _summary(tmp_path / "out.urdf")
    assert got["robot"] == want["robot"] and got["materials"] == want["materials"]
    assert {k: got["links"][k] for k in want["links"]} == want["links"]
    assert {k: got["joints"][k] for k in want["joints"]} == want["joints"]  # g1, go2: dont_collapse
    assert _colours(_quiet(import_urdf, tmp_path / "out.urdf", package_paths=(str(EXAMPLE_ROBOTS),))) == \
        _colours(_quiet(import_urdf, src))


ROBOT = '<robot name="ur5"><link name="a"/><link name="b"/><joint name="j" type="fixed"><parent link="a"/>' \
        '<child link="b"/></joint></robot>'


def _name(path_or_text) -> str:
    data = Path(path_or_text).read_bytes() if isinstance(path_or_text, Path) else path_or_text.encode()
    return etree.fromstring(data).get("name")


def test_cli_convert_keeps_the_robot_name(tmp_path):
    (tmp_path / "a.urdf").write_text(ROBOT)
    r = _kinetree("convert", "a.urdf", "out01.urdf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _name(tmp_path / "out01.urdf") == "ur5"


ATTRS = '<robot name="r" version="1.0"><link name="a" custom="yes"/><link name="b"/>' \
        '<joint name="j" type="fixed" dont_collapse="true"><parent link="a"/><child link="b"/></joint></robot>'


def test_cli_convert_keeps_unmodelled_attributes(tmp_path):
    (tmp_path / "a.urdf").write_text(ATTRS)
    for src, dst in (("a.urdf", "b.urdf"), ("b.urdf", "c.urdf")):
        r = _kinetree("convert", src, dst, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
    root = etree.parse(str(tmp_path / "b.urdf")).getroot()
    assert dict(root.attrib) == {"name": "r", "version": "1.0"}
    assert dict(root.find("link").attrib) == {"name": "a", "custom": "yes"}
    assert dict(root.find("joint").attrib) == {"name": "j", "type": "fixed", "dont_collapse": "true"}
    assert (tmp_path / "c.urdf").read_bytes() == (tmp_path / "b.urdf").read_bytes()
    copy = urdf_from_string(ATTRS).copy()  # as every app edit
    assert urdf_string(copy) == urdf_string(urdf_from_string(ATTRS))


def test_a_new_visual_of_the_same_colour_gets_no_texture():
    from dataclasses import replace

    from kinetree.core import Visual

    tree = urdf_from_string(TEXTURED)
    a = tree.base
    textured = a.visuals[0]
    moved = replace(textured, pose=((1, 0, 0, 0.5), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)))
    a.visuals = [moved, *a.visuals[1:], Visual("sphere", (0.1,), color=textured.color)]
    text = urdf_string(tree)
    link_a = etree.fromstring(text.encode()).find("link[@name='a']")
    materials = [v.find("material") for v in link_a.findall("visual")]
    assert materials[0].get("name") == "tex"  # the moved visual keeps its material
    assert materials[-1] is None or materials[-1].get("name") != "tex"  # the new sphere: not the textured material
