"""DH tables as CSV files, for spreadsheets and other toolboxes.

Format (what :func:`write_dh_csv` writes)::

    # kinetree dh-table convention=mdh angles=deg lengths=m
    type,a,alpha,d,theta,offset,qmin,qmax,name,joint
    R,0,90,0,q1,0,-160,160,link1,q1
    P,0,0,q2,-90,0,0.3048,1.27,link2,q2

- Comment lines start with ``#``; ``key=value`` words in the comments before the header row
  declare ``convention`` (``dh`` standard / ``mdh`` modified, also ``standard``/``modified``),
  ``angles`` (``deg``/``rad``) and ``lengths`` (``m``, also ``cm``/``mm``). Without them (or
  without any comment line) a table is standard DH, angles in degrees, lengths in metres;
  :func:`read_dh_csv`'s ``convention`` and ``units`` arguments override the file.
- The header row names the columns, in any order, case-insensitively: ``type``, ``a``,
  ``alpha``, ``d``, ``theta`` are required; ``offset``, ``qmin``, ``qmax``, ``name``, ``joint``
  (and ``flip``: 1 when the joint axis is −z) are optional.
- One row per joint. ``type`` is ``R``/``P`` (or ``revolute``/``prismatic``). The joint
  variable's cell (θ of R, d of P) may hold a name such as ``q1``, be empty, or hold a number
  (kept in the row, ignored by the kinematics). Empty ``qmin``/``qmax``: the default limits
  (±180° for R, ±0.5 m for P). Angles — alpha, theta, offset, and qmin/qmax of R joints — are in
  the declared angle unit.
- Separators: comma, semicolon or tab (whichever the header row uses); with semicolons or tabs
  a decimal comma (``0,4318``) is accepted too. A UTF-8 BOM, CRLF line ends, blank lines and
  trailing empty cells (spreadsheets' trailing commas) are fine. Files over 10 MB are refused.

Errors are :class:`~kinetree.core.errors.FileFormatError` naming the file, the line and the
column, e.g. ``arm.csv:4: column 'alpha': 'abc' is not a number``.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..dh import DHLink
from ..errors import FileFormatError, KineTreeError
from .project import atomic_write_text

__all__ = ["DHTable", "dh_csv_string", "read_dh_csv", "write_dh_csv"]

MAX_BYTES = 10 * 1024 * 1024
COLUMNS = ("type", "a", "alpha", "d", "theta", "offset", "qmin", "qmax", "name", "joint", "flip")
REQUIRED = ("type", "a", "alpha", "d", "theta")
_CONVENTIONS = {"dh": "dh", "standard": "dh", "std": "dh", "sdh": "dh", "mdh": "mdh", "modified": "mdh",
                "craig": "mdh"}
_ANGLES = {"deg": "deg", "degree": "deg", "degrees": "deg", "rad": "rad", "radian": "rad", "radians": "rad"}
_LENGTHS = {"m": 1.0, "metre": 1.0, "meter": 1.0, "metres": 1.0, "meters": 1.0, "cm": 0.01, "mm": 0.001}
_TYPES = {"r": "R", "revolute": "R", "p": "P", "prismatic": "P"}
_VARIABLE = re.compile(r"^[^\W\d]\w*$")  # q1, q, theta1, θ1, d3 …
_DEFAULT_LIMITS = {"R": (-math.pi, math.pi), "P": (-0.5, 0.5)}


@dataclass
class DHTable:
    """A DH table read from a file: rows and their convention (``"dh"`` or ``"mdh"``).
    Values are radians and metres whatever the file's units."""

    links: list[DHLink] = field(default_factory=list)
    convention: str = "dh"


def _norm_convention(value: str, where: str) -> str:
    conv = _CONVENTIONS.get(str(value).strip().lower())
    if conv is None:
        raise FileFormatError(f"{where}: convention {value!r} unknown; use 'dh' or 'mdh'")
    return conv


def _norm_units(value: str, where: str) -> str:
    units = _ANGLES.get(str(value).strip().lower())
    if units is None:
        raise FileFormatError(f"{where}: angle unit {value!r} unknown; use 'deg' or 'rad'")
    return units


# --- reading ---------------------------------------------------------------------------------------

def _load_text(path_or_text: str | os.PathLike) -> tuple[str, str]:
    """``(source name for messages, text)``. A ``str`` with a line break is the table itself;
    any other ``str`` or path-like is a file name."""
    if isinstance(path_or_text, str) and ("\n" in path_or_text or "\r" in path_or_text):
        if len(path_or_text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
            raise FileFormatError("<text>: DH table is larger than 10 MB")
        return "<text>", path_or_text.lstrip("\ufeff")
    path = Path(path_or_text)
    source = str(path_or_text)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise FileFormatError(f"{source}: file is {size / 2**20:.1f} MB; a DH table file may be at most 10 MB")
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileFormatError(f"{source}: no such file") from None
    except OSError as exc:
        raise FileFormatError(f"{source}: cannot read ({exc.strerror or exc})") from None
    try:
        return source, data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"{source}: not UTF-8 text (byte {exc.start})") from None


