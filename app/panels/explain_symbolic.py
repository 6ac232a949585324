"""The Explain dock's symbolic matrices: A_i and T_i^j in the lecture's notation (c1, s12, a2·c12).

They come from :mod:`kinetree.core.teach.symbolic` on the DH chain the dock explains (a serial
chain rebuilt from its rows, so that an extracted URDF chain gets its DH frames, not the
file's), with the joint variables named along that chain: ``q_i`` (or ``θ_i``) for a revolute
joint, ``d_i`` for a prismatic one, in the robot's numbering (a wrist whose joints are named q4…
shows A₄, c4). The options: the DH constants as symbols, as numbers or all four as symbols (the
general A_i of the lecture's eq. (3.10)); T from frame 0 or from any frame j before the link;
q_i or θ_i; sums folded (c12) or expanded; Spong's T₃⁰ or Craig's ⁰T₃. sympy is slow (a Puma T₆⁰
takes 0.1–0.5 s), so the matrices are computed on a worker thread, only for the link shown,
and remembered; the dock says "computing…" meanwhile. Copy as a LaTeX line (``A_{3} = …``), plain
text or a runnable Python (sympy) script.
"""

from __future__ import annotations

import html
import math
import re
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from kinetree.core import KineTreeError
from kinetree.core.dh.chain import chain_numbering, dh_chain, joint_variable
from kinetree.core.lazy import LazyImports
from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF, QGuiApplication
from PySide6.QtWidgets import (
    QBoxLayout,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..model.dh_chain import DHChain, sub
from ..model.numbers import short_text
from ..widgets.qt_utils import mono_font
from ..widgets.text_style import full_size_subscripts

#: the symbolic model imports sympy (~0.5 s): loaded on the worker thread's first A_i (see kinetree.core.lazy)
_SYMPY = LazyImports(__name__, {
    "symbolic_model": "kinetree.core.teach.symbolic:symbolic_model",
    "to_text": "kinetree.core.teach.symbolic:to_text", "to_latex": "kinetree.core.teach.symbolic:to_latex",
    "to_python_script": "kinetree.core.teach.symbolic:to_python_script",
    "matrix_label": "kinetree.core.teach.symbolic:matrix_label",
})

CACHE_SIZE = 32
FORMATS = ("latex", "text", "python")
#: Unicode sub- and superscripts (A₅, θᵢ, T₅⁰) and the full-size characters a lecture's text draws
_LOW, _HIGH = "₀₁₂₃₄₅₆₇₈₉₊₋ᵢⱼ", "⁰¹²³⁴⁵⁶⁷⁸⁹"
_FULL = str.maketrans(_LOW + _HIGH, "0123456789+-ij0123456789")
_SCRIPTS = re.compile(f"[{_LOW}]+|[{_HIGH}]+")
#: a heading at a lecture's text size: this many times the text's size (its glyphs 24 px at 1080 lines)
HEADING = 1.4


def lecture_html(html: str, font: QFont, heading: bool = False) -> str:
    """Rich text the app builds (never user text: see :mod:`..text`), legible at a lecture's text
    size. When ``font`` draws its digits 18 px tall but its Unicode subscripts not (Present mode,
    as for the viewport's labels: :func:`full_size_subscripts`), every sub- and superscript is
    drawn as full-size characters lowered or raised (Qt's rich text draws them at 2/3 of the size
    asked for: asked 3/2), and a ``heading`` :data:`HEADING` times as large. Else unchanged."""
    if not full_size_subscripts(font):
        return html
    px = QFontInfo(font).pixelSize() * (HEADING if heading else 1.0)

    def script(m: re.Match) -> str:
        align = "sub" if m.group(0)[0] in _LOW else "super"
        size = round(1.5 * px)
        return f'<span style="vertical-align:{align}; font-size:{size}px">{m.group(0).translate(_FULL)}</span>'

    out = _SCRIPTS.sub(script, html)
    return f'<span style="font-size:{round(px)}px">{out}</span>' if heading else out


#: in an entry as :func:`~kinetree.core.teach.symbolic_print.to_text` writes it: a symbol's index
#: (a2, c23: digits after a letter), a power, a product's star, a minus and a Greek name (alpha2)
_ENTRY = re.compile(r"(?<=[^\W\d_])\d+|\*\*\d+|\*|-|\b(?:alpha|theta)(?=\d)")
_GREEK = {"alpha": "α", "theta": "θ"}
_SUB_DIGITS, _SUP_DIGITS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"), str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def legible_entry_html(entry: str, font: QFont) -> str:
    """An entry in the lecture's notation (:func:`lecture_entry`) as rich text at a lecture's text
    size (Present mode): its subscripts full-size digits, lowered (:func:`lecture_html`), in lines of
    ``font``'s own height (a lowered digit fits below the baseline there: the rows of a matrix are
    as high as with ``a2*c2``, those of 0 and 1 too)."""
    line = math.ceil(QFontMetricsF(font).lineSpacing())
    return f'<p style="-qt-line-height-type:fixed; line-height:{line}px">{lecture_html(html.escape(entry), font)}</p>'


def lecture_entry(text: str) -> str:
    """A symbolic entry (``a1*c1 - d3*s12``, as ``kinetree symbolic`` prints it) as the lecture
    prints it: indices subscripted, products implicit, minus signs, α and θ (``a₁c₁ − d₃s₁₂``,
    ``−s₂cos(α₂)``)."""

    def notation(m: re.Match) -> str:
        t = m.group(0)
        if t[0].isdigit():
            return t.translate(_SUB_DIGITS)
        if t in _GREEK:
            return _GREEK[t]
        return t[2:].translate(_SUP_DIGITS) if t.startswith("**") else "" if t == "*" else "−"

    return _ENTRY.sub(notation, text)


#: The notation options and their defaults: (revolute variable, sums, how T is written).
DEFAULT_OPTIONS = ("theta", "folded", "spong")


def chain_key(chain: DHChain, i: int, params: str, start: int = 0, options: tuple = DEFAULT_OPTIONS) -> tuple:
    """What A_i and T_i^j depend on: the first ``i`` rows and their joint names (the numbering),
    the convention, ``params``, the frame ``start`` (place on the chain, 0 the base) and the options."""
    rows = tuple((x.joint, x.a, x.alpha, x.d, x.theta, x.offset, x.flip, x.joint_name) for x in chain.links[:i])
    return chain.convention, rows, i, params, start, tuple(options)


def first_number(chain: DHChain) -> int:
    """The number of the chain's first joint: 1, or 4 for joints named q4, q5 … (as core numbers it)."""
    return chain_numbering(list(chain.joints)) + 1


def _pack(model, notation: str) -> dict:
    to_text = _SYMPY.to_text
    M = model.matrix
    order = model.order  # the terms as the lecture writes them (c4*c5*c6 - s4*s6)
    return {"cells": [[to_text(M[r, c], order[r][c]) for c in range(4)] for r in range(4)], "text": to_text(M, order),
            "latex": _SYMPY.to_latex(M, model.label("latex", notation), order),
            "python": _SYMPY.to_python_script(model, model.label("python")),
            "label": model.label("unicode", notation), "frames": model.frames,
            "variables": [(v.name, j) for v, j in zip(model.variables, model.joints)],
            "parameters": {s.name: v for s, v in model.parameters.items()}}


def compute(links: list, convention: str, i: int, params: str, start: int = 0,
            options: tuple = DEFAULT_OPTIONS) -> dict:
    """A_i and T_i^j (j the frame at place ``start`` on the chain) of the chain of ``links`` (its
    first ``i`` rows), packed as texts. Runs on the worker thread: touches nothing but its arguments."""
    symbolic_model = _SYMPY.symbolic_model
    revolute, sums, notation = options
    tree = dh_chain(list(links[:i]), convention)
    body = tree.body_names[i - 1]
    first = chain_numbering(tree.movable_joint_names) + 1
    kw = {"revolute": revolute, "sums": sums}
    A = _pack(symbolic_model(tree, body, params, link=i + first - 1, **kw), notation)
    try:
        T = _pack(symbolic_model(tree, body, params, frame=tree.body_names[start - 1] if start else None, **kw),
                  notation)
    except KineTreeError as exc:  # too many terms (skew axes): A_i alone is still worth showing
        T = f"No symbolic {_SYMPY.matrix_label(i + first - 1, start + first - 1, notation, 'unicode')}: {exc}"
    return {"A": A, "T": T}


class MatrixBlock(QWidget):
    """A title, the Copy buttons and a 4×4 grid of entries (plain text, word-wrapped)."""

    def __init__(self, key: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key  # "A" or "T"
        self.result: dict | None = None
        self.entries: list[list[str]] = [[""] * 4] * 4  # as shown: in the lecture's notation
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        top.addWidget(self.title)
        top.addStretch(1)
        self.copy_buttons: dict[str, QPushButton] = {}
        for fmt, label in zip(FORMATS, ("LaTeX", "Text", "Python")):
            b = QPushButton(label, objectName=f"copy{key}{fmt.capitalize()}")
            b.setToolTip(f"Copy this matrix to the clipboard as {label}")
            b.clicked.connect(lambda _c=False, f=fmt: self.copy(f))
            b.setEnabled(False)
            top.addWidget(b)
            self.copy_buttons[fmt] = b
        mono = mono_font()  # sized by the application font: it grows in Present mode
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        self.cells: list[list[QLabel]] = []
        for r in range(4):
            row = []
            for c in range(4):
                cell = QLabel()
                cell.setTextFormat(Qt.TextFormat.PlainText)
                cell.setFont(mono)
                cell.setWordWrap(True)
                cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                cell.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
                grid.addWidget(cell, r, c)
                row.append(cell)
            self.cells.append(row)
        for c in range(4):
            grid.setColumnStretch(c, 1)
        self.grid = grid
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(grid)

    def unwrapped_in(self, width: int) -> bool:
        """Whether every entry fits on one line when the block is ``width`` pixels wide (its four
        columns share the width equally)."""
        column = (width - 3 * self.grid.horizontalSpacing()) / 4
        font = self.cells[0][0].font()
        metrics = QFontMetricsF(font)
        full = full_size_subscripts(font)  # (drawn full size: as wide as the digits)
        return all(metrics.horizontalAdvance(text.translate(_FULL) if full else text) <= column
                   for row in self.entries for text in row)

    def show_result(self, result: dict | None) -> None:
        """Show ``result``'s entries in the lecture's notation (:func:`lecture_entry`; a ``Text``
        copy is still ``kinetree symbolic``'s), or none. At a lecture's text size (Present mode),
        where Unicode subscripts are 10 px tall, as :func:`legible_entry_html` draws them: full size,
        lowered, in lines of the text's height (lowered in lines of their own height, they made
        each row taller and uneven, the walk's column overflowed at 1280×720)."""
        self.result = result
        self.entries = ([[lecture_entry(text) for text in row] for row in result["cells"]]
                        if result else [[""] * 4] * 4)
        font = self.cells[0][0].font()
        large = full_size_subscripts(font)
        for r in range(4):
            for c in range(4):
                cell = self.cells[r][c]
                cell.setTextFormat(Qt.TextFormat.RichText if large else Qt.TextFormat.PlainText)
                cell.setText(legible_entry_html(self.entries[r][c], font) if large else self.entries[r][c])
        for b in self.copy_buttons.values():
            b.setEnabled(result is not None)

    def changeEvent(self, ev) -> None:  # noqa: N802
        super().changeEvent(ev)
        if ev.type() == QEvent.Type.FontChange and self.result is not None:  # (Present mode: the notation)
            self.show_result(self.result)

    def text(self, fmt: str) -> str:
        """The matrix as ``fmt`` (``latex``, ``text`` or ``python``); empty while not computed."""
        return "" if self.result is None else self.result[fmt]

    def copy(self, fmt: str) -> None:
        if self.result is not None:
            QGuiApplication.clipboard().setText(self.result[fmt])


class SymbolicView(QWidget):
    """A_i beside T₀ⁱ, symbolic; :meth:`show_link` asks for a link (computed off the GUI thread)."""

    ready = Signal(object, object)  # key, result dict or the error's message

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("explainSymbolic")
        self._cache: OrderedDict[tuple, dict | str] = OrderedDict()
        self._pool: ThreadPoolExecutor | None = None
        self._running: tuple | None = None  # the key the worker computes
        self._want: tuple | None = None
        self._pending: tuple | None = None  # (key, arguments) wanted next, while the worker is busy
        self._chain: DHChain | None = None
        self.shown: tuple | None = None  # the key on screen
        self.ready.connect(self._arrived)

        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        head = QLabel(objectName="explainSymbolicHead")
        self.head = head
        top.addWidget(head)
        top.addStretch(1)
        self.status = QLabel(objectName="explainSymbolicStatus")
        top.addWidget(self.status)
        options = QHBoxLayout()
        options.setContentsMargins(0, 0, 0, 0)
        self.params = self._combo(options, "explainParams", [
            ("constants as symbols (a₂, d₃)", "symbolic"), ("constants as numbers", "numeric"),
            ("general A_i (αᵢ, aᵢ, dᵢ, θᵢ all symbols)", "general")],
            "Lengths and angles of the DH rows as symbols, as in the lecture's tables (right angles stay "
            "numbers), as this robot's numbers, or every DH constant a symbol: the lecture's general A_i, eq. (3.10)")
        self.start = self._combo(options, "explainFrom", [("from frame 0", 0)],
                                 "T in the base frame (T_i⁰ = A₁…A_i) or in frame j of the chain (T_iʲ = A_j+1…A_i)")
        self.revolute = self._combo(options, "explainRevolute", [("revolute: θ_i", "theta"), ("revolute: q_i", "q")],
                                    "The name of a revolute joint's variable (a prismatic joint's is d_i)")
        self.sums = self._combo(options, "explainSums", [("sums folded (c₁₂)", "folded"),
                                                         ("sums expanded (c₁c₂ − s₁s₂)", "expanded")],
                                "Sums of joint angles folded into c₁₂, s₁₂ or written out, in the whole matrix")
        self.notation = self._combo(options, "explainNotation", [("T₃⁰ (Spong, the lecture)", "spong"),
                                                                 ("⁰T₃ (Craig)", "craig")],
                                    "How T between two frames is written")
        options.addStretch(1)
        self._show_head()
        self.revolute.activated.connect(self._show_head)
        self.A, self.T = MatrixBlock("A"), MatrixBlock("T")
        self.blocks = blocks = QHBoxLayout()
        blocks.addWidget(self.A, 2)
        blocks.addSpacing(18)
        blocks.addWidget(self.T, 3)
        self._options = options
        self.legend = QLabel(objectName="explainSymbolicLegend", wordWrap=True)
        self.legend.setTextFormat(Qt.TextFormat.PlainText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.addLayout(top)
        layout.addLayout(options)
        layout.addLayout(blocks)
        layout.addWidget(self.legend)
        self._i = 1
        self._frames_of: tuple | None = None
        self._compact = False

    def set_compact(self, on: bool) -> None:
        """The lecture walk's column: the matrices one above the other, without the options, the
        Copy buttons and the legend (the room is the matrices'; the options stay as they were set).
        Tᵢ⁰ is then shown only when the walk says it fits (:meth:`show_t`)."""
        self._compact = on = bool(on)
        self.blocks.setDirection(QBoxLayout.Direction.TopToBottom if on else QBoxLayout.Direction.LeftToRight)
        self.layout().setContentsMargins(0, 0 if on else 6, 0, 0)
        self.blocks.itemAt(1).spacerItem().changeSize(0 if on else 18, 0)  # (between A and T, beside each other)
        options = [self._options.itemAt(k).widget() for k in range(self._options.count())]
        # (Aᵢ's title too: the walk's heading above says which matrix it is)
        for w in (self.head, self.legend, self.A.title, *(w for w in options if w is not None),
                  *self.A.copy_buttons.values(), *self.T.copy_buttons.values()):
            w.setVisible(not on)
        self.T.setVisible(not on)
        self._status(self.status.text())

    def _status(self, text: str) -> None:
        """"computing…" or nothing; in the walk's column the line is there only while computing."""
        self.status.setText(text)
        self.status.setVisible(bool(text) or not self._compact)

    def show_t(self, on: bool) -> None:
        """Tᵢ⁰ symbolic shown (in the walk's column: where it fits) or not."""
        self.T.setVisible(bool(on))

    def changeEvent(self, ev) -> None:  # noqa: N802
        """Present mode's text size: the titles' sub- and superscripts drawn again for it."""
        super().changeEvent(ev)
        if ev.type() == QEvent.Type.FontChange and self.shown is not None and self.shown in self._cache:
            self._display(self.shown, self._cache[self.shown])

    def _show_head(self, *_args) -> None:
        """The shorthand in the chosen variable's name: the lecture's θ₁, or q₁."""
        v1, v2 = ((joint_variable("R", k) for k in (1, 2)) if self.revolute.currentData() == "theta"
                  else ("q₁", "q₂"))
        self.head.setText(f"<b>Symbolic</b> (lecture notation: c₁ = cos {v1}, s₁₂ = sin({v1}+{v2}))")

    def _combo(self, row: QHBoxLayout, name: str, items: list, tip: str) -> QComboBox:
        box = QComboBox(objectName=name)
        for text, data in items:
            box.addItem(text, data)
        box.setToolTip(tip)
        box.activated.connect(lambda _r: self._chain and self.show_link(self._chain, self._i))
        row.addWidget(box)
        return box

    def _frames(self, chain: DHChain, i: int) -> None:
        """The "from frame j" entries for link i: frames 0 … i−1 in the chain's numbering."""
        first = first_number(chain)
        same = (tuple(chain.bodies), chain.convention) == self._frames_of  # another chain: from its base again
        self._frames_of = (tuple(chain.bodies), chain.convention)
        keep = (self.start.currentData() or 0) if same else 0
        entries = [(f"from frame {j + first - 1}" + (" (base)" if j == 0 else ""), j) for j in range(i)]
        if [self.start.itemText(k) for k in range(self.start.count())] != [text for text, _ in entries]:
            self.start.clear()
            for text, j in entries:
                self.start.addItem(text, j)
        self.start.setCurrentIndex(min(keep, i - 1))

    @property
    def busy(self) -> bool:
        """A computation is under way (or wanted and not yet on screen)."""
        return (self._want is not None and self.shown != self._want) or self._running is not None

    def _job(self, chain: DHChain, i: int, start: int) -> tuple[tuple, tuple]:
        """The cache key of A_i and T_i^start of ``chain`` with the options chosen, and :func:`compute`'s arguments."""
        options = (self.revolute.currentData(), self.sums.currentData(), self.notation.currentData())
        key = chain_key(chain, i, self.params.currentData(), start, options)
        return key, (list(chain.links), chain.convention, i, key[3], start, options)

    def show_link(self, chain: DHChain, i: int) -> None:
        """Show A_i and T₀ⁱ of ``chain`` (from the cache, else once the worker has them)."""
        self._chain, self._i = chain, i
        self._frames(chain, i)
        key, args = self._job(chain, i, self.start.currentData() or 0)
        self._want = key
        if key == self.shown:
            return
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            self._display(key, hit)
            return
        self._status("computing…")
        if key == self._running:
            return
        self._pending = (key, args)
        if self._running is None:
            self._start()

    def prefetch(self, chain: DHChain, i: int) -> None:
        """Compute A_i and T_i⁰ of ``chain`` on the worker now, shown nowhere, for a later
        :meth:`show_link` to find in the cache: Present mode asks for the walk's first link when it is
        entered, the first computation (importing sympy, ~1 s of the GIL) then off the first key's way."""
        key, args = self._job(chain, i, 0)
        if key in self._cache or key == self._running or self._pending is not None:
            return
        self._pending = (key, args)
        if self._running is None:
            self._start()

    def _start(self) -> None:
        """Hand the pending computation to the worker (one at a time: the last one asked for)."""
        key, args = self._pending
        self._pending = None
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kinetree-symbolic")
        self._running = key
        future = self._pool.submit(compute, *args)

        def done(f) -> None:  # on the worker thread: the signal queues it to the GUI thread
            exc = f.exception()
            if exc is None:
                result = f.result()
            else:  # shown instead of the matrices (too many terms, a joint without a symbolic form)
                result = f"No symbolic matrices: {exc}" if isinstance(exc, KineTreeError) else repr(exc)
            try:
                self.ready.emit(key, result)
            except RuntimeError:  # the dock is gone (window closed): nobody to tell
                pass

        future.add_done_callback(done)

    def _arrived(self, key: tuple, result) -> None:
        self._running = None
        self._cache[key] = result
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        if key == self._want:
            self._display(key, result)
        if self._pending is not None and self._pending[0] not in self._cache:
            self._start()
        else:
            self._pending = None

    def _display(self, key: tuple, result) -> None:
        self.shown = key
        chain, i = self._chain, self._i
        if isinstance(result, str):
            self.A.show_result(None)
            self.T.show_result(None)
            self._status("")
            self.legend.setText(result)
            return
        T = result["T"] if isinstance(result["T"], dict) else None
        A = result["A"]
        self.A.show_result(A)
        self.T.show_result(T)
        self._status("")
        font = self.font()
        kind = "standard" if chain.convention == "dh" else "modified"
        self.A.title.setText(lecture_html(f"<b>{A['label']}</b> ({kind} DH)", font, heading=True))
        n = A["frames"][1]
        j = T["frames"][0] if T else n - i + key[4]
        product = "·".join(f"A{sub(k)}" for k in range(j + 1, n + 1))
        self.T.title.setText(lecture_html(f"<b>{T['label']}</b> = {product}" if T else product, font, heading=True))
        variables = ", ".join(f"{name} = {joint}" for name, joint in A["variables"])
        values = ", ".join(f"{name} = {short_text(value)}" for name, value in (T or A)["parameters"].items())
        self.legend.setText(("" if T else f"{result['T']}\n") + f"Variables: {variables}."
                            + (f"  Constants: {values}." if values else ""))
