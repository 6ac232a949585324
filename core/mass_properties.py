"""Moved to :mod:`kinetree.core.dynamics.from_geometry` (this documented path stays)."""

from .dynamics.from_geometry import *  # noqa: F403
