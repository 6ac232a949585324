"""The simulator (core/simulation/simulator.py): energies against Pinocchio, energy conserved by RK4 over
10 s without friction, friction that only dissipates and does not chatter, hard stops, the Hold
controller, quaternions kept unit, and a free fall against an independent integration with
Pinocchio's ABA."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import (
    Joint,
    KineTreeError,
    RigidBody,
    RigidBodyTree,
    SimulationError,
    Simulator,
    kinetic_energy,
    list_robots,
    load_robot,
    potential_energy,
)

G = [0.0, 0.0, -9.81]
PUMA_START = [0.3, 0.5, -0.5, 0.2, 0.4, 0.1]


def puma():
    tree = load_robot("puma560")
    tree.gravity = G
    return tree


def pendulum(links: int = 2) -> RigidBodyTree:
    """A planar chain of ``links`` 1-m links about y, each a 1-kg rod with its mass spread."""
    tree = RigidBodyTree(gravity=G)
    parent = tree.base_name
    for i in range(links):
        b = RigidBody(f"l{i}")
        b.joint = Joint(f"j{i}", "revolute")
        b.joint.axis = [0, 1, 0]
        b.joint.position_limits = [-100, 100]
        if i:
            b.joint.set_fixed_transform(np.array([[1, 0, 0, 1.0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]))
        b.mass, b.center_of_mass = 1.0, [0.5, 0.0, 0.0]
        b.inertia = [0.01, 1 / 3, 1 / 3, 0, 0, 0]  # about the joint: a rod of 1 m
        tree.add_body(b, parent)
        parent = b.name
    return tree


def welded_to_base(tree, name: str) -> bool:
    while name != tree.base_name:
        if tree.get_body(name).joint.type != "fixed":
            return False
        name = tree.parent_name(name)
    return True


def worst_energy_error(sim: Simulator, seconds: float, every: int = 10) -> float:
    """The largest |E − E₀| over the run, relative to |E₀| or the kinetic energy, the larger."""
    e0 = sim.energy().total
    worst = 0.0
    for _ in range(round(seconds / sim.dt / every)):
        sim.step(every)
        e = sim.energy()
        worst = max(worst, abs(e.total - e0) / max(abs(e0), e.kinetic))
    return worst


# --- energies against Pinocchio ----------------------------------------------------------------
@pytest.mark.parametrize("name", ["puma560", *[n for n in list_robots() if n != "puma560"][:3]])
def test_energies_match_pinocchio(name):
    pin = pytest.importorskip("pinocchio")
    from helpers.pinocchio_compare import pinocchio_model

    tree = load_robot(name)
    tree.gravity = G
    if any(b.joint.mimic is not None for b in tree.bodies):
        pytest.skip("mimic joints: Pinocchio's energies have no mimic joints")
    model = pinocchio_model(tree)
    data = model.createData()
    offsets = np.array([b.joint.offset for b, _ in tree._positions()])
    armature = np.array([b.joint.gear_ratio ** 2 * b.joint.motor_inertia for b, _ in tree._positions()])
    fixed_to_base = [b for b in tree.bodies if welded_to_base(tree, b.name)]
    rng = np.random.default_rng(3)
    for _ in range(4):
        q, qd = tree.random_configuration(rng), rng.normal(size=tree.dof_count)
        # Pinocchio's kinetic energy leaves the rotor inertia (its armature) out
        ref_t = pin.computeKineticEnergy(model, data, q + offsets, qd) + 0.5 * armature @ (qd * qd)
        assert kinetic_energy(tree, q, qd) == pytest.approx(ref_t, abs=1e-9, rel=1e-12)
        # bodies welded to the base are not in Pinocchio's model (they never move)
        still = sum(-b.mass * (tree.get_transform(q, b.name)[:3, :3] @ b.center_of_mass
                               + tree.get_transform(q, b.name)[:3, 3]) @ G for b in fixed_to_base)
        ref_v = pin.computePotentialEnergy(model, data, q + offsets) + still
        assert potential_energy(tree, q) == pytest.approx(ref_v, abs=1e-9, rel=1e-12)


def test_energies_of_a_batch():
    tree = puma()
    rng = np.random.default_rng(0)
    Q, QD = np.stack([tree.random_configuration(rng) for _ in range(3)]), rng.normal(size=(3, 6))
    np.testing.assert_allclose(kinetic_energy(tree, Q, QD), [kinetic_energy(tree, q, v) for q, v in zip(Q, QD)])
    np.testing.assert_allclose(potential_energy(tree, Q), [potential_energy(tree, q) for q in Q])


# --- the integrator ------------------------------------------------------------------------------
def test_puma_conserves_energy_over_10_s():
    sim = Simulator(puma(), PUMA_START, friction=False, limits=False)
    assert worst_energy_error(sim, 10.0) < 1e-6
    assert sim.energy().kinetic > 1.0  # it did fall and swing
    assert abs(sim.energy().drift) < 1e-6


def test_double_pendulum_conserves_energy_over_10_s():
    sim = Simulator(pendulum(2), [1.2, -0.4], [0.5, 2.0], friction=False)
    assert worst_energy_error(sim, 10.0) < 1e-6


def test_semi_implicit_euler_is_the_worse_choice():
    """The measurement behind RK4 as the default: Euler's energy error at 1 kHz is ~1e-3 or worse."""
    rk4 = worst_energy_error(Simulator(pendulum(2), [1.2, -0.4], friction=False), 2.0)
    euler = worst_energy_error(Simulator(pendulum(2), [1.2, -0.4], friction=False, integrator="euler"), 2.0)
    assert euler > 1e-4 > 1e-6 > rk4


