"""GUI benchmark: frames drawn per second while the mouse drags a Joints-dock slider's handle, the
event loop running as in use (mouse moves every 8 ms, a 125 Hz mouse; Qt draws when it gets to
the viewport's pending update). Default layout, window 1280×800. Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_slider_drag.py [talos|puma] [seconds]

Target (issue 32): Talos ≥ 30 frames/s on Mesa llvmpipe. ``--profile`` prints cProfile's top
functions of the GUI thread during the drag.
"""

from __future__ import annotations

import cProfile
import math
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


def handle_centre(slider):
    """The slider handle's centre, in the slider's coordinates."""
    from PySide6.QtWidgets import QStyle, QStyleOptionSlider

    opt = QStyleOptionSlider()
    slider.initStyleOption(opt)
    return slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderHandle,
                                         slider).center()


def drag(tree, label: str, seconds: float = 6.0, profile: bool = False, joint: str | None = None) -> dict:
    """Press the handle of ``joint``'s slider (the first row's by default), swing it left and right
    for ``seconds`` and count the viewport's drawn frames (``frameSwapped``)."""
    from kinetree.app.main import make_application
    from PySide6.QtCore import QElapsedTimer, QEventLoop, QPoint, Qt, QTimer
    from PySide6.QtTest import QTest
    from robots import fresh_window

    app = make_application()
    w = fresh_window()
    w.doc.load(tree)
    w.resize(1280, 800)
    w.show()
    QTest.qWaitForWindowExposed(w)
    for _ in range(20):
        app.processEvents()
    w.viewport.fit()  # as File ▸ Open does (else the empty robot's close-up camera: the robot fills the view)
    app.processEvents()
    row = w.sliders.rows[joint] if joint else next(iter(w.sliders.rows.values()))
    slider = row.slider
    centre = handle_centre(slider)
    # swing about the groove's middle, inside its ends: past an end the value stops changing,
    # the scene goes still and is drawn at full detail (a different figure)
    mid, span = slider.width() // 2, int(0.35 * slider.width())
    frames = [0]
    w.viewport.frameSwapped.connect(lambda: frames.__setitem__(0, frames[0] + 1))
    QTest.mousePress(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)
    for x in range(centre.x(), mid, 1 if mid > centre.x() else -1):  # the handle to the middle first
        QTest.mouseMove(slider, QPoint(x, centre.y()))
    app.processEvents()
    clock = QElapsedTimer()
    moves = [0]

    def move() -> None:
        x = mid + int(round(span * math.sin(clock.elapsed() / 1000 * 2 * math.pi / 2.0)))
        QTest.mouseMove(slider, QPoint(x, centre.y()))
        moves[0] += 1

    timer = QTimer()
    timer.setInterval(8)
    timer.timeout.connect(move)
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    prof = cProfile.Profile() if profile else None
    frames[0] = 0
    clock.start()
    timer.start()
    t, cpu, gui = time.perf_counter(), time.process_time(), time.thread_time()
    if prof:
        prof.enable()
    loop.exec()
    if prof:
        prof.disable()
    dt, cpu, gui = time.perf_counter() - t, time.process_time() - cpu, time.thread_time() - gui
    timer.stop()
    QTest.mouseRelease(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, centre)
    out = {"fps": frames[0] / dt, "cpu_ms": 1000 * cpu / max(frames[0], 1), "moves": moves[0] / dt,
           "gui_ms": 1000 * gui / max(frames[0], 1)}
    # CPU of the whole process (llvmpipe's rasterising threads too) and of the GUI thread alone
    # (Python, Qt and llvmpipe's vertex stage): on a shared machine steadier than frames/s
    print(f"{label}: {out['fps']:6.1f} frames/s while the mouse drags a slider, {out['cpu_ms']:5.1f} ms CPU per frame "
          f"({out['gui_ms']:4.1f} in the GUI thread), {out['moves']:5.1f} mouse moves/s handled ({seconds:g} s, "
          f"viewport {w.viewport.width()}×{w.viewport.height()}, {w.viewport.drawn_faces():,} triangles)", flush=True)
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    w.doc.undo_stack.setClean()
    w.close()
    return out


def main() -> None:
    from bench_gui import talos
    from kinetree.core import load_robot

    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    profile = "--profile" in sys.argv
    which = [a for a in args if not a.replace(".", "").isdigit()] or ["talos"]
    seconds = next((float(a) for a in args if a.replace(".", "").isdigit()), 6.0)
    for name in which:
        if name == "talos":
            tree = talos()
            if tree is None:
                print("Talos: example-robot-data is not installed")
                continue
            drag(tree, "Talos (meshes)", seconds, profile, "arm_left_2_joint" if "arm_left_2_joint" in
                 tree.joint_names() else None)
        else:
            drag(load_robot("puma560"), "Puma 560      ", seconds, profile)


if __name__ == "__main__":
    main()
