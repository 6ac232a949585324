"""Poses panel: the document's named poses (Corke's qz, qr…, and the user's own).

Save the current configuration under a typed name, Go to a pose (double-click), Rename (F2 or
the button: the name is edited in place), Delete, and move a pose Up or Down. Every change of
the named poses is an edit of the document (one undo step); Go to is one undo step too. Bad
names are refused in place, under the list, with the engine's reason.

A pose's check box says whether the playback motion goes through it (in list order): that is
a choice of the moment, kept in the shared playback state, not in the document.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
from kinetree.core import KineTreeError
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import short_text
from ..model.text import plain

NAME_ROLE = Qt.ItemDataRole.UserRole


class PosesPanel(QWidget):
    """The list of named poses and the buttons that edit it (see the module docstring)."""

    torquesRequested = Signal()  # "Torques…": the window shows the Torques dock

    def __init__(self, doc: RobotDocument, state, parent: QWidget | None = None, settings=None) -> None:
        """``settings`` (a QSettings) remembers which poses of each project file were unticked."""
        super().__init__(parent)
        self.doc, self.state, self.settings = doc, state, settings
        # every pose takes part in playback unless unchecked; names stay here while their pose is
        # gone, so that undoing its rename or delete brings it back unchecked
        self._unchecked: set[str] = set()
        self._filling = False
        self.list = QListWidget()
        self.list.setObjectName("posesList")
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setToolTip("Named poses. Double-click: go there. Checked poses are played, in this order.")
        self.list.itemDoubleClicked.connect(lambda item: self.go_to(item.data(NAME_ROLE)))
        self.list.itemChanged.connect(self._item_changed)
        self.list.currentRowChanged.connect(lambda _r: self._update_buttons())
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("poseNameEdit")
        self.name_edit.setPlaceholderText("name for the current configuration")
        self.name_edit.setClearButtonEnabled(True)
        self.name_edit.returnPressed.connect(self.save_current)
        self.name_edit.textEdited.connect(lambda _t: self.show_error(None))
        self.save_button = QPushButton("Save as")
        self.save_button.setObjectName("savePoseButton")
        self.save_button.setToolTip("Save the current configuration under the typed name "
                                    "(a pose of that name is replaced)")
        self.save_button.clicked.connect(self.save_current)
        self.error = plain(QLabel())  # quotes the typed name
        self.error.setObjectName("posesError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d03030")
        self.error.hide()
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        for key, text, tip, slot in (
                ("go", "Go to", "Move the robot to the selected pose (one undo step)", self._go_current),
                ("rename", "Rename", "Rename the selected pose (F2)", self.start_rename),
                ("delete", "Delete", "Delete the selected pose", self._delete_current),
                ("up", "▲", "Move the selected pose up", lambda: self._move_current(-1)),
                ("down", "▼", "Move the selected pose down", lambda: self._move_current(1))):
            b = QPushButton(text)
            b.setObjectName(f"pose_{key}")
            b.setToolTip(tip)
            b.clicked.connect(slot)
            if key in ("up", "down"):
                b.setFixedWidth(b.fontMetrics().horizontalAdvance("▲") + 24)
            row.addWidget(b)
            self.buttons[key] = b
        row.addStretch(1)
        self.torques_button = QPushButton("Torques…")
        self.torques_button.setObjectName("poseTorquesButton")
        self.torques_button.setToolTip("Each joint's torque along the motion through the checked poses "
                                       "(View ▸ Torques along the motion)")
        self.torques_button.clicked.connect(self.torquesRequested)
        row.addWidget(self.torques_button)
        save_row = QHBoxLayout()
        save_row.addWidget(self.name_edit, 1)
        save_row.addWidget(self.save_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.list, 1)
        lay.addLayout(row)
        lay.addLayout(save_row)
        lay.addWidget(self.error)
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.list)
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self._delete_current)
        doc.treeChanged.connect(self._on_tree_changed)
        doc.pathChanged.connect(lambda _path: self._remember())  # saved as: the new file's ticks
        self._unchecked = self._remembered()
        self.refresh()

    # --- which poses are ticked, per project file ----------------------------------------------
    def _settings_key(self) -> str | None:
        path = self.doc.path
        if self.settings is None or path is None:
            return None
        digest = hashlib.sha1(str(path.resolve()).encode("utf-8", "surrogatepass")).hexdigest()[:20]
        return f"posesUnticked/{digest}"

    def _remembered(self) -> set[str]:
        """The poses unticked when this file was last open (none for a new or imported robot)."""
        key = self._settings_key()
        if key is None:
            return set()
        try:
            names = json.loads(str(self.settings.value(key, "[]")))
        except ValueError:  # a hand-edited settings file: every pose ticked
            return set()
        return {n for n in names if isinstance(n, str)} if isinstance(names, list) else set()

    def _remember(self) -> None:
        key = self._settings_key()
        if key is None:
            return
        names = sorted(n for n in self._unchecked if n in self.doc.tree.named_poses)
        if names:
            self.settings.setValue(key, json.dumps(names))
        else:
            self.settings.remove(key)

    def _on_tree_changed(self, change=None) -> None:
        if change is None or change.kind == "reset":  # another document (or the file again)
            self._unchecked = self._remembered()
        self.refresh()

    # --- view ----------------------------------------------------------------------------------
    def names(self) -> list[str]:
        return [self.list.item(r).data(NAME_ROLE) for r in range(self.list.count())]

    def checked(self) -> list[str]:
        return [n for n in self.names() if n not in self._unchecked]

    def set_checked(self, name: str, on: bool) -> None:
        item = self._item(name)
        if item is not None:
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def _item(self, name: str) -> QListWidgetItem | None:
        return next((self.list.item(r) for r in range(self.list.count()) if self.list.item(r).data(NAME_ROLE) == name),
                    None)

    def refresh(self, current: str | None = None) -> None:
        """Rebuild the list from the document's named poses (keeping the current row)."""
        poses = self.doc.tree.named_poses
        names = list(poses)
        if current is None:
            item = self.list.currentItem()
            current = item.data(NAME_ROLE) if item is not None else None
        self._filling = True
        try:
            self.list.clear()
            for name in names:
                item = QListWidgetItem(name)
                item.setData(NAME_ROLE, name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Unchecked if name in self._unchecked else Qt.CheckState.Checked)
                item.setToolTip("q = [" + "  ".join(short_text(v, 4) for v in np.asarray(poses[name])) + "]")
                self.list.addItem(item)
            if current in names:
                self.list.setCurrentRow(names.index(current))
        finally:
            self._filling = False
        self.state.set_names(self.checked())
        self._remember()  # a pose renamed, added or deleted
        self._update_buttons()

    def _update_buttons(self) -> None:
        row = self.list.currentRow()
        has = 0 <= row < self.list.count()
        for key in ("go", "rename", "delete"):
            self.buttons[key].setEnabled(has)
        self.buttons["up"].setEnabled(has and row > 0)
        self.buttons["down"].setEnabled(has and row < self.list.count() - 1)

    def show_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))

    def _item_changed(self, item: QListWidgetItem) -> None:
        if self._filling:
            return
        name = item.data(NAME_ROLE)
        if item.text() != name:  # edited in place: a rename
            new = item.text()
            self._filling = True
            item.setText(name)  # the document's refresh shows the new name once the edit is done
            self._filling = False
            self.rename(name, new)
            return
        if (item.checkState() == Qt.CheckState.Checked) == (name in self._unchecked):
            if item.checkState() == Qt.CheckState.Checked:
                self._unchecked.discard(name)
            else:
                self._unchecked.add(name)
            self.state.set_names(self.checked())
            self._remember()

    # --- edits (each one undo step) ------------------------------------------------------------
    def _edit(self, text: str, change, current: str | None = None) -> bool:
        error = self.doc.try_edit(text, change)
        self.show_error(error)
        if error is None and current is not None:
            self.refresh(current)
        return error is None

    def save_current(self) -> bool:
        """Save the current configuration under the name typed in the field."""
        name = self.name_edit.text()
        q = self.doc.configuration
        verb = "Update" if name in self.doc.tree.named_poses else "Save"
        if verb == "Save":
            self._unchecked.discard(name)  # a new pose takes part, whatever its name once did
        if self._edit(f"{verb} pose {name!r:.60}", lambda t: t.named_poses.__setitem__(name, q), name):
            self.name_edit.clear()
            return True
        return False

    def go_to(self, name: str) -> bool:
        try:
            q = self.doc.tree.named_poses[name]
            self.doc.set_configuration(q, f"Go to pose {name!r:.60}")
        except KineTreeError as exc:
            self.show_error(str(exc))
            return False
        self.show_error(None)
        return True

    def rename(self, old: str, new: str) -> bool:
        if new == old:
            return True
        unchecked = old in self._unchecked
        if not self._edit(f"Rename pose {old!r:.40} to {new!r:.40}", lambda t: t.named_poses.rename(old, new), new):
            return False
        if unchecked:
            self._unchecked.add(new)  # old stays too, for an undo
        else:
            self._unchecked.discard(new)
        self.refresh(new)
        return True

    def delete(self, name: str) -> bool:
        row = self.names().index(name) if name in self.names() else -1
        ok = self._edit(f"Delete pose {name!r:.60}", lambda t: t.named_poses.__delitem__(name))
        if ok and self.list.count():
            self.list.setCurrentRow(min(max(row, 0), self.list.count() - 1))
        return ok

    def move(self, name: str, step: int) -> bool:
        """Move ``name`` ``step`` places up (negative) or down in the order."""
        order = self.names()
        i = order.index(name)
        j = min(max(i + step, 0), len(order) - 1)
        if i == j:
            return False
        order.insert(j, order.pop(i))

        def change(t) -> None:
            t.named_poses.replace({n: t.named_poses[n] for n in order})

        return self._edit(f"Move pose {name!r:.60} {'up' if step < 0 else 'down'}", change, name)

    # --- buttons on the current row --------------------------------------------------------------
    def _current(self) -> str | None:
        item = self.list.currentItem()
        return item.data(NAME_ROLE) if item is not None else None

    def _go_current(self) -> None:
        if self._current() is not None:
            self.go_to(self._current())

    def start_rename(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item)

    def _delete_current(self) -> None:
        if self._current() is not None:
            self.delete(self._current())

    def _move_current(self, step: int) -> None:
        if self._current() is not None:
            self.move(self._current(), step)
