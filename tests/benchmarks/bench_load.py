"""Loading benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_load.py [N ...]

Generates, in a temporary folder, a KineTree project of N bodies (a branched tree of revolute,
prismatic and fixed joints, a few mimic joints whose leaders come later in body order) and a
DH CSV of N rows (unnamed rows, so the loader names them), then times
``load_project`` and ``read_dh_csv(...).to_tree()``. Default sizes: 2000 5000 10000 20000.
Loading must grow linearly: the target is 20,000 bodies / rows in at most 2 s each.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from kinetree.core import Joint, RigidBody, RigidBodyTree
from kinetree.core.io.dh_csv import read_dh_csv
from kinetree.core.io.project import load_project, save_project
from kinetree.core.model.joint import Mimic


def project_tree(n: int, seed: int = 0) -> RigidBodyTree:
    """A branched tree of ``n`` bodies built without the per-edit checks (only the file matters)."""
    rng = np.random.default_rng(seed)
    tree = RigidBodyTree()
    names = [tree.base_name]
    items = []
    for i in range(n):
        parent = names[int(rng.integers(max(0, len(names) - 8), len(names)))]
        body = RigidBody(f"b{i}")
        kind = ("revolute", "revolute", "prismatic", "fixed")[i % 4]
        joint = Joint(f"j{i}", kind)
        if kind != "fixed":
            joint.axis = rng.normal(size=3)
        T = np.eye(4)
        T[:3, 3] = rng.uniform(-0.2, 0.2, 3)
        joint.set_fixed_transform(T)
        if i % 100 == 1 and i + 1 < n:  # follows j{i+1}, a revolute joint added after it
            joint.mimic = Mimic(f"j{i + 1}", 0.5, 0.1)
        body.joint = joint
        items.append((body, parent))
        names.append(body.name)
    tree.add_bodies(items)
    return tree


def dh_text(n: int) -> str:
    rows = ["type,a,alpha,d,theta,offset,qmin,qmax"]
    for i in range(n):
        if i % 3 == 2:
            rows.append(f"P,0.01,90,q{i + 1},0,0,0,0.5")
        else:
            rows.append(f"R,0.1,{(-90, 90)[i % 2]},0.05,q{i + 1},0,-170,170")
    return "\n".join(rows) + "\n"


def dh_tree(path: Path) -> RigidBodyTree:
    return read_dh_csv(path).to_tree()


def timed(fn, *args) -> tuple[float, float]:
    """(wall, CPU) seconds of one call: the CPU time is the fairer figure on a busy machine."""
    t, c = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - t, time.process_time() - c


def main(sizes: list[int]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            proj = Path(tmp, f"p{n}.kinetree.json")
            save_project(project_tree(n), proj)
            csv = Path(tmp, f"d{n}.csv")
            csv.write_text(dh_text(n))
            (w1, c1), (w2, c2) = timed(load_project, proj), timed(dh_tree, csv)
            print(f"{n:6d} bodies: load_project {w1:7.3f} s (CPU {c1:6.3f} s)   "
                  f"DH CSV to_tree {w2:7.3f} s (CPU {c2:6.3f} s)", flush=True)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [2000, 5000, 10000, 20000])
