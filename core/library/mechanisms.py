"""Closed-loop mechanisms of the library: a crank-rocker four-bar, an offset slider-crank, a
parallelogram-linkage arm, a parallel-jaw gripper of two parallelogram four-bars, a planar 3-RRR
and a Delta robot. Each is a spanning tree plus loop-closure constraints (:mod:`.loops`), its
unactuated joints passive, its home closed (solved by :func:`~.loops.solve_loops` from a nearby
guess when built), with its own visuals: a bar from each body's joint to every point where a
child joint or a loop frame sits on it.

The planar linkages stand upright: their base pivots turn the linkage's plane (x, y, axes along
z) into the world's x–z plane, so each angle is measured from the world x axis towards z.
"""

from __future__ import annotations

from collections.abc import Callable
from math import asin, atan2, cos, pi, radians, sin, sqrt

import numpy as np

from ..kinematics.loops import solve_loops
from ..model.body import RigidBody
from ..model.joint import Joint
from ..tree import RigidBodyTree
from .visuals import _pose_along

#: The linkage plane upright: local y → world z (the axes, local z → world −y).
_UPRIGHT = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]])
_LINK, _JOINT, _PASSIVE = (0.62, 0.66, 0.74, 1.0), (0.22, 0.24, 0.30, 1.0), (0.80, 0.55, 0.25, 1.0)


def _trans(x: float = 0.0, y: float = 0.0, z: float = 0.0) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = x, y, z
    return T


def _joint(tree: RigidBodyTree, name: str, parent: str, T: np.ndarray, kind: str = "revolute",
           axis: tuple[float, float, float] = (0.0, 0.0, 1.0), actuated: bool = True,
           limits: tuple[float, float] = (-2 * pi, 2 * pi)) -> None:
    """Add body ``name`` on ``parent`` by a ``kind`` joint at ``T`` (its frame in the parent's)."""
    body = RigidBody(name)
    j = Joint(name + "_joint", kind)
    j.set_fixed_transform(T)
    if kind != "fixed":
        j.axis = axis
        j.set_limits(limits, min(max(0.0, limits[0]), limits[1]))  # the home: set by _close
    body.joint = j
    tree.add_body(body, parent)
    if not actuated:
        tree.get_body(name).joint.actuated = False


def _close(tree: RigidBodyTree, guess: list[float], radius: float, sketch: Callable | None = None) -> RigidBodyTree:
    """Solve the passive joints from ``guess``, make that the home and give every body visuals:
    bars of ``radius`` from its joint to its children's joints and its loop frames."""
    # in numpy: loading a library robot never waits for the compiled solver's first compilation
    q = solve_loops(tree, np.array(guess, dtype=float), 1e-14, compiled=False)
    movers = [b for b in tree.bodies if b.joint.position_count]
    q = solve_loops(tree, np.array([(x + pi) % (2 * pi) - pi if b.joint.type == "revolute" else x  # in (−π, π]
                                    for b, x in zip(movers, q.tolist())]), 1e-14, compiled=False)
    for b, x in zip(movers, q.tolist()):
        b.joint.home_position = x
    ends: dict[str, list[np.ndarray]] = {b.name: [] for b in tree.bodies}
    for b in tree.bodies:
        parent = tree.parent_name(b.name)
        if parent in ends:
            ends[parent].append(b.joint.joint_to_parent_transform[:3, 3])
    for lp in tree.loops:
        for name, X in ((lp.body_a, lp.frame_a), (lp.body_b, lp.frame_b)):
            if name in ends:
                ends[name].append(X[:3, 3])
    for b in tree.bodies:
        j, shapes = b.joint, []
        colour = _JOINT if j.actuated else _PASSIVE
        if j.type == "revolute":
            shapes.append(("cylinder", (1.6 * radius, 3.2 * radius), _pose_along(j.axis, np.zeros(3)), colour))
        elif j.type == "prismatic":
            shapes.append(("box", (4 * radius,) * 3, _pose_along(j.axis, np.zeros(3)), colour))
        for p in ends[b.name]:
            n = float(np.linalg.norm(p))
            if n > 1e-9:
                shapes.append(("cylinder", (radius, n), _pose_along(p, p / 2), _LINK))
                shapes.append(("sphere", (radius,), _trans(*p), _LINK))
        for kind, size, pose, rgba in shapes:
            b.add_visual(kind, size, pose, rgba, name="mechanism")
    if sketch is not None:
        sketch(tree, radius)
    return tree


