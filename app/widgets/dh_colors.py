"""The colours of the four DH parameters: one place, shared by the DH table's column headers,
the viewport's DH overlay and the Explain dock, so that a colour means the same parameter
everywhere. Chosen apart from the frame axes (x red, y green, z blue), the joint axes (orange)
and the collision magenta, and readable on the dark and the light background."""

from __future__ import annotations

#: parameter → "#rrggbb"
DH_COLORS: dict[str, str] = {
    "a": "#00b8c8",      # teal: the common normal's length
    "alpha": "#d4a800",  # gold: the twist about x
    "d": "#a060ff",      # violet: the offset along z
    "theta": "#ff4f9a",  # pink: the angle about z
}
#: the DH table's column titles → parameter
COLUMN_PARAMETER = {"a": "a", "α": "alpha", "d": "d", "θ": "theta"}


def rgba(param: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    """A parameter's colour as OpenGL floats."""
    h = DH_COLORS[param].lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255, alpha)
