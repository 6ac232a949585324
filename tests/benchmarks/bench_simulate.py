"""Simulation benchmark: prints steps per second (run by hand, not collected by pytest).

    python tests/benchmarks/bench_simulate.py

Puma 560 (Corke's, with his motor and friction parameters) and Talos (example-robot-data, its
base fixed: 32 DoFs, 12 mimic joints) let go under gravity at a 1 ms RK4 step, friction off and
on. Real time at 1 kHz needs 1000 steps/s. Both wall-clock and process (CPU) time are printed:
on a loaded machine the CPU figure is what the simulator itself costs.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import Simulator, import_robot, load_robot  # noqa: E402

START = [0.3, 0.5, -0.5, 0.2, 0.4, 0.1]


def talos():
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        robots = Path(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots"))
    except PackageNotFoundError:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the URDF's own oddities are reported by the import tests
        return import_robot(robots / "talos_data/robots/talos_full_v2.urdf", package_paths=(str(robots),))


def rate(sim: Simulator, steps: int) -> tuple[float, float]:
    sim.step(20)  # compile and warm up
    w, c = time.perf_counter(), time.process_time()
    sim.step(steps)
    return steps / (time.perf_counter() - w), steps / (time.process_time() - c)


def main() -> None:
    robots = [("Puma 560", load_robot("puma560"), START)]
    t = talos()
    if t is not None:
        robots.append(("Talos (base fixed)", t, None))
    else:
        print("example-robot-data is not installed: no Talos figure")
    for name, tree, q in robots:
        for friction in (False, True):
            sim = Simulator(tree, q, gravity=[0.0, 0.0, -9.81], friction=friction)
            wall, cpu = rate(sim, 2000)
            print(f"{name:20s} friction {'on ' if friction else 'off'}: {wall:7,.0f} steps/s wall, "
                  f"{cpu:7,.0f} steps/s CPU  (real time at 1 kHz: 1,000)")


if __name__ == "__main__":
    main()
