"""Simulate: let the robot go (View ▸ Simulate, key S).

The robot falls from the configuration it had when Play (or Step) was first pressed, under the
tree's gravity (standard gravity along −z when the robot sets none, and the panel says so),
with Corke's joint friction (on/off) and its joint limits as hard stops
(:class:`~kinetree.core.simulation.simulator.Simulator`, RK4 at 1 kHz). While playing, a worker thread
(:class:`~.sim_runner.SimRunner`) advances the simulator by as many 1 ms steps as real time went
by, and a timer at the display rate shows the configuration it last published; the readouts
follow at :data:`READOUT_MS`. While the thread falls behind real time the frame period grows (up
to :data:`SLOWEST_TICK_MS`) to leave it the CPU. A slow machine slows the simulation (the
real-time factor says so) instead of freezing the window.

On a robot with closed loops each step solves the constrained dynamics and puts the robot back
on its loops (:mod:`kinetree.core.dynamics.loops`), on the Python path rather than the compiled
step (each RK4 stage one compiled call), and the note under the readouts says so.

Simulating is not an edit: the robot is shown with ``preview_configuration`` (no undo step, the
document stays unmodified), as playback does. "Keep this pose" is one undo step from the
configuration the simulation started at. Closing the dock puts the robot back where it started
unless the pose was kept; any edit of the robot (or a joint moved by hand) ends the simulation.
"""

from __future__ import annotations

import numpy as np
from kinetree.core import KineTreeError, compiled_warmup
from kinetree.core.simulation.simulator import STANDARD_GRAVITY, Simulator
from PySide6.QtCore import QElapsedTimer, Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import short_text
from ..model.text import plain
from .sim_runner import SimRunner

#: timer period while playing (ms): about a display frame; each tick shows the latest state
TICK_MS = 16
#: the longest frame period (ms) while the simulation thread falls behind real time: drawing
#: fewer frames leaves it the CPU (the frame rate adapts between TICK_MS and this)
SLOWEST_TICK_MS = 100
#: the energy, time and real-time readouts while playing are refreshed this often (ms): text
#: that changes at the frame rate cannot be read, and each refresh costs a frame some time
READOUT_MS = 100
DEFAULT_KP, DEFAULT_KD = 2000.0, 100.0
#: the note while the first Play waits for numba (30–60 s on a fresh install, seconds once cached)
COMPILING = "Compiling the simulator (first run only)…"


def _energy_text(value: float) -> str:
    return f"{short_text(round(value, 4))} J"


