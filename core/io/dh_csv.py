"""DH tables as CSV files, for spreadsheets and other toolboxes.

Format (what :func:`write_dh_csv` writes)::

    # kinetree dh-table convention=mdh angles=deg lengths=m
    # base: xyz=0 0 0.1 rpy=0 0 90
    # tool: xyz=0 0 0.05 rpy=180 0 0 name=gripper
    type,a,alpha,d,theta,offset,qmin,qmax,name,joint
    R,0,90,0,q1,0,-160,160,link1,q1
    P,0,0,q2,-90,0,0.3048,1.27,link2,q2

- Comment lines start with ``#``; ``key=value`` words in the comments before the header row
  declare ``convention`` (``dh`` standard / ``mdh`` modified, also ``standard``/``modified``),
  ``angles`` (``deg``/``rad``) and ``lengths`` (``m``, also ``cm``/``mm``). Without them (or
  without any comment line) a table is standard DH, angles in degrees, lengths in metres;
  :func:`read_dh_csv`'s ``convention`` and ``units`` arguments override the file.
- The header row names the columns, in any order, case-insensitively: ``a``, ``alpha``, ``d``,
  ``theta`` are required (also as the lecture writes them: ``θ``, ``α``, ``θ_i``, ``$\\alpha_i$``;
  a ``link`` column numbering the rows is ignored, see :mod:`.dh_rows`); ``type``, ``offset``,
  ``qmin``, ``qmax``, ``name``, ``joint``, ``home`` (the home position, in the units of the
  limits; written when some home is not 0) and ``flip`` (1 when the joint axis is −z) are
  optional. Cells may be separated by spaces too (a table typed as ``a α d θ``).
- One row per joint. ``type`` is ``R``/``P`` (or ``revolute``/``prismatic``); without a type
  column the joint variable is the θ or d cell holding a symbol (``θ1``, ``q1``; ``d3``; a star
  ``θ1*`` decides when both do). The joint variable's cell (θ of R, d of P) may hold a name such
  as ``q1``, be empty, or hold a number (kept in the row, ignored by the kinematics). Angle cells
  take ``pi/2``, ``-pi/4``, ``2*pi/3`` (radians) and ``90deg``/``90°`` whatever the declared unit
  (the app's one number reader, :func:`~kinetree.core.number_text.read_number`; never ``eval``).
  Empty ``qmin``/``qmax``: the default limits (±180° for R, ±0.5 m for P). Angles — alpha,
  theta, offset, and qmin/qmax of R joints — are in the declared angle unit.
- ``# base:`` and ``# tool:`` comment lines (anywhere in the file, each at most once) give the
  fixed transforms that a DH table cannot hold: ``base`` is DH frame 0 in the robot's base
  frame, ``tool`` the tip (tool) body in the last DH frame, so the tip pose is
  ``base · A_1(q_1) ⋯ A_n(q_n) · tool``. ``xyz=x y z`` is the translation (in the declared
  length unit) and ``rpy=roll pitch yaw`` the rotation ``Rz(yaw)·Ry(pitch)·Rx(roll)`` (about the
  fixed x, y, z axes, as URDF and :func:`kinetree.core.transforms.rpy_to_matrix`; in the declared
  angle unit); either may be left out (zero). The tool line may add ``name=…`` (quoted when it
  holds spaces), the tool body's name. Missing lines mean the identity. The writer prints them
  with enough digits to read back within 1e-14.
- A name (``name``, ``joint`` cell) that a spreadsheet would run as a formula — one starting
  with ``=``, ``+``, ``-``, ``@`` (or such a text after a ``;``) — is written with a ``'`` before
  it, as OWASP advises against CSV injection, and read without it (a name already starting with
  ``'`` and then one of them gets one more). The tool line's name is quoted so that no piece of
  it after a ``,`` or ``;`` starts with one.
- Separators: comma, semicolon or tab (whichever the header row uses); with semicolons or tabs
  a decimal comma (``0,4318``) is accepted too. A UTF-8 BOM, CRLF line ends, blank lines and
  trailing empty cells (spreadsheets' trailing commas) are fine. Files over 10 MB, what is not
  a regular file (a FIFO, a device …), cells over 128 KB, more than :data:`MAX_ROWS` rows,
  lengths over 1e6 in magnitude and angles whose value in degrees is not finite are refused
  (the writer refuses to write any of these, so whatever it writes reads back).

Errors are :class:`~kinetree.core.errors.FileFormatError` naming the file, the line and the
column (or the base/tool key), e.g. ``arm.csv:4: column 'alpha': 'abc' is not a number`` or
``arm.csv:2: tool: rpy needs 3 numbers, got 2``. Quotes are read strictly: a cell whose opening
quote is never closed, or with text after its closing quote, is refused (not run on into the
next columns).

:meth:`DHTable.to_tree` builds the robot: a fixed body ``dh_base`` first when base ≠ I, one body
per row, and a fixed tool body last when tool ≠ I (or when the tool line names it).
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..dh.chain import DHLink, chain_names
from ..dh.extract import DHExtraction, _needs_body
from ..disk.safe_io import MAX_BODIES, atomic_write_text, read_regular_file
from ..errors import FileFormatError, KineTreeError
from ..model.bulk import gc_paused
from ..transforms import MAX_LENGTH, matrix_to_rpy, pose_from_xyz_rpy, validate_transform
from ..tree import RigidBodyTree
from .dh_rows import COLUMNS, DEFAULT_LIMITS, check_header, check_radians, number, parse_row

__all__ = ["DEFAULT_LIMITS", "MAX_ROWS", "DHTable", "dh_csv_string", "read_dh_csv", "write_dh_csv"]

MAX_BYTES = 10 * 1024 * 1024
#: The most rows a table may have: with its base and tool bodies, at most MAX_BODIES bodies.
MAX_ROWS = MAX_BODIES - 2
_CONVENTIONS = {"dh": "dh", "standard": "dh", "std": "dh", "sdh": "dh", "mdh": "mdh", "modified": "mdh",
                "craig": "mdh"}
_ANGLES = {"deg": "deg", "degree": "deg", "degrees": "deg", "rad": "rad", "radian": "rad", "radians": "rad"}
_LENGTHS = {"m": 1.0, "metre": 1.0, "meter": 1.0, "metres": 1.0, "meters": 1.0, "cm": 0.01, "mm": 0.001}


_POSE_LINE = re.compile(r"^#\s*(base|tool)\s*:(.*)$", re.IGNORECASE)
_POSE_KEYS = {"base": ("xyz", "rpy"), "tool": ("xyz", "rpy", "name")}


@dataclass
class DHTable:
    """A DH table: rows, their convention (``"dh"`` or ``"mdh"``) and the fixed transforms
    around them, ``tip pose = base · A_1(q_1) ⋯ A_n(q_n) · tool``.

    ``base`` (DH frame 0 in the robot's base frame) and ``tool`` (the tip body in the last DH
    frame) are 4×4 arrays, ``None`` for the identity. ``tool_name`` names the tip body when it
    is not the last row's body (``""``: ``tool``). Values are radians and metres whatever the
    file's units.
    """

    links: list[DHLink] = field(default_factory=list)
    convention: str = "dh"
    base: np.ndarray | None = None
    tool: np.ndarray | None = None
    tool_name: str = ""

    def to_tree(self, base_name: str = "base") -> RigidBodyTree:
        """The serial chain: a fixed body ``dh_base`` when ``base`` ≠ I, one body per row
        (``link1…``/joints ``q1…`` unless the rows name them, as :func:`~kinetree.core.dh.chain.dh_chain`),
        and a fixed tool body (``tool_name``, default ``tool``) when ``tool`` ≠ I or
        ``tool_name`` names a body other than the last row's. Its last body is the tip."""
        if not self.links:
            return RigidBodyTree(base_name)
        with gc_paused():  # a third of building a big chain was garbage-collector passes
            named = chain_names(self.links, base_name)  # as dh_chain names them, without building it
            links = [replace(lk, name=body, joint_name=joint) for lk, (body, joint) in zip(self.links, named)]
            names = [body for body, _ in named]
            eye = np.eye(4)
            base = eye if self.base is None else validate_transform(self.base, "DH table base")
            tool = eye if self.tool is None else validate_transform(self.tool, "DH table tool")
            return DHExtraction(links, base, tool, self.convention, base_name,
                                self.tool_name or names[-1]).to_tree()


    @property
    def num_bodies(self) -> int:
        """How many bodies :meth:`to_tree` builds (counted, not built)."""
        if not self.links:
            return 0
        last = self.links[-1].name or chain_names(self.links)[-1][0]
        base = self.base is not None and _needs_body(validate_transform(self.base, "DH table base"))
        tool = self.tool is not None and _needs_body(validate_transform(self.tool, "DH table tool"))
        return len(self.links) + base + (tool or bool(self.tool_name and self.tool_name != last))


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
    source = str(path_or_text)
    data = read_regular_file(Path(path_or_text), MAX_BYTES, "DH table file")
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


