"""KineTree's engine: rigid body trees, joints, DH and forward kinematics. No Qt here.

The names below are loaded when first used (PEP 562): ``import kinetree.core.transforms`` loads
the transforms and what they need, not the whole engine (sympy, the file formats, numba)."""

from __future__ import annotations

import importlib

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

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
