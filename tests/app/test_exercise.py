"""Exercise mode: answers typed into the cells are checked entry by entry, a wrong one is marked,
Reveal shows the answer under each entry, a sheet mixes kinds and links at nice angles and
exports as a PDF (no exercise split, a figure, an answer key page), exam mode hides the answers."""

from __future__ import annotations

import html
import math
import re
import time

import numpy as np
import pytest
from kinetree.app.panels.exercise import WRONG, shown_answer
from kinetree.app.panels.exercise_sheet import table_rows
from kinetree.core.dh.chain import subscript
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox


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


def ascii_form(text: str) -> str:
    """A shown answer as typed on a keyboard: √3 → sqrt(3), 3π/4 → 3*pi/4, 90° → 90deg."""
    text = re.sub(r"√(\d+)", r"sqrt(\1)", text)
    return re.sub(r"(\d)π", r"\1*pi", text).replace("π", "pi").replace("°", "deg")


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
        assert f"θ{subscript(k + 1)} = {round(deg)}°" in panel.question.text()  # the lecture's θ₁
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
    assert not panel.check() and "not an allowed answer" in panel.cells[0].toolTip()
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
def test_reveal_shows_the_answer_beside_the_entries_which_stay(window, qtbot, kind):
    panel = show_exercise(window, qtbot, "stanford", kind, link=3, seed=5)  # link 3: prismatic
    ex = panel.exercise
    tree = window.doc.tree
    typed = [f"{k}.5" for k in range(len(panel.answer_cells()))]
    type_answer(panel, typed)
    qtbot.mouseClick(panel.reveal_button, Qt.MouseButton.LeftButton)
    assert [c.text() for c in panel.answer_cells()] == typed  # the student's entries kept
    shown = [s for s in panel.solutions if s.isVisible()]
    assert len(shown) == len(typed)
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
    texts = [s.text() for s in shown]
    # sensible digits: exact forms (√3/2, 90°) or at most 4 significant digits, never 15
    assert all(len(t.replace("-", "").replace(".", "").replace("°", "")) <= 5 for t in texts), texts
    # each shown answer, typed back in (ASCII: QTest types no √), is right
    type_answer(panel, [ascii_form(t) for t in texts])
    assert panel.check(), [c.toolTip() for c in panel.answer_cells()]
    assert np.abs(np.array(shown_answer(ex)) - expected).max() <= 1e-12


def test_reveal_uses_the_lectures_exact_forms_and_the_radians_mode(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "row", link=1, seed=2)  # α1 = 90°
    qtbot.mouseClick(panel.reveal_button, Qt.MouseButton.LeftButton)
    assert panel.solutions[1].text() == "90°" and panel.solutions[0].text() == "0"
    qtbot.mouseClick(panel.radians, Qt.MouseButton.LeftButton)
    assert panel.radians.isChecked() and panel.solutions[1].text() == "π/2"
    assert "(rad)" in panel.headers[1].text()


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


def export_by_clicking(panel, qtbot, monkeypatch, path, count: int):
    monkeypatch.setattr(QInputDialog, "getInt", staticmethod(lambda *a, **k: (count, True)))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(path), "")))
    qtbot.mouseClick(panel.export_button, Qt.MouseButton.LeftButton)
    return path.read_bytes()


def pdf_pages(data: bytes) -> int:
    return data.count(b"/Type /Page") - data.count(b"/Type /Pages")


def test_a_sheet_mixes_kinds_and_links_at_nice_angles_reproducibly(window, qtbot, tmp_path, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "row", link=5, seed=4)
    export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "a.pdf", 6)
    sheet = panel.last_sheet_exercises
    pairs = [(e.kind, e.link) for e in sheet]
    assert len(sheet) == 6 and len(set(pairs)) == 6  # never one kind twice on one link
    assert len({k for k, _ in pairs}) >= 3 and len({link for _, link in pairs}) >= 4
    for e in sheet:  # nice angles: multiples of 30° (the default), never 127° or −79°
        for k, link in enumerate(e.chain.links):
            if link.joint == "R":
                assert abs(math.degrees(e.qs[k]) / 30 - round(math.degrees(e.qs[k]) / 30)) < 1e-9, e.qs
    # the seed makes the sheet: the same seed, the same exercises; the next seed, others
    again = export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "b.pdf", 6)
    assert again and [(e.kind, e.link, tuple(e.qs)) for e in panel.last_sheet_exercises] == [
        (e.kind, e.link, tuple(e.qs)) for e in sheet]
    qtbot.mouseClick(panel.new_button, Qt.MouseButton.LeftButton)
    export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "c.pdf", 6)
    assert [tuple(e.qs) for e in panel.last_sheet_exercises] != [tuple(e.qs) for e in sheet]
    # the single exercise in the dock: nice angles too, 45° when asked for
    panel.angle_step.setCurrentIndex(panel.angle_step.findData(45))
    panel.angle_step.activated.emit(panel.angle_step.currentIndex())
    assert all(abs(math.degrees(v) / 45 - round(math.degrees(v) / 45)) < 1e-9 for v in panel.exercise.qs)


