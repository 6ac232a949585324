"""Issue 31: a lecture walk legible from the back of a hall, measured on the rendered pixels of the
window in Present mode at 1920×1080 and 1280×720 (:mod:`legibility`): the glyphs of the 3-D
labels, their subscripts, the DH table and the matrices at least 18 px tall (headings 24 px), no
label box overlapping another, no 3-D line drawn over a label's or the legend's plate, and every
text in WCAG contrast (4.5:1) with its background."""

from __future__ import annotations

import pytest
from helpers.legibility import HEADING_PX, MIN_CONTRAST, MIN_PX, measure, unicode_scripts, widget_lines
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QAction, QScreen
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel

SIZES = [(1920, 1080), (1280, 720)]
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


def whole(widget, within) -> bool:
    """``widget`` lies inside ``within`` (an ancestor) and is as large as its text needs."""
    at = QRect(widget.mapTo(within, QPoint(0, 0)), widget.size())
    need = widget.sizeHint() if not widget.hasHeightForWidth() else QSize(0, widget.heightForWidth(widget.width()))
    if isinstance(widget, QLabel) and not widget.wordWrap():
        need = QSize(widget.minimumSizeHint().width(), need.height())
    return within.rect().contains(at) and widget.width() >= need.width() and widget.height() >= need.height()


def test_the_walk_shows_the_steps_block_in_a_column_beside_the_full_height_view(make_window, qtbot, monkeypatch):
    """Issue 31: presenting at 1080 lines, the walk gave the Explain dock 60 % of the height across
    the bottom: the view a 350-px strip, and Aᵢ and Tᵢ⁰ still below the dock's fold. During the walk
    the dock is a column on the right showing the step's block alone (Aᵢ in the lecture's notation,
    at the current q, Tᵢ⁰), the sliders, the pose, the DH table and the status bar hidden; all back
    as they were when Present mode ends."""
    w = present(make_window, qtbot, monkeypatch, (1920, 1080), "puma560")
    hidden = [w.docks[k] for k in ("slidersDock", "poseDock", "dhDock")]
    assert all(d.isVisible() for d in hidden) and w.statusBar().isVisible()
    panel, dock = w.explain, w.explain_dock
    w.present.clicker("step")  # the walk begins
    settle(w, qtbot)
    for _ in range(6):
        w.present.clicker("step")  # A₂ under way
    settle(w, qtbot)
    assert panel.position == 6
    assert not any(d.isVisible() for d in hidden) and not w.statusBar().isVisible()
    assert w.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    vp = w.viewport
    qtbot.waitUntil(lambda: abs(dock.width() - 0.38 * w.width()) < 40, timeout=3000)  # the docks laid out anew
    assert vp.height() >= 0.95 * w.height() and vp.width() >= 0.6 * w.width()
    shown = [*(c for row in panel.symbolic.A.cells for c in row), panel.partial_titles[3], panel.partial_cells[3],
             panel.chain_title, panel.chain_cell, panel.formula]
    assert all(c.isVisible() and whole(c, dock) for c in shown)
    assert not any(c.isVisible() for c in (*panel.factor_cells, *panel.partial_cells[:3]))  # one block: Aᵢ's
    assert unicode_scripts(panel.chain_title.text()).startswith("<b>T₂⁰</b> so far: T₁⁰·Rz")
    assert min(widget_lines(panel.partial_cells[3]), key=lambda line: line.height).height >= MIN_PX
    w.present.set_active(False)
    assert all(d.isVisible() for d in hidden) and w.statusBar().isVisible()
    assert not dock.isVisible()  # as before; shown, a tab beside the DH table again
    w.findChild(QAction, "toggle_explainDock").trigger()
    qtbot.waitUntil(lambda: dock in w.tabifiedDockWidgets(w.docks["dhDock"]), timeout=2000)
    w.set_text_scale(1.0)


@pytest.mark.parametrize("size", SIZES, ids=["1920x1080", "1280x720"])
@pytest.mark.parametrize("robot", list(ROBOTS))
def test_nothing_in_the_explain_dock_scrolls_or_is_cut_at_any_step_of_the_walk(make_window, qtbot, monkeypatch,
                                                                                size, robot):
    """Issue 31: the matrix being built is in full view without scrolling, at every step."""
    w = present(make_window, qtbot, monkeypatch, size, robot)
    dock, panel = w.explain_dock, w.explain
    problems = []
    for step in range(4 * len(w.doc.tree.named_poses[ROBOTS[robot]]) + 1):
        w.present.clicker("step")
        settle(w, qtbot)
        assert panel.position == step
        for area in dock.findChildren(QAbstractScrollArea):
            for bar in (area.horizontalScrollBar(), area.verticalScrollBar()):
                if area.isVisible() and bar.isVisible() and bar.maximum() > 0:
                    problems.append((step, area.objectName(), bar.orientation(), bar.maximum()))
        for label in dock.findChildren(QLabel):
            if label.isVisible() and label.text() and not whole(label, dock):
                problems.append((step, label.text()[:40], label.geometry(), label.sizeHint()))
    assert problems == []
    assert panel.symbolic.A.cells[0][0].isVisible() and panel.chain_cell.isVisible()  # (something was shown)
    w.present.set_active(False)
    w.set_text_scale(1.0)


def test_the_dh_tables_column_headers_are_in_contrast(make_window, qtbot, monkeypatch):
    """Issue 31: the DH table's coloured headers (aᵢ teal, αᵢ gold, dᵢ violet, θᵢ pink, the DH
    overlay's colours) read 1.8–2.8:1 on the light header as drawn in Present mode: each at least
    4.5:1, its hue kept (as the Explain dock's), as drawn and as the colours say."""
    from helpers.legibility import image_array, text_lines
    from kinetree.app.widgets.dh_colors import COLUMN_PARAMETER
    from kinetree.app.widgets.text_style import contrast
    from PySide6.QtWidgets import QTableView

    w = present(make_window, qtbot, monkeypatch, (1920, 1080), "puma560")
    view = w.findChild(QTableView, "dhView")
    qtbot.waitUntil(lambda: view.isVisible() and view.model().rowCount() == 6, timeout=2000)
    QApplication.processEvents()
    header, model = view.horizontalHeader(), view.model()
    drawn, nominal = {}, {}
    for section in range(model.columnCount()):
        name = model.headerData(section, Qt.Orientation.Horizontal)
        if name[0] not in COLUMN_PARAMETER:  # (aᵢ, αᵢ (°), dᵢ, θᵢ (°))
            continue
        at = QRect(header.sectionViewportPosition(section) + 2, 2, header.sectionSize(section) - 4, header.height() - 4)
        lines = text_lines(image_array(header.grab(at).toImage()))
        drawn[name] = min((line.contrast for line in lines), default=0)
        color = model.headerData(section, Qt.Orientation.Horizontal, Qt.ItemDataRole.ForegroundRole).color()
        nominal[name] = contrast(color.getRgbF()[:3], header.palette().button().color().getRgbF()[:3])
    w.present.set_active(False)
    w.set_text_scale(1.0)
    assert len(drawn) == 4 and min(drawn.values()) >= MIN_CONTRAST and min(nominal.values()) >= MIN_CONTRAST, \
        (drawn, nominal)
