"""GUI benchmark: one step of the lecture walk in Present mode, from the clicker's key press to
the viewport's next drawn frame (``frameSwapped``), on Puma. Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_present_walk.py

30 key presses with the focus on a joint slider: PageDown 25 times (the first begins the walk at
the DH table, then A₁ … A₆'s 24 steps), PageUp 5 times; each waits for its motion to end (the
symbolic matrices of a link not seen before are computed meanwhile, on the worker thread).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


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
    swapped: list[float] = []
    vp.frameSwapped.connect(lambda: swapped.append(time.perf_counter()))

    def wait(until, timeout_ms: int = 10000) -> None:
        loop = QEventLoop()
        timer = QTimer(interval=1)
        timer.timeout.connect(lambda: until() and loop.quit())
        timer.start()
        QTimer.singleShot(timeout_ms, loop.quit)
        loop.exec()
        timer.stop()

    times = []
    q0 = w.doc.configuration.copy()
    for k in range(30):
        wait(lambda: not panel.timer.isActive() and not panel.symbolic.busy)
        key = Qt.Key.Key_PageDown if k < 25 else Qt.Key.Key_PageUp
        swapped.clear()
        t0 = time.perf_counter()
        QTest.keyClick(QApplication.focusWidget(), key)
        wait(lambda: bool(swapped))
        times.append(1000 * (swapped[0] - t0) if swapped else float("nan"))
    assert np.array_equal(w.doc.configuration, q0), "a clicker key moved a joint"
    ms = ", ".join(f"{t:.1f}" for t in times)
    print(f"key press → drawn frame, 30 steps on Puma in Present mode ({w.width()}×{w.height()}): "
          f"median {statistics.median(times):.1f} ms, max {max(times):.1f} ms, first (walk begins) "
          f"{times[0]:.1f} ms; the 29 steps after it: median {statistics.median(times[1:]):.1f} ms, "
          f"max {max(times[1:]):.1f} ms\n  [{ms}]")
    w.present.set_active(False)
    w.doc.undo_stack.setClean()
    w.close()


if __name__ == "__main__":
    main()
