"""The "DH of chain…" dialog: the standard or modified DH table of a chain computed from its
geometry, the base and tool transforms left over, and in words which rows differ from the
robot's own and why (:func:`~kinetree.core.dh.explain.explain_extraction`)."""

from __future__ import annotations

import math

from kinetree.core import KineTreeError, extract_dh
from kinetree.core.dh.chain import chain_numbering, joint_variable
from kinetree.core.dh.explain import explain_extraction
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from ..model.document import RobotDocument
from ..model.numbers import short_text
from ..model.text import matrix_text, message_label, plain, plain_tip


class DhOfChainDialog(QDialog):
    """The standard or modified DH table of a chain computed from its geometry (common normals),
    with the base and tool transforms left over; can replace the robot by that chain. A banner
    says which rows differ from the robot's own (those rows are marked) and why, and that the
    end effector is the same."""

    def __init__(self, doc: RobotDocument, tip: str | None, convention: str, degrees: bool, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("dhOfChainDialog")
        self.doc, self.tip, self.degrees = doc, tip, degrees
        self.extraction = None
        self.convention = QComboBox()
        self.convention.addItem("Standard DH", "dh")
        self.convention.addItem("Modified DH (Craig)", "mdh")
        self.convention.setCurrentIndex(self.convention.findData(convention))
        self.convention.activated.connect(lambda _i: self.compute())
        self.table = QTableWidget()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.why = message_label(QLabel())  # which rows differ from the robot's own, and why
        self.why.setObjectName("dhWhy")
        self.why.setWordWrap(True)
        self.why.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.comparison = None
        self.frames = plain(QLabel())  # an error here quotes names
        self.frames.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.frames.setStyleSheet("font-family: monospace")
        self.use_button = use = QPushButton("Replace robot by this DH chain")
        use.setObjectName("dhUseChain")
        use.clicked.connect(self.use_chain)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(use)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.convention)
        layout.addWidget(self.why)
        layout.addWidget(self.table)
        layout.addWidget(self.frames)
        layout.addLayout(buttons)
        self.resize(720, 420)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.compute()
        doc.treeChanged.connect(self.compute)  # never offers a table of a robot that has since changed

    def compute(self) -> None:
        try:
            ext = extract_dh(self.doc.tree, self.tip, self.convention.currentData())
        except KineTreeError as exc:
            self.doc.message.emit(str(exc))
            self.extraction = None
            self.table.setRowCount(0)
            self.frames.setText(str(exc))
            self.why.setText("")
            self.comparison = None
            self.use_button.setEnabled(False)
            return
        self.extraction = ext
        self.use_button.setEnabled(True)
        self.setWindowTitle(f"DH table of the chain to {ext.tip} — computed from the geometry")
        k = math.degrees(1) if self.degrees else 1.0
        unit = "°" if self.degrees else "rad"
        headers = ["body", "joint", "a", f"α ({unit})", "d", f"θ ({unit})", f"offset ({unit} | m)"]
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(ext.links))
        first = 1 + chain_numbering([link.joint_name for link in ext.links])  # numbered as `kinetree dh` does
        for r, link in enumerate(ext.links):
            off = link.offset * (k if link.joint == "R" else 1.0)
            theta = joint_variable("R", r + first) if link.joint == "R" else short_text(link.theta * k)
            d = joint_variable("P", r + first) if link.joint == "P" else short_text(link.d)
            cells = [link.name, link.joint, short_text(link.a), short_text(link.alpha * k), d, theta, short_text(off)]
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.comparison = why = explain_extraction(self.doc.tree, ext, degrees=self.degrees)
        self.why.setText("\n".join(why.lines))
        marked = QBrush(QColor(255, 200, 80, 90))
        for r in why.rows:  # the rows that differ from the robot's own
            for c in range(len(headers)):
                item = self.table.item(r - 1, c)
                item.setBackground(marked)
                item.setToolTip(plain_tip(next((line for line in why.lines if line.startswith(f"row {r}:")), "")))
        self.table.resizeColumnsToContents()
        self.frames.setText("base (tree base → frame 0):\n" + matrix_text(ext.base, "text", 4)
                            + "\ntool (last frame → tip):\n" + matrix_text(ext.tool, "text", 4))

    def use_chain(self) -> bool:
        ext = self.extraction
        if ext is None:
            return False
        ok = self.doc.try_edit(f"Replace by the DH chain to {ext.tip}", lambda _t: ext.to_tree()) is None
        if ok:
            self.close()
        return ok
