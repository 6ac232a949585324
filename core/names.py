"""What a name (or any text the engine stores and files write back) may be."""

from __future__ import annotations

import unicodedata
from typing import Any

MAX_NAME_LENGTH = 1000
MAX_PATH_LENGTH = 4096  # Linux's PATH_MAX: a mesh file name is a path


def text_problem(value: Any, *, allow_empty: bool = False, max_length: int = MAX_NAME_LENGTH) -> str | None:
    """Why ``value`` cannot be a body/joint name or a visual's name or file name, else ``None``.

    Control characters (NUL, newlines, …) are refused: XML cannot carry them, so a tree holding
    one would load but fail to export; a newline would also split a CSV row or a message."""
    if not isinstance(value, str):
        return f"must be a string, got {type(value).__name__}"
    if not allow_empty and not value.strip():
        return f"must be a non-empty string, got {value!r}"
    if len(value) > max_length:
        return f"is {len(value)} characters long, more than {max_length}"
    bad = next((c for c in value if unicodedata.category(c) in ("Cc", "Cs")), None)
    if bad is not None:
        return f"{value!r:.80} contains the control character {bad!r}"
    return None
