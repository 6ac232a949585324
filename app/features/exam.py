"""Exam mode in the main window, and the figure of an exported exercise sheet.

During an exam (the teach state's ``examChanged``) the docks that show the answers, the DH
table, Pose, Explain and Assign frames, are hidden and their View toggles disabled; a dock
shown by any other way (View ▸ Reset layout, a shortcut) hides again at once. View ▸ Check a
matrix… (it computes any pose) is disabled and its dialog closed, and the Joint dock hides a
body's fixed transform and DH row. When the exam ends, those that were shown before come back.
The DH overlay follows the teach state itself (no overlay in an exam).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QImage
from PySide6.QtWidgets import QDialog

if TYPE_CHECKING:
    from ..window.main_window import MainWindow
    from .teach import TeachState

GUARDED = ("dhDock", "poseDock", "explainDock", "assignFramesDock")
#: actions (by object name) that would show an answer: disabled during an exam
GUARDED_ACTIONS = ("checkMatrixAction",)
#: their windows (by object name), closed when an exam begins
GUARDED_DIALOGS = ("checkMatrixDialog",)
FIGURE_SIZE = (1600, 1000)


def guarded_docks(window: MainWindow) -> list:
    docks = dict(window.docks)
    docks.setdefault("explainDock", window.explain_dock)
    docks.setdefault("assignFramesDock", window.assign_frames_dock)  # None until installed (after the exam)
    return [docks[k] for k in GUARDED if docks.get(k) is not None]


def install_exam(window: MainWindow, state: TeachState) -> None:
    """Make ``window``'s answer-showing docks, actions and the Joint dock follow ``state.examChanged``."""
    shown_before: list = []
    watched: set = set()  # the docks kept hidden (Assign frames is installed after this)

    def watch() -> list:
        docks = guarded_docks(window)
        for d in docks:
            if d not in watched:
                watched.add(d)
                d.visibilityChanged.connect(lambda visible, d=d: keep_hidden(d, visible))
        return docks

    def exam_changed(on: bool) -> None:
        docks = watch()
        if on:
            shown_before[:] = [d for d in docks if d.isVisible()]
            for d in docks:
                d.hide()
            for name in GUARDED_DIALOGS:
                if (dialog := window.findChild(QDialog, name)) is not None:
                    dialog.close()
        for d in docks:
            d.toggleViewAction().setEnabled(not on)
        for name in GUARDED_ACTIONS:
            if (action := window.findChild(QAction, name)) is not None:
                action.setEnabled(not on)
        window.joint.set_answers_hidden(on)
        if not on:
            for d in shown_before:
                d.show()
            shown_before.clear()

    def keep_hidden(dock, visible: bool) -> None:
        if visible and state.exam:  # after the caller is done (a layout reset shows docks in steps)
            QTimer.singleShot(0, lambda: state.exam and dock.hide())

    state.examChanged.connect(exam_changed)
    watch()


def sheet_figure(window: MainWindow) -> QImage | None:
    """The robot at its current pose with every link's DH frames, without the parameters'
    values (the sheet asks for them; also in an exam), seen from the iso view and framed whole;
    the user's camera and View ▸ DH parameters are restored after."""
    view, state = window.viewport, window.teach
    if state is None:
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
