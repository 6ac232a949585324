"""A frame drag is drawn ahead of the document (the moved subtree's poses, no tree rebuilt) and
the document gets the edit at a throttled rate and at release: what was drawn during the drag
must be exactly what the engine has after it, and the panels must not be rebuilt per mouse move."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.gui import LEFT, NONE, along, arrow_drag, drag, key, ring_start
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest


def drawn_then_kept(vp, doc, end: QPoint) -> None:
    """Release at ``end``: the engine's poses equal those drawn at the last move."""
    drawn = vp._poses.copy()
    QTest.mouseRelease(vp, LEFT, NONE, end)
    assert np.allclose(doc.poses(), drawn, atol=1e-12, rtol=0)
    assert np.allclose(vp._poses, doc.poses(), atol=1e-15, rtol=0)  # the document is drawn again
    assert doc.undo_stack.count() == 1


@pytest.mark.parametrize("cell", ["a", "d"])
def test_a_dh_arrow_drag_draws_what_the_engine_gets(puma_handle_window, cell):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    T0 = doc.poses().copy()
    end = arrow_drag(vp, cell, 45, release=False)
    assert not np.allclose(vp._poses, T0)  # drawn moving
    drawn_then_kept(vp, doc, end)


@pytest.mark.parametrize("cell", ["alpha", "theta"])
def test_a_dh_ring_drag_draws_what_the_engine_gets(puma_handle_window, qtbot, cell):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    key(qtbot, puma_handle_window, Qt.Key.Key_E)
    start = ring_start(vp, cell)
    drag(vp, start, start + QPoint(70, 0), release=False)
    drawn_then_kept(vp, doc, start + QPoint(70, 0))


@pytest.mark.parametrize("tool", [Qt.Key.Key_W, Qt.Key.Key_E])
def test_a_frame_drag_draws_what_the_engine_gets(fore_window, qtbot, tool):
    vp, doc = fore_window.viewport, fore_window.doc
    key(qtbot, fore_window, tool)
    T = doc.pose_of("fore")
    if tool == Qt.Key.Key_W:
        start, end = along(vp, T[:3, 3], T[:3, 0], 40)
    else:  # the ring about z, from its point lowest on the screen, sideways
        h = vp.frame_handle
        px = vp.project(h._ring(2))
        i = int(np.argmax(px[:, 1]))
        start = QPoint(int(round(px[i, 0])), int(round(px[i, 1])))
        end = start + QPoint(60, 0)
    drag(vp, start, end, release=False)
    assert not np.allclose(vp._poses, doc.poses()) or doc.undo_stack.count() == 1
    drawn_then_kept(vp, doc, end)


def test_many_mouse_moves_are_few_edits_and_the_last_amount_wins(puma_handle_window):
    vp, doc = puma_handle_window.viewport, puma_handle_window.doc
    edits = []
    doc.treeChanged.connect(edits.append)
    a0 = doc.tree.get_body("link3").joint.dh_parameters.a
    h = vp.frame_handle
    _, o, u = h.parts["a"]
    end = arrow_drag(vp, "a", 60, steps=30, release=False)
    during = len(edits)
    assert during < 10  # not one tree rebuilt (and every panel refreshed) per mouse move
    shown = h._grab["shown"]
    QTest.mouseRelease(vp, LEFT, NONE, end)
    grown = doc.tree.get_body("link3").joint.dh_parameters.a - a0
    assert shown == f"a +{grown * 1000:.1f} mm"  # the amount shown is the amount kept
    assert grown > 0.02 and doc.undo_stack.count() == 1
