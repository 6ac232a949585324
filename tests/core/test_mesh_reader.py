"""Hostile mesh files (issue 17): the one mesh reader the viewport and the self-collision check
share refuses, with a message naming the file, what would crash FCL (indices out of range), hang
(an OBJ whose mtllib is a FIFO), inflate (compressed data, huge files) or blank the view (NaN);
repeated triangles are removed; a mesh the robot's reader did not find is not read later from
the current folder; a mesh path that is a folder or a FIFO is said to be one."""

from __future__ import annotations

import bz2
import os
import re
import struct
import threading
import warnings

import numpy as np
import pytest
from kinetree.core import Joint, RigidBody, RigidBodyTree, import_robot
from kinetree.core.disk import mesh_reader
from kinetree.core.disk.mesh_reader import read_mesh
from kinetree.core.errors import FileFormatError

BOX_V = np.array([[x, y, z] for x in (0.0, 1) for y in (0.0, 1) for z in (0.0, 1)])
BOX_F = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])


def ply(path, vertices, faces) -> str:
    lines = ["ply", "format ascii 1.0", f"element vertex {len(vertices)}", "property float x",
             "property float y", "property float z", f"element face {len(faces)}",
             "property list uchar int vertex_indices", "end_header"]
    lines += [" ".join(map(str, v)) for v in vertices]
    lines += ["3 " + " ".join(map(str, f)) for f in faces]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def binary_stl(path, triangles: np.ndarray) -> str:
    """Each triangle with its own three corners, as STL writes them."""
    rows = np.zeros(len(triangles), dtype=[("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")])
    rows["v"] = triangles
    path.write_bytes(b"\0" * 80 + struct.pack("<I", len(triangles)) + rows.tobytes())
    return str(path)


def one_mesh_tree(filename: str) -> RigidBodyTree:
    tree = RigidBodyTree()
    tree.base.add_visual("sphere", [0.1])
    body = RigidBody("arm")
    body.joint = Joint("j", "revolute")
    body.add_visual("mesh", [1, 1, 1], filename=filename)
    tree.add_body(body, "base")
    return tree


def skipped_by_collision(filename: str) -> list[str]:
    pytest.importorskip("fcl")
    from kinetree.core.kinematics.collision import MeshSkippedWarning, check_collision, collision_checker

    tree = one_mesh_tree(filename)
    with pytest.warns(MeshSkippedWarning, match=r"body 'arm'.*" + os.path.basename(filename)):
        checker = collision_checker(tree)
    assert check_collision(tree, [0.0]) == []  # the rest is still checked
    return checker.skipped


@pytest.mark.parametrize("index", [999_999, -5])
def test_face_index_out_of_range_is_left_out_of_collision_not_a_crash(tmp_path, index):
    """FCL segfaulted on index 999999 and raised a bare OverflowError on -5."""
    path = ply(tmp_path / "bad.ply", BOX_V[:3], [[0, 1, index]])
    skipped = skipped_by_collision(path)
    assert skipped == [f"arm: {path}: mesh face 0 names vertex {index}; the mesh has 3 vertices (0 to 2)"]


def test_nan_vertex_is_refused(tmp_path):
    path = tmp_path / "nan.obj"
    path.write_text("v 0 0 0\nv 1 0 0\nv 0 nan 0\nf 1 2 3\n")
    with pytest.raises(FileFormatError, match=r"nan\.obj: mesh vertex \d is not finite"):
        read_mesh(str(path))
    assert "is not finite" in skipped_by_collision(str(path))[0]


