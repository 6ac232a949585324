"""The viewport's tools, registered: each with its View ▸ Tool entry and key (:mod:`.tool`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from .tool import HandleTool, PickTool, Tool

if TYPE_CHECKING:
    from ..view import RobotViewport


class ToolSpec(NamedTuple):
    """A registered tool: View ▸ Tool's text and key, the tool bar group whose buttons show while
    it is active (its options), and how the view makes it."""

    text: str
    key: str
    options: str | None
    make: Callable[[str, RobotViewport], Tool]


#: the viewport's tools, in View ▸ Tool's order (the first is active in a new view)
TOOLS: dict[str, ToolSpec] = {
    "pose": ToolSpec("&Pose handle (joints follow)", "Q", "ik", lambda n, view: HandleTool(n, view, view.ik_handle)),
    "move": ToolSpec("&Move frame", "W", "frame", lambda n, view: HandleTool(n, view, view.frame_handle)),
    "rotate": ToolSpec("&Rotate frame", "E", "frame", lambda n, view: HandleTool(n, view, view.frame_handle)),
    "measure": ToolSpec("Mea&sure", "R", None, lambda n, view: PickTool(n, view, view.measure)),
    "loop": ToolSpec("Close &loop…", "O", None, lambda n, view: PickTool(n, view, view.close_loop)),
}
