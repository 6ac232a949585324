"""File ▸ Export animation frames the whole motion, as ``kinetree animate`` does, whatever the
live camera shows: a user zoomed in on the wrist still gets every frame of Puma qz → qr whole."""

from __future__ import annotations

import imageio.v3 as iio
import numpy as np
from kinetree.app.viewport.labels import project_points, view_mvp
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog


def wheel(widget, notches: int) -> None:
    pos = QPointF(widget.width() / 2, widget.height() / 2)
    ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)


def test_gui_export_frames_every_configuration_of_the_motion(window, qtbot, tmp_path, monkeypatch):
    window.doc.open("puma560")
    window.findChild(QAction, "toggle_posesDock").trigger()  # View ▸ Poses
    qtbot.wait(30)
    lst = window.poses.list
    for name in ("qs", "qn"):  # leave qz and qr checked
        rect = lst.visualItemRect(window.poses._item(name))
        QTest.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(rect.left() + rect.height() // 2, rect.center().y()))
    assert window.playback.playable() == ["qz", "qr"]
    window.timeline.seconds.setValue(0.6)
    view = window.viewport
    for _ in range(12):  # the lecturer zoomed in on the wrist
        wheel(view, 1)
    live = (view.opts["distance"], view.opts["elevation"], view.opts["azimuth"])
    shots = []
    real = view.render_image

    def spy(width, height):  # the camera each frame is rendered with, and the frames drawn
        origins = np.vstack([np.zeros((1, 3)), view._poses[:, :3, 3]])
        shots.append((view_mvp(view, (0, 0, width, height)), origins, width, height))
        return real(width, height)

    monkeypatch.setattr(view, "render_image", spy)
    path = tmp_path / "puma.gif"
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("200x120 @ 10", True)))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    window.export_animation_action.trigger()  # File ▸ Export animation…
    assert iio.imread(path, index=None).shape == (7, 120, 200, 3)
    assert len(shots) == 7
    for mvp, origins, w, h in shots:
        px, front = project_points(mvp, origins, w, h)
        assert front.all()
        assert (px >= 0).all() and (px[:, 0] < w).all() and (px[:, 1] < h).all(), px
    # and the live camera is the lecturer's again
    assert (view.opts["distance"], view.opts["elevation"], view.opts["azimuth"]) == live
