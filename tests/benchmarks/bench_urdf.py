"""URDF import/export benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_urdf.py

A generated 130-link (129 joints) branching URDF (revolute, continuous, prismatic and fixed joints, a box
visual and an inertial per link, one mesh visual in ten): the one-off cost of importing yourdfpy
(and trimesh), the first import, then best of 5 imports, best of 5 exports, and the same
for the two example robots in resources/robots.
"""

from __future__ import annotations

import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
from helpers.urdf import ROBOTS, random_tree
from kinetree.core import RigidBodyTree  # noqa: E402
from kinetree.core.io.urdf.read import export_urdf, import_urdf, urdf_string  # noqa: E402
from robots import best_of  # noqa: E402


def generated_tree(n: int = 129) -> RigidBodyTree:
    """``n`` bodies: ``n + 1`` links with the base."""
    tree = random_tree(n, seed=1)
    for k, b in enumerate(list(tree.bodies)):
        if k % 10 == 0:  # a few meshes: resolved (and never loaded) at import
            body = tree.get_body(b.name)
            body.add_visual("mesh", (1, 1, 1), filename=f"meshes/part{k}.stl")
    return tree


def main() -> None:
    tree = generated_tree()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gen130.urdf"
        export_urdf(tree, path)
        n_links = path.read_text().count("<link ")
        t = time.perf_counter()
        import yourdfpy  # noqa: F401 - what the first import_urdf in a process pays for

        module = time.perf_counter() - t
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the meshes do not exist
            t = time.perf_counter()
            first = import_urdf(path)
            cold = time.perf_counter() - t
            warm = best_of(lambda: import_urdf(path))
        assert first.num_bodies == tree.num_bodies
        export = best_of(lambda: export_urdf(tree, Path(tmp) / "out.urdf"))
        text = best_of(lambda: urdf_string(tree))
        print(f"generated {n_links}-link URDF ({path.stat().st_size / 1024:.0f} kB):")
        print(f"  importing the yourdfpy module (once per process):    {module * 1e3:7.1f} ms")
        print(f"  import, first call:                                  {cold * 1e3:7.1f} ms")
        print(f"  import, best of 5:                                   {warm * 1e3:7.1f} ms")
        print(f"  export to file (atomic), best of 5:                  {export * 1e3:7.1f} ms")
        print(f"  urdf_string, best of 5:                              {text * 1e3:7.1f} ms")
    for name in ("quadruped", "humanoid_upper_body"):
        f = ROBOTS / f"{name}.urdf"
        imp = best_of(lambda f=f: import_urdf(f))
        t2 = import_urdf(f)
        exp = best_of(lambda t2=t2: urdf_string(t2))
        print(f"{name}: {t2.num_bodies + 1} links, import {imp * 1e3:.1f} ms, export {exp * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
