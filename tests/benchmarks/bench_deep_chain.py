"""GUI benchmark (issue 17): open an N-row DH chain (N bodies, N levels deep) in the real window
through File ▸ Open's path, timed to the first frame drawn after it. Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_deep_chain.py [N ...] [--profile]

``--profile`` writes ``deep_chain_N.prof`` (cProfile) for each N.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

ONE = r"""
import sys, tempfile, time
from kinetree.app.main import make_application
from kinetree.app.window.main_window import MainWindow
from PySide6.QtCore import QSettings, QTimer

app = make_application(sys.argv)
w = MainWindow(settings=QSettings(tempfile.mktemp(suffix=".ini"), QSettings.Format.IniFormat))
w.quiet = True
w.resize(1280, 800)
w.show()
app.processEvents()
prof = None
if len(sys.argv) > 2:
    import cProfile
    prof = cProfile.Profile()
t, opened = [], []

def swapped():  # the first frame drawn after the robot was opened
    if opened and len(t) == 1:
        t.append(time.perf_counter())
        app.quit()

def go():
    t.append(time.perf_counter())
    if prof:
        prof.enable()
    w.open_source(sys.argv[1], ask=False)
    opened.append(time.perf_counter())
    w.viewport.update()

w.viewport.frameSwapped.connect(swapped)
QTimer.singleShot(0, go)
app.exec()
if prof:
    prof.disable()
    prof.dump_stats(sys.argv[2])
print(f"{w.doc.tree.num_bodies} bodies: open {opened[0] - t[0]:.2f} s, first frame {t[1] - t[0]:.2f} s")
w.doc.undo_stack.setClean()
"""


def main(argv: list[str]) -> None:
    profile = "--profile" in argv
    sizes = [int(a) for a in argv if a != "--profile"] or [10000, 40000]
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            path = Path(tmp) / f"chain{n}.csv"
            path.write_text("type,a,alpha,d,theta\n" + "R,0.01,0,0,q\n" * n)
            extra = [f"deep_chain_{n}.prof"] if profile else []
            subprocess.run([sys.executable, "-c", ONE, str(path), *extra], check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
