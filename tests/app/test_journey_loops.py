"""A four-bar built and closed in the real app through the X server in 15 inputs (issue 35, item
2): bodies added with the viewport keys (one length typed while moving with W), the loop closed by two
picks in the view with the Close loop tool (O), the crank slider dragged a full turn with the
mouse, the rocker read from the saved file against Freudenstein's closed form, and the project
opened again still closed, then exported as SDFormat and as MJCF and each export opened again
in the app, the loop still there and closed."""

from __future__ import annotations

import json
import math
import time

import numpy as np
from helpers.desktop import needs_desktop, viewport_rect, wait_for
from kinetree.core import compiled_warmup
from kinetree.core.io import open_robot

pytestmark = needs_desktop

CRANK_SLIDER = (1043, 109)  # joint2's slider handle at 0° in the Joints dock (second row), read off a grab
SLIDER_ENDS = (970, 1115)  # past the slider's ends: −180° and +180°
LEFT_HANDLE = 990  # the handle at −180°


def pure(view: np.ndarray, channel: int) -> np.ndarray:
    """Where ``view`` shows a pure red (0), green (1) or blue (2): the frames' axes and the handles."""
    others = [c for c in range(3) if c != channel]
    return (view[..., channel] > 180) & (view[..., others[0]] < 60) & (view[..., others[1]] < 60)


def inside(screen: np.ndarray, rect) -> tuple[np.ndarray, int, int]:
    x0, y0, x1, y1 = rect
    return screen[y0 + 40:y1 - 40, x0:x1], x0, y0 + 40  # below its tool bar, above its grid label


def handle_y_arrow(screen: np.ndarray, rect) -> tuple[int, int]:
    """A point on the W handle's y arrow: the middle of the view's pure green (the thick arrow)."""
    view, x0, y0 = inside(screen, rect)
    ys, xs = np.nonzero(pure(view, 1))
    assert len(xs) > 100, "no move handle drawn"
    return int(np.median(xs)) + x0, int(np.median(ys)) + y0


def origin_and_tip(screen: np.ndarray, rect) -> tuple[tuple[int, int], tuple[int, int]]:
    """Seen from above (View ▸ Top): the world origin, where the leftmost frame's x axis (red)
    starts, and the selected last body's origin, where the rightmost (thick) y axis starts."""
    view, x0, y0 = inside(screen, rect)
    ys, xs = np.nonzero(pure(view, 0))
    left = xs.min()
    origin = (int(left) + 1 + x0, int(np.median(ys[xs <= left + 2])) + y0)
    ys, xs = np.nonzero(pure(view, 1))
    right = xs.max()
    near = xs >= right - 7
    return origin, (int(np.median(xs[near])) + x0, int(ys[near].max()) + y0)


def rocker_branches(th2: float, a: float, b: float, c: float, d: float) -> list[float]:
    """Both rocker angles of Freudenstein's equation for crank angle ``th2`` (Norton's closed form;
    angles from the ground line, crank pivot to rocker pivot)."""
    k1, k2, k3 = d / a, d / c, (a * a - b * b + c * c + d * d) / (2 * a * c)
    A = math.cos(th2) - k1 - k2 * math.cos(th2) + k3
    B = -2 * math.sin(th2)
    C = k1 - (k2 + 1) * math.cos(th2) + k3
    root = math.sqrt(B * B - 4 * A * C)
    return [2 * math.atan2(-B - root, 2 * A), 2 * math.atan2(-B + root, 2 * A)]


def wrap(x: float) -> float:
    return (x + math.pi) % (2 * math.pi) - math.pi


def four_bar_reading(path) -> tuple[float, float, float, list[float]]:
    """From a saved project: the crank's angle, the rocker's (both from the ground line), the loop
    residual and Freudenstein's two rocker angles for that crank angle and these link lengths."""
    tree, q = open_robot(path)
    P = {n: tree.get_transform(q, n, "body1")[:3, 3] for n in ("body2", "body3", "body4", "body5")}
    a0, a, b, b0 = P["body2"], P["body3"], P["body4"], P["body5"]  # crank pivot, crank tip, coupler tip, rocker pivot
    ground = math.atan2(*(b0 - a0)[1::-1])
    crank = wrap(math.atan2(*(a - a0)[1::-1]) - ground)
    rocker = wrap(math.atan2(*(b - b0)[1::-1]) - ground)
    lengths = [float(np.linalg.norm(v)) for v in (a - a0, b - a, b - b0, b0 - a0)]
    residual = float(np.linalg.norm(tree.loop_residual(q)))
    return crank, rocker, residual, rocker_branches(crank, *lengths)


def drag_slider(desktop, start: int, end: int, y: int) -> None:
    """A mouse drag along a slider, one pixel a move (each move solves the loop)."""
    desktop.xdotool("mousemove", str(start), str(y), "mousedown", "1")
    for x in range(start, end, 1 if end > start else -1):
        desktop.xdotool("mousemove", str(x), str(y))
    desktop.xdotool("mousemove", str(end), str(y), "mouseup", "1")
    desktop.settle()


