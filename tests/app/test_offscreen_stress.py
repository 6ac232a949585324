"""Offscreen rendering: it holds in a long-lived process that opens and closes windows between
renders (300 images, each checked, in a subprocess: a crash fails the test, not the suite), and
an image for export shows the robot, not the tools."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage

_STRESS = r"""
import sys
import numpy as np
from PySide6.QtGui import QImage
from kinetree.app.widgets.application import make_application
from kinetree.app.model.document import RobotDocument
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


def test_an_image_for_export_leaves_the_drag_handles_out(qtbot):
    from kinetree.app.cli.display import offscreen_view
    from kinetree.core import load_robot

    tree = load_robot("puma560")
    _doc, view = offscreen_view(tree, np.array([0.1, -0.4, 0.7, 0.3, -1.2, 2.0]), (320, 240))  # README's picture
    view.fit()
    handles = [it for h in (view.ik_handle, view.frame_handle) for it in h.items()]
    assert view.ik_handle.rings.visible()  # the window shows the end effector's handle

    def image() -> np.ndarray:
        img = view.render_image(320, 240).convertToFormat(QImage.Format.Format_RGB32)
        return np.array(img.constBits(), dtype=np.uint8).reshape(240, img.bytesPerLine() // 4, 4)[:, :320].copy()

    view.repaint()  # a real frame: the grid follows the fitted camera, the labels are laid out
    image()
    with_handles = image()
    shown = [it for it in handles if it.visible()]
    for it in shown:
        it.setVisible(False)
    without = image()
    for it in shown:
        it.setVisible(True)
    np.testing.assert_array_equal(with_handles, without)
    view.close()


def test_readmes_screenshot_command_reproduces_readmes_picture(tmp_path):
    import re
    from pathlib import Path

    import imageio.v3 as iio
    from kinetree.app.main import main

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    command = re.search(r"\(made with `kinetree (screenshot puma560 [^`]*)`\)", readme).group(1).split()
    out = tmp_path / "puma.png"
    command[command.index("-o") + 1] = str(out)
    assert main(command) == 0
    mine = iio.imread(out)[..., :3].astype(int)
    readmes = iio.imread(root / "resources" / "screenshots" / "puma560.png")[..., :3].astype(int)
    assert mine.shape == readmes.shape
    differing = (np.abs(mine - readmes).max(axis=2) > 48).mean()  # antialiasing may differ by a shade
    assert differing < 0.005, f"{differing:.2%} of the pixels differ from README's picture"
