"""The 3D viewport: frames, links, joint axes and visuals, updated in place while scrubbing."""

from __future__ import annotations

import logging

import numpy as np
from kinetree.core import LoopClosureError
from kinetree.core.kinematics.plan import frame_size
from kinetree.core.model.channels import is_axial
from pyqtgraph.opengl import MeshData
from PySide6.QtCore import QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QImage, QMatrix4x4

from ..model.changes import TreeChange
from ..model.document import RobotDocument
from .batched import BatchedMeshItem, Part, part
from .camera import Camera
from .collision_layer import CollisionLayer
from .gl_programs import ON_TOP
from .labels import LabelsItem, label_order, project_points, view_mvp
from .lines import GridItem, LineItem
from .lod import IDLE_MS, INTERACTIVE_FACES, MIN_FACES, LodMeshItem, assign_targets, simplify
from .meshes import SHADER, visual_mesh
from .offscreen import render_image
from .picking import Picker
from .surface import SurfaceView
from .tools.close_loop import CloseLoopTool, LoopsDrawing
from .tools.dh_handle import DhFrameHandle
from .tools.drag_preview import DragPreview
from .tools.ik_handle import IkHandle
from .tools.measure import MeasureTool
from .tools.tool import Tool
from .tools.tool_list import TOOLS
from .tools.toolbar import ViewportToolbar

log = logging.getLogger(__name__)

AXIS_COLORS = np.array([[1, 0, 0, 1], [1, 0, 0, 1], [0, 0.8, 0, 1], [0, 0.8, 0, 1],
                        [0, 0.3, 1, 1], [0, 0.3, 1, 1]], dtype=float)
THEMES = {
    "dark": {"bg": (28, 30, 36), "grid": (255, 255, 255, 40), "link": (0.85, 0.85, 0.9, 1.0),
             "axis": (1.0, 0.75, 0.1, 1.0), "label": (235, 235, 235)},
    "light": {"bg": (245, 245, 245), "grid": (0, 0, 0, 50), "link": (0.2, 0.2, 0.25, 1.0),
              "axis": (0.85, 0.45, 0.0, 1.0), "label": (20, 20, 20)},
}
#: a tree with more end effectors labels only the selected body and the one under the cursor
MANY_END_EFFECTORS = 6
#: a joint's axis is drawn this many frame lengths to either side of its joint frame's origin
JOINT_AXIS_HALF = 0.9
#: Mesh-file triangles drawn for a whole robot (each mesh is decimated to ``meshes.MAX_FACES``;
#: thousands of bodies naming a mesh each would otherwise fill the memory). Meshes past it are
#: not drawn, with a warning.
MAX_ROBOT_MESH_FACES = 3_000_000


def _qmatrix(T: np.ndarray) -> QMatrix4x4:
    return QMatrix4x4(*np.asarray(T, dtype=np.float32).ravel())


