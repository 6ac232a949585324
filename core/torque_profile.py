"""Moved to :mod:`kinetree.core.dynamics.torque_profile` (this documented path stays)."""

from .dynamics.torque_profile import *  # noqa: F403
