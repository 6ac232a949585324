"""Torques panel: each joint's torque along the Poses dock's motion (View ▸ Torques, or the
Poses dock's "Torques…" button).

The motion is the one the timeline plays (:class:`~kinetree.app.features.playback.PlaybackState`: the
checked poses in list order, the chosen seconds per segment); the torques are
:func:`kinetree.core.dynamics.torque_profile.torque_profile`'s — inverse dynamics along the quintic,
motor inertia and friction included — under the robot's gravity, or standard gravity along −z
when it sets none (the header says which, as the Joints panel's gravity torques do). A curve
per joint, its effort limit (URDF ``<limit effort>``) as dashed lines in the curve's colour, and
a table of peaks: joint, peak, when, limit, % of limit, in red when over. On a robot with closed
loops the motion drives the actuated joints (the passive ones follow the loops) and the torques
are the actuators' (inverse dynamics with the loops' constraint forces): a passive joint's row
reads "0 (passive)".

It listens to the playback state, which follows every edit of the robot and of the poses; it
computes only while shown (a hidden panel is marked stale and computed when shown).
"""

from __future__ import annotations

import html

import numpy as np
import pyqtgraph as pg
from kinetree.core import KineTreeError
from kinetree.core.dynamics.torque_profile import DEFAULT_SAMPLES, TorqueProfile, torque_profile
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import fixed_text, short_text
from ..model.text import plain, plain_tip
from .sliders import STANDARD_GRAVITY

#: Curve colours (Tableau 10: told apart on the dark and the light background).
COLORS = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b8860b", "#b07aa1", "#ff9da7", "#9c755f",
          "#bab0ac")
OVER_COLOR = QColor("#d03030")
#: Legend entries per column (more joints: more columns, the plot keeps its height)
LEGEND_ROWS = 6
COLUMNS = ("Joint", "Peak", "at t (s)", "Limit", "% of limit")


def value_text(value: float) -> str:
    """A torque as the table shows it: 3 decimals (no "-0.000", no "1e-17")."""
    return fixed_text(value, 3)


