"""Names from a file are shown as plain text (a red-team finding): Qt guesses that a string is
rich text in labels, message boxes, tooltips and ``QStaticText``, so a joint named
``<img src="/dev/zero">`` made the GUI read that file until memory ran out, and ``<b>`` or
``<font>`` in a name drew spoofed text.

The image names here point at a small real PNG (200×100, red): a regression loads that picture,
which the tests see (a label 100 px high, red pixels), instead of allocating gigabytes."""

from __future__ import annotations

import re
from xml.sax.saxutils import quoteattr

import pytest
from kinetree.app.viewport.label_layout import Placed, draw_label_text, paint_placed
from kinetree.core.io import export_robot, import_robot
from PySide6.QtCore import QModelIndex, QPointF, QRectF
from PySide6.QtGui import QAction, QColor, QImage, QPainter, Qt, QTextDocumentFragment
from PySide6.QtWidgets import QAbstractItemView, QLabel, QMessageBox, QWidget

BOLD = "<b>x</b>"
FONT = '<font color="red">q2</font>'
PICTURE_HEIGHT = 100


@pytest.fixture
def picture(tmp_path, monkeypatch) -> str:
    """A name that shows a 200×100 red picture when taken for rich text (a relative file name:
    short enough to be shown whole, not elided)."""
    monkeypatch.chdir(tmp_path)
    image = QImage(200, PICTURE_HEIGHT, QImage.Format.Format_RGB32)
    image.fill(QColor(255, 0, 0))
    assert image.save("p.png")
    return '<img src="p.png">'


def urdf(body: str, joint: str, joint2: str, parent: str = "base") -> str:
    limit = '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
    return (f'<robot name="hostile"><link name="base"/><link name={quoteattr(body)}/><link name="tip"/>'
            f'<joint name={quoteattr(joint)} type="revolute"><parent link={quoteattr(parent)}/>'
            f'<child link={quoteattr(body)}/>{limit}</joint>'
            f'<joint name={quoteattr(joint2)} type="revolute"><parent link={quoteattr(body)}/>'
            f'<child link="tip"/>{limit}</joint></robot>')


def shown_as_rich(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText) -> bool:
    return fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText and Qt.mightBeRichText(text))


def model_tips(view: QAbstractItemView) -> list[str]:
    """Every tooltip of ``view``'s model, its tree's children included."""
    model, tips, parents = view.model(), [], [QModelIndex()]
    while parents and model is not None:
        root = parents.pop()
        for r in range(model.rowCount(root)):
            for c in range(model.columnCount(root)):
                cell = model.index(r, c, root)
                tip = cell.data(Qt.ItemDataRole.ToolTipRole)
                if tip:
                    tips.append(str(tip))
            if model.rowCount(model.index(r, 0, root)):
                parents.append(model.index(r, 0, root))
    return tips


def rich_with_names(window, names: list[str]) -> list[str]:
    """Each label, tooltip or model tooltip of ``window`` that holds one of ``names`` as text Qt
    would take for rich text (the guard against a new label or tooltip showing a name raw)."""
    found = []
    for label in window.findChildren(QLabel):
        if any(n in label.text() for n in names) and shown_as_rich(label.text(), label.textFormat()):
            found.append(f"label {label.objectName() or label}: {label.text()!r}")
    tips = [(f"tooltip of {w.objectName() or w}", w.toolTip()) for w in window.findChildren(QWidget)]
    tips += [(f"tooltip of action {a.text()!r}", a.toolTip()) for a in window.findChildren(QAction)]
    for view in window.findChildren(QAbstractItemView):
        tips += [(f"item tooltip of {view.objectName() or view}", t) for t in model_tips(view)]
    found += [f"{where}: {tip!r}" for where, tip in tips if any(n in tip for n in names) and shown_as_rich(tip)]
    return found


@pytest.fixture(params=["urdf", "kinetree.json", "csv", "sdf", "mjcf"])
def hostile_window(request, make_window, tmp_path, picture):
    """A window with a robot whose body is named ``picture`` and whose joints are named
    ``BOLD`` and ``FONT``, read from a URDF, a project, a DH table, an SDF or an MJCF file
    (written from the URDF), the body selected."""
    path = tmp_path / "hostile.urdf"
    path.write_text(urdf(picture, BOLD, FONT))
    if request.param != "urdf":
        other = tmp_path / f"hostile.{request.param}"
        export_robot(import_robot(str(path)), str(other))
        path = other
    window = make_window()
    assert window.open_source(str(path), ask=False)
    window.doc.select(picture)
    return window


def test_the_joint_panel_title_shows_the_body_name_as_text(hostile_window, picture):
    title = hostile_window.joint.title
    assert title.text() == f"{picture}: revolute joint"
    assert title.textFormat() == Qt.TextFormat.PlainText
    assert title.sizeHint().height() < PICTURE_HEIGHT  # one line of text, no picture


