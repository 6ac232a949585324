"""Crash recovery: real instances are killed, their autosaves offered back, nothing else lost."""

from __future__ import annotations

import itertools
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import kinetree.app.window.recovery as recovery
import numpy as np
import pytest
from kinetree.app.main import start
from kinetree.app.model.text import plain_tip
from kinetree.app.window.main_window import MainWindow
from kinetree.app.window.recovery import DISCARD, LATER, AutosaveSlot, find_orphans
from kinetree.core import load_robot
from kinetree.core.io import dumps, save_project
from kinetree.core.io.project import load_project
from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL and XDG_DATA_HOME are POSIX")

# An instance started through the real entry point (kinetree ROBOT) that types a joint value
# into its spin box once the window is up, waits for the timer to autosave, prints the
# autosave's path, and then on a line from stdin either waits to be killed or quits cleanly
# answering Discard.
INSTANCE = r"""
import sys
from PySide6.QtCore import QSocketNotifier, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox
from kinetree.app import main

app = main.make_application(sys.argv)

def window():
    return next(w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow")

def edit():
    w = window()
    if sys.argv[2] not in w.sliders.rows or not w.isEnabled():  # still loading the robot
        QTimer.singleShot(20, edit)
        return
    spin = w.sliders.rows[sys.argv[2]].spin
    spin.setFocus()
    spin.selectAll()
    QTest.keyClicks(spin, sys.argv[3])
    QTest.keyClick(spin, Qt.Key.Key_Return)
    poll.start(10)

def report():
    path = window().autosave_path()
    if path is not None and path.exists():
        poll.stop()
        print(path, flush=True)

def command():
    notifier.setEnabled(False)
    if sys.stdin.readline().strip() == "discard-and-close":
        QMessageBox.question = staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard)
        window().close()

poll = QTimer()
poll.timeout.connect(report)
notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
notifier.activated.connect(command)
QTimer.singleShot(0, edit)
sys.exit(main.main([sys.argv[1]]))
"""


@pytest.fixture
def data_home(tmp_path, autosave_dir, monkeypatch):
    """XDG_DATA_HOME for the child instances; this process's autosave folder is theirs."""
    home = tmp_path / "xdg-data"
    monkeypatch.setattr(recovery, "autosave_dir", lambda: home / "kinetree")
    return home


