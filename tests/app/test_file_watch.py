"""A project file changed on disk by someone else (issue 17, item 3): two windows on one file, the
second Save asks Overwrite / Save As… / Cancel instead of silently overwriting the first one's
work; an idle window offers to reload a file another process wrote; the app's own saves are
not taken for changes."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from kinetree.core import load_robot
from kinetree.core.io import dumps
from kinetree.core.io.project import load_project, save_project
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

# another process rewriting the project: link1 moved to x = 0.9 (``atomic``: a new file renamed
# over it, as editors and KineTree itself save; else written in place)
_WRITER = """
import sys
from kinetree.core.io.project import load_project, save_project
path, atomic = sys.argv[1], sys.argv[2] == "atomic"
tree, q = load_project(path)
body = tree.get_body("link1")
T = body.joint.joint_to_parent_transform.copy()
T[0, 3] = 0.9
body.joint.set_fixed_transform(T)
if atomic:
    save_project(tree, path, q)
else:
    from kinetree.core.io import dumps
    with open(path, "w") as f:
        f.write(dumps(tree, q))
"""


def write_elsewhere(path, atomic: bool = True) -> None:
    subprocess.run([sys.executable, "-c", _WRITER, str(path), "atomic" if atomic else "inplace"], check=True)


def link1_x(tree) -> float:
    return float(tree.get_body("link1").joint.joint_to_parent_transform[0, 3])


class Answers:
    """Stands in for ``QMessageBox.exec``: records each box and clicks the button labelled
    ``reply[kind]`` (kind ``save``: the Overwrite / Save As… / Cancel question; ``reload``)."""

    def __init__(self) -> None:
        self.shown: list[tuple[str, str]] = []
        self.reply = {"save": "Cancel", "reload": "Ignore"}

    def exec(self, box: QMessageBox) -> int:
        labels = [b.text() for b in box.buttons()]
        kind = "save" if "Overwrite" in labels else "reload" if "Reload" in labels else None
        assert kind is not None, f"unexpected message box: {box.text()} {labels}"
        self.shown.append((kind, box.text()))
        next(b for b in box.buttons() if b.text() == self.reply[kind]).click()
        return 0

    def kinds(self) -> list[str]:
        return [k for k, _ in self.shown]


@pytest.fixture
def answers(monkeypatch) -> Answers:
    a = Answers()
    monkeypatch.setattr(QMessageBox, "exec", lambda box: a.exec(box))
    return a


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "arm.kinetree.json"
    save_project(load_robot("two_link_planar"), path)
    return path


def type_xyz(qtbot, window, text: str) -> None:
    """Type link1's joint position into the Joint panel and press Enter, as a user does."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.doc.select("link1")
    field = window.joint.fields["xyz"]
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def file_save(window) -> None:
    """File ▸ Save, the real action (what Ctrl+S triggers)."""
    next(a for a in window.findChildren(QAction) if a.text() == "&Save").trigger()


@pytest.fixture
def two_windows(make_window, project, answers):
    a, b = make_window("a.ini"), make_window("b.ini")
    assert a.open_source(project) and b.open_source(project)
    return a, b


@pytest.mark.parametrize("reply", ["Cancel", "Overwrite", "Save As…"])
def test_second_save_asks_before_overwriting_the_first(two_windows, project, answers, qtbot, tmp_path,
                                                      monkeypatch, reply):
    a, b = two_windows
    type_xyz(qtbot, a, "0.5 0 0")
    file_save(a)
    assert not a.doc.modified and answers.shown == []  # nobody else changed it: A is not asked
    a_bytes = project.read_bytes()
    assert link1_x(load_project(project)[0]) == 0.5

    type_xyz(qtbot, b, "0.7 0 0")
    other = tmp_path / "other.kinetree.json"
    dialogs = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: dialogs.append(a) or (str(other), "")))
    answers.reply["save"] = reply
    qtbot.keyClick(b.joint.fields["xyz"], Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # Ctrl+S
    assert answers.kinds().count("save") == 1
    question = next(t for k, t in answers.shown if k == "save")
    assert "arm.kinetree.json" in question and "changed" in question
    if reply == "Cancel":
        assert project.read_bytes() == a_bytes and b.doc.modified and not other.exists()
        assert link1_x(b.doc.tree) == 0.7  # B's work is still there
    elif reply == "Overwrite":
        assert link1_x(load_project(project)[0]) == 0.7 and not b.doc.modified
    else:
        assert len(dialogs) == 1 and project.read_bytes() == a_bytes
        assert link1_x(load_project(other)[0]) == 0.7 and b.doc.path == other and not b.doc.modified


def test_save_over_a_deleted_file_asks(make_window, project, answers, qtbot):
    w = make_window()
    assert w.open_source(project)
    type_xyz(qtbot, w, "0.5 0 0")
    project.unlink()
    file_save(w)
    assert answers.kinds() == ["save"] and "deleted" in answers.shown[0][1]
    assert not project.exists() and w.doc.modified  # Cancel: nothing written


@pytest.mark.parametrize("atomic", [True, False], ids=["renamed-over", "in-place"])
def test_external_write_offers_reload(make_window, project, answers, qtbot, atomic):
    w = make_window()
    assert w.open_source(project)
    answers.reply["reload"] = "Reload"
    write_elsewhere(project, atomic)
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    assert answers.shown[0][1] == "arm.kinetree.json changed on disk. Reload?"
    assert link1_x(w.doc.tree) == 0.9 and not w.doc.modified  # the engine has the file's content
    w.doc.undo_stack.undo()  # the reload is one undo step
    assert link1_x(w.doc.tree) == 0.0 and w.doc.modified


def test_reload_with_unsaved_changes_says_they_would_be_lost(make_window, project, answers, qtbot):
    w = make_window()
    assert w.open_source(project)
    type_xyz(qtbot, w, "0.5 0 0")
    write_elsewhere(project)
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    assert "unsaved changes would be lost" in answers.shown[0][1]
    assert link1_x(w.doc.tree) == 0.5 and w.doc.modified  # Ignore: nothing changed
    file_save(w)  # ignoring the reload is no consent to overwrite: Save still asks
    assert answers.kinds() == ["reload", "save"] and link1_x(load_project(project)[0]) == 0.9


def test_own_save_is_not_a_change_but_a_later_write_is(make_window, project, answers, qtbot):
    w = make_window()
    assert w.open_source(project)
    type_xyz(qtbot, w, "0.5 0 0")
    with qtbot.waitSignal(w.file_watch.timer.timeout, timeout=10_000):  # the save's notifications settled
        file_save(w)
    assert answers.shown == [] and not w.doc.modified
    answers.reply["reload"] = "Reload"
    write_elsewhere(project)
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    assert link1_x(w.doc.tree) == 0.9


def test_change_during_a_dialog_is_asked_after_it_closes(make_window, project, answers, qtbot):
    w = make_window()
    assert w.open_source(project)
    dialog = QDialog(w)
    dialog.setModal(True)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.isVisible())
    write_elsewhere(project)
    for _ in range(2):  # the change was noticed, and looked at again while the dialog is open
        with qtbot.waitSignal(w.file_watch.timer.timeout, timeout=10_000):
            pass
    assert answers.shown == []
    dialog.accept()
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    # asked once; Ignore is remembered for that change
    with qtbot.waitSignal(w.file_watch.timer.timeout, timeout=10_000):
        pass
    assert answers.kinds() == ["reload"]
    np.testing.assert_equal(link1_x(w.doc.tree), 0.0)


