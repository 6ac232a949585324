"""Help, as a new user finds it: the menu's entries open readable windows that Esc closes, F1 the
user guide (the pages README links to), whose links and contents list switch pages,
the shortcuts list names the viewport tools' keys, and an empty robot shows a hint."""

from __future__ import annotations

import re

import numpy as np
from kinetree.app.features.guide import GUIDE, GuideDialog
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QImage, QPixmap, QTextCursor, QTextDocument
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QTextBrowser


def open_help(window, qtbot, key: str) -> QDialog:
    before = set(window.findChildren(QDialog))
    window.help_actions[key].trigger()
    qtbot.waitUntil(lambda: any(d.isVisible() for d in set(window.findChildren(QDialog)) - before))
    return next(d for d in set(window.findChildren(QDialog)) - before if d.isVisible())


def test_help_menu_entries_open_and_esc_closes_them(window, qtbot):
    menus = [a.text() for a in window.menuBar().actions()]
    assert menus[-1] == "&Help"
    start = open_help(window, qtbot, "start")
    text = start.findChild(QTextBrowser).toPlainText()
    assert "Ctrl+Shift+A" in text and "Fixed joint" in text
    browser = start.findChild(QTextBrowser)
    images = re.findall(r'<img src="([^"]+)"', browser.toHtml())
    assert len(images) == 2  # the screenshots load: each a real picture of the arm
    for src in images:
        image = browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(src))
        assert isinstance(image, QImage | QPixmap) and image.width() >= 300
    QTest.keyClick(start, Qt.Key.Key_Escape)
    assert not start.isVisible()
    keys = open_help(window, qtbot, "keys").findChild(QTextBrowser).toPlainText()
    for expected in ("Move frame", "Rotate frame", "Pose handle", "Undo", "Esc"):
        assert expected in keys
    about = open_help(window, qtbot, "about").findChild(QTextBrowser).toPlainText()
    assert "KineTree" in about and "pyqtgraph" in about and "LGPL" in about


def test_an_empty_robot_shows_a_hint_until_it_has_a_body(window, qtbot):
    hint = window.viewport.findChild(QLabel, "emptyHint")
    window.new_document()
    assert window.doc.tree.body_names == [] and hint.isVisible()
    assert "Ctrl+Shift+A" in hint.text()
    window.bodies.add_action.trigger()
    assert not hint.isVisible()
    window.doc.undo_stack.undo()
    assert hint.isVisible()


def test_the_empty_robots_hint_is_wrapped_not_cut_in_a_narrow_view(window, qtbot):
    hint = window.viewport.findChild(QLabel, "emptyHint")
    window.new_document()
    for width in (460, 300):  # the view of a 1280×800 window's default layout, and narrower
        window.viewport.resize(width, 500)
        qtbot.waitUntil(lambda w=width: hint.width() <= w - 16)
        assert hint.x() >= 0 and hint.x() + hint.width() <= window.viewport.width()
        img = hint.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        a = np.array(img.constBits(), dtype=np.uint8).reshape(img.height(), img.bytesPerLine() // 4, 4)
        text = np.nonzero((a[:, : img.width(), :3].astype(int).max(axis=2) > 120).any(axis=1))[0]
        assert len(text) and text.min() >= 6 and text.max() <= img.height() - 7, (text.min(), text.max(), img.height())


def guide_dialog(window, qtbot) -> GuideDialog:
    qtbot.waitUntil(lambda: (d := window.findChild(GuideDialog)) is not None and d.isVisible())
    return window.findChild(GuideDialog)


def click_link(browser: QTextBrowser, href: str) -> None:
    """A real mouse click on the first link to ``href`` in the page shown."""
    block = browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(browser.document())
                cursor.setPosition(fragment.position() + 1)
                browser.ensureCursorVisible()
                rect = browser.cursorRect(cursor)
                QTest.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
                return
            it += 1
        block = block.next()
    raise AssertionError(f"no link to {href} on the page")


def test_f1_in_the_viewport_opens_the_user_guide_and_its_links_switch_pages(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.viewport.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is window.viewport)
    QTest.keyClick(window.viewport, Qt.Key.Key_F1)
    guide = guide_dialog(window, qtbot)
    assert guide.page() == "index.md"
    titles = [guide.contents.item(i).text() for i in range(guide.contents.count())]
    assert titles[0] == "Contents" and "Getting started" in titles and "Scripting" in titles
    assert "Getting started" in guide.browser.toPlainText()  # the contents page, rendered as text
    assert "](" not in guide.browser.toPlainText()  # markdown rendered, not shown raw
    click_link(guide.browser, "getting-started.md")
    qtbot.waitUntil(lambda: guide.page() == "getting-started.md")
    assert guide.contents.currentItem().text() == "Getting started"
    assert "Ctrl+Shift+A" in guide.browser.toPlainText()
    images = re.findall(r'<img src="([^"]+)"', guide.browser.toHtml())
    assert images  # the page's screenshots load from the resources
    for src in images:
        image = guide.browser.document().resource(QTextDocument.ResourceType.ImageResource, QUrl(src))
        assert isinstance(image, QImage | QPixmap) and image.width() >= 300, src
    guide.contents.setCurrentRow(titles.index("Scripting"))  # the contents list opens a page too
    assert guide.page() == "scripting.md" and "kinetree.core" in guide.browser.toPlainText()
    QTest.keyClick(guide, Qt.Key.Key_Escape)
    assert not guide.isVisible()


def test_every_guide_page_is_listed_and_renders(window, qtbot):
    guide = GuideDialog(window)
    qtbot.addWidget(guide)
    assert [name for name, _ in guide.pages][1:] == [n for n in guide_link_order()]
    for row, (name, _title) in enumerate(guide.pages):
        guide.contents.setCurrentRow(row)
        assert guide.page() == name
        assert len(guide.browser.toPlainText()) > 200, name


def guide_link_order() -> list[str]:
    text = (GUIDE / "index.md").read_text(encoding="utf-8")
    return re.findall(r"\]\(([\w.-]+\.md)\)", text)
