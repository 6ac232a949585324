"""Reading and writing files whose names come from users: bounded reads of regular files only,
and atomic saves that keep the saved file's permissions and symlinks.

:func:`read_regular_file` refuses what is not a regular file (a FIFO would block forever, a
link to ``/dev/zero`` never ends) before opening it, re-checks the opened descriptor (the path
may change in between) and reads at most ``max_bytes``.

:func:`atomic_write_text` writes ``.<name>.kinetree-<pid>-<token>.tmp`` next to the real file
(through symlinks), flushes it to disk and renames it over the file, so a save killed at any
moment leaves the old or the new content, never a mix. Temporary files of that exact naming
left by killed saves (their process is gone, or they are older than :data:`STALE_SECONDS`) are
removed by the next save into the same folder.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

from ..errors import FileFormatError
from .identity import FileIdentity

__all__ = ["MAX_BODIES", "MAX_INCLUDED_BYTES", "STALE_SECONDS", "IncludeBudget", "atomic_write_text",
           "check_regular_file", "read_regular_file", "remove_stale_temps", "xml_error_text"]

#: The most bodies (besides the base) any robot file KineTree reads or writes may hold: readers
#: refuse more before building anything, writers refuse to write what the readers would refuse
#: (a URDF gets one link more, the root; a DH table two rows fewer, for its base and tool bodies).
MAX_BODIES = 50_000
#: The bytes all ``<include>``\ s of one model (MJCF, SDFormat) bring in together, each inclusion
#: counted (a file included ten times ten times): each is expanded in memory.
MAX_INCLUDED_BYTES = 100 * 1024 * 1024
#: A temporary file untouched this long is stale even if a process with its pid exists (pids
#: are reused); a save writes its temporary file in well under a second.
STALE_SECONDS = 60.0
_TEMP = re.compile(r"^\.(?P<name>.+)\.kinetree-(?P<pid>\d{1,10})-[0-9a-f]{8}\.tmp$")
#: What ``tempfile.mkstemp(prefix=".<name>.", suffix=".tmp")`` made in KineTree before the pid
#: went into the name; only removed for the file being saved, and only when old.
_OLD_TEMP = re.compile(r"^\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp$")
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def _kind(mode: int) -> str:
    for test, what in _KINDS:
        if test(mode):
            return what
    return "not a regular file"


def check_regular_file(path: str | os.PathLike) -> os.stat_result:
    """``os.stat(path)`` (following symlinks) when it is a regular file; otherwise a
    :class:`FileFormatError` saying what it is (missing, a folder, a FIFO, a device …)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise FileFormatError(f"{path}: is {_kind(st.st_mode)}, not a regular file; KineTree reads only files")
    return st


def _amount(n: int) -> str:
    return f"{n / 2**20:.0f} MB" if n >= 2**20 else f"{n} bytes"


