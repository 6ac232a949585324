"""What a new user hit (issue 18, item 7), what the panels show: every Panda slider at
1280×800, a Bodies name column that widens, Esc closing the undo history, and near-zero values
shown as 0 by the one formatting helper."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kinetree.app as app_pkg
import numpy as np
from helpers.gui import settle, sliders_visible
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit


def test_every_panda_slider_is_visible_on_a_1280x800_screen(window, qtbot, screen_size):
    screen_size(1280, 770)  # what a 1280×800 screen leaves beside a desktop panel
    window.resize(1280, 740)  # and the window's title bar
    window.reset_layout()
    window.doc.open("panda")
    settle(qtbot, 100)
    assert len(window.sliders.rows) == 7 and sliders_visible(window) == 7


def test_the_bodies_name_column_widens_with_the_names(window, qtbot):
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.new_document()
    for _ in range(4):  # each new body under the one before: deeper and deeper
        window.bodies.add_action.trigger()
    view = window.bodies.view
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_F2)  # rename the selected (deepest) body
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QLineEdit))
    editor = QApplication.focusWidget()
    editor.selectAll()
    QTest.keyClicks(editor, "a_rather_long_forearm_body_name")
    QTest.keyClick(editor, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: "a_rather_long_forearm_body_name" in window.doc.tree.body_names)  # committed
    settle(qtbot)
    header = view.header()
    assert header.sectionSize(0) >= view.sizeHintForColumn(0) > 120


def test_escape_closes_the_undo_history(window, qtbot):
    from PySide6.QtGui import QAction

    window.findChild(QAction, "undoHistoryAction").trigger()
    history = window.undo_view
    qtbot.waitExposed(history)
    history.activateWindow()
    qtbot.waitUntil(history.isActiveWindow)
    QTest.keyClick(history, Qt.Key.Key_Escape)
    assert not history.isVisible()


def test_near_zero_joint_values_read_as_zero_but_stay_exact(window, qtbot):
    from kinetree.app.model.numbers import short_text
    window.doc.open("puma560")
    tiny = -7.722e-16  # rad: -4.42485e-14°, what an IK drag left in q4
    window.doc.set_configuration(np.array([0.0, 0.6, -0.9, tiny, 0.5, 0.0]))
    spin = window.sliders.rows["q4"].spin
    assert spin.text() == "0°"
    assert window.doc.configuration[3] == tiny  # the engine keeps what it has
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    assert "e-14" in spin.text()  # the editor opens on the exact value ...
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert window.doc.configuration[3] == tiny  # ... and Enter changes nothing
    assert short_text(-4.42485e-14) == "0" and short_text(2e-9) == "2e-9"


def test_fixed_decimals_never_show_minus_zero():
    from kinetree.app.model.numbers import fixed_text

    assert fixed_text(-1e-12, 3) == "0.000" and fixed_text(-0.00004, 4) == "0.0000"
    assert fixed_text(0.5, 2, sign_space=True) == " 0.50" and fixed_text(-0.5, 2) == "-0.50"


#: numeric formats in f-strings that show no engine value (times, counts, sizes, percentages), and
#: distinct_texts' deliberately longer digits
NOT_VALUES = {("timeline.py", "self.time"), ("timeline.py", "duration"), ("explain.py", "self.position"),
              ("explain.py", "self.target"), ("playback.py", "need / 2 ** 30"),
              ("playback.py", "MAX_GIF_BYTES / 2 ** 30"), ("analysis.py", "time.perf_counter() - self.started_at"),
              ("visuals_editor.py", "v.color[3]"), ("number_spin.py", "v"), ("number_spin.py", "v + 0.0"),
              ("document.py", "mb"),
              # the snap steps and the grid's spacing: round numbers the app chose, not engine values
              ("tools.py", "mm"), ("camera.py", "metres"), ("camera.py", "metres * 100"),
              ("camera.py", "metres * 1000"),
              # the simulation's clock and step, and errors shown to say how small they are
              ("simulate.py", "t"), ("simulate.py", "(t - self._rate_start) / wall"),
              ("simulate.py", "self.sim.dt * 1000.0"), ("simulate.py", "e.drift"), ("assign_frames.py", "diff")}


def test_every_numeric_readout_uses_the_numbers_helpers():
    """No f-string formats a number (f, g, e, %) outside app/model/numbers.py (the CLI aside): near
    zeros read as 0 everywhere (an IK drag showed q4 as -4.42485e-14°)."""
    found = []
    for path in Path(app_pkg.__file__).parent.rglob("*.py"):
        if path.name == "numbers.py" or "cli" in path.relative_to(Path(app_pkg.__file__).parent).parts[:1] \
                or path.name == "main.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
                spec = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.format_spec.values)
                key = (path.name, ast.unparse(node.value))
                if re.search(r"[fFgGeE%]$", spec) and key not in NOT_VALUES:
                    found.append(f"{path.name}:{node.lineno} {key[1]}:{spec}")
    assert found == []
