"""KineTree's engine: rigid body trees, joints, DH and forward kinematics. No Qt here.

The names below are loaded when first used (PEP 562): ``import kinetree.core.transforms`` loads
the transforms and what they need, not the whole engine (sympy, the file formats, numba)."""

from __future__ import annotations

from .lazy import LazyImports

#: public name → ".module:name" (a module of this package): see kinetree.core.lazy
_LAZY = LazyImports(__name__, {
    "DHEntry": ".dh.chain:DHEntry", "DHLink": ".dh.chain:DHLink", "chain_dh_table": ".dh.chain:chain_dh_table",
    "dh_chain": ".dh.chain:dh_chain", "rebuild_chain": ".dh.chain:rebuild_chain",
    "DHExtraction": ".dh.extract:DHExtraction", "DHStatus": ".dh.extract:DHStatus",
    "NotDHExpressibleError": ".dh.extract:NotDHExpressibleError", "dh_report": ".dh.extract:dh_report",
    "extract_dh": ".dh.extract:extract_dh", "difference": ".dynamics.joint_space:difference",
    "integrate": ".dynamics.joint_space:integrate", "center_of_mass": ".dynamics.mass:center_of_mass",
    "dof_count": ".dynamics.mass:dof_count", "dof_names": ".dynamics.mass:dof_names",
    "gravity_torque": ".dynamics.mass:gravity_torque", "total_mass": ".dynamics.mass:total_mass",
    "external_force": ".dynamics.rigid_body:external_force",
    "forward_dynamics": ".dynamics.rigid_body:forward_dynamics",
    "inverse_dynamics": ".dynamics.rigid_body:inverse_dynamics", "mass_matrix": ".dynamics.rigid_body:mass_matrix",
    "velocity_product": ".dynamics.rigid_body:velocity_product", "BaseBodyError": ".errors:BaseBodyError",
    "DuplicateNameError": ".errors:DuplicateNameError", "FileFormatError": ".errors:FileFormatError",
    "InvalidConfigurationError": ".errors:InvalidConfigurationError",
    "InvalidIKOptionError": ".errors:InvalidIKOptionError", "InvalidJointError": ".errors:InvalidJointError",
    "InvalidLimitsError": ".errors:InvalidLimitsError", "InvalidPropertyError": ".errors:InvalidPropertyError",
    "InvalidTransformError": ".errors:InvalidTransformError", "KineTreeError": ".errors:KineTreeError",
    "LoopClosureError": ".errors:LoopClosureError", "PhysicsWarning": ".errors:PhysicsWarning",
    "SymbolicError": ".errors:SymbolicError", "UnknownBodyError": ".errors:UnknownBodyError",
    "UnknownRobotError": ".errors:UnknownRobotError", "export_robot": ".io:export_robot",
    "import_robot": ".io:import_robot", "check_collision": ".kinematics.collision:check_collision",
    "collision_available": ".kinematics.collision:collision_available", "IKResult": ".kinematics.ik:IKResult",
    "inverse_kinematics": ".kinematics.ik:inverse_kinematics", "Loop": ".kinematics.loops:Loop",
    "joint_trajectory": ".kinematics.trajectory:joint_trajectory", "quintic": ".kinematics.trajectory:quintic",
    "sample_trajectory": ".kinematics.trajectory:sample_trajectory",
    "random_configurations": ".kinematics.workspace:random_configurations",
    "sample_workspace": ".kinematics.workspace:sample_workspace", "describe_robot": ".library:describe_robot",
    "list_robots": ".library:list_robots", "load_robot": ".library:load_robot", "robot_info": ".library:robot_info",
    "RigidBody": ".model.body:RigidBody", "Visual": ".model.body:Visual", "DHRow": ".model.joint:DHRow",
    "JOINT_TYPES": ".model.joint:JOINT_TYPES", "Joint": ".model.joint:Joint", "Mimic": ".model.joint:Mimic",
    "LimitViolation": ".model.limits:LimitViolation", "NamedPoses": ".model.poses:NamedPoses",
    "SimulationError": ".simulation.simulator:SimulationError", "Simulator": ".simulation.simulator:Simulator",
    "kinetic_energy": ".simulation.simulator:kinetic_energy",
    "potential_energy": ".simulation.simulator:potential_energy", "symbolic_fk": ".teach.symbolic:symbolic_fk",
    "symbolic_link": ".teach.symbolic:symbolic_link", "RigidBodyTree": ".tree:RigidBodyTree",
})

__all__ = sorted(_LAZY.table)
__getattr__ = _LAZY.module_getattr


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
