"""Printing symbolic matrices in the lecture's notation (:mod:`kinetree.core.teach.symbolic` makes them).

:func:`to_text` (``c1``, ``s12``, ``a1*c1 + a2*c12``), :func:`to_latex` (``c_{1}``, ``s_{12}``, a
``bmatrix``), :func:`to_python` (sympy syntax, which :func:`sympy.sympify` reads back),
:func:`to_python_script` and :func:`matrix_label` (``A_{3}``, ``T_{3}^{0}`` as Spong and the
lecture write it, or Craig's ``{}^{0}T_{3}``). Inside a product the lecture's order: a link
length first, then the cosines and sines by joint, then the offsets and slides (``a1*c1``,
``c4*s5*d6``). The terms of a sum in the order given as ``order=`` (a model's
:attr:`~kinetree.core.teach.symbolic.SymbolicFK.order`: the lecture's), else sympy's. No float is
printed as ``-0.0``.
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.printing.latex import LatexPrinter
from sympy.printing.str import StrPrinter

from ..dh.chain import SUBSCRIPT as _SUB

__all__ = ["NOTATIONS", "matrix_label", "to_latex", "to_python", "to_python_script", "to_text"]

#: How T between frames j and n is written: Spong's (the lecture's) T_n^j or Craig's ʲT_n.
NOTATIONS = ("spong", "craig")
_ANGLE_NAME = re.compile(r"(?:q|theta)(\d+)")
_SUP = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def matrix_label(n: int, j: int | None = None, notation: str = "spong", fmt: str = "text") -> str:
    """The name of A_n (``j`` None) or of T between frames ``j`` and ``n``: ``fmt`` ``text``
    (``A3``, ``T_3^0``, Craig ``^0T_3``), ``latex`` (``A_{3}``, ``T_{3}^{0}``, ``{}^{0}T_{3}``),
    ``unicode`` (``A₃``, ``T₃⁰``, ``⁰T₃``) or ``python`` (``A3``, ``T0_3``: an identifier)."""
    if notation not in NOTATIONS:
        raise ValueError(f"notation must be one of {', '.join(NOTATIONS)}, got {notation!r:.80}")
    if j is None:
        return {"text": f"A{n}", "latex": f"A_{{{n}}}", "unicode": "A" + str(n).translate(_SUB),
                "python": f"A{n}"}[fmt]
    if fmt == "python":
        return f"T{j}_{n}"
    if fmt == "latex":
        return f"T_{{{n}}}^{{{j}}}" if notation == "spong" else f"{{}}^{{{j}}}T_{{{n}}}"
    if fmt == "unicode":
        sub, sup = str(n).translate(_SUB), str(j).translate(_SUP)
        return f"T{sub}{sup}" if notation == "spong" else f"{sup}T{sub}"
    ns, js = (str(n) if n < 10 else f"{{{n}}}"), (str(j) if j < 10 else f"{{{j}}}")
    return f"T_{ns}^{js}" if notation == "spong" else f"^{js}T_{ns}"


def _float_text(x: sp.Float) -> str:
    return repr(float(x) + 0.0)  # shortest round-trip form: 0.4318, not 0.431800000000000; + 0.0: never -0.0


def _lecture_index(arg: sp.Expr) -> str | None:
    """``"12"`` for ``q1 + q2`` or ``theta1 + theta2`` (``"1,10"`` once an index has two digits),
    else ``None``."""
    terms = arg.args if isinstance(arg, sp.Add) else (arg,)
    ks = []
    for t in terms:
        m = _ANGLE_NAME.fullmatch(t.name) if isinstance(t, sp.Symbol) else None
        if m is None:
            return None
        ks.append(int(m.group(1)))
    ks.sort()
    return "".join(map(str, ks)) if all(k < 10 for k in ks) else ",".join(map(str, ks))


def _factor_key(f: sp.Expr) -> tuple:
    """Lecture order inside a product: ``a_i`` and other constants, then c/s by joint index (c
    first), then ``d_i`` (``c4*s5*d6``, ``-s1*d3``)."""
    if isinstance(f, (sp.cos, sp.sin)):
        idx = _lecture_index(f.args[0])
        if idx is not None:
            return (1, [int(k) for k in idx.split(",")] if "," in idx else [int(k) for k in idx],
                    0 if isinstance(f, sp.cos) else 1)
        return (2, [], str(f))
    if isinstance(f, sp.Symbol) and re.fullmatch(r"d\d+(_\d+)?", f.name):
        return (3, [], f.name)
    return (0, [], str(f))


def _lecture_factors(expr: sp.Mul) -> tuple[sp.Expr, list[sp.Expr]] | None:
    """``(coefficient, factors in lecture order)``, or ``None`` when sympy's own layout is
    needed (a quotient)."""
    coeff, factors = expr.as_coeff_mul()
    if any(f.is_Pow and f.exp.is_negative for f in factors) or (coeff.is_Rational and coeff.q != 1):
        return None
    return coeff, sorted(factors, key=_factor_key)


def _order_map(expr: sp.Basic, order) -> dict:
    """``{expr: its terms' keys in order}`` (the printers look a sum up there; the sums inside it,
    ``cos(q1 + q2)``, keep sympy's order)."""
    return {expr: order} if order else {}


class _OrderedTerms:
    """A sum's terms in the order given for it (the lecture's, from the product), else sympy's."""

    _order: dict = {}

    def _as_ordered_terms(self, expr, order=None):
        terms = super()._as_ordered_terms(expr, order=order)
        keys = self._order.get(expr)
        if not keys:
            return terms
        place = {key: n for n, key in enumerate(keys)}
        return sorted(terms, key=lambda t: place.get(frozenset(sp.Mul.make_args(t.as_coeff_Mul()[1])), len(place)))


class _TextPrinter(_OrderedTerms, StrPrinter):
    def __init__(self, lecture: bool, order: dict | None = None) -> None:
        super().__init__()
        self.lecture = lecture
        self._order = order or {}

    def _print_Float(self, expr: sp.Float) -> str:
        return _float_text(expr)

    def _print_Function(self, expr) -> str:
        if self.lecture and expr.func in (sp.cos, sp.sin):
            idx = _lecture_index(expr.args[0])
            if idx is not None:
                return ("c" if expr.func is sp.cos else "s") + idx
        return super()._print_Function(expr)

    _print_cos = _print_sin = _print_Function

    def _print_Mul(self, expr: sp.Mul) -> str:
        split = _lecture_factors(expr) if self.lecture else None
        if split is None:
            return super()._print_Mul(expr)
        coeff, factors = split
        parts = [self.parenthesize(f, 40) for f in factors]  # 40: Mul's precedence
        sign = "-" if coeff < 0 else ""
        if abs(coeff) != 1:
            parts.insert(0, self._print(abs(coeff)))
        return sign + "*".join(parts)


class _LecturePrinter(_OrderedTerms, LatexPrinter):
    def __init__(self, settings: dict, order: dict | None = None) -> None:
        super().__init__(settings)
        self._order = order or {}

    def _print_Float(self, expr: sp.Float) -> str:
        text = _float_text(expr)
        if "e" in text:
            m, e = text.split("e")
            return rf"{m} \cdot 10^{{{int(e)}}}"
        return text

    def _print_Function(self, expr, exp=None) -> str:
        if expr.func in (sp.cos, sp.sin):
            idx = _lecture_index(expr.args[0])
            if idx is not None:
                base = ("c" if expr.func is sp.cos else "s") + "_{" + idx + "}"
                return base if exp is None else f"{base}^{{{exp}}}"
        return super()._print_Function(expr, exp)

    def _print_Mul(self, expr: sp.Mul) -> str:
        split = _lecture_factors(expr)
        if split is None:
            return super()._print_Mul(expr)
        coeff, factors = split
        parts = [self.parenthesize(f, 40) for f in factors]
        sign = "- " if coeff < 0 else ""
        if abs(coeff) != 1:
            parts.insert(0, self._print(abs(coeff)))
        return sign + " ".join(parts)


def to_text(expr: sp.Basic, order=None) -> str:
    """``expr`` in the lecture's notation: ``a1*c1 + a2*c12`` (a matrix as nested lists); ``order``
    the terms' order (a model's :attr:`~kinetree.core.teach.symbolic.SymbolicFK.order`, or one entry's)."""
    if isinstance(expr, sp.MatrixBase):
        return "\n".join("[" + ", ".join(to_text(expr[r, c], order[r][c] if order else None)
                                         for c in range(expr.cols)) + "]" for r in range(expr.rows))
    return _TextPrinter(True, _order_map(expr, order)).doprint(expr)


def to_python(expr: sp.Basic) -> str:
    """``expr`` in sympy syntax (``cos(q1 + q2)``), which :func:`sympy.sympify` reads back."""
    return _TextPrinter(False).doprint(expr)


def to_latex(expr: sp.Basic, label: str | None = None, order=None) -> str:
    """``expr`` as LaTeX in the lecture's notation (``c_{1}``, ``s_{12}``; a matrix as ``bmatrix``);
    with ``label`` a whole line, ``A_{3} = \\begin{bmatrix}…\\end{bmatrix}``; ``order`` as :func:`to_text`'s."""
    if isinstance(expr, sp.MatrixBase):  # entry by entry: two equal entries may be written in two orders
        rows = (" & ".join(to_latex(expr[r, c], None, order[r][c] if order else None) for c in range(expr.cols))
                for r in range(expr.rows))
        body = r"\begin{bmatrix}" + r"\\".join(rows) + r"\end{bmatrix}"
    else:
        body = _LecturePrinter({"mat_str": "bmatrix", "mat_delim": ""}, _order_map(expr, order)).doprint(expr)
    return body if label is None else f"{label} = {body}"


def to_python_script(model, name: str = "T") -> str:
    """A self-contained Python snippet that rebuilds ``model.matrix`` (a
    :class:`~kinetree.core.teach.symbolic.SymbolicFK`) with sympy as ``name``, the parameters' values in
    a dict ``values`` (``T.subs(values)`` gives the numeric form)."""
    used = sorted(model.matrix.free_symbols, key=lambda x: x.name)
    lines = ["from sympy import *", ""]
    if used:
        lines.append(f"{', '.join(x.name for x in used)} = symbols({' '.join(x.name for x in used)!r})")
    values = ", ".join(f"{p.name}: {v!r}" for p, v in model.parameters.items() if p in used)
    lines.append(f"values = {{{values}}}")
    rows = ",\n    ".join("[" + ", ".join(to_python(e) for e in model.matrix.row(r)) + "]" for r in range(4))
    lines.append(f"{name} = Matrix([\n    {rows},\n])")
    return "\n".join(lines) + "\n"
