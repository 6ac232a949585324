"""A short text beside the cursor (a frame drag's amount, a number being typed), drawn in the
viewport with the labels' sprites.

It was a tool tip: a window of its own, moved and repainted at every mouse move of a drag
(~3 ms a move under software GL) and exposing the viewport beneath it (extra frames).
"""

from __future__ import annotations

from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from ...widgets.text_style import full_size_subscripts, plate_rgba, readable
from ..label_layout import Placed, text_box
from ..label_sprites import draw_sprites, prepare_sprites


class CursorText(GLGraphicsItem):
    """One text at a pixel position of the view, over everything else."""

    screen_space = True  # laid out in the widget's pixels (offscreen images leave it out)

    def __init__(self, view, font: QFont | None = None) -> None:
        super().__init__()
        self.setDepthValue(1e9)  # drawn last
        self.font = font or QFont("DejaVu Sans", 11)
        self.text = ""
        self.at = (0.0, 0.0)
        self._placed: tuple | None = None  # (theme, size, Placed): kept while nothing changes
        view.addItem(self)

    def show_text(self, text: str, x: float, y: float) -> None:
        """Show ``text`` with its top-left corner at (x, y) (kept inside the view)."""
        if (text, (x, y)) != (self.text, self.at):
            self.text, self.at, self._placed = text, (x, y), None
            self._place()
            self.update()

    def hide_text(self) -> None:
        if self.text:
            self.text, self._placed = "", None
            self.update()

    def _place(self) -> Placed:
        view = self.view()
        theme = getattr(view, "theme", "dark")
        size = (view.width(), view.height())
        if self._placed is None or self._placed[:2] != (theme, size):
            w, h, pad = text_box(QFontMetricsF(self.font), self.text, full=full_size_subscripts(self.font))
            x = max(0.0, min(self.at[0], size[0] - w - 2))
            y = max(0.0, min(self.at[1], size[1] - h - 2))
            white = (1.0, 1.0, 1.0) if theme == "dark" else (0.0, 0.0, 0.0)
            p = Placed(self.text, QRectF(x, y, w, h), QPointF(x, y), False, (*readable(white, theme), 1.0),
                       plate_rgba(theme), pad)
            self._placed = (theme, size, p)
            # its sprite goes into the atlas before the frame's labels are drawn from it
            prepare_sprites(view, [p], self.font)
        return self._placed[2]

    def paint(self) -> None:
        if self.text:
            draw_sprites(self.view(), [self._place()], self.font)
