"""Built-in robots, built from published DH tables, and tree-shaped robots bundled as URDF files
under ``kinetree.resources/robots``.

Lengths in metres, angles in radians. Robots whose textbook tables are symbolic (the lecture's
cylindrical arm, SCARA, spherical wrist) get the link lengths stated in their docstrings.

Inertials: the Puma 560 (both conventions) has Armstrong, Khatib & Burdick's published masses,
centres of mass and inertias (as in Corke's ``mdl_puma560``); the URDF robots have their files'
``<inertial>``. Every other DH robot keeps MATLAB's defaults (each body, base included, 1 kg at
its frame origin with inertia ``[1 1 1 0 0 0]``): no published source gives a consistent set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import pi, radians, sin
from typing import Any

import numpy as np

from ..dh.chain import DHLink, dh_chain
from ..errors import UnknownRobotError
from ..lazy import LazyImports
from ..tree import RigidBodyTree
from .mechanisms import MECHANISMS
from .poses import LECTURE_POSES
from .sources import SHORT_SOURCES
from .visuals import _add_tool, _add_visuals, _Style, _tz, refit_visuals  # noqa: F401 - refit_visuals: public here

#: the URDF reader (lxml, the xacro expander: ~0.1 s), only for the robots shipped as URDF files (see
#: kinetree.core.lazy)
_LAZY = LazyImports(__name__, {"import_urdf": "..io.urdf.read:import_urdf"})


@dataclass(frozen=True)
class _Entry:
    make: Callable[[], RigidBodyTree]
    source: str
    convention: str
    style: _Style | None
    tool: tuple[tuple[float, ...], ...] | None = None


_ROBOTS: dict[str, _Entry] = {}

_TEXTBOOK = _Style()


def _robot(fn: Callable[[], RigidBodyTree] | None = None, *, source: str = "", convention: str = "dh",
           style: _Style | None = _TEXTBOOK, tool: np.ndarray | None = None):
    """Register a library robot; usable bare (``@_robot``) or with keywords. ``style=None``: the
    robot brings its own visuals."""

    def register(f: Callable[[], RigidBodyTree]) -> Callable[[], RigidBodyTree]:
        T = None if tool is None else tuple(map(tuple, np.asarray(tool, dtype=float).tolist()))
        _ROBOTS[f.__name__] = _Entry(f, source, convention, style, T)
        return f

    return register(fn) if fn is not None else register


def _deg(lo: float, hi: float) -> tuple[float, float]:
    return radians(lo), radians(hi)


@_robot(source="the lecture's MATLAB two-link example (rigidBodyTree documentation)")
def two_link_planar() -> RigidBodyTree:
    """Two-link planar arm, a1 = 1, a2 = 0.5 (the lecture's MATLAB example), standard DH.

    At θ = (60°, 30°) the end effector is at (0.5, 1.366, 0).
    """
    return dh_chain([DHLink("R", a=1.0, alpha=0, d=0, theta=0, qlim=(-pi, pi)),
                     DHLink("R", a=0.5, alpha=0, d=0, theta=0, qlim=(-pi, pi))])


@_robot(source="Spong, Hutchinson & Vidyasagar, Robot Modeling and Control (2006), Example 3.2")
def cylindrical() -> RigidBodyTree:
    """Cylindrical arm (θ1, d2, d3), standard DH rows ``[0 0 d1 θ1]``, ``[0 −90° d2 0]``,
    ``[0 0 d3 0]`` (Spong, Hutchinson & Vidyasagar, Robot Modeling and Control, Ex. 3.2).

    Symbolic in the book; here d1 = 0.5 m, d2 ∈ [0, 1] m, d3 ∈ [0, 0.8] m.
    """
    return dh_chain([
        DHLink("R", a=0, alpha=0, d=0.5, theta=0, qlim=(-pi, pi)),
        DHLink("P", a=0, alpha=radians(-90), d=0, theta=0, qlim=(0.0, 1.0)),
        DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0.0, 0.8)),
    ])


@_robot(source="Spong, Hutchinson & Vidyasagar, Robot Modeling and Control (2006), Example 3.4")
def scara() -> RigidBodyTree:
    """SCARA, standard DH rows ``[a1 0 0 θ1]``, ``[a2 180° 0 θ2]``, ``[0 0 d3 0]`` (prismatic),
    ``[0 0 d4 θ4]`` (Spong et al., Ex. 3.4).

    Symbolic in the book; here a1 = 0.4 m, a2 = 0.3 m, d3 ∈ [0, 0.3] m, d4 = 0.1 m.
    """
    return dh_chain([
        DHLink("R", a=0.4, alpha=0, d=0, theta=0, qlim=_deg(-150, 150)),
        DHLink("R", a=0.3, alpha=pi, d=0, theta=0, qlim=_deg(-150, 150)),
        DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0.0, 0.3)),
        DHLink("R", a=0, alpha=0, d=0.1, theta=0, qlim=(-pi, pi)),
    ])


@_robot(source="Spong, Hutchinson & Vidyasagar, Robot Modeling and Control (2006), Example 3.3")
def spherical_wrist() -> RigidBodyTree:
    """Spherical wrist, standard DH rows ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 d6 θ6]``
    (Spong et al., Ex. 3.3). Symbolic in the book; here d6 = 0.1 m.

    Joints are named q4, q5, q6 as in the book.
    """
    return dh_chain([
        DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0, qlim=(-pi, pi), name="link4", joint_name="q4"),
        DHLink("R", a=0, alpha=pi / 2, d=0, theta=0, qlim=_deg(-120, 120), name="link5", joint_name="q5"),
        DHLink("R", a=0, alpha=0, d=0.1, theta=0, qlim=(-pi, pi), name="link6", joint_name="q6"),
    ])


@_robot(source="the lecture's cylindrical manipulator with spherical wrist (T_6^0 = T_3^0 T_6^3), "
               "after Spong, Hutchinson & Vidyasagar, Robot Modeling and Control (2006), §3.3 (Examples 3.2 and "
               "3.3 joined)")
def cylindrical_wrist() -> RigidBodyTree:
    """Cylindrical arm with spherical wrist (θ1, d2, d3, θ4, θ5, θ6): the lecture's example
    T_6^0 = T_3^0 T_6^3, the rows of :func:`cylindrical` then those of :func:`spherical_wrist`:
    ``[0 0 d1 θ1]``, ``[0 −90° d2 0]``, ``[0 0 d3 0]``, ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 d6 θ6]``.

    Symbolic in the book; here d1 = 0.5 m, d2 ∈ [0, 1] m, d3 ∈ [0, 0.8] m, d6 = 0.1 m (the values of
    the two parts).
    """
    return dh_chain([
        DHLink("R", a=0, alpha=0, d=0.5, theta=0, qlim=(-pi, pi)),
        DHLink("P", a=0, alpha=radians(-90), d=0, theta=0, qlim=(0.0, 1.0)),
        DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0.0, 0.8)),
        DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0, qlim=(-pi, pi)),
        DHLink("R", a=0, alpha=pi / 2, d=0, theta=0, qlim=_deg(-120, 120)),
        DHLink("R", a=0, alpha=0, d=0.1, theta=0, qlim=(-pi, pi)),
    ])


@_robot(source="Corke, Robotics Toolbox mdl_stanford (after Paul 1981 and Spong et al. Ex. 3.5)",
        style=_Style(link=(0.80, 0.80, 0.82, 1.0), joint=(0.20, 0.35, 0.60, 1.0), scale=0.7))
def stanford() -> RigidBodyTree:
    """Stanford arm, standard DH (Corke's ``mdl_stanford``, after Paul & Spong):
    ``[0 −90° 0.412 θ1]``, ``[0 90° 0.154 θ2]``, ``[0 0 d3 −90°]`` (prismatic,
    d3 ∈ [0.3048, 1.27] m), ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 0.263 θ6]``.

    The −90° θ of the prismatic row is a fixed rotation, carried as its DH θ.
    """
    return dh_chain([
        DHLink("R", a=0, alpha=-pi / 2, d=0.412, theta=0, qlim=_deg(-170, 170)),
        DHLink("R", a=0, alpha=pi / 2, d=0.154, theta=0, qlim=_deg(-170, 170)),
        DHLink("P", a=0, alpha=0, d=0, theta=-pi / 2, qlim=(0.3048, 1.27)),
        DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0, qlim=_deg(-170, 170)),
        DHLink("R", a=0, alpha=pi / 2, d=0, theta=0, qlim=_deg(-90, 90)),
        DHLink("R", a=0, alpha=0, d=0.263, theta=0, qlim=_deg(-170, 170)),
    ])


@_robot(source="the lecture's Stanford arm table, after Spong, Hutchinson & Vidyasagar, Robot Modeling and Control "
               "(2006), Example 3.5 / Table 3.4; d2 = 0.154 m, d6 = 0.263 m and the joint ranges as "
               "Corke's mdl_stanford",
        style=_Style(link=(0.80, 0.80, 0.82, 1.0), joint=(0.20, 0.35, 0.60, 1.0), scale=0.7))
def stanford_lecture() -> RigidBodyTree:
    """Stanford arm as the lecture tabulates it (Spong et al., Ex. 3.5), standard DH: ``[0 −90° 0 θ1]``,
    ``[0 90° d2 θ2]``, ``[0 0 d3 0]`` (prismatic), ``[0 −90° 0 θ4]``, ``[0 90° 0 θ5]``, ``[0 0 d6 θ6]``.

    Symbolic in the book; here d2 = 0.154 m and d6 = 0.263 m (the values of :func:`stanford`, Corke's
    variant, which adds a base height of 0.412 m and a −90° θ on the prismatic row), d3 ∈ [0.3048, 1.27] m
    and Corke's joint ranges. The lecture prints A5's third row as ``[0 −1 0 0]``; α5 = +90° gives
    ``[0 1 0 0]``, which is right.
    """
    return dh_chain([
        DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0, qlim=_deg(-170, 170)),
        DHLink("R", a=0, alpha=pi / 2, d=0.154, theta=0, qlim=_deg(-170, 170)),
        DHLink("P", a=0, alpha=0, d=0, theta=0, qlim=(0.3048, 1.27)),
        DHLink("R", a=0, alpha=-pi / 2, d=0, theta=0, qlim=_deg(-170, 170)),
        DHLink("R", a=0, alpha=pi / 2, d=0, theta=0, qlim=_deg(-90, 90)),
        DHLink("R", a=0, alpha=0, d=0.263, theta=0, qlim=_deg(-170, 170)),
    ])


_PUMA_SOURCE = ('Corke & Armstrong-Hélouvry, "A search for consistent kinematic parameters for the PUMA 560", '
                'IEEE Int. Conf. Robotics & Automation 1994 (Corke\'s mdl_puma560)')
_PUMA_STYLE = _Style(link=(0.86, 0.84, 0.78, 1.0), joint=(0.30, 0.30, 0.34, 1.0))
_PUMA_LIMITS = [_deg(-160, 160), _deg(-45, 225), _deg(-225, 45),
                _deg(-110, 170), _deg(-100, 100), _deg(-266, 266)]


@_robot(source=_PUMA_SOURCE, style=_PUMA_STYLE)
def puma560() -> RigidBodyTree:
    """Puma 560, standard DH (Corke & Armstrong-Hélouvry, "A search for consistent kinematic
    parameters", as in Corke's ``mdl_puma560``): rows ``[a α d]`` ``[0 90° 0]``,
    ``[0.4318 0 0]``, ``[0.0203 −90° 0.15005]``, ``[0 90° 0.4318]``, ``[0 −90° 0]``,
    ``[0 0 0]``; Corke's joint limits. Inertials of Armstrong, Khatib & Burdick (1986), as in
    ``mdl_puma560`` (link 1 massless, no base mass)."""
    rows = [(0, pi / 2, 0), (0.4318, 0, 0), (0.0203, -pi / 2, 0.15005),
            (0, pi / 2, 0.4318), (0, -pi / 2, 0), (0, 0, 0)]
    tree = dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0, qlim=lim) for (a, al, d), lim in zip(rows, _PUMA_LIMITS)])
    return _with_motors(_with_inertials(tree, _PUMA_INERTIALS))


# Puma 560 link inertials (Armstrong, Khatib & Burdick, "The explicit dynamic model and inertial
# parameters of the PUMA 560 arm", ICRA 1986, as compiled by Corke & Armstrong-Hélouvry 1994), copied
# from Corke's mdl_puma560 / Robotics Toolbox for Python roboticstoolbox/models/DH/Puma560.py:
# (mass kg, centre of mass r in the standard-DH link frame i (m), [Ixx Iyy Izz] about the centre of
# mass (kg·m², products 0)). KineTree's standard-DH body i is Corke's link frame i. m1 = 0: Armstrong
# gives no value (it does not enter the dynamics once inertia is taken about the link frame).
_PUMA_INERTIALS = [
    (0.0, (0, 0, 0), (0, 0.35, 0)),
    (17.4, (-0.3638, 0.006, 0.2275), (0.13, 0.524, 0.539)),
    (4.8, (-0.0203, -0.0141, 0.070), (0.066, 0.086, 0.0125)),
    (0.82, (0, 0.019, 0), (1.8e-3, 1.3e-3, 1.8e-3)),
    (0.34, (0, 0, 0), (0.3e-3, 0.4e-3, 0.3e-3)),
    (0.09, (0, 0, 0.032), (0.15e-3, 0.15e-3, 0.04e-3)),
]


# Puma 560 motors, motor referred (Corke's mdl_puma560): gear ratio G, motor inertia Jm (kg·m²),
# viscous friction B (N·m·s/rad) and Coulomb friction (Tc+, Tc−) (N·m)
_PUMA_MOTORS = [
    (-62.6111, 200e-6, 1.48e-3, (0.395, -0.435)),
    (107.815, 200e-6, 0.817e-3, (0.126, -0.071)),
    (-53.7063, 200e-6, 1.38e-3, (0.132, -0.105)),
    (76.0364, 33e-6, 71.2e-6, (11.2e-3, -16.9e-3)),
    (71.923, 33e-6, 82.6e-6, (9.26e-3, -14.5e-3)),
    (76.686, 33e-6, 36.7e-6, (3.96e-3, -10.5e-3)),
]


def _with_motors(tree: RigidBodyTree) -> RigidBodyTree:
    for body, (g, jm, b, tc) in zip(tree.bodies, _PUMA_MOTORS):
        j = body.joint
        j.gear_ratio, j.motor_inertia, j.viscous_friction, j.coulomb_friction = g, jm, b, tc
    return tree


def _with_inertials(tree: RigidBodyTree, table: list, frames: np.ndarray | None = None) -> RigidBodyTree:
    """Give the bodies (mass, centre of mass, principal moments about the centre of mass) from
    ``table``, given in ``frames`` (poses in the body frames; default: the body frames), moved
    to the body frame (parallel axes), as KineTree stores inertia; the base, of which the
    source says nothing, gets mass 0."""
    tree.base.mass, tree.base.inertia = 0.0, np.zeros(6)
    for k, (body, (m, r, moments)) in enumerate(zip(tree.bodies, table)):
        F = np.eye(4) if frames is None else frames[k]
        c = F[:3, :3] @ np.array(r, dtype=float) + F[:3, 3]
        I = F[:3, :3] @ np.diag(moments) @ F[:3, :3].T + m * (float(c @ c) * np.eye(3) - np.outer(c, c))
        body.mass, body.center_of_mass = m, c
        # as published: Corke's Puma link 1 (m = 0, I = [0 0.35 0]) has no mass distribution
        body._set_inertia_as_read([I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]])
    return tree


@_robot(source="Craig, Introduction to Robotics (3rd ed.), Fig. 3.21, with " + _PUMA_SOURCE, convention="mdh",
        style=_PUMA_STYLE)
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
    tree = dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0, qlim=lim) for (a, al, d), lim in zip(rows, _PUMA_LIMITS)],
                    convention="mdh")
    # the inertials are given in the standard-DH link frames: the pose of link i's standard frame in
    # its modified-DH frame is the same at every q (both are fixed to link i); read it at q = 0
    q0 = np.zeros(6)
    Tm, Ts = tree.forward_kinematics(q0), puma560().forward_kinematics(q0)
    return _with_motors(_with_inertials(tree, _PUMA_INERTIALS, np.linalg.inv(Tm) @ Ts))




# --- industrial and research arms --------------------------------------------------------------

def _with_home(tree: RigidBodyTree, home: list[float]) -> RigidBodyTree:
    for body, h in zip(tree.bodies, home):
        body.joint.home_position = h
    return tree


_UR_ARTICLE = ('Universal Robots, "DH parameters for calculations of kinematics and dynamics" (support article, '
               'universal-robots.com/articles/ur/application-installation/dh-parameters-for-calculations-of-'
               'kinematics-and-dynamics), table for the {model}; joint ranges from the {model} technical '
               'specifications (±360° on every joint)')
_UR_STYLE = _Style(link=(0.82, 0.84, 0.87, 1.0), joint=(0.38, 0.64, 0.86, 1.0), base=(0.30, 0.32, 0.36, 1.0),
                   tool=(0.38, 0.64, 0.86, 1.0))
_UR_ALPHA = (pi / 2, 0.0, 0.0, pi / 2, -pi / 2, 0.0)
#: UR's "home" (upright) pose: shoulder and wrist 1 at −90°.
_UR_HOME = [0.0, -pi / 2, 0.0, -pi / 2, 0.0, 0.0]


def _ur(a: tuple[float, ...], d: tuple[float, ...]) -> RigidBodyTree:
    lim = (-2 * pi, 2 * pi)
    rows = [DHLink("R", a=ai, alpha=al, d=di, theta=0, qlim=lim) for ai, al, di in zip(a, _UR_ALPHA, d)]
    return _with_home(dh_chain(rows), _UR_HOME)


@_robot(source=_UR_ARTICLE.format(model="UR3"), style=_UR_STYLE)
def ur3() -> RigidBodyTree:
    """Universal Robots UR3 (CB3), standard DH from UR's published table: a = (0, −0.24365, −0.21325, 0, 0, 0),
    d = (0.1519, 0, 0, 0.11235, 0.08535, 0.0819), α = (90°, 0, 0, 90°, −90°, 0).

    Source: UR support article "DH parameters for calculations of kinematics and dynamics", UR3 row.
    Convention: standard DH. Limits ±360° on every joint (UR3 technical specifications; the last joint
    is infinite on the real arm). Home is UR's upright pose q = (0, −90°, 0, −90°, 0, 0).
    """
    return _ur((0, -0.24365, -0.21325, 0, 0, 0), (0.1519, 0, 0, 0.11235, 0.08535, 0.0819))


@_robot(source=_UR_ARTICLE.format(model="UR5"), style=_UR_STYLE)
def ur5() -> RigidBodyTree:
    """Universal Robots UR5 (CB3), standard DH from UR's published table: a = (0, −0.425, −0.39225, 0, 0, 0),
    d = (0.089159, 0, 0, 0.10915, 0.09465, 0.0823), α = (90°, 0, 0, 90°, −90°, 0).

    Source: UR support article "DH parameters for calculations of kinematics and dynamics", UR5 row.
    Convention: standard DH. Limits ±360° on every joint (UR5 technical specifications). Home is UR's
    upright pose q = (0, −90°, 0, −90°, 0, 0). At q = 0 the flange is at
    (−0.81725, −0.19145, −0.005491). Corke's Python ``UR5`` prints d1 = 0.089459; UR's table (used here)
    says 0.089159.
    """
    return _ur((0, -0.425, -0.39225, 0, 0, 0), (0.089159, 0, 0, 0.10915, 0.09465, 0.0823))


@_robot(source=_UR_ARTICLE.format(model="UR10"), style=_UR_STYLE)
def ur10() -> RigidBodyTree:
    """Universal Robots UR10 (CB3), standard DH from UR's published table: a = (0, −0.612, −0.5723, 0, 0, 0),
    d = (0.1273, 0, 0, 0.163941, 0.1157, 0.0922), α = (90°, 0, 0, 90°, −90°, 0).

    Source: UR support article "DH parameters for calculations of kinematics and dynamics", UR10 row.
    Convention: standard DH. Limits ±360° on every joint (UR10 technical specifications). Home is UR's
    upright pose q = (0, −90°, 0, −90°, 0, 0).
    """
    return _ur((0, -0.612, -0.5723, 0, 0, 0), (0.1273, 0, 0, 0.163941, 0.1157, 0.0922))


@_robot(source="Corke, Robotics Toolbox mdl_KR5 / rtb.models.DH.KR5 (table from Gil's ARTE toolbox, "
               "robots/KUKA/KR5_arc/parameters.m); limits from the KUKA KR 5 arc specification",
        style=_Style(link=(1.0, 0.42, 0.0, 1.0), joint=(0.18, 0.18, 0.20, 1.0), base=(0.18, 0.18, 0.20, 1.0)))
def kuka_kr5() -> RigidBodyTree:
    """KUKA KR 5 arc, standard DH (Corke's ``mdl_KR5`` / ARTE ``KR5_arc``): rows ``[a α d]``
    ``[0.18 −90° 0.4]``, ``[0.6 0 0]``, ``[0.12 90° 0]``, ``[0 −90° −0.62]``, ``[0 90° 0]``, ``[0 180° −0.115]``.

    Convention: standard DH. The last row's d = −0.115 m is the wrist-centre-to-flange distance.
    Limits (KR 5 arc specification): A1 ±155°, A2 −180…+65°, A3 −15…+158°, A4 ±350°, A5 ±130°,
    A6 ±350°. Home q = 0.
    """
    rows = [(0.18, -pi / 2, 0.4), (0.6, 0, 0), (0.12, pi / 2, 0), (0, -pi / 2, -0.62), (0, pi / 2, 0),
            (0, pi, -0.115)]
    lims = [_deg(-155, 155), _deg(-180, 65), _deg(-15, 158), _deg(-350, 350), _deg(-130, 130), _deg(-350, 350)]
    return dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0, qlim=lim) for (a, al, d), lim in zip(rows, lims)])


@_robot(source="Corke, Robotics Toolbox mdl_irb140 / rtb.models.DH.IRB140 (after the ABB IRB 140 data sheet "
               "and ARTE robots/ABB/IRB140/parameters.m); Corke's joint limits",
        style=_Style(link=(0.95, 0.95, 0.93, 1.0), joint=(0.55, 0.56, 0.58, 1.0), base=(0.35, 0.36, 0.38, 1.0)))
def abb_irb140() -> RigidBodyTree:
    """ABB IRB 140, standard DH (Corke's ``mdl_irb140``): rows ``[a α d]`` ``[0.07 −90° 0.352]``,
    ``[0.36 0 0]``, ``[0 −90° 0]``, ``[0 90° 0.38]``, ``[0 −90° 0]``, ``[0 0 0.065]``.

    Convention: standard DH, no θ offsets (the DH zero has the upper arm horizontal, unlike ABB's
    calibration pose). Limits as in Corke's model: ±180°, ±100°, −220…+60°, ±200°, ±120°, ±400° — the
    data sheet's axis 2/3 ranges (−90…+110°, −230…+50°) shifted by 10° into this DH zero. Home q = 0.
    """
    rows = [(0.07, -pi / 2, 0.352), (0.36, 0, 0), (0, -pi / 2, 0), (0, pi / 2, 0.38), (0, -pi / 2, 0),
            (0, 0, 0.065)]
    lims = [_deg(-180, 180), _deg(-100, 100), _deg(-220, 60), _deg(-200, 200), _deg(-120, 120), _deg(-400, 400)]
    return dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0, qlim=lim) for (a, al, d), lim in zip(rows, lims)])


@_robot(source='Franka Emika, "Robot and interface specifications" (frankaemika.github.io/docs/'
               'control_parameters.html): modified DH table (joints 1–7 and flange) and joint limits',
        convention="mdh", tool=_tz(0.107),
        style=_Style(link=(0.94, 0.94, 0.94, 1.0), joint=(0.25, 0.25, 0.27, 1.0), base=(0.25, 0.25, 0.27, 1.0)))
def panda() -> RigidBodyTree:
    """Franka Emika Panda, modified DH from Franka's documentation: a = (0, 0, 0, 0.0825, −0.0825, 0, 0.088),
    d = (0.333, 0, 0.316, 0, 0.384, 0, 0), α = (0, −90°, 90°, 90°, −90°, 90°, 90°); flange d = 0.107.

    Source: Franka Control Interface docs, "Robot and interface specifications", DH table and "Limits
    for Panda". Convention: modified DH (Craig). The flange row (d = 0.107, not a joint) is the robot's
    tool transform: ``load_robot("panda", tool=True)`` adds it as a fixed body ``flange``; at q = 0 the
    flange is at (0.088, 0, 0.926) with axes diag(1, −1, −1). Home is Franka's "ready" pose
    q = (0, −45°, 0, −135°, 0, 90°, 45°).
    """
    a = (0, 0, 0, 0.0825, -0.0825, 0, 0.088)
    d = (0.333, 0, 0.316, 0, 0.384, 0, 0)
    alpha = (0, -pi / 2, pi / 2, pi / 2, -pi / 2, pi / 2, pi / 2)
    lims = [(-2.8973, 2.8973), (-1.7628, 1.7628), (-2.8973, 2.8973), (-3.0718, -0.0698), (-2.8973, 2.8973),
            (-0.0175, 3.7525), (-2.8973, 2.8973)]
    links = [DHLink("R", a=ai, alpha=al, d=di, theta=0, qlim=lim) for ai, al, di, lim in zip(a, alpha, d, lims)]
    return _with_home(dh_chain(links, convention="mdh"), [0, -pi / 4, 0, -3 * pi / 4, 0, pi / 2, pi / 4])


@_robot(source='Kinova, "DH Parameters of Jaco", version 1.0.8 (25 July 2013), classic DH table, angle '
               'conversions and joint ranges; as in Corke\'s mdl_jaco / rtb.models.DH.Jaco',
        style=_Style(link=(0.16, 0.16, 0.18, 1.0), joint=(0.70, 0.72, 0.75, 1.0), base=(0.16, 0.16, 0.18, 1.0),
                     scale=0.8))
def jaco() -> RigidBodyTree:
    """Kinova Jaco (6-dof), standard DH from Kinova's "DH Parameters of Jaco" v1.0.8 with its θ offsets.

    Rows ``[a α d]``: ``[0 90° D1]``, ``[D2 180° 0]``, ``[0 90° −e2]``, ``[0 60° −d4b]``, ``[0 60° −d5b]``,
    ``[0 180° −d6b]`` with D1 = 0.2755, D2 = 0.41, D3 = 0.2073, D4 = D5 = 0.0743, D6 = 0.1687,
    e2 = 0.0098, aa = 30°, d4b = D3 + D4·sin aa/sin 2aa, d5b = (D4 + D5)·sin aa/sin 2aa,
    d6b = D5·sin aa/sin 2aa + D6. Convention: standard DH. Joint values are Kinova's angles: joint 1
    turns about −z (θ1 = −q1) and the offsets (Corke's) are θ2 = q2 − 90°, θ3 = q3 + 90°, θ5 = q5 − 180°,
    θ6 = q6 + 100°. Limits: joint 2 47…313°, joint 3 19…341°; joints 1, 4, 5, 6 are continuous on the
    arm and bounded to ±360° here. Home is Kinova's reset pose, every joint at 180°.
    """
    D1, D2, D3, D4, D5, D6, e2 = 0.2755, 0.41, 0.2073, 0.0743, 0.0743, 0.1687, 0.0098
    aa = pi / 6
    k = sin(aa) / sin(2 * aa)
    d4b, d5b, d6b = D3 + k * D4, k * D4 + k * D5, k * D5 + D6
    full = (-2 * pi, 2 * pi)
    return _with_home(dh_chain([
        DHLink("R", a=0, alpha=pi / 2, d=D1, theta=0, qlim=full, flip=True),
        DHLink("R", a=D2, alpha=pi, d=0, theta=0, offset=-pi / 2, qlim=_deg(47, 313)),
        DHLink("R", a=0, alpha=pi / 2, d=-e2, theta=0, offset=pi / 2, qlim=_deg(19, 341)),
        DHLink("R", a=0, alpha=2 * aa, d=-d4b, theta=0, qlim=full),
        DHLink("R", a=0, alpha=2 * aa, d=-d5b, theta=0, offset=-pi, qlim=full),
        DHLink("R", a=0, alpha=pi, d=-d6b, theta=0, offset=radians(100), qlim=full),
    ]), [pi] * 6)


@_robot(source='Ju, Yang & Ma, "Kinematics modeling and experimental verification of Baxter robot", '
               'Proc. 33rd Chinese Control Conference (2014), pp. 8518–8523, Table I (DH) and Table II '
               '(joint ranges), with the link lengths of Rethink Robotics\' Baxter hardware specification',
        style=_Style(link=(0.75, 0.10, 0.10, 1.0), joint=(0.20, 0.20, 0.22, 1.0), base=(0.20, 0.20, 0.22, 1.0)))
def baxter_left() -> RigidBodyTree:
    """Rethink Robotics Baxter, left arm (7-dof), standard DH from Ju, Yang & Ma (2014), Table I.

    Rows ``[a α d]``: ``[0.069 −90° 0.27035]``, ``[0 90° 0]`` (θ2 = q2 + 90°), ``[0.069 −90° 0.36435]``,
    ``[0 90° 0]``, ``[0.01 −90° 0.37429]``, ``[0 90° 0]``, ``[0 0 0.3683]``. Convention: standard DH, in the
    arm-mount frame (the torso-to-mount transform is left out). Limits (Table II, S0…W2): ±97.494°,
    −123…+60°, ±174.987°, −2.864…+150°, ±175.25°, −90…+120°, ±175.25°. Home q = 0.
    """
    rows = [(0.069, -pi / 2, 0.27035, 0.0), (0, pi / 2, 0, pi / 2), (0.069, -pi / 2, 0.36435, 0.0),
            (0, pi / 2, 0, 0.0), (0.01, -pi / 2, 0.37429, 0.0), (0, pi / 2, 0, 0.0), (0, 0, 0.3683, 0.0)]
    lims = [_deg(-97.494, 97.494), _deg(-123, 60), _deg(-174.987, 174.987), _deg(-2.864, 150),
            _deg(-175.25, 175.25), _deg(-90, 120), _deg(-175.25, 175.25)]
    return dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0, offset=off, qlim=lim) for (a, al, d, off),
                     lim in zip(rows, lims)])


@_robot(source='Safeea & Neto, "KUKA Sunrise Toolbox: Interfacing collaborative robots with MATLAB", IEEE '
               'Robotics & Automation Magazine 26(1), 2019 (toolbox file constDhDataOf14R820.m, from KUKA\'s '
               'LBR iiwa manuals); limits from the KUKA LBR iiwa 14 R820 data sheet',
        convention="mdh",
        style=_Style(link=(0.86, 0.87, 0.88, 1.0), joint=(1.0, 0.42, 0.0, 1.0), base=(0.30, 0.30, 0.32, 1.0)))
def kuka_lbr_iiwa14() -> RigidBodyTree:
    """KUKA LBR iiwa 14 R820 (7-dof), modified DH from the KUKA Sunrise Toolbox (Safeea & Neto 2019):
    a = 0, α = (0, −90°, 90°, 90°, −90°, −90°, 90°), d = (0.36, 0, 0.42, 0, 0.4, 0, 0.126).

    Convention: modified DH (Craig); the last frame is the flange (no media flange). Limits (data sheet):
    A1 ±170°, A2 ±120°, A3 ±170°, A4 ±120°, A5 ±170°, A6 ±120°, A7 ±175°. Home q = 0 (the upright
    "candle" pose, flange at height 1.306 m).
    """
    alpha = (0, -pi / 2, pi / 2, pi / 2, -pi / 2, -pi / 2, pi / 2)
    d = (0.36, 0, 0.42, 0, 0.4, 0, 0.126)
    lims = [_deg(-170, 170), _deg(-120, 120)] * 3 + [_deg(-175, 175)]
    return dh_chain([DHLink("R", a=0, alpha=al, d=di, theta=0, qlim=lim) for al, di, lim in zip(alpha, d, lims)],
                    convention="mdh")


def _bundled_urdf(filename: str) -> RigidBodyTree:
    from importlib.resources import as_file, files

    with as_file(files("kinetree.resources") / "robots" / filename) as path:
        return _LAZY.import_urdf(path)


@_robot(source="KineTree's own model, resources/robots/quadruped.urdf", convention="urdf", style=None)
def quadruped() -> RigidBodyTree:
    """Quadruped, a tree: trunk and four 3-joint legs (hip abduction, hip and knee pitch); URDF."""
    return _bundled_urdf("quadruped.urdf")


@_robot(source="KineTree's own model, resources/robots/humanoid_upper_body.urdf", convention="urdf", style=None)
def humanoid_upper_body() -> RigidBodyTree:
    """Humanoid upper body, a tree: waist, 2-joint head, two 7-dof arms with mimic-joint grippers; URDF."""
    return _bundled_urdf("humanoid_upper_body.urdf")


for _make, _source in MECHANISMS.values():  # closed-loop mechanisms, with their own visuals
    _robot(source=_source, convention="loops", style=None)(_make)


# --- published named poses ---------------------------------------------------------------------
_UR_POSES = {"home": tuple(_UR_HOME), "qz": (0.0,) * 6, "qr": (pi, 0.0, 0.0, 0.0, pi / 2, 0.0)}
#: ``{robot: {pose name: q}}``, each robot's poses as its source publishes them (radians, metres):
#: - Puma 560: Corke's Robotics Toolbox for Python, roboticstoolbox/models/DH/Puma560.py (as
#:   mdl_puma560): qz zero angles ("L shaped"), qr ready (arm up), qs straight and horizontal,
#:   qn nominal table-top picking pose (its q3 = π lies outside Corke's own −225°…45° range).
#: - Panda: qr from Corke's roboticstoolbox/models/DH/Panda.py; ready is Franka's (the library home).
#:   Corke's qz is left out: q4 = 0 is outside the Panda's joint-4 range.
#: - UR3/UR5/UR10: home is UR's upright pose (the library home); qz and qr (180°, 0, 0, 0, 90°, 0)
#:   from Corke's roboticstoolbox/models/DH/UR3.py, UR5.py, UR10.py.
#: - The lecture's robots (two-link planar, cylindrical, spherical wrist, cylindrical + wrist,
#:   Stanford, SCARA): qz and a teaching pose each, see :mod:`.library_poses`.
_POSES: dict[str, dict[str, tuple[float, ...]]] = {
    "puma560": {"qz": (0.0,) * 6, "qr": (0.0, pi / 2, -pi / 2, 0.0, 0.0, 0.0),
                "qs": (0.0, 0.0, -pi / 2, 0.0, 0.0, 0.0), "qn": (0.0, pi / 4, pi, 0.0, pi / 4, 0.0)},
    "panda": {"ready": (0.0, -pi / 4, 0.0, -3 * pi / 4, 0.0, pi / 2, pi / 4),
              "qr": (0.0, -0.3, 0.0, -2.2, 0.0, 2.0, pi / 4)},
    "ur3": _UR_POSES, "ur5": _UR_POSES, "ur10": _UR_POSES,
    **LECTURE_POSES,
}


def list_robots() -> list[str]:
    """Names accepted by :func:`load_robot`."""
    return sorted(_ROBOTS)


def _entry(name: str) -> _Entry:
    try:
        return _ROBOTS[name]
    except (KeyError, TypeError):
        raise UnknownRobotError(
            f"no robot named {name!r} in the library; choose from {', '.join(list_robots())}"
        ) from None


def load_robot(name: str, tool: bool = False) -> RigidBodyTree:
    """A new tree of the library robot ``name`` (see :func:`list_robots`), with primitive visuals.

    With ``tool=True``, a robot whose source gives a tool/flange transform beyond its last DH frame
    (``robot_info(name)["tool"]``) gets it as a fixed body ``flange`` on the last body.
    """
    entry = _entry(name)
    tree = entry.make()
    for pose, q in _POSES.get(name, {}).items():
        tree.named_poses[pose] = q
    T = None if entry.tool is None else np.array(entry.tool)
    if tool and T is not None:
        _add_tool(tree, T)
        T = None
    return tree if entry.style is None else _add_visuals(tree, entry.style, T)


def describe_robot(name: str) -> str:
    """The first line of a library robot's docstring."""
    entry = _entry(name)
    return (entry.make.__doc__ or name).strip().splitlines()[0]


def robot_info(name: str) -> dict[str, Any]:
    """``name``, ``description`` (as :func:`describe_robot`), ``source`` (citation), ``short_source``
    (one short line), ``convention`` (``"dh"``/``"mdh"``/``"urdf"``; ``"loops"``: a closed-loop
    mechanism), ``dof`` and ``tool`` (4×4 nested list in the last body's frame, or ``None``) and
    ``poses`` (the published named poses, ``{name: q}``)."""
    entry = _entry(name)
    return {"name": name, "description": describe_robot(name), "source": entry.source,
            "short_source": SHORT_SOURCES.get(name) or entry.source.split(";")[0],
            "convention": entry.convention, "dof": entry.make().position_count,
            "tool": None if entry.tool is None else [list(r) for r in entry.tool],
            "poses": {k: list(q) for k, q in _POSES.get(name, {}).items()}}
