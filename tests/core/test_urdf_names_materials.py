"""URDF → URDF keeps the robot's name (``<robot name="ur5">`` exported to out01.urdf stayed
ur5 only with ``robot_name=``) and the attributes KineTree does not model (``version``,
``dont_collapse`` …)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from kinetree.core.io.urdf import export_urdf, urdf_from_string, urdf_string
from lxml import etree

ROBOT = '<robot name="ur5"><link name="a"/><link name="b"/><joint name="j" type="fixed"><parent link="a"/>' \
        '<child link="b"/></joint></robot>'


def _kinetree(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def _name(path_or_text) -> str:
    data = Path(path_or_text).read_bytes() if isinstance(path_or_text, Path) else path_or_text.encode()
    return etree.fromstring(data).get("name")


def test_cli_convert_keeps_the_robot_name(tmp_path):
    (tmp_path / "a.urdf").write_text(ROBOT)
    r = _kinetree("convert", "a.urdf", "out01.urdf", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert _name(tmp_path / "out01.urdf") == "ur5"


def test_robot_name_order_and_tree_copy(tmp_path):
    tree = urdf_from_string(ROBOT).copy()  # every app edit works on a copy
    export_urdf(tree, tmp_path / "out.urdf")
    assert _name(tmp_path / "out.urdf") == "ur5"
    export_urdf(tree, tmp_path / "out.urdf", robot_name="given")
    assert _name(tmp_path / "out.urdf") == "given"
    assert _name(urdf_string(tree)) == "ur5"
    unnamed = urdf_from_string('<robot><link name="a"/></robot>')
    export_urdf(unnamed, tmp_path / "stem.urdf")
    assert _name(tmp_path / "stem.urdf") == "stem"


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
