"""Issue 31's lecture walk as a lecturer gives it: the real app in a subprocess, Present mode on,
then only a clicker's keys as X events (PageDown, Space, Right, PageUp, Left, Home, End, B, ".")
through every step of the FK lecture's six worked examples and the Puma. What each step shows is
read from the app's walk trace (``KINETREE_WALK_TRACE``, :mod:`kinetree.app.panels.explain`), the
screen, and the file Ctrl+S saves at the end (no joint moved)."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from helpers.desktop import STATUS_BAR, needs_desktop
from helpers.legibility import unicode_scripts
from kinetree.core import load_robot
from kinetree.core.io.project import project_text

pytestmark = needs_desktop

SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
#: Aᵢ as the FK lecture prints it (its examples 1–6: two-link planar, cylindrical, spherical wrist,
#: cylindrical arm with that wrist, Stanford, SCARA), rows split by "/", the printed number first
_CYL = {1: "c1 -s1 0 0 / s1 c1 0 0 / 0 0 1 d1 / 0 0 0 1", 2: "1 0 0 0 / 0 0 1 0 / 0 -1 0 d2 / 0 0 0 1",
        3: "1 0 0 0 / 0 1 0 0 / 0 0 1 d3 / 0 0 0 1"}
_WRIST = {4: "c4 0 -s4 0 / s4 0 c4 0 / 0 -1 0 0 / 0 0 0 1", 5: "c5 0 s5 0 / s5 0 -c5 0 / 0 1 0 0 / 0 0 0 1",
          6: "c6 -s6 0 0 / s6 c6 0 0 / 0 0 1 d6 / 0 0 0 1"}
PRINTED = {
    "two_link_planar": {1: "c1 -s1 0 a1*c1 / s1 c1 0 a1*s1 / 0 0 1 0 / 0 0 0 1",
                        2: "c2 -s2 0 a2*c2 / s2 c2 0 a2*s2 / 0 0 1 0 / 0 0 0 1"},
    "cylindrical": _CYL,
    "spherical_wrist": _WRIST,
    "cylindrical_wrist": {**_CYL, **_WRIST},
    # the lecture prints A₅'s third row [0 −1 0 0]; its own table (α₅ = +90°) gives [0 1 0 0]
    # (kinetree.core.library.stanford_lecture)
    "stanford_lecture": {1: "c1 0 -s1 0 / s1 0 c1 0 / 0 -1 0 0 / 0 0 0 1",
                         2: "c2 0 s2 0 / s2 0 -c2 0 / 0 1 0 d2 / 0 0 0 1", 3: _CYL[3], **_WRIST},
    "scara": {1: "c1 -s1 0 a1*c1 / s1 c1 0 a1*s1 / 0 0 1 0 / 0 0 0 1",
              2: "c2 s2 0 a2*c2 / s2 -c2 0 a2*s2 / 0 0 -1 0 / 0 0 0 1", 3: _CYL[3],
              4: "c4 -s4 0 0 / s4 c4 0 0 / 0 0 1 d4 / 0 0 0 1"},
}
#: a pose with every joint away from zero (a T shown at q = 0 proves little)
POSES = {"two_link_planar": [0.4, -0.7], "cylindrical": [0.4, 0.5, 0.3], "spherical_wrist": [0.4, 0.5, -0.3],
         "cylindrical_wrist": [0.4, 0.5, 0.3, 0.6, -0.5, 0.3], "stanford_lecture": [0.3, 0.7, 0.4, 0.5, 0.6, -0.2],
         "scara": [0.4, -0.6, 0.1, 0.5], "puma560": [0.3, 0.7, -0.4, 0.5, 0.6, -0.2]}
#: the clicker's forward keys, in turn (X key names)
FORWARD = ("Next", "space", "Right")


def printed(robot: str, number: int, tree, body: str) -> list[list[str]]:
    """The lecture's Aᵢ; the Puma (not in that lecture) as core's symbolic model writes it; in the
    lecture's notation (a₁c₁, −s₁: :func:`lecture_entry`), as the walk prints it."""
    from kinetree.app.panels.explain_symbolic import lecture_entry

    if robot in PRINTED:
        return [[lecture_entry(x) for x in row.split()] for row in PRINTED[robot][number].split(" / ")]
    from kinetree.core.teach.symbolic import symbolic_model, to_text

    A = symbolic_model(tree, body, "symbolic", link=number, revolute="theta")
    return [[lecture_entry(to_text(A.matrix[r, c], A.order[r][c])) for c in range(4)] for r in range(4)]