def four_bar() -> RigidBodyTree:
    """Crank-rocker four-bar (Freudenstein's closed form), a closed loop.

    Grashof crank-rocker: ground 0.4, crank 0.1, coupler 0.35, rocker 0.3 m. The crank (actuated)
    turns fully about the base pivot; coupler and rocker are passive, the coupler's far end pinned
    to the rocker's tip by a hinge loop. Freudenstein's equation gives the rocker angle (and the
    coupler's) for each crank angle, on two assembly branches.
    """
    t = RigidBodyTree()
    _joint(t, "crank", "base", _UPRIGHT)
    _joint(t, "coupler", "crank", _trans(0.1), actuated=False)
    _joint(t, "rocker", "base", _UPRIGHT @ _trans(0.4), actuated=False)
    t.add_loop("coupler_rocker", "coupler", _trans(0.35), "rocker", _trans(0.3), "hinge")
    return _close(t, [radians(60), radians(-40), radians(80)], 0.008)


def slider_crank() -> RigidBodyTree:
    """Offset slider-crank, a closed loop.

    Crank 0.1 m, connecting rod 0.35 m, the slider's line 0.02 m above the crank pivot. The crank
    is actuated; rod and slider are passive, the rod pinned to the slider by a hinge loop. The
    slider sits at x = a·cos θ + √(b² − (a·sin θ − e)²)."""
    t = RigidBodyTree()
    _joint(t, "crank", "base", _UPRIGHT)
    _joint(t, "rod", "crank", _trans(0.1), actuated=False)
    _joint(t, "slider", "base", _UPRIGHT @ _trans(0.0, 0.02), "prismatic", (1.0, 0.0, 0.0), actuated=False,
           limits=(0.0, 0.6))
    t.add_loop("rod_slider", "rod", _trans(0.35), "slider", np.eye(4), "hinge")
    return _close(t, [radians(45), radians(-15), 0.4], 0.008)


def parallelogram_arm() -> RigidBodyTree:
    """Parallelogram-linkage arm (palletizer style), a closed loop.

    Upper arm 0.5 m and forearm 0.6 m, the forearm driven from a second motor at the shoulder
    through a parallelogram (driver 0.12 m, rod 0.5 m) pinned 0.12 m behind the elbow. Both
    shoulder motors are actuated; forearm and rod are passive. The forearm points opposite the
    driver: its angle is the driver's plus π."""
    t = RigidBodyTree()
    _joint(t, "upper_arm", "base", _UPRIGHT)
    _joint(t, "forearm", "upper_arm", _trans(0.5), actuated=False)
    _joint(t, "driver", "base", _UPRIGHT)
    _joint(t, "rod", "driver", _trans(0.12), actuated=False)
    _joint(t, "tool", "forearm", _trans(0.6), "fixed")
    t.add_loop("rod_forearm", "rod", _trans(0.5), "forearm", _trans(-0.12), "hinge")
    up, drive = radians(70), radians(160)
    return _close(t, [up, drive + pi - up, drive, up - drive], 0.012)


def gripper_four_bar() -> RigidBodyTree:
    """Parallel-jaw gripper of two parallelogram four-bars, closed loops.

    Two fingers, each a parallelogram four-bar (crank and rocker 0.06 m,
    pivots 0.03 m apart, 0.02 m either side of the centre) whose coupler is the jaw, which stays
    upright as the crank turns. Each crank is actuated; rockers and jaws are passive."""
    t = RigidBodyTree()
    for side, sign in (("left", -1.0), ("right", 1.0)):
        flip = np.diag([sign, 1.0, sign, 1.0])  # the left finger turned half about y: its x points out
        base = _UPRIGHT @ _trans(sign * 0.02) @ flip
        _joint(t, f"{side}_crank", "base", base)
        _joint(t, f"{side}_jaw", f"{side}_crank", _trans(0.06), actuated=False)
        _joint(t, f"{side}_rocker", "base", base @ _trans(0.0, 0.03), actuated=False)
        _joint(t, f"{side}_tip", f"{side}_jaw", _trans(0.0, 0.05), "fixed")
        t.add_loop(f"{side}_jaw_rocker", f"{side}_jaw", _trans(0.0, 0.03), f"{side}_rocker", _trans(0.06), "hinge")
    a = radians(60)
    return _close(t, [a, -a, a, a, -a, a], 0.004)


