"""The printed exercise sheet (Exercise dock ▸ Export sheet…): a PDF with a header (the robot's
display name, name and date lines, a figure of the robot with its DH frames), the exercises,
never one split across a page break, and from a new page the answer key.

Each exercise is laid out as its own block and measured; :func:`paginate` starts a new page
when the next block does not fit the rest of the page (a block taller than a page gets a page
of its own, scaled down to fit).
"""

from __future__ import annotations

import html

import numpy as np
from kinetree.core.dh.chain import joint_variable, subscript
from PySide6.QtCore import QMarginsF, QPointF, QRectF
from PySide6.QtGui import QImage, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

from ..model.dh_chain import SYMBOL
from ..model.exercises import Exercise, answer_texts, entry_quantity, value_text
from ..model.numbers import DEGREES, RADIANS, fixed_text, short_text
from ..widgets.safe_output import atomic_output

HEADERS = ["joint", "a (m)", "α (°)", "d (m)", "θ (°)"]
GAP = 0.03  # space between blocks, a fraction of the page height


def variable_text(joint: str, k: int, offset: float, flip: bool, degrees: bool) -> str:
    """The variable's cell in the lecture's notation (``joint`` R or P): ``θ₂``, ``θ₂ + 90`` (an
    offset, shown unit), ``−d₂`` (a flipped axis)."""
    import math

    sign, name = "−" if flip else "", joint_variable(joint, k)
    if not offset:
        return f"{sign}{name}"
    o = math.degrees(offset) if degrees else offset
    return f"{sign}({name} {'+' if o >= 0 else '−'} {short_text(abs(o), 6)})"


def hidden_rows(exercises: list[Exercise]) -> dict[int, int]:
    """The links whose DH row a sheet asks for, each with the (1-based) number of the first
    exercise asking it: every table on that sheet hides those rows."""
    out: dict[int, int] = {}
    for n, ex in enumerate(exercises, start=1):
        if ex.kind == "row":
            out.setdefault(ex.link, n)
    return out


def table_rows(ex: Exercise, hidden: dict[int, int] | None = None) -> list[list[str]]:
    """The exercise's copy of the DH table: per link the joint, a (m), α (°), d (m), θ (°), the
    variable as ``θₖ``/``dₖ`` (+ offset); the hidden row (``"row"``, and on a sheet every link of
    ``hidden``) as ``?``."""
    import math

    rows = []
    for k, link in enumerate(ex.chain.links, start=1):
        if (ex.kind == "row" and k == ex.link) or k in (hidden or {}):
            rows.append([link.joint_name or f"q{k}", "?", "?", "?", "?"])
            continue
        a, d = short_text(link.a, 6), short_text(link.d, 6)
        alpha, theta = short_text(math.degrees(link.alpha), 6), short_text(math.degrees(link.theta), 6)
        if link.joint == "R":
            theta = variable_text("R", k, link.offset, link.flip, True)
        else:
            d = variable_text("P", k, link.offset, link.flip, False)
        rows.append([link.joint_name or f"q{k}", a, alpha, d, theta])
    return rows


def joint_values_text(ex: Exercise, radians: bool = False) -> str:
    import math

    parts = []
    for k, link in enumerate(ex.chain.links, start=1):
        v = ex.qs[k - 1]
        name = joint_variable(link.joint, k)  # the lecture's θ₁, d₂
        if link.joint == "R":
            parts.append(f"{name} = {value_text(v if radians else math.degrees(v), RADIANS if radians else DEGREES)}")
        else:
            parts.append(f"{name} = {short_text(v, 6)} m")
    return ", ".join(parts)


def matrix_html(M: np.ndarray | None, texts: list[str] | None = None) -> str:
    """A 4×4 as an HTML table: ``texts`` (16 strings) or ``M``'s values, or empty cells."""
    if texts is None:
        texts = ["" for _ in range(16)] if M is None else [fixed_text(v, 4) for v in M.reshape(-1)]
    cells = "".join("<tr>" + "".join(f"<td align='right' width='90'>"
                                     f"{html.escape(texts[4 * r + c]) or '&nbsp;<br/>&nbsp;'}</td>"
                                     for c in range(4)) + "</tr>" for r in range(4))
    return f"<table border='1' cellspacing='0' cellpadding='6'>{cells}</table>"


def exercise_html(ex: Exercise, number: int, radians: bool = False, hidden: dict[int, int] | None = None) -> str:
    """One exercise as HTML for the printed sheet; the rows of ``hidden`` (link → the exercise
    asking it) are ``?`` here too, with a note where this exercise needs them."""
    conv = "standard DH" if ex.chain.convention == "dh" else "modified DH (Craig)"
    table = "".join("<tr>" + "".join(f"<td align='center'>{html.escape(c)}</td>" for c in r) + "</tr>"
                    for r in table_rows(ex, hidden))
    needs = [f"row {k} is the answer to Exercise {n}" for k, n in sorted((hidden or {}).items())
             if n != number and (ex.kind == "pose" or k == ex.link)]
    head = "".join(f"<th>{h}</th>" for h in HEADERS)
    values = "" if ex.kind == "symbolic" else f" Joint values: {html.escape(joint_values_text(ex, radians))}"
    out = [f"<h3>Exercise {number}: {html.escape(ex.title)}</h3>",
           f"<p>{conv}.{values}</p>",
           f"<table border='1' cellspacing='0' cellpadding='4'><tr>{head}</tr>{table}</table>"]
    if needs:
        out.append(f"<p>The table's {html.escape('; '.join(needs))}: solve that first.</p>")
    if ex.kind == "row":
        unit = "rad" if radians else "°"
        out.append(f"<p>A{subscript(ex.link)} =</p>" + matrix_html(ex.given))
        out.append(f"<p>a = ________ m &nbsp; α = ________ {unit} &nbsp; d = ________ m &nbsp; "
                   f"θ = ________ {unit}</p>")
    else:
        out.append("<p>Answer:</p>" + matrix_html(None))
    return "".join(out)