def _bad_quote(line: str, sep: str) -> tuple[int, str] | None:
    """The (1-based) column of a cell whose quotes a strict CSV reader refuses, and why: an
    opening quote never closed (a lenient reader took the rest of the line into that cell,
    separators and all) or text after a closing quote."""
    col, i, n = 1, 0, len(line)
    while i <= n:
        if i < n and line[i] == '"':  # a quoted cell
            i += 1
            while True:
                j = line.find('"', i)
                if j < 0:
                    return col, "its opening quote is never closed"
                if line.startswith('""', j):
                    i = j + 2
                    continue
                i = j + 1
                break
            if i < n and line[i] != sep:
                return col, "text after the closing quote (quote the whole cell, doubling any quote in it)"
        j = line.find(sep, i)
        if j < 0:
            return None
        col, i = col + 1, j + 1
    return None


def _split(line: str, sep: str, where: str, header: list[str] | None = None) -> list[str]:
    if sep == " ":  # a table typed or pasted with spaces between its cells (θ d a α)
        return line.split()
    try:
        return [c.strip() for c in next(csv.reader([line], delimiter=sep, strict=True))]
    except csv.Error as exc:  # a cell over csv.field_size_limit() (128 KB), a quote not closed …
        bad = _bad_quote(line, sep)
        if bad is None:
            raise FileFormatError(f"{where}: cannot be read as CSV ({exc})") from None
        col, why = bad
        name = repr(header[col - 1]) if header and col <= len(header) else str(col)
        raise FileFormatError(f"{where}: column {name}: {why}") from None


