"""Viewport tools behind one interface (as Godot's gizmo plugins are).

The view holds one :class:`Tool` per entry of :data:`.tool_list.TOOLS` and sends every gesture to the
active one: a press that may start a drag, the drag, the release, a click (a press released
where it began), Esc (:meth:`Tool.cancel`: put back what the drag changed, or forget the picks)
and keys. A drag is one document edit, previewed while it lasts and committed on release.

Adding a tool: a module with a :class:`Tool` subclass (it makes and draws its own items) ending
with ``TOOL = ToolSpec(…)``, and one line in :data:`.tool_list.TOOL_MODULES`; View ▸ Tool and the
viewport's tool bar list it with its key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from kinetree.core import KineTreeError

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent

    from ..view import RobotViewport



class ToolError(KineTreeError):
    """A tool list that cannot be made: a listed module that declares no ``TOOL``."""


class ToolSpec(NamedTuple):
    """A registered tool: View ▸ Tool's text and key, the tool bar group whose buttons show while
    it is active (its options), and how the view makes it (a :class:`Tool` subclass, or any
    callable of the tool's name and the view)."""

    text: str
    key: str
    options: str | None
    make: Callable[[str, RobotViewport], Tool]

class Tool:
    """A viewport tool; the defaults do nothing (a gesture not taken goes to the camera)."""

    #: the handle a drag of this tool moves (the IK or the frame handle), if any
    handle = None

    def __init__(self, name: str, view: RobotViewport) -> None:
        self.name = name
        self.view = view

    @property
    def dragging(self) -> bool:
        return False

    def activate(self, on: bool) -> None:
        """The view's tool became this one (``on``) or another one."""

    def press(self, x: float, y: float) -> bool:
        """A left press at (x, y): True if it starts this tool's drag (the camera does not move)."""
        return False

    def drag(self, x: float, y: float, free: bool = False) -> None:
        """The drag moved to (x, y); ``free`` (Ctrl held): no snapping."""

    def release(self) -> None:
        """The button was released: the drag's edit is committed."""

    def click(self, x: float, y: float) -> bool:
        """A click (no drag) at (x, y): True if the tool took it (else it selects a body)."""
        return False

    def cancel(self) -> bool:
        """Esc: put back what the drag changed, or forget the tool's picks; True if there was any."""
        return False

    def key(self, ev: QKeyEvent) -> bool:
        """A key pressed in the view: True if the tool took it."""
        return False

    def draw(self) -> None:
        """Redraw the tool's items for the current document and camera."""


class HandleTool(Tool):
    """A tool that drags a handle: the IK handle (the pose tool) or the frame handle (move, rotate)."""

    def __init__(self, name: str, view: RobotViewport, handle) -> None:
        super().__init__(name, view)
        self.handle = handle

    @property
    def dragging(self) -> bool:
        return self.handle.dragging

    def activate(self, on: bool) -> None:
        self.handle.refresh()  # the handle shows or hides itself for the view's tool

    def press(self, x: float, y: float) -> bool:
        return self.handle.press(x, y)

    def drag(self, x: float, y: float, free: bool = False) -> None:
        self.handle.move(x, y, free=free)

    def release(self) -> None:
        self.handle.release()

    def cancel(self) -> bool:
        return self.handle.cancel()

    def draw(self) -> None:
        self.handle.refresh()


class PickTool(Tool):
    """A tool whose clicks pick marks (measure, close loop): ``picks`` has ``click``, ``clear``
    and ``set_active``, and draws the marks."""

    def __init__(self, name: str, view: RobotViewport, picks) -> None:
        super().__init__(name, view)
        self.picks = picks

    def activate(self, on: bool) -> None:
        self.picks.set_active(on)

    def click(self, x: float, y: float) -> bool:
        self.picks.click(x, y)
        return True

    def cancel(self) -> bool:
        return self.picks.clear()

    def draw(self) -> None:
        self.picks._draw()
