"""Compile (or load from numba's cache) the compiled kernels ahead of their first use.

numba compiles a kernel the first time it is called: on a machine that has never run KineTree
the dynamics kernels, the simulator's step and the closed-loop solver take ~50 s together (~3 s to load once cached).
Called on a thread at the GUI's start, :func:`warm_up` pays that while the user looks at the
window, instead of freezing it at the first Simulate or Torques. The kernels are typed by their
arguments' dtypes and dimensions, not by the tree, so one robot (Corke's Puma 560: motors,
friction, limits) compiles what every tree uses.
"""

from __future__ import annotations

import logging
import threading
import time

import numpy as np

from .kinematics.plan import compiled_backend

_done = threading.Event()  # a warm-up has finished (or failed: the kernels then compile at first use)
_lock = threading.Lock()  # one warm-up at a time: a second caller waits for the first's compilation
_thread: list[threading.Thread] = []  # the background warm-up, once started


def ready() -> bool:
    """Whether the simulator's compiled step can run without compiling first (warmed up, already
    used in this process, or no numba: nothing to compile)."""
    if _done.is_set():
        return True
    if compiled_backend() is None:
        return True
    from .simulation import compiled as simulation_numba

    return bool(simulation_numba.simulate.signatures)


def may_compile(kernel) -> bool:
    """Whether a caller may run the numba ``kernel`` now. Yes when no background warm-up runs (a
    script compiles at first use), on the warm-up's own thread, once the warm-up is done, and once
    the kernel is compiled or loaded in this process. Otherwise the caller takes its numpy path:
    waiting for a fresh install's compilation (the loop solver's: 50-90 s) would freeze the window."""
    if not _thread or _done.is_set() or kernel.signatures:
        return True
    return threading.current_thread() is _thread[0]


def warm_up_in_background() -> threading.Thread:
    """:func:`warm_up` on a daemon thread, started once: later calls return the same thread."""
    if not _thread:
        def run() -> None:
            try:
                logging.getLogger(__name__).info("compiled kernels ready in %.1f s", warm_up())
            except Exception:  # noqa: BLE001 - the kernels then compile at their first use, as without this
                logging.getLogger(__name__).exception("warming up the compiled kernels failed")
                _done.set()

        _thread.append(threading.Thread(target=run, name="kinetree-warm-up", daemon=True))
        _thread[0].start()
    return _thread[0]


def warm_up() -> float:
    """Run every compiled kernel once; returns the seconds it took (0 without numba: nothing
    to compile)."""
    with _lock:
        seconds = _warm_up()
    _done.set()
    return seconds


def _warm_up() -> float:
    from .library import load_robot
    from .simulation.simulator import Simulator

    if compiled_backend() is None:
        return 0.0
    t = time.perf_counter()
    tree = load_robot("puma560")
    q = np.linspace(0.1, 0.6, 6)
    qd = np.linspace(-0.3, 0.3, 6)
    tree.forward_kinematics(q)
    tree.forward_kinematics(np.tile(q, (64, 1)))
    tree.inverse_dynamics(q, qd, qd)
    tree.inverse_dynamics(np.tile(q, (4, 1)), np.tile(qd, (4, 1)), np.tile(qd, (4, 1)))
    tree.mass_matrix(q)
    tree.forward_dynamics(q, qd)
    tree.gravity_torque(q)
    tree.geometric_jacobian(q, tree.body_names[-1])
    sim = Simulator(tree, q, qd)
    sim.step(2)
    sim.hold(10.0, 1.0)
    sim.step(2)
    linkage = load_robot("four_bar")  # the closed-loop solver's kernel (revolute and prismatic trees)
    q = linkage.home_configuration()
    q[0] += 0.01
    Simulator(linkage, linkage.solve_loops(q)).step(1)  # and the constrained step's loop terms
    return time.perf_counter() - t