def read_dh_csv(path_or_text: str | os.PathLike, convention: str | None = None,
                units: str | None = None, max_rows: int = MAX_ROWS) -> DHTable:
    """Read a DH table (see the module docstring for the format) from a file name or from the
    text itself (a ``str`` containing a line break). ``convention`` (``"dh"``/``"mdh"``) and
    ``units`` (``"deg"``/``"rad"``) override what the file declares; files that declare nothing
    are standard DH in degrees; the base and tool lines fill :attr:`DHTable.base`,
    :attr:`DHTable.tool` and :attr:`DHTable.tool_name`. Raises :class:`FileFormatError` naming
    the file, line and column. ``max_rows``: another limit (at most MAX_BODIES): a pasted table
    has no base and tool bodies, and the rows already there count."""
    limit = min(max_rows, MAX_BODIES)
    source, text = _load_text(path_or_text)
    settings: dict = {"convention": "dh", "units": "deg", "length_scale": 1.0}
    lines = text.splitlines()
    header: list[str] | None = None
    sep = ","
    rows: list[tuple[int, list[str]]] = []
    poses: dict[str, tuple[int, str]] = {}
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip().lstrip("\ufeff")
        where = f"{source}:{lineno}"
        if line.startswith("#"):
            pose = _POSE_LINE.match(line)
            if pose:
                what = pose.group(1).lower()
                if what in poses:
                    raise FileFormatError(f"{where}: a second {what} line (the first is line {poses[what][0]})")
                poses[what] = (lineno, pose.group(2))
            elif header is None:
                _parse_comment(line, settings, where)
            continue
        if header is None:
            if not line.strip(",;\t "):
                continue
            sep = "\t" if "\t" in line else ";" if ";" in line else "," if "," in line else " "
            names = _split(line, sep, where)
            while names and not names[-1]:
                names.pop()
            header_line = lineno
            header, shown = check_header(names, where)
            continue
        if not line.strip(",;\t "):
            continue
        if len(rows) >= limit:  # before any row is parsed: 1M rows took 72 s and 3.7 GB
            raise FileFormatError(f"{where}: more than {limit} rows; a DH table may have at most {limit}")
        rows.append((lineno, _split(raw.strip(), sep, where, header)))
    if header is None:
        raise FileFormatError(f"{source}: no header row (expected {','.join(COLUMNS[:8])})")
    if not rows:
        raise FileFormatError(f"{source}:{header_line}: the table has no rows")
    if convention is not None:
        settings["convention"] = _norm_convention(convention, source)
    if units is not None:
        settings["units"] = _norm_units(units, source)
    links = [parse_row(cells, header, shown, settings, f"{source}:{lineno}", sep) for lineno, cells in rows]
    table = DHTable(links, settings["convention"])
    for what, (lineno, text) in poses.items():
        T, name = _parse_pose(what, text, settings, f"{source}:{lineno}", sep)
        setattr(table, what, T)
        if what == "tool":
            table.tool_name = name
    return table


