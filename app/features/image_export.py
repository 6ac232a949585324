"""File ▸ Export image: the viewport rendered at a size the user picks, saved as a PNG
atomically (:func:`kinetree.app.widgets.safe_output.save_png`): a failed write leaves the old file and
says why in a message box."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QInputDialog

from ..widgets.safe_output import save_png


def export_image(window) -> None:
    """Ask for a size and a file, then write the PNG (a message on a bad size or a write error)."""
    size, ok = QInputDialog.getText(window, "Export image", "Size (W×H):", text="1920x1080")
    if not ok:
        return
    try:
        w, h = (int(v) for v in size.lower().replace("×", "x").split("x"))
        if not (16 <= w <= 8192 and 16 <= h <= 8192):
            raise ValueError
    except ValueError:
        window.show_error("Export image", f"{size!r} is not a size like 1920x1080 (16…8192 pixels)")
        return
    path, _ = QFileDialog.getSaveFileName(window, "Export image", "robot.png", "PNG image (*.png)")
    if not path:
        return
    try:
        save_png(window.viewport.render_image(w, h), path)
    except OSError as exc:  # our message names the file; the system's reason follows it
        window.show_error("Export image", exc.strerror or str(exc))
