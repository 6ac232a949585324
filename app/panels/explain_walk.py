"""The lecture walk's column in the Explain dock (Present mode's clicker, issue 31), and the DH
table its first step shows.

During the walk the dock is a column on the right of the view (:data:`~kinetree.app.features.present.WALK_SHARE`
of the width) showing the step's block alone, one matrix above the other: the heading Aᵢ =
Rz·Tz·Tx·Rx (the DH table at step 0), Aᵢ in the lecture's notation, Aᵢ at the current q, Tᵢ⁰ =
Tᵢ₋₁⁰·Aᵢ growing (numeric) and Tᵢ⁰ symbolic where it fits whole. The widgets are the dock's own,
moved here for the walk and back after it: what the dock computes and the tests read is the same.
At 1080 lines the dock across the bottom left the view a strip of 350 px and Aᵢ, Tᵢ⁰ below its
fold; the column keeps the view its full height and nothing in it scrolls, at 1280×720 too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kinetree.core.dh.chain import joint_variable
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QBoxLayout, QGridLayout, QVBoxLayout, QWidget

from ..model.dh_chain import SYMBOL, DHChain, value_text

if TYPE_CHECKING:
    from .explain import ExplainPanel


class WalkColumn(QWidget):
    """The walk's column of ``panel`` (hidden but during the walk); ``grid`` and ``body`` are the
    layouts the widgets it borrows live in otherwise."""

    def __init__(self, panel: ExplainPanel, grid: QGridLayout, body: QBoxLayout) -> None:
        super().__init__(objectName="explainWalk")
        self.panel, self._grid, self._body = panel, grid, body
        self._fitted: tuple | None = None
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addStretch(1)
        self.hide()
        self.place(False)
        panel.symbolic.ready.connect(lambda *_a: self.fit())

    def movable(self) -> tuple[QWidget, ...]:
        """What the column shows, in its order: the heading (the DH table at step 0), Aᵢ in the
        lecture's notation, Aᵢ at the current q, Tᵢ⁰ numeric, Tᵢ⁰ symbolic (where it fits)."""
        p = self.panel
        return (p.formula, p.symbolic, p.partial_titles[3], p.partial_cells[3], p.chain_title, p.chain_cell,
                p.symbolic.T, p.message)

    def place(self, walk: bool) -> None:
        """Move the widgets the walk shows into the column (``walk``) or to their places in the dock."""
        p, grid, body, column, blocks = self.panel, self._grid, self._body, self.layout(), self.panel.symbolic.blocks
        for w in self.movable():
            for layout in (grid, body, column, blocks):
                layout.removeWidget(w)
        self._fitted = None
        if walk:
            for k, w in enumerate(self.movable()):
                column.insertWidget(k, w)
            return
        body.insertWidget(0, p.formula)
        body.insertWidget(2, p.message)
        grid.addWidget(p.partial_titles[3], 2, 3)
        grid.addWidget(p.partial_cells[3], 3, 3)
        grid.addWidget(p.chain_title, 4, 0, 1, 1)
        grid.addWidget(p.chain_cell, 5, 0, 1, 1, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(p.symbolic, 4, 1, 3, 3, Qt.AlignmentFlag.AlignTop)
        blocks.addWidget(p.symbolic.T, 3)

    def fit(self) -> None:
        """Tᵢ⁰ symbolic shown only where it fits whole, each entry on one line (a Puma's T₆⁰ does
        not): nothing in the column scrolls or is cut."""
        p = self.panel
        T = p.symbolic.T
        if not p.walking:
            return
        key = (p.symbolic.shown, self.size().toTuple(), p.walk_link() > 0, p.font().key())
        if key == self._fitted:
            return
        self._fitted = key
        T.setVisible(T.result is not None and p.walk_link() > 0 and T.unwrapped_in(self.width()))
        if T.isHidden():
            return
        layout = self.layout()
        layout.invalidate()
        width = self.width()
        need = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
        if need > self.height() or layout.totalMinimumSize().width() > width:
            T.hide()

    def resizeEvent(self, ev) -> None:  # noqa: N802
        super().resizeEvent(ev)
        QTimer.singleShot(0, self, self.fit)  # once the layout has given the borrowed widgets their sizes


def dh_table_html(chain: DHChain, color) -> str:
    """The chain's DH table (the walk's first step), the joint variables marked; ``color(param)``
    the colour of a DH parameter's column."""
    cols = ("theta", "d", "a", "alpha")
    head = "".join(f"<th>&nbsp;{SYMBOL[c]}&nbsp;</th>" for c in cols)
    rows = []
    for i, x in enumerate(chain.links, start=1):
        variable = "theta" if x.joint == "R" else "d"
        cells = []
        for c in cols:
            if c == variable:
                off = "" if abs(x.offset) < 1e-12 else f" + {value_text(c, x.offset)}"
                # the lecture's θ₁*, d₃*; the mark raised (Qt lowered it with a full-size subscript before it)
                star = '<span style="vertical-align:super">*</span>'
                text = f"<b>{joint_variable(x.joint, chain.index(i, c))}</b>{star}{off}"
            else:
                text = value_text(c, getattr(x, c))
            cells.append(f'<td align="right" style="color:{color(c)}">&nbsp;{text}&nbsp;</td>')
        rows.append(f"<tr><td>&nbsp;{chain.number(i)}&nbsp;</td>{''.join(cells)}</tr>")
    kind = "standard" if chain.convention == "dh" else "modified (Craig)"
    return (f"<b>DH table</b> ({kind})<br>* the joint variable<table><tr><th>link</th>{head}</tr>"
            + "".join(rows) + "</table>")
