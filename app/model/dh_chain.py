"""The DH-chain model the overlay draws and the Explain, Exercise and symbolic docks read: a
serial chain as a DH table (:class:`DHChain`), each link's elementary motions, the chain of the
selected body (cached across edits off its path), and the subscript and value texts. No Qt.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from kinetree.core import DHLink, KineTreeError, RigidBodyTree, chain_dh_table, extract_dh
from kinetree.core.dh.chain import chain_numbering, chain_path
from kinetree.core.transforms import dh_transform, mdh_transform

from .numbers import fixed_text

STEPS = {"dh": ("Rz", "Tz", "Tx", "Rx"), "mdh": ("Rx", "Tx", "Rz", "Tz")}
#: the DH parameter each elementary motion moves by
PARAM = {"Rz": "theta", "Tz": "d", "Tx": "a", "Rx": "alpha"}
SYMBOL = {"a": "a", "alpha": "α", "d": "d", "theta": "θ"}
_SUB = str.maketrans("0123456789-", "₀₁₂₃₄₅₆₇₈₉₋")


def sub(k: int) -> str:
    """``k`` as subscript digits (x₂, θ₁₀)."""
    return str(k).translate(_SUB)


def elementary(kind: str, value: float) -> np.ndarray:
    """The 4×4 of one elementary motion: ``Rz``, ``Rx`` (radians) or ``Tz``, ``Tx`` (metres)."""
    T = np.eye(4)
    c, s = math.cos(value), math.sin(value)
    if kind == "Rz":
        T[:2, :2] = [[c, -s], [s, c]]
    elif kind == "Rx":
        T[1:3, 1:3] = [[c, -s], [s, c]]
    elif kind == "Tz":
        T[2, 3] = value
    elif kind == "Tx":
        T[0, 3] = value
    else:
        raise KineTreeError(f"unknown elementary motion {kind!r}; expected Rz, Tz, Tx or Rx")
    return T


def link_values(link: DHLink, q: float) -> dict[str, float]:
    """The row's a, α, d, θ at joint position ``q``: the variable is ``±(q + offset)`` (− for a
    flipped axis), as the joint moves the body; the variable's own cell does not count."""
    s = -1.0 if link.flip else 1.0
    theta = s * (q + link.offset) if link.joint == "R" else link.theta
    d = s * (q + link.offset) if link.joint == "P" else link.d
    return {"a": link.a, "alpha": link.alpha, "d": d, "theta": theta}


@dataclass
class DHChain:
    """A serial chain as a DH table: ``links[k]`` moves ``bodies[k]`` by joint ``joints[k]``.
    ``base`` is DH frame 0 in the tree base. ``extracted``: the table was computed by
    :func:`extract_dh` (the DH frames are not the tree's body frames)."""

    bodies: list[str]
    links: list[DHLink]
    convention: str
    joints: list[str]
    base: np.ndarray = field(default_factory=lambda: np.eye(4))
    extracted: bool = False
    tool: np.ndarray = field(default_factory=lambda: np.eye(4))  # the tip body in the last DH frame

    @property
    def count(self) -> int:
        return len(self.links)

    def variables(self, tree: RigidBodyTree, q: np.ndarray) -> np.ndarray:
        """Each link's joint position in the configuration ``q``."""
        return np.array([q[tree.position_index(j).start] for j in self.joints], dtype=float)

    def values(self, i: int, qi: float) -> dict[str, float]:
        """a, α, d, θ of link ``i`` (1-based) at its joint position ``qi``."""
        return link_values(self.links[i - 1], qi)

    def steps(self, i: int, qi: float) -> list[tuple[str, float]]:
        """Link ``i``'s elementary motions ``(kind, value)`` in the order of its convention."""
        v = self.values(i, qi)
        return [(kind, v[PARAM[kind]]) for kind in STEPS[self.convention]]

    def link_transform(self, i: int, qi: float) -> np.ndarray:
        return self.row_transform(self.values(i, qi))

    def row_transform(self, v: dict[str, float]) -> np.ndarray:
        """The A_i of a row ``v`` (a, α, d, θ; metres, radians) in the chain's convention."""
        f = dh_transform if self.convention == "dh" else mdh_transform
        return f(v["a"], v["alpha"], v["d"], v["theta"])

    def frames(self, tree: RigidBodyTree, q: np.ndarray) -> np.ndarray:
        """(n + 1, 4, 4): DH frames 0…n in the tree base: ``base · A_1 ⋯ A_i``."""
        qs = self.variables(tree, q)
        F = np.empty((self.count + 1, 4, 4))
        F[0] = self.base
        for i in range(1, self.count + 1):
            F[i] = F[i - 1] @ self.link_transform(i, qs[i - 1])
        return F

    @cached_property
    def _shift(self) -> int:
        return chain_numbering(list(self.joints))

    def number(self, i: int) -> int:
        """Link ``i``'s number as the robot's own (the lecture's) numbering has it: ``i``, or
        ``i + 3`` on a spherical wrist whose joints are named q4, q5, q6 (it writes A₄, θ₄, z₃)."""
        return i + self._shift  # (once per chain: the Explain dock asked ~90 times per walk step, 6 ms)

    def index(self, i: int, param: str) -> int:
        """The subscript of link ``i``'s parameter: Craig's a and α belong to frame i − 1."""
        return self.number(i - 1 if self.convention == "mdh" and param in ("a", "alpha") else i)

    def link_of(self, tree: RigidBodyTree, body: str | None) -> int | None:
        """The link (1-based) that moves ``body``: its own, or that of the nearest movable
        ancestor on the chain (a fixed tool moves with the last link)."""
        name = body
        while name is not None and name != tree.base_name:
            if name in self.bodies:
                return self.bodies.index(name) + 1
            name = tree.parent_name(name)
        return None


