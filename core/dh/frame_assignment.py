"""A student's own DH frame assignment, checked step by step (the lecture's steps 1–6).

:class:`FrameAssignment` holds a chain's joint axes as world lines at q = 0 (the path base →
tip; fixed joints absorbed) and the frames 0…n the student has assigned so far. For frame i
the student picks z_i along joint i+1's axis (either direction; frame n: the tip's approach
axis through the tip origin) and then x_i and the origin o_i: :meth:`FrameAssignment.x_candidates`
offers the lecture's choices (the common normal from z_{i-1} to z_i, ±z_{i-1}×z_i at the
intersection when the axes meet, the normal through o_{i-1} when they are parallel), and any
other typed direction/origin is checked by :func:`check_frame`, which says in words what is
wrong (DH1: x_i ⟂ z_{i-1}; DH2: x_i meets z_{i-1}).

When all frames are in, :meth:`FrameAssignment.derive` gives the standard DH table of the
student's frames — θ, d, a, α per row with the joint variable's sign (a z_{i-1} chosen against
joint i's axis makes the variable run as −q_i) — and :func:`compare_with_extraction` explains,
row by row, where it differs from :func:`~kinetree.core.dh.extract.extract_dh`'s table.

Frame k is rigid with the body joint k moves (frame 0 with the base), so the table's T_n^0(q)
must equal F_0⁻¹ · P_n(q) · P_n(0)⁻¹ · F_n, P_n the last moving body's pose: that is what
:meth:`DerivedTable.fk_difference` measures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import KineTreeError
from ..transforms import dh_transform, inverse_transform
from ..tree import RigidBodyTree
from .chain import chain_path
from .chain import subscript as _sub  # the lecture's z₀, x₁, θ₂ in every message
from .extract import NotDHExpressibleError, _joint_problem, extract_dh

__all__ = ["AxisLine", "Candidate", "DerivedRow", "DerivedTable", "Frame", "FrameAssignment",
           "FrameAssignmentError", "check_frame", "compare_with_extraction"]

ANGLE_TOL = 1e-6  # radians: closer than this counts as perpendicular / parallel
LENGTH_TOL = 1e-6  # metres (times the chain's size): closer than this counts as meeting


class FrameAssignmentError(KineTreeError):
    """A frame that breaks the DH rules was accepted, or a step was asked out of order."""


@dataclass(frozen=True)
class AxisLine:
    """The line z_i must lie along: joint i+1's axis at q = 0 (``kind`` ``"R"``/``"P"``), or for
    the last frame the tip's z axis through the tip origin (``kind`` ``"tip"``)."""

    point: np.ndarray
    direction: np.ndarray
    kind: str
    body: str
    label: str  # "joint 3's axis" / "the tip's approach axis"


@dataclass(frozen=True)
class Frame:
    """An assigned frame: origin, x and z (unit); y = z × x."""

    origin: np.ndarray
    x: np.ndarray
    z: np.ndarray

    @property
    def matrix(self) -> np.ndarray:
        F = np.eye(4)
        F[:3, 0], F[:3, 1], F[:3, 2], F[:3, 3] = self.x, np.cross(self.z, self.x), self.z, self.origin
        return F


@dataclass(frozen=True)
class Candidate:
    """An x_i direction the lecture's construction allows, with its origin and why."""

    x: np.ndarray
    origin: np.ndarray
    text: str


@dataclass(frozen=True)
class DerivedRow:
    """One standard DH row of the student's frames: at configuration q the row is
    (a, α, d + s·q, θ) for a prismatic joint, (a, α, d, θ + s·q) for a revolute one;
    ``theta``/``d`` are the values at q = 0 and ``sign`` s is −1 when z_{i-1} points against
    joint i's axis."""

    joint: str
    a: float
    alpha: float
    d: float
    theta: float
    sign: int

    def transform(self, q: float) -> np.ndarray:
        if self.joint == "R":
            return dh_transform(self.a, self.alpha, self.d, self.theta + self.sign * q)
        return dh_transform(self.a, self.alpha, self.d + self.sign * q, self.theta)

    def variable_text(self, i: int) -> str:
        """θ_i or d_i in words, e.g. ``"θ_2 = −q_2 + 90°"``."""
        sign = "" if self.sign > 0 else "−"
        if self.joint == "R":
            off = math.degrees(self.theta)
            tail = "" if abs(off) < 1e-9 else f" {'+' if off > 0 else '−'} {abs(off):g}°"
            return f"θ{_sub(i)} = {sign}q{_sub(i)}{tail}"
        tail = "" if abs(self.d) < 1e-12 else f" {'+' if self.d > 0 else '−'} {abs(self.d):.4g} m"
        return f"d{_sub(i)} = {sign}q{_sub(i)}{tail}"


