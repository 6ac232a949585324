"""Exam mode in the main window, and the figure of an exported exercise sheet.

During an exam (the teach state's ``examChanged``) the docks that show the answers, the DH
table, Pose and Explain, are hidden and their View toggles disabled; a dock shown by any other
way (View ▸ Reset layout, a shortcut) hides again at once. When the exam ends, those that were
shown before come back. The DH overlay follows the teach state itself (no overlay in an exam).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QImage

if TYPE_CHECKING:
    from .main_window import MainWindow
    from .teach import TeachState

GUARDED = ("dhDock", "poseDock", "explainDock")
FIGURE_SIZE = (1600, 1000)


def guarded_docks(window: MainWindow) -> list:
    docks = dict(window.docks)
    docks.setdefault("explainDock", getattr(window, "explain_dock", None))
    return [docks[k] for k in GUARDED if docks.get(k) is not None]


def install_exam(window: MainWindow, state: TeachState) -> None:
    """Make ``window``'s answer-showing docks follow ``state.examChanged``."""
    shown_before: list = []

    def exam_changed(on: bool) -> None:
        docks = guarded_docks(window)
        if on:
            shown_before[:] = [d for d in docks if d.isVisible()]
            for d in docks:
                d.hide()
        for d in docks:
            d.toggleViewAction().setEnabled(not on)
        if not on:
            for d in shown_before:
                d.show()
            shown_before.clear()

    def keep_hidden(dock, visible: bool) -> None:
        if visible and state.exam:  # after the caller is done (a layout reset shows docks in steps)
            QTimer.singleShot(0, lambda: state.exam and dock.hide())

    state.examChanged.connect(exam_changed)
    for d in guarded_docks(window):
        d.visibilityChanged.connect(lambda visible, d=d: keep_hidden(d, visible))


def sheet_figure(window: MainWindow) -> QImage | None:
    """The robot at its current pose with every link's DH frames, without the parameters'
    values (the sheet asks for them; also in an exam), seen from the iso view and framed whole;
    the user's camera and View ▸ DH parameters are restored after."""
    view = getattr(window, "viewport", None)
    state = getattr(window, "teach", None)
    if view is None or state is None:
        return None
    camera = view.cameraParams()
    ortho = view.camera.ortho
    show_all = state._show_all
    try:
        state.set_frames_only(True)
        state.set_show_all(True)
        view.set_view("iso")
        view.fit()
        return view.render_image(*FIGURE_SIZE)
    finally:
        state.set_show_all(show_all)
        state.set_frames_only(False)
        view.setCameraParams(**camera)
        view.camera.set_ortho(ortho)
        view.update()
