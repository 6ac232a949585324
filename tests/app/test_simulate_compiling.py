"""The first Play on a fresh install waits for numba to compile the simulator (30–60 s with an
empty NUMBA_CACHE_DIR): the dock says so and the window keeps answering meanwhile (issue 32).
Here the compilation is a slow stand-in, so that the test does not depend on numba's cache."""

from __future__ import annotations

import threading
import time

from kinetree.app.panels.simulate import COMPILING
from kinetree.core import compiled_warmup
from PySide6.QtCore import QTimer

SLOW_S = 2.0


def test_first_play_says_it_is_compiling_and_the_window_answers(window, qtbot, monkeypatch):
    compiled = threading.Event()

    def slow_warm_up() -> float:
        time.sleep(SLOW_S)  # the compilation, off the GUI thread
        compiled.set()
        return SLOW_S

    monkeypatch.setattr(compiled_warmup, "_thread", [])  # not warmed up in this process
    monkeypatch.setattr(compiled_warmup, "ready", compiled.is_set)
    monkeypatch.setattr(compiled_warmup, "warm_up", slow_warm_up)
    window.doc.open("puma560")
    panel = window.simulate
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(20)
    t0 = time.perf_counter()
    panel.play_button.click()
    assert time.perf_counter() - t0 < 0.5 * SLOW_S  # Play returned at once
    assert panel.note.text() == COMPILING and panel.play_button.isChecked() and panel.runner is None
    qtbot.waitUntil(lambda: panel.runner is not None and panel.runner.running, timeout=int(10_000 * SLOW_S))
    timer.stop()
    assert compiled.is_set() and panel.note.text() != COMPILING
    # the window answered all along: its timer ticked, never more than 0.5 s apart
    assert len(ticks) > 10 and max(b - a for a, b in zip(ticks, ticks[1:])) < 0.5
    panel.play_button.click()  # Pause
    assert not panel.runner.running


def test_pause_while_compiling_does_not_start_afterwards(window, qtbot, monkeypatch):
    compiled = threading.Event()
    monkeypatch.setattr(compiled_warmup, "_thread", [])
    monkeypatch.setattr(compiled_warmup, "ready", compiled.is_set)
    monkeypatch.setattr(compiled_warmup, "warm_up", lambda: compiled.wait(5) and 0.0)
    window.doc.open("puma560")
    panel = window.simulate
    panel.play_button.click()
    assert panel.note.text() == COMPILING
    panel.play_button.click()  # Pause before it is ready
    compiled.set()
    qtbot.waitUntil(lambda: not panel._compiling, timeout=5000)
    assert panel.runner is None and not panel.play_button.isChecked() and panel.play_button.text() == "Play"
