"""Reading a student's answer: a number, an expression with sin/cos/tan/sqrt/atan2, or a symbolic
expression in the lecture's notation (``c1*a2``, ``a1*cos(q1)``, ``c1*c2 - s1*s2``). No Qt here.

Plain numbers, ``pi`` arithmetic and unit suffixes go through the project's one number parser
(:func:`~kinetree.app.model.numbers.read_number`). Anything more is parsed with Python's :mod:`ast`
(parsing only, nothing is ever evaluated as code) and walked under a strict allow-list: number
literals, names from an allow-list, ``+ - * / **``, unary signs and calls of ``sin``, ``cos``,
``tan``, ``sqrt``, ``atan2`` (and ``deg``/``rad`` for a unit inside: ``cos(30°)``). The sympy
value is built here node by node. Bounded: :data:`MAX_LENGTH` characters, :data:`MAX_DEPTH`
nesting, functions at most :data:`MAX_CALLS_NESTED` inside each other, an exponent at most
:data:`MAX_EXPONENT` in size (``9**9**9`` is refused at once).

A number answer (no symbols) is computed in floats by the same walk (:func:`read_value`): sympy
building ``sin(x·pi/180)`` asks whether the argument is a multiple of pi, which evaluates the inner
``sin`` at ever higher precision, doubling the time per level (28 nested ``sin`` in degrees mode:
days). Symbolic answers still need sympy; the bound on nested functions keeps them short.

Angles follow the answer mode: in degrees mode a bare number is degrees and a value holding
``pi`` (or ``atan2``, or ``rad``) is radians, as in every angle field; the arguments of
sin/cos/tan follow the same rule (``cos(60)`` = ``cos(pi/3)`` = ``cos(60°)`` in degrees mode).
In radians mode a bare number is radians.

Symbolic answers are compared with the expected expression at random values of every symbol
(:func:`equivalent`): exact enough for trigonometric identities, and never a slow simplify.
"""

from __future__ import annotations

import ast
import math
import operator
import re

import numpy as np
import sympy as sp
from kinetree.core import KineTreeError
from kinetree.core.number_text import latex_to_plain

from .numbers import RADIANS, Quantity, read_number

MAX_LENGTH = 200
MAX_DEPTH = 30
MAX_EXPONENT = 16
#: sin(sin(…)) in sympy costs twice as much per level (see above); a lecture's answer nests 2 or 3
MAX_CALLS_NESTED = 6
FUNCTIONS = {"sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "sqrt": sp.sqrt, "atan2": sp.atan2}
_FLOAT_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "**": operator.pow}
_FLOAT_FUNCTIONS = {"sin": math.sin, "cos": math.cos, "tan": math.tan, "sqrt": math.sqrt, "atan2": math.atan2}
_TRIG = ("sin", "cos", "tan")
_ALIASES = str.maketrans({"−": "-", "·": "*", "×": "*", "^": "^", "π": " pi ", "θ": "theta", "α": "alpha"})
_UNIT_IN = re.compile(r"((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(°|deg\b|rad\b)")
_SHORTHAND = re.compile(r"^([cs])(\d+)$")  # c1 = cos(q1), s12 = sin(q1 + q2)
#: a number, a name (its digits end it: a1c1 is a1, c1), or any other character
_PIECE = re.compile(r"(?P<power>\*\*)|(?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
                    r"|(?P<name>[A-Za-z_]+\d*)|(?P<other>\S)")
_CALLED = (*FUNCTIONS, "deg_", "rad_")


