"""Geometry from the GUI (issue 18 item 4): add a mesh file to a body (the visuals editor's
"Add mesh…", or a file dropped on the viewport) and fill a body's mass properties from its
geometry and a density. Each is one undo step on the document."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from kinetree.core import KineTreeError
from kinetree.core.disk.mesh_reader import read_mesh
from kinetree.core.dynamics.from_geometry import NotAVolumeError, mass_from_geometry
from PySide6.QtCore import QPointF, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from ..model.numbers import PLAIN, read_number, short_text
from ..model.text import MAX_NAME, elide, message_box, plain_tip
from .qt_utils import run_responsive

if TYPE_CHECKING:
    from ..model.document import RobotDocument
    from ..panels.joint import JointPanel

#: Mesh files a user adds to a body (read through trimesh by the engine's safe reader).
MESH_SUFFIXES = (".stl", ".obj", ".dae", ".ply")
MESH_FILTER = "Meshes (*.stl *.obj *.dae *.ply);;All files (*)"
DEFAULT_DENSITY = "1000"
#: Density units typed after the number, and their factor to kg/m³.
_DENSITY_UNITS = {"kg/m³": 1.0, "kg/m3": 1.0, "kg/m^3": 1.0, "g/cm³": 1000.0, "g/cm3": 1000.0, "g/cm^3": 1000.0}
_DENSITY_UNIT = re.compile(r"^(?P<number>.*?)\s*(?P<unit>kg/m(?:³|3|\^3)|g/cm(?:³|3|\^3))\s*$", re.IGNORECASE)


def is_mesh_file(path: str) -> bool:
    return path.lower().endswith(MESH_SUFFIXES)


def read_density(text: str) -> float:
    """A density typed as a number of kg/m³, with an optional unit (``7.8 g/cm³``, ``1000 kg/m3``)."""
    factor, body = 1.0, text
    if m := _DENSITY_UNIT.match(text.strip()):
        body, factor = m.group("number"), _DENSITY_UNITS[m.group("unit").lower()]
    return read_number(body, "density (kg/m³)", PLAIN).value * factor


def add_mesh_file(doc: RobotDocument, body: str, path: str | Path, window: QWidget | None = None) -> str | None:
    """Add the mesh file ``path`` to ``body``'s visuals (one undo step); the refusal, or None.
    The file is read first (bounded, validated), so a broken one is refused here, not drawn empty;
    with ``window``, in another thread while the window repaints (a first OBJ or DAE imports
    trimesh: seconds), so that the dialog that named the file leaves the screen at once."""
    p = Path(path).absolute()
    if not is_mesh_file(p.name):
        return f"{elide(p.name, MAX_NAME)}: not a mesh file (expected {', '.join(MESH_SUFFIXES)})"
    try:
        if window is None:
            read_mesh(p)
        elif (future := run_responsive(window, plain_tip(f"Reading {p.name}…"), lambda: read_mesh(p))).cancelled():
            return f"{elide(p.name, MAX_NAME)}: not added (reading cancelled)"
        else:
            future.result()  # the reader's refusal, raised here
    except KineTreeError as exc:
        return str(exc)
    except MemoryError:
        return f"{elide(p.name, MAX_NAME)}: too large for the memory left"
    return doc.try_edit(f"Add mesh {p.name} to {body}",
                        lambda t: t.get_body(body).add_visual("mesh", (1.0, 1.0, 1.0), filename=str(p)))


def add_mesh_dialog(panel: JointPanel) -> None:
    """The visuals editor's "Add mesh…": choose a mesh file, add it to the selected body."""
    body = panel.target()
    if body is None:
        return
    path, _ = QFileDialog.getOpenFileName(panel, f"Add a mesh to {elide(body, MAX_NAME)}", "", MESH_FILTER)
    if not path:
        return
    n = len(panel.doc.tree.get_body(body).visuals)
    old, panel.visuals.visual_index = panel.visuals.visual_index, n  # the new mesh: the selected row
    message = add_mesh_file(panel.doc, body, path, panel.window())
    if message is not None:
        panel.visuals.visual_index = old
    panel.report(message)


def drop_mesh(window, path: str, position: QPointF) -> None:
    """A mesh file dropped on the window at ``position`` (window coordinates): added to the body
    drawn there, or (dropped elsewhere) to a body the user picks, the selected one first."""
    vp, doc = window.viewport, window.doc
    p = vp.mapFrom(window, position.toPoint())
    name = vp.body_at(p.x(), p.y()) if vp.rect().contains(p) else None

    def ask() -> None:
        target = name
        if target is None:
            names = [doc.tree.base_name, *doc.tree.body_names]
            current = names.index(doc.selection) if doc.selection in names else 0
            label = plain_tip(f"Add {elide(Path(path).name, MAX_NAME)} to body:")  # the file's name
            target, ok = QInputDialog.getItem(window, "Add mesh", label, names, current, False)
            if not ok or target not in names:
                return
        message = add_mesh_file(doc, target, path, window)
        if message:
            window.show_error("Cannot add mesh", message)
        else:
            doc.select(target)
            window.statusBar().showMessage(f"Added {Path(path).name} to {target}", 5000)

    # after the drop returns: a modal question inside a drop handler upsets some platforms
    QTimer.singleShot(0, ask)


def mass_from_geometry_dialog(panel: JointPanel, parent: QWidget | None = None) -> str | None:
    """The Inertia section's "Mass from geometry": the density typed in its field (kg/m³, a unit
    accepted), the selected body's mass, centre of mass and inertia from its geometry as one
    undo step. An open mesh: asks whether its bounding box may stand in. The message shown, or None."""
    body = panel.target()
    if body is None:
        return None
    try:
        density = read_density(panel.density.text() or DEFAULT_DENSITY)
        b = panel.doc.tree.get_body(body)
        try:
            props = mass_from_geometry(b, density)
        except NotAVolumeError as exc:
            answer = message_box(
                parent or panel, "Mass from geometry",
                f"{elide(str(exc), 400)}\n\nUse the bounding box of each open mesh instead?",
                QMessageBox.Icon.Question, QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                message = f"{exc} (nothing changed)"
                panel.report(message)
                return message
            props = mass_from_geometry(b, density, use_bounds=True)
    except KineTreeError as exc:
        panel.report(str(exc))
        return str(exc)
    except MemoryError:
        panel.report("a mesh is too large for the memory left")
        return "a mesh is too large for the memory left"

    def apply(b) -> None:
        b.mass = props.mass
        b.center_of_mass = props.center_of_mass
        b.inertia = props.inertia

    message = panel.body_edit(f"Mass from {props.source} ({short_text(density)} kg/m³)", apply)
    panel.report(message)
    return message
