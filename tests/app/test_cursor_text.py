"""The amount of a frame drag, and a number typed after it, shown beside the cursor inside the
viewport (drawn with the labels' sprites), gone when the gesture ends."""

from __future__ import annotations

import numpy as np
from helpers.gui import fore_x_arrow
from kinetree.app.widgets.text_style import plate_rgba
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def test_the_dragged_amount_is_drawn_beside_the_cursor_then_a_typed_number(make_window, qtbot):
    win, T0, start, end = fore_x_arrow(make_window, qtbot)
    vp, doc = win.viewport, win.doc
    readout = vp.frame_handle.readout
    QTest.mousePress(vp, LEFT, NONE, start)
    QTest.mouseMove(vp, end)
    img = vp.grabFramebuffer()
    moved = (doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0]  # the document follows at the first move
    assert readout.text == f"+{1000 * moved:.1f} mm" and moved > 0.02
    r = readout._placed[2].rect
    # beside the cursor, kept inside the view
    assert r.left() == min(end.x() + 16, vp.width() - r.width() - 2) and r.top() == end.y() + 16
    c = img.pixelColor(int(r.left()) + 3, int(r.bottom()) - 2)  # the plate (a corner clear of the text)
    assert np.allclose([c.redF(), c.greenF(), c.blueF()], plate_rgba("dark")[:3], atol=0.12)
    assert max(img.pixelColor(x, y).lightness() for x in range(int(r.left()), int(r.right()))
               for y in range(int(r.top()), int(r.bottom()))) > 200  # the text
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert readout.text == ""  # the drag ended
    QTest.keyClicks(vp, "0.25")
    assert readout.text == "0.25 ⏎"
    QTest.keyClick(vp, Qt.Key.Key_Return)
    assert readout.text == ""
    assert np.isclose((doc.pose_of("fore")[:3, 3] - T0[:3, 3]) @ T0[:3, 0], 0.25)  # the typed amount, exactly
