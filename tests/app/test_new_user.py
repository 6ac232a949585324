"""What a new user hit (issue 18, item 7): each test clicks or types as a person does."""

from __future__ import annotations

import numpy as np
from kinetree.core import import_robot
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog


def test_dh_import_and_export_buttons_use_the_chosen_file(window, qtbot, tmp_path, monkeypatch):
    """The buttons' ``checked`` argument arrived as the path: both always failed."""
    window.doc.open("puma560")
    out = tmp_path / "puma_dh.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(out), "")))
    qtbot.mouseClick(window.dh.buttons["export"], Qt.MouseButton.LeftButton)
    assert out.exists()
    exported = import_robot(out)
    assert exported.num_bodies == 6
    q = np.array([0.1, 0.2, -0.3, 0.4, 0.5, -0.6])
    ee = window.doc.tree.end_effector
    assert np.allclose(exported.get_transform(q, exported.end_effector), window.doc.tree.get_transform(q, ee),
                       atol=1e-9)

    window.doc.open("two_link_planar")
    assert window.doc.tree.num_bodies != 6
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(out), "")))
    qtbot.mouseClick(window.dh.buttons["import"], Qt.MouseButton.LeftButton)
    assert window.doc.tree.num_bodies == 6  # the engine holds the imported chain
    assert np.allclose(window.doc.tree.get_transform(q, window.doc.tree.end_effector),
                       exported.get_transform(q, exported.end_effector), atol=1e-9)
    assert window.doc.undo_stack.count() == 1


def _optional_slots_on_click_signals() -> list[str]:
    """``clicked``/``triggered`` connected straight to a method of the same module that has an
    optional argument: Qt passes ``checked`` (a bool) into it."""
    import ast
    from pathlib import Path

    import kinetree.app as app_pkg

    found = []
    for path in Path(app_pkg.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text())
        optional = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                    and (f.args.defaults or f.args.kw_defaults) and f.args.args[:1] and f.args.args[0].arg == "self"}
        for node in ast.walk(tree):
            slots = []
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "connect"
                    and isinstance(node.func.value, ast.Attribute)
                    and node.func.value.attr in ("clicked", "triggered") and node.args):
                slots.append(node.args[0])
            if isinstance(node, ast.Call):
                slots += [k.value for k in node.keywords if k.arg in ("clicked", "triggered")]
            found += [f"{path.name}:{s.lineno} {s.attr}" for s in slots
                      if isinstance(s, ast.Attribute) and s.attr in optional]
    return found


def test_no_click_signal_feeds_checked_into_an_optional_argument():
    assert _optional_slots_on_click_signals() == []


def test_explain_and_exercise_never_widen_the_window_past_a_1280x800_screen(window, qtbot, screen_size):
    from PySide6.QtGui import QAction

    screen_size(1280, 800)
    window.resize(1280, 800)
    window.reset_layout()
    window.doc.open("panda")
    qtbot.wait(30)
    for name in ("toggle_explainDock", "toggle_exerciseDock", "toggle_posesDock"):
        window.findChild(QAction, name).trigger()
        qtbot.wait(30)
        assert window.width() <= 1280, name
        assert window.minimumSizeHint().width() <= 1280, name
    for key in ("slidersDock", "poseDock"):  # the right column stays on the screen
        dock = window.docks[key]
        assert dock.mapTo(window, dock.rect().topRight()).x() <= 1280, key


def test_reset_layout_brings_a_too_wide_window_back_onto_the_screen(window, qtbot, screen_size):
    from PySide6.QtGui import QAction

    screen_size(1280, 800)
    window.resize(1944, 800)  # as a layout saved by an older version left it
    window.findChild(QAction, "toggle_explainDock").trigger()
    window.findChild(QAction, "resetLayoutAction").trigger()
    qtbot.wait(30)
    assert window.width() <= 1280 and window.height() <= 800
    assert window.frameGeometry().right() < 1280 and window.frameGeometry().left() >= 0
    assert window.minimumSizeHint().width() <= 1280
