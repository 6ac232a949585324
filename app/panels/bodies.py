"""Bodies panel: the tree of bodies, with add, rename, delete, duplicate, reparent, retype."""

from __future__ import annotations

from kinetree.core import JOINT_TYPES, KineTreeError, RigidBodyTree
from kinetree.core.kinematics.loop_closing import loop_path
from PySide6.QtCore import QAbstractItemModel, QMimeData, QModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QMenu, QToolBar, QTreeView, QVBoxLayout, QWidget

from ..model.changes import TreeChange
from ..model.document import RobotDocument
from ..model.edits import add_child, change_joint_type, duplicate_subtree, move_subtree, rename_body
from ..model.text import MAX_NAME, elide, plain_tip
from ..widgets.icons import joint_icon, type_label

MIME = "application/x-kinetree-body"
LOOP_MARK = "⟲"


class BodyTreeModel(QAbstractItemModel):
    """A thin adapter over the document's tree (it owns no copy of the bodies).

    Internal ids are stable per body (0 = base): an edit inserts, removes or updates only the
    rows it touched, so the view keeps its expansion, selection and scroll position. A new
    document, or an edit too large to follow row by row, resets the model."""

    COLUMNS = ("Body", "Joint", "Type", "Loop")  # Loop: "⟲" on a body a closed loop moves
    MAX_ROW_CHANGES = 200  # more structural changes than this in one edit: reset instead
    MAX_DEPTH = 32  # bodies nested deeper are shown flat under their ancestor at this depth

    def __init__(self, doc: RobotDocument) -> None:
        super().__init__()
        self.doc = doc
        self.updating = False
        self._next_id = 0
        self._refresh_cache()
        doc.treeChanged.connect(self._on_tree_changed)

    # --- the cache: ids, names, parents, children --------------------------------------------
    def _refresh_cache(self) -> None:
        tree = self.doc.tree
        self._id: dict[str, int] = {}
        self._name: dict[int, str] = {}
        self._parent: dict[int, int] = {}
        self._children: dict[int, list[int]] = {}
        self._row: dict[int, int] = {}
        self._next_id = 0
        self._register(tree.base_name, -1)
        self._add_descendants(tree.base_name, self._new_children(tree))

    @classmethod
    def _new_children(cls, tree: RigidBodyTree) -> dict[str, list[str]]:
        """The rows under each row: a body's children, except that below :attr:`MAX_DEPTH`
        levels every descendant is listed flat (depth first) under its ancestor at that depth.
        Qt's tree view lays out (and expands) nested rows by recursion, one C++ stack frame
        per level: a 40,000-body chain overflowed the stack and killed the app."""
        kids: dict[str, list[str]] = {tree.base_name: []}
        for n in tree.body_names:
            kids.setdefault(n, [])
            kids.setdefault(tree.parent_name(n), []).append(n)
        rows: dict[str, list[str]] = {n: [] for n in kids}
        stack = [(c, 1, tree.base_name) for c in reversed(kids[tree.base_name])]
        while stack:  # depth first, in the tree's order of children
            n, depth, shown_parent = stack.pop()
            rows[shown_parent].append(n)
            below = n if depth < cls.MAX_DEPTH else shown_parent
            stack.extend((c, depth + 1, below) for c in reversed(kids[n]))
        return rows

    def _register(self, name: str, parent: int) -> int:
        i = self._next_id
        self._next_id += 1
        self._id[name], self._name[i], self._parent[i], self._children[i] = i, name, parent, []
        self._row[i] = 0
        return i

    def _add_descendants(self, name: str, kids: dict[str, list[str]]) -> None:
        stack = [name]
        while stack:
            n = stack.pop()
            p = self._id[n]
            for c in kids.get(n, ()):
                i = self._register(c, p)
                self._children[p].append(i)
                stack.append(c)
            self._renumber(p)

    def _renumber(self, parent: int) -> None:
        for r, c in enumerate(self._children[parent]):
            self._row[c] = r

    def _drop(self, i: int) -> None:
        stack = [i]
        while stack:
            k = stack.pop()
            stack.extend(self._children.pop(k))
            del self._id[self._name.pop(k)], self._parent[k], self._row[k]

    # --- following the document ----------------------------------------------------------------
    def _on_tree_changed(self, change: TreeChange | None = None) -> None:
        self.updating = True  # the view's current row moves as rows go: not the user's choice
        try:
            if change is None or change.kind == "reset" or not self._follow(change):
                self.beginResetModel()
                self._refresh_cache()
                self.endResetModel()
        finally:
            self.updating = False

    def _follow(self, change: TreeChange) -> bool:
        """Apply ``change`` row by row; False if that is not possible (the caller resets)."""
        tree = self.doc.tree
        for old, new in change.renamed:
            if old not in self._id or new in self._id and old != new:
                return False
        for old, new in change.renamed:
            i = self._id.pop(old)
            self._id[new], self._name[i] = i, new
        if change.at_least("structure"):
            if len(change.bodies) > self.MAX_ROW_CHANGES or not self._follow_structure(tree):
                return False
        last = len(self.COLUMNS) - 1
        shown = self.__dict__.setdefault("_shown", {})  # id → the row's texts when last announced
        for name in change.bodies:
            i = self._id.get(name)
            if i is not None:
                # a frame dragged changes its joint's transform at every mouse move: its row's
                # texts stay, and a dataChanged would refit the columns (0.7 s at 1000 bodies)
                try:
                    joint = tree.get_body(name).joint if i != 0 else None
                except KineTreeError:
                    joint = None
                texts = None if joint is None else (name, joint.name, joint.type, name in self._loop_bodies())
                if texts is not None and shown.get(i) == texts:
                    continue
                shown[i] = texts
                self.dataChanged.emit(self.createIndex(self._row[i], 0, i),
                                      self.createIndex(self._row[i], last, i))
        return True

    def _follow_structure(self, tree: RigidBodyTree) -> bool:
        kids = self._new_children(tree)
        new_parent = {c: p for p, cs in kids.items() for c in cs}
        if tree.base_name not in self._id:
            return False
        # removals: every body gone or under another parent leaves with its subtree. As one
        # layout change, not rowsRemoved: Qt walks every persistent index (one per expanded
        # row) up to the root for each removal, seconds on a deep tree of thousands of bodies
        base, name, parent = tree.base_name, self._name, self._parent
        gone = [i for n, i in self._id.items() if n != base and new_parent.get(n) != name[parent[i]]]
        if gone:
            self.layoutAboutToBeChanged.emit()
            before = self.persistentIndexList()
            for i in gone:
                if i not in self._name:
                    continue  # left with an ancestor
                p = self._parent[i]
                self._children[p].pop(self._row[i])
                self._renumber(p)
                self._drop(i)
            after = [self.createIndex(self._row[k], x.column(), k) if (k := x.internalId()) in self._name
                     else QModelIndex() for x in before]
            self.changePersistentIndexList(before, after)
            self.layoutChanged.emit()
        # insertions, parents first: a body not shown arrives with its whole subtree
        order = {n: k for cs in kids.values() for k, n in enumerate(cs)}
        for name in tree.body_names:
            if name in self._id:
                continue
            pname = new_parent[name]
            p = self._id.get(pname)
            if p is None:
                return False
            row = sum(1 for c in self._children[p] if order[self._name[c]] < order[name])
            self.beginInsertRows(self.createIndex(self._row[p], 0, p), row, row)
            i = self._register(name, p)
            self._children[p].insert(row, i)
            self._renumber(p)
            self._add_descendants(name, kids)
            self.endInsertRows()
        # the rows must now be the tree's, in its order; anything else (siblings reordered): reset
        return all([self._name[c] for c in cs] == kids.get(self._name[p], [])
                   for p, cs in self._children.items()) and len(self._id) == tree.num_bodies + 1

    def _loop_bodies(self) -> frozenset[str]:
        """The bodies a closed loop moves (the tree path between its two bodies), once per tree version."""
        tree = self.doc.tree
        key = (tree, tree.revision)
        if self.__dict__.get("_loops_key") != key:
            names = (n for lp in tree.loops for n in loop_path(tree, lp.body_a, lp.body_b)) if tree.loops else ()
            self._loops_key, self._loops_in = key, frozenset(names)
        return self._loops_in

    def index_of(self, name: str) -> QModelIndex:
        i = self._id.get(name)
        return QModelIndex() if i is None else self.createIndex(self._row[i], 0, i)

    def name_of(self, index: QModelIndex) -> str | None:
        return self._name.get(index.internalId()) if index.isValid() else None

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
        return QModelIndex() if p < 0 else self.createIndex(self._row[p], 0, p)

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
        try:
            body = tree.get_body(self._name[i])
        except KineTreeError:  # a row of the tree before the edit, asked for while the rows follow it
            return None
        is_base = i == 0
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                return body.name
            if col == 3:
                return LOOP_MARK if body.name in self._loop_bodies() else ""
            if is_base:
                return "" if col == 1 else "base"
            return body.joint.name if col == 1 else body.joint.type
        if role == Qt.ItemDataRole.DecorationRole and col == 0:
            return joint_icon("base" if is_base else body.joint.type)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 3 and body.name in self._loop_bodies():
                passive = "passive: solved by the loop" if not body.joint.actuated else "actuated"
                return plain_tip(elide(f"{body.name} is on a closed loop ({passive})"))
            if is_base:
                return plain_tip(elide(body.name))
            tip = f"{body.name}: {body.joint.type} joint {body.joint.name!r}"
            parent = tree.parent_name(body.name)
            if self._name[self._parent[i]] != parent:  # listed flat, deeper than MAX_DEPTH
                tip += (f", child of {elide(parent, MAX_NAME)} (bodies deeper than {self.MAX_DEPTH} levels "
                        "are listed flat)")
            return plain_tip(elide(tip))
        return None

    # (editable, draggable) -> flags: combined once (Qt asks for every visible cell on each
    # selection change, and Python enum arithmetic costs more than the rest of the call)
    _FLAGS = {(e, d): Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDropEnabled
              | (Qt.ItemFlag.ItemIsEditable if e else Qt.ItemFlag.NoItemFlags)
              | (Qt.ItemFlag.ItemIsDragEnabled if d else Qt.ItemFlag.NoItemFlags)
              for e in (False, True) for d in (False, True)}

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        body = index.internalId() != 0  # not the base
        column = index.column()
        return self._FLAGS[(column == 0 or (column == 1 and body), body)]

    def setData(self, index: QModelIndex, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        name = self._name[index.internalId()]
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
        # every row is one line of text and an icon: the view need not ask each row for its size
        # (a 5000-body tree was asked 300k times per selection change)
        self.view.setUniformRowHeights(True)
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
            a = self.add_menu.addAction(joint_icon(jt), f"{type_label(jt, capital=True)} joint")
            a.setObjectName(f"addChild_{jt}")
            a.triggered.connect(lambda _=False, jt=jt: self.add_child(jt))
            self.add_actions[jt] = a
        # a tool point (or a loop's far end) is the other child people add most: a key of its own
        self.add_actions["fixed"].setShortcut(QKeySequence("Ctrl+Shift+F"))
        self.type_menu = QMenu("Change joint type", self)
        for jt in JOINT_TYPES:
            a = self.type_menu.addAction(joint_icon(jt), type_label(jt, capital=True))
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
        for a, name in ((self.add_action, "addChildAction"), (self.rename_action, "renameAction"),
                        (self.delete_action, "deleteAction"), (self.duplicate_action, "duplicateAction")):
            a.setObjectName(name)  # its id in the Edit menu
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
        self.model.modelReset.connect(self._on_reset)
        self.model.rowsInserted.connect(self._on_rows_inserted)
        self.model.dataChanged.connect(lambda top, bottom, *_: self._widen_for(top.parent(), top.row(), bottom.row()))
        doc.selectionChanged.connect(lambda _n: self._sync_selection())
        doc.treeChanged.connect(self._after_edit)
        self._on_reset()

    def current(self) -> str:
        """The body the actions work on: the document's selection, else the base."""
        return self.doc.selection or self.doc.tree.base_name

    def _on_view_selection(self, *_args) -> None:
        if self._syncing or self.model.updating:
            return
        rows = self.view.selectionModel().selectedRows()
        self.doc.select(self.model.name_of(rows[0]) if rows else None)

    def _on_reset(self) -> None:
        self.view.expandAll()
        self._fit_columns()
        self._sync_selection()

    def _fit_columns(self, *_args) -> None:
        """Columns as wide as their contents (the header samples at most 1000 rows): the name
        column stayed 80 px wide while bodies were added, renamed or nested deeper."""
        for c in range(self.model.columnCount()):
            self.view.resizeColumnToContents(c)

    def _widen_for(self, parent: QModelIndex, first: int, last: int) -> None:
        """Widen the columns to fit rows ``first``…``last`` of ``parent`` and what is under
        them (a rename, a joint type, new bodies): measuring only those rows, since fitting
        every column to all rows reads each of them (~0.4 s an edit at 1000 bodies)."""
        view, model = self.view, self.model
        stack = [model.index(r, 0, parent) for r in range(first, last + 1)]
        need = [0] * model.columnCount()
        seen = 0
        while stack and seen < 1000:  # as the header samples: a pasted subtree is not measured row by row
            index = stack.pop()
            seen += 1
            depth, up = 1, index.parent()
            while up.isValid():
                depth, up = depth + 1, up.parent()
            for c in range(len(need)):
                cell = index.siblingAtColumn(c)
                width = view.sizeHintForIndex(cell).width() + (depth * view.indentation() if c == 0 else 0)
                need[c] = max(need[c], width)
            stack.extend(model.index(r, 0, index) for r in range(model.rowCount(index)))
        for c, width in enumerate(need):
            if width > view.columnWidth(c):
                view.setColumnWidth(c, width)

    def _on_rows_inserted(self, parent: QModelIndex, first: int, last: int) -> None:
        # new bodies show expanded, as a freshly opened tree does; other rows keep their state
        self.view.expand(parent)
        for r in range(first, last + 1):
            self.view.expandRecursively(self.model.index(r, 0, parent))
        self._widen_for(parent, first, last)

    def _after_edit(self, _change=None) -> None:
        self._sync_selection()

    def _sync_selection(self) -> None:
        name = self.doc.selection
        index = self.model.index_of(name) if name else QModelIndex()
        sm = self.view.selectionModel()
        if index.isValid() and sm.currentIndex() == index and sm.isRowSelected(index.row(), index.parent()):
            self._scroll_to(index)  # already selected (an edit elsewhere): re-selecting walks the model
            self._update_actions()
            return
        self._syncing = True  # a flag, not blocked signals: the view must see its selection change
        try:
            if index.isValid():
                sm.setCurrentIndex(index, sm.SelectionFlag.ClearAndSelect | sm.SelectionFlag.Rows)
                self._scroll_to(index)
            else:
                sm.clearSelection()
                sm.clearCurrentIndex()
        finally:
            self._syncing = False
        self._update_actions()

    def _scroll_to(self, index: QModelIndex) -> None:
        """Bring the row into sight, sideways too: a deeply nested row starts hundreds of pixels
        to the right, out of a narrow dock (scrollTo only scrolls up and down to it)."""
        self.view.scrollTo(index)
        left, width = self.view.visualRect(index).left(), self.view.viewport().width()
        if not 0 <= left < width - 40:
            bar = self.view.horizontalScrollBar()
            bar.setValue(bar.value() + left - 20)

    def _update_actions(self) -> None:
        """Enable what makes sense for the document's selection; name the target in tooltips."""
        name = self.doc.selection
        body = name is not None and name != self.doc.tree.base_name
        target = elide(self.current(), MAX_NAME)
        name = elide(name, MAX_NAME) if name else name
        self.add_action.setToolTip(plain_tip(f"Add a child body under {target}"
                                             + ("" if name else " (nothing selected)") + " (Ctrl+Shift+A)"))
        self.rename_action.setEnabled(name is not None)
        for a in (self.delete_action, self.duplicate_action):
            a.setEnabled(body)
        self.type_menu.setEnabled(body)
        self.delete_action.setToolTip(plain_tip(f"Delete {name} and its subtree (Del)") if body
                                      else "Select a body to delete (the base cannot be deleted)")
        self.duplicate_action.setToolTip(plain_tip(f"Duplicate {name} and its subtree (Ctrl+D)") if body
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
