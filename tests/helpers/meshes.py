"""Mesh files written for the tests."""

from __future__ import annotations

import trimesh


def cube(path, extents=(1.0, 1.0, 1.0)):
    trimesh.creation.box(extents=extents).export(path)
    return path
