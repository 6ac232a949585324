"""The main window: viewport in the centre, five docks, menus, files, autosave."""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

from kinetree.core import KineTreeError, RigidBodyTree, describe_robot, list_robots
from kinetree.core.io import READ_SUFFIXES
from kinetree.core.io.project import load_project
from PySide6.QtCore import QPoint, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QUndoView,
)

from ..features.feature_list import FEATURES, FeatureParts
from ..features.image_export import export_image
from ..features.present import follow_font
from ..model.document import RobotDocument, project_path, show_history_note, source_name
from ..model.text import MAX_DIALOG, MAX_WORD, ElidingStatusBar, elide, message_box
from ..panels.bodies import BodiesPanel
from ..panels.dh_table import DhTablePanel
from ..panels.joint import JointPanel
from ..panels.pose import PosePanel
from ..panels.sliders import JointsPanel
from ..viewport.view import RobotViewport
from ..widgets.geometry_actions import drop_mesh, is_mesh_file
from ..widgets.qt_utils import commit_focused_editor
from ..widgets.selection import RowSelectionLink
from ..widgets.undo_keys import add_window_keys, install_undo_keys
from ..widgets.wheel_guard import install_wheel_guard
from .autosave import Autosave
from .features import MENUS, At, MenuId, Menus, install_features
from .file_watch import OVERWRITE, SAVE_AS, FileWatch
from .layout import LAYOUT_VERSION, apply_default_layout, fit_docks_later, place_default, reset_layout, scrolled
from .reading import LoadCancelled, Loader
from .recovery import DISCARD, RESTORE, AutosaveInfo, AutosaveSlot, RecoveryDialog, find_orphans
from .xacro_env import add_allow_env_action, allow_env, with_hint

log = logging.getLogger("kinetree")
PROJECT_FILTER = "KineTree project (*.kinetree.json);;JSON (*.json)"
IMPORT_FILTER = ("Robot files (*.urdf *.xacro *.sdf *.xml *.mjcf *.csv *.tsv);;URDF (*.urdf);;xacro (*.xacro);;"
                 "SDFormat (*.sdf);;MuJoCo MJCF (*.xml *.mjcf);;DH table (*.csv *.tsv)")
OPEN_FILTER = ("Robots (*.kinetree.json *.json *.urdf *.xacro *.sdf *.xml *.mjcf *.csv *.tsv);;" + PROJECT_FILTER
               + ";;" + IMPORT_FILTER)
EXPORT_FILTER = ("URDF (*.urdf);;SDFormat 1.9 (*.sdf);;MuJoCo MJCF (*.xml);;DH table of the selected chain (*.csv);;"
                 "KineTree project (*.kinetree.json)")
MAX_RECENT = 8


