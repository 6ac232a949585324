"""The inverse-kinematics handle: drag a body (by default the end effector) and the robot follows.

Like MATLAB's ``interactiveRigidBodyTree`` marker: three arrows along the body's axes move it
along one axis, three rings turn it about one axis, the centre moves it in the view plane. Each
mouse move solves IK warm-started from the current configuration; the whole drag is one undo
step. A target the body cannot reach keeps the best configuration found and turns the handle red.

A chain that cannot hold an orientation (fewer than six joints move the body, or their axes do
not span every rotation) is dragged by its origin alone, any orientation, and has no rings;
so is any chain while ``position_only`` is on (View ▸ IK position only, the viewport tool bar).
"""

from __future__ import annotations

import math

import numpy as np
from kinetree.core import KineTreeError
from kinetree.core.transforms import axis_angle_rotation

from ..gl_programs import ON_TOP
from ..labels import project_points, view_mvp
from ..lines import DotsItem, LineItem

#: On-screen length (pixels) of the handle's arrows.
HANDLE_PX = 80.0
#: the arrows are at least this many times as long as a drawn joint axis runs from its origin
ARROW_OVER_AXIS = 1.3
#: Segments of a ring.
RING_SEGMENTS = 48
#: How near (pixels) the cursor must be to grab a part of the handle.
PICK_PX = 9.0
# translucent, and drawn under the frames: the body's own triad stays readable through the handle
AXIS_RGBA = ((1.0, 0.2, 0.2, 0.6), (0.2, 0.85, 0.2, 0.6), (0.25, 0.45, 1.0, 0.6))
CENTRE_RGBA = (1.0, 0.85, 0.1, 0.8)
UNREACHED_RGBA = (1.0, 0.1, 0.1, 0.9)


def mouse_ray(view, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
    """World-space origin and unit direction of the line under widget pixel (x, y)."""
    inv = np.linalg.inv(view_mvp(view))
    ndc = (2 * x / max(view.width(), 1) - 1, 1 - 2 * y / max(view.height(), 1))
    near = inv @ np.array([*ndc, -1.0, 1.0])
    far = inv @ np.array([*ndc, 1.0, 1.0])
    a, b = near[:3] / near[3], far[:3] / far[3]
    d = b - a
    return a, d / np.linalg.norm(d)


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """Pixel distance from point ``p`` to the 2D segment ``a``–``b``."""
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-12), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


