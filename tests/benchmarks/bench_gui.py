"""GUI benchmark: frames per second while a slider is driven through its range, and the time
from process start to the first drawn frame. Run under X (or xvfb-run) by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_gui.py [puma|random|talos|ik]

``ik``: frames per second while the mouse drags Puma's IK handle (target ≥ 30).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

FIRST_FRAME = """
import time, sys
t0 = time.perf_counter()
from kinetree.app.main import make_application
from kinetree.app.window.main_window import MainWindow
from PySide6.QtCore import QSettings, QTimer
app = make_application(sys.argv)
w = MainWindow(settings=QSettings(sys.argv[1], QSettings.Format.IniFormat))
w.quiet = True
w.open_source("puma560", ask=False)
done = []
def swapped():  # the first frame of the viewport reached the window
    if not done:
        done.append(time.perf_counter())
        app.quit()
w.viewport.frameSwapped.connect(swapped)
QTimer.singleShot(20000, app.quit)
w.show()
app.exec()
print(done[0] - t0 if done else float("nan"))
"""


def drive(tree, label: str, target: float) -> None:
    from kinetree.app.main import make_application
    from robots import fresh_window

    app = make_application()
    w = fresh_window()
    w.doc.load(tree)
    w.resize(1280, 800)  # the default window is 90% of the screen: fix the size so figures compare
    w.show()
    app.processEvents()
    frames = [0]
    orig = w.viewport.paintGL

    def paint(*a, **k):
        orig(*a, **k)
        frames[0] += 1

    w.viewport.paintGL = paint
    row = next(iter(w.sliders.rows.values()))
    slider = row.slider
    slider.sliderPressed.emit()
    steps = 300
    t, cpu = time.perf_counter(), time.process_time()
    for k in range(steps):
        slider.setValue(int(k * slider.maximum() / steps))
        w.viewport.repaint()  # draw now, as the event loop would between mouse moves
        app.processEvents()
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    slider.sliderReleased.emit()
    vp = w.viewport
    if vp._meshes or vp._parts:
        vp.set_full_detail()
        print(f"{label}: {vp.drawn_faces()} mesh triangles at full detail, {vp.interactive_faces} while dragging")
    # CPU time per frame (all threads, llvmpipe's too) is steadier than fps on a shared machine
    print(f"{label}: {frames[0] / dt:6.1f} frames/s while dragging a slider, {1000 * cpu / frames[0]:5.1f} ms CPU "
          f"per frame ({steps} steps, {w.doc.undo_stack.count()} undo step; target ≥ {target:g} frames/s)")
    w.doc.undo_stack.setClean()
    w.close()


def drag_handle(target: float) -> None:
    """Drag Puma's end effector by its IK handle's centre in a circle, as a hand does."""
    import numpy as np
    from kinetree.app.main import make_application
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest
    from robots import fresh_window

    app = make_application()
    w = fresh_window()
    w.open_source("puma560", ask=False)
    w.doc.set_configuration(np.array([0.0, 0.6, -0.9, 0.0, 0.5, 0.0]), "start")
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    vp = w.viewport
    frames = [0]
    orig = vp.paintGL

    def paint(*a, **k):
        orig(*a, **k)
        frames[0] += 1

    vp.paintGL = paint
    h = vp.ik_handle
    x, y = vp.project(h.pose[:3, 3][None])[0]
    start = QPoint(int(round(x)), int(round(y)))
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    steps, reached = 300, 0
    t, cpu = time.perf_counter(), time.process_time()
    for k in range(steps):
        a = 2 * np.pi * k / steps
        QTest.mouseMove(vp, start + QPoint(int(round(40 * np.sin(a))), int(round(30 * (1 - np.cos(a))))))
        vp.repaint()  # draw now, as the event loop would between mouse moves
        app.processEvents()
        reached += bool(h.last_result is not None and h.last_result.success)
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    print(f"IK handle drag (Puma): {frames[0] / dt:6.1f} frames/s, {1000 * cpu / frames[0]:5.1f} ms CPU per frame, "
          f"{reached}/{steps} moves reached their target ({w.doc.undo_stack.count() - 1} undo step for the drag; "
          f"target ≥ {target:g} frames/s)")
    w.doc.undo_stack.setClean()
    w.close()


def talos():
    """Talos (59 bodies, 205k mesh triangles) from example-robot-data, or ``None`` when missing."""
    from importlib.metadata import PackageNotFoundError, distribution

    from kinetree.core import import_robot

    try:
        robots = Path(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots"))
    except PackageNotFoundError:
        return None
    return import_robot(robots / "talos_data/robots/talos_full_v2.urdf", package_paths=(str(robots),))


def main() -> None:
    from kinetree.core import load_robot
    from robots import random_tree

    only = sys.argv[1:]  # e.g. "talos": run that figure only
    if not only or "puma" in only:
        drive(load_robot("puma560"), "Puma 560      ", 60)
    if not only or "random" in only:
        drive(random_tree(130), "130-body tree ", 30)
    if not only or "talos" in only:
        tree = talos()
        if tree is None:
            print("Talos: example-robot-data is not installed")
        else:
            drive(tree, "Talos (meshes)", 30)
    if not only or "ik" in only:
        drag_handle(30)
    if only:
        return
    times = []
    for _ in range(3):
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, "-c", FIRST_FRAME, str(Path(tmp) / "s.ini")], capture_output=True,
                                 text=True, check=True)
        times.append(float(out.stdout.strip().splitlines()[-1]))
    print(f"Process start to first drawn frame (Puma 560): {min(times):.2f} s best of 3 (target ≤ 1.5 s)")


if __name__ == "__main__":
    main()
