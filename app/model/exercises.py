"""Forward-kinematics exercises: what is asked, at which joint values, and how an answer is checked
and shown. No widgets here (the dock is :mod:`kinetree.app.panels.exercise`, the printed sheet
:mod:`kinetree.app.panels.exercise_sheet`).

Kinds (``kind``):

* ``"pose"``: the end pose T_n^0 = A₁⋯Aₙ (a 4×4), from the DH table and the joint values;
* ``"link"``: one A_i (a 4×4), likewise;
* ``"row"``: one DH row (a, α, d, θ at the shown joint values), from its A_i, which is given;
* ``"symbolic"``: one A_i in the lecture's symbols (``c1``, ``-s1``, ``a1*c1``; lengths as
  ``a_i``/``d_i``, the joint variable ``q_i``/``d_i``), checked by equivalence.

Joint values are "nice" (:func:`nice_configuration`): revolute joints at multiples of
:data:`DEFAULT_ANGLE_STEP` (30°; 45° and 15° on offer, 1° for the old whole degrees), prismatic
ones at multiples of 50 mm, within the joint limits (a finer step only when no multiple fits).
Everything is reproducible from a seed. :func:`sheet_plan` mixes kinds across links for a
printed sheet and never asks the same kind about the same link twice.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError, RigidBodyTree
from kinetree.core.lazy import LazyImports

from .dh_chain import SYMBOL, DHChain, sub
from .numbers import DEGREES, METRES, PLAIN, RADIANS, Quantity, read_number, short_text

#: the symbolic model and the answer parser import sympy (~0.5 s): loaded with the first symbolic exercise
#: (see kinetree.core.lazy)
_SYMPY = LazyImports(__name__, {
    "symbolic_model": "kinetree.core.teach.symbolic:symbolic_model",
    "to_text": "kinetree.core.teach.symbolic:to_text", "equivalent": ".answers:equivalent",
    "parse_expression": ".answers:parse_expression", "symbol_names": ".answers:symbol_names",
    "read_value": ".answers:read_value",
})

if TYPE_CHECKING:
    import sympy as sp

# sympy (answers, symbolic A_i, exact forms) is imported when first needed: the window starts
# without it (it took seconds of a loaded machine's start-up)

KINDS = {"pose": "the end pose T_n^0", "link": "one link's A_i", "row": "one DH row",
         "symbolic": "A_i in symbols"}
ROW_PARAMS = ("a", "alpha", "d", "theta")
#: seconds the window waits for the answers to be checked before it says they could not be (the
#: parser's bounds keep any allowed answer far below it; a loaded 2-core machine needs the margin)
CHECK_SECONDS = 5.0
ANGLE_STEPS = (30, 45, 15, 1)  # degrees; the first is the default
DEFAULT_ANGLE_STEP = ANGLE_STEPS[0]
LENGTH_STEP = 0.05  # metres
DEFAULT_TOLERANCE = 1e-3
#: largest entry difference of two A_i that count as one (an equivalent DH row)
EQUIVALENT_TOL = 1e-9


def sup(k: int) -> str:
    return str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


@dataclass
class Exercise:
    """One exercise on ``chain``: ``q`` the configuration (the tree's, with the chain's joints
    set), ``link`` the link asked about (1-based; the last one for ``"pose"``), ``answer`` a 4×4
    (for ``"symbolic"`` its value at ``q``) or, for ``"row"``, ``[a, α, d, θ]`` (metres,
    radians); ``given`` the A_i shown for ``"row"``; ``expression`` the symbolic A_i."""

    kind: str
    chain: DHChain
    link: int
    seed: int
    q: np.ndarray
    qs: np.ndarray  # the chain's joint values
    answer: np.ndarray
    given: np.ndarray | None = None
    expression: sp.Matrix | None = None
    symbols: tuple = ()  # every symbol of the chain (joint variables, lengths): the names a student may use

    @property
    def title(self) -> str:
        n = self.chain.count
        if self.kind == "pose":
            return f"Find T{sub(n)}{sup(0)} = " + "·".join(f"A{sub(j)}" for j in range(1, n + 1))
        if self.kind == "link":
            return f"Find A{sub(self.link)}"
        if self.kind == "symbolic":
            return f"Find A{sub(self.link)} in symbols (c{self.link}, s{self.link}, a{self.link}, d{self.link}…)"
        return f"Find DH row {self.link} (a, α, d, θ) from A{sub(self.link)}"

    @property
    def entries(self) -> int:
        return 4 if self.kind == "row" else 16


def _multiples(lo: float, hi: float, unit: float, window: tuple[float, float]) -> tuple[int, int]:
    first = math.ceil(lo / unit - 1e-9) if math.isfinite(lo) else math.ceil(window[0] / unit)
    last = math.floor(hi / unit + 1e-9) if math.isfinite(hi) else math.floor(window[1] / unit)
    return first, last


def nice_configuration(tree: RigidBodyTree, chain: DHChain, base_q: np.ndarray, seed: int,
                       angle_step: float = DEFAULT_ANGLE_STEP) -> np.ndarray:
    """``base_q`` with the chain's joints at random multiples of ``angle_step`` degrees
    (revolute, −180…180° where unlimited) or of 50 mm (prismatic, 0…0.5 m where unlimited)
    within their limits; 1° / 1 mm when no multiple fits, the limits' middle when none does."""
    rng = np.random.default_rng(seed)
    q = np.array(base_q, dtype=float)
    for body, joint, link in zip(chain.bodies, chain.joints, chain.links):
        lo, hi = (float(x) for x in tree.get_body(body).joint.position_limits)
        k = tree.position_index(joint).start
        revolute = link.joint == "R"
        window = (-math.pi, math.pi - 1e-9) if revolute else (0.0, 0.5)
        for unit in ((math.radians(angle_step), math.radians(1)) if revolute else (LENGTH_STEP, 1e-3)):
            first, last = _multiples(lo, hi, unit, window)
            if first <= last:
                q[k] = int(rng.integers(first, last + 1)) * unit
                break
        else:  # no whole degree (millimetre) within the limits: their middle, or the finite bound
            q[k] = (lo + hi) / 2 if math.isfinite(lo) and math.isfinite(hi) else (lo if math.isfinite(lo) else hi)
        q[k] = min(max(q[k], lo), hi)  # rounding of the unit must not step outside
    return q


