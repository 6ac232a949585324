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
    for name in ("toggle_explainDock", "toggle_exerciseDock", "toggle_posesDock", "toggle_simulateDock"):
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


def _active(window, qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def _key(widget, key, modifiers=Qt.KeyboardModifier.ControlModifier) -> None:
    from PySide6.QtTest import QTest

    QTest.keyClick(widget, key, modifiers)


def test_undo_and_redo_keys_reach_the_document_from_a_committed_spin_box(window, qtbot):
    from PySide6.QtTest import QTest

    window.doc.open("puma560")
    window.doc.undo_stack.clear()
    _active(window, qtbot)
    spin = window.sliders.rows["q2"].spin
    q0 = window.doc.configuration.copy()
    qtbot.mouseClick(spin.lineEdit(), Qt.MouseButton.LeftButton)
    assert spin.hasFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin, "30")
    QTest.keyClick(spin, Qt.Key.Key_Return)
    assert abs(window.doc.configuration[1] - np.pi / 6) < 1e-15
    assert spin.hasFocus() and window.doc.undo_stack.count() == 1
    _key(spin, Qt.Key.Key_Z)  # Ctrl+Z: the document's undo
    assert np.array_equal(window.doc.configuration, q0)
    assert spin.core == q0[1]  # the spin box shows what the engine has
    _key(spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert abs(window.doc.configuration[1] - np.pi / 6) < 1e-15
    _key(spin, Qt.Key.Key_Z)
    assert np.array_equal(window.doc.configuration, q0)
    _key(spin, Qt.Key.Key_Y)  # Ctrl+Y redoes too
    assert abs(window.doc.configuration[1] - np.pi / 6) < 1e-15
    # while a text is being typed (not yet Enter), Ctrl+Z undoes the typing, not the document
    QTest.keyClicks(spin, "5")
    _key(spin, Qt.Key.Key_Z)
    assert abs(window.doc.configuration[1] - np.pi / 6) < 1e-15 and window.doc.undo_stack.index() == 1


def test_undo_key_reaches_the_document_from_a_committed_joint_field(panel, window, qtbot):
    from PySide6.QtTest import QTest

    window.doc.undo_stack.clear()
    _active(window, qtbot)
    field = panel.fields["xyz"]
    shown = field.text()
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    field.selectAll()
    QTest.keyClicks(field, "0.25 0 0")
    QTest.keyClick(field, Qt.Key.Key_Return)
    assert window.doc.undo_stack.count() == 1 and field.hasFocus()
    _key(field, Qt.Key.Key_Z)
    assert window.doc.undo_stack.index() == 0
    assert field.text() == shown  # the field shows the engine's value again


def test_dh_overlay_only_when_view_dh_parameters_is_ticked(window, qtbot):
    from PySide6.QtGui import QAction

    window.doc.open("two_link_planar")
    overlay = window.dh_overlay
    action = window.findChild(QAction, "dhOverlayAction")
    assert not action.isChecked()
    window.doc.select("link2")
    qtbot.wait(20)
    assert not any(item.visible() for item in overlay.items)  # unticked: nothing drawn
    assert overlay.text.legend == []
    action.trigger()
    qtbot.wait(20)
    assert overlay.lines["params"].visible() and (2, "a") in overlay.sketch.dimensions
    assert overlay.link == 2 and overlay.text.legend[0][0][0].startswith("Link 2 (link2)")
    action.trigger()
    qtbot.wait(20)
    assert not any(item.visible() for item in overlay.items)


def test_no_file_frames_banner_for_a_robot_built_in_the_app(window, qtbot):
    from kinetree.app.viewport.overlays.dh_overlay import URDF_LEGEND
    from PySide6.QtGui import QAction

    window.new_document()
    for _ in range(3):  # Edit ▸ Add child body, as a user builds an arm
        window.bodies.add_action.trigger()
    assert window.doc.tree.body_names == ["body1", "body2", "body3"]
    window.findChild(QAction, "dhOverlayAction").trigger()
    qtbot.wait(20)
    overlay = window.dh_overlay
    assert overlay.chain.extracted and overlay.text.visible()
    texts = [t for line in overlay.text.legend for t, _ in line]
    assert URDF_LEGEND not in texts and not any("file" in t for t in texts)


def test_frames_banner_only_where_the_dh_frames_differ_from_the_bodies(window, qtbot, tmp_path):
    """Saved to a file, the arm built in the app: in standard DH its frames sit one joint further
    on (the banner says so); in modified DH they are the bodies' own frames (no banner)."""
    from kinetree.app.viewport.overlays.dh_overlay import URDF_LEGEND
    from PySide6.QtGui import QAction

    window.new_document()
    for _ in range(3):
        window.bodies.add_action.trigger()
    assert window._save_to(tmp_path / "built.kinetree.json") and window.doc.from_file
    window.findChild(QAction, "dhOverlayAction").trigger()
    overlay = window.dh_overlay

    def banner() -> bool:
        return URDF_LEGEND in [t for line in overlay.text.legend for t, _ in line]

    assert overlay.chain.extracted and banner()
    window.teach.set_convention("mdh")  # the Explain dock's convention box does this
    assert overlay.chain.convention == "mdh" and not banner()
