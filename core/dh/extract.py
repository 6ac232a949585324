"""DH tables from a chain's geometry ("URDF → DH").

:func:`extract_dh` takes any :class:`~kinetree.core.tree.RigidBodyTree` (built from DH rows or
from plain 4×4 matrices, as imported from URDF) and a tip body, and computes the standard
(``"dh"``) or modified (``"mdh"``, Craig) DH table of the serial path base → tip by the
common-normal construction, from the joint axes and origins at q = 0 alone. Stored DH rows are
not used. Fixed joints on the path are absorbed; a ``base`` transform (tree base → DH frame 0)
and a ``tool`` transform (last DH frame → tip body) take up what a DH table cannot hold, so any
serial chain of revolute/prismatic joints is DH-expressible.

Conventions (the classic ones, made deterministic):

- Every DH z axis points along its joint's axis (never against it), so no row needs ``flip``
  and q keeps its sign; joint limits and home positions carry over unchanged.
- The θ (revolute) or d (prismatic) the construction finds at q = 0 becomes the row's Corke
  ``offset`` and the variable's own cell is 0, so q = 0 is the same pose as in the tree.
- Skew axes: x_i along the common normal from axis i to axis i+1, so a_i > 0.
- Intersecting axes: a_i = 0, x_i = ±z_{i-1}×z_i, the sign that keeps |θ_i| ≤ 90° at q = 0
  (+ on a tie).
- Parallel axes: the common normal through the previous frame's origin, so d_i = 0.
- Coincident axes: a_i = 0, d_i = 0, x_i = x_{i-1} (θ_i = 0).
- A prismatic axis's line is free (only its direction matters): it is moved to meet the next
  axis (a = 0) — or, for the last joint, to pass through the tip origin — and, where that
  still leaves a choice, to meet the previous axis too (a = 0 on both sides), else as close as
  possible to the previous frame / its own joint origin.
- Standard DH frame 0: on joint 1's axis at the foot of the tree base origin, x_0 along the
  base x axis (projected), so that ``base`` is the identity when joint 1's axis is the base z
  axis. Modified DH frame 0: the tree base itself when it is a valid frame 0 (its x axis is
  perpendicular to and meets joint 1's axis), else frame 1 at q = 0 (row 1 = 0, Craig's choice).
- Last frame: the tip body frame itself when it is a valid DH frame (``tool`` = I); otherwise,
  standard DH: origin at the tip origin, x_n along the perpendicular from the last axis to it
  (or the tip's x projected when the tip origin is on the axis), z_n the tip's z projected;
  modified DH: origin at the foot of the tip origin on the last axis, x_n chosen likewise.

Axes closer than ``tol`` (sine of the angle) to parallel are treated as parallel and
distances below ``tol`` × the chain's size as zero; :attr:`DHExtraction.residual` reports how
far the rows are from reproducing the geometry (≈ 1e-16 unless something was snapped).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..errors import KineTreeError
from ..model.body import RigidBody, Visual
from ..model.joint import Joint
from ..names import derived_name
from ..transforms import dh_transform, inverse_transform, mdh_transform
from ..tree import RigidBodyTree, unique_name
from .chain import DHLink, chain_path, dh_joint

__all__ = ["DHExtraction", "DHStatus", "NotDHExpressibleError", "dh_report", "extract_dh"]

_SNAP = 1e-13  # parameters this close to 0 / multiples of 90° are written exactly


class NotDHExpressibleError(KineTreeError):
    """The path base → tip cannot be written as a DH table (it has a joint with more than one
    degree of freedom, or a mimic joint)."""


class DHStatus(NamedTuple):
    """One movable body on the path: ``reason`` is ``""`` when its joint can be a DH row."""

    body: str
    reason: str

    @property
    def ok(self) -> bool:
        return not self.reason


def _joint_problem(joint: Joint) -> str:
    if joint.velocity_count > 1:
        return f"a {joint.type} joint has {joint.velocity_count} degrees of freedom; a DH row has one"
    if getattr(joint, "mimic", None) is not None:
        return (f"a mimic joint (it follows joint {joint.mimic.joint!r}) has no variable of its own; "
                "a DH row needs one")
    return ""


def dh_report(tree: RigidBodyTree, tip: str | None = None) -> list[DHStatus]:
    """Every non-fixed joint on the path base → ``tip`` (default: the last body), with the
    reason it cannot be a DH row (``""`` when it can). Fixed joints are absorbed, so they are
    not listed."""
    out = []
    for name in chain_path(tree, tip):
        j = tree.get_body(name).joint
        if j.type != "fixed":
            out.append(DHStatus(name, _joint_problem(j)))
    return out


@dataclass
class DHExtraction:
    """A DH table extracted from a tree: ``tree tip pose = base · A_1(q_1) ⋯ A_n(q_n) · tool``.

    ``links`` hold the moving bodies' names (``name``) and joint names, limits and offsets;
    ``base`` is the pose of DH frame 0 in the tree base, ``tool`` the tip body in the last DH
    frame. ``tip`` is the tip body's name in the original tree and ``base_name`` its base's.
    ``residual`` is the largest entry of ``A_i − DH(row_i)`` (rounding level unless nearly
    parallel axes or nearly meeting lines were snapped).
    """

    links: list[DHLink]
    base: np.ndarray
    tool: np.ndarray
    convention: str = "dh"
    base_name: str = "base"
    tip: str = ""
    residual: float = 0.0
    _extras: dict = field(default_factory=dict, repr=False)

    def _names(self) -> tuple[str | None, str | None]:
        taken = {self.base_name} | {link.name for link in self.links}
        base_body = None
        if (_needs_body(self.base) or self._extras.get("base_visuals")
                or self._extras.get("base_inertial") is not None):
            base_body = unique_name("dh_base", taken)
        tool_body = None
        if _needs_body(self.tool) or not self.links or self.tip != self.links[-1].name:
            tool_body = self.tip if self.tip and self.tip not in taken else unique_name("tool", taken)
        return base_body, tool_body

    @property
    def tip_name(self) -> str:
        """Name of the body of :meth:`to_tree` posed as the original tip."""
        tool_body = self._names()[1]
        if tool_body is not None:
            return tool_body
        return self.links[-1].name if self.links else self.base_name

    def to_tree(self) -> RigidBodyTree:
        """A tree: a fixed base body (when ``base`` ≠ I), one body per DH row (bodies and joints
        named as in the original), and a fixed tool body, whose :attr:`tip_name` body has the
        original tip pose at every configuration (q = the path's movable joints, in order).
        Visuals and inertia of the moving bodies (and of the fixed bodies absorbed into them)
        are carried over, re-expressed in the DH frames; the fixed bodies before the first joint
        give the base body theirs. The tree's gravity and its base body (mass, centre of mass,
        inertia, visuals, collisions, extensions), which a DH table does not describe, stay."""
        tree = RigidBodyTree(self.base_name, self._extras.get("gravity", (0.0, 0.0, 0.0)))
        if (base := self._extras.get("base")) is not None:  # the DH table does not describe the base
            tree._take_base_properties(base)
        base_body, tool_body = self._names()
        joint_names = {link.joint_name for link in self.links}
        parent = self.base_name
        if base_body is not None:
            body = RigidBody(base_body)
            body.joint = _fixed_joint(unique_name(derived_name(base_body, "_fixed"), joint_names), self.base)
            if (inertial := self._extras.get("base_inertial")) is not None:  # fixed bodies before joint 1
                body.mass, body.center_of_mass = inertial[:2]
                body._set_inertia_as_read(inertial[2])  # the original bodies' tensors, moved
            else:
                body.mass, body.inertia = 0.0, np.zeros(6)
            body.visuals = self._extras.get("base_visuals", ())
            tree.add_body(body, parent)
            parent = base_body
        inertials = self._extras.get("inertials", [None] * len(self.links))
        for k, link in enumerate(self.links):
            body = RigidBody(link.name or unique_name("link", {b for b in tree.body_names} | {self.base_name}))
            body.joint = dh_joint(link, link.joint_name or unique_name("q", joint_names), self.convention)
            if inertials[k] is not None:
                body.mass, body.center_of_mass = inertials[k][:2]
                body._set_inertia_as_read(inertials[k][2])
            body.visuals = tuple(link.visuals)
            tree.add_body(body, parent)
            parent = body.name
        if tool_body is not None:
            body = RigidBody(tool_body)
            body.joint = _fixed_joint(unique_name(derived_name(tool_body, "_fixed"), joint_names), self.tool)
            body.mass, body.inertia = 0.0, np.zeros(6)
            tree.add_body(body, parent)
        poses = self._extras.get("named_poses")
        if poses is not None:  # the path's joints keep their values (q_i is the original joint's)
            tree._named_poses = poses._copy_for(tree, (link.joint_name for link in self.links))
        return tree


def _needs_body(T: np.ndarray) -> bool:
    return bool(np.abs(T - np.eye(4)).max() > _SNAP)


def _fixed_joint(name: str, T: np.ndarray) -> Joint:
    j = Joint(name, "fixed")
    j.set_fixed_transform(T)
    return j


# --- geometry ----------------------------------------------------------------------------------

def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def _perp(v: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Component of ``v`` perpendicular to the unit ``u``."""
    return v - (v @ u) * u


