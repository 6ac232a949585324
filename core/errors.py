"""Exceptions raised by the KineTree engine.

Every error derives from :class:`KineTreeError`, itself a ``ValueError``, so callers can catch
one class. Messages name the offending body, joint or field and the bad value.
"""

from __future__ import annotations


class KineTreeError(ValueError):
    """Base class of every error raised by ``kinetree.core``."""


class DroppedOnExportWarning(UserWarning):
    """What the tree holds but the chosen file format cannot (named poses in a URDF or a DH
    table) was not written."""


class PhysicsWarning(UserWarning):
    """A value is kept as given although no physical body has it (an inertia that breaks the
    triangle inequality, as published tables such as Corke's Puma 560 hold)."""


class DuplicateNameError(KineTreeError):
    """A body or joint name is already used in the tree."""


class UnknownBodyError(KineTreeError, KeyError):
    """A body (or joint) name does not exist in the tree."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BaseBodyError(KineTreeError):
    """An edit that the base body does not allow (remove, replace, give it a joint)."""


class InvalidJointError(KineTreeError):
    """A joint type, axis, offset or other joint property is invalid."""


class InvalidTransformError(KineTreeError):
    """A fixed transform is not a proper rigid transform or a DH row is malformed."""


class InvalidLimitsError(KineTreeError):
    """Position limits are out of order, NaN, or exclude the home position."""


class InvalidConfigurationError(KineTreeError):
    """A joint configuration has the wrong size, an unknown name, NaN or infinity."""


class InvalidPropertyError(KineTreeError):
    """A body property (mass, inertia, visual, name...) is invalid."""


class FileFormatError(KineTreeError):
    """A file cannot be read: malformed, of an unknown or newer format, or inconsistent."""


class UnknownRobotError(KineTreeError, KeyError):
    """``load_robot`` was given a name that is not in the library."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InvalidIKOptionError(KineTreeError):
    """An inverse kinematics option (weights, iterations, restarts, tolerance, rng) is invalid."""


class SymbolicError(KineTreeError):
    """A transform has no symbolic form here: a quaternion joint, or too many terms."""


class LoopClosureError(KineTreeError):
    """A closed kinematic loop is broken: a configuration that does not close it, a mechanism
    that cannot be assembled there, or a singular (toggle) configuration; names the loop."""


class SimulationError(InvalidPropertyError):
    """A simulation that cannot go on (it diverged, or its settings cannot be run)."""
