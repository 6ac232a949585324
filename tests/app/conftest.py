"""Fixtures for the GUI tests: a real MainWindow on the (virtual) X display."""

from __future__ import annotations

import os

import kinetree.app.window.recovery as recovery_module
import pytest
from helpers.arm import arm_window
from helpers.desktop import Desktop
from helpers.gui import LEFT, NONE, key, pixel
from helpers.web_page import CHROMEDRIVER, CHROMIUM
from kinetree.app.model.edits import add_child
from kinetree.app.window.main_window import MainWindow
from kinetree.core import RigidBodyTree
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox


@pytest.fixture
def autosave_dir(tmp_path, monkeypatch):
    """Autosaves and their locks go to a temporary folder, never the user's data folder."""
    path = tmp_path / "autosave"
    monkeypatch.setattr(recovery_module, "autosave_dir", lambda: path)
    return path


@pytest.fixture
def autosave_file(autosave_dir):  # the older name, for tests that only need the isolation
    return autosave_dir


@pytest.fixture
def make_window(qtbot, tmp_path, autosave_dir, monkeypatch):
    """Factory for windows; closing a modified window discards without asking."""
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))

    def make(name: str = "s.ini") -> MainWindow:
        w = MainWindow(settings=QSettings(str(tmp_path / name), QSettings.Format.IniFormat))
        w.quiet = True
        w.autosave_timer.stop()  # tests call autosave() themselves
        qtbot.addWidget(w)
        w.show()
        qtbot.waitExposed(w)
        return w

    return make


@pytest.fixture
def screen_size(monkeypatch):
    """``screen_size(w, h)``: the screens' available area is w×h from then on (pytest-xvfb's
    screen is 800×600; View ▸ Reset layout fits the window into the screen)."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QScreen

    def set_size(width: int, height: int) -> None:
        monkeypatch.setattr(QScreen, "availableGeometry", lambda _s: QRect(0, 0, width, height))

    return set_size


@pytest.fixture
def window(make_window) -> MainWindow:
    return make_window()


@pytest.fixture
def panel(window):
    """The Joint panel, showing link1 of the two-link planar arm."""
    window.doc.open("two_link_planar")
    window.doc.select("link1")
    return window.joint


@pytest.fixture
def desktop(tmp_path):
    """A :class:`desktop.Desktop` (a private X screen running the app, driven by X events) for one
    test, closed after it; the app's output is printed (pytest shows it when the test fails)."""
    d = Desktop(tmp_path)
    yield d
    print(d.close())


@pytest.fixture
def fore_window(make_window):
    """The test arm's window (helpers.arm) at q = (0.3, -0.5), fore selected by a click on its box."""
    w = arm_window(make_window, [0.3, -0.5])
    vp = w.viewport
    fore = w.doc.pose_of("fore")
    QTest.mouseClick(vp, LEFT, NONE, pixel(vp, fore[:3, :3] @ [0.25, 0, 0] + fore[:3, 3]))  # fore's box
    assert w.doc.selection == "fore"
    return w


@pytest.fixture
def puma_bent_window(make_window):
    """A 1280×800 window showing the Puma 560 bent at (0, 0.6, −0.9, 0, 0.5, 0), nothing to undo,
    seen from 2 m (the IK handle on its end effector)."""
    w = make_window()
    w.resize(1280, 800)
    w.doc.open("puma560")
    w.doc.set_configuration([0.0, 0.6, -0.9, 0.0, 0.5, 0.0], "start")
    w.doc.undo_stack.clear()
    w.viewport.setCameraPosition(distance=2.0, elevation=20, azimuth=-60)
    w.viewport.repaint()
    return w


@pytest.fixture
def puma_handle_window(make_window, qtbot):
    """A 1280×800 window showing the Puma 560, link3 selected, its frame handle on (W)."""
    w = make_window()
    w.resize(1280, 800)
    w.doc.open("puma560")
    w.doc.select("link3")
    key(qtbot, w, Qt.Key.Key_W)
    w.viewport.setCameraPosition(distance=2.0, elevation=20, azimuth=-60)
    w.viewport.repaint()
    return w


@pytest.fixture
def child_at_04_window(make_window, qtbot):
    """A window with a body added by Add child at x = 0.4 (a link cylinder drawn to it), selected,
    the move handle on."""
    tree = RigidBodyTree()
    body = add_child(tree, tree.base_name, "revolute", at=(0.4, 0.0, 0.0))
    w = make_window()
    w.resize(1280, 800)
    w.doc.load(tree)
    w.viewport.setCameraPosition(distance=2.5, elevation=30, azimuth=-70)
    w.viewport.repaint()
    w.doc.select(body)
    key(qtbot, w, Qt.Key.Key_W)
    return w, body


@pytest.fixture
def viewer_settings(tmp_path, autosave_dir, monkeypatch):
    """The Viewer's window keeps its layout in a temporary file, not the user's settings."""
    import kinetree.app.window.main_window as main_window

    monkeypatch.setattr(main_window, "QSettings",
                        lambda *_a: QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium (Selenium) at 1280×800 for the module's tests; skips without one."""
    if not (os.path.exists(CHROMIUM) and CHROMEDRIVER):
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu-sandbox", "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader", "--window-size=1280,800"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False})
    yield driver
    driver.quit()
