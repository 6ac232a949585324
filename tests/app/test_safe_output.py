"""Files written by other writers (imageio, ffmpeg, QPdfWriter) are written atomically: a
failure half-way keeps the old file, and leaves no temporary file; permissions and symlinks are
kept."""

from __future__ import annotations

import errno
import os
import stat

import pytest
from kinetree.app.widgets.safe_output import atomic_output


def test_the_file_appears_only_when_the_writer_finished(tmp_path):
    path = tmp_path / "out.gif"
    path.write_bytes(b"old")
    path.chmod(0o640)
    with pytest.raises(RuntimeError):
        with atomic_output(path) as tmp:
            assert tmp.parent == tmp_path and tmp.name.endswith(".tmp")
            tmp.write_bytes(b"half")
            raise RuntimeError("the writer failed")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["out.gif"]
    with atomic_output(path) as tmp:
        tmp.write_bytes(b"new")
        assert path.read_bytes() == b"old"  # not yet
    assert path.read_bytes() == b"new" and (path.stat().st_mode & 0o777) == 0o640
    assert os.listdir(tmp_path) == ["out.gif"]


def test_nothing_written_is_an_error_and_a_symlink_stays_a_link(tmp_path):
    real = tmp_path / "real.pdf"
    real.write_bytes(b"old")
    link = tmp_path / "link.pdf"
    link.symlink_to(real)
    with pytest.raises(OSError, match="link.pdf: nothing was written"):
        with atomic_output(link):
            pass  # a writer that failed silently (QPdfWriter does)
    assert real.read_bytes() == b"old"
    with atomic_output(link) as tmp:
        tmp.write_bytes(b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["link.pdf", "real.pdf"]


def test_a_failed_exercise_sheet_keeps_the_old_one(window, qtbot, tmp_path, monkeypatch):
    from kinetree.app.panels.exercise_sheet import SheetLayout, write_sheet

    window.doc.open("two_link_planar")
    window.exercise_dock.show()
    qtbot.wait(30)
    sheet = window.exercise.sheet_exercises(2)
    path = tmp_path / "sheet.pdf"
    path.write_bytes(b"%PDF the old sheet")
    real = SheetLayout.draw

    def draw_then_fail(self, writer):
        real(self, writer)
        raise OSError("disk full")

    monkeypatch.setattr(SheetLayout, "draw", draw_then_fail)
    with pytest.raises(OSError, match="disk full"):
        write_sheet(sheet, str(path), "two_link_planar")
    assert path.read_bytes() == b"%PDF the old sheet" and os.listdir(tmp_path) == ["sheet.pdf"]
    monkeypatch.setattr(SheetLayout, "draw", real)
    write_sheet(sheet, str(path), "two_link_planar")
    assert path.read_bytes().startswith(b"%PDF-") and os.listdir(tmp_path) == ["sheet.pdf"]


def test_a_device_or_fifo_is_refused_not_replaced(tmp_path):
    """As root, the rename would have replaced /dev/full with a file; a FIFO became a file."""
    fifo = tmp_path / "out.gif"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match=r"cannot write .*out\.gif: it is a FIFO \(named pipe\), not a regular file"):
        with atomic_output(fifo) as tmp:
            tmp.write_bytes(b"GIF89a")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and os.listdir(tmp_path) == ["out.gif"]
    with pytest.raises(OSError, match="cannot write /dev/full: it is a character device"):
        with atomic_output("/dev/full") as tmp:
            raise AssertionError("not reached: nothing may be created in /dev")


def test_a_write_error_names_the_file_asked_for(tmp_path):
    path = tmp_path / "x.png"
    with pytest.raises(OSError) as info:
        with atomic_output(path) as tmp:
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp))
    assert info.value.strerror == f"cannot write {path}: No space left on device" and not os.listdir(tmp_path)
