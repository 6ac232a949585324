"""The ``${…}`` expressions of xacro files, evaluated without Python's ``eval``.

An expression is parsed with :func:`ast.parse` (mode ``"eval"``) and the tree is first checked
against a whitelist, then walked by :func:`evaluate`. Nothing of the file reaches Python
objects other than numbers, strings, booleans, ``None``, lists, tuples and the mappings that
``load_yaml`` returns; no attribute of any Python object is ever looked up (``math.sin`` is a
table lookup, ``config.key`` on a YAML mapping is a key lookup, ``s.split(' ')`` on a ``str``
calls ``str.split`` from :data:`STR_METHODS`).

Allowed: literals, names (properties, then ``pi e tau inf nan``), ``+ - * / // % **`` (``%``
on numbers only), unary ``+ - not``, comparisons (``in`` included), ``and or``, ``x if c else
y``, list/tuple/dict displays, subscripts and slices, calls of :data:`FUNCTIONS`,
``math.<name>``, :data:`STR_METHODS` on strings, ``xacro.load_yaml``/``load_yaml``,
``xacro.warning``/``message``/``error`` (give ``''``) and ``xacro.fatal`` (stops). Everything
else (other attributes, double-underscore names, lambdas, comprehensions, f-strings, keyword
arguments, ``python.*`` …) raises :class:`ExprError` before anything is evaluated. Sizes are
bounded: strings and sequences of at most :data:`MAX_LEN` items, integers of at most
:data:`MAX_INT_BITS` bits, exponents of at most :data:`MAX_EXPONENT`.
"""

from __future__ import annotations

import ast
import math
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import Macros, Scope

__all__ = ["FUNCTIONS", "MATH", "STR_METHODS", "Budget", "ExprError", "Namespace", "YamlMap", "check_size",
           "evaluate", "short", "to_text"]

#: Longest string, list or tuple an expression may produce.
MAX_LEN = 10_000_000
#: Largest integer (in bits) an expression may produce.
MAX_INT_BITS = 100_000
#: Largest exponent of ``**`` / ``pow``.
MAX_EXPONENT = 10_000
#: Longest expression text.
MAX_EXPR_CHARS = 100_000
#: Most parameters of one macro.
MAX_PARAMS = 1000
# str() of an int of more digits raises ValueError (Python's guard against quadratic conversion)
_MAX_DIGITS = sys.get_int_max_str_digits() or 4300
_TEN_DIGITS = 10 ** _MAX_DIGITS


class ExprError(Exception):
    """An expression is refused or fails; the caller adds file, line and element."""


def short(v: Any, n: int = 200) -> str:
    """``repr(v)`` for a message, at most about ``n`` characters (values can be 10 MB strings)."""
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= _TEN_DIGITS:
        return f"<integer of {v.bit_length()} bits>"
    if isinstance(v, str):
        text = repr(v[:n + 1])
    elif isinstance(v, (list, tuple, dict)) and _count(v, 0, n) > n:
        text = f"<{type(v).__name__} of {len(v)} items>"
    else:
        try:
            text = repr(v)
        except ValueError:  # an int inside a container, too long to print
            text = f"<{type(v).__name__}>"
    return text if len(text) <= n else text[:n] + "…"


class Budget:
    """What the expressions of one expansion may still create, and until when they may run.

    Every string, list, tuple and dict an expression makes is charged (a character 1, an item 8: the
    bytes it roughly takes); comparisons, hashing, ``min``/``max`` and ``str()`` of containers are
    charged their items counted through shared sub-containers (``[[x]*2000]*2000 == …`` compares
    4 million items while holding 4000); the deadline is checked every few dozen nodes."""

    __slots__ = ("left", "total", "deadline", "timeout", "steps")

    def __init__(self, total: int = 100 * 2**20, timeout: float = 5.0, deadline: float | None = None) -> None:
        self.left = self.total = total
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout if deadline is None else deadline
        self.steps = 0

    def charge(self, n: int, walk: bool = False) -> None:
        self.left -= n
        if self.left < 0:
            if walk:
                raise ExprError(f"comparing or hashing containers of {n} items or more (shared ones counted each "
                                "time) is more than the expansion may do; stopped")
            raise ExprError(f"expressions create more than {self.total // 2**20} MB of values in all; stopped")

    def charge_value(self, v: Any) -> Any:
        if isinstance(v, str):
            self.charge(len(v))
        elif isinstance(v, (list, tuple, dict)):
            self.charge(8 * len(v))
        return v

    def charge_walk(self, *vals: Any) -> None:
        """Charge the items a comparison or hash walks (shared sub-containers each time)."""
        for v in vals:
            if isinstance(v, (list, tuple, dict)):
                self.charge(_expanded(v, {}, self.left + 1), walk=True)

    def tick(self) -> None:
        if time.monotonic() > self.deadline:
            raise ExprError(f"expansion takes longer than {self.timeout:g} s; stopped")


