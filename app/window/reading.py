"""Reading a robot for a window: in a worker thread, with a progress dialog (and Cancel) when it is slow."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kinetree.core.io import open_robot
from PySide6.QtWidgets import QWidget

from ..model.document import project_path, read_identity
from ..model.text import plain_tip
from ..viewport.meshes import preload as preload_meshes
from ..widgets.qt_utils import wait_responsive


def read_robot(source: str, allow_env: bool = False):
    """Worker-thread part of opening: parse the file, load its meshes into the cache. Returns
    ``(tree, q, notes, identity)``; ``identity``: a project file's, read before parsing (a
    change in between is then seen as a change, never missed)."""
    notes: list[str] = []
    identity = read_identity(project_path(source))
    # on_warning, not warnings.catch_warnings: not thread-safe
    tree, q = open_robot(source, on_warning=notes.append, allow_env=allow_env)
    preload_meshes(tree)
    return tree, q, notes, identity


class LoadCancelled(Exception):
    """The user cancelled the load (the window is as it was before)."""


class Loader:
    """Reads robots for one window, one at a time, in a worker thread. A cancelled read cannot be
    stopped (the parsers are not interruptible): it is abandoned, finishes unseen in its thread,
    and the next read gets a fresh worker rather than queueing behind it."""

    def __init__(self) -> None:
        self._pool = self._new_pool()

    @staticmethod
    def _new_pool() -> ThreadPoolExecutor:
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="kinetree-load")

    def read(self, window: QWidget, source: str | Path, allow_env: bool):
        """:func:`read_robot` in the worker; a progress dialog with Cancel if it takes long, keeping
        ``window`` responsive but disabled meanwhile. Raises :class:`LoadCancelled` on Cancel."""
        future = self._pool.submit(read_robot, str(source), allow_env)
        if not wait_responsive(future, window, plain_tip(f"Loading {Path(str(source)).name}…")):
            if not future.cancel():  # running: leave it to its thread, read the next file in a new one
                self._pool.shutdown(wait=False)
                self._pool = self._new_pool()
            raise LoadCancelled(f"Loading {Path(str(source)).name} cancelled")
        return future.result()

    def shutdown(self) -> None:
        """Quitting: a long read must not hold up the window closing."""
        self._pool.shutdown(wait=False, cancel_futures=True)
