"""Closed-loop dynamics benchmark (issue 35): prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_loop_dynamics.py          # the four-bar, and trees without loops
    python tests/benchmarks/bench_loop_dynamics.py plain    # trees without loops only (run it on the
                                                            # release before loop dynamics too: the
                                                            # figures must agree within the noise)

The four-bar of tests/core/test_loop_dynamics.py (masses, gravity in its plane): constrained
forward dynamics per call (``forward_dynamics_constraints_direct``: the KKT solve with λ), the
Simulator's constrained RK4 step (1 ms, positions and velocities projected on the loop after each
step; the Python path) and its real-time factor, and after 10 simulated seconds the loop's
residual, ``|J q̇|`` and the relative energy drift; then the Torques dock's profile (501 samples)
between two closed poses. Wall-clock and process (CPU) time: on a
loaded machine the CPU figure is what the code costs.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
from kinetree.core import Simulator, load_robot  # noqa: E402
from robots import best_of  # noqa: E402


def clocks(fn, n: int) -> tuple[float, float]:
    """Seconds per call of ``fn``, (wall, CPU), over ``n`` calls (the best of three runs)."""
    out = []
    for _ in range(3):
        w, c = time.perf_counter(), time.process_time()
        for _ in range(n):
            fn()
        out.append(((time.perf_counter() - w) / n, (time.process_time() - c) / n))
    return min(o[0] for o in out), min(o[1] for o in out)


def plain() -> None:
    """Trees without loops: what the loop support must not slow down."""
    puma = load_robot("puma560")
    puma.gravity = (0.0, 0.0, -9.81)
    q, qd, tau = np.array([0.3, 0.5, -0.5, 0.2, 0.4, 0.1]), np.full(6, 0.2), np.full(6, 0.1)
    puma.forward_dynamics(q, qd, tau)
    for name in ("forward_dynamics", "inverse_dynamics"):
        fn = getattr(puma, name)
        print(f"puma {name:29s} {best_of(lambda fn=fn: fn(q, qd, tau), 200, 10) * 1e6:8.1f} µs")
    for integrator in ("rk4", "euler"):  # rk4: the compiled step; euler: the Python step
        sim = Simulator(puma, q, integrator=integrator, friction=False)
        sim.step(10)
        w, c = clocks(lambda sim=sim: sim.step(100), 5)
        print(f"puma Simulator {integrator:5s} step            {w * 1e4:8.1f} µs wall {c * 1e4:8.1f} µs CPU")


def looped() -> None:
    from helpers.loops import closed, consistent_rates, heavy_four_bar
    from kinetree.core.dynamics.loops import forward_dynamics_constraints_direct

    t = heavy_four_bar()
    q = closed(t, 0.7)
    qd = consistent_rates(t, q, 3.0)
    tau = np.array([0.4, 0.0, 0.0])
    forward_dynamics_constraints_direct(t, q, qd, tau)
    w, c = clocks(lambda: forward_dynamics_constraints_direct(t, q, qd, tau), 300)
    print(f"four-bar constrained forward dynamics {w * 1e6:8.1f} µs wall {c * 1e6:8.1f} µs CPU per call")
    sim = Simulator(t, closed(t, 0.3), friction=False, limits=False)
    e0 = sim.energy().total
    w0, c0 = time.perf_counter(), time.process_time()
    sim.run(10.0)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    print(f"four-bar Simulator step (RK4, 1 ms)    {wall / 10:8.2f} ms wall {cpu / 10:8.2f} ms CPU per step")
    print(f"four-bar real-time factor              {10 / wall:8.3f}x wall {10 / cpu:8.3f}x CPU")
    e = sim.energy()
    print(f"after 10 s: loop residual {np.linalg.norm(t.loop_residual(sim.q)):.2e}, "
          f"|J q̇| {np.abs(t.constraint_jacobian(sim.q) @ sim.qd).max():.2e}, "
          f"energy drift {abs(e.total - e0) / abs(e0):.2e} (relative)")
    from kinetree.core.dynamics.torque_profile import torque_profile

    poses = [closed(t, 0.3), closed(t, 1.5)]
    w, c = clocks(lambda: torque_profile(t, poses, 1.0), 1)
    print(f"four-bar torque profile, 501 samples  {w:8.2f} s wall {c:8.2f} s CPU")


if __name__ == "__main__":
    plain()
    if sys.argv[1:] != ["plain"]:
        looped()
