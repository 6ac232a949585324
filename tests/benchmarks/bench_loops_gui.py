"""Closed loops in the window: frames per second while scrubbing a mechanism's actuated slider
(every tick solves the passive joints, the Joints dock's read-only rows follow and the dashed
closures are redrawn) and while dragging its IK handle, in the default layout at 1280×800. Run
under X (or xvfb-run) by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_loops_gui.py

The four-bar crank-rocker (a full crank turn) and the planar 3-RRR parallel robot (leg 1's
actuated joint over ±0.3 rad, then the platform dragged by its IK handle). Target ≥ 30 frames/s.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
from helpers.loops import four_bar, three_rrr

TARGET = 30.0
STEPS = 360


def window(tree, q):
    from robots import fresh_window

    w = fresh_window()
    w.doc.load(tree, q)
    w.resize(1280, 800)  # fixed: figures compare between screens
    w.show()
    w.viewport.fit()  # as opening a file does
    return w


def counted(vp) -> list[int]:
    frames = [0]
    orig = vp.paintGL

    def paint(*a, **k):
        orig(*a, **k)
        frames[0] += 1

    vp.paintGL = paint
    return frames


def scrub(app, label: str, tree, q, joint: str, lo: float, hi: float) -> None:
    """Drive ``joint``'s slider from ``lo`` to ``hi`` in STEPS ticks, drawing each."""
    w = window(tree, q)
    app.processEvents()
    frames = counted(w.viewport)
    row = w.sliders.rows[joint]
    ticks = [int(round((v - row.lo) / (row.hi - row.lo) * row.slider.maximum())) for v in np.linspace(lo, hi, STEPS)]
    refused = []
    w.doc.message.connect(refused.append)
    row.slider.sliderPressed.emit()
    t, cpu = time.perf_counter(), time.process_time()
    for tick in ticks:
        row.slider.setValue(tick)
        w.viewport.repaint()  # draw now, as the event loop would between mouse moves
        app.processEvents()
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    row.slider.sliderReleased.emit()
    residual = float(np.linalg.norm(w.doc.tree.loop_residual(w.doc.configuration)))
    print(f"{label}: {frames[0] / dt:6.1f} frames/s scrubbing {joint}, {1000 * cpu / max(frames[0], 1):5.1f} ms CPU "
          f"per frame ({STEPS} ticks, {len(refused)} refused, loop residual after {residual:.1e}; "
          f"target ≥ {TARGET:g} frames/s)")
    w.doc.undo_stack.setClean()
    w.close()


def drag_platform(app) -> None:
    """Drag the 3-RRR's platform by its IK handle's centre in a small circle, seen from above."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    tree, q, _T = three_rrr()
    w = window(tree, q)
    w.doc.select("platform")
    vp = w.viewport
    vp.setCameraPosition(elevation=90, azimuth=-90)  # from above: the drag stays in the robot's plane
    app.processEvents()
    frames = counted(vp)
    h = vp.ik_handle
    x, y = vp.project(h.pose[:3, 3][None])[0]
    start = QPoint(int(round(x)), int(round(y)))
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    t, cpu = time.perf_counter(), time.process_time()
    steps, worst, moved = 200, 0.0, 0.0
    stopped = []
    w.doc.message.connect(stopped.append)
    p0 = w.doc.pose_of("platform")[:3, 3]
    for k in range(steps):
        a = 2 * math.pi * k / steps
        QTest.mouseMove(vp, start + QPoint(int(round(10 * math.sin(a))), int(round(8 * (1 - math.cos(a))))))
        vp.repaint()
        app.processEvents()
        worst = max(worst, float(np.linalg.norm(w.doc.tree.loop_residual(w.doc.configuration))))
        moved = max(moved, float(np.linalg.norm(w.doc.pose_of("platform")[:3, 3] - p0)))
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    print(f"3-RRR IK handle drag: {frames[0] / dt:6.1f} frames/s, {1000 * cpu / max(frames[0], 1):5.1f} ms CPU per "
          f"frame ({steps} mouse moves, {len(stopped)} at the mechanism's limit, the platform up to "
          f"{1000 * moved:.0f} mm away, worst loop residual "
          f"{worst:.1e}; target ≥ {TARGET:g} frames/s)")
    w.doc.undo_stack.setClean()
    w.close()


def main() -> None:
    from kinetree.app.main import make_application

    app = make_application()
    t = four_bar()
    q = t.solve_loops(np.array([-math.pi, 1.0, 1.9]))
    scrub(app, "four-bar", t, q, "crank_joint", -math.pi, math.pi)
    t, q, _T = three_rrr()
    scrub(app, "3-RRR", t, q, "leg1a_joint", q[0] - 0.3, q[0] + 0.3)
    drag_platform(app)


if __name__ == "__main__":
    main()
