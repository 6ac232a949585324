"""The default layout at 1280×800 shows every text whole (issue 32's audit): each visible
button, label and spin box is as wide as its text needs, and lies inside the window (inside a
scroll area: inside its view across; rows below are scrolled to)."""

from __future__ import annotations

import pytest
from kinetree.app.window.layout import apply_default_layout
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QAbstractButton, QAbstractSpinBox, QLabel, QPushButton, QScrollArea, QStyle

ROBOTS = (None, "puma560", "humanoid_upper_body")  # empty; DH rows; a URDF (DH from matrices, long joint names)


def needed_width(w) -> int:
    """What the widget's text needs across: a push button's text and margins (its size hint adds
    the style's 80 px minimum, which is no text), else its size hint."""
    if isinstance(w, QPushButton) and not w.menu():
        icon = w.iconSize().width() + 4 if not w.icon().isNull() else 0
        margin = w.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, None, w)
        return w.fontMetrics().horizontalAdvance(w.text().replace("&", "")) + 2 * margin + icon
    return w.sizeHint().width()


def clipped(window) -> list[str]:
    out = []
    widgets = [w for t in (QAbstractButton, QLabel, QAbstractSpinBox) for w in window.findChildren(t)]
    for w in widgets:
        if not w.isVisible() or w.window() is not window or w.visibleRegion().isEmpty():
            continue
        what = f"{type(w).__name__} {w.objectName() or ''} {w.text()[:40] if hasattr(w, 'text') else ''!r}"
        if isinstance(w, QLabel) and w.wordWrap():
            if w.heightForWidth(w.width()) > w.height() + 1:
                out.append(f"{what}: wrapped text {w.heightForWidth(w.width())} px high in {w.height()}")
        elif needed_width(w) > w.width() + 1:
            out.append(f"{what}: needs {needed_width(w)} px across, has {w.width()}")
        rect = QRect(w.mapTo(window, QPoint(0, 0)), w.size())
        area = next((a for a in iter(lambda p=[w]: (p.__setitem__(0, p[0].parentWidget()) or p[0]), None)
                     if isinstance(a, QScrollArea)), None)
        if area is not None:  # across inside the scroll area's view (no sideways scrolling to read it)
            view = QRect(area.viewport().mapTo(window, QPoint(0, 0)), area.viewport().size())
            if rect.left() < view.left() or rect.right() > view.right():
                out.append(f"{what}: {rect.left()}…{rect.right()} across, its scroll area shows "
                           f"{view.left()}…{view.right()}")
        elif not window.rect().contains(rect):
            out.append(f"{what}: at {rect.getCoords()}, outside the {window.width()}×{window.height()} window")
    return out


@pytest.mark.parametrize("robot", ROBOTS)
def test_every_text_fits_in_the_default_layout_at_1280x800(make_window, qtbot, robot):
    w = make_window()
    w.resize(1280, 800)
    if robot:
        w.doc.open(robot)
    qtbot.waitUntil(lambda: w.width() == 1280 and w.height() == 800)
    apply_default_layout(w)  # the docks sized for this window, as at the start on a 1280×800 screen
    qtbot.wait(50)  # the layouts settle (a dock's contents lay out on the next pass)
    assert clipped(w) == []
