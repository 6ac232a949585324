"""Timeline: plays the motion of a :class:`~kinetree.app.features.playback.PlaybackState` (quintic
joint-space segments through the checked poses): Play / Pause, a scrub slider, Loop, the
seconds per segment and whether the end effector's path is traced.

Time-based, not frame-based: each timer tick reads a monotonic clock, so the robot is where the
motion says at that instant whatever the frame rate. The robot is moved with
``preview_configuration``: playback records no undo step and does not mark the document modified.
"""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument

#: timer period while playing (ms): below a 60 Hz frame, so that the frame rate is the renderer's
TICK_MS = 10
SLIDER_STEPS = 1000  # per second of motion


class TimelinePanel(QWidget):
    """Play / Pause, scrub, Loop and seconds per segment for the shared playback state."""

    traceToggled = Signal(bool)

    def __init__(self, doc: RobotDocument, state, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc, self.state = doc, state
        self.time = 0.0
        self._start_time = 0.0
        self._clock = QElapsedTimer()
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)
        self.play_button = QPushButton("Play")
        self.play_button.setObjectName("playButton")
        self.play_button.setCheckable(True)
        self.play_button.setToolTip("Play the motion through the checked poses, in list order")
        self.play_button.toggled.connect(self.play)
        self.loop = QCheckBox("Loop")
        self.loop.setObjectName("loopCheck")
        self.loop.setToolTip("Start again from the first pose at the end")
        self.seconds = QDoubleSpinBox()
        self.seconds.setObjectName("segmentSeconds")
        self.seconds.setRange(0.1, 600.0)
        self.seconds.setDecimals(1)
        self.seconds.setSingleStep(0.5)
        self.seconds.setValue(state.seconds)
        self.seconds.setSuffix(" s")
        self.seconds.setToolTip("Seconds from one pose to the next (quintic: at rest at every pose)")
        self.seconds.valueChanged.connect(self._seconds_changed)
        self.trace = QCheckBox("Trace")
        self.trace.setObjectName("traceCheck")
        self.trace.setChecked(True)
        self.trace.setToolTip("Draw the end effector's path through the motion in the viewport")
        self.trace.toggled.connect(self.traceToggled)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("timelineSlider")
        self.slider.setToolTip("Scrub through the motion")
        self.slider.valueChanged.connect(lambda v: self.seek(v / SLIDER_STEPS))
        self.label = QLabel()
        self.label.setObjectName("timelineLabel")
        top = QHBoxLayout()
        top.addWidget(self.play_button)
        top.addWidget(self.loop)
        top.addWidget(self.trace)
        top.addStretch(1)
        top.addWidget(self.seconds)
        bottom = QHBoxLayout()
        bottom.addWidget(self.slider, 1)
        bottom.addWidget(self.label)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(top)
        lay.addLayout(bottom)
        state.changed.connect(self._motion_changed)
        self._motion_changed()

    # --- the motion ----------------------------------------------------------------------------
    def _seconds_changed(self, value: float) -> None:
        fraction = self.time / self.state.duration() if self.state.duration() else 0.0
        self.state.set_seconds(value)
        self.time = fraction * self.state.duration()  # the same place in a slower/faster motion
        self._start_time, self._clock = self.time, self._restarted()
        self._sync()

    def _motion_changed(self) -> None:
        duration = self.state.duration()
        self.time = min(self.time, duration)
        playable = duration > 0
        self.play_button.setEnabled(playable)
        self.slider.setEnabled(playable)
        if not playable and self.play_button.isChecked():
            self.play_button.setChecked(False)
        self._sync()

    def _sync(self) -> None:
        """Slider and label show :attr:`time` (no seek back from the slider)."""
        duration = self.state.duration()
        self.slider.blockSignals(True)
        self.slider.setRange(0, round(duration * SLIDER_STEPS))
        self.slider.setValue(round(self.time * SLIDER_STEPS))
        self.slider.blockSignals(False)
        n = len(self.state.playable())
        self.label.setText(f"{self.time:.2f} / {duration:.2f} s" if n >= 2 else "check two poses or more")

    # --- playing -------------------------------------------------------------------------------
    def seek(self, t: float) -> None:
        """Show the motion at ``t`` seconds (clipped): the robot moves there, without an undo step."""
        self._show(t)
        if self.playing:  # a scrub while playing: play on from there
            self._start_time, self._clock = self.time, self._restarted()

    def _show(self, t: float) -> None:
        self.time = min(max(float(t), 0.0), self.state.duration())
        q = self.state.configuration_at(self.time)
        if q is not None and len(self.state.playable()) >= 2:
            self.doc.preview_configuration(q)
        self._sync()

    def play(self, on: bool) -> None:
        """Start (from the beginning when at the end) or pause."""
        if self.play_button.isChecked() != on:
            self.play_button.setChecked(on)  # comes back here through toggled
            return
        self.play_button.setText("Pause" if on else "Play")
        if on:
            if self.time >= self.state.duration():
                self.time = 0.0
            self._start_time, self._clock = self.time, self._restarted()
            self._show(self.time)
            self._timer.start()
        else:
            self._timer.stop()

    def hideEvent(self, ev) -> None:  # noqa: N802
        # the window closed (not a tab switch, a closed dock or a minimised window): stop the timer,
        # which would go on moving (and rendering) a robot nobody sees
        if not self.window().isVisible():
            self.play(False)
        super().hideEvent(ev)

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    @staticmethod
    def _restarted() -> QElapsedTimer:
        clock = QElapsedTimer()
        clock.start()
        return clock

    def _tick(self) -> None:
        duration = self.state.duration()
        t = self._start_time + self._clock.nsecsElapsed() * 1e-9
        if t >= duration:
            if self.loop.isChecked() and duration > 0:
                t %= duration
                self._start_time, self._clock = t, self._restarted()
            else:
                self._show(duration)
                self.play(False)
                return
        self._show(t)