def dh_chain_to(tree: RigidBodyTree, tip: str | None = None, convention: str = "dh") -> DHChain:
    """The DH table of the path base → ``tip`` (default: the last body): the joints' stored
    rows when every body on the path has one in one convention, else :func:`extract_dh`'s in
    ``convention``. Raises KineTreeError (with the reason) when the path has no DH table."""
    entries = chain_dh_table(tree, tip)
    if not entries:
        raise KineTreeError("the robot has no bodies, so no DH table")
    stored = (all(e.link is not None for e in entries) and len({e.convention for e in entries}) == 1
              and all(getattr(tree.get_body(e.body).joint, "mimic", None) is None for e in entries))
    if stored:
        links = [e.link for e in entries]
        return DHChain([e.body for e in entries], links, entries[0].convention,
                       [tree.get_body(e.body).joint.name for e in entries])
    ex = extract_dh(tree, tip, convention)
    if not ex.links:
        raise KineTreeError(f"the path to {ex.tip!r} has no movable joint, so no DH table")
    return DHChain([link.name for link in ex.links], list(ex.links), ex.convention,
                   [link.joint_name for link in ex.links], ex.base, extracted=True, tool=ex.tool)


#: chains computed lately, by what they depend on (:func:`path_key`): an undo, or a selection
#: going back to a body, finds its chain here instead of running extract_dh again
CHAIN_CACHE_SIZE = 16
_CHAINS: OrderedDict[tuple, DHChain | str] = OrderedDict()


def path_key(tree: RigidBodyTree, tip: str | None) -> tuple:
    """Everything :func:`dh_chain_to` reads from the path base → ``tip``: per body its name and
    its joint's name, type, axis, offset, fixed transforms, DH row, mimic, limits and home. Two
    trees (or one tree before and after an edit elsewhere) with equal keys have equal chains.
    (The links' visuals are not part of it: drawing and explaining do not use them.)"""
    out = []
    for name in chain_path(tree, tip):
        j = tree.get_body(name).joint
        out.append((name, j.name, j.type, j.axis.tobytes(), float(j.offset),
                    j.joint_to_parent_transform.tobytes(), j.child_to_joint_transform.tobytes(),
                    repr(j.dh_parameters), repr(j.mimic), j.position_limits.tobytes(),
                    np.asarray(j.home_position, dtype=float).tobytes()))
    return tuple(out)


def cached_chain(tree: RigidBodyTree, tip: str | None, convention: str = "dh") -> DHChain:
    """:func:`dh_chain_to`, remembered for the last :data:`CHAIN_CACHE_SIZE` paths (by
    :func:`path_key`, so an edit off the path, or its undo, costs no new extraction: ~100 ms on
    a 200-joint path). Raises KineTreeError as :func:`dh_chain_to` does (also remembered)."""
    key = (path_key(tree, tip), tip, convention)
    hit = _CHAINS.get(key)
    if hit is None:
        try:
            hit = dh_chain_to(tree, tip, convention)
        except KineTreeError as exc:
            hit = str(exc)
        _CHAINS[key] = hit
        while len(_CHAINS) > CHAIN_CACHE_SIZE:
            _CHAINS.popitem(last=False)
    else:
        _CHAINS.move_to_end(key)
    if isinstance(hit, str):
        raise KineTreeError(hit)
    return hit


def chain_tip(tree: RigidBodyTree, selected: str | None) -> str | None:
    """The tip of the chain the overlay shows: the last body's when nothing is selected or the
    selection is on that path, else the selected body (a branch of a tree)."""
    if tree.num_bodies == 0:
        return None
    if selected is None or selected == tree.base_name or selected in chain_path(tree):
        return tree.body_names[-1]
    return selected


def value_text(param: str, value: float) -> str:
    if param in ("theta", "alpha"):
        deg = math.degrees(value)
        return f"{fixed_text(deg, 1)}°" if abs(deg - round(deg)) > 0.05 else f"{fixed_text(deg, 0)}°"
    return f"{fixed_text(value, 3)} m"
