"""Hostile files and paths: every failure is a FileFormatError naming the file and the field,
never a traceback, a hang or an exhausted memory; saves keep permissions and symlinks and leave
no debris behind."""

from __future__ import annotations

import copy
import json
import os
import socket
import stat
import subprocess
import sys
import time

import numpy as np
import pytest
from helpers.trees import finishes
from kinetree.core import list_robots, load_robot
from kinetree.core.disk.safe_io import STALE_SECONDS, remove_stale_temps
from kinetree.core.errors import FileFormatError
from kinetree.core.io import export_robot, import_robot, load_project, read_dh_csv, save_project
from kinetree.core.io.project import atomic_write_text
from kinetree.core.io.urdf.read import import_urdf, urdf_from_string

posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs, devices and modes are POSIX")




@pytest.fixture(scope="module")
def puma_project() -> dict:
    tree = load_robot("puma560")
    tree.bodies[0].mass = 1.0  # the texts below rewrite link1's '"mass": 1.0' (Puma's published m1 is 0)
    from kinetree.core.io.project import tree_to_dict

    return tree_to_dict(tree, tree.home_configuration())


def _load_text(tmp_path, text: str):
    path = tmp_path / "bad.kinetree.json"
    path.write_text(text, encoding="utf-8")
    return path, finishes(lambda: load_project(path))


def _load_dict(tmp_path, d: dict):
    return _load_text(tmp_path, json.dumps(d))


def _assert_format_error(exc, path, *words):
    assert isinstance(exc, FileFormatError), f"{type(exc).__name__}: {exc}"
    msg = str(exc)
    assert str(path) in msg
    for w in words:
        assert w in msg, msg


# --- numbers that used to escape as OverflowError / ValueError / IndexError / RecursionError -----

def test_integer_ten_to_the_400(tmp_path, puma_project):
    text = json.dumps(puma_project).replace('"mass": 1.0', '"mass": 1' + "0" * 400, 1)
    path, exc = _load_text(tmp_path, text)
    _assert_format_error(exc, path, "body 'link1': field 'mass' is too large")


def test_integer_of_5000_digits(tmp_path, puma_project):
    text = json.dumps(puma_project).replace('"offset": 0.0', '"offset": ' + "7" * 5000, 1)
    path, exc = _load_text(tmp_path, text)
    _assert_format_error(exc, path, "body 'link1': joint 'q1': field 'offset' is too large")


def test_5000_digit_integer_in_a_list(tmp_path, puma_project):
    text = json.dumps(puma_project).replace('"gravity": [0.0, 0.0, 0.0]', '"gravity": [0, ' + "1" * 5000 + ", 0]")
    path, exc = _load_text(tmp_path, text)
    _assert_format_error(exc, path, "field 'gravity[1]' is too large")


def test_empty_position_limits(tmp_path, puma_project):
    d = copy.deepcopy(puma_project)
    d["bodies"][2]["joint"]["position_limits"] = []
    path, exc = _load_dict(tmp_path, d)
    _assert_format_error(exc, path, "body 'link3': joint 'q3': field 'position_limits': "
                         "a revolute joint needs 1 [min, max] pair, got 0")


def test_json_nested_100k_deep(tmp_path):
    path, exc = _load_text(tmp_path, "[" * 100_000 + "]" * 100_000)
    _assert_format_error(exc, path, "nested too deeply")


def test_json_nested_deep_inside_a_field(tmp_path, puma_project):
    text = json.dumps(puma_project).replace('"mass": 1.0', '"mass": ' + "[" * 100_000 + "]" * 100_000, 1)
    path, exc = _load_text(tmp_path, text)
    _assert_format_error(exc, path, "nested too deeply")


# --- wrong types anywhere --------------------------------------------------------------------------

def _set(d: dict, where: tuple, value) -> None:
    for key in where[:-1]:
        d = d[key]
    d[where[-1]] = value


