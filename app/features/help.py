"""The Help menu: the user guide (F1; its Getting started page builds README's arm), the keyboard
shortcuts (read from the window's own actions, so the list is never out of date) and About
(version and the licences of the libraries KineTree ships with); and the hint an empty robot shows."""

from __future__ import annotations

import html
import platform
from importlib import metadata
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRect, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout

from ..window.features import At, Feature, MenuId
from .guide import show_guide

if TYPE_CHECKING:
    from ..window.main_window import MainWindow

#: The libraries a KineTree install brings, with their licences (as their projects state them).
LIBRARIES = (("numpy", "BSD-3-Clause"), ("PySide6-Essentials", "LGPL-3.0"), ("pyqtgraph", "MIT"),
             ("PyOpenGL", "BSD-3-Clause"), ("sympy", "BSD-3-Clause"), ("yourdfpy", "MIT"),
             ("trimesh", "MIT"), ("pycollada", "BSD-3-Clause"), ("lxml", "BSD-3-Clause"),
             ("PyYAML", "MIT"), ("fast-simplification", "MIT"), ("imageio", "BSD-2-Clause"),
             ("platformdirs", "MIT"))

EMPTY_HINT = ("An empty robot: Ctrl+Shift+A adds a body, File ▸ New from library opens a robot,\n"
              "or drop a URDF, project or DH table here.  Help ▸ Getting started.")


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def shortcuts_html(window) -> str:
    """Every action of the window that has a key, by menu, as an HTML table."""
    rows = []
    for top in window.menus.bar():
        stack = [(top.title().replace("&", ""), top)]
        while stack:
            title, menu = stack.pop(0)
            for a in menu.actions():
                if a.menu() is not None:
                    stack.append((f"{title} ▸ {a.text().replace('&', '')}", a.menu()))
                elif not a.shortcut().isEmpty():
                    keys = a.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
                    rows.append((title, a.text().replace("&", ""), keys))
    extra = (("Viewport", "Select the body under the cursor", "click"),
             ("Viewport", "Step through frames that coincide", "click again"),
             ("Viewport", "Clear the selection; cancel a drag", "Esc"),
             ("Viewport", "Drag freely (no snapping)", "Ctrl while dragging"))
    body = "".join(f"<tr><td>{html.escape(m)}</td><td>{html.escape(t)}</td><td><b>{html.escape(k)}</b></td></tr>"
                   for m, t, k in [*rows, *extra])
    return f"<h2>Keyboard shortcuts</h2><table cellpadding='4'>{body}</table>"


def about_html() -> str:
    libs = "".join(f"<tr><td>{html.escape(n)}</td><td>{html.escape(_version(n))}</td><td>{lic}</td></tr>"
                   for n, lic in LIBRARIES)
    return (f"<h2>KineTree {html.escape(_version('kinetree'))}</h2>"
            "<p>Build robot arms and other kinematic trees visually. MIT licence.</p>"
            f"<p>Python {platform.python_version()}</p>"
            f"<h3>Libraries</h3><table cellpadding='3'>{libs}</table>")


def show_text(window, title: str, text: str) -> QDialog:
    """A non-modal window showing ``text`` (HTML); Esc or Close closes it."""
    dialog = QDialog(window)
    dialog.setWindowTitle(title)
    dialog.setObjectName(f"help{title.replace(' ', '')}")
    browser = QTextBrowser(dialog)
    browser.setHtml(text)
    browser.setOpenExternalLinks(False)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(browser)
    layout.addWidget(buttons)
    dialog.resize(min(760, window.width()), min(620, window.height()))
    dialog.show()
    return dialog


def install_help(window: MainWindow) -> dict[str, QAction]:
    """Help ▸ User guide (F1), Getting started (the guide's page), Keyboard shortcuts, About;
    and the empty robot's hint."""
    actions = {}
    for key, text, page in (("guide", "&User guide", "index.md"), ("start", "&Getting started", "getting-started.md")):
        a = QAction(text, window)
        a.setObjectName(f"help_{key}")
        a.triggered.connect(lambda _=False, p=page: show_guide(window, p))
        actions[key] = a
    actions["guide"].setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
    for key, text, make in (("keys", "&Keyboard shortcuts", lambda: shortcuts_html(window)),
                            ("about", "&About KineTree", about_html)):
        a = QAction(text, window)
        a.setObjectName(f"help_{key}")
        a.triggered.connect(lambda _=False, t=text.replace("&", ""), m=make: show_text(window, t, m()))
        actions[key] = a
    _install_empty_hint(window)
    window.help_actions = actions
    return actions


def _install_empty_hint(window: MainWindow) -> None:
    view = window.viewport
    hint = QLabel(EMPTY_HINT, view)
    hint.setObjectName("emptyHint")
    hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
    hint.setWordWrap(True)
    hint.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    hint.setStyleSheet("QLabel { color: #d8dce4; background: rgb(20, 24, 32); padding: 12px; }")
    view.add_overlay(hint)

    def place(*_args) -> None:
        hint.setVisible(not window.doc.tree.body_names)
        # as wide as its lines, or the view: then wrapped, never cut (a 1280×800 window cut it)
        pad = 2 * 12 + 4  # the style sheet's padding, and a little
        lines = hint.fontMetrics().boundingRect(QRect(0, 0, 10_000, 10_000), 0, EMPTY_HINT)
        width = min(lines.width() + pad, max(view.width() - 16, 120))
        text = hint.fontMetrics().boundingRect(QRect(0, 0, width - pad, 10_000), Qt.TextFlag.TextWordWrap, EMPTY_HINT)
        hint.setFixedSize(width, text.height() + pad)
        hint.move(max(0, (view.width() - hint.width()) // 2), max(0, view.height() // 3 - hint.height() // 2))

    window.doc.treeChanged.connect(place)
    view.installEventFilter(_Resize(view, place))
    place()


class _Resize(QObject):
    """Calls back when the watched widget is resized (the hint stays centred)."""

    def __init__(self, parent, callback) -> None:
        super().__init__(parent)
        self._callback = callback

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Resize:
            self._callback()
        return False


FEATURE = Feature("help", install_help, actions={
    f"help_{key}": At(MenuId.HELP, "help", k) for k, key in enumerate(("guide", "start", "keys", "about"))})
