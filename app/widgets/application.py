"""The one QApplication, for the app's windows and the CLI's offscreen renders alike."""

from __future__ import annotations


def make_application(argv: list[str] | None = None):
    """The QApplication, created with shared GL contexts (pyqtgraph caches shader programs
    across viewports, so every viewport must be in one share group)."""
    from PySide6.QtCore import QCoreApplication, Qt
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        QCoreApplication.setAttribute(Qt.ApplicationAttribute.AA_ShareOpenGLContexts)
        app = QApplication(argv if argv is not None else [])
    return app
