"""View ▸ Inverse kinematics handle and View ▸ IK position only (both remembered), also as
buttons in the viewport's tool bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..window.features import At, Feature, MenuId

if TYPE_CHECKING:
    from ..window.main_window import MainWindow


def install_ik_tools(window: MainWindow) -> None:
    """The IK handle's two toggles, in the View menu and the viewport's tool bar."""
    handle = window.viewport.ik_handle
    show = window._toggle(None, "&Inverse kinematics handle", handle.set_enabled, "ikHandle", True,
                          "I", name="ikHandleAction")
    show.setIconText("IK")
    show.setToolTip("Show the handle: drag the selected body (or the end effector), the robot follows (I)")
    position = window._toggle(None, "IK &position only", handle.set_position_only, "ikPositionOnly", False,
                              "Shift+I", name="ikPositionOnlyAction")
    position.setIconText("Position only")
    position.setToolTip("The IK drag moves the body's origin and lets its orientation follow (always so "
                        "on a chain that cannot hold an orientation, with fewer than six joints)")
    bar = window.viewport.toolbar
    bar.add_tool(show, "ik")
    bar.add_tool(position, "ik")


FEATURE = Feature("ik_tools", install_ik_tools, actions={
    "ikHandleAction": At(MenuId.VIEW, "camera", 110), "ikPositionOnlyAction": At(MenuId.VIEW, "camera", 120)})