class IkHandle:
    """The handle's drawing and its drag. ``view`` is the :class:`RobotViewport`; the document
    is changed only through ``doc.set_configuration`` (one undo step per drag)."""

    def __init__(self, view) -> None:
        self.view = view
        self.enabled = True
        self.body: str | None = None
        self.pose = np.eye(4)  # where the handle is drawn (the target while dragging)
        self.size = 0.1
        self.reached = True
        self.last_result = None  # the last IKResult of a drag
        self.position_only = False  # the user's toggle: drag the origin, any orientation
        self.holds_orientation = True  # False: the body's chain cannot (see orientation_holdable)
        self._grab: dict | None = None
        self.arrows = LineItem(mode="lines", width=4, antialias=True)
        self.rings = LineItem(mode="lines", width=3, antialias=True)
        self.centre = DotsItem(size=14, pxMode=True)
        for item in (self.arrows, self.rings, self.centre):
            item.setGLOptions(ON_TOP)
            item.setDepthValue(9)  # over the meshes, under the frames (10)
            item.setVisible(False)  # until a body has a handle
            view.addItem(item)

    # --- what is shown -----------------------------------------------------------------------
    def items(self) -> tuple:
        """Its GL items (an image rendered for export leaves them out)."""
        return (self.arrows, self.rings, self.centre)

    def target_body(self) -> str | None:
        """The selected body, else the end effector (never the base: it cannot move)."""
        tree = self.view.doc.tree
        name = self.view.doc.selection
        if name is None or name == tree.base_name or name not in tree.body_names:
            name = tree.end_effector
        return name

    @property
    def active(self) -> bool:
        """Shown and draggable: switched on, and the viewport's tool is the pose handle (Q)."""
        return self.enabled and getattr(self.view, "tool", "pose") == "pose"

    @property
    def free_orientation(self) -> bool:
        """True when a drag moves the origin only (the toggle, or a chain that cannot hold one)."""
        return self.position_only or not self.holds_orientation

    def orientation_holdable(self, body: str) -> bool:
        """Whether ``body``'s joints can hold an orientation while its origin moves: at least
        six of them move it and their rotation rows have rank 3 (a planar or a five-axis arm
        cannot; holding its orientation, the drag did not follow the mouse)."""
        doc = self.view.doc
        fast = self._chain_axes(body)
        if fast is not None:
            moving, rotations = fast
            return moving >= 6 and int(np.linalg.matrix_rank(rotations, tol=1e-9)) == 3
        try:
            J = doc.tree.geometric_jacobian(doc.configuration, body)
        except KineTreeError:
            return True
        moving = int((np.abs(J).max(axis=0) > 1e-12).sum()) if J.size else 0
        return moving >= 6 and int(np.linalg.matrix_rank(J[:3], tol=1e-9)) == 3

    def _chain_axes(self, body: str) -> tuple[int, np.ndarray] | None:
        """How many joints move ``body`` and their rotation axes (3 × k, base frame), read off
        the path to the base: the Jacobian's count and rotation rows without building the whole
        tree's Jacobian (1 s after each edit of a 1000-body tree). None when a joint on the path
        is not a plain revolute, prismatic or fixed one (or the tree has loops): then ask the Jacobian."""
        doc = self.view.doc
        tree = doc.tree
        if tree.loops:
            return None
        poses, index = doc.poses(), {n: i for i, n in enumerate(tree.body_names)}
        axes, moving, name = [], 0, body
        while name is not None and name != tree.base_name:
            joint = tree.get_body(name).joint
            if joint.mimic is not None or not joint.actuated or joint.type not in ("revolute", "continuous",
                                                                                     "prismatic", "fixed"):
                return None
            parent = tree.parent_name(name)
            if joint.type != "fixed" and np.any(joint.axis):
                moving += 1
                if joint.type != "prismatic":  # the axis is fixed in the joint's frame (parent · joint_to_parent)
                    R = poses[index[parent]][:3, :3] if parent != tree.base_name else np.eye(3)
                    axes.append(R @ joint.joint_to_parent_transform[:3, :3] @ joint.axis)
            name = parent
        return moving, np.array(axes).reshape(-1, 3).T

    def set_position_only(self, on: bool) -> None:
        self.position_only = bool(on)
        self.refresh()

    def refresh(self) -> None:
        """Follow the document (pose, selection, tree) unless a drag draws the target."""
        if self._grab is None and self.body is None and not self.active:
            return  # switched off and already hidden (another tool's drag redraws at every move)
        if self._grab is None:
            self.body = self.target_body() if self.active else None
            if self.body is not None:
                self.pose = self.view.doc.poses()[self.view.doc.tree.body_names.index(self.body)]
                self.reached = True
                self.holds_orientation = self.orientation_holdable(self.body)
        self.size = self._screen_size()
        self._draw()

    def _screen_size(self) -> float:
        """The arrows' world length that is :data:`HANDLE_PX` on screen at the handle's origin,
        whatever the zoom (as 3D tools draw their gizmos)."""
        view = self.view
        w = max(view.width(), 1)
        half = math.tan(0.5 * math.radians(view.opts["fov"]))
        if getattr(view, "camera", None) is not None and view.camera.ortho:
            depth = view.opts["distance"]
        else:  # the origin's distance along the view axis
            eye = np.array(list(view.cameraPosition()))
            centre = view.opts["center"]
            forward = np.array([centre.x(), centre.y(), centre.z()]) - eye
            forward /= max(np.linalg.norm(forward), 1e-12)
            depth = max(float((self.pose[:3, 3] - eye) @ forward), 1e-6)
        size = HANDLE_PX * 2 * depth * half / w
        # past the orange joint axis drawn through the frame: shorter, the axis ran on beyond the
        # blue z arrow's tip and read as its continuation (zoomed in, 80 px is a short arrow)
        reach = getattr(view, "joint_axis_reach", None)
        return max(size, ARROW_OVER_AXIS * reach()) if reach is not None else size

    def set_enabled(self, on: bool) -> None:
        self.enabled = bool(on)
        self.refresh()

    def _ring(self, k: int) -> np.ndarray:
        """World points of ring ``k`` (about the handle's axis k), closed."""
        R, o = self.pose[:3, :3], self.pose[:3, 3]
        u, v = R[:, (k + 1) % 3], R[:, (k + 2) % 3]
        t = np.linspace(0, 2 * np.pi, RING_SEGMENTS + 1)
        return o + 0.8 * self.size * (np.outer(np.cos(t), u) + np.outer(np.sin(t), v))

    def _draw(self) -> None:
        shown = self.body is not None
        for item in (self.arrows, self.rings, self.centre):
            item.setVisible(shown)
        self.rings.setVisible(shown and not self.free_orientation)  # nothing to turn
        if not shown:
            return
        R, o = self.pose[:3, :3], self.pose[:3, 3]
        bad = not self.reached
        arrows = np.empty((6, 3))
        arrows[0::2] = o
        arrows[1::2] = o + self.size * R.T
        colors = np.repeat(np.array([UNREACHED_RGBA if bad else c for c in AXIS_RGBA]), 2, axis=0)
        self.arrows.setData(pos=arrows, color=colors)
        seg, cols = [], []
        for k in range(3):
            ring = self._ring(k)
            seg.append(np.stack([ring[:-1], ring[1:]], axis=1).reshape(-1, 3))
            cols.append(np.tile(UNREACHED_RGBA if bad else AXIS_RGBA[k], (2 * RING_SEGMENTS, 1)))
        self.rings.setData(pos=np.vstack(seg), color=np.vstack(cols))
        self.centre.setData(pos=o[None], color=np.array([UNREACHED_RGBA if bad else CENTRE_RGBA]))

    # --- picking -----------------------------------------------------------------------------
    def pick(self, x: float, y: float) -> tuple[str, int] | None:
        """The part of the handle under pixel (x, y): ("centre", -1), ("axis", k) or ("ring", k)."""
        if self.body is None:
            return None
        view = self.view
        p = np.array([x, y], dtype=float)
        R, o = self.pose[:3, :3], self.pose[:3, 3]
        pts = np.vstack([o, o + self.size * R.T, *(self._ring(k) for k in range(3))])
        px, front = project_points(view_mvp(view), pts, view.width(), view.height())
        if not front[0]:
            return None
        if np.linalg.norm(px[0] - p) <= PICK_PX + 3:
            return ("centre", -1)
        best = None
        for k in range(3):
            d = _segment_distance(p, px[0], px[1 + k])
            if d <= PICK_PX and (best is None or d < best[0]):
                best = (d, ("axis", k))
        if best is not None:  # an arrow is the smaller target: it wins over a ring crossing it
            return best[1]
        for k in range(0 if self.free_orientation else 3):  # no rings: nothing to turn
            ring = px[4 + k * (RING_SEGMENTS + 1): 4 + (k + 1) * (RING_SEGMENTS + 1)]
            d = min(_segment_distance(p, ring[i], ring[i + 1]) for i in range(RING_SEGMENTS))
            if d <= PICK_PX and (best is None or d < best[0]):
                best = (d, ("ring", k))
        return None if best is None else best[1]

    # --- dragging ----------------------------------------------------------------------------
    @property
    def dragging(self) -> bool:
        return self._grab is not None

    def press(self, x: float, y: float) -> bool:
        """Start a drag if (x, y) is on the handle; True if it was (the press is the handle's)."""
        if not self.active:
            return False
        part = self.pick(x, y)
        if part is None:
            return False
        kind, k = part
        o, d = mouse_ray(self.view, x, y)
        # the centre moves in the view plane: square to the view's axis (not to the ray under
        # the cursor, which tilts it: a planar arm seen from above got targets off its plane)
        forward = mouse_ray(self.view, self.view.width() / 2, self.view.height() / 2)[1]
        self._grab = {"kind": kind, "axis": k, "start": self.pose.copy(), "normal": forward,
                      "drag": self.view.doc.begin_drag(), "hit": None, "q0": self.view.doc.configuration.copy()}
        self._grab["hit"] = self._hit(o, d)
        return True

    def _hit(self, o: np.ndarray, d: np.ndarray):
        """Where the mouse ray meets what the grabbed part moves along (None: parallel)."""
        g = self._grab
        T0 = g["start"]
        p0 = T0[:3, 3]
        if g["kind"] in ("axis", "scale"):  # scale: along the arrow, as a move
            a = T0[:3, g["axis"]]
            b, w0 = float(a @ d), p0 - o
            denom = 1.0 - b * b
            if denom < 1e-6:  # the axis points at the camera: nothing to slide along
                return None
            return float((b * (d @ w0) - (a @ w0)) / denom)  # parameter along the axis
        n = g["normal"] if g["kind"] == "centre" else T0[:3, g["axis"]]
        den = float(d @ n)
        if abs(den) < 1e-6:
            return None
        return o + float((p0 - o) @ n) / den * d

    def move(self, x: float, y: float, free: bool = False) -> None:
        """Move the target with the mouse and solve IK towards it (``free``: Ctrl held)."""
        T = self._dragged(x, y)
        if T is not None:
            self.go_to(T, drag=self._grab["drag"])

    def _dragged(self, x: float, y: float) -> np.ndarray | None:
        """The handle's pose with the grabbed part dragged to (x, y) (None: no drag, or the ray
        runs parallel to what the part moves along)."""
        g = self._grab
        if g is None:
            return None
        hit = self._hit(*mouse_ray(self.view, x, y))
        if hit is None or g["hit"] is None:
            return None
        T = g["start"].copy()
        if g["kind"] == "axis":
            T[:3, 3] += self._snap_length(hit - g["hit"]) * T[:3, g["axis"]]
        elif g["kind"] == "centre":
            T[:3, 3] += hit - g["hit"]
        else:
            a, p0 = T[:3, g["axis"]], T[:3, 3]
            u, v = g["hit"] - p0, hit - p0
            angle = self._snap_angle(math.atan2(float(np.cross(u, v) @ a), float(u @ v)))
            T[:3, :3] = axis_angle_rotation(a, angle) @ T[:3, :3]
        return T

    def _snap_length(self, distance: float) -> float:
        return distance  # the IK handle follows the mouse freely

    def _snap_angle(self, angle: float) -> float:
        return angle

    def go_to(self, target: np.ndarray, drag: int | None = None) -> bool:
        """Move the handle's body towards ``target`` (IK from the current configuration; the
        best configuration is applied); returns whether the target was reached."""
        body = self.body or self.target_body()
        if body is None:
            return False
        self.body = body
        if self._grab is not None:
            self.pose = np.array(target, dtype=float)  # drawn at the target while dragging
        try:
            result = self.view.doc.move_body_to(body, target, drag, live=drag is not None,
                                                position_only=self.free_orientation)
        except KineTreeError:
            return False
        self.last_result = result
        self.reached = result.success
        self._draw()
        return result.success

    def cancel(self) -> bool:
        """Esc during a drag: the joints go back (the drag leaves no undo step); True if a drag
        was cancelled."""
        g = self._grab
        if g is None:
            return False
        self.view.doc.set_configuration(g["q0"], drag=g["drag"])
        self._grab = None
        self.refresh()
        return True

    def release(self) -> None:
        if self._grab is not None:
            self._grab = None
            reached = self.reached
            self.refresh()
            self.reached = reached  # stays red at the best pose until the next change
            self._draw()
