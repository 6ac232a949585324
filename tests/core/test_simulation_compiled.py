"""The compiled simulator step (core/simulation/fast.py, numba) against the Python reference
step (Simulator._step_once) on the same runs: friction, hard stops, Hold, mimic joints. Without
numba (KINETREE_NUMBA=0) the simulator must take the Python path and still run."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from helpers.urdf import EXAMPLE_ROBOTS
from kinetree.core import Joint, RigidBody, RigidBodyTree, Simulator, import_robot, load_robot
from kinetree.core.dynamics import rigid_body as rbd
from kinetree.core.model.joint import Mimic

G = [0.0, 0.0, -9.81]


def mimic_chain() -> RigidBodyTree:
    """Four links about y; l2 mimics j1 (×0.5), each joint with friction, a motor and limits."""
    tree = RigidBodyTree(gravity=G)
    parent = tree.base_name
    for i in range(4):
        b = RigidBody(f"l{i}")
        b.joint = Joint(f"j{i}", "revolute")
        b.joint.axis = [0, 1, 0] if i % 2 == 0 else [0, 0.6, 0.8]
        b.joint.position_limits = [-0.4, 0.4]
        b.joint.viscous_friction, b.joint.coulomb_friction = 0.05, (0.3, -0.2)
        b.joint.motor_inertia, b.joint.gear_ratio = 1e-3, 3.0
        if i == 2:
            b.joint.mimic = Mimic("j1", 0.5)
        if i:
            b.joint.set_fixed_transform(np.array([[1, 0, 0, 0.4], [0, 1, 0, 0], [0, 0, 1, 0.1], [0, 0, 0, 1]]))
        b.mass, b.center_of_mass = 1.0 + 0.3 * i, [0.2, 0.01 * i, 0.0]
        b.inertia = [0.01, 0.05, 0.05, 0.001, 0, 0]
        tree.add_body(b, parent)
        parent = b.name
    return tree


def compare(tree, q, qd, *, hold_at: int | None = None, steps: int = 200, restitution: float = 0.0) -> Simulator:
    """Step a compiled and a Python simulator side by side (single steps and batches) and check
    they agree to ~1e-12 on the state, the work and the Coulomb impulses."""
    fast = Simulator(tree, q, qd, restitution=restitution)
    ref = Simulator(tree, q, qd, restitution=restitution)
    ref._fast = None
    assert (fast._fast is not None) == (rbd._kernel() is not None)
    done = 0
    for n in (1, 1, 1, 7, 40, steps):
        n = min(n, steps - done)
        if hold_at is not None and done <= hold_at < done + n:
            n = hold_at - done
            for s in (fast, ref):
                s.hold(300.0, 20.0, target=s.start_configuration)
            hold_at = None
        fast.step(n)
        ref.step(n)
        done += n
        assert fast.time == ref.time
        scale = 1.0 + np.abs(ref.qd).max()
        np.testing.assert_allclose(fast.q, ref.q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(fast.qd, ref.qd, rtol=0, atol=1e-12 * scale)
        assert fast._work == pytest.approx(ref._work, rel=1e-11, abs=1e-12)
        np.testing.assert_allclose(fast._impulse, ref._impulse, rtol=0, atol=1e-12)
        if done == steps:
            break
    assert fast.energy().drift == pytest.approx(ref.energy().drift, abs=1e-9)
    return fast


def test_puma_with_friction_stops_and_hold_matches_the_python_step():
    tree = load_robot("puma560")
    tree.gravity = G
    lo = np.array([b.joint.position_limits[0] for b in tree.bodies if b.joint.type == "revolute"])
    q = np.array([0.3, 0.5, -0.5, 0.2, 0.4, 0.1])
    q[1], q[4] = lo[1] + 0.002, lo[4] + 0.001  # driven into two stops within a few steps
    qd = np.array([0.5, -1.0, 0.8, -0.3, -2.0, 1.0])
    sim = compare(tree, q, qd, hold_at=120, restitution=0.3)
    assert sim.holding


def test_mimic_chain_with_friction_stops_and_hold_matches_the_python_step():
    tree = mimic_chain()
    sim = compare(tree, [0.3, -0.35, 0.1], [1.0, -3.0, 2.0], hold_at=100)
    assert sim.q.size == 3 and sim.holding  # the follower has no coordinate of its own


@pytest.mark.skipif(EXAMPLE_ROBOTS is None, reason="example-robot-data is not installed")
def test_talos_base_fixed_matches_the_python_step():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tree = import_robot(EXAMPLE_ROBOTS / "talos_data/robots/talos_full_v2.urdf",
                            package_paths=(str(EXAMPLE_ROBOTS),))
    tree.gravity = G
    J = Simulator(tree)._joints
    q = tree.home_configuration()  # home has joints exactly on a limit: whether a step crosses it is rounding
    q[J.stop_pos] = np.clip(q[J.stop_pos], J.stop_lo + 0.02, J.stop_hi - 0.02)
    rng = np.random.default_rng(3)
    compare(tree, q, rng.normal(scale=0.5, size=len(tree.dof_names())), hold_at=150)


def test_a_diverging_run_stops_at_the_same_time_on_both_paths():
    tree = mimic_chain()
    for b in tree.bodies:
        b.joint.position_limits = [-np.inf, np.inf]
        b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, (0.0, 0.0)
    messages = []
    for compiled in (True, False):
        sim = Simulator(tree, [0.0, 0.0, 0.0], [0.0, 5e5, 0.0], gravity=[0, 0, -9.81e5])
        if not compiled:
            sim._fast = None
        with pytest.raises(Exception) as err:
            sim.run(1.0)
        messages.append((str(err.value), sim.time, sim.q.tolist()))
    assert messages[0][:2] == messages[1][:2]
    np.testing.assert_allclose(messages[0][2], messages[1][2], atol=1e-9)
