"""KineTree's engine: rigid body trees, joints, DH and forward kinematics. No Qt here.

The names below are loaded when first used (PEP 562): ``import kinetree.core.transforms`` loads
the transforms and what they need, not the whole engine (sympy, the file formats, numba)."""

from __future__ import annotations

import importlib

#: public name → the module (of this package) defining it
_WHERE = {
    "DHEntry": "dh.chain", "DHLink": "dh.chain", "chain_dh_table": "dh.chain", "dh_chain": "dh.chain",
    "rebuild_chain": "dh.chain",
    "DHExtraction": "dh.extract", "DHStatus": "dh.extract", "NotDHExpressibleError": "dh.extract",
    "dh_report": "dh.extract", "extract_dh": "dh.extract",
    "difference": "dynamics.joint_space", "integrate": "dynamics.joint_space",
    "center_of_mass": "dynamics.mass", "dof_count": "dynamics.mass", "dof_names": "dynamics.mass",
    "gravity_torque": "dynamics.mass", "total_mass": "dynamics.mass",
    "external_force": "dynamics.rigid_body", "forward_dynamics": "dynamics.rigid_body",
    "inverse_dynamics": "dynamics.rigid_body", "mass_matrix": "dynamics.rigid_body",
    "velocity_product": "dynamics.rigid_body",
    "BaseBodyError": "errors", "DuplicateNameError": "errors", "FileFormatError": "errors",
    "InvalidConfigurationError": "errors", "InvalidIKOptionError": "errors", "InvalidJointError": "errors",
    "InvalidLimitsError": "errors", "InvalidPropertyError": "errors", "InvalidTransformError": "errors",
    "KineTreeError": "errors", "LoopClosureError": "errors", "PhysicsWarning": "errors", "SymbolicError": "errors",
    "UnknownBodyError": "errors", "UnknownRobotError": "errors",
    "export_robot": "io", "import_robot": "io",
    "check_collision": "kinematics.collision", "collision_available": "kinematics.collision",
    "IKResult": "kinematics.ik", "inverse_kinematics": "kinematics.ik",
    "Loop": "kinematics.loops",
    "joint_trajectory": "kinematics.trajectory", "quintic": "kinematics.trajectory",
    "sample_trajectory": "kinematics.trajectory",
    "random_configurations": "kinematics.workspace", "sample_workspace": "kinematics.workspace",
    "describe_robot": "library", "list_robots": "library", "load_robot": "library", "robot_info": "library",
    "RigidBody": "model.body", "Visual": "model.body",
    "DHRow": "model.joint", "JOINT_TYPES": "model.joint", "Joint": "model.joint", "Mimic": "model.joint",
    "LimitViolation": "model.limits",
    "NamedPoses": "model.poses",
    "SimulationError": "simulation.simulator", "Simulator": "simulation.simulator",
    "kinetic_energy": "simulation.simulator", "potential_energy": "simulation.simulator",
    "symbolic_fk": "teach.symbolic", "symbolic_link": "teach.symbolic",
    "RigidBodyTree": "tree",
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
