"""Viewport pixels and picking, docks and the View menu, the Pose panel."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui import image_array, project
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication, QVector3D
from PySide6.QtWidgets import QDockWidget, QToolButton

PROJECT_BUG = ("app bug: RobotViewport.project (viewport/view.py) calls self.projectionMatrix() with no "
               "arguments; pyqtgraph 0.14's GLViewMixin.projectionMatrix(region, viewport) needs two → "
               "TypeError, so project() and click picking (body_at) fail")


def test_viewport_project_matches_camera(planar_view):
    pts = np.array([[0.0, 0, 0], [1.0, 0, 0], [1.5, 0, 0]])
    assert np.allclose(planar_view.project(pts), project(planar_view, pts), atol=1e-6)


def red(a):
    return (a[..., 0] > 180) & (a[..., 1] < 80) & (a[..., 2] < 80)


def green(a):
    return (a[..., 1] > 110) & (a[..., 0] < 80) & (a[..., 2] < 80)  # (0, 0.8, 0), antialiased


@pytest.fixture
def planar_view(window, qtbot):
    window.doc.open("two_link_planar")
    vp = window.viewport
    vp.ik_handle.set_enabled(False)  # the tip's IK handle: its rings lie along the axes in a top view
    vp.setCameraPosition(pos=QVector3D(0.75, 0, 0), distance=3, elevation=90, azimuth=-90)
    qtbot.wait(50)
    return vp


def test_frames_drawn_with_red_x_and_green_y(planar_view):
    vp = planar_view
    a = image_array(vp.grabFramebuffer())
    assert a.shape[:2] == (vp.height(), vp.width())
    # link2's frame: the tip, so no link segment is drawn over its x axis
    (x, y), (base_x, _) = project(vp, [[1.5, 0, 0], [0.0, 0, 0]])
    assert x > base_x + 50  # x points right on screen
    xi, yi = int(round(x)), int(round(y))
    right = a[yi - 3:yi + 4, xi + 2:xi + 16]
    above = a[yi - 16:yi - 2, xi - 3:xi + 4]
    assert red(right).sum() >= 3, "no red x axis to the right of link2's origin"
    assert green(above).sum() >= 3, "no green y axis above link2's origin"
    assert not green(right).any()


def test_click_on_frame_selects_body(planar_view, qtbot, window):
    vp = planar_view
    vp.project(np.zeros((1, 3)))  # with the bug, a real click raises inside mouseReleaseEvent and crashes Qt
    for name, point in (("link1", [1.0, 0, 0]), ("link2", [1.5, 0, 0])):
        x, y = project(vp, [point])[0]
        qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=QPoint(int(round(x)), int(round(y))))
        qtbot.waitUntil(lambda n=name: window.doc.selection == n, timeout=2000)
        assert window.joint.fields["body_name"].text() == name
    # a click on empty space clears the selection
    qtbot.mouseClick(vp, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    qtbot.waitUntil(lambda: window.doc.selection is None, timeout=2000)


DOCKS = ["bodiesDock", "jointDock", "dhDock", "slidersDock", "poseDock"]


def test_docks_toggle_and_reset(window, qtbot):
    for name in DOCKS:
        assert isinstance(window.findChild(QDockWidget, name), QDockWidget)
    for name in DOCKS:
        act = window.findChild(QAction, f"toggle_{name}")
        dock = window.findChild(QDockWidget, name)
        assert act is not None and act.isChecked()
        act.trigger()
        assert dock.isHidden()
        assert not act.isChecked()
    act = window.findChild(QAction, "toggle_poseDock")
    act.trigger()
    assert not window.findChild(QDockWidget, "poseDock").isHidden()
    act.trigger()
    window.reset_layout()
    for name in DOCKS:
        assert not window.findChild(QDockWidget, name).isHidden()
    assert window.findChild(QAction, "toggle_dhDock").isChecked()


def test_pose_copy_formats(window):
    window.doc.open("puma560")
    window.sliders.rows["q2"].spin.setValue(20)
    text = window.pose.copy("numpy")
    assert text.startswith("np.array(") and text.count("[") == 5
    assert QGuiApplication.clipboard().text() == text
    ns = {"np": np}
    T = eval(text, ns)  # noqa: S307 - our own output
    assert np.allclose(T, window.pose.T, atol=1e-6)
    text = window.pose.copy("matlab")
    assert text.startswith("[") and text.endswith("]") and text.count(";") == 3
    assert QGuiApplication.clipboard().text() == text
    window.pose.findChild(QToolButton, "copy").click()  # the button itself: as text
    assert QGuiApplication.clipboard().text().count("\n") == 3


def test_pose_in_own_frame_is_identity(window):
    window.doc.open("puma560")
    window.sliders.rows["q3"].spin.setValue(40)
    window.pose.set_body("link6", "link6")
    assert np.allclose(window.pose.T, np.eye(4), atol=1e-12)
    assert window.pose.labels["x"].text().strip() == "0.0000"
    assert window.pose.labels["quat"].text().strip().split()[0] == "1.0000"
    window.pose.set_body("link6", "base")
    assert not np.allclose(window.pose.T, np.eye(4))


def test_presentation_text_scale(make_window):
    """View ▸ Larger text: the window's text, the pose readout, labels and lines grow; remembered."""
    from PySide6.QtWidgets import QApplication

    w = make_window("present.ini")
    base = QApplication.font().pointSizeF()
    try:
        w.doc.open("puma560")
        w.findChild(QAction, "zoomInAction").trigger()
        QApplication.processEvents()  # fonts propagate by events
        assert QApplication.font().pointSizeF() == pytest.approx(base * 1.25)
        assert w.viewport.labels.font.pointSizeF() == pytest.approx(12.5)
        assert w.viewport.triads.width == pytest.approx(3.75)
        assert w.pose.labels["x"].font().pointSizeF() == pytest.approx(w.pose.font().pointSizeF())
        assert float(w.settings.value("textScale")) == pytest.approx(1.25)
        w2 = make_window("present.ini")  # a new window restores it
        assert w2.text_scale == pytest.approx(1.25)
        w2.set_text_scale(1.0)
        assert QApplication.font().pointSizeF() == pytest.approx(base)
    finally:
        w.set_text_scale(1.0)
