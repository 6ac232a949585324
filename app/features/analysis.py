"""Analysis views in the main window: View ▸ Workspace, Centre of mass, Inertia, Gravity torques
and Self-collision check (all remembered in the settings, off by default).

Each listens to the document only (tree, configuration and selection signals) and draws into
its own viewport item or the Joints panel's torque column:

- **Workspace**: :func:`kinetree.core.kinematics.workspace.sample_workspace` of the selected body (else the
  end effector) runs in a worker thread, reporting progress to a bar in the status bar (with a
  Cancel button); the cloud is drawn when it is done. It is computed again when the joints or
  the structure change (not when the configuration does), and cleared with a note meanwhile.
- **Centre of mass**: ``tree.center_of_mass(q)`` at every configuration change.
- **Inertia**: each body's equivalent inertia box (:mod:`.viewport.inertia_boxes`), computed
  per edit and placed at the body poses per configuration change; bodies without a physical
  inertia are named in the status bar.
- **Gravity torques**: the Joints panel's column (:meth:`JointsPanel.set_torques_visible`).
- **Self-collision check**: after configuration changes, the tree's
  :class:`~kinetree.core.kinematics.collision.CollisionChecker` (one per tree version) names the bodies
  in contact; the viewport draws them red and the status bar lists the pairs. A check that
  took more than :data:`CHEAP_CHECK_S` is run at most every few of its own durations, so that
  a drag never waits for it.
"""

from __future__ import annotations

import logging
import threading
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
from kinetree.core import KineTreeError, collision_available, sample_workspace
from kinetree.core.kinematics.collision import MeshSkippedWarning, collision_checker
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QProgressBar, QToolButton

from ..model.numbers import short_text
from ..viewport.overlays.com_marker import ComMarker
from ..viewport.overlays.inertia_boxes import InertiaBoxes
from ..viewport.overlays.workspace_cloud import WorkspaceCloud, cloud_rows
from ..window.features import At, Feature, MenuId

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: Samples of the workspace cloud (tests set fewer).
WORKSPACE_SAMPLES = 1_000_000
#: Samples of a robot with closed loops: each is closed by a loop solve (the Delta: about
#: 2,700–7,900 a second), and the closed workspace is a curve or a thinner cloud.
LOOP_WORKSPACE_SAMPLES = 20_000
#: Seed of the samples: the same robot shows the same cloud.
WORKSPACE_SEED = 0
#: The progress bar moves at most this often (s): any widget repainted makes Qt compose the
#: whole window through OpenGL, which competes with the sampling for the CPU.
PROGRESS_S = 0.25
#: Edits and selection changes closer together than this start one computation.
RESTART_MS = 150
#: A self-collision check faster than this runs at every configuration change; a slower one
#: waits (coalescing the changes meanwhile) so that checking takes at most a third of the time.
CHEAP_CHECK_S = 0.010


class _Cancelled(Exception):
    """Raised in the worker's progress callback: sample_workspace stops there."""


class _Relay(QObject):
    """Carries the worker's news to the GUI thread (queued: the worker emits, the GUI receives)."""

    progress = Signal(int, int, int)  # job, done, n
    finished = Signal(int, object)  # job, (points, colours, lo, hi) or an exception


def _workspace_job(tree, body: str, n: int, cancel: threading.Event, relay: _Relay, job: int):
    """Worker thread: the cloud (float32) and its colours (colormap rows), ready to draw."""
    last = [time.perf_counter()]

    def progress(done: int, total: int) -> None:
        if cancel.is_set():
            raise _Cancelled
        now = time.perf_counter()
        if now - last[0] >= PROGRESS_S:
            last[0] = now
            relay.progress.emit(job, done, total)

    points, manip = sample_workspace(tree, body, n, rng=WORKSPACE_SEED, progress=progress)
    lo, hi = (float(manip.min()), float(manip.max())) if n else (0.0, 0.0)
    return points.astype(np.float32), cloud_rows(manip, lo, hi), lo, hi