@dataclass
class DerivedTable:
    """The DH table of a complete assignment; ``bodies`` the moving bodies, row by row."""

    rows: list[DerivedRow]
    frames: list[Frame]
    tree: RigidBodyTree
    bodies: list[str]
    joint_names: list[str]

    def t_n0(self, q_path: np.ndarray) -> np.ndarray:
        """T_n^0 = A_1 ⋯ A_n at the path's joint values ``q_path``."""
        T = np.eye(4)
        for row, q in zip(self.rows, q_path):
            T = T @ row.transform(float(q))
        return T

    def robot_t_n0(self, q_path: np.ndarray) -> np.ndarray:
        """Frame n in frame 0 as the robot's forward kinematics moves them."""
        q0 = _path_configuration(self.tree, self.joint_names, np.zeros(len(self.joint_names)))
        q = _path_configuration(self.tree, self.joint_names, q_path)
        last = self.tree.body_names.index(self.bodies[-1])
        P0, P = self.tree.forward_kinematics(q0)[last], self.tree.forward_kinematics(q)[last]
        return inverse_transform(self.frames[0].matrix) @ P @ inverse_transform(P0) @ self.frames[-1].matrix

    def fk_difference(self, configurations: np.ndarray) -> float:
        """Largest entry of T_n^0 − the robot's FK over ``configurations`` (rows of path q)."""
        return max(float(np.abs(self.t_n0(q) - self.robot_t_n0(q)).max()) for q in configurations)


def _path_configuration(tree: RigidBodyTree, joint_names: list[str], values) -> np.ndarray:
    q = tree.home_configuration()
    for name, v in zip(joint_names, values):
        q[tree.position_index(name)] = v
    return q