class Instance:
    """A KineTree process of its own, with an edit autosaved."""

    def __init__(self, tmp_path: Path, data_home: Path, robot: str, joint: str, typed: str) -> None:
        env = dict(os.environ, XDG_DATA_HOME=str(data_home), XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
                   KINETREE_AUTOSAVE_MS="20")
        self.proc = subprocess.Popen([sys.executable, "-c", INSTANCE, robot, joint, typed], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def autosaved(self, timeout: float = 20) -> Path:
        """The autosave's path, printed by the instance once the file exists."""
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline().strip() if ready else ""
        if not line:
            self.kill()
            pytest.fail(f"no autosave within {timeout} s; stderr: {self.proc.stderr.read()}")
        return Path(line)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def quit_discarding(self) -> int:
        self.proc.stdin.write("discard-and-close\n")
        self.proc.stdin.flush()
        return self.proc.wait(10)


@pytest.fixture
def instances(tmp_path, data_home):
    started: list[Instance] = []

    def launch(robot: str, joint: str = "q2", typed: str = "30") -> Instance:
        started.append(Instance(tmp_path, data_home, robot, joint, typed))
        return started[-1]

    yield launch
    for inst in started:
        if inst.proc.poll() is None:
            inst.kill()
        inst.proc.communicate(timeout=10)  # closes the pipes


@pytest.fixture
def project(tmp_path) -> Path:
    path = tmp_path / "arm.kinetree.json"
    save_project(load_robot("puma560"), path)
    return path


def answer_dialog(button: str, seen: dict, choose: dict[int, str] | None = None) -> None:
    """Answer the recovery dialog when it shows (record its text in ``seen``); a dialog still
    open after 8 s is closed, so a broken test fails instead of hanging."""
    deadline = time.monotonic() + 8

    def poll():
        dialog = QApplication.activeModalWidget()
        if dialog is not None and dialog.objectName() == "recoveryDialog":
            seen["text"] = [label.text() for label in dialog.findChildren(QLabel)]
            seen["tips"] = [label.toolTip() for label in dialog.findChildren(QLabel)]  # full paths
            seen["image"] = dialog.grab()
            for row, choice in (choose or {}).items():
                dialog.findChild(object, f"{choice}_{row}").click()
            dialog.findChild(object, button).click()
        elif time.monotonic() < deadline:
            QTimer.singleShot(20, poll)
        elif dialog is not None:
            dialog.reject()

    QTimer.singleShot(0, poll)


def _orphan(directory: Path, doc_text: str, path: Path | None, name: str) -> AutosaveSlot:
    """What a dead instance leaves: the autosave and its metadata, the lock free."""
    slot = AutosaveSlot.claim(directory)
    slot.write(doc_text, path, name)
    slot.release()
    return slot


def test_killed_instance_is_offered_and_restored_at_a_file_argument_start(make_window, instances, project,
                                                                          data_home):
    inst = instances(str(project))
    autosave = inst.autosaved()
    assert autosave.parent == data_home / "kinetree" and str(inst.proc.pid) in autosave.name
    inst.kill()
    assert autosave.exists()

    w = make_window()
    seen: dict = {}
    answer_dialog("restoreAllButton", seen)
    start(w, "puma560")  # kinetree puma560: the argument and the unsaved work both open
    assert "arm.kinetree.json" in seen["text"] and plain_tip(str(project)) in seen["tips"]
    assert w.doc.path is None and not w.doc.modified and w.doc.tree.num_bodies == 6  # the argument
    (r,) = w.spawned
    r.autosave_timer.stop()
    assert r.doc.path == project
    assert r.doc.modified and r.isWindowModified() and r.windowTitle().startswith("arm.kinetree.json")
    assert np.isclose(r.doc.configuration[r.doc.tree.position_index("q2")], np.radians(30))
    r.doc.undo_stack.undo()  # no undo step makes recovered work clean
    assert r.doc.modified
    assert r.autosave_path() == autosave and autosave.exists()  # kept until saved
    assert r.save()
    assert not autosave.exists() and not autosave.with_name(autosave.name.replace(".kinetree.json", ".meta.json")
                                                            ).exists()
    tree, q = load_project(project)  # the edit reached the file the user had open
    assert np.isclose(q[tree.position_index("q2")], np.radians(30))
    r.close()
    assert find_orphans() == []


def test_two_live_instances_keep_separate_autosaves(make_window, instances, monkeypatch):
    a, b = instances("puma560", "q1", "10"), instances("puma560", "q1", "20")
    w = make_window()  # while they start
    pa, pb = a.autosaved(), b.autosaved()
    assert pa != pb and pa.exists() and pb.exists()
    assert json.loads(pa.read_text()) != json.loads(pb.read_text())

    asked = []
    monkeypatch.setattr(MainWindow, "ask_recovery", lambda self, infos: asked.append(infos) or [])
    start(w, None)
    assert asked == []  # both owners are alive: nothing to offer, nothing touched
    assert b.quit_discarding() == 0
    assert not pb.exists() and pa.exists()  # closing one instance leaves the other's
    w.doc.open("scara")
    w.sliders.rows[next(iter(w.sliders.rows))].spin.setValue(12)
    assert w.autosave()
    mine = w.autosave_path()
    assert mine.exists() and mine.parent == pa.parent
    w.close()  # discards (conftest answers Discard)
    assert not mine.exists() and pa.exists()
    a.kill()
    (slot,) = find_orphans()
    assert slot.data_path == pa
    slot.release()


def test_restart_with_file_argument_later_keeps_the_autosave(make_window, autosave_dir, project):
    w0 = make_window("a.ini")
    w0.open_source(project, ask=False)
    w0.sliders.rows["q3"].spin.setValue(15)
    assert w0.autosave()
    text, orphan = w0.doc.serialized(), w0.autosave_path()
    w0.autosaver.slot.release()  # as if the process died: lock gone, files stay
    w0.autosaver.slot = None
    w0.doc.undo_stack.setClean()

    w = make_window("b.ini")
    seen: dict = {}
    answer_dialog("laterButton", seen)
    start(w, "puma560")
    assert "arm.kinetree.json" in seen["text"]
    assert w.spawned == [] and w.doc.tree.num_bodies == 6
    w.close()
    # quitting never deletes an orphan (written compact: the same project, on one line)
    assert orphan.exists() and json.loads(orphan.read_text()) == json.loads(text)

    w2 = make_window("c.ini")
    answer_dialog("restoreAllButton", {})
    start(w2, None)  # no argument: restored into this window
    assert w2.doc.serialized() == text and w2.doc.path == project and w2.doc.modified
    w2.doc.undo_stack.setClean()


def test_discard_deletes_and_per_row_choices(make_window, autosave_dir):
    text = dumps(load_robot("scara"))
    slots = [_orphan(autosave_dir, text, None, f"untitled (from robot{i})") for i in range(3)]
    w = make_window()
    seen: dict = {}
    answer_dialog("applyButton", seen, {0: DISCARD, 1: LATER})  # row 2 keeps its default, Restore
    restored = w.offer_recovery()
    assert [s for s in seen["text"] if s.startswith("untitled")] == [f"untitled (from robot{i})" for i in range(3)]
    assert restored == [w] and w.doc.modified and w.doc.path is None
    assert not slots[0].data_path.exists() and not slots[0].meta_path.exists()
    assert slots[1].data_path.exists() and slots[2].data_path.exists()
    assert w.autosave_path() == slots[2].data_path
    (later,) = find_orphans()  # the restored one is held by this window
    assert later.data_path == slots[1].data_path
    later.release()
    w.close()  # Discard: this window's (restored) autosave goes too
    assert not slots[2].data_path.exists() and slots[1].data_path.exists()
    w2 = make_window("b.ini")
    answer_dialog("discardAllButton", {})
    assert w2.offer_recovery() == []
    assert list(autosave_dir.iterdir()) == []  # autosave, metadata and lock file all gone


def test_failed_save_keeps_the_autosave(make_window, tmp_path, monkeypatch):
    w = make_window()
    w.open_source("two_link_planar", ask=False)
    w.sliders.rows["q1"].spin.setValue(20)
    assert w.autosave()
    path = w.autosave_path()
    assert not w._save_to(tmp_path / "no-such-folder" / "x.kinetree.json")
    assert path.exists()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Save))
    monkeypatch.setattr(MainWindow, "save_as", lambda self: self._save_to(tmp_path / "no-such-folder" / "y.json"))
    assert not w.close()  # the save failed: the window stays, the work stays
    assert w.isVisible() and path.exists()
    assert w._save_to(tmp_path / "ok.kinetree.json")
    assert not path.exists()
    assert w.close()