def test_floating_body_keeps_a_unit_quaternion_and_its_energy():
    tree = RigidBodyTree(gravity=G)
    b = RigidBody("box")
    b.joint = Joint("free", "floating")
    b.mass, b.center_of_mass, b.inertia = 2.0, [0.1, 0.05, -0.02], [0.05, 0.08, 0.11, 0.001, 0.002, 0.003]
    tree.add_body(b, tree.base_name)
    arm = RigidBody("arm")  # a swinging limb on the tumbling body
    arm.joint = Joint("hinge", "revolute")
    arm.mass, arm.center_of_mass, arm.inertia = 0.5, [0.0, 0.0, 0.3], [0.02, 0.02, 0.001, 0, 0, 0]
    tree.add_body(arm, "box")
    sim = Simulator(tree, None, [3.0, -2.0, 5.0, 0.1, 0.2, 1.0, 4.0], friction=False, limits=False)
    worst = worst_energy_error(sim, 0.5)
    assert np.linalg.norm(sim.q[:4]) == pytest.approx(1.0, abs=1e-12)
    assert abs(sim.q[:4]).max() < 1.0  # it turned
    assert worst < 1e-6


def test_free_fall_matches_an_integration_with_pinocchio_aba():
    pin = pytest.importorskip("pinocchio")
    from helpers.pinocchio_compare import pinocchio_model

    tree = puma()
    model = pinocchio_model(tree)
    model.armature = np.array([b.joint.gear_ratio ** 2 * b.joint.motor_inertia for b in tree.bodies])
    data = model.createData()
    offsets = np.array([b.joint.offset for b in tree.bodies])

    def f(x):
        return np.concatenate([x[6:], pin.aba(model, data, x[:6] + offsets, x[6:], np.zeros(6))])

    x, h = np.concatenate([PUMA_START, np.zeros(6)]), 1e-4
    for _ in range(3000):  # 0.3 s, RK4 at ten times the simulator's rate
        k1 = f(x)
        k2 = f(x + h / 2 * k1)
        k3 = f(x + h / 2 * k2)
        k4 = f(x + h * k3)
        x = x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    sim = Simulator(tree, PUMA_START, friction=False, limits=False)
    sim.run(0.3)
    assert sim.time == pytest.approx(0.3)
    assert np.abs(sim.q - PUMA_START).max() > 0.05
    np.testing.assert_allclose(sim.q, x[:6], atol=1e-8)
    np.testing.assert_allclose(sim.qd, x[6:], atol=1e-7)


# --- friction, stops, hold -------------------------------------------------------------------------
def test_friction_only_takes_energy_and_the_books_balance():
    sim = Simulator(puma(), PUMA_START, friction=True, limits=False)
    totals = [sim.energy().total]
    for _ in range(200):
        sim.step(10)
        totals.append(sim.energy().total)
    assert np.all(np.diff(totals) <= 1e-9)
    assert totals[-1] < totals[0] - 1.0
    e = sim.energy()
    assert e.work < -1.0 and abs(e.drift) < 1e-6  # friction's work explains the loss


def test_coulomb_friction_sticks_without_chatter():
    tree = pendulum(1)
    j = tree.get_body("l0").joint
    j.coulomb_friction = 5.0  # more than the 4.9 N·m gravity puts on it when horizontal
    sim = Simulator(tree, [0.0])
    sim.run(1.0)
    assert abs(sim.q[0]) < 1e-12 and sim.qd[0] == 0.0  # never moved (round-off): no creep
    j.coulomb_friction = 2.0
    sim = Simulator(tree, [0.0], [-3.0])  # swings up against the friction, stops, slides back down
    velocities = []
    for _ in range(3000):
        sim.step()
        velocities.append(sim.qd[0])
    signs = np.sign(velocities)
    assert np.count_nonzero(np.diff(signs[signs != 0])) <= 4  # a few swings, no chatter at q̇ ≈ 0
    assert sim.energy().kinetic < 1e-12 or abs(sim.energy().drift) < 1e-6