def _parse_comment(line: str, settings: dict, where: str) -> None:
    for word in line.lstrip("#").split():
        key, sep, value = word.partition("=")
        if not sep:
            continue
        key = key.strip().lower()
        if key in ("convention", "conv"):
            settings["convention"] = _norm_convention(value, where)
        elif key in ("angles", "angle", "units"):
            settings["units"] = _norm_units(value, where)
        elif key in ("lengths", "length"):
            scale = _LENGTHS.get(value.strip().lower())
            if scale is None:
                raise FileFormatError(f"{where}: length unit {value!r} unknown; use 'm', 'cm' or 'mm'")
            settings["length_scale"] = scale


def _split(line: str, sep: str) -> list[str]:
    return [c.strip() for c in next(csv.reader([line], delimiter=sep))]


def read_dh_csv(path_or_text: str | os.PathLike, convention: str | None = None,
                units: str | None = None) -> DHTable:
    """Read a DH table (see the module docstring for the format) from a file name or from the
    text itself (a ``str`` containing a line break). ``convention`` (``"dh"``/``"mdh"``) and
    ``units`` (``"deg"``/``"rad"``) override what the file declares; files that declare nothing
    are standard DH in degrees. Raises :class:`FileFormatError` naming the file, line and column."""
    source, text = _load_text(path_or_text)
    settings: dict = {"convention": "dh", "units": "deg", "length_scale": 1.0}
    lines = text.splitlines()
    header: list[str] | None = None
    sep = ","
    rows: list[tuple[int, list[str]]] = []
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        where = f"{source}:{lineno}"
        if line.startswith("#"):
            if header is None:
                _parse_comment(line, settings, where)
            continue
        if header is None:
            if not line.strip(",;\t "):
                continue
            sep = "\t" if "\t" in line else ";" if ";" in line else ","
            header = [c.lower() for c in _split(line, sep)]
            while header and not header[-1]:
                header.pop()
            header_line = lineno
            _check_header(header, where)
            continue
        if not line.strip(",;\t "):
            continue
        rows.append((lineno, _split(raw.strip(), sep)))
    if header is None:
        raise FileFormatError(f"{source}: no header row (expected {','.join(COLUMNS[:8])})")
    if not rows:
        raise FileFormatError(f"{source}:{header_line}: the table has no rows")
    if convention is not None:
        settings["convention"] = _norm_convention(convention, source)
    if units is not None:
        settings["units"] = _norm_units(units, source)
    links = [_parse_row(cells, header, settings, f"{source}:{lineno}", sep) for lineno, cells in rows]
    return DHTable(links, settings["convention"])


def _check_header(header: list[str], where: str) -> None:
    seen = set()
    for col in header:
        if not col:
            raise FileFormatError(f"{where}: header has an empty column name")
        if col not in COLUMNS:
            raise FileFormatError(f"{where}: unknown column {col!r}; columns are {', '.join(COLUMNS)}")
        if col in seen:
            raise FileFormatError(f"{where}: column {col!r} appears twice")
        seen.add(col)
    missing = [c for c in REQUIRED if c not in seen]
    if missing:
        raise FileFormatError(
            f"{where}: missing required column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}"
        )


def _number(cell: str, col: str, where: str, sep: str) -> float:
    text = cell
    if sep != "," and "," in text and "." not in text:
        text = text.replace(",", ".")  # decimal comma in semicolon/tab files
    try:
        v = float(text)
    except ValueError:
        raise FileFormatError(f"{where}: column {col!r}: {cell!r} is not a number") from None
    if not math.isfinite(v):
        raise FileFormatError(f"{where}: column {col!r}: {cell!r} is not finite")
    return v