def test_clean_quit_and_damaged_files(make_window, autosave_dir):
    w = make_window()
    w.doc.open("scara")
    w.sliders.rows[next(iter(w.sliders.rows))].spin.setValue(12)
    assert w.autosave()
    own = w.autosave_path()
    w.doc.undo_stack.undo()  # back to what is on disk: nothing to recover
    assert w.autosave() and not own.exists()
    bad = _orphan(autosave_dir, "{not json", None, "broken")
    bad.meta_path.write_text("[1, 2")  # damaged metadata: still offered, by file name
    (slot,) = find_orphans()
    assert slot.info().name == "untitled"
    slot.release()
    w.quiet = True
    answer_dialog("restoreAllButton", {})
    assert w.offer_recovery() == []  # cannot be read: a message, and the file is kept
    assert bad.data_path.exists() and "broken" not in w.windowTitle()
    assert w.close()
    assert not own.exists() and not own.with_suffix("").with_suffix(".lock").exists()
    assert bad.data_path.exists()


def test_autosave_of_an_older_version_is_offered(make_window, autosave_dir):
    autosave_dir.mkdir(parents=True)
    legacy = autosave_dir / "autosave.kinetree.json"  # one shared file, no lock, no metadata
    legacy.write_text(dumps(load_robot("scara")))
    w = make_window()
    seen: dict = {}
    answer_dialog("restoreAllButton", seen)
    assert w.offer_recovery() == [w]
    assert "untitled" in seen["text"] and w.doc.modified and w.doc.tree.num_bodies == 4
    assert w.autosave_path() == legacy
    w.sliders.rows["q1"].spin.setValue(5)
    assert w.autosave() and legacy.with_name("autosave.meta.json").exists()  # it carries on there
    assert w.close()
    assert list(autosave_dir.iterdir()) == []


@pytest.mark.parametrize("n", [1, 3, 12])
def test_dialog_is_drawn(make_window, autosave_dir, tmp_path, n, project):
    for i in range(n):
        _orphan(autosave_dir, dumps(load_robot("puma560")), project if i == 0 else None,
                "arm.kinetree.json" if i == 0 else f"untitled (from robot{i})")
    w = make_window()
    seen: dict = {}
    answer_dialog("laterButton", seen)
    assert w.offer_recovery() == []
    img = seen["image"].toImage()
    assert 400 < img.width() < 1400 and 100 < img.height() < 700  # twelve rows scroll
    assert sum(t.startswith("untitled (from robot") for t in seen["text"]) == n - 1
    out = os.environ.get("KINETREE_SHOT_DIR")
    if out:
        seen["image"].save(str(Path(out) / f"recovery_{n}.png"))
    kept = find_orphans()
    assert len(kept) == n  # Later kept them all
    for slot in kept:
        slot.release()


def test_menu_recovery_opens_a_window_beside_unsaved_work(make_window, autosave_dir, qtbot):
    w = make_window()
    w.findChild(QAction, "recoverAction").trigger()
    assert "No unsaved work left" in w.statusBar().currentMessage()
    w.doc.open("scara")
    w.sliders.rows["q1"].spin.setValue(12)
    assert w.autosave()
    mine, text = w.autosave_path(), w.doc.serialized()
    orphan = _orphan(autosave_dir, dumps(load_robot("ur5")), None, "untitled (from ur5)")
    answer_dialog("restoreAllButton", {})
    w.findChild(QAction, "recoverAction").trigger()
    (other,) = w.spawned  # this window keeps its own unsaved work
    qtbot.addWidget(other)
    other.autosave_timer.stop()
    assert w.doc.serialized() == text and w.autosave_path() == mine
    assert other.doc.tree.num_bodies == 6 and other.doc.modified and other.autosave_path() == orphan.data_path