def _implicit_products(src: str) -> str:
    """The lecture's products written side by side made explicit: ``a1 c1``, ``a1c1``, ``2pi``,
    ``(c1)(s2)`` → ``a1*c1``, ``a1*c1``, ``2*pi``, ``(c1)*(s2)``; a function of one name or number
    without parentheses is called on it (``cos theta1`` → ``cos(theta1)``). Two numbers side by
    side stay an error (``0 5`` is no ``0.5``), and a name before ``(`` a call (``a2(c1)``)."""
    pieces = [(m.lastgroup, m.group()) for m in _PIECE.finditer(src)]
    out: list[tuple[str, str]] = []
    k = 0
    while k < len(pieces):
        kind, text = pieces[k]
        if kind == "name" and text in _CALLED and k + 1 < len(pieces) and pieces[k + 1][0] != "other":
            kind, text = "call", f"{text}({pieces[k + 1][1]})"  # cos theta1: one operand, closed
            k += 1
        if out:
            before, ends = out[-1], out[-1][0] in ("number", "call") or out[-1][1] == ")" or (
                out[-1][0] == "name" and out[-1][1] not in _CALLED)
            starts = (kind in ("name", "call") or (kind == "number" and before[0] != "number")
                      or (text == "(" and before[0] != "name"))  # name(…) stays a call, refused unless allowed
            if ends and starts:
                out.append(("other", "*"))
        out.append((kind, text))
        k += 1
    return " ".join(text for _, text in out)


class AnswerError(KineTreeError):
    """A typed answer that is not an allowed expression (the message names the entry)."""