def test_export_sheet_keeps_each_exercise_on_one_page_with_figure_name_date_and_key(window, qtbot, tmp_path,
                                                                                   monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "pose", seed=1)
    window.viewport.set_view("top")
    camera, ortho = window.viewport.cameraParams(), window.viewport.camera.ortho
    t0 = time.perf_counter()
    data = export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "sheet.pdf", 6)
    print(f"sheet of 6 exported in {time.perf_counter() - t0:.2f} s, {len(data)} bytes")
    assert window.viewport.cameraParams() == camera and window.viewport.camera.ortho == ortho  # view restored
    assert not window.teach.show_all  # the figure's DH frames were the figure's only
    layout = panel.last_sheet
    assert data.startswith(b"%PDF") and pdf_pages(data) == len(layout.pages) >= 3
    assert b"/Subtype /Image" in data  # the figure of the robot
    header = layout.blocks[0]
    assert "Name:" in header and "Date:" in header and window.doc.name in header
    exercises = [i for i, b in enumerate(layout.blocks) if isinstance(b, str) and "Exercise 1:" in b]
    assert len(exercises) == 2  # the exercise and, after a break, its answer
    key_page = next(n for n, page in enumerate(layout.pages) if any(
        isinstance(layout.blocks[i], str) and "Answer key" in layout.blocks[i] for i in page))
    assert key_page > 0 and layout.pages[key_page][0] == next(
        i for i, b in enumerate(layout.blocks) if isinstance(b, str) and "Answer key" in b)
    gap = 0.03 * layout.height
    for page in layout.pages:  # every block whole on its page: the page holds them all
        assert sum(layout.heights[i] for i in page) + gap * (len(page) - 1) <= layout.height + 1e-6
    assert sorted(i for page in layout.pages for i in page) == [i for i, h in enumerate(layout.heights) if h >= 0]


def test_paginate_never_splits_a_block():
    from kinetree.app.panels.exercise_sheet import paginate

    assert paginate([30, 50, 40, 10], 100) == [[0, 1], [2, 3]]
    assert paginate([30, -1, 20], 100) == [[0], [2]]  # a forced break
    assert paginate([150, 20], 100) == [[0], [1]]  # taller than a page: a page of its own


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
    from kinetree.app.model.dh_chain import dh_chain_to
    from kinetree.app.model.exercises import random_configuration
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


def enter(cell, text: str) -> None:
    cell.clear()
    QTest.keyClicks(cell, text)
    QTest.keyClick(cell, Qt.Key.Key_Return)


def test_angles_in_radians_units_and_functions_are_read_as_meant(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "row", link=1, seed=2)  # a = 0, α1 = 90°, d = 0
    a, alpha, d, theta = shown_answer(panel.exercise)
    assert (a, alpha, d) == (0, 90, 0)
    turn = round(theta / 30)  # θ1 a multiple of 30°
    type_answer(panel, ["0mm", "pi/2", "0 m", f"{turn}*pi/6"])
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4  # pi/2 in a degree field is radians: 90°
    type_answer(panel, ["0", "90deg", "0", f"atan2(sin({turn}*pi/6), cos({turn}*pi/6))"])
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4
    enter(panel.cells[1], "1.5708")  # degrees mode: 1.5708°, wrong
    assert panel.marks[1] is False
    qtbot.mouseClick(panel.radians, Qt.MouseButton.LeftButton)  # radians mode: a bare number is radians
    enter(panel.cells[1], "1.5708")
    assert panel.marks[1] is True
    type_answer(panel, ["0", "1.5708rad", "0", f"{math.radians(turn * 30) + 2 * math.pi:.9f}"])
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4
    enter(panel.cells[1], "90")  # 90 rad: wrong in radians mode
    assert panel.marks[1] is False


