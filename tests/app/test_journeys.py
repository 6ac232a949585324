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


@pytest.fixture
def desktop(tmp_path):
    d = Desktop(tmp_path)
    yield d
    print(d.close())  # the app's output, shown when the test fails


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


def test_readmes_getting_started_by_keyboard_ends_with_the_whole_arm_in_view(desktop, tmp_path):
    desktop.start()  # `kinetree`: an empty robot, whose view says to press Ctrl+Shift+A
    x0, y0, x1, y1 = viewport_rect(desktop.grab())
    desktop.click((x0 + x1) // 2, (y0 + 3 * y1) // 4)  # a click in the view: it has the keys now
    desktop.key("ctrl+shift+a", "ctrl+shift+a", "ctrl+shift+a")  # three 0.3 m revolute links
    # before, the camera stayed at the empty robot's few centimetres and one cylinder filled the
    # view edge to edge
    assert_links_in_view(desktop, (x0, y0, x1, y1))
    desktop.key("ctrl+s")  # Save: the file dialog takes the typed name
    desktop.wait_window("Save robot")
    saved = tmp_path / "arm.kinetree.json"
    desktop.type(str(saved))
    desktop.key("Return")
    wait_for(saved)
    bodies = json.loads(saved.read_text())["bodies"]
    assert [b["joint"]["type"] for b in bodies] == ["revolute"] * 3
    assert [b["parent"] for b in bodies] == ["base", bodies[0]["name"], bodies[1]["name"]]
    assert all(b["visuals"][0]["kind"] == "cylinder" for b in bodies[:2])  # link geometry drawn by Add child


def orange(screen: np.ndarray, rect: tuple[int, int, int, int]) -> np.ndarray:
    """Where the view shows the meshes' orange (lit: any brightness, the hue kept)."""
    x0, y0, x1, y1 = rect
    view = screen[y0 + 40:y1 - 40, x0:x1]  # below its tool bar, above its grid label
    r, g, b = (view[..., i] for i in range(3))
    return (r > 80) & (g > 0.3 * r) & (g < 0.75 * r) & (b < 0.35 * r)


def write_meshes(folder: Path) -> None:
    """A 0.3 m bar and a ball, as binary STL files written by trimesh."""
    trimesh = pytest.importorskip("trimesh")
    trimesh.creation.box((0.1, 0.1, 0.3)).export(folder / "link.stl")
    trimesh.creation.icosphere(radius=0.08).export(folder / "ball.stl")


def details(path: Path) -> subprocess.CompletedProcess:
    """``kinetree details PATH``, KineTree's own reader in a process of its own."""
    return subprocess.run([sys.executable, "-m", "kinetree.app", "details", str(path)], capture_output=True,
                          text=True, timeout=120)


def body_rows(table: str) -> list[list[str]]:
    """The body, joint, type and parent columns of a ``details`` table."""
    return [line.split()[1:5] for line in table.splitlines() if line[:1].isdigit()]


def test_mjcf_with_meshes_simulated_exported_as_sdf_and_reopened_draws_the_same_meshes(desktop, tmp_path):
    write_meshes(tmp_path)
    # the bars' mass sits off their joints' axes: the arm falls when let go
    mjcf = tmp_path / "arm.xml"
    mjcf.write_text("""<mujoco model="arm">
  <asset><mesh name="link" file="link.stl"/><mesh name="ball" file="ball.stl"/></asset>
  <worldbody>
    <body name="upper" pos="0 0 0.1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="mesh" mesh="link" rgba="1 0.5 0 1" pos="0.05 0 0.15"/>
      <body name="lower" pos="0 0 0.3">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="mesh" mesh="link" rgba="1 0.5 0 1" pos="0.05 0 0.15"/>
        <body name="hand" pos="0 0 0.3">
          <joint name="wrist" type="hinge" axis="1 0 0"/>
          <geom type="mesh" mesh="ball" rgba="1 0.5 0 1"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
""")
    out = tmp_path / "export" / "arm.sdf"
    out.parent.mkdir()
    desktop.start()
    rect = viewport_rect(desktop.grab())
    desktop.click((rect[0] + rect[2]) // 2, (rect[1] + 3 * rect[3]) // 4)  # the view has the keys
    desktop.key("ctrl+o")  # File ▸ Open
    desktop.dialog("Open robot", str(mjcf))
    desktop.wait_window("arm.xml")  # the title names it
    desktop.refocus()
    before = orange(desktop.grab(), rect)
    assert before.sum() > 2000, "the MJCF's meshes are not drawn"
    desktop.click((rect[0] + rect[2]) // 2, rect[3] - 30)  # back in the view (the grid, no body there)
    desktop.key("s")  # View ▸ Simulate: its dock shows
    desktop.click(*SIM_PLAY, settle=False)  # Play: the screen moves until Pause
    # the arm falls (on a new machine the first run waits for numba to compile the step: a minute)
    end = time.monotonic() + 180
    while ((orange(desktop.grab(), rect) ^ before).sum() <= 0.3 * before.sum()
           and time.monotonic() < end):
        time.sleep(0.5)
    desktop.click(*SIM_PLAY)  # Pause
    fallen = orange(desktop.grab(), rect)
    assert fallen.sum() > 1000, "the meshes vanished while simulating"
    assert (fallen ^ before).sum() > 0.3 * before.sum(), "the arm did not move when let go"
    desktop.key("ctrl+shift+e")  # File ▸ Export: the file's suffix picks SDFormat
    desktop.dialog("Export robot", str(out))
    wait_for(out)
    desktop.refocus()
    desktop.key("ctrl+o")
    desktop.dialog("Open robot", str(out))
    desktop.wait_window("arm.sdf")
    desktop.settle()
    again = orange(desktop.grab(), rect)
    # the same meshes, at the same (home) pose, framed the same way as the MJCF was
    assert abs(int(again.sum()) - int(before.sum())) < 0.1 * before.sum(), (again.sum(), before.sum())
    assert (again ^ before).sum() < 0.2 * before.sum()
    # the file: every mesh it names exists, and KineTree's reader takes it without a warning
    import xml.etree.ElementTree as ET

    uris = [u.text for u in ET.parse(out).iter("uri")]
    assert len(uris) >= 3 and all((out.parent / u).resolve().is_file() for u in uris), uris
    read = details(out)
    assert read.returncode == 0 and "warning" not in read.stderr.lower(), read.stderr
    assert body_rows(read.stdout) == body_rows(details(mjcf).stdout)


def test_urdf_with_meshes_exported_as_mjcf_and_reopened_has_the_same_bodies_and_meshes(desktop, tmp_path):
    write_meshes(tmp_path)
    joints = "".join(f"""
  <joint name="{j}" type="revolute"><parent link="{p}"/><child link="{c}"/><origin xyz="0 0 {z}"/>
    <axis xyz="{axis}"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="{c}"><visual><origin xyz="0 0 {vz}"/><geometry><mesh filename="{m}.stl"/></geometry>
    <material name="orange"/></visual></link>"""
                     for j, p, c, z, axis, vz, m in (("shoulder", "base", "upper", 0.1, "0 1 0", 0.15, "link"),
                                                     ("elbow", "upper", "lower", 0.3, "0 1 0", 0.15, "link"),
                                                     ("wrist", "lower", "hand", 0.3, "1 0 0", 0, "ball")))
    urdf = tmp_path / "arm.urdf"
    urdf.write_text(f"""<robot name="arm">
  <material name="orange"><color rgba="1 0.5 0 1"/></material>
  <link name="base"/>{joints}
</robot>
""")
    out = tmp_path / "export" / "arm.xml"
    out.parent.mkdir()
    desktop.start()
    rect = viewport_rect(desktop.grab())
    desktop.click((rect[0] + rect[2]) // 2, (rect[1] + 3 * rect[3]) // 4)
    desktop.key("ctrl+o")
    desktop.dialog("Open robot", str(urdf))
    desktop.wait_window("arm.urdf")
    desktop.refocus()
    before = orange(desktop.grab(), rect)
    assert before.sum() > 2000, "the URDF's meshes are not drawn"
    desktop.key("ctrl+shift+e")
    desktop.dialog("Export robot", str(out))
    wait_for(out)
    desktop.refocus()
    desktop.key("ctrl+o")
    desktop.dialog("Open robot", str(out))
    desktop.wait_window("arm.xml")
    desktop.settle()
    again = orange(desktop.grab(), rect)
    assert abs(int(again.sum()) - int(before.sum())) < 0.1 * before.sum(), (again.sum(), before.sum())
    assert (again ^ before).sum() < 0.2 * before.sum()
    read = details(out)
    assert read.returncode == 0 and "warning" not in read.stderr.lower(), read.stderr
    assert body_rows(read.stdout) == body_rows(details(urdf).stdout)
    import xml.etree.ElementTree as ET

    files = [m.get("file") for m in ET.parse(out).iter("mesh")]
    assert len(files) == 2 and all((out.parent / f).is_file() for f in files), files


def handle_x_arrow(screen: np.ndarray, rect: tuple[int, int, int, int]) -> tuple[int, int]:
    """A point on the W handle's x arrow: the middle of the view's pure red, most of which is that
    thick arrow (the frames' x axes are thin)."""
    x0, y0, x1, y1 = rect
    view = screen[y0 + 40:y1 - 40, x0:x1]
    ys, xs = np.nonzero((view[..., 0] > 200) & (view[..., 1] < 60) & (view[..., 2] < 60))
    assert len(xs) > 100, "no move handle drawn"
    return int(np.median(xs)) + x0, int(np.median(ys)) + y0 + 40


def test_a_scara_built_in_the_view_with_typed_lengths_saves_exactly_0_4_and_0_3(desktop, tmp_path):
    desktop.start()
    rect = viewport_rect(desktop.grab())
    desktop.click((rect[0] + rect[2]) // 2, (rect[1] + 3 * rect[3]) // 4)  # the view has the keys
    desktop.key("ctrl+shift+a", "ctrl+shift+a", "w")  # R at the base, R 0.3 m along x; the move handle

    def set_length(amount: str) -> None:
        """Drag the selected frame's x arrow a little, then type the exact amount it moves by."""
        desktop.drag(*handle_x_arrow(desktop.grab(), rect), -15, 8)
        desktop.type(amount)
        desktop.key("Return")

    set_length("0.1")  # 0.3 + 0.1: the first link 0.4 m
    desktop.click(*ADD_MENU)
    desktop.click(*ADD_PRISMATIC)  # the vertical P, one parent's link length (0.4) along x ...
    set_length("-0.1")  # ... cut to 0.3 m
    # the wrist R, another 0.3 m out: its origin lands a few pixels inside the view's left edge,
    # and the view refits (it did not: the handle to drag next was cut by the edge)
    desktop.key("ctrl+shift+a")
    set_length("-0.3")  # ... back onto the P's axis
    desktop.click(*ADD_MENU)
    desktop.click(*ADD_FIXED)  # the tool
    assert_links_in_view(desktop, rect)  # the whole arm on the screen
    desktop.key("ctrl+s")
    saved = tmp_path / "scara.kinetree.json"
    desktop.dialog("Save robot", str(saved))
    wait_for(saved)
    text = saved.read_text()
    bodies = json.loads(text)["bodies"]
    assert [b["joint"]["type"] for b in bodies] == ["revolute", "revolute", "prismatic", "revolute", "fixed"]
    assert [b["parent"] for b in bodies[1:]] == [b["name"] for b in bodies[:-1]]
    offsets = [[row[3] for row in b["joint"]["joint_to_parent_transform"][:3]] for b in bodies[:4]]
    assert offsets == [[0, 0, 0], [0.4, 0, 0], [0.3, 0, 0], [0, 0, 0]], offsets  # exactly, as typed
    assert "0.30000000000000004" not in text and "0.39999999999999997" not in text
    assert bodies[2]["joint"]["axis"] == [0, 0, 1]  # vertical