def read_regular_file(path: str | os.PathLike, max_bytes: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``, refusing anything else and anything larger than
    ``max_bytes`` (``what`` names the kind of file in that message), with a
    :class:`FileFormatError` naming the file."""
    st = check_regular_file(path)
    limit = _amount(max_bytes)
    if st.st_size > max_bytes:
        mb = st.st_size / 2**20
        raise FileFormatError(f"{path}: file is {mb:.{0 if mb >= 100 else 1}f} MB; a {what} may be at most {limit}")
    try:
        # O_NONBLOCK: if the path became a FIFO since the stat, opening it must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise FileFormatError(f"{path}: no such file") from None
    except OSError as exc:
        raise FileFormatError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise FileFormatError(f"{path}: is {_kind(mode)}, not a regular file; KineTree reads only files")
        try:
            data = f.read(max_bytes + 1)
        except OSError as exc:
            raise FileFormatError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:  # it grew after the stat
        raise FileFormatError(f"{path}: file is larger than {limit}; a {what} may be at most {limit}")
    return data


class IncludeBudget:
    """The bytes the includes of one model may still bring in (:data:`MAX_INCLUDED_BYTES`), taken
    by each inclusion before it is read and expanded, so a large file included many times is
    refused before it fills memory."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = MAX_INCLUDED_BYTES if limit is None else limit
        self.left = self.limit

    def read(self, path: str | os.PathLike, max_bytes: int, what: str, refuse) -> bytes:
        """:func:`read_regular_file` of the included ``path``, whose size is taken from the budget
        first; over budget, ``refuse(message)`` is the exception raised (it names the including
        file, line and element)."""
        size = check_regular_file(path).st_size
        if size > self.left:
            raise refuse(f"including {str(path)!r:.200} ({_amount(size)}) takes the model's includes past "
                         f"{_amount(self.limit)} together (every inclusion counted)")
        data = read_regular_file(path, min(max_bytes, self.left), what)
        self.left -= len(data)
        return data


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process (or we cannot tell): keep its file until it is old
    return True


def remove_stale_temps(folder: str | os.PathLike, name: str | None = None) -> list[str]:
    """Remove KineTree's temporary save files in ``folder`` whose process is gone or that are
    older than :data:`STALE_SECONDS` (never those of a save running now in this process);
    ``name``: also the older ``.<name>.XXXXXXXX.tmp`` of that file, when old. Returns the names
    removed; errors are ignored (another save may remove them at the same time)."""
    removed = []
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
            continue
        m = _TEMP.match(entry.name)
        old = _OLD_TEMP.match(entry.name) if m is None and name is not None else None
        if m is None and (old is None or old.group("name") != name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(st.st_mode):
                continue
            aged = now - st.st_mtime > STALE_SECONDS
            if m is not None:
                pid = int(m.group("pid"))
                if pid == os.getpid() and not aged:
                    continue  # possibly a save in progress in another thread of ours
                if not aged and _pid_alive(pid):
                    continue
            elif not aged:
                continue
            os.unlink(entry.path)
            removed.append(entry.name)
        except OSError:
            continue
    return removed


def _real_target(path: Path) -> Path:
    """The file a save to ``path`` must replace: through any symlinks, to their real target
    (the link is kept, the file it points to gets the new content)."""
    if not path.is_symlink():
        return path
    return Path(os.path.realpath(path))


def atomic_write_text(path: str | os.PathLike, text: str) -> FileIdentity:
    """Write ``text`` (UTF-8) to ``path`` atomically: a temporary file in the same folder,
    flushed to disk, then renamed over the file. Returns the written file's
    :class:`~kinetree.core.disk.identity.FileIdentity` (of the bytes written, taken before the
    rename: a later write by someone else is never taken for ours).

    An existing file keeps its permission bits (and, where allowed, its group); a new one gets
    the default permissions of the user's umask. A symlink stays a symlink: its target is
    written. Stale temporary files of killed saves in that folder are removed first. Errors are
    :class:`OSError` naming ``path``."""
    path = Path(path)
    data = text.encode("utf-8")  # before any file exists: a lone surrogate fails here, cleanly
    target = _real_target(path)
    folder = target.parent
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise OSError(errno.EINVAL, f"cannot write {path}: it is {_kind(old.st_mode)}, not a regular file")
    remove_stale_temps(folder, target.name)
    # the name cut short: a 255-byte file name must still leave room for the temporary one's
    tmp = folder / f".{target.name[:100]}.kinetree-{os.getpid()}-{secrets.token_hex(4)}.tmp"
    try:
        # a new file: 0666 minus the umask, as any program's new file; an old one: its own mode
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o600 if old is not None else 0o666)
    except OSError as exc:  # name the file the user asked for, not our temporary one
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if old is not None:
                if hasattr(os, "fchown"):
                    try:
                        os.fchown(f.fileno(), -1, old.st_gid)
                    except OSError:
                        pass  # not a member of that group: the folder's default group it is
                if hasattr(os, "fchmod"):
                    os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
                else:  # Windows
                    os.chmod(tmp, stat.S_IMODE(old.st_mode))
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            written = os.fstat(f.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OSError(exc.errno, f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    _sync_folder(folder)
    return FileIdentity.of_written(written, data)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX; best effort)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


_XML_DEPTH = re.compile(r"Excessive depth in document: (\d+)")
_XML_HUGE = re.compile(r"\s*,?\s*(use|try) XML_PARSE_HUGE( option)?\s*", re.IGNORECASE)


def xml_root(data: bytes, error, what: str):
    """The lxml root of ``data``, read with no DTD, entities or network and without comments;
    ``error(line, element, message)`` makes the exception for malformed XML or a DTD, ``what``
    names the file kind in the message ("a URDF")."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                             dtd_validation=False, remove_comments=True, remove_pis=True, collect_ids=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or (exc.position[0] if exc.position else None)
        raise error(line or 0, "", f"malformed XML: {xml_error_text(exc.msg)}") from None
    except ValueError as exc:
        raise error(0, "", f"malformed XML: {exc}") from None
    info = root.getroottree().docinfo
    if info.internalDTD is not None or info.externalDTD is not None or info.doctype:
        raise error(0, "doctype", f"DTD and entity declarations are not allowed in {what}")
    return root


def xml_error_text(msg: str) -> str:
    """libxml2's parse error in plain words: its size limits name an option (XML_PARSE_HUGE)
    that a user of KineTree cannot set, and "Excessive depth" does not say of what."""
    depth = _XML_DEPTH.search(msg)
    if depth:
        return f"nested more than {depth.group(1)} elements deep (a robot file needs a few levels)"
    return _XML_HUGE.sub(" ", msg).replace(" ,", ",").strip()