def _parse_pose(what: str, text: str, settings: dict, where: str, sep: str) -> tuple[np.ndarray, str]:
    """The transform and tool name of a ``# base:``/``# tool:`` line's text (after the colon)."""
    here = f"{where}: {what}"
    try:
        words = shlex.split(text.strip().rstrip(",;\t "))  # spreadsheets add trailing empty cells
    except ValueError as exc:
        raise FileFormatError(f"{here}: {exc}") from None
    values: dict[str, list[str]] = {}
    key = None
    for word in words:
        k, eq, v = word.partition("=")
        if eq:
            key = k.strip().lower()
            if key not in _POSE_KEYS[what]:
                raise FileFormatError(f"{here}: unknown key {k!r}; use {', '.join(_POSE_KEYS[what])}")
            if key in values:
                raise FileFormatError(f"{here}: {key} appears twice")
            values[key] = [v] if v else []
        elif key is None:
            raise FileFormatError(f"{here}: {word!r} is not key=value (expected xyz=x y z rpy=roll pitch yaw)")
        else:
            values[key].append(word)
    nums = {}
    for key in ("xyz", "rpy"):
        cells = values.get(key, ["0", "0", "0"])
        if len(cells) != 3:
            raise FileFormatError(f"{here}: {key} needs 3 numbers, got {len(cells)}")
        nums[key] = [number(c, key, where, sep, f"{what} {key}", key == "xyz") for c in cells]
    xyz = np.array(nums["xyz"]) * settings["length_scale"]
    if settings["units"] == "rad":
        for v, cell in zip(nums["rpy"], cells):
            check_radians(v, cell, where, f"{what} rpy")
    rpy = np.radians(nums["rpy"]) if settings["units"] == "deg" else np.array(nums["rpy"])
    name = values.get("name")
    if name is not None and (len(name) != 1 or not name[0]):
        raise FileFormatError(f"{here}: name must be one word (quote a name with spaces), got {' '.join(name)!r}")
    return pose_from_xyz_rpy(xyz, rpy), name[0] if name else ""


# --- spreadsheet formulas ----------------------------------------------------------------------------
# A text cell that starts with = + - @ (or tab, CR) runs as a formula when a spreadsheet opens the
# file (CSV injection). The writer puts ' before such a name, as OWASP advises, and before a name
# that starts with ' and then one of them; the reader removes exactly that one quote. The same
# after each ; in a name: a spreadsheet whose list separator is ; splits the cell there.
_FORMULA = re.compile(r"(^|;)('*[=+\-@\t\r])")


def _guard(text: str) -> str:
    return _FORMULA.sub(r"\1'\2", text)


def _quote_tool_name(name: str) -> str:
    """``name`` as one shell word for the tool line. A spreadsheet splits that line at , or ;:
    each piece after one starts with a quote, so none starts with a formula character."""
    if not re.search(r"[,;]", name):
        return shlex.quote(name)
    pieces = re.split(r"(?<=[,;])", name)  # each separator ends a piece
    return "".join("'" + p.replace("'", "'\"'\"'") + "'" for p in pieces if p)


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
    s = f"{d:.12g}"
    if abs(math.radians(float(s)) - v) <= 1e-14:  # a round number plus rounding noise: 90, not 89.99999999999999
        return _fmt(float(s))
    for digits in (15, 16, 17):  # else the shortest that reads back bit for bit (a value read from a file)
        s = f"{d:.{digits}g}"
        if math.radians(float(s)) == v:
            return _fmt(float(s))
    return _fmt(d)


def _cell_text(text: str, what: str) -> str:
    if any(c in text for c in ("\n", "\r")) or text != text.strip():
        raise KineTreeError(f"{what} {text!r} cannot be written to a DH table file")
    return text


def _pose_line(what: str, T, name: str, deg: bool) -> str:

    M = np.eye(4) if T is None else validate_transform(T, f"DH table {what}")
    if np.abs(M[:3, 3]).max() > MAX_LENGTH:  # the reader's bound
        raise KineTreeError(f"DH table {what}: translation {M[:3, 3].tolist()} is more than {MAX_LENGTH:g} "
                            "in magnitude; a DH table file cannot hold it")
    xyz = " ".join(_fmt(v) for v in M[:3, 3])
    rpy = " ".join(_fmt_angle(v, deg) for v in matrix_to_rpy(M[:3, :3]))
    line = f"# {what}: xyz={xyz} rpy={rpy}"
    if name:
        line += f" name={_quote_tool_name(_cell_text(name, f'{what} name'))}"
    return line + "\n"


def _is_identity(T) -> bool:
    return T is None or np.array_equal(np.asarray(T, dtype=float), np.eye(4))