WRONG_TYPES = [
    (("bodies", 0, "mass"), "1.5", "body 'link1': field 'mass' must be a number"),
    (("bodies", 0, "mass"), True, "body 'link1': field 'mass' must be a number"),
    (("bodies", 0, "visuals", 0, "name"), {"a": 1}, "body 'link1': field 'visuals[0].name' must be a string"),
    (("bodies", 0, "visuals", 0, "filename"), ["x"], "field 'visuals[0].filename' must be a string"),
    (("bodies", 0, "visuals", 0, "size"), "1 2", "field 'visuals[0].size' must be a list"),
    (("bodies", 0, "visuals", 0, "color"), [0.5, "red", 0.5], "field 'visuals[0].color[1]' must be a number"),
    (("bodies", 0, "visuals", 0, "pose"), [[1, 0, 0, 0]] * 3, "field 'visuals[0].pose' must be a 4×4 matrix"),
    (("bodies", 0, "visuals"), {"kind": "box"}, "body 'link1': field 'visuals' must be a list"),
    (("bodies", 0, "collisions"), [{"kind": "box", "size": [1, 1, 1], "name": []}],
     "body 'link1': field 'collisions[0].name' must be a string"),
    (("bodies", 0, "name"), {"n": 1}, "field 'bodies[0].name' must be a string"),
    (("bodies", 1, "parent"), ["link1"], "body 'link2': field 'parent' must be a string"),
    (("bodies", 0, "joint", "name"), 7, "body 'link1': field 'joint.name' must be a string"),
    (("bodies", 0, "joint", "type"), ["revolute"], "field 'joint.type' must be a string"),
    (("bodies", 0, "joint", "axis"), "z", "joint 'q1': field 'axis' must be a list of 3 numbers"),
    (("bodies", 0, "joint", "offset"), "0", "joint 'q1': field 'offset' must be a number"),
    (("bodies", 0, "joint", "position_limits"), [[-1, "1"]], "field 'position_limits[0][1]' must be a number"),
    (("bodies", 0, "joint", "position_limits"), [[-1, 0, 1]], "field 'position_limits[0]' must be a [min, max] pair"),
    (("bodies", 0, "joint", "position_limits"), [[-1, 1], [-1, 1]], "needs 1 [min, max] pair, got 2 rows"),
    (("bodies", 0, "joint", "home_position"), "0", "field 'home_position': a revolute joint needs 1 number"),
    (("bodies", 0, "joint", "dh", "a"), "0.1", "joint 'q1': field 'dh.a' must be a number"),
    (("bodies", 0, "joint", "dh"), [0, 0, 0, 0], "joint 'q1': field 'dh' must be an object"),
    (("bodies", 0, "joint", "mimic"), {"joint": 3}, "joint 'q1': field 'mimic.joint' must be a string"),
    (("bodies", 0, "center_of_mass"), [0, 0], "field 'center_of_mass' must be a list of 3 numbers, got 2 values"),
    (("bodies", 0, "inertia"), [1, 1, 1, 0, 0, None], "field 'inertia[5]' must be a number, got null"),
    (("bodies",), {"link1": {}}, "field 'bodies' must be a list"),
    (("base_name",), 3, "field 'base_name' must be a string"),
    (("gravity",), [0, 0, "-9.81"], "field 'gravity[2]' must be a number"),
    (("base",), [], "field 'base' must be an object"),
    (("configuration",), ["0", 0, 0, 0, 0, 0], "field 'configuration[0]' must be a number"),
    (("configuration",), {"q1": [0, "x"]}, "field 'configuration['q1'][1]' must be a number"),
]


@pytest.mark.parametrize("where, value, words", WRONG_TYPES, ids=[w for _, _, w in WRONG_TYPES])
def test_wrong_types_are_refused_with_the_field(tmp_path, puma_project, where, value, words):
    d = copy.deepcopy(puma_project)
    _set(d, where, value)
    path, exc = _load_dict(tmp_path, d)
    _assert_format_error(exc, path, words)


def test_visual_name_dict_is_refused_at_load_not_at_export(tmp_path, puma_project):
    """It used to load and then make export raise TypeError."""
    d = copy.deepcopy(puma_project)
    d["bodies"][0]["visuals"][0]["name"] = {"x": 1}
    path, exc = _load_dict(tmp_path, d)
    _assert_format_error(exc, path, "body 'link1': field 'visuals[0].name' must be a string, got an object")