def test_matrix_entries_take_sin_cos_sqrt_and_hostile_text_is_refused_quickly(window, qtbot):
    panel = show_exercise(window, qtbot, "two_link_planar", "link", link=1, seed=3)
    ex = panel.exercise
    c, s = math.cos(ex.qs[0]), math.sin(ex.qs[0])
    deg = round(math.degrees(ex.qs[0]))
    a1 = ex.answer[0, 3] / c if abs(c) > 1e-9 else ex.answer[1, 3] / s
    texts = [f"cos({deg})", f"-sin({deg}deg)", "0", f"{a1:g}*cos(pi*{deg}/180)",
             f"sin({deg}°)", f"sqrt(cos({deg})**2)*{1 if c >= 0 else -1}", "0", f"{a1:g}*sin({deg})",
             "0", "0", "1", "0", "0", "0", "0", "1"]
    type_answer(panel, texts)
    QTest.keyClick(panel.cells[0], Qt.Key.Key_Return)
    assert panel.marks == [True] * 16, [c.toolTip() for c in panel.cells]
    for hostile, why in (("__import__('os')", "only sin"), ("().__class__", "not allowed"),
                         ("9**9**9", "exponent"), ("((9**16)**16)**16", "too large"), ("x" * 300, "too long"),
                         ("-" * 40 + "cos(1)", "nested"),
                         ("sin(" * 28 + "1" + ")" * 28, "nested more than"),  # sympy: days in degrees
                         ("lambda: 1", "not allowed")):
        t0 = time.perf_counter()
        enter(panel.cells[0], hostile)
        assert time.perf_counter() - t0 < 1.0, hostile
        assert panel.marks[0] is False and why in panel.cells[0].toolTip(), (hostile, panel.cells[0].toolTip())


def test_symbolic_answers_are_checked_by_equivalence(window, qtbot):
    panel = show_exercise(window, qtbot, "two_link_planar", "symbolic", link=2, seed=1)
    ex = panel.exercise
    assert ex.kind == "symbolic" and "Joint values" not in panel.question.text()
    type_answer(panel, ["c2", "-s2", "0", "a2*c2", "sin(q2)", "1 - 2*sin(q2/2)**2", "0", "a2*sin(theta2)",
                        "0", "0", "1", "0", "0", "0", "0", "1"])
    QTest.keyClick(panel.cells[0], Qt.Key.Key_Return)
    assert panel.marks == [True] * 16, [c.toolTip() for c in panel.cells]
    enter(panel.cells[3], "a2*c1")  # a different expression
    assert panel.marks[3] is False and "not equal" in panel.cells[3].toolTip()
    enter(panel.cells[3], "a2*c12 - a2*c1*c2 + a2*c1*c2 + a2*s1*s2 - a2*c12 + a2*c2 - a2*s1*s2")
    assert panel.marks[3] is True
    enter(panel.cells[3], "b7*c2")  # an unknown name: told which ones there are
    assert panel.marks[3] is False and "unknown name 'b7'" in panel.cells[3].toolTip()
    qtbot.mouseClick(panel.reveal_button, Qt.MouseButton.LeftButton)
    assert [s.text() for s in panel.solutions[:4]] == ["c2", "-s2", "0", "a2*c2"]


def test_exam_mode_hides_every_view_of_the_answer_until_ended(window, qtbot, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "row", link=2, seed=3)
    window.dh_overlay_action.setChecked(True)
    window.findChild(QAction, "toggle_explainDock").trigger()
    window.exercise_dock.show()
    window.exercise_dock.raise_()
    dh, pose, explain = window.docks["dhDock"], window.docks["poseDock"], window.explain_dock
    qtbot.waitUntil(lambda: pose.isVisible() and explain.isVisible())
    assert window.dh_overlay.text.texts  # the overlay draws the DH parameters
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)
    assert window.teach.exam and panel.exam.isChecked()
    assert not dh.isVisible() and not pose.isVisible() and not explain.isVisible()
    assert not window.dh_overlay.text.texts and not any(it.visible() for it in window.dh_overlay.lines.values())
    assert not dh.toggleViewAction().isEnabled() and not window.findChild(QAction, "toggle_explainDock").isEnabled()
    assert not panel.reveal_button.isEnabled() and not panel.step_button.isEnabled()
    window.reset_layout()  # no way round it
    qtbot.waitUntil(lambda: not dh.isVisible() and not pose.isVisible())
    asked = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda *a, **k: asked.append(a) or QMessageBox.StandardButton.No))
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)  # end? No: the exam goes on
    assert len(asked) == 1 and window.teach.exam and panel.exam.isChecked() and not dh.isVisible()
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)
    assert not window.teach.exam and not panel.exam.isChecked()
    qtbot.waitUntil(lambda: pose.isVisible())
    assert dh.toggleViewAction().isEnabled() and panel.reveal_button.isEnabled()
    assert window.dh_overlay.text.texts  # the overlay is back


