"""Numbers typed by the user and numbers shown for editing. No Qt here.

Editors accept any float notation (``0.0203``, ``1e-3``, ``-90``) and simple arithmetic with
``pi`` (``pi/2``, ``-0.4318*2``, parentheses, unary minus, ``+ - * /``). The text is read by a
small tokenizer and recursive-descent parser: nothing typed is ever evaluated as code.

Every typed number goes through :func:`read_number`, which knows what the field holds
(:class:`Quantity`: an angle, a length or a plain number, and the unit it is shown in): a number
whose value holds ``pi`` is in radians wherever angles have a unit (``pi/2`` is 90 in a degree
field; ``pi/2*180/pi`` is 90 there too),
and a unit suffix (``90deg``, ``90°``, ``1.5708rad``, ``250mm``, ``0.25m``) is converted to the
field's unit; a length in an angle field (or the reverse) and a decimal comma are refused with
one line naming the field and the value. The reader lives in :mod:`kinetree.core.number_text`
(core reads hand-written DH tables with it) and is re-exported here.

An editor opens with :func:`exact_text`: the shortest text (at most 12 significant digits) that
converts back to the stored float in the shown unit; editors keep the stored float while that
text is left as shown, so opening and leaving an editor can never change a value.
"""

from __future__ import annotations

import math
import re

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.number_text import (  # noqa: F401 - the reader lives in core (DH tables read pi/2 too)
    DEGREES,
    DISPLAY_ZERO,
    MAX_DEPTH,
    MAX_LENGTH,
    METRES,
    MILLIMETRES,
    PLAIN,
    RADIANS,
    UNIT_LABEL,
    Conversion,
    Quantity,
    Reading,
    core_to_unit,
    decimal_sum,
    display_value,
    identity,
    metres_to_mm,
    mm_to_metres,
    parse_number,
    read_number,
    short_text,
    tidy,
    to_degrees,
    to_radians,
    unit_to_core,
)
from kinetree.core.transforms import rotation_readouts


def split_numbers(text: str, n: int) -> list[str]:
    """The pieces of ``text`` holding ``n`` numbers: the whole text for one number (so
    ``pi / 2`` works), else comma-separated pieces if there are commas, else words."""
    if n == 1:
        return [text]
    if "," in text:
        return [p for p in (s.strip() for s in text.split(",")) if p]
    return text.split()


def parse_numbers(text: str, n: int, what: str, allow_inf: bool = False) -> list[float]:
    """Exactly ``n`` numbers from ``text`` (see :func:`split_numbers`)."""
    return [read_number(p, what, PLAIN, allow_inf).value for p in numbers_of(text, n, what)]


def refuse_decimal_comma(words: list[str], what: str) -> None:
    """Refuse the first of ``words`` that is a number with a decimal comma (``0,4318``): read
    with the comma as a separator it would be two numbers (0 and 4318)."""
    commas = [w for w in words if re.fullmatch(r"[-+]?\d*,\d+", w)]
    if commas:
        point = commas[0].replace(",", ".")
        raise KineTreeError(f"{what}: {commas[0]!r} has a decimal comma; use a point: {point}")


def numbers_of(text: str, n: int, what: str) -> list[str]:
    """:func:`split_numbers`, refusing a wrong count; decimal commas (``1,5 2,5 3,5``) are named."""
    parts = split_numbers(text, n)
    if len(parts) != n:
        refuse_decimal_comma(text.split(), what)
        raise KineTreeError(f"{what}: expected {n} number{'s' if n > 1 else ''}, got {len(parts)}")
    return parts




#: Significant digits an editor opens a value with: more is float noise (0.037980719999999996).
EDIT_DIGITS = 12


