"""Numbers as people type them: the one reader of typed (and pasted) numbers, for the GUI's
fields and for files and tables written by hand (a DH table's ``pi/2`` cell). No Qt here.

Any float notation (``0.0203``, ``1e-3``, ``-90``) and simple arithmetic with ``pi``
(``pi/2``, ``-0.4318*2``, parentheses, unary minus, ``+ - * /``) is read by a small tokenizer
and recursive-descent parser: nothing typed is ever evaluated as code.

:func:`read_number` knows what the field holds (:class:`Quantity`: an angle, a length or a
plain number, and the unit it is shown in): a number whose value holds ``pi`` is in radians
wherever angles have a unit (``pi/2`` is 90 in a degree field; ``pi/2*180/pi`` is 90 there
too), and a unit suffix (``90deg``, ``90°``, ``1.5708rad``, ``250mm``, ``0.25m``) is converted
to the field's unit; a length in an angle field (or the reverse) and a decimal comma are
refused with one line naming the field and the value. (:mod:`kinetree.app.numbers` re-exports
all of it, beside the app's display helpers.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

import numpy as np

from .errors import KineTreeError

MAX_LENGTH = 200  # a typed number is short; refuse pasted essays before tokenizing them
MAX_DEPTH = 50  # parentheses / unary signs nested deeper than this are refused

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
    | (?P<name>[A-Za-zπ_]+)
    | (?P<op>[-+*/()])
    )""", re.VERBOSE)
_CONSTANTS = {"pi": math.pi, "π": math.pi, "tau": math.tau}


#: LaTeX commands of a slide's formula and their plain names (``\sqrt{3}`` → ``sqrt(3)``)
_LATEX_NAMES = {"sin": "sin", "cos": "cos", "tan": "tan", "sqrt": "sqrt", "pi": "pi", "theta": "theta",
                "alpha": "alpha", "cdot": "*", "times": "*", "left": "", "right": ""}
_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_LATEX_SPACE = re.compile(r"(?<!\\)\\[,;:! ]")  # thin spaces, never the '\\' ending a row
_LATEX_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
#: the lecture's c_{θ1} is c1 (cos θ1); a subscript joins its name: c_5 → c5, s_{23} → s23
_LATEX_TRIG_OF = re.compile(r"\b([cs])_\{?\s*(?:theta|q)_?\{?(\d+)\}?\s*\}?")
_LATEX_SQRT = re.compile(r"sqrt\s*\{([^{}]*)\}")
_LATEX_SUBSCRIPT = re.compile(r"([A-Za-z]+)_(?:\{\s*([A-Za-z]*\d+)\s*\}|(\d+))")


def latex_to_plain(text: str) -> str:
    r"""A slide's LaTeX (``\frac{\sqrt{3}}{2}``, ``a_2 c_{23}``, ``\cos\theta_1``) as plain text
    (``((sqrt(3))/(2))``, ``a2 c23``, ``cos theta1``): fractions, known commands, subscripts and
    braces. Rows (``\\``) and cells (``&``) are left as they are; an unknown command is left
    too, for the reader to refuse. Text without a backslash, ``_`` or ``{`` comes back as is."""
    t = _LATEX_SPACE.sub(" ", text.replace("$", " "))
    t = _LATEX_COMMAND.sub(lambda m: f" {_LATEX_NAMES[m.group(1)]}" if m.group(1) in _LATEX_NAMES
                           else m.group(0), t)
    t = _LATEX_TRIG_OF.sub(r"\1\2", t)
    t = _LATEX_SUBSCRIPT.sub(lambda m: m.group(1) + (m.group(2) or m.group(3)), t)
    for _ in range(8):  # nested \frac{…}{…} and sqrt{…}, innermost first; bounded
        before = t
        t = _LATEX_SQRT.sub(r"sqrt(\1)", _LATEX_FRAC.sub(r"((\1)/(\2))", t))
        if t == before:
            break
    return t.replace("{", "(").replace("}", ")")


