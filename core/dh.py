"""Serial chains from DH tables, and DH tables back from chains."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .body import RigidBody
from .errors import InvalidJointError
from .joint import Joint
from .tree import RigidBodyTree


@dataclass
class DHLink:
    """One row of a DH table.

    ``joint`` is ``"R"`` (revolute: θ is the variable) or ``"P"`` (prismatic: d is the
    variable). The variable's own cell is kept but does not move the link; ``offset`` does
    (Corke's convention: the joint moves by ``q + offset``). ``qlim`` is ``(min, max)``.
    """

    joint: str = "R"
    a: float = 0.0
    alpha: float = 0.0
    d: float = 0.0
    theta: float = 0.0
    offset: float = 0.0
    qlim: tuple[float, float] | None = None
    name: str = ""
    joint_name: str = ""
    flip: bool = False
    visuals: list = field(default_factory=list)

    @property
    def joint_type(self) -> str:
        if self.joint not in ("R", "P"):
            raise InvalidJointError(f"DH row {self.name or '?'}: joint must be 'R' or 'P', got {self.joint!r}")
        return "revolute" if self.joint == "R" else "prismatic"


def dh_chain(links: list[DHLink], convention: str = "dh", base_name: str = "base",
             tool: list | None = None) -> RigidBodyTree:
    """A serial chain with one body per DH row: bodies ``link1…linkN``, joints ``q1…qN``
    (or the rows' names). Rows are standard (``"dh"``) or modified (``"mdh"``) DH."""
    tree = RigidBodyTree(base_name)
    parent = base_name
    for i, link in enumerate(links, start=1):
        body = RigidBody(link.name or f"link{i}")
        joint = Joint(link.joint_name or f"q{i}", link.joint_type)
        joint.set_fixed_transform([link.a, link.alpha, link.d, link.theta], convention)
        if link.qlim is not None:
            joint.set_limits(link.qlim, home=min(max(0.0, link.qlim[0]), link.qlim[1]))
        joint.offset = link.offset
        if link.flip:
            joint.axis = [0, 0, -1]
        body.joint = joint
        for v in link.visuals:
            body.visuals = (*body.visuals, v)
        tree.add_body(body, parent)
        parent = body.name
    return tree


class DHEntry(NamedTuple):
    """A body on a chain and its DH row; ``link`` is ``None`` and ``reason`` says why when the
    body is not DH-expressible."""

    body: str
    link: DHLink | None
    convention: str | None
    reason: str = ""


def chain_path(tree: RigidBodyTree, tip: str | None = None) -> list[str]:
    """Body names from the base's child down to ``tip`` (default: the last body)."""
    if tree.num_bodies == 0:
        return []
    path = []
    name: str | None = tip or tree.body_names[-1]
    while name is not None and name != tree.base_name:
        path.append(name)
        name = tree.parent_name(name)
    return path[::-1]


def chain_dh_table(tree: RigidBodyTree, tip: str | None = None) -> list[DHEntry]:
    """The DH rows stored on the path from the base to ``tip`` (default: the last body)."""
    rows = []
    for name in chain_path(tree, tip):
        j = tree.get_body(name).joint
        dh = j.dh_parameters
        if j.type not in ("revolute", "prismatic"):
            rows.append(DHEntry(name, None, None, f"a {j.type} joint has no DH row"))
        elif dh is None:
            rows.append(DHEntry(name, None, None, "its joint was set from a matrix, not a DH row"))
        elif abs(abs(j.axis[2]) - 1) > 1e-12:
            rows.append(DHEntry(name, None, None, f"its axis {j.axis.round(3).tolist()} is not ±z"))
        else:
            lo, hi = j.position_limits
            link = DHLink("R" if j.type == "revolute" else "P", dh.a, dh.alpha, dh.d, dh.theta,
                          j.offset, (float(lo), float(hi)), name, j.name, flip=bool(j.axis[2] < 0),
                          visuals=list(tree.get_body(name).visuals))
            rows.append(DHEntry(name, link, dh.convention))
    return rows