class SimulatePanel(QWidget):
    """Play/Pause, Step, Reset, Keep this pose, Hold (Kp, Kd), friction, and the readouts."""

    def __init__(self, doc: RobotDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.sim: Simulator | None = None
        self.runner: SimRunner | None = None  # steps self.sim on a worker thread while playing
        self._compiling = False  # the first Play waits for the compiled kernels (see _wait_for_compiler)
        self._compiled = False  # waited once: no more checks
        self._shown: np.ndarray | None = None  # what the simulation last showed through the document
        self._shown_time = -1.0
        self._previewing = False  # our own preview is changing the document's configuration
        self._readout_clock = QElapsedTimer()
        self._rate_clock = QElapsedTimer()
        self._rate_start = 0.0
        self._dropped = 0.0  # the runner's dropped time at the last tick
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

        def button(text: str, name: str, tip: str) -> QPushButton:
            b = QPushButton(text)
            b.setObjectName(name)
            b.setToolTip(tip)
            return b

        self.play_button = button("Play", "simPlayButton", "Let the robot go from here, in real time (1 ms steps)")
        self.play_button.setCheckable(True)
        self.play_button.toggled.connect(self.play)
        self.step_button = button("Step", "simStepButton", "One 1 ms step (paused)")
        self.step_button.clicked.connect(self.step_once)
        self.reset_button = button("Reset", "simResetButton", "Back to the configuration the simulation started from")
        self.reset_button.clicked.connect(self.reset)
        self.keep_button = button("Keep this pose", "simKeepButton",
                                  "Make the simulated configuration the robot's (one undo step)")
        self.keep_button.clicked.connect(self.keep)
        self.hold = QCheckBox("Hold")
        self.hold.setObjectName("simHoldCheck")
        self.hold.setToolTip("PD control with gravity compensation: τ = Kp·(q* − q) − Kd·q̇ + g(q), q* the "
                             "configuration when Hold was ticked")
        self.hold.toggled.connect(self._hold_changed)
        self.kp, self.kd = QDoubleSpinBox(), QDoubleSpinBox()
        for box, name, value, unit, tip in ((self.kp, "simKp", DEFAULT_KP, "Kp", "N·m/rad (N/m on a slider)"),
                                            (self.kd, "simKd", DEFAULT_KD, "Kd", "N·m·s/rad (N·s/m on a slider)")):
            box.setObjectName(name)
            box.setRange(0.0, 1e6)
            box.setDecimals(1)
            box.setValue(value)
            box.setPrefix(f"{unit} ")
            box.setToolTip(f"{unit}, the same for every joint: {tip}")
            box.valueChanged.connect(lambda _v: self._hold_changed(self.hold.isChecked()))
        self.friction = QCheckBox("Friction")
        self.friction.setObjectName("simFrictionCheck")
        self.friction.setChecked(True)
        self.friction.setToolTip("Each joint's viscous and Coulomb friction (Joint panel ▸ motor); off: a "
                                 "frictionless run, whose energy stays constant")
        self.friction.toggled.connect(self._friction_changed)
        self.readout: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        rows = (("kinetic", "Kinetic"), ("potential", "Potential"), ("total", "Total"), ("drift", "Drift"),
                ("time", "Time"), ("rate", "Real time"))
        for k, (key, label) in enumerate(rows):
            value = QLabel("—")
            value.setObjectName(f"sim_{key}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.readout[key] = value
            grid.addWidget(QLabel(label), k % 3, 2 * (k // 3))
            grid.addWidget(value, k % 3, 2 * (k // 3) + 1)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.readout["drift"].setToolTip("(E − E₀ − W) / the energy in play, W the work friction, Hold and the "
                                         "stops did: the integrator's error (~1e-9 without Hold)")
        self.readout["rate"].setToolTip("Simulated seconds per real second (below 1: the computer cannot keep up)")
        self.note = plain(QLabel())  # errors quote names
        self.note.setObjectName("simNote")
        self.note.setWordWrap(True)
        top = QHBoxLayout()
        for w in (self.play_button, self.step_button, self.reset_button):
            top.addWidget(w)
        hold_row = QHBoxLayout()
        for w in (self.hold, self.kp, self.kd):
            hold_row.addWidget(w)
        last = QHBoxLayout()
        last.addWidget(self.friction)
        last.addStretch(1)
        last.addWidget(self.keep_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        for row in (top, hold_row, last):
            lay.addLayout(row)
        lay.addLayout(grid)
        lay.addWidget(self.note)
        lay.addStretch(1)
        doc.treeChanged.connect(lambda _change: self.stop(restore=False))
        doc.configurationChanged.connect(self._configuration_changed)
        self._update()

    # --- the simulation ------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def _simulator(self) -> Simulator | None:
        """The running simulation, started from the document's configuration when there is none."""
        if self.sim is None:
            tree = self.doc.tree
            gravity = tree.gravity if np.any(tree.gravity) else np.array(STANDARD_GRAVITY)
            try:
                self.sim = Simulator(tree, self.doc.configuration, gravity=gravity,
                                     friction=self.friction.isChecked())
                if self.hold.isChecked():
                    self.sim.hold(self.kp.value(), self.kd.value())
                self.runner = SimRunner(self.sim)
            except KineTreeError as exc:
                self.sim = self.runner = None
                self._say(str(exc))
                return None
            where = "the robot's gravity" if np.any(tree.gravity) else "standard gravity along −z (the robot sets none)"
            g = ", ".join(short_text(v) for v in gravity)
            loops = len(tree.loops)
            self._say(f"g = ({g}) m/s², {where}" + (
                f". Closed loops ({loops}): each step solves the constrained dynamics and re-closes the loops, "
                "on the Python path (each stage compiled, the step in Python), so a large mechanism may run slower "
                "than real time"
                if loops else ""))
        return self.sim

    def play(self, on: bool) -> None:
        """Run in real time, or pause (the robot stays where the simulation has it)."""
        if self.play_button.isChecked() != on:
            self.play_button.setChecked(on)
            return
        if on and self.sim is None and not self._compiled and not compiled_warmup.ready():
            self._wait_for_compiler()
            return
        if on and self._simulator() is None:
            self.play_button.setChecked(False)
            return
        self.play_button.setText("Pause" if on else "Play")
        if on:
            self._rate_clock.start()
            self._readout_clock.start()
            self._rate_start = self.sim.time
            self._dropped = self.runner.dropped
            self.runner.start()
            self._timer.start(TICK_MS)
        else:
            self._timer.stop()
            if self.runner is not None:
                self.runner.stop()
                self._show()  # where the thread stopped
        self._update()

    def _wait_for_compiler(self) -> None:
        """The first Play before the compiled kernels are ready: they compile on the warm-up
        thread (the one the window started, or a new one) while the window stays responsive and
        the dock says so; Play goes on once they are ready (unless Pause was pressed meanwhile)."""
        self.play_button.setText("Pause")
        self._say(COMPILING)
        if self._compiling:
            return  # already waiting
        self._compiling = True
        thread = compiled_warmup.warm_up_in_background()

        def check() -> None:
            if thread.is_alive() and not compiled_warmup.ready():
                QTimer.singleShot(100, self, check)
                return
            self._compiling, self._compiled = False, True  # ready (or failed: then it compiles at first use)
            if self.note.text() == COMPILING:
                self._say("")
            if self.play_button.isChecked():
                self.play(True)

        QTimer.singleShot(100, self, check)

    def step_once(self) -> None:
        """One step, paused."""
        self.play(False)
        if self._simulator() is not None:
            self._advance(1)
            self._update()

    def reset(self) -> None:
        """Back to the start (the simulation goes on from there if playing)."""
        if self.sim is not None:
            with self.runner.held():  # between two of the thread's steps
                self.sim.reset()
                if self.hold.isChecked():
                    self._set_hold(True)
            self.runner.publish()
            self._show()
            self._rate_clock.start()
            self._rate_start = 0.0
        self._update()

    def keep(self) -> None:
        """The simulated configuration becomes the robot's: one undo step from where it started."""
        if self.sim is None:
            return
        was_playing = self.playing
        self.play(False)
        q = self.sim.q
        self.stop(restore=True)  # the document back at the start, so that the step goes from there
        self.doc.set_configuration(q, "Keep simulated pose")
        if was_playing:
            self.play(True)

    def stop(self, restore: bool = True) -> None:
        """End the simulation: the robot back where it started (``restore``), or left as the
        document has it (an edit came)."""
        self._timer.stop()
        if self.runner is not None:
            self.runner.stop()
        self.play_button.blockSignals(True)
        self.play_button.setChecked(False)
        self.play_button.setText("Play")
        self.play_button.blockSignals(False)
        sim, self.sim, self.runner, self._shown = self.sim, None, None, None
        if restore and sim is not None and sim.start_configuration.shape == self.doc.configuration.shape:
            self.doc.preview_configuration(sim.start_configuration)
        self._update()

    def _advance(self, n: int) -> None:
        """``n`` steps here (paused: the thread is not running)."""
        try:
            self.sim.step(n)
        except KineTreeError as exc:
            self._say(str(exc))
        self.runner.publish()
        self._show()

    def _show(self) -> None:
        """Show the state the simulation last published (a copy: the thread never touches it)."""
        q, t = self.runner.snapshot()
        self._shown, self._shown_time = q, t
        self._previewing = True
        try:
            self.doc.preview_configuration(q)
        finally:
            self._previewing = False
        # a looped robot's document re-closes what it is shown (to ~1e-13): that is what it shows now
        self._shown = self.doc.configuration

    def _tick(self) -> None:
        runner = self.runner
        if runner is None:
            self._timer.stop()
            return
        if runner.error is not None:  # it diverged: the thread has stopped
            error = runner.error
            self.play(False)
            self._say(str(error))
            return
        self._pace(runner)
        if runner.snapshot()[1] != self._shown_time:  # a frame only when the robot moved
            self._show()
        if self._readout_clock.elapsed() >= READOUT_MS:
            self._readout_clock.start()
            self._update()

    def _pace(self, runner: SimRunner) -> None:
        """Fewer frames while the thread falls behind real time, more again once it keeps up:
        real time first, then the frame rate (the drawing and the physics share the CPU)."""
        behind = runner.dropped > self._dropped
        self._dropped = runner.dropped
        period = self._timer.interval()
        period = min(SLOWEST_TICK_MS, period + 8) if behind else max(TICK_MS, period - 2)
        if period != self._timer.interval():
            self._timer.setInterval(period)

    # --- settings --------------------------------------------------------------------------------
    def _hold_changed(self, on: bool) -> None:
        if self.sim is None:
            return
        with self.runner.held():  # between two of the thread's steps
            self._set_hold(on)

    def _set_hold(self, on: bool) -> None:
        try:
            if on:
                self.sim.hold(self.kp.value(), self.kd.value(),
                              target=self.sim.hold_target if self.sim.holding else self.sim.q)
            else:
                self.sim.release()
            n = self.sim.substeps
            if n > 1:
                self._say(f"Hold: {n} internal steps per {self.sim.dt * 1e3:g} ms (the gains are stiff for this "
                          "robot's lightest joint): lower Kd, and Kp, to run faster")
        except KineTreeError as exc:
            self._say(str(exc))
            self.hold.blockSignals(True)
            self.hold.setChecked(False)
            self.hold.blockSignals(False)
            self.sim.release()

    def _friction_changed(self, on: bool) -> None:
        if self.sim is not None:
            with self.runner.held():
                self.sim.set_friction(on)
            self._update()

    def _configuration_changed(self) -> None:
        # a joint moved by hand (a slider, Undo): the simulation's start no longer holds
        if self._previewing:
            return
        if self.sim is not None and (self._shown is None or not np.array_equal(self.doc.configuration, self._shown)):
            if self._shown is not None:
                self.stop(restore=False)

    # --- readouts ----------------------------------------------------------------------------------
    def _say(self, text: str) -> None:
        self.note.setText(text)

    def _update(self) -> None:
        sim = self.sim
        self.keep_button.setEnabled(sim is not None and sim.time > 0)
        self.reset_button.setEnabled(sim is not None)
        r = self.readout
        if sim is None:
            for label in r.values():
                label.setText("—")
            return
        with self.runner.held():  # the energy uses the simulator's model, as a step does
            e, t = sim.energy(), sim.time
        r["kinetic"].setText(_energy_text(e.kinetic))
        r["potential"].setText(_energy_text(e.potential))
        r["total"].setText(_energy_text(e.total))
        r["drift"].setText(f"{e.drift:.1e}")
        r["time"].setText(f"{t:.3f} s")
        wall = self._rate_clock.nsecsElapsed() * 1e-9 if self._rate_clock.isValid() else 0.0
        if self.playing and wall > 0.2:
            r["rate"].setText(f"{(t - self._rate_start) / wall:.2f}×")
        elif not self.playing:
            r["rate"].setText("paused")

    def hideEvent(self, ev) -> None:  # noqa: N802
        if not self.window().isVisible():  # the window closed: no timer left moving a hidden robot
            self.play(False)
        super().hideEvent(ev)