def _tokens(text: str, what: str) -> list[tuple[str, str]]:
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise KineTreeError(f"{what}: {text.strip()!r} is not a number (unexpected {text[pos:].strip()[:10]!r})")
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    """expr := term (('+'|'-') term)* ; term := unary (('*'|'/') unary)* ;
    unary := ('+'|'-') unary | atom ; atom := number | pi | inf | '(' expr ')'"""

    def __init__(self, tokens: list[tuple[str, str]], text: str, what: str, allow_inf: bool) -> None:
        self.tokens, self.i, self.text, self.what, self.allow_inf = tokens, 0, text, what, allow_inf
        self.depth = 0
        self.typed_inf = False  # an inf word was typed (an overflow like 1e400 is no "no limit")

    def fail(self, why: str) -> KineTreeError:
        return KineTreeError(f"{self.what}: {self.text.strip()!r} is not a number ({why})")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise self.fail("it ends too early")
        self.i += 1
        return tok

    # each rule gives (value, power of pi in it): pi/2 has power 1, pi/2*180/pi power 0
    def expr(self) -> tuple[float, int]:
        v, p = self.term()
        while (tok := self.peek()) is not None and tok[1] in "+-":
            self.i += 1
            w, q = self.term()
            v = decimal_sum(v, w if tok[1] == "+" else -w)  # 0.4-0.1 is 0.3, as typed
            p = p if abs(p) >= abs(q) else q
        return v, p

    def term(self) -> tuple[float, int]:
        v, p = self.unary()
        while (tok := self.peek()) is not None and tok[1] in "*/":
            self.i += 1
            rhs, q = self.unary()
            if tok[1] == "*":
                v, p = v * rhs, p + q
            elif rhs == 0:
                raise self.fail("division by zero")
            else:
                v, p = v / rhs, p - q
        return v, p

    def unary(self) -> tuple[float, int]:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail("nested too deeply")
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in "+-":
            self.i += 1
            v, p = self.unary()
            v = -v if tok[1] == "-" else v
        else:
            v, p = self.atom()
        self.depth -= 1
        return v, p

    def atom(self) -> tuple[float, int]:
        kind, s = self.take()
        if kind == "number":
            return float(s), 0
        if kind == "name":
            low = s.lower()
            if low in _CONSTANTS:
                return _CONSTANTS[low], 1
            if low in ("inf", "infinity") and self.allow_inf:
                self.typed_inf = True
                return math.inf, 0
            if low in ("inf", "infinity", "nan"):
                raise self.fail(f"{s} is not allowed here")
            raise self.fail(f"unknown name {s!r}")
        if s == "(":
            v = self.expr()
            if self.take()[1] != ")":
                raise self.fail("missing ')'")
            return v
        raise self.fail(f"unexpected {s!r}")


def parse_number(text: str, what: str = "value", allow_inf: bool = False) -> float:
    """The float ``text`` stands for; a :class:`KineTreeError` naming ``what`` if it is none.

    ``inf``/``-inf`` only with ``allow_inf``; ``nan`` never; results must be finite otherwise.
    A plain number: fields that hold angles or lengths read through :func:`read_number`.
    """
    return _parse(text, what, allow_inf)[0]


def _parse(text: str, what: str, allow_inf: bool) -> tuple[float, bool]:
    """The value and whether pi is in it (``pi/2``: yes; ``pi/2*180/pi``: no)."""
    if len(text) > MAX_LENGTH:
        raise KineTreeError(f"{what}: {len(text)} characters is too long for a number")
    if not text.strip():
        raise KineTreeError(f"{what}: empty, a number is needed")
    p = _Parser(_tokens(text, what), text, what, allow_inf)
    v, power = p.expr()
    if p.peek() is not None:
        raise p.fail(f"unexpected {p.peek()[1]!r}")
    if math.isnan(v) or (math.isinf(v) and not p.typed_inf):
        raise p.fail("the result is not finite" + ("; type inf for no limit" if allow_inf else ""))
    return v, power != 0


