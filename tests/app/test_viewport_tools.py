"""Viewport tools behind one interface (app/viewport/tools/tool.py) and a registry
(app/viewport/tools/tool_list.py): the view sends each gesture to the active tool."""

from __future__ import annotations

import kinetree.app.viewport.tools.tool_list as tool_list
import kinetree.app.viewport.view as view_module
import pytest
from helpers.planted import contributing_example, plant_module
from kinetree.app.model.document import RobotDocument
from kinetree.app.viewport.tools.tool import Tool, ToolError
from kinetree.app.viewport.tools.tool_list import TOOLS, ToolSpec, tools_of
from kinetree.app.viewport.view import RobotViewport
from kinetree.core.lazy import LazyImports
from PySide6.QtCore import QPoint, Qt


class Probe(Tool):
    """A tool that writes down what it is sent; its press starts a drag."""

    log: list[str] = []

    def __init__(self, name, view) -> None:
        super().__init__(name, view)
        self.held = False

    @property
    def dragging(self) -> bool:
        return self.held

    def activate(self, on: bool) -> None:
        self.log.append(f"activate {on}")

    def press(self, x, y) -> bool:
        self.log.append("press")
        self.held = x > 150  # a press on the right half grabs; on the left it is a click
        return self.held

    def drag(self, x, y, free=False) -> None:
        self.log.append(f"drag {x:.0f}")

    def release(self) -> None:
        self.log.append("release")
        self.held = False

    def click(self, x, y) -> bool:
        self.log.append("click")
        return True

    def cancel(self) -> bool:
        self.log.append("cancel")
        was, self.held = self.held, False
        return was


@pytest.fixture
def probed_view(qtbot, monkeypatch):
    """A viewport with a probe tool registered beside the others, active."""
    Probe.log = []
    monkeypatch.setitem(tool_list.TOOLS, "probe", ToolSpec("&Probe", "P", None, Probe))
    doc = RobotDocument()
    doc.open("two_link_planar")
    view = RobotViewport(doc)
    qtbot.addWidget(view)
    view.resize(320, 240)
    view.show()
    qtbot.waitExposed(view)
    view.set_tool("probe")
    return view


def test_a_registered_tool_gets_the_gestures_while_it_is_active(probed_view, qtbot):
    view = probed_view
    assert isinstance(view.tools["probe"], Probe) and view.active_tool is view.tools["probe"]
    assert Probe.log == ["activate True"]
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 100))
    qtbot.mouseMove(view, QPoint(230, 100))
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=QPoint(230, 100))
    assert Probe.log[1:] == ["press", "drag 230", "release"]  # a drag: no click
    Probe.log.clear()
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=QPoint(60, 100))
    assert Probe.log == ["press", "release", "click"]  # not grabbed: a click, the tool's (no selection)
    assert view.doc.selection is None


def test_esc_cancels_the_active_tools_drag_then_clears_the_selection(probed_view, qtbot):
    view = probed_view
    view.doc.select("link1")
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 100))
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert Probe.log[-1] == "cancel" and not view.tools["probe"].dragging
    assert view.doc.selection == "link1"  # the Esc put the drag back; the next one clears the selection
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert view.doc.selection is None


def test_switching_tools_deactivates_the_others_and_cancels_a_drag(probed_view, qtbot):
    view = probed_view
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=QPoint(200, 100))
    view.set_tool("measure")
    assert Probe.log[-2:] == ["cancel", "activate False"]
    assert view.active_tool is view.tools["measure"] and view.handle is view.frame_handle
    view.set_tool("pose")
    assert view.handle is view.ik_handle
    with pytest.raises(ValueError, match="unknown viewport tool 'lasso'"):
        view.set_tool("lasso")


def test_view_tool_lists_every_registered_tool_with_its_key(window):
    for name, spec in TOOLS.items():
        action = window.tool_actions[name]
        assert (action.text(), action.shortcut().toString()) == (spec.text, spec.key)
        assert action.objectName() == f"{name}ToolAction"


PACKAGE = tool_list.__name__.rpartition(".")[0]  # kinetree.app.viewport.tools


def test_a_tool_module_added_with_one_line_in_the_list_is_registered(qtbot, monkeypatch):
    """CONTRIBUTING's example tool (say the body clicked): its module, and one line in TOOL_MODULES."""
    source, line = contributing_example("app/viewport/tools/name_tool.py", "name")
    module = plant_module(monkeypatch, PACKAGE, "name_tool", source)
    modules = LazyImports(tool_list.__name__, {**tool_list.TOOL_MODULES.table, **line})
    monkeypatch.setattr(view_module, "TOOLS", {**TOOLS, **tools_of(modules)})
    doc = RobotDocument()
    doc.open("two_link_planar")
    view = RobotViewport(doc)
    qtbot.addWidget(view)
    view.set_tool("name")
    assert isinstance(view.active_tool, module.NameTool)
    said = []
    doc.message.connect(said.append)
    monkeypatch.setattr(view, "body_at", lambda x, y: "link2")
    assert view.active_tool.click(10, 10) is True
    assert said == ["that is link2"]


def test_a_listed_module_without_a_tool_is_refused_naming_it(monkeypatch):
    plant_module(monkeypatch, PACKAGE, "not_a_tool", "class NameTool:\n    pass\n")
    with pytest.raises(ToolError, match=r"tool module '\.not_a_tool' \(TOOL_MODULES\['name'\]\) declares no TOOL"):
        tools_of(LazyImports(tool_list.__name__, {"name": ".not_a_tool"}))
