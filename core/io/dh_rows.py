"""The rows of a DH table file or pasted table: its header (columns by name, in any order, as a
spreadsheet or a lecture writes them) and each row's cells read into a :class:`DHLink`.

Header names are matched case-insensitively, with the lecture's spellings: ``θ``/``theta``/
``θ_i``/``$\\theta_i$`` for ``theta``, ``α``/``alpha`` for ``alpha``, ``a_i``, ``d_i``; a ``link``
(``i``, ``#``) column numbers the rows and is ignored. ``type`` is optional: without it a row's
joint variable is the cell that holds a symbol — ``θ1``/``q1``/``theta1`` in θ (revolute),
``d3``/``q3`` in d (prismatic); a star (``θ1*``, ``d3*``) marks the variable when both hold one.

Angle cells are read by :func:`~kinetree.core.number_text.read_number` (the app's one number
reader, never ``eval``): ``pi/2``, ``-pi/4``, ``2*pi/3`` are radians and ``90deg``/``90°``
degrees whatever the table's unit; a plain number is in the table's unit.
"""

from __future__ import annotations

import math
import re

from ..dh.chain import DHLink
from ..errors import FileFormatError, KineTreeError
from ..number_text import DEGREES, RADIANS, read_number
from ..transforms import MAX_LENGTH

COLUMNS = ("type", "a", "alpha", "d", "theta", "offset", "qmin", "qmax", "name", "joint", "home", "flip")
REQUIRED = ("a", "alpha", "d", "theta")
#: a column that numbers the rows (the lecture's "Link"): read and ignored
INDEX = "link"
_ALIASES = {"θ": "theta", "ϑ": "theta", "α": "alpha", "link": INDEX, "i": INDEX, "#": INDEX, "row": INDEX}
_TYPES = {"r": "R", "revolute": "R", "p": "P", "prismatic": "P"}
_VARIABLE = re.compile(r"^[^\W\d]\w*$")  # q1, q, theta1, θ1, d3 …
#: a joint variable as a lecture writes it: θ1, θ_1, q1, d3, theta1, starred or not
_SYMBOL = re.compile(r"^(?P<name>[^\W\d]\w*?)(?:_?\{?(?P<index>\d+)\}?)?(?P<star>\*?)$")
#: The limits an empty qmin/qmax cell stands for (radians, metres).
DEFAULT_LIMITS = {"R": (-math.pi, math.pi), "P": (-0.5, 0.5)}


def _plain(cell: str) -> str:
    """A cell without LaTeX dressing: ``$\\theta_1$`` → ``θ_1``, ``$d_{3}$`` → ``d_{3}``."""
    text = cell.strip().strip("$").strip()
    return text.replace("\\theta", "θ").replace("\\alpha", "α").replace("\\vartheta", "θ").replace("\\", "")


def column_name(cell: str) -> str:
    """The canonical column a header cell names (``θ_i`` → ``theta``); unknown names as given."""
    name = _plain(cell).lower().replace(" ", "")
    name = re.sub(r"_?\{?i\}?$", "", name) if len(name) > 1 and name not in ("i",) else name
    return _ALIASES.get(name, name)


def check_header(cells: list[str], where: str) -> tuple[list[str], dict[str, str]]:
    """The canonical column names of a header row and, for messages, each one as written."""
    header, shown = [], {}
    for cell in cells:
        if not cell.strip():
            raise FileFormatError(f"{where}: header has an empty column name")
        col = column_name(cell)
        if col not in COLUMNS and col != INDEX:
            raise FileFormatError(f"{where}: unknown column {cell.strip()!r}; columns are {', '.join(COLUMNS)} "
                                  "(θ, α and the lecture's θ_i, α_i, a_i, d_i too)")
        if col in shown:
            raise FileFormatError(f"{where}: column {cell.strip()!r} appears twice")
        header.append(col)
        shown[col] = col if col in COLUMNS and col == cell.strip().lower() else cell.strip()
    missing = [c for c in REQUIRED if c not in shown]
    if missing:
        raise FileFormatError(
            f"{where}: missing required column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}")
    return header, shown


