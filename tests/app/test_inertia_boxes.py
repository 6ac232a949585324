"""View ▸ Inertia: each body's equivalent uniform box (Drake's inertia visualisation) — a solid
box body's box is the box itself; impossible inertias are skipped with a note; the boxes are
drawn (pixels) and follow the configuration."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.app.viewport.overlays.inertia_boxes import _CORNERS, equivalent_box, inertia_boxes
from kinetree.core import Joint, RigidBody, RigidBodyTree
from kinetree.core.dynamics.from_geometry import mass_from_geometry
from kinetree.core.model.body import Visual
from PySide6.QtWidgets import QApplication
from scipy.spatial.transform import Rotation


def rgb(img) -> np.ndarray:
    img = img.convertToFormat(img.Format.Format_RGBA8888)
    w, h = img.width(), img.height()
    return np.frombuffer(img.constBits(), np.uint8, count=img.bytesPerLine() * h).reshape(
        h, img.bytesPerLine() // 4, 4)[:, :w, :3].astype(int)


def settle(qtbot, ms: int = 30) -> None:
    qtbot.wait(ms)
    QApplication.processEvents()


def box_body(size=(0.3, 0.2, 0.1), rpy=(0.3, -0.5, 1.1), xyz=(0.1, -0.2, 0.05)) -> RigidBody:
    """A body whose mass properties are those of a solid box visual (the engine's own computation)."""
    T = np.eye(4)
    T[:3, :3] = Rotation.from_euler("xyz", rpy).as_matrix()
    T[:3, 3] = xyz
    b = RigidBody("brick")
    b.joint = Joint("hinge", "revolute")
    b.visuals = [Visual("box", size, tuple(map(tuple, T)))]
    m, c, inertia, _ = mass_from_geometry(b, density=2700.0)
    b.mass, b.center_of_mass, b.inertia = m, c, inertia
    return b, T


def test_a_solid_box_bodys_box_is_its_own_size_pose_and_place():
    b, T = box_body()
    axes, size = equivalent_box(b.mass, b.center_of_mass, b.inertia)
    # the principal axes are the box's own (up to order and sign): match each axis to one of the box's
    match = np.abs(T[:3, :3].T @ axes)
    order = match.argmax(axis=0)
    np.testing.assert_allclose(match.max(axis=0), 1.0, atol=1e-9)
    np.testing.assert_allclose(size, np.array([0.3, 0.2, 0.1])[order], atol=1e-9)
    assert np.linalg.det(axes) == pytest.approx(1.0)
    boxes, skipped = inertia_boxes(_tree_of(b))
    assert skipped == [] and [x.body for x in boxes] == ["brick"]
    # its corners are the visual's corners
    corners = (T @ np.c_[_CORNERS * [0.15, 0.1, 0.05], np.ones(8)].T).T[:, :3]
    got = boxes[0].corners()
    assert max(np.linalg.norm(corners - g, axis=1).min() for g in got) < 1e-9


def _tree_of(body: RigidBody) -> RigidBodyTree:
    tree = RigidBodyTree()
    tree.base.mass, tree.base.inertia = 0.0, [0.0] * 6  # (MATLAB's default base: 1 kg)
    tree.add_body(body, tree.base_name)
    return tree


@pytest.mark.parametrize("mass, inertia, why", [
    (0.0, [0, 0.35, 0, 0, 0, 0], "no mass"),
    (1.0, [0.0125, 0.066, 0.086, 0, 0, 0], "break the triangle inequality (0.086 > the other two together)"),
    (1.0, [1.0, 1.0, 1.0, 0, 0, 5.0], "negative"),  # Ixy too large: a moment 1 − 5
])
def test_impossible_inertias_are_skipped_with_the_reason(mass, inertia, why):
    b = RigidBody("odd")
    b.joint = Joint("j", "revolute")
    b.mass = mass
    b._set_inertia_as_read(inertia)
    boxes, skipped = inertia_boxes(_tree_of(b))
    assert boxes == [] and skipped[0][0] == "odd" and why in skipped[0][1]


def test_a_rod_is_a_flat_box_not_skipped():
    """Moments (0, I, I): on the triangle inequality's edge — a thin rod, a box of no thickness."""
    axes, size = equivalent_box(1.0, [0, 0, 0], [1 / 12, 1 / 12, 0.0, 0, 0, 0])
    np.testing.assert_allclose(np.sort(size), [0, 0, 1.0], atol=1e-7)


def test_view_inertia_draws_the_boxes_and_they_follow_the_robot(window, qtbot, screen_size):
    screen_size(1280, 800)
    window.resize(1280, 800)
    window.reset_layout()
    window.doc.open("puma560")
    settle(qtbot, 60)
    view = window.viewport
    view.fit()
    settle(qtbot, 60)
    rgb(view.grabFramebuffer())
    off = rgb(view.grabFramebuffer())
    view_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "View")
    inertia = next(a for a in view_menu.actions() if a.text().replace("&", "") == "Inertia")
    inertia.trigger()
    settle(qtbot, 60)
    boxes = window.analysis.inertia
    assert [b.body for b in boxes.boxes] == ["link2", "link4", "link5", "link6"]
    # Armstrong's link 3 is not a physical inertia (0.0125 + 0.066 < 0.086 kg·m²): said, not drawn
    assert "link3: its principal moments" in window.statusBar().currentMessage()
    on = rgb(view.grabFramebuffer())
    inertia.trigger()  # off again: the same frame as before
    settle(qtbot, 60)
    off_again = rgb(view.grabFramebuffer())
    assert np.count_nonzero((off != off_again).any(axis=-1)) < 50
    assert np.count_nonzero((on != off).any(axis=-1)) > 2000
    edge = np.abs(on - (255, 158, 25)).max(axis=-1) < 20  # the edges' amber, drawn only by the boxes
    assert np.count_nonzero(edge) > 100
    assert np.count_nonzero(np.abs(off - (255, 158, 25)).max(-1) < 20) < 10  # (a joint axis's antialiased pixel)
    inertia.trigger()
    settle(qtbot)
    # the corners follow the configuration: the body pose times the box's corners
    q = np.array([0.3, -0.4, 0.7, 0.2, -1.0, 0.5])
    window.doc.set_configuration(q)
    settle(qtbot)
    T = window.doc.tree.forward_kinematics(q)[window.doc.tree.index_of("link2")]
    local = boxes.boxes[0].corners()
    np.testing.assert_allclose(boxes.vertices[:8], local @ T[:3, :3].T + T[:3, 3], atol=1e-12)
    np.testing.assert_allclose(boxes.faces.opts["meshdata"].vertexes()[:8], boxes.vertices[:8], atol=1e-6)
    # an edit of link2's mass properties: its box is the new one (a 0.1 × 0.2 × 0.3 m brick at z = 0.5)
    m, c, dims = 2.0, np.array([0, 0, 0.5]), np.array([0.1, 0.2, 0.3])
    Ic = m / 12 * np.diag([dims[1] ** 2 + dims[2] ** 2, dims[0] ** 2 + dims[2] ** 2, dims[0] ** 2 + dims[1] ** 2])
    Io = Ic + m * (c @ c * np.eye(3) - np.outer(c, c))

    def brick(t) -> None:
        b = t.bodies[1]
        b.mass, b.center_of_mass, b.inertia = m, c, [Io[0, 0], Io[1, 1], Io[2, 2], Io[1, 2], Io[0, 2], Io[0, 1]]

    assert window.doc.try_edit("Brick", brick) is None
    settle(qtbot)
    assert boxes.boxes[0].body == "link2"
    np.testing.assert_allclose(boxes.boxes[0].centre, c)
    np.testing.assert_allclose(np.sort(boxes.boxes[0].size), dims, atol=1e-12)
    inertia.trigger()  # off
    settle(qtbot)
    assert not boxes.faces.visible() and not boxes.edges.visible()
