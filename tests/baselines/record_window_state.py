"""Record a window layout as a release saves it, for ``test_baselines.py``'s check that the
current app restores layouts of the previous release. Run with that release's ``kinetree`` on the
path (e.g. a worktree at the release's commit with its own editable install):

    QT_QPA_PLATFORM=offscreen python tests/baselines/record_window_state.py OUT.ini OUT.json

A user's changes are made first (the Joints dock moved to the bottom, the Pose dock closed, the
window resized), then the window saves its settings on close, as it does for a user."""

from __future__ import annotations

import json
import sys

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDockWidget

try:  # since the app moved into layered folders
    from kinetree.app.window.main_window import MainWindow
except ImportError:  # release 1e7d76a and before
    from kinetree.app.main_window import MainWindow


def main(ini: str, out: str) -> None:
    app = QApplication.instance() or QApplication([])
    w = MainWindow(settings=QSettings(ini, QSettings.Format.IniFormat))
    w.quiet = True
    w.resize(1280, 800)
    w.show()
    app.processEvents()
    docks = {d.objectName(): d for d in w.findChildren(QDockWidget)}
    w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["slidersDock"])
    docks["poseDock"].close()
    app.processEvents()
    expected = {name: {"area": int(w.dockWidgetArea(d).value), "visible": d.isVisible()}
                for name, d in sorted(docks.items())}
    w.close()
    app.processEvents()
    with open(out, "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
