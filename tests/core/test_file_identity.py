"""A file's identity (size, mtime, inode, BLAKE2b of its bytes): what a save wrote, and whether
the file is still that (app/window/file_watch.py asks before saving over someone else's change)."""

from __future__ import annotations

import os

from kinetree.core import load_robot
from kinetree.core.disk.identity import CHANGED, MISSING, SAME, FileIdentity, digest_of, disk_state
from kinetree.core.disk.safe_io import atomic_write_text
from kinetree.core.io.project import save_project


def test_a_save_returns_the_identity_of_the_bytes_it_wrote(tmp_path):
    path = tmp_path / "arm.kinetree.json"
    saved = save_project(load_robot("two_link_planar"), path)
    data = path.read_bytes()
    assert saved == FileIdentity.read(path)
    assert saved.size == len(data) and saved.digest == digest_of(data)
    assert disk_state(path, saved) == (SAME, saved)


def test_same_content_with_a_new_time_or_inode_is_the_same(tmp_path):
    path = tmp_path / "a.json"
    known = atomic_write_text(path, "{}")
    os.utime(path, ns=(known.mtime_ns + 10**9, known.mtime_ns + 10**9))  # touch
    state, now = disk_state(path, known)
    assert state == SAME and now.mtime_ns == known.mtime_ns + 10**9 and now.digest == known.digest
    atomic_write_text(path, "{}")  # the same bytes saved again: a new inode
    assert disk_state(path, now)[0] == SAME


def test_other_content_of_the_same_size_is_a_change(tmp_path):
    path = tmp_path / "a.json"
    known = atomic_write_text(path, '{"a": 1}')
    with open(path, "r+b") as f:  # in place: the same inode and size
        f.write(b'{"a": 2}')
    os.utime(path, ns=(known.mtime_ns, known.mtime_ns))  # and even the old time: the hash tells
    assert disk_state(path, known) == (SAME, known)  # nothing to tell it by without reading…
    os.utime(path, ns=(known.mtime_ns + 1, known.mtime_ns + 1))
    assert disk_state(path, known) == (CHANGED, None)  # …once the time moved, the bytes are compared


def test_missing_or_not_a_file(tmp_path):
    path = tmp_path / "a.json"
    known = atomic_write_text(path, "{}")
    path.unlink()
    assert disk_state(path, known) == (MISSING, None) and FileIdentity.read(path) is None
    path.mkdir()
    assert disk_state(path, known) == (CHANGED, None) and FileIdentity.read(path) is None
    (tmp_path / "big").write_bytes(b"12")
    assert FileIdentity.read(tmp_path / "big", max_bytes=1) is None and FileIdentity.read(tmp_path / "big", 2)
