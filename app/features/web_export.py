"""File ▸ Export web page…: the robot at its configuration, seen as in the viewport, written as
one self-contained HTML file (:mod:`kinetree.core.io.web_page`, atomically); what the page
leaves out or decimates is said in the status bar, what it refuses in a message."""

from __future__ import annotations

from kinetree.core import KineTreeError
from kinetree.core.io.web_page import write_web_page
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog

from ..window.features import At, Feature, MenuId


def view_camera(view) -> dict:
    """The viewport's camera as the page takes it (pyqtgraph's opts: degrees, horizontal fov)."""
    o = view.opts
    c = o["center"]
    return {"center": [c.x(), c.y(), c.z()], "distance": float(o["distance"]), "elevation": float(o["elevation"]),
            "azimuth": float(o["azimuth"]), "fov": float(o["fov"])}


def export_web_page(window, path: str) -> list[str]:
    """Write ``window``'s robot to ``path``; the notes (meshes decimated or left out)."""
    doc = window.doc
    return write_web_page(doc.tree, path, doc.configuration, camera=view_camera(window.viewport))


def export_web_page_dialog(window) -> None:
    path, _ = QFileDialog.getSaveFileName(window, "Export web page", "robot.html", "Web page (*.html *.htm)")
    if not path:
        return
    try:
        notes = export_web_page(window, path)
    except (KineTreeError, OSError) as exc:  # a joint type or loop the page cannot show; a write error
        window.show_error("Export web page", str(exc))
        return
    window.statusBar().showMessage("; ".join([f"Exported the web page to {path}", *notes]), 15000)


def install_web_export(window) -> QAction:
    """File ▸ Export web page…, after Export image and Export animation."""
    action = QAction("Export &web page…", window)
    action.setObjectName("exportWebPageAction")
    action.setToolTip("Write the robot as one HTML file that opens in any browser: sliders, pose, frames, poses")
    action.triggered.connect(lambda: export_web_page_dialog(window))
    window.export_web_page_action = action
    return action


FEATURE = Feature("web_export", install_web_export, actions={
    "exportWebPageAction": At(MenuId.FILE, "export", 30)})