def _expanded(v: Any, memo: dict[int, int], cap: int) -> int:
    """Items of ``v`` counting shared sub-containers each time they appear, in time linear in the
    distinct containers (memoised); stops above ``cap``."""
    if not isinstance(v, (list, tuple, dict)):
        return 1
    if id(v) in memo:
        return memo[id(v)]
    n = 1
    for x in (v.values() if isinstance(v, dict) else v):
        n += _expanded(x, memo, cap) if isinstance(x, (list, tuple, dict)) else 1
        if n > cap:
            break
    memo[id(v)] = n
    return n


def _text_size(v: Any, memo: dict[int, int], cap: int) -> int:
    """A bound on ``len(str(v))``, computed without building it; stops above ``cap``."""
    if isinstance(v, bool) or v is None:
        return 5
    if isinstance(v, int):
        if abs(v) >= _TEN_DIGITS:
            raise ExprError(f"an integer of more than {_MAX_DIGITS} digits cannot be written as text")
        return v.bit_length() // 3 + 2
    if isinstance(v, float):
        return 25
    if isinstance(v, str):  # repr inside containers: escapes take up to 10 characters
        return 2 * len(v) + 2 if v.isprintable() else 10 * len(v) + 2
    if not isinstance(v, (list, tuple, dict)):
        return 100
    if id(v) in memo:
        return memo[id(v)]
    n = 2
    for x in (v.items() if isinstance(v, dict) else v):
        n += (_text_size(x[0], memo, cap) + _text_size(x[1], memo, cap) + 4 if isinstance(v, dict)
              else _text_size(x, memo, cap) + 2)
        if n > cap:
            break
    memo[id(v)] = n
    return n


class YamlMap(dict):
    """A mapping read by ``load_yaml``: keys also readable as ``m.key`` (as in ROS xacro)."""


_MATH_NAMES = ("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "sqrt", "exp",
               "log", "log10", "pow", "fabs", "floor", "ceil", "radians", "degrees", "hypot", "copysign", "fmod")
#: ``math.<name>`` and the bare names of the math functions.
MATH: dict[str, Callable[..., Any]] = {n: getattr(math, n) for n in _MATH_NAMES}
CONSTANTS: dict[str, float] = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
_MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}


