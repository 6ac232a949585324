"""Offscreen rendering holds in a long-lived process that opens and closes windows between
renders: 300 images, each checked, in a subprocess (a crash fails the test, not the suite)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

_STRESS = r"""
import sys
import numpy as np
from PySide6.QtGui import QImage
from kinetree.app.application import make_application
from kinetree.app.document import RobotDocument
from kinetree.app.viewport.view import RobotViewport
from kinetree.core import load_robot

app = make_application()
robots = [load_robot(name) for name in ("puma560", "scara", "two_link_planar")]
open_views = []
for i in range(int(sys.argv[1])):
    tree = robots[i % 3]
    doc = RobotDocument(tree)
    doc.load(tree, tree.random_configuration())
    view = RobotViewport(doc)
    view.resize(200 + i % 7 * 30, 150)
    if i % 2:
        view.show()  # asked to show, but not yet exposed: its window has no GL context yet
    if i % 5 == 0:
        app.processEvents()  # now some have shown and drawn, with contexts of their own
    open_views.append(view)
    w, h = (64 + 17 * (i % 11), 48 + 13 * (i % 7))
    img = open_views[(i * 7) % len(open_views)].render_image(w, h).convertToFormat(QImage.Format.Format_RGB32)
    a = np.array(img.constBits(), dtype=np.uint8).reshape(h, img.bytesPerLine() // 4, 4)[:, :w, :3]
    if img.width() != w or img.height() != h or len(np.unique(a.reshape(-1, 3), axis=0)) < 3:
        sys.exit(f"render {i}: a {img.width()}x{img.height()} image with no scene drawn")
    while len(open_views) > 3:  # windows closed and deleted between renders, some never shown
        gone = open_views.pop(i % 3)
        gone.close()
        gone.deleteLater()
    app.processEvents()
print("rendered", i + 1)
"""


@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs an X display (pytest-xvfb gives one)")
def test_300_renders_while_windows_open_and_close():
    r = subprocess.run([sys.executable, "-c", _STRESS, "300"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, (r.returncode, r.stdout[-2000:], r.stderr[-3000:])
    assert "rendered 300" in r.stdout
