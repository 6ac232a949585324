"""A window's project file changed by someone else: asked before saving over it, offered to reload.

The document remembers what its file was when it last read or wrote it
(:attr:`RobotDocument.disk_identity`). Save asks Overwrite / Save As… / Cancel when the file
changed or was deleted since; while the window is idle a :class:`QFileSystemWatcher` on the file
and its folder (another program's atomic save replaces the file: a new inode the file watch
loses) notices changes, and once the burst of notifications settles the window offers to
reload. The app's own saves are not changes (the identity is that of the bytes it wrote).

Reload is one undo step ("Reload X from disk") that leaves the document unmodified: Undo brings
back what was shown before, unsaved edits included, as editors that reload files keep them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from kinetree.core import KineTreeError
from kinetree.core.disk.identity import MISSING, SAME, FileIdentity
from kinetree.core.io.project import MAX_BYTES
from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from .reading import LoadCancelled
from .xacro_env import allow_env, with_hint

if TYPE_CHECKING:
    from .main_window import MainWindow

OVERWRITE, SAVE_AS, CANCEL = "overwrite", "save as", "cancel"
#: Quiet time after the last change notification before the file is looked at (an editor's
#: save is a burst: a temporary file, a rename, a chmod …).
DEBOUNCE_MS = 250
_Role = QMessageBox.ButtonRole


def ask(parent, title: str, text: str, buttons: list[tuple[str, QMessageBox.ButtonRole]],
        escape: int, default: int = 0) -> int:
    """Show a warning with the ``buttons`` (label, role); the index of the one clicked (Enter
    gives ``default``, Esc or closing the box ``escape``)."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.NoButton, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # the text names the file: never markup
    made = [box.addButton(label, role) for label, role in buttons]
    box.setDefaultButton(made[default])
    box.setEscapeButton(made[escape])
    box.exec()
    clicked = box.clickedButton()
    box.deleteLater()
    return made.index(clicked) if clicked in made else escape


def _key(path: Path) -> object:
    """What the file is now, to tell one change from the next: its identity, else (too large,
    unreadable) its size, time and inode, else a marker for a file that is gone."""
    now = FileIdentity.read(path, MAX_BYTES)
    if now is not None:
        return now
    try:
        st = os.stat(path)
    except OSError:
        return "gone"
    return st.st_size, st.st_mtime_ns, st.st_ino


class FileWatch(QObject):
    """Watches the file of ``window``'s document; asks before saving over someone else's change."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window, self.doc = window, window.doc
        self.watcher = QFileSystemWatcher(self)
        self.watcher.fileChanged.connect(self._poke)
        self.watcher.directoryChanged.connect(self._poke)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.check)
        self.asking = self.stopped = False
        self._seen: object = None  # the _key of a changed file the user already answered about
        self._told_missing = False
        self.doc.pathChanged.connect(self._retarget)
        self._retarget(self.doc.path)

    def stop(self) -> None:
        """No more watching (the window is closing)."""
        if not self.stopped:
            self.stopped = True
            self.timer.stop()
            self.watcher.deleteLater()  # its inotify descriptor too: closed windows may outlive their close

    def _retarget(self, path: Path | None) -> None:
        if self.stopped:
            return
        watched = self.watcher.files() + self.watcher.directories()
        if watched:
            self.watcher.removePaths(watched)
        self._seen, self._told_missing = None, False
        if path is not None:
            folder = str(Path(path).absolute().parent)
            self.watcher.addPaths([p for p in (str(path), folder) if Path(p).exists()])

    def _poke(self, _path: str = "") -> None:
        path = self.doc.path
        if self.stopped:
            return
        # a file replaced by a rename is no longer watched: watch the new one
        if path is not None and str(path) not in self.watcher.files() and path.exists():
            self.watcher.addPath(str(path))
        self.timer.start()  # restarts: one look after the burst

    def check(self) -> None:
        """Look at the file now; offer to reload it if someone else changed it (once per change)."""
        if self.asking or self.stopped or not self.window.isVisible() or self.doc.path is None:
            return
        if QApplication.activeModalWidget() is not None or not self.window.isEnabled():
            self.timer.start()  # a dialog is open (or a file loading): ask when it has closed
            return
        state = self.doc.disk_state()
        if state == SAME:
            self._told_missing = False
            return
        if state == MISSING:
            if not self._told_missing:
                self._told_missing = True
                self.window.statusBar().showMessage(
                    f"{self.doc.name} was deleted or moved on disk; Save writes it again", 15000)
            return
        now = _key(self.doc.path)
        if now == self._seen:
            return
        self._seen = now
        self._offer_reload()
        self.timer.start()  # it may have changed again while the question was open

    def _offer_reload(self) -> None:
        name = self.doc.name
        if self.doc.modified:
            text = (f"{name} changed on disk. Reload?\n\nThis window's unsaved changes would be lost "
                    "(Edit ▸ Undo brings them back).")
        else:
            text = f"{name} changed on disk. Reload?"
        self.asking = True
        try:
            answer = ask(self.window, "File changed on disk", text,
                         [("Reload", _Role.AcceptRole), ("Ignore", _Role.RejectRole)], escape=1)
        finally:
            self.asking = False
        if answer == 0:
            self.reload()

    def reload(self) -> bool:
        """Read the file again (as File ▸ Open does) into the document as one undo step."""
        w, path = self.window, self.doc.path
        try:
            tree, q, notes, identity = w.loader.read(w, path, allow_env(w.settings))
        except LoadCancelled as exc:
            w.statusBar().showMessage(str(exc), 5000)
            return False
        except KineTreeError as exc:
            w.show_error("Cannot reload", with_hint(str(exc)))
            return False
        except Exception as exc:  # noqa: BLE001 - the OS or a mesh library failing: a message, not a crash
            w.show_error("Cannot reload", f"{path.name}: {type(exc).__name__}: {exc}")
            return False
        self.doc.reload(tree, q, identity)
        w.clear_autosave()  # nothing unsaved any more
        more = f" with warnings: {notes[0]}" if notes else ""
        w.statusBar().showMessage(f"Reloaded {path.name} from disk{more} (Undo brings back what was there)", 10000)
        return True

    def confirm_save(self) -> str:
        """Before Save writes over the document's file: OVERWRITE at once if nobody changed it
        since it was read or written, else the user's answer (OVERWRITE, SAVE_AS or CANCEL)."""
        state = self.doc.disk_state()
        if state == SAME:
            return OVERWRITE
        name = self.doc.name
        what = "was deleted or moved" if state == MISSING else "was changed by another program or window"
        self.asking = True
        try:
            answer = ask(self.window, "File changed on disk",
                         f"{name} {what} since you opened or saved it.\n\n"
                         "Overwrite it with this window's robot, save this robot under another name, or cancel?",
                         [("Overwrite", _Role.AcceptRole), ("Save As…", _Role.ActionRole),
                          ("Cancel", _Role.RejectRole)], escape=2, default=2)
        finally:
            self.asking = False
        # the user has seen this change: no reload offer for it afterwards
        self._seen = _key(self.doc.path)
        return (OVERWRITE, SAVE_AS, CANCEL)[answer]
