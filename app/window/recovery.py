"""Crash recovery: one locked autosave per window, and the dialog that offers orphans back.

Each window that has unsaved changes writes ``autosave-<pid>-<n>.kinetree.json`` (the project
text) and ``autosave-<pid>-<n>.meta.json`` (original path, display name, time) into the user
data folder, and holds ``autosave-<pid>-<n>.lock`` locked (``flock``) for as long as it lives.
The kernel drops the lock when the process dies, however it dies, so another instance can tell
a live window's autosave (lock held: never touched) from an orphan (lock free: offered back).
Whoever offers or restores an orphan takes its lock first, so two instances starting at once
never both restore it, and a restored document keeps writing to the autosave it came from.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path

from kinetree.core.disk.identity import FileIdentity
from kinetree.core.disk.safe_io import read_regular_file
from kinetree.core.errors import FileFormatError
from kinetree.core.io.project import atomic_write_text
from platformdirs import user_data_dir
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ..model.text import plain, plain_tip

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

log = logging.getLogger("kinetree")
DATA_SUFFIX = ".kinetree.json"
META_SUFFIX = ".meta.json"
LOCK_SUFFIX = ".lock"
MAX_META_BYTES = 64 * 1024  # our own small file; anything bigger is not ours
RESTORE, DISCARD, LATER = "restore", "discard", "later"
MAX_ROWS_SHOWN = 8  # more autosaves than this scroll in the dialog


def autosave_dir() -> Path:
    """The folder autosaves live in (the user data folder; ``XDG_DATA_HOME`` moves it on Linux)."""
    return Path(user_data_dir("kinetree", appauthor=False))


# --- locks -------------------------------------------------------------------------------------
def _lock_fd(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _try_lock(path: Path) -> int | None:
    """Lock ``path`` (created if missing) without waiting; the open descriptor, or None if a
    live process (this one included) holds it."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        log.warning("cannot open lock %s: %s", path, exc)
        return None
    if not _lock_fd(fd):
        os.close(fd)
        return None
    # the owner may have unlinked the file between our open and our lock (it releases by
    # deleting): then we hold a lock on a file nobody else will ever open
    try:
        same = os.path.samestat(os.fstat(fd), os.stat(path))
    except OSError:
        same = False
    if not same:
        os.close(fd)
        return None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())  # for people looking at the folder
    except OSError:
        pass
    return fd


def is_locked(path: Path) -> bool:
    """Whether a live process holds the lock file ``path`` (probes by locking and unlocking)."""
    if not path.exists():
        return False
    fd = _try_lock(path)
    if fd is None:
        return path.exists()
    os.close(fd)
    return False


# --- one window's autosave ---------------------------------------------------------------------
@dataclass(frozen=True)
class AutosaveInfo:
    """What the recovery dialog shows about an autosave."""

    name: str  # display name: the file name, or "untitled (…)"
    path: Path | None  # the file the document saves to; None if it never had one
    saved: float  # seconds since the epoch
    disk: FileIdentity | None = None  # what the file at ``path`` was when the document last read or wrote it


def _disk_identity(d: object) -> FileIdentity | None:
    """The ``disk`` entry of an autosave's metadata; None if absent or not as written."""
    if not isinstance(d, dict):
        return None
    numbers = [d.get(k) for k in ("size", "mtime_ns", "inode")]
    digest = d.get("blake2b")
    if not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**64 for v in numbers):
        return None
    if not (isinstance(digest, str) and re.fullmatch(r"[0-9a-f]{64}", digest)):
        return None
    return FileIdentity(*numbers, bytes.fromhex(digest))


