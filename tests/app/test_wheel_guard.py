"""The mouse wheel changes a combo box, spin box or slider only when it has the focus (a wheel
turn over the Explain dock silently switched "constants as symbols" to "as numbers"); over an
unfocused one it scrolls what holds it."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QDialog, QDoubleSpinBox, QScrollArea, QSlider, QVBoxLayout


def wheel(widget, notches: int = -1) -> bool:
    """One wheel event of ``notches`` notches sent to ``widget``; whether it was accepted."""
    pos = QPointF(widget.rect().center())
    ev = QWheelEvent(pos, QPointF(widget.mapToGlobal(pos.toPoint())), QPoint(0, 0), QPoint(0, 120 * notches),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, ev)
    return ev.isAccepted()


def focus(qtbot, widget) -> None:
    widget.window().activateWindow()
    widget.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.waitUntil(widget.hasFocus, timeout=3000)


def test_wheel_over_the_explain_docks_unfocused_combo_changes_nothing(window, qtbot):
    window.doc.open("puma560")
    window.doc.select("link3")
    window.findChild(QAction, "toggle_explainDock").trigger()
    qtbot.waitUntil(lambda: window.explain.active, timeout=2000)
    params = window.explain.symbolic.params
    assert params.currentData() == "symbolic"
    for notches in (-1, 1, -1):
        wheel(params, notches)
    assert params.currentData() == "symbolic" and not params.hasFocus()
    assert params.focusPolicy() == Qt.FocusPolicy.StrongFocus  # a real wheel turn does not focus it
    focus(qtbot, params)  # clicked or tabbed to: the wheel is the user's choice
    wheel(params, -1)
    assert params.currentData() == "numeric"


def test_wheel_over_the_joints_docks_unfocused_spin_box_and_slider_changes_nothing(window, qtbot):
    window.doc.open("puma560")
    panel = window.sliders
    row = next(iter(panel.rows.values()))
    q = window.doc.configuration.copy()
    step = panel.step.value()
    wheel(panel.step, 1)
    wheel(row.slider, 1)
    wheel(row.spin, 1)
    assert panel.step.value() == step
    assert (window.doc.configuration == q).all()
    for widget in (panel.step, row.slider, row.spin):
        assert widget.focusPolicy() != Qt.FocusPolicy.WheelFocus
    focus(qtbot, panel.step)
    wheel(panel.step, 1)
    assert panel.step.value() == step + panel.step.singleStep()
    focus(qtbot, row.slider)
    wheel(row.slider, 1)
    assert (window.doc.configuration != q).any()


@pytest.mark.parametrize("kind", [QComboBox, QDoubleSpinBox, QSlider])
def test_a_dialogs_unfocused_control_scrolls_its_scroll_area(window, qtbot, kind):
    """Any such widget, one built after the window too: the wheel goes on to the scroll area."""
    dialog = QDialog(window)
    scroll = QScrollArea(dialog)
    scroll.setWidgetResizable(True)
    QVBoxLayout(dialog).addWidget(scroll)
    body = QDialog()
    column = QVBoxLayout(body)
    controls = []
    for _ in range(30):
        w = kind()
        if kind is QComboBox:
            w.addItems(["one", "two", "three"])
        else:
            w.setRange(0, 10)
        column.addWidget(w)
        controls.append(w)
    scroll.setWidget(body)
    dialog.resize(240, 200)
    dialog.show()
    qtbot.waitExposed(dialog)
    bar = scroll.verticalScrollBar()
    assert bar.maximum() > 0
    value = (lambda w: w.currentIndex()) if kind is QComboBox else (lambda w: w.value())
    before = [value(w) for w in controls]
    wheel(controls[0], -1)
    assert bar.value() > 0  # the area scrolled
    assert [value(w) for w in controls] == before
    dialog.close()
