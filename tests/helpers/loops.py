"""Closed-loop mechanisms (four-bar, 3-RRR) and their closed-form answers."""

from __future__ import annotations

import math

import numpy as np
from kinetree.core import Joint, RigidBody, RigidBodyTree

GROUND, CRANK, COUPLER, ROCKER = 0.4, 0.1, 0.35, 0.3


def trans(x: float, y: float = 0.0) -> np.ndarray:
    T = np.eye(4)
    T[0, 3], T[1, 3] = x, y
    return T


def add(tree: RigidBodyTree, name: str, parent: str, T: np.ndarray) -> None:
    body = RigidBody(name)
    j = Joint(name + "_joint", "revolute")
    j.set_fixed_transform(T)
    body.joint = j
    tree.add_body(body, parent)


def tilted_loop(kind: str) -> RigidBodyTree:
    """Three revolute joints (the last about x, so the loop leaves the plane) and a loop of ``kind``."""
    t = RigidBodyTree()
    add(t, "l1", "base", np.eye(4))
    add(t, "l2", "l1", trans(0.3))
    j = Joint("tilt", "revolute")
    j.axis = [1.0, 0.0, 0.0]
    b = RigidBody("l3")
    b.joint = j
    t.add_body(b, "l2")
    X = np.eye(4)
    X[:3, 3] = [0.1, 0.05, -0.02]
    t.add_loop("k", "l3", X, "base", trans(0.2, 0.1), kind)
    return t


def four_bar(a: float = CRANK, b: float = COUPLER, c: float = ROCKER, d: float = GROUND,
             kind: str = "hinge") -> RigidBodyTree:
    """Crank at the origin, rocker at (d, 0), the coupler on the crank closed to the rocker's tip."""
    t = RigidBodyTree()
    add(t, "crank", "base", np.eye(4))
    add(t, "coupler", "crank", trans(a))
    add(t, "rocker", "base", trans(d))
    t.add_loop("close", "coupler", trans(b), "rocker", trans(c), kind)
    t.get_body("coupler").joint.actuated = False
    t.get_body("rocker").joint.actuated = False
    return t


def tipped_four_bar() -> RigidBodyTree:
    """The test four-bar, its home closed on the open branch, a fixed body at the coupler's end."""
    t = four_bar()
    q = t.solve_loops(np.array([0.0, 1.0, 1.9]))
    for b, x in zip(t.bodies, q):
        b.joint.home_position = float(x)
    tip = RigidBody("tip")
    j = Joint("tip_joint", "fixed")
    j.set_fixed_transform(trans(COUPLER))
    tip.joint = j
    t.add_body(tip, "coupler")  # where the coupler meets the rocker: on Freudenstein's coupler curve
    return t


def freudenstein(th2: float, a: float = CRANK, b: float = COUPLER, c: float = ROCKER, d: float = GROUND) -> float:
    """Rocker angle of the open branch (Norton's closed form of Freudenstein's equation)."""
    k1, k2, k3 = d / a, d / c, (a * a - b * b + c * c + d * d) / (2 * a * c)
    A = math.cos(th2) - k1 - k2 * math.cos(th2) + k3
    B = -2 * math.sin(th2)
    C = k1 - (k2 + 1) * math.cos(th2) + k3
    return 2 * math.atan2(-B - math.sqrt(B * B - 4 * A * C), 2 * A)


def wrap(x: float) -> float:
    return (x + math.pi) % (2 * math.pi) - math.pi


