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
