"""Closed loops in robot files, shared by the URDF, SDFormat and MJCF readers and writers.

- :func:`loop_element` / :func:`read_loop_element`: KineTree's own ``<kinetree_loops>`` element
  (``<loop name kind body_a frame_a body_b frame_b/>``, each frame 12 numbers: the 3×4 top of the
  4×4 matrix, row by row, written with ``repr``; ``<passive joint/>`` for each passive joint;
  ``<home joint value/>`` for each non-zero home position: the closed configuration).
  URDF keeps loops and passive joints there (a tree format has no loop); other URDF readers
  ignore an element they do not know.
- :func:`add_file_loops`: adds loops read from a file, each error naming the file, line and
  element; a loop whose equations leave the mechanism no freedom (it over-constrains) is refused.
- :func:`default_actuation`: a file that marks no joint passive gets as many actuated joints as
  the loops leave free, the first in document order whose motion the loops do not fix; the
  others passive.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from lxml import etree

from ..disk.safe_io import MAX_BODIES
from ..errors import FileFormatError, KineTreeError
from ..kinematics.loops import LOOP_KINDS, MAX_LOOPS
from ..tree import RigidBodyTree

#: The element KineTree writes into a URDF for loops and passive joints.
LOOPS_TAG = "kinetree_loops"
_RANK_TOL = 1e-9


def _matrix_text(X: np.ndarray) -> str:
    return " ".join(repr(float(v)) for v in X[:3, :].reshape(-1))


def loop_element(tree: RigidBodyTree) -> etree._Element | None:
    """``<kinetree_loops>`` holding ``tree``'s loops and passive joints, or None without either."""
    passive = [b.joint.name for b in tree.bodies if not b.joint.actuated]
    if not tree.loops and not passive:
        return None
    el = etree.Element(LOOPS_TAG)
    for lp in tree.loops:
        etree.SubElement(el, "loop", name=lp.name, kind=lp.kind, body_a=lp.body_a, frame_a=_matrix_text(lp.frame_a),
                         body_b=lp.body_b, frame_b=_matrix_text(lp.frame_b))
    for name in passive:
        etree.SubElement(el, "passive", joint=name)
    if tree.loops:  # the closed configuration: URDF has no home positions
        for b in tree.bodies:
            if b.joint.type in ("revolute", "prismatic") and float(b.joint.home_position) != 0.0:
                etree.SubElement(el, "home", joint=b.joint.name, value=repr(float(b.joint.home_position)))
    return el


def _frame(el, key: str, error: Callable[[object, str, str], FileFormatError], what: str) -> np.ndarray:
    text = el.get(key)
    words = (text or "").split()
    if len(words) != 12:
        raise error(el, what, f"attribute {key!r} must be 12 numbers (a 3×4 transform), got {text!r:.80}")
    try:
        values = [float(w) for w in words]
    except ValueError:
        raise error(el, what, f"attribute {key!r} is not numeric: {text!r:.80}") from None
    if not all(math.isfinite(v) for v in values):
        raise error(el, what, f"attribute {key!r} holds a non-finite number: {text!r:.80}")
    X = np.eye(4)
    X[:3, :] = np.reshape(values, (3, 4))
    return X


def read_loop_element(el, error: Callable[[object, str, str], FileFormatError]) -> tuple[list, list, list]:
    """``(loops, passive)`` of a ``<kinetree_loops>`` element: loops as ``(line, name, kind, body_a,
    frame_a, body_b, frame_b)`` (``line``: the element's line), passive joints as ``(line, joint)``;
    ``error(element, what, message)`` makes the exception (naming file and line); home positions
    as ``(line, joint, value)``."""
    loops, passive, homes = [], [], []
    for child in el:
        if not isinstance(child.tag, str):
            continue
        if child.tag == "loop":
            if len(loops) >= MAX_LOOPS:
                raise error(child, "loop", f"more than the {MAX_LOOPS} loops a tree may hold")
            name = child.get("name")
            what = f"<loop name={name!r:.80}>"
            if not name:
                raise error(child, "<loop>", "needs a non-empty name attribute")
            kind = child.get("kind")
            if kind not in LOOP_KINDS:
                raise error(child, what, f"unknown kind {kind!r:.80}; expected one of {', '.join(LOOP_KINDS)}")
            for key in ("body_a", "body_b"):
                if not child.get(key):
                    raise error(child, what, f"needs a non-empty {key} attribute")
            loops.append((child.sourceline or 0, name, kind, child.get("body_a"), _frame(child, "frame_a", error, what),
                          child.get("body_b"), _frame(child, "frame_b", error, what)))
        elif child.tag == "passive":
            if not child.get("joint"):
                raise error(child, "<passive>", "needs a non-empty joint attribute")
            passive.append((child.sourceline or 0, child.get("joint")))
        elif child.tag == "home":
            what = f"<home joint={child.get('joint')!r:.80}>"
            if not child.get("joint"):
                raise error(child, "<home>", "needs a non-empty joint attribute")
            try:
                value = float(child.get("value", ""))
            except ValueError:
                raise error(child, what, f"value {child.get('value')!r:.80} is not a number") from None
            if not math.isfinite(value):
                raise error(child, what, f"value {value} is not finite")
            homes.append((child.sourceline or 0, child.get("joint"), value))
        else:
            raise error(child, f"<{LOOPS_TAG}>", f"unknown element <{child.tag:.80}>; expected <loop>, <passive> "
                                                 "or <home>")
    if len(passive) + len(homes) > 2 * MAX_BODIES:
        raise error(el, f"<{LOOPS_TAG}>", f"more than {2 * MAX_BODIES} <passive> and <home> elements")
    return loops, passive, homes


