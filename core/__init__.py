"""KineTree's engine: rigid body trees, joints, DH and forward kinematics. No Qt here.

The names below are loaded when first used (PEP 562): ``import kinetree.core.transforms`` loads
the transforms and what they need, not the whole engine (sympy, the file formats, numba)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: public name → the module (of this package) defining it
_WHERE = {
    "RigidBody": "body", "Visual": "body",
    "check_collision": "collision", "collision_available": "collision",
    "DHEntry": "dh", "DHLink": "dh", "chain_dh_table": "dh", "dh_chain": "dh", "rebuild_chain": "dh",
    "DHExtraction": "dh_extract", "DHStatus": "dh_extract", "NotDHExpressibleError": "dh_extract",
    "dh_report": "dh_extract", "extract_dh": "dh_extract",
    "center_of_mass": "dynamics", "dof_count": "dynamics", "dof_names": "dynamics", "gravity_torque": "dynamics",
    "total_mass": "dynamics",
    "BaseBodyError": "errors", "DuplicateNameError": "errors", "FileFormatError": "errors",
    "InvalidConfigurationError": "errors", "InvalidIKOptionError": "errors", "InvalidJointError": "errors",
    "InvalidLimitsError": "errors", "InvalidPropertyError": "errors", "InvalidTransformError": "errors",
    "KineTreeError": "errors", "LoopClosureError": "errors", "PhysicsWarning": "errors", "SymbolicError": "errors",
    "UnknownBodyError": "errors", "UnknownRobotError": "errors",
    "IKResult": "ik", "inverse_kinematics": "ik",
    "export_robot": "io", "import_robot": "io",
    "DHRow": "joint", "JOINT_TYPES": "joint", "Joint": "joint", "Mimic": "joint",
    "difference": "joint_space", "integrate": "joint_space",
    "describe_robot": "library", "list_robots": "library", "load_robot": "library", "robot_info": "library",
    "LimitViolation": "limits",
    "Loop": "loops",
    "NamedPoses": "poses",
    "external_force": "rigid_body_dynamics", "forward_dynamics": "rigid_body_dynamics",
    "inverse_dynamics": "rigid_body_dynamics", "mass_matrix": "rigid_body_dynamics",
    "velocity_product": "rigid_body_dynamics",
    "SimulationError": "simulation", "Simulator": "simulation", "kinetic_energy": "simulation",
    "potential_energy": "simulation",
    "symbolic_fk": "symbolic", "symbolic_link": "symbolic",
    "joint_trajectory": "trajectory", "quintic": "trajectory", "sample_trajectory": "trajectory",
    "RigidBodyTree": "tree",
    "random_configurations": "workspace", "sample_workspace": "workspace",
}

__all__ = [
    "BaseBodyError", "DHEntry", "DHExtraction", "DHLink", "DHRow", "DHStatus", "DuplicateNameError",
    "FileFormatError", "IKResult", "InvalidConfigurationError", "InvalidIKOptionError", "InvalidJointError",
    "InvalidLimitsError", "InvalidPropertyError", "InvalidTransformError", "JOINT_TYPES", "Joint", "KineTreeError",
    "LimitViolation", "Loop", "LoopClosureError", "Mimic", "NamedPoses", "NotDHExpressibleError", "PhysicsWarning",
    "RigidBody", "RigidBodyTree", "SimulationError", "Simulator", "SymbolicError", "UnknownBodyError",
    "UnknownRobotError", "Visual", "center_of_mass", "chain_dh_table", "check_collision", "collision_available",
    "describe_robot", "dh_chain", "dh_report", "difference", "dof_count", "dof_names", "export_robot",
    "external_force", "extract_dh", "forward_dynamics", "gravity_torque", "import_robot", "integrate",
    "inverse_dynamics", "inverse_kinematics", "joint_trajectory", "kinetic_energy", "list_robots", "load_robot",
    "mass_matrix", "potential_energy", "quintic", "random_configurations", "rebuild_chain", "robot_info",
    "sample_trajectory", "sample_workspace", "symbolic_fk", "symbolic_link", "total_mass", "velocity_product",
]


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # what type checkers and IDEs see: the same names, eagerly
    from .body import RigidBody, Visual
    from .collision import check_collision, collision_available
    from .dh import DHEntry, DHLink, chain_dh_table, dh_chain, rebuild_chain
    from .dh_extract import DHExtraction, DHStatus, NotDHExpressibleError, dh_report, extract_dh
    from .dynamics import center_of_mass, dof_count, dof_names, gravity_torque, total_mass
    from .errors import (
        BaseBodyError,
        DuplicateNameError,
        FileFormatError,
        InvalidConfigurationError,
        InvalidIKOptionError,
        InvalidJointError,
        InvalidLimitsError,
        InvalidPropertyError,
        InvalidTransformError,
        KineTreeError,
        LoopClosureError,
        PhysicsWarning,
        SymbolicError,
        UnknownBodyError,
        UnknownRobotError,
    )
    from .ik import IKResult, inverse_kinematics
    from .io import export_robot, import_robot
    from .joint import JOINT_TYPES, DHRow, Joint, Mimic
    from .joint_space import difference, integrate
    from .library import describe_robot, list_robots, load_robot, robot_info
    from .limits import LimitViolation
    from .loops import Loop
    from .poses import NamedPoses
    from .rigid_body_dynamics import (
        external_force,
        forward_dynamics,
        inverse_dynamics,
        mass_matrix,
        velocity_product,
    )
    from .simulation import SimulationError, Simulator, kinetic_energy, potential_energy
    from .symbolic import symbolic_fk, symbolic_link
    from .trajectory import joint_trajectory, quintic, sample_trajectory
    from .tree import RigidBodyTree
    from .workspace import random_configurations, sample_workspace
