"""The Explain dock: A_i as the product of its four elementary motions, stepped through.

Pick a link (it is the document's selection: the overlay draws the same link). A_i is shown as
``Rz(θ)·Tz(d)·Tx(a)·Rx(α)`` (standard DH) or Craig's ``Rx(α)·Tx(a)·Rz(θ)·Tz(d)`` (modified),
each factor and each partial product as a numeric 4×4. Step / Back / Play move a ghost frame in
the viewport (through :class:`~kinetree.app.features.teach.TeachState`) from frame i − 1 through each
elementary motion to frame i, smoothly. With "from frame 0" the steps run through A_1 … A_i,
so that T_i^0 = A_1⋯A_i builds up link by link.

The lecture walk (:meth:`ExplainPanel.set_walk`, Present mode's clicker) is that same from-frame-0
stepping across the whole chain: step 0 shows the DH table, steps 4(i − 1) + 1 … 4i link i: its
frames alone (the selection, so the overlay and Present mode's emphasis follow), A_i symbolic and
numeric, and T_i⁰ = T_{i−1}⁰·A_i growing, up to T_n⁰ at step 4n; the dock then shows that block
alone, in a column (:mod:`.explain_walk`).

A test hook: with the environment variable ``KINETREE_WALK_TRACE`` naming a file, each step the
walk comes to rest on (its symbolic matrices shown) is appended to that file as one JSON line of
what the dock shows (:meth:`ExplainPanel.trace_record`): journey tests drive the app through the
window system and cannot read its widgets otherwise. Unset (always, but in tests), nothing is written.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.dh.chain import joint_variable
from PySide6.QtCore import QElapsedTimer, QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..model.dh_chain import PARAM, SYMBOL, DHChain, cached_chain, chain_tip, elementary, sub, value_text
from ..model.document import RobotDocument
from ..model.text import matrix_text, plain
from ..widgets.dh_colors import DH_COLORS
from ..widgets.qt_utils import mono_font
from ..widgets.text_style import full_size_subscripts, readable_name
from .explain_symbolic import SymbolicView, lecture_html
from .explain_walk import WalkColumn, dh_table_html

STEP_MS = 700  # one elementary motion, animated
WALK_TRACE = "KINETREE_WALK_TRACE"  # the test hook's environment variable (see the module's docstring)
TICK_MS = 16
FACTOR = {"Rz": "Rz", "Rx": "Rx", "Tz": "Tz", "Tx": "Tx"}


def smoothstep(t: float) -> float:
    t = min(max(t, 0.0), 1.0)
    return t * t * (3 - 2 * t)


class ExplainPanel(QWidget):
    """Step-through of A_i for the selected link; read-only (it changes the selection only)."""

    motionFinished = Signal()  # the ghost came to rest on the last step asked for

    def __init__(self, doc: RobotDocument, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("explainPanel")
        self.doc, self.state = doc, state
        self.chain: DHChain | None = None
        self._tip: str | None = None  # the tip of the chain shown
        self.link = 1
        self.position = 0.0  # steps done (fractional while animating)
        self.target = 0.0
        self.playing = False
        self.active = False  # the dock is shown: the ghost is drawn
        self.walking = False  # the lecture walk: links 1…n from frame 0, the selection following the step
        self._walk_saved = False  # "from frame 0" as it was before the walk
        self.stale = True  # the document changed while the dock was hidden: reload when shown
        self._from = self._to = 0.0  # the elementary motion under way: from and to (steps)
        self._clock = QElapsedTimer()
        self._ticks = 0
        self.timer = QTimer(self, interval=TICK_MS, timeout=self._tick)

        self.controls = QWidget(objectName="explainControls")  # hidden during the walk (its keys step)
        top = QHBoxLayout(self.controls)
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel("Link"))
        self.combo = QComboBox(objectName="explainLink")
        self.combo.activated.connect(self._picked)
        top.addWidget(self.combo)
        self.from_zero = QCheckBox("from frame 0 (Tᵢ⁰ = A₁⋯Aᵢ)", objectName="explainFromZero")
        self.from_zero.toggled.connect(lambda _on: self.reset())
        top.addWidget(self.from_zero)
        self.convention = QComboBox(objectName="explainConvention")
        self.convention.addItem("standard DH (extracted)", "dh")
        self.convention.addItem("modified DH (extracted)", "mdh")
        for combo in (self.combo, self.convention):  # long body names: the row still fits a 1280×800 window
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(11)
        self.convention.setToolTip("This chain has no DH rows of its own: the DH table extract_dh computes, "
                                   "in either convention (the viewport's overlay follows)")
        self.convention.activated.connect(lambda _r: state.set_convention(self.convention.currentData()))
        state.conventionChanged.connect(lambda _c: self._changed(self._reload))
        state.stepThroughRequested.connect(self._step_through)
        top.addWidget(self.convention)
        top.addStretch(1)
        self.back_button = QPushButton("◀ Back", objectName="explainBack", clicked=self.back)
        self.step_button = QPushButton("Step ▶", objectName="explainStep", clicked=self.step)
        self.play_button = QPushButton("Play", objectName="explainPlay", checkable=True)
        self.play_button.toggled.connect(self.play)
        self.reset_button = QPushButton("Reset", objectName="explainReset", clicked=self.reset)
        for b in (self.back_button, self.step_button, self.play_button, self.reset_button):
            top.addWidget(b)
        self.status = QLabel(objectName="explainStatus")
        top.addWidget(self.status)

        self.formula = QLabel(objectName="explainFormula")
        self.formula.setTextFormat(Qt.TextFormat.RichText)
        mono = mono_font()  # sized by the application font: it grows in Present mode
        grid = QGridLayout()
        self.factor_titles, self.factor_cells, self.partial_titles, self.partial_cells = [], [], [], []
        for k in range(4):
            for titles, cells in ((self.factor_titles, self.factor_cells), (self.partial_titles, self.partial_cells)):
                title = QLabel()
                title.setTextFormat(Qt.TextFormat.RichText)
                cell = QLabel()
                cell.setFont(mono)
                cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                if k < 3 or titles is self.factor_titles:  # A_i itself: placed by WalkColumn (the walk moves it)
                    grid.addWidget(title, 2 * (titles is self.partial_titles), k)
                    grid.addWidget(cell, 2 * (titles is self.partial_titles) + 1, k)
                titles.append(title)
                cells.append(cell)
        self.chain_title = QLabel(wordWrap=True)  # "…, so far: A₁·Rz(θ₂)·Tz(d₂)" widened its column off the dock
        self.chain_title.setTextFormat(Qt.TextFormat.RichText)
        self.chain_cell = QLabel(objectName="explainChain")
        self.chain_cell.setFont(mono)
        self.chain_cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message = plain(QLabel(objectName="explainMessage", wordWrap=True))  # quotes names
        self.symbolic = SymbolicView()  # A_i and T_i^j in c/s notation, beside the numeric T_i^0
        self._trace_path, self._traced = os.environ.get(WALK_TRACE), None
        if self._trace_path:  # connected after the view's own slot: runs once the matrices are shown
            self.symbolic.ready.connect(lambda *_a: self._trace())
        grid.setRowStretch(6, 1)

        inner = QWidget()
        body = QVBoxLayout(inner)
        body.addLayout(grid)
        body.addStretch(1)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(inner)
        # the lecture walk's column (Present mode): the step's block alone, nothing to scroll
        self.walk_column = WalkColumn(self, grid, body)
        layout = QVBoxLayout(self)
        m = layout.contentsMargins()
        self._margins = (m.left(), m.top(), m.right(), m.bottom())
        layout.addWidget(self.controls)
        layout.addWidget(self.scroll)
        layout.addWidget(self.walk_column)
        # hidden (the default), the dock does nothing: on a 1000-body tree a reload costs an
        # extract_dh of the selected chain (~100 ms) on every edit; it reloads when shown
        doc.treeChanged.connect(lambda _c: self._changed(self._reload))
        doc.configurationChanged.connect(lambda *_a: self._changed(self._refresh))
        doc.selectionChanged.connect(lambda _n: self._changed(self._follow_selection))

    def _changed(self, update) -> None:
        """Run ``update`` now when the dock is shown; else remember to reload when it is."""
        if self.active:
            update()
        else:
            self.stale = True

    # --- chain and link ----------------------------------------------------------------------
    def _reload(self) -> None:
        self.stale = False
        tree = self.doc.tree
        self._tip = chain_tip(tree, self.doc.selection)
        try:
            self.chain = cached_chain(tree, self._tip, self.state.convention)
            problem = ""
        except KineTreeError as exc:
            self.chain, problem = None, str(exc)
        self.combo.blockSignals(True)
        self.combo.clear()
        if self.chain is not None:
            for i, body in enumerate(self.chain.bodies, start=1):
                self.combo.addItem(f"{i}: {body}", body)
        self.combo.blockSignals(False)
        self.message.setText(f"No DH table: {problem}" if problem else "")
        self.message.setVisible(bool(problem))  # (its empty line took the walk's column 20 px)
        self.convention.setVisible(self.chain is not None and self.chain.extracted)
        self.convention.setCurrentIndex(0 if self.state.convention == "dh" else 1)
        self._follow_selection(reset=True)

    def _follow_selection(self, reset: bool = False) -> None:
        chain, tree = self.chain, self.doc.tree
        selection = self.doc.selection
        # the walk selects the link it shows (None at the DH table): that is no other chain
        walked = self.walking and chain is not None and (selection is None or selection in chain.bodies)
        if not reset and not walked and chain_tip(tree, selection) != self._tip:
            self._reload()  # a body on another branch: its own chain
            return
        link = chain.link_of(tree, selection) if chain else None
        if self.walking and chain is not None:
            link = chain.count  # the walk spans the chain: the selection follows the step, not the reverse
            picked = chain.bodies.index(selection) + 1 if walked and selection is not None else 0
            if not reset and picked and picked != self.walk_link():  # a link picked (combo, view): go there
                if self.playing:
                    self.play_button.setChecked(False)
                self.timer.stop()
                self.position = self.target = 4.0 * picked  # its A done: T_picked⁰ shown
        if link is not None and link != self.link:
            self.link, reset = link, True
        if chain is not None:
            self.link = min(max(self.link, 1), chain.count)
            self.combo.setCurrentIndex(self.link - 1)
        if reset:
            self.reset()
        else:
            self._refresh()

    def _picked(self, row: int) -> None:
        if self.chain is not None and 0 <= row < self.chain.count:
            self.doc.select(self.chain.bodies[row])  # the one selection: the overlay draws it too
            if self.walking:  # the walk went to that link (selectionChanged)
                return
            self.link = row + 1
            self.reset()

    # --- the steps ---------------------------------------------------------------------------
    def step_count(self) -> int:
        return 4 * (self.link if self.from_zero.isChecked() else 1)

    def _motions(self) -> list[tuple[int, str, float]]:
        """(link, kind, value) of every step, in order."""
        chain, tree = self.chain, self.doc.tree
        qs = chain.variables(tree, self.doc.configuration)
        first = 1 if self.from_zero.isChecked() else self.link
        return [(j, kind, v) for j in range(first, self.link + 1) for kind, v in chain.steps(j, qs[j - 1])]

    def start_frame(self) -> np.ndarray:
        """Where the steps start, in the tree base: frame 0, or frame i − 1."""
        F = self.chain.frames(self.doc.tree, self.doc.configuration)
        return F[0] if self.from_zero.isChecked() else F[self.link - 1]

    def ghost_pose(self, position: float | None = None) -> np.ndarray:
        """The ghost frame after ``position`` steps (fractional: part way through one)."""
        p = self.position if position is None else position
        T = self.start_frame()
        for k, (_j, kind, v) in enumerate(self._motions()):
            t = min(max(p - k, 0.0), 1.0)
            if t <= 0:
                break
            T = T @ elementary(kind, t * v)
        return T

    def shown_link(self) -> int:
        """The link whose A is shown: the one picked, or (from frame 0) the one being stepped."""
        if not self.from_zero.isChecked():
            return self.link
        return max(1, min(self.link, math.ceil(self.position / 4 - 1e-9)))

    def factors(self, link: int | None = None) -> list[np.ndarray]:
        """The four elementary matrices of A_link (default: the picked link), in order."""
        j = self.link if link is None else link
        qs = self.chain.variables(self.doc.tree, self.doc.configuration)
        return [elementary(kind, v) for kind, v in self.chain.steps(j, qs[j - 1])]

    def partial_products(self, link: int | None = None) -> list[np.ndarray]:
        """E₁, E₁E₂, E₁E₂E₃, E₁E₂E₃E₄ = A_link."""
        out, P = [], np.eye(4)
        for E in self.factors(link):
            P = P @ E
            out.append(P)
        return out

    def chain_product(self) -> np.ndarray:
        """T_i^0 = A₁⋯A_i (frame i in DH frame 0)."""
        F = self.chain.frames(self.doc.tree, self.doc.configuration)
        return np.linalg.solve(F[0], F[self.link])

    # --- controls ----------------------------------------------------------------------------
    def set_active(self, on: bool) -> None:
        """The dock shown (ghost drawn) or hidden (ghost gone, animation stopped)."""
        self.active = bool(on)
        if not on:
            self.play_button.setChecked(False)
            self.timer.stop()
            self.position = self.target
            if self.state.ghost is not None:
                self.state.set_ghost(None)
            return
        if self.stale:
            self._reload()
        else:
            self._refresh()

    def hideEvent(self, ev) -> None:  # noqa: N802
        if not self.window().isVisible():  # the window closed: no timer moving a ghost nobody sees
            self.set_active(False)
        super().hideEvent(ev)

    def _go(self, target: float) -> None:
        self.target = float(min(max(target, 0), self.step_count()))
        if not self.timer.isActive():
            self._segment()
        elif (self._to - self._from) * (self.target - self.position) <= 0:
            self._segment()  # Back during a step forward (or the reverse): turn round where the ghost is
        self._refresh()

    def _segment(self) -> None:
        """Animate the next elementary motion (or what is left of it) towards the target."""
        p = self.position
        if p == self.target:
            self.timer.stop()
            return
        if self.target > p:
            self._to = min(math.floor(p + 1e-9) + 1.0, self.target)
        else:
            self._to = max(math.ceil(p - 1e-9) - 1.0, self.target)
        self._from, self._ticks = p, 0
        self._clock.start()
        self.timer.start()

    def step(self) -> None:
        """One elementary motion on; during a motion it is queued after the steps still to come."""
        self._go(self.target + 1)

    def back(self) -> None:
        """One elementary motion back (queued as :meth:`step` is)."""
        self._go(self.target - 1)

    def play(self, on: bool) -> None:
        self.playing = bool(on)
        if on:
            if self.position >= self.step_count():
                self.position = self.target = 0.0
            self.step()
        self.play_button.setText("Pause" if on else "Play")

    def _step_through(self, from_zero: bool) -> None:
        """Play the selected link's motions from the start (asked for through the state)."""
        self.from_zero.setChecked(from_zero)
        self.reset()
        self.play_button.setChecked(True)

    def set_walk(self, on: bool) -> None:
        """Begin (at step 0, the DH table) or end the lecture walk across the whole chain."""
        if bool(on) == self.walking:
            return
        self.walking = bool(on)
        # the column: the step's block alone, no controls (the clicker steps), nothing to scroll
        self.walk_column.place(self.walking)
        self.symbolic.set_compact(self.walking)
        self.formula.setWordWrap(self.walking)
        self.controls.setVisible(not self.walking)
        self.layout().setContentsMargins(*((4,) * 4 if self.walking else self._margins))
        self.scroll.setVisible(not self.walking)
        self.walk_column.setVisible(self.walking)
        if on:
            self._walk_saved = self.from_zero.isChecked()
            if self.chain is not None:
                self.link = self.chain.count
            self.from_zero.blockSignals(True)
            self.from_zero.setChecked(True)
            self.from_zero.blockSignals(False)
        else:
            self.from_zero.blockSignals(True)
            self.from_zero.setChecked(self._walk_saved)
            self.from_zero.blockSignals(False)
            self.state.set_solo(False)
            self._follow_selection(reset=True)
            return
        self.reset()

    def first(self) -> None:
        """The first step at once (Home): frame 0, or the DH table in the walk."""
        self.reset()

    def last(self) -> None:
        """The last step at once (End), not animated through every motion on the way."""
        self.timer.stop()
        if self.playing:
            self.play_button.setChecked(False)
        self.position = self.target = float(self.step_count())
        self._refresh()
        self.motionFinished.emit()

    def walk_link(self) -> int:
        """The link the walk shows: 0 at the DH table (step 0), else the one being stepped."""
        return 0 if self.position <= 0 else self.shown_link()

    def reset(self) -> None:
        self.timer.stop()
        self.position = self.target = 0.0
        if self.playing:
            self.play_button.setChecked(False)
        self._refresh()

    def _tick(self) -> None:
        # by the clock (a motion takes STEP_MS), but at most four ticks' worth per tick: on a machine
        # too slow to draw a frame a tick, the motion still shows its way, not a jump
        self._ticks += 1
        elapsed = min(self._clock.elapsed(), 4 * TICK_MS * self._ticks)
        t = smoothstep(elapsed / (STEP_MS * max(abs(self._to - self._from), 1e-9)))
        self.position = self._from + (self._to - self._from) * t
        if t >= 1.0:
            self.position = self._to
            self.timer.stop()
            if self.position != self.target:
                self._segment()  # the next queued step
            elif self.playing and self.position < self.step_count():
                self.step()
            else:
                if self.playing:
                    self.play_button.setChecked(False)
                self.motionFinished.emit()
        self._refresh()

    # --- display -----------------------------------------------------------------------------
    def _refresh(self) -> None:
        if not self.active:  # hidden: shown again, it reloads (the chain may be out of date)
            self.stale = True
            return
        chain = self.chain
        has = chain is not None
        if has and self.walking:  # the link shown is the one selected: its overlay alone, emphasised
            shown = self.walk_link()
            body = chain.bodies[shown - 1] if shown else None
            self.state.set_solo(shown > 0)
            if self.doc.selection != body:
                self.doc.select(body)  # selectionChanged refreshes (this link is no other chain)
                return
        for b in (self.back_button, self.step_button, self.play_button, self.reset_button):
            b.setEnabled(has)
        # the walk's DH table (step 0) is a slide of its own: no matrices beside it
        matrices = not self.walking or self.walk_link() > 0
        self.symbolic.setVisible(has and matrices)
        for w in (self.partial_titles[3], self.partial_cells[3], self.chain_title, self.chain_cell):
            if w.isHidden() == matrices:
                w.setVisible(matrices)
        if not has:
            self.state.set_ghost(None)
            for cell in (*self.factor_cells, *self.partial_cells, self.chain_cell):
                cell.clear()
            self.formula.clear()
            self.status.clear()
            return
        i = self.shown_link()
        qs = chain.variables(self.doc.tree, self.doc.configuration)
        steps = chain.steps(i, qs[i - 1])
        names = [self._factor_name(i, kind) for kind, _ in steps]
        font = self.font()
        # room below: a label's height leaves out how far a full-size subscript is lowered (it was cut)
        room = QFontInfo(font).pixelSize() // 3 if full_size_subscripts(font) else 0
        for title in (self.formula, self.chain_title, *self.factor_titles, *self.partial_titles):
            title.setContentsMargins(0, 0, 0, room)
        self.formula.setText(lecture_html(f"<b>A{sub(chain.number(i))}</b> = " + " · ".join(names)
                                          + ("" if chain.convention == "dh" else " &nbsp;(modified DH, Craig)")
                                          + (" &nbsp;<i>(DH frames from extract_dh)</i>" if chain.extracted else ""),
                                          font, heading=True))
        done = int(math.floor(self.position + 1e-9))
        first = 0 if not self.from_zero.isChecked() else 4 * (i - 1)  # steps before A_i's
        here = done - first  # steps of A_i done (negative: still in an earlier link)
        for k, ((kind, v), E, P) in enumerate(zip(steps, self.factors(i), self.partial_products(i))):
            if self.walking and k < 3:  # the walk's column shows A_i alone (all are filled when it ends)
                continue
            if not self.walking:
                self.factor_titles[k].setText(lecture_html(f"{names[k]} = {self._value(kind, v)}", font))
                self.factor_cells[k].setText(matrix_text(E, "plain", 3))
            product = "·".join(n for n in names[:k + 1])
            if k == 3 and self.walking:  # the walk's column is narrow: the product is the heading above
                product = f"at {self._variable(i, steps)}"
            self.partial_titles[k].setText(lecture_html(("<b>A" + sub(chain.number(i)) + "</b> " if k == 3 else "")
                                                        + ("= " if k == 3 and not self.walking else "") + product,
                                                        font))
            self.partial_cells[k].setText(matrix_text(P, "plain", 3))
            sheet = "border: 2px solid #4da3ff;" if k == here - 1 else "border: 2px solid transparent;"
            if self.partial_cells[k].styleSheet() != sheet:  # (setting one restyles the label: ~1 ms each)
                self.partial_cells[k].setStyleSheet(sheet)
        n = i if self.walking else self.link  # the walk: T_i⁰ grows with the link shown
        chain_names = "·".join(f"A{sub(chain.number(j))}" for j in range(1, n + 1))
        head = f"<b>{self._t0(n)}</b> = {chain_names}"  # the wrist's T₆³
        if self.walking:  # the column is narrow: Tᵢ⁰ = Tᵢ₋₁⁰·Aᵢ, a matrix's title (the formula is the heading)
            so_far = self._ghost_label(done, folded=True)
            whole = so_far == (f"{self._t0(n - 1)}·" if n > 1 else "") + f"A{sub(chain.number(n))}"
            self.chain_title.setText(lecture_html(f"<b>{self._t0(n)}</b> " + ("= " if whole else "so far: ")
                                                  + so_far, font))
        elif self.from_zero.isChecked():
            self.chain_title.setText(lecture_html(f"{head}, so far: {self._ghost_label(done)}", font, heading=True))
        else:
            self.chain_title.setText(lecture_html(head, font, heading=True))
        if self.from_zero.isChecked():  # T_i^0 building up: the ghost's pose in frame 0 so far
            F0 = chain.frames(self.doc.tree, self.doc.configuration)[0]
            # (3 digits in the walk's column: a 4×4 of signed 4-digit numbers is as wide as it at 1280×720)
            self.chain_cell.setText(matrix_text(np.linalg.solve(F0, self.ghost_pose(done)), "plain",
                                                3 if self.walking else 4))
        else:
            self.chain_cell.setText(matrix_text(self.chain_product(), "plain", 4))
        self.status.setText(f"step {self.position:.0f} of {self.step_count()}" if self.position == self.target
                            else f"step {self.target:.0f} of {self.step_count()}")
        if self.walking and self.position <= 0:
            self.formula.setText(lecture_html(dh_table_html(chain, self._color), font))
        if self.walking and self.formula.wordWrap() != (self.position > 0):  # (the heading Aᵢ = … wraps at 720)
            # the DH table's lines are its own: wrapped, the dock's layout measured its height for
            # each width it tried (~25 ms of the walk's first key at 24-px text)
            self.formula.setWordWrap(self.position > 0)
        self.symbolic.show_link(chain, i)  # the link stepped; computed once per link (worker thread, cached)
        self.walk_column.fit()
        self.state.set_ghost(self.ghost_pose() if self.active else None, self._ghost_label())
        if self._trace_path:
            self._trace()

    def trace_record(self) -> dict:
        """What the walk shows at rest: its step, the link and body selected, the formula, Aᵢ's
        symbolic entries (none at the DH table), the numeric Tᵢ⁰ and the joint values."""
        link = self.walk_link()
        return {"step": int(self.position), "of": self.step_count(), "link": link, "selected": self.doc.selection,
                "formula": self.formula.text(), "A": self.symbolic.A.entries if link else None,
                "T": self.chain_cell.text(), "q": self.doc.configuration.tolist()}

    def _trace(self) -> None:
        """The test hook: the walk's step appended to the trace file once it is at rest and shown."""
        if (not self.walking or self.chain is None or self.timer.isActive() or self.position != self.target
                or self.symbolic.busy):
            return
        line = json.dumps(self.trace_record(), ensure_ascii=False)
        if line != self._traced:
            self._traced = line
            with open(self._trace_path, "a", encoding="utf-8") as f:
                f.write(line + "\n")

    def _ghost_label(self, done: int | None = None, folded: bool = False) -> str:
        """The product of the motions done so far (default: the ghost's, under way included);
        ``folded``: the links done before the last one as one Tⱼ⁰ (A₁·A₂·Rz(θ₃) as T₂⁰·Rz(θ₃))."""
        done = math.ceil(self.position - 1e-9) if done is None else done
        if done == 0:
            return f"frame {self.chain.number(0 if self.from_zero.isChecked() else self.link - 1)}"
        motions = self._motions()[:done]
        full = [j for j in range(motions[0][0], motions[-1][0] + 1)
                if sum(m[0] == j for m in motions) == 4 and j != motions[-1][0]]
        last = motions[-1][0]
        names = [f"{kind}({SYMBOL[PARAM[kind]]}{sub(self.chain.index(last, PARAM[kind]))})"
                 for j, kind, _ in motions if j == last]
        prefix = "".join(f"A{sub(self.chain.number(j))}·" for j in full)
        if folded and full and full[0] == 1:
            prefix = f"{self._t0(full[-1])}·"
        return prefix + ("A" + sub(self.chain.number(last)) if len(names) == 4 else "·".join(names))

    def _t0(self, j: int) -> str:
        """Tⱼ⁰ in the chain's numbering (the wrist's T₆³)."""
        return f"T{sub(self.chain.number(j))}{self._sup(self.chain.number(0))}"

    def _variable(self, i: int, steps: list) -> str:
        """Link i's joint variable at the current q, in the lecture's notation: θ₂ = 45°, d₃ = 0.300 m."""
        x = self.chain.links[i - 1]
        kind = "Rz" if x.joint == "R" else "Tz"
        v = next(v for k, v in steps if k == kind)
        return f"{joint_variable(x.joint, self.chain.index(i, PARAM[kind]))} = {self._value(kind, v)}"

    @staticmethod
    def _sup(i: int) -> str:
        return str(i).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))

    def _factor_name(self, i: int, kind: str) -> str:
        param = PARAM[kind]
        sym = f"{SYMBOL[param]}{sub(self.chain.index(i, param))}"
        return f'<span style="color:{self._color(param)}"><b>{FACTOR[kind]}</b>({sym})</span>'

    def _color(self, param: str) -> str:
        """A DH parameter's colour (as in the viewport) made readable (WCAG 4.5:1) on the dock's
        background: the raw gold of α was 1.9:1 on a light window."""
        return readable_name(DH_COLORS[param], self.palette().window().color().lightnessF() > 0.5)

    def changeEvent(self, ev) -> None:  # noqa: N802
        """Present mode's text size: the sub- and superscripts drawn again for it."""
        super().changeEvent(ev)
        if ev.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange) and self.active:
            self._refresh()

    @staticmethod
    def _value(kind: str, v: float) -> str:
        return value_text(PARAM[kind], v)

