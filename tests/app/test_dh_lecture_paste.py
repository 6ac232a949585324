"""The DH table's Paste takes a table as the lecture prints it (header row, θ1/d3 symbols, pi/2,
degrees): pasted into a new robot with the Paste button, it builds the library's robot; a bad
cell is refused naming the line, the column and the text, and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import load_robot
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

CYLINDRICAL = "Link\ta_i\tα_i\td_i\tθ_i\n1\t0\t0\t0.5\tθ1\n2\t0\t-90\td2\t0\n3\t0\t0\td3\t0\n"
STANFORD = ("Link d a α θ\n1 0 0 -pi/2 θ1\n2 0.154 0 pi/2 θ2\n3 d3 0 0 0\n4 0 0 -pi/2 θ4\n"
            "5 0 0 pi/2 θ5\n6 0.263 0 0 θ6\n")
SCARA = "theta,d,a,alpha\nθ1,0,0.4,0\nθ2,0,0.3,180deg\n0,d3*,0,0\nθ4,0.1,0,0\n"


def paste(window, qtbot, text: str) -> None:
    QGuiApplication.clipboard().setText(text)
    QTest.mouseClick(window.dh.buttons["paste"], Qt.MouseButton.LeftButton)
    qtbot.wait(10)


@pytest.mark.parametrize("name, text", [("cylindrical", CYLINDRICAL), ("stanford_lecture", STANFORD),
                                        ("scara", SCARA)])
def test_a_lecture_table_pasted_builds_the_library_robot(window, qtbot, name, text):
    window.new_document()
    n = window.doc.undo_stack.count()
    paste(window, qtbot, text)
    tree, library = window.doc.tree, load_robot(name)
    assert window.doc.undo_stack.count() == n + 1, window.statusBar().currentMessage()  # one undo step
    assert [b.joint.type for b in tree.bodies] == [b.joint.type for b in library.bodies]
    rng = np.random.default_rng(1)
    for q in rng.uniform(-0.8, 0.8, size=(5, library.position_count)):
        np.testing.assert_allclose(tree.forward_kinematics(q), library.forward_kinematics(q), atol=1e-12)
    assert window.dh.model.rowCount() == library.num_bodies  # the table shows the rows


def test_radians_table_unit_and_a_refused_cell(window, qtbot):
    window.new_document()
    window.dh.units_combo.setCurrentIndex(1)  # the table in radians: a plain 1.5708 is radians
    window.dh.units_combo.activated.emit(1)
    paste(window, qtbot, "a α d θ\n0 1.5 0 θ1\n")
    assert window.doc.tree.num_bodies == 1
    assert window.dh.model.links()[0].alpha == 1.5
    before, n = window.doc.serialized(), window.doc.undo_stack.count()
    paste(window, qtbot, "a α d θ\n0 0 0 θ1\n0 pi/ 0 θ2\n")
    message = window.statusBar().currentMessage()
    assert message.startswith("pasted table, line 3: column 'α': 'pi/' is not a number"), message
    assert window.doc.serialized() == before and window.doc.undo_stack.count() == n


def test_a_lecture_table_file_imported_with_the_button(window, qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    path = tmp_path / "cylindrical.csv"
    path.write_text("Link,a,α,d,θ\n1,0,0,0.5,θ1\n2,0,-pi/2,d2,0\n3,0,0,d3*,0\n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(path), "")))
    QTest.mouseClick(window.dh.buttons["import"], Qt.MouseButton.LeftButton)  # Import CSV…
    tree, library = window.doc.tree, load_robot("cylindrical")
    assert [b.joint.type for b in tree.bodies] == ["revolute", "prismatic", "prismatic"]
    q = np.array([0.4, 0.3, 0.2])
    np.testing.assert_allclose(tree.forward_kinematics(q), library.forward_kinematics(q), atol=1e-12)