# --- quantities and units -----------------------------------------------------------------------
class Quantity(NamedTuple):
    """What a field holds: ``kind`` "angle", "length" or "plain", shown in ``unit`` ("deg" or
    "rad" for an angle, "m" or "mm" for a length, "" for a plain number)."""

    kind: str = "plain"
    unit: str = ""


PLAIN = Quantity()
DEGREES, RADIANS = Quantity("angle", "deg"), Quantity("angle", "rad")
METRES, MILLIMETRES = Quantity("length", "m"), Quantity("length", "mm")

_UNIT_WORDS = {"deg": "deg", "degree": "deg", "degrees": "deg", "°": "deg", "rad": "rad", "radian": "rad",
               "radians": "rad", "mm": "mm", "m": "m"}
_UNIT_KIND = {"deg": "angle", "rad": "angle", "mm": "length", "m": "length"}
UNIT_LABEL = {"deg": "°", "rad": " rad", "m": " m", "mm": " mm", "": ""}
_SUFFIX = re.compile(r"^(?P<body>.*?)\s*(?P<unit>°|degrees?|deg|radians?|rad|mm|m)\s*$", re.IGNORECASE | re.DOTALL)
_DECIMAL_COMMA = re.compile(r"^\s*[-+]?(\d*),(\d+)\s*(?:°|[A-Za-z]*)\s*$")


def core_to_unit(unit: str) -> Conversion:
    """Core value (radians, metres) → ``unit``."""
    return {"deg": to_degrees, "mm": metres_to_mm}.get(unit, identity)


def unit_to_core(unit: str) -> Conversion:
    """``unit`` → core value (radians, metres)."""
    return {"deg": to_radians, "mm": mm_to_metres}.get(unit, identity)


class Reading(NamedTuple):
    """A typed number: ``value`` in the field's unit, and as typed (``typed`` in ``unit``,
    the unit the user wrote or implied with ``pi``; the field's unit otherwise; "" for a
    plain number)."""

    value: float
    typed: float
    unit: str

    @property
    def core(self) -> float:
        """The value in core units (radians, metres), converted once from what was typed:
        ``-2*pi/3`` stays the float typed, not the one back from −119.99999999999999°."""
        return unit_to_core(self.unit)(self.typed)

    def label(self) -> str:
        """The typed value with its unit, for a message (``4 rad``, ``90°``, ``250 mm``)."""
        return short_text(self.typed) + UNIT_LABEL.get(self.unit, "")


def read_number(text: str, what: str = "value", quantity: Quantity = PLAIN, allow_inf: bool = False) -> Reading:
    """The one entry point for a typed number: ``text`` read for a field holding ``quantity``.

    Arithmetic with ``pi`` as :func:`parse_number`; a trailing unit (``deg``/``°``/``rad``,
    ``mm``/``m``) is converted to the field's unit; without one, an expression whose value holds
    ``pi`` (``2*pi/3``; not ``pi/2*180/pi``) in an angle field is radians. A unit of the other
    kind, a unit in a plain field and a decimal comma are refused (:class:`KineTreeError`, one
    line naming ``what`` and the text)."""
    if len(text) > MAX_LENGTH:
        raise KineTreeError(f"{what}: {len(text)} characters is too long for a number")
    if m := _DECIMAL_COMMA.match(text):
        point = text.strip().replace(",", ".", 1)
        raise KineTreeError(f"{what}: {text.strip()!r} has a decimal comma; use a point: {point}")
    body, unit = text, ""
    m = _SUFFIX.match(text)
    if m and m.group("body").strip() and not m.group("body").rstrip().endswith(("*", "/", "+", "-", "(")):
        body, unit = m.group("body"), _UNIT_WORDS[m.group("unit").lower()]
    if unit:
        if quantity.kind == "plain":
            raise KineTreeError(f"{what}: {text.strip()!r} has a unit ({m.group('unit')}); "
                                "this field takes a plain number")
        if _UNIT_KIND[unit] != quantity.kind:
            kinds = "° or rad" if quantity.kind == "angle" else "m or mm"
            raise KineTreeError(f"{what}: {text.strip()!r} is {'an angle' if unit in ('deg', 'rad') else 'a length'}; "
                                f"this field takes {'an angle' if quantity.kind == 'angle' else 'a length'} ({kinds})")
    typed, with_pi = _parse(body, what, allow_inf)
    if not unit:
        unit = "rad" if quantity.kind == "angle" and with_pi else quantity.unit
    if unit == quantity.unit or not math.isfinite(typed):
        return Reading(typed, typed, unit)
    value = core_to_unit(quantity.unit)(unit_to_core(unit)(typed))
    if not math.isfinite(value):
        raise KineTreeError(f"{what}: {text.strip()!r} is too large")
    return Reading(value, typed, unit)