def test_restored_autosave_still_asks_if_the_file_changed_since(make_window, project, answers, qtbot,
                                                                monkeypatch):
    from kinetree.app.window.main_window import MainWindow
    from kinetree.app.window.recovery import RESTORE

    w0 = make_window("a.ini")
    assert w0.open_source(project)
    type_xyz(qtbot, w0, "0.5 0 0")
    assert w0.autosave()
    w0.autosaver.slot.release()  # as if the process died: the lock goes, the autosave stays
    w0.autosaver.slot = None
    w0.doc.undo_stack.setClean()
    write_elsewhere(project)  # someone changes the file before the restart

    w = make_window("b.ini")
    monkeypatch.setattr(MainWindow, "ask_recovery", lambda self, infos: [RESTORE] * len(infos))
    assert w.offer_recovery() == [w]
    assert link1_x(w.doc.tree) == 0.5 and w.doc.path == project
    file_save(w)
    assert answers.kinds().count("save") == 1 and link1_x(load_project(project)[0]) == 0.9



def test_a_burst_of_changes_is_asked_about_once(make_window, project, answers, qtbot):
    w = make_window()
    assert w.open_source(project)
    w.file_watch.timer.setInterval(2000)  # a burst on a busy machine still falls within it
    tree, q = load_project(project)
    body = tree.get_body("link1")
    for i in range(1, 6):  # five different saves, each one noticed while the window runs
        T = body.joint.joint_to_parent_transform.copy()
        T[0, 3] = i / 10
        body.joint.set_fixed_transform(T)
        with qtbot.waitSignal(w.file_watch.watcher.fileChanged, timeout=10_000):
            project.write_text(dumps(tree, q))
    answers.reply["reload"] = "Reload"
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    with qtbot.waitSignal(w.file_watch.timer.timeout, timeout=10_000):  # looked again after the answer
        pass
    assert answers.kinds() == ["reload"] and link1_x(w.doc.tree) == 0.5 and not w.doc.modified


def test_a_file_too_large_to_hash_is_asked_about_once(make_window, project, answers, qtbot, monkeypatch):
    import kinetree.app.window.file_watch as file_watch

    monkeypatch.setattr(file_watch, "MAX_BYTES", 16)  # as a project grown past the size a project may have
    w = make_window()
    assert w.open_source(project)
    write_elsewhere(project)
    qtbot.waitUntil(lambda: answers.kinds() == ["reload"], timeout=10_000)
    with qtbot.waitSignal(w.file_watch.timer.timeout, timeout=10_000):  # looked again after Ignore
        pass
    assert answers.kinds() == ["reload"]


def test_two_windows_never_ask_at_once(make_window, project, qtbot):
    """The real, modal question boxes: the second window asks only after the first box closed."""
    a, b = make_window("a.ini"), make_window("b.ini")
    assert a.open_source(project) and b.open_source(project)
    asked, most, looked = [], [0], []
    for w in (a, b):  # a window's look at its file while some question is open
        w.file_watch.timer.timeout.connect(lambda: looked.append(QApplication.activeModalWidget() is not None))

    def tick() -> None:
        boxes = [x for x in QApplication.topLevelWidgets() if isinstance(x, QMessageBox) and x.isVisible()]
        most[0] = max(most[0], len(boxes))
        if len(boxes) > 1:  # the failure: close them all, so that their nested event loops end
            for x in boxes:
                next(y for y in x.buttons() if y.text() == "Ignore").click()
            return
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox) and any(looked):  # held open until the other window looked
            asked.append(box.parent())
            looked.clear()
            next(x for x in box.buttons() if x.text() == "Ignore").click()

    clicker = QTimer()
    clicker.timeout.connect(tick)
    clicker.start(20)
    write_elsewhere(project)
    try:
        qtbot.waitUntil(lambda: len(asked) == 2 or most[0] > 1, timeout=15_000)
    finally:
        clicker.stop()
    assert most[0] == 1 and set(asked) == {a, b}
