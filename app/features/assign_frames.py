"""View ▸ Assign frames: the student assigns the robot's DH frames step by step
(:mod:`.panels.assign_frames`, a dock on the right, hidden until asked for) and the viewport
draws them (:mod:`.viewport.assigned_frames`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ..panels.assign_frames import AssignFramesPanel, AssignState
from ..viewport.overlays.assigned_frames import AssignedFrames
from ..window.features import At, Feature, MenuId
from ..window.layout import hidden_tab, optional_dock

if TYPE_CHECKING:
    from ..window.main_window import MainWindow


def install_assign_frames(window: MainWindow) -> AssignFramesPanel:
    """The dock, its View toggle and the viewport overlay."""
    state = AssignState(window.doc)
    panel = AssignFramesPanel(state)
    dock, toggle = optional_dock(window, "Assign frames", "assignFramesDock", panel,
                                 Qt.DockWidgetArea.RightDockWidgetArea)
    toggle.setText("Assign &frames")
    toggle.setToolTip("Assign the robot's DH frames yourself, step by step, with DH1/DH2 checked")
    toggle.toggled.connect(state.set_active)
    window.doc.treeChanged.connect(state.tree_changed)
    window.assign_frames, window.assign_frames_dock = panel, dock
    place_assign_frames_dock(window)
    window.assigned_frames = AssignedFrames(window.viewport, state, window.doc)
    return panel


def place_assign_frames_dock(window: MainWindow) -> None:
    """A tab beside the Pose dock (the right column's full height), hidden until shown."""
    hidden_tab(window, window.docks["poseDock"], window.assign_frames_dock, Qt.DockWidgetArea.RightDockWidgetArea)


FEATURE = Feature("assign_frames", install_assign_frames, docks=("assignFramesDock",),
                                place=place_assign_frames_dock,
                                actions={"toggle_assignFramesDock": At(MenuId.VIEW, "tools", 80)})
