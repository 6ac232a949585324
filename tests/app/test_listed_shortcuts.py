"""Help ▸ Keyboard shortcuts lists what works: every key it lists (the menus' actions) reaches
its action with the focus in the 3D view, where the hands are (issue 32)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


class Catch(QObject):
    """Records the shortcut events an action gets, and keeps them from it (no dialogs open)."""

    def __init__(self) -> None:
        super().__init__()
        self.got: list[QObject] = []

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 - Qt's name
        if ev.type() == QEvent.Type.Shortcut:
            self.got.append(obj)
            return True
        return False


def menu_actions(window):
    """The actions the Keyboard shortcuts page lists: every menu action with a key."""
    out = []
    menus = [a.menu() for a in window.menuBar().actions()]
    while menus:
        menu = menus.pop(0)
        for a in menu.actions():
            if a.menu() is not None:
                menus.append(a.menu())
            elif not a.shortcut().isEmpty():
                out.append(a)
    return out


def test_every_listed_shortcut_works_with_the_focus_in_the_viewport(make_window, qtbot):
    from kinetree.app.features.help import shortcuts_html

    w = make_window()
    w.doc.open("puma560")
    w.doc.select("link3")
    w.doc.set_joint_position("q2", 0.3)  # something to undo
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    vp = w.viewport
    listed = shortcuts_html(w)
    catch = Catch()
    actions = menu_actions(w)
    assert len(actions) > 10
    for a in actions:
        a.installEventFilter(catch)
    failed = []
    for a in actions:
        keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        assert keys in listed  # the page lists it
        if not a.isEnabled() or not a.isVisible():
            continue  # e.g. Redo with nothing undone
        vp.setFocus()
        qtbot.waitUntil(vp.hasFocus)
        combo = a.shortcut()[0]
        catch.got.clear()
        QTest.keyClick(QApplication.focusWidget(), combo.key(), combo.keyboardModifiers())
        if catch.got != [a]:
            failed.append(f"{a.text().replace('&', '')} ({keys}): {[x.text() for x in catch.got] or 'nothing'}")
    for a in actions:
        a.removeEventFilter(catch)
    assert failed == []