def _row_basis(tree: RigidBodyTree) -> tuple[np.ndarray, int | None]:
    """An orthonormal basis (rows) of the constraint Jacobian's row space at a generic (random,
    open) configuration, built loop by loop, and the index of the loop with which the rank first
    reaches ``dof_count`` (None: it never does). Cost: one Jacobian and O(rows · dof · rank)."""
    J = tree.constraint_jacobian(tree._random_open_configuration(np.random.default_rng(0)))
    n = J.shape[1]
    tol = _RANK_TOL * max(1.0, float(np.abs(J).max(initial=0.0)))
    B = np.empty((n, n))
    r = 0
    starts = np.cumsum([0] + [lp.equation_count for lp in tree.loops])
    loops = len(starts) - 1
    for c0 in range(0, loops, 16):  # 16 loops at a time against the basis (matrix products), then
        c1 = min(c0 + 16, loops)    # each row against the rows those loops added (Gram–Schmidt)
        block = J[starts[c0]:starts[c1]].copy()
        for _ in range(2):  # twice: orthogonal to rounding
            block -= (block @ B[:r].T) @ B[:r]
        first = r
        for k in range(c0, c1):
            for v in block[starts[k] - starts[c0]:starts[k + 1] - starts[c0]]:
                for _ in range(2):
                    v = v - (B[first:r] @ v) @ B[first:r]
                norm = float(np.linalg.norm(v))
                if norm > tol and r < n:
                    B[r] = v / norm
                    r += 1
            if r == n and n:
                return B[:r], k
    return B[:r], None


def add_file_loops(tree: RigidBodyTree, loops: list) -> None:
    """Add ``loops`` (``(where, name, kind, body_a, frame_a, body_b, frame_b)``, ``where`` being
    ``file:line``, each body given by name) to ``tree``; a bad one, or one that leaves the mechanism
    no freedom, raises :class:`FileFormatError` naming the file, line and loop."""
    before = len(tree.loops)
    for at, name, kind, body_a, Xa, body_b, Xb in loops:
        try:
            tree.add_loop(name, body_a, Xa, body_b, Xb, kind)
        except KineTreeError as exc:
            raise FileFormatError(f"{at}: loop {name!r}: {exc}") from None
    if not loops:
        return
    _, full = _row_basis(tree)
    if full is not None:
        at, name = loops[max(full - before, 0)][:2]
        raise FileFormatError(f"{at}: loop {name!r}: over-constrains the mechanism: with it the loops fix all "
                              f"{tree.dof_count} degrees of freedom (nothing can move); remove the loop or free a "
                              "joint")


def default_actuation(tree: RigidBodyTree) -> list[str]:
    """When ``tree`` has loops and no passive joint: mark passive every revolute or prismatic joint
    but the first ones in body (document) order that the loops leave free, as many as the
    mechanism's mobility; return the names of the joints left actuated (empty: nothing changed).

    The passive joints are the columns of the constraint Jacobian (at a generic configuration)
    that a basis takes when built from the last column back: every earlier column it does not
    need is a joint the loops leave free. The columns are taken in the Jacobian's row-space basis
    (the same dependencies, at most ``dof`` rows)."""
    if not tree.loops or any(not b.joint.actuated for b in tree.bodies):
        return []
    B, _ = _row_basis(tree)
    col, movable = 0, []
    for b in tree.bodies:
        if b.joint.type in ("revolute", "prismatic") and b.joint.mimic is None:
            movable.append((b, col))
        col += b.joint.velocity_count
    r = B.shape[0]
    Q, k, free = np.empty((r, r)), 0, set()  # the basis taken so far, one vector a row (contiguous)
    tol = _RANK_TOL * max(1.0, float(np.abs(B).max(initial=0.0)))
    cols = np.ascontiguousarray(B.T)
    for b, c in reversed(movable):
        v = cols[c].copy()
        for _ in range(2):
            v -= (Q[:k] @ v) @ Q[:k]
        norm = float(np.linalg.norm(v))
        if norm > tol and k < r:
            Q[k] = v / norm
            k += 1
        else:
            free.add(b.name)
    for b, _ in movable:
        if b.name not in free:
            b.joint.actuated = False
    return [b.joint.name for b, _ in movable if b.name in free]
