"""Window features as registered parts, and the menus they put their actions in.

A feature (teach, playback, simulate, present, help, …) is one module that ends with a
:class:`Feature` declaration: its name, the features it needs installed first, the docks it adds,
where each of its actions goes in the menus (by :class:`MenuId` and a group, never by a menu's
visible text or an index) and its docks' default place. The window installs the feature list
(``FEATURES`` in :mod:`..features.feature_list`) in dependency order, checked before anything is installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

from kinetree.core import KineTreeError
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMenu

if TYPE_CHECKING:
    from .main_window import MainWindow


class FeatureError(KineTreeError):
    """A feature list that cannot be installed: a missing requirement, a cycle, an action or
    dock declared but not made, a menu group that does not exist."""


class MenuId(StrEnum):
    """Every menu of the window; the value is the menu's object name."""

    FILE = "fileMenu"
    FILE_LIBRARY = "libraryMenu"
    FILE_RECENT = "recentMenu"
    EDIT = "editMenu"
    VIEW = "viewMenu"
    VIEW_TOOL = "toolMenu"
    VIEW_EXPLAIN_KEYS = "explainKeysMenu"
    HELP = "helpMenu"


class At(NamedTuple):
    """Where an action goes: its menu, a group of that menu, and its order in the group."""

    menu: MenuId
    group: str
    order: int


@dataclass(frozen=True)
class MenuSpec:
    title: str
    groups: tuple[str, ...]  # top first; a separator between two groups that have actions
    at: At | None = None  # a submenu's place in its parent (None: in the menu bar, in MENUS' order)


#: the menus, menu bar ones in their order; a submenu shows once it has an action
MENUS: dict[MenuId, MenuSpec] = {
    MenuId.FILE: MenuSpec("&File", ("open", "export", "quit")),
    MenuId.FILE_LIBRARY: MenuSpec("New from &library", ("robots",), At(MenuId.FILE, "open", 20)),
    MenuId.FILE_RECENT: MenuSpec("Open &recent", ("files",), At(MenuId.FILE, "open", 60)),
    MenuId.EDIT: MenuSpec("&Edit", ("undo", "build")),
    # features: the optional docks and the DH overlay; panels: the five main docks' toggles
    MenuId.VIEW: MenuSpec("&View", ("features", "panels", "camera", "text", "tools", "present")),
    MenuId.VIEW_TOOL: MenuSpec("&Tool", ("tools", "axes"), At(MenuId.VIEW, "tools", 60)),
    MenuId.VIEW_EXPLAIN_KEYS: MenuSpec("Explain &keys", ("keys",), At(MenuId.VIEW, "present", 20)),
    MenuId.HELP: MenuSpec("&Help", ("help",)),
}


class Menus:
    """The window's menus by :class:`MenuId`; :meth:`add` puts an action in its place, so the
    order in a menu follows the declarations, not the order features were installed in."""

    def __init__(self, window: MainWindow) -> None:
        self._menus: dict[MenuId, QMenu] = {}
        self._entries: dict[MenuId, list[tuple[int, int, int, QAction]]] = {m: [] for m in MENUS}
        self._separators: dict[MenuId, list[QAction]] = {m: [] for m in MENUS}
        for menu_id, spec in MENUS.items():
            if spec.at is None:
                menu = window.menuBar().addMenu(spec.title)
            else:
                menu = QMenu(spec.title, self._menus[spec.at.menu])
            menu.setObjectName(menu_id.value)
            menu.menuAction().setObjectName(f"{menu_id.value}Action")
            self._menus[menu_id] = menu

    def __getitem__(self, menu_id: MenuId) -> QMenu:
        return self._menus[menu_id]

    def bar(self) -> list[QMenu]:
        """The menu bar's menus, in their order."""
        return [self._menus[m] for m, spec in MENUS.items() if spec.at is None]

    def add(self, action: QAction, at: At) -> QAction:
        """Put ``action`` in menu ``at.menu``, in group ``at.group``, by ``at.order`` (ties: in
        the order added)."""
        groups = MENUS[at.menu].groups
        if at.group not in groups:
            raise FeatureError(f"action {action.objectName()!r}: menu {at.menu.value!r} has no group {at.group!r} "
                               f"(it has {', '.join(groups)})")
        entries = self._entries[at.menu]
        entries.append((groups.index(at.group), at.order, len(entries), action))
        self._lay_out(at.menu)
        spec = MENUS[at.menu]
        if spec.at is not None and len(entries) == 1:  # a submenu shows with its first action
            self.add(self._menus[at.menu].menuAction(), spec.at)
        return action

    def _lay_out(self, menu_id: MenuId) -> None:
        menu, entries = self._menus[menu_id], sorted(self._entries[menu_id], key=lambda e: e[:3])
        for a in [e[3] for e in entries] + self._separators[menu_id]:
            menu.removeAction(a)
        spare = list(self._separators[menu_id])
        group = None
        for g, _order, _seq, action in entries:
            if group is not None and g != group:
                if not spare:
                    separator = QAction(menu)
                    separator.setSeparator(True)
                    self._separators[menu_id].append(separator)
                    spare.append(separator)
                menu.addAction(spare.pop(0))
            group = g
            menu.addAction(action)


