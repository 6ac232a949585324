"""Check a matrix from a slide or a student's sheet against the engine: a 4×4 (or 3×4)
homogeneous transform typed or pasted as text (rows on lines or ``;``, cells by spaces, commas or
``&``) or LaTeX (``A_3 = \\begin{bmatrix} … \\end{bmatrix}``), compared entry by entry with the
true transform, and flagged when its rotation part is no rotation (det ≠ +1, not orthonormal).

Cells are read by :func:`~kinetree.core.number_text.read_number` (``0.7071``, ``-1``, ``pi/4``,
``\\frac{1}{2}``); nothing is evaluated as code. No Qt here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .errors import KineTreeError
from .number_text import read_number

__all__ = ["MatrixCheck", "check_matrix", "parse_matrix"]

#: a pasted matrix is short; a longer text is refused before it is read
MAX_TEXT = 10_000

_FRAC = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")


def _clean(text: str) -> str:
    """The matrix's cells and separators without LaTeX or a ``T =`` label."""
    t = text.replace("−", "-").replace("\u2212", "-")
    t = re.sub(r"\\(begin|end)\s*\{[a-zA-Z*]*\}", " ", t)
    t = re.sub(r"\\(left|right)\b", " ", t)
    t = t.replace("\\pi", "pi").replace("\\cdot", "*").replace("\\,", " ").replace("$", " ")
    for _ in range(5):  # nested \frac{…}{…}
        t = _FRAC.sub(r"(\1)/(\2)", t)
    if "=" in t:  # "A_3 = …": the label goes, the last '=' ends it
        t = t.rsplit("=", 1)[1]
    return t.replace("[", " ").replace("]", " ")


def parse_matrix(text: str) -> np.ndarray:
    """The 4×4 transform ``text`` holds (a 3×4 gets the row 0 0 0 1). Raises
    :class:`KineTreeError` naming the row, the column and the text of a cell that is no
    number, or the shape found."""
    if len(text) > MAX_TEXT:
        raise KineTreeError(f"matrix: {len(text)} characters is more than the {MAX_TEXT} a matrix may have")
    t = _clean(text)
    lines = [r for r in re.split(r"\\\\|;|\n", t) if r.strip()]
    rows = []
    for r, line in enumerate(lines, start=1):
        cells = [c for c in re.split(r"&|,|\s+", line.strip()) if c]
        rows.append([read_number(c, f"matrix row {r}, column {k}").value for k, c in enumerate(cells, start=1)])
    shape = [len(r) for r in rows]
    if len(rows) == 3 and shape == [4, 4, 4]:
        rows.append([0.0, 0.0, 0.0, 1.0])
    if len(rows) != 4 or any(n != 4 for n in shape[:4]):
        raise KineTreeError(f"matrix: expected 4 rows of 4 numbers (or 3 rows of 4), got {len(rows)} row"
                            f"{'s' if len(rows) != 1 else ''} of {', '.join(map(str, shape)) or 'nothing'}")
    return np.array(rows, dtype=float)


@dataclass
class MatrixCheck:
    """``typed`` against ``expected``: ``wrong`` marks the entries off by more than ``tol``;
    ``det`` is the determinant of the typed rotation part, ``orthonormal`` whether its columns
    are (within ``tol``)."""

    typed: np.ndarray
    expected: np.ndarray
    tol: float
    wrong: np.ndarray
    det: float
    orthonormal: bool

    @property
    def equal(self) -> bool:
        return not self.wrong.any()

    def lines(self, label: str = "T") -> list[str]:
        """The verdict in words: which entries differ (1-based row, column), and a rotation
        part that is no rotation."""
        out = []
        n = int(self.wrong.sum())
        if n == 0:
            out.append(f"Equal: every entry of {label} is within {self.tol:g}.")
        else:
            out.append(f"{n} of 16 entries differ from {label} (tolerance {self.tol:g}):")
            for r, c in zip(*np.nonzero(self.wrong)):
                out.append(f"  ({r + 1},{c + 1}): typed {self.typed[r, c]:.6g}, is {self.expected[r, c]:.6g}")
        if abs(self.det - 1.0) > max(self.tol, 1e-9):
            out.append(f"The typed rotation part has determinant {self.det:.4g}, not +1: it is no rotation"
                       + (" (a mirror: a sign typo?)" if self.det < 0 else "") + ".")
        elif not self.orthonormal:
            out.append("The typed rotation part's columns are not orthonormal: it is no rotation.")
        if not np.allclose(self.typed[3], [0, 0, 0, 1], atol=self.tol):
            out.append("The last row of a homogeneous transform is 0 0 0 1.")
        return out


def check_matrix(typed: np.ndarray, expected: np.ndarray, tol: float = 1e-3) -> MatrixCheck:
    """Compare ``typed`` (4×4) with ``expected`` entry by entry within ``tol``."""
    if not (np.isfinite(tol) and tol >= 0):
        raise KineTreeError(f"tolerance must be a number ≥ 0, got {tol!r}")
    typed, expected = np.asarray(typed, dtype=float), np.asarray(expected, dtype=float)
    R = typed[:3, :3]
    return MatrixCheck(typed, expected, tol, np.abs(typed - expected) > tol, float(np.linalg.det(R)),
                       bool(np.allclose(R.T @ R, np.eye(3), atol=max(tol, 1e-9) * 3)))
