"""Picking benchmark: time of one click pick and one hover pick on Talos with its meshes (205k
triangles; targets ≤ 10 ms a click, ≤ 5 ms a hover move). Run under X by hand:

    xvfb-run -a -s "-screen 0 1920x1080x24" python tests/benchmarks/bench_pick.py

Clicks land on the projected centre of each body's drawn geometry (the pick must find a body
there), hovers on a grid of pixels over the whole viewport (most of them over nothing or a
body's bounding sphere only). Last, what an id buffer would cost at least (why picking casts
rays instead): the meshes drawn once into a tiny image.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_gui import talos  # noqa: E402


def main() -> None:
    from kinetree.app.main import make_application
    from robots import fresh_window

    tree = talos()
    if tree is None:
        print("Talos: example-robot-data is not installed")
        return
    app = make_application()
    w = fresh_window()
    w.doc.load(tree)
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    vp = w.viewport
    vp.fit()
    vp.repaint()
    picker = vp.picker
    t = time.perf_counter()
    picker._geometry()
    print(f"Talos: {picker._geometry().v0.shape[0]} triangles; first pick builds them in "
          f"{(time.perf_counter() - t) * 1e3:.1f} ms (once per edit)")
    poses = vp._slot_poses()
    tri = picker._geometry()
    clicks, found = [], 0
    for k in tri.bodies:
        piece = np.flatnonzero(tri.owner == k)[0]
        c = poses[k, :3, :3] @ tri.center[piece] + poses[k, :3, 3]
        x, y = vp.project(c[None])[0]
        if not (0 <= x < vp.width() and 0 <= y < vp.height()):
            continue
        t = time.perf_counter()
        hit = picker.body_at(x, y)
        clicks.append(time.perf_counter() - t)
        found += hit is not None
    hovers = []
    for x in np.linspace(5, vp.width() - 5, 24):
        for y in np.linspace(5, vp.height() - 5, 16):
            t = time.perf_counter()
            picker.body_at(x, y)
            hovers.append(time.perf_counter() - t)
    ms = 1e3
    print(f"click: {len(clicks)} picks at body centres ({found} on a body): median "
          f"{statistics.median(clicks) * ms:.2f} ms, 90th percentile {np.percentile(clicks, 90) * ms:.2f} ms, "
          f"max {max(clicks) * ms:.2f} ms (target 10)")
    print(f"hover: {len(hovers)} pixels over the view: median {statistics.median(hovers) * ms:.2f} ms, "
          f"90th percentile {np.percentile(hovers, 90) * ms:.2f} ms, "
          f"max {max(hovers) * ms:.2f} ms (target 5)")
    # an id buffer (each body drawn in its own colour, the pixel under the cursor read back)
    # must draw every triangle: a frame of the meshes alone into a tiny image is its lower bound
    vp.set_full_detail()
    hidden = [it for it in vp.items if it is not vp.batch and it.visible()]
    for it in hidden:
        it.setVisible(False)
    renders = []
    for _ in range(10):
        t = time.perf_counter()
        vp.renderToArray((16, 16))
        renders.append(time.perf_counter() - t)
    for it in hidden:
        it.setVisible(True)
    print(f"id buffer (lower bound): the meshes drawn into a 16×16 image and read back: median "
          f"{statistics.median(renders) * ms:.2f} ms, {statistics.median(renders) / statistics.median(clicks):.0f}× "
          f"a ray pick's median")
    w.close()


if __name__ == "__main__":
    main()
