"""The 3D viewport: frames, links, joint axes and visuals, updated in place while scrubbing."""

from __future__ import annotations

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.core.channels import is_axial
from OpenGL import GL
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QImage, QMatrix4x4, QPainter, QVector3D

from ..changes import TreeChange
from ..document import RobotDocument
from .labels import LabelsItem, draw_labels, label_order, project_points, view_mvp
from .lod import IDLE_MS, INTERACTIVE_FACES, LodMeshItem, assign_targets
from .meshes import SHADER, visual_mesh

AXIS_COLORS = np.array([[1, 0, 0, 1], [1, 0, 0, 1], [0, 0.8, 0, 1], [0, 0.8, 0, 1],
                        [0, 0.3, 1, 1], [0, 0.3, 1, 1]], dtype=float)
THEMES = {
    "dark": {"bg": (28, 30, 36), "grid": (255, 255, 255, 40), "link": (0.85, 0.85, 0.9, 1.0),
             "axis": (1.0, 0.75, 0.1, 1.0), "label": (235, 235, 235)},
    "light": {"bg": (245, 245, 245), "grid": (0, 0, 0, 50), "link": (0.2, 0.2, 0.25, 1.0),
              "axis": (0.85, 0.45, 0.0, 1.0), "label": (20, 20, 20)},
}
ON_TOP = {GL.GL_DEPTH_TEST: False, GL.GL_BLEND: True, GL.GL_CULL_FACE: False,
          "glBlendFunc": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA)}
#: Collision geometry (View ▸ Collision geometry): translucent magenta, unlike any visual default.
COLLISION_COLOR = (1.0, 0.15, 0.75, 0.45)
#: Visuals with up to this many triangles in all are drawn as one mesh item, moved on the CPU.
MERGE_FACES = 60_000
VIEW_PRESETS = {"iso": (30, 45), "front": (0, -90), "side": (0, 0), "top": (90, -90)}


def _qmatrix(T: np.ndarray) -> QMatrix4x4:
    return QMatrix4x4(*np.asarray(T, dtype=np.float32).ravel())