class Analysis(QObject):
    """The five analysis views of one window (see the module docstring)."""

    workspaceReady = Signal()  # a cloud was handed to the viewport (it draws at the next frame)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window, self.doc, self.view = window, window.doc, window.viewport
        # workspace
        self.cloud = WorkspaceCloud(self.view)
        self.workspace_on = False
        self.cloud_body: str | None = None  # the body the cloud (or the running job) is of
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kinetree-workspace")
        self.closed = False  # the window was closed: its worker thread is shut down
        self.future = None  # the last job
        self._relay = _Relay(self)
        self._relay.progress.connect(self._on_progress, Qt.ConnectionType.QueuedConnection)
        self._relay.finished.connect(self._on_finished, Qt.ConnectionType.QueuedConnection)
        self._job = 0
        self._cancel: threading.Event | None = None
        self.computing = False
        self.started_at = 0.0
        self._restart = QTimer(self, singleShot=True, interval=RESTART_MS, timeout=self.compute_workspace)
        self.progress = QProgressBar()
        self.progress.setObjectName("workspaceProgress")
        self.progress.setMaximumWidth(180)
        self.progress.setFormat("Workspace %p%")
        self.cancel_button = QToolButton()
        self.cancel_button.setObjectName("workspaceCancel")
        self.cancel_button.setText("Cancel")
        self.cancel_button.setToolTip("Stop computing the workspace (and turn View ▸ Workspace off)")
        self.cancel_button.clicked.connect(self.cancel_by_user)
        bar = window.statusBar()
        for w in (self.progress, self.cancel_button):
            bar.addPermanentWidget(w)
            w.hide()
        # centre of mass
        self.com = ComMarker(self.view)
        self.com_on = False
        # inertia boxes
        self.inertia = InertiaBoxes(self.view)
        self.inertia_on = False
        # self-collision
        self.collision_on = False
        self.colliding: list[tuple[str, str]] = []
        self.check_seconds = 0.0  # duration of the last check
        self._check_timer = QTimer(self, singleShot=True, interval=0, timeout=self.check_collisions)
        self._next_check = 0.0  # monotonic time before which a slow check is not run again
        self.doc.treeChanged.connect(self._on_tree_changed)
        self.doc.configurationChanged.connect(self._on_configuration)
        self.doc.selectionChanged.connect(self._on_selection)
        window.installEventFilter(self)

    def eventFilter(self, obj: QObject, ev: QEvent) -> bool:  # noqa: N802 - Qt's name
        if obj is self.window and ev.type() == QEvent.Type.Close:
            QTimer.singleShot(0, self, self._closed)  # after the window decided (it may ask to save)
        return False

    def _closed(self) -> None:
        if not self.window.isVisible():  # closed: stop the sampling, free the worker thread
            self.closed = True
            self._stop_job()
            self._pool.shutdown(wait=False, cancel_futures=True)

    # --- workspace ---------------------------------------------------------------------------
    def workspace_body(self) -> str | None:
        """The selected body, else the end effector (None for a tree without bodies)."""
        tree = self.doc.tree
        name = self.doc.selection
        if name is None or name not in tree.body_names:
            name = tree.end_effector if tree.body_names else None
        return name

    def set_workspace(self, on: bool) -> None:
        self.workspace_on = bool(on)
        if self.workspace_on:
            self.compute_workspace()
        else:
            self._stop_job()
            self.cloud.clear()

    def compute_workspace(self) -> None:
        """Start sampling the workspace of :meth:`workspace_body` (stopping a running job)."""
        self._restart.stop()
        self._stop_job()
        if not self.workspace_on:
            return
        body = self.workspace_body()
        self.cloud_body = body
        if body is None:
            self.cloud.clear("Workspace: the robot has no body that moves")
            return
        if self.closed:
            return
        self._job += 1
        self._cancel = threading.Event()
        self.computing = True
        self.started_at = time.perf_counter()
        self.progress.setValue(0)
        self.progress.show()
        self.cancel_button.show()
        job, relay = self._job, self._relay
        n = LOOP_WORKSPACE_SAMPLES if self.doc.tree.loops else WORKSPACE_SAMPLES
        future = self._pool.submit(_workspace_job, self.doc.tree, body, n, self._cancel, relay, job)

        def done(f) -> None:  # worker thread
            try:
                exc = f.exception()
                result = f.result() if exc is None else exc
            except BaseException as err:  # noqa: BLE001 - a cancelled future raises here
                result = err
            try:
                relay.finished.emit(job, result)
            except RuntimeError:  # the window (and the relay) is gone
                pass

        future.add_done_callback(done)
        self.future = future

    def _stop_job(self) -> None:
        if self._cancel is not None:
            self._cancel.set()
            self._cancel = None
        self.computing = False
        self.progress.hide()
        self.cancel_button.hide()

    def cancel_by_user(self) -> None:
        """The Cancel button: stop, and turn the view off (it would only start again)."""
        self._stop_job()
        self.cloud.clear()
        if self.workspace_action.isChecked():
            self.workspace_action.trigger()  # unchecked and remembered, as a menu click does
        self.window.statusBar().showMessage("Workspace cancelled", 4000)

    def _on_progress(self, job: int, done: int, n: int) -> None:
        if job == self._job and self.computing:
            self.progress.setValue(int(100 * done / max(n, 1)))

    def _on_finished(self, job: int, result) -> None:
        if job != self._job or not self.computing:
            return  # superseded or cancelled
        self._stop_job()
        if isinstance(result, _Cancelled):
            return
        if isinstance(result, BaseException):
            note = f"Workspace of {self.cloud_body}: {result}"
            self.cloud.clear(note)
            self.window.statusBar().showMessage(note, 10000)
            return
        points, rows, lo, hi = result
        self.cloud.set_cloud(points, rows, lo, hi, self._title(len(points)))
        self.window.statusBar().showMessage(
            f"Workspace of {self.cloud_body}: {len(points):,} samples in {time.perf_counter() - self.started_at:.2f} s",
            5000)
        self.workspaceReady.emit()

    def _title(self, n: int | None = None) -> str:
        return f"Workspace of {self.cloud_body}: {self.cloud.count if n is None else n:,} samples"

    # --- document signals --------------------------------------------------------------------
    def _on_tree_changed(self, change=None) -> None:
        if self.workspace_on:
            if change is None or change.at_least("joint"):  # the kinematics changed: the cloud is stale
                self._stop_job()
                self.cloud.clear("Workspace: the robot changed, computing again…")
                self._restart.start()
            elif self.cloud_body in dict(change.renamed):  # the same cloud, under the body's new name
                self.cloud_body = dict(change.renamed)[self.cloud_body]
                if self.cloud.count:
                    self.cloud.legend.set_data(self._title(), self.cloud.legend.range, self.cloud.legend.note)
        self._update_com()
        self._update_inertia(tree=True)
        if self.collision_on:
            self._next_check = 0.0  # a new tree: a new checker, checked at once
            self._check_timer.start(0)

    def _on_selection(self, _name=None) -> None:
        if self.workspace_on and self.workspace_body() != self.cloud_body:
            self._stop_job()
            self.cloud.clear(f"Workspace of {self.workspace_body()}: computing…")
            self._restart.start()

    def _on_configuration(self) -> None:
        self._update_com()
        self._update_inertia()
        if self.collision_on and not self._check_timer.isActive():
            wait = max(0.0, self._next_check - time.monotonic())
            self._check_timer.start(int(1000 * wait))

    # --- centre of mass ----------------------------------------------------------------------
    def set_com(self, on: bool) -> None:
        self.com_on = bool(on)
        self.com.setVisible(self.com_on)
        self._update_com()

    def _update_com(self) -> None:
        if not self.com_on:
            return
        tree = self.doc.tree
        try:
            c = tree.center_of_mass(self.doc.configuration)
        except KineTreeError as exc:  # no mass at all: nothing to mark, and why
            if self.com.position is not None or self.com.text != "":
                self.window.statusBar().showMessage(f"Centre of mass: {exc}", 8000)
            self.com.set_position(None, "")
            return
        self.com.set_position(c, f"CoM  {short_text(tree.mass, 4)} kg")

    # --- inertia boxes -----------------------------------------------------------------------
    def set_inertia(self, on: bool) -> None:
        self.inertia_on = bool(on)
        self.inertia.set_visible(self.inertia_on)
        self._update_inertia(tree=True)

    def _update_inertia(self, tree: bool = False) -> None:
        if not self.inertia_on:
            return
        if tree:
            self.inertia.set_tree(self.doc.tree)
            if self.inertia.skipped:  # said, not silently left out
                skipped = "; ".join(f"{body}: {why}" for body, why in self.inertia.skipped)
                self.window.statusBar().showMessage(f"Inertia: no box for {skipped[:400]}", 12000)
        self.inertia.set_poses(self.doc.poses())
        self.view.update()

    # --- self-collision ----------------------------------------------------------------------
    def set_collision_check(self, on: bool) -> None:
        self.collision_on = bool(on) and collision_available()
        if self.collision_on:
            self._next_check = 0.0
            self.check_collisions()
        else:
            self._check_timer.stop()
            self._show_collisions([])

    def check_collisions(self) -> list[tuple[str, str]]:
        """Check the current configuration now; returns the pairs in contact (also drawn)."""
        if not self.collision_on:
            return []
        t = time.perf_counter()
        left_out: list[str] = []
        try:
            with warnings.catch_warnings(record=True) as caught:  # shown below, once per checker built
                warnings.simplefilter("always", MeshSkippedWarning)
                checker = collision_checker(self.doc.tree)
            left_out = [str(w.message) for w in caught if issubclass(w.category, MeshSkippedWarning)]
            for w in caught:
                if not issubclass(w.category, MeshSkippedWarning):
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            pairs = checker.check(self.doc.configuration)
        except (KineTreeError, ModuleNotFoundError) as exc:
            self.window.statusBar().showMessage(f"Self-collision check: {exc}", 10000)
            pairs = []
        self.check_seconds = dt = time.perf_counter() - t
        # slow (meshes): at most a third of the time checking, the rest for the drag itself
        self._next_check = time.monotonic() + (2 * dt if dt > CHEAP_CHECK_S else 0.0)
        self._show_collisions(pairs)
        if left_out:  # after the pairs: a mesh left out is the news of this check
            for text in left_out:
                log.warning("%s", text)
            more = f" (and {len(left_out) - 1} more)" if len(left_out) > 1 else ""
            self.window.statusBar().showMessage(f"{left_out[0][:300]}{more}", 15000)
        return pairs

    def _show_collisions(self, pairs: list[tuple[str, str]]) -> None:
        before = self.colliding
        self.colliding = list(pairs)
        self.view.set_highlighted({n for p in pairs for n in p})
        bar = self.window.statusBar()
        if pairs:
            shown = ", ".join(f"{a} – {b}" for a, b in pairs[:6]) + (f" and {len(pairs) - 6} more" if len(pairs) > 6
                                                                      else "")
            bar.showMessage(f"Self-collision: {shown}")
        elif before:
            bar.showMessage("No self-collision", 3000)


