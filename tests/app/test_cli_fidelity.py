"""``kinetree convert`` writes what it read and says what it wrote (QA files items 3, 4, 17,
18); a closed stdout ends a command quietly."""

from __future__ import annotations

import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
from kinetree.app.main import main
from kinetree.core import load_robot
from kinetree.core.io import import_robot, load_project, save_project, tree_to_dict
from kinetree.core.io.files import DroppedOnExportWarning, export_robot

Q = np.array([0.1, 0.2, 0.30000000000000004, 1e-300, 1e-17, 0.123456789012345678])


def run(capsys, *args):
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def project(tmp_path):
    tree = load_robot("puma560")
    tree.named_poses.replace({"ready": Q.tolist(), "ünï cødé": (Q / 2).tolist()})
    path = tmp_path / "p.kinetree.json"
    save_project(tree, path, Q)
    return path


def test_convert_project_to_project_keeps_everything(project, tmp_path, capsys):
    out = tmp_path / "copy.kinetree.json"
    code, stdout, err = run(capsys, "convert", project, out)
    assert code == 0 and err == ""
    tree, q = load_project(out)
    want_tree, want_q = load_project(project)
    assert q is not None and q.tolist() == want_q.tolist() == Q.tolist()  # bit for bit
    assert tree_to_dict(tree, q) == tree_to_dict(want_tree, want_q)  # bodies, joints, named poses …
    assert out.read_text(encoding="utf-8") == project.read_text(encoding="utf-8")


@pytest.mark.parametrize("suffix, kind", [(".urdf", "a URDF"), (".csv", "a DH table")])
def test_convert_says_named_poses_are_dropped(project, tmp_path, capsys, suffix, kind):
    out = tmp_path / f"p{suffix}"
    code, stdout, err = run(capsys, "convert", project, out)
    assert code == 0
    lines = err.splitlines()
    assert (f"kinetree convert: warning: p{suffix}: 2 named poses not written ('ready', 'ünï cødé'): "
            f"{kind} file cannot hold named poses; a project (.kinetree.json) keeps them") in lines
    # besides: one line for what a URDF cannot hold of Puma's motors (gear ratios, motor inertia)
    others = [line for line in lines if "named poses" not in line]
    assert others == ([] if suffix != ".urdf" else [next(x for x in others if "URDF has no gear ratio" in x)])
    assert len(import_robot(out).named_poses) == 0  # indeed not in the file


def test_export_warns_only_when_poses_are_dropped(tmp_path):
    tree = load_robot("puma560")
    n = len(tree.named_poses)
    assert n > 0
    for suffix in (".urdf", ".csv"):
        with pytest.warns(DroppedOnExportWarning, match=rf"^p{suffix}: {n} named poses not written \('qz'"):
            export_robot(tree, tmp_path / f"p{suffix}")
    with warnings.catch_warnings():
        warnings.simplefilter("error", DroppedOnExportWarning)
        export_robot(tree, tmp_path / "p.kinetree.json")  # a project keeps them
        tree.named_poses.replace({})
        export_robot(tree, tmp_path / "p.urdf")
        export_robot(tree, tmp_path / "p.csv")


def _wrote(stdout: str) -> int:
    m = re.fullmatch(r"wrote .* \((\d+) bodies\)\n", stdout)
    assert m, stdout
    return int(m.group(1))


def test_convert_counts_the_bodies_written(tmp_path, capsys):
    # a DH table with base and tool: as URDF, frame links are added; back to CSV, one chain
    src = tmp_path / "arm.csv"
    src.write_text("# kinetree dh-table convention=dh angles=deg lengths=m\n"
                   "# base: xyz=0 0 0.1 rpy=0 0 90\n# tool: xyz=0 0 0.05 rpy=180 0 0 name=grip\n"
                   "type,a,alpha,d,theta,offset,qmin,qmax,name,joint\n"
                   "R,0,90,0.6718,q1,0,-160,160,link1,q1\nR,0.4318,0,0,q2,-90,-110,110,link2,q2\n"
                   "R,0.0203,-90,0.15005,q3,0,-135,135,link3,q3\n", encoding="utf-8")
    for name in ("arm.urdf", "arm.kinetree.json", "back.csv"):
        inp = tmp_path / ("arm.urdf" if name == "back.csv" else "arm.csv")
        code, stdout, err = run(capsys, "convert", inp, tmp_path / name)
        assert code == 0, err
        assert _wrote(stdout) == import_robot(tmp_path / name).num_bodies
    assert import_robot(tmp_path / "arm.urdf").num_bodies > import_robot(tmp_path / "back.csv").num_bodies
    # a branched tree to one chain: the chain's bodies, not the tree's
    code, stdout, err = run(capsys, "convert", "humanoid_upper_body", tmp_path / "h.csv", "--tip",
                            load_robot("humanoid_upper_body").end_effector)
    assert code == 0, err
    assert _wrote(stdout) == import_robot(tmp_path / "h.csv").num_bodies < load_robot("humanoid_upper_body").num_bodies


