"""Legible text, in the viewport and the docks alike: the glyph height that reads from the back
of a lecture hall, whether a font's subscripts must be drawn full size, lowered, to reach it, and
for viewport labels WCAG contrast, the plate each label is drawn on, and per-theme text
colours that keep their hue (a θ label stays pink, an a label teal) but reach the contrast.

A label is drawn on a plate (a nearly opaque rectangle in the theme's background colour), so
the background a text is read against is known whatever lies behind it: a light mesh, a grid
line or the dark sky. The contrast is checked against the plate composited over black and over
white (the two extremes of what can be behind it), and must reach :data:`MIN_CONTRAST`, the
WCAG 2 level AA for normal text.
"""

from __future__ import annotations

import colorsys
from functools import lru_cache

from PySide6.QtGui import QColor, QFont, QFontMetricsF

#: WCAG 2 AA for normal text
MIN_CONTRAST = 4.5
#: what :func:`readable` aims at: a little above the minimum, so rounding to 8-bit channels is safe
TARGET_CONTRAST = 4.7
#: the plate under every label, per viewport theme: (r, g, b, alpha) in 0…255
PLATES = {"dark": (22, 24, 30, 225), "light": (252, 252, 252, 225)}

RGB = tuple[float, float, float]


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of an sRGB colour with channels in 0…1."""
    r, g, b = (_linear(min(max(float(c), 0.0), 1.0)) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio (1…21) of two opaque sRGB colours (channels 0…1)."""
    la, lb = luminance(a), luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def over(top: tuple[float, float, float, float], below: RGB) -> RGB:
    """``top`` (with its alpha, 0…1 channels) composited over the opaque ``below``."""
    a = top[3]
    return tuple(a * t + (1 - a) * u for t, u in zip(top[:3], below))  # type: ignore[return-value]


def plate_rgba(theme: str) -> tuple[float, float, float, float]:
    """The theme's label plate as 0…1 channels."""
    return tuple(c / 255 for c in PLATES.get(theme, PLATES["dark"]))  # type: ignore[return-value]


def plate_backgrounds(plate: tuple[float, float, float, float]) -> tuple[RGB, RGB]:
    """What a text on ``plate`` can be read against: the plate over black and over white."""
    return over(plate, (0.0, 0.0, 0.0)), over(plate, (1.0, 1.0, 1.0))


def worst_contrast(color: RGB, plate: tuple[float, float, float, float]) -> float:
    """The lowest contrast of ``color`` on ``plate``, whatever is drawn behind the plate."""
    return min(contrast(color, bg) for bg in plate_backgrounds(plate))


@lru_cache(maxsize=256)
def readable(color: RGB, theme: str) -> RGB:
    """``color`` (0…1 channels) made readable on the theme's plate: its hue and saturation kept,
    its lightness moved (up on the dark theme, down on the light one) only as far as needed to
    reach :data:`TARGET_CONTRAST`."""
    plate = plate_rgba(theme)
    rgb = tuple(float(c) for c in color[:3])
    if worst_contrast(rgb, plate) >= TARGET_CONTRAST:
        return rgb  # type: ignore[return-value]
    h, lightness, s = colorsys.rgb_to_hls(*rgb)
    goal = 1.0 if luminance(plate[:3]) < 0.5 else 0.0
    lo, hi = 0.0, 1.0  # the fraction of the way from the colour's lightness to the goal
    for _ in range(30):
        mid = (lo + hi) / 2
        trial = colorsys.hls_to_rgb(h, lightness + mid * (goal - lightness), s)
        if worst_contrast(trial, plate) >= TARGET_CONTRAST:
            hi = mid
        else:
            lo = mid
    return colorsys.hls_to_rgb(h, lightness + hi * (goal - lightness), s)


def readable_name(color: str, light: bool) -> str:
    """``color`` (``"#rrggbb"``) made readable (WCAG 4.5:1, :func:`readable`) as a widget's text on a
    light (``light``) or a dark background; as ``"#rrggbb"``. The DH parameters' gold α read 1.9:1
    on a light window."""
    return QColor.fromRgbF(*readable(QColor(color).getRgbF()[:3], "light" if light else "dark")).name()


#: a glyph at least this tall reads from the back of a lecture hall (Present mode at 1080 lines)
LEGIBLE_PX = 18
_FULL: dict[str, bool] = {}


def full_size_subscripts(font: QFont) -> bool:
    """Whether ``font`` draws subscripts as full-size characters, lowered: when its digits are
    :data:`LEGIBLE_PX` tall but its subscript digits are not (Present mode: at 24 px a ``₃`` is
    10 px tall, a ``3`` 18 px). Smaller text keeps the Unicode subscripts (full-size digits would
    not reach that height either)."""
    key = font.key()
    full = _FULL.get(key)
    if full is None:
        metrics = QFontMetricsF(font)
        full = _FULL[key] = (metrics.tightBoundingRect("0123456789").height() >= LEGIBLE_PX
                             > metrics.tightBoundingRect("₀₁₂₃₄₅₆₇₈₉").height())
    return full
