"""GUI benchmark: frames per second while the mouse drags a frame handle (W), back and forth
along its arrow, as a hand does. Run under X (or xvfb-run) by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_frame_drag.py [puma|tree] [--profile]

``puma``: Puma 560's link3, a DH link: its a arrow (target ≥ 60 frames/s). ``tree``: a body in
the middle of a 1000-body random tree, its frame's x arrow (target ≥ 20 frames/s).
``--profile``: the 15 costliest functions of the drag (by cumulative time; the environment's
ROWS and SORT, e.g. ``SORT=tottime``, change that). The last figure is the ceiling: the same
window redrawn with nothing changed (Mesa's software renderer draws every pixel of the viewport
at every frame, so it depends on the viewport's size and the machine's load).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def drag_frame(tree, body: str, label: str, target: float, part=("axis", 0), profile: bool = False) -> None:
    import numpy as np
    from kinetree.app.main import make_application
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from robots import fresh_window

    app = make_application()
    w = fresh_window()
    w.doc.load(tree)
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    vp = w.viewport
    w.doc.select(body)
    vp.set_tool("move")
    vp.fit(selection=True)
    app.processEvents()
    h = vp.frame_handle
    if part[0] == "dh":
        _, o, u = h.parts[part[1]]
    else:
        o, u = h.pose[:3, 3], h.pose[:3, part[1]]
    a, b = vp.project(np.array([o, o + h.size * u]))
    x, y = vp.project((o + 0.7 * h.size * u)[None])[0]
    start = QPoint(int(round(x)), int(round(y)))
    assert h.pick(start.x(), start.y()) is not None, "the arrow is not under the cursor"
    d = (b - a) / np.linalg.norm(b - a)
    frames = [0]
    orig = vp.paintGL

    def paint(*args, **kwargs):
        orig(*args, **kwargs)
        frames[0] += 1

    vp.paintGL = paint
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    steps = 200
    prof = cProfile.Profile() if profile else None
    if prof:
        prof.enable()
    t, cpu = time.perf_counter(), time.process_time()
    for k in range(steps):
        s = 60 * np.sin(2 * np.pi * k / steps)  # pixels along the arrow, there and back
        QTest.mouseMove(vp, start + QPoint(int(round(s * d[0])), int(round(s * d[1]))))
        vp.repaint()  # draw now, as the event loop would between mouse moves
        app.processEvents()
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    drawn = frames[0]  # the drag's frames only (not the unchanged ones below)
    if prof:
        prof.disable()
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    # the floor: the same window drawn with nothing changed (the software renderer's composition)
    t0 = time.perf_counter()
    for _ in range(60):
        vp.repaint()
        app.processEvents()
    idle = 60 / (time.perf_counter() - t0)
    print(f"{label}: {drawn / dt:6.1f} frames/s, {1000 * cpu / max(drawn, 1):5.1f} ms CPU per frame "
          f"({steps} moves, {w.doc.undo_stack.count()} undo step, viewport {vp.width()}×{vp.height()}; "
          f"target ≥ {target:g} frames/s); "
          f"the window redrawn unchanged: {idle:.1f} frames/s")
    if prof:
        pstats.Stats(prof).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(int(os.environ.get("ROWS", 15)))
    w.doc.undo_stack.setClean()
    w.close()


def main() -> None:
    from kinetree.core import load_robot
    from robots import random_tree

    args = sys.argv[1:]
    profile = "--profile" in args
    only = [a for a in args if not a.startswith("--")]
    if not only or "puma" in only:
        drag_frame(load_robot("puma560"), "link3", "Puma 560, DH a arrow of link3  ", 60, ("dh", "a"), profile)
    if not only or "tree" in only:
        drag_frame(random_tree(1000), "b500", "1000-body tree, x arrow of b500", 20, ("axis", 0), profile)


if __name__ == "__main__":
    main()