def _parse_row(cells: list[str], header: list[str], settings: dict, where: str, sep: str) -> DHLink:
    if len(cells) > len(header):
        extra = [c for c in cells[len(header):] if c]
        if extra:
            raise FileFormatError(
                f"{where}: {len(cells)} cells but the header has {len(header)} columns (extra {extra[0]!r})"
            )
    row = dict(zip(header, cells + [""] * (len(header) - len(cells))))
    kind = _TYPES.get(row["type"].lower())
    if kind is None:
        raise FileFormatError(f"{where}: column 'type': {row['type']!r} is not R or P (revolute or prismatic)")
    deg = settings["units"] == "deg"
    scale = settings["length_scale"]
    variable = "theta" if kind == "R" else "d"
    values = {}
    for col in ("a", "alpha", "d", "theta", "offset"):
        cell = row.get(col, "")
        if cell == "" or (col == variable and _VARIABLE.match(cell)):
            values[col] = 0.0
            continue
        values[col] = _number(cell, col, where, sep)
    angle_cols = ("alpha", "theta") + (("offset",) if kind == "R" else ())
    for col in ("a", "alpha", "d", "theta", "offset"):
        if col in angle_cols:
            values[col] = math.radians(values[col]) if deg else values[col]
        else:
            values[col] *= scale
    limit_scale = (math.pi / 180 if deg else 1.0) if kind == "R" else scale
    lo_cell, hi_cell = row.get("qmin", ""), row.get("qmax", "")
    qlim = None
    if lo_cell or hi_cell:
        default = _DEFAULT_LIMITS[kind]
        lo = _number(lo_cell, "qmin", where, sep) * limit_scale if lo_cell else default[0]
        hi = _number(hi_cell, "qmax", where, sep) * limit_scale if hi_cell else default[1]
        if lo > hi:
            raise FileFormatError(f"{where}: column 'qmin': qmin {lo_cell or lo!s} > qmax {hi_cell or hi!s}")
        qlim = (lo, hi)
    flip = False
    flip_cell = row.get("flip", "").lower()
    if flip_cell:
        if flip_cell not in ("0", "1", "true", "false", "yes", "no"):
            raise FileFormatError(f"{where}: column 'flip': {row['flip']!r} is not 0 or 1")
        flip = flip_cell in ("1", "true", "yes")
    return DHLink(kind, values["a"], values["alpha"], values["d"], values["theta"], values["offset"], qlim,
                  name=row.get("name", ""), joint_name=row.get("joint", ""), flip=flip)


# --- writing ---------------------------------------------------------------------------------------

def _fmt(v: float) -> str:
    s = repr(float(v))
    if s.endswith(".0"):
        s = s[:-2]
    return "0" if s == "-0" else s


def _fmt_angle(v: float, deg: bool) -> str:
    if not deg:
        return _fmt(v)
    d = math.degrees(v)
    for digits in (12, 15):
        s = f"{d:.{digits}g}"
        if abs(math.radians(float(s)) - v) <= 1e-14:
            return _fmt(float(s))
    return _fmt(d)


def _cell_text(text: str, what: str) -> str:
    if any(c in text for c in ("\n", "\r")) or text.startswith("#") or text != text.strip():
        raise KineTreeError(f"{what} {text!r} cannot be written to a DH table file")
    return text


def dh_csv_string(links: list[DHLink], convention: str = "dh", units: str = "deg") -> str:
    """The text of a DH table file (comma-separated, with the declaration comment line)."""
    conv = _CONVENTIONS.get(str(convention).lower())
    if conv is None:
        raise KineTreeError(f"DH convention must be 'dh' or 'mdh', got {convention!r}")
    unit = _ANGLES.get(str(units).lower())
    if unit is None:
        raise KineTreeError(f"angle units must be 'deg' or 'rad', got {units!r}")
    deg = unit == "deg"
    cols = list(COLUMNS[:10])
    if any(link.flip for link in links):
        cols.append("flip")
    buf = io.StringIO()
    buf.write(f"# kinetree dh-table convention={conv} angles={unit} lengths=m\n")
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(cols)
    for i, link in enumerate(links, start=1):
        what = f"DH row {i}" + (f" ({link.name})" if link.name else "")
        if link.joint not in ("R", "P"):
            raise KineTreeError(f"{what}: joint must be 'R' or 'P', got {link.joint!r}")
        nums = {"a": link.a, "alpha": link.alpha, "d": link.d, "theta": link.theta, "offset": link.offset}
        if link.qlim is not None:
            nums["qmin"], nums["qmax"] = link.qlim
        for key, v in nums.items():
            if not math.isfinite(float(v)):
                raise KineTreeError(f"{what}: {key} is {v}; a DH table file holds finite numbers only")
        angle = {"alpha", "theta"} | ({"offset", "qmin", "qmax"} if link.joint == "R" else set())
        cells = {k: _fmt_angle(v, deg) if k in angle else _fmt(v) for k, v in nums.items()}
        variable = "theta" if link.joint == "R" else "d"
        if nums[variable] == 0.0:
            cells[variable] = f"q{i}"
        row = [link.joint, cells["a"], cells["alpha"], cells["d"], cells["theta"], cells["offset"],
               cells.get("qmin", ""), cells.get("qmax", ""), _cell_text(link.name, f"{what}: name"),
               _cell_text(link.joint_name, f"{what}: joint name")]
        if "flip" in cols:
            row.append("1" if link.flip else "0")
        out.writerow(row)
    return buf.getvalue()


def write_dh_csv(path: str | os.PathLike, links: list[DHLink], convention: str = "dh", units: str = "deg") -> None:
    """Write a DH table file atomically (see :func:`dh_csv_string`). Radians are written with
    ``repr`` precision; degrees with enough digits to read back within 1e-14 rad."""
    atomic_write_text(path, dh_csv_string(links, convention, units))
