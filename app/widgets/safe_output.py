"""Atomic writes of files made by other writers (imageio, ffmpeg, QPdfWriter), which want a path.

:func:`atomic_output` gives such a writer a temporary path next to the real file and renames it
over the file only when the writer finished: an export that fails half-way (a full disk, an
exception, the app killed) leaves the old file or none, never a truncated one. The temporary
name is the one :mod:`kinetree.core.disk.safe_io` uses, so a killed export's leftover is removed by
the next save into that folder.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kinetree.core.disk.safe_io import remove_stale_temps

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def kind_of(mode: int) -> str:
    """What a file of ``st_mode`` is, for a message: "a folder", "a character device" …"""
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path in ``path``'s folder (through symlinks); after the block, move it
    over ``path``. An existing file keeps its permission bits. On an exception (or a block that
    wrote nothing) the temporary file is removed and ``path`` is left as it was. An existing
    ``path`` that is not a regular file (``/dev/full``, a FIFO, a folder) is refused first: the
    rename would replace it. Errors are :class:`OSError` naming ``path``."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    folder = target.parent
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"cannot write {path}: it is {kind_of(st.st_mode)}, not a regular file")
    old_mode = None if st is None else stat.S_IMODE(st.st_mode)
    remove_stale_temps(folder, target.name)
    tmp = folder / f".{target.name[:100]}.kinetree-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        # created here (0666 minus the umask, as any new file), so that the name is ours alone
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:  # name the file the user asked for, not our temporary one
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    try:
        try:
            yield tmp
            if os.path.getsize(tmp) == 0:
                raise OSError(errno.EIO, "nothing was written")
            if old_mode is not None:
                os.chmod(tmp, old_mode)
            with open(tmp, "rb+") as f:  # on disk before the rename makes it the file
                os.fsync(f.fileno())
            os.replace(tmp, target)
        except OSError as exc:  # name the file the user asked for, not our temporary one
            if str(exc).startswith(f"cannot write {path}"):
                raise
            raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_output`)."""
    with atomic_output(path) as tmp:
        tmp.write_bytes(data)


def save_png(image, path: str | os.PathLike) -> None:
    """Save a QImage as a PNG file, atomically: a full disk leaves the old file, not a truncated
    one, and any write error is an :class:`OSError` naming ``path`` (QImage.save writes in
    place and its result missed errors of the last buffered write: ``/dev/full`` "succeeded")."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError(errno.EIO, f"cannot write {path}: the image could not be encoded as PNG")
    buffer.close()
    write_bytes(path, data.data())
