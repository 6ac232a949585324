"""Present mode (F11): every text readable from the back of a hall, labels apart and in contrast,
the selected body emphasised, a presenter's clicker stepping the Explain dock."""

from __future__ import annotations

import colorsys

import numpy as np
import pytest
from helpers.legibility import unicode_scripts
from kinetree.app.viewport.labels import project_points, view_mvp
from kinetree.app.viewport.overlays.dh_overlay import GHOST_COLORS, GHOST_TEXT, NEUTRAL, X_COLOR, Z_COLOR
from kinetree.app.widgets.dh_colors import DH_COLORS
from kinetree.app.widgets.text_style import (
    MIN_CONTRAST,
    contrast,
    plate_rgba,
    readable,
    worst_contrast,
)
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QAction, QFontInfo, QScreen
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDockWidget,
    QLabel,
    QLineEdit,
    QToolButton,
    QTreeView,
    QWidget,
)

#: Stanford has no named poses: its q3 (prismatic) within its limits, the rest as Puma's
STANFORD = {"qz": [0, 0, 0.4, 0, 0, 0], "qn": [0, np.pi / 4, 0.5, 0, np.pi / 4, 0]}


@pytest.fixture
def hd(monkeypatch):
    """A 1920×1080 screen (pytest-xvfb's is 800×600)."""
    monkeypatch.setattr(QScreen, "geometry", lambda _s: QRect(0, 0, 1920, 1080))
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _s: QRect(0, 0, 1920, 1080))


@pytest.fixture
def lecture(make_window, qtbot, hd):
    """Puma at qn, the DH overlay on, link 5 selected, the Explain dock shown, the window active."""
    w = make_window()
    w.doc.open("puma560")
    w.doc.set_configuration(w.doc.tree.named_poses["qn"])
    w.findChild(QAction, "dhOverlayAction").trigger()
    w.findChild(QAction, "toggle_explainDock").trigger()
    qtbot.waitUntil(lambda: w.explain.active, timeout=2000)
    w.doc.select("link5")
    w.activateWindow()
    qtbot.waitActive(w)
    yield w
    if w.present.active:
        w.present.set_active(False)
    w.set_text_scale(1.0)