def test_the_joints_dock_shows_joint_names_as_text(hostile_window):
    # a DH row's joint (from the csv) is labelled with the lecture's variable first: "θ₁ <b>x</b>"
    names = {re.sub(r"^[θd][₀-₉]+ ", "", row.name.text()): row.name for row in hostile_window.sliders.rows.values()}
    assert set(names) == {BOLD, FONT}
    for label in names.values():
        assert label.textFormat() == Qt.TextFormat.PlainText


def test_the_body_tree_shows_names_and_tooltips_as_text(hostile_window, picture):
    model = hostile_window.bodies.findChild(QAbstractItemView).model()
    rows, parents = {}, [QModelIndex()]
    while parents:  # display texts are plain in an item view; its tooltips are not
        root = parents.pop()
        for r in range(model.rowCount(root)):
            rows[model.index(r, 0, root).data()] = model.index(r, 1, root)
            parents.append(model.index(r, 0, root))
    assert rows[picture].data() == BOLD and rows["tip"].data() == FONT  # the joint column
    for body, name in ((picture, picture), ("tip", FONT)):
        tip = rows[body].data(Qt.ItemDataRole.ToolTipRole)
        assert name in QTextDocumentFragment.fromHtml(tip).toPlainText()
        assert name not in tip  # escaped in rich text


def test_no_label_or_tooltip_of_the_window_shows_a_name_as_rich_text(hostile_window, picture, qtbot):
    window = hostile_window
    for action in window.findChildren(QAction):  # every dock shown: some fill only when shown
        if action.objectName().startswith("toggle_") and not action.isChecked():
            action.trigger()
    qtbot.wait(100)
    for action in (window.bodies.delete_action, window.bodies.duplicate_action):
        assert picture in QTextDocumentFragment.fromHtml(action.toolTip()).toPlainText()
    assert rich_with_names(window, [BOLD, FONT, picture]) == []
    labels = [lab for lab in window.findChildren(QLabel) if any(n in lab.text() for n in (BOLD, FONT, picture))]
    assert len(labels) >= 3  # the guard saw the names: the title and two slider rows at least


def test_the_guard_sees_a_label_that_shows_a_name_as_rich_text(window):
    label = QLabel(f"Body {BOLD}", window)  # what every label showing a name did before
    assert rich_with_names(window, [BOLD])
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setToolTip(f"Delete {BOLD}")
    assert rich_with_names(window, [BOLD]) == [f"tooltip of {label}: 'Delete <b>x</b>'"]


def test_a_file_that_fails_to_open_names_the_joint_as_text(window, tmp_path, picture, monkeypatch):
    shown = []
    ok = QMessageBox.StandardButton.Ok
    # the static QMessageBox.warning guesses the format: recorded as such, never shown modally
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(
        lambda _parent, title, text, *a, **k: shown.append((title, text, Qt.TextFormat.AutoText)) or ok))
    monkeypatch.setattr(QMessageBox, "exec", lambda box: shown.append((box.windowTitle(), box.text(),
                                                                      box.textFormat())) or ok)
    window.quiet = False
    path = tmp_path / "<b>broken.urdf"
    path.write_text(urdf(picture, BOLD, FONT, parent="missing"))
    assert not window.open_source(str(path), ask=False)
    assert len(shown) == 1
    title, text, fmt = shown[0]
    assert title == "Cannot open" and BOLD in text
    assert fmt == Qt.TextFormat.PlainText


def test_labels_in_the_3d_view_draw_names_as_text(qapp, picture):
    image = QImage(400, 200, QImage.Format.Format_RGB32)
    image.fill(QColor(0, 0, 0))
    cache = {}
    painter = QPainter(image)
    paint_placed(painter, [Placed(picture, QRectF(0, 0, 400, 200), QPointF(0, 0), False, (1, 1, 1, 1),
                                  (0, 0, 0, 0), 2.0)], cache)
    painter.end()
    assert cache[picture].textFormat() == Qt.TextFormat.PlainText
    assert cache[picture].size().height() < PICTURE_HEIGHT
    red = sum(image.pixelColor(x, y) == QColor(255, 0, 0) for x in range(0, 400, 4) for y in range(0, 200, 4))
    assert red == 0  # the text drawn, not the picture
    cache = {}  # the DH overlay's names and values, and the sprites, are drawn by the same helper
    painter = QPainter(image)
    draw_label_text(painter, QPointF(0, 0), BOLD, cache)
    painter.end()
    assert cache[BOLD].textFormat() == Qt.TextFormat.PlainText


def test_the_torques_legend_shows_joint_names_as_text(window, qtbot):
    from helpers.panels import open_torques, puma_with_limits

    puma_with_limits(window, qtbot)
    assert window.doc.try_edit("Rename", lambda t: setattr(t.get_body("link2").joint, "name", BOLD)) is None
    open_torques(window, qtbot)
    shown = [label.item.toPlainText() for _sample, label in window.torques.legend.items]  # pyqtgraph: HTML
    assert f"{BOLD} (N·m)" in shown
