"""Moved to :mod:`kinetree.core.dh.frame_assignment` (this documented path stays)."""

from .dh.frame_assignment import *  # noqa: F403