class AutosaveSlot:
    """The three files of one autosave, with its lock held by this process."""

    _numbers = itertools.count(1)

    def __init__(self, directory: Path, stem: str, fd: int) -> None:
        self.directory = directory
        self.stem = stem
        self._fd: int | None = fd

    def __del__(self) -> None:
        if self._fd is not None:  # dropped without release(): at least let others have it
            os.close(self._fd)

    @property
    def data_path(self) -> Path:
        return self.directory / (self.stem + DATA_SUFFIX)

    @property
    def meta_path(self) -> Path:
        return self.directory / (self.stem + META_SUFFIX)

    @property
    def lock_path(self) -> Path:
        return self.directory / (self.stem + LOCK_SUFFIX)

    @property
    def held(self) -> bool:
        return self._fd is not None

    @classmethod
    def claim(cls, directory: Path | None = None) -> AutosaveSlot:
        """A fresh slot for a window of this process: ``autosave-<pid>-<n>``, locked."""
        directory = Path(directory) if directory is not None else autosave_dir()
        directory.mkdir(parents=True, exist_ok=True)
        pid = os.getpid()
        for _ in range(10_000):
            stem = f"autosave-{pid}-{next(cls._numbers)}"
            # a dead process with our pid may have left files under this name: they are its orphan
            if any((directory / (stem + s)).exists() for s in (DATA_SUFFIX, META_SUFFIX, LOCK_SUFFIX)):
                continue
            fd = _try_lock(directory / (stem + LOCK_SUFFIX))
            if fd is not None:
                return cls(directory, stem, fd)
        raise OSError(f"no free autosave name in {directory}")

    @classmethod
    def adopt(cls, data_path: Path) -> AutosaveSlot | None:
        """Take over the autosave ``data_path`` if its owner is gone; None if it is alive."""
        stem = data_path.name.removesuffix(DATA_SUFFIX)
        fd = _try_lock(data_path.with_name(stem + LOCK_SUFFIX))
        if fd is None:
            return None
        slot = cls(data_path.parent, stem, fd)
        if not slot.data_path.exists():  # restored or discarded by another instance meanwhile
            slot.release()
            return None
        return slot

    def write(self, text: str, path: Path | None, name: str, disk: FileIdentity | None = None) -> None:
        """Write the metadata, then the project text, each atomically; ``disk``: what the file at
        ``path`` was when the document last read or wrote it (a restored document's Save then
        still asks if someone changed the file since). Raises OSError.

        The metadata goes first: an autosave is the data file, and a process killed between the
        two writes (the window writes from a worker thread) must not leave data without its name."""
        if self._fd is None:
            raise OSError(f"{self.data_path}: autosave lock released")
        meta = {"format": "kinetree-autosave", "version": 1, "path": str(path) if path else None,
                "name": name, "saved": time.time(), "pid": os.getpid()}
        if disk is not None:
            meta["disk"] = {"size": disk.size, "mtime_ns": disk.mtime_ns, "inode": disk.inode,
                            "blake2b": disk.digest.hex()}
        atomic_write_text(self.meta_path, json.dumps(meta, indent=1))
        atomic_write_text(self.data_path, text)

    def info(self) -> AutosaveInfo:
        """The metadata, tolerating a missing or damaged sidecar (the data still counts)."""
        try:
            saved = self.data_path.stat().st_mtime
        except OSError:
            saved = 0.0
        path, name, disk = None, None, None
        try:
            # a regular file only, read with a bound (a FIFO would hang every start, /dev/zero fill memory)
            meta = json.loads(read_regular_file(self.meta_path, MAX_META_BYTES, "autosave sidecar").decode("utf-8"))
            if isinstance(meta, dict):
                where = meta.get("path")
                if isinstance(where, str) and os.path.isabs(where) and "\x00" not in where:
                    path = Path(where)
                if isinstance(meta.get("name"), str) and meta["name"].strip():
                    name = meta["name"].strip()[:200]
                if isinstance(meta.get("saved"), int | float) and 0 < meta["saved"] < 1e11:
                    saved = float(meta["saved"])
                disk = _disk_identity(meta.get("disk"))
        except (OSError, ValueError, RecursionError, FileFormatError) as exc:  # RecursionError: deep JSON
            if self.meta_path.exists():
                log.warning("autosave metadata %s unreadable: %s", self.meta_path, exc)
        return AutosaveInfo(name or (path.name if path else "untitled"), path, saved, disk if path else None)

    def remove(self) -> None:
        """Delete the autosave (after a save, or when the user discards it); keep the lock."""
        for p in (self.data_path, self.meta_path):
            try:
                p.unlink(missing_ok=True)
            except OSError as exc:
                log.warning("cannot delete %s: %s", p, exc)

    def release(self) -> None:
        """Let go of the lock. With no autosave left the lock file goes too (deleted while
        held, so nobody can lock it in between)."""
        if self._fd is None:
            return
        if not self.data_path.exists():
            try:
                self.lock_path.unlink(missing_ok=True)
            except OSError:
                pass  # Windows cannot delete an open file; the next scan tidies it
        os.close(self._fd)
        self._fd = None


def find_orphans(directory: Path | None = None) -> list[AutosaveSlot]:
    """Autosaves whose owner is dead, oldest first, each now locked by this process (release
    the ones not restored). Live instances' autosaves are left alone; stray lock and metadata
    files of finished sessions are tidied."""
    directory = Path(directory) if directory is not None else autosave_dir()
    if not directory.is_dir():
        return []
    found = []
    for data in sorted(directory.glob("autosave*" + DATA_SUFFIX)):
        slot = AutosaveSlot.adopt(data)
        if slot is not None:
            found.append(slot)
    for extra in list(directory.glob("autosave*" + LOCK_SUFFIX)) + list(directory.glob("autosave*" + META_SUFFIX)):
        stem = extra.name.removesuffix(LOCK_SUFFIX).removesuffix(META_SUFFIX)
        if not (directory / (stem + DATA_SUFFIX)).exists():
            fd = _try_lock(directory / (stem + LOCK_SUFFIX))
            if fd is not None:  # nobody alive uses it: leftovers of a session that ended
                leftover = AutosaveSlot(directory, stem, fd)
                leftover.remove()
                leftover.release()
    return sorted(found, key=lambda s: s.info().saved)


