"""View ▸ Simulate (S): the Simulate dock (:mod:`.panels.simulate`), a tab beside the Pose dock,
hidden until asked for. Closing it ends the simulation and puts the robot back unless its pose
was kept."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ..panels.simulate import SimulatePanel
from ..window.features import At, Feature, MenuId
from ..window.layout import hidden_tab, optional_dock

if TYPE_CHECKING:
    from ..window.main_window import MainWindow


def install_simulate(window: MainWindow) -> SimulatePanel:
    """The Simulate dock and its View toggle."""
    panel = SimulatePanel(window.doc)
    window.simulate = panel
    dock, toggle = optional_dock(window, "Simulate", "simulateDock", panel, Qt.DockWidgetArea.RightDockWidgetArea, "S")
    toggle.setText("&Simulate")
    toggle.setToolTip("Let the robot fall under gravity, with friction and joint stops; hold it with a PD controller")
    window.simulate_dock = dock
    place_simulate_dock(window)
    toggle.toggled.connect(lambda on: on or panel.stop(restore=True))
    return panel


def place_simulate_dock(window: MainWindow) -> None:
    """The Simulate dock's default place: a tab beside the Pose dock, hidden until shown."""
    hidden_tab(window, window.docks["poseDock"], window.simulate_dock, Qt.DockWidgetArea.RightDockWidgetArea)


FEATURE = Feature("simulate", install_simulate, docks=("simulateDock",), place=place_simulate_dock,
                           actions={"toggle_simulateDock": At(MenuId.VIEW, "features", 20)})
