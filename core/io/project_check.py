"""Checking a parsed project file before anything is built from it: every documented field has
the right JSON type and shape, and every number is finite and bounded (``extensions`` are
checked where they are read, by :func:`kinetree.core.model.xml_fragment.check_fragments`).

A project is hostile input: ``"mass": "1.5"`` or a visual ``"name": {}`` must be refused with
the field's path, not loaded (and fail later at export), and ``1e400`` or a 5000-digit integer
must not reach ``float()``/``int()``. Unknown fields are ignored (newer minor additions).
The numbers and mesh URIs a URDF import read (``urdf_origin``, ``urdf_inertial``, ``uri``)
get the URDF reader's bounds.

Bounds, the engine's own (so whatever KineTree saves, it loads): lengths (translations, DH
``a``/``d``, centres of mass, visual sizes, prismatic and planar positions and offsets),
gravity and mimic factors at most :data:`kinetree.core.transforms.MAX_LENGTH`; masses at most
:data:`MAX_MASS` (as the URDF reader); inertias (about the body frame) at most
:data:`MAX_BODY_INERTIA`, what a URDF inertial within the URDF reader's bounds can give; angles
and configurations finite; at most :data:`~kinetree.core.disk.safe_io.MAX_BODIES` bodies.

Link extensions that a URDF reader interprets (``<inertial>``, ``<visual>``, ``<collision>``,
written back verbatim into an exported URDF), a joint's ``<limit>`` and the robot's
``<material>`` get the URDF importer's own checks (:func:`check_extensions`), so a project
that loads exports a URDF that loads.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..disk.safe_io import MAX_BODIES
from ..errors import FileFormatError, KineTreeError
from ..kinematics.loops import LOOP_KINDS, MAX_LOOPS
from ..model.joint import (
    COMPOSITE_ROWS,
    COMPOSITE_TYPES,
    JOINT_TYPES,
    MAX_SUBSPACE_ROWS,
    POSITION_COUNT,
    parse_motion_subspace,
)
from ..model.joint_motor import MAX_MOTOR_VALUE
from ..model.poses import MAX_POSE_VALUES, MAX_POSES
from ..model.xml_fragment import fragment_element
from ..names import MAX_PATH_LENGTH, text_problem
from ..transforms import MAX_LENGTH
from .urdf.check import _check_inertial, _check_shape, _Checked, _numbers

__all__ = ["MAX_BODY_INERTIA", "MAX_LENGTH", "MAX_MASS", "check_extensions", "check_project", "parse_json"]

#: The largest mass (kg) or inertia about the centre of mass (kg·m²), as the URDF reader.
MAX_MASS = 1e12
#: The largest inertia about the body frame (kg·m²): a URDF's MAX_MASS kg with moments of
#: MAX_MASS at up to MAX_LENGTH along each axis gives about 3e24 (parallel axes).
MAX_BODY_INERTIA = 1e25
#: Angles and configurations: finite is the only bound.
FINITE = math.inf
#: Longer integer literals are read as floats (then refused as out of bounds), which keeps
#: Python's int-parsing limit (4300 digits) and ``float(10**400)`` overflow out of the way.
_MAX_INT_DIGITS = 20
#: Rows of each joint type's position that are lengths (the others are angles or quaternions).
_LENGTH_ROWS = {"prismatic": (0,), "planar": (0, 1), "floating": (4, 5, 6)}


def _parse_int(text: str) -> int | float:
    return int(text) if len(text) <= _MAX_INT_DIGITS else float(text)


class _DuplicateKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's dict; a key given twice is refused (``json`` would keep the last silently,
    so ``"mass": 1, "mass": 1000`` would load as whichever came last)."""
    d = dict(pairs)
    if len(d) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))
        name = d.get("name")
        where = f" (in the object named {name!r:.80})" if isinstance(name, str) and key != "name" else ""
        raise _DuplicateKey(f"key {key!r:.80} appears twice in one object{where}")
    return d


