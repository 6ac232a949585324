"""Dynamics benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_dynamics.py

Puma 560 (Corke's, with motors and friction), one call: inverse dynamics, mass matrix, forward
dynamics (ABA and the Cholesky of M), the geometric Jacobian, gravity torque; batches of
100,000: inverse dynamics, mass matrix, forward dynamics both ways; Talos (44 dofs) forward
dynamics both ways; Pinocchio's rnea/crba/aba/gravity/frame Jacobian on the same robot in the
same run when Pinocchio is installed.
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
            ("forward dynamics ABA", lambda: puma.forward_dynamics(q, qd, tau), 50),
            ("forward dyn. Cholesky", lambda: puma.forward_dynamics(q, qd, tau, method="cholesky"), 50),
            ("Jacobian", lambda: puma.geometric_jacobian(q, "link6"), 20),
            ("gravity torque", lambda: puma.gravity_torque(q), 20),
            ("forward kinematics", lambda: puma.forward_kinematics(q), None)]
    ours = {}
    for name, fn, target in rows:
        fn()
        ours[name] = best_of(fn, repeat=60, number=100)  # short rounds: other jobs share the cores
        goal = f"(target ≤ {target} µs)" if target else ""
        print(f"Puma 560 {name + ':':24s} {ours[name] * 1e6:7.1f} µs  {goal}")
    n = 100_000
    Q = np.stack([puma.random_configuration(rng) for _ in range(n)])
    QD, QDD = rng.normal(size=(n, 6)), rng.normal(size=(n, 6))
    TAU = puma.inverse_dynamics(Q, QD, QDD)
    batches = [("inverse dynamics", lambda: puma.inverse_dynamics(Q, QD, QDD), " (target ≥ 500,000)"),
               ("mass matrix", lambda: puma.mass_matrix(Q), ""),
               ("forward dyn. ABA", lambda: puma.forward_dynamics(Q, QD, TAU), ""),
               ("forward dyn. Cholesky", lambda: puma.forward_dynamics(Q, QD, TAU, method="cholesky"), "")]
    for name, fn, goal in batches:
        fn()  # compile first
        best = cpu = np.inf
        for _ in range(5):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
        # the CPU time too: a 0.1 s run cannot escape other jobs on a shared machine, as single calls do
        print(f"Puma 560 batch {name + ':':22s} {n / best:12,.0f} configurations/s wall, {n / cpu:,.0f} per CPU "
              f"second{goal}")
    talos_figures()
    euler_figures()
    try:
        import pinocchio as pin
    except ImportError:
        print("Pinocchio is not installed: no reference figures")
        return
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
    from helpers.pinocchio_compare import pinocchio_model

    model = pinocchio_model(puma)
    data = model.createData()
    qp = q + np.array([b.joint.offset for b in puma.bodies])
    for name, fn in [("rnea", lambda: pin.rnea(model, data, qp, qd, qdd)), ("crba", lambda: pin.crba(model, data, qp)),
                     ("aba", lambda: pin.aba(model, data, qp, qd, tau)),
                     ("gravity", lambda: pin.computeGeneralizedGravity(model, data, qp)),
                     ("frame Jacobian", lambda: pin.computeFrameJacobian(model, data, qp, model.nframes - 1,
                                                                         pin.LOCAL_WORLD_ALIGNED))]:
        print(f"Pinocchio {name + ':':21s} {best_of(fn, repeat=60, number=100) * 1e6:7.1f} µs")


def euler_arm(euler: bool):
    """A shoulder, an elbow and a wrist: one Euler ZYX joint (RBDL's JointTypeEulerZYX) or its
    emulation, revolute z, y, x joints through two massless bodies."""
    from kinetree.core import Joint, RigidBody, RigidBodyTree

    tree = RigidBodyTree(gravity=[0.0, 0.0, -9.81])
    parent = "base"
    links = [("shoulder", "revolute", [0, 0, 1]), ("elbow", "revolute", [0, 1, 0])]
    links += [("wrist", "euler_zyx", None)] if euler else [
        ("wrist_z", "revolute", [0, 0, 1]), ("wrist_y", "revolute", [0, 1, 0]), ("wrist", "revolute", [1, 0, 0])]
    for name, kind, axis in links:
        b = RigidBody(name)
        b.joint = Joint(f"j_{name}", kind)
        if axis is not None:
            b.joint.axis = axis
        T = np.eye(4)
        T[0, 3] = 0.4 if name in ("shoulder", "elbow", "wrist_z") or (euler and name == "wrist") else 0.0
        b.joint.set_fixed_transform(T)
        massless = name in ("wrist_z", "wrist_y")
        b.mass, b.center_of_mass = (0.0, [0, 0, 0]) if massless else (1.5, [0.2, 0.0, 0.0])
        b.inertia = [0.0] * 6 if massless else [0.02, 0.09, 0.09, 0.0, 0.0, 0.0]
        tree.add_body(b, parent)
        parent = name
    return tree


def euler_figures() -> None:
    """Forward dynamics (ABA) of an arm with an Euler ZYX wrist against the same arm with the
    wrist emulated by three revolute joints (the compiled path with FK inside)."""
    rng = np.random.default_rng(2)
    q, qd, tau = rng.uniform(-1, 1, 5), rng.normal(size=5), rng.normal(size=5)
    for euler in (True, False):
        arm = euler_arm(euler)
        arm.forward_dynamics(q, qd, tau)
        t = best_of(lambda a=arm: a.forward_dynamics(q, qd, tau), repeat=40, number=100)
        label = "Euler ZYX wrist" if euler else "3 revolute wrist"
        print(f"Arm with {label + ':':18s} forward dynamics {t * 1e6:7.1f} µs")


def talos_figures() -> None:
    """ABA against the Cholesky of M on a tree of many dofs: Talos with its base fixed and the
    gripper's mimic joints released (44 dofs), when example-robot-data is installed."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for helpers
    from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS

    if EXAMPLE_ROBOTS is None:
        print("example-robot-data is not installed: no Talos figures")
        return
    import warnings

    from kinetree.core import import_robot

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        talos = import_robot(EXAMPLE_ROBOTS / REAL_URDFS["talos"], package_paths=(str(EXAMPLE_ROBOTS),))
    for b in talos.bodies:
        b.joint.mimic = None
    talos.gravity = [0.0, 0.0, -9.81]
    rng = np.random.default_rng(1)
    q, qd, tau = talos.random_configuration(rng), rng.normal(size=talos.dof_count), rng.normal(size=talos.dof_count)
    for method in ("aba", "cholesky"):
        talos.forward_dynamics(q, qd, tau, method=method)
        t = best_of(lambda m=method: talos.forward_dynamics(q, qd, tau, method=m), repeat=40, number=50)
        print(f"Talos ({talos.dof_count} dofs) forward dynamics {method}: {t * 1e6:7.1f} µs")


if __name__ == "__main__":
    main()
