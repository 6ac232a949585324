"""Primitive visuals for the library robots and for edited DH chains: a cylinder along each
link, a cylinder at each joint along its axis, coloured by a :class:`_Style`. No catalogue here
(that is :mod:`kinetree.core.library`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..model.body import RigidBody, Visual
from ..model.joint import Joint
from ..names import derived_name
from ..transforms import inverse_transform
from ..tree import RigidBodyTree


def _tz(d: float) -> np.ndarray:
    T = np.eye(4)
    T[2, 3] = d
    return T


RGBA = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Style:
    """Colours of a robot's primitive visuals and a scale on the automatic link radius."""

    link: RGBA = (0.55, 0.62, 0.75, 1.0)
    joint: RGBA = (0.25, 0.27, 0.32, 1.0)
    base: RGBA = (0.30, 0.30, 0.33, 1.0)
    tool: RGBA = (0.20, 0.20, 0.22, 1.0)
    scale: float = 1.0



# --- primitive visuals --------------------------------------------------------------------------

_EPS = 1e-9


def _pose_along(z: np.ndarray, origin: np.ndarray) -> np.ndarray:
    """A pose at ``origin`` whose z axis is the unit vector ``z``."""
    # scalar arithmetic: a frame drag refits a robot's ~25 poses at every commit, and numpy's
    # norm and cross cost ~10 µs each on 3-vectors
    a, b, c = (float(v) for v in z)
    n = math.sqrt(a * a + b * b + c * c)
    a, b, c = a / n, b / n, c / n
    if abs(a) < 0.9:  # x: the world x (else y) made perpendicular to z (0.0 - …: +0.0, not -0.0, as numpy)
        x = (1.0 - a * a, 0.0 - a * b, 0.0 - a * c)
    else:
        x = (0.0 - b * a, 1.0 - b * b, 0.0 - b * c)
    m = math.sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2])
    x0, x1, x2 = x[0] / m, x[1] / m, x[2] / m
    o = origin
    return np.array([[x0, b * x2 - c * x1, a, o[0]],
                     [x1, c * x0 - a * x2, b, o[1]],
                     [x2, a * x1 - b * x0, c, o[2]],
                     [0.0, 0.0, 0.0, 1.0]])


class _Sketch:
    """Primitive visuals per body, collected before the radius is known (sizes in link radii)."""

    def __init__(self) -> None:
        self.items: dict[str, list[tuple[str, str, tuple[float, ...], np.ndarray, str]]] = {}
        self.length = 0.0

    def add(self, body: str, kind: str, size: tuple[float, ...], pose: np.ndarray, colour: str, name: str) -> None:
        self.items.setdefault(body, []).append((kind, name, size, pose, colour))

    def rod(self, body: str, p: np.ndarray, q: np.ndarray, colour: str = "link", name: str = "link",
            thickness: float = 1.0) -> bool:
        """A cylinder from ``p`` to ``q``; ``size`` holds (radius factor, absolute length)."""
        n = float(np.linalg.norm(q - p))
        if n < _EPS:
            return False
        self.length += n
        self.add(body, "cylinder", (thickness, -n), _pose_along(q - p, (p + q) / 2), colour, name)
        return True

    def path(self, body: str, points: list[np.ndarray]) -> None:
        drawn = [self.rod(body, p, q) for p, q in zip(points, points[1:])]
        for k in range(1, len(points) - 1):
            if drawn[k - 1] and drawn[k]:
                self.add(body, "sphere", (1.0,), _pose_along(np.array([0.0, 0, 1]), points[k]), "link", "knee")


