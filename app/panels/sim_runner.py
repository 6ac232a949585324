"""A :class:`~kinetree.core.simulation.simulator.Simulator` advanced in real time on a worker thread.

Stepping in the GUI timer, between frames, made the physics, the dock's readouts and the
(software) renderer take turns on one thread. Here a Python thread steps by the clock while the
GUI thread draws what it last published; the compiled kernels release the GIL, and the thread
sleeps whenever it is ahead of real time, so the two share the cores.

Thread safety: every use of the simulator (a step, Reset, Hold, Friction, the energy readout)
holds :attr:`SimRunner.lock` (the GUI through :meth:`SimRunner.held`, which the thread lets go
first), so a change made by the GUI lands between two steps; the GUI reads only
:meth:`SimRunner.snapshot`, a copy published after each batch of steps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.simulation.simulator import Simulator

#: the most real time (s) the thread may owe the simulation: beyond it the owed time is dropped,
#: so a machine too slow for real time slows the simulation (the real-time factor says so)
#: instead of stepping in bursts to catch up
MAX_LAG = 0.05
#: steps done under one hold of the lock: a GUI change waits at most this many steps
STEPS_PER_LOCK = 4


class SimRunner:
    """Steps ``sim`` as real time goes by between :meth:`start` and :meth:`stop`."""

    def __init__(self, sim: Simulator) -> None:
        self.sim = sim
        self.lock = threading.Lock()
        self.error: KineTreeError | None = None  # what ended the last run, if it did not end by stop()
        self._halt = threading.Event()
        self._waiting = 0  # GUI calls waiting for the lock (only the GUI thread changes it)
        self._thread: threading.Thread | None = None
        self._snapshot = (sim.q, sim.time)
        self.dropped = 0.0  # real seconds the thread could not keep up with (so not simulated)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start stepping from now (a no-op when already running)."""
        if self.running:
            return
        self.error = None
        self._halt.clear()
        self._thread = threading.Thread(target=self._run, name="kinetree-simulate", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop stepping; returns once the thread has finished its batch of steps."""
        self._halt.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.publish()

    @contextmanager
    def held(self) -> Iterator[None]:
        """The lock, for the GUI thread, ahead of the thread's next batch of steps (Python's lock is
        not fair: a thread that takes it back at once would keep a waiting click waiting)."""
        self._waiting += 1
        try:
            with self.lock:
                yield
        finally:
            self._waiting -= 1

    def publish(self) -> None:
        """Make the simulator's state now the snapshot (after a change made with the lock held)."""
        with self.held():
            self._snapshot = (self.sim.q, self.sim.time)

    def snapshot(self) -> tuple[np.ndarray, float]:
        """The configuration and simulated time last published (the arrays are the GUI's own)."""
        return self._snapshot

    def _run(self) -> None:
        sim, dt = self.sim, self.sim.dt
        owed, last = 0.0, time.perf_counter()
        while not self._halt.is_set():
            now = time.perf_counter()
            owed += now - last
            last = now
            if owed > MAX_LAG:
                self.dropped += owed - MAX_LAG
                owed = MAX_LAG
            n = min(int(owed / dt), STEPS_PER_LOCK)
            if n == 0:  # ahead of real time: sleep (the GUI thread gets the GIL) until a step is due
                self._halt.wait(dt - owed)
                continue
            while self._waiting and not self._halt.is_set():  # the GUI first
                time.sleep(1e-4)
            with self.lock:
                try:
                    sim.step(n)
                except KineTreeError as exc:
                    self.error = exc
                    self._halt.set()
                self._snapshot = (sim.q, sim.time)
            owed -= n * dt
