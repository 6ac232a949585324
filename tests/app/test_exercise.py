"""Exercise mode: answers typed into the cells are checked entry by entry, a wrong one is marked,
Reveal fills in FK / A_i exactly, the sheet exports as a PDF with an answer key page."""

from __future__ import annotations

import math

import numpy as np
import pytest
from kinetree.app.panels.exercise import WRONG, number_text, shown_answer
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest


def show_exercise(window, qtbot, robot: str = "puma560", kind: str = "pose", link: int = 1, seed: int = 7):
    window.doc.open(robot)
    window.findChild(QAction, "toggle_exerciseDock").trigger()
    panel = window.exercise
    qtbot.waitUntil(lambda: panel.active and panel.exercise is not None, timeout=2000)
    panel.kind.setCurrentIndex(panel.kind.findData(kind))
    panel.seed.setValue(seed)
    panel.new_exercise()
    if kind != "pose":
        panel.link.setCurrentIndex(link - 1)
        panel.link.activated.emit(link - 1)
    return panel


def type_answer(panel, values: list[str]) -> None:
    cells = panel.answer_cells()
    assert len(cells) == len(values)
    for cell, text in zip(cells, values):
        cell.clear()
        QTest.keyClicks(cell, text)


def test_dock_hidden_by_default_and_idle_until_shown(window, qtbot):
    assert not window.exercise_dock.isVisible() and window.exercise.exercise is None
    window.doc.open("puma560")
    assert window.exercise.exercise is None  # hidden: no exercise made
    panel = show_exercise(window, qtbot)
    assert window.exercise_dock.isVisible() and window.docks["dhDock"] in window.tabifiedDockWidgets(
        window.exercise_dock)
    assert panel.table.rowCount() == 6
    window.reset_layout()
    assert not window.exercise_dock.isVisible()


def test_correct_end_pose_typed_in_is_correct_and_a_wrong_entry_is_marked(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "pose", seed=11)
    ex = panel.exercise
    tree = window.doc.tree
    fk = tree.forward_kinematics(ex.q)[tree.index_of("link6")]
    assert np.abs(ex.answer - fk).max() <= 1e-12
    q_before = window.doc.configuration.copy()
    # the joint values shown are exact (whole degrees) and within the limits
    for k, body in enumerate(ex.chain.bodies):
        deg = math.degrees(ex.qs[k])
        lo, hi = tree.get_body(body).joint.position_limits
        assert abs(deg - round(deg)) < 1e-9 and lo <= ex.qs[k] <= hi
        assert f"q{k + 1} = {round(deg)}°" in panel.question.text()
    texts = [f"{v:.6f}" for v in fk.reshape(-1)]
    type_answer(panel, texts)
    QTest.keyClick(panel.cells[-1], Qt.Key.Key_Return)
    assert panel.marks == [True] * 16 and panel.result.text().startswith("Correct")
    # one entry off by 0.01 (more than the 1e-3 tolerance): marked red, only it
    panel.cells[7].clear()
    QTest.keyClicks(panel.cells[7], f"{fk[1, 3] + 0.01:.6f}")
    QTest.keyClick(panel.cells[7], Qt.Key.Key_Return)
    assert panel.marks == [k != 7 for k in range(16)]
    assert panel.cells[7].styleSheet() == WRONG and panel.cells[6].styleSheet() != WRONG
    assert "1 of 16" in panel.result.text() and "0.001" in panel.result.text()
    # a looser tolerance accepts it; pi arithmetic is read, never evaluated
    panel.tolerance.setText("0.02")
    assert panel.check()
    panel.cells[0].clear()
    QTest.keyClicks(panel.cells[0], "__import__('os')")
    assert not panel.check() and "not a number" in panel.cells[0].toolTip()
    assert np.array_equal(window.doc.configuration, q_before)  # the robot did not move


def test_dh_row_answer_in_degrees_with_pi_arithmetic(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "row", link=2, seed=3)
    ex = panel.exercise
    assert ex.kind == "row" and ex.link == 2
    assert [panel.table.item(1, c).text() for c in range(1, 5)] == ["?"] * 4  # the hidden row
    assert panel.table.item(0, 1).text() != "?"
    assert len(panel.answer_cells()) == 4 and not panel.cells[4].isVisible()
    a, alpha, d, theta = shown_answer(ex)
    assert "A₂ =" in panel.given.text()
    type_answer(panel, [repr(a), "0" if alpha == 0 else f"{alpha / 180:.12f}*180", repr(d), f"{theta + 360:.9f}"])
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4  # θ modulo a turn
    type_answer(panel, [repr(a), "pi/2" if alpha != 0 else "1", repr(d), repr(theta)])
    assert not panel.check() and panel.marks == [True, False, True, True]


