"""Closing a loop by hand (the app's Close loop tool), no Qt: the joints a loop between two
bodies moves, which of them to make passive so that the mechanism keeps as many driven joints
as it has degrees of freedom, the two loop frames at picked points, and the checks that refuse
a loop or an actuation that makes no mechanism (each a :class:`LoopClosureError` naming the
bodies or joints)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from ..errors import LoopClosureError
from ..model.joint import AXIAL_TYPES
from ..transforms import inverse_transform
from .loops import passive_indices
from .loops import rows as loop_rows

if TYPE_CHECKING:
    from ..tree import RigidBodyTree

__all__ = ["check_actuation", "follow_target", "loop_frames", "loop_joints", "loop_path", "propose_passive"]


def _chain(tree: RigidBodyTree, body: str) -> list[str]:
    """``body`` and its ancestors up to the base."""
    out = [body]
    while (parent := tree.parent_name(out[-1])) is not None:
        out.append(parent)
    return out


def loop_path(tree: RigidBodyTree, body_a: str, body_b: str) -> list[str]:
    """The bodies whose joints a loop between ``body_a`` and ``body_b`` moves (the tree path
    between them, their common ancestor excluded), nearest the base first, then in tree order."""
    ca, cb = _chain(tree, body_a), _chain(tree, body_b)
    common = next(n for n in ca if n in set(cb))
    bodies = ca[:ca.index(common)] + cb[:cb.index(common)]
    depth = {n: len(_chain(tree, n)) for n in bodies}
    return sorted(bodies, key=lambda n: (depth[n], tree.index_of(n)))


def loop_joints(tree: RigidBodyTree) -> set[str]:
    """Names of the joints on some loop's path (those the loops move; the Actuated check box)."""
    out: set[str] = set()
    for lp in tree.loops:
        out.update(tree.get_body(n).joint.name for n in loop_path(tree, lp.body_a, lp.body_b)
                   if tree.get_body(n).joint.position_count)
    return out


def loop_frames(pose_a: np.ndarray, point_a, pose_b: np.ndarray, point_b,
                axis=None) -> tuple[np.ndarray, np.ndarray]:
    """The loop frames ``(frame_a, frame_b)`` in the bodies' frames (``pose_a``, ``pose_b``: their
    world poses) at the world points ``point_a`` and ``point_b``, both turned alike in the world:
    z along the world vector ``axis`` (a hinge's or slider's axis), else the world's axes. Two
    picks of one point give a loop closed at the current configuration."""
    R = np.eye(3)
    if axis is not None and np.linalg.norm(axis) > 0:
        z = np.asarray(axis, float) / np.linalg.norm(axis)
        x = np.cross((0.0, 1.0, 0.0) if abs(z[1]) < 0.9 else (1.0, 0.0, 0.0), z)
        x /= np.linalg.norm(x)
        R = np.column_stack([x, np.cross(z, x), z])
    frames = []
    for pose, point in ((pose_a, point_a), (pose_b, point_b)):
        W = np.eye(4)
        W[:3, :3], W[:3, 3] = R, np.asarray(point, float)
        frames.append(inverse_transform(np.asarray(pose, float)) @ W)
    return frames[0], frames[1]


def _driven(tree: RigidBodyTree) -> list:
    """The actuated joints that move (no fixed or mimic joint)."""
    return [b.joint for b in tree.bodies if b.joint.actuated and b.joint.velocity_count]


def freedoms(n: int) -> str:
    """``n`` degrees of freedom, in words ("1 degree of freedom", "3 degrees of freedom")."""
    return f"{n} degree{'' if n == 1 else 's'} of freedom"


def propose_passive(tree: RigidBodyTree, body_a: str, body_b: str, mobility: int) -> list[str]:
    """Joints to make passive when a loop joins ``body_a`` and ``body_b`` and leaves the
    mechanism ``mobility`` degrees of freedom: the loop path's driven joints but the one
    nearest the base, from the far end, until as many joints are driven as the mechanism has
    degrees of freedom. Raises :class:`LoopClosureError` when the loop constrains nothing or more
    than its path can follow."""
    if body_a == body_b:
        raise LoopClosureError(f"both points are on body {body_a!r}: a loop joins two different bodies")
    if mobility <= 0:
        raise LoopClosureError(f"a loop between {body_a!r} and {body_b!r} locks the mechanism "
                               f"({freedoms(mobility)} left): pick points that let it move")
    path = loop_path(tree, body_a, body_b)
    moving = [tree.get_body(n).joint for n in path]
    candidates = [j for j in moving if j.actuated and j.velocity_count]
    need = sum(j.velocity_count for j in _driven(tree)) - mobility
    if need <= 0:
        joints = ", ".join(repr(j.name) for j in moving) or "none"
        raise LoopClosureError(f"a loop between {body_a!r} and {body_b!r} removes no degree of freedom (the "
                               f"joints between them: {joints}): pick points on bodies further apart")
    passive = [j.name for j in reversed(candidates[1:]) if j.type in AXIAL_TYPES and j.mimic is None][:need]
    if len(passive) < need:
        raise LoopClosureError(f"a loop between {body_a!r} and {body_b!r} over-constrains the mechanism: it leaves "
                               f"{freedoms(mobility)}, and only {len(passive)} of the joints between "
                               f"them can follow it ({need} must)")
    return passive


