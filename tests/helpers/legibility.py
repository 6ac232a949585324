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
- ``sub``: its smallest glyph standing on the baseline that is smaller than 0.65 of the tallest
  one standing there (a Unicode subscript digit is 0.55 of a digit, a lowercase x 0.75) or
  lowered (a subscript drawn full size), leaving out what is no letter or digit (narrower than
  0.3 of its height, or lower than 0.45 of that tallest one: a comma, a dot, a minus, a
  parenthesis) and superscripts (°, ⁰); None if it has none;
- ``contrast``: WCAG contrast of the text's colour (the median of its strongest quarter of ink
  pixels: the strokes' cores, not their antialiased edges) on the background.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import ndimage

INK = 90  # summed |RGB difference| from the background above which a pixel is text
#: issue 31's figures: text and subscripts at least this tall (pixels), headings, WCAG contrast
MIN_PX, HEADING_PX, MIN_CONTRAST = 18, 24, 4.5
#: pixels of a plate's padding a line may touch: a label's own leader line ends on its plate's edge
TOUCH = 6
#: a label of these letters only (an axis's x, z) has no capital or digit to measure its size by
X_HEIGHT = set("acemnorsuvwxz,")


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
        cap = int(heights[standing].max()) if standing.any() else height  # a capital's, a digit's
        glyph = (widths >= 0.3 * heights) & (heights >= 0.45 * cap)
        small = glyph & ((standing & (heights < 0.65 * cap)) | lowered)
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


def crop(image: np.ndarray, r, inset: int = 0) -> np.ndarray:
    """The pixels of ``image`` inside the QRectF ``r`` (less ``inset`` on each side)."""
    x0, y0 = int(np.ceil(r.left())) + inset, int(np.ceil(r.top())) + inset
    x1, y1 = int(r.right()) - inset, int(r.bottom()) - inset
    return image[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)]


def widget_lines(widget) -> list:
    """The lines of text a widget shows (none if it is scrolled out of sight), measured on its
    own grab, inside the border a style sheet gives it (the matrix the step is at)."""
    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return []
    rgb = image_array(widget.grab().toImage())
    r, b = widget.contentsRect(), 3 if widget.styleSheet() else 0
    return text_lines(rgb[r.top() + b:r.bottom() + 1 - b, r.left() + b:r.right() + 1 - b])


def plate_ring_marks(image: np.ndarray, rect, pad: float, plate, own=None) -> int:
    """Pixels in a plate's padding (between its edge and its text) unlike the plate: something
    drawn over it (a 3-D line, another label's leader). What shows through the plate from behind
    differs by at most its 12 % translucency (< 100 summed over the channels); the label's own
    leader and dot (``own``: their point, or None) end at its edge."""
    box = crop(image, rect, 1)  # (the plate's outermost pixel column is its edge, blended with what is behind)
    p = int(pad) - 2
    if p < 1 or box.shape[0] < 2 * p + 10 or box.shape[1] < 2 * p + 10:
        return 0
    marked = np.abs(box.astype(float) - np.asarray(plate[:3]) * 255).sum(axis=2) > 150
    inner = np.zeros_like(marked)
    corner = 5  # rounded corners
    inner[p:-p, p:-p] = True
    inner[:corner, :corner] = inner[:corner, -corner:] = inner[-corner:, :corner] = inner[-corner:, -corner:] = True
    if own is not None:  # the own leader's dot (radius: a tenth of the label's height) and its line's end
        ys, xs = np.mgrid[:box.shape[0], :box.shape[1]]
        x0, y0 = int(np.ceil(rect.left())) + 1, int(np.ceil(rect.top())) + 1
        inner |= np.hypot(xs + x0 - own.x(), ys + y0 - own.y()) < rect.height() / 10 + 4
    return int((marked & ~inner).sum())


def measure(w) -> dict:
    """Every kind of text on the screen now, measured; and the label boxes' overlaps and marks."""
    from kinetree.app.viewport.label_layout import pad_of
    from kinetree.app.widgets.text_style import plate_rgba
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFontMetricsF

    vp, panel = w.viewport, w.explain
    out = {k: Measured() for k in ("labels", "dh table", "matrices", "headings")}
    frame = image_array(vp.grabFramebuffer())
    placed = list(vp._label_layout.placed)
    for p in placed:
        if not set(p.text) <= X_HEIGHT:
            out["labels"].add(f"label {p.text!r}", text_lines(crop(frame, p.rect, 1)))
    overlaps = [(a.text, b.text) for i, a in enumerate(placed) for b in placed[i + 1:]
                if a.rect.intersected(b.rect).width() > 0.5 and a.rect.intersected(b.rect).height() > 0.5]
    marks = {}
    for p in placed:
        n = plate_ring_marks(frame, p.rect, p.pad, p.plate, p.anchor if p.leader else None) if p.pad >= 2 else 0
        if n > TOUCH:
            marks[p.text] = n
    legend = w.dh_overlay.text.legend
    if legend:  # the legend's plate: its lines' box and the padding round them
        lines = w.dh_overlay.text.drawn[:len(legend)]
        box = QRectF(lines[0][1])
        for _, r in lines[1:]:
            box = box.united(r)
        pad = pad_of(QFontMetricsF(w.dh_overlay.text.font).height())
        n = plate_ring_marks(frame, box.adjusted(-pad, -pad, pad, pad), pad, plate_rgba(vp.theme))
        if n > TOUCH:
            marks["legend"] = n
    if panel.walking and panel.position == 0:
        out["dh table"].add("the walk's DH table", widget_lines(panel.formula))
    else:
        out["headings"].add("the heading Aᵢ = …", widget_lines(panel.formula))
    for cell in (*panel.factor_cells, *panel.partial_cells, panel.chain_cell,
                 *(c for block in (panel.symbolic.A, panel.symbolic.T) for row in block.cells for c in row)):
        out["matrices"].add("a matrix", widget_lines(cell))
    # a matrix's name, over it (the walk's column has one heading, Aᵢ's formula: Tᵢ⁰'s is a title there)
    for title in (*panel.factor_titles, *panel.partial_titles, *([panel.chain_title] if panel.walking else [])):
        out["matrices"].add(f"the title {title.text()[:40]!r}", widget_lines(title))
    for title in ([] if panel.walking else [panel.chain_title]) + [panel.symbolic.A.title, panel.symbolic.T.title]:
        out["headings"].add(f"the heading {title.text()[:40]!r}", widget_lines(title))
    return {"measured": out, "overlaps": overlaps, "marks": marks}


def unicode_scripts(html: str) -> str:
    """Rich text from :func:`kinetree.app.panels.explain_symbolic.lecture_html` with its full-size
    sub- and superscripts written as Unicode ones again (``A₅``, ``T₅⁰``), to compare with."""
    import re

    low, high = str.maketrans("0123456789+-ij", "₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼ"), str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    return re.sub(r'<span style="vertical-align:(sub|super); font-size:\d+px">([^<]*)</span>',
                  lambda m: m.group(2).translate(low if m.group(1) == "sub" else high), html)
