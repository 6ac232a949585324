"""GUI benchmark: frames per second while the timeline plays Puma through qz → qr → qs → qn
(looping, the path traced, the Poses dock shown) in a 1280×800 window. Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_playback.py [MODE] [SECONDS] [WxH]

MODE ``window`` (default): the main window with the Poses dock shown and the path traced;
``notrace``: the same without the path; ``viewport``: the viewport alone (no panels to
repaint), driven by the same timeline. WxH: the window's (or the viewport's) size, 1280x800 by
default. Target: ≥ 60 frames drawn per second. Prints wall-clock fps and the process's CPU time
per frame (all threads, llvmpipe's too: on a loaded machine the wall figure depends on the
other jobs, the CPU figure much less).
"""

from __future__ import annotations

import sys
import time


class _Bare:
    """The viewport alone, with the playback state, path and timeline (not shown)."""

    def __init__(self, trace: bool, size: tuple[int, int]) -> None:
        from kinetree.app.features.playback import PlaybackState
        from kinetree.app.model.document import RobotDocument
        from kinetree.app.panels.timeline import TimelinePanel
        from kinetree.app.viewport.overlays.path_trace import PathTrace
        from kinetree.app.viewport.view import RobotViewport
        from kinetree.core.io import open_robot

        tree, q = open_robot("puma560")
        self.doc = RobotDocument(tree)
        self.doc.load(tree, q)
        self.viewport = RobotViewport(self.doc)
        self.playback = PlaybackState(self.doc)
        self.playback.set_names(list(tree.named_poses))
        self.path_trace = PathTrace(self.viewport, self.doc, self.playback)
        self.path_trace.set_visible(trace)
        self.timeline = TimelinePanel(self.doc, self.playback)
        self.viewport.resize(*size)
        self.viewport.show()


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "window"
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    size = tuple(int(v) for v in sys.argv[3].split("x")) if len(sys.argv) > 3 else (1280, 800)
    from kinetree.app.main import make_application
    from kinetree.app.window.main_window import MainWindow
    from PySide6.QtCore import QSettings

    app = make_application()
    if mode == "viewport":
        w = _Bare(True, size)
    else:
        w = MainWindow(settings=QSettings("/tmp/kinetree-bench-playback.ini", QSettings.Format.IniFormat))
        w.quiet = True
        w.open_source("puma560", ask=False)
        w.resize(*size)
        w.show()
        w.findChild(type(w.export_animation_action), "toggle_posesDock").trigger()
        w.path_trace.set_visible(mode != "notrace")
    w.timeline.seconds.setValue(2.0)
    w.timeline.loop.setChecked(True)
    for _ in range(20):
        app.processEvents()
        time.sleep(0.01)
    frames = [0]
    ticks = [0]
    orig_paint, orig_tick = w.viewport.paintGL, w.timeline._tick

    def paint(*a, **k):
        orig_paint(*a, **k)
        frames[0] += 1

    def tick():
        orig_tick()
        ticks[0] += 1

    w.viewport.paintGL = paint
    w.timeline._timer.timeout.disconnect()
    w.timeline._timer.timeout.connect(tick)
    w.timeline.play(True)
    for _ in range(30):  # warm up (level of detail, shader programs)
        app.processEvents()
        time.sleep(0.005)
    frames[0] = ticks[0] = 0
    t0, c0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds:
        app.processEvents()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    w.timeline.play(False)
    n = max(frames[0], 1)
    print(f"puma playback ({mode}, {size[0]}x{size[1]}): {frames[0] / wall:.1f} frames/s drawn "
          f"({ticks[0] / wall:.1f} ticks/s) over {wall:.1f} s; "
          f"CPU {1000 * cpu / n:.2f} ms a frame ({100 * cpu / wall:.0f}% of one core); "
          f"undo steps {w.doc.undo_stack.count()}, modified {w.doc.modified}")


if __name__ == "__main__":
    main()
