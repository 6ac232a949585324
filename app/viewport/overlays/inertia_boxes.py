"""Each body's equivalent inertia box (View ▸ Inertia), as Drake's inertia visualisation: a
uniform box of the body's mass whose principal moments of inertia are the body's, centred at
its centre of mass and turned along its principal axes. A box whose centre sits outside the
link, or whose size is nothing like the link's, shows an inertia that was typed wrong.

For principal moments ``I1, I2, I3`` about the centre of mass, a uniform box of mass ``m`` and
sides ``a1, a2, a3`` has ``I1 = m (a2² + a3²) / 12`` …, so ``a1² = 6 (I2 + I3 − I1) / m``.
A body with no mass, or whose inertia about its centre of mass is not physically possible
(a negative principal moment, or one larger than the other two together: the triangle
inequality) has no such box: it is skipped, and :func:`inertia_boxes` says why.

The boxes are one translucent mesh (depth-tested: with the depth test off, QWidget.grab's
render painted other items' colours on it under llvmpipe) and one set of edge lines drawn
through the links (a box inside a link must be seen); their vertices are recomputed from the body poses
when the configuration changes, into the same two items.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph.opengl as gl
from kinetree.core.number_text import short_text

from ..gl_programs import ON_TOP
from ..lines import LineItem

#: Translucent amber faces and solid edges: unlike the axes (RGB), the path (cyan) and collisions (magenta).
FACE_COLOR = (1.0, 0.62, 0.1, 0.28)
EDGE_COLOR = (1.0, 0.62, 0.1, 1.0)
#: Relative tolerance of the validity checks (inertias read from files are rounded).
TOLERANCE = 1e-9

# unit-cube corners (±1), the 12 triangles of its faces and its 12 edges
_CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
_FACES = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                   [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])
_EDGES = np.array([[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]])


@dataclass(frozen=True)
class InertiaBox:
    """A body's equivalent box in its own frame: ``centre`` (the centre of mass), ``axes``
    (columns: the principal axes, a rotation) and ``size`` (side along each axis, m)."""

    body: str
    centre: np.ndarray
    axes: np.ndarray
    size: np.ndarray

    def corners(self) -> np.ndarray:
        """The 8 corners in the body frame, (8, 3)."""
        return self.centre + (_CORNERS * (self.size / 2)) @ self.axes.T


def equivalent_box(mass: float, center_of_mass, inertia) -> tuple[np.ndarray, np.ndarray] | str:
    """``(axes, size)`` of the uniform box with ``mass`` and the inertia ``[Ixx Iyy Izz Iyz Ixz
    Ixy]`` (about the body origin, as KineTree stores it), or why there is none."""
    m = float(mass)
    if not (np.isfinite(m) and m > 0):
        return "no mass"
    c = np.asarray(center_of_mass, dtype=float)
    i = np.asarray(inertia, dtype=float)
    Io = np.array([[i[0], i[5], i[4]], [i[5], i[1], i[3]], [i[4], i[3], i[2]]])
    Ic = Io - m * (c @ c * np.eye(3) - np.outer(c, c))  # parallel axes, to the centre of mass
    if not np.isfinite(Ic).all():
        return "its inertia is not finite"
    moments, axes = np.linalg.eigh(Ic)
    tol = TOLERANCE * max(float(np.abs(moments).max()), 1e-300)
    if moments.min() < -tol:
        return ("a principal moment of inertia about its centre of mass is negative "
                f"({short_text(moments.min(), 4)} kg·m²)")
    total = moments.sum()
    if np.any(2 * moments > total + 2 * tol):  # I_k > I_i + I_j
        k = int(np.argmax(moments))
        return (f"its principal moments {', '.join(short_text(v, 4) for v in moments)} kg·m² break the triangle "
                f"inequality ({short_text(moments[k], 4)} > the other two together)")
    squares = 6.0 * (total - 2 * moments) / m
    size = np.sqrt(np.maximum(squares, 0.0))
    if np.linalg.det(axes) < 0:  # a rotation, not a reflection
        axes[:, 2] = -axes[:, 2]
    return axes, size


def inertia_boxes(tree) -> tuple[list[InertiaBox], list[tuple[str, str]]]:
    """The boxes of the tree's bodies that have one (base first), and ``(body, why not)`` for
    the others — bodies with no mass and no inertia are neither (nothing to draw, nothing wrong)."""
    boxes, skipped = [], []
    for b in [tree.base, *tree.bodies]:
        if b.mass == 0 and not np.any(b.inertia):
            continue
        got = equivalent_box(b.mass, b.center_of_mass, b.inertia)
        if isinstance(got, str):
            skipped.append((b.name, got))
        else:
            boxes.append(InertiaBox(b.name, np.asarray(b.center_of_mass, dtype=float).copy(), *got))
    return boxes, skipped


class InertiaBoxes:
    """The boxes drawn in ``view``: :meth:`set_tree` after an edit, :meth:`set_poses` after a move."""

    def __init__(self, view) -> None:
        self.boxes: list[InertiaBox] = []
        self.skipped: list[tuple[str, str]] = []
        self._slots = np.zeros(0, dtype=int)  # each box's body: index into the poses, -1 = the base
        self._local = np.zeros((0, 8, 3))
        self.vertices = np.zeros((0, 3))  # the corners drawn, in the base frame (8 per box)
        self.faces = gl.GLMeshItem(vertexes=np.zeros((3, 3)), faces=np.zeros((1, 3), dtype=int), color=FACE_COLOR,
                                   smooth=False, drawEdges=False, glOptions="translucent")
        self.edges = LineItem(mode="lines", width=1.5, antialias=True, color=EDGE_COLOR)
        self.edges.setGLOptions(ON_TOP)
        for depth, item in ((7, self.faces), (8, self.edges)):
            item.setDepthValue(depth)
            item.setVisible(False)
            view.addItem(item)
        self.visible = False

    def set_visible(self, on: bool) -> None:
        self.visible = bool(on)
        for item in (self.faces, self.edges):
            item.setVisible(self.visible and bool(self.boxes))

    def set_tree(self, tree) -> None:
        """Compute the boxes of ``tree``'s bodies (in their own frames)."""
        self.boxes, self.skipped = inertia_boxes(tree)
        index = {b.name: k for k, b in enumerate(tree.bodies)}
        self._slots = np.array([index.get(b.body, -1) for b in self.boxes], dtype=int)
        self._local = np.array([b.corners() for b in self.boxes]).reshape(-1, 8, 3)
        k = len(self.boxes)
        offsets = 8 * np.arange(k)[:, None, None]
        self._faces = (_FACES[None] + offsets).reshape(-1, 3)
        self._edges = (_EDGES[None] + offsets).reshape(-1)
        self.set_visible(self.visible)

    def set_poses(self, poses: np.ndarray) -> None:
        """Place the boxes at the body poses ``poses`` (n_bodies, 4, 4): the items' data, in place."""
        if not self.boxes:
            self.vertices = np.zeros((0, 3))
            return
        T = np.concatenate([np.eye(4)[None], poses])[self._slots + 1]
        V = np.einsum("kij,kcj->kci", T[:, :3, :3], self._local) + T[:, None, :3, 3]
        self.vertices = V.reshape(-1, 3)
        self.faces.setMeshData(vertexes=self.vertices, faces=self._faces, color=FACE_COLOR, smooth=False)
        self.edges.setData(pos=self.vertices[self._edges])
