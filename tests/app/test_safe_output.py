"""Files written by other writers (imageio, ffmpeg, QPdfWriter) are written atomically: a
failure half-way keeps the old file, and leaves no temporary file; permissions and symlinks are
kept."""

from __future__ import annotations

import os

import pytest
from kinetree.app.safe_output import atomic_output


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
    from kinetree.app.panels.exercise import write_sheet
    from PySide6.QtGui import QTextDocument

    window.doc.open("two_link_planar")
    window.exercise_dock.show()
    qtbot.wait(30)
    sheet = window.exercise.sheet_exercises(2)
    path = tmp_path / "sheet.pdf"
    path.write_bytes(b"%PDF the old sheet")
    real = QTextDocument.print_

    def print_then_fail(self, device):
        real(self, device)
        raise OSError("disk full")

    monkeypatch.setattr(QTextDocument, "print_", print_then_fail)
    with pytest.raises(OSError, match="disk full"):
        write_sheet(sheet, str(path), "two_link_planar")
    assert path.read_bytes() == b"%PDF the old sheet" and os.listdir(tmp_path) == ["sheet.pdf"]
    monkeypatch.setattr(QTextDocument, "print_", real)
    write_sheet(sheet, str(path), "two_link_planar")
    assert path.read_bytes().startswith(b"%PDF-") and os.listdir(tmp_path) == ["sheet.pdf"]