# --- units -----------------------------------------------------------------------------------
def to_radians(degrees: float) -> float:
    """Degrees to radians, exact for round angles: ``-90 → -pi/2``, ``120 → 2*pi/3`` (the float
    ``p*pi/q`` of the reduced fraction ``degrees/180``), :func:`math.radians` otherwise."""
    if math.isfinite(degrees):
        f = Fraction(degrees) / 180
        if f.denominator <= 3600:
            return f.numerator * math.pi / f.denominator
    return math.radians(degrees)


def to_degrees(radians: float) -> float:
    return math.degrees(radians)


def mm_to_metres(mm: float) -> float:
    """Millimetres to metres by moving the decimal point of the shortest text (``20.3`` →
    ``0.0203`` exactly; ``20.3 / 1000`` is ``0.020300000000000002``)."""
    return float(Decimal(repr(float(mm))).scaleb(-3)) if math.isfinite(mm) else float(mm)


def metres_to_mm(m: float) -> float:
    return float(Decimal(repr(float(m))).scaleb(3)) if math.isfinite(m) else float(m)


def decimal_sum(a: float, b: float) -> float:
    """``a + b`` as a person adds them: the decimal sum of their shortest reprs, rounded once to
    a float (0.4 + -0.1 is 0.3; float addition gives 0.30000000000000004)."""
    a, b = float(a), float(b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return a + b
    return float(Decimal(repr(a)) + Decimal(repr(b)))


def identity(x: float) -> float:
    return x


Conversion = Callable[[float], float]


def tidy(s: str) -> str:
    """``1.0 → 1``, ``-0 → 0``, ``1e-05 → 1e-5``."""
    if "e" in s:
        mant, exp = s.split("e")
        return f"{tidy(mant)}e{int(exp)}"
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


#: below this magnitude (in the shown unit) a value reads as 0: an IK drag leaves q4 at
#: -4.42485e-14°, which is 0 to a reader (editors still open on the exact stored value)
DISPLAY_ZERO = 1e-9


def display_value(value: float) -> float:
    """``value`` as shown for reading: 0 when ``|value| < DISPLAY_ZERO``, never -0."""
    v = float(value)
    return 0.0 if abs(v) < DISPLAY_ZERO else v


def short_text(value: float, digits: int = 6) -> str:
    """A value for reading (tables, messages): at most ``digits`` significant digits, near
    zeros as 0 (:func:`display_value`). Every numeric readout of the app goes through this or
    :func:`fixed_text`."""
    return tidy(f"{display_value(value):.{digits}g}")


def compact_text(value: float, digits: int = 6) -> str:
    """A number for messages and ``repr``: ``digits`` significant digits, tidied (``1e-5``, ``1``);
    unlike :func:`short_text`, a tiny value is not shown as 0."""
    return tidy(f"{float(value):.{digits}g}")


def numbers_text(values: Any, digits: int = 6) -> str:
    """``[0 0.15005 1e-5]``: numbers on one line by :func:`compact_text` (``<n numbers>``
    beyond 9 of them)."""
    a = np.asarray(values, dtype=float).reshape(-1)
    if a.size > 9:
        return f"<{a.size} numbers>"
    return "[" + " ".join(compact_text(v, digits) for v in a.tolist()) + "]"
