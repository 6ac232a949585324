"""Labels as the GPU draws them (atlas sprites) and the all-at-once placement of the labels that
do not search: the same labels in the same places as one by one, drawn where they were placed."""

from __future__ import annotations

import numpy as np
from helpers.arm import arm_window
from helpers.gui import along, fore_x_arrow, key
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.app.viewport import label_sprites
from kinetree.app.viewport.label_layout import LabelLayout
from kinetree.app.widgets.text_style import plate_rgba
from PySide6.QtCore import QRectF, Qt
from PySide6.QtTest import QTest

rect = st.tuples(st.floats(-50, 600), st.floats(-50, 400), st.floats(4, 120), st.floats(4, 30))


@settings(max_examples=60, deadline=None)
@given(before=st.lists(rect, max_size=12), batch=st.lists(rect, max_size=60))
def test_place_usual_takes_what_one_by_one_would(before, batch):
    def layout():
        out = LabelLayout()
        out.begin(640, 480, obstacles=[QRectF(0, 0, 90, 30)])
        for x, y, w, h in before:  # what other label items placed earlier in the frame
            out._add(x, y, x + w, y + h)
        return out

    rects = np.array([(x, y, x + w, y + h) for x, y, w, h in batch]).reshape(-1, 4)
    one_by_one = layout()
    expected = []
    for r in rects:
        free = one_by_one.is_free(*r)
        if free:
            one_by_one._add(*r)
        expected.append(free)
    together = layout()
    np.testing.assert_array_equal(together.place_usual(rects), expected)
    for x, y, w, h in [(0, 0, 640, 480), (300, 200, 20, 10), (-40, -40, 30, 30)]:  # later labels see them
        assert together.is_free(x, y, x + w, y + h) == one_by_one.is_free(x, y, x + w, y + h)


def test_labels_are_drawn_on_their_plates_where_they_were_placed(window, qtbot):
    window.resize(1280, 800)
    window.doc.open("puma560")
    window.doc.select("link3")
    vp = window.viewport
    vp.fit()
    img = vp.grabFramebuffer()
    drawn = dict(vp.labels.drawn)
    assert {"link3", "link6"} <= set(drawn)  # the selected body and the end effector
    plate = np.array(plate_rgba("dark"))
    for text in ("link3", "link6"):
        r = drawn[text]
        # a plate corner's pixel, inside the rounding and clear of the text: the plate over the scene
        c = img.pixelColor(int(r.left() + 4), int(r.bottom() - 2))
        assert np.allclose([c.redF(), c.greenF(), c.blueF()], plate[:3], atol=0.12), (text, c.getRgb())
        # the text: bright pixels on the dark plate
        values = [img.pixelColor(x, y).lightness() for x in range(int(r.left()), int(r.right()))
                  for y in range(int(r.top()), int(r.bottom()))]
        assert max(values) > 200, text
    slots = len(label_sprites._atlas.slots)
    vp.grabFramebuffer()  # the same labels again: drawn from the atlas, nothing painted anew
    assert len(label_sprites._atlas.slots) == slots