def _sketch(tree: RigidBodyTree, tool: np.ndarray | None) -> _Sketch:
    s = _Sketch()
    kids: dict[str, list[RigidBody]] = {tree.base_name: []}
    for b in tree.bodies:
        kids[b.name] = []
        kids[tree.parent_name(b.name) or tree.base_name].append(b)
    origin = np.zeros(3)
    for owner in (tree.base, *tree.bodies):
        name = owner.name
        if owner is not tree.base:
            j = owner.joint
            C = inverse_transform(j.child_to_joint_transform)
            j_in, knee = C[:3, 3], C[:3, 3]
            if j.type in ("revolute", "prismatic"):
                u = C[:3, :3] @ j.axis
                knee = j_in + u * np.dot(origin - j_in, u)
                if j.type == "revolute":
                    s.add(name, "cylinder", (1.35, 2.6), _pose_along(u, j_in), "joint", "joint")
                else:
                    s.add(name, "box", (2.4, 2.4, 2.4), _pose_along(u, j_in), "joint", "carriage")
            s.path(name, [j_in, knee, origin])
        for child in kids[name]:
            jc = child.joint
            P = jc.joint_to_parent_transform
            j_c, knee = P[:3, 3], P[:3, 3]
            if jc.type in ("revolute", "prismatic"):
                u = P[:3, :3] @ jc.axis
                knee = j_c + u * np.dot(origin - j_c, u)
                if jc.type == "prismatic":
                    lo, hi = (float(v) + jc.offset for v in jc.position_limits)
                    s.rod(name, j_c + min(lo, 0.0) * u, j_c + max(hi, 0.0) * u, "base", "rail", 0.7)
            s.path(name, [origin, knee, j_c])
        if owner is not tree.base and not kids[name]:
            end = np.eye(4) if tool is None else np.asarray(tool, dtype=float)
            s.path(name, [origin, end[:3, 3]])
            s.add(name, "cylinder", (0.9, 0.35), end, "tool", "flange")
    return s


def _add_visuals(tree: RigidBodyTree, style: _Style, tool: np.ndarray | None = None) -> RigidBodyTree:
    """Give every body primitive visuals derived from the tree's geometry (kinematics untouched).

    Each revolute joint gets a housing cylinder along its axis, each prismatic joint a carriage box
    and a rail on its parent over its travel; every body gets cylinders along its rigid skeleton — from
    where its own joint sits to its origin and from its origin to where its children's joints sit —
    bent at the foot of the common normal (so a standard-DH link shows its d then its a, a modified-DH
    link its a then its d); leaf bodies get a flange disc (at ``tool`` when given, in the leaf's
    frame). Geometry owned by the base (which draws nothing) is moved onto the first body when it is
    symmetric about that body's revolute axis, with a pedestal disc. Radii scale with the arm's
    total skeleton length.
    """
    if tree.num_bodies == 0:
        return tree
    s = _sketch(tree, tool)
    first = next((b for b in tree.bodies if tree.parent_name(b.name) == tree.base_name), None)
    moved: list[tuple[str, str, tuple[float, ...], np.ndarray, str]] = []
    if first is not None and first.joint.type == "revolute":
        P = first.joint.joint_to_parent_transform
        u, c0 = P[:3, :3] @ first.joint.axis, P[:3, 3]
        centre = c0 - u * np.dot(c0, u)  # the point of joint 1's axis nearest the base origin

        def on_axis(T: np.ndarray) -> bool:
            p = T[:3, 3] - c0
            return (np.linalg.norm(p - u * np.dot(p, u)) < 1e-9 and abs(abs(np.dot(T[:3, 2], u)) - 1) < 1e-9)

        to_first = inverse_transform(tree.get_transform(tree.home_configuration(), first.name))
        for kind, vname, size, pose, _colour in s.items.get(tree.base_name, []):
            if vname == "link" and on_axis(pose):
                moved.append((kind, "pedestal", size, to_first @ pose, "base"))
        moved.append(("cylinder", "plate", (2.2, 0.8), to_first @ _pose_along(u, centre), "base"))
    r = style.scale * min(max(0.032 * s.length, 0.01), 0.075)  # as _link_radius
    colours = {"link": style.link, "joint": style.joint, "base": style.base, "tool": style.tool}
    per_body: dict[str, list[Visual]] = {}
    for body, items in [*s.items.items(), *([(first.name, moved)] if first is not None and moved else [])]:
        if body == tree.base_name:
            continue
        for kind, vname, size, pose, colour in items:
            pose = np.array(pose, dtype=float)
            if kind == "cylinder" and size[1] < 0:
                dims: tuple[float, ...] = (size[0] * r, -size[1])
            else:
                dims = tuple(v * r for v in size)
            if vname in ("plate", "flange"):  # discs end at the frame they mark
                pose = pose @ _tz(-0.5 * dims[1])
            per_body.setdefault(body, []).append(Visual(kind, dims, pose, colours[colour], name=vname))
    for body in tree.bodies:
        body.visuals = per_body.get(body.name, [])
    return tree


