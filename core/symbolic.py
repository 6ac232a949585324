"""Moved to :mod:`kinetree.core.teach.symbolic` (this documented path stays)."""

from .teach.symbolic import *  # noqa: F403