def dh_csv_string(links: list[DHLink] | DHTable, convention: str | None = None, units: str = "deg", *,
                  base=None, tool=None, tool_name: str | None = None) -> str:
    """The text of a DH table file (comma-separated, with the declaration comment line and,
    when not the identity, the ``# base:``/``# tool:`` lines). ``links`` may be a
    :class:`DHTable`, whose convention, base, tool and tool name are used unless given here;
    ``convention`` defaults to standard DH."""
    if isinstance(links, DHTable):
        table = links
        links = table.links
        convention = table.convention if convention is None else convention
        base = table.base if base is None else base
        tool = table.tool if tool is None else tool
        tool_name = table.tool_name if tool_name is None else tool_name
    conv = _CONVENTIONS.get(str(convention or "dh").lower())
    if conv is None:
        raise KineTreeError(f"DH convention must be 'dh' or 'mdh', got {convention!r}")
    unit = _ANGLES.get(str(units).lower())
    if unit is None:
        raise KineTreeError(f"angle units must be 'deg' or 'rad', got {units!r}")
    deg = unit == "deg"
    if not links:
        raise KineTreeError("a DH table file needs at least one row (joint); this chain has none")
    if len(links) > MAX_ROWS:
        raise KineTreeError(f"{len(links)} DH rows is more than the {MAX_ROWS} a DH table file may have")
    cols = list(COLUMNS[:10])
    if any(link.home for link in links):  # only when some home is not zero: keeps plain tables plain
        cols.append("home")
    if any(link.flip for link in links):
        cols.append("flip")
    buf = io.StringIO()
    buf.write(f"# kinetree dh-table convention={conv} angles={unit} lengths=m\n")
    if not _is_identity(base):
        buf.write(_pose_line("base", base, "", deg))
    last = links[-1].name if links else ""
    if not _is_identity(tool) or (tool_name and tool_name != last):
        buf.write(_pose_line("tool", tool, tool_name or "", deg))
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(cols)
    for i, link in enumerate(links, start=1):
        what = f"DH row {i}" + (f" ({link.name})" if link.name else "")
        if link.joint not in ("R", "P"):
            raise KineTreeError(f"{what}: joint must be 'R' or 'P', got {link.joint!r}")
        nums = {"a": link.a, "alpha": link.alpha, "d": link.d, "theta": link.theta, "offset": link.offset}
        if link.qlim is not None:
            nums["qmin"], nums["qmax"] = link.qlim
        if "home" in cols:
            nums["home"] = link.home or 0.0
        for key, v in nums.items():
            if not math.isfinite(float(v)):
                raise KineTreeError(f"{what}: {key} is {v}; a DH table file holds finite numbers only")
        angle = {"alpha", "theta"} | ({"offset", "qmin", "qmax", "home"} if link.joint == "R" else set())
        for key, v in nums.items():  # what the reader refuses
            if key not in angle and abs(float(v)) > MAX_LENGTH:
                raise KineTreeError(f"{what}: {key} {float(v)!r} is more than {MAX_LENGTH:g} in magnitude; "
                                    "a DH table file cannot hold it")
            if key in angle and not math.isfinite(math.degrees(float(v))):  # in either unit
                raise KineTreeError(f"{what}: {key} {float(v)!r} rad has no finite value in degrees; "
                                    "a DH table file cannot hold it")
        cells = {k: _fmt_angle(v, deg) if k in angle else _fmt(v) for k, v in nums.items()}
        variable = "theta" if link.joint == "R" else "d"
        if nums[variable] == 0.0:
            cells[variable] = f"q{i}"
        row = [link.joint, cells["a"], cells["alpha"], cells["d"], cells["theta"], cells["offset"],
               cells.get("qmin", ""), cells.get("qmax", ""), _guard(_cell_text(link.name, f"{what}: name")),
               _guard(_cell_text(link.joint_name, f"{what}: joint name"))]
        if "home" in cols:
            row.append(cells["home"])
        if "flip" in cols:
            row.append("1" if link.flip else "0")
        out.writerow(row)
    text = buf.getvalue()
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise KineTreeError(f"the DH table file would be {len(text.encode('utf-8')) / 2**20:.1f} MB, more than "
                            f"the {MAX_BYTES // 2**20} MB a DH table file may have")
    return text


def write_dh_csv(path: str | os.PathLike, links: list[DHLink] | DHTable, convention: str | None = None,
                 units: str = "deg", *, base=None, tool=None, tool_name: str | None = None) -> None:
    """Write a DH table file atomically (see :func:`dh_csv_string`). Radians are written with
    ``repr`` precision; degrees with enough digits to read back within 1e-14 rad."""
    atomic_write_text(path, dh_csv_string(links, convention, units, base=base, tool=tool, tool_name=tool_name))
