"""Check a matrix from a slide or a student's sheet against the engine: a 4×4 (or 3×4)
homogeneous transform typed or pasted as text (rows on lines or ``;``, cells by spaces, commas or
``&``) or LaTeX (``A_3 = \\begin{bmatrix} … \\end{bmatrix}``), compared entry by entry with the
true transform, and flagged when its rotation part is no rotation (det ≠ +1, not orthonormal).

Here cells are numbers, read by :func:`~kinetree.core.number_text.read_number` (``0.7071``, ``-1``,
``pi/4``, ``\\frac{1}{2}``); the app reads the lecture's symbols too (``c_5``, ``a_2 c_{23}``,
``\\sqrt{3}/2``) from :func:`matrix_cells` and hands the verdict to :func:`check_matrix`. Nothing
is evaluated as code. No Qt here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import KineTreeError
from ..number_text import latex_to_plain, read_number

__all__ = ["MatrixCheck", "check_matrix", "matrix_cells", "parse_matrix"]

#: a pasted matrix is short; a longer text is refused before it is read
MAX_TEXT = 10_000

def _clean(text: str) -> str:
    """The matrix's cells and separators without LaTeX or a ``T =`` label."""
    t = text.replace("−", "-").replace("\u2212", "-")
    t = latex_to_plain(re.sub(r"\\(begin|end)\s*\{[a-zA-Z*]*\}", " ", t))
    if "=" in t:  # "A_3 = …": the label goes, the last '=' ends it
        t = t.rsplit("=", 1)[1]
    return t.replace("[", " ").replace("]", " ")


def _split(line: str, separators: str) -> list[str]:
    """``line`` split at each of ``separators`` outside parentheses (``atan2(y, x)`` is one cell)."""
    cells, depth, start = [], 0, 0
    for k, ch in enumerate(line):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch in separators:
            cells.append(line[start:k])
            start = k + 1
    cells.append(line[start:])
    return [c.strip() for c in cells if c.strip()]


def _by_spaces(line: str) -> list[str]:
    """Cells of a row typed with spaces between them, MATLAB's way: ``c1 - s1`` and
    ``a1*c1 + a2*c12`` are one cell (an operator with a space after it joins its neighbours),
    ``c1 -s1`` is two."""
    words = _split(line, " \t")
    cells: list[str] = []
    for w in words:
        joins = cells and (cells[-1][-1] in "+-*/^(" or w[0] in "*/^)" or (w in ("+", "-")))
        if joins:
            cells[-1] += " " + w
        else:
            cells.append(w)
    return cells


def matrix_cells(text: str) -> list[list[str]]:
    """The cells of the 4×4 transform ``text`` holds, as text, row by row (a 3×4 gets the row
    0 0 0 1). Rows on lines, by ``;`` or LaTeX's ``\\``; cells by ``&`` (LaTeX) or else by
    commas or else by spaces. Raises :class:`KineTreeError` naming the shape found."""
    if len(text) > MAX_TEXT:
        raise KineTreeError(f"matrix: {len(text)} characters is more than the {MAX_TEXT} a matrix may have")
    t = _clean(text)
    lines = [r for r in re.split(r"\\\\|;|\n", t) if r.strip()]
    if "&" in t:
        rows = [_split(line, "&") for line in lines]
    elif "," in t:
        rows = [_split(line, ",") for line in lines]
    else:
        rows = [_by_spaces(line) for line in lines]
    shape = [len(r) for r in rows]
    if len(rows) == 3 and shape == [4, 4, 4]:
        rows.append(["0", "0", "0", "1"])
    if len(rows) != 4 or any(n != 4 for n in shape[:4]):
        raise KineTreeError(f"matrix: expected 4 rows of 4 entries (or 3 rows of 4), got {len(rows)} row"
                            f"{'s' if len(rows) != 1 else ''} of {', '.join(map(str, shape)) or 'nothing'}")
    return rows


def parse_matrix(text: str) -> np.ndarray:
    """The 4×4 transform ``text`` holds (:func:`matrix_cells`), every cell a number. Raises
    :class:`KineTreeError` naming the row, the column and the text of a cell that is no
    number, or the shape found."""
    return np.array([[read_number(c, f"matrix row {r}, column {k}").value for k, c in enumerate(row, start=1)]
                     for r, row in enumerate(matrix_cells(text), start=1)], dtype=float)


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
    #: a symbolic check's entries as typed and as they are (4×4 texts; None: the numbers say it)
    typed_text: list[list[str]] | None = None
    expected_text: list[list[str]] | None = None

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
                if self.typed_text is None or self.expected_text is None:
                    typed, expected = f"{self.typed[r, c]:.6g}", f"{self.expected[r, c]:.6g}"
                else:
                    typed, expected = self.typed_text[r][c], self.expected_text[r][c]
                out.append(f"  ({r + 1},{c + 1}): typed {typed}, is {expected}")
        if abs(self.det - 1.0) > max(self.tol, 1e-9):
            out.append(f"The typed rotation part has determinant {self.det:.4g}, not +1: it is no rotation"
                       + (" (a mirror: a sign typo?)" if self.det < 0 else "") + ".")
        elif not self.orthonormal:
            out.append("The typed rotation part's columns are not orthonormal: it is no rotation.")
        if not np.allclose(self.typed[3], [0, 0, 0, 1], atol=self.tol):
            out.append("The last row of a homogeneous transform is 0 0 0 1.")
        return out


def check_matrix(typed: np.ndarray, expected: np.ndarray, tol: float = 1e-3, wrong: np.ndarray | None = None,
                 texts: tuple[list[list[str]], list[list[str]]] | None = None) -> MatrixCheck:
    """Compare ``typed`` (4×4) with ``expected`` entry by entry within ``tol``; ``wrong``: the
    verdict already found (a symbolic check, at the typed and expected ``texts``), ``typed`` then
    its value at the configuration shown, for the determinant."""
    if not (np.isfinite(tol) and tol >= 0):
        raise KineTreeError(f"tolerance must be a number ≥ 0, got {tol!r}")
    typed, expected = np.asarray(typed, dtype=float), np.asarray(expected, dtype=float)
    R = typed[:3, :3]
    wrong = np.abs(typed - expected) > tol if wrong is None else np.asarray(wrong, dtype=bool)
    return MatrixCheck(typed, expected, tol, wrong, float(np.linalg.det(R)),
                       bool(np.allclose(R.T @ R, np.eye(3), atol=max(tol, 1e-9) * 3)),
                       *(texts if texts is not None else (None, None)))