random_configuration = nice_configuration  # the older name


def symbolic_link(tree: RigidBodyTree, chain: DHChain, link: int):
    """A_link of ``chain`` in the lecture's symbols (a ``SymbolicFK``); refused when the chain has no DH rows of
    its own (a computed table has no symbols a student could know)."""
    if chain.extracted:
        raise KineTreeError("symbolic A_i: this chain has no DH table of its own")
    try:
        return _SYMPY.symbolic_model(tree, chain.bodies[-1], "symbolic", link=link, first=1)
    except KineTreeError as exc:
        raise KineTreeError(f"symbolic A_{link}: {exc}") from None


def available_kinds(tree: RigidBodyTree, chain: DHChain) -> list[str]:
    """The kinds that can be asked about ``chain``: ``"symbolic"`` only where the robot's
    symbolic A₁ is this table's (stored DH rows, the same convention)."""
    kinds = ["pose", "link", "row"]
    if chain.count and not chain.extracted:
        try:
            make_exercise(tree, chain, "symbolic", 1, 0)
        except KineTreeError:
            return kinds
        kinds.append("symbolic")
    return kinds


def make_exercise(tree: RigidBodyTree, chain: DHChain, kind: str, link: int, seed: int,
                  base_q: np.ndarray | None = None, angle_step: float = DEFAULT_ANGLE_STEP) -> Exercise:
    """The exercise of ``kind`` about ``link`` (ignored for ``"pose"``) at the configuration of ``seed``."""
    if kind not in KINDS:
        raise KineTreeError(f"exercise kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if chain.count == 0:
        raise KineTreeError("the chain has no movable joint: nothing to ask")
    link = chain.count if kind == "pose" else min(max(int(link), 1), chain.count)
    q = nice_configuration(tree, chain, tree.home_configuration() if base_q is None else base_q, seed, angle_step)
    qs = chain.variables(tree, q)
    A = chain.link_transform(link, qs[link - 1])
    expression, symbols = None, ()
    if kind == "pose":
        F = chain.frames(tree, q)
        answer = np.linalg.solve(F[0], F[-1])  # A₁⋯Aₙ: DH frame n in DH frame 0
    elif kind == "row":
        v = chain.values(link, qs[link - 1])
        answer = np.array([v[p] for p in ROW_PARAMS])
    else:
        answer = A
        if kind == "symbolic":
            model = symbolic_link(tree, chain, link)
            expression = model.matrix
            symbols = (*model.variables, *model.parameters)
            at = {**model.parameters, **dict(zip(model.variables, chain.variables(tree, q)))}
            value = np.array(expression.evalf(subs=at), dtype=float)
            if np.abs(value - A).max() > 1e-9:  # the symbols are not this table's: never ask a wrong one
                raise KineTreeError(f"symbolic A_{link}: the robot's symbolic model is not this DH table")
    return Exercise(kind, chain, link, seed, q, qs, answer, A if kind == "row" else None, expression, symbols)


def sheet_plan(kinds: list[str], count_links: int, count: int, seed: int) -> list[tuple[str, int]]:
    """``count`` (kind, link) pairs for a sheet: kinds taken in turn (a shuffled order), each
    about the link asked least so far (ties: a shuffled order); no pair twice, so fewer when the
    chain has fewer pairs."""
    rng = np.random.default_rng(seed)
    order = [kinds[i] for i in rng.permutation(len(kinds))]
    left = {k: ([count_links] if k == "pose" else [int(x) + 1 for x in rng.permutation(count_links)])
            for k in order}
    used = dict.fromkeys(range(1, count_links + 1), 0)
    plan: list[tuple[str, int]] = []
    while len(plan) < count and any(left.values()):
        for k in order:
            if left[k] and len(plan) < count:
                link = min(left[k], key=lambda i: used[i])  # min keeps the shuffled order on ties
                left[k].remove(link)
                used[link] += 1
                plan.append((k, link))
    return plan


def make_sheet(tree: RigidBodyTree, chain: DHChain, count: int, seed: int, base_q: np.ndarray | None = None,
               angle_step: float = DEFAULT_ANGLE_STEP) -> list[Exercise]:
    """Up to ``count`` exercises of mixed kinds and links (:func:`sheet_plan`), exercise k at
    seed ``seed + k``: the same seed gives the same sheet."""
    plan = sheet_plan(available_kinds(tree, chain), chain.count, count, seed)
    return [make_exercise(tree, chain, kind, link, seed + k, base_q, angle_step) for k, (kind, link) in enumerate(plan)]


# --- answers -------------------------------------------------------------------------------
def is_angle(kind: str, k: int) -> bool:
    return kind == "row" and ROW_PARAMS[k] in ("alpha", "theta")


def entry_quantity(kind: str, k: int, radians: bool = False) -> Quantity:
    """What answer entry ``k`` is, in the units shown: a row's α, θ an angle (degrees, or
    radians in radians mode), a, d and a matrix's translation in metres, the rest plain."""
    if kind == "row":
        return (RADIANS if radians else DEGREES) if is_angle(kind, k) else METRES
    return METRES if k % 4 == 3 and k < 12 else PLAIN


def shown_answer(ex: Exercise, radians: bool = False) -> list[float]:
    """The answer's entries in the shown units (row angles in degrees unless ``radians``)."""
    flat = ex.answer.reshape(-1)
    return [math.degrees(v) if not radians and is_angle(ex.kind, k) else float(v) for k, v in enumerate(flat)]


def entry_name(ex: Exercise, k: int) -> str:
    return f"entry {ROW_PARAMS[k]}" if ex.kind == "row" else f"entry ({k // 4 + 1}, {k % 4 + 1})"


def check_entry(ex: Exercise, k: int, text: str, tolerance: float, radians: bool = False) -> tuple[bool, str]:
    """Whether the typed ``text`` answers entry ``k`` (within ``tolerance`` in the shown unit;
    a row's angles modulo a full turn; a symbolic entry by equivalence), and why not."""
    what = entry_name(ex, k)
    try:
        if ex.kind == "symbolic":
            import sympy as sp

            expected = ex.expression[k]
            names = _SYMPY.symbol_names(sp.Matrix([*ex.expression, *ex.symbols]))
            typed, _ = _SYMPY.parse_expression(text, what, names, radians=True)
            return (True, "") if _SYMPY.equivalent(typed, expected) else (False, "not equal to the expected expression")
        typed = read_entry(ex, k, text, radians)
    except KineTreeError as exc:
        return False, str(exc)
    diff = typed - shown_answer(ex, radians)[k]
    if is_angle(ex.kind, k):
        turn = 2 * math.pi if radians else 360.0
        diff = (diff + turn / 2) % turn - turn / 2
    return (True, "") if abs(diff) <= tolerance else (False, f"off by more than {short_text(tolerance)}")


def read_entry(ex: Exercise, k: int, text: str, radians: bool = False) -> float:
    """The number typed for entry ``k``, in the shown unit; :class:`KineTreeError` naming the
    entry when it is not one."""
    what, quantity = entry_name(ex, k), entry_quantity(ex.kind, k, radians)
    try:  # a number, pi arithmetic, a unit: the number parser, no sympy needed
        return read_number(text, what, quantity).value
    except KineTreeError:
        return _SYMPY.read_value(text, what, quantity, radians)


def row_equivalence(ex: Exercise, texts: list[str], results: list[tuple[bool, str]],
                    radians: bool = False) -> list[tuple[bool, str]]:
    """A DH row answer judged as a whole: a row whose A_i equals the given A_i (to
    :data:`EQUIVALENT_TOL`) is right in every entry, with a note when it is not the expected row
    entry for entry; a wrong row's entries say how far its A_i is from the given one."""
    try:
        typed = [read_entry(ex, k, t, radians) for k, t in enumerate(texts)]
    except KineTreeError:
        return results  # an unreadable entry already says why
    row = {p: (v if radians or not is_angle(ex.kind, k) else math.radians(v))
           for k, (p, v) in enumerate(zip(ROW_PARAMS, typed))}
    A = ex.chain.row_transform(row)
    diff = float(np.abs(A - ex.given).max()) if np.isfinite(A).all() else math.inf
    name = f"A{sub(ex.link)}"
    if diff <= EQUIVALENT_TOL:
        same = all(abs(row[p] - v) <= EQUIVALENT_TOL for p, v in zip(ROW_PARAMS, ex.answer))
        if same:
            return [(True, "")] * len(texts)
        shown = [value_text(v, entry_quantity(ex.kind, k, radians))
                 for k, v in enumerate(shown_answer(ex, radians))]
        expected = ", ".join(f"{SYMBOL[p]} = {t}" for p, t in zip(ROW_PARAMS, shown))
        return [(True, f"an equivalent row (the same {name}): equivalent to {expected}")] * len(texts)
    return [(ok, why if ok else f"{why}; this row's {name} is not the given one (differs by up to "
             f"{short_text(diff, 3)})") for ok, why in results]


def check_entries(ex: Exercise, texts: list[str], tolerance: float, radians: bool = False,
                  budget: float = CHECK_SECONDS) -> list[tuple[bool, str]]:
    """:func:`check_entry` for each of ``texts``, in a worker thread waited for at most ``budget``
    seconds: an entry not checked by then is wrong, "could not be checked in N s". (A thread
    cannot be stopped: the parser's bounds keep what it goes on doing short.)"""
    import sympy  # noqa: F401 - imported once before the clock starts: seconds of a loaded machine, not the answer's

    results: list[tuple[bool, str]] = []
    whole: list[list[tuple[bool, str]]] = []  # a DH row judged as a whole, once every entry is read

    def work() -> None:
        for k, text in enumerate(texts):
            results.append(check_entry(ex, k, text, tolerance, radians))
        if ex.kind == "row":
            whole.append(row_equivalence(ex, texts, list(results), radians))

    worker = threading.Thread(target=work, name="check answers", daemon=True)
    worker.start()
    worker.join(budget)
    done = list(whole[0]) if whole else list(results)  # the worker may still append
    late = (False, f"could not be checked in {short_text(budget)} s (too much to compute)")
    return done + [late] * (len(texts) - len(done))


def value_text(v: float, quantity: Quantity = PLAIN) -> str:
    """A value for reading as the lecture writes it: an exact form when there is a short one
    (``π/2``, ``√3/2``, ``-1/2``, ``90°``), otherwise 4 significant digits (``0.4318``)."""
    if abs(v) < 1e-12:
        return "0" + ("°" if quantity.unit == "deg" else "")
    if quantity.kind == "angle":
        if quantity.unit == "deg":
            return (short_text(round(v), 6) if abs(v - round(v)) < 1e-9 else short_text(v, 4)) + "°"
        return _exact(v, ["pi"]) or short_text(v, 4)
    if quantity.kind == "plain":
        return _exact(v, ["sqrt2", "sqrt3", "sqrt6"]) or short_text(v, 4)
    return short_text(v, 4)


def _exact(v: float, constants: list[str]) -> str | None:
    """A short exact form of ``v`` from small fractions of ``constants``, or None."""
    import sympy as sp

    known = {"pi": sp.pi, "sqrt2": sp.sqrt(2), "sqrt3": sp.sqrt(3), "sqrt6": sp.sqrt(6)}
    for c in [sp.Integer(1), *(known[k] for k in constants)]:
        r = sp.Rational(v / float(c)).limit_denominator(24)
        if r != 0 and abs(float(r * c) - v) < 1e-12:
            e = r * c
            text = str(e).replace("sqrt(", "√(").replace("pi", "π").replace("*", "")
            text = text.replace("√(2)", "√2").replace("√(3)", "√3").replace("√(6)", "√6")
            return text if len(text) <= 10 else None
    return None


def answer_texts(ex: Exercise, radians: bool = False) -> list[str]:
    """Each entry's correct answer for reading (the lecture's notation for ``"symbolic"``)."""
    if ex.kind == "symbolic":
        return [_SYMPY.to_text(e) for e in ex.expression]
    return [value_text(v, entry_quantity(ex.kind, k, radians)) for k, v in enumerate(shown_answer(ex, radians))]