def _frame(origin: np.ndarray, z: np.ndarray, x: np.ndarray) -> np.ndarray:
    z = _unit(z)
    x = _unit(_perp(x, z))
    F = np.eye(4)
    F[:3, 0], F[:3, 1], F[:3, 2], F[:3, 3] = x, np.cross(z, x), z, origin
    return F


def _perp_direction(u: np.ndarray, *candidates: np.ndarray) -> np.ndarray:
    """The candidate with the largest component perpendicular to ``u``, made perpendicular."""
    best = max((_perp(c, u) for c in candidates), key=np.linalg.norm)
    return _unit(best)


class _Line:
    __slots__ = ("kind", "p", "u", "p_joint")

    def __init__(self, kind: str, p: np.ndarray, u: np.ndarray) -> None:
        self.kind, self.p, self.u, self.p_joint = kind, p, u, p.copy()


def _place_prismatic(lines: list[_Line], base_origin: np.ndarray, tip_origin: np.ndarray,
                     tol_ang: float, tol_len: float) -> None:
    """Move each prismatic axis's line (free, only its direction matters) to meet the next axis
    (through the tip origin for the last joint), and the previous one where possible."""
    n = len(lines)
    for k in range(n - 1, -1, -1):
        line = lines[k]
        if line.kind != "P":
            continue
        u = line.u
        if k == n - 1:
            line.p = tip_origin.copy()
            continue
        nxt = lines[k + 1]
        a = _perp(nxt.u, u)
        if np.linalg.norm(a) < tol_ang:  # next axis parallel: make them coincide
            line.p = nxt.p.copy()
            continue
        base_p = _perp(nxt.p, u)
        target = line.p_joint  # fallback: as close as possible to the joint's own origin
        if k == 0:
            target = base_origin
        elif lines[k - 1].kind == "R":
            prev = lines[k - 1]
            b = _perp(prev.u, u)
            if np.linalg.norm(b) < tol_ang:  # previous axis parallel to this one: a point
                target = prev.p
            else:
                axb = np.cross(a, b)
                if np.linalg.norm(axb) > tol_ang * np.linalg.norm(a) * np.linalg.norm(b):
                    s = np.cross(_perp(prev.p, u) - base_p, b) @ axb / (axb @ axb)
                    line.p = nxt.p + s * nxt.u
                    continue
                target = prev.p
        s = -((base_p - _perp(target, u)) @ a) / (a @ a)
        line.p = nxt.p + s * nxt.u


