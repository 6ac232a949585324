"""Symbolic forward kinematics (sympy), printed in the lecture's notation.

``symbolic_fk(tree)`` is T_n^0 and ``symbolic_link(tree, i)`` is A_i as ``sympy.Matrix``es in
the joint variables: ``qk`` (or ``thetak``, ``revolute="theta"``) for a revolute joint and ``dk``
for a prismatic one, ``k`` the position in a configuration vector (so with one-position joints
they follow :attr:`~kinetree.core.tree.RigidBodyTree.movable_joint_names`). ``frame=`` gives T
between two frames of the chain, T_n^j = A_{j+1}···A_n, in the robot's own numbering.

Numbering: the robot's, from 1. A chain whose movable joints are named ``q4``, ``q5``, ``q6``
(counting up by one, as the library's spherical wrist) keeps that numbering: A₄…A₆, ``c4``,
``d6``, T_6^3; ``first=`` sets it explicitly.

Parameters (``params``):

* ``"numeric"``: every constant is a number. Angles that are whole degrees (within 1e-13 rad)
  become exact (``pi/2``, so cos α = 0 exactly; ``5*pi/9``); other angles and every length keep
  their float value.
* ``"symbolic"``: DH rows get symbols for their non-zero lengths (``a1``, ``d2``) and for angles
  that are not multiples of 15° (``alpha4``, ``theta3``), as the lecture's tables do: right
  angles stay numbers. Symbols are numbered by the row's place on the chain; modified DH
  follows Craig (``a0``, ``alpha0`` in A₁). A joint set from a matrix (not a DH row) and a
  joint's ``offset`` stay numeric: they have no symbol in any textbook table.
* ``"general"``: every DH constant is a symbol, zeros too (the generic A_i of the lecture).

Simplification (``sums``): each product ``T·A_i`` is expanded; ``"folded"`` (the default) then
folds sums of products such as ``c1·c2 − s1·s2`` into ``cos(q1 + q2)`` (``c12``), which is what
the lecture does by hand for parallel axes. Only sums are folded, never differences: the
lecture has no shorthand for cos(θ1 + θ2 − θ4), so SCARA's entry stays ``c12*c4 + s12*s4`` as
printed there, and one matrix never mixes the two forms. ``"expanded"`` folds nothing
(``c1*c2 - s1*s2``). Nothing else is rewritten, so entries stay sums of products of
``c_i``/``s_i``. A Puma T₀⁶ takes about 0.3 s.

Term order: :attr:`SymbolicFK.order` keeps each entry's terms in the order the lecture writes
them, the order multiplying T·A_i by hand produces them (T's translation first, then row × column,
k = 1, 2, 3; a folded term where its pair's first term was): ``a1*c1 + a2*c12``, ``-d3 - d4``,
SCARA's ``s12*c4 - c12*s4``, the wrist's ``c4*c5*c6 - s4*s6``. A sympy sum has its own fixed order,
so the printers take this one as ``order=``. :data:`MAX_TERMS` bounds the size of an entry (a
long chain of skew axes doubles it at each joint) and :data:`MAX_WORK` the work of the whole
product (a long chain of parallel axes keeps each entry small but takes minutes):
:class:`~kinetree.core.errors.SymbolicError` beyond either.

Nothing from a robot file is parsed as an expression: symbols are made from fixed names only.
Printing (:mod:`kinetree.core.teach.symbolic_print`): :func:`to_text` (``c1``, ``s12``), :func:`to_latex`
(``c_{1}``, ``s_{12}``), :func:`to_python` (sympy syntax, which :func:`sympy.sympify` reads back),
:func:`matrix_label` (``T_{3}^{0}``, or Craig's ``{}^{0}T_{3}``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from ..dh.chain import chain_numbering, chain_path
from ..errors import SymbolicError
from ..tree import RigidBodyTree
from .symbolic_print import NOTATIONS, matrix_label, to_latex, to_python, to_python_script, to_text

__all__ = ["MAX_TERMS", "MAX_WORK", "NOTATIONS", "PARAMS", "REVOLUTE", "SUMS", "SymbolicFK", "exact_angle",
           "joint_symbol", "matrix_label", "ordered_terms", "symbolic_fk", "symbolic_link", "symbolic_model",
           "term_key", "to_latex", "to_python", "to_python_script", "to_text"]

PARAMS = ("numeric", "symbolic", "general")
#: The name of a revolute joint's variable: ``q1`` (as KineTree always had) or the lecture's ``theta1``.
REVOLUTE = ("q", "theta")
#: Sums of angles folded (``c12``) or expanded (``c1*c2 - s1*s2``), the same in the whole matrix.
SUMS = ("folded", "expanded")
#: The most terms one product entry may have before folding (the library's largest: 57, a humanoid arm).
MAX_TERMS = 400
#: The most work one matrix may take: the sum, over the bodies of the chain whose A_i holds a symbol,
#: of the size (symbols and numbers) of T before multiplying by that A_i. The library's largest (Jaco,
#: "general") takes 13,300 (a few seconds); a planar chain reaches it near 40 joints.
MAX_WORK = 30_000
_DEGREE = math.pi / 180
_ANGLE_TOL = 1e-13
_UNIT_TOL = 1e-15  # rotation entries this close to 0 or ±1 are rounding noise of exact values


def joint_symbol(k: int, kind: str = "revolute", revolute: str = "q") -> sp.Symbol:
    """The variable of configuration position ``k`` (0-based): ``q{k+1}`` (``theta{k+1}``), or
    ``d{k+1}`` for a prismatic joint (the lecture's q_i = θ_i or d_i)."""
    return sp.Symbol(f"{'d' if kind == 'prismatic' else revolute}{k + 1}")


def exact_angle(x: float) -> sp.Expr:
    """``x`` (radians) as an exact multiple of π/180 (a whole number of degrees) when it is one
    to 1e-13, else a Float: ``pi/2`` makes cos α exactly 0."""
    k = round(x / _DEGREE)
    if abs(x - k * _DEGREE) <= _ANGLE_TOL * max(1.0, abs(x)):
        return sp.pi * sp.Rational(k, 180)
    return sp.Float(x)


def _tabulated(angle: sp.Expr) -> bool:
    """Whether a textbook table writes this angle as a number (a multiple of 15°, whose sine
    and cosine are exact)."""
    return not isinstance(angle, sp.Float) and (angle / (sp.pi / 12)).is_integer


def _length(x: float) -> sp.Expr:
    return sp.S.Zero if x == 0 else sp.Float(x)


def _entry(x: float, rotation: bool) -> sp.Expr:
    if rotation:
        for exact in (0, 1, -1):
            if abs(x - exact) <= _UNIT_TOL:
                return sp.Integer(exact)
    return _length(x)


def _matrix(T: np.ndarray) -> sp.Matrix:
    """A numeric 4×4 with its rotation's 0/±1 made exact (lengths keep their float value)."""
    return sp.Matrix(4, 4, lambda r, c: _entry(float(T[r, c]), r < 3 and c < 3))


def _rz(t: sp.Expr) -> sp.Matrix:
    c, s = sp.cos(t), sp.sin(t)
    return sp.Matrix([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])


def _dh(a: sp.Expr, alpha: sp.Expr, d: sp.Expr, theta: sp.Expr, convention: str) -> sp.Matrix:
    ct, st, ca, sa = sp.cos(theta), sp.sin(theta), sp.cos(alpha), sp.sin(alpha)
    if convention == "dh":  # Rz(θ)·Tz(d)·Tx(a)·Rx(α)
        return sp.Matrix([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                          [0, sa, ca, d], [0, 0, 0, 1]])
    # Craig: Rx(α)·Tx(a)·Rz(θ)·Tz(d)
    return sp.Matrix([[ct, -st, 0, a], [st * ca, ct * ca, -sa, -sa * d],
                      [st * sa, ct * sa, ca, ca * d], [0, 0, 0, 1]])


@dataclass
class SymbolicFK:
    """A symbolic pose and what its symbols mean.

    ``matrix`` (4×4), ``variables`` (every joint variable of the tree, in configuration order),
    ``joints`` (the joint name of each variable), ``parameters`` (``{symbol: value}`` of the DH
    constants that ``params`` made symbols), ``frames`` (j, n: the matrix is T_n^j in the
    robot's numbering, A_n when ``link`` is set), ``first`` (the number of the chain's first joint)."""

    matrix: sp.Matrix
    variables: list[sp.Symbol]
    joints: list[str]
    parameters: dict[sp.Symbol, float] = field(default_factory=dict)
    frames: tuple[int, int] = (0, 0)
    link: int | None = None
    first: int = 1
    #: per entry, its terms (by :func:`term_key`) in the order the lecture writes them
    order: list | None = None

    def label(self, fmt: str = "text", notation: str = "spong") -> str:
        """``A3``, ``T_3^0`` (Craig: ``^0T_3``) … in ``fmt`` (see :func:`matrix_label`)."""
        j, n = self.frames
        return matrix_label(n, None if self.link is not None else j, notation, fmt)

    def evaluate(self, q) -> np.ndarray:
        """The numeric 4×4 at configuration ``q`` (vector in configuration order)."""
        f = sp.lambdify([self.variables, list(self.parameters)], self.matrix, "numpy")
        return np.array(f(list(np.asarray(q, dtype=float)), list(self.parameters.values())), dtype=float)


class _Builder:
    """Turns the joints of one tree into symbolic transforms."""

    def __init__(self, tree: RigidBodyTree, params: str, revolute: str = "q", shift: int = 0) -> None:
        for what, value, allowed in (("params", params, PARAMS), ("revolute", revolute, REVOLUTE)):
            if value not in allowed:
                raise SymbolicError(f"{what} must be one of {', '.join(allowed)}, got {value!r:.80}")
        self.tree, self.params, self.shift = tree, params, shift
        self.parameters: dict[sp.Symbol, float] = {}
        self.slots = {b.joint.name: i for b, i in tree.position_slots()}
        names: list[str] = []
        self.variables: list[sp.Symbol] = []
        for b, i in tree.position_slots():
            n = b.joint.position_count
            names += [b.joint.name] * n
            kind = b.joint.type if n == 1 else "revolute"
            self.variables += [joint_symbol(i + k + shift, kind, revolute) for k in range(n)]
        self.joints = names
        self.taken = set(self.variables)

    def _constant(self, value: float, name: str, length: bool) -> sp.Expr:
        if self.params == "general":
            sym = sp.Symbol(name)
        elif length:
            if self.params == "numeric" or value == 0:
                return _length(value)
            sym = sp.Symbol(name)
        else:
            exact = exact_angle(value)
            if self.params == "numeric" or _tabulated(exact):
                return exact
            sym = sp.Symbol(name)
        k = 2
        # a chain mixing standard and modified rows (a_i of both), or a fixed body before a
        # prismatic joint (its variable d_k and row k's constant d_k): one symbol for each
        while sym in self.parameters or sym in self.taken:
            sym, k = sp.Symbol(f"{name}_{k}"), k + 1
        self.parameters[sym] = float(value)
        return sym

    def _variable(self, body) -> sp.Expr:
        """The joint's own position (a mimic follows its leader)."""
        j = body.joint
        if j.mimic is not None:
            leader = self.tree._mimic_leaders(b.joint for b in self.tree.bodies)[j.name]
            m = j.mimic
            gain = sp.Integer(int(m.multiplier)) if float(m.multiplier).is_integer() else sp.Float(m.multiplier)
            extra = exact_angle(m.offset) if j.type == "revolute" else _length(m.offset)
            return gain * self.variables[self.slots[leader.name]] + extra
        return self.variables[self.slots[j.name]]

    def link(self, body, index: int) -> sp.Matrix:
        """The body's pose in its parent, ``index`` (1-based) its number on the chain."""
        j = body.joint
        if j.type == "fixed":
            return _matrix(j._jtp @ j._ctj)
        if j._rows:
            raise SymbolicError(f"joint {j.name!r} is {j.type} (a motion subspace of {len(j._rows)} rows): "
                                "symbolic matrices take revolute, prismatic, planar and fixed joints")
        if j.type in ("floating", "spherical"):
            raise SymbolicError(f"joint {j.name!r} is {j.type}: its quaternion has no symbolic form here; "
                                "symbolic matrices take revolute, prismatic, planar and fixed joints")
        if j.type == "planar":
            k = self.slots[j.name]
            x, y, t = self.variables[k:k + 3]
            M = _rz(t)
            M[0, 3], M[1, 3] = x, y
            return _matrix(j._jtp) * M * _matrix(j._ctj)
        v = self._variable(body)
        off = exact_angle(j.offset) if j.type == "revolute" else _length(j.offset)
        motion = v + off
        dh = j.dh_parameters
        if dh is not None and abs(abs(j.axis[2]) - 1) <= 1e-12:
            motion = motion if j.axis[2] > 0 else -motion
            lo = index - 1 if dh.convention == "mdh" else index  # Craig: a_{i-1}, α_{i-1}
            a = self._constant(dh.a, f"a{lo}", True)
            alpha = self._constant(dh.alpha, f"alpha{lo}", False)
            if j.type == "revolute":
                theta, d = motion, self._constant(dh.d, f"d{index}", True)
            else:
                theta, d = self._constant(dh.theta, f"theta{index}", False), motion
            return _dh(a, alpha, d, theta, dh.convention)
        # a matrix-set joint: JointToParent · M(q) · ChildToJoint, numeric constants
        axis = [_entry(float(x), True) for x in j.axis]
        if j.type == "revolute":
            c, s = sp.cos(motion), sp.sin(motion)
            k = sp.Matrix(axis)
            K = sp.Matrix([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
            R = sp.eye(3) + s * K + (1 - c) * K * K
            M = sp.eye(4)
            M[:3, :3] = R.applyfunc(sp.expand)
        else:
            M = sp.eye(4)
            M[:3, 3] = sp.Matrix(axis) * motion
        return _matrix(j._jtp) * M * _matrix(j._ctj)


_SWAP: dict[sp.Expr, sp.Expr] = {}


def _swap(f: sp.Expr) -> sp.Expr:
    """sin ↔ cos of the same argument (memoized: the fold asks for the same few again and again)."""
    g = _SWAP.get(f)
    if g is None:
        g = _SWAP[f] = (sp.sin if isinstance(f, sp.cos) else sp.cos)(f.args[0])
    return g


def _add_term(terms: dict[frozenset, sp.Expr], t: sp.Expr) -> frozenset:
    c, m = t.as_coeff_Mul()
    key = term_key(m)
    total = terms.get(key, 0) + c
    if total == 0:
        terms.pop(key, None)
    else:
        terms[key] = total
    return key


def _fold(terms: dict[frozenset, sp.Expr], rank: dict[frozenset, int]) -> bool:
    """One pass of the lecture's sum-of-angles folding over ``{monomial's factors: coefficient}``:
    ``k·R·cA·cB − k·R·sA·sB → k·R·cos(A + B)`` and ``k·R·sA·cB + k·R·cA·sB → k·R·sin(A + B)``
    (differences are left as they are: the lecture has no shorthand for them).
    Partners are found by hashing their factor sets, so a pass costs O(terms · factors²) set
    operations (sympy's TR10i, which does the same by trying pairs of terms, took minutes on a
    6-joint chain of skew axes). A folded term takes the place (``rank``) of the first of its pair."""
    changed = False
    for key in list(terms):
        if key not in terms:
            continue
        k = terms[key]
        trig = [f for f in key if isinstance(f, (sp.cos, sp.sin))]
        for n, f in enumerate(trig):
            for g in trig[n + 1:]:
                partner = (key - {f, g}) | {_swap(f), _swap(g)}
                kp = terms.get(partner)
                if kp is None or len(partner) != len(key):
                    continue
                if isinstance(f, sp.sin) and isinstance(g, sp.cos):
                    f, g = g, f  # cA·sB with sA·cB, below
                A, B = f.args[0], g.args[0]
                if isinstance(f, sp.cos) and isinstance(g, sp.cos):  # cA·cB with sA·sB
                    new = sp.cos(A + B) * k if kp == -k else None
                elif isinstance(f, sp.sin):  # sA·sB with cA·cB: the partner leads
                    new = sp.cos(A + B) * kp if kp == -k else None
                else:  # cA·sB with sA·cB
                    new = sp.sin(A + B) * k if kp == k else None
                if new is None:
                    continue
                rest = key - {f, g}
                del terms[key], terms[partner]
                place = min(rank[key], rank[partner])
                for t in sp.Add.make_args(sp.expand(sp.Mul(*rest) * new)):
                    rank.setdefault(_add_term(terms, t), place)
                changed = True
                break
            else:
                continue
            break
    return changed


def _entry_of_product(T: sp.Matrix, A: sp.Matrix, order: list, r: int, c: int,
                      fold: bool) -> tuple[sp.Expr, tuple[frozenset, ...]]:
    """Entry (r, c) of T·A, simplified, and its terms in the order the lecture writes them: as a
    hand multiplication produces them, row r of T times column c of A, with T's translation first
    (o_n = o_{n-1} + R_{n-1}·p: ``a1*c1 + a2*c12``, ``-d3 - d4``), then k = 1, 2, 3, each entry
    of T in its own order (``c4*c5*c6 - s4*s6``, SCARA's ``s12*c4 - c12*s4``)."""
    terms: dict[frozenset, sp.Expr] = {}
    rank: dict[frozenset, int] = {}
    for k in (3, 0, 1, 2):
        if A[k, c] == 0:
            continue
        for t in ordered_terms(T[r, k], order[r][k]):
            for p in sp.Add.make_args(sp.expand(t * A[k, c])):
                rank.setdefault(_add_term(terms, p), len(rank))
    while fold and _fold(terms, rank):
        pass
    keys = tuple(sorted(terms, key=rank.__getitem__))
    return sp.Add(*(terms[m] * sp.Mul(*m) for m in keys)), keys


def term_key(monomial: sp.Expr) -> frozenset:
    """What identifies a term whatever its coefficient: the factors of ``monomial`` (no number)."""
    return frozenset(sp.Mul.make_args(monomial))


def ordered_terms(e: sp.Expr, order: tuple[frozenset, ...] | None) -> list[sp.Expr]:
    """The terms of ``e``, those named in ``order`` (by :func:`term_key`) first and in that order."""
    terms = list(sp.Add.make_args(e))
    if not order:
        return terms
    place = {key: n for n, key in enumerate(order)}
    return sorted(terms, key=lambda t: place.get(term_key(t.as_coeff_Mul()[1]), len(place)))


def _size(e: sp.Expr) -> int:
    return 0 if e == 0 else len(sp.Add.make_args(e))


def _nodes(M: sp.Matrix) -> int:
    return sum(1 for e in M for _ in sp.preorder_traversal(e))


def _product(mats: list[sp.Matrix], fold: bool = True) -> tuple[sp.Matrix, list[list[tuple]]]:
    """The product of ``mats`` and, per entry, its terms in the lecture's order (see
    :func:`_entry_of_product`)."""
    T = sp.eye(4)
    order: list[list[tuple]] = [[()] * 4 for _ in range(4)]
    done = 0
    variable = [bool(A.free_symbols) for A in mats]
    to_come = np.cumsum(variable[::-1])[::-1].tolist()  # the steps with symbols from each one on
    for i, A in enumerate(mats):
        # refuse before expanding: the expansion itself is what takes the time
        n = max(sum(_size(T[r, k]) * _size(A[k, c]) for k in range(4)) for r in range(4) for c in range(4))
        if n > MAX_TERMS:
            raise SymbolicError(f"a matrix entry would have up to {n} terms, more than the {MAX_TERMS} a symbolic "
                                "matrix may have: too many joints with skew axes (or symbolic constants) on this "
                                "chain; ask for one link's A_i, or for a body nearer the base")
        if variable[i]:
            # a step with symbols takes time as the size of T; entries rarely shrink, so each such
            # step to come costs at least as much as this one: refuse as soon as that projection is
            # over budget (a 250-joint planar table stays under MAX_TERMS but took minutes)
            size = _nodes(T)
            if done + size * to_come[i] > MAX_WORK:
                raise SymbolicError(
                    f"a chain of {len(mats)} bodies is too long for a symbolic matrix: after {i} of them the matrix "
                    f"already holds {size:,} symbols and numbers, so the {to_come[i]} joints to come would "
                    f"take more than the {MAX_WORK:,} steps KineTree works through (minutes); ask for a body nearer "
                    "the base, or for one link's A_i")
            done += size
        cells = [[_entry_of_product(T, A, order, r, c, fold) for c in range(4)] for r in range(4)]
        T = sp.Matrix([[cells[r][c][0] for c in range(4)] for r in range(4)])
        order = [[cells[r][c][1] for c in range(4)] for r in range(4)]
    return T, order


def _path(tree: RigidBodyTree, body: str | None) -> list:
    if body is None:
        body = tree.end_effector
        if body is None:
            raise SymbolicError("the tree has no bodies: there is no transform to show")
    tree.get_body(body)  # UnknownBodyError for a name that is not there
    return [tree.get_body(n) for n in chain_path(tree, body)]


def _numbering(tree: RigidBodyTree, path: list) -> int:
    """The chain's shift from 1 (:func:`~kinetree.core.dh.chain.chain_numbering`), for a serial chain of
    one-position joints only (where chain places and configuration positions agree)."""
    if not path or len(path) != tree.position_count or any(b.joint.type not in ("revolute", "prismatic")
                                                           for b in path):
        return 0
    return chain_numbering([b.joint.name for b in path])


def _start(tree: RigidBodyTree, path: list, frame: str | None) -> int:
    """The place on the chain (0 = the base) of the frame T is expressed in."""
    if frame is None or frame == tree.base_name:
        return 0
    tree.get_body(frame)  # UnknownBodyError for a name that is not there
    names = [b.name for b in path]
    if frame not in names:
        raise SymbolicError(f"frame {frame!r:.80} is not on the chain from {tree.base_name!r:.80} to "
                            f"{names[-1]!r:.80} ({' → '.join(names[:8])}{' …' if len(names) > 8 else ''}): "
                            "a symbolic T is between two frames of one chain")
    return names.index(frame) + 1


def symbolic_model(tree: RigidBodyTree, body: str | None = None, params: str = "numeric",
                   link: int | None = None, *, frame: str | None = None, revolute: str = "q",
                   sums: str = "folded", first: int | None = None) -> SymbolicFK:
    """T_n^0 of ``body`` (default: the end effector); with ``frame`` T_n^j, its pose in the frame
    of ``frame`` (a body on the chain; j its number); with ``link = i`` only A_i, the pose of the
    i-th body (in the chain's numbering) in its parent. ``revolute`` names revolute variables
    ``q`` or ``theta`` (prismatic ones are ``d``), ``sums`` is ``folded`` or ``expanded``,
    ``first`` the number of the chain's first joint (default: 1, or as its joint names say)."""
    if sums not in SUMS:
        raise SymbolicError(f"sums must be one of {', '.join(SUMS)}, got {sums!r:.80}")
    path = _path(tree, body)
    if first is None:
        shift = _numbering(tree, path)
    elif isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 1 <= first <= 10_000:
        raise SymbolicError(f"first must be a whole number 1…10000 (the number of the chain's first joint), "
                            f"got {first!r:.80}")
    else:
        shift = int(first) - 1
    b = _Builder(tree, params, revolute, shift)
    fold = sums == "folded"
    n = len(path) + shift
    if link is None:
        start = _start(tree, path, frame)
        M, order = _product([b.link(x, i + shift) for i, x in enumerate(path[start:], start + 1)], fold)
        return SymbolicFK(M, b.variables, b.joints, b.parameters, (start + shift, n), None, shift + 1, order)
    if isinstance(link, bool) or not isinstance(link, (int, np.integer)) or not shift < link <= n:
        raise SymbolicError(f"link must be {shift + 1}…{n} (the bodies from the base to "
                            f"{path[-1].name if path else 'the end'!r}), got {link!r:.80}")
    M, order = _product([b.link(path[link - shift - 1], int(link))], fold)
    return SymbolicFK(M, b.variables, b.joints, b.parameters, (int(link) - 1, int(link)), int(link), shift + 1,
                      order)


def symbolic_fk(tree: RigidBodyTree, body: str | None = None, params: str = "numeric", **options) -> sp.Matrix:
    """T_n^0 of ``body`` (default: the end effector) in the joint variables; ``options`` as
    :func:`symbolic_model`'s."""
    return symbolic_model(tree, body, params, **options).matrix


def symbolic_link(tree: RigidBodyTree, i: int, body: str | None = None, params: str = "numeric",
                  **options) -> sp.Matrix:
    """A_i: the pose of the i-th body (1-based, in the chain's numbering) on the chain to ``body`` in
    its parent."""
    return symbolic_model(tree, body, params, link=i, **options).matrix
