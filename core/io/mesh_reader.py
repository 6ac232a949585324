"""Moved to :mod:`kinetree.core.disk.mesh_reader` (this documented path stays)."""

from ..disk.mesh_reader import *  # noqa: F403
