"""Checking a parsed project file before anything is built from it: every documented field has
the right JSON type and shape, and every number is finite and bounded.

A project is hostile input: ``"mass": "1.5"`` or a visual ``"name": {}`` must be refused with
the field's path, not loaded (and fail later at export), and ``1e400`` or a 5000-digit integer
must not reach ``float()``/``int()``. Unknown fields are ignored (newer minor additions).

Bounds: lengths (translations, DH ``a``/``d``, centres of mass, visual sizes, prismatic and
planar positions) at most :data:`kinetree.core.transforms.MAX_LENGTH` metres; masses and inertias at most
:data:`MAX_MASS`; every other number (angles, gravity, mimic factors …) at most
:data:`MAX_NUMBER`.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..errors import FileFormatError
from ..joint import JOINT_TYPES, POSITION_COUNT
from ..transforms import MAX_LENGTH

__all__ = ["MAX_LENGTH", "MAX_MASS", "MAX_NUMBER", "check_project", "parse_json"]

#: The largest mass (kg) or inertia (kg·m²).
MAX_MASS = 1e12
#: The largest other number (angles in rad, gravity, mimic multipliers …).
MAX_NUMBER = 1e6
#: Longer integer literals are read as floats (then refused as out of bounds), which keeps
#: Python's int-parsing limit (4300 digits) and ``float(10**400)`` overflow out of the way.
_MAX_INT_DIGITS = 20
#: Rows of each joint type's position that are lengths (the others are angles or quaternions).
_LENGTH_ROWS = {"prismatic": (0,), "planar": (0, 1), "floating": (4, 5, 6)}


def _parse_int(text: str) -> int | float:
    return int(text) if len(text) <= _MAX_INT_DIGITS else float(text)


def parse_json(text: str, source: str) -> Any:
    """``json.loads`` that raises only :class:`FileFormatError` (naming ``source`` and the
    line): huge integers become floats, too-deep nesting is refused."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise FileFormatError(f"{source}: invalid JSON: nested too deeply") from None
    except (ValueError, OverflowError, MemoryError) as exc:
        raise FileFormatError(f"{source}: invalid JSON ({exc})") from None


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def _show(v: Any) -> str:
    text = json.dumps(v) if isinstance(v, (str, int, float, bool, type(None))) else _type_name(v)
    return text if len(text) <= 40 else text[:37] + "..."


