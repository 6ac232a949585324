"""Closed loops in robot files, shared by the URDF, SDFormat and MJCF readers and writers.

- :func:`loop_element` / :func:`read_loop_element`: KineTree's own ``<kinetree_loops>`` element
  (``<loop name kind body_a frame_a body_b frame_b/>``, each frame 12 numbers: the 3×4 top of the
  4×4 matrix, row by row, written with ``repr``; ``<passive joint/>`` for each passive joint).
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

from ..errors import FileFormatError, KineTreeError
from ..loops import LOOP_KINDS, MAX_LOOPS
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


def read_loop_element(el, error: Callable[[object, str, str], FileFormatError]) -> tuple[list, list]:
    """``(loops, passive)`` of a ``<kinetree_loops>`` element: loops as ``(line, name, kind, body_a,
    frame_a, body_b, frame_b)`` (``line``: the element's line), passive joints as ``(line, joint)``;
    ``error(element, what, message)`` makes the exception (naming file and line)."""
    loops, passive = [], []
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
        else:
            raise error(child, f"<{LOOPS_TAG}>", f"unknown element <{child.tag:.80}>; expected <loop> or <passive>")
    return loops, passive


def add_file_loops(tree: RigidBodyTree, loops: list) -> None:
    """Add ``loops`` (``(where, name, kind, body_a, frame_a, body_b, frame_b)``, ``where`` being
    ``file:line``, each body given by name) to ``tree``; a bad one, or one that leaves the mechanism
    no freedom, raises :class:`FileFormatError` naming the file, line and loop."""
    rank = 0
    rng = np.random.default_rng(0)
    x = tree.random_configuration(rng) if loops else None
    for at, name, kind, body_a, Xa, body_b, Xb in loops:
        where = f"{at}: loop {name!r}"
        try:
            tree.add_loop(name, body_a, Xa, body_b, Xb, kind)
        except KineTreeError as exc:
            raise FileFormatError(f"{where}: {exc}") from None
        # the rank at a generic (random, open) configuration: the loops' independent equations
        s = np.linalg.svd(tree.constraint_jacobian(x), compute_uv=False)
        new = int(np.sum(s > _RANK_TOL * max(1.0, float(s[0]))))
        if new >= tree.dof_count and new > rank:
            raise FileFormatError(f"{where}: over-constrains the mechanism: with it the loops fix all {tree.dof_count} "
                                  "degrees of freedom (nothing can move); remove the loop or free a joint")
        rank = new


def default_actuation(tree: RigidBodyTree) -> list[str]:
    """When ``tree`` has loops and no passive joint: mark passive every revolute or prismatic joint
    but the first ones in body (document) order that the loops leave free, as many as the
    mechanism's mobility; return the names of the joints left actuated (empty: nothing changed)."""
    if not tree.loops or any(not b.joint.actuated for b in tree.bodies):
        return []
    x = tree.random_configuration(np.random.default_rng(0))
    J = tree.constraint_jacobian(x)

    def rank(cols: list[int]) -> int:
        if not cols:
            return 0
        s = np.linalg.svd(J[:, cols], compute_uv=False)
        return int(np.sum(s > _RANK_TOL * max(1.0, float(s[0]))))

    full = rank(list(range(J.shape[1])))
    col, movable = 0, []
    for b in tree.bodies:
        n = b.joint.velocity_count
        if b.joint.type in ("revolute", "prismatic") and b.joint.mimic is None:
            movable.append((b, col))
        col += n
    fixed_cols = [c for c in range(J.shape[1]) if c not in {c for _, c in movable}]
    passive = [c for _, c in movable]
    actuated = []
    for b, c in movable:  # actuate a joint when the other passive ones still carry every equation
        rest = [p for p in passive if p != c]
        if len(fixed_cols) + len(actuated) >= J.shape[1] - full:
            break
        if rank(rest) == rank(passive):
            passive, actuated = rest, [*actuated, b]
    for b, _ in movable:
        if b not in actuated:
            b.joint.actuated = False
    return [b.joint.name for b in actuated]
