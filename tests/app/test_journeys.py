"""Journeys through the real app, as a person makes them: ``kinetree`` runs in a subprocess on
an X server of its own, keys and clicks are X events (xdotool) that go wherever the focus is,
and what came of them is read from the saved file and from the screen."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from helpers.desktop import (
    ADD_FIXED,
    ADD_MENU,
    ADD_PRISMATIC,
    SIM_PLAY,
    assert_links_in_view,
    needs_desktop,
    viewport_rect,
    wait_for,
)

pytestmark = needs_desktop


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