def check_size(v: Any) -> Any:
    """``v`` if it is within the size bounds, else :class:`ExprError`."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        if v.bit_length() > MAX_INT_BITS:
            raise ExprError(f"integer of {v.bit_length()} bits is larger than the {MAX_INT_BITS} allowed")
    elif isinstance(v, (str, list, tuple)) and len(v) > MAX_LEN:
        raise ExprError(f"{type(v).__name__} of {len(v)} items is longer than the {MAX_LEN} allowed")
    return v


def _pow(a, b):
    if isinstance(b, (int, float)) and abs(b) > MAX_EXPONENT:
        raise ExprError(f"exponent {b!r} is larger than {MAX_EXPONENT}")
    if isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1 and a.bit_length() * b > MAX_INT_BITS:
        raise ExprError(f"{a!r} ** {b!r} would be larger than {MAX_INT_BITS} bits")
    return a ** b


def _mul(a, b):
    for s, n in ((a, b), (b, a)):
        if isinstance(s, (str, list, tuple)) and isinstance(n, int) and len(s) * max(n, 0) > MAX_LEN:
            raise ExprError(f"repeating a {type(s).__name__} of {len(s)} items {n} times is longer than {MAX_LEN}")
    return a * b


def _mod(a, b):
    if isinstance(a, str):  # '%*d' % … formats strings of any size
        raise ExprError("string formatting with % is not allowed")
    return a % b


def to_text(v: Any = "") -> str:
    """``str(v)``, refused before it is built when too long (``str(['a'*10**7]*100)`` is 1 GB) and for
    integers of more digits than Python converts."""
    if isinstance(v, str):
        return v
    if isinstance(v, (int, list, tuple, dict)) and not isinstance(v, bool):
        size = _text_size(v, {}, MAX_LEN + 1)
        if size > MAX_LEN:
            raise ExprError(f"the text of this {type(v).__name__} would be longer than {MAX_LEN} characters")
    return check_size(str(v))


def _count(v, n: int, cap: int = 100_000) -> int:
    """Items in a nested container (shared sub-containers counted each time), stopping above ``cap``."""
    stack = [v]
    while stack and n <= cap:
        x = stack.pop()
        n += 1
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return n


def _round(x, n=None):
    if n is not None and (not isinstance(n, int) or abs(n) > 400):
        raise ExprError(f"round() digits {n!r} out of range")
    return round(x) if n is None else round(x, n)


#: Functions an expression may call by bare name.
FUNCTIONS: dict[str, Callable[..., Any]] = {
    **MATH, "abs": abs, "min": min, "max": max, "int": int, "float": float, "str": to_text, "bool": bool,
    "len": len, "round": _round,
}
FUNCTIONS["pow"] = _pow

_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: _mul, ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: _mod, ast.Pow: _pow,
}
_CMPOPS: dict[type, Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
_ALLOWED = (ast.Expression, ast.Constant, ast.Name, ast.Load, ast.BinOp, ast.UnaryOp, ast.Compare,
            ast.BoolOp, ast.IfExp, ast.Call, ast.Attribute, ast.Subscript, ast.Slice, ast.List, ast.Tuple,
            ast.Dict, ast.And, ast.Or, ast.Not, ast.UAdd, ast.USub, *_BINOPS, *_CMPOPS)
_NAMED = {
    ast.Lambda: "lambda", ast.ListComp: "list comprehension", ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension", ast.GeneratorExp: "generator expression", ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string", ast.NamedExpr: "assignment expression (:=)", ast.Starred: "star argument",
    ast.Set: "set display", ast.Await: "await", ast.Yield: "yield", ast.YieldFrom: "yield",
    ast.Is: "'is'", ast.IsNot: "'is not'", ast.LShift: "'<<'", ast.RShift: "'>>'", ast.BitOr: "'|'",
    ast.BitAnd: "'&'", ast.BitXor: "'^'", ast.Invert: "'~'", ast.MatMult: "'@'",
}
# names of the evaluator's own namespaces: never properties, never values
_RESERVED = ("python", "xacro", "math")


def _replace(s: str, old: str, new: str, count: int = -1) -> str:
    n = s.count(old) if count < 0 else min(count, s.count(old))
    if len(s) + n * (len(new) - len(old)) > MAX_LEN or (not old and len(s) * len(new) > MAX_LEN):
        raise ExprError(f"replace() would give more than {MAX_LEN} characters")
    return s.replace(old, new, count)


#: String methods callable on a ``str`` value (real robots write ``${xyz.split(' ')[0]}``); a table,
#: never ``getattr``. No ``format`` (its fields reach attributes) and no ``join`` (unbounded size).
STR_METHODS: dict[str, Callable[..., Any]] = {
    "split": str.split, "rsplit": str.rsplit, "strip": str.strip, "lstrip": str.lstrip, "rstrip": str.rstrip,
    "lower": str.lower, "upper": str.upper, "startswith": str.startswith, "endswith": str.endswith,
    "find": str.find, "count": str.count, "replace": _replace,
}
# ROS xacro's xacro.message/warning/error print and give ''; xacro.fatal stops
_XACRO_QUIET = ("message", "warning", "error", "print_location")


def _dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return f"({ast.unparse(node)})"


def _check(tree: ast.AST) -> None:
    """Refuse every construct outside the whitelist, before anything is evaluated."""
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            what = _NAMED.get(type(node), type(node).__name__)
            raise ExprError(f"{what} is not allowed in xacro expressions")
        if isinstance(node, ast.Name) and node.id.startswith("__"):
            raise ExprError(f"name {node.id!r}: double-underscore names are not allowed")
        if isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                raise ExprError(f"attribute access '{_dotted(node)}' is not allowed (underscore attribute)")
            base = node.value.id if isinstance(node.value, ast.Name) else None
            if base == "math" and node.attr not in MATH and node.attr not in _MATH_CONSTANTS:
                raise ExprError(f"'math.{node.attr}' is not allowed (math functions: {', '.join(_MATH_NAMES)})")
            if base == "python" or (base == "xacro" and node.attr not in ("load_yaml", "fatal", *_XACRO_QUIET)):
                raise ExprError(f"attribute access '{_dotted(node)}' is not allowed")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float, str, bool, type(None))):
            raise ExprError(f"{type(node.value).__name__} literal {node.value!r} is not allowed")
        if isinstance(node, ast.Call):
            if node.keywords:
                raise ExprError(f"keyword arguments in the call of '{_dotted(node.func)}' are not allowed")
            f = node.func
            base = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else None
            ok = (isinstance(f, ast.Name) and (f.id in FUNCTIONS or f.id == "load_yaml")) or (
                isinstance(f, ast.Attribute) and ((base == "math" and f.attr in MATH) or base == "xacro"
                                                  or (base != "math" and f.attr in STR_METHODS)))
            if not ok:
                raise ExprError(f"call of '{_dotted(f)}' is not allowed (only math functions, abs, min, max, int, "
                                "float, str, bool, len, round, load_yaml and string methods such as split)")


class _Evaluator:
    def __init__(self, lookup: Callable[[str], Any], load_yaml: Callable[[str], Any] | None, budget: Budget) -> None:
        self.lookup = lookup
        self.load_yaml = load_yaml
        self.budget = budget

    def name(self, ident: str) -> Any:
        try:
            return self.lookup(ident)
        except KeyError:
            pass
        if ident in CONSTANTS:
            return CONSTANTS[ident]
        if ident in _RESERVED or ident in FUNCTIONS:
            raise ExprError(f"name {ident!r} cannot be used as a value")
        raise ExprError(f"name {ident!r} is not defined")

    def call(self, node: ast.Call) -> Any:
        f = node.func
        if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and f.value.id in ("math", "xacro")):
            return self.str_method(f, [self.ev(a) for a in node.args])
        fname = f.id if isinstance(f, ast.Name) else f"{f.value.id}.{f.attr}"  # type: ignore[attr-defined]
        args = [self.ev(a) for a in node.args]
        if fname in ("xacro.fatal", *(f"xacro.{n}" for n in _XACRO_QUIET)):
            if fname == "xacro.fatal":
                raise ExprError("xacro.fatal: " + short(" ".join(map(to_text, args))))
            return ""
        if fname in ("load_yaml", "xacro.load_yaml"):
            if self.load_yaml is None or len(args) != 1 or not isinstance(args[0], str):
                raise ExprError("load_yaml takes one file name" if self.load_yaml else "load_yaml is not available")
            return self.load_yaml(args[0])
        fn = MATH[f.attr] if isinstance(f, ast.Attribute) else FUNCTIONS[fname]  # type: ignore[attr-defined]
        for a in args:  # no function of the whitelist is meant to see anything else
            if not isinstance(a, (int, float, str, bool, list, tuple, dict, type(None))):
                raise ExprError(f"{fname}() of a {type(a).__name__} is not allowed")
        if fname not in ("len", "bool"):  # min, max and str walk nested containers
            self.budget.charge_walk(*args)
        return self.budget.charge_value(check_size(fn(*args)))

    def str_method(self, f: ast.Attribute, args: list) -> Any:
        base = self.ev(f.value)
        if type(base) is not str:
            raise ExprError(f"'.{f.attr}()' is only allowed on strings, not on a {type(base).__name__}")
        if not all(isinstance(a, (str, int, type(None))) for a in args):
            raise ExprError(f"'.{f.attr}()' takes strings and integers")
        v = check_size(STR_METHODS[f.attr](base, *args))
        if isinstance(v, list):  # split: the pieces are new strings too
            self.budget.charge(len(base))
        return self.budget.charge_value(v)

    def ev(self, node: ast.AST) -> Any:
        self.budget.steps += 1
        if not self.budget.steps & 63:
            self.budget.tick()
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.BinOp):
            left, right = self.ev(node.left), self.ev(node.right)
            if isinstance(node.op, ast.Mult):  # charged before: the result may be all memory
                for a, b in ((left, right), (right, left)):
                    if isinstance(a, (str, list, tuple)) and isinstance(b, int) and len(a) * b <= MAX_LEN:
                        self.budget.charge((1 if isinstance(a, str) else 8) * len(a) * max(b, 0))
                return check_size(_BINOPS[type(node.op)](left, right))
            return self.budget.charge_value(check_size(_BINOPS[type(node.op)](left, right)))
        if isinstance(node, ast.UnaryOp):
            v = self.ev(node.operand)
            return not v if isinstance(node.op, ast.Not) else (+v if isinstance(node.op, ast.UAdd) else -v)
        if isinstance(node, ast.BoolOp):
            v = None
            for sub in node.values:
                v = self.ev(sub)
                if bool(v) != isinstance(node.op, ast.And):
                    return v
            return v
        if isinstance(node, ast.Compare):
            left = self.ev(node.left)
            for op, sub in zip(node.ops, node.comparators):
                right = self.ev(sub)
                self.budget.charge_walk(left, right)
                if not _CMPOPS[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.IfExp):
            return self.ev(node.body) if self.ev(node.test) else self.ev(node.orelse)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "math":
                return _MATH_CONSTANTS[node.attr] if node.attr in _MATH_CONSTANTS else self._fn_value(node)
            base = self.ev(node.value)
            if isinstance(base, Namespace):
                try:
                    return base.get(node.attr)
                except KeyError:
                    raise ExprError(f"namespace {base.name!r} has no property {node.attr!r}") from None
            if not isinstance(base, YamlMap):
                raise ExprError(f"attribute access '{_dotted(node)}' is not allowed on a {type(base).__name__} "
                                "(only on load_yaml mappings)")
            if node.attr not in base:
                raise ExprError(f"the yaml mapping has no key {node.attr!r}")
            return base[node.attr]
        if isinstance(node, ast.Subscript):
            base = self.ev(node.value)
            if not isinstance(base, (list, tuple, str, dict)):
                raise ExprError(f"a {type(base).__name__} cannot be subscripted")
            if isinstance(node.slice, ast.Slice):
                s = node.slice
                idx = slice(*(None if x is None else self.ev(x) for x in (s.lower, s.upper, s.step)))
                return self.budget.charge_value(base[idx])
            idx = self.ev(node.slice)
            if isinstance(base, dict):  # hashing a tuple walks all of it
                self.budget.charge_walk(idx)
            return base[idx]
        if isinstance(node, (ast.List, ast.Tuple)):
            items = [self.ev(x) for x in node.elts]
            return self.budget.charge_value(items if isinstance(node, ast.List) else tuple(items))
        if isinstance(node, ast.Dict):
            if any(k is None for k in node.keys):
                raise ExprError("'**' in a dict display is not allowed")
            keys = [self.ev(k) for k in node.keys]  # type: ignore[arg-type]
            self.budget.charge_walk(*keys)
            return self.budget.charge_value(dict(zip(keys, (self.ev(v) for v in node.values))))
        raise ExprError(f"{type(node).__name__} is not allowed in xacro expressions")  # _check lets none through

    @staticmethod
    def _fn_value(node: ast.Attribute) -> Any:
        raise ExprError(f"'math.{node.attr}' is a function; call it")


class Namespace:
    """What ``<xacro:include ns="n">`` defines: ``${n.prop}`` reads its properties, ``<xacro:n.m>``
    calls its macros."""

    __slots__ = ("name", "scope", "macros", "get")

    def __init__(self, name: str, scope: Scope, macros: Macros, get: Callable[[str], Any]) -> None:
        self.name, self.scope, self.macros, self.get = name, scope, macros, get

    def __str__(self) -> str:
        return f"<namespace {self.name}>"


def evaluate(text: str, lookup: Callable[[str], Any], load_yaml: Callable[[str], Any] | None = None,
             budget: Budget | None = None) -> Any:
    """The value of the expression ``text``.

    ``lookup(name)`` gives a property's value or raises :class:`KeyError`; ``load_yaml(name)``
    reads a YAML file (``None``: not available); ``budget`` is what the expansion may still create
    and its deadline (default: a fresh one). Raises :class:`ExprError` for anything refused or
    failing (the message names the construct)."""
    text = text.strip()
    if len(text) > MAX_EXPR_CHARS:
        raise ExprError(f"expression of {len(text)} characters is longer than {MAX_EXPR_CHARS}")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"invalid expression ({exc.msg})") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExprError("expression is nested too deeply") from None
    _check(tree)
    try:
        return _Evaluator(lookup, load_yaml, Budget() if budget is None else budget).ev(tree.body)
    except ExprError:
        raise
    except RecursionError:
        raise ExprError("expression is nested too deeply") from None
    except MemoryError:
        raise ExprError("out of memory") from None
    except (ArithmeticError, TypeError, ValueError, KeyError, IndexError) as exc:
        raise ExprError(f"{type(exc).__name__}: {short(str(exc), 300)[1:-1]}") from None
