"""The viewport's native drawing surface (app/viewport/surface.py): what the window system
gives the surface reaches the viewport widget, the screen shows the scene with the viewport's
overlays above it, and the application exits cleanly with a viewport still open."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers.arm import arm_window
from helpers.gui import LEFT, NONE, along, image_array, pixel
from helpers.meshes import cube
from PySide6.QtCore import QMimeData, QPointF, QRect, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


@pytest.fixture
def win(make_window):
    return arm_window(make_window)


def on_screen(widget, rect=None) -> QRect:
    """The part of ``widget`` (or of ``rect`` in its coordinates) inside the screen, in the
    widget's coordinates (the test display may be smaller than the window)."""
    rect = rect or widget.rect()
    screen = QApplication.primaryScreen().geometry()
    return QRect(widget.mapFromGlobal(screen.topLeft()), screen.size()).intersected(rect)


def screen_pixels(widget, rect: QRect) -> np.ndarray:
    """What the X server shows of ``rect`` of ``widget``, RGB."""
    at = widget.mapToGlobal(rect.topLeft())
    img = QApplication.primaryScreen().grabWindow(0, at.x(), at.y(), rect.width(), rect.height())
    return image_array(img.toImage())[..., :3]


def test_clicks_moves_and_keys_on_the_surface_reach_the_viewport(win, qtbot):
    vp, doc = win.viewport, win.doc
    win.activateWindow()  # the user's window
    qtbot.waitUntil(win.isActiveWindow)
    surface = vp.surface
    assert surface.isExposed() and surface.size() == vp.size()
    # QTest on a QWindow goes through the window system interface, as a real click does
    QTest.mouseClick(surface, LEFT, NONE, pixel(vp, [0.3, 0, 0]))  # upper's box
    assert doc.selection == "upper"
    QTest.mouseMove(surface, pixel(vp, [0.85, 0, 0]))  # over fore's box: lit
    qtbot.waitUntil(lambda: vp._hovered == 2)
    QTest.mouseClick(surface, LEFT, NONE, pixel(vp, [0.85, 0, 0]))
    assert doc.selection == "fore" and vp.hasFocus()  # the click gave the viewport the keys
    QTest.keyClick(surface, Qt.Key.Key_Escape)
    assert doc.selection is None


def test_the_viewport_keeps_the_keys_when_its_surface_takes_the_window_systems_focus(win, qtbot):
    """A real click makes the surface the focus window; Qt then focuses its container, which
    hands the focus to the viewport (its shortcuts and typed amounts depend on it)."""
    vp = win.viewport
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    win.bodies.view.setFocus()
    qtbot.waitUntil(lambda: not vp.hasFocus())
    vp.surface.requestActivate()  # as the X server does for the clicked window
    qtbot.waitUntil(lambda: QGuiApplication.focusWindow() is vp.surface)
    qtbot.waitUntil(vp.hasFocus)


def test_a_grab_right_after_a_resize_has_the_new_size_and_a_full_frame(win, qtbot):
    vp = win.viewport
    vp.grabFramebuffer()
    win.resize(1500, 1000)  # the viewport grows
    img = image_array(vp.grabFramebuffer())
    assert img.shape[:2] == (vp.height(), vp.width())
    bg = np.array(vp.opts["bgcolor"][:3]) * 255
    corner = img[-3:, -3:, :3].reshape(-1, 3)  # the far corner: drawn (background or grid), not left black
    assert (corner >= bg - 3).all(), corner
    # 8 bits a colour: the background exactly (unasked, Xvfb's GLX gave RGB565: 24, 28, 33)
    assert vp.surface.format().redBufferSize() == 8
    assert img[2, -3, :3].tolist() == bg.round().astype(int).tolist()


def test_w_a_drag_and_a_typed_amount_given_to_the_surface_window(win, qtbot):
    """As the window system gives them: W picks the move tool, the arrow drags, and 0.25 typed
    after the drag is the amount (its 0 is not the Iso view's shortcut)."""
    vp, doc = win.viewport, win.doc
    surface = vp.surface
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow)
    vp.set_view("side")  # orthographic (the Iso view, key 0, would make it perspective), the arm across it
    QTest.mouseClick(surface, LEFT, NONE, pixel(vp, [0.85, 0, 0]))
    assert doc.selection == "fore"
    QTest.keyClick(surface, Qt.Key.Key_W)
    assert vp.tool == "move"
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 60)
    QTest.mousePress(surface, LEFT, NONE, start)
    QTest.mouseMove(surface, end)
    QTest.mouseRelease(surface, LEFT, NONE, end)
    assert (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0] > 0.02
    for ch in "0.25":  # (QTest has no keyClicks for a window)
        QTest.keyClick(surface, ch)
    QTest.keyClick(surface, Qt.Key.Key_Return)
    assert np.isclose((doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0], 0.25)
    assert vp.camera.ortho