class RobotViewport(gl.GLViewWidget):
    """Draws the document's robot. Items are rebuilt on ``treeChanged`` only; on
    ``configurationChanged`` their vertex data and transforms are updated in place."""

    def __init__(self, doc: RobotDocument, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("viewport")
        self.doc = doc
        self.theme = "dark"
        self.show_labels = True
        self.all_labels = False  # by default: selected body, end effectors and the body under the cursor
        self._hovered: int | None = None  # label index (0: the base) of the body under the cursor
        self.setMouseTracking(True)
        self.show_collisions = False
        self._scale = 0.1
        self.grid = gl.GLGridItem()
        self.addItem(self.grid)
        self.base_triad = gl.GLLinePlotItem(mode="lines", width=3, antialias=True)
        self.triads = gl.GLLinePlotItem(mode="lines", width=3, antialias=True)
        self.selected_triad = gl.GLLinePlotItem(mode="lines", width=7, antialias=True)
        self.links = gl.GLLinePlotItem(mode="lines", width=6, antialias=True)
        self.axes = gl.GLLinePlotItem(mode="lines", width=2, antialias=True)
        self.links.setGLOptions("translucent")
        self.addItem(self.links)
        for item in (self.axes, self.triads, self.base_triad, self.selected_triad):
            # frames are what the user reads: draw them over the visuals, not hidden inside them
            item.setGLOptions(ON_TOP)
            item.setDepthValue(10)
            self.addItem(item)
        self._meshes: list[tuple[int, gl.GLMeshItem, np.ndarray]] = []
        self._collision_items: list[tuple[int, gl.GLMeshItem, np.ndarray]] = []
        self._merged: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self.merged_mesh = gl.GLMeshItem(smooth=False, shader=SHADER, glOptions="opaque")
        self.addItem(self.merged_mesh)
        self.labels = LabelsItem()
        self.labels.setDepthValue(100)  # painted last: meshes added later must not cover the text
        self.addItem(self.labels)
        self._axis_bodies = np.zeros(0, dtype=int)
        self._axis_dirs = np.zeros((0, 3))
        self._parent = np.zeros(0, dtype=int)
        self._poses = np.zeros((0, 4, 4))
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
        self.update()

    LINE_WIDTHS = {"base_triad": 3, "triads": 3, "selected_triad": 7, "links": 6, "axes": 2}

    def set_text_scale(self, scale: float) -> None:
        """Scale label text and line widths (presentation mode: readable from the back of a room)."""
        for name, width in self.LINE_WIDTHS.items():
            getattr(self, name).setData(width=width * scale)
        font = QFont(self.labels.font)
        font.setPointSizeF(10 * scale)
        self.labels.font = font
        self.labels.static_texts.clear()
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
        self.labels.set_data(order=label_order(n + 1, self._label_index(self.doc.selection), self._hovered,
                                               leaves, self.all_labels))

    def set_collisions_visible(self, on: bool) -> None:
        """Draw every body's collision geometry, translucent in :data:`COLLISION_COLOR`."""
        self.show_collisions = bool(on)
        self._build_collisions()
        self._place_collisions()
        self.update()

    def _build_collisions(self) -> None:
        # built only while shown: a robot's collision meshes are not loaded unless asked for
        for _, item, _ in self._collision_items:
            self.removeItem(item)
        self._collision_items = []
        if not self.show_collisions:
            return
        tree = self.doc.tree
        for i, b in [(-1, tree.base), *enumerate(tree.bodies)]:
            for c in b.collisions:
                md = visual_mesh(c)
                if md is None:
                    continue
                item = gl.GLMeshItem(meshdata=md, color=COLLISION_COLOR, smooth=False, shader=SHADER,
                                     glOptions="translucent")
                item.setDepthValue(6)  # after the opaque visuals (and translucent ones), under the frames
                self.addItem(item)
                self._collision_items.append((i, item, c.matrix))

    def _place_collisions(self) -> None:
        poses = self._poses
        for i, item, V in self._collision_items:
            item.setTransform(_qmatrix(poses[i] @ V if i >= 0 else V))

    def set_view(self, preset: str) -> None:
        elevation, azimuth = VIEW_PRESETS[preset]
        self.setCameraPosition(elevation=elevation, azimuth=azimuth)

    def fit(self) -> None:
        """Frame the whole robot: the base, every body origin and every visual at the current pose."""
        pts = [np.zeros((1, 3)), self._poses[:, :3, 3].reshape(-1, 3)]
        if self._merged is not None:
            pts.append(self._merged_bounds)
        P = np.concatenate([self._poses, np.eye(4)[None]])  # index -1: the base
        for i, item, V in self._meshes:
            pts.append(item.opts["meshdata"].vertexes() @ (P[i] @ V)[:3, :3].T + (P[i] @ V)[:3, 3])
        pts = np.vstack(pts)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        center = (lo + hi) / 2
        radius = max(float(np.linalg.norm(hi - lo)) / 2, 0.3) + 2 * self._scale
        self.setCameraPosition(pos=QVector3D(*center.astype(float)), distance=radius * 2.4)

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
        home = tree.forward_kinematics(tree.home_configuration())
        extent = float(np.abs(home[:, :3, 3]).max()) if len(home) else 0.5
        # frame size follows the typical link length, so that a hand or a humanoid with many
        # short links is not buried under its own triads; bounded by the robot's size
        origins = np.vstack([np.zeros((1, 3)), home[:, :3, 3]]) if len(home) else np.zeros((1, 3))
        parents = [tree.index_of(tree.parent_name(b.name)) + 1 for b in tree.bodies]
        links = np.linalg.norm(origins[1:] - origins[parents], axis=1) if len(home) else np.zeros(0)
        links = links[links > 1e-6]
        typical = float(np.median(links)) if links.size else 0.3
        self._scale = float(np.clip(0.5 * typical, 0.03 * max(extent, 0.3), 0.15 * max(extent, 0.3)))
        self.grid.setSize(max(2.0, 4 * extent), max(2.0, 4 * extent))
        self.grid.setSpacing(0.1 if extent < 2 else 0.5, 0.1 if extent < 2 else 0.5)
        bodies = tree.bodies
        index = {b.name: i for i, b in enumerate(bodies)}
        self._parent = np.array([index.get(tree.parent_name(b.name), -1) for b in bodies], dtype=int)
        movable = [i for i, b in enumerate(bodies) if is_axial(b.joint)]
        self._axis_bodies = np.array(movable, dtype=int)
        self._axis_dirs = np.array([bodies[i].joint.axis for i in movable]).reshape(-1, 3)
        self._joint_frames = np.array([bodies[i].joint.joint_to_parent_transform for i in movable]).reshape(-1, 4, 4)
        # per body: its visuals tuple (shared by tree copies until edited), their meshes, its items
        entries = []
        for i, b in [(-1, tree.base), *enumerate(bodies)]:  # -1: the base, fixed at the origin
            c = cache.get(b.name)
            if c is None or b.name in touched or c[0] is not b.visuals:
                meshes = [(v, md) for v in b.visuals if (md := visual_mesh(v)) is not None]
                c = (b.visuals, meshes, None)
            entries.append((i, b.name, c))

        def small(v, md) -> bool:  # light opaque visuals: merged into one item if few
            return v.color[3] >= 1.0 and md.faceCount() <= MERGE_FACES // 4

        faces = sum(md.faceCount() for _, _, c in entries for v, md in c[1] if small(v, md))
        overflow = faces > MERGE_FACES
        keep = overflow == getattr(self, "_overflow", None)
        self._overflow = overflow
        self._body_visuals = {}
        reused = set()
        corners, owners, colors = [], [], []
        for i, name, (visuals, meshes, items) in entries:
            if items is not None and keep:
                self._meshes.extend((i, item, V) for item, V in items)
                reused.update(id(item) for item, _ in items)
            else:
                first = len(self._meshes)
                for v, md in meshes:
                    if overflow or not small(v, md):  # its own item, moved by its transform
                        self._add_mesh_item(i, v, md)
                items = [(item, V) for _, item, V in self._meshes[first:]]
            self._body_visuals[name] = (visuals, meshes, items)
            if not overflow:
                for v, md in meshes:
                    if small(v, md):
                        corners.append(md.vertexes(indexed="faces") @ v.matrix[:3, :3].T + v.matrix[:3, 3])
                        owners.append(np.full(len(corners[-1]), i))
                        colors.append(np.broadcast_to(np.asarray(v.color, dtype=np.float32),
                                                      (len(corners[-1]), 3, 4)))
        for _, _, items in cache.values():
            for item, _ in items or ():
                if id(item) not in reused:
                    self.removeItem(item)
        # small visuals (primitives, light meshes) share one item whose triangles are moved on the
        # CPU each frame: one draw call instead of one per visual
        self._merged = None
        if corners and not overflow:
            # (faces, 3 corners, 3) positions and (faces, 3 corners, RGBA) colours, face-indexed
            self._merged = (np.concatenate(corners), np.concatenate(owners), np.concatenate(colors))
            self.merged_mesh.setVisible(True)
        else:
            self.merged_mesh.setVisible(False)
        self._lod_ready = False  # decimated copies are made on the first drag, not at every load
        self.labels.set_data(texts=[tree.base_name, *(b.name for b in bodies)])
        self._hovered = None
        self._update_label_order()
        self._build_collisions()
        self.set_theme(self.theme)
        s = self._scale * 1.3
        self.base_triad.setData(pos=np.array([[0, 0, 0], [s, 0, 0], [0, 0, 0], [0, s, 0], [0, 0, 0], [0, 0, s]]),
                                color=AXIS_COLORS)
        self._on_configuration_changed(interacting=False)

    def _add_mesh_item(self, owner: int, visual, md: gl.MeshData) -> None:
        """A visual's own item: static GPU buffers, moved by its transform (never re-uploaded)."""
        translucent = visual.color[3] < 1.0
        item = LodMeshItem(meshdata=md, color=visual.color, smooth=False, shader=SHADER,
                           glOptions="translucent" if translucent else "opaque")
        if translucent:
            item.setDepthValue(5)  # after the opaque meshes, so they show through
        self.addItem(item)
        self._meshes.append((owner, item, visual.matrix))

    # --- level of detail: decimated meshes while interacting, full detail when still ----------
    def _interacting(self) -> None:
        """Draw the decimated meshes until the user has been still for ``IDLE_MS``."""
        items = [item for _, item, _ in self._meshes]
        if not self._lod_ready:
            self._lod_ready = True
            merged = len(self._merged[0]) if self._merged is not None else 0
            self.interactive_faces = assign_targets(items, max(INTERACTIVE_FACES - merged, 0)) + merged
        lod = [item for item in items if item.coarse is not None]
        for item in lod:
            item.set_detailed(False)
        if lod:  # a light scene has no decimated copies: nothing to switch back, no extra frame
            self._idle.start()

    def set_full_detail(self) -> None:
        """Draw every mesh at full detail (when still, and for screenshots)."""
        self._idle.stop()
        for _, item, _ in self._meshes:
            item.set_detailed(True)  # repaints only if it was drawing its decimated copy

    def drawn_faces(self) -> int:
        """Mesh triangles the scene draws now (decimated while interacting)."""
        merged = len(self._merged[0]) if self._merged is not None else 0
        return merged + sum(item.drawn_face_count() for _, item, _ in self._meshes)

    # --- per-frame update (configuration changed) --------------------------------------------
    def _on_doc_configuration(self) -> None:
        # an edit has drawn these poses already; after a new document the update runs again as
        # a first move does (level of detail prepares its copies then)
        if self.doc.poses() is not self._poses or self._reset:
            self._on_configuration_changed()
        self._reset = False

    def _on_configuration_changed(self, interacting: bool = True) -> None:
        poses = self.doc.poses()
        self._poses = poses
        n = len(poses)
        o = poses[:, :3, 3]
        s = self._scale
        if n:
            tri = np.empty((n, 6, 3))
            tri[:, 0::2] = o[:, None, :]
            tri[:, 1::2] = o[:, None, :] + s * np.swapaxes(poses[:, :3, :3], 1, 2)
            self.triads.setData(pos=tri.reshape(-1, 3), color=np.tile(AXIS_COLORS, (n, 1)))
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
            d = np.einsum("nij,nj->ni", Tj[:, :3, :3], self._axis_dirs) * s * 0.9
            a = np.empty((len(d), 2, 3))
            a[:, 0] = Tj[:, :3, 3] - d
            a[:, 1] = Tj[:, :3, 3] + d
            self.axes.setData(pos=a.reshape(-1, 3))
        else:
            self.axes.setData(pos=np.zeros((0, 3)))
        for i, item, V in self._meshes:
            item.setTransform(_qmatrix(poses[i] @ V if i >= 0 else V))
        self._place_collisions()
        if self._merged is not None:
            corners, owners, colors = self._merged
            P = np.concatenate([poses, np.eye(4)[None]])  # owner -1 (the base) reads the identity
            R, t = P[owners, :3, :3], P[owners, :3, 3]
            world = np.einsum("fij,fkj->fki", R, corners) + t[:, None, :]
            self._merged_bounds = np.array([world.min(axis=(0, 1)), world.max(axis=(0, 1))])
            self.merged_mesh.setMeshData(meshdata=gl.MeshData(vertexes=world, faceColors=colors))
        self.labels.set_data(positions=np.vstack([np.zeros((1, 3)), o]) + 0.3 * s)
        self._update_selection()
        if interacting:
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
            return
        T = np.eye(4) if name == self.doc.tree.base_name else self._poses[names.index(name)]
        s = self._scale * 1.5
        pts = np.array([[0, 0, 0], [s, 0, 0], [0, 0, 0], [0, s, 0], [0, 0, 0], [0, 0, s]])
        self.selected_triad.setData(pos=pts @ T[:3, :3].T + T[:3, 3], color=AXIS_COLORS)
        self.selected_triad.setVisible(True)

    # --- picking -----------------------------------------------------------------------------
    def project(self, points: np.ndarray) -> np.ndarray:
        """Widget pixel coordinates (x right, y down) of 3D points."""
        return project_points(view_mvp(self), points, self.width(), self.height())[0]

    def body_at(self, x: float, y: float, radius: float = 14.0) -> str | None:
        """The body whose frame origin is drawn nearest (within ``radius`` px) to (x, y)."""
        names = [self.doc.tree.base_name, *self.doc.tree.body_names]
        pts = np.vstack([np.zeros((1, 3)), self._poses[:, :3, 3]]) if len(self._poses) else np.zeros((1, 3))
        px = self.project(pts)
        dist = np.hypot(px[:, 0] - x, px[:, 1] - y)
        k = int(np.argmin(dist[::-1]))
        k = len(dist) - 1 - k  # prefer the deepest body when frames coincide
        return names[k] if dist[k] <= radius else None

    def mousePressEvent(self, ev) -> None:  # noqa: N802
        self._press = ev.position()
        super().mousePressEvent(ev)

    def mouseMoveEvent(self, ev) -> None:  # noqa: N802
        if ev.buttons():  # orbiting or panning: as fluid as a slider drag
            self._interacting()
        else:  # the body under the cursor is labelled
            hovered = self._label_index(self.body_at(ev.position().x(), ev.position().y()))
            if hovered != self._hovered:
                self._hovered = hovered
                self._update_label_order()
        super().mouseMoveEvent(ev)

    def leaveEvent(self, ev) -> None:  # noqa: N802
        if self._hovered is not None:
            self._hovered = None
            self._update_label_order()
        super().leaveEvent(ev)

    def wheelEvent(self, ev) -> None:  # noqa: N802
        self._interacting()
        super().wheelEvent(ev)

    def mouseReleaseEvent(self, ev) -> None:  # noqa: N802
        if self._press is not None and ev.button() == Qt.MouseButton.LeftButton:
            if (ev.position() - self._press).manhattanLength() < 4:
                self.doc.select(self.body_at(ev.position().x(), ev.position().y()))
        self._press = None
        super().mouseReleaseEvent(ev)

    def render_image(self, width: int, height: int) -> QImage:
        """A QImage of the scene at the given size (for export and screenshots), with labels."""
        self.set_full_detail()
        self.labels.setVisible(False)  # it paints on the widget, not into the offscreen tiles
        try:
            arr = np.ascontiguousarray(self.renderToArray((width, height)))  # (h, w, 4) BGRA, top row first
        finally:
            self.labels.setVisible(self.show_labels)
        img = QImage(arr.data, width, height, arr.strides[0], QImage.Format.Format_ARGB32).copy()
        if self.show_labels and self.labels.texts:
            px, front = project_points(view_mvp(self, (0, 0, width, height)), self.labels.positions, width, height)
            font = QFont(self.labels.font)
            font.setPointSizeF(font.pointSizeF() * max(1.0, height / max(self.height(), 1)))
            painter = QPainter(img)
            draw_labels(painter, self.labels.texts, px, front, self.labels.color, font, self.labels.static_texts,
                        self.labels.order)
            painter.end()
        return img