def _unit(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    if n < 1e-12:
        raise FrameAssignmentError(f"direction {np.round(v, 4).tolist()} has no length")
    return np.asarray(v, float) / n


def _perp(v: np.ndarray, u: np.ndarray) -> np.ndarray:
    return v - (v @ u) * u


def _angle_deg(u: np.ndarray, v: np.ndarray) -> float:
    return math.degrees(math.acos(max(-1.0, min(1.0, float(u @ v)))))


def _line_distance(p: np.ndarray, u: np.ndarray, q: np.ndarray, v: np.ndarray) -> float:
    c = np.cross(u, v)
    if np.linalg.norm(c) < ANGLE_TOL:
        return float(np.linalg.norm(_perp(q - p, u)))
    return abs(float((q - p) @ c)) / float(np.linalg.norm(c))


def _fmt(v: np.ndarray) -> str:
    return "(" + ", ".join(f"{c + 0.0:.3g}" for c in np.round(v, 6)) + ")"


def check_frame(prev: Frame | None, frame: Frame, line: AxisLine, i: int, scale: float = 1.0) -> list[str]:
    """What is wrong with ``frame`` as frame ``i`` (``prev`` is frame i−1, ``None`` for frame 0;
    ``line`` the axis z_i belongs on), in plain words; ``[]`` when it is a valid DH frame."""
    tol_len = LENGTH_TOL * scale
    out = []
    z, x, o = frame.z, frame.x, frame.origin
    zi, xi = f"z{_sub(i)}", f"x{_sub(i)}"
    if line.kind != "tip":
        off = _angle_deg(z, line.direction)
        if min(off, 180 - off) > math.degrees(ANGLE_TOL):
            out.append(f"{zi} is not along {line.label} ({min(off, 180 - off):.1f}° apart)")
        elif line.kind == "R" and (gap := float(np.linalg.norm(_perp(o - line.point, line.direction)))) > tol_len:
            out.append(f"o{_sub(i)} is not on {line.label}: {gap:.3f} m away, so {zi} is not along it")
    if abs(float(x @ z)) > math.sin(ANGLE_TOL):
        out.append(f"{xi} is not perpendicular to {zi} ({_angle_deg(x, z):.1f}°): not a frame")
    if prev is None:
        return out
    zp = f"z{_sub(i - 1)}"
    dh1 = abs(float(x @ prev.z)) <= math.sin(ANGLE_TOL)
    if not dh1:
        out.append(f"{xi} is not perpendicular to {zp} ({_angle_deg(x, prev.z):.1f}°): DH1 fails")
    gap = _line_distance(prev.origin, prev.z, o, x)
    if gap > tol_len:
        out.append(f"{xi} does not meet {zp}: they pass {gap:.3f} m apart: DH2 fails")
    return out


class FrameAssignment:
    """The student's frames 0…n for the path base → ``tip`` (default: the last body), built in
    order: :meth:`x_candidates` / :meth:`check` / :meth:`accept` for frame :attr:`step`,
    :meth:`back` to undo the last one, :meth:`derive` when :attr:`complete`."""

    def __init__(self, tree: RigidBodyTree, tip: str | None = None) -> None:
        path = chain_path(tree, tip)
        tip_name = path[-1] if path else (tip or tree.base_name)
        tree.get_body(tip_name)
        for name in path:
            j = tree.get_body(name).joint
            if problem := _joint_problem(j):
                raise NotDHExpressibleError(f"body {name!r}, joint {j.name!r}: {problem}, so frames "
                                            f"cannot be assigned along the path to {tip_name!r}")
        self.tree, self.tip = tree, tip_name
        self.bodies = [n for n in path if tree.get_body(n).joint.type != "fixed"]
        if not self.bodies:
            raise FrameAssignmentError(f"the path to {tip_name!r} has no moving joint: no frames to assign")
        self.joint_names = [tree.get_body(n).joint.name for n in self.bodies]
        q0 = _path_configuration(tree, self.joint_names, np.zeros(len(self.bodies)))
        poses = {tree.base_name: np.eye(4), **dict(zip(tree.body_names, tree.forward_kinematics(q0)))}
        lines = []
        for k, name in enumerate(self.bodies):
            j = tree.get_body(name).joint
            P = poses[tree.parent_name(name)] @ j.joint_to_parent_transform
            lines.append(AxisLine(P[:3, 3].copy(), _unit(P[:3, :3] @ j.axis),
                                  "R" if j.type == "revolute" else "P", name, f"joint {k + 1}'s axis"))
        T = poses[tip_name]
        lines.append(AxisLine(T[:3, 3].copy(), _unit(T[:3, 2]), "tip", tip_name, "the tip's approach axis"))
        self.lines = lines
        self.scale = max(1.0, max(float(np.abs(ln.point).max()) for ln in lines))
        self.frames: list[Frame] = []

    @property
    def n(self) -> int:
        """Number of joints (frames 0…n)."""
        return len(self.bodies)

    @property
    def step(self) -> int:
        """The frame to assign next."""
        return len(self.frames)

    @property
    def complete(self) -> bool:
        return self.step > self.n

    def z_choices(self, line: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """z along the axis and z against it, for frame :attr:`step`: along the axis of
        ``lines[line]`` (any joint's, the student's choice; default the one DH asks for)."""
        self._line()
        u = self.lines[self.step if line is None else self._line_index(line)].direction
        return u.copy(), -u

    def _line_index(self, line: int) -> int:
        if not 0 <= int(line) < len(self.lines):
            raise FrameAssignmentError(f"axis {line}: the chain has axes 0…{len(self.lines) - 1}")
        return int(line)

    def on_lines(self, z, origin) -> list[int]:
        """The indices of the axis lines the line (``origin``, ``z``) lies on (two joints' axes
        may be one line, Puma's wrist at q = 0)."""
        z, o = _unit(np.asarray(z, float)), np.asarray(origin, float)
        out = []
        for k, ln in enumerate(self.lines):
            off = _angle_deg(z, ln.direction)
            if min(off, 180 - off) <= math.degrees(ANGLE_TOL) and \
                    float(np.linalg.norm(_perp(o - ln.point, ln.direction))) <= LENGTH_TOL * self.scale:
                out.append(k)
        return out

    def _line(self) -> AxisLine:
        if self.complete:
            raise FrameAssignmentError(f"all {self.n + 1} frames are assigned")
        return self.lines[self.step]

    def x_candidates(self, z: np.ndarray, line: int | None = None) -> list[Candidate]:
        """The lecture's x directions (with origins) for frame :attr:`step` with z along ``z``
        on the axis of ``lines[line]`` (default the one DH asks for: a student may pick another)."""
        i, z = self.step, _unit(z)
        self._line()
        line = self.lines[i if line is None else self._line_index(line)]
        if i == 0:  # any x_0 ⟂ z_0; offer the base's x (or y) projected, origin at the base origin's foot
            o = line.point + ((-line.point) @ z) * z
            px = _perp(np.array([1.0, 0.0, 0.0]), z)
            if np.linalg.norm(px) < 1e-3:
                px = _perp(np.array([0.0, 1.0, 0.0]), z)
            x = _unit(px)
            return [Candidate(x, o, "x₀ along the base's x axis (made ⟂ z₀)"),
                    Candidate(-x, o.copy(), "x₀ against the base's x axis")]
        prev, i1 = self.frames[-1], i - 1
        zp, zi, xp, xi, op, oi = (f"{v}{_sub(k)}" for v in "zxo" for k in (i1, i))  # z₀, z₁ …
        p, u, q = prev.origin, prev.z, line.point
        c = np.cross(u, z)
        s = float(np.linalg.norm(c))
        tol_len = LENGTH_TOL * self.scale
        if s > ANGLE_TOL:
            w0 = p - q
            b, d, e = u @ z, u @ w0, z @ w0
            t, r = (b * e - d) / (s * s), (e - b * d) / (s * s)
            P, Q = p + t * u, q + r * z
            if np.linalg.norm(Q - P) > tol_len:
                x = _unit(Q - P)
                return [Candidate(x, Q, f"the common normal, from {zp} to {zi}"),
                        Candidate(-x, Q.copy(), f"the common normal, from {zi} to {zp}")]
            x = c / s
            if x @ prev.x < -1e-12:  # first the sign keeping |θ_i| ≤ 90° (extract_dh's and the classic tables')
                x = -x
                return [Candidate(x, Q, f"{zp}, {zi} intersect: {xi} = −{zp}×{zi}, at the intersection"),
                        Candidate(-x, Q.copy(), f"{zp}, {zi} intersect: {xi} = {zp}×{zi}, at the intersection")]
            return [Candidate(x, Q, f"{zp}, {zi} intersect: {xi} = {zp}×{zi}, at the intersection"),
                    Candidate(-x, Q.copy(), f"{zp}, {zi} intersect: {xi} = −{zp}×{zi}, at the intersection")]
        r = _perp(q - p, u)
        if np.linalg.norm(r) > tol_len:
            x = _unit(r)
            o = p + r
            return [Candidate(x, o, f"{zp} ∥ {zi}: the normal through {op}, towards {zi}"),
                    Candidate(-x, o.copy(), f"{zp} ∥ {zi}: the normal through {op}, away from {zi}")]
        # one line: the origin slides freely; the last frame's goes to the tip (the lecture's tool centre)
        o, where = (q.copy(), "the tip") if line.kind == "tip" else (p.copy(), op)
        return [Candidate(prev.x.copy(), o, f"{zp} and {zi} are one line: {xi} = {xp}, {oi} at {where}"),
                Candidate(-prev.x, o.copy(), f"{zp} and {zi} are one line: {xi} = −{xp}, {oi} at {where}")]

    def check(self, z, x, origin) -> tuple[Frame, list[str]]:
        """Frame :attr:`step` from the given z, x and origin, and what is wrong with it."""
        frame = Frame(np.asarray(origin, float).copy(), _unit(np.asarray(x, float)), _unit(np.asarray(z, float)))
        prev = self.frames[-1] if self.frames else None
        problems = check_frame(prev, frame, self._line(), self.step, self.scale)
        i = self.step
        on = self.on_lines(frame.z, frame.origin)
        if problems and on and i not in on:  # the classic mistake, named with the rule it breaks
            first, *also = (self.lines[k].label for k in on)
            where = first + (f" (also {', '.join(also)})" if also else "")
            problems.insert(0, f"z{_sub(i)} lies along {where}: DH's rule is zᵢ₋₁ along joint i's axis, "
                               f"so z{_sub(i)} belongs on {self.lines[i].label}")
        return frame, problems

    def accept(self, z, x, origin) -> Frame:
        """Add frame :attr:`step`; :class:`FrameAssignmentError` (with the words) when it breaks a rule."""
        frame, problems = self.check(z, x, origin)
        if problems:
            raise FrameAssignmentError(f"frame {self.step}: " + "; ".join(problems))
        # stored exactly orthogonal (x made ⟂ z within the tolerance just checked)
        frame = Frame(frame.origin, _unit(_perp(frame.x, frame.z)), frame.z)
        self.frames.append(frame)
        return frame

    def back(self) -> None:
        """Forget the last assigned frame."""
        if self.frames:
            self.frames.pop()

    def derive(self) -> DerivedTable:
        """The standard DH table of the complete assignment."""
        if not self.complete:
            raise FrameAssignmentError(f"frame {self.step} of 0…{self.n} is not assigned yet")
        rows = []
        for k in range(self.n):
            A = inverse_transform(self.frames[k].matrix) @ self.frames[k + 1].matrix
            theta = math.atan2(A[1, 0], A[0, 0])
            alpha = math.atan2(A[2, 1], A[2, 2])
            a = A[0, 3] * math.cos(theta) + A[1, 3] * math.sin(theta)
            sign = 1 if self.frames[k].z @ self.lines[k].direction > 0 else -1
            rows.append(DerivedRow(self.lines[k].kind, float(a), float(alpha), float(A[2, 3]), float(theta), sign))
        return DerivedTable(rows, list(self.frames), self.tree, self.bodies, self.joint_names)

    def follow_offered(self, z_signs=None, picks=None) -> DerivedTable:
        """Assign every remaining frame with the offered choices (z along the axis unless
        ``z_signs[i]`` is −1; x the ``picks[i]``-th candidate, default the first)."""
        while not self.complete:
            i = self.step
            z = self.z_choices()[0 if (z_signs is None or z_signs[i] > 0) else 1]
            c = self.x_candidates(z)[0 if picks is None else picks[i]]
            self.accept(z, c.x, c.origin)
        return self.derive()


def _wrap(v: float) -> float:
    return (v + math.pi) % (2 * math.pi) - math.pi


def extraction_frames(tree: RigidBodyTree, tip: str | None = None) -> tuple[list[np.ndarray], list]:
    """extract_dh's standard frames 0…n at q = 0 (world) and its rows."""
    ex = extract_dh(tree, tip, "dh")
    F = [ex.base.copy()]
    for link in ex.links:
        theta = link.offset if link.joint == "R" else link.theta
        d = link.d if link.joint == "R" else link.offset
        F.append(F[-1] @ dh_transform(link.a, link.alpha, d, theta))
    return F, ex.links


def _frame_reasons(i: int, k: int, mine: Frame, theirs: np.ndarray, line: AxisLine, a: float, tol: float) -> list[str]:
    """Why row ``i`` differs, as far as frame ``k`` (i−1 or i) is concerned."""
    out, start = [], k == i - 1
    zp, zk, xk, ok, si = f"z{_sub(k - 1)}", f"z{_sub(k)}", f"x{_sub(k)}", f"o{_sub(k)}", _sub(i)  # z₀, z₁ …
    if mine.z @ theirs[:3, 2] < 0:
        what = f"q{si} enters with a minus and α{si} changes" if start and line.kind != "tip" else f"α{si} changes"
        out.append(f"your {zk} points against {line.label} (extract_dh's along it): {what}")
    dx = _angle_deg(mine.x, theirs[:3, 0])
    if dx > 1e-4:
        if k == 0:
            kind = "x₀ is free ⟂ z₀"
        elif abs(a) < tol:
            kind = f"{zp} and {zk} intersect: {xk} = ±{zp}×{zk}, your sign is the other"
        else:
            kind = "the common normal taken the other way"
        what = f"θ{si} differs by {dx:.0f}°" + ("" if start else f" and a{si}, α{si} change sign")
        out.append(f"your {xk} is {'opposite to' if dx > 179.0 else f'{dx:.1f}° from'} extract_dh's ({kind}): {what}")
    slide = float((mine.origin - theirs[:3, 3]) @ theirs[:3, 2])
    if abs(slide) > tol:
        why = ("frame 0's origin is free along z₀" if k == 0 else
               "the last frame's origin is free along its z" if line.kind == "tip"
               else f"{zp} ∥ {zk} lets the common normal slide along {zk}")
        out.append(f"your {ok} is {slide:+.3f} m along {zk} from extract_dh's ({why}): d{si} differs")
    return out


def compare_with_extraction(table: DerivedTable, assignment: FrameAssignment) -> list[tuple[int, str]]:
    """For each row of ``table`` that differs from extract_dh's (by θ, d, a, α at q = 0 or the
    variable's sign), ``(i, words)`` saying which frame choices make the difference."""
    theirs, links = extraction_frames(assignment.tree, assignment.tip)
    tol = LENGTH_TOL * assignment.scale
    out = []
    for i, (row, link) in enumerate(zip(table.rows, links), start=1):
        t_theta = link.offset if link.joint == "R" else link.theta
        t_d = link.d if link.joint == "R" else link.offset
        same = (row.sign > 0 and abs(row.a - link.a) < tol and abs(_wrap(row.alpha - link.alpha)) < 1e-9
                and abs(row.d - t_d) < tol and abs(_wrap(row.theta - t_theta)) < 1e-9)
        if same:
            continue
        a_prev = links[i - 2].a if i > 1 else 0.0
        why = (_frame_reasons(i, i - 1, table.frames[i - 1], theirs[i - 1], assignment.lines[i - 1], a_prev, tol)
               + _frame_reasons(i, i, table.frames[i], theirs[i], assignment.lines[i], link.a, tol))
        if not why:
            why = ["frames 0…n agree up to rounding"]
        out.append((i, f"row {i} differs: " + "; ".join(dict.fromkeys(why))))
    return out
