"""Mesh files for the viewport: loading, caching, decimation, mirroring."""

from __future__ import annotations

import numpy as np
import trimesh
from kinetree.app.viewport.meshes import MAX_FACES, decimate, mesh_file


def test_huge_meshes_are_decimated_keeping_their_shape():
    sphere = trimesh.creation.icosphere(subdivisions=6, radius=0.5)  # 81,920 triangles
    assert len(sphere.faces) > MAX_FACES
    v, f = decimate(np.asarray(sphere.vertices), np.asarray(sphere.faces))
    assert 1000 < len(f) <= MAX_FACES
    assert f.max() < len(v)
    radii = np.linalg.norm(v, axis=1)
    assert radii.max() <= 0.5 + 1e-9 and radii.min() > 0.45  # still a sphere of radius 0.5
    small = trimesh.creation.box()
    v2, f2 = decimate(np.asarray(small.vertices), np.asarray(small.faces))
    assert len(f2) == len(small.faces)  # small meshes are left alone


def test_mesh_files_are_scaled_mirrored_and_unreadable_ones_skipped(tmp_path):
    path = tmp_path / "part.stl"
    trimesh.creation.box(extents=(1, 2, 3)).export(path)
    md = mesh_file(str(path), (2, 1, 1))
    np.testing.assert_allclose(np.ptp(md.vertexes(), axis=0), [2, 2, 3], atol=1e-6)
    for scale in ((1, 1, 1), (1, -1, 1)):  # mirrored triangles must still face outwards
        md = mesh_file(str(path), scale)
        centres = md.vertexes()[md.faces()].mean(axis=1)
        assert (np.einsum("ij,ij->i", md.faceNormals(), centres) > 0).all(), scale
    assert mesh_file(str(tmp_path / "missing.stl"), (1, 1, 1)) is None
    broken = tmp_path / "broken.stl"
    broken.write_bytes(b"solid nonsense\n this is not an stl")
    assert mesh_file(str(broken), (1, 1, 1)) is None


def test_cylinders_are_closed_and_sized_whatever_was_made_before():
    from kinetree.app.viewport.meshes import cylinder

    for radius, length in ((0.05, 0.4), (0.2, 0.01), (0.05, 0.4)):  # the shared unit mesh is never changed
        md = cylinder(radius, length)
        v, f = md.vertexes(), md.faces()
        np.testing.assert_allclose(v.min(axis=0), [-radius, -radius, -length / 2], atol=1e-7)
        np.testing.assert_allclose(v.max(axis=0), [radius, radius, length / 2], atol=1e-7)
        mesh = trimesh.Trimesh(v, f, process=True)
        assert mesh.is_watertight  # closed: a 24-gon prism
        prism = 12 * np.sin(2 * np.pi / 24) * radius ** 2 * length
        assert np.isclose(abs(mesh.volume), prism, rtol=1e-5)
