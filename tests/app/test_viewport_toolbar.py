"""The viewport's tool bar as a user sees it: the tools in a row that stays put, the tool in use's
own options after one separator, no separator at an end or next to another."""

from __future__ import annotations

import numpy as np
from helpers.gui import image_array, shown
from kinetree.core import load_robot
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

TOOLS = ["Pose", "Move", "Rotate", "Measure", "Loop"]


def test_tools_stay_put_and_their_options_follow_one_separator(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    w.doc.load(load_robot("puma560"))
    bar = w.viewport.toolbar
    places = {}
    for tool in ("pose", "move", "rotate", "measure", "loop", "pose"):
        QTest.mouseClick(bar.widgetForAction(w.tool_actions[tool]), Qt.MouseButton.LeftButton)
        texts = shown(bar)
        assert texts[0] != "|" and texts[-1] != "|" and "||" not in "".join(texts), (tool, texts)
        assert texts[:len(TOOLS)] == TOOLS, (tool, texts)  # the tools first, whichever is in use
        options = {"pose": ["IK", "Position only"], "move": ["Parent", ""], "rotate": ["Parent", ""]}.get(tool, [])
        assert texts[len(TOOLS):] == (["|", *options] if options else []), (tool, texts)
        # the button just clicked is still under the mouse: no tool button moved
        for name, a in w.tool_actions.items():
            if name in ("pose", "move", "rotate", "measure", "loop"):
                assert places.setdefault(name, bar.widgetForAction(a).x()) == bar.widgetForAction(a).x(), (tool, name)
        assert bar.width() <= w.viewport.width()


def test_the_separator_is_a_faint_rule(make_window, qtbot):
    w = make_window()
    bar = w.viewport.toolbar
    separator = next(bar.widgetForAction(a) for a in bar.actions()
                     if a.isSeparator() and bar.widgetForAction(a).isVisible())
    pixels = image_array(bar.grab(separator.geometry()).toImage())[..., :3]
    # the bar is rgb(30, 30, 34); the style's own separator drew a light bar that read as an "I"
    assert pixels.max() < 110, pixels.max()
    assert (np.abs(pixels.astype(int) - [30, 30, 34]).sum(axis=2) > 30).any()  # but it is drawn


def test_groups_keep_their_order_whatever_order_their_buttons_come_in(qtbot):
    from kinetree.app.viewport.tools.toolbar import ViewportToolbar
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QWidget

    class View(QWidget):
        def add_overlay(self, widget) -> None:
            pass

    view = View()
    qtbot.addWidget(view)
    bar = ViewportToolbar(view)
    for text, group in (("IK", "ik"), ("A", "extra"), ("B", "more"), ("Pose", "tool"), ("A2", "extra"),
                        ("Parent", "frame"), ("Move", "tool"), ("B2", "more")):
        bar.add_tool(QAction(text, bar), group)
    texts = ["|" if a.isSeparator() else a.text() for a in bar.actions()]
    assert texts == ["|", "Pose", "Move", "|", "IK", "|", "Parent", "|", "A", "A2", "|", "B", "B2"]
