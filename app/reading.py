"""Reading a robot for a window: in a worker thread, with a progress dialog when it is slow."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kinetree.core.io import open_robot
from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from .document import project_path, read_identity
from .text import plain_tip
from .viewport.meshes import preload as preload_meshes


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


class _Relay(QObject):
    done = Signal()


def read_with_progress(window: QWidget, pool: ThreadPoolExecutor, source: str | Path, allow_env: bool):
    """:func:`read_robot` in ``pool``; show a progress dialog if it takes long, keep ``window``
    responsive but disabled meanwhile."""
    future = pool.submit(read_robot, str(source), allow_env)
    if not future.done():
        loop = QEventLoop()
        relay = _Relay()
        relay.done.connect(loop.quit, Qt.ConnectionType.QueuedConnection)
        future.add_done_callback(lambda _f: relay.done.emit())
        dialog = QProgressDialog(plain_tip(f"Loading {Path(str(source)).name}…"), None, 0, 0, window)
        dialog.setWindowTitle("KineTree")
        dialog.setMinimumDuration(400)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setValue(0)
        window.setEnabled(False)
        try:
            if not future.done():
                loop.exec()
        finally:
            window.setEnabled(True)
            dialog.close()
            dialog.deleteLater()
    return future.result()