class RobotViewport(SurfaceView):
    """Draws the document's robot. Items are rebuilt on ``treeChanged`` only; on
    ``configurationChanged`` their vertex data and transforms are updated in place."""

    toolChanged = Signal(str)  # "pose", "move" or "rotate"
    orthoChanged = Signal(bool)  # the projection became orthographic (True) or perspective

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("viewport")
        self.doc = doc
        self.theme = "dark"
        self.show_labels = True
        self.all_labels = False  # by default: selected body, end effectors and the body under the cursor
        self._hovered: int | None = None  # label index (0: the base) of the body under the cursor
        self._cancelled = False  # Esc cancelled a handle drag whose mouse button is still down
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a click gives it the keys (Q/W/E/R, Esc)
        self._scale = 0.1
        self.grid = GridItem()
        self.addItem(self.grid)
        self.camera = Camera(self)  # orthographic views, fit, the grid's spacing and label
        self.base_triad = LineItem(mode="lines", width=3, antialias=True)
        self.triads = LineItem(mode="lines", width=3, antialias=True)
        self.selected_triad = LineItem(mode="lines", width=7, antialias=True)
        self.links = LineItem(mode="lines", width=6, antialias=True)
        self.axes = LineItem(mode="lines", width=2, antialias=True)
        self.links.setGLOptions("translucent")
        self.addItem(self.links)
        for item in (self.axes, self.triads, self.base_triad, self.selected_triad):
            # frames are what the user reads: draw them over the visuals, not hidden inside them
            item.setGLOptions(ON_TOP)
            item.setDepthValue(10)
            self.addItem(item)
        # translucent visuals: an item each (drawn after the opaque ones, so those show through)
        self._meshes: list[tuple[int, LodMeshItem, np.ndarray]] = []
        # every opaque visual: one item, each visual moved by its body's pose (slot 0: the base)
        self.batch = BatchedMeshItem()
        self.addItem(self.batch)
        self._parts: list[Part] = []
        # a body keeps its slot in the batch across edits, so that adding or removing a body
        # (and its undo) moves no triangles on the GPU; slots are renumbered when parts change
        self._slots: dict[str, int] = {}
        self._slot_of_index = np.zeros(1, dtype=int)  # slot of the base (0), then of each body
        self._highlighted: set[str] = set()  # bodies drawn in red
        self.collisions = CollisionLayer()
        self.addItem(self.collisions)
        self.tool = "pose"  # Q: the IK handle moves the joints; W / E: move / rotate the frame
        self.ik_handle = IkHandle(self)  # drag the selected body (or the end effector): IK follows
        self.frame_handle = DhFrameHandle(self)  # drag the selected body's frame: its joint transform
        self.preview = DragPreview(self)  # a frame drag's poses, drawn before the document has them
        self.picker = Picker(self)  # click or hover: the body under the cursor
        self.measure = MeasureTool(self)  # R: distance and angle between two picked frames or points
        self.close_loop = CloseLoopTool(self)  # O: two picks on two bodies close a loop
        self.loops = LoopsDrawing(self)  # every closed loop: a dashed closure
        self.tools = {name: spec.make(name, self) for name, spec in TOOLS.items()}  # gestures go to the active one
        self.active_tool: Tool = self.tools[self.tool]
        self.toolbar = ViewportToolbar(self)  # the viewport tools' buttons, top left
        self.labels = LabelsItem()
        self.labels.setDepthValue(100)  # painted last: meshes added later must not cover the text
        self.addItem(self.labels)
        self._axis_bodies = np.zeros(0, dtype=int)
        self._axis_dirs = np.zeros((0, 3))
        self._parent = np.zeros(0, dtype=int)
        self._poses = np.zeros((0, 4, 4))
        self.frame_mvp: np.ndarray | None = None  # set while a frame is painted
        self._press: QPointF | None = None
        self._selected_label: int | None = None
        self._lod_ready = False
        self.interactive_faces = 0  # mesh triangles drawn while interacting (after the first drag)
        self._idle = QTimer(self, singleShot=True, interval=IDLE_MS, timeout=self.set_full_detail)
        self.set_theme("dark")
        doc.treeChanged.connect(self._on_tree_changed)
        doc.configurationChanged.connect(self._on_doc_configuration)
        doc.selectionChanged.connect(lambda _name: self._update_selection())
        self._on_tree_changed()
        self.fit()

    # --- appearance --------------------------------------------------------------------------
    def set_theme(self, name: str) -> None:
        self.theme = name
        t = THEMES[name]
        self.setBackgroundColor(QColor(*t["bg"]))
        self.grid.setColor(t["grid"])
        self.links.setData(color=t["link"])
        self.axes.setData(color=t["axis"])
        self.labels.set_data(color=QColor(*t["label"]))
        self.camera.letters.set_data(color=QColor(*t["label"]))
        self.loops.update(self._poses)  # the closures' grey follows the theme
        self.update()

    LINE_WIDTHS = {"base_triad": 3, "triads": 3, "selected_triad": 7, "links": 6, "axes": 2}

    def set_text_scale(self, scale: float) -> None:
        """Scale label text and line widths (presentation mode: readable from the back of a room)."""
        for name, width in self.LINE_WIDTHS.items():
            getattr(self, name).setData(width=width * scale)
        # frame names, the world axis letters and the measure reading (their sizes at scale 1)
        for item, size in ((self.labels, 10), (self.camera.letters, 12), (self.measure.reading, 12)):
            font = QFont(item.font)
            font.setPointSizeF(size * scale)
            item.font = font
            item.static_texts.clear()
        self.update()

    def set_labels_visible(self, on: bool) -> None:
        self.show_labels = on
        self.labels.setVisible(on)

    def set_all_labels(self, on: bool) -> None:
        """Label every body (overlapping labels still hide), not just the important ones."""
        self.all_labels = bool(on)
        self._update_label_order()

    def _label_index(self, name: str | None) -> int | None:
        tree = self.doc.tree
        if name is None:
            return None
        if name == tree.base_name:
            return 0
        names = tree.body_names
        return names.index(name) + 1 if name in names else None

    def _update_label_order(self) -> None:
        """Which labels are drawn, most important first (overlaps are dropped when painting)."""
        n = len(self._parent)
        has_child = np.zeros(n, dtype=bool)
        has_child[self._parent[self._parent >= 0]] = True
        leaves = (np.flatnonzero(~has_child) + 1).tolist()  # label 0 is the base
        if len(leaves) > MANY_END_EFFECTORS:
            leaves = []  # Talos's hands, feet and sensor frames would cover the robot: selected and hovered only
        self.labels.set_data(order=label_order(n + 1, self._label_index(self.doc.selection), self._hovered,
                                               leaves, self.all_labels))

    def set_collisions_visible(self, on: bool) -> None:
        """Draw every body's collision geometry (:mod:`.collision_layer`)."""
        self.collisions.shown = bool(on)
        self.collisions.build(self.doc.tree)
        self.collisions.place(self._slot_poses())
        self.picker.invalidate()
        self.update()

    def _slot_poses(self) -> np.ndarray:
        """Every body's pose by index: the base (the origin) first, then the bodies in order."""
        return np.concatenate([np.eye(4)[None], self._poses])

    def _batch_poses(self) -> np.ndarray:
        """Every body's pose by its slot in the batch (unused slots: the identity)."""
        P = np.tile(np.eye(4), (max(len(self._slots), int(self._slot_of_index.max()) + 1), 1, 1))
        P[self._slot_of_index] = self._slot_poses()
        return P

    def set_view(self, preset: str) -> None:
        """``iso`` (perspective), ``front``, ``side`` or ``top`` (orthographic)."""
        self.camera.set_view(preset)

    def projectionMatrix(self, region, viewport):  # noqa: N802 - pyqtgraph's name
        m = self.camera.projection(region, viewport)
        return m if m is not None else super().projectionMatrix(region, viewport)

    def paintGL(self, *args, **kwargs) -> None:  # noqa: N802
        if self.camera.update_grid():  # zoomed: the handles keep their size on screen
            self.ik_handle.refresh()
            self.frame_handle.refresh()
        self.frame_mvp = view_mvp(self)  # the items of this frame share it (see view_mvp)
        try:
            super().paintGL(*args, **kwargs)
        finally:
            self.frame_mvp = None

    def fit(self, selection: bool = False, size: tuple[int, int] | None = None) -> None:
        """Frame the whole robot in any window shape (``selection``: the selected subtree;
        ``size``: for an image of that size rather than the widget's)."""
        self.camera.fit(selection, size)

    # --- scene construction (tree changed) ---------------------------------------------------
    def _on_tree_changed(self, change: TreeChange | None = None) -> None:
        """Rebuild what the tree change touched: mesh items of untouched bodies are kept (moved
        to their new index); only the visuals of touched bodies are made again."""
        tree = self.doc.tree
        cache = getattr(self, "_body_visuals", {})
        self._reset = change is None or change.kind == "reset"
        if self._reset:
            cache, touched = {}, set()
        else:
            # only these kinds change visuals (a visuals tuple edited is a new object anyway)
            touched = set(change.bodies) if change.kind in ("visuals", "structure") else set()
            for old, new in change.renamed:
                if old in cache:
                    cache[new] = cache.pop(old)
        self._meshes = []
        try:
            home = tree.forward_kinematics(tree.home_configuration())
        except LoopClosureError:  # a closed loop's home is often open: its closed, shown pose instead
            home = self.doc.poses()
        bodies = tree.bodies
        index = {b.name: i for i, b in enumerate(bodies)}
        self._parent = np.array([index.get(tree.parent_name(b.name), -1) for b in bodies], dtype=int)
        self._scale = frame_size(tree, self._parent, home)  # as the exported web page draws them
        movable = [i for i, b in enumerate(bodies) if is_axial(b.joint)]
        self._axis_bodies = np.array(movable, dtype=int)
        self._axis_dirs = np.array([bodies[i].joint.axis for i in movable]).reshape(-1, 3)
        self._joint_frames = np.array([bodies[i].joint.joint_to_parent_transform for i in movable]).reshape(-1, 4, 4)
        # per body: its visuals tuple (shared by tree copies until edited), the parts of its opaque
        # visuals (slot to be set) and the items of its translucent ones
        reused, owned = set(), []
        self._body_visuals = {}
        self._mesh_budget, self.meshes_over_budget = MAX_ROBOT_MESH_FACES, 0
        for k, b in enumerate((tree.base, *bodies)):  # k - 1: the body's index (-1: the base)
            c = cache.get(b.name)
            if (c is None or b.name in touched or c[0] is not b.visuals or c[3] > self._mesh_budget
                    or (c[4] and self._mesh_budget > 0)):  # made again: over budget, or left out when it was
                c = self._make_visuals(k - 1, b)
            else:  # kept: moved to its body's new index
                self._mesh_budget -= c[3]
                self._meshes.extend((k - 1, item, V) for item, V in c[2])
                reused.update(id(item) for item, _ in c[2])
            self._body_visuals[b.name] = c
            owned.append((b.name, c[1]))
        if self.meshes_over_budget:
            log.warning("%d mesh visuals not drawn: the robot's meshes have more than %s triangles to draw",
                        self.meshes_over_budget, f"{MAX_ROBOT_MESH_FACES:,}")
        for _, _, items, _, _ in cache.values():
            for item, _ in items:
                if id(item) not in reused:
                    self.removeItem(item)
        new_items = len(self._meshes) > len(reused)
        if self._place_parts(owned, self._reset, change.renamed if change is not None else ()):
            new_items = True
        self.set_highlighted(self._highlighted)  # slots may have been renumbered
        if new_items:
            self._lod_ready = False  # decimated copies are made on the first drag, not at every edit
        self.labels.set_data(texts=[tree.base_name, *(b.name for b in bodies)])
        self.picker.invalidate()
        self._hovered = None
        self.batch.set_hovered(None)
        self._update_label_order()
        self.collisions.build(tree)
        self.set_theme(self.theme)
        s = self._scale * 1.3
        self.base_triad.setData(pos=np.array([[0, 0, 0], [s, 0, 0], [0, 0, 0], [0, s, 0], [0, 0, 0], [0, 0, s]]),
                                color=AXIS_COLORS)
        self.camera.place_axis_letters(s, QColor(*THEMES[self.theme]["label"]))
        self._on_configuration_changed(interacting=False)
        if change is not None and change.kind == "structure":  # bodies added or moved: keep them in view
            self.camera.follow(self._poses[:, :3, 3].reshape(-1, 3))

    def _place_parts(self, owned: list[tuple[str, list[Part]]], reset: bool, renamed) -> bool:
        """Give each body a slot in the batch and the batch its parts; returns whether the
        parts were uploaded again (not when every part kept its slot)."""
        slots = {} if reset else dict(self._slots)
        for old, new in renamed:
            if old in slots:
                slots[new] = slots.pop(old)
        free = max(slots.values(), default=-1) + 1
        for name, _ in owned:
            if name not in slots:
                slots[name], free = free, free + 1
        parts = [p.at(slots[name]) for name, ps in owned for p in ps]
        before = {(id(p.vertices), p.slot) for p in self._parts}
        moved = len(parts) != len(self._parts) or any((id(p.vertices), p.slot) not in before for p in parts)
        if moved or reset:  # renumber compactly while uploading anyway
            slots = {name: k for k, (name, _) in enumerate(owned)}
            parts = [p.at(slots[name]) for name, ps in owned for p in ps]
            self.batch.set_parts(parts)
        self._slots = {name: slots[name] for name, _ in owned}
        self._slot_of_index = np.array([slots[name] for name, _ in owned], dtype=int)
        self._parts = parts
        return moved or reset

    @property
    def frame_size(self) -> float:
        """Length (m) of the drawn frame axes: it follows the robot's typical link length."""
        return self._scale

    def set_highlighted(self, names) -> None:
        """Draw these bodies' opaque visuals in red (e.g. bodies in contact); empty: none."""
        self._highlighted = set(names)
        self.batch.set_highlighted([self._slots[n] for n in self._highlighted if n in self._slots])

    def _make_visuals(self, owner: int, body) -> tuple[tuple, list[Part], list, int, int]:
        """A body's visuals drawn: opaque ones as parts of the batch, translucent ones as items;
        then the mesh-file triangles drawn and the mesh visuals left out (over the robot's budget)."""
        parts, first, faces, left_out = [], len(self._meshes), 0, 0
        for v in body.visuals:
            if (md := visual_mesh(v)) is None:
                continue
            if v.kind == "mesh":
                if md.faceCount() > self._mesh_budget:
                    self._mesh_budget, left_out = 0, left_out + 1  # the later, smaller ones too: a clear cut
                    self.meshes_over_budget += 1
                    continue
                self._mesh_budget -= md.faceCount()
                faces += md.faceCount()
            if v.color[3] >= 1.0:
                parts.append(part(owner + 1, md.vertexes(), md.faces(), v.matrix, v.color))
            else:
                self._add_mesh_item(owner, v, md)
        return body.visuals, parts, [(item, V) for _, item, V in self._meshes[first:]], faces, left_out

    def _add_mesh_item(self, owner: int, visual, md: MeshData) -> None:
        """A translucent visual's own item: static GPU buffers, moved by its transform."""
        item = LodMeshItem(meshdata=md, color=visual.color, smooth=False, shader=SHADER, glOptions="translucent")
        item.setDepthValue(5)  # after the opaque meshes, so they show through
        self.addItem(item)
        self._meshes.append((owner, item, visual.matrix))

    # --- level of detail: decimated meshes while interacting, full detail when still ----------
    def _interacting(self) -> None:
        """Draw the decimated meshes until the user has been still for ``IDLE_MS``."""
        items = [item for _, item, _ in self._meshes]
        if not self._lod_ready:
            self._lod_ready = True
            total = self.batch.face_count + sum(it.face_count for it in items)
            ratio = min(1.0, INTERACTIVE_FACES / max(total, 1))
            self.batch.set_coarse_parts(self._coarse_parts(ratio) if ratio < 1 else None)
            self.interactive_faces = (assign_targets(items, int(ratio * sum(it.face_count for it in items)))
                                      + self.batch.coarse_face_count if ratio < 1 else total)
        lod = [item for item in items if item.coarse is not None]
        for item in (*lod, self.batch):
            item.set_detailed(False)
        self.labels.sticky = True  # labels keep their side of their point while the robot moves
        self._idle.start()

    def _coarse_parts(self, ratio: float) -> list[Part]:
        """The batch's parts with ``ratio`` of their triangles (no part under ``MIN_FACES``)."""
        out = []
        for p in self._parts:
            target = max(int(p.face_count * ratio), MIN_FACES)
            if target >= p.face_count:
                out.append(p)
                continue
            v, f = simplify(p.vertices, p.faces, target)
            out.append(part(p.slot, v, f, np.eye(4), p.color))
        return out

    def set_full_detail(self) -> None:
        """Draw every mesh at full detail (when still, and for screenshots)."""
        self._idle.stop()
        for item in (self.batch, *(item for _, item, _ in self._meshes)):
            item.set_detailed(True)  # repaints only if it was drawing its decimated copy
        if self.labels.sticky:
            self.labels.sticky = False
            self.labels.update()  # still: labelled afresh, each at its best spot

    def joint_axis_reach(self) -> float:
        """How far (m) a drawn joint axis runs from its joint frame's origin."""
        return JOINT_AXIS_HALF * self._scale

    def drawn_faces(self) -> int:
        """Mesh triangles the scene draws now (decimated while interacting)."""
        return self.batch.drawn_face_count() + sum(item.drawn_face_count() for _, item, _ in self._meshes)

    # --- per-frame update (configuration changed) --------------------------------------------
    def _on_doc_configuration(self) -> None:
        # an edit has drawn these poses already; after a new document the update runs again as
        # a first move does (level of detail prepares its copies then)
        if self.doc.poses() is not self._poses or self._reset:
            self._on_configuration_changed()
        self._reset = False

    def redraw(self) -> None:
        """Draw the document's poses again (or a frame drag's preview of them)."""
        self._on_configuration_changed()

    def _on_configuration_changed(self, interacting: bool = True) -> None:
        poses = self.preview.poses(self.doc.poses())
        self._poses = poses
        n = len(poses)
        o = poses[:, :3, 3]
        s = self._scale
        if n:
            tri = np.empty((n, 6, 3))
            tri[:, 0::2] = o[:, None, :]
            tri[:, 1::2] = o[:, None, :] + s * np.swapaxes(poses[:, :3, :3], 1, 2)
            old = self.triads.pos
            if old is None or len(old) != 6 * n:  # the colours are uploaded again only when the count changes
                self.triads.setData(pos=tri.reshape(-1, 3), color=np.tile(AXIS_COLORS, (n, 1)))
            else:
                self.triads.setData(pos=tri.reshape(-1, 3))
            seg = np.empty((n, 2, 3))
            seg[:, 0] = np.where(self._parent[:, None] >= 0, o[np.maximum(self._parent, 0)], 0.0)
            seg[:, 1] = o
            self.links.setData(pos=seg.reshape(-1, 3))
        else:
            self.triads.setData(pos=np.zeros((0, 3)))
            self.links.setData(pos=np.zeros((0, 3)))
        if self._axis_bodies.size:
            # the joint axis is drawn through the joint frame (parent pose · joint_to_parent)
            par = self._parent[self._axis_bodies]
            Tp = np.where((par >= 0)[:, None, None], poses[np.maximum(par, 0)], np.eye(4))
            Tj = Tp @ self._joint_frames
            d = np.einsum("nij,nj->ni", Tj[:, :3, :3], self._axis_dirs) * s * JOINT_AXIS_HALF
            a = np.empty((len(d), 2, 3))
            a[:, 0] = Tj[:, :3, 3] - d
            a[:, 1] = Tj[:, :3, 3] + d
            self.axes.setData(pos=a.reshape(-1, 3))
        else:
            self.axes.setData(pos=np.zeros((0, 3)))
        for i, item, V in self._meshes:
            item.setTransform(_qmatrix(poses[i] @ V if i >= 0 else V))
        self.batch.set_transforms(self._batch_poses())
        self.collisions.place(self._slot_poses())
        self.loops.update(poses)
        moved = self.preview.moved
        self.labels.set_data(positions=np.vstack([np.zeros((1, 3)), o]) + 0.3 * s,
                             moving=None if moved is None or len(moved) != n else np.r_[False, moved])
        # the world's axis letters stay put during a frame drag: placed once, as still labels
        self.camera.letters.set_data(moving=None if moved is None else np.zeros(len(self.camera.letters.texts), bool))
        self._update_selection()
        if interacting or self.preview.active:
            self._interacting()
        else:
            self.set_full_detail()

    def _update_selection(self) -> None:
        name = self.doc.selection
        selected = self._label_index(name)
        if selected != self._selected_label:
            self._selected_label = selected
            self._update_label_order()
        names = self.doc.tree.body_names
        if name is None or (name not in names and name != self.doc.tree.base_name):
            self.selected_triad.setVisible(False)
            self.ik_handle.refresh()
            self.frame_handle.refresh()
            return
        T = np.eye(4) if name == self.doc.tree.base_name else self._poses[names.index(name)]
        s = self._scale * 1.5
        pts = np.array([[0, 0, 0], [s, 0, 0], [0, 0, 0], [0, s, 0], [0, 0, 0], [0, 0, s]])
        self.selected_triad.setData(pos=pts @ T[:3, :3].T + T[:3, 3], color=AXIS_COLORS)
        self.selected_triad.setVisible(True)
        self.ik_handle.refresh()
        if not self.preview.active:  # a frame drag's handle is drawn by the drag's own moves
            self.frame_handle.refresh()

    # --- picking -----------------------------------------------------------------------------
    def project(self, points: np.ndarray) -> np.ndarray:
        """Widget pixel coordinates (x right, y down) of 3D points."""
        return project_points(view_mvp(self), points, self.width(), self.height())[0]

    def _name(self, k: int | None) -> str | None:
        if k is None:
            return None
        return self.doc.tree.base_name if k == 0 else self.doc.tree.body_names[k - 1]

    def body_at(self, x: float, y: float) -> str | None:
        """The body drawn under (x, y): its frame origin or label, else its nearest surface."""
        return self._name(self.picker.body_at(x, y))

    def _set_hovered(self, k: int | None) -> None:
        if k != self._hovered:
            self._hovered = k
            self._update_label_order()
            self.batch.set_hovered(None if k is None else int(self._slot_of_index[k]))

    @property
    def handle(self):
        """The handle of the current tool (the frame handle for a tool without one)."""
        return self.active_tool.handle or self.frame_handle

    def set_tool(self, tool: str) -> None:
        """The active tool: ``tool``, a name in :data:`.tools.tool_list.TOOLS` (pose, move, rotate, measure, loop)."""
        if tool not in self.tools:
            raise ValueError(f"unknown viewport tool {tool!r}")
        if self.active_tool.dragging:
            self.active_tool.cancel()
        self.tool, self.active_tool = tool, self.tools[tool]
        for t in self.tools.values():
            t.activate(t.name == tool)
        self.toolChanged.emit(tool)

    def keyPressEvent(self, ev) -> None:  # noqa: N802
        tool = self.active_tool
        if tool.key(ev):
            return
        if ev.key() == Qt.Key.Key_Escape:
            dragging = tool.dragging
            if tool.cancel():  # Esc during a drag puts it back; else the tool's picks are forgotten
                if dragging:  # the button still held does nothing more (no orbit) until released
                    self._press, self._cancelled = None, True
                return
            if self.doc.selection is not None:
                self.doc.select(None)  # Esc clears the selection, as a click on empty space does
                return
        super().keyPressEvent(ev)

    def mousePressEvent(self, ev) -> None:  # noqa: N802
        self._cancelled = False
        self._press = ev.position()
        if ev.button() == Qt.MouseButton.LeftButton and self.active_tool.press(ev.position().x(), ev.position().y()):
            self._interacting()
            return  # the handle's drag, not the camera's
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802
        if self._cancelled and ev.buttons():
            return
        if self.active_tool.dragging:
            self.active_tool.drag(ev.position().x(), ev.position().y(),
                                  free=bool(ev.modifiers() & Qt.KeyboardModifier.ControlModifier))
            return
        if ev.buttons():  # orbiting or panning: as fluid as a slider drag
            self._interacting()
        else:  # the body under the cursor is labelled and lit
            self._set_hovered(self.picker.body_at(ev.position().x(), ev.position().y()))
        super().mouseMoveEvent(ev)

    def leaveEvent(self, ev) -> None:  # noqa: N802
        self._set_hovered(None)
        super().leaveEvent(ev)

    def wheelEvent(self, ev) -> None:  # noqa: N802
        self._interacting()
        super().wheelEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:  # noqa: N802
        if self._cancelled:  # the end of a drag Esc cancelled: neither a click nor a camera move
            self._cancelled = ev.buttons() != Qt.MouseButton.NoButton
            return
        tool = self.active_tool
        handle = tool.dragging
        tool.release()
        if self._press is not None and ev.button() == Qt.MouseButton.LeftButton:
            if (ev.position() - self._press).manhattanLength() < 4:  # a click, also on the handle
                if tool.click(ev.position().x(), ev.position().y()):
                    pass  # the tool's pick
                elif ev.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    self.picker.add_child_at(ev.position().x(), ev.position().y())
                else:
                    self.doc.select(self._name(self.picker.click(ev.position().x(), ev.position().y())))
        self._press = None
        if not handle:
            super().mouseReleaseEvent(ev)

    def render_image(self, width: int, height: int) -> QImage:
        """A QImage of the scene at the given size (for export and screenshots), with labels."""
        return render_image(self, width, height)
