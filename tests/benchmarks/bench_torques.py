"""Torque profile benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_torques.py

Puma 560 (Corke's, motors and friction on), qz → qr in 2 s: a 1000-sample profile
(``core.torque_profile``: the quintic sampled, one batch inverse dynamics, peaks), the batch
inverse dynamics alone, and Pinocchio's rnea in a Python loop over the same samples when
Pinocchio is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import load_robot  # noqa: E402
from kinetree.core.dynamics.torque_profile import torque_profile  # noqa: E402
from robots import best_of  # noqa: E402

G = (0.0, 0.0, -9.80665)


def main() -> None:
    puma = load_robot("puma560")
    prof = torque_profile(puma, ["qz", "qr"], 2.0, 1000, G)  # compiles the kernels once
    t = best_of(lambda: torque_profile(puma, ["qz", "qr"], 2.0, 1000, G), repeat=20)
    print(f"Puma 560 torque profile, 1000 samples (qz → qr):   {t * 1e3:6.2f} ms")
    work = puma.copy()
    work.gravity = G
    t_id = best_of(lambda: work.inverse_dynamics(prof.q, prof.qd, prof.qdd), repeat=20)
    print(f"  of which batch inverse dynamics, 1000 samples:  {t_id * 1e3:6.2f} ms")
    try:
        import pinocchio as pin
    except ImportError:
        print("Pinocchio is not installed: no reference figure")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
    from helpers.pinocchio_compare import pinocchio_model

    model = pinocchio_model(work)
    data = model.createData()
    offsets = np.array([b.joint.offset for b in puma.bodies])
    Qp = prof.q + offsets

    def loop() -> None:
        for q, qd, qdd in zip(Qp, prof.qd, prof.qdd):
            pin.rnea(model, data, q, qd, qdd)

    print(f"Pinocchio rnea, Python loop over the 1000 samples:  {best_of(loop, repeat=10) * 1e3:6.2f} ms "
          "(rigid bodies only: no motors, no friction)")


if __name__ == "__main__":
    main()
