"""The Explain dock: A_i as the product of its four elementary motions, stepped through.

Pick a link (it is the document's selection: the overlay draws the same link). A_i is shown as
``Rz(θ)·Tz(d)·Tx(a)·Rx(α)`` (standard DH) or Craig's ``Rx(α)·Tx(a)·Rz(θ)·Tz(d)`` (modified),
each factor and each partial product as a numeric 4×4. Step / Back / Play move a ghost frame in
the viewport (through :class:`~kinetree.app.teach.TeachState`) from frame i − 1 through each
elementary motion to frame i, smoothly. With "from frame 0" the steps run through A_1 … A_i,
so that T_i^0 = A_1⋯A_i builds up link by link.

The lecture walk (:meth:`ExplainPanel.set_walk`, Present mode's clicker) is that same from-frame-0
stepping across the whole chain: step 0 shows the DH table, steps 4(i − 1) + 1 … 4i link i: its
frames alone (the selection, so the overlay and Present mode's emphasis follow), A_i symbolic and
numeric, and T_i⁰ = T_{i−1}⁰·A_i growing, up to T_n⁰ at step 4n.

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
from PySide6.QtGui import QColor, QFontInfo
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

from ..dh_chain import PARAM, SYMBOL, DHChain, cached_chain, chain_tip, elementary, sub, value_text
from ..dh_colors import DH_COLORS
from ..document import RobotDocument
from ..qt_utils import mono_font
from ..text import matrix_text, plain
from ..text_style import full_size_subscripts, readable
from .explain_symbolic import SymbolicView, lecture_html

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

        top = QHBoxLayout()
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
            for titles, cells, row in ((self.factor_titles, self.factor_cells, 0),
                                       (self.partial_titles, self.partial_cells, 2)):
                title = QLabel()
                title.setTextFormat(Qt.TextFormat.RichText)
                cell = QLabel()
                cell.setFont(mono)
                cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
                grid.addWidget(title, row, k)
                grid.addWidget(cell, row + 1, k)
                titles.append(title)
                cells.append(cell)
        self.chain_title = QLabel(wordWrap=True)  # "…, so far: A₁·Rz(θ₂)·Tz(d₂)" widened its column off the dock
        self.chain_title.setTextFormat(Qt.TextFormat.RichText)
        self.chain_cell = QLabel(objectName="explainChain")
        self.chain_cell.setFont(mono)
        self.chain_cell.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        grid.addWidget(self.chain_title, 4, 0, 1, 1)
        grid.addWidget(self.chain_cell, 5, 0, 1, 1, Qt.AlignmentFlag.AlignTop)
        self.message = plain(QLabel(objectName="explainMessage", wordWrap=True))  # quotes names
        self.symbolic = SymbolicView()  # A_i and T_i^j in c/s notation, beside the numeric T_i^0
        self._trace_path, self._traced = os.environ.get(WALK_TRACE), None
        if self._trace_path:  # connected after the view's own slot: runs once the matrices are shown
            self.symbolic.ready.connect(lambda *_a: self._trace())
        grid.addWidget(self.symbolic, 4, 1, 3, 3, Qt.AlignmentFlag.AlignTop)
        grid.setRowStretch(6, 1)

        inner = QWidget()
        body = QVBoxLayout(inner)
        body.addWidget(self.formula)
        body.addLayout(grid)
        body.addWidget(self.message)
        body.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(scroll)
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
        self.symbolic.setVisible(has)
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
            self.factor_titles[k].setText(lecture_html(f"{names[k]} = {self._value(kind, v)}", font))
            self.factor_cells[k].setText(matrix_text(E, "plain", 3))
            product = "·".join(n for n in names[:k + 1])
            self.partial_titles[k].setText(lecture_html(("<b>A" + sub(chain.number(i)) + "</b> = " if k == 3 else "")
                                                        + product, font))
            self.partial_cells[k].setText(matrix_text(P, "plain", 3))
            current = k < here
            self.partial_cells[k].setStyleSheet("border: 2px solid #4da3ff;" if current and k == here - 1
                                                else "border: 2px solid transparent;")
        n = i if self.walking else self.link  # the walk: T_i⁰ grows with the link shown
        chain_names = "·".join(f"A{sub(chain.number(j))}" for j in range(1, n + 1))
        head = f"<b>T{sub(chain.number(n))}{self._sup(chain.number(0))}</b> = {chain_names}"  # the wrist's T₆³
        if self.from_zero.isChecked():  # T_i^0 building up: the ghost's pose in frame 0 so far
            F0 = chain.frames(self.doc.tree, self.doc.configuration)[0]
            so_far = self._ghost_label(math.floor(self.position + 1e-9))
            self.chain_title.setText(lecture_html(f"{head}, so far: {so_far}", font, heading=True))
            self.chain_cell.setText(matrix_text(np.linalg.solve(F0, self.ghost_pose(math.floor(self.position + 1e-9))),
                                                "plain", 4))
        else:
            self.chain_title.setText(lecture_html(head, font, heading=True))
            self.chain_cell.setText(matrix_text(self.chain_product(), "plain", 4))
        self.status.setText(f"step {self.position:.0f} of {self.step_count()}" if self.position == self.target
                            else f"step {self.target:.0f} of {self.step_count()}")
        if self.walking and self.position <= 0:
            self.formula.setText(lecture_html(self._dh_table(), font))
        self.symbolic.show_link(chain, i)  # the link stepped; computed once per link (worker thread, cached)
        self.state.set_ghost(self.ghost_pose() if self.active else None, self._ghost_label())
        if self._trace_path:
            self._trace()

    def trace_record(self) -> dict:
        """What the walk shows at rest: its step, the link and body selected, the formula, Aᵢ's
        symbolic entries (none at the DH table), the numeric Tᵢ⁰ and the joint values."""
        link = self.walk_link()
        return {"step": int(self.position), "of": self.step_count(), "link": link, "selected": self.doc.selection,
                "formula": self.formula.text(), "A": [[c.text() for c in row] for row in self.symbolic.A.cells]
                if link else None, "T": self.chain_cell.text(), "q": self.doc.configuration.tolist()}

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

    def _ghost_label(self, done: int | None = None) -> str:
        """The product of the motions done so far (default: the ghost's, under way included)."""
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
        return prefix + ("A" + sub(self.chain.number(last)) if len(names) == 4 else "·".join(names))

    def _dh_table(self) -> str:
        """The chain's DH table (the walk's first step), the joint variables marked."""
        chain = self.chain
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
                cells.append(f'<td align="right" style="color:{self._color(c)}">&nbsp;{text}&nbsp;</td>')
            rows.append(f"<tr><td>&nbsp;{chain.number(i)}&nbsp;</td>{''.join(cells)}</tr>")
        kind = "standard" if chain.convention == "dh" else "modified (Craig)"
        return (f"<b>DH table</b> ({kind}; * the joint variable)<table><tr><th>link</th>{head}</tr>"
                + "".join(rows) + "</table>")

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
        theme = "light" if self.palette().window().color().lightnessF() > 0.5 else "dark"
        return QColor.fromRgbF(*readable(QColor(DH_COLORS[param]).getRgbF()[:3], theme)).name()

    def changeEvent(self, ev) -> None:  # noqa: N802
        """Present mode's text size: the sub- and superscripts drawn again for it."""
        super().changeEvent(ev)
        if ev.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange) and self.active:
            self._refresh()

    @staticmethod
    def _value(kind: str, v: float) -> str:
        return value_text(PARAM[kind], v)

