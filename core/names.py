"""What a name (or any text the engine stores and files write back) may be.

One rule, checked wherever a name is set (bodies, joints, the base frame, named poses, DH rows)
and met by every name the engine makes up from another (:func:`derived_name`), so that whatever
name can be set can be saved and reopened in every format (project, URDF, DH table):

- a string of 1 … :data:`MAX_NAME_LENGTH` characters;
- no control character (NUL, newline …: XML cannot carry them), no surrogate, no line or
  paragraph separator (U+2028, U+2029: they end a line of a DH table as a newline does) and no
  Unicode noncharacter (U+FFFE, U+FFFF …: XML cannot carry them);
- no white space at either end (a DH table's cells are read without it).
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

MAX_NAME_LENGTH = 1000
MAX_PATH_LENGTH = 4096  # Linux's PATH_MAX: a mesh file name is a path

_BAD_CATEGORIES = {"Cc": "control character", "Cs": "surrogate", "Zl": "line separator",
                   "Zp": "paragraph separator"}


def _is_noncharacter(c: str) -> bool:
    o = ord(c)
    return 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE


def elide(value: str, width: int = 60) -> str:
    """``repr(value)``, its middle replaced by ``…`` when longer than ``width``."""
    text = repr(value)
    if len(text) <= width:
        return text
    head = (width - 1) * 2 // 3
    return f"{text[:head]}…{text[len(text) - (width - 1 - head):]}"


def text_problem(value: Any, *, allow_empty: bool = False, max_length: int = MAX_NAME_LENGTH,
                 name: bool = True) -> str | None:
    """Why ``value`` cannot be a name (``name=True``: the rule of the module docstring) or a
    visual's file name (``name=False``: no rule on white space), else ``None``. The reason shows
    the value (elided)."""
    if not isinstance(value, str):
        return f"must be a string, got {type(value).__name__}"
    if not allow_empty and not value.strip():
        return f"must be a non-empty string, got {value!r:.80}"
    shown = elide(value)
    if len(value) > max_length:
        return f"{shown} is {len(value)} characters long, more than {max_length}"
    for i, c in enumerate(value):
        what = _BAD_CATEGORIES.get(unicodedata.category(c))
        if what is None and _is_noncharacter(c):
            what = "Unicode noncharacter"
        if what is not None:
            return f"{shown} contains the {what} {c!r} (U+{ord(c):04X}) at character {i + 1}"
    if name and value != value.strip():
        return f"{shown} starts or ends with white space"
    return None


def derived_name(stem: str, suffix: str) -> str:
    """``stem + suffix`` (a name the engine makes from another: ``<body>_jnt``,
    ``<joint>_frame`` …), kept within :data:`MAX_NAME_LENGTH`: past it, the end of ``stem`` is
    replaced by ``~`` and 8 hex digits of its hash (distinct stems stay distinct)."""
    if len(stem) + len(suffix) <= MAX_NAME_LENGTH:
        return stem + suffix
    digest = hashlib.sha1(stem.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    keep = max(0, MAX_NAME_LENGTH - len(suffix) - len(digest) - 1)
    return f"{stem[:keep].rstrip()}~{digest}{suffix}"