def test_during_a_frame_drag_the_labels_that_stay_keep_their_places(make_window, qtbot):
    win = arm_window(make_window, [0.3, -0.5])
    vp, doc = win.viewport, win.doc
    doc.select("fore")
    vp.set_all_labels(True)
    key(qtbot, win, Qt.Key.Key_W)
    T0 = doc.pose_of("fore")
    start, end = along(vp, T0[:3, 3], T0[:3, 0], 90)
    moving = {"fore", *doc.tree.descendants("fore")}

    def drawn() -> dict[str, tuple]:
        vp.grabFramebuffer()
        letters.append(vp.camera.letters.drawn)
        return {text: (r.left(), r.top(), r.right(), r.bottom(), r) for text, r in vp.labels.drawn}

    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    frames, letters = [], []
    for k in range(1, 7):
        QTest.mouseMove(vp, start + (end - start) * (k / 6))
        frames.append(drawn())
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    assert {t for t, _ in letters[0]} == {"x", "y", "z"}
    for frame in letters[1:]:  # the world's axis letters too: placed at the drag's first frame, kept
        assert [(t, id(r)) for t, r in frame] == [(t, id(r)) for t, r in letters[0]]
    first = frames[0]
    stay = [t for t in first if not moving & set(t.split(", "))]  # (coinciding frames share a label)
    moved = [t for t in first if moving & set(t.split(", "))]
    assert stay and moved
    for frame in frames:
        for t in stay:  # the labels that stay are where they were: kept, not placed again
            assert frame[t][4] is first[t][4], t
        rects = [r[:4] for r in frame.values()]
        for i, a in enumerate(rects):  # and nothing drawn overlaps
            for b in rects[:i]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    assert all(frames[-1][t][:4] != first[t][:4] for t in moved)  # the moving ones follow the drag
    assert vp.labels.moving is None and vp.camera.letters.moving is None  # released: laid out as usual again


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(st.floats(-300, 900), st.floats(-300, 700)), max_size=80), box=rect)
def test_the_crowd_grid_finds_every_point_in_a_rectangle(points, box):
    layout = LabelLayout()
    layout.begin(640, 480, crowd=np.array(points).reshape(-1, 2))
    x, y, w, h = box
    found = {tuple(p) for p in layout._crowd_in(x, y, x + w, y + h).tolist()}
    inside = {p for p in points if x <= p[0] <= x + w and y <= p[1] <= y + h}
    assert inside <= found <= set(points)


def test_a_label_wider_than_the_atlas_is_left_out_and_the_others_drawn(window, qtbot):
    from kinetree.app.viewport.label_layout import Placed
    from pyqtgraph.opengl.GLGraphicsItem import GLGraphicsItem
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QFont

    plate = plate_rgba("dark")
    wide = Placed("w" * 600, QRectF(-100, 300, 2 * label_sprites.ATLAS, 20), QPointF(0, 0), False,
                  (1.0, 1.0, 1.0, 1.0), plate, 3.0)
    ok = Placed("ok", QRectF(100, 100, 30, 20), QPointF(90, 130), True, (1.0, 1.0, 1.0, 1.0), plate, 3.0)

    class Painted(GLGraphicsItem):
        def paint(self):
            label_sprites.draw_sprites(self.view(), [wide, ok], QFont("DejaVu Sans", 10))

    window.resize(1280, 800)
    vp = window.viewport
    vp.addItem(Painted())
    img = vp.grabFramebuffer()
    assert max(img.pixelColor(x, y).lightness() for x in range(100, 130) for y in range(100, 120)) > 200  # "ok"
    corners = wide.quads[2][:, :2]
    assert (corners == corners[0]).all()  # the one that cannot fit: an empty quad, nothing drawn


def test_a_frame_draws_its_labels_in_one_call_and_the_cursor_text_from_a_ready_atlas(make_window, qtbot,
                                                                                      monkeypatch):
    win, _, start, end = fore_x_arrow(make_window, qtbot)
    vp = win.viewport
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    QTest.mouseMove(vp, start + (end - start) * 0.5)
    vp.grabFramebuffer()
    calls, uploads = [], []
    draw, upload = label_sprites._draw, label_sprites._Atlas.upload

    def counted(view, groups, early=()):
        calls.append([len(g[0]) for g in groups if g[0]])
        draw(view, groups, early)

    def recorded(atlas):
        uploads.append(tuple(atlas.dirty))
        upload(atlas)

    monkeypatch.setattr(label_sprites, "_draw", counted)
    monkeypatch.setattr(label_sprites._Atlas, "upload", recorded)
    label_sprites._atlas.clear()  # (shared by every view: earlier tests may have drawn this amount)
    QTest.mouseMove(vp, end)  # a new amount beside the cursor: a sprite the atlas does not have
    vp.grabFramebuffer()
    assert vp.frame_handle.readout.text and vp.camera.letters.drawn and vp.labels.drawn
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end)
    # the frame names and the world axis letters: one call; then the text over everything
    assert len(calls) == 2 and len(calls[0]) == 2 and calls[1] == [1], calls
    # the cursor's new sprite went into the atlas with the labels' upload, not after they were drawn
    assert len(uploads) == 2 and uploads[1][3] <= uploads[1][1], uploads
