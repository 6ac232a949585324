"""The viewport's tools as the 3D tools people know name them: Q the pose handle (drag a body,
the joints follow by IK), W move frame, E rotate frame (drag the selected body's frame, its
joint's fixed transform changes), in View ▸ Tool with their keys, and Local/Parent axes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox

from ..viewport.tools.tool_list import TOOLS as VIEWPORT_TOOLS
from ..window.features import At, Feature, MenuId

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: Steps (mm) a frame move can snap to; 10 mm by default.
STEPS_MM = (1, 5, 10, 50, 100)
TOOLS = tuple((name, spec.text, spec.key) for name, spec in VIEWPORT_TOOLS.items())  # (name, menu text, key)
SHORT = {"loop": "Loop"}  # the tool bar's text where the menu's first word says too little


def install_tools(window: MainWindow) -> dict[str, QAction]:
    """View ▸ Tool: one checkable action per tool (exclusive), the handle axes toggle and the
    snapping step; the same as buttons in the viewport's tool bar."""
    view = window.viewport
    bar = view.toolbar
    actions = {}
    for tool, text, key in TOOLS:
        a = QAction(text, window, checkable=True)
        a.setShortcut(QKeySequence(key))
        # a letter typed in a panel (a DH cell's R/P, a name) is not a tool switch: the keys
        # work while the viewport has the focus (a click in it gives it), the menu anywhere
        a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        view.addAction(a)
        a.setObjectName(f"{tool}ToolAction")
        a.setIconText(SHORT.get(tool, text.replace("&", "").split(" ")[0]))  # short: the bar fits a 450-px view
        a.setToolTip(f"{text.replace('&', '')} ({key})")
        a.setChecked(tool == view.tool)
        a.triggered.connect(lambda _on=False, t=tool: view.set_tool(t))
        bar.add_tool(a, "tool", exclusive=True)
        actions[tool] = a
    parent_axes = QAction("Move and rotate along the &parent's axes", window, checkable=True)
    parent_axes.setObjectName("parentAxesAction")
    parent_axes.setIconText("Parent")
    parent_axes.setToolTip("Move and rotate along the parent's axes instead of the body's own")

    def set_parent_axes(on: bool) -> None:
        view.frame_handle.local = not on
        view.frame_handle.refresh()

    parent_axes.toggled.connect(set_parent_axes)
    bar.add_tool(parent_axes, "frame")
    actions["parent_axes"] = parent_axes
    step = QComboBox(bar)
    step.setObjectName("snapStep")
    step.setToolTip("The step a frame move snaps to (Ctrl while dragging: no snapping)")
    for mm in STEPS_MM:
        step.addItem(f"{mm:g} mm", mm / 1000)
    step.setCurrentIndex(STEPS_MM.index(10))
    step.currentIndexChanged.connect(lambda _i: setattr(view.frame_handle, "step", step.currentData()))
    step_action = bar.addWidget(step)
    actions["step"] = step
    ik_only = [a for a in bar.actions() if a.objectName() in ("ikPositionOnlyAction", "ikHandleAction")]

    options = {"frame": (parent_axes, step_action), "ik": ik_only}  # the IK handle's own toggles

    def follow(tool: str) -> None:  # the buttons of the tool in use only: the bar fits a small view
        actions[tool].setChecked(True)
        for group, buttons in options.items():
            for a in buttons:
                a.setVisible(group == VIEWPORT_TOOLS[tool].options)
        bar.adjustSize()

    view.toolChanged.connect(follow)
    follow(view.tool)
    window.tool_actions = actions
    return actions


FEATURE = Feature("tools", install_tools, requires=("ik_tools",), actions={
    **{f"{tool}ToolAction": At(MenuId.VIEW_TOOL, "tools", k) for k, (tool, _text, _key) in enumerate(TOOLS)},
    "parentAxesAction": At(MenuId.VIEW_TOOL, "axes", 0)})
