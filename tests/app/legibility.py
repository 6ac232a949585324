"""Legibility measured on rendered pixels (issue 31): how tall the text drawn in a rectangle of a
grab is, how tall its subscripts are, and its WCAG contrast on its background. Shared by
``test_legibility.py`` and ``tests/benchmarks/bench_present_walk.py``.

Text is what differs from the rectangle's background (its most common colour) by more than
:data:`INK`; its glyphs are the connected components of those pixels (scipy's ``ndimage.label``),
its lines the bands of rows holding text. On each line the baseline is the most common bottom of
its glyphs; measured per line:

- ``height``: its tallest glyph standing on the baseline or lowered below it (a capital, a digit,
  an ascender, a full-size subscript; no parenthesis): the text's size as a reader sees it (a
  24-px font draws 18-px digits);
- ``sub``: its smallest glyph standing on or below the baseline that is smaller than 0.65 of
  ``height`` (a Unicode subscript digit is 0.55 of a digit) or lowered (a subscript drawn full
  size), leaving out what is no letter or digit (narrower than 0.3 of its height, or lower than
  0.45 of the line: a comma, a dot, a minus, a parenthesis) and superscripts (°, ⁰); None if it
  has none;
- ``contrast``: WCAG contrast of the text's colour (the median of its strongest quarter of ink
  pixels: the strokes' cores, not their antialiased edges) on the background.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

INK = 90  # summed |RGB difference| from the background above which a pixel is text


@dataclass
class Line:
    height: int
    sub: int | None
    contrast: float


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of 0…255 sRGB colours (the last axis)."""
    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a, b) -> float:
    la, lb = float(luminance(a)), float(luminance(b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def background(rgb: np.ndarray) -> np.ndarray:
    """The most common colour of an H×W×3 image."""
    flat = rgb.reshape(-1, 3).astype(np.int64)
    keys = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    values, counts = np.unique(keys, return_counts=True)
    k = int(values[counts.argmax()])
    return np.array([k >> 16, (k >> 8) & 255, k & 255])


def ink(rgb: np.ndarray, bg: np.ndarray | None = None) -> np.ndarray:
    bg = background(rgb) if bg is None else bg
    return np.abs(rgb.astype(int) - bg).sum(axis=2) > INK


def text_lines(rgb: np.ndarray, bg: np.ndarray | None = None) -> list[Line]:
    """The lines of text in an H×W×3 image (0…255), measured (see the module's docstring)."""
    bg = background(rgb) if bg is None else np.asarray(bg)
    mask = ink(rgb, bg)
    rows = mask.any(axis=1)
    lines, y = [], 0
    while y < len(rows):
        if not rows[y]:
            y += 1
            continue
        top = y
        while y < len(rows) and rows[y]:
            y += 1
        band = mask[top:y]
        labels, count = ndimage.label(band, structure=np.ones((3, 3)))
        boxes = ndimage.find_objects(labels)
        if count == 0 or y - top < 4:  # a rule, an underline, a stray pixel row: no text
            continue
        tops = np.array([b[0].start for b in boxes])
        bottoms = np.array([b[0].stop for b in boxes])
        heights, widths = bottoms - tops, np.array([b[1].stop - b[1].start for b in boxes])
        solid = heights >= 0.3 * (y - top)  # no dots
        values, counts = np.unique(bottoms[solid] if solid.any() else bottoms, return_counts=True)
        baseline = int(values[counts.argmax()])
        standing = np.abs(bottoms - baseline) <= 1
        lowered = (bottoms > baseline + 1) & (widths >= 0.3 * heights)
        if not (standing | lowered).any():
            continue
        height = int(heights[standing | lowered].max())
        glyph = (widths >= 0.3 * heights) & (heights >= 0.45 * height)
        small = glyph & ((standing & (heights < 0.65 * height)) | lowered)
        sub = int(heights[small].min()) if small.any() else None
        diff = np.abs(rgb[top:y].astype(int) - bg).sum(axis=2)
        strong = rgb[top:y][band & (diff >= np.quantile(diff[band], 0.75))]
        lines.append(Line(height, sub, contrast(np.median(strong, axis=0), bg)))
    return lines


def image_array(image) -> np.ndarray:
    """A QImage as an H×W×3 uint8 array."""
    image = image.convertToFormat(image.Format.Format_RGB32)
    a = np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return a[:, :image.width(), 2::-1].copy()  # BGRA in memory: RGB


@dataclass
class Measured:
    """The smallest figures of one kind of element (labels, DH table, matrices, headings), each
    with where it was measured."""
    height: tuple[int, str] = (10 ** 6, "")
    sub: tuple[int, str] = (10 ** 6, "")
    contrast: tuple[float, str] = (1e9, "")

    def add(self, what: str, lines: list[Line]) -> None:
        for line in lines:
            self.height = min(self.height, (line.height, what))
            if line.sub is not None:
                self.sub = min(self.sub, (line.sub, what))
            self.contrast = min(self.contrast, (round(line.contrast, 2), what))
