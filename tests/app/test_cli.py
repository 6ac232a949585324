"""The command line: ``python -m kinetree.app screenshot`` with and without a display."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from PySide6.QtGui import QImage


def _env(keep_display: bool) -> dict[str, str]:
    env = dict(os.environ)
    if not keep_display:
        env.pop("DISPLAY", None)
        env.pop("QT_QPA_PLATFORM", None)
        env.pop("WAYLAND_DISPLAY", None)
    return env


def _run(args, keep_display):
    return subprocess.run([sys.executable, "-m", "kinetree.app", *args], env=_env(keep_display),
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("keep_display", [False, True], ids=["own-xvfb", "display"])
def test_screenshot_writes_png(tmp_path, keep_display):
    if keep_display and not os.environ.get("DISPLAY"):
        pytest.skip("no DISPLAY to keep")
    png = tmp_path / "shot.png"
    r = _run(["screenshot", "puma560", "-o", str(png), "--size", "320x240"], keep_display)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    img = QImage(str(png))
    assert not img.isNull()
    assert (img.width(), img.height()) == (320, 240)
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    a = np.frombuffer(img.constBits(), np.uint8, count=img.bytesPerLine() * 240).reshape(
        240, img.bytesPerLine() // 4, 4)[:, :320, :3].astype(int)
    red = (a[..., 0] > 180) & (a[..., 1] < 80) & (a[..., 2] < 80)
    green = (a[..., 1] > 110) & (a[..., 0] < 80) & (a[..., 2] < 80)
    assert red.sum() >= 5 and green.sum() >= 5


@pytest.mark.parametrize("keep_display", [False, True], ids=["own-xvfb", "display"])
def test_screenshot_bad_robot_is_one_line_error(tmp_path, keep_display):
    png = tmp_path / "shot.png"
    r = _run(["screenshot", "no_such_robot", "-o", str(png)], keep_display)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kinetree screenshot: ") and "no_such_robot" in lines[0]
    assert not png.exists()


def test_screenshot_bad_size_is_usage_error(tmp_path):
    r = _run(["screenshot", "puma560", "-o", str(tmp_path / "x.png"), "--size", "big"], True)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr and "size" in r.stderr