def number(cell: str, col: str, where: str, sep: str, label: str = "", length: bool = False) -> float:
    """The cell's number, finite and, for a ``length``, at most MAX_LENGTH in magnitude."""
    label = label or f"column {col!r}"
    text = cell
    if sep not in (",", " ") and "," in text and "." not in text:
        text = text.replace(",", ".")  # decimal comma in semicolon/tab files
    try:
        v = float(text)
    except ValueError:
        raise FileFormatError(f"{where}: {label}: {cell!r} is not a number") from None
    if not math.isfinite(v):
        raise FileFormatError(f"{where}: {label}: {cell!r} is not finite")
    if length and abs(v) > MAX_LENGTH:  # in any length unit: nothing real is this big
        raise FileFormatError(f"{where}: {label}: {cell!r} is out of range (at most {MAX_LENGTH:g} in magnitude)")
    return v


def check_radians(v: float, cell: str, where: str, label: str) -> None:
    """Refuse an angle in radians that has no finite value in degrees (the writer's unit)."""
    if not math.isfinite(math.degrees(v)):
        raise FileFormatError(f"{where}: {label}: {cell!r} is out of range (an angle must be finite in degrees)")


def angle(cell: str, col: str, where: str, sep: str, deg: bool, label: str = "") -> float:
    """An angle cell in radians: a plain number in the table's unit, ``pi/2`` in radians,
    ``90deg``/``90°`` in degrees (:func:`read_number`)."""
    label = label or f"column {col!r}"
    text = cell
    if sep not in (",", " ") and "," in text and "." not in text:
        text = text.replace(",", ".")
    try:
        float(text)
    except ValueError:  # not a plain float: arithmetic, pi, a unit — the one number reader
        try:
            v = read_number(text, f"{where}: {label}", DEGREES if deg else RADIANS).core
        except KineTreeError as exc:
            msg = str(exc).replace(repr(text.strip()), repr(cell.strip()), 1)
            raise FileFormatError(msg) from None
        check_radians(v, cell, where, label)
        return v
    v = number(cell, col, where, sep, label)  # a plain number: as before (bit for bit)
    if deg:
        return math.radians(v)
    check_radians(v, cell, where, label)
    return v


def _symbol(cell: str) -> tuple[str, bool] | None:
    """``(name, starred)`` when the cell is a symbol (``θ1``, ``d_3``, ``q2*``), else None."""
    m = _SYMBOL.match(_plain(cell))
    if not m or _plain(cell).lower() in ("pi", "π", "inf", "nan", "tau"):
        return None
    return m.group("name"), bool(m.group("star"))


def row_type(row: dict[str, str], where: str, shown: dict[str, str]) -> str:
    """R or P: the ``type`` cell, else the variable that a symbol in θ or d names."""
    if "type" in row:
        kind = _TYPES.get(row["type"].lower())
        if kind is None:
            raise FileFormatError(f"{where}: column 'type': {row['type']!r} is not R or P (revolute or prismatic)")
        return kind
    theta, d = _symbol(row.get("theta", "")), _symbol(row.get("d", ""))
    if theta and d and theta[1] != d[1]:  # one starred: that one is the variable
        return "R" if theta[1] else "P"
    if theta and d:
        raise FileFormatError(
            f"{where}: columns {shown['theta']!r} and {shown['d']!r}: both {row['theta']!r} and {row['d']!r} are "
            "symbols; the joint variable is one of them: give the other's value, or star the variable "
            f"({row['theta']}* for revolute)")
    if theta or d:
        return "R" if theta else "P"
    raise FileFormatError(
        f"{where}: no joint variable in {shown['theta']!r} ({row.get('theta', '')!r}) or {shown['d']!r} "
        f"({row.get('d', '')!r}): write its symbol (θ1 or q1 for a revolute joint, d1 for a prismatic one) "
        "or add a type column (R/P)")