@dataclass(frozen=True)
class Feature:
    """A window feature, declared at the end of its module.

    ``install(window)`` builds it (its widgets, docks and actions, each action with an object
    name) and returns what the window keeps of it in ``window.features[name]``; it places no
    action itself: ``actions`` maps each action's object name to where it goes, ``docks`` lists
    the object names of the docks it adds, and ``place(window)`` (if any) puts those docks in
    their default place (View ▸ Reset layout calls it too)."""

    name: str
    install: Callable[[MainWindow], Any]
    requires: tuple[str, ...] = ()
    docks: tuple[str, ...] = ()
    actions: Mapping[str, At] = field(default_factory=lambda: MappingProxyType({}))
    place: Callable[[MainWindow], None] | None = None


def install_order(features: tuple[Feature, ...] | list[Feature]) -> list[Feature]:
    """``features`` in an order where each comes after those it requires (else in list order);
    FeatureError for a name listed twice, a requirement not in the list, or a cycle."""
    by_name: dict[str, Feature] = {}
    for f in features:
        if f.name in by_name:
            raise FeatureError(f"feature {f.name!r} is in the feature list twice")
        by_name[f.name] = f
    for f in features:
        missing = [r for r in f.requires if r not in by_name]
        if missing:
            raise FeatureError(f"feature {f.name!r} requires {', '.join(map(repr, missing))}, which is not in the "
                               "feature list")
    order: list[Feature] = []
    state: dict[str, int] = {}  # 1: being visited, 2: placed

    def visit(f: Feature, path: list[str]) -> None:
        if state.get(f.name) == 2:
            return
        if state.get(f.name) == 1:
            cycle = path[path.index(f.name):] + [f.name]
            raise FeatureError(f"feature {f.name!r} requires itself through {' → '.join(cycle)}")
        state[f.name] = 1
        for r in f.requires:
            visit(by_name[r], [*path, f.name])
        state[f.name] = 2
        order.append(f)

    for f in features:
        visit(f, [])
    return order


def install_features(window: MainWindow, features: tuple[Feature, ...] | list[Feature]) -> list[Feature]:
    """Install ``features`` into ``window`` in dependency order (checked first); their actions go
    into ``window.menus`` where declared. Returns the features in the order installed."""
    order = install_order(features)
    for f in order:
        window.features[f.name] = f.install(window)
        for key in f.docks:
            if window.findChild(QDockWidget, key) is None:
                raise FeatureError(f"feature {f.name!r} declares the dock {key!r} but did not add it")
        for name, at in f.actions.items():
            action = window.findChild(QAction, name)
            if action is None:
                raise FeatureError(f"feature {f.name!r} declares the action {name!r} but did not make it")
            window.menus.add(action, at)
    return order
