"""DH table CSV files (core.io.dh_csv)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.core import DHLink, chain_dh_table, dh_chain, list_robots, load_robot
from kinetree.core.errors import FileFormatError
from kinetree.core.io.dh_csv import DHTable, dh_csv_string, read_dh_csv, write_dh_csv
from kinetree.core.transforms import pose_from_xyz_rpy

LIBRARY = ["puma560", "puma560_mdh", "stanford", "scara", "cylindrical", "spherical_wrist", "two_link_planar"]


def _values(link: DHLink) -> list[float]:
    return [link.a, link.alpha, link.d, link.theta, link.offset, *(link.qlim or (math.nan, math.nan)),
            link.home or 0.0]


def assert_same_links(got: list[DHLink], want: list[DHLink], tol: float = 1e-12) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert (g.joint, g.name, g.joint_name, g.flip) == (w.joint, w.name, w.joint_name, w.flip)
        np.testing.assert_allclose(_values(g), _values(w), rtol=0, atol=tol)


# --- round trips ------------------------------------------------------------------------------

@pytest.mark.parametrize("units", ["deg", "rad"])
@pytest.mark.parametrize("name", sorted(set(LIBRARY) | set(list_robots())))
def test_library_round_trip(name, units, tmp_path):
    entries = chain_dh_table(load_robot(name))
    if any(e.link is None for e in entries):
        pytest.skip(f"{name} is not stored as DH rows")
    links, convention = [e.link for e in entries], entries[0].convention
    path = tmp_path / f"{name}.csv"
    write_dh_csv(path, links, convention, units)
    table = read_dh_csv(path)
    assert isinstance(table, DHTable) and table.convention == convention
    assert_same_links(table.links, links, 0.0 if units == "rad" else 1e-12)
    # the same robot comes back
    robot, again = load_robot(name), dh_chain(table.links, table.convention)
    q = robot.random_configuration(7)
    np.testing.assert_allclose(again.forward_kinematics(q), robot.forward_kinematics(q), atol=1e-12)


def test_written_text_is_readable(tmp_path):
    text = dh_csv_string([e.link for e in chain_dh_table(load_robot("stanford"))], "dh", "deg")
    lines = text.splitlines()
    assert lines[0] == "# kinetree dh-table convention=dh angles=deg lengths=m"
    assert lines[1] == "type,a,alpha,d,theta,offset,qmin,qmax,name,joint,home"  # the prismatic home is not 0
    assert lines[2] == "R,0,-90,0.412,q1,0,-170,170,link1,q1,0"
    assert lines[4] == "P,0,0,q3,-90,0,0.3048,1.27,link3,q3,0.3048"


floats = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("RP"), floats, floats, floats, floats, floats,
                          st.one_of(st.none(), st.tuples(floats, floats).map(sorted)), st.booleans()),
                min_size=1, max_size=8),
       st.sampled_from(["dh", "mdh"]), st.sampled_from(["deg", "rad"]))
def test_any_table_round_trips(rows, convention, units):
    links = [DHLink(j, a=a, alpha=al, d=d, theta=th, offset=off, qlim=None if lim is None else tuple(lim),
                    name=f"b{i}", joint_name=f"j{i}", flip=flip)
             for i, (j, a, al, d, th, off, lim, flip) in enumerate(rows)]
    table = read_dh_csv(dh_csv_string(links, convention, units))
    assert table.convention == convention
    assert_same_links(table.links, links, 0.0 if units == "rad" else 1e-12)


# --- spreadsheet-style input ------------------------------------------------------------------

PUMA_ROWS = [(0, 90, 0), (0.4318, 0, 0), (0.0203, -90, 0.15005), (0, 90, 0.4318), (0, -90, 0), (0, 0, 0)]


def _puma_text(sep: str, eol: str = "\n", trailing: str = "", bom: bool = False, blank: bool = False) -> str:
    lines = [sep.join(["type", "a", "alpha", "d", "theta"]) + trailing]
    for i, (a, al, d) in enumerate(PUMA_ROWS, 1):
        lines.append(sep.join(["R", str(a), str(al), str(d), f"q{i}"]) + trailing)
        if blank:
            lines.append("")
            lines.append(sep * 4)
    return ("\ufeff" if bom else "") + eol.join(lines) + eol


def _check_puma(table: DHTable) -> None:
    assert table.convention == "dh"  # the defaults: standard DH, degrees
    want = [DHLink("R", a, math.radians(al), d) for a, al, d in PUMA_ROWS]
    assert_same_links(table.links, want)
    puma = load_robot("puma560")
    q = [0.1, -0.4, 0.7, 0.3, -1.2, 2.0]
    np.testing.assert_allclose(dh_chain(table.links).get_transform(q, "link6"), puma.get_transform(q, "link6"),
                               atol=1e-12)


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
@pytest.mark.parametrize("variant", ["plain", "bom", "blank", "trailing"])
def test_spreadsheet_inputs(sep, eol, variant, tmp_path):
    text = _puma_text(sep, eol, trailing=sep * 3 if variant == "trailing" else "", bom=variant == "bom",
                      blank=variant == "blank")
    path = tmp_path / "arm.csv"
    path.write_bytes(text.encode("utf-8"))
    _check_puma(read_dh_csv(path))
    _check_puma(read_dh_csv(str(path)))
    _check_puma(read_dh_csv(text))


def test_decimal_comma_with_semicolons():
    text = "type;a;alpha;d;theta\n" + "".join(
        f"R;{str(a).replace('.', ',')};{al};{str(d).replace('.', ',')};\n" for a, al, d in PUMA_ROWS)
    _check_puma(read_dh_csv(text))


def test_header_declarations_and_overrides():
    body = ("TYPE,A,Alpha,D,Theta,Offset,qmin,qmax\n"
            "revolute,1,1.5707963267948966,0,,0.5,-1,1\nprismatic,0,0,,0,0.1,0,2\n")
    t = read_dh_csv("# kinetree dh-table convention=mdh angles=rad lengths=m\n" + body)
    assert t.convention == "mdh"
    assert t.links[0].alpha == math.pi / 2 and t.links[0].offset == 0.5 and t.links[0].qlim == (-1.0, 1.0)
    assert t.links[1].joint == "P" and t.links[1].qlim == (0.0, 2.0) and t.links[1].offset == 0.1
    t = read_dh_csv("# kinetree dh-table convention=mdh angles=rad\n" + body, convention="dh", units="deg")
    assert t.convention == "dh"
    assert t.links[0].alpha == pytest.approx(math.radians(1.5707963267948966))
    assert t.links[0].qlim == pytest.approx((math.radians(-1), math.radians(1)))
    assert t.links[1].qlim == (0.0, 2.0)  # prismatic limits are lengths
    t = read_dh_csv("# comment without settings\n" + body, convention="mdh")
    assert t.convention == "mdh" and t.links[0].offset == pytest.approx(math.radians(0.5))
    t = read_dh_csv("# convention=dh angles=deg lengths=mm\n" + body)
    assert t.links[0].a == pytest.approx(0.001) and t.links[1].offset == pytest.approx(0.0001)


def test_variable_cells_and_optional_columns():
    t = read_dh_csv("type,a,alpha,d,theta,name,joint\nR,0,0,0.2,theta1,shoulder,j1\nR,0,0,0,0.7,,\nP,0,0,d3,30,,\n")
    assert [lk.theta for lk in t.links] == [0.0, 0.7 * math.pi / 180, math.radians(30)]
    assert t.links[2].d == 0.0 and t.links[0].d == 0.2
    assert (t.links[0].name, t.links[0].joint_name) == ("shoulder", "j1")
    assert t.links[1].qlim is None
    t = read_dh_csv("type,a,alpha,d,theta,qmin,qmax\nR,0,0,0,q1,,90\nP,0,0,q,0,0.1,\n")
    assert t.links[0].qlim == pytest.approx((-math.pi, math.pi / 2))
    assert t.links[1].qlim == (0.1, 0.5)


# --- errors ----------------------------------------------------------------------------------

@pytest.mark.parametrize("body, message", [
    ("type,a,alpha,d,theta\nR,0,0,0,q1\nR,0,0,0,q2\nR,0,abc,0,q3\n",
     "arm.csv:4: column 'alpha': 'abc' is not a number"),
    ("type,a,alpha,d,theta\nX,0,0,0,q1\n", "arm.csv:2: column 'type': 'X' is not R or P"),
    ("type,a,alpha,d,theta,qmin,qmax\nR,0,0,0,q1,10,5\n", "arm.csv:2: column 'qmin': qmin 10 > qmax 5"),
    ("type,a,alpha,d,theta\nR,nan,0,0,q1\n", "arm.csv:2: column 'a': 'nan' is not finite"),
    ("type,a,alpha,d,theta\nR,0,0,inf,q1\n", "arm.csv:2: column 'd': 'inf' is not finite"),
    ("type,a,alpha,d,theta,qmin,qmax\nR,0,0,0,q1,-inf,0\n", "arm.csv:2: column 'qmin': '-inf' is not finite"),
    ("type,a,d,theta\nR,0,0,q1\n", "arm.csv:1: missing required column 'alpha'"),
    ("# convention=dh\ntype,a,alpha,d,theta\n\n", "arm.csv:2: the table has no rows"),
    ("# only a comment\n\n", "arm.csv: no header row"),
    ("", "arm.csv: no header row"),
    ("type,a,alpha,d,theta,colour\nR,0,0,0,q1,red\n", "arm.csv:1: unknown column 'colour'"),
    ("type,a,alpha,a,theta\nR,0,0,0,q1\n", "arm.csv:1: column 'a' appears twice"),
    ("type,a,alpha,d,theta\nR,0,0,0,q1,5\n", "arm.csv:2: 6 cells but the header has 5 columns"),
    ("type,a,alpha,d,theta\nR,0,0,q1,q1\n", "arm.csv:2: column 'd': 'q1' is not a number"),
    ("# convention=dhx\ntype,a,alpha,d,theta\n", "arm.csv:1: convention 'dhx' unknown"),
    ("# angles=grad\ntype,a,alpha,d,theta\n", "arm.csv:1: angle unit 'grad' unknown"),
    # issue 17: an unterminated quote swallowed the next column(s) silently
    ('type,a,alpha,d,theta,name,joint\nR,0,0,0,q1,"shoulder,j1\n',
     "arm.csv:2: column 'name': its opening quote is never closed"),
    ('type,a,alpha,d,theta\nR,0,0,0,q1\nR,"0,0,0,q1\n', "arm.csv:3: column 'a': its opening quote is never closed"),
    ('type,a,alpha,d,theta,name\nR,0,0,0,q1,"upper"arm\n',
     "arm.csv:2: column 'name': text after the closing quote"),
    ('type,a,alpha,"d,theta\n', "arm.csv:1: column 4: its opening quote is never closed"),
])
def test_errors_name_file_line_and_column(body, message, tmp_path):
    path = tmp_path / "arm.csv"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(FileFormatError) as exc:
        read_dh_csv(path)
    assert str(exc.value).startswith(str(tmp_path / message.split(":")[0]) + message[len("arm.csv"):])


def test_error_from_text_names_text():
    with pytest.raises(FileFormatError,
                       match=r"^<text>:3: column 'a': 'x' is not a number \(a symbol; .* give the constant's value\)$"):
        read_dh_csv("type,a,alpha,d,theta\nR,0,0,0,q1\nR,x,0,0,q1\n")


def test_large_and_missing_files(tmp_path):
    big = tmp_path / "big.csv"
    with open(big, "wb") as f:
        f.write(b"type,a,alpha,d,theta\n")
        f.seek(10 * 1024 * 1024 + 1)
        f.write(b"\n")
    with pytest.raises(FileFormatError, match=r"big\.csv: file is 10\.0 MB; a DH table file may be at most 10 MB"):
        read_dh_csv(big)
    with pytest.raises(FileFormatError, match=r"nope\.csv: no such file"):
        read_dh_csv(tmp_path / "nope.csv")
    bad = tmp_path / "latin1.csv"
    bad.write_bytes("type,a,alpha,d,theta\nR,0,0,0,q1,\xe9\n".encode("latin-1"))
    with pytest.raises(FileFormatError, match="not UTF-8"):
        read_dh_csv(bad)


def test_writer_refuses_what_it_cannot_write(tmp_path):
    with pytest.raises(ValueError, match=r"DH row 1 \(l1\): qmax is inf"):
        dh_csv_string([DHLink("R", qlim=(-1.0, math.inf), name="l1")])
    with pytest.raises(ValueError, match="joint must be 'R' or 'P'"):
        dh_csv_string([DHLink("X")])
    with pytest.raises(ValueError, match="convention"):
        dh_csv_string([DHLink("R")], convention="zz")
    with pytest.raises(ValueError, match="units"):
        dh_csv_string([DHLink("R")], units="grad")
    path = tmp_path / "t.csv"
    write_dh_csv(path, [DHLink("R", a=1.0)], "mdh", "rad")
    assert read_dh_csv(path).convention == "mdh"
    assert [p.name for p in tmp_path.iterdir()] == ["t.csv"]  # no temporary file left behind


# --- base and tool transforms -------------------------------------------------------------------

ROWS = "type,a,alpha,d,theta,name,joint\nR,0,90,0.3,q1,arm,j1\nR,0.4,0,0,q2,forearm,j2\n"


def test_base_and_tool_lines():
    t = read_dh_csv("# kinetree dh-table convention=dh angles=deg lengths=m\n"
                    "# base: xyz=0 0 0.1 rpy=0 0 90\n# tool: xyz=0.01 0 0.05 rpy=180 0 0 name=gripper\n" + ROWS)
    np.testing.assert_allclose(t.base, pose_from_xyz_rpy([0, 0, 0.1], [0, 0, math.pi / 2]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(t.tool, pose_from_xyz_rpy([0.01, 0, 0.05], [math.pi, 0, 0]), rtol=0, atol=1e-15)
    assert t.tool_name == "gripper"
    # units, lengths, the units override, lines after the header, spacing and case, left-out keys
    t = read_dh_csv("# angles=rad lengths=mm\n" + ROWS + "#Tool :  rpy=0.5 0 0,,,,\n# BASE: xyz=1 2 3\n")
    np.testing.assert_allclose(t.base, pose_from_xyz_rpy([0.001, 0.002, 0.003], [0, 0, 0]), rtol=0, atol=1e-15)
    np.testing.assert_allclose(t.tool, pose_from_xyz_rpy([0, 0, 0], [0.5, 0, 0]), rtol=0, atol=1e-15)
    assert t.tool_name == ""
    t = read_dh_csv("# angles=rad\n# tool: rpy=0.5 0 0 name='left hand'\n" + ROWS, units="deg")
    np.testing.assert_allclose(t.tool[:3, :3], pose_from_xyz_rpy([0, 0, 0], [math.radians(0.5), 0, 0])[:3, :3],
                               rtol=0, atol=1e-15)
    assert t.tool_name == "left hand"
    t = read_dh_csv(ROWS)
    assert (t.base, t.tool, t.tool_name) == (None, None, "")


def test_written_base_and_tool_text():
    links = [e.link for e in chain_dh_table(load_robot("stanford"))]
    base = pose_from_xyz_rpy([0, 0, 0.1], [0, 0, math.pi / 2])
    lines = dh_csv_string(links, "dh", "deg", base=base, tool=np.eye(4), tool_name="link6").splitlines()
    assert lines[:3] == ["# kinetree dh-table convention=dh angles=deg lengths=m", "# base: xyz=0 0 0.1 rpy=0 0 90",
                         "type,a,alpha,d,theta,offset,qmin,qmax,name,joint,home"]
    # identity and the last row's own name are not written; another name is, quoted when needed
    assert "#" not in "".join(dh_csv_string(links, base=np.eye(4), tool_name="link6").splitlines()[1:])
    lines = dh_csv_string(DHTable(links, "mdh", tool_name="the tip"), units="rad").splitlines()
    assert lines[:2] == ["# kinetree dh-table convention=mdh angles=rad lengths=m",
                         "# tool: xyz=0 0 0 rpy=0 0 0 name='the tip'"]
    assert read_dh_csv("\n".join(lines) + "\n").tool_name == "the tip"


def _pose(v) -> np.ndarray:
    xyz, rpy, lock = v[:3], list(v[3:6]), v[6]
    if lock:  # pitch at (or within 1e-9 of) ±90°: gimbal lock
        rpy[1] = math.copysign(math.pi / 2 - (1e-9 if lock == 2 else 0.0), rpy[1] or 1.0)
    return pose_from_xyz_rpy(xyz, rpy)


pose_values = st.tuples(floats, floats, floats, st.floats(-math.pi, math.pi), st.floats(-math.pi, math.pi),
                        st.floats(-math.pi, math.pi), st.sampled_from([0, 0, 1, 2]))


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), pose_values), st.one_of(st.none(), pose_values),
       st.sampled_from(["", "tcp", "hand tool", "o'brien", "link1"]), st.sampled_from(["dh", "mdh"]),
       st.sampled_from(["deg", "rad"]))
def test_base_and_tool_round_trip(base, tool, tool_name, convention, units):
    base = None if base is None else _pose(base)
    tool = None if tool is None else _pose(tool)
    links = [DHLink("R", a=0.1, alpha=0.2, d=0.3, theta=0, offset=0.4, qlim=None, name="link1", joint_name="q1"),
             DHLink("P", a=0, alpha=1.0, d=0, theta=0.5, offset=0.0)]
    table = read_dh_csv(dh_csv_string(DHTable(links, convention, base, tool, tool_name), units=units))
    eye = np.eye(4)
    for got, want in ((table.base, base), (table.tool, tool)):
        np.testing.assert_allclose(eye if got is None else got, eye if want is None else want, rtol=0, atol=1e-12)
    assert table.tool_name == tool_name
    # the identity is not written (a tool line is, to carry a name)
    assert (table.base is None) == (base is None or np.array_equal(base, eye))
    assert (table.tool is None) == ((tool is None or np.array_equal(tool, eye)) and not tool_name)


@pytest.mark.parametrize("body, message", [
    ("# base: xyz=0 0\n", "arm.csv:1: base: xyz needs 3 numbers, got 2"),
    ("# tool: xyz=0 0 a\n", "arm.csv:1: tool xyz: 'a' is not a number"),
    ("# base: rpy=0 0 inf\n", "arm.csv:1: base rpy: 'inf' is not finite"),
    ("# base: xyz=0 0 0 name=x\n", "arm.csv:1: base: unknown key 'name'; use xyz, rpy"),
    ("# tool: 0 0 0\n", "arm.csv:1: tool: '0' is not key=value"),
    ("# tool: xyz=0 0 0 xyz=1 1 1\n", "arm.csv:1: tool: xyz appears twice"),
    ("# tool: name=a b\n", "arm.csv:1: tool: name must be one word"),
    ("# tool: name='oops\n", "arm.csv:1: tool: No closing quotation"),
    ("# base: xyz=0 0 0\n# kinetree angles=rad\n# base: rpy=0 0 0\n",
     "arm.csv:3: a second base line (the first is line 1)"),
])
def test_base_and_tool_errors(body, message, tmp_path):
    path = tmp_path / "arm.csv"
    path.write_text(body + ROWS, encoding="utf-8")
    with pytest.raises(FileFormatError) as exc:
        read_dh_csv(path)
    assert str(exc.value).startswith(str(tmp_path / message.split(":")[0]) + message[len("arm.csv"):])


def test_writer_refuses_bad_base_and_tool():
    with pytest.raises(ValueError, match="DH table base: rotation part is not orthonormal"):
        dh_csv_string([DHLink("R")], base=np.diag([2.0, 1, 1, 1]))
    with pytest.raises(ValueError, match="DH table tool: expected a 4x4 matrix"):
        dh_csv_string([DHLink("R")], tool=np.eye(3))
    with pytest.raises(ValueError, match="tool name"):
        dh_csv_string([DHLink("R")], tool_name="a\nb")


def test_table_to_tree():
    base = pose_from_xyz_rpy([0, 0, 0.1], [0, 0, math.pi / 2])
    tool = pose_from_xyz_rpy([0.01, 0, 0.05], [math.pi, 0, 0])
    links = [e.link for e in chain_dh_table(load_robot("puma560"))]
    plain = DHTable(links).to_tree()
    assert plain.body_names == [f"link{k}" for k in range(1, 7)]
    tree = DHTable(links, base=base, tool=tool, tool_name="gripper").to_tree()
    assert tree.body_names == ["dh_base", *plain.body_names, "gripper"]
    assert tree.movable_joint_names == plain.movable_joint_names
    q = plain.random_configuration(5)
    np.testing.assert_allclose(tree.get_transform(q, "gripper"), base @ plain.get_transform(q, "link6") @ tool,
                               rtol=0, atol=1e-14)
    # unnamed rows are named as dh_chain names them; the tool body is "tool" unless named
    unnamed = [DHLink("R", 0.3), DHLink("P", alpha=0.5)]
    tree = DHTable(unnamed, tool=tool).to_tree()
    assert (tree.body_names, tree.movable_joint_names) == (["link1", "link2", "tool"], ["q1", "q2"])
    tree = DHTable(unnamed, tool_name="tcp").to_tree()  # a named tip frame on the last frame
    assert tree.body_names == ["link1", "link2", "tcp"]
    np.testing.assert_allclose(tree.get_transform([0.2, 0.1], "tcp"), tree.get_transform([0.2, 0.1], "link2"))
    assert DHTable(unnamed, tool_name="link2").to_tree().body_names == ["link1", "link2"]
