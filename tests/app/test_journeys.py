"""Journeys through the real app, as a person makes them: ``kinetree`` runs in a subprocess on
an X server of its own, keys and clicks are X events (xdotool) that go wherever the focus is,
and what came of them is read from the saved file and from the screen."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import imageio.v3 as iio
import numpy as np
import pytest

TOOLS = ("Xvfb", "xdotool", "import")
pytestmark = pytest.mark.skipif(sys.platform != "linux" or not all(shutil.which(t) for t in TOOLS),
                                reason="needs Xvfb, xdotool and ImageMagick's import (.ci/run installs them)")
SCREEN = (1280, 800)
DARK_BACKGROUND = (28, 30, 36)  # the viewport's, in the dark theme


class Desktop:
    """A private X screen with the app on it; every input is an X event."""

    def __init__(self, tmp: Path) -> None:
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
                                      "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        self.env = {**os.environ, "DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb", "HOME": str(tmp),
                    "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data")}
        self.tmp = tmp
        self.app: subprocess.Popen | None = None

    def start(self, *args: str) -> None:
        self.app = subprocess.Popen([sys.executable, "-m", "kinetree.app", *args], env=self.env,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.xdotool("search", "--sync", "--onlyvisible", "--name", "KineTree", timeout=120)
        self.settle()

    def xdotool(self, *args: str, timeout: float = 30) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, check=True,
                              timeout=timeout).stdout

    def key(self, *keys: str) -> None:
        for k in keys:
            self.xdotool("key", k)
            self.settle()

    def click(self, x: int, y: int) -> None:
        self.xdotool("mousemove", str(x), str(y), "click", "1")
        self.settle()

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "20", text)

    def grab(self) -> np.ndarray:
        out = self.tmp / "screen.png"
        subprocess.run(["import", "-window", "root", str(out)], env=self.env, check=True, timeout=60)
        return iio.imread(out)[..., :3].astype(int)

    def settle(self, quiet: float = 0.4, limit: float = 20) -> None:
        """Wait until the screen has not changed for ``quiet`` seconds (the app has done what the
        last input asked), at most ``limit`` seconds."""
        end, last, since = time.monotonic() + limit, None, time.monotonic()
        while time.monotonic() < end:
            out = subprocess.run(["import", "-window", "root", "-depth", "8", "rgb:-"], env=self.env,
                                 capture_output=True, timeout=60).stdout
            if out != last:
                last, since = out, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.1)

    def close(self) -> str:
        text = ""
        if self.app is not None:
            self.app.kill()
            text = self.app.communicate(timeout=30)[0]
        self.xvfb.terminate()
        self.xvfb.wait(timeout=10)
        return text


@pytest.fixture
def desktop(tmp_path):
    d = Desktop(tmp_path)
    yield d
    d.close()


def viewport_rect(screen: np.ndarray) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of the 3D view: where its plain background shows."""
    ys, xs = np.nonzero(np.all(screen == DARK_BACKGROUND, axis=2))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def wait_for(path: Path, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert path.exists(), f"{path} was not written"


def test_readmes_getting_started_by_keyboard_ends_with_the_whole_arm_in_view(desktop, tmp_path):
    desktop.start()  # `kinetree`: an empty robot, whose view says to press Ctrl+Shift+A
    x0, y0, x1, y1 = viewport_rect(desktop.grab())
    desktop.click((x0 + x1) // 2, (y0 + 3 * y1) // 4)  # a click in the view: it has the keys now
    desktop.key("ctrl+shift+a", "ctrl+shift+a", "ctrl+shift+a")  # three 0.3 m revolute links

    def arm_in_view() -> tuple[bool, tuple]:
        # the links (light grey, lit) are all inside the view, none cut by its edges: before, the
        # camera stayed at the empty robot's few centimetres and one cylinder filled the view
        view = desktop.grab()[y0 + 40:y1 - 40, x0 + 12:x1 - 12]  # inside its tool bar, grid label, edge marks
        links = (view.min(axis=2) > 150) & (np.ptp(view, axis=2) < 40)
        ys, xs = np.nonzero(links)
        if links.sum() < 300:
            return False, ("no links drawn", int(links.sum()))
        box = (int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max()), view.shape[:2])
        return xs.min() > 5 and xs.max() < view.shape[1] - 6 and ys.min() > 5 and ys.max() < view.shape[0] - 6, box

    end = time.monotonic() + 30  # a loaded machine may still be drawing the last key's result
    while not (seen := arm_in_view())[0] and time.monotonic() < end:
        time.sleep(0.5)
    assert seen[0], seen[1]
    desktop.key("ctrl+s")  # Save: the file dialog takes the typed name
    desktop.xdotool("search", "--sync", "--onlyvisible", "--name", "Save robot")
    saved = tmp_path / "arm.kinetree.json"
    desktop.type(str(saved))
    desktop.key("Return")
    wait_for(saved)
    bodies = json.loads(saved.read_text())["bodies"]
    assert [b["joint"]["type"] for b in bodies] == ["revolute"] * 3
    assert [b["parent"] for b in bodies] == ["base", bodies[0]["name"], bodies[1]["name"]]
    assert all(b["visuals"][0]["kind"] == "cylinder" for b in bodies[:2])  # link geometry drawn by Add child