OUT_OF_RANGE = [
    (("bodies", 0, "joint", "dh", "a"), 1.5e6, "field 'dh.a' = 1.5e+06 is out of range (must be at most 1e+06"),
    (("bodies", 0, "center_of_mass"), [0, 0, -2e6], "field 'center_of_mass[2]' = -2e+06 is out of range"),
    (("bodies", 0, "visuals", 0, "size"), [1e7, 1], "field 'visuals[0].size[0]'"),
    (("bodies", 0, "mass"), 1e13, "field 'mass' = 1e+13 is out of range"),
    (("gravity",), [0, 0, 1e300], "field 'gravity[2]'"),
]


@pytest.mark.parametrize("where, value, words", OUT_OF_RANGE, ids=[w for _, _, w in OUT_OF_RANGE])
def test_numbers_are_bounded(tmp_path, puma_project, where, value, words):
    d = copy.deepcopy(puma_project)
    _set(d, where, value)
    path, exc = _load_dict(tmp_path, d)
    _assert_format_error(exc, path, words)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_literals(tmp_path, puma_project, literal):
    text = json.dumps(puma_project).replace('"mass": 1.0', f'"mass": {literal}', 1)
    path, exc = _load_text(tmp_path, text)
    _assert_format_error(exc, path, "body 'link1': field 'mass'")


def test_angles_and_configurations_are_only_bounded_by_finite(tmp_path, puma_project):
    """What the engine and the URDF reader accept must load again: a revolute limit of 1e7 rad."""
    d = copy.deepcopy(puma_project)
    d["bodies"][0]["joint"]["position_limits"] = [[-1e7, 1e300]]
    d["configuration"] = [2e6, 0, 0, 0, 0, 0]
    tree, q = load_project(_load_dict(tmp_path, d)[0])
    assert tree.get_body("link1").joint.position_limits.tolist() == [-1e7, 1e300]
    assert q[0] == 2e6


def test_a_prismatic_limit_is_a_length(tmp_path):
    from kinetree.core.io.project import tree_to_dict

    tree = load_robot("stanford")

    d = tree_to_dict(tree)
    k = next(i for i, b in enumerate(d["bodies"]) if b["joint"]["type"] == "prismatic")
    d["bodies"][k]["joint"]["position_limits"] = [[0, 3e6]]
    path, exc = _load_dict(tmp_path, d)
    _assert_format_error(exc, path, "field 'position_limits[0][1]' = 3e+06 is out of range (must be at most 1e+06")


@pytest.mark.parametrize("name", list_robots())
def test_every_library_robot_still_round_trips(tmp_path, name):
    tree = load_robot(name)
    path = tmp_path / f"{name}.kinetree.json"
    save_project(tree, path, tree.home_configuration())
    loaded, q = load_project(path)
    assert loaded.body_names == tree.body_names
    np.testing.assert_allclose(q, tree.home_configuration())


# --- DH CSV numbers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("cell, words", [("2e6", "'2e6' is out of range"), ("9" * 5000, "is not finite"),
                                         ("-1e400", "is not finite")])
def test_dh_csv_numbers_bounded(tmp_path, cell, words):
    path = tmp_path / "arm.csv"
    path.write_text(f"type,a,alpha,d,theta\nR,{cell},0,0,q1\n")
    exc = finishes(lambda: read_dh_csv(path))
    _assert_format_error(exc, path, ":2: column 'a'", words)


def test_dh_csv_angles_only_need_to_be_finite(tmp_path):
    path = tmp_path / "arm.csv"
    path.write_text("type,a,alpha,d,theta,qmin,qmax\nR,0,2e6,0,q1,-1e8,1e8\nP,0,0,q2,0,0,2e6\n")
    exc = finishes(lambda: read_dh_csv(path))
    _assert_format_error(exc, path, ":3: column 'qmax': '2e6' is out of range")
    path.write_text("type,a,alpha,d,theta,qmin,qmax\nR,0,2e6,0,q1,-1e8,1e8\n")
    assert read_dh_csv(path).links[0].qlim[1] == pytest.approx(np.radians(1e8))


