"""MJCF import and export times (issue 21: import of the largest dm_control model ≤ 1 s without
meshes; resources/guide/benchmarks.md gives these figures). Each step is timed best of ``repeat`` in a warm process
(``import mujoco`` itself, ≈0.3 s once per process, is timed apart):

    python tests/benchmarks/bench_mjcf.py [repeat]

- dm_control's humanoid_CMU (no meshes; 59 KineTree bodies) and dog (162 meshes), Gymnasium's
  humanoid: import;
- Talos (example-robot-data, 59 bodies, STL meshes): URDF → MJCF export, MJCF import with MuJoCo
  loading its meshes, and the same file with the mesh geoms removed (kinematics only).
"""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def folder(package: str, sub: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    return Path(next(iter(spec.submodule_search_locations))) / sub if spec else None


def main(repeat: int = 3) -> None:
    warnings.simplefilter("ignore")
    t = time.perf_counter()
    import mujoco

    print(f"import mujoco (once per process)        {time.perf_counter() - t:6.3f} s")
    from kinetree.core import import_robot
    from kinetree.core.io import export_robot
    from kinetree.core.io.mjcf import import_mjcf

    models = []
    if (suite := folder("dm_control", "suite")) is not None:
        models += [suite / "humanoid_CMU.xml", suite / "dog.xml"]
    if (gym := folder("gymnasium", "envs/mujoco/assets")) is not None:
        models.append(gym / "humanoid.xml")
    for path in models:
        tree = import_mjcf(path)
        alone = best(lambda p=path: mujoco.MjModel.from_xml_path(str(p)), repeat)
        print(f"import {'dm_control' if 'suite' in str(path) else 'gymnasium'}/{path.name:18s}"
              f"{best(lambda p=path: import_mjcf(p), repeat):6.3f} s  ({tree.num_bodies} bodies; MuJoCo's own "
              f"from_xml_path {alone:.3f} s)")

    from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS

    if EXAMPLE_ROBOTS is None:
        return
    talos = import_robot(EXAMPLE_ROBOTS / REAL_URDFS["talos"], package_paths=(str(EXAMPLE_ROBOTS),
                                                                           str(EXAMPLE_ROBOTS.parents[1])))
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "talos.xml"
        print(f"Talos URDF → MJCF export (meshes copied) {best(lambda: export_robot(talos, out), repeat):6.3f} s")
        print(f"Talos MJCF import (MuJoCo loads meshes)  {best(lambda: import_mjcf(out), repeat):6.3f} s")
        bare = Path(d) / "talos_no_meshes.xml"
        bare.write_text(re.sub(r"<(geom [^>]*type=\"mesh\"|mesh )[^>]*/>", "", out.read_text()))
        print(f"Talos MJCF import without meshes         {best(lambda: import_mjcf(bare), repeat):6.3f} s "
              f"({import_mjcf(bare).num_bodies} bodies)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
