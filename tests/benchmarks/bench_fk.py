"""Forward-kinematics benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_fk.py

Single-configuration all-body FK for Puma 560 and a 130-body tree, batch throughput for
100,000 Puma configurations (numpy, and the numba kernel when the ``fast`` extra is installed),
and the same work with Pinocchio / roboticstoolbox-python when they are installed, in the same
run.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import load_robot  # noqa: E402
from kinetree.core.kinematics import plan as kinematics  # noqa: E402
from kinetree.core.kinematics.plan import COMPILED_MIN, compiled_backend  # noqa: E402
from kinetree.core.transforms import dh_transform  # noqa: E402
from robots import best_of, random_tree  # noqa: E402


def main() -> None:
    puma = load_robot("puma560")
    big = random_tree(130)
    rng = np.random.default_rng(0)
    q = puma.random_configuration(rng)
    qb = big.random_configuration(rng)
    plan_p, plan_b = puma._kinematics(), big._kinematics()

    t_api = best_of(lambda: puma.forward_kinematics(q), number=2000)
    t_plan = best_of(lambda: plan_p.fk_single(q), number=2000)
    print(f"Puma 560 single-config FK, all 6 bodies:   {t_api * 1e6:7.1f} µs  "
          f"(engine {t_plan * 1e6:.1f} µs + input checks; target ≤ 10 µs)")
    t_big = best_of(lambda: big.forward_kinematics(qb), number=300)
    t_big_plan = best_of(lambda: plan_b.fk_single(qb), number=300)
    print(f"130-body tree single-config FK:            {t_big * 1e6:7.1f} µs  "
          f"(engine {t_big_plan * 1e6:.1f} µs; target ≤ 150 µs)")

    N = 100_000
    Q = np.stack([puma.random_configuration(rng) for _ in range(1000)])
    Q = np.tile(Q, (N // 1000, 1))
    # the public call both times; numpy by switching the compiled path off for the measurement
    kinematics._compiled[:] = [None]
    t_batch = best_of(lambda: puma.forward_kinematics(Q), repeat=9)
    T_numpy = puma.forward_kinematics(Q)
    kinematics._compiled.clear()
    rate = N / t_batch
    print(f"Puma 560 batch FK, {N:,} configs, all bodies, numpy: {rate / 1e6:7.2f} M configs/s "
          f"({t_batch * 1e3:.1f} ms, forward_kinematics)")
    rates = {"numpy": rate}
    t0 = time.perf_counter()
    if compiled_backend() is None:
        print("  compiled kernel: numba not installed (pip install 'kinetree[fast]') or KINETREE_NUMBA=0")
    else:
        puma.forward_kinematics(Q[:COMPILED_MIN])
        t_first = time.perf_counter() - t0
        t_c = best_of(lambda: puma.forward_kinematics(Q), repeat=9)
        rates["numba"] = N / t_c
        err = np.abs(puma.forward_kinematics(Q) - T_numpy).max()
        print(f"Puma 560 batch FK, {N:,} configs, all bodies, numba:  {N / t_c / 1e6:7.2f} M configs/s "
              f"({t_c * 1e3:.1f} ms, forward_kinematics; first large batch in this process {t_first:.2f} s: "
              f"numba's import + compile or cache load; differs from numpy by {err:.1e})")
    Qb = np.stack([big.random_configuration(rng) for _ in range(10_000)])
    t_bb = best_of(lambda: big.forward_kinematics(Qb), repeat=3)
    print(f"130-body tree batch FK, 10,000 configs:     {10_000 / t_bb / 1e3:7.1f} k configs/s "
          f"({compiled_backend() or 'numpy'})")

    try:
        import pinocchio as pin
    except ImportError:
        print("Pinocchio: not installed (pip install pin) - no comparison")
    else:
        model = pin.Model()
        parent, prev = 0, None
        for i, b in enumerate(puma.bodies):
            dh = b.joint.dh_parameters
            placement = np.eye(4) if i == 0 else dh_transform(*prev)
            parent = model.addJoint(parent, pin.JointModelRZ(), pin.SE3(placement), f"j{i}")
            prev = (dh.a, dh.alpha, dh.d, 0.0)
        model.addFrame(pin.Frame("tool", parent, 0, pin.SE3(dh_transform(*prev)), pin.FrameType.OP_FRAME))
        data = model.createData()
        Qp = Q[:20_000]

        def loop():
            for qq in Qp:
                pin.forwardKinematics(model, data, qq)

        t_pin = best_of(loop, repeat=9)
        pin_rate = len(Qp) / t_pin
        print(f"Pinocchio forwardKinematics, Python loop:  {pin_rate / 1e6:7.2f} M configs/s  (target ≥ 3x)")
        for name, r in rates.items():
            print(f"  -> KineTree batch ({name}) / Pinocchio loop = {r / pin_rate:.2f}x")
        pin.forwardKinematics(model, data, q)
        pin.updateFramePlacements(model, data)
        err = np.abs(data.oMf[model.getFrameId("tool")].homogeneous - puma.forward_kinematics(q)[-1]).max()
        print(f"  (check: Pinocchio vs KineTree tool pose differ by {err:.1e})")
    try:
        import roboticstoolbox as rtb
    except ImportError:
        print("roboticstoolbox-python: not installed - no comparison")
    else:
        r = rtb.models.DH.Puma560()
        t_rtb = best_of(lambda: r.fkine_all(q), number=200)
        print(f"roboticstoolbox fkine_all: {t_rtb * 1e6:.1f} µs per config")


if __name__ == "__main__":
    main()
