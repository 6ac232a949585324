"""Compile (or load from numba's cache) the compiled kernels ahead of their first use.

numba compiles a kernel the first time it is called: on a machine that has never run KineTree
the dynamics kernels, the simulator's step and the closed-loop solver take ~50 s together (~3 s to load once cached).
Called on a thread at the GUI's start, :func:`warm_up` pays that while the user looks at the
window, instead of freezing it at the first Simulate or Torques. The kernels are typed by their
arguments' dtypes and dimensions, not by the tree, so one robot (Corke's Puma 560: motors,
friction, limits) compiles what every tree uses.
"""

from __future__ import annotations

import time

import numpy as np


def warm_up() -> float:
    """Run every compiled kernel once; returns the seconds it took (0 without numba: nothing
    to compile)."""
    from .kinematics import compiled_backend
    from .library import load_robot
    from .simulation import Simulator

    if compiled_backend() is None:
        return 0.0
    t = time.perf_counter()
    tree = load_robot("puma560")
    q = np.linspace(0.1, 0.6, 6)
    qd = np.linspace(-0.3, 0.3, 6)
    tree.forward_kinematics(q)
    tree.forward_kinematics(np.tile(q, (64, 1)))
    tree.inverse_dynamics(q, qd, qd)
    tree.inverse_dynamics(np.tile(q, (4, 1)), np.tile(qd, (4, 1)), np.tile(qd, (4, 1)))
    tree.mass_matrix(q)
    tree.forward_dynamics(q, qd)
    tree.gravity_torque(q)
    tree.geometric_jacobian(q, tree.body_names[-1])
    sim = Simulator(tree, q, qd)
    sim.step(2)
    sim.hold(10.0, 1.0)
    sim.step(2)
    linkage = load_robot("four_bar")  # the closed-loop solver's kernel (revolute and prismatic trees)
    q = linkage.home_configuration()
    q[0] += 0.01
    linkage.solve_loops(q)
    return time.perf_counter() - t