#: How far each 3-RRR motor turns either side of its home (rad). Over ±2π only ~2 % of random
#: motor triples can be assembled; within ±60° of home a third (random sampling draws again).
PLANAR_3RRR_MOTOR_RANGE = radians(60)


def planar_3rrr() -> RigidBodyTree:
    """Planar 3-RRR parallel robot, closed loops.

    Base joints at the corners of a 1 m equilateral triangle, legs of
    two 0.4 m links, a triangular platform of side 0.2 m. The three base joints are actuated
    (each within 60° of its home); the elbows and the platform joints are passive (leg 1 carries
    the platform, legs 2 and 3 are pinned to it by hinge loops)."""
    L, t, guess = 0.4, RigidBodyTree(), []
    bases = [(0.0, 0.0), (1.0, 0.0), (0.5, sqrt(3) / 2)]
    attach = [(0.0, 0.0), (0.2, 0.0), (0.1, 0.1 * sqrt(3))]
    centre, phi = np.array([0.42, 0.3]), 0.2
    R = np.array([[cos(phi), -sin(phi)], [sin(phi), cos(phi)]])
    for k, (o, p) in enumerate(zip(bases, attach), 1):
        d = centre + R @ np.array(p) - np.array(o)  # the leg's closed-form IK (elbow on the left)
        t2 = np.arccos((d @ d - 2 * L * L) / (2 * L * L))
        t1 = atan2(d[1], d[0]) - atan2(L * sin(t2), L + L * cos(t2))
        reach = PLANAR_3RRR_MOTOR_RANGE
        _joint(t, f"leg{k}_proximal", "base", _trans(*o), limits=(t1 - reach, t1 + reach))
        _joint(t, f"leg{k}_distal", f"leg{k}_proximal", _trans(L), actuated=False)
        guess += [t1, t2]
        if k == 1:
            _joint(t, "platform", "leg1_distal", _trans(L), actuated=False)
            guess.append(phi - t1 - t2)
        else:
            t.add_loop(f"leg{k}_platform", f"leg{k}_distal", _trans(L), "platform", _trans(*p), "hinge")
    # the platform's centre, added last: the tree's end effector (the Pose dock's and IK handle's body)
    _joint(t, "tcp", "platform", _trans(*np.mean(attach, axis=0)), "fixed")
    return _close(t, guess, 0.01, _platform_plate(attach))


def _platform_plate(points: list[tuple[float, float]]) -> Callable[[RigidBodyTree, float], None]:
    def draw(tree: RigidBodyTree, radius: float) -> None:
        body = tree.get_body("platform")
        for p, q in zip(points, points[1:] + points[:1]):
            a, b = np.array([*p, 0.0]), np.array([*q, 0.0])
            body.add_visual("cylinder", (radius, float(np.linalg.norm(b - a))), _pose_along(b - a, (a + b) / 2),
                            _LINK, name="mechanism")
    return draw


#: Delta robot dimensions (m): motor axes R from the centre, upper arm L, forearm l, platform r.
DELTA = {"R": 0.2, "L": 0.35, "l": 0.8, "r": 0.05}
#: The motors' range (rad, positive: the arm down), as a real Delta's arms are stopped: with the
#: forearms modelled by universal joints, motors turned much further (±2π) also reach assemblies
#: with a tilted platform, which a parallelogram forearm cannot make (14 % of random draws).
DELTA_MOTOR_LIMITS = (radians(-45), radians(90))


