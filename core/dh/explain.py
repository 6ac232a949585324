"""Why a DH table computed from a chain's geometry (:func:`~kinetree.core.dh.extract.extract_dh`)
differs from the robot's own rows: DH leaves choices open (where the common normal of parallel
axes sits, which way x_i points along it, where a prismatic axis's line lies, frame 0 and the
last frame), and the extraction makes them its own deterministic way. :func:`explain_extraction`
says in words which rows changed, how each frame moved and why, and checks that the end
effector's pose is still equal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..tree import RigidBodyTree
from .chain import DHLink, chain_dh_table
from .extract import DHExtraction

__all__ = ["DHComparison", "explain_extraction"]

_TOL = 1e-9


@dataclass
class DHComparison:
    """The extracted table against the robot's own rows. ``rows``: the 1-based rows whose
    parameters differ; ``lines``: the explanation, one sentence a line; ``tip_error``: the
    largest difference of the end effector's pose between the two (at q = 0 and a few random
    configurations within the limits); ``stored``: whether the robot has its own rows to
    compare with."""

    rows: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    tip_error: float = 0.0
    stored: bool = False

    @property
    def differs(self) -> bool:
        return bool(self.rows) or not self.stored

    def text(self) -> str:
        return "\n".join(self.lines)


def _effective(link: DHLink) -> np.ndarray:
    """a, α, d, θ at q = 0 (the offset folded into the variable's parameter)."""
    off = link.offset
    return np.array([link.a, link.alpha, link.d + (off if link.joint == "P" else 0.0),
                     link.theta + (off if link.joint == "R" else 0.0)])


def _angle_diff(a: float, b: float) -> float:
    return (a - b + math.pi) % (2 * math.pi) - math.pi


def _fmt(v: float, angle: bool, degrees: bool) -> str:
    if angle:
        v = math.degrees(v) if degrees else v
        return f"{0.0 if abs(v) < 1e-9 else v:.4g}{'°' if degrees else ' rad'}"
    return f"{0.0 if abs(v) < 1e-12 else v:.4g} m"


def _row_change(k: int, old: DHLink, new: DHLink, degrees: bool) -> str | None:
    names = ("a", "α", "d", "θ")
    o, n = _effective(old), _effective(new)
    parts = []
    for i, name in enumerate(names):
        angle = i in (1, 3)
        delta = _angle_diff(n[i], o[i]) if angle else n[i] - o[i]
        if abs(delta) > _TOL:
            parts.append(f"{name} {_fmt(o[i], angle, degrees)} → {_fmt(n[i], angle, degrees)}")
    return f"row {k}: " + ", ".join(parts) if parts else None


def _frame_change(k: int, F: np.ndarray, E: np.ndarray, z_prev: np.ndarray, conv: str, prismatic: bool,
                  z_next: np.ndarray | None) -> list[str]:
    """Sentences on how DH frame ``k`` (file ``F``, extraction ``E``, both at q = 0) moved, and why."""
    out = []
    if float(F[:3, 2] @ E[:3, 2]) < 0:
        out.append(f"z_{k} points the other way (the computed z always points along its joint's axis)")
    shift = E[:3, 3] - F[:3, 3]
    if np.linalg.norm(shift) > 1e-9:
        along = float(shift @ F[:3, 2])
        # the pair of axes whose common normal places o_k: z_{k-1}, z_k (standard) or z_k, z_{k+1} (modified)
        other = z_prev if conv == "dh" else z_next
        parallel = other is not None and np.linalg.norm(np.cross(other, F[:3, 2])) < 1e-9
        if abs(abs(along) - np.linalg.norm(shift)) < 1e-9:
            why = (f"the two axes are parallel, so their common normal (and o_{k}) may sit anywhere along them; "
                   "the computed table takes the one through the previous origin (d = 0 where it can)"
                   if parallel else "a prismatic joint's axis has only a direction, so its line is placed to "
                   "meet the next axis" if prismatic else "DH leaves its place along z open here")
            out.append(f"o_{k} slid {along:+.4g} m along z_{k}: {why}")
        else:
            out.append(f"o_{k} moved by {np.linalg.norm(shift):.4g} m")
    c = float(np.clip(F[:3, 0] @ E[:3, 0], -1.0, 1.0))
    turn = math.degrees(math.acos(c))
    if turn > 1e-6:
        if abs(turn - 180) < 1e-6:
            out.append(f"x_{k} points the other way along the common normal: both are valid DH choices (the "
                       f"computed table takes x_{k} from z_{k - 1} towards z_{k} so that a ≥ 0, or, where the "
                       "axes meet, the direction keeping |θ| ≤ 90° at q = 0)")
        else:
            out.append(f"x_{k} turned by {turn:.4g}° about z_{k}: the axes are parallel or meet, so x_{k}'s "
                       "direction is a free choice")
    return out


def explain_extraction(tree: RigidBodyTree, ext: DHExtraction, degrees: bool = True,
                       samples: int = 3, seed: int = 0) -> DHComparison:
    """Compare ``ext`` (``extract_dh(tree, …)``) with the rows ``tree`` stores on the same path,
    and say why they differ. The end effector is checked numerically, never assumed."""
    result = DHComparison()
    rebuilt = ext.to_tree()
    rng = np.random.default_rng(seed)
    qs = [np.zeros(tree.position_count)] + [tree.random_configuration(rng) for _ in range(samples)]
    for q in qs:
        T0 = tree.get_transform(q, ext.tip)
        T1 = rebuilt.get_transform(rebuilt_configuration(tree, rebuilt, q), ext.tip_name)
        result.tip_error = max(result.tip_error, float(np.abs(T0 - T1).max()))
    entries = {e.body: e for e in chain_dh_table(tree, ext.tip)}
    stored = [entries.get(link.name) for link in ext.links]
    if not ext.links or any(e is None or e.link is None for e in stored):
        result.lines.append("The robot has no DH rows of its own on this chain (it was built from matrices, e.g. "
                            "a URDF): the table is computed from the joint axes' geometry.")
        result.lines.append(_tip_sentence(result.tip_error))
        return result
    result.stored = True
    conventions = {e.convention for e in stored}
    if conventions != {ext.convention}:
        said = "modified" if "mdh" in conventions else "standard"
        result.rows = list(range(1, len(ext.links) + 1))
        result.lines.append(f"The robot's own rows are {said} DH; the other convention places every frame "
                            "differently by definition (frame i on axis i+1 in standard DH, on axis i in modified).")
        result.lines.append(_tip_sentence(result.tip_error))
        return result
    for k, (e, link) in enumerate(zip(stored, ext.links), start=1):
        line = _row_change(k, e.link, link, degrees)
        if line is not None:
            result.rows.append(k)
            result.lines.append(line)
    frames = _frames(tree, rebuilt, ext)
    if frames is not None:
        F, E = frames
        for k in range(1, len(ext.links) + 1):
            z_prev = F[k - 1][:3, 2]
            z_next = F[k + 1][:3, 2] if k + 1 < len(F) else None
            nxt = ext.links[k] if k < len(ext.links) else None
            prismatic = ext.links[k - 1].joint == "P" or (nxt is not None and nxt.joint == "P")
            for sentence in _frame_change(k, F[k], E[k], z_prev, ext.convention, prismatic, z_next):
                result.lines.append(f"frame {k}: {sentence}")
    if not np.allclose(ext.base, np.eye(4), atol=1e-12):
        result.lines.append("frame 0 is not the robot's base frame: the base transform (tree base → frame 0) "
                            "takes up the difference")
    if not np.allclose(ext.tool, np.eye(4), atol=1e-12):
        result.lines.append("the last frame is not the tip body's frame: the tool transform (last frame → tip) "
                            "takes up the difference")
    if result.rows:
        rows = ", ".join(map(str, result.rows))
        result.lines.insert(0, f"Rows {rows} differ from the robot's own table: the computed table is an "
                               "equivalent one that makes DH's free choices its own way.")
        result.lines.append("The frames above differ from the robot's own, but the end effector is the same: "
                            + _tip_sentence(result.tip_error))
    else:
        result.lines.append("The computed table equals the robot's own rows.")
    return result


def _tip_sentence(err: float) -> str:
    return (f"base · A_1⋯A_n · tool equals the robot's tip pose (largest difference {err:.1e} at q = 0 and "
            "3 random configurations).")


def rebuilt_configuration(tree: RigidBodyTree, rebuilt: RigidBodyTree, q: np.ndarray) -> np.ndarray:
    """The configuration of ``rebuilt`` (a chain of some of ``tree``'s joints, by name) holding
    the values ``q`` gives those joints in ``tree``."""
    q = np.asarray(q, dtype=float)
    return np.concatenate([np.atleast_1d(q[tree.position_index(b.joint.name)])
                           for b in rebuilt.bodies if b.joint.type != "fixed"] or [np.zeros(0)])


def _frames(tree: RigidBodyTree, rebuilt: RigidBodyTree, ext: DHExtraction):
    """The DH frames 0…n at q = 0 of the robot (its bodies' frames) and of the computed chain."""
    names = [link.name for link in ext.links]
    P0 = dict(zip(tree.body_names, tree.forward_kinematics(np.zeros(tree.position_count))))
    P1 = dict(zip(rebuilt.body_names, rebuilt.forward_kinematics(np.zeros(rebuilt.position_count))))
    if any(n not in P0 or n not in P1 for n in names):
        return None
    first = tree.parent_name(names[0])
    F0 = P0.get(first, np.eye(4)) if first != tree.base_name else np.eye(4)
    E0 = ext.base
    return [F0, *[P0[n] for n in names]], [E0, *[P1[n] for n in names]]