def parse_row(cells: list[str], header: list[str], shown: dict[str, str], settings: dict, where: str,
              sep: str) -> DHLink:
    """One row's :class:`DHLink` (radians, metres)."""
    if len(cells) > len(header):
        extra = [c for c in cells[len(header):] if c]
        if extra:
            raise FileFormatError(
                f"{where}: {len(cells)} cells but the header has {len(header)} columns (extra {extra[0]!r})")
    row = dict(zip(header, cells + [""] * (len(header) - len(cells))))
    kind = row_type(row, where, shown)
    deg = settings["units"] == "deg"
    scale = settings["length_scale"]
    variable = "theta" if kind == "R" else "d"
    angles = ("alpha", "theta") + (("offset",) if kind == "R" else ())
    values = {}
    for col in ("a", "alpha", "d", "theta", "offset"):
        cell = row.get(col, "")
        label = f"column {shown.get(col, col)!r}"
        if cell == "" or (col == variable and (_VARIABLE.match(cell) or _symbol(cell))):
            values[col] = 0.0
        elif _symbol(cell):
            _refuse_symbol(cell, label, where, kind)
        elif col in angles:
            values[col] = angle(cell, col, where, sep, deg, label)
        else:
            values[col] = number(cell, col, where, sep, label, length=True) * scale
    limit_scale = (math.pi / 180 if deg else 1.0) if kind == "R" else scale
    lo_cell, hi_cell = row.get("qmin", ""), row.get("qmax", "")
    qlim = None
    if lo_cell or hi_cell:
        default = DEFAULT_LIMITS[kind]
        lo = number(lo_cell, "qmin", where, sep, length=kind == "P") * limit_scale if lo_cell else default[0]
        hi = number(hi_cell, "qmax", where, sep, length=kind == "P") * limit_scale if hi_cell else default[1]
        if kind == "R" and not deg:
            for v, cell, col in ((lo, lo_cell, "qmin"), (hi, hi_cell, "qmax")):
                check_radians(v, cell, where, f"column {col!r}")
        if lo > hi:
            raise FileFormatError(f"{where}: column 'qmin': qmin {lo_cell or lo!s} > qmax {hi_cell or hi!s}")
        qlim = (lo, hi)
    home_cell = row.get("home", "")
    home = number(home_cell, "home", where, sep, length=kind == "P") * limit_scale if home_cell else None
    if home is not None and kind == "R" and not deg:
        check_radians(home, home_cell, where, "column 'home'")
    flip = False
    flip_cell = row.get("flip", "").lower()
    if flip_cell:
        if flip_cell not in ("0", "1", "true", "false", "yes", "no"):
            raise FileFormatError(f"{where}: column 'flip': {row['flip']!r} is not 0 or 1")
        flip = flip_cell in ("1", "true", "yes")
    return DHLink(kind, a=values["a"], alpha=values["alpha"], d=values["d"], theta=values["theta"],
                  offset=values["offset"], qlim=qlim,
                  name=_unguard(row.get("name", "")), joint_name=_unguard(row.get("joint", "")), flip=flip,
                  home=home)


def _refuse_symbol(cell: str, label: str, where: str, kind: str) -> None:
    variable = "θ" if kind == "R" else "d"
    raise FileFormatError(f"{where}: {label}: {cell!r} is not a number (a symbol; only the joint variable, "
                          f"{variable} of this {'revolute' if kind == 'R' else 'prismatic'} row, may be one: "
                          "give the constant's value)")


# A text cell that starts with = + - @ (or tab, CR) runs as a formula when a spreadsheet opens the
# file: the writer (dh_csv) puts ' before such a name; the reader removes exactly that one quote.
_GUARDED = re.compile(r"(^|;)'('*[=+\-@\t\r])")


def _unguard(cell: str) -> str:
    return _GUARDED.sub(r"\1\2", cell)