def number(v: Any, where: str, bound: float = MAX_NUMBER) -> float:
    """``v`` as a float if it is a JSON number, finite and ``|v| <= bound``."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise FileFormatError(f"{where}: must be a number, got {_show(v)}")
    f = float(v)
    if math.isnan(f):
        raise FileFormatError(f"{where}: must be a finite number, got NaN")
    if abs(f) > bound:  # also infinities and huge literals (read as inf, see _parse_int)
        shown = "the number" if math.isinf(f) else f"{f:g}"
        raise FileFormatError(f"{where}: {shown} is out of range (at most {bound:g} in magnitude)")
    return f


def numbers(v: Any, n: int | tuple[int, ...], where: str, bound: float = MAX_NUMBER) -> list[float]:
    """A list of ``n`` (or one of the counts ``n``) numbers."""
    counts = (n,) if isinstance(n, int) else n
    if not isinstance(v, list) or len(v) not in counts:
        want = " or ".join(map(str, counts))
        got = f"{len(v)} values" if isinstance(v, list) else _show(v)
        raise FileFormatError(f"{where}: must be a list of {want} numbers, got {got}")
    return [number(x, f"{where}[{i}]", bound) for i, x in enumerate(v)]


def transform(v: Any, where: str) -> None:
    """A 4×4 list of rows: translation column at most :data:`MAX_LENGTH`."""
    if not isinstance(v, list) or len(v) != 4:
        raise FileFormatError(f"{where}: must be a 4×4 matrix (a list of 4 rows), got {_show(v)}")
    for r, row in enumerate(v):
        numbers(row, 4, f"{where}[{r}]", MAX_LENGTH)


def string(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise FileFormatError(f"{where}: must be a string, got {_show(v)}")
    return v


def obj(v: Any, where: str) -> dict:
    if not isinstance(v, dict):
        raise FileFormatError(f"{where}: must be an object, got {_show(v)}")
    return v


def array(v: Any, where: str) -> list:
    if not isinstance(v, list):
        raise FileFormatError(f"{where}: must be a list, got {_show(v)}")
    return v


def _check_fields(d: dict, where: str, checks: dict) -> None:
    for key, check in checks.items():
        if key in d:
            check(d[key], f"{where}: {key}")


def _check_visual(v: Any, where: str) -> None:
    obj(v, where)
    for key in ("kind", "size"):
        if key not in v:
            raise FileFormatError(f"{where}: missing field {key!r}")
    _check_fields(v, where, {
        "kind": string,
        "size": lambda x, w: numbers(x, (1, 2, 3), w, MAX_LENGTH),
        "pose": transform,
        "color": lambda x, w: numbers(x, (3, 4), w),
        "filename": string,
        "name": string,
    })


def check_inertia_and_visuals(bd: dict, where: str) -> None:
    """The inertial and visual fields shared by bodies and the base."""
    _check_fields(bd, where, {
        "mass": lambda x, w: number(x, w, MAX_MASS),
        "center_of_mass": lambda x, w: numbers(x, 3, w, MAX_LENGTH),
        "inertia": lambda x, w: numbers(x, 6, w, MAX_MASS),
        "visuals": lambda x, w: [_check_visual(vi, f"{w}[{i}]") for i, vi in enumerate(array(x, w))],
    })


def _positions(v: Any, jtype: str, where: str, nullable: bool) -> None:
    """One joint position (or limit) per row, lengths bounded by :data:`MAX_LENGTH`."""
    for i, x in enumerate(v):
        if nullable and x is None:
            continue
        number(x, f"{where}[{i}]", MAX_LENGTH if i in _LENGTH_ROWS.get(jtype, ()) else MAX_NUMBER)


def _check_limits(v: Any, jtype: str, where: str) -> None:
    n = POSITION_COUNT[jtype]
    if n == 1 and isinstance(v, list) and len(v) == 2 and not any(isinstance(x, list) for x in v):
        v = [v]  # one joint position: a flat [min, max] is read too
    if not isinstance(v, list) or len(v) != n:
        got = f"{len(v)} rows" if isinstance(v, list) else _show(v)
        raise FileFormatError(f"{where}: a {jtype} joint needs {n} [min, max] pair{'s' * (n != 1)}, got {got}")
    for i, row in enumerate(v):
        w = f"{where}[{i}]"
        if not isinstance(row, list) or len(row) != 2:
            raise FileFormatError(f"{w}: must be a [min, max] pair (null for unbounded), got {_show(row)}")
        bound = MAX_LENGTH if i in _LENGTH_ROWS.get(jtype, ()) else MAX_NUMBER
        for k, x in enumerate(row):
            if x is not None:
                number(x, f"{w}[{k}]", bound)


def _check_home(v: Any, jtype: str, where: str) -> None:
    n = POSITION_COUNT[jtype]
    values = [v] if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    if not isinstance(values, list) or len(values) != n:
        got = f"{len(values)} values" if isinstance(values, list) else _show(v)
        raise FileFormatError(f"{where}: a {jtype} joint needs {n} numbers, got {got}")
    _positions(values, jtype, where, False)


def _check_dh(v: Any, where: str) -> None:
    if v is None:
        return
    obj(v, where)
    for key in ("convention", "a", "alpha", "d", "theta"):
        if key not in v:
            raise FileFormatError(f"{where}: missing field {key!r}")
    string(v["convention"], f"{where}: convention")
    for key in ("a", "d"):
        number(v[key], f"{where}: {key}", MAX_LENGTH)
    for key in ("alpha", "theta"):
        number(v[key], f"{where}: {key}")


def _check_mimic(v: Any, where: str) -> None:
    if v is None:
        return
    obj(v, where)
    if "joint" not in v:
        raise FileFormatError(f"{where}: missing field 'joint'")
    _check_fields(v, where, {"joint": string, "multiplier": number,
                             "offset": lambda x, w: number(x, w, MAX_LENGTH)})


def check_joint(jd: Any, where: str) -> None:
    """A body's ``joint`` object."""
    obj(jd, where)
    for key in ("name", "type"):
        if key not in jd:
            raise FileFormatError(f"{where}: missing field {key!r}")
    string(jd["name"], f"{where}: name")
    jtype = string(jd["type"], f"{where}: type")
    if jtype not in JOINT_TYPES:
        raise FileFormatError(f"{where}: type: unknown joint type {jtype!r}; expected one of {', '.join(JOINT_TYPES)}")
    _check_fields(jd, where, {
        "axis": lambda x, w: numbers(x, 3, w),
        "offset": lambda x, w: number(x, w, MAX_LENGTH),
        "position_limits": lambda x, w: _check_limits(x, jtype, w),
        "home_position": lambda x, w: _check_home(x, jtype, w),
        "dh": _check_dh,
        "joint_to_parent_transform": transform,
        "child_to_joint_transform": transform,
        "mimic": _check_mimic,
    })


def _check_configuration(v: Any, where: str) -> None:
    if v is None:
        return
    if isinstance(v, dict):
        for name, x in v.items():
            vals = x if isinstance(x, list) else [x]
            for i, y in enumerate(vals):
                number(y, f"{where}[{name!r}]" + (f"[{i}]" if isinstance(x, list) else ""), MAX_LENGTH)
        return
    for i, x in enumerate(array(v, where)):
        number(x, f"{where}[{i}]", MAX_LENGTH)


def check_project(d: Any, source: str) -> None:
    """Raise :class:`FileFormatError` naming ``source`` and the field for any mistyped,
    misshaped, non-finite or out-of-range documented field of a project dictionary."""
    obj(d, source)
    _check_fields(d, source, {
        "base_name": string,
        "gravity": lambda x, w: numbers(x, 3, w),
        "base": lambda x, w: check_inertia_and_visuals(obj(x, w), w),
        "configuration": _check_configuration,
    })
    bodies = array(d.get("bodies", []), f"{source}: bodies")
    for k, bd in enumerate(bodies):
        where = f"{source}: bodies[{k}]"
        obj(bd, where)
        if "name" not in bd:
            raise FileFormatError(f"{where}: missing field 'name'")
        where = f"{source}: body {string(bd['name'], f'{where}: name')!r}"
        for key in ("parent", "joint"):
            if key not in bd:
                raise FileFormatError(f"{where}: missing field {key!r}")
        string(bd["parent"], f"{where}: parent")
        check_joint(bd["joint"], f"{where}: joint")
        check_inertia_and_visuals(bd, where)