def test_dh_csv_pose_line_bounded(tmp_path):
    path = tmp_path / "arm.csv"
    path.write_text("# base: xyz=0 0 5e6\ntype,a,alpha,d,theta\nR,0,0,0,q1\n")
    _assert_format_error(finishes(lambda: read_dh_csv(path)), path, "base xyz", "out of range")


# --- what the path is ------------------------------------------------------------------------------

READERS = {
    "project": (".kinetree.json", lambda p: load_project(p)),
    "import_project": (".kinetree.json", lambda p: import_robot(p)),
    "dh_csv": (".csv", lambda p: read_dh_csv(p)),
    "import_csv": (".csv", lambda p: import_robot(p)),
    "urdf": (".urdf", lambda p: import_urdf(p)),
    "import_urdf": (".urdf", lambda p: import_robot(p)),
    "import_xacro": (".xacro", lambda p: import_robot(p)),
}


@posix
@pytest.mark.parametrize("reader", READERS)
def test_fifo_is_refused_without_blocking(tmp_path, reader):
    suffix, read = READERS[reader]
    path = tmp_path / f"robot{suffix}"
    os.mkfifo(path)
    _assert_format_error(finishes(lambda: read(path)), path, "FIFO", "not a regular file")


@posix
@pytest.mark.parametrize("reader", READERS)
def test_symlink_to_dev_zero_is_refused(tmp_path, reader):
    suffix, read = READERS[reader]
    path = tmp_path / f"robot{suffix}"
    path.symlink_to("/dev/zero")
    _assert_format_error(finishes(lambda: read(path)), path, "character device", "not a regular file")


@posix
@pytest.mark.parametrize("reader", READERS)
def test_folder_and_socket_are_refused(tmp_path, reader):
    suffix, read = READERS[reader]
    folder = tmp_path / f"folder{suffix}"
    folder.mkdir()
    _assert_format_error(finishes(lambda: read(folder)), folder, "a folder")
    sock_path = tmp_path / f"s{suffix}"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(sock_path))
        _assert_format_error(finishes(lambda: read(sock_path)), sock_path, "a socket")
    link = tmp_path / f"link{suffix}"
    link.symlink_to(folder)
    _assert_format_error(finishes(lambda: read(link)), link, "a folder")


def test_symlink_to_a_regular_file_still_reads(tmp_path):
    real = tmp_path / "real.kinetree.json"
    save_project(load_robot("puma560"), real)
    link = tmp_path / "link.kinetree.json"
    link.symlink_to(real)
    assert import_robot(link).num_bodies == 6


# --- any XML version ---------------------------------------------------------------------------------

_URDF = ('<robot name="r"><link name="a"/><link name="b"/>'
         '<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>'
         '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>')


@pytest.mark.parametrize("decl", ['<?xml version="0.0"?>', "<?xml version='0.0' encoding='utf-8'?>",
                                  '\ufeff<?xml version="2.0" standalone="yes"?>', '<?xml version="1.0"?>'])
def test_any_xml_version_is_read(tmp_path, decl):
    path = tmp_path / "sim.urdf"
    path.write_text(decl + "\n" + _URDF, encoding="utf-8")
    tree = import_robot(path)
    assert tree.body_names == ["b"]


@pytest.mark.parametrize("doc", ['<?xml version="0.0"?><!DOCTYPE robot [<!ENTITY x "y">]>',
                                 '<?xml version="0.0"?>\n<!DOCTYPE robot SYSTEM "file:///etc/passwd">'])
def test_version_zero_still_refuses_doctype(doc):
    with pytest.raises(FileFormatError, match="DTD and entity declarations are not allowed"):
        urdf_from_string(doc + "\n" + _URDF)


# --- saves -----------------------------------------------------------------------------------------

