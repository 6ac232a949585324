"""Atomic writes of files made by other writers (imageio, ffmpeg, QPdfWriter), which want a path.

:func:`atomic_output` gives such a writer a temporary path next to the real file and renames it
over the file only when the writer finished: an export that fails half-way (a full disk, an
exception, the app killed) leaves the old file or none, never a truncated one. The temporary
name is the one :mod:`kinetree.core.io.safe_io` uses, so a killed export's leftover is removed by
the next save into that folder.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kinetree.core.io.safe_io import remove_stale_temps


@contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path in ``path``'s folder (through symlinks); after the block, move it
    over ``path``. An existing file keeps its permission bits. On an exception (or a block that
    wrote nothing) the temporary file is removed and ``path`` is left as it was."""
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    folder = target.parent
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        old_mode = None
    remove_stale_temps(folder, target.name)
    tmp = folder / f".{target.name[:100]}.kinetree-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        # created here (0666 minus the umask, as any new file), so that the name is ours alone
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:  # name the file the user asked for, not our temporary one
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    try:
        yield tmp
        if os.path.getsize(tmp) == 0:
            raise OSError(f"cannot write {path}: nothing was written")
        if old_mode is not None:
            os.chmod(tmp, old_mode)
        with open(tmp, "rb+") as f:  # on disk before the rename makes it the file
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
