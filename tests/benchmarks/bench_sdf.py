"""SDFormat import/export benchmark on a Talos-size model: prints figures (run by hand, not
collected by pytest).

    python tests/benchmarks/bench_sdf.py

Talos (example-robot-data's talos_full_v2.urdf, read once as URDF) written as SDFormat 1.9 next to
its meshes' folder tree, then best of 5 exports and best of 5 imports (meshes resolved, never
loaded), and the same for a generated 1000-link branching tree.
"""

from __future__ import annotations

import sys
import tempfile
import warnings
from importlib.metadata import distribution
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kinetree.core.io.files import import_robot  # noqa: E402
from kinetree.core.io.sdf import export_sdf, import_sdf  # noqa: E402
from robots import best_of, random_tree  # noqa: E402


def bench(name: str, tree, folder: Path) -> None:
    path = folder / f"{name}.sdf"
    export_sdf(tree, path)
    t_out = best_of(lambda: export_sdf(tree, path))
    t_in = best_of(lambda: import_sdf(path, on_warning=lambda _m: None))
    size = path.stat().st_size / 1024
    print(f"{name:10s} {tree.num_bodies:5d} bodies  {size:7.0f} kB  import {t_in * 1e3:7.1f} ms  "
          f"export {t_out * 1e3:7.1f} ms")


def main() -> None:
    robots = Path(str(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        talos = import_robot(robots / "talos_data/robots/talos_full_v2.urdf")
    with tempfile.TemporaryDirectory() as tmp:
        bench("talos", talos, Path(tmp))
        bench("gen1000", random_tree(1000), Path(tmp))


if __name__ == "__main__":
    main()