def delta_robot() -> RigidBodyTree:
    """Delta robot (Clavel), closed loops: a translational parallel robot.

    Three motors 120° apart on the base (0.2 m from the centre, −45° to 90°), upper arms
    0.35 m, forearms 0.8 m, a platform of radius 0.05 m that only translates.

    Each forearm is modelled as its parallelogram's kinematics: a universal joint at the elbow (an
    axis along the motor's, then one across the parallelogram's plane) and one at the platform (the
    same two axes, in reverse order). Leg 1 carries the platform; legs 2 and 3 are pinned to it by
    hinge loops. The three motors (positive: the arm down) are actuated, the 10 other joints passive:
    the platform's centre (body ``tcp``) lies where the three spheres of radius l about the elbows,
    each moved by −r towards the centre, meet. Mobility 3.
    """
    R, L, l, r = DELTA["R"], DELTA["L"], DELTA["l"], DELTA["r"]
    t, theta = RigidBodyTree(), radians(30)
    z = -L * sin(theta) - sqrt(l * l - (R - r + L * cos(theta)) ** 2)  # the symmetric home's platform height
    guess: list[float] = []
    for k in range(3):
        phi = 2 * pi * k / 3
        u, w = np.array([cos(phi), sin(phi), 0.0]), np.array([-sin(phi), cos(phi), 0.0])
        M = np.eye(4)
        M[:3, :3] = np.column_stack([u, [0.0, 0.0, -1.0], w])  # x radial, y down, z (the motor axis) tangent
        M[:3, 3] = R * u
        leg = f"leg{k + 1}"
        _joint(t, f"{leg}_arm", "base", M, limits=DELTA_MOTOR_LIMITS)
        _joint(t, f"{leg}_elbow", f"{leg}_arm", _trans(L), actuated=False)
        _joint(t, f"{leg}_forearm", f"{leg}_elbow", np.eye(4), axis=(0.0, 1.0, 0.0), actuated=False)
        _joint(t, f"{leg}_wrist", f"{leg}_forearm", _trans(l), axis=(0.0, 1.0, 0.0), actuated=False)
        # the forearm's direction in the arm's frame gives the elbow and forearm angles (closed form)
        E = R * u + L * (cos(theta) * u - sin(theta) * np.array([0.0, 0.0, 1.0]))
        v = np.array([0.0, 0.0, z]) + r * u - E
        A = M[:3, :3] @ np.array([[cos(theta), -sin(theta), 0.0], [sin(theta), cos(theta), 0.0], [0.0, 0.0, 1.0]])
        vx, vy, vz = A.T @ v / l
        alpha, psi = atan2(vy, vx), asin(-vz)
        guess += [theta, alpha, psi, -psi]
        P = np.eye(4)
        P[:3, :3] = M[:3, :3].T  # the platform's frame level (world-aligned) at its attachment point
        if k == 0:
            _joint(t, "platform", f"{leg}_wrist", P, actuated=False)
            guess.append(-(theta + alpha))
        else:
            X = np.eye(4)
            X[:3, :3] = M[:3, :3]
            X[:3, 3] = r * u - r * np.array([1.0, 0.0, 0.0])  # from leg 1's attachment to this leg's
            t.add_loop(f"{leg}_platform", f"{leg}_wrist", np.eye(4), "platform", X, "hinge")
    # the platform joint turns about leg 1's last axis: the motor axis, in the platform's level frame
    t.get_body("platform").joint.axis = (0.0, 1.0, 0.0)
    # the platform's centre, added last: the tree's end effector (the Pose dock's and IK handle's body)
    _joint(t, "tcp", "platform", _trans(-r), "fixed")
    return _close(t, guess, 0.012)  # guess is in body order: leg 1, the platform, legs 2 and 3


#: ``{name: (make, source)}``, registered by :mod:`.library` (short citations: :mod:`.library_sources`).
MECHANISMS: dict[str, tuple[Callable[[], RigidBodyTree], str]] = {
    "four_bar": (four_bar, "Freudenstein, \"Approximate synthesis of four-bar linkages\", Trans. ASME 77 (1955) "
                 "853–861 (the crank-rocker's closed form)"),
    "slider_crank": (slider_crank, "Norton, Design of Machinery, 5th ed. (McGraw-Hill 2012): the offset slider-crank"),
    "parallelogram_arm": (parallelogram_arm, "Craig, Introduction to Robotics, 3rd ed. (Pearson 2005): "
                          "parallelogram-driven arms"),
    "gripper_four_bar": (gripper_four_bar, "Birglen, Laliberté & Gosselin, Underactuated Robotic Hands "
                         "(Springer 2008): the parallel four-bar finger"),
    "planar_3rrr": (planar_3rrr, "Gosselin & Angeles, \"The optimum kinematic design of a planar three-degree-"
                    "of-freedom parallel manipulator\", ASME J. Mech. Transm. Autom. Des. 110 (1988) 35–41"),
    "delta_robot": (delta_robot, "Clavel, \"DELTA, a fast robot with parallel geometry\", Proc. 18th Int. Symp. "
                    "on Industrial Robots (1988) 91–100"),
}
