"""KineTree's engine: rigid body trees, joints, DH and forward kinematics. No Qt here."""

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
from .trajectory import joint_trajectory, quintic, sample_trajectory
from .tree import RigidBodyTree
from .workspace import random_configurations, sample_workspace

__all__ = [
    "SimulationError",
    "Simulator",
    "kinetic_energy",
    "potential_energy",
    "NamedPoses",
    "SymbolicError",
    "joint_trajectory",
    "quintic",
    "sample_trajectory",
    "symbolic_fk",
    "symbolic_link",
    "check_collision",
    "collision_available",
    "random_configurations",
    "sample_workspace",
    "center_of_mass",
    "dof_count",
    "dof_names",
    "gravity_torque",
    "external_force",
    "difference",
    "integrate",
    "forward_dynamics",
    "inverse_dynamics",
    "mass_matrix",
    "velocity_product",
    "total_mass",
    "DHEntry",
    "DHExtraction",
    "DHStatus",
    "NotDHExpressibleError",
    "dh_report",
    "extract_dh",
    "robot_info",
    "DHLink",
    "UnknownRobotError",
    "chain_dh_table",
    "describe_robot",
    "export_robot",
    "import_robot",
    "dh_chain",
    "list_robots",
    "load_robot",
    "rebuild_chain",
    "JOINT_TYPES",
    "BaseBodyError",
    "DHRow",
    "DuplicateNameError",
    "FileFormatError",
    "InvalidConfigurationError",
    "InvalidJointError",
    "InvalidLimitsError",
    "InvalidPropertyError",
    "InvalidTransformError",
    "Joint",
    "Mimic",
    "KineTreeError",
    "PhysicsWarning",
    "RigidBody",
    "RigidBodyTree",
    "UnknownBodyError",
    "Visual",
    "IKResult",
    "InvalidIKOptionError",
    "LoopClosureError",
    "Loop",
    "LimitViolation",
    "inverse_kinematics",
]


def __getattr__(name: str):
    # sympy takes 0.4 s to import: load the symbolic module when its names are first asked for
    if name in ("symbolic_fk", "symbolic_link"):
        from . import symbolic

        return getattr(symbolic, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
