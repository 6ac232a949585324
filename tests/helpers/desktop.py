"""The desktop the journey tests drive: ``kinetree`` runs in a subprocess on an X server of its
own, keys and clicks are X events (xdotool) that go wherever the focus is, and what came of them
is read from the saved file and from the screen (ImageMagick's ``import``)."""

from __future__ import annotations

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
needs_desktop = pytest.mark.skipif(sys.platform != "linux" or not all(shutil.which(t) for t in TOOLS),
                                reason="needs Xvfb, xdotool and ImageMagick's import (.ci/run installs them)")
SCREEN = (1280, 800)
DARK_BACKGROUND = (28, 30, 36)  # the viewport's, in the dark theme
# where things are in the default layout at 1280x800 (read off a grab)
STATUS_BAR = (640, 786)
SIM_PLAY = (943, 305)  # the Simulate dock's Play/Pause button, once S has shown it
ADD_MENU = (84, 51)  # the arrow beside the Bodies panel's Add child: its menu of joint types
ADD_FIXED, ADD_PRISMATIC = (64, 72), (76, 116)  # in that menu


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
        self.wait_first_frame()

    def wait_first_frame(self, seconds: float = 120) -> None:
        """Wait until the 3D view has drawn its background: on the fresh-clone CI at load 10 the
        window was shown and still for 0.4 s before its view had drawn a frame."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and not np.all(self.grab() == DARK_BACKGROUND, axis=2).any():
            time.sleep(0.2)

    def xdotool(self, *args: str, timeout: float = 30) -> str:
        return subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True, check=True,
                              timeout=timeout).stdout

    def key(self, *keys: str) -> None:
        for k in keys:
            self.xdotool("key", k)
            self.settle()

    def click(self, x: int, y: int, settle: bool = True) -> None:
        """A click at ``x, y``; then, with ``settle``, wait until the screen is still (not for a
        click that starts something moving)."""
        self.xdotool("mousemove", str(x), str(y), "click", "1")
        self.wait_focus()
        if settle:
            self.settle()

    def wait_focus(self, seconds: float = 20) -> None:
        """Wait until one of the app's windows has the X focus (the app asks for it when it handles
        a click): keys sent before go nowhere, and a loaded machine takes a while to get there."""
        root = self.xdotool("search", "--maxdepth", "0", "--name", "").split()[0]
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            done = subprocess.run(["xdotool", "getwindowfocus"], env=self.env, capture_output=True, text=True,
                                  timeout=30)
            if done.returncode == 0 and done.stdout.strip() not in ("", root):
                return
            time.sleep(0.1)
        raise AssertionError("the app never took the keyboard focus")

    def shows(self, title: str) -> bool:
        """Whether a window whose title has ``title`` (a regular expression) is on the screen."""
        # not xdotool's own --sync: a window closing while it walks the tree failed the search
        return subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title], env=self.env,
                              capture_output=True, timeout=30).returncode == 0

    def wait_window(self, title: str, shown: bool = True, seconds: float = 60) -> None:
        end = time.monotonic() + seconds
        while self.shows(title) != shown:
            assert time.monotonic() < end, f"no window {title!r}" if shown else f"{title!r} stayed open"
            time.sleep(0.1)

    def dialog(self, title: str, text: str) -> None:
        """Type ``text`` into the file dialog titled ``title``, press Enter, wait until it is gone."""
        self.wait_window(title)
        self.type(text)
        self.xdotool("key", "Return")
        self.wait_window(title, shown=False)

    def refocus(self) -> None:
        """Give the main window the keys back, as a window manager does when a dialog closes (with
        none, X gives the focus to the root window and Qt drops the keys): a click on its status
        bar, once what the dialog started is done (its title names the file, the file is written):
        a window the app shows meanwhile and closes takes the focus away again."""
        self.click(*STATUS_BAR)

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "20", "--", text)  # "--": a typed "-0.1" is text, not an option

    def drag(self, x: int, y: int, dx: int, dy: int) -> None:
        """Press at ``x, y``, move by ``dx, dy`` in a few steps, release: one drag."""
        self.xdotool("mousemove", str(x), str(y), "mousedown", "1")
        for i in (1, 2, 3):
            self.xdotool("mousemove", str(x + dx * i // 3), str(y + dy * i // 3))
        self.xdotool("mouseup", "1")
        self.wait_focus()
        self.settle()

    def grab(self) -> np.ndarray:
        out = self.tmp / "screen.png"
        # PNG24: RGB always (a screen all grey, e.g. before the first frame, came back as a grey image)
        subprocess.run(["import", "-window", "root", f"PNG24:{out}"], env=self.env, check=True, timeout=60)
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


def viewport_rect(screen: np.ndarray) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of the 3D view: where its plain background shows."""
    ys, xs = np.nonzero(np.all(screen == DARK_BACKGROUND, axis=2))
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def links_in_view(screen: np.ndarray, rect: tuple[int, int, int, int]) -> tuple[bool, tuple]:
    """Whether the links drawn by Add child (light grey, lit) are all inside the view, none cut
    by its edges; and where they are."""
    x0, y0, x1, y1 = rect
    view = screen[y0 + 40:y1 - 40, x0 + 12:x1 - 12]  # inside its tool bar, its grid label and its edge marks
    links = (view.min(axis=2) > 150) & (np.ptp(view, axis=2) < 40)
    ys, xs = np.nonzero(links)
    if links.sum() < 300:
        return False, ("no links drawn", int(links.sum()))
    box = (int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max()), view.shape[:2])
    return bool(xs.min() > 5 and xs.max() < view.shape[1] - 6 and ys.min() > 5 and ys.max() < view.shape[0] - 6), box


def assert_links_in_view(desktop: Desktop, rect: tuple[int, int, int, int], seconds: float = 30) -> None:
    """:func:`links_in_view`, waited for: a loaded machine may still be drawing the last key's result."""
    end = time.monotonic() + seconds
    while not (seen := links_in_view(desktop.grab(), rect))[0] and time.monotonic() < end:
        time.sleep(0.5)
    assert seen[0], seen[1]


def wait_for(path: Path, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.1)
    assert path.exists(), f"{path} was not written"