def _many_links_urdf(path, n=3000):
    links = "".join(f'<link name="l{k}"/>' for k in range(n + 1))
    joints = "".join(f'<joint name="j{k}" type="fixed"><parent link="l{k}"/><child link="l{k + 1}"/></joint>'
                     for k in range(n))
    path.write_text(f'<robot name="r">{links}{joints}</robot>', encoding="utf-8")


def test_closed_stdout_ends_quietly(tmp_path):
    """``kinetree details big.urdf | head -1``: no "[Errno 32] Broken pipe", no traceback."""
    urdf = tmp_path / "big.urdf"
    _many_links_urdf(urdf)  # far more output than a pipe's buffer
    with subprocess.Popen([sys.executable, "-m", "kinetree.app", "details", str(urdf)],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p:
        first = p.stdout.readline()
        p.stdout.close()  # as head does after one line
        err = p.stderr.read().decode()
        code = p.wait(timeout=60)
    assert first.startswith(b"Robot:")
    assert err == ""
    assert code == 141  # as a shell reports a process ended by SIGPIPE


# --- item 16: a key twice in a project is refused, naming it ----------------------------------------

def test_duplicate_json_key_is_refused(tmp_path, capsys):
    path = tmp_path / "dup.kinetree.json"
    path.write_text('{"format":"kinetree","version":2,"base_name":"b","base_name":"c","bodies":[]}', encoding="utf-8")
    code, out, err = run(capsys, "details", path)
    assert (code, out) == (1, "")
    assert err == f"kinetree details: {path}: invalid JSON: key 'base_name' appears twice in one object\n"


def test_duplicate_key_in_a_body_names_the_body(tmp_path):
    from kinetree.core.errors import FileFormatError

    good = tmp_path / "good.kinetree.json"
    save_project(load_robot("puma560"), good)
    text = good.read_text(encoding="utf-8")
    load_project(good)  # the file as saved loads
    bad = tmp_path / "bad.kinetree.json"
    bad.write_text(text.replace('"name": "link3",', '"name": "link3", "mass": 1000,', 1), encoding="utf-8")
    with pytest.raises(FileFormatError, match=r"bad\.kinetree\.json: invalid JSON: key 'mass' appears twice in one "
                                              r"object \(in the object named 'link3'\)$"):
        load_project(bad)


# --- item 15: libxml2's limits in plain words ----------------------------------------------------------

@pytest.mark.parametrize("data, want", [
    (b"<a>" * 300 + b"</a>" * 300, r"^nested more than 256 elements deep \(a robot file needs a few levels\)$"),
    (b"<a>" + b"x" * (11 * 2**20) + b"</a>", r"^Resource limit exceeded: Text node too long, line 1, column \d+$"),
])
def test_xml_limits_in_plain_words(data, want):
    from kinetree.core.disk.safe_io import xml_error_text
    from lxml import etree

    with pytest.raises(etree.XMLSyntaxError) as exc:  # libxml2's own message, as the URDF reader gets it
        etree.fromstring(data, etree.XMLParser(huge_tree=False))
    assert "XML_PARSE_HUGE" in exc.value.msg
    assert re.match(want, xml_error_text(exc.value.msg))
    assert xml_error_text("Opening and ending tag mismatch: a line 1 and b") == \
        "Opening and ending tag mismatch: a line 1 and b"


def test_a_deeply_nested_urdf_is_refused_in_plain_words(tmp_path):
    from kinetree.core.errors import FileFormatError

    deep = tmp_path / "deep.urdf"
    deep.write_bytes(b'<robot name="r">' + b"<a>" * 300 + b"</a>" * 300 + b"</robot>")
    with pytest.raises(FileFormatError) as exc:
        import_robot(deep)
    assert "deep.urdf:1" in str(exc.value) and "nested more than 256 elements deep" in str(exc.value)
    assert "XML_PARSE_HUGE" not in str(exc.value)
