"""The viewport's camera as the 3D tools people know it: front/side/top views drawn orthographic
(key 5 toggles, as in Blender), Fit that frames the robot in any window shape, Fit selection,
a grid whose spacing follows the zoom and says what it is, and x/y/z letters on the world axes.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QMatrix4x4, QVector3D
from PySide6.QtWidgets import QLabel

from .labels import LabelsItem, project_points, view_mvp

#: (elevation, azimuth) of each view: front looks along −x at a robot that faces +x (as URDF and ROS
#: have it), side along −y, top down −z with x to the right
VIEW_PRESETS = {"iso": (30, 45), "front": (0, 0), "side": (0, 90), "top": (90, -90)}
#: Grid lines across the view, about: the spacing is the 1-2-5 step nearest distance / this.
GRID_LINES = 12
#: A body origin nearer than this share of the view's width or height to its edge counts as out of
#: view for :meth:`Camera.follow`: its frame, label and handles would be cut by the edge.
FOLLOW_MARGIN = 0.08


def nice_step(length: float) -> float:
    """The 1, 2 or 5 × 10^k nearest (in ratio) to ``length``."""
    if not math.isfinite(length) or length <= 0:
        return 0.1
    k = math.floor(math.log10(length))
    return min((m * 10.0 ** e for e in (k, k + 1) for m in (1, 2, 5)), key=lambda s: abs(math.log(s / length)))


def length_text(metres: float) -> str:
    """0.01 → "1 cm", 0.5 → "50 cm", 2 → "2 m", 0.002 → "2 mm"."""
    if metres >= 1:
        return f"{metres:g} m"
    if metres >= 0.01:
        return f"{metres * 100:g} cm"
    return f"{metres * 1000:g} mm"


class Camera:
    """Owns the projection (perspective or orthographic), the fit and the grid of ``view``."""

    def __init__(self, view) -> None:
        self.view = view
        self.ortho = False
        self.grid_step = 0.0
        self.grid_label = QLabel(view)
        self.grid_label.setObjectName("gridLabel")
        self.grid_label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        # the labels' plate colour (text_style.PLATES), opaque: a native window over the scene
        self.grid_label.setStyleSheet("QLabel { color: #c8ccd4; background: rgb(22, 24, 30); padding: 2px 6px; }")
        view.add_overlay(self.grid_label)
        self.letters = LabelsItem(QFont("DejaVu Sans", 12, QFont.Weight.Bold))
        self.letters.setDepthValue(99)
        view.addItem(self.letters)
        self._seen = None  # the camera distance and projection the grid was made for
        self._fitted = None  # the camera as the last fit left it (see moved_since_fit)

    # --- projection ----------------------------------------------------------------------------
    def projection(self, region, viewport) -> QMatrix4x4 | None:
        """The orthographic projection matching the perspective one at the focus distance (None:
        perspective)."""
        if not self.ortho:
            return None
        x0, y0, w, h = viewport
        dist = self.view.opts["distance"]
        r = dist * math.tan(0.5 * math.radians(self.view.opts["fov"]))
        t = r * h / max(w, 1)
        left, right = r * ((region[0] - x0) * (2.0 / w) - 1), r * ((region[0] + region[2] - x0) * (2.0 / w) - 1)
        bottom, top = t * ((region[1] - y0) * (2.0 / h) - 1), t * ((region[1] + region[3] - y0) * (2.0 / h) - 1)
        m = QMatrix4x4()
        m.ortho(left, right, bottom, top, -dist * 1000.0, dist * 1000.0)
        return m

    def set_ortho(self, on: bool) -> None:
        if bool(on) != self.ortho:
            self.ortho = bool(on)
            self.view.orthoChanged.emit(self.ortho)
        self.view.update()

    def set_view(self, preset: str) -> None:
        """Iso (perspective) or front/side/top (orthographic, as a drawing)."""
        following = not self.moved_since_fit()
        elevation, azimuth = VIEW_PRESETS[preset]
        self.view.setCameraPosition(elevation=elevation, azimuth=azimuth)
        self.set_ortho(preset != "iso")
        if following:  # a direction chosen, the framing still the last fit's: the work keeps following
            self._fitted = self._state()

    # --- fit -----------------------------------------------------------------------------------
    def fit(self, selection: bool = False, size: tuple[int, int] | None = None) -> None:
        """Frame the whole robot (the base, every body origin and every visual at the current
        pose) in any window shape; ``selection``: the selected body and its subtree only;
        ``size``: for an image of that width and height rather than the widget's."""
        view = self.view
        tree = view.doc.tree
        shown = None
        if selection and view.doc.selection is not None:
            sel = view.doc.selection
            names = {sel, *tree.descendants(sel)} if sel != tree.base_name else None
            if names is not None:
                shown = np.array([n in names for n in [tree.base_name, *tree.body_names]])
        pts = [np.zeros((1, 3)), view._poses[:, :3, 3].reshape(-1, 3)]
        if shown is not None:
            pts = [np.vstack(pts)[shown]]
        P = view._batch_poses()
        label_of_slot = {int(s): k for k, s in enumerate(view._slot_of_index)}
        for p in view._parts:  # the corners of each visual's box, placed
            if shown is not None and not shown[label_of_slot.get(p.slot, 0)]:
                continue
            lo, hi = p.vertices.min(axis=0), p.vertices.max(axis=0)
            box = np.array(np.meshgrid(*zip(lo, hi))).reshape(3, -1).T
            pts.append(box @ P[p.slot, :3, :3].T + P[p.slot, :3, 3])
        P = np.concatenate([view._poses, np.eye(4)[None]])  # index -1: the base
        for i, item, V in view._meshes:
            if shown is None or shown[i + 1]:
                pts.append(item.opts["meshdata"].vertexes() @ (P[i] @ V)[:3, :3].T + (P[i] @ V)[:3, 3])
        self.fit_points(np.vstack(pts), margin=view._scale, size=size)

    def fit_points(self, pts: np.ndarray, margin: float = 0.0, size: tuple[int, int] | None = None) -> None:
        """Put ``pts`` (n, 3) inside the view, whatever its width and height (``size``: those
        of an image rendered at that size instead)."""
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if not len(pts):
            return
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        center = (lo + hi) / 2
        radius = float(np.linalg.norm(pts - center, axis=1).max()) + margin
        radius = max(radius, 0.05)
        w, h = size or (self.view.width(), self.view.height())
        w, h = max(w, 1), max(h, 1)
        half_h = 0.5 * math.radians(self.view.opts["fov"])  # pyqtgraph's fov is the horizontal one
        half_v = math.atan(math.tan(half_h) * h / w)
        # the sphere round the points inside the narrower of the two angles, with 8% to spare
        distance = 1.08 * radius / math.sin(min(half_h, half_v))
        self.view.setCameraPosition(pos=QVector3D(*center.astype(float)), distance=distance)
        self._fitted = self._state()

    def _state(self) -> tuple:
        o = self.view.opts
        c = o["center"]
        return (o["distance"], o["elevation"], o["azimuth"], o["fov"], c.x(), c.y(), c.z(), self.ortho)

    def moved_since_fit(self) -> bool:
        """Whether the camera is not where the last fit put it (the user orbited, panned or zoomed
        since; a view preset keeps the fit's framing): then the work no longer moves it by itself."""
        return self._fitted is None or self._state() != self._fitted

    def follow(self, points: np.ndarray) -> None:
        """Fit the robot when some of ``points`` (n, 3) are out of the view or at its very edge
        (``FOLLOW_MARGIN``), unless the user has moved the camera since the last fit: the first
        links added to an empty robot, a body placed off screen or a few pixels inside it."""
        view = self.view
        if self.moved_since_fit() or not len(points):
            return
        w, h = max(view.width(), 1), max(view.height(), 1)
        px, front = project_points(view_mvp(view), points, w, h)
        mx, my = FOLLOW_MARGIN * w, FOLLOW_MARGIN * h
        inside = front & (px[:, 0] >= mx) & (px[:, 0] < w - mx) & (px[:, 1] >= my) & (px[:, 1] < h - my)
        if not inside.all():
            self.fit()

    # --- grid and world axes -----------------------------------------------------------------
    def update_grid(self) -> bool:
        """Grid spacing follows the zoom (1-2-5 steps), and the label in the corner says it;
        True if the view changed since the last call (zoom, projection, size, orbit)."""
        view = self.view
        c = view.opts["center"]
        key = (round(view.opts["distance"], 9), self.ortho, view.width(), view.height(),
               round(view.opts["elevation"], 6), round(view.opts["azimuth"], 6), c.x(), c.y(), c.z())
        if key == self._seen:
            return False
        self._seen = key
        visible = 2 * view.opts["distance"] * math.tan(0.5 * math.radians(view.opts["fov"]))
        step = nice_step(visible / GRID_LINES)
        if step != self.grid_step:
            self.grid_step = step
            size = step * 40
            view.grid.setSpacing(step, step)
            view.grid.setSize(size, size)
            self.grid_label.setText(f"grid {length_text(step)}")
            self.grid_label.adjustSize()
        self.grid_label.move(8, view.height() - self.grid_label.height() - 8)
        return True

    def place_axis_letters(self, length: float, color: QColor) -> None:
        """x, y, z at the tips of the world axes (drawn ``length`` long)."""
        s = 1.18 * length
        self.letters.set_data(texts=["x", "y", "z"], positions=np.array([[s, 0, 0], [0, s, 0], [0, 0, s]]),
                              color=color)
