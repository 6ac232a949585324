"""Numbers as text for the panels and the clipboard."""

from __future__ import annotations

import numpy as np

from .numbers import fixed_text


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
