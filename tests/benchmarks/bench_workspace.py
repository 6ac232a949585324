"""Workspace and mass-property benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_workspace.py

1,000,000 Puma 560 workspace samples (position + manipulability), with the time split into
sampling, batch FK, Jacobians and determinants, and the peak memory beyond the result; centre of
mass and gravity torque of one configuration (Puma, and Talos when example-robot-data is there)
against Pinocchio's; closed samples of the Delta robot and the four-bar.
"""

from __future__ import annotations

import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import load_robot, sample_workspace  # noqa: E402
from kinetree.core.kinematics import workspace as ws  # noqa: E402
from kinetree.core.model.configuration import sampling_ranges  # noqa: E402
from robots import best_of  # noqa: E402


def workspace() -> None:
    puma = load_robot("puma560")
    N = 1_000_000
    sample_workspace(puma, "link6", 1000)
    t = best_of(lambda: sample_workspace(puma, "link6", N, rng=0), repeat=3)
    cpu = float("inf")
    for _ in range(3):  # CPU time: less disturbed by other processes on a shared machine
        c = time.process_time()
        sample_workspace(puma, "link6", N, rng=0)
        cpu = min(cpu, time.process_time() - c)
    print(f"Puma 560 workspace, {N:,} samples (points + manipulability): {t * 1e3:6.0f} ms wall, "
          f"{cpu * 1e3:.0f} ms CPU ({N / t / 1e6:.2f} M samples/s; target: computed and drawn in ≤ 1.5 s)")
    # the parts, on one chunk
    plan = puma._kinematics()
    lo, hi, quats = sampling_ranges(puma)
    sel = np.array(plan.ancestors(puma.index_of("link6")))
    cols = ws._columns(plan, sel)
    rng = np.random.default_rng(0)
    m = ws._CHUNK
    Q = ws._draw(rng, m, lo, hi, quats)
    poses = next(plan.fk_chunks(Q, sel, chunk=m))[2].copy()
    J = ws._jacobian(plan, sel, cols, poses, Q)
    scale = N / m * 1e3
    parts = {
        "sampling": best_of(lambda: ws._draw(rng, m, lo, hi, quats), 9),
        "batch FK": best_of(lambda: next(plan.fk_chunks(Q, sel, chunk=m)), 9),
        "Jacobians": best_of(lambda: ws._jacobian(plan, sel, cols, poses, Q), 9),
        "sqrt(det(J Jᵀ))": best_of(lambda: ws._sqrt_det_gram(J), 9),
    }
    print("  per 1M: " + ", ".join(f"{k} {v * scale:.0f} ms" for k, v in parts.items()))
    tracemalloc.start()
    sample_workspace(puma, "link6", N, rng=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"  peak memory {peak / 1e6:.0f} MB, of which the result {N * 32 / 1e6:.0f} MB")


def looped_workspace() -> None:
    """Closed samples of looped robots: each one's passive joints solved (``solve_loops``), the
    manipulability that of the actuated joints."""
    for name, body, n in (("delta_robot", "tcp", 10_000), ("four_bar", None, 20_000)):
        tree = load_robot(name)
        body = body or tree.body_names[-1]
        sample_workspace(tree, body, 200, 0, axes="trans")  # the compiled solver warm
        cpu = float("inf")
        for _ in range(3):
            c = time.process_time()
            sample_workspace(tree, body, n, 0, axes="trans")
            cpu = min(cpu, time.process_time() - c)
        print(f"{name} workspace, {n:,} closed samples: {cpu:.2f} s CPU ({n / cpu:,.0f} samples/s)")


def mass_properties() -> None:
    puma = load_robot("puma560")
    puma.gravity = (0, 0, -9.81)
    q = puma.random_configuration(0)
    t_com = best_of(lambda: puma.center_of_mass(q), number=2000)
    t_tau = best_of(lambda: puma.gravity_torque(q), number=2000)
    print(f"Puma 560 center_of_mass: {t_com * 1e6:.1f} µs, gravity_torque: {t_tau * 1e6:.1f} µs")
    try:
        import pinocchio as pin
        from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS
    except ImportError:
        print("Pinocchio or example-robot-data not installed - no comparison")
        return
    from kinetree.core import import_robot

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
    path = EXAMPLE_ROBOTS / REAL_URDFS["talos"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        talos = import_robot(path, package_paths=(str(EXAMPLE_ROBOTS),))
    talos.gravity = (0, 0, -9.81)
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    qt = talos.random_configuration(0)
    qp = pin.neutral(model)
    t_kt = best_of(lambda: talos.gravity_torque(qt), number=300)
    t_pin = best_of(lambda: pin.computeGeneralizedGravity(model, data, qp), number=3000)
    print(f"Talos ({talos.num_bodies} bodies, {talos.dof_count} DoF) gravity_torque: {t_kt * 1e6:.0f} µs; "
          f"Pinocchio computeGeneralizedGravity ({model.nv} DoF): {t_pin * 1e6:.1f} µs")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
    workspace()
    looped_workspace()
    mass_properties()