class _Walker:
    """Builds the value of an allowed :mod:`ast` tree, a sympy expression or (``numeric``, no
    symbols) a float; each node gives (value, is_radians)."""

    def __init__(self, what: str, text: str, names: dict[str, sp.Expr], radians: bool,
                 numeric: bool = False) -> None:
        self.what, self.text, self.names, self.radians, self.numeric = what, text, names, radians, numeric
        self.calls = 0  # functions open around the node being walked

    def fail(self, why: str) -> AnswerError:
        return AnswerError(f"{self.what}: {self.text.strip()[:60]!r} is not an allowed answer ({why})")

    def walk(self, node: ast.AST, depth: int = 0) -> tuple[sp.Expr, bool]:
        if depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH}")
        if isinstance(node, ast.Expression):
            return self.walk(node.body, depth + 1)
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise self.fail(f"{type(v).__name__} literal")
            if not math.isfinite(v):
                raise self.fail("not finite")
            if self.numeric:
                return self.real(v), False
            if isinstance(v, int):
                return sp.Integer(v), False
            return sp.Rational(repr(v)) if "e" not in repr(v) else sp.Float(v), False
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
            v, r = self.walk(node.operand, depth + 1)
            return (-v if isinstance(node.op, ast.USub) else v), r
        if isinstance(node, ast.BinOp):
            return self.binop(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        kind = {ast.Attribute: "attribute access", ast.Subscript: "indexing", ast.Lambda: "lambda",
                ast.Compare: "comparison", ast.BoolOp: "logic"}.get(type(node), type(node).__name__)
        raise self.fail(f"{kind} is not allowed")

    def real(self, v: object) -> float:
        """``v`` as a finite real float (numeric mode), or the refusal."""
        try:
            x = float(v)
        except OverflowError:
            raise self.fail("the result is too large") from None
        except TypeError:  # a complex power or root
            raise AnswerError(f"{self.what}: {self.text.strip()[:60]!r} is not a real number") from None
        if not math.isfinite(x):
            raise AnswerError(f"{self.what}: {self.text.strip()[:60]!r} is not finite")
        return x

    def name(self, name: str) -> tuple[sp.Expr, bool]:
        if name.startswith("_"):
            raise self.fail(f"name {name!r} is not allowed")
        if name in ("pi", "PI", "Pi"):
            return (math.pi if self.numeric else sp.pi), True
        if name in self.names:
            return self.names[name], True
        if name in FUNCTIONS:
            raise self.fail(f"{name} needs an argument: {name}(…)")
        allowed = ", ".join(sorted(self.names)) if self.names else "no symbols here, a number is needed"
        raise self.fail(f"unknown name {name!r}; allowed: pi, sin, cos, tan, sqrt, atan2; {allowed}"[:200])

    def binop(self, node: ast.BinOp, depth: int) -> tuple[sp.Expr, bool]:
        ops = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
        op = ops.get(type(node.op))
        if op is None:
            raise self.fail(f"operator {type(node.op).__name__} is not allowed (only + - * / **)")
        a, ra = self.walk(node.left, depth + 1)
        if self.numeric:
            b, rb = self.walk(node.right, depth + 1)
            if op == "**" and abs(b) > MAX_EXPONENT:
                raise self.fail(f"an exponent must be a number of at most {MAX_EXPONENT}")
            if op == "/" and b == 0:
                raise self.fail("division by zero")
            try:
                value = _FLOAT_OPS[op](a, b)
            except ZeroDivisionError:  # 0 ** -1
                raise self.fail("division by zero") from None
            except OverflowError:
                raise self.fail("the result is too large") from None
            return self.real(value), ra if op == "**" else ra or rb
        if op == "**":
            b, _ = self.walk(node.right, depth + 1)
            if b.free_symbols or not b.is_real or abs(float(b)) > MAX_EXPONENT:
                raise self.fail(f"an exponent must be a number of at most {MAX_EXPONENT}")
            if not a.free_symbols and a != 0 and abs(float(b)) * abs(float(sp.log(abs(a), 10).evalf(8))) > 300:
                raise self.fail("the result is too large")  # (9**16)**16…: bounded before it is built
            return a ** b, ra
        b, rb = self.walk(node.right, depth + 1)
        if op == "/" and b == 0:
            raise self.fail("division by zero")
        value = {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
        return value, ra or rb

    def call(self, node: ast.Call, depth: int) -> tuple[sp.Expr, bool]:
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in (*FUNCTIONS, "deg_", "rad_") or node.keywords:
            raise self.fail(f"only {', '.join(FUNCTIONS)} may be called")
        count = 2 if name == "atan2" else 1
        if len(node.args) != count or any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail(f"{name} takes {count} argument{'s' if count > 1 else ''}")
        if name in FUNCTIONS and self.calls >= MAX_CALLS_NESTED:
            raise self.fail(f"functions nested more than {MAX_CALLS_NESTED} deep")
        self.calls += name in FUNCTIONS
        args = [self.walk(a, depth + 1) for a in node.args]
        self.calls -= name in FUNCTIONS
        if name == "deg_":
            return (math.radians(args[0][0]) if self.numeric else args[0][0] * sp.pi / 180), True
        if name == "rad_":
            return args[0][0], True
        if self.numeric:
            v, r = args[0]
            if name in _TRIG:
                return self.real(_FLOAT_FUNCTIONS[name](v if r or self.radians else math.radians(v))), False
            if name == "atan2":
                return math.atan2(v, args[1][0]), True
            if v < 0:
                raise AnswerError(f"{self.what}: {self.text.strip()[:60]!r} is not a real number")
            return math.sqrt(v), r
        if name in _TRIG:
            v, r = args[0]
            return FUNCTIONS[name](v if r or self.radians else v * sp.pi / 180), False
        if name == "atan2":
            return sp.atan2(args[0][0], args[1][0]), True
        return sp.sqrt(args[0][0]), args[0][1]


def parse_expression(text: str, what: str = "answer", names: dict[str, sp.Expr] | None = None,
                     radians: bool = False, numeric: bool = False) -> tuple[sp.Expr | float, bool]:
    """The sympy value of ``text`` (``numeric``: a float, and no ``names``) and whether it is in
    radians (holds pi, atan2, a unit or a symbol); ``names`` the symbols allowed besides ``pi``
    (none: a number is needed)."""
    if len(text) > MAX_LENGTH:
        raise AnswerError(f"{what}: {len(text)} characters is too long for an answer (at most {MAX_LENGTH})")
    if not text.strip():
        raise AnswerError(f"{what}: empty, an answer is needed")
    src = _UNIT_IN.sub(lambda m: f"{'deg_' if m.group(2) in ('°', 'deg') else 'rad_'}({m.group(1)})",
                       latex_to_plain(text.translate(_ALIASES)).replace("^", "**"))
    src = _implicit_products(src)
    try:
        tree = ast.parse(src.strip(), mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        raise AnswerError(f"{what}: {text.strip()[:60]!r} is not a number or an expression") from None
    value, rad = _Walker(what, text, {} if numeric else names or {}, radians, numeric).walk(tree)
    if numeric:
        return value, rad
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise AnswerError(f"{what}: {text.strip()[:60]!r} is not finite")
    return value, rad


def read_value(text: str, what: str, quantity: Quantity, radians: bool = False) -> float:
    """A typed number in the shown unit of ``quantity`` (angles: radians in radians mode).

    ``pi`` arithmetic and units via :func:`read_number`; sin/cos/tan/sqrt/atan2 via
    :func:`parse_expression`."""
    field = RADIANS if quantity.kind == "angle" and radians else quantity
    try:
        return read_number(text, what, field).value
    except KineTreeError as first:
        if not re.search(r"[A-Za-z_(]|\*\*|\^|°", text.replace("pi", "")):
            raise AnswerError(str(first)) from None  # nothing beyond a number: its message
    x, rad = parse_expression(text, what, None, radians, numeric=True)
    if quantity.kind == "angle" and not radians and rad:
        x = math.degrees(x)
    return x


def symbol_names(expected: sp.Expr | sp.MatrixBase) -> dict[str, sp.Expr]:
    """The names a student may type for the symbols of ``expected``: each symbol's own name
    (``q1``, ``a2``, ``d3``), ``theta1`` for ``q1``, and the lecture's ``c1``, ``s1``, ``c12``
    (cos(q1 + q2)) for every revolute variable."""
    out: dict[str, sp.Expr] = {}
    angles: dict[str, sp.Symbol] = {}
    for s in sorted(expected.free_symbols, key=lambda s: s.name):
        out[s.name] = s
        m = re.fullmatch(r"(?:q|theta)(\d+)", s.name)
        if m:
            angles[m.group(1)] = s
            out[f"theta{m.group(1)}"] = out[f"q{m.group(1)}"] = s
    for k, s in angles.items():
        out[f"c{k}"], out[f"s{k}"] = sp.cos(s), sp.sin(s)
    keys = sorted(angles)
    if all(len(k) == 1 for k in keys):  # c12, c123: sums of one-digit indices
        for i in range(len(keys)):
            for j in range(i + 1, len(keys)):
                total = sum(angles[k] for k in keys[i:j + 1])
                idx = "".join(keys[i:j + 1])
                out[f"c{idx}"], out[f"s{idx}"] = sp.cos(total), sp.sin(total)
                pair = keys[i] + keys[j]
                both = angles[keys[i]] + angles[keys[j]]
                out.setdefault(f"c{pair}", sp.cos(both))
                out.setdefault(f"s{pair}", sp.sin(both))
    return out


def equivalent(typed: sp.Expr, expected: sp.Expr, tolerance: float = 1e-9, points: int = 6, seed: int = 0) -> bool:
    """Whether two expressions agree at ``points`` random values of their symbols (each in
    −3…3), within ``tolerance`` relative to the size of the expected value."""
    symbols = sorted(typed.free_symbols | expected.free_symbols, key=lambda s: s.name)
    rng = np.random.default_rng(seed)
    for _ in range(points):
        at = {s: sp.Float(x) for s, x in zip(symbols, rng.uniform(-3, 3, len(symbols)))}
        try:
            a, b = complex(typed.evalf(20, subs=at)), complex(expected.evalf(20, subs=at))
        except (TypeError, ValueError):
            return False
        if not abs(a - b) <= tolerance * (1 + abs(b)):
            return False
    return True
