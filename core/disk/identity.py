"""What a file on disk was when KineTree last read or wrote it, to tell whether someone else
changed it since (another window, another person on a shared folder, an editor, git).

A :class:`FileIdentity` is the file's size, modification time (ns), inode and a BLAKE2b digest
of its bytes. :func:`disk_state` compares the file now with one: the same size, time and inode
mean unchanged without reading it; otherwise the bytes are hashed (only when the size is the
same), so a ``touch`` or a save of identical content by another program is not a change.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

__all__ = ["CHANGED", "MISSING", "SAME", "FileIdentity", "digest_of", "disk_state"]

SAME, CHANGED, MISSING = "same", "changed", "missing"
_CHUNK = 1 << 20


def digest_of(data: bytes) -> bytes:
    """The digest a :class:`FileIdentity` holds for ``data``."""
    return hashlib.blake2b(data, digest_size=32).digest()


@dataclass(frozen=True)
class FileIdentity:
    """A file's size, mtime (ns), inode and content digest at one moment."""

    size: int
    mtime_ns: int
    inode: int
    digest: bytes

    @classmethod
    def of_written(cls, st: os.stat_result, data: bytes) -> FileIdentity:
        """The identity of a file just written with ``data`` (``st``: its fstat after writing)."""
        return cls(st.st_size, st.st_mtime_ns, st.st_ino, digest_of(data))

    @classmethod
    def read(cls, path: str | os.PathLike, max_bytes: int | None = None) -> FileIdentity | None:
        """The identity of the regular file ``path`` now (through symlinks); None if it is
        missing, not a regular file, unreadable, or larger than ``max_bytes``."""
        st, digest = _stat_and_digest(path, max_bytes)
        return None if digest is None else cls(st.st_size, st.st_mtime_ns, st.st_ino, digest)


def _stat_and_digest(path: str | os.PathLike, max_bytes: int | None) -> tuple[os.stat_result | None, bytes | None]:
    try:
        # O_NONBLOCK: a FIFO put in the file's place must not block the check
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None, None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or (max_bytes is not None and st.st_size > max_bytes):
        os.close(fd)
        return st, None
    with os.fdopen(fd, "rb") as f:
        h, left = hashlib.blake2b(digest_size=32), (st.st_size if max_bytes is None else max_bytes) + 1
        try:
            while left > 0 and (chunk := f.read(min(_CHUNK, left))):
                h.update(chunk)
                left -= len(chunk)
        except OSError:
            return st, None
    # grown past the bound while read (someone writing it): no identity, a change
    return st, h.digest() if left > 0 else None


def disk_state(path: str | os.PathLike, known: FileIdentity) -> tuple[str, FileIdentity | None]:
    """Whether ``path`` still holds what ``known`` describes: ``(SAME, identity)`` (the identity
    refreshed when only its time or inode moved), ``(CHANGED, None)`` or ``(MISSING, None)``."""
    try:
        st = os.stat(Path(path))
    except FileNotFoundError:
        return MISSING, None
    except OSError:
        return CHANGED, None
    if not stat.S_ISREG(st.st_mode) or st.st_size != known.size:
        return CHANGED, None
    if (st.st_mtime_ns, st.st_ino) == (known.mtime_ns, known.inode):
        return SAME, known
    now, digest = _stat_and_digest(path, known.size)
    if now is None:
        return (MISSING if not os.path.lexists(path) else CHANGED), None
    if digest != known.digest or now.st_size != known.size:
        return CHANGED, None
    return SAME, replace(known, mtime_ns=now.st_mtime_ns, inode=now.st_ino)