# --- exercises and exam keep their secrets ---------------------------------------------------------
def row_html(cells: list[str]) -> str:
    """A table row as the sheet writes it."""
    return "<tr>" + "".join(f"<td align='center'>{html.escape(c)}</td>" for c in cells) + "</tr>"


def test_a_row_one_exercise_hides_is_hidden_in_every_exercise_of_the_sheet(window, qtbot, tmp_path, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "row", link=5, seed=4)
    export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "sheet.pdf", 8)
    sheet, layout = panel.last_sheet_exercises, panel.last_sheet
    asked = {ex.link: n for n, ex in enumerate(sheet, start=1) if ex.kind == "row"}
    assert asked and any(ex.kind == "pose" for ex in sheet)  # a pose needs every row: the conflict is there
    key = next(i for i, b in enumerate(layout.blocks) if b is None)
    blocks = [b for b in layout.blocks[:key] if isinstance(b, str) and "<h3>Exercise" in b]
    assert len(blocks) == len(sheet)
    for n, (ex, block) in enumerate(zip(sheet, blocks), start=1):
        rows = table_rows(ex)  # the exercise's own table, nothing hidden but its own row
        for link in asked:
            if not (ex.kind == "row" and ex.link == link):  # the values the other exercises printed
                assert row_html(rows[link - 1]) not in block, (n, link)
            assert row_html([rows[link - 1][0], "?", "?", "?", "?"]) in block
        if ex.kind == "pose":  # it says where the hidden rows come from
            for link, m in asked.items():
                assert f"row {link} is the answer to Exercise {m}" in block


def capture_overlay_at_render(window, monkeypatch) -> list:
    """What the DH overlay draws (texts, legend, parameter lines) when the figure is rendered."""
    seen = []
    render = window.viewport.render_image

    def spy(*args, **kwargs):
        overlay = window.dh_overlay
        seen.append(([t for _p, t, _c in overlay.text.texts], list(overlay.text.legend),
                     len(overlay.sketch.layers["params"]), len(overlay.sketch.layers["frames"])))
        return render(*args, **kwargs)

    monkeypatch.setattr(window.viewport, "render_image", spy)
    return seen


def test_the_sheet_figure_shows_frames_without_parameter_values(window, qtbot, tmp_path, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "row", link=2, seed=3)
    seen = capture_overlay_at_render(window, monkeypatch)
    export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "sheet.pdf", 4)
    assert len(seen) == 1
    texts, legend, params, frames = seen[0]
    assert frames and texts  # the frames and their names: z₀, x₀, …
    assert not params and not legend and not any("=" in t for t in texts), texts
    assert all(t[0] in "xz" for t in texts)
    assert not window.teach.show_all and not window.teach.frames_only  # the user's view is back


def test_an_exam_sheet_has_the_figure_its_text_promises(window, qtbot, tmp_path, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "pose", seed=1)
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)
    assert window.teach.exam
    seen = capture_overlay_at_render(window, monkeypatch)
    data = export_by_clicking(panel, qtbot, monkeypatch, tmp_path / "exam.pdf", 3)
    layout = panel.last_sheet
    assert "figure" in layout.blocks[0] and any(not isinstance(b, str | None) for b in layout.blocks)
    assert b"/Subtype /Image" in data
    assert not any(isinstance(b, str) and "Answer key" in b for b in layout.blocks)  # an exam's sheet keeps its secrets
    texts, legend, params, _frames = seen[0]
    assert not params and not legend and not any("=" in t for t in texts)
    # the exam goes on: no overlay in the window after the figure
    assert not window.dh_overlay.text.texts and not any(it.visible() for it in window.dh_overlay.lines.values())


def test_a_sheet_without_a_figure_does_not_promise_one(tmp_path, window, qtbot):
    from kinetree.app.panels.exercise_sheet import write_sheet

    panel = show_exercise(window, qtbot, "puma560", "pose", seed=1)
    layout = write_sheet(panel.sheet_exercises(2), str(tmp_path / "plain.pdf"), "puma", None)
    assert "figure" not in layout.blocks[0]
    assert all(isinstance(b, str | None) for b in layout.blocks)


def click_body(window, qtbot, name: str) -> None:
    """Click the body in the Bodies panel, as a user does."""
    view = window.bodies.view
    index = window.bodies.model.index_of(name)
    view.scrollTo(index)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(index).center())
    assert window.doc.selection == name