def check_actuation(tree: RigidBodyTree) -> None:
    """Raise :class:`LoopClosureError` when a tree with loops drives no joint, or more or fewer
    joints than its mechanism has degrees of freedom (over-constrained: the loops fight the
    drives; under: the passive joints are free)."""
    if not tree.loops:
        return
    driven = _driven(tree)
    if not driven:
        raise LoopClosureError("no joint would be actuated: a mechanism needs at least one driven joint")
    count, mobility = sum(j.velocity_count for j in driven), tree.mobility()
    names = ", ".join(repr(j.name) for j in driven[:6]) + (" …" if len(driven) > 6 else "")
    if count > mobility:
        raise LoopClosureError(f"{count} driven joints ({names}) over-constrain the mechanism: its loops leave "
                               f"{freedoms(mobility)}; make a joint on a loop passive first")
    if count < mobility:
        drives = "1 driven joint" if count == 1 else f"{count} driven joints"
        raise LoopClosureError(f"{drives} ({names}) leave{'s' if count == 1 else ''} the mechanism free: its loops "
                               f"leave {freedoms(mobility)}; make a passive joint actuated first")


#: Newton steps of each closing in :func:`follow_target`: from the predicted passive values it
#: converges in two or three; a trial still open after these is past the mechanism's limit.
CLOSING_STEPS = 6
#: A closing that moves a passive joint further than this from its prediction (rad or m) has
#: jumped to another assembly branch: refused as a limit.
BRANCH_JUMP = 0.3


def _close_near(tree: RigidBodyTree, x: np.ndarray, P: np.ndarray) -> np.ndarray:
    """``x`` with its passive joints ``P`` closed by Newton steps from their (predicted) values;
    :class:`LoopClosureError` naming the worst loop when they do not close near there."""
    x = x.copy()
    start = x[P].copy()
    for _ in range(CLOSING_STEPS):
        r, C, starts = loop_rows(tree, x, "positions")
        if float(np.linalg.norm(r)) <= 1e-11:
            return x
        x[P] -= np.linalg.lstsq(C[:, P], r, rcond=1e-9)[0]
        if float(np.abs(x[P] - start).max()) > BRANCH_JUMP:
            break
    r, _C, starts = loop_rows(tree, x, "positions")
    if float(np.linalg.norm(r)) <= 1e-11 and float(np.abs(x[P] - start).max()) <= BRANCH_JUMP:
        return x
    names = list(tree._loops)
    per = [float(np.linalg.norm(r[starts[k]:starts[k + 1]])) for k in range(len(names))]
    worst = int(np.argmax(per))
    raise LoopClosureError(f"loop {names[worst]!r} cannot be assembled a step further this way (residual "
                           f"{per[worst]:.3g} left): the mechanism's limit, or a toggle between two assemblies")


def follow_target(tree: RigidBodyTree, body: str, target: np.ndarray, q: np.ndarray, *,
                  weights=(1.0, 1.0, 1.0, 1.0, 1.0, 1.0), iterations: int = 20,
                  locked: Iterable[str] = ()) -> tuple[np.ndarray, str | None]:
    """Move ``body`` towards the 4×4 world ``target`` over a closed mechanism: Gauss–Newton on the
    actuated joints (but ``locked``) with the passive ones solved after each step (the branch
    kept), on the pose error weighted as :func:`~kinetree.core.kinematics.ik.inverse_kinematics` does
    (rows ``[rot; pos]``). ``q`` is closed. Returns the closed configuration nearest the target
    reached, and the reason it stopped short (a :class:`LoopClosureError`'s message: the
    mechanism's limit, a toggle) or None. For a tree of revolute and prismatic joints."""
    w = np.asarray(weights, dtype=float)
    k = tree.index_of(body)
    P = passive_indices(tree)
    held = set(locked)
    A = np.array([i for b, i in tree.position_slots() if b.joint.actuated and b.joint.name not in held
                  and b.joint.position_count], dtype=int)
    plan = tree.kinematic_plan()

    def error(x: np.ndarray) -> np.ndarray:
        T = plan.fk_single(x)[k] if k >= 0 else np.eye(4)
        Re = target[:3, :3] @ T[:3, :3].T  # rotation still to do, base frame
        rot = 0.5 * np.array([Re[2, 1] - Re[1, 2], Re[0, 2] - Re[2, 0], Re[1, 0] - Re[0, 1]])
        return np.concatenate([rot, target[:3, 3] - T[:3, 3]]) * w

    x = np.array(q, dtype=float)
    e = error(x)
    reason = None
    for _ in range(iterations):
        if A.size == 0 or float(np.linalg.norm(e)) <= 1e-10 or k < 0:
            break
        J = tree._geometric_jacobian(x, body) * w[:, None]  # x may be open between steps
        C = loop_rows(tree, x, "positions")[1]
        # the passive joints follow the actuated ones along the loops: dq_p = −C_p⁺ C_a dq_a
        follow = -np.linalg.pinv(C[:, P]) @ C[:, A] if P.size else np.zeros((0, A.size))
        Je = J[:, A] + (J[:, P] @ follow if P.size else 0.0)
        step = np.linalg.lstsq(Je, e, rcond=1e-9)[0]
        step *= min(1.0, 0.2 / max(float(np.abs(step).max()), 1e-300))  # small steps keep to the branch
        t, better = 1.0, False
        while t > 0.2:  # two halvings at most: at a limit every try is a failed solve (a live drag's time)
            trial = x.copy()
            trial[A] += t * step
            if P.size:
                trial[P] += t * (follow @ step)  # a warm start on the same branch
            try:
                trial = _close_near(tree, trial, P) if P.size else trial
            except LoopClosureError as exc:
                reason = str(exc)
                t *= 0.5
                continue
            e2 = error(trial)
            if float(np.linalg.norm(e2)) < float(np.linalg.norm(e)):
                x, e, better, reason = trial, e2, True, None
                break
            t *= 0.5
        if not better:
            break
    return x, reason
