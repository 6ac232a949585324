"""The tables of the xacro expander (core/io/xacro/expand.py): properties, macros, and ROS xacro's
literal, boolean and macro-parameter rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .eval import MAX_PARAMS, ExprError, short

__all__ = ["Macro", "Macros", "Scope", "boolean", "literal", "parse_params"]

# ROS xacro's default-value pattern, with "[^\s'\"]+" inside "(…)+" made one character per step: nested
# quantifiers backtrack exponentially ("a:=xxxxxxxxxxxxxxxxxxxxxxxx'" took 4 s)
_DEFAULT = r"""\$\{[^}]*\}|\$\([^)]*\)|(?:'[^']*'|\"[^\"]*\"|[^\s'\"])+|"""
_MACRO_ARG = re.compile(r"\s*([^\s:=]+?)\s*:?=\s*(\^\|?)?(" + _DEFAULT + r")(?:\s+|$)")
_WORD = re.compile(r"\s*(\S+)\s*")


class Scope:
    """A property table: ROS xacro's ``Table`` (lazy values are raw text until first used)."""

    __slots__ = ("parent", "vals", "lazy", "busy", "ns")

    def __init__(self, parent: Scope | None = None, ns: bool = False) -> None:
        self.parent = parent
        self.ns = ns  # the properties of an include with ns=
        self.vals: dict[str, Any] = {}
        self.lazy: set[str] = set()
        self.busy: list[str] = []

    def find(self, key: str) -> Scope | None:
        s: Scope | None = self
        while s is not None:
            if key in s.vals:
                return s
            s = s.parent
        return None

    def set(self, key: str, value: Any, lazy: bool) -> None:
        value = literal(value)
        self.vals[key] = value
        if lazy and isinstance(value, str):
            self.lazy.add(key)
        else:
            self.lazy.discard(key)

    def top(self) -> Scope:
        s = self
        while s.parent is not None:
            s = s.parent
        return s


class Macros:
    """A macro table; a macro body gets its own (when it can define macros), chained to the caller's."""

    __slots__ = ("parent", "defs")

    def __init__(self, parent: Macros | None = None) -> None:
        self.parent, self.defs = parent, {}

    def get(self, name: str) -> Macro | None:
        m: Macros | None = self
        while m is not None:
            if name in m.defs:
                return m.defs[name]
            m = m.parent
        return None


@dataclass
class Macro:
    name: str
    body: Any  # the <xacro:macro> element
    params: list[str]
    defaults: dict[str, tuple[str | None, str | None]]  # name → (forwarded name, default text)
    defines: bool  # the body has macro definitions or includes


def literal(value: Any) -> Any:
    """ROS xacro's ``Table._eval_literal``: '…' unquoted, numbers and booleans converted."""
    if not isinstance(value, str):
        return value
    if len(value) >= 2 and value[0] == "'" and value[-1] == "'":
        return value[1:-1]
    if "_" in value:
        return value
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            pass
    if value in ("true", "True"):
        return True
    if value in ("false", "False"):
        return False
    return value


def boolean(value: Any) -> bool:
    """ROS xacro's ``get_boolean_value``: true/True/false/False, an integer, or any non-string value."""
    if isinstance(value, str):
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            raise ExprError(f"{short(value)} is not a boolean (true, false or an integer)") from None
    return bool(value)


def parse_params(text: str) -> tuple[list[str], dict[str, tuple[str | None, str | None]]]:
    """ROS xacro's macro ``params``: names, and name → (forwarded name, default text); in one pass
    (the rest of the text is never copied), at most :data:`MAX_PARAMS`."""
    params: list[str] = []
    defaults: dict[str, tuple[str | None, str | None]] = {}
    pos, end = 0, len(text.rstrip())
    while pos < end:
        if len(params) >= MAX_PARAMS:
            raise ExprError(f"more than {MAX_PARAMS} macro parameters")
        m = _MACRO_ARG.match(text, pos)
        if m and m.end() > pos:
            name, forward, default = m.groups()
            defaults[name] = (name if forward else None, default or None)
        else:
            m = _WORD.match(text, pos)
            if m is None:
                break
            name = m.group(1)
        pos = m.end()
        params.append(name)
    return params, defaults