#: Names of the visuals :func:`load_robot` derives from the geometry, and their colour role.
_AUTO_ROLES = {"link": "link", "knee": "link", "joint": "joint", "carriage": "joint", "rail": "base", "plate": "base",
               "pedestal": "base", "flange": "tool"}


def _link_radius(tree: RigidBodyTree, tool: np.ndarray | None) -> float:
    return min(max(0.032 * _sketch(tree, tool).length, 0.01), 0.075)


def derived_visuals_only(tree: RigidBodyTree) -> bool:
    """Whether ``tree`` has visuals and every one is derived from its geometry by
    :func:`load_robot` (so that :func:`refit_visuals` redraws them after a geometry edit)."""
    visuals = [v for b in tree.bodies for v in b.visuals]
    return bool(visuals) and all(v.name in _AUTO_ROLES for v in visuals)


@dataclass(frozen=True)
class DerivedLook:
    """How a tree's derived visuals look (colours, thickness, where the flange sits), to draw
    another geometry the same way with :meth:`apply`. A drag finds it once, at its start."""

    style: _Style
    tool: np.ndarray | None

    def apply(self, tree: RigidBodyTree) -> None:
        """Give ``tree`` visuals derived from its own geometry in this look."""
        if tree.num_bodies:
            _add_visuals(tree, self.style, self.tool)


def derived_look(tree: RigidBodyTree) -> DerivedLook | None:
    """The look of ``tree``'s visuals when every one is derived from its geometry (see
    :func:`derived_visuals_only`); None when it has visuals of the user's own."""
    if not derived_visuals_only(tree):
        return None
    visuals = [v for b in tree.bodies for v in b.visuals]
    colours = {}
    for v in visuals:
        colours.setdefault(_AUTO_ROLES[v.name], v.color)
    default = _Style()
    style = _Style(link=colours.get("link", default.link), joint=colours.get("joint", default.joint),
                   base=colours.get("base", default.base), tool=colours.get("tool", default.tool))
    # a flange may sit at a tool transform beyond the last frame (Panda): recover it from the disc
    flange = next((v for v in tree.bodies[-1].visuals if v.name == "flange" and v.kind == "cylinder"), None)
    tool = flange.matrix @ _tz(0.5 * flange.size[1]) if flange is not None else None
    link = next((v for v in visuals if v.name == "link" and v.kind == "cylinder"), None)
    style = replace(style, scale=link.size[0] / _link_radius(tree, tool) if link is not None else 1.0)
    return DerivedLook(style, tool)


def refit_visuals(before: RigidBodyTree, after: RigidBodyTree) -> bool:
    """Redraw derived visuals after a geometry edit (a DH row changed, say).

    When every visual of ``before`` is one that :func:`load_robot` derived from the geometry,
    give ``after`` visuals derived the same way from its own geometry, with the same colours and
    thickness, and return True; otherwise leave ``after`` alone and return False (the user's own
    visuals are never replaced)."""
    look = derived_look(before)
    if look is None or after.num_bodies == 0:
        return False
    look.apply(after)
    return True


def _add_tool(tree: RigidBodyTree, T: np.ndarray, name: str = "flange") -> RigidBodyTree:
    """Append a fixed body ``name`` at ``T`` in the last body's frame."""
    body = RigidBody(name)
    joint = Joint(derived_name(name, "_joint"), "fixed")
    joint.set_fixed_transform(T)
    body.joint = joint
    tree.add_body(body, tree.body_names[-1])
    return tree
