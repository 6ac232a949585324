"""Built-in robots, built from published DH tables.

Lengths in metres, angles in radians. Robots whose textbook tables are symbolic (the lecture's
cylindrical arm, SCARA, spherical wrist) get the link lengths stated in their docstrings.
"""

from __future__ import annotations

from collections.abc import Callable
from math import pi, radians

from .dh import DHLink, dh_chain
from .errors import UnknownRobotError
from .tree import RigidBodyTree

_ROBOTS: dict[str, Callable[[], RigidBodyTree]] = {}


def _robot(fn: Callable[[], RigidBodyTree]) -> Callable[[], RigidBodyTree]:
    _ROBOTS[fn.__name__] = fn
    return fn


def _deg(lo: float, hi: float) -> tuple[float, float]:
    return radians(lo), radians(hi)


@_robot
def two_link_planar() -> RigidBodyTree:
    """Two-link planar arm, a1 = 1, a2 = 0.5 (the lecture's MATLAB example), standard DH.

    At θ = (60°, 30°) the end effector is at (0.5, 1.366, 0).
    """
    return dh_chain([DHLink("R", 1.0, 0, 0, 0, qlim=(-pi, pi)),
                     DHLink("R", 0.5, 0, 0, 0, qlim=(-pi, pi))])


@_robot
def cylindrical() -> RigidBodyTree:
    """Cylindrical arm (θ1, d2, d3), standard DH rows ``[0 0 d1 θ1]``, ``[0 −90° d2 0]``,
    ``[0 0 d3 0]`` (Spong, Hutchinson & Vidyasagar, Robot Modeling and Control, Ex. 3.2).

    Symbolic in the book; here d1 = 0.5 m, d2 ∈ [0, 1] m, d3 ∈ [0, 0.8] m.
    """
    return dh_chain([
        DHLink("R", 0, 0, 0.5, 0, qlim=(-pi, pi)),
        DHLink("P", 0, radians(-90), 0, 0, qlim=(0.0, 1.0)),
        DHLink("P", 0, 0, 0, 0, qlim=(0.0, 0.8)),
    ])


@_robot
def scara() -> RigidBodyTree:
    """SCARA, standard DH rows ``[a1 0 0 θ1]``, ``[a2 180° 0 θ2]``, ``[0 0 d3 0]`` (prismatic),
    ``[0 0 d4 θ4]`` (Spong et al., Ex. 3.4).

    Symbolic in the book; here a1 = 0.4 m, a2 = 0.3 m, d3 ∈ [0, 0.3] m, d4 = 0.1 m.
    """
    return dh_chain([
        DHLink("R", 0.4, 0, 0, 0, qlim=_deg(-150, 150)),
        DHLink("R", 0.3, pi, 0, 0, qlim=_deg(-150, 150)),
        DHLink("P", 0, 0, 0, 0, qlim=(0.0, 0.3)),
        DHLink("R", 0, 0, 0.1, 0, qlim=(-pi, pi)),
    ])


@_robot
def spherical_wrist() -> RigidBodyTree:
    """Spherical wrist, standard DH rows ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 d6 θ6]``
    (Spong et al., Ex. 3.3). Symbolic in the book; here d6 = 0.1 m.

    Joints are named q4, q5, q6 as in the book.
    """
    return dh_chain([
        DHLink("R", 0, -pi / 2, 0, 0, qlim=(-pi, pi), name="link4", joint_name="q4"),
        DHLink("R", 0, pi / 2, 0, 0, qlim=_deg(-120, 120), name="link5", joint_name="q5"),
        DHLink("R", 0, 0, 0.1, 0, qlim=(-pi, pi), name="link6", joint_name="q6"),
    ])


@_robot
def stanford() -> RigidBodyTree:
    """Stanford arm, standard DH (Corke's ``mdl_stanford``, after Paul & Spong):
    ``[0 −90° 0.412 θ1]``, ``[0 90° 0.154 θ2]``, ``[0 0 d3 −90°]`` (prismatic,
    d3 ∈ [0.3048, 1.27] m), ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 0.263 θ6]``.

    The −90° θ of the prismatic row is a fixed rotation, carried as its DH θ.
    """
    return dh_chain([
        DHLink("R", 0, -pi / 2, 0.412, 0, qlim=_deg(-170, 170)),
        DHLink("R", 0, pi / 2, 0.154, 0, qlim=_deg(-170, 170)),
        DHLink("P", 0, 0, 0, -pi / 2, qlim=(0.3048, 1.27)),
        DHLink("R", 0, -pi / 2, 0, 0, qlim=_deg(-170, 170)),
        DHLink("R", 0, pi / 2, 0, 0, qlim=_deg(-90, 90)),
        DHLink("R", 0, 0, 0.263, 0, qlim=_deg(-170, 170)),
    ])


_PUMA_LIMITS = [_deg(-160, 160), _deg(-45, 225), _deg(-225, 45),
                _deg(-110, 170), _deg(-100, 100), _deg(-266, 266)]


@_robot
def puma560() -> RigidBodyTree:
    """Puma 560, standard DH (Corke & Armstrong-Hélouvry, "A search for consistent kinematic
    parameters", as in Corke's ``mdl_puma560``): rows ``[a α d]`` ``[0 90° 0]``,
    ``[0.4318 0 0]``, ``[0.0203 −90° 0.15005]``, ``[0 90° 0.4318]``, ``[0 −90° 0]``,
    ``[0 0 0]``; Corke's joint limits."""
    rows = [(0, pi / 2, 0), (0.4318, 0, 0), (0.0203, -pi / 2, 0.15005),
            (0, pi / 2, 0.4318), (0, -pi / 2, 0), (0, 0, 0)]
    return dh_chain([DHLink("R", a, al, d, 0, qlim=lim) for (a, al, d), lim in zip(rows, _PUMA_LIMITS)])


@_robot
def puma560_mdh() -> RigidBodyTree:
    """Puma 560 in modified DH, Craig's form (Introduction to Robotics, Fig. 3.21):
    rows ``[a_{i−1} α_{i−1} d_i]`` ``[0 0 0]``, ``[0 90° 0]``, ``[0.4318 0 0.15005]``,
    ``[0.0203 −90° 0.4318]``, ``[0 90° 0]``, ``[0 −90° 0]``, with the link values of
    :func:`puma560`.

    Craig prints α₁ = −90°, which puts frame 1's z (and so joints 2 and 3) the other way
    round from Corke's standard table; with α₁ = +90° the tool frame equals
    :func:`puma560`'s at every joint vector, which is what this library promises.
    """
    rows = [(0, 0, 0), (0, pi / 2, 0), (0.4318, 0, 0.15005),
            (0.0203, -pi / 2, 0.4318), (0, pi / 2, 0), (0, -pi / 2, 0)]
    return dh_chain([DHLink("R", a, al, d, 0, qlim=lim) for (a, al, d), lim in zip(rows, _PUMA_LIMITS)],
                    convention="mdh")


def list_robots() -> list[str]:
    """Names accepted by :func:`load_robot`."""
    return sorted(_ROBOTS)


def load_robot(name: str) -> RigidBodyTree:
    """A new tree of the library robot ``name`` (see :func:`list_robots`)."""
    try:
        return _ROBOTS[name]()
    except KeyError:
        raise UnknownRobotError(
            f"no robot named {name!r} in the library; choose from {', '.join(list_robots())}"
        ) from None


def describe_robot(name: str) -> str:
    """The first line of a library robot's docstring."""
    load_robot(name)  # raise for unknown names
    return (_ROBOTS[name].__doc__ or name).strip().splitlines()[0]
