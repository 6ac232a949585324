"""Robots and timing shared by the benchmarks."""

from __future__ import annotations

import time

import numpy as np
from kinetree.core import Joint, RigidBody, RigidBodyTree


def best_of(fn, repeat: int = 5, number: int = 1) -> float:
    """Best time per call over ``repeat`` rounds of ``number`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def random_tree(n: int = 130, seed: int = 0) -> RigidBodyTree:
    """A branched tree of ``n`` bodies: mostly revolute (random axes), some prismatic and fixed."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree()
    names = [tree.base_name]
    for i in range(n):
        parent = names[int(rng.integers(max(0, len(names) - 8), len(names)))]
        body = RigidBody(f"b{i}")
        kind = rng.choice(["revolute", "revolute", "revolute", "prismatic", "fixed"])
        joint = Joint(f"j{i}", str(kind))
        if kind != "fixed":
            joint.axis = rng.normal(size=3)
        from scipy.spatial.transform import Rotation

        T = np.eye(4)
        T[:3, :3] = Rotation.random(random_state=int(rng.integers(1 << 30))).as_matrix()
        T[:3, 3] = rng.uniform(-0.2, 0.2, 3)
        joint.set_fixed_transform(T)
        body.joint = joint
        tree.add_body(body, parent)
        names.append(body.name)
    return tree


def fresh_window():
    """A main window in the default layout: its settings in a temporary file, since the user's
    saved layout may hide the docks and so change the viewport's size (and every GUI figure)."""
    import atexit
    import tempfile
    from pathlib import Path

    from kinetree.app.window.main_window import MainWindow
    from PySide6.QtCore import QSettings

    path = tempfile.mktemp(suffix=".ini")
    atexit.register(lambda: Path(path).unlink(missing_ok=True))
    w = MainWindow(settings=QSettings(path, QSettings.Format.IniFormat))
    w.quiet = True
    return w
