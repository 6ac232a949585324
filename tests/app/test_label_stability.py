"""Labels on a tree with many end effectors (Talos has ~15): only the selected body and the one
under the cursor are labelled, and during a slider drag a label moves with its body, never
jumping to another side of it."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.app.viewport.view import MANY_END_EFFECTORS
from kinetree.core import Joint, RigidBody, RigidBodyTree
from PySide6.QtGui import QVector3D

SENSORS = 11  # fixed leaf frames on a circle that the hand's label sweeps over


def sensor_ring() -> RigidBodyTree:
    """An arm turning about z with a hand at 0.5 m, and fixed sensor frames on the base around
    the circle the hand moves on (each a leaf: an end effector)."""
    tree = RigidBodyTree()
    arm = RigidBody("arm")
    arm.joint = Joint("swing", "revolute")
    arm.joint.position_limits = (-np.pi, np.pi)
    tree.add_body(arm, tree.base_name)
    hand = RigidBody("hand")
    hand.joint = Joint("wrist", "fixed")
    hand.joint.set_fixed_transform(np.array([[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
    tree.add_body(hand, "arm")
    for k in range(SENSORS):
        a = 0.35 + 2.2 * k / SENSORS  # on the hand's path, a little above it on screen
        T = np.eye(4)
        T[:3, 3] = (0.5 * np.cos(a), 0.5 * np.sin(a) + 0.04, 0.0)
        s = RigidBody(f"s{k}")
        s.joint = Joint(f"f{k}", "fixed")
        s.joint.set_fixed_transform(T)
        tree.add_body(s, tree.base_name)
    return tree


@pytest.fixture
def ring(make_window, qtbot):
    w = make_window()
    w.resize(1280, 800)
    w.doc.load(sensor_ring())
    vp = w.viewport
    vp.setCameraPosition(pos=QVector3D(0, 0, 0), distance=2.0, elevation=90, azimuth=-90)  # from above
    w.doc.select("hand")
    vp.grabFramebuffer()
    return w


def hand_box(vp) -> tuple[np.ndarray, np.ndarray]:
    """The hand's label plate (x0, y0, x1, y1) and its point, in pixels, as last drawn."""
    k = vp.doc.tree.body_names.index("hand") + 1  # label 0 is the base
    rect = next(r for r, indices in vp.labels.drawn_bodies if k in indices)
    point = vp.project(vp.labels.positions[k][None])[0]
    return np.array([rect.left(), rect.top(), rect.right(), rect.bottom()]), point


def test_many_end_effectors_label_only_selected_and_hovered(ring):
    vp = ring.viewport
    assert SENSORS + 1 > MANY_END_EFFECTORS
    names = ring.doc.tree.body_names
    assert vp.labels.order == [names.index("hand") + 1]
    vp._set_hovered(names.index("s3") + 1)
    assert vp.labels.order == [names.index("s3") + 1, names.index("hand") + 1]
    vp._set_hovered(None)


def test_few_end_effectors_keep_their_labels(make_window):
    w = make_window()
    w.doc.load(sensor_ring())
    tree = w.doc.tree
    for k in range(MANY_END_EFFECTORS - 1, SENSORS):  # the hand and five sensors: six end effectors
        tree.remove_body(f"s{k}")
    w.doc.load(tree)
    w.doc.select("arm")
    order = w.viewport.labels.order
    leaves = {tree.body_names.index(n) + 1 for n in ["hand", *(f"s{k}" for k in range(MANY_END_EFFECTORS - 1))]}
    assert leaves <= set(order)


def test_slider_drag_moves_the_label_only_by_its_body(ring):
    vp, doc = ring.viewport, ring.doc
    drag = doc.begin_drag()
    offsets = []
    for a in np.linspace(0.0, 2.8, 57):  # the hand passes every sensor frame
        doc.set_joint_position("swing", float(a), drag)
        vp.grabFramebuffer()
        box, point = hand_box(vp)
        offsets.append(box - np.r_[point, point])
    offsets = np.array(offsets)
    # the plate's corners move exactly as the hand's point does (to rounding)
    assert np.abs(offsets - offsets[0]).max() < 1.0, np.abs(offsets - offsets[0]).max(axis=1)