class TorquePanel(QWidget):
    """The plot and the peak table of the playback motion's torques (see the module docstring)."""

    def __init__(self, doc: RobotDocument, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc, self.state = doc, state
        self.profile: TorqueProfile | None = None
        self.stale = True
        self.curves: list[pg.PlotDataItem] = []
        self.limit_lines: dict[str, list[pg.PlotDataItem]] = {}
        self.header = plain(QLabel())  # names the poses
        self.header.setObjectName("torquesHeader")
        self.header.setWordWrap(True)
        self.plot = pg.PlotWidget()
        self.plot.setObjectName("torquesPlot")
        self.plot.setBackground("w")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setLabel("bottom", "t", units="s")
        self.plot.setLabel("left", "τ (N·m, N)")
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.setMinimumSize(260, 160)
        # the legend in a column right of the curves, not over them
        self.legend = pg.LegendItem(labelTextColor="k", colCount=1, horSpacing=8, verSpacing=-8)
        self.plot.getPlotItem().layout.addItem(self.legend, 2, 3)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("torquesPeaks")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 6)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setToolTip("Each joint's largest torque along the motion (signed), when, its effort limit "
                              "(URDF <limit effort>) and the peak in percent of it; red: over the limit")
        body = QSplitter(Qt.Orientation.Horizontal)
        body.setObjectName("torquesSplitter")
        body.setChildrenCollapsible(False)
        body.addWidget(self.plot)
        body.addWidget(self.table)
        body.setStretchFactor(0, 3)
        body.setStretchFactor(1, 2)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.header)
        lay.addWidget(body, 1)
        state.changed.connect(self._motion_changed)
        self._motion_changed()

    # --- computing -----------------------------------------------------------------------------
    def _motion_changed(self) -> None:
        self.stale = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, ev) -> None:  # noqa: N802
        super().showEvent(ev)
        if self.stale:
            self.refresh()

    def gravity(self) -> tuple[np.ndarray, str]:
        """``(gravity, where from)``: the robot's, or standard along −z when it sets none."""
        g = self.doc.tree.gravity
        if np.any(g):
            return g, "the robot's gravity"
        return np.array(STANDARD_GRAVITY), "standard gravity along −z (the robot sets none)"

    def refresh(self) -> None:
        """Compute the profile of the playback motion and show it."""
        self.stale = False
        names = self.state.playable()
        if len(names) < 2:
            self._show(None, "Check two poses or more in the Poses list: the torques are those of the motion "
                             "through them (the timeline's).")
            return
        g, where = self.gravity()
        try:
            prof = torque_profile(self.doc.tree, self.state.waypoints(), self.state.seconds, DEFAULT_SAMPLES, g)
        except KineTreeError as exc:
            self._show(None, f"Torques: {exc}")
            return
        loops = (" Closed loops: the actuated joints' torques (the loops carry the rest); passive joints carry "
                 "none." if any(prof.passive) else "")
        self._show(prof, f"{' → '.join(names)}, {short_text(self.state.seconds, 4)} s per segment; "
                         f"{where} {' '.join(short_text(v, 6) for v in g)} m/s²; motor inertia and friction "
                         "included." + loops)

    def _show(self, prof: TorqueProfile | None, header: str) -> None:
        self.profile = prof
        self.header.setText(header)
        self.plot.clear()
        self.legend.clear()
        self.curves, self.limit_lines = [], {}
        self.table.setRowCount(0)
        if prof is None:
            return
        t = prof.times
        ends = np.array([t[0], t[-1]])
        for d, (name, unit, lim) in enumerate(zip(prof.names, prof.units, prof.limits)):
            color = COLORS[d % len(COLORS)]
            curve = self.plot.plot(t, prof.tau[:, d], pen=pg.mkPen(color, width=2))
            self.legend.addItem(curve, f"{html.escape(name)} ({unit})")  # pyqtgraph shows it as HTML
            self.curves.append(curve)
            if lim is not None:
                dash = pg.mkPen(color, width=1.5, style=Qt.PenStyle.DashLine)
                self.limit_lines[name] = [self.plot.plot(ends, [s * lim, s * lim], pen=dash) for s in (1, -1)]
        self.legend.setColumnCount(max(1, -(-len(self.curves) // LEGEND_ROWS)))
        self.plot.autoRange()
        self._fill_table(prof)
        self._fit_table()

    def _fill_table(self, prof: TorqueProfile) -> None:
        rows = list(zip(prof.names, prof.units, prof.peaks, prof.limits, prof.percent_of_limit(), prof.over_limit()))
        self.table.setRowCount(len(rows))
        for r, (name, unit, peak, lim, pct, over) in enumerate(rows):
            cells = (f"{name} ({unit})", value_text(peak.value), fixed_text(peak.time, 3),
                     "—" if lim is None else short_text(lim, 6),
                     "—" if pct is None else f"{fixed_text(pct, 1)} %")
            if prof.passive and prof.passive[r]:  # a loop's passive joint: no actuator, no torque
                cells = (cells[0], "0 (passive)", "—", cells[3], "—")
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c == 1:
                    item.setToolTip(f"{peak.value!r} {unit}")
                if over:
                    item.setForeground(OVER_COLOR)
                    item.setToolTip(plain_tip(f"{name}: |{value_text(peak.value)}| {unit} is over its effort "
                                              f"limit {short_text(lim, 6)} {unit}"))
                self.table.setItem(r, c, item)
            self.table.item(r, 0).setForeground(OVER_COLOR if over else QColor(COLORS[r % len(COLORS)]))

    def _fit_table(self) -> None:
        """The table as wide as its columns (no horizontal scrolling); the plot takes the rest."""
        self.table.resizeColumnsToContents()
        width = self.table.horizontalHeader().length() + 2 * self.table.frameWidth()
        width += self.table.verticalScrollBar().sizeHint().width()
        self.table.setMinimumWidth(width)

    # --- reading (tests, the status bar) ---------------------------------------------------------
    def table_text(self) -> list[list[str]]:
        """The peak table's cells, row by row."""
        return [[self.table.item(r, c).text() for c in range(self.table.columnCount())]
                for r in range(self.table.rowCount())]