def three_rrr() -> tuple[RigidBodyTree, np.ndarray, np.ndarray]:
    """A planar 3-RRR parallel robot: leg 1 carries the platform, legs 2 and 3 close on it by
    hinges. Returns the tree, a closed configuration built leg by leg, and the platform pose."""
    t = RigidBodyTree()
    L = 0.4
    bases = [(0.0, 0.0), (1.0, 0.0), (0.5, math.sqrt(3) / 2)]
    attach = [(0.0, 0.0), (0.2, 0.0), (0.1, 0.2 * math.sqrt(3) / 2)]  # in the platform frame
    centre, phi = np.array([0.42, 0.3]), 0.2
    R = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    q = []
    for k, (o, p) in enumerate(zip(bases, attach), 1):
        target = centre + R @ np.array(p) - np.array(o)
        c2 = (target @ target - 2 * L * L) / (2 * L * L)
        t2 = math.acos(c2)  # elbow up
        t1 = math.atan2(target[1], target[0]) - math.atan2(L * math.sin(t2), L + L * math.cos(t2))
        add(t, f"leg{k}a", "base", trans(*o))
        add(t, f"leg{k}b", f"leg{k}a", trans(L))
        q += [t1, t2]
        t.get_body(f"leg{k}b").joint.actuated = False
        if k == 1:
            add(t, "platform", "leg1b", trans(L))
            t.get_body("platform").joint.actuated = False
            q.append(phi - t1 - t2)
        else:
            t.add_loop(f"leg{k}", f"leg{k}b", trans(L), "platform", trans(*p), "hinge")
    T = np.eye(4)
    T[:2, :2], T[:2, 3] = R, centre
    return t, np.array(q), T


G = 9.81


#: (mass kg, centre of mass along the link's x axis m, inertia about the centre kg·m²) per link
LINKS = {"crank": (0.5, 0.05, 2e-4), "coupler": (1.2, 0.2, 1.5e-2), "rocker": (0.9, 0.12, 8e-3)}


def heavy_four_bar(kind: str = "hinge") -> RigidBodyTree:
    """The test four-bar (tests/core/test_loops.py) with mass, under gravity along −y (its plane)."""
    t = four_bar(kind=kind)
    for name, (m, c, Ic) in LINKS.items():
        b = t.get_body(name)
        b.mass, b.center_of_mass = m, (c, 0.0, 0.0)
        Io = Ic + m * c * c  # about the body origin, as KineTree stores it
        b.inertia = (Ic, Io, Io, 0.0, 0.0, 0.0)
    t.gravity = (0.0, -G, 0.0)
    return t


def closed(t: RigidBodyTree, crank: float = 0.7) -> np.ndarray:
    """The closed configuration at ``crank`` on the open branch, walked to from crank 0."""
    q = t.solve_loops(np.array([0.0, 1.0, 1.9]))
    for th in np.linspace(0.0, crank, 1 + math.ceil(abs(crank) / 0.1))[1:]:
        q[0] = th
        q = t.solve_loops(q)
    return q


def consistent_rates(t: RigidBodyTree, q: np.ndarray, crank_rate: float) -> np.ndarray:
    """Joint velocities with the crank at ``crank_rate`` that keep the loop closed (J q̇ = 0)."""
    J = t.constraint_jacobian(q)
    qd = np.zeros(3)
    qd[0] = crank_rate
    qd[1:] = np.linalg.lstsq(J[:, 1:], -J[:, 0] * crank_rate, rcond=None)[0]
    return qd


def three_spheres(centres: list[np.ndarray], radius: float) -> np.ndarray:
    """The lower meeting point of three spheres of equal ``radius`` (trilateration)."""
    c1, c2, c3 = centres
    d = float(np.linalg.norm(c2 - c1))
    ex = (c2 - c1) / d
    i = float(ex @ (c3 - c1))
    ey = c3 - c1 - i * ex
    j = float(np.linalg.norm(ey))
    ey /= j
    ez = np.cross(ex, ey)
    x = d / 2
    y = (i * i + j * j - 2 * i * x) / (2 * j)
    z = math.sqrt(radius * radius - x * x - y * y)
    p, m = c1 + x * ex + y * ey + z * ez, c1 + x * ex + y * ey - z * ez
    return p if p[2] < m[2] else m


def delta_platform(R: float, L: float, ell: float, r: float, angles) -> np.ndarray:
    """A Delta robot's platform centre for its motor ``angles`` (positive: the arm down), motors 120°
    apart at radius ``R``, arms ``L``, forearms ``ell``, platform radius ``r``: where the three
    spheres of radius ``ell`` about the elbows, each moved by −r towards the centre, meet."""
    centres = []
    for k, th in enumerate(angles):
        u = np.array([math.cos(2 * math.pi * k / 3), math.sin(2 * math.pi * k / 3), 0.0])
        elbow = R * u + L * (math.cos(th) * u - math.sin(th) * np.array([0.0, 0.0, 1.0]))
        centres.append(elbow - r * u)
    return three_spheres(centres, ell)
