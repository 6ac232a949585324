"""Help ▸ User guide (F1): the user guide shipped in ``resources/guide/*.md`` (the pages README
links to), shown offline: a contents list of the pages beside a QTextBrowser that renders the
markdown; links between pages, and the screenshots the pages show, resolve inside the resources."""

from __future__ import annotations

import re
from pathlib import Path

from kinetree import resources
from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QHBoxLayout, QListWidget, QTextBrowser, QVBoxLayout

GUIDE = Path(resources.__file__).parent / "guide"
INDEX = "index.md"


def guide_pages(folder: Path = GUIDE) -> list[tuple[str, str]]:
    """(file name, title) of the guide's pages in the order ``index.md`` lists them, the index first."""
    text = (folder / INDEX).read_text(encoding="utf-8")
    pages = [(INDEX, "Contents")]
    for title, name in re.findall(r"^- \[([^\]]+)\]\(([\w.-]+\.md)\)", text, flags=re.M):
        if (folder / name).is_file():
            pages.append((name, title))
    return pages


class GuideDialog(QDialog):
    """The guide's pages: the contents list on the left, the page on the right. A link to another
    page opens it (and selects it in the list); a link to the web opens the browser."""

    def __init__(self, parent=None, folder: Path = GUIDE) -> None:
        super().__init__(parent)
        self.setWindowTitle("KineTree user guide")
        self.setObjectName("helpUserGuide")
        self.folder = folder
        self.pages = guide_pages(folder)
        self.contents = QListWidget(self)
        self.contents.setObjectName("guideContents")
        self.contents.addItems([title for _, title in self.pages])
        self.contents.setMaximumWidth(240)
        self.browser = QTextBrowser(self)
        self.browser.setObjectName("guidePage")
        self.browser.setOpenExternalLinks(True)  # http(s) links; relative ones are followed in place
        self.browser.setSearchPaths([str(folder)])
        self.contents.currentRowChanged.connect(self._open_row)
        self.browser.sourceChanged.connect(self._follow)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.contents)
        row.addWidget(self.browser, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row, 1)
        layout.addWidget(buttons)
        self.open_page(INDEX)

    def open_page(self, name: str) -> None:
        """Show the page ``name`` (a file name in the guide folder)."""
        url = QUrl.fromLocalFile(str(self.folder / name))
        self.browser.setSource(url, QTextDocument.ResourceType.MarkdownResource)

    def page(self) -> str:
        """The file name of the page shown."""
        return Path(self.browser.source().toLocalFile()).name

    def _open_row(self, row: int) -> None:
        if 0 <= row < len(self.pages) and self.pages[row][0] != self.page():
            self.open_page(self.pages[row][0])

    def _follow(self, url: QUrl) -> None:
        names = [name for name, _ in self.pages]
        name = Path(url.toLocalFile()).name
        if name in names:
            self.contents.blockSignals(True)
            self.contents.setCurrentRow(names.index(name))
            self.contents.blockSignals(False)


def show_guide(window, page: str = INDEX) -> GuideDialog:
    """The window's guide dialog (one per window, made on first use), showing ``page``."""
    dialog = window.findChild(GuideDialog, "helpUserGuide")
    if dialog is None:
        dialog = GuideDialog(window)
        dialog.resize(min(980, window.width()), min(700, window.height()))
    if page != dialog.page():
        dialog.open_page(page)
    dialog.show()
    dialog.raise_()
    dialog.activateWindow()
    return dialog