@pytest.mark.parametrize("kind", ["pose", "link", "row"])
def test_reveal_fills_in_fk_or_a_i_exactly(window, qtbot, kind):
    panel = show_exercise(window, qtbot, "stanford", kind, link=3, seed=5)  # link 3: prismatic
    ex = panel.exercise
    tree = window.doc.tree
    panel.reveal()
    shown = np.array([float(c.text()) for c in panel.answer_cells()])
    if kind == "pose":
        expected = tree.forward_kinematics(ex.q)[tree.index_of(ex.chain.bodies[-1])].reshape(-1)
    elif kind == "link":
        P = tree.forward_kinematics(ex.q)
        expected = (np.linalg.inv(P[tree.index_of(ex.chain.bodies[1])]) @ P[tree.index_of(ex.chain.bodies[2])])
        expected = expected.reshape(-1)
    else:
        row = tree.get_body(ex.chain.bodies[2]).joint.dh_parameters
        expected = np.array([row.a, math.degrees(row.alpha), ex.qs[2] + ex.chain.links[2].offset,
                             math.degrees(row.theta)])
    assert np.abs(shown - expected).max() <= 1e-12
    assert all(c.text() == number_text(v) for c, v in zip(panel.answer_cells(), shown_answer(ex)))
    assert panel.check()


def test_step_through_sets_the_configuration_and_plays_the_link_in_explain(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "link", link=3, seed=2)
    ex = panel.exercise
    panel.reveal()
    qtbot.mouseClick(panel.step_button, Qt.MouseButton.LeftButton)
    assert np.array_equal(window.doc.configuration, ex.q)
    assert window.doc.selection == "link3" and window.explain_dock.isVisible()
    qtbot.waitUntil(lambda: window.explain.active and window.explain.link == 3, timeout=2000)
    assert window.explain.play_button.isChecked()
    qtbot.waitUntil(lambda: not window.explain.play_button.isChecked(), timeout=8000)
    assert np.abs(window.explain.partial_products()[3] - ex.answer).max() <= 1e-12


def test_export_sheet_writes_a_pdf_with_an_answer_key_page(window, qtbot, tmp_path):
    panel = show_exercise(window, qtbot, "two_link_planar", "pose", seed=1)
    path = tmp_path / "sheet.pdf"
    panel.export_sheet(str(path), 3)
    data = path.read_bytes()
    assert data.startswith(b"%PDF")
    pages = data.count(b"/Type /Page") - data.count(b"/Type /Pages")
    assert pages >= 2
    sheet = panel.sheet_exercises(3)
    assert [e.seed for e in sheet] == [1, 2, 3] and len({tuple(e.qs) for e in sheet}) == 3


def test_typed_answers_survive_the_seed_box_losing_focus(window, qtbot):
    panel = show_exercise(window, qtbot, "two_link_planar", "pose", seed=3)
    QTest.keyClicks(panel.cells[0], "0.5")
    panel.seed.editingFinished.emit()  # focus left the box, the seed unchanged
    assert panel.cells[0].text() == "0.5" and panel.exercise.seed == 3
    panel.seed.setValue(4)
    panel.seed.editingFinished.emit()
    assert panel.exercise.seed == 4 and panel.cells[0].text() == ""
    qs = panel.exercise.qs.copy()
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    assert panel.exercise.seed == 5 and not np.array_equal(panel.exercise.qs, qs)


def test_random_configuration_stays_within_limits_narrower_than_a_degree():
    from kinetree.app.panels.exercise import random_configuration
    from kinetree.app.viewport.dh_overlay import dh_chain_to
    from kinetree.core import load_robot

    tree = load_robot("puma560")
    for body, limits in (("link2", (0.1001, 0.1002)),  # no whole degree inside
                         ("link3", (-3.9, -3.8))):  # whole degrees: -223 … -218
        joint = tree.get_body(body).joint
        joint.home_position = limits[0]  # a home outside the new limits is refused
        joint.position_limits = limits
    chain = dh_chain_to(tree, "link6", "dh")
    for seed in range(20):
        q = random_configuration(tree, chain, tree.home_configuration(), seed)
        assert tree.within_limits(q), seed
        assert 0.1001 <= q[1] <= 0.1002 and round(np.degrees(q[2]), 9).is_integer()
