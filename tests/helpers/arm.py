"""The test arm (base → upper → fore → tool, box visuals) and a window showing it."""

from __future__ import annotations

import numpy as np
from kinetree.core import Joint, RigidBody, RigidBodyTree, Visual


def translated(x=0.0, y=0.0, z=0.0) -> np.ndarray:
    T = np.eye(4)
    T[:3, 3] = x, y, z
    return T


def box(size, at, color=(0.3, 0.5, 0.8, 1.0)) -> Visual:
    return Visual("box", tuple(size), pose=tuple(map(tuple, translated(*at))), color=color)


def arm() -> RigidBodyTree:
    """base → upper (revolute about z, a 0.6 m box along x) → fore (revolute, at x = 0.6, a box
    along x) → tool (fixed, at fore's origin: two frames in one place)."""
    tree = RigidBodyTree()
    upper = RigidBody("upper")
    upper.joint = Joint("j1", "revolute")
    upper.visuals = (box((0.6, 0.08, 0.08), (0.3, 0, 0)),)
    tree.add_body(upper, tree.base_name)
    fore = RigidBody("fore")
    fore.joint = Joint("j2", "revolute")
    fore.joint.set_fixed_transform(translated(0.6))
    fore.visuals = (box((0.4, 0.06, 0.06), (0.2, 0, 0), (0.8, 0.5, 0.2, 1.0)),)
    tree.add_body(fore, "upper")
    tool = RigidBody("tool")
    tool.joint = Joint("tool_joint", "fixed")
    tree.add_body(tool, "fore")
    return tree


def arm_window(make_window, q=None):
    """A 1280×800 window showing :func:`arm` (at ``q``, no undo step) from a fixed camera."""
    w = make_window()
    w.resize(1280, 800)
    w.doc.load(arm())
    if q is not None:
        w.doc.set_configuration(np.array(q))
        w.doc.undo_stack.clear()
    w.viewport.setCameraPosition(distance=2.5, elevation=30, azimuth=-70)
    w.viewport.repaint()
    return w
