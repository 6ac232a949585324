"""Dynamics benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_dynamics.py

Puma 560 (Corke's, with motors and friction), one call: inverse dynamics, mass matrix, forward
dynamics, gravity torque; batch inverse dynamics; Pinocchio's rnea/crba/aba/gravity on the same
robot in the same run when Pinocchio is installed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import load_robot  # noqa: E402
from robots import best_of  # noqa: E402


def main() -> None:
    puma = load_robot("puma560")
    puma.gravity = [0.0, 0.0, -9.81]
    rng = np.random.default_rng(0)
    q, qd, qdd = puma.random_configuration(rng), rng.normal(size=6), rng.normal(size=6)
    tau = puma.inverse_dynamics(q, qd, qdd)
    rows = [("inverse dynamics", lambda: puma.inverse_dynamics(q, qd, qdd), 25),
            ("mass matrix", lambda: puma.mass_matrix(q), 25),
            ("forward dynamics", lambda: puma.forward_dynamics(q, qd, tau), 50),
            ("gravity torque", lambda: puma.gravity_torque(q), 20),
            ("forward kinematics", lambda: puma.forward_kinematics(q), None)]
    ours = {}
    for name, fn, target in rows:
        ours[name] = best_of(fn, number=2000)
        goal = f"(target ≤ {target} µs)" if target else ""
        print(f"Puma 560 {name + ':':22s} {ours[name] * 1e6:7.1f} µs  {goal}")
    n = 100_000
    Q = np.stack([puma.random_configuration(rng) for _ in range(n)])
    QD, QDD = rng.normal(size=(n, 6)), rng.normal(size=(n, 6))
    puma.inverse_dynamics(Q[:5000], QD[:5000], QDD[:5000])  # compile the FK kernel first
    best = np.inf
    for _ in range(3):
        t0 = time.perf_counter()
        puma.inverse_dynamics(Q, QD, QDD)
        best = min(best, time.perf_counter() - t0)
    print(f"Puma 560 batch inverse dynamics:  {n / best:12,.0f} configurations/s (target ≥ 500,000)")
    try:
        import pinocchio as pin
    except ImportError:
        print("Pinocchio is not installed: no reference figures")
        return
    sys.path.insert(0, str(Path(__file__).parents[1] / "core"))
    from pinocchio_compare import pinocchio_model

    model = pinocchio_model(puma)
    data = model.createData()
    qp = q + np.array([b.joint.offset for b in puma.bodies])
    for name, fn in [("rnea", lambda: pin.rnea(model, data, qp, qd, qdd)), ("crba", lambda: pin.crba(model, data, qp)),
                     ("aba", lambda: pin.aba(model, data, qp, qd, tau)),
                     ("gravity", lambda: pin.computeGeneralizedGravity(model, data, qp))]:
        print(f"Pinocchio {name + ':':21s} {best_of(fn, number=5000) * 1e6:7.1f} µs")


if __name__ == "__main__":
    main()
