"""DH table panel: the chain from the base to the last body, as an editable DH table."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path

from kinetree.core import DHLink, KineTreeError, RigidBodyTree, chain_dh_table, rebuild_chain
from kinetree.core.dh.chain import DHEntry, chain_numbering, dh_joint, joint_variable
from kinetree.core.disk.safe_io import MAX_BODIES
from kinetree.core.io import import_robot
from kinetree.core.io.dh_csv import read_dh_csv
from kinetree.core.io.dh_rows import column_name, row_type
from kinetree.core.library import refit_visuals
from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ..model.document import RobotDocument
from ..model.numbers import (
    DEGREES,
    METRES,
    RADIANS,
    exact_text,
    identity,
    read_number,
    refuse_decimal_comma,
    short_text,
    to_degrees,
    to_radians,
)
from ..model.text import MAX_NAME, elide, message_label, plain_tip
from ..widgets.cell_editor import ExactDelegate
from ..widgets.dh_colors import COLUMN_PARAMETER, DH_COLORS
from ..widgets.text_style import readable_name
from .dh_of_chain import DhOfChainDialog

COLUMNS = ("Joint", "a", "α", "d", "θ", "offset", "min", "max")
ANGLE_COLUMNS = {2, 4}


def is_pure_chain(tree: RigidBodyTree, entries: list[DHEntry]) -> bool:
    """True when the tree is exactly the DH chain the table shows (so the table may rebuild it)."""
    return len(entries) == tree.num_bodies and all(e.link is not None for e in entries)


def parse_rows(text: str, degrees: bool, room: int = MAX_BODIES) -> list[DHLink]:
    """DH rows from pasted text: one row per line, tab/comma/semicolon/space separated.

    With a header row (``θ d a α``, ``theta,d,a,alpha``, ``Link a_i α_i d_i θ_i`` …: columns by
    name in any order, optional type/offset/name) the table is read as a DH table file is
    (:func:`~kinetree.core.io.dh_csv.read_dh_csv`: ``pi/2``, ``90deg``, the joint variable as a
    symbol, θ1 or d3). Without one: ``a α d θ`` (revolute, or prismatic when d holds the
    symbol), ``R|P a α d θ``, or the table's own eight columns ``R|P a α d θ offset min max``.
    A cell ``q1``/``q``/``θ1`` for the variable reads as 0; a number other than 0 in θ of a row
    without R/P is refused as with a header (it would not move the link), and so is a decimal
    comma (``0,4318`` is no a = 0, α = 4318). Angles (α, θ, offset and limits of
    R joints) are in the table's unit unless written with ``pi`` or a unit. At most ``room`` rows
    (the bodies the tree may still take, of :data:`MAX_BODIES`), counted before any is read.
    """
    header = _has_header(text)
    count = sum(1 for line in text.splitlines() if line.strip(",;\t ") and not line.lstrip().startswith("#"))
    count -= header
    if count > room:
        there = f" beside the {MAX_BODIES - room} bodies already there" if room < MAX_BODIES else ""
        raise KineTreeError(f"pasted table: {count} rows is more than the {room} that fit{there} "
                            f"(KineTree accepts at most {MAX_BODIES} bodies)")
    if header:
        try:
            return read_dh_csv(text.strip() + "\n", units="deg" if degrees else "rad", max_rows=room).links
        except KineTreeError as exc:  # "<text>:3: …" names the clipboard's line as the pasted table's
            raise KineTreeError(re.sub(r"^<text>:(\d+)", r"pasted table, line \1", str(exc))) from None
    rows = []
    for lineno, line in enumerate(text.strip().splitlines(), start=1):
        refuse_decimal_comma(re.split(r"[\t;]|\s+", line.strip()), f"pasted line {lineno}")
        cells = [c for c in re.split(r"[\t,;]|\s+", line.strip()) if c]
        if not cells:
            continue
        typed = cells[0].upper() in ("R", "P")
        if typed:
            jt, cells = cells[0].upper(), cells[1:]
        else:  # the d cell holding the variable's symbol (d3) while θ holds a value: prismatic
            jt = "P" if len(cells) >= 4 and _VARIABLE_CELL.fullmatch(cells[2]) \
                and not _VARIABLE_CELL.fullmatch(cells[3]) else "R"
        if len(cells) not in (4, 5, 7):
            raise KineTreeError(f"pasted line {lineno}: expected 4 (a α d θ) or 7 numbers, got {len(cells)}: {line!r}")
        vals = []
        for c in cells:
            if _VARIABLE_CELL.fullmatch(c):
                vals.append(0.0)
                continue
            k = len(vals)  # a α d θ offset min max: angles in the table's unit, lengths in metres
            angle_cell = k in (1, 3) or (k >= 4 and jt == "R")
            quantity = (DEGREES if degrees else RADIANS) if angle_cell else METRES
            vals.append(read_number(c, f"pasted line {lineno}", quantity, allow_inf=k >= 5).core)  # rad, m
        a, alpha, d, theta = vals[:4]
        if not typed and jt == "R" and theta != 0 and not _VARIABLE_CELL.fullmatch(cells[3]):
            # a value where the variable goes would not move the link: refused as with a header
            row_type({"theta": cells[3], "d": cells[2]}, f"pasted line {lineno}", {"theta": "θ", "d": "d"})
        offset = vals[4] if len(vals) > 4 else 0.0
        link = DHLink(jt, a=a, alpha=alpha, d=d, theta=theta, offset=offset)
        if len(vals) == 7:
            link.qlim = (vals[5], vals[6])
        rows.append(link)
    if not rows:
        raise KineTreeError("the clipboard holds no DH rows")
    return rows


_VARIABLE_CELL = re.compile(r"(q|θ|theta|d)_?\d*\*?", re.IGNORECASE)


def _has_header(text: str) -> bool:
    """True when the first line of ``text`` names DH columns (θ, alpha, a_i …), not values."""
    first = next((line for line in text.strip().splitlines() if line.strip()), "")
    cells = [c for c in re.split(r"[\t,;]|\s+", first.strip()) if c]
    if not cells or cells[0].upper() in ("R", "P"):
        return False
    # names without digits (a row has numbers and θ1, d3), some of them DH columns (a header
    # missing one is then refused as such)
    return all(not re.search(r"\d", c) for c in cells) and any(
        column_name(c) in ("a", "alpha", "d", "theta") for c in cells)


def retyped(link: DHLink, jt: str) -> DHLink:
    """``link`` as an ``jt`` row: the same link at q = 0 (the old variable's offset becomes the
    new constant, the old constant the new offset), with the new type's default limits and home
    (radians are no metres)."""
    if jt == "P":
        return replace(link, joint=jt, theta=link.offset, offset=link.d, qlim=None, home=None)
    return replace(link, joint=jt, d=link.offset, offset=link.theta, qlim=None, home=None)


class DhTableModel(QAbstractTableModel):
    """Rows of :func:`chain_dh_table` for the document's tree; edits rebuild the chain.

    ``EditRole`` is the exact text of a cell (what its editor opens with); a refused edit
    leaves its message on the cell (:meth:`error_at`) until the next change of the tree."""

    reloaded = Signal()  # the rows were read again from the tree (reset or not)
    refused = Signal(str)  # an edit of a cell was refused: the message

    def __init__(self, doc: RobotDocument) -> None:
        super().__init__()
        self.doc = doc
        self.degrees = True
        self.convention = "dh"
        self.entries: list[DHEntry] = []
        self.errors: dict[tuple[int, int], str] = {}
        self.shift = 0  # how far the rows' numbers start past 1 (a wrist whose joints are q4, q5, q6: 3)
        self._reload()
        doc.treeChanged.connect(self._reload)

    def _reload(self) -> None:
        entries = chain_dh_table(self.doc.tree)
        same_rows = [(e.body, e.link is None) for e in entries] == [(e.body, e.link is None) for e in self.entries]
        conventions = {e.convention for e in entries if e.convention}
        self.shift = chain_numbering([e.link.joint_name if e.link else "" for e in entries])
        if same_rows and entries:  # one row edited: the view keeps its scroll position and current cell
            self.entries, self.errors = entries, {}
            if len(conventions) == 1:
                self.convention = conventions.pop()
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, len(COLUMNS) - 1)  # aᵢ or aᵢ₋₁
            self.dataChanged.emit(self.index(0, 0), self.index(len(entries) - 1, len(COLUMNS) - 1))
        else:
            self.beginResetModel()
            self.entries, self.errors = entries, {}
            if len(conventions) == 1:
                self.convention = conventions.pop()
            self.endResetModel()
        self.reloaded.emit()

    def error_at(self, index: QModelIndex) -> str:
        """The message of the last refused edit of this cell ("" if none)."""
        return self.errors.get((index.row(), index.column()), "")

    def _refuse(self, index: QModelIndex, message: str) -> bool:
        self.errors[(index.row(), index.column())] = message
        self.dataChanged.emit(index, index)
        self.doc.message.emit(message)
        self.refused.emit(message)
        return False

    def links(self) -> list[DHLink]:
        return [e.link for e in self.entries if e.link is not None]


    def pure(self) -> bool:
        return is_pure_chain(self.doc.tree, self.entries)

    # --- Qt model ----------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if (role == Qt.ItemDataRole.ForegroundRole and orientation == Qt.Orientation.Horizontal
                and COLUMNS[section] in COLUMN_PARAMETER):  # the DH overlay's colours, readable on the header
            light = QGuiApplication.palette().button().color().lightnessF() > 0.5
            return QBrush(QColor(readable_name(DH_COLORS[COLUMN_PARAMETER[COLUMNS[section]]], light)))
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            name = COLUMNS[section]
            if name in ("a", "α"):  # the lecture's columns: a_i α_i d_i θ_i (Craig's a_{i-1} α_{i-1})
                name += "ᵢ₋₁" if self.convention == "mdh" else "ᵢ"
            elif name in ("d", "θ"):
                name += "ᵢ"
            if section in ANGLE_COLUMNS:
                name += " (°)" if self.degrees else " (rad)"
            return name
        return elide(self.entries[section].body, MAX_NAME) if section < len(self.entries) else None

    def _is_angle(self, col: int, link: DHLink) -> bool:
        return col in ANGLE_COLUMNS or (col in (5, 6, 7) and link.joint == "R")

    def _units(self, col: int, link: DHLink) -> tuple:
        """(core → shown, shown → core) for a cell."""
        return (to_degrees, to_radians) if self.degrees and self._is_angle(col, link) else (identity, identity)

    def _shown(self, value: float, col: int, link: DHLink) -> str:
        """A value for a message: in the shown unit, at most 6 significant digits."""
        unit = ("°" if self.degrees else " rad") if self._is_angle(col, link) else " m"
        return short_text(self._units(col, link)[0](value)) + unit

    @staticmethod
    def _value(link: DHLink, col: int) -> float:
        return [math.nan, link.a, link.alpha, link.d, link.theta, link.offset,
                link.qlim[0] if link.qlim else -math.inf, link.qlim[1] if link.qlim else math.inf][col]

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        e = self.entries[index.row()]
        col = index.column()
        if e.link is None:
            if role == Qt.ItemDataRole.DisplayRole:
                return e.reason if col == 1 else ("—" if col == 0 else "")
            if role == Qt.ItemDataRole.ForegroundRole:
                return QBrush(QColor("#888888"))
            if role == Qt.ItemDataRole.ToolTipRole:
                return plain_tip(elide(f"{e.body} is not DH-expressible: {e.reason}"))
            return None
        link = e.link
        error = self.errors.get((index.row(), col))
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                return link.joint + (" (flipped)" if link.flip and role == Qt.ItemDataRole.DisplayRole else "")
            variable = (col == 4 and link.joint == "R") or (col == 3 and link.joint == "P")
            if variable and role == Qt.ItemDataRole.DisplayRole:  # the lecture's θ₁ / d₃, numbered as `kinetree dh`
                return joint_variable(link.joint, index.row() + 1 + self.shift)
            value = self._value(link, col)
            if role == Qt.ItemDataRole.EditRole:  # exact: opening and leaving an editor changes nothing
                return exact_text(value, *self._units(col, link))
            return short_text(self._units(col, link)[0](value))
        if error and role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(QColor("#5a1d1d"))
        if error and role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor("white"))
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tip(elide(error or f"{e.body}: {'standard' if e.convention == 'dh' else 'modified'} DH row"))
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        e = self.entries[index.row()]
        if e.link is None:
            return Qt.ItemFlag.NoItemFlags  # greyed out
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        link, col = e.link, index.column()
        variable = (col == 4 and link.joint == "R") or (col == 3 and link.joint == "P")
        if not variable:
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index: QModelIndex, value, role=Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        e = self.entries[index.row()]
        if e.link is None:
            return False
        col = index.column()
        link = e.link
        what = f"{COLUMNS[col]} of {e.body}"
        try:
            if col == 0:
                jt = str(value).strip().upper()[:1]
                if jt not in ("R", "P"):
                    raise KineTreeError(f"joint type must be R or P, got {value!r}")
                if jt == link.joint:
                    return True  # no change, no undo step
                new = retyped(link, jt)
            else:
                if isinstance(value, (int, float)):
                    v = self._units(col, link)[1](float(value))
                elif str(value).strip() == exact_text(self._value(link, col), *self._units(col, link)):
                    return True  # left as its editor opened (12 digits of a longer float): no edit
                else:
                    quantity = (DEGREES if self.degrees else RADIANS) if self._is_angle(col, link) else METRES
                    v = read_number(str(value), what, quantity, allow_inf=col in (6, 7)).core
                if v == self._value(link, col):
                    return True  # the stored value: no edit
                if col in (6, 7):
                    lo, hi = link.qlim or (-math.inf, math.inf)
                    lo, hi = (v, hi) if col == 6 else (lo, v)
                    if lo > hi:
                        raise KineTreeError(f"{e.body}: min {self._shown(lo, col, link)} "
                                            f"is above max {self._shown(hi, col, link)}")
                    new = replace(link, qlim=(lo, hi))
                else:
                    new = replace(link, **{COLUMNS_FIELD[col]: v})
        except KineTreeError as exc:
            return self._refuse(index, str(exc))
        message = self.apply_row(index.row(), new, f"Edit {what}")
        return True if message is None else self._refuse(index, message)

    # --- edits -------------------------------------------------------------------------------
    def apply_row(self, row: int, link: DHLink, text: str) -> str | None:
        """Change one row: replace just that body's joint; the refusal's message, or None."""
        body = self.entries[row].body
        conv = self.entries[row].convention or self.convention

        def change(t: RigidBodyTree):
            old = t.get_body(body).joint
            joint = dh_joint(link, old.name, conv)
            joint.extensions, joint.mimic = old.extensions, old.mimic  # what the row does not describe stays
            joint.take_motor(old)
            t.replace_joint(body, joint)
            refit_visuals(self.doc.tree, t)  # a library robot's drawn links follow the new row

        return self.doc.try_edit(text, change)

    def rebuild(self, links: list[DHLink], text: str, convention: str | None = None) -> bool:
        """Replace the whole chain by ``links`` (only for a tree that is a pure DH chain)."""
        if not self.pure() and self.doc.tree.num_bodies:
            bad = next((e for e in self.entries if e.link is None), None)
            why = f"{bad.body} is not DH-expressible ({bad.reason})" if bad else "the tree has branches"
            self.doc.message.emit(f"The DH table can only restructure a pure DH chain: {why}")
            return False
        conv = convention or self.convention
        def change(t: RigidBodyTree) -> RigidBodyTree:
            new = rebuild_chain(t, links, conv)
            refit_visuals(self.doc.tree, new)
            return new

        return self.doc.try_edit(text, change) is None


COLUMNS_FIELD = {1: "a", 2: "alpha", 3: "d", 4: "theta", 5: "offset"}


class DhTablePanel(QWidget):
    """Table view with convention and unit switches and row operations."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.model = DhTableModel(doc)
        self.view = QTableView()
        self.view.setObjectName("dhView")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.AllEditTriggers)
        self.view.horizontalHeader().setDefaultSectionSize(72)
        self.view.setItemDelegate(ExactDelegate(self.view))

        self.convention_combo = QComboBox()
        self.convention_combo.setObjectName("dhConvention")
        self.convention_combo.addItem("Standard DH", "dh")
        self.convention_combo.addItem("Modified DH (Craig)", "mdh")
        self.convention_combo.activated.connect(self._convention_changed)
        self.units_combo = QComboBox()
        self.units_combo.addItems(["degrees", "radians"])
        self.units_combo.activated.connect(self._units_changed)
        top = QHBoxLayout()
        top.addWidget(self.convention_combo)
        top.addWidget(self.units_combo)
        top.addStretch(1)

        buttons = QHBoxLayout()
        self.buttons = {}
        for key, label, slot, shortcut in (
            ("add", "Add row", self.add_row, "Ctrl+Shift+N"),
            ("insert", "Insert", self.insert_row, None),
            ("delete", "Delete", self.delete_row, None),
            ("up", "Up", lambda: self.move_row(-1), None),
            ("down", "Down", lambda: self.move_row(1), None),
            ("paste", "Paste", self.paste, None),
            ("import", "Import CSV…", self.import_csv, None),
            ("export", "Export CSV…", self.export_csv, None),
            ("compute", "DH of chain…", self.show_chain_dh, None),
        ):
            b = QPushButton(label)
            b.setObjectName(f"dh_{key}")
            # clicked(bool) would pass ``checked`` to a slot's optional argument (Import CSV…
            # got False as its path): the slots are called without arguments
            b.clicked.connect(lambda _checked=False, slot=slot: slot())
            if shortcut:
                b.setShortcut(QKeySequence(shortcut))
            buttons.addWidget(b)
            self.buttons[key] = b
        self.note = message_label(QLabel())
        # one line: a wrapped note made the panel taller than the default layout's dock at
        # 1280×800, and the buttons scrolled out of view (the whole text is the tool tip)
        self.note.setWordWrap(False)
        self.note.setStyleSheet("color: #999")
        self.error_label = message_label(QLabel())  # the last refused cell edit, under the table
        self.error_label.setObjectName("dhError")
        self.error_label.setStyleSheet("color: #e05050")
        self.error_label.setVisible(False)
        self.model.refused.connect(self._show_refusal)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(top)
        layout.addWidget(self.view)
        layout.addWidget(self.error_label)
        layout.addLayout(buttons)
        layout.addWidget(self.note)
        self.model.modelReset.connect(self._sync)
        self.model.reloaded.connect(self._sync)
        self._sync()

    def keyPressEvent(self, ev) -> None:  # noqa: N802
        if ev.matches(QKeySequence.StandardKey.Paste):
            self.paste()
            return
        super().keyPressEvent(ev)

    def _show_refusal(self, message: str) -> None:
        self.error_label.setText(elide(message))
        self.error_label.setVisible(bool(message))

    def _sync(self) -> None:
        self._show_refusal("")  # the tree changed: an earlier refusal is history
        i = self.convention_combo.findData(self.model.convention)
        self.convention_combo.setCurrentIndex(i)
        self.view.clearSpans()
        for r, e in enumerate(self.model.entries):
            if e.link is None:  # the reason reads across the row
                self.view.setSpan(r, 1, 1, len(COLUMNS) - 1)
        pure = self.model.pure() or self.doc.tree.num_bodies == 0
        for key in ("insert", "delete", "up", "down"):
            self.buttons[key].setEnabled(pure and bool(self.model.entries))
        self.note.setText("" if pure else "Greyed rows are not DH rows: edit them, not add or move; DH of chain… "
                          "computes a table")
        self.note.setToolTip("" if pure else plain_tip(
            "Greyed rows were not entered as DH rows; rows can be edited, not added or moved. "
            "“DH of chain…” computes the table of the chain to the selected body from its geometry."))

    def current_row(self) -> int:
        idx = self.view.currentIndex()
        return idx.row() if idx.isValid() else len(self.model.entries) - 1

    def _convention_changed(self, _i: int) -> None:
        conv = self.convention_combo.currentData()
        if conv == self.model.convention:
            return
        if self.model.rebuild(self.model.links(), f"Read DH table as {'modified' if conv == 'mdh' else 'standard'}",
                              convention=conv):
            self.model.convention = conv
        self._sync()

    def _units_changed(self, _i: int) -> None:
        self.model.beginResetModel()
        self.model.degrees = self.units_combo.currentIndex() == 0
        self.model.endResetModel()

    def add_row(self) -> None:
        self.model.rebuild([*self.model.links(), DHLink("R", qlim=(-math.pi, math.pi))], "Add DH row")

    def insert_row(self) -> None:
        links = self.model.links()
        links.insert(max(self.current_row(), 0), DHLink("R", qlim=(-math.pi, math.pi)))
        self.model.rebuild(links, "Insert DH row")

    def delete_row(self) -> None:
        links = self.model.links()
        r = self.current_row()
        if 0 <= r < len(links):
            del links[r]
            self.model.rebuild(links, "Delete DH row")

    def move_row(self, step: int) -> None:
        links = self.model.links()
        r = self.current_row()
        if 0 <= r < len(links) and 0 <= r + step < len(links):
            links[r], links[r + step] = links[r + step], links[r]
            if self.model.rebuild(links, "Move DH row"):
                self.view.setCurrentIndex(self.model.index(r + step, 0))

    def paste_text(self, text: str) -> bool:
        try:
            rows = parse_rows(text, self.model.degrees, MAX_BODIES - self.doc.tree.num_bodies)
        except KineTreeError as exc:
            self.doc.message.emit(str(exc))
            return False
        for r in rows:
            if r.qlim is None:
                r.qlim = (-math.pi, math.pi) if r.joint == "R" else (0.0, 1.0)
        return self.model.rebuild([*self.model.links(), *rows], f"Paste {len(rows)} DH rows")

    def paste(self) -> None:
        self.paste_text(QGuiApplication.clipboard().text())

    # --- files and computed tables -----------------------------------------------------------
    def import_csv(self, path: str | None = None) -> bool:
        """Replace the robot by the chain of a DH table file (one undo step)."""
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Import DH table", "", "DH table (*.csv *.tsv)")
            if not path:
                return False
        try:
            tree = import_robot(path)
        except KineTreeError as exc:
            self.doc.message.emit(str(exc))
            return False
        return self.doc.try_edit(f"Import DH table {Path(path).name}", lambda _t: tree) is None

    def export_csv(self, path: str | None = None) -> bool:
        """Write the chain to the selected body (or the end effector) as a DH table file."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, "Export DH table", "dh_table.csv", "DH table (*.csv)")
            if not path:
                return False
        try:
            done = self.doc.export(path, tip=self._tip(), convention=self.model.convention,
                                   units="deg" if self.model.degrees else "rad")
        except (OSError, KineTreeError) as exc:
            self.doc.message.emit(f"Cannot export {Path(path).name}: {exc}")
            return False
        self.doc.message.emit(done)
        return True

    def _tip(self) -> str | None:
        sel = self.doc.selection
        return sel if sel in self.doc.tree.body_names else None

    def show_chain_dh(self) -> DhOfChainDialog | None:
        """Compute the DH table of the chain to the selected body from its geometry."""
        dialog = DhOfChainDialog(self.doc, self._tip(), self.model.convention, self.model.degrees, self)
        if dialog.extraction is None:
            dialog.deleteLater()
            return None
        dialog.show()
        return dialog

