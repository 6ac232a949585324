"""Serial chains from DH tables, and DH tables back from chains."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import NamedTuple

import numpy as np

from ..errors import InvalidJointError, InvalidTransformError
from ..model.body import RigidBody
from ..model.joint import Joint
from ..number_text import compact_text, numbers_text
from ..tree import RigidBodyTree


@dataclass
class _DHRow:
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
    home: float | None = None
    convention: str | None = field(default=None, compare=False)
    # Corke's dynamics (his ``Link`` keywords): None keeps the body's or joint's own value
    m: float | None = None
    r: tuple[float, float, float] | None = None
    I: tuple[float, ...] | None = None
    G: float | None = None
    B: float | None = None
    Jm: float | None = None
    Tc: float | tuple[float, float] | None = None


_ORDERS = ("DHLink takes its numbers by keyword (DHLink('R', a=…, alpha=…, d=…, theta=…, offset=…)); "
           "positional numbers would be read in KineTree's order [a α d θ], not in Corke's Link "
           "order [θ d a α]; for Corke's list use DHLink.from_corke([θ, d, a, α, σ, offset])")


class DHLink(_DHRow):
    """One row of a DH table.

    ``joint`` is ``"R"`` (revolute: θ is the variable) or ``"P"`` (prismatic: d is the
    variable). The variable's own cell is kept but does not move the link; ``offset`` does
    (Corke's convention: the joint moves by ``q + offset``). ``qlim`` is ``(min, max)``;
    ``home`` the home position (default: 0 clipped into the limits).

    Dynamics by Corke's keywords, ``None`` keeping the body's and joint's own: ``m`` (mass),
    ``r`` (centre of mass in the link frame), ``I`` (inertia about the centre of mass, Corke's
    ``[Ixx Iyy Izz]``, ``[Ixx Iyy Izz Ixy Iyz Ixz]`` or 3×3), and the motor-referred ``G`` (gear
    ratio), ``Jm`` (motor inertia), ``B`` (viscous) and ``Tc`` (Coulomb friction, ``F`` or
    ``(Tc⁺, Tc⁻)``); see :mod:`~kinetree.core.model.joint_motor`.

    Give the numbers by keyword (``a=``, ``alpha=``, ``d=``, ``theta=``, ``offset=``): a list
    of four positional numbers, Corke's ``Link([θ d a α])`` habit, is refused rather than read
    as ``[a α d θ]``; :meth:`from_corke` reads Corke's order.
    """

    def __init__(self, joint: str = "R", *numbers, **fields) -> None:
        if not isinstance(joint, str):
            raise InvalidJointError(f"DHLink: joint must be 'R' or 'P', got {joint!r:.80}; {_ORDERS}")
        if len(numbers) >= 4:
            raise InvalidJointError(f"DHLink({joint!r}, {', '.join(f'{v!r:.20}' for v in numbers)}): {_ORDERS}")
        super().__init__(joint, *numbers, **fields)

    @classmethod
    def from_corke(cls, dh=None, convention: str = "standard", **fields) -> DHLink:
        """A row as Corke's ``Link``/``RevoluteDH`` makes it: from his list ``[θ d a α]``,
        ``[θ d a α σ]`` or ``[θ d a α σ offset]`` (σ = 0 revolute, 1 prismatic) and/or by his
        keywords (``theta=``, ``d=``, ``a=``, ``alpha=``, ``offset=``, ``qlim=``, ``m=``, ``r=``,
        ``I=``, ``G=``, ``B=``, ``Jm=``, ``Tc=``; ``sigma=1`` or ``joint="P"`` for prismatic).
        ``convention`` is Corke's ``"standard"`` or ``"modified"``, kept as the row's
        ``convention`` (``"dh"``/``"mdh"``), which :func:`dh_chain` follows.

        Corke's defaults, not MATLAB's: mass, centre of mass and inertia zero, gear ratio 1, no
        motor inertia or friction, and no joint limit (``qlim`` absent: ``(−inf, inf)``)."""
        if convention not in ("standard", "modified"):
            raise InvalidJointError(f"DHLink.from_corke: convention must be 'standard' or 'modified', "
                                    f"got {convention!r:.40}")
        values = [0.0, 0.0, 0.0, 0.0]
        if dh is not None:
            try:
                values = [float(v) for v in dh]
            except (TypeError, ValueError):
                raise InvalidJointError(f"DHLink.from_corke: [θ d a α σ offset] must be numbers, "
                                        f"got {dh!r:.80}") from None
            if len(values) not in (4, 5, 6):
                raise InvalidJointError(f"DHLink.from_corke: expected 4, 5 or 6 numbers [θ d a α σ offset], "
                                        f"got {len(values)}: {values}")
        theta, d, a, alpha, sigma, offset = (values + [0.0, 0.0])[:6]
        known = {f.name for f in dataclass_fields(cls)} - {"joint", "convention"}
        if unknown := sorted(set(fields) - known - {"sigma"}, key=str):
            raise InvalidJointError(f"DHLink.from_corke: unknown keyword {str(unknown[0])[:40]!r}; Corke's are "
                                    "theta d a alpha sigma offset qlim m r I G B Jm Tc (and name, joint_name, home, "
                                    "flip, visuals)")
        if "sigma" in fields:
            sigma = fields.pop("sigma")
        if sigma not in (0, 1):
            raise InvalidJointError(f"DHLink.from_corke: σ must be 0 (revolute) or 1 (prismatic), got {sigma!r:.40}")
        row = dict(joint="P" if sigma else "R", a=a, alpha=alpha, d=d, theta=theta, offset=offset,
                   qlim=(-math.inf, math.inf), m=0.0, r=(0.0, 0.0, 0.0), I=(0.0, 0.0, 0.0))
        row.update({k: v for k, v in fields.items() if not (k == "qlim" and v is None)})
        return cls(convention="mdh" if convention == "modified" else "dh", **row)

    def apply_dynamics(self, body: RigidBody) -> None:
        """Give ``body`` (and its joint) the row's Corke dynamics (``m r I G B Jm Tc``) that are set."""
        if self.m is not None or self.r is not None or self.I is not None:
            body.set_inertia_corke(body.inertia_corke if self.I is None else self.I, self.m, self.r)
        j = body.joint
        for value, attr in ((self.G, "gear_ratio"), (self.Jm, "motor_inertia"), (self.B, "viscous_friction"),
                            (self.Tc, "coulomb_friction")):
            if value is not None:
                setattr(j, attr, value)

    def __repr__(self) -> str:
        """One line, as Corke's ``Link`` display: the row's numbers, then what is set beyond them."""
        def text(v) -> str:
            if isinstance(v, str):
                return repr(v)
            try:
                return numbers_text(v) if np.ndim(v) else compact_text(v)
            except (TypeError, ValueError):
                return f"{v!r:.40}"

        def shown(k: str, v) -> bool:  # None, "" and a zero offset are the defaults; m = 0 is Corke's, shown
            if v is None or (isinstance(v, str) and not v):
                return False
            return k != "offset" or not (np.ndim(v) == 0 and v == 0)

        parts = [f"{self.joint!r:.20}"] + [f"{k}={text(getattr(self, k))}" for k in ("a", "alpha", "d", "theta")]
        parts += [f"{k}={text(v)}" for k in ("offset", "qlim", "home", "name", "joint_name", "convention",
                                              "m", "r", "I", "G", "B", "Jm", "Tc") if shown(k, v := getattr(self, k))]
        if self.flip:
            parts.append("flip=True")
        if self.visuals:
            parts.append(f"visuals=<{len(self.visuals)}>")
        return f"DHLink({', '.join(parts)})"

    @property
    def joint_type(self) -> str:
        if self.joint not in ("R", "P"):
            raise InvalidJointError(f"DH row {self.name or '?'}: joint must be 'R' or 'P', got {self.joint!r}")
        return "revolute" if self.joint == "R" else "prismatic"


def dh_joint(link: DHLink, name: str, convention: str) -> Joint:
    """A revolute/prismatic joint called ``name`` set from a DH row."""
    joint = Joint(name, link.joint_type)
    joint.set_fixed_transform([link.a, link.alpha, link.d, link.theta], convention)
    if link.qlim is not None:
        home = link.home if link.home is not None else min(max(0.0, link.qlim[0]), link.qlim[1])
        joint.set_limits(link.qlim, home=home)
    elif link.home is not None:
        joint.home_position = link.home
    joint.offset = link.offset
    if link.flip:
        joint.axis = [0, 0, -1]
    return joint


def _fresh(stem: str, taken: set[str], start: dict[str, int]) -> str:
    """``{stem}{k}`` for the first k not in ``taken`` (which gains it). ``start`` remembers
    where the last search for each stem ended: ``taken`` only grows, so the names below it
    stay taken and naming n rows costs O(n), not O(n²)."""
    k = start.get(stem, 1)
    while f"{stem}{k}" in taken:
        k += 1
    start[stem] = k + 1
    taken.add(f"{stem}{k}")
    return f"{stem}{k}"


def chain_names(links: list[DHLink], base_name: str = "base") -> list[tuple[str, str]]:
    """``(body name, joint name)`` of each row in the chain :func:`dh_chain` builds: the row's
    own names, else the first free ``linkK`` / ``qK``."""
    names = {link.name for link in links if link.name} | {base_name}
    joint_names = {link.joint_name for link in links if link.joint_name}
    counters: dict[str, int] = {}
    return [(link.name or _fresh("link", names, counters), link.joint_name or _fresh("q", joint_names, counters))
            for link in links]


def rebuild_chain(tree: RigidBodyTree, links: list[DHLink], convention: str = "dh") -> RigidBodyTree:
    """A serial chain with one body per row, on ``tree``'s base. Rows whose ``name`` is a
    body of ``tree`` reuse that body (inertia, visuals, motor and friction); new rows get fresh names
    ``linkK``/``qK``. Rows are standard (``"dh"``) or modified (``"mdh"``) DH."""
    new = RigidBodyTree(tree.base_name, tree.gravity)
    new._take_base_properties(tree.base)
    # kept per joint name, for the rows that keep theirs: a deleted row's value must not come
    # back if a new row is later given its (fresh) name
    new._named_poses = tree.named_poses._copy_for(new, [link.joint_name for link in links if link.joint_name])
    old_bodies = set(tree.body_names)
    parent = tree.base_name
    for link, (name, joint_name) in zip(links, chain_names(links, tree.base_name)):
        kept = None
        if link.name and link.name in old_bodies:
            body = tree.get_body(link.name).copy()
            kept = body.joint
        else:
            body = RigidBody(name)
        body.joint = dh_joint(link, joint_name, convention)
        if kept is not None:
            body.joint.take_motor(kept)  # a kept body keeps its motor, as its inertia
        if link.visuals and not body.visuals:
            body.visuals = link.visuals
        link.apply_dynamics(body)
        new.add_body(body, parent)
        parent = body.name
    return new


def dh_chain(links: list[DHLink], convention: str | None = None, base_name: str = "base") -> RigidBodyTree:
    """A serial chain with one body per DH row: bodies ``link1…linkN`` and joints ``q1…qN``
    unless the rows name them. Rows are standard (``"dh"``, the default) or modified
    (``"mdh"``) DH; rows made by :meth:`DHLink.from_corke` bring their own convention, and one
    that contradicts ``convention`` or another row's is refused."""
    said = {link.convention for link in links if link.convention is not None}
    if convention is not None:
        said.add(convention)
    if len(said) > 1:
        raise InvalidTransformError(f"dh_chain: rows in both conventions {sorted(said)}; a chain has one")
    return rebuild_chain(RigidBodyTree(base_name), links, said.pop() if said else "dh")


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
            link = DHLink("R" if j.type == "revolute" else "P", a=dh.a, alpha=dh.alpha, d=dh.d, theta=dh.theta,
                          offset=j.offset, qlim=(float(lo),
                                                 float(hi)), name=name, joint_name=j.name, flip=bool(j.axis[2] < 0),
                          visuals=list(tree.get_body(name).visuals), home=float(j.home_position))
            rows.append(DHEntry(name, link, dh.convention))
    return rows


def chain_numbering(joint_names: list[str]) -> int:
    """How far a chain's numbers are shifted from 1: 3 when its joints are named ``q4``, ``q5``,
    ``q6`` (counting up by one: a part of a larger robot, numbered as there, like the lecture's
    spherical wrist), else 0."""
    ks = [int(m.group(1)) if (m := re.fullmatch(r"q([1-9]\d{0,3})", n)) else None for n in joint_names]
    if not ks or None in ks or ks != list(range(ks[0], ks[0] + len(ks))):
        return 0
    return ks[0] - 1


#: Digits as Unicode subscripts (θ₁, d₃, z₀): the lecture's indices in plain text.
SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
#: How :func:`joint_variable` writes a variable: ``θ1``, ``θ₁``, ``θ<sub>1</sub>``, ``\theta_{1}``.
VARIABLE_FORMATS = ("text", "unicode", "html", "latex")


def subscript(k: int | str) -> str:
    """``k`` in subscript digits: ``12`` → ``₁₂``."""
    return str(k).translate(SUBSCRIPT)


def joint_variable(joint: str, k: int, fmt: str = "unicode") -> str:
    """The lecture's name of the variable of DH row ``k``: θ for a revolute joint (``joint``
    ``"R"``), d for a prismatic one (``"P"``); ``fmt`` one of :data:`VARIABLE_FORMATS`."""
    symbol = {"R": ("θ", r"\theta"), "P": ("d", "d")}[joint]
    if fmt == "text":
        return f"{symbol[0]}{k}"
    if fmt == "unicode":
        return symbol[0] + subscript(k)
    if fmt == "html":
        return f"{symbol[0]}<sub>{k}</sub>"
    if fmt == "latex":
        return f"{symbol[1]}_{{{k}}}"
    raise ValueError(f"fmt must be one of {', '.join(VARIABLE_FORMATS)}, got {fmt!r:.80}")


def lecture_variables(tree: RigidBodyTree) -> dict[str, tuple[str, int]]:
    """``{joint name: ("R"|"P", k)}`` for every joint set by a DH row: k is its row's number in
    the DH table, the body's place on its chain from the base (a fixed joint before it still
    counts: its row is there, not DH), shifted as :func:`chain_numbering` says (a wrist named q4,
    q5, q6 keeps 4…6)."""
    names = tree.movable_joint_names
    shift, movable = chain_numbering(names), set(names)
    depth = {tree.base_name: 0}
    out = {}
    for b in tree.bodies:
        chain = [b.name]  # bodies come after their parents; the walk up is for any that do not
        while (parent := tree.parent_name(chain[-1])) not in depth and parent is not None:
            chain.append(parent)
        base = depth.get(parent, 0) if parent is not None else 0
        for k, name in enumerate(reversed(chain), start=1):
            depth[name] = base + k
        j = b.joint
        if j.dh_parameters is not None and j.type in ("revolute", "prismatic") and j.name in movable:
            out[j.name] = ("R" if j.type == "revolute" else "P", depth[b.name] + shift)
    return out


def variable_label(name: str, variables: dict[str, tuple[str, int]], fmt: str = "unicode") -> str:
    """A joint as a control shows it: its variable (``θ₁``), followed by its name unless that
    only repeats the number (``q1``, ``theta1``, ``d1``, ``θ1``): ``θ₁``, ``d₃``, ``θ₂ shoulder``;
    a joint without a DH row (not in ``variables``) keeps its name."""
    if name not in variables:
        return name
    kind, k = variables[name]
    symbol = joint_variable(kind, k, fmt)
    if re.fullmatch(rf"(?:q|theta|θ)_?{k}" if kind == "R" else rf"(?:q|d)_?{k}", name, re.IGNORECASE):
        return symbol
    return f"{symbol} {name}"
