"""Teach mode in the main window: View ▸ DH parameters (the viewport's DH overlay for every
link; the selected link's is always drawn), the Explain dock that steps through A_i and the
Exercise dock (the app hides a pose, an A_i or a DH row; the student types it in).

:class:`TeachState` is what the overlay and the Explain dock share (neither calls the other):
whether every link is shown, the DH convention used for chains without stored DH rows, and the
ghost frame the Explain dock animates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction

from ..model.dh_chain import dh_chain_to
from ..panels.exercise import Exercise, ExercisePanel
from ..panels.explain import ExplainPanel
from ..viewport.overlays.dh_overlay import DHOverlay
from ..window.features import At, Feature, MenuId
from ..window.layout import hidden_tab, optional_dock
from .exam import install_exam, sheet_figure

if TYPE_CHECKING:
    from ..window.main_window import MainWindow


class TeachState(QObject):
    """Shared by the DH overlay and the Explain dock; ``changed`` follows every setter."""

    changed = Signal()
    conventionChanged = Signal(str)
    #: asks the Explain dock to play the selected link from its start (True: T₀ⁱ link by link)
    stepThroughRequested = Signal(bool)
    #: an exam began (True) or ended: the views that show answers hide them meanwhile
    examChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._show_all = False  # View ▸ DH parameters: without it, no overlay (but for show_selected)
        self._show_selected = False  # the Explain dock (or screenshot --teach) shows the selected link
        self.solo = False  # the lecture walk shows one link: no overlay of every link meanwhile
        self.exam = False  # an exercise in exam mode: no DH overlay (it shows the answers)
        self.frames_only = False  # a sheet's figure: the DH frames without a, d, θ, α (even in an exam)
        self.convention = "dh"  # for chains whose joints hold no DH rows (extract_dh's)
        self.ghost: np.ndarray | None = None
        self.ghost_label = ""

    @property
    def show_all(self) -> bool:
        """Every link's DH overlay (never during an exam but as frames without values, nor while
        the walk shows one link)."""
        return self._show_all and (not self.exam or self.frames_only) and not self.solo

    @show_all.setter
    def show_all(self, on: bool) -> None:
        self._show_all = bool(on)

    @property
    def show_selected(self) -> bool:
        """The selected link's DH overlay (never during an exam)."""
        return self._show_selected and not self.exam

    @show_selected.setter
    def show_selected(self, on: bool) -> None:
        self._show_selected = bool(on)

    def set_show_all(self, on: bool) -> None:
        if bool(on) != self._show_all:
            self._show_all = bool(on)
            self.changed.emit()

    def set_show_selected(self, on: bool) -> None:
        if bool(on) != self._show_selected:
            self._show_selected = bool(on)
            self.changed.emit()

    def set_frames_only(self, on: bool) -> None:
        """Draw the DH frames without the parameters' values (a figure that keeps the answers)."""
        if bool(on) != self.frames_only:
            self.frames_only = bool(on)
            self.changed.emit()

    def set_solo(self, on: bool) -> None:
        """The lecture walk shows one link's frames alone (True) or the overlay as chosen."""
        if bool(on) != self.solo:
            self.solo = bool(on)
            self.changed.emit()

    def set_exam(self, on: bool) -> None:
        """Begin or end an exam: ``examChanged`` and ``changed`` (the overlay hides or comes back)."""
        if bool(on) != self.exam:
            self.exam = bool(on)
            self.examChanged.emit(self.exam)
            self.changed.emit()

    def set_convention(self, convention: str) -> None:
        """``"dh"`` or ``"mdh"``: the table extract_dh computes for chains without DH rows."""
        if convention not in ("dh", "mdh"):
            raise ValueError(f"DH convention must be 'dh' or 'mdh', got {convention!r}")
        if convention != self.convention:
            self.convention = convention
            self.conventionChanged.emit(convention)
            self.changed.emit()

    def set_ghost(self, pose: np.ndarray | None, label: str = "") -> None:
        """The ghost frame's pose in the tree base (None: hidden), and the text drawn by it."""
        self.ghost = None if pose is None else np.array(pose, dtype=float)
        self.ghost_label = label
        self.changed.emit()