class Trace:
    """The app's walk trace: one JSON line per step it came to rest on."""

    def __init__(self, path) -> None:
        self.path, self.seen = path, 0

    def next(self, seconds: float = 60) -> dict:
        """The next step the walk comes to rest on."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            lines = self.path.read_text(encoding="utf-8").splitlines() if self.path.exists() else []
            if len(lines) > self.seen and lines[self.seen].endswith("}"):
                self.seen += 1
                return json.loads(lines[self.seen - 1])
            time.sleep(0.05)
        raise AssertionError(f"the walk wrote no step after {self.seen} steps")

    def quiet(self) -> bool:
        """No step written since the last one read."""
        return len(self.path.read_text(encoding="utf-8").splitlines()) == self.seen


def numbers(text: str) -> np.ndarray:
    return np.array([float(x) for x in text.replace("−", "-").split()])


def black(screen: np.ndarray) -> bool:
    return bool((screen.max(axis=2) < 8).mean() > 0.99)


@pytest.mark.parametrize("robot", [*PRINTED, "puma560"])
def test_a_clicker_walks_every_lecture_example_through_the_window_system(desktop, tmp_path, robot):
    tree = load_robot(robot)
    q0 = np.array(POSES[robot])
    path = tmp_path / f"{robot}.kinetree.json"
    before = project_text(tree, q0, compact=True)  # on one line: the app's save (indented) is told apart
    path.write_text(before)
    trace = Trace(tmp_path / "walk.jsonl")
    desktop.env["KINETREE_WALK_TRACE"] = str(trace.path)
    desktop.start(str(path))
    desktop.click(*STATUS_BAR)  # the window has the keys
    desktop.key("F11")  # Present mode; from here on a clicker's keys only, until Ctrl+S
    desktop.key("Next")  # the walk begins: the DH table
    first = trace.next()
    assert (first["step"], first["link"], first["selected"], first["A"]) == (0, 0, None, None)
    assert "DH table" in first["formula"]
    numbered = sorted(PRINTED.get(robot, range(1, len(q0) + 1)))  # the lecture's numbers (the wrist's 4, 5, 6)
    n = len(numbered)
    bodies = [b.name for b in tree.bodies if b.joint.type != "fixed"][:n]
    assert first["of"] == 4 * n
    last_screen = desktop.grab()
    for k in range(1, 4 * n + 1):
        desktop.xdotool("key", FORWARD[k % len(FORWARD)])
        shown = trace.next()
        i = (k + 3) // 4
        assert (shown["step"], shown["link"], shown["selected"]) == (k, i, bodies[i - 1]), shown
        assert f"A{str(numbered[i - 1]).translate(SUB)}</b>" in unicode_scripts(shown["formula"])
        assert shown["A"] == printed(robot, numbered[i - 1], tree, bodies[i - 1]), (k, shown["A"])
        assert shown["q"] == q0.tolist()  # no clicker key moved a joint
        if k % 4 == 0:  # Aᵢ done: Tᵢ⁰ is frame i in frame 0
            T = numbers(shown["T"]).reshape(4, 4)
            assert np.allclose(T, tree.get_transform(q0, bodies[i - 1]), atol=1e-3), (k, shown["T"])
            if i in (1, n):  # and on the screen, something else than before (the link's frames)
                desktop.settle()
                screen = desktop.grab()
                assert not black(screen) and np.abs(screen - last_screen).max(axis=2).mean() > 0.002
                last_screen = screen
    # back, as a presentation program: one step per key
    for key, k in (("Prior", 4 * n - 1), ("Left", 4 * n - 2)):
        desktop.xdotool("key", key)
        assert trace.next()["step"] == k
    desktop.xdotool("key", "Home")  # the first slide at once: the DH table, no link selected
    home = trace.next()
    assert (home["step"], home["link"], home["selected"]) == (0, 0, None) and "DH table" in home["formula"]
    desktop.xdotool("key", "End")  # the last step at once: T_n⁰, the last link selected
    end = trace.next()
    assert (end["step"], end["link"], end["selected"]) == (4 * n, n, bodies[-1])
    assert np.allclose(numbers(end["T"]).reshape(4, 4), tree.get_transform(q0, bodies[-1]), atol=1e-3)
    desktop.settle()
    slide = desktop.grab()
    for key in ("b", "period"):  # a black screen; the same key again: back where it was
        desktop.key(key)
        assert black(desktop.grab())
        desktop.key(key)
        assert (np.abs(desktop.grab() - slide).max(axis=2) > 40).mean() < 0.01
    assert trace.quiet()  # B and "." are no steps
    desktop.key("ctrl+s")  # saved where it was opened from: the joint values as they were
    end_time = time.monotonic() + 30
    while path.read_text() == before and time.monotonic() < end_time:
        time.sleep(0.1)
    saved = json.loads(path.read_text())
    assert path.read_text() != before and saved["configuration"] == q0.tolist()
