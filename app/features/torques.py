"""The Torques dock (View ▸ Torques, Ctrl+Shift+T, or the Poses dock's "Torques…" button): the
torques along the motion the Poses dock plays (:mod:`.panels.torques`). A tab beside the DH
table, hidden until asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from ..panels.torques import TorquePanel
from ..window.features import At, Feature, MenuId
from ..window.layout import hidden_tab, optional_dock

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: Height (pixels) the dock takes when shown,
TORQUES_HEIGHT = 330
#: ... and at most this share of the window's height (at 1280x800 the Joints dock keeps its six rows)
TORQUES_SHARE = 0.3


def install_torques(window: MainWindow) -> None:
    """Add the Torques dock and View ▸ Torques to ``window`` (after the Poses dock: it plots
    that dock's motion)."""
    # the panel (a pyqtgraph plot: 50-120 ms) is built when the dock is first shown, not at start-up
    dock, toggle = optional_dock(window, "Torques", "torquesDock", QWidget(), Qt.DockWidgetArea.BottomDockWidgetArea,
                                 "Ctrl+Shift+T", scroll=False)
    toggle.setText("&Torques along the motion")
    toggle.setToolTip("Each joint's torque along the Poses dock's motion, with its effort limit and peaks")
    window.torques = None
    window.torques_dock = dock
    place_torques_dock(window)

    def show() -> None:
        dock.show()
        dock.raise_()

    def grow(visible: bool) -> None:
        if visible and window.torques is None:
            window.torques = TorquePanel(window.doc, window.playback)
            dock.setWidget(window.torques)
        # the DH table's height is a few rows: a plot and its legend need more (the viewport gives it)
        if not visible or dock.isFloating():  # (also as the window is deleted)
            return
        want = min(TORQUES_HEIGHT, int(window.height() * TORQUES_SHARE))
        if dock.height() < want:
            window.resizeDocks([dock], [want], Qt.Orientation.Vertical)

    window.poses.torquesRequested.connect(show)
    dock.visibilityChanged.connect(grow)


def place_torques_dock(window: MainWindow) -> None:
    """The Torques dock's default place: a tab beside the DH table (the width of the viewport), hidden."""
    hidden_tab(window, window.docks["dhDock"], window.torques_dock, Qt.DockWidgetArea.BottomDockWidgetArea)


FEATURE = Feature("torques", install_torques, requires=("playback",), docks=("torquesDock",),
                          place=place_torques_dock, actions={"toggle_torquesDock": At(MenuId.VIEW, "features", 30)})