def test_obj_whose_mtllib_is_a_fifo_does_not_hang_the_collision_check(tmp_path):
    fifo = tmp_path / "evil.mtl"
    os.mkfifo(fifo)
    obj = tmp_path / "part.obj"
    obj.write_text("mtllib evil.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    pytest.importorskip("fcl")
    import trimesh  # noqa: F401 - imported here, not in the thread the deadline is for
    from kinetree.core.kinematics.collision import collision_checker

    done: list = []
    worker = threading.Thread(target=lambda: done.append(collision_checker(one_mesh_tree(str(obj)))), daemon=True)
    worker.start()
    worker.join(10)
    hung = worker.is_alive()
    if hung:  # release the blocked open() so the thread ends
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:  # not (yet) opened by the reader
            pass
        worker.join(5)
    assert not hung, "reading the OBJ waited on its FIFO mtllib"
    assert done[0].skipped == []  # the triangle is read; the material file is never opened


def test_compressed_mesh_is_refused_before_inflating(tmp_path):
    bomb = tmp_path / "part.bz2"
    bomb.write_bytes(bz2.compress(b"\0" * 2**22))  # 4 MB of zeros in ~50 bytes
    with pytest.raises(FileFormatError, match="compressed"):
        read_mesh(str(bomb))
    zipped = tmp_path / "part.dae"  # pycollada opens a zip whatever the name
    zipped.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(FileFormatError, match="zip-compressed"):
        read_mesh(str(zipped))
    assert "compressed" in skipped_by_collision(str(bomb))[0]


def test_collision_check_has_the_viewer_size_cap(tmp_path, monkeypatch):
    path = binary_stl(tmp_path / "big.stl", BOX_V[BOX_F])
    monkeypatch.setattr(mesh_reader, "MAX_MESH_BYTES", 500)  # the file is 684 bytes
    assert "a mesh file may be at most" in skipped_by_collision(path)[0]
    with pytest.raises(FileFormatError, match="big.stl: mesh file is 0 MB; a mesh file may be at most 0 MB"):
        read_mesh(path)


def test_repeated_triangles_are_removed(tmp_path):
    """A box's 12 triangles 500 times over (each with its own corners, as STL): 12 triangles,
    8 vertices."""
    tri = BOX_V[BOX_F]
    tri = np.concatenate([tri, tri[:, ::-1]])  # the other winding is the same triangle
    path = binary_stl(tmp_path / "dup.stl", np.tile(tri, (250, 1, 1)))
    v, f = read_mesh(path)
    assert len(f) == 12 and len(v) == 8
    assert not v.flags.writeable and not f.flags.writeable  # shared by every reader


def test_unknown_format_and_huge_triangle_count(tmp_path, monkeypatch):
    odd = tmp_path / "part.xyz"
    odd.write_text("0 0 0\n")
    with pytest.raises(FileFormatError, match="unknown mesh format 'xyz'"):
        read_mesh(str(odd))
    monkeypatch.setattr(mesh_reader, "MAX_MESH_TRIANGLES", 11)
    with pytest.raises(FileFormatError, match="mesh has 12 triangles; a mesh may have at most 11"):
        read_mesh(binary_stl(tmp_path / "box.stl", BOX_V[BOX_F]))


URDF = """<robot name="r"><link name="base"/>
<link name="arm"><visual><geometry><mesh filename="{0}"/></geometry></visual>
<collision><geometry><mesh filename="{0}"/></geometry></collision></link>
<joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="1" velocity="1"/></joint></robot>"""


def test_mesh_not_found_beside_the_urdf_is_not_read_from_the_current_folder(tmp_path, monkeypatch):
    robot = tmp_path / "robot"
    robot.mkdir()
    (robot / "r.urdf").write_text(URDF.format("part.stl"))
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    binary_stl(elsewhere / "part.stl", BOX_V[BOX_F])
    monkeypatch.chdir(elsewhere)
    with pytest.warns(UserWarning, match="mesh 'part.stl' not found"):
        tree = import_robot(str(robot / "r.urdf"))
    visual = tree.get_body("arm").visuals[0]
    with pytest.raises(FileFormatError, match="mesh not found"):
        read_mesh(visual.filename)
    assert "mesh not found" in skipped_by_collision(visual.filename)[0]


@pytest.mark.parametrize(("make", "said"), [(os.mkfifo, "is a FIFO (named pipe), not a regular file"),
                                            (os.mkdir, "is a folder, not a regular file")])
def test_a_mesh_path_that_is_not_a_file_is_said_to_be_what_it_is(tmp_path, make, said):
    make(tmp_path / "part.stl")
    (tmp_path / "r.urdf").write_text(URDF.format("part.stl"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tree = import_robot(str(tmp_path / "r.urdf"))
    messages = [str(w.message) for w in caught]
    assert any(f"visual mesh 'part.stl' {said}; kept as written" in m for m in messages), messages
    assert tree.get_body("arm").visuals[0].filename == "part.stl"
    with pytest.raises(FileFormatError, match=re.escape(said)):
        read_mesh(str(tmp_path / "part.stl"))


@pytest.mark.parametrize("kind", ["stl", "stl_ascii", "obj", "ply", "off", "dae", "glb", "gltf"])
def test_every_format_is_read_with_its_buffers_but_no_material(tmp_path, kind):
    """A box in each format: 8 vertices, 12 triangles (a glTF's buffer file is read; an OBJ's
    mtllib never is, here a FIFO)."""
    trimesh = pytest.importorskip("trimesh")
    box = trimesh.creation.box()
    if kind == "gltf":
        for name, blob in box.export(file_type="gltf").items():
            (tmp_path / name).write_bytes(blob)
        path = tmp_path / "model.gltf"
    else:
        path = tmp_path / f"box.{kind.split('_')[0]}"
        box.export(path, file_type=kind)
    if kind == "obj":
        os.mkfifo(tmp_path / "box.mtl")
        path.write_text("mtllib box.mtl\n" + path.read_text())
    v, f = read_mesh(str(path))
    assert (len(v), len(f)) == (8, 12)
    np.testing.assert_allclose(np.ptp(v, axis=0), [1, 1, 1])


def test_a_project_mesh_that_became_a_folder_is_said_to_be_one(tmp_path):
    from kinetree.core.io.project import load_project, save_project

    binary_stl(tmp_path / "part.stl", BOX_V[BOX_F])
    (tmp_path / "r.urdf").write_text(URDF.format("part.stl"))
    save_project(import_robot(str(tmp_path / "r.urdf")), tmp_path / "r.kinetree.json")
    os.remove(tmp_path / "part.stl")
    os.mkdir(tmp_path / "part.stl")
    said: list[str] = []
    load_project(tmp_path / "r.kinetree.json", on_warning=said.append)
    assert any("mesh 'part.stl' is a folder, not a regular file; kept as saved" in m for m in said), said


def test_a_binary_stl_is_read_without_importing_trimesh(tmp_path):
    """trimesh's import takes seconds (scipy with it): a binary STL, the usual robot mesh, does without."""
    import subprocess
    import sys

    path = tmp_path / "tri.stl"
    triangle = struct.pack("<12fH", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)
    path.write_bytes(b"\0" * 80 + struct.pack("<I", 1) + triangle)
    code = ("import sys; from kinetree.core.disk.mesh_reader import read_mesh; "
            f"m = read_mesh({str(path)!r}); print(len(m.faces), 'trimesh' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["1", "False"], out.stderr
