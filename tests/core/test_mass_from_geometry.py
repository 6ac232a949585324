"""Mass from geometry (issue 18 item 4): each shape a solid of the density, moved to the body
frame by its pose; checked against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh
from kinetree.core import RigidBody
from kinetree.core.dynamics.from_geometry import NotAVolumeError, mass_from_geometry
from kinetree.core.errors import InvalidPropertyError
from kinetree.core.transforms import pose_from_xyz_rpy


def posed(xyz, rpy=(0.0, 0.0, 0.0)) -> np.ndarray:
    return pose_from_xyz_rpy(np.asarray(xyz, float), np.asarray(rpy, float))


def test_box_moved_along_x():
    b = RigidBody("b")
    b.add_visual("box", (0.1, 0.2, 0.3), pose=posed((0.1, 0, 0)))
    m, c, I, source = mass_from_geometry(b, 1000)
    assert source == "visuals"
    assert m == pytest.approx(6.0)  # 1000 · 0.1·0.2·0.3
    assert c == pytest.approx([0.1, 0, 0])
    # about the centre: m/12·(b²+c²), m/12·(a²+c²), m/12·(a²+b²) = 0.065, 0.05, 0.025;
    # moved by 0.1 along x: + m·0.1² on Iyy and Izz
    assert I == pytest.approx([0.065, 0.05 + 0.06, 0.025 + 0.06, 0, 0, 0], abs=1e-12)


def test_turned_cylinder_and_a_sphere_add_up():
    b = RigidBody("b")
    r, h = 0.05, 0.4
    b.add_visual("cylinder", (r, h), pose=posed((0, 0, 0.2), (0, math.pi / 2, 0)))  # axis along x
    b.add_visual("sphere", (0.1,), pose=posed((0, 0.3, 0)))
    mc = 1000 * math.pi * r * r * h
    ms = 1000 * 4 / 3 * math.pi * 0.1 ** 3
    m, c, I, _ = mass_from_geometry(b, 1000)
    assert m == pytest.approx(mc + ms)
    assert c == pytest.approx([0, ms * 0.3 / (mc + ms), mc * 0.2 / (mc + ms)])
    axial, across = mc * r * r / 2, mc * (3 * r * r + h * h) / 12
    sph = 2 / 5 * ms * 0.01
    ixx = axial + mc * 0.04 + sph + ms * 0.09  # the cylinder's axis is x; it sits 0.2 up z
    iyy = across + mc * 0.04 + sph
    izz = across + sph + ms * 0.09
    assert I == pytest.approx([ixx, iyy, izz, 0, 0, 0], abs=1e-12)


def test_a_mesh_file_scaled_and_posed_is_a_box(tmp_path):
    path = tmp_path / "cube.stl"
    trimesh.creation.box(extents=(1, 1, 1)).export(path)
    b = RigidBody("b")
    b.add_visual("mesh", (0.1, 0.2, 0.3), pose=posed((0.1, 0, 0)), filename=str(path))
    m, c, I, _ = mass_from_geometry(b, 1000)
    assert m == pytest.approx(6.0)
    assert c == pytest.approx([0.1, 0, 0])
    assert I == pytest.approx([0.065, 0.11, 0.085, 0, 0, 0], abs=1e-12)


def test_collisions_stand_in_when_there_are_no_visuals():
    b = RigidBody("b")
    b.add_collision("sphere", (0.1,))
    m, c, I, source = mass_from_geometry(b, 2000)
    assert source == "collisions"
    assert m == pytest.approx(2000 * 4 / 3 * math.pi * 1e-3)
    assert I[:3] == pytest.approx([2 / 5 * m * 0.01] * 3)


def test_an_open_mesh_is_refused_unless_its_bounding_box_stands_in(tmp_path):
    box = trimesh.creation.box(extents=(0.2, 0.2, 0.2))
    open_box = trimesh.Trimesh(box.vertices, box.faces[:-2])  # one side missing
    path = tmp_path / "open.stl"
    open_box.export(path)
    b = RigidBody("lid")
    b.add_visual("mesh", (1, 1, 1), filename=str(path))
    with pytest.raises(NotAVolumeError, match=r"body 'lid': visual 1 \(mesh\).*open.stl.*encloses no volume"):
        mass_from_geometry(b, 1000)
    m, c, I, _ = mass_from_geometry(b, 1000, use_bounds=True)
    assert m == pytest.approx(8.0)
    assert I[:3] == pytest.approx([8 / 12 * 0.08] * 3)


def test_bad_density_and_no_geometry_are_refused():
    b = RigidBody("b")
    with pytest.raises(InvalidPropertyError, match="body 'b' has no visuals"):
        mass_from_geometry(b, 1000)
    b.add_visual("box", (1, 1, 1))
    for bad in (0, -5, float("nan"), 1e9):
        with pytest.raises(InvalidPropertyError, match="density"):
            mass_from_geometry(b, bad)


def test_rounding_noise_of_a_centred_mesh_is_zero(tmp_path):
    path = tmp_path / "ball.stl"
    trimesh.creation.icosphere(radius=0.08).export(path)  # its centroid comes out ~1e-19, not 0
    b = RigidBody("b")
    b.add_visual("mesh", (1, 1, 1), filename=str(path))
    _m, c, I, _ = mass_from_geometry(b, 1000)
    assert c.tolist() == [0.0, 0.0, 0.0] and I[3:].tolist() == [0.0, 0.0, 0.0]