def test_the_screen_shows_the_scene_and_the_overlays_above_it(win, qtbot):
    vp = win.viewport
    vp.repaint()
    qtbot.wait(50)
    seen = on_screen(vp)
    assert seen.width() > 200 and seen.height() > 200
    frame = image_array(vp.grabFramebuffer())[seen.top():seen.bottom() + 1, seen.left():seen.right() + 1, :3]
    shown = screen_pixels(vp, seen)
    toolbar = vp.toolbar.geometry()
    mask = np.ones(shown.shape[:2], dtype=bool)
    for r in (toolbar, vp.camera.grid_label.geometry()):  # the overlays' own pixels
        r = r.translated(-seen.left(), -seen.top())
        mask[max(r.top(), 0):max(r.bottom() + 1, 0), max(r.left(), 0):max(r.right() + 1, 0)] = False
    # (a 16-bit screen, as pytest-xvfb's, shows the frame's colours to 5 or 6 bits)
    tolerance = 2 if QApplication.primaryScreen().depth() >= 24 else 9
    differ = np.abs(frame.astype(int) - shown.astype(int)).max(axis=2) > tolerance
    assert differ[mask].mean() < 0.001, differ[mask].mean()
    assert len(np.unique(shown[mask].reshape(-1, 3), axis=0)) > 20  # a scene, not a blank window
    # the tool bar is drawn over the scene, as the tool bar draws itself
    assert vp.toolbar.isVisible() and toolbar.width() > 40
    bar = image_array(vp.toolbar.grab().toImage())[..., :3]
    assert on_screen(vp, toolbar) == toolbar
    shown_bar = screen_pixels(vp, toolbar)
    assert np.abs(bar.astype(int) - shown_bar.astype(int)).max(axis=2).mean() < 8  # its plate a shade apart
    checked = np.all(np.abs(shown_bar.astype(int) - (0x2F, 0x6D, 0xB5)) < 8, axis=2)  # the checked button
    assert checked.sum() > 100


def test_a_mesh_dropped_on_the_surface_goes_on_the_body_under_it(win, qtbot, tmp_path):
    doc, vp = win.doc, win.viewport
    path = cube(tmp_path / "bracket.stl", (0.05, 0.05, 0.05))
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    at = pixel(vp, [0.85, 0, 0])  # fore's box, in the surface's (= the viewport's) pixels
    count = doc.undo_stack.count()
    enter = QDragEnterEvent(at, Qt.DropAction.CopyAction, mime, LEFT, NONE)
    QApplication.sendEvent(vp.surface, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(vp.surface, QDropEvent(QPointF(at), Qt.DropAction.CopyAction, mime, LEFT, NONE))
    qtbot.waitUntil(lambda: doc.undo_stack.count() == count + 1)
    assert doc.tree.get_body("fore").visuals[-1].filename == str(path)


def test_the_application_exits_cleanly_with_its_window_open_or_deleted_late(tmp_path):
    """PySide deletes the objects Python owns before Qt tears down the windows left open: a
    surface deleted before its container crashed Qt at exit (surface._delete_containers)."""
    script = textwrap.dedent(f"""
        from kinetree.app.main import make_application
        from kinetree.app.window.main_window import MainWindow
        from PySide6.QtCore import QSettings
        app = make_application([])
        w = MainWindow(settings=QSettings({str(tmp_path / 's.ini')!r}, QSettings.Format.IniFormat))
        w.quiet = True
        w.show()
        app.processEvents()
        w.doc.open("puma560")
        app.processEvents()
        w.close()
        w.deleteLater()  # never run: no event loop follows
        print("done")
    """)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}  # its autosave folder
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 0 and "done" in run.stdout, (run.returncode, run.stderr[-2000:])