def install_teach(window: MainWindow) -> TeachState:
    """Add the DH overlay to ``window``'s viewport, View ▸ DH parameters (remembered in the
    window's settings) and the Explain dock (tabbed, hidden until asked for)."""
    state = TeachState(window)
    window.teach = state
    window.dh_overlay = DHOverlay(window.viewport, window.doc, state)
    action = QAction("&DH parameters", window)
    action.setObjectName("dhOverlayAction")
    action.setCheckable(True)
    action.setShortcut("D")
    action.setToolTip("Draw every link's DH frames, a, d (dimension lines) and θ, α (arcs), "
                      "with the selected link's values")

    def toggled(on: bool) -> None:
        state.set_show_all(on)
        window.settings.setValue("showDH", bool(on))

    action.toggled.connect(toggled)
    if window.settings.value("showDH", False, type=bool):  # remembered; off by default
        action.setChecked(True)
    window.dh_overlay_action = action
    explain = ExplainPanel(window.doc, state)
    # not part of the default layout: View ▸ Explain shows it, a tab beside the DH table
    dock, toggle = optional_dock(window, "Explain", "explainDock", explain, Qt.DockWidgetArea.BottomDockWidgetArea,
                                 "Ctrl+Shift+X")
    window.explain = explain
    window.explain_dock = dock
    dock.visibilityChanged.connect(explain.set_active)
    dock.visibilityChanged.connect(state.set_show_selected)  # the explained link, drawn
    install_exercise(window, state)
    return state


def install_exercise(window: MainWindow, state: TeachState) -> None:
    """The Exercise dock (a tab beside the DH table, hidden until View ▸ Exercise) and the exam."""

    def step_through(ex: Exercise) -> None:
        """The exercise's configuration on the robot, and its link stepped through in Explain."""
        window.doc.set_configuration(ex.q)
        window.doc.select(ex.chain.bodies[ex.link - 1])
        window.explain_dock.show()
        window.explain_dock.raise_()
        state.stepThroughRequested.emit(ex.kind == "pose")  # the end pose: T₀ⁿ built link by link

    panel = ExercisePanel(window.doc, state, step_through, render_figure=lambda: sheet_figure(window))
    dock, toggle = optional_dock(window, "Exercise", "exerciseDock", panel, Qt.DockWidgetArea.BottomDockWidgetArea)
    window.exercise = panel
    window.exercise_dock = dock
    dock.visibilityChanged.connect(panel.set_active)
    install_exam(window, state)


def place_teach_docks(window: MainWindow) -> None:
    """The Explain and Exercise docks' default place: tabs beside the DH table, hidden."""
    for dock in (window.explain_dock, window.exercise_dock):
        hidden_tab(window, window.docks["dhDock"], dock, Qt.DockWidgetArea.BottomDockWidgetArea)


FEATURE = Feature("teach", install_teach, docks=("explainDock", "exerciseDock"), place=place_teach_docks,
                        actions={"dhOverlayAction": At(MenuId.VIEW, "features", 40),
                                 "toggle_explainDock": At(MenuId.VIEW, "features", 50),
                                 "toggle_exerciseDock": At(MenuId.VIEW, "features", 60)})


def attach_overlay(view, doc, link: int | None = None, show_all: bool = False):
    """The DH overlay in a bare viewport (``kinetree screenshot --teach I``): link ``link``
    (1-based, on the chain to the last body) selected, so its parameters are drawn."""
    state = TeachState(view)
    state.show_all = show_all
    state.show_selected = True  # the figure of link ``link``
    if link is not None:
        chain = dh_chain_to(doc.tree)
        if not 1 <= link <= chain.count:
            raise KineTreeError(f"--teach {link}: the chain has links 1 to {chain.count}")
        doc.select(chain.bodies[link - 1])
    handle = getattr(view, "ik_handle", None)
    if handle is not None:  # a figure of the DH parameters: no IK rings drawn over them
        handle.set_enabled(False)
    return DHOverlay(view, doc, state)