def answer_html(ex: Exercise, number: int, radians: bool = False) -> str:
    texts = answer_texts(ex, radians)
    if ex.kind == "row":
        names = [f"{SYMBOL[p]}{subscript(ex.chain.index(ex.link, p))}" for p in ("a", "alpha", "d", "theta")]
        units = [" m", "", " m", ""]
        body = "<p>" + ", ".join(f"{n} = {html.escape(t)}{u}" for n, t, u in zip(names, texts, units)) + "</p>"
    else:
        body = matrix_html(None, texts)
    return f"<h3>Exercise {number}: {html.escape(ex.title)}</h3>{body}"


def header_html(robot: str, count: int, figure: bool = True) -> str:
    """The sheet's title, name and date lines; the figure is promised only when there is one."""
    title = f"Forward kinematics: {html.escape(robot)}" if robot else "Forward kinematics"
    shows = " The figure shows the robot with its DH frames (without their values)." if figure else ""
    return (f"<h1>{title}</h1>"
            "<p>Name: ______________________________ &nbsp;&nbsp; Date: ______________</p>"
            f"<p>{count} exercise{'s' if count != 1 else ''}. Angles in degrees unless marked; lengths in metres."
            f"{shows}</p>")


def paginate(heights: list[float], page: float, gap: float = 0.0) -> list[list[int]]:
    """Blocks of ``heights`` on pages of height ``page``: a block that does not fit the rest
    of the page starts a new one, so none is split; ``"break"`` blocks (height < 0) force a new page."""
    pages: list[list[int]] = [[]]
    y = 0.0
    for i, h in enumerate(heights):
        if h < 0:  # a forced break
            if pages[-1]:
                pages.append([])
            y = 0.0
            continue
        if pages[-1] and y + h > page:
            pages.append([])
            y = 0.0
        pages[-1].append(i)
        y += h + gap
    return pages


class SheetLayout:
    """The sheet's blocks (HTML or the figure) measured for a page of ``writer``; ``pages`` the
    blocks on each page (indices into ``blocks``)."""

    def __init__(self, writer: QPdfWriter, blocks: list[str | QImage | None]) -> None:
        rect = writer.pageLayout().paintRectPixels(writer.resolution())
        self.width, self.height = float(rect.width()), float(rect.height())
        self.blocks = blocks
        self.docs: list[QTextDocument | None] = []
        heights = []
        for b in blocks:
            if b is None:
                self.docs.append(None)
                heights.append(-1.0)
            elif isinstance(b, QImage):
                self.docs.append(None)
                heights.append(self.figure_size(b)[1])
            else:
                d = QTextDocument()
                d.documentLayout().setPaintDevice(writer)  # points at the PDF's resolution
                d.setHtml(b)
                d.setTextWidth(self.width)
                self.docs.append(d)
                heights.append(d.size().height())
        self.heights = heights
        self.pages = paginate(heights, self.height, GAP * self.height)

    def figure_size(self, image: QImage) -> tuple[float, float]:
        w = self.width * 0.8
        return w, w * image.height() / max(image.width(), 1)

    def draw(self, writer: QPdfWriter) -> None:
        painter = QPainter(writer)
        try:
            for n, page in enumerate(self.pages):
                if n:
                    writer.newPage()
                y = 0.0
                for i in page:
                    h = self.heights[i]
                    scale = min(1.0, self.height / h) if h > 0 else 1.0  # taller than a page: shrunk
                    painter.save()
                    painter.translate(QPointF(0, y))
                    painter.scale(scale, scale)
                    block = self.blocks[i]
                    if isinstance(block, QImage):
                        w, fh = self.figure_size(block)
                        painter.drawImage(QRectF((self.width - w) / 2, 0, w, fh), block)
                    else:
                        self.docs[i].drawContents(painter)
                    painter.restore()
                    y += h * scale + GAP * self.height
        finally:
            painter.end()


def write_sheet(exercises: list[Exercise], path: str, robot: str = "", figure: QImage | None = None,
                radians: bool = False, answers: bool = True) -> SheetLayout:
    """Write the PDF: header and figure, the exercises (each whole on one page), then from a new
    page the answer key (``answers``: an exam's sheet has none). Returns the layout (its pages)
    for the caller to report."""
    has_figure = figure is not None and not figure.isNull()
    blocks: list[str | QImage | None] = [header_html(robot, len(exercises), has_figure)]
    if has_figure:
        blocks.append(figure)
    hidden = hidden_rows(exercises)  # a row one exercise asks for is asked on the whole sheet
    blocks += [exercise_html(ex, n, radians, hidden) for n, ex in enumerate(exercises, start=1)]
    if answers:
        blocks.append(None)
        blocks.append(f"<h1>Answer key{': ' + html.escape(robot) if robot else ''}</h1>")
        blocks += [answer_html(ex, n, radians) for n, ex in enumerate(exercises, start=1)]
    with atomic_output(path) as tmp:  # a failed write leaves the old sheet, never half a PDF
        writer = QPdfWriter(str(tmp))
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout.Unit.Millimeter))
        writer.setTitle(f"KineTree exercises{': ' + robot if robot else ''}")
        writer.setResolution(300)
        layout = SheetLayout(writer, blocks)
        layout.draw(writer)
        del writer  # closes the file
    return layout


__all__ = ["HEADERS", "SheetLayout", "answer_html", "entry_quantity", "exercise_html", "header_html",
           "hidden_rows", "joint_values_text", "paginate", "table_rows", "write_sheet"]
