"""The viewport's tool bar: a small row of tool buttons over the view's top-left corner.

Each viewport tool adds its checkable actions with :meth:`ViewportToolbar.add_tool`; an
``exclusive`` group makes the buttons of tools that cannot be active together behave as radio
buttons. The same actions sit in the View menu, so every button has a menu entry and a shortcut.
The tools come first and each tool's own options after them (:data:`GROUPS`), whatever order
they were added in: switching tools shows other options but never moves the tool buttons.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QToolBar, QToolButton, QWidget

MARGIN = 6  # pixels from the view's top-left corner
#: The groups left to right: the tools, then the options of one tool (the pose tool's IK toggles,
#: the frame handles' axes and step); other groups follow, in the order they are added.
GROUPS = ("tool", "ik", "frame")
# opaque: it is a native window over the scene's (see surface.SurfaceView.add_overlay)
STYLE = ("QToolBar#viewportToolbar { background: rgb(30, 30, 34); border: none;"
         " padding: 1px; spacing: 2px; }"
         " QToolBar#viewportToolbar QToolButton { color: #ddd; padding: 2px 6px; border-radius: 3px; }"
         " QToolBar#viewportToolbar QToolButton:checked { background: #2f6db5; color: white; }"
         " QToolBar#viewportToolbar QToolButton:hover { background: rgba(255, 255, 255, 40); }"
         # a faint rule, not the style's light bar (on this dark bar it read as a stray "I")
         " QToolBar#viewportToolbar::separator { background: rgb(75, 75, 82); width: 1px; margin: 4px 4px; }")


class ViewportToolbar(QToolBar):
    """Tool buttons floating over ``view`` (a child widget, not a main-window tool bar)."""

    def __init__(self, view: QWidget) -> None:
        super().__init__(view)
        self.setObjectName("viewportToolbar")
        self.setMovable(False)
        self.setFloatable(False)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.setStyleSheet(STYLE)
        self.groups: dict[str, QActionGroup] = {}
        self._starts: dict[str, QAction] = {}  # the separator before each group's buttons
        self._tidying = False
        self.move(MARGIN, MARGIN)
        view.add_overlay(self)
        self.hide()  # until a tool is added

    def add_tool(self, action: QAction, group: str | None = None, exclusive: bool = False) -> QToolButton:
        """A button for ``action``; actions of one ``group`` sit together (``exclusive``: one
        checked at a time), groups apart by a separator and in the order of :data:`GROUPS`.
        Returns the button."""
        if group is not None:
            if group not in self.groups:
                self.groups[group] = QActionGroup(self)
                self.groups[group].setExclusive(exclusive)
                # every group starts with a separator; _tidy shows only those between two buttons
                self._starts[group] = separator = QAction(self)
                separator.setSeparator(True)
                self.insertAction(self._after(group), separator)
            self.groups[group].addAction(action)
            self.insertAction(self._after(group), action)
        else:
            self.addAction(action)
        self.show()
        return self.widgetForAction(action)

    def _after(self, group: str) -> QAction | None:
        """The first action after ``group``'s (the next group's separator; None: the end)."""
        order = list(self._starts)

        def rank(name: str) -> int:  # other groups after those of GROUPS, in the order they came
            return GROUPS.index(name) if name in GROUPS else len(GROUPS) + order.index(name)

        later = [name for name in self._starts if rank(name) > rank(group)]
        return self._starts[min(later, key=rank)] if later else None

    def actionEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().actionEvent(event)  # an action added, removed, shown or hidden (with its tool)
        if not self._tidying:
            self._tidying = True
            try:
                self._tidy()
            finally:
                self._tidying = False

    def _tidy(self) -> None:
        """A separator shows only between two groups that each show a button (the IK toggles
        hide outside the pose tool: no stray bar before the tools)."""
        before, pending = False, None
        for a in self.actions():
            if a.isSeparator():
                a.setVisible(False)
                if before:
                    pending = a
            elif a.isVisible():
                if pending is not None:
                    pending.setVisible(True)
                    pending = None
                before = True
        self.adjustSize()
