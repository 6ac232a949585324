"""Simulation benchmark (run by hand, not collected by pytest).

    python tests/benchmarks/bench_simulate.py
    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_simulate.py window [ROBOT] [SECONDS] [WxH]
    ... bench_simulate.py profile [ROBOT] [SECONDS]     # the window run under cProfile (GUI thread)

Headless (no argument): Puma 560 (Corke's, with his motor and friction parameters) and Talos
(example-robot-data, its base fixed: 32 DoFs, 12 mimic joints) let go under gravity at a 1 ms
RK4 step, friction off and on. Real time at 1 kHz needs 1000 steps/s. Both wall-clock and
process (CPU) time are printed: on a loaded machine the CPU figure is what the simulator costs.

``window``: the main window (1280×800 by default) with the Simulate dock shown, Play pressed,
friction on; ROBOT ``puma`` (default), ``talos``, ``both`` or a library robot's name
(``four_bar``, ``delta_robot``: Simulate on closed loops). Prints the real-time factor
(simulated seconds per wall second), the frames drawn per second and the CPU time per wall
second (all threads: the simulation's and llvmpipe's). Target: ≥ 1.0× and ≥ 20 frames/s.
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


def headless() -> None:
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


def _timed(panel, w) -> dict[str, float]:
    """Wrap the GUI thread's jobs while simulating to add up their time: the simulator's steps,
    the document's listeners (viewport, sliders, pose readouts) reacting to the configuration,
    the dock's readouts and the viewport's drawing. What is left is Qt (events, widget painting,
    the buffer swap)."""
    spent: dict[str, float] = {}

    def wrap(owner, name: str, key: str) -> None:
        inner = getattr(owner, name)

        def timed(*a, **k):
            t = time.perf_counter()
            try:
                return inner(*a, **k)
            finally:
                spent[key] = spent.get(key, 0.0) + time.perf_counter() - t

        setattr(owner, name, timed)

    wrap(w.doc, "preview_configuration", "configuration listeners")
    wrap(panel, "_update", "dock readouts")
    wrap(w.viewport, "paintGL", "viewport drawing")
    spent["wrap"] = wrap
    return spent


def in_window(robot: str, seconds: float, size: tuple[int, int], profile: bool = False) -> None:
    """Play in the main window and measure the real-time factor and the frames drawn per second."""
    from kinetree.app.main import make_application
    from kinetree.app.window.main_window import MainWindow
    from PySide6.QtCore import QSettings

    app = make_application()
    w = MainWindow(settings=QSettings("/tmp/kinetree-bench-simulate.ini", QSettings.Format.IniFormat))
    w.quiet = True
    if robot == "talos":
        tree = talos()
        if tree is None:
            print("example-robot-data is not installed: no Talos figure")
            return
        w.doc.load(tree)
    elif robot == "puma":
        w.doc.open("puma560")
        w.doc.preview_configuration(START)
    else:  # any library robot by name, e.g. four_bar or delta_robot (closed loops), from its home
        w.doc.open(robot)
    w.resize(*size)
    w.show()
    w.viewport.fit()
    w.findChild(type(w.export_animation_action), "toggle_simulateDock").trigger()
    panel = w.simulate
    panel.friction.setChecked(True)
    for _ in range(30):
        app.processEvents()
        time.sleep(0.01)
    frames = [0]
    orig_paint = w.viewport.paintGL

    def paint(*a, **k):
        orig_paint(*a, **k)
        frames[0] += 1

    w.viewport.paintGL = paint
    spent = _timed(panel, w)
    panel.step_button.click()  # compile and warm up before the clock starts
    panel.play_button.click()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0:  # warm up (level of detail, shader programs, kernels)
        app.processEvents()
    frames[0] = 0
    sim = panel.sim
    spent.pop("wrap")(sim, "step", "simulator steps")
    spent.clear()
    s0, t0, c0 = sim.time, time.perf_counter(), time.process_time()
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile()
        prof.enable()
    while time.perf_counter() - t0 < seconds:
        app.processEvents()
    if prof is not None:
        prof.disable()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    simulated = panel.sim.time - s0
    panel.play_button.click()
    print(f"{robot} in the window ({size[0]}x{size[1]}, friction on): {simulated / wall:.2f}x real time, "
          f"{frames[0] / wall:.1f} frames/s over {wall:.1f} s; CPU {cpu / wall:.2f} s per s "
          f"(all threads); undo steps {w.doc.undo_stack.count()}, modified {w.doc.modified}")
    print("  GUI thread, ms per wall second: " + ", ".join(f"{k} {1000 * v / wall:.0f}" for k, v in spent.items()))
    if prof is not None:
        import pstats

        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    w.hide()
    w.deleteLater()


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "headless"
    if mode == "headless":
        headless()
        return
    robot = sys.argv[2] if len(sys.argv) > 2 else "puma"
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    size = tuple(int(v) for v in sys.argv[4].split("x")) if len(sys.argv) > 4 else (1280, 800)
    for r in ("puma", "talos") if robot == "both" else (robot,):
        in_window(r, seconds, size, profile=mode == "profile")


if __name__ == "__main__":
    main()
