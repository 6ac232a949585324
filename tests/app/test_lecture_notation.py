"""Issue 31 item 3: the lecture's θᵢ / dᵢ (with subscript digits) wherever the GUI names a DH
row's joint variable, from one core helper (:func:`kinetree.core.dh.chain.joint_variable`)."""

from __future__ import annotations

import pytest
from kinetree.core import load_robot
from kinetree.core.dh.chain import joint_variable, lecture_variables, variable_label
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction


def test_the_helper_in_each_format():
    assert [joint_variable("R", 1, f) for f in ("text", "unicode", "html", "latex")] == \
        ["θ1", "θ₁", "θ<sub>1</sub>", r"\theta_{1}"]
    assert joint_variable("P", 12) == "d₁₂"
    with pytest.raises(ValueError, match="'rtf'"):
        joint_variable("R", 1, "rtf")


def test_labels_name_the_variable_and_keep_a_telling_joint_name():
    assert [variable_label(n, lecture_variables(load_robot("cylindrical")))
            for n in ("q1", "q2", "q3")] == ["θ₁", "d₂", "d₃"]
    wrist = lecture_variables(load_robot("spherical_wrist"))  # a wrist keeps the lecture's numbers
    assert [variable_label(n, wrist) for n in ("q4", "q5", "q6")] == ["θ₄", "θ₅", "θ₆"]
    variables = {"shoulder": ("R", 2), "q3": ("R", 2)}
    assert variable_label("shoulder", variables) == "θ₂ shoulder"
    assert variable_label("q3", variables) == "θ₂ q3"  # a name with another number is not hidden
    assert variable_label("gripper", variables) == "gripper"  # no DH row: the name


def test_dh_table_cells_and_header(window):
    window.doc.open("cylindrical")
    model = window.dh.model
    shown = [model.data(model.index(r, c)) for r, c in ((0, 4), (1, 3), (2, 3))]
    assert shown == ["θ₁", "d₂", "d₃"]
    heads = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(1, 5)]
    assert [h.split(" ")[0] for h in heads] == ["aᵢ", "αᵢ", "dᵢ", "θᵢ"]
    window.doc.open("spherical_wrist")
    assert [model.data(model.index(r, 4)) for r in range(3)] == ["θ₄", "θ₅", "θ₆"]


def test_slider_labels(window):
    window.doc.open("cylindrical")
    assert [row.name.text() for row in window.sliders.rows.values()] == ["θ₁", "d₂", "d₃"]
    from PySide6.QtGui import QTextDocumentFragment

    tip = QTextDocumentFragment.fromHtml(window.sliders.rows["q2"].name.toolTip()).toPlainText()
    assert tip == "d₂: joint q2"  # the joint's name is one hover away; messages name it (q2: …)
    assert window.sliders.rows["q2"].spin.what == "q2"
    window.doc.open("puma560")
    assert [row.name.text() for row in window.sliders.rows.values()][:2] == ["θ₁", "θ₂"]


def test_explain_dh_table_and_symbolic_heading(window, qtbot):
    window.doc.open("cylindrical")
    window.findChild(QAction, "toggle_explainDock").trigger()
    qtbot.waitUntil(lambda: window.explain.active, timeout=2000)
    panel = window.explain
    panel.set_walk(True)
    text = panel.formula.text()
    assert "<b>θ₁</b>" in text and "<b>d₂</b>" in text and "<b>d₃</b>" in text and "<b>q" not in text
    assert "cos θ₁" in panel.symbolic.head.text()
    assert panel.symbolic.revolute.currentData() == "theta"


def test_assign_frames_texts(window, qtbot):
    window.doc.open("cylindrical")
    window.findChild(type(window.assign_frames_dock.toggleViewAction()), "toggle_assignFramesDock").trigger()
    qtbot.waitUntil(window.assign_frames_dock.isVisible)
    panel = window.assign_frames
    assert "z₀" in panel.title.text() and "z_0" not in panel.title.text()


def test_exercise_table_and_joint_values():
    from kinetree.app.model.dh_chain import cached_chain
    from kinetree.app.model.exercises import make_exercise
    from kinetree.app.panels.exercise_sheet import joint_values_text, table_rows

    tree = load_robot("cylindrical")
    ex = make_exercise(tree, cached_chain(tree, None), "pose", 1, seed=3)
    rows = table_rows(ex)
    assert [rows[0][4], rows[1][3], rows[2][3]] == ["θ₁", "d₂", "d₃"]
    values = joint_values_text(ex)
    assert values.startswith("θ₁ = ") and ", d₂ = " in values and ", d₃ = " in values and "q" not in values


def test_dh_of_chain_dialog(window, qtbot):
    from kinetree.app.panels.dh_of_chain import DhOfChainDialog
    from PySide6.QtTest import QTest

    window.doc.open("cylindrical")
    QTest.mouseClick(window.dh.buttons["compute"], Qt.MouseButton.LeftButton)  # DH of chain…
    dialog = window.dh.findChild(DhOfChainDialog, "dhOfChainDialog")
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible())
    assert [dialog.table.item(0, 5).text(), dialog.table.item(1, 4).text(), dialog.table.item(2, 4).text()] == \
        ["θ₁", "d₂", "d₃"]


def test_a_joint_made_fixed_leaves_the_others_numbers_as_the_dh_table_has_them(window):
    from kinetree.app.model.edits import change_joint_type

    window.doc.open("puma560")
    window.doc.edit("fix", lambda t: change_joint_type(t, "link3", "fixed"))
    assert [row.name.text() for row in window.sliders.rows.values()] == ["θ₁", "θ₂", "θ₄", "θ₅", "θ₆"]
    model = window.dh.model
    assert model.data(model.index(3, 4)) == "θ₄"
