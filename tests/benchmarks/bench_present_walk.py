"""GUI benchmark: one step of the lecture walk in Present mode, from the clicker's key press to
the viewport's next drawn frame (``frameSwapped``), on Puma. Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_present_walk.py

30 key presses with the focus on a joint slider: PageDown 25 times (the first begins the walk at
the DH table, then A₁ … A₆'s 24 steps), PageUp 5 times; each waits for its motion to end (the
symbolic matrices of a link not seen before are computed meanwhile, on the worker thread; the
first key waits for A₁'s, which entering Present mode began). The first key's figure is the time
to the first frame drawn at the view's settled size (the walk's column beside it).

Then the smallest glyph measured on the rendered pixels (``tests/helpers/legibility.py``) per kind of
text (the 3-D labels, the walk's DH table, the matrices, the headings) over the walk's DH table and
each Aᵢ done, on screens of 1920×1080 and 1280×720 (the window's screen size is patched, as the
tests do): the tallest glyph of each line (digits, capitals), the smallest subscript, the lowest
WCAG contrast; and how many label boxes overlap or have something drawn over their plate.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers


def main() -> None:
    import numpy as np
    from kinetree.app.main import make_application
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtGui import QAction
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QSlider
    from robots import fresh_window

    app = make_application()
    w = fresh_window()
    w.doc.open("puma560")
    w.doc.set_configuration(np.array([0.3, 0.7, -0.4, 0.5, 0.6, -0.2]))
    w.show()
    w.findChild(QAction, "presentAction").trigger()
    w.activateWindow()
    app.processEvents()
    slider = w.sliders.findChildren(QSlider)[0]
    slider.setFocus()
    app.processEvents()
    panel, vp = w.explain, w.viewport
    swapped: list[tuple[float, float, tuple]] = []  # (wall clock, the GUI thread's CPU time, the view's size)
    vp.frameSwapped.connect(lambda: swapped.append((time.perf_counter(), time.thread_time(), vp.size().toTuple())))

    def wait(until, timeout_ms: int = 10000) -> None:
        loop = QEventLoop()
        timer = QTimer(interval=1)
        timer.timeout.connect(lambda: until() and loop.quit())
        timer.start()
        QTimer.singleShot(timeout_ms, loop.quit)
        loop.exec()
        timer.stop()

    times, cpu, early = [], [], 0
    q0 = w.doc.configuration.copy()
    for k in range(30):
        wait(lambda: not panel.timer.isActive() and not panel.symbolic.busy)
        key = Qt.Key.Key_PageDown if k < 25 else Qt.Key.Key_PageUp
        swapped.clear()
        t0, c0 = time.perf_counter(), time.thread_time()
        QTest.keyClick(QApplication.focusWidget(), key)
        wait(lambda: bool(swapped))
        if k == 0:  # the walk begins: its frame is the first at the view's settled size (not one drawn before)
            wait(lambda: False, 500)
            early = sum(1 for s in swapped if s[2] != vp.size().toTuple())
            swapped[:] = [s for s in swapped if s[2] == vp.size().toTuple()]
        times.append(1000 * (swapped[0][0] - t0) if swapped else float("nan"))
        cpu.append(1000 * (swapped[0][1] - c0) if swapped else float("nan"))
    assert np.array_equal(w.doc.configuration, q0), "a clicker key moved a joint"
    ms = ", ".join(f"{t:.1f}" for t in times)
    print(f"key press → drawn frame, 30 steps on Puma in Present mode ({w.width()}×{w.height()}): "
          f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms, first (walk begins) "
          f"{times[0]:.1f} ms (to its frame at the view's settled size; {early} drawn before at another size); "
          f"the 29 steps after it: median {statistics.median(times[1:]):.1f} ms, "
          f"max {max(times[1:]):.1f} ms\n  [{ms}]\n  the GUI thread's CPU time over those 29 steps: median "
          f"{statistics.median(cpu[1:]):.1f} ms, max {max(cpu[1:]):.1f} ms (load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores: the wall-clock figures grow with it)")
    w.present.set_active(False)
    w.doc.undo_stack.setClean()
    w.close()
    for size in ((1920, 1080), (1280, 720)):
        legibility(app, size)


def legibility(app, size: tuple[int, int]) -> None:
    """The smallest glyphs of the Puma's walk in Present mode on a screen of ``size``, printed."""
    import time

    from helpers.legibility import measure
    from kinetree.app.panels import explain
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QAction, QScreen
    from robots import fresh_window

    geometry, available = QScreen.geometry, QScreen.availableGeometry
    QScreen.geometry = QScreen.availableGeometry = lambda _s: QRect(0, 0, *size)
    step_ms, explain.STEP_MS = explain.STEP_MS, 30
    try:
        w = fresh_window()
        w.doc.open("puma560")
        w.doc.set_configuration(w.doc.tree.named_poses["qn"])
        w.show()
        w.resize(*size)
        w.findChild(QAction, "dhOverlayAction").trigger()
        w.findChild(QAction, "presentAction").trigger()
        panel = w.explain

        def settle() -> None:
            end = time.monotonic() + 30
            while (panel.timer.isActive() or panel.symbolic.busy) and time.monotonic() < end:
                app.processEvents()
            for _ in range(5):
                app.processEvents()

        least: dict[str, list] = {}
        overlaps = marks = 0
        for k in range(4 * 6 + 1):  # the DH table, then A₁ … A₆ (measured when each is done)
            w.present.clicker("step")
            settle()
            if k % 4:
                continue
            seen = measure(w)
            overlaps += len(seen["overlaps"])
            marks += len(seen["marks"])
            for kind, m in seen["measured"].items():
                old = least.setdefault(kind, [m.height, m.sub, m.contrast])
                least[kind] = [min(a, b) for a, b in zip(old, (m.height, m.sub, m.contrast))]
        print(f"Puma walk in Present mode at {size[0]}×{size[1]} (factor {w.text_scale:.2f}), "
              "smallest per kind of text:")
        for kind, (height, sub, contrast) in least.items():
            sub_text = f"{sub[0]} px ({sub[1]})" if sub[1] else "none"
            print(f"  {kind:9s} glyph {height[0]} px ({height[1]}), subscript {sub_text}, "
                  f"contrast {contrast[0]:.2f}:1")
        print(f"  label boxes overlapping: {overlaps}; plates with something drawn over them: {marks}")
        w.present.set_active(False)
        w.doc.undo_stack.setClean()
        w.close()
    finally:
        QScreen.geometry, QScreen.availableGeometry = geometry, available
        explain.STEP_MS = step_ms


if __name__ == "__main__":
    main()
