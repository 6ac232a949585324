"""Icons: one per joint type, drawn once (no image files to keep in sync)."""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

_STYLE = {
    "base": ("#607080", "B"), "fixed": ("#808080", "F"), "revolute": ("#d04040", "R"),
    "prismatic": ("#3070d0", "P"), "floating": ("#30a060", "6"), "spherical": ("#a050c0", "S"),
    "planar": ("#c08020", "2"),
    "euler_zyx": ("#b04890", "E"), "euler_xyz": ("#b04890", "E"), "euler_yxz": ("#b04890", "E"),
    "translation_xyz": ("#2090a0", "T"), "custom": ("#707030", "C"),
}


#: How the joint types read in menus and the Joint panel's type combo (others: their own names).
TYPE_LABELS = {"euler_zyx": "Euler ZYX", "euler_xyz": "Euler XYZ", "euler_yxz": "Euler YXZ",
               "translation_xyz": "translation XYZ"}


def type_label(jtype: str, capital: bool = False) -> str:
    """A joint type as users read it ("Euler ZYX" for ``euler_zyx``), first letter up when ``capital``."""
    text = TYPE_LABELS.get(jtype, jtype)
    return text[:1].upper() + text[1:] if capital else text


@cache
def joint_icon(kind: str) -> QIcon:
    color, letter = _STYLE.get(kind, ("#808080", "?"))
    pm = QPixmap(32, 32)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(QColor(color))
    p.setPen(QPen(QColor(color).darker(140), 2))
    p.drawEllipse(QRectF(2, 2, 28, 28))
    p.setPen(QColor("white"))
    f = p.font()
    f.setBold(True)
    f.setPixelSize(17)
    p.setFont(f)
    p.drawText(QRectF(0, 0, 32, 32), Qt.AlignmentFlag.AlignCenter, letter)
    p.end()
    return QIcon(pm)