def install_analysis(window: MainWindow) -> Analysis:
    """Add the analysis views to ``window``: five View toggles (remembered, off by default)."""
    analysis = Analysis(window)
    window.analysis = analysis
    analysis.workspace_action = window._toggle(
        None, "&Workspace", analysis.set_workspace, "showWorkspace", False, "Shift+W",
        name="workspaceAction")  # W is the move-frame tool
    analysis.workspace_action.setToolTip("Where the selected body (else the end effector) can reach, "
                                         f"{WORKSPACE_SAMPLES:,} random configurations ({LOOP_WORKSPACE_SAMPLES:,} "
                                         "closed ones on a robot with loops) coloured by manipulability")
    analysis.com_action = window._toggle(
        None, "Centre of &mass", analysis.set_com, "showCom", False, "M", name="comAction")

    analysis.inertia_action = window._toggle(
        None, "&Inertia", analysis.set_inertia, "showInertia", False, "Ctrl+Shift+I", name="inertiaAction")
    analysis.inertia_action.setToolTip("Each body's equivalent inertia box (Drake's): a uniform box of its mass "
                                       "with its principal moments, at its centre of mass along its principal axes")

    def torques(on: bool) -> None:
        window.sliders.set_torques_visible(on)
        dock = window.docks.get("slidersDock")
        if on and dock is not None and window.isVisible():  # asked for: where they are shown
            dock.show()
            dock.raise_()

    analysis.torque_action = window._toggle(
        None, "&Gravity torques", torques, "showTorques", False, "G", name="torqueAction")
    analysis.torque_action.setToolTip("Each joint's gravity torque beside its slider in the Joints panel")
    available = collision_available()
    analysis.collision_action = window._toggle(
        None, "Self-collision chec&k", analysis.set_collision_check, "checkCollisions", False, "K",
        name="selfCollisionAction")
    if not available:
        analysis.collision_action.setChecked(False)
        analysis.collision_action.setEnabled(False)
        analysis.collision_action.setToolTip("Needs python-fcl: pip install 'kinetree[collision]'")
    else:
        analysis.collision_action.setToolTip("Bodies in contact turn red while you move the joints")
    return analysis


FEATURE = Feature("analysis", install_analysis, actions={
    "workspaceAction": At(MenuId.VIEW, "tools", 10), "comAction": At(MenuId.VIEW, "tools", 20),
    "inertiaAction": At(MenuId.VIEW, "tools", 30), "torqueAction": At(MenuId.VIEW, "tools", 40),
    "selfCollisionAction": At(MenuId.VIEW, "tools", 50)})