def exact_text(value: float, to_shown: Conversion = identity, from_shown: Conversion = identity) -> str:
    """The text an editor opens with: the shortest ``s`` (in the shown unit) of at most
    :data:`EDIT_DIGITS` significant digits with ``from_shown(float(s)) == value``.

    With the identity that is ``repr``-exact (``0.0203``, ``1``, ``0.00001``); in degrees it is
    ``90`` for ``pi/2``. A value no such text reaches (``0.037980719999999996``, the degrees of
    1.5708 rad) shows its first 12 digits, and every editor keeps the stored float while that
    text is left as shown (``Field.numbers``, ``ExactSpinBox.valueFromText``, the DH table's
    ``setData``): opening and leaving an editor never changes a value."""
    value = float(value)
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    shown = float(to_shown(value))
    for digits in range(1, EDIT_DIGITS + 1):
        v = float(f"{shown:.{digits}g}")
        if from_shown(v) == value:
            return plain_text(v)
    return plain_text(float(f"{shown:.{EDIT_DIGITS}g}"))


def plain_text(value: float) -> str:
    """The shortest text of ``value`` without an exponent (``0.00001``, ``250``) where a person
    types one that way (1e-9 to 1e15 in magnitude); beyond, with one (``1e21``, ``-6.9e-18``)."""
    if value == 0 or 1e-9 <= abs(value) < 1e15:
        return tidy(np.format_float_positional(value, trim="-"))
    return tidy(repr(value))


def fixed_text(value: float, decimals: int, sign_space: bool = False) -> str:
    """A value for reading with ``decimals`` decimals, near zeros as 0 and never ``-0.000``;
    ``sign_space``: a space where a positive value has no sign (columns keep their width)."""
    v = round(display_value(value), decimals) + 0.0  # + 0.0: -0.0 becomes 0.0
    return f"{v: .{decimals}f}" if sign_space else f"{v:.{decimals}f}"


def signed_text(value: float, decimals: int) -> str:
    """:func:`fixed_text` with its sign always written (``+1.5``, ``-1.5``, ``+0.0``; never ``-0.0``)."""
    text = fixed_text(value, decimals)
    return text if text.startswith("-") else "+" + text


def same_numbers(a: str, b: str) -> bool:
    """True when two texts are the same words (so a commit of ``b`` over ``a`` is no edit)."""
    return a.replace(",", " ").split() == b.replace(",", " ").split()


def matrix_text(T: np.ndarray, style: str, digits: int) -> str:
    """A 4×4 as plain text, a NumPy expression or a MATLAB literal."""
    rows = [[fixed_text(v, digits) for v in row] for row in T]
    if style == "numpy":
        return "np.array([\n" + ",\n".join("    [" + ", ".join(r) + "]" for r in rows) + "\n])"
    if style == "matlab":
        return "[" + ";\n ".join(" ".join(r) for r in rows) + "]"
    # one column width for any 4×4 with |values| < 10 (rotations, robot-sized translations), so
    # the readout does not change size, and re-layout the window, while a joint is dragged
    width = max(digits + 3, *(len(c) for r in rows for c in r))
    return "\n".join("  ".join(c.rjust(width) for c in r) for r in rows)



def pose_readouts(T: np.ndarray, digits: int, degrees: bool) -> dict[str, str]:
    """The Pose dock's text of each readout of pose ``T`` (keys as its ``ROWS`` plus x, y, z); the
    exported web page prints the same (resources/web/page.js, checked by its test) and the notebook
    widget sends it (app/notebook_widget.py): here, without Qt."""
    ang = (lambda v: np.degrees(v)) if degrees else (lambda v: np.asarray(v))
    unit = "°" if degrees else " rad"

    def row(values) -> str:  # a space for "+": widths stay put while values change sign
        return "  ".join(fixed_text(v, digits, sign_space=True) for v in np.asarray(values, dtype=float))

    r = rotation_readouts(T)
    out = {"matrix": matrix_text(T, "text", digits)}
    out.update({key: row([T[k, 3]]) for k, key in enumerate("xyz")})
    out.update(rpy=row(ang(r["rpy"])) + unit, zyz=row(ang(r["zyz"])) + unit, quat=row(r["quat"]),
               axis_angle=f"[{row(r['axis'])}], {fixed_text(float(ang(r['angle'])), digits)}{unit}")
    return out
