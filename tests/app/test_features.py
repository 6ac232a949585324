"""Window features as registered parts (app/window/features.py): installed in dependency order, checked
at start, their actions placed by menu id and group, never by a menu's visible text."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import kinetree.app as app_package
import kinetree.app.features.feature_list as feature_list
import kinetree.app.window.main_window as main_window_module
import pytest
from helpers.planted import contributing_example, plant_module
from kinetree.app.features.feature_list import features_of
from kinetree.app.window.features import MENUS, At, Feature, FeatureError, MenuId, Menus, install_order
from kinetree.app.window.main_window import FEATURES, MainWindow
from kinetree.core.lazy import LazyImports
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu

APP = Path(app_package.__file__).resolve().parent
PACKAGE = feature_list.__name__.rpartition(".")[0]  # kinetree.app.features


def nothing(_window) -> None:
    return None


def names(features) -> list[str]:
    return [f.name for f in features]


def test_a_feature_is_installed_after_the_features_it_requires():
    a, b, c = Feature("a", nothing, requires=("c",)), Feature("b", nothing), Feature("c", nothing, requires=("b",))
    assert names(install_order([a, b, c])) == ["b", "c", "a"]
    assert names(install_order([b, c, a])) == ["b", "c", "a"]  # already in order: the list's order


def test_a_feature_requiring_one_not_in_the_list_is_refused_with_both_names():
    with pytest.raises(FeatureError, match=r"feature 'torques' requires 'playback', which is not in the feature"):
        install_order([Feature("teach", nothing), Feature("torques", nothing, requires=("playback",))])


def test_a_cycle_and_a_feature_listed_twice_are_refused():
    with pytest.raises(FeatureError, match="'a' requires itself through a → b → a"):
        install_order([Feature("a", nothing, requires=("b",)), Feature("b", nothing, requires=("a",))])
    with pytest.raises(FeatureError, match="'a' is in the feature list twice"):
        install_order([Feature("a", nothing), Feature("a", nothing)])


def test_the_window_installs_its_features_in_dependency_order(make_window):
    window = make_window()
    order = names(window.feature_order)
    assert sorted(order) == sorted(names(FEATURES)) == sorted(window.features)
    for feature in FEATURES:
        for needed in feature.requires:
            assert order.index(needed) < order.index(feature.name), (feature.name, needed)
    assert window.features["present"] is window.present  # the registry and the declared attribute agree
    assert window.features["simulate"] is window.simulate


def test_the_window_refuses_a_feature_list_with_a_missing_requirement_before_installing_any(qtbot, tmp_path,
                                                                                             monkeypatch):
    installed = []
    broken = Feature("lecture", lambda w: installed.append("lecture"), requires=("projector",))
    monkeypatch.setattr(main_window_module, "FEATURES", (*FEATURES, broken))
    with pytest.raises(FeatureError, match="feature 'lecture' requires 'projector'"):
        MainWindow(settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    assert installed == []


def test_a_declared_action_the_feature_did_not_make_is_an_error_naming_both(make_window, monkeypatch):
    liar = Feature("liar", nothing, actions={"noSuchAction": At(MenuId.VIEW, "tools", 1)})
    monkeypatch.setattr(main_window_module, "FEATURES", (*FEATURES, liar))
    with pytest.raises(FeatureError, match="feature 'liar' declares the action 'noSuchAction'"):
        make_window()


def menu_entries(menu: QMenu) -> list[tuple[str, str]]:
    """(object name, text) of every entry of ``menu`` and its submenus, separators left out."""
    found = []
    for a in menu.actions():
        if a.isSeparator():
            continue
        found.append((a.objectName(), a.text()))
        if a.menu() is not None:
            found += menu_entries(a.menu())
    return found


def test_every_menu_and_menu_action_has_an_id(make_window):
    window = make_window()
    window.menus[MenuId.FILE_RECENT].aboutToShow.emit()  # filled as it opens
    bar = window.menuBar().actions()
    assert [a.menu().objectName() for a in bar] == [m.value for m, spec in MENUS.items() if spec.at is None]
    entries = [e for a in bar for e in [(a.objectName(), a.text()), *menu_entries(a.menu())]]
    assert len(entries) > 60
    assert [text for name, text in entries if not name] == []
    for menu_id in MenuId:  # each menu is the one its id names
        assert window.menus[menu_id].objectName() == menu_id.value


def view_menu(window) -> list[str]:
    return [a.objectName() or "---" for a in window.menus[MenuId.VIEW].actions()]


def test_the_menus_follow_the_declarations_not_the_install_order(make_window, monkeypatch):
    listed = view_menu(make_window("listed.ini"))
    assert listed[:3] == ["toggle_posesDock", "toggle_simulateDock", "toggle_torquesDock"]
    monkeypatch.setattr(main_window_module, "FEATURES", tuple(reversed(FEATURES)))
    reversed_window = make_window("reversed.ini")
    assert names(reversed_window.feature_order) != names(FEATURES)
    assert view_menu(reversed_window) == listed


def test_menus_place_actions_by_group_and_order_with_separators_between_groups(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    menus = Menus(window)
    for name, at in (("c", At(MenuId.VIEW, "present", 10)), ("b", At(MenuId.VIEW, "features", 20)),
                     ("a", At(MenuId.VIEW, "features", 10)), ("d", At(MenuId.VIEW_TOOL, "tools", 0))):
        action = QAction(name, window)
        action.setObjectName(name)
        menus.add(action, at)
    assert [a.objectName() or "---" for a in menus[MenuId.VIEW].actions()] == [
        "a", "b", "---", "toolMenuAction", "---", "c"]  # the Tool submenu shows with its first action
    with pytest.raises(FeatureError, match="action 'e': menu 'viewMenu' has no group 'nowhere'"):
        bad = QAction("e", window)
        bad.setObjectName("e")
        menus.add(bad, At(MenuId.VIEW, "nowhere", 0))


def test_no_module_finds_a_menu_by_its_text():
    """Only the menu registry adds menus to the menu bar or lists them; nothing looks one up by title."""
    pattern = re.compile(r"menuBar\(\)\.(actions|addMenu)|menu_named|\.text\(\)\.startswith\(\"(Export|&)")
    offenders = [f"{path.name}:{n}: {line.strip()}" for path in sorted(APP.rglob("*.py")) if path.name != "features.py"
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert offenders == []


def test_the_window_has_no_undeclared_attributes(make_window):
    """What features put on the window is declared on MainWindow (or set by its own methods)."""
    source = ast.parse(Path(main_window_module.__file__).read_text(encoding="utf-8"))
    own = {t.attr for node in ast.walk(source) if isinstance(node, ast.Assign | ast.AnnAssign)
           for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
           if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}
    declared = set(dir(MainWindow)) | own  # Qt's signals show up in an instance's vars too
    window = make_window()
    undeclared = sorted(k for k in vars(window) if not k.startswith("_") and k not in declared)
    assert undeclared == []


def test_a_feature_module_added_with_one_line_in_the_list_is_installed(make_window, monkeypatch):
    """CONTRIBUTING's example feature (a Notes dock): its module, and one line in FEATURE_MODULES."""
    source, line = contributing_example("app/features/notes.py", "notes")
    plant_module(monkeypatch, PACKAGE, "notes", source)
    modules = LazyImports(feature_list.__name__, {**feature_list.FEATURE_MODULES.table, **line})
    monkeypatch.setattr(main_window_module, "FEATURES", features_of(modules))
    window = make_window()
    assert "notes" in names(window.feature_order)
    assert window.features["notes"].objectName() == "notesDock"
    assert "toggle_notesDock" in view_menu(window)


def test_a_listed_module_without_a_feature_is_refused_naming_it(monkeypatch):
    plant_module(monkeypatch, PACKAGE, "not_a_feature", "NOTES = 'no FEATURE here'\n")
    modules = LazyImports(feature_list.__name__, {"ik_tools": ".ik_tools", "notes": ".not_a_feature"})
    with pytest.raises(FeatureError, match=r"feature module '\.not_a_feature' \(FEATURE_MODULES\['notes'\]\) "
                                           "declares no FEATURE"):
        features_of(modules)
