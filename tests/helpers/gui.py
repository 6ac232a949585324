"""Driving the GUI as a user does: mouse and keys in the 3D view, its pixels, the DH and frame handles."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QImage, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSlider

from helpers.arm import arm_window

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def key(qtbot, window, k, modifiers=NONE) -> None:
    """A key pressed with the mouse over the viewport (the window active, as a user's is)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.viewport.setFocus()
    qtbot.waitUntil(window.viewport.hasFocus)
    QTest.keyClick(window.viewport, k, modifiers)


def along(vp, origin, direction, pixels: float) -> tuple[QPoint, QPoint]:
    """A point on the arrow from ``origin`` along ``direction`` and one ``pixels`` further along
    its screen direction."""
    h = vp.frame_handle
    a, b = vp.project(np.array([origin, origin + h.size * np.asarray(direction)]))
    u = (b - a) / np.linalg.norm(b - a)
    start = pixel(vp, origin + 0.7 * h.size * np.asarray(direction))
    return start, start + QPoint(int(round(pixels * u[0])), int(round(pixels * u[1])))


def drag(vp, start: QPoint, end: QPoint, steps: int = 6, modifiers=NONE, release: bool = True) -> None:
    QTest.mousePress(vp, LEFT, modifiers, start)
    for k in range(1, steps + 1):
        p = QPointF(start + (end - start) * (k / steps))
        # the move events carry the keys held, as the window system's do (QTest.mouseMove's cannot)
        QApplication.sendEvent(vp, QMouseEvent(QEvent.Type.MouseMove, p, QPointF(vp.mapToGlobal(p)),
                                               Qt.MouseButton.NoButton, LEFT, modifiers))
    if release:
        QTest.mouseRelease(vp, LEFT, modifiers, end)


def pixel(vp, point) -> QPoint:
    x, y = vp.project(np.asarray(point, dtype=float)[None])[0]
    return QPoint(int(round(x)), int(round(y)))


def qtest_drag(vp, start: QPoint, end: QPoint, steps: int = 8) -> None:
    """Press at ``start``, move in ``steps`` to ``end``, release: as a hand does."""
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for k in range(1, steps + 1):
        p = start + (end - start) * (k / steps)
        QTest.mouseMove(vp, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)


def image_array(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    w, h = img.width(), img.height()
    return np.frombuffer(img.constBits(), np.uint8, count=img.bytesPerLine() * h).reshape(
        h, img.bytesPerLine() // 4, 4)[:, :w, :3].astype(int)


def project(vp, points) -> np.ndarray:
    """Widget pixels of 3D points, computed here (RobotViewport.project is broken, see test_view_docks_pose)."""
    region = vp.getViewport()
    P = np.array(vp.projectionMatrix(region, region).data()).reshape(4, 4).T
    V = np.array(vp.viewMatrix().data()).reshape(4, 4).T
    h = np.c_[np.asarray(points, float), np.ones(len(points))] @ (P @ V).T
    ndc = h[:, :3] / h[:, 3:4]
    return np.c_[(ndc[:, 0] + 1) * vp.width() / 2, (1 - ndc[:, 1]) * vp.height() / 2]


def row(doc, body="link3"):
    return doc.tree.get_body(body).joint.dh_parameters


def arrow_drag(vp, part: str, pixels: float, **kw) -> QPoint:
    """Drag the DH arrow ``part`` by ``pixels`` along its screen direction; the end point."""
    h = vp.frame_handle
    _, o, u = h.parts[part]
    a, b = vp.project(np.array([o, o + h.size * u]))
    d = (b - a) / np.linalg.norm(b - a)
    start = pixel(vp, o + 0.7 * h.size * u)
    assert h.pick(start.x(), start.y()) == ("dh", part)
    end = start + QPoint(int(round(pixels * d[0])), int(round(pixels * d[1])))
    drag(vp, start, end, **kw)
    return end


def ring_start(vp, part: str) -> QPoint:
    """A point of the DH ring ``part`` where a sideways drag turns it (its lowest on screen)."""
    h = vp.frame_handle
    _, o, u = h.parts[part]
    px = vp.project(h._circle(o, u))
    i = int(np.argmax(px[:, 1]))
    start = QPoint(int(round(px[i, 0])), int(round(px[i, 1])))
    assert h.pick(start.x(), start.y()) == ("dh", part)
    return start


def fore_x_arrow(make_window, qtbot, pixels: float = 60):
    """The arm with its forearm selected under the move tool (W): the window, the forearm's
    pose, and the screen points of its x arrow and ``pixels`` further along it."""
    win = arm_window(make_window, [0.3, -0.5])
    win.doc.select("fore")
    key(qtbot, win, Qt.Key.Key_W)
    T0 = win.doc.pose_of("fore")
    return (win, T0, *along(win.viewport, T0[:3, 3], T0[:3, 0], pixels))


def settle(qtbot, ms: int = 50) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def visible_in(widget, container) -> bool:
    """``widget`` is shown entirely inside ``container`` (e.g. a scroll area's viewport)."""
    top_left = widget.mapTo(container, QPoint(0, 0))
    return (not widget.visibleRegion().isEmpty()
            and container.rect().contains(QRect(top_left, widget.size())))


def sliders_visible(window) -> int:
    vp = window.sliders.scroll.viewport()
    return sum(visible_in(r.slider, vp) for r in window.sliders.rows.values())


def slider_handle_centre(slider) -> QPoint:
    opt = QStyleOptionSlider()
    slider.initStyleOption(opt)
    rect = slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderHandle,
                                         slider)
    return rect.center()


def shown(bar) -> list[str]:
    """The tool bar's visible buttons and separators ("|"), left to right."""
    items = [(bar.widgetForAction(a).x(), "|" if a.isSeparator() else a.iconText())
             for a in bar.actions() if bar.widgetForAction(a) is not None and bar.widgetForAction(a).isVisible()]
    return [t for _, t in sorted(items)]
