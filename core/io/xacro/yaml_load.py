"""``load_yaml`` of xacro files: ``yaml.safe_load`` rules, ROS xacro's unit tags, and bounds.

PyYAML has no bounds of its own: merge keys (``<<: [*a, *a]``) double a mapping per level inside
``yaml.load`` (745 bytes took 14 s), and constructing a 1 MB list takes 10 s even with libyaml.
:func:`read_yaml` therefore reads at most :data:`MAX_YAML_BYTES`, counts every constructed node
and merged key, and checks the expansion's deadline while constructing.
"""

from __future__ import annotations

import math
import time
from typing import Any

from .eval import Budget, ExprError, YamlMap, check_size, evaluate, short

__all__ = ["MAX_YAML_BYTES", "MAX_YAML_ITEMS", "read_yaml"]

#: Largest YAML file ``load_yaml`` reads (constructing PyYAML objects runs at about 100 KB/s).
MAX_YAML_BYTES = 256 * 2**10
#: Most nodes (shared ones and merged keys counted each time) of one YAML file.
MAX_YAML_ITEMS = 1_000_000


def read_yaml(path, name: str, budget: Budget | None = None) -> Any:
    """The content of the YAML file ``path`` (``yaml.safe_load`` rules plus ROS xacro's unit
    tags), mappings as :class:`YamlMap`; ``name`` is how the file was asked for (for messages)."""
    import yaml

    try:
        if path.stat().st_size > MAX_YAML_BYTES:
            raise ExprError(f"load_yaml({short(name)}): file larger than {MAX_YAML_BYTES // 2**10} KB")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:  # permission denied, a directory, a name too long …
        raise ExprError(f"load_yaml({short(name)}): cannot read the file ({exc.strerror or type(exc).__name__})") \
            from None
    except UnicodeDecodeError:
        raise ExprError(f"load_yaml({short(name)}): not UTF-8 text") from None
    deadline = budget.deadline if budget is not None else time.monotonic() + 5.0
    try:
        data = yaml.load(text, Loader=_yaml_loader(deadline))  # a SafeLoader
    except (yaml.YAMLError, ExprError, ValueError, RecursionError, MemoryError) as exc:
        mark = getattr(exc, "problem_mark", None)
        what = getattr(exc, "problem", None) or " ".join(str(exc).split()) or type(exc).__name__
        where = f"{path}:{mark.line + 1}: " if mark is not None else ""
        what = what if len(what) <= 300 else what[:300] + "…"
        raise ExprError(f"load_yaml({short(name)}): {where}{what}") from None
    try:
        return _wrap_yaml(data, {}, [0])
    except (ExprError, RecursionError) as exc:
        raise ExprError(f"load_yaml({short(name)}): {exc or 'nested too deeply'}") from None


def _yaml_loader(deadline: float):
    """A SafeLoader subclass (libyaml's when there is one) with ROS xacro's unit tags (``!degrees 90``
    …), counting nodes and merged keys and checking ``deadline``; nothing global is changed."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        items = 0

        def count(self, n: int) -> None:
            self.items += n
            if self.items > MAX_YAML_ITEMS:
                raise ExprError(f"more than {MAX_YAML_ITEMS} items (merge keys and aliases counted each time)")
            if time.monotonic() > deadline:
                raise ExprError("reading the file takes longer than the expansion's time limit; stopped")

        def construct_object(self, node, deep=False):
            self.count(1)
            return super().construct_object(node, deep)

        def flatten_mapping(self, node):  # merge keys: each level may copy its merged mappings' keys
            super().flatten_mapping(node)
            self.count(len(node.value))

    def unit(factor: float):
        def construct(loader, node):
            v = evaluate(str(loader.construct_scalar(node)), lambda n: (_ for _ in ()).throw(KeyError(n)))
            return float(v) * factor
        return construct

    for tag, factor in (("!radians", 1.0), ("!degrees", math.pi / 180), ("!meters", 1.0), ("!millimeters", 0.001),
                        ("!foot", 0.3048), ("!inches", 0.0254)):
        Loader.add_constructor(tag, unit(factor))
    return Loader


def _wrap_yaml(v: Any, memo: dict[int, Any], count: list[int]) -> Any:
    """Mappings as :class:`YamlMap`; shared nodes stay shared; cycles and more than a million nodes
    (counting shared ones each time) refused."""
    count[0] += 1
    if count[0] > MAX_YAML_ITEMS:
        raise ExprError(f"more than {MAX_YAML_ITEMS} items")
    if isinstance(v, (int, float, str, bool, type(None))):
        return check_size(v)  # a hex integer of a million digits
    if id(v) in memo:
        out = memo[id(v)]
        if out is None:
            raise ExprError("a recursive alias (a node that contains itself)")
        _wrap_count(out, count)
        return out
    memo[id(v)] = None  # being built
    if isinstance(v, dict):
        out = YamlMap((_wrap_yaml(k, memo, count), _wrap_yaml(x, memo, count)) for k, x in v.items())
    elif isinstance(v, (list, tuple, set)):
        out = [_wrap_yaml(x, memo, count) for x in v]
    else:
        out = str(v)  # dates, binary …
    memo[id(v)] = out
    return out


def _wrap_count(v: Any, count: list[int]) -> None:
    """Count a shared node as often as it appears (aliases can nest one list 2**30 times)."""
    stack = [v]
    while stack:
        x = stack.pop()
        count[0] += 1
        if count[0] > MAX_YAML_ITEMS:
            raise ExprError(f"more than {MAX_YAML_ITEMS} items")
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