# --- the dialog --------------------------------------------------------------------------------
def _elide(text: str, limit: int = 70) -> str:
    """A long path shortened in the middle (the full one is in the tooltip)."""
    return text if len(text) <= limit else text[: limit // 2 - 1] + "…" + text[-(limit // 2):]


def _when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(seconds)) if seconds else "unknown time"


class RecoveryDialog(QDialog):
    """Lists orphaned autosaves; each is restored, discarded or kept for later.

    One autosave: Restore / Discard / Later buttons. Several: a Restore / Discard / Later
    choice per row, applied by "Apply", or one button for all. Closing the dialog is "Later".
    """

    def __init__(self, infos: list[AutosaveInfo], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryDialog")
        self.setWindowTitle("Recover unsaved work")
        self.choices = [LATER] * len(infos)
        self._groups: list[QButtonGroup] = []
        several = len(infos) > 1
        layout = QVBoxLayout(self)
        layout.setSpacing(12)
        heading = QLabel(f"<b>Unsaved work from {'sessions' if several else 'a session'} that did not "
                         "close cleanly</b>")
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        heading.setFont(font)
        layout.addWidget(heading)
        intro = QLabel(
            "Restore opens the robot as it was when last autosaved, still unsaved, and Save writes "
            "to its original file. Discard deletes the autosave. Later keeps it and asks again at the "
            "next start.")
        intro.setWordWrap(True)
        intro.setObjectName("recoveryIntro")
        intro.setMinimumWidth(520)
        layout.addWidget(intro)
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        for col, title in enumerate(("Robot", "Saves to", "Autosaved")):
            head = QLabel(f"<b>{title}</b>")
            grid.addWidget(head, 0, col)
        for i, info in enumerate(infos, start=1):
            name = plain(QLabel(info.name))
            name.setObjectName(f"recoveryName_{i - 1}")
            where = plain(QLabel(_elide(str(info.path)) if info.path else "(no file yet)"))
            where.setToolTip(plain_tip(info.path) if info.path else "")
            grid.addWidget(name, i, 0)
            grid.addWidget(where, i, 1)
            grid.addWidget(QLabel(_when(info.saved)), i, 2)
            if several:
                group = QButtonGroup(self)
                for col, (text, choice) in enumerate((("Restore", RESTORE), ("Discard", DISCARD),
                                                      ("Later", LATER)), start=3):
                    radio = QRadioButton(text)
                    radio.setObjectName(f"{choice}_{i - 1}")
                    radio.setChecked(choice == RESTORE)
                    group.addButton(radio)
                    group.setId(radio, col - 3)
                    grid.addWidget(radio, i, col)
                self._groups.append(group)
        grid.setColumnStretch(1, 1)
        if len(infos) <= MAX_ROWS_SHOWN:
            layout.addLayout(grid)
        else:  # after many crashes: the rows scroll, the buttons stay on screen
            rows = QWidget()
            rows.setLayout(grid)
            scroll = QScrollArea()
            scroll.setObjectName("recoveryRows")
            scroll.setWidgetResizable(True)
            scroll.setWidget(rows)
            scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            scroll.setMinimumWidth(rows.sizeHint().width() + scroll.verticalScrollBar().sizeHint().width()
                                   + 2 * scroll.frameWidth())
            scroll.setMinimumHeight(rows.sizeHint().height() * MAX_ROWS_SHOWN // (len(infos) + 1))
            layout.addWidget(scroll, 1)
        layout.addSpacing(6)
        buttons = QHBoxLayout()
        specs = ([("restoreAllButton", "Restore all", RESTORE), ("discardAllButton", "Discard all", DISCARD),
                  ("laterButton", "Later", LATER), ("applyButton", "Apply choices", None)] if several else
                 [("restoreAllButton", "Restore", RESTORE), ("discardAllButton", "Discard", DISCARD),
                  ("laterButton", "Later", LATER)])
        buttons.addStretch(1)
        for key, text, choice in specs:
            b = QPushButton(text)
            b.setObjectName(key)
            b.setAutoDefault(False)
            b.clicked.connect(lambda _=False, c=choice: self._finish(c))
            buttons.addWidget(b)
            if key == ("applyButton" if several else "restoreAllButton"):
                b.setDefault(True)
        layout.addLayout(buttons)

    def _finish(self, choice: str | None) -> None:
        if choice is None:  # per-row choices
            self.choices = [(RESTORE, DISCARD, LATER)[g.checkedId()] for g in self._groups]
        else:
            self.choices = [choice] * len(self.choices)
        self.accept()

    def reject(self) -> None:
        self.choices = [LATER] * len(self.choices)  # closing the dialog must never lose work
        super().reject()