def test_a_reused_pid_never_takes_over_a_dead_instances_autosave(autosave_dir, monkeypatch):
    monkeypatch.setattr(AutosaveSlot, "_numbers", itertools.count(1))
    autosave_dir.mkdir(parents=True)
    dead = autosave_dir / f"autosave-{os.getpid()}-1.kinetree.json"  # same pid, an earlier life
    dead.write_text("{}")
    slot = AutosaveSlot.claim()
    assert slot.data_path.name == f"autosave-{os.getpid()}-2.kinetree.json"
    slot.write("{}", None, "x")
    assert dead.read_text() == "{}"
    (orphan,) = find_orphans()
    assert orphan.data_path == dead
    orphan.release()
    slot.remove()
    slot.release()
    assert sorted(p.name for p in autosave_dir.iterdir()) == [dead.name, dead.name.replace(".kinetree.json", ".lock")]


def test_an_autosave_that_cannot_be_written_is_reported(make_window, autosave_dir):
    autosave_dir.write_text("a file where the folder should be")
    w = make_window()
    w.doc.open("scara")
    w.sliders.rows["q1"].spin.setValue(12)
    assert w.autosave() is False
    assert w.statusBar().currentMessage().startswith("Autosave failed")
    autosave_dir.unlink()
    assert w.autosave() and w.autosave_path().exists()


@pytest.mark.parametrize("meta, name, path", [
    ("[" * 60000, "untitled", None),  # nesting deeper than the JSON parser's recursion
    ('{"path": "relative/a.kinetree.json", "name": "n"}', "n", None),
    ('{"path": "/a\\u0000b.kinetree.json"}', "untitled", None),
    ('{"path": 5, "name": ["x"], "saved": "yesterday"}', "untitled", None),
    ('{"path": "/ok/a.kinetree.json", "saved": 1e300}', "a.kinetree.json", Path("/ok/a.kinetree.json")),
    ('{"name": "' + "x" * 70000 + '"}', "untitled", None),  # larger than any metadata we write
])
def test_hostile_metadata_is_ignored(autosave_dir, meta, name, path):
    slot = AutosaveSlot.claim(autosave_dir)
    slot.write("{}", None, "ignored")
    slot.meta_path.write_text(meta)
    info = slot.info()
    assert (info.name, info.path) == (name, path)
    assert abs(info.saved - slot.data_path.stat().st_mtime) < 1  # the file's time, not the claimed one
    slot.remove()
    slot.release()


def test_the_timers_autosave_serializes_only_after_a_change_and_off_the_gui_thread(make_window, autosave_dir,
                                                                                   qtbot, monkeypatch):
    import kinetree.app.window.autosave as autosave

    threads = []
    real = autosave.project_text

    def spy(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(autosave, "project_text", spy)
    w = make_window()
    w.doc.open("scara")
    w.sliders.rows["q1"].spin.setValue(12)
    w.autosaver.in_background()
    qtbot.waitUntil(lambda: w.autosaver.job is None and w.autosave_path() is not None and w.autosave_path().exists())
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    tree, q = load_project(w.autosave_path())
    assert np.isclose(np.degrees(q[tree.position_index("q1")][0]), 12)
    for _ in range(3):  # nothing changed: the timer's ticks serialize nothing (49,000 bodies took 5 s each)
        w.autosaver.in_background()
        assert w.autosave()
    assert len(threads) == 1
    w.sliders.rows["q1"].spin.setValue(20)  # a change: written again
    w.autosaver.in_background()
    qtbot.waitUntil(lambda: w.autosaver.job is None)
    assert len(threads) == 2
    tree, q = load_project(w.autosave_path())
    assert np.isclose(np.degrees(q[tree.position_index("q1")][0]), 20)


def test_a_background_autosave_that_cannot_be_written_is_reported(make_window, autosave_dir, qtbot):
    autosave_dir.mkdir()
    w = make_window()
    w.doc.open("scara")
    w.sliders.rows["q1"].spin.setValue(12)
    assert w.autosave()
    w.autosave_path().unlink()
    w.autosave_path().mkdir()  # the data file cannot be replaced now
    w.sliders.rows["q1"].spin.setValue(13)
    w.autosaver.in_background()
    qtbot.waitUntil(lambda: w.statusBar().currentMessage().startswith("Autosave failed"))
    w.autosave_path().rmdir()
    assert w.autosave() and w.autosave_path().is_file()  # the failure left it due: written at the next try
