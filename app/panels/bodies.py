"""Bodies panel: the tree of bodies, with add, rename, delete, duplicate, reparent, retype."""

from __future__ import annotations

from kinetree.core import JOINT_TYPES, RigidBodyTree
from PySide6.QtCore import QAbstractItemModel, QMimeData, QModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QMenu, QToolBar, QTreeView, QVBoxLayout, QWidget

from ..document import RobotDocument
from ..edits import add_child, change_joint_type, duplicate_subtree, move_subtree, rename_body
from ..icons import joint_icon

MIME = "application/x-kinetree-body"


class BodyTreeModel(QAbstractItemModel):
    """A thin adapter over the document's tree (it owns no copy). Internal ids: 0 = base,
    i + 1 = body i. Reset whenever the tree changes."""

    COLUMNS = ("Body", "Joint", "Type")

    def __init__(self, doc: RobotDocument) -> None:
        super().__init__()
        self.doc = doc
        self._refresh_cache()
        doc.treeChanged.connect(self._on_tree_changed)

    def _refresh_cache(self) -> None:
        tree = self.doc.tree
        self._names = [tree.base_name, *tree.body_names]
        ids = {n: i for i, n in enumerate(self._names)}
        self._parent = [-1] + [ids[tree.parent_name(n)] for n in self._names[1:]]
        self._children: list[list[int]] = [[] for _ in self._names]
        for i, p in enumerate(self._parent):
            if p >= 0:
                self._children[p].append(i)

    def _on_tree_changed(self) -> None:
        self.beginResetModel()
        self._refresh_cache()
        self.endResetModel()

    def index_of(self, name: str) -> QModelIndex:
        if name not in self._names:
            return QModelIndex()
        i = self._names.index(name)
        p = self._parent[i]
        row = 0 if p < 0 else self._children[p].index(i)
        return self.createIndex(row, 0, i)

    def name_of(self, index: QModelIndex) -> str | None:
        return self._names[index.internalId()] if index.isValid() else None

    # --- QAbstractItemModel ------------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)
        return self.createIndex(row, column, self._children[parent.internalId()][row])

    def parent(self, index: QModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        p = self._parent[index.internalId()]
        if p < 0:
            return QModelIndex()
        pp = self._parent[p]
        row = 0 if pp < 0 else self._children[pp].index(p)
        return self.createIndex(row, 0, p)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        if parent.column() > 0:
            return 0
        if not parent.isValid():
            return 1
        return len(self._children[parent.internalId()])

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802
        return len(self.COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        i, col = index.internalId(), index.column()
        tree = self.doc.tree
        body = tree.get_body(self._names[i])
        is_base = i == 0
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                return body.name
            if is_base:
                return "" if col == 1 else "base"
            return body.joint.name if col == 1 else body.joint.type
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return joint_icon("base" if is_base else body.joint.type)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{body.name}" if is_base else f"{body.name}: {body.joint.type} joint {body.joint.name!r}"
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDropEnabled
        if index.column() == 0 or (index.column() == 1 and index.internalId() != 0):
            f |= Qt.ItemFlag.ItemIsEditable
        if index.internalId() != 0:
            f |= Qt.ItemFlag.ItemIsDragEnabled
        return f

    def setData(self, index: QModelIndex, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        name = self._names[index.internalId()]
        value = str(value).strip()
        if index.column() == 0:
            if value == name:
                return False
            return self.doc.try_edit(f"Rename {name} to {value}", lambda t: rename_body(t, name, value)) is None
        if index.column() == 1:
            joint = self.doc.tree.get_body(name).joint.name
            if value == joint:
                return False
            return self.doc.try_edit(f"Rename joint {joint} to {value}",
                                     lambda t: setattr(t.get_body(name).joint, "name", value)) is None
        return False

    # --- drag and drop: move a subtree to another parent ---------------------------------------
    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [MIME]

    def mimeData(self, indexes) -> QMimeData:  # noqa: N802
        md = QMimeData()
        names = {self.name_of(i) for i in indexes if i.isValid()}
        md.setData(MIME, "\n".join(sorted(n for n in names if n)).encode())
        return md

    def dropMimeData(self, data: QMimeData, action, row, column, parent: QModelIndex) -> bool:  # noqa: N802
        if not data.hasFormat(MIME) or not parent.isValid():
            return False
        target = self.name_of(parent)
        for name in bytes(data.data(MIME)).decode().splitlines():
            self.doc.try_edit(f"Move {name} under {target}", lambda t, n=name: move_subtree(t, n, target))
        return False  # the document rebuilt the model; nothing for the view to remove


class BodiesPanel(QWidget):
    """Tree view of the bodies with its edit actions."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.model = BodyTreeModel(doc)
        self.view = QTreeView()
        self.view.setObjectName("bodiesView")
        self.view.setModel(self.model)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.view.setDragEnabled(True)
        self.view.setAcceptDrops(True)
        self.view.setDropIndicatorShown(True)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed
                                  | QAbstractItemView.EditTrigger.DoubleClicked)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)

        self.add_menu = QMenu("Add child", self)
        self.add_actions = {}
        for jt in JOINT_TYPES:
            a = self.add_menu.addAction(joint_icon(jt), f"{jt.capitalize()} joint")
            a.triggered.connect(lambda _=False, jt=jt: self.add_child(jt))
            self.add_actions[jt] = a
        self.type_menu = QMenu("Change joint type", self)
        for jt in JOINT_TYPES:
            a = self.type_menu.addAction(joint_icon(jt), jt.capitalize())
            a.triggered.connect(lambda _=False, jt=jt: self.change_type(jt))
        self.add_action = QAction("Add child body", self, shortcut=QKeySequence("Ctrl+Shift+A"))
        self.add_action.setMenu(self.add_menu)
        self.add_action.triggered.connect(lambda: self.add_child("revolute"))
        self.rename_action = QAction("Rename", self, shortcut=QKeySequence("F2"))
        self.rename_action.triggered.connect(self.rename)
        self.delete_action = QAction("Delete with subtree", self, shortcut=QKeySequence.StandardKey.Delete)
        self.delete_action.triggered.connect(self.delete)
        self.duplicate_action = QAction("Duplicate subtree", self, shortcut=QKeySequence("Ctrl+D"))
        self.duplicate_action.triggered.connect(self.duplicate)
        for a in (self.add_action, self.rename_action, self.delete_action, self.duplicate_action):
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(a)

        # short button texts (the full names are the tooltips and the menu entries): every
        # action fits in a 300 px dock without the toolbar's ">>" overflow menu
        for a, short in ((self.add_action, "Add child"), (self.rename_action, "Rename"),
                         (self.duplicate_action, "Duplicate"), (self.delete_action, "Delete")):
            a.setIconText(short)
        bar = QToolBar()
        bar.setObjectName("bodiesToolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (self.add_action, self.rename_action, self.duplicate_action, self.delete_action):
            bar.addAction(a)
        self.toolbar = bar
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(bar)
        layout.addWidget(self.view)

        # the document's selection is the only truth: the view's selection reports to it, and a
        # click on a row selects that row's body even when the row is already current (the
        # view's current index survives a deselection made elsewhere, so currentChanged alone
        # would miss that click)
        self._syncing = False
        self.view.selectionModel().selectionChanged.connect(self._on_view_selection)
        self.view.pressed.connect(lambda index: self.doc.select(self.model.name_of(index)))
        self.model.modelReset.connect(self._sync_selection)
        doc.selectionChanged.connect(lambda _n: self._sync_selection())
        doc.treeChanged.connect(self._update_actions)
        self._sync_selection()

    def current(self) -> str:
        """The body the actions work on: the document's selection, else the base."""
        return self.doc.selection or self.doc.tree.base_name

    def _on_view_selection(self, *_args) -> None:
        if self._syncing:
            return
        rows = self.view.selectionModel().selectedRows()
        self.doc.select(self.model.name_of(rows[0]) if rows else None)

    def _sync_selection(self) -> None:
        self.view.expandAll()
        for c in range(self.model.columnCount()):
            self.view.resizeColumnToContents(c)
        name = self.doc.selection
        index = self.model.index_of(name) if name else QModelIndex()
        sm = self.view.selectionModel()
        self._syncing = True  # a flag, not blocked signals: the view must see its selection change
        try:
            if index.isValid():
                sm.setCurrentIndex(index, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
                self.view.scrollTo(index)
            else:
                sm.clearSelection()
                sm.clearCurrentIndex()
        finally:
            self._syncing = False
        self._update_actions()

    def _update_actions(self) -> None:
        """Enable what makes sense for the document's selection; name the target in tooltips."""
        name = self.doc.selection
        body = name is not None and name != self.doc.tree.base_name
        target = self.current()
        self.add_action.setToolTip(f"Add a child body under {target}"
                                   + ("" if name else " (nothing selected)") + " (Ctrl+Shift+A)")
        self.rename_action.setEnabled(name is not None)
        for a in (self.delete_action, self.duplicate_action):
            a.setEnabled(body)
        self.type_menu.setEnabled(body)
        self.delete_action.setToolTip(f"Delete {name} and its subtree (Del)" if body
                                      else "Select a body to delete (the base cannot be deleted)")
        self.duplicate_action.setToolTip(f"Duplicate {name} and its subtree (Ctrl+D)" if body
                                         else "Select a body to duplicate")

    # --- actions -----------------------------------------------------------------------------
    def add_child(self, jtype: str) -> None:
        parent = self.current()
        self.doc.try_edit(f"Add {jtype} body under {parent}", lambda t: add_child(t, parent, jtype))

    def rename(self) -> None:
        index = self.model.index_of(self.current())
        if index.isValid():
            self.view.edit(index)

    def delete(self) -> None:
        name = self.doc.selection
        if not name or name == self.doc.tree.base_name:
            self.doc.message.emit("Select a body to delete (the base cannot be deleted)")
            return
        parent = self.doc.tree.parent_name(name)

        def remove(t: RigidBodyTree) -> str | None:
            t.remove_body(name)
            return parent if parent != t.base_name else None

        self.doc.try_edit(f"Delete {name}", remove)

    def duplicate(self) -> None:
        name = self.doc.selection
        if not name or name == self.doc.tree.base_name:
            self.doc.message.emit("Select a body to duplicate")
            return
        self.doc.try_edit(f"Duplicate {name}", lambda t: duplicate_subtree(t, name))

    def change_type(self, jtype: str) -> None:
        name = self.doc.selection
        if not name or name == self.doc.tree.base_name:
            self.doc.message.emit("Select a body whose joint type to change")
            return
        self.doc.try_edit(f"Make {name}'s joint {jtype}", lambda t: change_joint_type(t, name, jtype))

    def _context_menu(self, pos) -> None:
        menu = QMenu(self)
        menu.addMenu(self.add_menu)
        menu.addAction(self.rename_action)
        menu.addAction(self.duplicate_action)
        menu.addMenu(self.type_menu)
        menu.addSeparator()
        menu.addAction(self.delete_action)
        menu.exec(self.view.viewport().mapToGlobal(pos))