def _writers():
    tree = load_robot("puma560")
    return {
        "project": ("a.kinetree.json", lambda p: save_project(tree, p)),
        "export_project": ("a.kinetree.json", lambda p: export_robot(tree, p)),
        "urdf": ("a.urdf", lambda p: export_robot(tree, p)),
        "dh_csv": ("a.csv", lambda p: export_robot(tree, p)),
        "text": ("a.txt", lambda p: atomic_write_text(p, "hello\n")),
    }


WRITERS = list(_writers())


@posix
@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("mode", [0o664, 0o640, 0o600, 0o755])
def test_save_keeps_the_permission_bits(tmp_path, writer, mode):
    name, write = _writers()[writer]
    path = tmp_path / name
    path.write_text("old")
    os.chmod(path, mode)
    write(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == mode
    assert path.read_text() != "old"


@posix
@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_new_file_follows_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        for writer, (name, write) in _writers().items():
            path = tmp_path / f"{umask:o}-{name}"
            write(path)
            assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask, writer
    finally:
        os.umask(old)


@posix
@pytest.mark.parametrize("writer", WRITERS)
def test_save_through_a_symlink_writes_its_target(tmp_path, writer):
    name, write = _writers()[writer]
    real_dir = tmp_path / "real"
    link_dir = tmp_path / "links"
    real_dir.mkdir()
    link_dir.mkdir()
    target = real_dir / name
    target.write_text("old")
    os.chmod(target, 0o664)
    link = link_dir / name
    link.symlink_to(os.path.relpath(target, link_dir))
    chain = link_dir / f"chain-{name}"  # a link to the link
    chain.symlink_to(link)
    write(chain)
    assert link.is_symlink() and chain.is_symlink()
    assert target.read_text() != "old"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o664
    assert sorted(p.name for p in link_dir.iterdir()) == sorted([name, f"chain-{name}"])
    assert [p.name for p in real_dir.iterdir()] == [name]  # the temporary file was renamed away


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.kinetree.json"
    link.symlink_to("real.kinetree.json")
    save_project(load_robot("puma560"), link)
    assert link.is_symlink() and (tmp_path / "real.kinetree.json").is_file()
    assert load_project(link)[0].num_bodies == 6


@posix
def test_save_over_a_fifo_is_refused(tmp_path):
    path = tmp_path / "pipe.kinetree.json"
    os.mkfifo(path)
    exc = finishes(lambda: save_project(load_robot("puma560"), path))
    assert isinstance(exc, OSError) and str(path) in str(exc) and "FIFO" in str(exc)
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe.kinetree.json"]


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temps_are_removed_by_the_next_save(tmp_path):
    path = tmp_path / "robot.kinetree.json"
    dead = _dead_pid()
    stale = [f".robot.kinetree.json.kinetree-{dead}-0123abcd.tmp", f".other.urdf.kinetree-{dead}-deadbeef.tmp"]
    live_fresh = f".other.urdf.kinetree-{os.getppid()}-00000000.tmp"  # a save running in another process
    live_old = f".other.urdf.kinetree-{os.getppid()}-11111111.tmp"  # pid reused: old is stale
    mkstemp_old = ".robot.kinetree.json.a1b2_c3d.tmp"  # what KineTree's mkstemp left before
    mkstemp_fresh = ".robot.kinetree.json.zzzzzzzz.tmp"
    not_ours = [".robot.kinetree.json.tmp", ".notes.txt.kinetree-x-0123abcd.tmp", "a.kinetree-1-0123abcd.tmp",
                ".other.urdf.a1b2_c3d.tmp"]
    for name in stale + [live_fresh, live_old, mkstemp_old, mkstemp_fresh] + not_ours:
        (tmp_path / name).write_text("partial")
    old = time.time() - STALE_SECONDS - 5
    for name in (live_old, mkstemp_old, ".other.urdf.a1b2_c3d.tmp", not_ours[0]):
        os.utime(tmp_path / name, (old, old))
    save_project(load_robot("puma560"), path)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([path.name, live_fresh, mkstemp_fresh, *not_ours])


def test_remove_stale_temps_leaves_a_missing_folder_alone(tmp_path):
    assert remove_stale_temps(tmp_path / "nope") == []


_SAVER = r"""
import sys
from kinetree.core.io.project import atomic_write_text
a, b, path = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
print("ready", flush=True)
while True:
    atomic_write_text(path, a)
    atomic_write_text(path, b)
"""


@posix
def test_killed_saves_leave_old_or_new_content_and_no_debris(tmp_path):
    """SIGKILL a process that saves a big project in a loop, at random moments: the file is
    always one of the two complete contents and loads; the next save removes the temporaries."""
    from kinetree.core.io.project import dumps

    tree = load_robot("quadruped")
    # two different projects, padded (JSON allows trailing blanks) to 3 MB so that a save takes a
    # while: more chances to die inside one
    big = [dumps(tree, tree.home_configuration() + 0.01 * k) for k in range(2)]
    big = [b + " " * (3_000_000 - len(b)) for b in big]
    contents = {big[0], big[1]}
    (tmp_path / "a.txt").write_text(big[0])
    (tmp_path / "b.txt").write_text(big[1])
    work = tmp_path / "work"
    work.mkdir()
    path = work / "robot.kinetree.json"
    path.write_text(big[0])
    rng = np.random.default_rng(7)
    kills = 10
    for _ in range(kills):
        proc = subprocess.Popen([sys.executable, "-c", _SAVER, str(tmp_path / "a.txt"), str(tmp_path / "b.txt"),
                                 str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(float(rng.uniform(0.0, 0.25)))
        proc.kill()
        proc.wait()
        proc.stdout.close()
        assert path.read_text() in contents
        tree_loaded, _ = load_project(path)
        assert tree_loaded.body_names == tree.body_names
        # each saver removed what the killed ones before it left: at most the last one's temp
        temps = [p.name for p in work.iterdir() if p.name.endswith(".tmp")]
        assert len(temps) <= 1, temps
    save_project(tree, path)
    assert [p.name for p in work.iterdir()] == [path.name]


def test_save_with_the_longest_file_name(tmp_path):
    path = tmp_path / ("r" * 240 + ".kinetree.json")  # 254 bytes: no room for a longer temp name
    save_project(load_robot("puma560"), path)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    assert load_project(path)[0].num_bodies == 6


def _paths(node, prefix=()):
    """Every position in a JSON tree (containers and leaves)."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, (*prefix, i))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("robot", ["stanford", "humanoid_upper_body"])
def test_any_field_replaced_by_any_type_loads_or_is_a_format_error(robot):
    """Every field and every container, replaced by a value of each JSON type: the project
    either loads (then saves and exports to URDF without error) or raises FileFormatError."""
    from kinetree.core.io.project import dumps, tree_from_dict, tree_to_dict
    from kinetree.core.io.urdf.read import urdf_string

    tree = load_robot(robot)
    base = tree_to_dict(tree)
    base["bodies"] = base["bodies"][:5]  # parents come first: still a tree; keeps the test at ~5 s
    base.pop("named_poses", None)  # the library's 6-joint poses do not fit the 5 bodies kept
    base["bodies"][0]["joint"]["mimic"] = {"joint": base["bodies"][1]["joint"]["name"], "multiplier": 1.0}
    assert tree_from_dict(copy.deepcopy(base))[0].get_body(base["bodies"][0]["name"]).joint.mimic is not None
    replacements = ["x", "", {"a": 1}, [], [1.5], None, True, 10**30, -1e308]
    loaded = refused = 0
    for path in list(_paths(base))[1:]:
        if path[-1] in ("format", "version"):
            continue
        for value in replacements:
            d = copy.deepcopy(base)
            _set(d, path, value)
            try:
                t, q = tree_from_dict(d, "x.kinetree.json")
            except FileFormatError:
                refused += 1
                continue
            loaded += 1
            dumps(t, q)
            try:
                urdf_string(t)
            except FileFormatError:
                pass  # e.g. a floating joint: URDF cannot say it; a message, not a crash
    assert loaded > 0 and refused > 0


def test_any_dh_csv_cell_replaced_reads_or_is_a_format_error(tmp_path):
    """Each cell of a DH table file (rows, header, base/tool lines) replaced by hostile text."""
    from kinetree.core.io import dh_csv_string
    from kinetree.core.io.files import dh_table_of

    text = dh_csv_string(dh_table_of(load_robot("stanford")))
    text = "# base: xyz=0 0 0.1 rpy=0 0 90\n" + text
    lines = text.splitlines()
    hostile = ["", "x", "-", "1e400", "9" * 5000, "nan", "-inf", "2e6", "\x00", "\"", "q1=2", "0,5", "R", "#"]
    ok = refused = 0
    for li, line in enumerate(lines):
        cells = line.split(" ") if line.startswith("#") else line.split(",")
        sep = " " if line.startswith("#") else ","
        for ci in range(len(cells)):
            for h in hostile:
                new = cells[:ci] + [h] + cells[ci + 1:]
                trial = "\n".join(lines[:li] + [sep.join(new)] + lines[li + 1:]) + "\n"
                try:
                    read_dh_csv(trial).to_tree()
                    ok += 1
                except FileFormatError:
                    refused += 1
                except Exception as exc:  # a KineTreeError from to_tree must name the problem
                    from kinetree.core.errors import KineTreeError

                    assert isinstance(exc, KineTreeError), f"{type(exc).__name__}: {exc} for {h!r} in line {li}"
    assert ok > 0 and refused > 0


# --- issue 17: XInclude in kept elements ------------------------------------------------------------

_XI = "http://www.w3.org/2001/XInclude"
_XI_URDF = f"""<robot name="r" xmlns:xi="{_XI}">
  <link name="a">
    <sensor name="cam"><xi:include href="/etc/hostname" parse="text"/></sensor>
  </link>
  <gazebo reference="a">
    <xi:include href="/etc/passwd" parse="text"/>
    <material>Gazebo/Grey</material>
  </gazebo>
  <xi:include href="/etc/shadow"/>
</robot>
"""


def test_xinclude_elements_are_dropped_from_kept_elements_with_a_warning(tmp_path):
    """A kept element holding <xi:include href="/etc/passwd" parse="text"/> was exported verbatim:
    a reader that resolves XInclude would have read that file."""
    path = tmp_path / "xi.urdf"
    path.write_text(_XI_URDF)
    said: list[str] = []
    tree = import_urdf(path, on_warning=said.append)
    dropped = [m for m in said if "XInclude" in m]
    assert [m.split(": ")[0] for m in dropped] == [f"{path}:3", f"{path}:6", f"{path}:9"]
    assert all("<xi:include href=" in m for m in dropped)
    assert "/etc/passwd" in dropped[1]
    kept = " ".join(tree.extensions + tree.get_body("a").extensions)
    assert "Gazebo/Grey" in kept and "cam" in kept  # the rest of each element is kept
    assert "include" not in kept and "etc/" not in kept
    export_robot(tree, tmp_path / "out.urdf")
    assert "include" not in (tmp_path / "out.urdf").read_text()


@pytest.mark.parametrize("text", [
    f'<xi:include xmlns:xi="{_XI}" href="/etc/passwd" parse="text"/>',
    f'<gazebo><x xmlns:xi="{_XI}"><xi:fallback/></x></gazebo>',
    '<gazebo><include xmlns="http://www.w3.org/2003/XInclude" href="/etc/passwd"/></gazebo>',
])
def test_xinclude_elements_are_refused_as_extensions(text, tmp_path):
    from kinetree.core import RigidBodyTree
    from kinetree.core.errors import KineTreeError

    tree = RigidBodyTree()
    with pytest.raises(KineTreeError, match=r"robot extensions\[0\]: XInclude element <.*> is not allowed"):
        tree.extensions = [text]
    path = tmp_path / "xi.kinetree.json"
    save_project(tree, path)
    data = json.loads(path.read_text())
    data["extensions"] = [text]
    path.write_text(json.dumps(data))
    with pytest.raises(FileFormatError, match=r"xi\.kinetree\.json.*XInclude element"):
        load_project(path)