def test_hard_stops_keep_puma_within_its_limits():
    tree = puma()
    lo, hi = np.array([b.joint.position_limits for b in tree.bodies]).T
    sim = Simulator(tree, PUMA_START, friction=False)
    hits = 0
    for _ in range(300):
        sim.step(10)
        assert np.all(sim.q >= lo) and np.all(sim.q <= hi)
        hits += np.any(np.isclose(sim.q, lo) | np.isclose(sim.q, hi))
    assert hits  # it did reach a stop
    assert abs(sim.energy().drift) < 1e-6  # the stops' losses are counted


def test_elastic_stop_bounces():
    tree = pendulum(1)
    tree.get_body("l0").joint.position_limits = [-0.5, 0.5]
    sim = Simulator(tree, [0.0], [-2.0], gravity=[0, 0, 0], restitution=1.0)
    sim.run(0.5)
    assert sim.q[0] > -0.5 and sim.qd[0] == pytest.approx(2.0)  # came back off the stop at -0.5
    sim = Simulator(tree, [0.0], [-2.0], gravity=[0, 0, 0])
    sim.run(0.5)
    assert sim.q[0] == -0.5 and sim.qd[0] == 0.0  # an inelastic stop: it stays there


def test_hold_brings_puma_back_within_1e_3_rad():
    sim = Simulator(puma(), PUMA_START, friction=False)
    sim.run(0.3)
    assert np.abs(sim.q - PUMA_START).max() > 0.05
    sim.hold(20000, 300, target=PUMA_START)
    sim.run(2.0)
    assert np.abs(sim.q - PUMA_START).max() < 1e-3


def test_hold_keeps_puma_still_with_friction():
    sim = Simulator(puma(), PUMA_START)
    sim.hold(20000, 300)
    sim.run(2.0)
    assert np.abs(sim.q - PUMA_START).max() < 1e-9
    sim.release()
    sim.run(0.1)
    assert np.abs(sim.q - PUMA_START).max() > 1e-3  # let go, it falls


def test_reset_goes_back_to_the_start():
    sim = Simulator(puma(), PUMA_START)
    sim.run(0.2)
    sim.reset()
    np.testing.assert_array_equal(sim.q, PUMA_START)
    assert sim.time == 0 and not sim.qd.any()


def test_stiff_gains_take_shorter_internal_steps_or_are_refused():
    sim = Simulator(puma(), PUMA_START)
    sim.hold(1e5, 2000)
    assert sim.substeps > 1
    sim.run(0.2)
    assert np.abs(sim.q - PUMA_START).max() < 1e-6
    with pytest.raises(SimulationError, match=r"too stiff.*lightest joint"):
        sim.hold(1e9, 1e9)


def test_a_joint_that_moves_no_mass_is_explained():
    tree = pendulum(2)
    tail = tree.get_body("l1")
    tail.mass, tail.inertia = 0.0, [0, 0, 0, 0, 0, 0]
    sim = Simulator(tree, [0.3, 0.2])
    with pytest.raises(KineTreeError, match="moves no mass"):
        sim.step()


@pytest.mark.parametrize("kwargs, match", [({"dt": 0.0}, "dt"), ({"dt": float("nan")}, "dt"),
                                           ({"integrator": "leapfrog"}, "integrator"),
                                           ({"gravity": [0, 0]}, "gravity"), ({"restitution": 2.0}, "restitution")])
def test_bad_settings_are_refused(kwargs, match):
    with pytest.raises(SimulationError if match != "gravity" else Exception, match=match):
        Simulator(puma(), **kwargs)


def test_a_tree_with_more_dofs_than_the_dense_path_takes_is_refused_before_any_matrix():
    from kinetree.core.simulation.simulator import MAX_DOF

    tree = RigidBodyTree()
    for i in range(MAX_DOF // 6 + 1):  # floating joints: 6 DoF each
        body = RigidBody(f"b{i}")
        body.joint = Joint(f"free{i}", "floating")
        tree.add_body(body, "base")
    n = 6 * (MAX_DOF // 6 + 1)
    with pytest.raises(SimulationError, match=f"{n} degrees of freedom is more than the {MAX_DOF}"):
        Simulator(tree)
