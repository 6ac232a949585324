"""The scene rendered offscreen at any size (export, screenshots), its painted items and
labels drawn into the image as the widget draws them."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QFont, QImage, QPainter

from .label_layout import LabelLayout, begin_frame
from .labels import draw_labels, project_points, view_mvp


def render_image(view, width: int, height: int) -> QImage:
    """A QImage of ``view``'s scene at ``width`` × ``height``, with labels."""
    view.set_full_detail()
    # screen-space items are laid out for the widget, not for the offscreen tiles: the frame
    # names, and the items painted with a QPainter (the DH overlay's texts), are drawn into the
    # image below; the others (the axis letters, the text by the cursor) are left out
    hidden = [it for it in view.items if (getattr(it, "screen_space", False) or hasattr(it, "paint_image"))
              and it.visible()]
    painted = [it for it in hidden if hasattr(it, "paint_image")]
    for it in hidden:
        it.setVisible(False)
    try:
        arr = np.ascontiguousarray(view.renderToArray((width, height)))  # (h, w, 4) BGRA, top row first
    finally:
        for it in hidden:
            it.setVisible(True)
    img = QImage(arr.data, width, height, arr.strides[0], QImage.Format.Format_ARGB32).copy()
    layout = LabelLayout()  # the image's labels kept apart as the widget's are
    begin_frame(view, layout, view_mvp(view, (0, 0, width, height)), width, height)
    if painted:
        painter = QPainter(img)
        for it in painted:
            it.paint_image(painter, view_mvp(view, (0, 0, width, height)), width, height,
                           max(1.0, height / max(view.height(), 1)),
                           **({"layout": layout} if getattr(it, "uses_layout", False) else {}))
        painter.end()
    if view.show_labels and view.labels.texts:
        px, front = project_points(view_mvp(view, (0, 0, width, height)), view.labels.positions, width, height)
        font = QFont(view.labels.font)
        font.setPointSizeF(font.pointSizeF() * max(1.0, height / max(view.height(), 1)))
        painter = QPainter(img)
        draw_labels(painter, view.labels.texts, px, front, view.labels.color, font, view.labels.static_texts,
                    view.labels.order, layout=layout, theme=view.theme)
        painter.end()
    return img