class MainWindow(FeatureParts, QMainWindow):
    """The viewport in the centre, the five main docks, the menus, files and autosave; the
    features in :data:`FEATURES` add the rest (``features[name]`` is what each installed)."""

    quiet = False  # errors in the status bar only, no message box (tests, scripts)

    def __init__(self, doc: RobotDocument | None = None, settings: QSettings | None = None) -> None:
        super().__init__()
        install_wheel_guard()  # before any widget is polished: the wheel changes only a focused control
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self.setStatusBar(ElidingStatusBar(self))  # user text in messages is cut to a line's length
        self.loader = Loader()
        self.doc = doc or RobotDocument(parent=self)
        self.origin_name: str | None = None  # what the document was opened from (for untitled ones)
        self.spawned: list[MainWindow] = []  # windows opened for restored documents
        self.offered = 0  # autosaves the last offer_recovery found
        self.settings = settings or QSettings("KineTree", "KineTree")
        self.viewport = RobotViewport(self.doc)
        self.setCentralWidget(self.viewport)
        self.bodies = BodiesPanel(self.doc)
        self.joint = JointPanel(self.doc)
        self.dh = DhTablePanel(self.doc)
        self.sliders = JointsPanel(self.doc)
        self.pose = PosePanel(self.doc, settings=self.settings)
        # the DH table's rows follow and set the one selection too
        self.dh_selection = RowSelectionLink(
            self.doc, self.dh.view,
            lambda r: self.dh.model.entries[r].body if 0 <= r < len(self.dh.model.entries) else None, self)
        self.docks: dict[str, QDockWidget] = {}
        for key, title, widget in (("bodiesDock", "Bodies", self.bodies), ("jointDock", "Joint", self.joint),
                                   ("slidersDock", "Joints", self.sliders), ("poseDock", "Pose", self.pose),
                                   ("dhDock", "DH table", self.dh)):
            dock = QDockWidget(title, self)
            dock.setObjectName(key)
            # scrolled: the DH buttons never widen the window, the pose never hides a 7th slider
            dock.setWidget(scrolled(widget) if key in ("dhDock", "poseDock") else widget)
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
            self.docks[key] = dock
        # a window of its own, but owned by this one: closed with it, never keeps the app alive
        self.undo_view = QUndoView(self.doc.undo_stack, self)
        self.undo_view.setObjectName("undoHistory")
        self.undo_view.setWindowFlag(Qt.WindowType.Window)
        self.undo_view.setWindowTitle("Undo history")
        show_history_note(self.undo_view, self.doc)  # says how many steps it keeps, when bounded
        self.features: dict[str, object] = {}  # name → what the feature's install returned
        self.menus = Menus(self)
        self._build_menus()
        self.feature_order = install_features(self, FEATURES)
        place_default(self)
        apply_default_layout(self)
        restored = self._restore_layout()
        app = QApplication.instance()
        if app.property("kinetreeBasePointSize") is None:  # the size before any window scaled it
            app.setProperty("kinetreeBasePointSize", QApplication.font().pointSizeF())
        self.text_scale = 1.0
        saved = self.settings.value("textScale")
        if saved is not None and float(saved) != 1.0:
            # a restored layout stays as it was; the default one grows with the text
            self.set_text_scale(float(saved), refit=not restored)

        self.doc.message.connect(lambda m: self.statusBar().showMessage(m, 8000))
        self.doc.pathChanged.connect(lambda _p: self._update_title())
        self.doc.modifiedChanged.connect(lambda _m: self._update_title())
        self.doc.treeChanged.connect(self._update_title)
        self.autosaver = Autosave(self.doc, self._display_name, lambda: self.viewport.handle.dragging,
                                  lambda text: self.statusBar().showMessage(text, 15000), self)
        self.autosave_timer = self.autosaver.timer
        self.file_watch = FileWatch(self)  # reload offers and the check before Save
        self._update_title()
        self.statusBar().showMessage("Ready", 3000)

    # --- menus -------------------------------------------------------------------------------
    def _action(self, at: At | None, text, slot, shortcut=None, name=None) -> QAction:
        """An action named ``name`` (its id), put in the menus at ``at`` (None: a feature's
        declaration places it)."""
        a = QAction(text, self)
        if shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.triggered.connect(slot)
        if name:
            a.setObjectName(name)
        if at is not None:
            self.menus.add(a, at)
        return a

    def _build_menus(self) -> None:
        menus = self.menus
        F, V = MenuId.FILE, MenuId.VIEW  # noqa: N806
        self._action(At(F, "open", 10), "&New", self.new_document, QKeySequence.StandardKey.New, name="newAction")
        for k, name in enumerate(list_robots()):
            a = QAction(name, self)
            a.setObjectName(f"library_{name}")
            a.triggered.connect(lambda _=False, n=name: self.open_source(n))
            a.setToolTip(describe_robot(name))
            menus.add(a, At(MenuId.FILE_LIBRARY, "robots", k))
        self._action(At(F, "open", 30), "&Open…", self.open_dialog, QKeySequence.StandardKey.Open, name="openAction")
        self._action(At(F, "open", 40), "&Import URDF / xacro / SDFormat / MJCF / DH table…", self.import_dialog,
                     "Ctrl+I", name="importAction")
        self._action(At(F, "open", 50), "E&xport URDF / SDFormat / MJCF / DH table…", self.export_dialog,
                     "Ctrl+Shift+E", name="exportAction")
        self.recent_menu = menus[MenuId.FILE_RECENT]
        menus.add(self.recent_menu.menuAction(), MENUS[MenuId.FILE_RECENT].at)  # filled as it opens
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self._action(At(F, "open", 70), "Recover &unsaved work…", self.recover_dialog, name="recoverAction")
        self.allow_env_action = menus.add(add_allow_env_action(self.settings, self), At(F, "open", 80))
        self._action(At(F, "open", 90), "&Save", self.save, QKeySequence.StandardKey.Save, name="saveAction")
        self._action(At(F, "open", 100), "Save &as…", self.save_as, QKeySequence.StandardKey.SaveAs,
                     name="saveAsAction")
        self._action(At(F, "export", 10), "Export &image…", self.export_image, "Ctrl+E", name="exportImageAction")
        quit_action = self._action(At(F, "quit", 10), "&Quit", self.quit_app, QKeySequence.StandardKey.Quit,
                                   name="quitAction")

        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        install_undo_keys(undo, redo)  # Ctrl+Z/Ctrl+Shift+Z/Ctrl+Y, also from a committed editor
        for order, (a, name) in enumerate(((undo, "undoAction"), (redo, "redoAction"))):
            a.setObjectName(name)
            menus.add(a, At(MenuId.EDIT, "undo", order))
        self._action(At(MenuId.EDIT, "undo", 30), "Undo &history", self.show_undo_history, "Ctrl+H",
                     name="undoHistoryAction")
        add_window_keys(self.undo_view, undo, redo, quit_action)  # in the history window too; Esc closes it
        build = (self.bodies.add_action, self.bodies.rename_action, self.bodies.duplicate_action,
                 self.bodies.delete_action)
        for order, a in enumerate(build):
            menus.add(a, At(MenuId.EDIT, "build", order))
        # their keys work in the Bodies panel and in the 3D view, where the hands are while
        # building; not in the other panels, whose fields take F2, Del and Ctrl+D themselves.
        # Ctrl+Shift+A (and Ctrl+Shift+F: a fixed child), which nothing else takes, works wherever
        # the focus is (or is not: a new window's), as the empty robot's hint promises
        self.viewport.addActions(build)
        for a in (self.bodies.add_action, self.bodies.add_actions["fixed"]):  # Ctrl+Shift+A, Ctrl+Shift+F
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.addAction(self.bodies.add_actions["fixed"])  # (a menu's action: its key needs a widget)

        for order, (key, dock) in enumerate(self.docks.items()):
            act = dock.toggleViewAction()
            act.setObjectName(f"toggle_{key}")
            menus.add(act, At(V, "panels", order))
        self._action(At(V, "panels", 60), "Reset &layout", self.reset_layout, name="resetLayoutAction")
        for order, (preset, key) in enumerate((("iso", "0"), ("front", "1"), ("side", "3"), ("top", "7"))):
            self._action(At(V, "camera", order), f"{preset.capitalize()} view",
                         lambda _=False, p=preset: self.viewport.set_view(p), key, name=f"{preset}ViewAction")
        self._action(At(V, "camera", 50), "&Fit", lambda: self.viewport.fit(), "F", name="fitAction")
        self._action(At(V, "camera", 60), "Fit &selection", lambda: self.viewport.fit(selection=True), "Shift+F",
                     name="fitSelectionAction")
        ortho = self._action(At(V, "camera", 70), "&Orthographic", self.viewport.camera.set_ortho, "5",
                             name="orthoAction")
        ortho.setCheckable(True)
        self.viewport.orthoChanged.connect(ortho.setChecked)
        labels = self._action(At(V, "camera", 80), "Frame &labels", self.viewport.set_labels_visible, "L",
                              name="labelsAction")
        labels.setCheckable(True)
        labels.setChecked(True)
        # remembered; off by default: the important labels only, no collision geometry
        self._toggle(At(V, "camera", 90), "&All labels", self.viewport.set_all_labels, "allLabels", False,
                     name="allLabelsAction")
        self._toggle(At(V, "camera", 100), "&Collision geometry", self.viewport.set_collisions_visible,
                     "showCollisions", False, name="collisionsAction")
        self._action(At(V, "text", 10), "&Larger text and lines", lambda: self.set_text_scale(self.text_scale * 1.25),
                     QKeySequence.StandardKey.ZoomIn, name="zoomInAction")
        self._action(At(V, "text", 20), "&Smaller text and lines", lambda: self.set_text_scale(self.text_scale / 1.25),
                     QKeySequence.StandardKey.ZoomOut, name="zoomOutAction")
        self._action(At(V, "text", 30), "&Normal text size", lambda: self.set_text_scale(1.0), "Ctrl+0",
                     name="zoomResetAction")
        light = self._action(At(V, "text", 40), "Light &background",
                             lambda on: self.viewport.set_theme("light" if on else "dark"), "B", name="lightAction")
        light.setCheckable(True)

    def _toggle(self, at: At | None, text, apply, key: str, default: bool, shortcut=None, name=None) -> QAction:
        """A checkable action whose state is remembered in the settings under ``key``."""
        action = self._action(at, text, lambda on: (apply(on), self.settings.setValue(key, bool(on))),
                              shortcut, name)
        action.setCheckable(True)
        action.setChecked(self.settings.value(key, default, type=bool))
        apply(action.isChecked())
        return action

    def _update_title(self) -> None:
        """"puma560 — KineTree", with "*" after the name while there are unsaved changes."""
        name = self.doc.name
        if name == "untitled" and self.origin_name:  # a restored autosave remembers its name
            name = self.origin_name
        self.setWindowTitle(f"{name}[*] — KineTree")
        self.setWindowFilePath(str(self.doc.path) if self.doc.path else "")
        self.setWindowModified(self.doc.modified)

    def show_undo_history(self) -> None:
        self.undo_view.show()
        self.undo_view.raise_()

    def quit_app(self) -> None:
        """File ▸ Quit: close every window of the app (each asks about its unsaved work), then exit."""
        QApplication.closeAllWindows()
        if not any(isinstance(w, MainWindow) and w.isVisible() for w in QApplication.topLevelWidgets()):
            QApplication.quit()

    # --- presentation ------------------------------------------------------------------------
    def set_text_scale(self, scale: float, refit: bool = True) -> None:
        """Scale the whole window's text, and the viewport's labels and lines, for a projector."""
        self.text_scale = min(max(float(scale), 0.8), 3.0)
        font = QFont(QApplication.font())
        font.setPointSizeF(float(QApplication.instance().property("kinetreeBasePointSize")) * self.text_scale)
        QApplication.setFont(font)
        self.viewport.set_text_scale(self.text_scale)
        follow_font(self)  # dock titles and style-sheeted widgets too
        # presenting, Ctrl++ / Ctrl+- set Present mode's own factor, not the everyday text size
        if self.presenting:
            self.present.remember(self.text_scale)
        else:
            self.settings.setValue("textScale", self.text_scale)
        if refit:  # the docks grow with the text: six sliders and DH rows stay visible
            fit_docks_later(self)

    # --- layout persistence ------------------------------------------------------------------
    def _restore_layout(self) -> bool:
        """Restore the saved geometry and docks; False if no dock layout was restored."""
        geo = self.settings.value("geometry")
        state = self.settings.value("windowState")
        if geo is not None:
            self.restoreGeometry(geo)
        # a state saved for an older layout (other LAYOUT_VERSION) is ignored
        return state is not None and self.restoreState(state, LAYOUT_VERSION)

    def reset_layout(self) -> None:
        """View ▸ Reset layout: every dock back in its default place and size, on the screen."""
        reset_layout(self)

    # --- files -------------------------------------------------------------------------------
    def maybe_save(self) -> bool:
        """Ask about unsaved changes; False means the user cancelled."""
        commit_focused_editor()  # a value typed but not yet applied is a change too
        if not self.doc.modified:
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", "The robot has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        if answer == QMessageBox.StandardButton.Discard:
            self.clear_autosave()  # the user threw the changes away: nothing to offer after a crash
            return True
        return False

    def new_document(self) -> None:
        if self.maybe_save():
            self.origin_name = None  # before the load, whose signals set the title: not the old robot's name
            self.doc.load(RigidBodyTree())
            self.viewport.fit()

    def open_source(self, source: str | Path, ask: bool = True) -> bool:
        """Open a project file or a library robot by name; errors become a message."""
        if ask and not self.maybe_save():
            return False
        try:
            tree, q, notes, identity = self.loader.read(self, source, allow_env(self.settings))
        except LoadCancelled as exc:
            self.statusBar().showMessage(str(exc), 5000)
            return False
        except KineTreeError as exc:
            self.show_error("Cannot open", with_hint(str(exc)))
            return False
        except Exception as exc:  # noqa: BLE001 - a mesh library or the OS failing: a message, not a crash
            log.exception("opening %s failed", source)
            self.show_error("Cannot open", f"{Path(str(source)).name}: {type(exc).__name__}: {exc}")
            return False
        self.doc.load(tree, q, project_path(source), source_name(source), identity)
        self.origin_name = Path(str(source)).name
        if self.doc.path:
            self._add_recent(self.doc.path)
        self.viewport.fit()
        if notes:
            for note in notes:
                log.warning("%s", note)
            more = f" (and {len(notes) - 1} more warnings, see the log)" if len(notes) > 1 else ""
            self.statusBar().showMessage(f"Opened {Path(str(source)).name} with warnings: {notes[0]}{more}", 15000)
        else:
            self.statusBar().showMessage(f"Opened {source}", 5000)
        return True

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open robot", "", OPEN_FILTER)
        if path:
            self.open_source(path)

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import robot", "", IMPORT_FILTER)
        if path:
            self.open_source(path)

    def export_dialog(self) -> None:
        tip = self.doc.selection if self.doc.selection in self.doc.tree.body_names else None
        path, _ = QFileDialog.getSaveFileName(self, "Export robot", "robot.urdf", EXPORT_FILTER)
        if path:
            self.export_to(Path(path), tip)

    def export_to(self, path: Path, tip: str | None = None) -> bool:
        """Write the robot as URDF, MJCF or a DH table CSV (of the chain to ``tip``); errors become a message."""
        try:
            done = self.doc.export(path, tip=tip, convention=self.dh.model.convention,
                                   units="deg" if self.dh.model.degrees else "rad")
        except (OSError, KineTreeError) as exc:
            self.show_error("Cannot export", f"{path.name}: {exc}")
            return False
        self.statusBar().showMessage(done, 10000)
        return True

    # --- drag and drop -----------------------------------------------------------------------
    @staticmethod
    def _dropped_file(ev) -> str | None:
        urls = ev.mimeData().urls() if ev.mimeData().hasUrls() else []
        if len(urls) == 1 and urls[0].isLocalFile():
            path = urls[0].toLocalFile()
            if path.lower().endswith(READ_SUFFIXES) or is_mesh_file(path):
                return path
        return None

    def dragEnterEvent(self, ev) -> None:  # noqa: N802
        if self._dropped_file(ev):
            ev.acceptProposedAction()
        else:
            ev.ignore()

    def dropEvent(self, ev) -> None:  # noqa: N802
        path = self._dropped_file(ev)
        if path and is_mesh_file(path):  # a mesh goes on the body it is dropped on
            ev.acceptProposedAction()
            drop_mesh(self, path, ev.position())
        elif path:
            ev.acceptProposedAction()
            # after the drop returns: a modal question inside a drop handler upsets some platforms
            QTimer.singleShot(0, lambda: self.open_source(path))

    def save(self) -> bool:
        """File ▸ Save; asks first if someone else changed or deleted the file (app/window/file_watch.py)."""
        answer = self.file_watch.confirm_save() if self.doc.path is not None else SAVE_AS
        if answer == SAVE_AS:
            return self.save_as()
        return answer == OVERWRITE and self._save_to(self.doc.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save robot", "robot.kinetree.json", PROJECT_FILTER)
        return bool(path) and self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        if not path.name.endswith(".json"):
            path = path.with_name(path.name + ".kinetree.json")
        editor = commit_focused_editor()  # save what the user sees typed
        try:
            self.doc.save(path)
            if editor is not None:
                editor.setFocus()
        except (OSError, KineTreeError) as exc:
            self.show_error("Cannot save", f"{path}: {exc}")
            return False
        self._add_recent(path)
        self.clear_autosave()
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _add_recent(self, path: Path) -> None:
        recent = [p for p in self.recent_files() if p != str(path)]
        self.settings.setValue("recentFiles", [str(path), *recent][:MAX_RECENT])

    def recent_files(self) -> list[str]:
        value = self.settings.value("recentFiles") or []
        return [value] if isinstance(value, str) else list(value)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.recent_files():
            a = self.recent_menu.addAction(p, lambda p=p: self.open_source(p))
            a.setObjectName(f"recent_{len(self.recent_menu.actions())}")
        if not self.recent_files():
            none = self.recent_menu.addAction("(none)")
            none.setObjectName("recent_none")
            none.setEnabled(False)

    def export_image(self) -> None:
        export_image(self)  # app/features/image_export.py

    # --- safety: autosave and crash recovery (app/window/recovery.py) ---------------------------------
    def autosave_path(self) -> Path | None:
        """This window's autosave file (None until the first autosave claims one)."""
        return self.autosaver.path()

    def autosave(self) -> bool:
        """Write the unsaved changes to this window's autosave now (see :meth:`.Autosave.now`)."""
        return self.autosaver.now()

    def _display_name(self) -> str:
        if self.doc.path:
            return self.doc.path.name
        return f"untitled (from {self.origin_name})" if self.origin_name else "untitled"

    def clear_autosave(self) -> None:
        """Delete this window's autosave (never another window's or instance's)."""
        self.autosaver.clear()

    def ask_recovery(self, infos: list[AutosaveInfo]) -> list[str]:
        """RESTORE / DISCARD / LATER for each autosave (tests replace this, or drive the dialog)."""
        dialog = RecoveryDialog(infos, self)
        dialog.exec()
        choices = list(dialog.choices)
        dialog.deleteLater()
        return choices

    def offer_recovery(self, into_this_window: bool = True) -> list[MainWindow]:
        """Offer back the autosaves of instances that died (never those of live ones).

        The first restored document goes into this window if ``into_this_window`` and it holds
        no unsaved work, every other one into a window of its own. Discarded autosaves are
        deleted; the rest stay for the next start. Returns the windows that got a document.
        """
        orphans = find_orphans()
        self.offered = len(orphans)
        if not orphans:
            return []
        infos = [o.info() for o in orphans]
        choices = self.ask_recovery(infos)
        restored: list[MainWindow] = []
        for slot, info, choice in zip(orphans, infos, choices):
            if choice == RESTORE:
                here = into_this_window and not restored and not self.doc.modified
                target = self if here else self.spawn_window()
                if target.restore_autosave(slot, info):
                    restored.append(target)
                    continue
                if target is not self:
                    target.close()
            elif choice == DISCARD:
                slot.remove()
            slot.release()
        return restored

    def recover_dialog(self) -> None:
        """File ▸ Recover unsaved work: the start-up offer again (say, after choosing Later)."""
        self.offer_recovery()
        if not self.offered:
            self.statusBar().showMessage("No unsaved work left by other KineTree sessions", 5000)

    def restore_autosave(self, slot: AutosaveSlot, info: AutosaveInfo) -> bool:
        """Load an adopted autosave: its original path, unsaved; it keeps autosaving to ``slot``."""
        try:
            tree, q = load_project(slot.data_path)
        except Exception as exc:  # noqa: BLE001 - a damaged autosave is a message; the file stays
            self.show_error("Cannot restore", f"{info.name}: {exc} (the autosave is kept)")
            return False
        self.autosaver.adopt(slot)
        path = info.path if info.path and info.path.name.lower().endswith(".json") else None
        self.origin_name = info.name  # before load: the title is made while loading
        self.doc.load(tree, q, path, identity=info.disk)  # Save asks if the file changed since
        self.doc.undo_stack.resetClean()  # unsaved until saved: no undo step makes it clean
        self.viewport.fit()
        self.statusBar().showMessage(f"Restored {info.name}: not saved yet", 10000)
        return True

    def spawn_window(self) -> MainWindow:
        """Another window of this instance (the app holds one document per window)."""
        w = type(self)(settings=self.settings)
        w.quiet = self.quiet
        self.spawned.append(w)
        w.show()
        w.move(self.pos() + QPoint(40, 40) * len(self.spawned))
        return w

    def show_error(self, title: str, message: str) -> None:
        self.statusBar().showMessage(message, 10000)
        if not self.quiet:
            message_box(self, title, elide(message, MAX_DIALOG, MAX_WORD))

    def closeEvent(self, ev) -> None:  # noqa: N802
        if not self.maybe_save():
            ev.ignore()
            return
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.setValue("windowState", self.saveState(LAYOUT_VERSION))
        self.file_watch.stop()
        # saved, discarded or unchanged: nothing here to recover (a failed save kept us open)
        self.autosaver.close()
        self.loader.shutdown()
        self.undo_view.close()  # its window goes with this one
        ev.accept()


def install_excepthook(window: MainWindow) -> None:
    """Log uncaught exceptions, save the document, and tell the user instead of crashing."""

    def hook(exc_type, exc, tb):
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        log.error("uncaught exception:\n%s", text)
        try:
            for w in QApplication.topLevelWidgets():
                if isinstance(w, MainWindow) and w.isVisible():
                    w.autosave()
            window.statusBar().showMessage(f"Internal error: {exc} (logged; your work is autosaved)", 15000)
        except Exception:  # noqa: BLE001 - never raise from the hook
            pass

    sys.excepthook = hook
