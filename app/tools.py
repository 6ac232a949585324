"""The viewport's tools as the 3D tools people know name them: Q the pose handle (drag a body,
the joints follow by IK), W move frame, E rotate frame (drag the selected body's frame, its
joint's fixed transform changes), in View ▸ Tool with their keys, and Local/Parent axes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from .qt_utils import menu_named

if TYPE_CHECKING:
    from .main_window import MainWindow

TOOLS = (("pose", "&Pose handle (joints follow)", "Q"), ("move", "&Move frame", "W"),
         ("rotate", "&Rotate frame", "E"))


def install_tools(window: MainWindow) -> dict[str, QAction]:
    """View ▸ Tool: one checkable action per tool (exclusive), and the handle axes toggle."""
    view = window.viewport
    menu = menu_named(window, "&View").addMenu("&Tool")
    group = QActionGroup(window)
    actions = {}
    for tool, text, key in TOOLS:
        a = QAction(text, window, checkable=True)
        a.setShortcut(QKeySequence(key))
        a.setObjectName(f"{tool}ToolAction")
        a.setChecked(tool == view.tool)
        a.triggered.connect(lambda _on=False, t=tool: view.set_tool(t))
        group.addAction(a)
        menu.addAction(a)
        actions[tool] = a
    menu.addSeparator()
    parent_axes = QAction("Move and rotate along the &parent's axes", window, checkable=True)
    parent_axes.setObjectName("parentAxesAction")

    def set_parent_axes(on: bool) -> None:
        view.frame_handle.local = not on
        view.frame_handle.refresh()

    parent_axes.toggled.connect(set_parent_axes)
    menu.addAction(parent_axes)
    actions["parent_axes"] = parent_axes
    return actions
