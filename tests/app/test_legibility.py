"""Issue 31: a lecture walk legible from the back of a hall, measured on the rendered pixels of the
window in Present mode at 1920×1080 and 1280×720 (:mod:`legibility`): the glyphs of the 3-D
labels, their subscripts, the DH table and the matrices at least 18 px tall (headings 24 px), no
label box overlapping another, no 3-D line drawn over a label's or the legend's plate, and every
text in WCAG contrast (4.5:1) with its background."""

from __future__ import annotations

import pytest
from legibility import HEADING_PX, MIN_CONTRAST, MIN_PX, measure, widget_lines
from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtGui import QAction, QScreen
from PySide6.QtWidgets import QApplication, QScrollArea

SIZES = [(1920, 1080), pytest.param((1280, 720), marks=pytest.mark.xfail(
    strict=True, reason="Present mode's factor at 720 lines (1.35) draws 12-px digits and 7-px subscripts"))]
#: the robots and the poses the walk is given on
ROBOTS = {"cylindrical_wrist": "reach", "puma560": "qn", "scara": "reach"}


def present(make_window, qtbot, monkeypatch, size: tuple[int, int], robot: str):
    """A window presenting ``robot`` full screen on a screen of ``size``, the DH overlay on."""
    from kinetree.app.panels import explain

    monkeypatch.setattr(explain, "STEP_MS", 30)
    monkeypatch.setattr(QScreen, "geometry", lambda _s: QRect(0, 0, *size))
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _s: QRect(0, 0, *size))
    w = make_window()
    w.resize(*size)
    w.doc.open(robot)
    w.doc.set_configuration(w.doc.tree.named_poses[ROBOTS[robot]])
    w.findChild(QAction, "dhOverlayAction").trigger()
    w.findChild(QAction, "presentAction").trigger()
    qtbot.waitUntil(lambda: w.size() == QSize(*size), timeout=2000)
    return w


def settle(w, qtbot) -> None:
    panel = w.explain
    qtbot.waitUntil(lambda: not panel.timer.isActive() and not panel.symbolic.busy, timeout=30000)
    for _ in range(3):
        QApplication.processEvents()


def walk_states(w, qtbot):
    """The walk's steps worth a look: the DH table (every link's overlay) and each Aᵢ done."""
    w.present.clicker("step")  # the walk begins at the DH table
    settle(w, qtbot)
    yield 0
    for i in range(1, w.explain.chain.count + 1):
        for _ in range(4):
            w.present.clicker("step")
        settle(w, qtbot)
        yield 4 * i


@pytest.mark.parametrize("size", SIZES, ids=["1920x1080", "1280x720"])
@pytest.mark.parametrize("robot", list(ROBOTS))
def test_the_walk_is_legible_in_present_mode(make_window, qtbot, monkeypatch, size, robot):
    w = present(make_window, qtbot, monkeypatch, size, robot)
    problems, measured = [], set()
    for step in walk_states(w, qtbot):
        seen = measure(w)
        for kind, m in seen["measured"].items():
            if m.height[1]:
                measured.add(kind)
            least = HEADING_PX if kind == "headings" else MIN_PX
            for figure, (value, where), floor in (("height", m.height, least), ("subscript", m.sub, MIN_PX),
                                                  ("contrast", m.contrast, MIN_CONTRAST)):
                if where and value < floor:
                    problems.append((size, step, kind, figure, value, where))
        if seen["overlaps"] or seen["marks"]:
            problems.append((size, step, "overlapping boxes", seen["overlaps"], "drawn over plates", seen["marks"]))
    w.present.set_active(False)
    w.set_text_scale(1.0)
    assert measured == {"labels", "dh table", "matrices", "headings"}  # none passed by being missed
    assert problems == []


def test_the_walk_shows_each_motion_and_the_product_so_far_on_the_screen(make_window, qtbot, monkeypatch):
    """Issue 31: presenting at 1080 lines, the Explain dock showed the four motions' matrices and
    hid the products so far below its fold (the sliders and the pose took the room): during the
    walk they are hidden and back when Present mode ends."""
    w = present(make_window, qtbot, monkeypatch, (1920, 1080), "puma560")
    docks = [w.docks[k] for k in ("slidersDock", "poseDock")]
    assert all(d.isVisible() for d in docks)
    panel = w.explain
    w.present.clicker("step")  # the walk begins
    settle(w, qtbot)
    for _ in range(6):
        w.present.clicker("step")  # A₂ under way
    settle(w, qtbot)
    assert panel.position == 6
    assert not any(d.isVisible() for d in docks)
    shown = panel.findChild(QScrollArea).viewport()
    qtbot.waitUntil(lambda: shown.height() > 400, timeout=3000)  # the docks laid out anew
    for cell in (*panel.factor_cells, *panel.partial_cells):  # every one whole in the dock's scroll area
        at = QRect(cell.mapTo(shown, QPoint(0, 0)), cell.size())
        assert shown.rect().contains(at), (at, shown.rect())
    assert min(widget_lines(panel.partial_cells[0]), key=lambda line: line.height).height >= MIN_PX
    w.present.set_active(False)
    assert all(d.isVisible() for d in docks)
    w.set_text_scale(1.0)