def _common_normal(o_prev: np.ndarray, x_prev: np.ndarray, ua: np.ndarray, B: _Line,
                   tol_ang: float, tol_len: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Common normal from line A (through ``o_prev``, direction ``ua``) to line B: unit
    direction x and feet P on A and Q on B, with the conventions of the module docstring."""
    ub = B.u
    c = np.cross(ua, ub)
    s = float(np.linalg.norm(c))
    if s > tol_ang:
        w0 = o_prev - B.p
        b = ua @ ub
        d, e = ua @ w0, ub @ w0
        t = (b * e - d) / (s * s)
        r = (e - b * d) / (s * s)
        P, Q = o_prev + t * ua, B.p + r * ub
        n = c / s
        dist = (Q - P) @ n
        if abs(dist) > tol_len:
            x = n if dist > 0 else -n
        else:
            x = -n if n @ x_prev < -1e-12 else n
        return x, P, Q
    w = B.p - o_prev
    r = _perp(w, ua)
    if np.linalg.norm(r) > tol_len:
        x = _unit(r)
        return x, o_prev.copy(), o_prev + r
    return x_prev.copy(), o_prev.copy(), o_prev.copy()


def _snap_angle(v: float) -> float:
    q = round(v / (math.pi / 2))
    if abs(v - q * math.pi / 2) < _SNAP:
        v = q * math.pi / 2
    if v <= -math.pi:
        v += 2 * math.pi
    return v


def _snap(v: float) -> float:
    return 0.0 if abs(v) < _SNAP else v


def _std_row(A: np.ndarray) -> tuple[float, float, float, float]:
    theta = _snap_angle(math.atan2(A[1, 0], A[0, 0]))
    alpha = _snap_angle(math.atan2(A[2, 1], A[2, 2]))
    a = _snap(A[0, 3] * math.cos(theta) + A[1, 3] * math.sin(theta))
    return a, alpha, _snap(A[2, 3]), theta


def _mdh_row(A: np.ndarray) -> tuple[float, float, float, float]:
    theta = _snap_angle(math.atan2(-A[0, 1], A[0, 0]))
    alpha = _snap_angle(math.atan2(-A[1, 2], A[2, 2]))
    d = _snap(-math.sin(alpha) * A[1, 3] + math.cos(alpha) * A[2, 3])
    return _snap(A[0, 3]), alpha, d, theta


# --- inertia and visuals -------------------------------------------------------------------------

def _inertia_matrix(v: np.ndarray) -> np.ndarray:
    ixx, iyy, izz, iyz, ixz, ixy = v
    return np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])


def _shift(m: float, c: np.ndarray) -> np.ndarray:
    return m * ((c @ c) * np.eye(3) - np.outer(c, c))


def _add_inertial(acc: list | None, body: RigidBody, G: np.ndarray) -> list:
    """Add ``body``'s inertia, moved by ``G`` (its frame in the target frame), to ``acc``
    ``[mass, mass·com, inertia about the target origin]``."""
    m, c = body.mass, body.center_of_mass
    R = G[:3, :3]
    I_com = _inertia_matrix(body.inertia) - _shift(m, c)
    c2 = R @ c + G[:3, 3]
    I2 = R @ I_com @ R.T + _shift(m, c2)
    if acc is None:
        return [m, m * c2, I2]
    return [acc[0] + m, acc[1] + m * c2, acc[2] + I2]


def _finish_inertial(acc: list) -> tuple[float, np.ndarray, np.ndarray]:
    m, mc, I = acc
    com = mc / m if m > 0 else np.zeros(3)
    inertia = np.array([I[0, 0], I[1, 1], I[2, 2], I[1, 2], I[0, 2], I[0, 1]])
    inertia[:3] = np.maximum(inertia[:3], 0.0)  # rounding below zero
    return m, com, inertia


def _moved_visuals(body: RigidBody, G: np.ndarray) -> list[Visual]:
    out = []
    for v in body.visuals:
        out.append(Visual(v.kind, v.size, G @ v.matrix, v.color, v.filename, v.name))
    return out


# --- extraction ----------------------------------------------------------------------------------

def extract_dh(tree: RigidBodyTree, tip: str | None = None, convention: str = "dh",
               tol: float = 1e-9) -> DHExtraction:
    """The standard (``"dh"``) or modified (``"mdh"``) DH table of the path base → ``tip``
    (default: the last body), from the joints' axes and origins at q = 0.

    Raises :class:`NotDHExpressibleError` naming the first joint on the path that is
    floating, spherical, planar or a mimic joint. See the module docstring for the conventions.
    """
    if convention not in ("dh", "mdh"):
        raise KineTreeError(f"DH convention must be 'dh' or 'mdh', got {convention!r}")
    path = chain_path(tree, tip)
    tip_name = path[-1] if path else (tip or tree.base_name)
    tree.get_body(tip_name)  # unknown tip → UnknownBodyError
    for name in path:
        j = tree.get_body(name).joint
        problem = _joint_problem(j)
        if problem:
            raise NotDHExpressibleError(
                f"body {name!r}, joint {j.name!r}: {problem}, so the path to {tip_name!r} has no DH table"
            )
    # rest poses: the path's joints at q = 0 (the rest at home; they do not move the path)
    q0 = tree.home_configuration()
    for name in path:
        if tree.get_body(name).joint.position_count:
            q0[tree.position_index(tree.get_body(name).joint.name)] = 0.0
    poses = {tree.base_name: np.eye(4)}
    if tree.num_bodies:
        poses.update(zip(tree.body_names, tree.forward_kinematics(q0)))
    T_tip = poses[tip_name]

    movable = [name for name in path if tree.get_body(name).joint.type != "fixed"]
    lines = []
    for name in movable:
        j = tree.get_body(name).joint
        P = poses[tree.parent_name(name)] @ j.joint_to_parent_transform
        lines.append(_Line("R" if j.type == "revolute" else "P", P[:3, 3].copy(), _unit(P[:3, :3] @ j.axis)))
    n = len(lines)
    if n == 0:
        return DHExtraction([], np.eye(4), T_tip.copy(), convention, tree.base_name, tip_name, 0.0,
                            _collect_extras(tree, path, movable, [], np.eye(4), poses))

    pts = [T_tip[:3, 3]] + [ln.p for ln in lines]
    scale = max(1.0, max(float(np.abs(p).max()) for p in pts))
    tol_ang, tol_len = tol, tol * scale
    _place_prismatic(lines, np.zeros(3), T_tip[:3, 3], tol_ang, tol_len)

    u1 = lines[0].u
    # reference frame 0 on axis 1 (standard DH; modified DH when the base is not a valid frame 0)
    Q0 = lines[0].p + ((-lines[0].p) @ u1) * u1
    px = _perp(np.array([1.0, 0.0, 0.0]), u1)  # base x projected (base y if x is nearly axis 1)
    x0 = _unit(px) if np.linalg.norm(px) > 1e-3 else _unit(_perp(np.array([0.0, 1.0, 0.0]), u1))
    mdh_base_ok = False
    if convention == "mdh":
        bx = np.array([1.0, 0.0, 0.0])
        if abs(bx @ u1) < tol_ang:
            cxu = np.cross(bx, u1)
            if abs(lines[0].p @ cxu) / np.linalg.norm(cxu) < tol_len:  # the x axis meets axis 1
                mdh_base_ok = True
                # intersection of the base x axis with axis 1
                t = np.cross(lines[0].p, u1) @ cxu / (cxu @ cxu)
                Q0, x0 = t * bx, bx

    xs, Ps, Qs = [x0], [None], [Q0]
    for i in range(1, n):
        x, P, Q = _common_normal(Qs[-1], xs[-1], lines[i - 1].u, lines[i], tol_ang, tol_len)
        xs.append(x)
        Ps.append(P)
        Qs.append(Q)

    # last frame
    o_t, X_t, Y_t, Z_t = T_tip[:3, 3], T_tip[:3, 0], T_tip[:3, 1], T_tip[:3, 2]
    un, on = lines[-1].u, Qs[-1]
    w = o_t - on
    r = _perp(w, un)
    on_axis = np.linalg.norm(r) <= tol_len
    if convention == "dh":
        uxX = np.cross(un, X_t)
        if abs(X_t @ un) < tol_ang and abs(w @ uxX) < tol_len * max(np.linalg.norm(uxX), 1e-300):
            Fn = T_tip.copy()
        else:
            x = _perp_direction(un, X_t, Y_t) if on_axis else _unit(r)
            zt = _perp(Z_t, x)
            z = _unit(zt) if np.linalg.norm(zt) > 1e-6 else un
            Fn = _frame(o_t, z, x)
        frames = [_frame(Qs[0], u1, xs[0])]
        frames += [_frame(Qs[i], lines[i].u, xs[i]) for i in range(1, n)]
        frames.append(Fn)
    else:
        if on_axis and Z_t @ un > 1 - tol_ang:
            Fn = T_tip.copy()
        else:
            x = _perp_direction(un, X_t, Y_t) if on_axis else _unit(r)
            Fn = _frame(on + (w @ un) * un, un, x)
        frames = [None]
        frames += [_frame(Ps[i], lines[i - 1].u, xs[i]) for i in range(1, n)]
        frames.append(Fn)
        frames[0] = np.eye(4) if mdh_base_ok else frames[1].copy()

    links, residual = [], 0.0
    for k, name in enumerate(movable):
        A = inverse_transform(frames[k]) @ frames[k + 1]
        if convention == "dh":
            a, alpha, d, theta = _std_row(A)
            residual = max(residual, float(np.abs(A - dh_transform(a, alpha, d, theta)).max()))
        else:
            a, alpha, d, theta = _mdh_row(A)
            residual = max(residual, float(np.abs(A - mdh_transform(a, alpha, d, theta)).max()))
        j = tree.get_body(name).joint
        lo, hi = j.position_limits
        if lines[k].kind == "R":
            link = DHLink("R", a=a, alpha=alpha, d=d, theta=0.0, offset=theta, qlim=(float(lo), float(hi)))
        else:
            link = DHLink("P", a=a, alpha=alpha, d=0.0, theta=theta, offset=d, qlim=(float(lo), float(hi)))
        link.name, link.joint_name, link.home = name, j.name, float(j.home_position)
        links.append(link)
    base = frames[0]
    tool = inverse_transform(frames[-1]) @ T_tip
    if not _needs_body(tool):
        tool = np.eye(4)
    if not _needs_body(base):
        base = np.eye(4)
    extras = _collect_extras(tree, path, movable, frames[1:], base, poses)
    for link, vis in zip(links, extras.pop("link_visuals")):
        link.visuals = vis
    return DHExtraction(links, base, tool, convention, tree.base_name, tip_name, residual, extras)


def _collect_extras(tree: RigidBodyTree, path: list[str], movable: list[str], frames: list[np.ndarray],
                    base: np.ndarray, poses: dict) -> dict:
    """Visuals and inertia of the path's bodies, re-expressed in the frame they are rigid with:
    DH frame k for the moving body k and the fixed bodies after it, frame 0 (``base``) for the
    fixed bodies before the first movable joint."""
    owner = -1
    link_visuals: list[list[Visual]] = [[] for _ in movable]
    inertials: list = [None] * len(movable)
    base_visuals: list[Visual] = []
    base_inertial = None
    for name in path:
        body = tree.get_body(name)
        if body.joint.type != "fixed":
            owner += 1
        F = base if owner < 0 else frames[owner]
        G = inverse_transform(F) @ poses[name]
        if owner < 0:
            base_visuals += _moved_visuals(body, G)
            if body.mass > 0:
                base_inertial = _add_inertial(base_inertial, body, G)
        else:
            link_visuals[owner] += _moved_visuals(body, G)
            inertials[owner] = _add_inertial(inertials[owner], body, G)
    return {"link_visuals": link_visuals, "base_visuals": tuple(base_visuals),
            "inertials": [_finish_inertial(acc) for acc in inertials],
            "base_inertial": None if base_inertial is None else _finish_inertial(base_inertial),
            "base": tree.base.copy(), "gravity": tree.gravity.copy(),
            # a snapshot: to_tree may come after more edits of ``tree``
            "named_poses": tree.named_poses._copy_for(tree)}