def parse_json(text: str, source: str) -> Any:
    """``json.loads`` that raises only :class:`FileFormatError` (naming ``source`` and the
    line): huge integers become floats, too-deep nesting and a key twice in one object are
    refused."""
    try:
        return json.loads(text, parse_int=_parse_int, object_pairs_hook=_unique_keys)
    except _DuplicateKey as exc:
        raise FileFormatError(f"{source}: invalid JSON: {exc}") from None
    except json.JSONDecodeError as exc:
        raise FileFormatError(f"{source}: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise FileFormatError(f"{source}: invalid JSON: nested too deeply") from None
    except (ValueError, OverflowError, MemoryError) as exc:
        raise FileFormatError(f"{source}: invalid JSON ({exc})") from None


class Where:
    """Where a value is, for messages: the context (``file: body 'link1'``) and the field's path
    in it (``visuals[0].name``); ``where / key`` and ``where[i]`` go one level down."""

    __slots__ = ("ctx", "path")

    def __init__(self, ctx: str, path: str = "") -> None:
        self.ctx, self.path = ctx, path

    def __truediv__(self, key: str) -> Where:
        return Where(self.ctx, f"{self.path}.{key}" if self.path else key)

    def __getitem__(self, i: int) -> Where:
        return Where(self.ctx, f"{self.path}[{i}]")

    def __str__(self) -> str:
        return f"{self.ctx}: field '{self.path}'" if self.path else self.ctx

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731 - f-strings use str()


def _type_name(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null",
            int: "a number", float: "a number"}.get(type(v), type(v).__name__)


def _show(v: Any) -> str:
    text = json.dumps(v) if isinstance(v, (str, int, float, bool, type(None))) else _type_name(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _require(d: dict, where: Where, *keys: str) -> None:
    for key in keys:
        if key not in d:
            raise FileFormatError(f"{where.ctx}: missing field '{key}'" + (f" in '{where.path}'" if where.path else ""))


def number(v: Any, where: Where, bound: float = FINITE) -> float:
    """``v`` as a float if it is a JSON number, finite and ``|v| <= bound``."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise FileFormatError(f"{where} must be a number, got {_show(v)}")
    f = float(v)
    if math.isnan(f):
        raise FileFormatError(f"{where} must be a finite number, got NaN")
    if abs(f) > bound or math.isinf(f):  # also huge literals (read as inf, see _parse_int)
        shown = "is too large" if math.isinf(f) else f"= {f:g} is out of range"
        limit = "finite" if math.isinf(bound) else f"at most {bound:g} in magnitude"
        raise FileFormatError(f"{where} {shown} (must be {limit})")
    return f


def numbers(v: Any, n: int | tuple[int, ...], where: Where, bound: float = FINITE) -> list[float]:
    """A list of ``n`` (or one of the counts ``n``) numbers."""
    counts = (n,) if isinstance(n, int) else n
    if not isinstance(v, list) or len(v) not in counts:
        want = " or ".join(map(str, counts))
        got = f"{len(v)} values" if isinstance(v, list) else _show(v)
        raise FileFormatError(f"{where} must be a list of {want} numbers, got {got}")
    fast = _plain_numbers(v, bound)
    return fast if fast is not None else [number(x, where[i], bound) for i, x in enumerate(v)]


def _plain_numbers(v: list, bound: float) -> list[float] | None:
    """``v`` as floats when every item is a finite plain number within ``bound``, else ``None``.

    The common case, checked without building a :class:`Where` per item (a 20,000-body project
    has 700,000 numbers); ``None`` sends the caller to the item-by-item check with its messages."""
    if not all(type(x) is float or type(x) is int for x in v):
        return None
    out = [float(x) for x in v]
    return out if all(math.isfinite(f) and abs(f) <= bound for f in out) else None


def transform(v: Any, where: Where) -> None:
    """A 4×4 list of rows: translation column at most :data:`MAX_LENGTH`."""
    if not isinstance(v, list) or len(v) != 4:
        raise FileFormatError(f"{where} must be a 4×4 matrix (a list of 4 rows), got {_show(v)}")
    for r, row in enumerate(v):
        if not (type(row) is list and len(row) == 4 and _plain_numbers(row, MAX_LENGTH) is not None):
            numbers(row, 4, where[r], MAX_LENGTH)


def string(v: Any, where: Where) -> str:
    if not isinstance(v, str):
        raise FileFormatError(f"{where} must be a string, got {_show(v)}")
    return v


def obj(v: Any, where: Where) -> dict:
    if not isinstance(v, dict):
        raise FileFormatError(f"{where} must be an object, got {_show(v)}")
    return v


def array(v: Any, where: Where) -> list:
    if not isinstance(v, list):
        raise FileFormatError(f"{where} must be a list, got {_show(v)}")
    return v


def _check_fields(d: dict, where: Where, checks: dict) -> None:
    for key, check in checks.items():
        if key in d:
            check(d[key], where / key)


def _check_visual(v: Any, where: Where) -> None:
    obj(v, where)
    _require(v, where, "kind", "size")
    _check_fields(v, where, {
        "kind": string,
        "size": lambda x, w: numbers(x, (1, 2, 3), w, MAX_LENGTH),
        "pose": transform,
        "color": lambda x, w: numbers(x, (3, 4), w),
        "filename": string,
        "name": string,
        "urdf_origin": lambda x, w: _check_urdf_origin(x, w, MAX_LENGTH),
        "uri": _check_uri,
    })
    if "uri" in v and v["kind"] != "mesh":
        raise FileFormatError(f"{where / 'uri'}: only a mesh has a URI (this shape is a {v['kind']!r:.40})")


def _check_urdf_origin(v: Any, where: Where, rpy_bound: float) -> None:
    """An ``<origin>``'s numbers as a URDF gave them: ``{"xyz": [3], "rpy": [3]}``, within the
    URDF reader's bounds."""
    obj(v, where)
    _require(v, where, "xyz", "rpy")
    numbers(v["xyz"], 3, where / "xyz", MAX_LENGTH)
    numbers(v["rpy"], 3, where / "rpy", rpy_bound)


def _check_urdf_inertial(v: Any, where: Where) -> None:
    """An ``<inertial>`` as a URDF gave it: origin ``xyz``/``rpy``, ``mass`` (≥ 0) and
    ``inertia`` ``[ixx ixy ixz iyy iyz izz]`` about the centre of mass (as the URDF reader:
    not necessarily physical, each at most :data:`MAX_MASS`)."""
    _check_urdf_origin(v, where, MAX_LENGTH)
    _require(v, where, "mass", "inertia")
    if number(v["mass"], where / "mass", MAX_MASS) < 0:
        raise FileFormatError(f"{where / 'mass'} = {v['mass']!r} is negative")
    numbers(v["inertia"], 6, where / "inertia", MAX_MASS)


def _check_uri(v: Any, where: Where) -> None:
    """A mesh URI as a URDF wrote it: a file name's rules (no control character, NUL included;
    at most MAX_PATH_LENGTH characters)."""
    problem = text_problem(v, max_length=MAX_PATH_LENGTH, name=False)
    if problem is not None:
        raise FileFormatError(f"{where} {problem}")


def check_inertia_and_visuals(bd: dict, where: Where) -> None:
    """The inertial and visual fields shared by bodies and the base."""
    _check_fields(bd, where, {
        "mass": lambda x, w: number(x, w, MAX_MASS),
        "center_of_mass": lambda x, w: numbers(x, 3, w, MAX_LENGTH),
        "inertia": lambda x, w: numbers(x, 6, w, MAX_BODY_INERTIA),
        "visuals": lambda x, w: [_check_visual(vi, w[i]) for i, vi in enumerate(array(x, w))],
        "collisions": lambda x, w: [_check_visual(vi, w[i]) for i, vi in enumerate(array(x, w))],
        "urdf_inertial": _check_urdf_inertial,
    })


class _Shape:
    """A joint's positions as the file's limits and home must give them: how many, which are lengths."""

    def __init__(self, jtype: str, rows: tuple = ()) -> None:
        self.jtype = jtype
        self.n = len(rows) if rows else POSITION_COUNT[jtype]
        self.lengths = tuple(k for k, r in enumerate(rows) if not any(r[:3])) if rows else _LENGTH_ROWS.get(jtype, ())


def _bound(shape: _Shape, row: int) -> float:
    return MAX_LENGTH if row in shape.lengths else FINITE


def _check_subspace(v: Any, name: str, where: Where) -> tuple:
    """A custom joint's ``motion_subspace``: 1 to 6 rows of 6 numbers, each a pure rotation or translation."""
    rows = array(v, where)
    if not 1 <= len(rows) <= MAX_SUBSPACE_ROWS:
        raise FileFormatError(f"{where} must have 1 to {MAX_SUBSPACE_ROWS} rows (r_x r_y r_z t_x t_y t_z), "
                              f"got {len(rows)}")
    for i, row in enumerate(rows):
        numbers(row, 6, where[i])
    try:
        return parse_motion_subspace(rows, name)
    except KineTreeError as e:
        raise FileFormatError(f"{where}: {e}") from None


def _check_limits(v: Any, shape: _Shape, where: Where) -> None:
    n, jtype = shape.n, shape.jtype
    if n == 1 and isinstance(v, list) and len(v) == 2 and not any(isinstance(x, list) for x in v):
        v = [v]  # one joint position: a flat [min, max] is read too
    if not isinstance(v, list) or len(v) != n:
        got = f"{len(v)} rows" if isinstance(v, list) else _show(v)
        raise FileFormatError(f"{where}: a {jtype} joint needs {n} [min, max] pair{'s' * (n != 1)}, got {got}")
    for i, row in enumerate(v):
        if not isinstance(row, list) or len(row) != 2:
            raise FileFormatError(f"{where[i]} must be a [min, max] pair (null for unbounded), got {_show(row)}")
        for k, x in enumerate(row):
            if x is not None:
                number(x, where[i][k], _bound(shape, i))


def _check_home(v: Any, shape: _Shape, where: Where) -> None:
    n, jtype = shape.n, shape.jtype
    values = [v] if isinstance(v, (int, float)) and not isinstance(v, bool) else v
    if not isinstance(values, list) or len(values) != n:
        got = f"{len(values)} values" if isinstance(values, list) else _show(v)
        raise FileFormatError(f"{where}: a {jtype} joint needs {n} number{'s' * (n != 1)}, got {got}")
    for i, x in enumerate(values):
        number(x, where[i] if values is v else where, _bound(shape, i))


def _check_dh(v: Any, where: Where) -> None:
    if v is None:
        return
    obj(v, where)
    _require(v, where, "convention", "a", "alpha", "d", "theta")
    string(v["convention"], where / "convention")
    for key in ("a", "d"):
        number(v[key], where / key, MAX_LENGTH)
    for key in ("alpha", "theta"):
        number(v[key], where / key)


def _check_mimic(v: Any, where: Where) -> None:
    if v is None:
        return
    obj(v, where)
    _require(v, where, "joint")
    _check_fields(v, where, {"joint": string, "multiplier": lambda x, w: number(x, w, MAX_LENGTH),
                             "offset": lambda x, w: number(x, w, MAX_LENGTH)})


def _check_motor(v: Any, where: Where) -> None:
    obj(v, where)
    _check_fields(v, where, {
        "gear_ratio": lambda x, w: number(x, w, MAX_MOTOR_VALUE),
        "motor_inertia": lambda x, w: number(x, w, MAX_MOTOR_VALUE),
        "viscous_friction": lambda x, w: number(x, w, MAX_MOTOR_VALUE),
        "coulomb_friction": lambda x, w: numbers(x, 2, w, MAX_MOTOR_VALUE)})


def check_joint(jd: Any, where: Where) -> None:
    """A body's ``joint`` object (``where``: the body's context, path ``joint``)."""
    obj(jd, where)
    _require(jd, where, "name", "type")
    name = string(jd["name"], where / "name")
    jtype = string(jd["type"], where / "type")
    if jtype not in JOINT_TYPES:
        raise FileFormatError(f"{where / 'type'}: unknown joint type {jtype!r}; "
                              f"expected one of {', '.join(JOINT_TYPES)}")
    at = Where(f"{where.ctx}: joint {name!r}")
    rows: tuple = COMPOSITE_ROWS.get(jtype, ())
    if "motion_subspace" in jd and jtype not in COMPOSITE_TYPES:
        raise FileFormatError(f"{at / 'motion_subspace'}: a {jtype} joint has no motion subspace (only "
                              f"{', '.join(COMPOSITE_TYPES)} joints)")
    if jtype == "custom":
        _require(jd, where, "motion_subspace")
        rows = _check_subspace(jd["motion_subspace"], name, at / "motion_subspace")
    shape = _Shape(jtype, rows)
    _check_fields(jd, at, {
        "axis": lambda x, w: numbers(x, 3, w),
        "offset": lambda x, w: number(x, w, MAX_LENGTH if jtype == "prismatic" else FINITE),
        "position_limits": lambda x, w: _check_limits(x, shape, w),
        "home_position": lambda x, w: _check_home(x, shape, w),
        "dh": _check_dh,
        "joint_to_parent_transform": transform,
        "child_to_joint_transform": transform,
        "mimic": _check_mimic,
        "motor": _check_motor,
        "actuated": _check_bool,
        "urdf_origin": lambda x, w: _check_urdf_origin(x, w, FINITE),  # a joint's rpy: finite, as the URDF reader
    })


def _check_configuration(v: Any, where: Where) -> None:
    if v is None:
        return
    if isinstance(v, dict):
        for name, x in v.items():  # {joint name: value or [values]}
            at = Where(where.ctx, f"{where.path}[{name!r}]")
            for i, y in enumerate(x if isinstance(x, list) else [x]):
                number(y, at[i] if isinstance(x, list) else at)
        return
    if isinstance(v, list) and _plain_numbers(v, FINITE) is not None:  # the common case, fast
        return
    for i, x in enumerate(array(v, where)):
        number(x, where[i])


def _check_named_poses(v: Any, where: Where) -> None:
    """``{name: configuration}`` (version 3): names as body names, values as ``configuration``."""
    if len(obj(v, where)) > MAX_POSES:
        raise FileFormatError(f"{where} holds {len(v)} poses, more than the {MAX_POSES} a tree may hold")
    # the numbers the file spells out, before any is checked (a mapping's missing joints are
    # filled in later, and bounded when the poses are stored)
    total = sum(len(q) if isinstance(q, (list, dict)) else 1 for q in v.values())
    if total > MAX_POSE_VALUES:
        raise FileFormatError(f"{where} holds {total} numbers, more than the {MAX_POSE_VALUES} "
                              "the poses of a tree may hold")
    for name, q in v.items():
        at = Where(where.ctx, f"{where.path}[{name!r:.80}]")
        problem = text_problem(name)
        if problem is not None:
            raise FileFormatError(f"{at}: pose name {problem}")
        if not isinstance(q, (list, dict)):
            raise FileFormatError(f"{at} must be a list of numbers or an object, got {_show(q)}")
        _check_configuration(q, at)


def _check_bool(v: Any, where: Where) -> None:
    if not isinstance(v, bool):
        raise FileFormatError(f"{where} must be true or false, got {_show(v)}")


def _check_loops(v: Any, where: Where) -> None:
    """``[{name, kind, body_a, frame_a, body_b, frame_b}]`` (version 4): closed loops."""
    if len(array(v, where)) > MAX_LOOPS:
        raise FileFormatError(f"{where} holds {len(v)} loops, more than the {MAX_LOOPS} a tree may hold")
    for k, ld in enumerate(v):
        at = where[k]
        obj(ld, at)
        _require(ld, at, "name", "kind", "body_a", "frame_a", "body_b", "frame_b")
        at = Where(f"{where.ctx}: loop {string(ld['name'], at / 'name')!r:.80}")
        kind = string(ld["kind"], at / "kind")
        if kind not in LOOP_KINDS:
            raise FileFormatError(f"{at / 'kind'}: unknown loop kind {kind!r:.80}; expected one of "
                                  f"{', '.join(LOOP_KINDS)}")
        _check_fields(ld, at, {"body_a": string, "body_b": string, "frame_a": transform, "frame_b": transform})


def check_mass(name: str, mass: float, what: str = "a reader") -> None:
    """Refuse a body's ``mass`` that every KineTree reader refuses (not finite or more than
    :data:`MAX_MASS` kg in magnitude), naming the body ``name`` and the value: a writer's check, so
    that what it writes reads back, and the MJCF reader's (MuJoCo itself takes 1e300 kg)."""
    if not abs(mass) <= MAX_MASS:
        raise FileFormatError(f"body {name!r}: mass {mass:g} kg is more than the {MAX_MASS:g} {what} accepts")


def check_project(d: Any, source: str) -> None:
    """Raise :class:`FileFormatError` naming ``source`` and the field for any mistyped,
    misshaped, non-finite or out-of-range documented field of a project dictionary."""
    top = Where(source)
    obj(d, top)
    _check_fields(d, top, {
        "base_name": string,
        "gravity": lambda x, w: numbers(x, 3, w, MAX_LENGTH),
        "base": lambda x, w: check_inertia_and_visuals(obj(x, w), Where(f"{source}: base")),
        "configuration": _check_configuration,
        "named_poses": _check_named_poses,
        "loops": _check_loops,
    })
    bodies = array(d.get("bodies", []), top / "bodies")
    if len(bodies) > MAX_BODIES:  # before anything is checked or built
        raise FileFormatError(f"{source}: {len(bodies)} bodies is more than the {MAX_BODIES} KineTree accepts")
    if isinstance(d.get("base"), dict):
        _check_extensions(d["base"], Where(f"{source}: base"))
    if isinstance(d.get("extensions"), list):
        check_extensions(d["extensions"], f"{source}: robot", "robot")
    for k, bd in enumerate(bodies):
        obj(bd, (top / "bodies")[k])
        _require(bd, (top / "bodies")[k], "name")
        body = Where(f"{source}: body {string(bd['name'], (top / 'bodies')[k] / 'name')!r}")
        _require(bd, body, "parent", "joint")
        string(bd["parent"], body / "parent")
        check_joint(bd["joint"], body / "joint")
        check_inertia_and_visuals(bd, body)
        _check_extensions(bd, body)
        if isinstance(bd["joint"].get("extensions"), list):
            check_extensions(bd["joint"]["extensions"], f"{body.ctx}: joint {bd['joint']['name']!r}", "joint")


def _check_extensions(bd: dict, where: Where) -> None:
    texts = bd.get("extensions")
    if not isinstance(texts, list) or not texts:
        return  # absent, or mistyped (refused by the extensions setter with its message)
    own = (bd.get("mass", 1.0) != 0 or any(x != 0 for x in bd.get("center_of_mass", [0]))
           or any(x != 0 for x in bd.get("inertia", [1])))
    check_extensions(texts, str(where), "link", own)


class _ExtensionCtx:
    """The URDF checks' context (see :mod:`kinetree.core.io.urdf.check`) for one extension."""

    def __init__(self, where: str) -> None:
        self.source = where

    def error(self, el, what: str, msg: str) -> FileFormatError:
        return FileFormatError(f"{self.source}: <{el.tag if hasattr(el, 'tag') else '?'}>: {msg}")


#: The kept elements a URDF reader interprets, by where they are kept.
_INTERPRETED = {"link": ("<inertial", "<visual", "<collision"), "joint": ("<limit",), "robot": ("<material",)}


def check_extensions(texts, where: str, level: str, own_inertial: bool = False) -> None:
    """Refuse (:class:`FileFormatError` naming ``where``, the extension and the element) a kept
    element that the URDF importer would refuse once an export writes it back: a body's
    (``level="link"``) ``<inertial>``, ``<visual>`` or ``<collision>``, a joint's ``<limit>``
    (its effort and velocity) or the robot's ``<material>`` (its colour). ``own_inertial``:
    the body writes its own ``<inertial>`` first (then a kept one is a second, which readers
    ignore)."""
    first_inertial = not own_inertial
    for k, text in enumerate(texts):
        if not isinstance(text, str) or not text.lstrip().startswith(_INTERPRETED[level]):
            continue
        try:
            el = fragment_element(text)
        except KineTreeError:
            continue  # malformed: refused by the extensions setter, with its message
        ctx = _ExtensionCtx(f"{where}: extensions[{k}]")
        if el.tag == "inertial":
            if first_inertial:
                _check_inertial(el, ctx, "inertial")
            first_inertial = False
        elif el.tag in ("visual", "collision") and level == "link":
            _check_shape("", k, el, ctx, _Checked())
        elif el.tag == "limit" and level == "joint":
            for a in ("effort", "velocity"):  # the reader's check (lower and upper are KineTree's own)
                try:
                    float(el.get(a, "0"))
                except ValueError:
                    raise ctx.error(el, "", f"limit {a} {el.get(a)!r:.80} is not a number") from None
        elif el.tag == "material" and level == "robot" and el.find("color") is not None:
            _numbers(el.find("color"), "rgba", (3, 4), ctx, "", "1 1 1 1")