def test_exam_hides_the_joint_docks_fixed_transform_and_disables_check_matrix_and_assign_frames(
        window, qtbot, monkeypatch):
    panel = show_exercise(window, qtbot, "puma560", "row", link=2, seed=3)
    joint = window.joint
    check_matrix = window.findChild(QAction, "checkMatrixAction")
    assign = window.findChild(QAction, "toggle_assignFramesDock")
    assign.trigger()  # Assign frames open before the exam
    qtbot.waitUntil(window.assign_frames_dock.isVisible)
    check_matrix.trigger()
    dialog = window.findChild(QDialog, "checkMatrixDialog")
    qtbot.waitUntil(dialog.isVisible)
    click_body(window, qtbot, panel.exercise.chain.bodies[1])  # the body whose row is asked
    assert joint.dh_label.text() and joint.fixed_group.isVisibleTo(joint) and joint.fields["offset"].isVisibleTo(joint)
    window.exercise_dock.show()
    window.exercise_dock.raise_()
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)
    assert window.teach.exam
    assert not joint.fixed_group.isVisibleTo(joint) and not joint.dh_label.isVisibleTo(joint)
    assert not joint.matrix_label.isVisibleTo(joint)
    assert not joint.fields["offset"].isVisibleTo(joint)  # θ = q + offset: part of the row
    assert not check_matrix.isEnabled() and not assign.isEnabled()
    assert not dialog.isVisible() and not window.assign_frames_dock.isVisible()
    click_body(window, qtbot, panel.exercise.chain.bodies[0])  # another body: still nothing shown
    assert not joint.fixed_group.isVisibleTo(joint)
    window.assign_frames_dock.show()  # shown by some other way: hidden again
    qtbot.waitUntil(lambda: not window.assign_frames_dock.isVisible())
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))
    qtbot.mouseClick(panel.exam, Qt.MouseButton.LeftButton)  # the exam ends: all back
    assert not window.teach.exam
    assert joint.fixed_group.isVisibleTo(joint) and check_matrix.isEnabled() and assign.isEnabled()
    assert joint.fields["offset"].isVisibleTo(joint)
    qtbot.waitUntil(window.assign_frames_dock.isVisible)


def test_an_equivalent_dh_row_is_accepted_with_a_note_and_a_flipped_one_is_not(window, qtbot):
    panel = show_exercise(window, qtbot, "puma560", "row", link=2, seed=3)
    ex = panel.exercise
    a, alpha, d, theta = shown_answer(ex)
    assert a != 0  # the flipped row below differs from the expected one
    # the same A₂ written with other angles (whole turns): right, and the note says which row it equals
    type_answer(panel, [repr(a), f"{alpha - 360:.9f}", repr(d), f"{theta + 720:.9f}"])
    QTest.keyClick(panel.cells[3], Qt.Key.Key_Return)
    assert panel.marks == [True] * 4
    typed = {"a": a, "alpha": math.radians(alpha - 360), "d": d, "theta": math.radians(theta + 720)}
    assert np.abs(row_matrix(ex, typed) - ex.given).max() <= 1e-9
    result = panel.result.text()
    assert "equivalent row" in result and "A₂" in result and f"a = {panel_answer(ex, 0)}" in result
    assert "θ = " in result
    # a = −a, θ + 180° (the tester's row): the same origin o₂ but x₂ turned about z₁, another A₂
    type_answer(panel, [repr(-a), repr(alpha), repr(d), repr(theta + 180)])
    flipped = {"a": -a, "alpha": math.radians(alpha), "d": d, "theta": math.radians(theta + 180)}
    assert np.abs(row_matrix(ex, flipped) - ex.given).max() > 1
    assert not panel.check() and panel.marks == [False, True, True, False]
    assert "A₂ is not the given one" in panel.result.text()
    # the expected row itself: right, no note
    type_answer(panel, [repr(a), repr(alpha), repr(d), repr(theta)])
    assert panel.check() and "equivalent" not in panel.result.text()


def row_matrix(ex, row: dict) -> np.ndarray:
    """A_i of a typed row, from the core's DH transforms."""
    from kinetree.core.transforms import dh_transform, mdh_transform

    f = dh_transform if ex.chain.convention == "dh" else mdh_transform
    return f(row["a"], row["alpha"], row["d"], row["theta"])


def panel_answer(ex, k: int) -> str:
    from kinetree.app.model.exercises import answer_texts

    return answer_texts(ex)[k]
