"""``Viewer.widget()``: a notebook widget linked to the live window (napari's pattern). The widget's
traitlets side is driven from Python as the kernel does with the page's messages; the window's side
by the API and by a real slider drag; once in headless Chromium, the widget's view between them."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers.gui import slider_handle_centre
from kinetree.core import Joint, RigidBody, load_robot
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

pytest.importorskip("anywidget", reason="the widget needs anywidget (the notebook and test extras)")
from helpers.notebook_widget import check_pose, open_widget  # noqa: E402
from helpers.web_page import check_page_matches_engine, next_frame  # noqa: E402

Q = [0.6, -0.5, 0.4, 0.3, 0.8, -0.2]


@pytest.fixture
def viewer(qtbot, viewer_settings):
    from kinetree.app import Viewer

    v = Viewer(load_robot("puma560"), Q)
    qtbot.waitExposed(v.window)
    yield v
    v.close()


def window_values(v) -> list[float]:
    """The joint values the window's Sliders dock shows."""
    rows = v.window.sliders.rows
    return [rows[name].spin.core for name in v.tree.movable_joint_names]


def test_widget_moves_the_window_and_the_window_moves_the_widget(viewer):
    v = viewer
    w = v.widget(height=420)
    assert w.configuration == Q and w.tree.body_names == v.tree.body_names and w.height == 420
    check_pose(w, v.tree, Q, v.tree.end_effector)

    # widget → window: the page's slider moves, as the kernel sets them from its messages
    steps = v.window.doc.undo_stack.count()
    q1, q2 = [0.1, *Q[1:]], [0.1, 0.2, *Q[2:]]
    w.configuration = q1
    w.configuration = q2
    assert list(v.configuration) == q2 and window_values(v) == q2
    assert v.window.doc.undo_stack.count() == steps + 1  # the widget's moves: one undo step
    v.window.doc.undo_stack.undo()
    assert list(v.configuration) == Q and w.configuration == Q  # the window's undo moves the widget back

    # window → widget: from Python, and a real drag of a slider in the window
    q3 = load_robot("puma560").random_configuration(np.random.default_rng(34))
    v.configuration = q3
    assert w.configuration == list(q3)
    check_pose(w, v.tree, q3, v.tree.end_effector)
    slider = v.window.sliders.rows["q3"].slider
    start = slider_handle_centre(slider)
    QTest.mousePress(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for dx in (10, 20, 40):
        QTest.mouseMove(slider, start + QPoint(dx, 0))
    QTest.mouseRelease(slider, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(40, 0))
    assert v.configuration[2] != q3[2]
    assert w.configuration == list(v.configuration)
    check_pose(w, v.tree, v.configuration, v.tree.end_effector)


def test_an_edit_in_the_window_rebuilds_the_widget_and_one_it_cannot_show_unlinks_it(viewer):
    v = viewer
    w = v.widget()
    w.selected = "link3"

    def add_slide(tree):
        body = RigidBody("slide")
        body.joint = Joint("s1", "prismatic")
        body.joint.position_limits = (0.0, 0.3)
        tree.add_body(body, tree.end_effector)

    v.window.doc.edit("Add slide", add_slide)
    assert w.tree.body_names == v.tree.body_names and "slide" in w.tree.body_names
    assert [b["name"] for b in w._robot["bodies"]] == v.tree.body_names
    assert w.configuration == list(v.configuration) and len(w.configuration) == 7
    assert w.selected == "link3"  # still a body: kept
    w.configuration = [*Q, 0.25]
    assert list(v.configuration) == [*Q, 0.25]

    def add_planar(tree):
        body = RigidBody("table")
        body.joint = Joint("xy", "planar")
        tree.add_body(body, tree.base_name)

    with pytest.warns(RuntimeWarning, match="no longer follows the window.*joint 'xy' of body 'table' is planar"):
        v.window.doc.edit("Add table", add_planar)
    assert "table" not in w.tree.body_names  # the widget keeps the robot it could show
    before = w.configuration
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no error from a widget that no longer follows
        v.configuration = v.tree.random_configuration(np.random.default_rng(1))
    assert w.configuration == before


def test_the_widget_view_between_the_page_and_the_window(viewer, browser, tmp_path):
    """The widget's view in Chromium: a slider moved by keys sends its configuration (the kernel
    sets it on the widget: the window follows); the window's moves reach the page (as the kernel's
    messages), whose matrices equal the engine's to 1e-12."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    v = viewer
    w = v.widget()
    open_widget(browser, tmp_path, w)
    check_page_matches_engine(browser, v.tree, np.array(Q))
    host = browser.find_element(By.CSS_SELECTOR, ".kinetree-widget")
    host.shadow_root.find_elements(By.CSS_SELECTOR, "#sliders input[type=range]")[0].send_keys(Keys.ARROW_RIGHT * 4)
    sent = [e for e in browser.execute_script("return window.fake.log") if e[0] == "set"][-1]
    assert sent[1] == "configuration" and sent[2][0] != Q[0]
    w.set_state({"configuration": sent[2]})  # what ipywidgets does with the page's message
    assert list(v.configuration) == sent[2] and window_values(v) == sent[2]

    w.observe(lambda change: browser.execute_script("window.fake.fromKernel('configuration', arguments[0])",
                                                    change["new"]), "configuration")
    q = v.tree.random_configuration(np.random.default_rng(5))
    v.configuration = q
    next_frame(browser)
    check_page_matches_engine(browser, v.tree, q)
    browser.execute_script("window.cleanup()")
