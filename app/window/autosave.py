"""A window's autosave (the files and their lock are :mod:`.recovery`'s): written only after a
change, by the timer on a worker thread (a 49,000-body robot took 5–14 s to serialize on the GUI
thread every 3 s), and at once when asked (an uncaught exception, a test)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from kinetree.core import KineTreeError
from kinetree.core.io.project import project_text
from PySide6.QtCore import QObject, QTimer, Signal

from ..model.document import RobotDocument
from .recovery import AutosaveSlot

log = logging.getLogger("kinetree")
AUTOSAVE_MS = 3000  # KINETREE_AUTOSAVE_MS overrides it (tests crash a process right after an autosave)


def autosave_interval() -> int:
    try:
        return min(max(int(os.environ.get("KINETREE_AUTOSAVE_MS", AUTOSAVE_MS)), 10), 3_600_000)
    except ValueError:
        return AUTOSAVE_MS


class Autosave(QObject):
    """``doc``'s autosave. ``name()`` is the display name written beside it; ``busy()`` says
    when not to serialize now (a drag); ``say(text)`` reports a failure."""

    _written = Signal(object)  # the background write's Future, handed back to the GUI thread

    def __init__(self, doc: RobotDocument, name: Callable[[], str], busy: Callable[[], bool],
                 say: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.doc, self._name, self._busy, self._say = doc, name, busy, say
        self.slot: AutosaveSlot | None = None  # claimed at the first autosave
        self.due = True  # the document changed since the last autosave was written
        self.job: Future | None = None  # the autosave being written in the background
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kinetree-autosave")
        self._error: str | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(autosave_interval())
        self.timer.timeout.connect(self.in_background)
        self.timer.start()
        doc.treeChanged.connect(self._needed)
        doc.configurationChanged.connect(self._needed)
        self._written.connect(self._report)

    def path(self) -> Path | None:
        """The autosave file (None until the first autosave claims one)."""
        return self.slot.data_path if self.slot else None

    def now(self) -> bool:
        """While there are unsaved changes, write them now (atomically, with the original path and
        a display name beside them); without any, remove the autosave. Nothing is serialized when
        nothing changed since the last one. False if writing failed (the previous one stays)."""
        self.wait()
        if not self.doc.modified:
            self.clear()
            return True
        if self._busy() or self._current():  # a drag: next time (1000 bodies took 0.9 s mid-drag)
            return True
        try:
            self._write(*self._snapshot())
        except (OSError, KineTreeError) as exc:
            self._failed(exc)
            return False
        self._error = None
        return True

    def in_background(self) -> None:
        """The timer's autosave: as :meth:`now`, serialized and written on a worker thread."""
        if self.job is not None and not self.job.done():
            return  # the last one is still being written
        self.wait()
        if not self.doc.modified:
            self.clear()
            return
        if self._busy() or self._current():
            return
        try:
            job = self._pool.submit(self._write, *self._snapshot())
        except OSError as exc:  # no autosave could be claimed
            self._failed(exc)
            return
        self.job = job
        job.add_done_callback(self._written.emit)  # from the worker: queued to this thread

    def wait(self) -> None:
        """Let the autosave being written in the background finish (its result is reported)."""
        job, self.job = self.job, None
        if job is not None:
            self._report(job, wait=True)

    def clear(self) -> None:
        """Delete this window's autosave (never another window's or instance's)."""
        self.wait()
        if self.slot is not None:
            self.slot.remove()
        self.due = True

    def adopt(self, slot: AutosaveSlot) -> None:
        """Write to ``slot`` from now on (a restored orphan's), letting this one's go."""
        self.wait()
        if self.slot is not None:  # this window had nothing unsaved
            self.slot.remove()
            self.slot.release()
        self.slot, self.due = slot, True

    def close(self) -> None:
        """Nothing left to recover (saved, discarded or unchanged): remove and let go."""
        self.timer.stop()
        self.clear()
        if self.slot is not None:
            self.slot.release()
            self.slot = None
        self._pool.shutdown(wait=False)

    def _needed(self, *_args) -> None:
        self.due = True

    def _current(self) -> bool:
        """Whether there is nothing new to autosave (unchanged since the last one written)."""
        return not self.due and self.slot is not None and self.slot.data_path.exists()

    def _snapshot(self) -> tuple:
        """Claim the autosave if need be; what to write, marked as written."""
        if self.slot is None:
            self.slot = AutosaveSlot.claim()
        self.due = False  # an edit from now on is the next autosave's
        return (self.slot, *self.doc.snapshot(), self.doc.path, self._name(), self.doc.disk_identity)

    @staticmethod
    def _write(slot: AutosaveSlot, tree, q, path, name, identity) -> None:
        # refused if it could not be restored (too many bodies, too large): the last good autosave stays
        slot.write(project_text(tree, q, name, compact=True), path, name, identity)

    def _failed(self, exc: OSError | KineTreeError) -> None:
        self.due = True  # try again at the next tick
        if str(exc) != self._error:  # once per problem, not every few seconds
            log.warning("autosave failed: %s", exc)
            self._say(f"Autosave failed: {exc}")
        self._error = str(exc)

    def _report(self, job: Future, wait: bool = False) -> None:
        if job is not self.job and not wait:
            return  # already reported by wait()
        self.job = None
        try:
            job.result()
        except (OSError, KineTreeError) as exc:
            self._failed(exc)
        else:
            self._error = None
