"""The viewport's line items (frames, links, axes, handles, grid) and dots (the handles' tips)
draw exactly what pyqtgraph's ``GLLinePlotItem`` and ``GLScatterPlotItem`` draw, with their
cheaper paint."""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.app.viewport.lines import DotsItem, GridItem, LineItem
from PySide6.QtCore import Qt
from test_frame_handle import key


def pixels(image) -> np.ndarray:
    image = image.convertToFormat(image.Format.Format_RGBA8888)
    return np.frombuffer(image.constBits(), dtype=np.uint8).reshape(image.height(), image.bytesPerLine()).copy()


def test_line_items_draw_what_pyqtgraph_draws(window, qtbot, monkeypatch):
    window.resize(1280, 800)
    window.doc.open("puma560")
    window.doc.select("link3")
    key(qtbot, window, Qt.Key.Key_W)  # the move handle's arrows too
    vp = window.viewport
    vp.fit()
    moved = LineItem(mode="line_strip", width=4, antialias=True, color=(1.0, 0.5, 0.0, 1.0))
    moved.setData(pos=np.array([[0.0, 0.0, 0.0], [0.3, 0.2, 0.1], [0.1, 0.4, 0.3]]))
    moved.translate(0.1, -0.2, 0.05)  # a transform of its own: not the frame's camera matrix alone
    vp.addItem(moved)
    assert isinstance(vp.grid, GridItem) and isinstance(vp.grid.lineplot, LineItem)
    lines = [it for it in vp.items if isinstance(it, LineItem) and it.visible() and it.pos is not None
             and len(it.pos)]
    assert len(lines) >= 5
    ours = pixels(vp.grabFramebuffer())
    monkeypatch.setattr(LineItem, "paint", gl.GLLinePlotItem.paint)
    theirs = pixels(vp.grabFramebuffer())
    np.testing.assert_array_equal(ours, theirs)
    vp.removeItem(moved)
    monkeypatch.undo()
    assert not np.array_equal(pixels(vp.grabFramebuffer()), ours)  # the added line showed


def test_dot_items_draw_what_pyqtgraph_draws(window, qtbot, monkeypatch):
    window.resize(1280, 800)
    window.doc.open("puma560")
    window.doc.select("link3")
    key(qtbot, window, Qt.Key.Key_W)  # a DH body: its arrows' tips are dots
    vp = window.viewport
    vp.fit()
    tips = vp.frame_handle.dh_tips
    assert isinstance(tips, DotsItem) and tips.visible() and len(tips.pos) >= 2
    one_colour = DotsItem(size=20, pxMode=True, color=(0.2, 0.9, 0.3, 1.0))
    one_colour.setData(pos=np.array([[0.2, 0.1, 0.3], [0.0, 0.3, 0.5]]))
    moved = DotsItem(pos=np.array([[0.0, 0.0, 0.4]]), size=np.array([25.0]), pxMode=True, color=(1.0, 0.0, 1.0, 1.0))
    moved.translate(0.1, -0.2, 0.05)  # a transform of its own: pyqtgraph's paint
    for item in (one_colour, moved):
        vp.addItem(item)
    ours = pixels(vp.grabFramebuffer())
    monkeypatch.setattr(DotsItem, "paint", gl.GLScatterPlotItem.paint)
    theirs = pixels(vp.grabFramebuffer())
    np.testing.assert_array_equal(ours, theirs)
    vp.removeItem(one_colour)
    monkeypatch.undo()
    assert not np.array_equal(pixels(vp.grabFramebuffer()), ours)  # the added dots showed