def test_a_four_bar_built_and_closed_in_the_view_turns_a_full_crank_turn_as_freudenstein_says(desktop, tmp_path):
    # numba's cache filled first: on a fresh clone the app's first loop solve would otherwise wait
    # for the closed-loop kernel to compile (50-90 s), freezing the window while X events arrive
    # (the fresh-clone CI failed here twice); a person's first run compiles on the warm-up thread
    compiled_warmup.warm_up()
    desktop.start()
    rect = viewport_rect(desktop.grab())
    desktop.click((rect[0] + rect[2]) // 2, (rect[1] + 3 * rect[3]) // 4)  # 1: the view has the keys
    # 2-4: body1 (the four-bar's ground, a revolute at the origin), body2 (the crank's pivot, 0.3 m
    # along x), body3 (the crank's tip, another 0.3 m); 5: seen from above (for this test to find
    # the two pick points by their colours; a person picks in any view); 6: the move handle
    desktop.key("ctrl+shift+a", "ctrl+shift+a", "ctrl+shift+a", "7", "w")
    desktop.drag(*handle_y_arrow(desktop.grab(), rect), 3, -20)  # 7: body3 up …
    desktop.type("0.3")  # 8: … by 0.3 m exactly: the crank 0.424 m long
    # 9: the typed amount; 10: body4 (the coupler's tip, 0.424 m on); 11: body5, a fixed child: the
    # rocker's far end, 0.424 m on (the view follows the new bodies: the top view kept the fit)
    desktop.key("Return", "ctrl+shift+a", "ctrl+shift+f")
    origin, tip = origin_and_tip(desktop.grab(), rect)
    desktop.key("o")  # 12: Close loop
    desktop.click(*tip)  # 13: body5's frame …
    desktop.click(*origin)  # 14: … to body1's, at the origin: the rocker's pivot
    desktop.key("Return")  # 15: the dialog's proposal: hinge, joint3 and joint4 passive, the crank driven
    first = tmp_path / "four_bar.kinetree.json"
    # the crank slider to −180°, saved; then a full turn to +180°, saved again
    drag_slider(desktop, CRANK_SLIDER[0], SLIDER_ENDS[0], CRANK_SLIDER[1])
    desktop.key("ctrl+s")
    desktop.dialog("Save robot", str(first))
    wait_for(first)
    desktop.refocus()
    start = four_bar_reading(first)
    saved = json.loads(first.read_text())
    assert [lp["body_a"] for lp in saved["loops"]] == ["body5"] and saved["loops"][0]["kind"] == "hinge"
    assert [b["joint"].get("actuated", True) for b in saved["bodies"]] == [True, True, False, False, True]
    assert abs(saved["configuration"][1] + math.pi) < 1e-9  # the crank at the slider's end
    mtime = first.stat().st_mtime_ns
    drag_slider(desktop, LEFT_HANDLE, SLIDER_ENDS[1], CRANK_SLIDER[1])
    desktop.key("ctrl+s")
    end = time.monotonic() + 30
    while first.stat().st_mtime_ns == mtime and time.monotonic() < end:
        time.sleep(0.1)
    turned = four_bar_reading(first)
    assert abs(json.loads(first.read_text())["configuration"][1] - math.pi) < 1e-9  # a full turn later
    for _crank, rocker, residual, branches in (start, turned):
        assert residual <= 1e-9
        assert min(abs(wrap(rocker - r)) for r in branches) <= 1e-9, (rocker, branches)
    assert abs(wrap(turned[1] - start[1])) <= 1e-9  # the same assembly after the full turn: no branch jump
    # open the saved project again: the loop is still there and closed
    desktop.key("ctrl+o")
    desktop.dialog("Open robot", str(first))
    desktop.refocus()
    again = tmp_path / "again.kinetree.json"
    desktop.key("ctrl+shift+s")
    desktop.dialog("Save robot", str(again))
    wait_for(again)
    reopened = json.loads(again.read_text())
    assert reopened["loops"] == json.loads(first.read_text())["loops"]
    assert four_bar_reading(again)[2] <= 1e-9
    desktop.refocus()
    # File ▸ Export as SDFormat and as MJCF, each opened again in the app and saved as a project:
    # the loop is still there, closed, between the same bodies
    for suffix in ("sdf", "xml"):
        out = tmp_path / f"four_bar.{suffix}"
        back = tmp_path / f"from_{suffix}.kinetree.json"
        desktop.key("ctrl+shift+e")  # the file's suffix picks the format
        desktop.dialog("Export robot", str(out))
        wait_for(out)
        desktop.refocus()
        desktop.key("ctrl+o")
        desktop.dialog("Open robot", str(out))
        desktop.refocus()
        desktop.key("ctrl+shift+s")
        desktop.dialog("Save robot", str(back))
        wait_for(back)
        desktop.refocus()
        loops = json.loads(back.read_text())["loops"]
        assert [(lp["body_a"], lp["body_b"], lp["kind"]) for lp in loops] == [("body5", "body1", "hinge")], loops
        assert four_bar_reading(back)[2] <= 1e-9