def press(widget, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    QTest.keyClick(widget, key, modifier)
    QApplication.processEvents()  # fonts propagate by posted events


def frame(window) -> None:
    """Draw the viewport (its labels are placed while painting; the overlay notices a new text
    size in one frame and is drawn at it in the next)."""
    window.viewport.grabFramebuffer()
    QApplication.processEvents()
    window.viewport.grabFramebuffer()


def drawn_rects(window) -> list:
    vp = window.viewport
    return [(t, r) for item in (vp.labels, vp.camera.letters, window.dh_overlay.text) for t, r in item.drawn]


def text_widgets(window):
    """Every visible widget of the window that shows text."""
    for w in window.findChildren(QWidget):
        if (isinstance(w, (QLabel, QAbstractButton, QLineEdit, QComboBox, QTreeView, QDockWidget)) and w.isVisible()
                and (not isinstance(w, QLabel) or w.text())):
            yield w


def test_f11_makes_every_text_at_least_24_px_and_f11_again_restores(lecture, qtbot):
    w = lecture
    base = QApplication.font().pointSizeF()
    assert min(QFontInfo(x.font()).pixelSize() for x in text_widgets(w)) < 24  # everyday: small
    press(w, Qt.Key.Key_F11)
    assert w.present.active and w.isFullScreen() and w.text_scale == pytest.approx(2.0)
    qtbot.waitUntil(lambda: QFontInfo(w.explain.partial_cells[0].font()).pixelSize() >= 24, timeout=2000)
    small = [(type(x).__name__, x.objectName(), QFontInfo(x.font()).pixelSize()) for x in text_widgets(w)
             if QFontInfo(x.font()).pixelSize() < 24]
    assert small == []
    for dock in w.findChildren(QDockWidget):  # its title is painted in its own font (not a class font)
        assert dock.font() != QApplication.font("QDockWidget")
    frame(w)
    vp = w.viewport
    for item in (vp.labels, vp.camera.letters, w.dh_overlay.text):
        assert QFontInfo(item.font).pixelSize() >= 24
    rects = drawn_rects(w)
    assert len(rects) > 10 and min(r.height() for _, r in rects) >= 24
    assert vp.triads.width == pytest.approx(6.0)  # lines too
    # Ctrl++ while presenting: Present mode's own factor, remembered apart from the everyday size
    press(w, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert w.text_scale == pytest.approx(2.5)
    assert float(w.settings.value("presentScale")) == pytest.approx(2.5)
    assert w.settings.value("textScale") in (None, 1.0, "1.0")
    press(w, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert w.text_scale == pytest.approx(2.0)
    press(w, Qt.Key.Key_F11)
    assert not w.present.active and not w.isFullScreen() and w.text_scale == pytest.approx(1.0)
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    qtbot.waitUntil(lambda: QFontInfo(w.explain.partial_cells[0].font()).pixelSize() < 24, timeout=2000)


def test_the_default_factor_follows_the_screen():
    from kinetree.app.features.present import default_scale

    assert default_scale(1080) == 2.0 and default_scale(800) == pytest.approx(1.5)
    assert default_scale(2160) == 3.0 and default_scale(480) == 1.0


def overlaps(rects) -> list:
    return [(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1:] if ra.intersects(rb)]


@pytest.mark.parametrize("present", [False, True], ids=["normal", "present"])
@pytest.mark.parametrize("robot,pose", [("puma560", "qn"), ("puma560", "qz"), ("stanford", "qn"),
                                        ("stanford", "qz")])
def test_wrist_labels_never_overlap(lecture, qtbot, robot, pose, present):
    w = lecture
    w.doc.open(robot)
    q = w.doc.tree.named_poses[pose] if robot == "puma560" else np.array(STANFORD[pose])
    w.doc.set_configuration(q)
    w.doc.select("link5")  # the wrist: θ5, α5 and the ghost by frames 4, 5 and 6
    if present:
        press(w, Qt.Key.Key_F11)
    w.viewport.fit()
    frame(w)
    rects = drawn_rects(w)
    assert overlaps(rects) == []
    texts = [t for t, _ in rects]
    # not by leaving them out: the selected link's values, the ghost's label and letters are drawn
    assert any(t.startswith("α₅ = ") for t in texts) and "frame 4" in texts
    assert {"x", "y", "z"} <= set(texts)
    assert len(w.viewport._label_layout.placed) >= len(rects)


def test_placing_pumas_labels_is_cheap(lecture, qtbot):
    w = lecture
    press(w, Qt.Key.Key_F11)
    seconds = []
    for _ in range(5):
        frame(w)
        seconds.append(w.viewport._label_layout.seconds)
    assert len(w.viewport._label_layout.placed) > 15
    # ~1 ms on an idle machine (the lecture hall's laptop); bounded loosely for a loaded CI
    assert min(seconds) < 0.02


def test_contrast_is_wcag():
    assert contrast((0, 0, 0), (1, 1, 1)) == pytest.approx(21.0)
    assert contrast((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)) == pytest.approx(1.0)
    assert contrast((0x77 / 255,) * 3, (1, 1, 1)) == pytest.approx(4.48, abs=0.01)  # the classic #777


def _hex(h: str) -> tuple[float, float, float]:
    return tuple(int(h[i:i + 2], 16) / 255 for i in (1, 3, 5))


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_label_colour_is_readable_and_keeps_its_hue(theme):
    colors = [*map(_hex, DH_COLORS.values()), X_COLOR, Z_COLOR, GHOST_TEXT, *GHOST_COLORS, NEUTRAL,
              (235 / 255,) * 3, (20 / 255,) * 3]
    for c in colors:
        r = readable(tuple(c[:3]), theme)
        assert worst_contrast(r, plate_rgba(theme)) >= MIN_CONTRAST
        h0, _, s0 = colorsys.rgb_to_hls(*c[:3])
        h1, _, s1 = colorsys.rgb_to_hls(*r)
        if s0 > 0.2:  # a colour stays its colour: θ pink, a teal, d violet, α gold
            assert min(abs(h0 - h1), 1 - abs(h0 - h1)) < 0.02


@pytest.mark.parametrize("light", [False, True], ids=["dark", "light"])
def test_every_drawn_label_has_contrast_on_its_plate(lecture, qtbot, light):
    w = lecture
    if light:
        press(w.viewport, Qt.Key.Key_B)  # View ▸ Light background
        assert w.viewport.theme == "light"
    press(w, Qt.Key.Key_PageDown)  # the ghost on its way: its label and letters drawn
    qtbot.waitSignal(w.explain.motionFinished, timeout=20000)
    frame(w)
    placed = w.viewport._label_layout.placed
    assert {"x", "y", "z", "θ₅ = 45°"} <= {p.text for p in placed}
    low = [(p.text, round(worst_contrast(p.color[:3], p.plate), 2)) for p in placed
           if worst_contrast(p.color[:3], p.plate) < MIN_CONTRAST]
    assert low == []
    assert {p.plate for p in placed} == {plate_rgba(w.viewport.theme)}


def test_present_mode_emphasises_the_selected_body(lecture, qtbot):
    w = lecture
    vp = w.viewport
    assert not (vp.batch._tint < 0).any()
    press(w, Qt.Key.Key_F11)
    slot = vp._slots["link5"]
    dimmed = np.flatnonzero(vp.batch._tint < 0)
    assert slot not in dimmed and set(dimmed) == {s for n, s in vp._slots.items() if n != "link5"}
    alpha = vp.links.color[:, 3]
    k = w.doc.tree.body_names.index("link5")
    assert (alpha[2 * k:2 * k + 2] == 1).all() and (np.delete(alpha, [2 * k, 2 * k + 1]) < 0.5).all()
    w.bodies.view.setFocus()
    w.doc.select("link2")  # follows the selection
    assert vp._slots["link2"] not in np.flatnonzero(vp.batch._tint < 0)
    press(w, Qt.Key.Key_F11)
    assert not (vp.batch._tint < 0).any()


def test_clicker_keys_step_from_anywhere_but_text_fields(lecture, qtbot):
    w = lecture
    panel = w.explain
    tree_view = w.bodies.view
    tree_view.setFocus()
    with qtbot.waitSignal(panel.motionFinished, timeout=20000):
        press(tree_view, Qt.Key.Key_PageDown)
    assert panel.position == 1 and panel.status.text() == "step 1 of 4"
    w.viewport.setFocus()
    with qtbot.waitSignal(panel.motionFinished, timeout=20000):
        press(w.viewport, Qt.Key.Key_Right)
    assert panel.position == 2
    with qtbot.waitSignal(panel.motionFinished, timeout=20000):
        press(w.viewport, Qt.Key.Key_PageUp)
    assert panel.position == 1
    with qtbot.waitSignal(panel.motionFinished, timeout=20000):
        press(w.viewport, Qt.Key.Key_Left)
    assert panel.position == 0
    # a text field keeps its keys: the cursor moves, the ghost does not
    field = w.joint.findChild(QLineEdit)
    field.setFocus()
    field.setCursorPosition(0)
    press(field, Qt.Key.Key_Right)
    assert field.cursorPosition() == 1 and panel.target == 0 and not panel.timer.isActive()
    w.viewport.setFocus()
    press(w.viewport, Qt.Key.Key_Space)  # Play, as the button
    assert panel.play_button.isChecked()
    qtbot.waitUntil(lambda: not panel.play_button.isChecked(), timeout=10000)
    assert panel.position == 4


def test_step_clicks_during_a_motion_are_queued(lecture, qtbot):
    panel = lecture.explain
    step = panel.step_button
    qtbot.mouseClick(step, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.position >= 0.4, timeout=5000)  # ~0.3 s into the 0.7-s motion
    qtbot.mouseClick(step, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.position >= 1.4, timeout=5000)
    assert panel.timer.isActive()
    with qtbot.waitSignal(panel.motionFinished, timeout=8000):
        qtbot.mouseClick(step, Qt.MouseButton.LeftButton)
    assert panel.position == 3 and panel.status.text() == "step 3 of 4"


def test_the_ghost_has_letters_is_drawn_on_top_and_stays_in_view(lecture, qtbot):
    from OpenGL import GL
    from PySide6.QtGui import QVector3D

    w = lecture
    vp, overlay = w.viewport, w.dh_overlay
    G = w.teach.ghost
    letters = {t: p for p, t, _ in overlay.text.texts if t in "xyz"}
    s = 2.5 * vp._scale
    for k, name in enumerate("xyz"):
        assert np.allclose(letters[name], G[:3, 3] + s * G[:3, k])
    # drawn without the depth test, after the meshes: over the links, not hidden in them
    assert overlay.ghost.visible() and overlay.ghost._GLGraphicsItem__glOpts[GL.GL_DEPTH_TEST] is False
    assert overlay.ghost.depthValue() > max(it.depthValue() for it in (vp.batch, vp.links))
    # the camera looks away: a step brings the ghost back into the view
    vp.setCameraPosition(pos=QVector3D(0.0, 0.0, 3.0), distance=1.0, elevation=0, azimuth=0)  # 2.6 m above it
    px, front = project_points(view_mvp(vp), w.ghost_follow.points(), vp.width(), vp.height())
    assert (px[:, 1] > vp.height()).all()  # out of the view
    with qtbot.waitSignal(w.explain.motionFinished, timeout=20000):
        press(w, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: w.ghost_follow.moves > 0 and not w.ghost_follow.timer.isActive(), timeout=20000)
    px, front = project_points(view_mvp(vp), w.ghost_follow.points(), vp.width(), vp.height())
    assert front.all() and (px >= 0).all() and (px[:, 0] <= vp.width()).all() and (px[:, 1] <= vp.height()).all()


# --- the lecture walk with a clicker (issue 31) ------------------------------------------------------

def numbers(text: str) -> np.ndarray:
    return np.array([float(v) for v in text.split()])


def clicker(qtbot, key) -> None:
    """``key`` as a clicker sends it: to whatever widget has the focus."""
    target = QApplication.focusWidget()
    assert target is not None
    QTest.keyClick(target, key)
    QApplication.processEvents()


def focus_slider(w, qtbot):
    """Click the first joint slider on its handle (focus, no move)."""
    from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider

    slider = w.sliders.findChildren(QSlider)[0]
    opt = QStyleOptionSlider()
    slider.initStyleOption(opt)
    handle = slider.style().subControlRect(QStyle.ComplexControl.CC_Slider, opt, QStyle.SubControl.SC_SliderHandle,
                                           slider)
    qtbot.mouseClick(slider, Qt.MouseButton.LeftButton, pos=handle.center())
    assert QApplication.focusWidget() is slider
    return slider


@pytest.fixture
def presenting(make_window, qtbot, hd, monkeypatch):
    """A window in Present mode (the Explain dock hidden), motions shortened (the keys are under test)."""
    from kinetree.app.panels import explain

    monkeypatch.setattr(explain, "STEP_MS", 30)
    w = make_window()
    w.activateWindow()
    qtbot.waitActive(w)

    def start(robot: str, q) -> object:
        w.doc.open(robot)
        w.doc.set_configuration(np.asarray(q, dtype=float))
        if not w.teach.show_all:
            w.findChild(QAction, "dhOverlayAction").trigger()  # every link's DH frames, but during the walk
        w.findChild(QAction, "presentAction").trigger()
        assert w.present.active and not w.explain_dock.isVisible()
        w.activateWindow()
        qtbot.waitActive(w)
        focus_slider(w, qtbot)
        return w

    yield start
    if w.present.active:
        w.present.set_active(False)
    w.set_text_scale(1.0)


def drawn_entries(block) -> list:
    """A symbolic matrix's entries as its cells draw them, as text (in Present mode rich text, its
    subscripts full-size digits lowered: read as Unicode subscripts)."""
    from PySide6.QtGui import QTextDocument

    def text(cell) -> str:
        if cell.textFormat() == Qt.TextFormat.PlainText:
            return cell.text()
        doc = QTextDocument()
        doc.setHtml(unicode_scripts(cell.text()))
        return doc.toPlainText()

    return [[text(block.cells[r][c]) for c in range(4)] for r in range(4)]


def test_the_walk_prints_symbolic_entries_as_the_lecture_does(presenting, qtbot):
    """Issue 31: outside Present mode the dock printed A₂ of the lecture's two-link arm as the
    lecture does (a₂c₂), in the walk still `a2*c2` (its Unicode subscripts were 10 px tall at the
    lecture's text size). Now the walk prints the lecture's text, the subscripts full-size digits
    lowered within rows as high as before (each glyph 18 px tall: test_legibility.py measures it)."""
    from PySide6.QtGui import QFontMetricsF

    A2 = [["c₂", "−s₂", "0", "a₂c₂"], ["s₂", "c₂", "0", "a₂s₂"], ["0", "0", "1", "0"], ["0", "0", "0", "1"]]
    w = presenting("two_link_planar", [0.3, 0.7])
    panel = w.explain
    clicker(qtbot, Qt.Key.Key_PageDown)  # the walk begins: the DH table
    for _ in range(5):  # A₁'s four steps, into A₂
        with qtbot.waitSignal(panel.motionFinished, timeout=20000):
            clicker(qtbot, Qt.Key.Key_PageDown)
    qtbot.waitUntil(lambda: not panel.symbolic.busy, timeout=30000)
    block = panel.symbolic.A
    assert panel.walk_link() == 2 and block.isVisible()
    assert block.entries == A2 and drawn_entries(block) == A2  # (was a2*c2)
    line = QFontMetricsF(block.cells[0][0].font()).lineSpacing()
    rows = [block.cells[r][0].sizeHint().height() for r in range(4)]
    assert max(rows) - min(rows) <= 1 and max(rows) <= line + 2, (rows, line)  # even, one text line high


LECTURE = [("puma560", [0.3, 0.7, -0.4, 0.5, 0.6, -0.2]), ("stanford_lecture", [0.3, 0.7, 0.4, 0.5, 0.6, -0.2])]


@pytest.mark.parametrize("robot,q", LECTURE, ids=[r for r, _ in LECTURE])
def test_a_clicker_walks_the_lecture_from_a1_to_an_whatever_has_the_focus(presenting, qtbot, robot, q):
    from kinetree.app.panels.explain_symbolic import lecture_entry
    from kinetree.core.teach.symbolic import symbolic_model, to_text

    w = presenting(robot, q)
    panel, tree = w.explain, w.doc.tree
    q0, theme = w.doc.configuration.copy(), w.viewport.theme
    light = next(a for a in w.findChildren(QAction) if a.text() == "Light &background")

    def unchanged() -> None:  # no clicker key reached a joint, a slider or the theme
        assert np.array_equal(w.doc.configuration, q0) and w.viewport.theme == theme and not light.isChecked()

    cells = drawn_entries

    clicker(qtbot, Qt.Key.Key_PageDown)  # the walk begins: the DH table
    unchanged()
    assert w.explain_dock.isVisible() and panel.walking and panel.position == 0
    assert panel.walk_link() == 0 and w.doc.selection is None and "DH table" in panel.formula.text()
    assert w.teach.show_all
    n = panel.chain.count
    assert n == 6 and panel.step_count() == 4 * n
    keys = [Qt.Key.Key_PageDown, Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_Space]
    for k in range(1, 4 * n + 1):
        with qtbot.waitSignal(panel.motionFinished, timeout=20000):
            clicker(qtbot, keys[k % len(keys)])
        i = (k + 3) // 4
        body = panel.chain.bodies[i - 1]
        assert panel.position == k and panel.walk_link() == i
        assert w.doc.selection == body and w.dh_overlay.link == i and not w.teach.show_all  # link i alone
        dimmed = set(np.flatnonzero(w.viewport.batch._tint < 0))
        assert dimmed == {s for b, s in w.viewport._slots.items() if b != body}
        assert f"A{'₁₂₃₄₅₆'[i - 1]}" in unicode_scripts(panel.formula.text())  # (drawn full size)
        qtbot.waitUntil(lambda: not panel.symbolic.busy, timeout=30000)  # the symbolic pane follows the step
        A = symbolic_model(tree, body, "symbolic", link=i, revolute="theta")  # the dock's default: θ_i
        assert cells(panel.symbolic.A) == [[lecture_entry(to_text(A.matrix[r, c], A.order[r][c])) for c in range(4)]
                                           for r in range(4)]
        if k % 4 == 0:  # A_i done: T_i⁰ = T_{i−1}⁰·A_i, symbolic and at the current q
            assert np.allclose(numbers(panel.partial_cells[3].text()).reshape(4, 4),
                               np.linalg.solve(tree.get_transform(q0, panel.chain.bodies[i - 2]) if i > 1
                                               else np.eye(4), tree.get_transform(q0, body)), atol=1e-3)
            assert np.allclose(numbers(panel.chain_cell.text()).reshape(4, 4),  # (3 digits: the column's width)
                               tree.get_transform(q0, body), atol=1e-3)
            T = symbolic_model(tree, body, "symbolic", revolute="theta")
            assert cells(panel.symbolic.T) == [[lecture_entry(to_text(T.matrix[r, c], T.order[r][c]))
                                                for c in range(4)] for r in range(4)]
        unchanged()
    assert panel.status.text() == f"step {4 * n} of {4 * n}"
    for key in (Qt.Key.Key_PageUp, Qt.Key.Key_Left, Qt.Key.Key_Up):  # back
        with qtbot.waitSignal(panel.motionFinished, timeout=20000):
            clicker(qtbot, key)
    assert panel.position == 4 * n - 3 and w.doc.selection == panel.chain.bodies[n - 1]
    clicker(qtbot, Qt.Key.Key_Home)
    assert panel.position == 0 and w.doc.selection is None and w.teach.show_all
    clicker(qtbot, Qt.Key.Key_End)
    assert panel.position == 4 * n and w.doc.selection == panel.chain.bodies[n - 1]
    unchanged()


def test_clicker_keys_pressed_before_the_dock_is_shown_are_all_walked(presenting, qtbot):
    """Issue 31: keys pressed right after the one that begins the walk (before the Explain dock,
    shown by it, had reported itself visible) were walked, then the dock's late reload reset the
    walk to the DH table."""
    w = presenting("puma560", [0.3, 0.7, -0.4, 0.5, 0.6, -0.2])
    panel = w.explain
    for _ in range(4):  # the first begins the walk at the DH table, three steps on
        w.present.clicker("step")
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=20000)
    QApplication.processEvents()
    assert panel.position == panel.target == 3 and w.doc.selection == "link1"


def screen_colours(w) -> set:
    """The colours on a grid over the window as the screen shows it (the viewport's GL window too)."""
    img = w.screen().grabWindow(w.winId()).toImage()
    return {img.pixelColor(x, y).name() for x in range(4, img.width(), img.width() // 9)
            for y in range(4, img.height(), img.height() // 9)}


def test_b_blanks_the_screen_and_b_again_returns(presenting, qtbot):
    w = presenting("puma560", [0.3, 0.7, -0.4, 0.5, 0.6, -0.2])
    q0, theme = w.doc.configuration.copy(), w.viewport.theme
    frame(w)
    assert screen_colours(w) != {"#000000"}
    for key in (Qt.Key.Key_B, Qt.Key.Key_Period):
        clicker(qtbot, key)
        assert w.viewport.theme == theme  # B is not View ▸ Light background while presenting
        blank = w.findChild(QWidget, "presentBlank")
        assert blank is not None and blank.isVisible() and blank.geometry() == w.rect()
        qtbot.waitUntil(lambda: screen_colours(w) == {"#000000"}, timeout=2000)  # over the viewport too
        clicker(qtbot, key)
        assert not blank.isVisible()
    # the viewport's GL surface (a window of its own) given the key by the window system: the same
    QTest.keyClick(w.viewport.surface, Qt.Key.Key_B)
    assert w.present.blank.isVisible() and w.viewport.theme == theme
    QTest.keyClick(w.viewport.surface, Qt.Key.Key_B)
    assert not w.present.blank.isVisible()
    assert np.array_equal(w.doc.configuration, q0) and w.viewport.theme == theme
    # a text field keeps its typing keys (B types a B), the others still walk
    w.doc.select("link2")
    w.docks["jointDock"].show()
    field = w.joint.findChild(QLineEdit, "density")
    qtbot.waitUntil(field.isVisible, timeout=2000)
    field.setFocus()
    field.clear()
    assert QApplication.focusWidget() is field
    clicker(qtbot, Qt.Key.Key_B)
    assert field.text() == "b" and not w.present.blank.isVisible()
    clicker(qtbot, Qt.Key.Key_PageDown)
    assert w.explain.walking and field.text() == "b"
    # out of Present mode the keys are the widgets' own again: a focused slider steps its joint
    w.findChild(QAction, "presentAction").trigger()
    assert not w.present.active and not w.explain.walking
    focus_slider(w, qtbot)
    clicker(qtbot, Qt.Key.Key_PageDown)
    assert not np.array_equal(w.doc.configuration, q0)


def test_picking_a_link_during_the_walk_takes_the_walk_there(presenting, qtbot):
    w = presenting("puma560", [0.3, 0.7, -0.4, 0.5, 0.6, -0.2])
    panel = w.explain
    clicker(qtbot, Qt.Key.Key_PageDown)
    panel.combo.setCurrentIndex(2)
    panel.combo.activated.emit(2)  # link 3 in the Explain dock
    assert panel.walking and panel.step_count() == 24 and panel.position == 12 and panel.walk_link() == 3
    assert w.doc.selection == "link3"
    w.doc.select("link5")  # picked in the view
    assert panel.position == 20 and panel.walk_link() == 5 and w.doc.selection == "link5"
    with qtbot.waitSignal(panel.motionFinished, timeout=20000):
        clicker(qtbot, Qt.Key.Key_PageDown)
    assert panel.position == 21 and w.doc.selection == "link6"


def ink_height(image, background=None) -> int:
    """Rows of ``image`` (a QImage) holding a pixel unlike its top-left one (or ``background``): the
    height of the text drawn in it, in pixels."""
    a = np.frombuffer(image.convertToFormat(image.Format.Format_RGB32).constBits(), dtype=np.uint8)
    a = a.reshape(image.height(), image.bytesPerLine() // 4, 4)[:, :image.width(), :3].astype(int)
    bg = a[0, 0] if background is None else np.asarray(background)
    rows = np.flatnonzero((np.abs(a - bg).sum(axis=2) > 120).any(axis=1))
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def test_the_first_present_after_launch_scales_the_dh_header_too(make_window, qtbot, hd):
    """Issue 31: at the first F11 after opening a robot the DH table's column header stayed at 9 pt."""
    from PySide6.QtWidgets import QTableView

    w = make_window()
    w.resize(1920, 1080)
    w.doc.open("cylindrical_wrist")
    QApplication.processEvents()
    w.findChild(QAction, "presentAction").trigger()
    header = w.findChild(QTableView, "dhView").horizontalHeader()
    qtbot.waitUntil(lambda: QFontInfo(w.explain.partial_cells[0].font()).pixelSize() >= 24, timeout=2000)
    QApplication.processEvents()
    assert QFontInfo(header.font()).pixelSize() >= 24
    assert QFontInfo(w.findChild(QTableView, "dhView").verticalHeader().font()).pixelSize() >= 24
    assert QFontInfo(w.explain.chain_cell.font()).pixelSize() >= 24  # the matrices
    assert QFontInfo(w.viewport.labels.font).pixelSize() >= 24
    w.grab()  # painted at its size: the header's text is as tall as its font says
    grabbed = header.grab(QRect(0, 2, header.length(), header.height() - 4)).toImage()
    assert ink_height(grabbed) >= 18
    w.present.set_active(False)
    w.set_text_scale(1.0)


def present_at(make_window, qtbot, monkeypatch, size: tuple[int, int]):
    """A window presenting the cylindrical arm on a screen of ``size``, its settings the shared file."""
    from PySide6.QtCore import QSize

    monkeypatch.setattr(QScreen, "geometry", lambda _s: QRect(0, 0, *size))
    monkeypatch.setattr(QScreen, "availableGeometry", lambda _s: QRect(0, 0, *size))
    w = make_window()
    w.resize(*size)
    w.doc.open("cylindrical_wrist")
    w.doc.set_configuration(w.doc.tree.named_poses["reach"])
    w.findChild(QAction, "presentAction").trigger()
    qtbot.waitUntil(lambda: w.size() == QSize(*size), timeout=2000)
    return w


def test_a_factor_chosen_at_1080_is_not_reused_at_720_and_the_robot_is_framed(make_window, qtbot, monkeypatch):
    """Issue 31: the factor remembered from a 1080-line screen left a 650×260 view at 1280×720,
    the robot off-frame; the one proportional to the screen's height (1.35) drew 12-px digits there.
    The factor is chosen from the screen the window is on: its digits at least 18 px tall, never a
    factor chosen on another screen; the robot framed, and before and during the walk (the Explain
    dock a column) the view keeps 60 % of the screen each way, the Joints dock's controls all in it.
    Both windows share their settings file, as on one machine."""
    from kinetree.app.widgets.text_style import LEGIBLE_PX
    from PySide6.QtGui import QFontMetricsF

    for size in ((1920, 1080), (1280, 720)):
        w = present_at(make_window, qtbot, monkeypatch, size)
        if size == (1920, 1080):  # Ctrl++ at 1080: remembered for 1080-line screens
            w.set_text_scale(w.text_scale * 1.25)  # what View ▸ Larger text (Ctrl++) does
            assert w.text_scale == pytest.approx(2.5)
        else:
            assert w.text_scale < 2.5  # not the factor chosen at 1080
            digits = QFontMetricsF(QApplication.font(), w).tightBoundingRect("0123456789").height()
            font = QApplication.font()  # and no needlessly large text: 0.05 less draws them smaller
            font.setPointSizeF(font.pointSizeF() * (w.text_scale - 0.05) / w.text_scale)
            smaller = QFontMetricsF(font, w).tightBoundingRect("0123456789").height()
            assert digits >= LEGIBLE_PX > smaller
        vp = w.viewport
        for walk in (False, True):
            if walk:
                w.present.clicker("step")  # the walk: the Explain dock a column beside the view
                qtbot.waitUntil(lambda: w.explain_dock.isVisible() and abs(vp.width() - 0.62 * w.width()) < 40,  # noqa: B023
                                timeout=3000)
            # (at 720 lines the Joints dock's row of buttons and units, 623 px, left the view 651×424)
            qtbot.waitUntil(lambda: vp.width() >= 0.6 * w.width() and vp.height() >= 0.6 * w.height(),  # noqa: B023
                            timeout=2000)
            if not walk:  # the Joints dock's controls all there, whole and legible
                dock = w.docks["slidersDock"]
                area = QRect(dock.mapTo(w, dock.rect().topLeft()), dock.size())
                for control in (*w.sliders.findChildren(QToolButton, options=Qt.FindChildOption.FindDirectChildrenOnly),
                                w.sliders.angle_units, w.sliders.length_units, w.sliders.step):
                    assert control.isVisible(), control.objectName()
                    box = QRect(control.mapTo(w, control.rect().topLeft()), control.size())
                    assert area.contains(box), (control.objectName(), box, area)
                    assert QFontMetricsF(control.font(), control).tightBoundingRect("0123456789").height() >= LEGIBLE_PX
            QApplication.processEvents()
            points = np.vstack([np.zeros((1, 3)), w.doc.poses()[:, :3, 3]])
            px, front = project_points(view_mvp(vp), points, vp.width(), vp.height())
            assert front.all()
            assert (px >= 0).all() and (px[:, 0] <= vp.width()).all() and (px[:, 1] <= vp.height()).all(), px
        w.present.set_active(False)
        w.close()


def subscript_ink(font, text: str, subscript: str) -> int:
    """The height in pixels of ``subscript``'s glyphs as a label draws ``text`` (which ends with it)."""
    from kinetree.app.viewport.label_layout import draw_label_text, label_advance
    from kinetree.app.widgets.text_style import full_size_subscripts
    from PySide6.QtGui import QColor, QFontMetricsF, QImage, QPainter

    metrics = QFontMetricsF(font)
    full = full_size_subscripts(font)
    start = int(label_advance(metrics, text[:-len(subscript)], full)) + 1
    image = QImage(int(label_advance(metrics, text, full)) + 4, int(metrics.height()) + 4, QImage.Format.Format_RGB32)
    image.fill(QColor(0, 0, 0))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor(255, 255, 255))
    draw_label_text(painter, QPointF(1, 1), text)
    painter.end()
    return ink_height(image.copy(start, 0, image.width() - start, image.height()), (0, 0, 0))


def test_subscripts_are_as_tall_as_the_rest_in_present_mode(lecture, qtbot):
    """Issue 31: at 1080 lines the values read 20 px but frame subscripts 11 px (Unicode subscript
    digits are half height); presenting, every glyph of a label is at least 18 px tall."""
    from kinetree.app.widgets.text_style import LEGIBLE_PX

    w = lecture
    press(w, Qt.Key.Key_F11)
    frame(w)
    vp = w.viewport
    for font in (vp.labels.font, w.dh_overlay.text.font, vp.camera.letters.font):
        assert subscript_ink(font, "x₃₄", "₃₄") >= LEGIBLE_PX
        assert subscript_ink(font, "α₅", "₅") >= LEGIBLE_PX
    # and drawn so in the view: a DH value with a subscript, its plate as wide as the text drawn
    texts = [t for t, _ in drawn_rects(w)]
    assert any(t.startswith("α₅ = ") for t in texts)
    image = vp.grabFramebuffer()
    rect = next(r for t, r in w.dh_overlay.text.drawn if t.startswith("α₅ = "))
    dpr = image.devicePixelRatio()
    plate = image.copy(QRect(int(rect.left() * dpr), int(rect.top() * dpr), int(rect.width() * dpr),
                             int(rect.height() * dpr)))
    inside = plate.pixelColor(2, plate.height() // 2)  # the plate's padding, left of its text
    assert ink_height(plate, (inside.red(), inside.green(), inside.blue())) >= LEGIBLE_PX * dpr
    press(w, Qt.Key.Key_F11)  # everyday text keeps its Unicode subscripts (small text has no room)
    assert subscript_ink(vp.labels.font, "x₃₄", "₃₄") < LEGIBLE_PX


def test_the_wrists_coincident_frames_share_one_label_and_leaders_are_grey(lecture, qtbot):
    """Issue 31: the cylindrical arm's spherical wrist became a starburst of ~15 labels on leader
    lines coloured like axes. Axes that coincide get one label naming them all; leaders are grey."""
    w = lecture
    w.doc.open("cylindrical_wrist")
    w.doc.set_configuration(np.array([0, 0.5, 0.4, 0, 0, 0]))  # frames 3, 4, 5 at one point: x₃ = x₄ = x₅, z₃ = z₅
    if not w.teach.show_all:
        w.findChild(QAction, "dhOverlayAction").trigger()
    press(w, Qt.Key.Key_F11)
    w.viewport.fit()
    frame(w)
    texts = [t for t, _ in w.dh_overlay.text.drawn]
    assert "x₃,x₄,x₅" in texts and "z₃,z₅" in texts, [t for t in texts if t[0] in "xz"]
    names = [n for t in texts if not t.startswith(("a", "α", "d", "θ")) for n in t.split(",")]
    assert len(names) == len(set(names))  # each axis named once
    # every leader line drawn is neutral grey (an axis's red or blue read as one more axis)
    image = w.viewport.grabFramebuffer()
    dpr = image.devicePixelRatio()
    placed = w.viewport._label_layout.placed
    leaders = [p for p in placed if p.leader]
    assert leaders
    samples = 0
    for p in leaders:
        r = p.rect
        end = QPointF(min(max(p.anchor.x(), r.left()), r.right()), min(max(p.anchor.y(), r.top()), r.bottom()))
        for t in np.linspace(0.2, 0.8, 7):
            at = p.anchor + (end - p.anchor) * float(t)
            if any(q.rect.adjusted(-3, -3, 3, 3).contains(at) for q in placed):
                continue  # under another label's plate (drawn over leaders)
            c = image.pixelColor(int(at.x() * dpr), int(at.y() * dpr))
            samples += 1
            # grey over whatever is below it (at most 15 % of an axis's colour); an axis-coloured
            # leader has 150 or more between its channels
            assert max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue()) < 80, (p.text, c.getRgb())
    assert samples > 10


def test_a_walk_step_restyles_and_fills_only_what_the_column_shows(presenting, qtbot, monkeypatch):
    """Issue 31 (a walk step's latency): each refresh of a step set a style sheet on all four
    partial products (each restyles its label) and wrote the four factors and three partial
    products the walk's column does not show."""
    w = presenting("puma560", LECTURE[0][1])
    panel = w.explain
    clicker(qtbot, Qt.Key.Key_PageDown)  # the walk begins
    styled, written = [], []
    monkeypatch.setattr(QLabel, "setStyleSheet", lambda self, sheet: styled.append(self))
    real = QLabel.setText
    hidden = {*panel.factor_cells, *panel.factor_titles, *panel.partial_cells[:3], *panel.partial_titles[:3]}
    monkeypatch.setattr(QLabel, "setText", lambda self, text: (self in hidden and written.append(self),
                                                                  real(self, text)))
    for _ in range(6):  # into A₂
        with qtbot.waitSignal(panel.motionFinished, timeout=20000):
            clicker(qtbot, Qt.Key.Key_PageDown)
    assert panel.position == 6
    assert written == [] and len(styled) <= 4  # the highlight of Aᵢ at q: on with A₁ done, off with A₂ under way


def test_the_first_clicker_key_lays_the_walk_out_once_and_computes_nothing(presenting, qtbot):
    """Issue 31 (the first key took 127 ms to its frame, 300…600 ms on a loaded machine): the view
    was drawn three times at an intermediate size (the docks hidden, the Explain dock not yet given
    its share by ``resizeDocks`` two event-loop turns later), then resized again; and the key began
    the symbolic A₁ (importing sympy) on the worker, whose GIL slowed every event of the GUI thread;
    and the DH table, a word-wrapped label, was laid out again for each width the docks tried.
    Now the view is resized once, straight to its walk size, and drawn at that size only; A₁ was
    computed while Present mode was entered; the table is not wrapped."""
    from kinetree.app.features.present import WALK_SHARE
    from PySide6.QtCore import QEvent, QObject

    w = presenting("puma560", LECTURE[0][1])
    panel, vp = w.explain, w.viewport
    QApplication.processEvents()  # (entering Present mode begins A₁ once the window is laid out)
    qtbot.waitUntil(lambda: not panel.symbolic.busy, timeout=30000)
    drawn, resized = [], []
    vp.frameSwapped.connect(lambda: drawn.append(vp.size().toTuple()))

    class Resizes(QObject):
        def eventFilter(self, obj, ev) -> bool:  # noqa: N802
            if ev.type() == QEvent.Type.Resize:
                resized.append(ev.size().toTuple())
            return False

    spy = Resizes()
    vp.installEventFilter(spy)
    with qtbot.waitSignal(vp.frameSwapped, timeout=5000):
        clicker(qtbot, Qt.Key.Key_PageDown)  # the walk begins
    assert panel.walking and not panel.symbolic.busy  # A₁ (shown from step 1 on) found in the cache
    assert not panel.formula.wordWrap()  # the DH table: its height not measured for every width tried
    share = int(WALK_SHARE * w.width())
    qtbot.waitUntil(lambda: abs(w.explain_dock.width() - share) <= 2, timeout=3000)
    with qtbot.waitSignal(vp.frameSwapped, timeout=5000):
        vp.update()
    vp.removeEventFilter(spy)
    assert resized == [vp.size().toTuple()]
    assert set(drawn) == {vp.size().toTuple()}, drawn
    w.present.set_active(False)
    assert w.explain_dock.minimumWidth() < share // 2 and w.explain_dock.maximumWidth() > 2 * share  # free again


def test_the_first_clicker_key_fills_the_explain_dock_in_the_walk_only(presenting, qtbot, monkeypatch):
    """Issue 31 (the first key, 70 ms to its frame): the hidden Explain dock, shown by the key, first
    loaded its everyday contents (the link's four factors, partial products, A and T symbolic: 30 ms
    of the key's 37 before the layout), which the walk then replaced by its DH table at once. Now the
    walk begins before the dock shows: it is filled with the walk's first step only."""
    w = presenting("puma560", LECTURE[0][1])
    panel = w.explain
    assert not w.explain_dock.isVisible() and panel.stale  # (hidden: loaded when shown)
    filled = []
    real = panel._refresh
    monkeypatch.setattr(panel, "_refresh", lambda: (filled.append((panel.walking, panel.active)), real()))
    clicker(qtbot, Qt.Key.Key_PageDown)  # the walk begins
    assert panel.walking and panel.walk_link() == 0
    assert filled and all(walking for walking, active in filled if active), filled  # (was: out of the walk first)
