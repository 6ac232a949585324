"""Dynamics of closed loops (issue 35): the four-bar's constrained accelerations and constraint
forces against hand-written Lagrange multipliers on the planar model, the bias ``J̇q̇`` against
finite differences, inverse dynamics of parallel robots inverted by forward dynamics, and a
frictionless looped pendulum simulated for 10 s (energy kept, loop closed)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.loops import (
    COUPLER,
    CRANK,
    GROUND,
    LINKS,
    ROCKER,
    G,
    closed,
    consistent_rates,
    heavy_four_bar,
    three_rrr,
    tilted_loop,
)
from kinetree.core import LoopClosureError, load_robot
from kinetree.core.dynamics import loops as loop_dynamics
from kinetree.core.dynamics.loops import (
    _loop_terms,
    actuated_dofs,
    actuator_split,
    compute_constraint_impulses,
    constraint_bias,
    forward_dynamics_constraints_direct,
    inverse_dynamics_constraints,
)
from kinetree.core.dynamics.rigid_body import _poses as plan_poses
from kinetree.core.dynamics.rigid_body import dynamics_plan
from kinetree.core.dynamics.torque_profile import torque_profile
from kinetree.core.errors import InvalidConfigurationError, InvalidPropertyError
from kinetree.core.kinematics.loops import compiled_terms, rows
from kinetree.core.kinematics.plan import compiled_backend
from kinetree.core.simulation.simulator import Simulator


def e(phi: float) -> np.ndarray:
    return np.array([math.cos(phi), math.sin(phi)])


def lagrange_reference(q: np.ndarray, qd: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(q̈, λ)`` of the planar four-bar written out by hand: the centres of mass' Jacobians in the
    tree's coordinates (crank angle, coupler angle relative to the crank, rocker angle), the mass
    matrix ``Σ m JpᵀJp + Ic JωᵀJω``, the velocity terms from the centres' centripetal accelerations,
    and the loop ``rocker tip − coupler tip = 0`` with its multipliers (the force on the rocker)."""
    (m1, c1, I1), (m2, c2, I2), (m3, c3, I3) = LINKS.values()
    a, b, c, d = CRANK, COUPLER, ROCKER, GROUND
    p1, p2, p3 = q[0], q[0] + q[1], q[2]  # absolute link angles
    w1, w2, w3 = qd[0], qd[0] + qd[1], qd[2]
    n = lambda phi: np.array([-math.sin(phi), math.cos(phi)])  # noqa: E731 - d e(φ)/dφ
    Jp1 = np.column_stack([c1 * n(p1), [0, 0], [0, 0]])
    Jp2 = np.column_stack([a * n(p1) + c2 * n(p2), c2 * n(p2), [0, 0]])
    Jp3 = np.column_stack([[0, 0], [0, 0], c3 * n(p3)])
    Jw = [np.array([1.0, 0, 0]), np.array([1.0, 1, 0]), np.array([0, 0, 1.0])]
    M = sum(m * Jp.T @ Jp + I * np.outer(jw, jw) for (m, _, I), Jp, jw in zip(LINKS.values(), (Jp1, Jp2, Jp3), Jw))
    acc0 = [-c1 * w1**2 * e(p1), -a * w1**2 * e(p1) - c2 * w2**2 * e(p2), -c3 * w3**2 * e(p3)]  # at q̈ = 0
    g = np.array([0.0, -G])
    h = sum(m * Jp.T @ (a0 - g) for m, Jp, a0 in zip((m1, m2, m3), (Jp1, Jp2, Jp3), acc0))
    # the loop: rocker tip (d, 0) + c e(p3) minus coupler tip a e(p1) + b e(p2)
    Jc = np.column_stack([-a * n(p1) - b * n(p2), -b * n(p2), c * n(p3)])
    bias = -c * w3**2 * e(p3) + a * w1**2 * e(p1) + b * w2**2 * e(p2)
    K = np.block([[M, -Jc.T], [Jc, np.zeros((2, 2))]])
    x = np.linalg.solve(K, np.concatenate([tau - h, -bias]))
    assert np.allclose(np.array([d, 0.0]) + c * e(p3), a * e(p1) + b * e(p2), atol=1e-12)  # (closed)
    return x[:3], x[3:]


@pytest.mark.parametrize("kind", ["hinge", "ball"])
@pytest.mark.parametrize("crank, rate, torque", [(0.7, 0.0, 0.0), (0.7, 3.0, 0.4), (2.5, -5.0, -1.2),
                                                 (4.0, 2.0, 0.0)])
def test_four_bar_matches_hand_written_lagrange_multipliers(kind, crank, rate, torque):
    t = heavy_four_bar(kind)
    q = closed(t, crank)
    qd = consistent_rates(t, q, rate)
    tau = np.array([torque, 0.0, 0.0])
    qdd, lam = forward_dynamics_constraints_direct(t, q, qd, tau)
    ref_qdd, ref_lam = lagrange_reference(q, qd, tau)
    assert np.allclose(qdd, ref_qdd, rtol=0, atol=1e-6 * max(1.0, np.abs(ref_qdd).max()))
    assert np.allclose(lam[:2], ref_lam, rtol=0, atol=1e-6 * max(1.0, np.abs(ref_lam).max()))
    assert np.abs(lam[2:]).max() <= 1e-9  # out of the plane: nothing loads the loop there
    # the accelerations keep the loop closed: J q̈ + J̇q̇ = 0
    assert np.abs(t.constraint_jacobian(q) @ qdd + constraint_bias(t, q, qd)).max() <= 1e-9


def test_bias_is_the_loop_residuals_second_derivative():
    """``J̇q̇`` against a central difference of ``J(q + s·q̇)·q̇`` (the four-bar's hinge, the 3-RRR's
    two hinges)."""
    for t, q in ((heavy_four_bar("hinge"), closed(heavy_four_bar("hinge"))), three_rrr()[:2]):
        rng = np.random.default_rng(1)
        J = t.constraint_jacobian(q)
        N = np.linalg.svd(J)[2][np.linalg.matrix_rank(J):].T  # a velocity the loops allow
        qd = N @ rng.normal(size=N.shape[1])
        s = 1e-6  # (J at the slightly open q ± s·q̇: the rows' Jacobian, defined there too)
        fd = (rows(t, q + s * qd)[1] @ qd - rows(t, q - s * qd)[1] @ qd) / (2 * s)
        assert np.allclose(constraint_bias(t, q, qd), fd, atol=1e-7)


def test_inverse_dynamics_of_parallel_robots_is_inverted_by_forward_dynamics():
    rng = np.random.default_rng(7)
    t = heavy_four_bar()
    q = closed(t, 1.1)
    qd = consistent_rates(t, q, 2.0)
    qdd, _ = forward_dynamics_constraints_direct(t, q, qd, np.array([0.3, 0.0, 0.0]))  # a consistent q̈
    tau, lam = inverse_dynamics_constraints(t, q, qd, qdd)
    assert tau[1] == 0.0 and tau[2] == 0.0  # passive joints carry nothing
    assert abs(tau[0] - 0.3) <= 1e-9
    back, lam2 = forward_dynamics_constraints_direct(t, q, qd, tau)
    assert np.allclose(back, qdd, rtol=0, atol=1e-9) and np.allclose(lam2, lam, atol=1e-9)
    # the 3-RRR: three actuated base joints, two loops; a random consistent motion
    t, q, _ = three_rrr()
    for b in t.bodies:
        b.mass, b.center_of_mass = 0.4, (0.2, 0.0, 0.0)
        b.inertia = (1e-3, 0.02, 0.02, 0.0, 0.0, 0.0)
    t.gravity = (0.0, -G, 0.0)
    J = t.constraint_jacobian(q)
    N = np.linalg.svd(J)[2][np.linalg.matrix_rank(J):].T
    qd = N @ rng.normal(size=N.shape[1])
    qdd, _ = forward_dynamics_constraints_direct(t, q, qd, np.zeros(t.dof_count))
    qdd = qdd + N @ rng.normal(size=N.shape[1])  # any other allowed acceleration
    tau, _ = inverse_dynamics_constraints(t, q, qd, qdd)
    passive = [not b.joint.actuated for b in t.bodies]
    assert np.count_nonzero(passive) == 4 and np.all(tau[passive] == 0.0)
    back, _ = forward_dynamics_constraints_direct(t, q, qd, tau)
    assert np.allclose(back, qdd, rtol=0, atol=1e-9)


def test_inconsistent_rates_and_open_configurations_are_refused_naming_the_loop():
    t = heavy_four_bar()
    q = closed(t)
    open_q = q + np.array([0.0, 0.01, 0.0])
    for call in (lambda: forward_dynamics_constraints_direct(t, open_q),
                 lambda: inverse_dynamics_constraints(t, open_q),
                 lambda: constraint_bias(t, open_q),
                 lambda: compute_constraint_impulses(t, open_q, np.zeros(3)),
                 lambda: Simulator(t, open_q)):
        with pytest.raises(LoopClosureError, match="loop 'close' is open by"):
            call()
    with pytest.raises(LoopClosureError, match="qd leaves loop 'close' open"):
        inverse_dynamics_constraints(t, q, [1.0, 0.0, 0.0])
    with pytest.raises(LoopClosureError, match="qdd leaves loop 'close' open"):
        inverse_dynamics_constraints(t, q, None, [1.0, 0.0, 0.0])
    with pytest.raises(LoopClosureError, match="the velocities leave loop 'close' open"):
        Simulator(t, q, [1.0, 0.0, 0.0])
    sim = Simulator(t, q)
    with pytest.raises(LoopClosureError, match="loop 'close' is open by"):
        sim.set_state(open_q)
    assert np.array_equal(sim.q, q)  # refused: the simulation stays where it was
    with pytest.raises(LoopClosureError, match="pose 2: loop 'close' is open by"):
        torque_profile(t, [q, open_q], 1.0, 11)
    for bad in ((float("nan"), 0.0), (1.0, -2.0), "fast", (1.0, 2.0, 3.0)):
        with pytest.raises(InvalidConfigurationError, match="baumgarte"):
            forward_dynamics_constraints_direct(t, q, baumgarte=bad)
    with pytest.raises(InvalidConfigurationError, match="one configuration"):
        forward_dynamics_constraints_direct(t, np.stack([q, q]))


def test_a_loop_of_actuated_joints_simulates_too():
    """The simulator re-closes the loop over every joint (least norm), not only passive ones."""
    t = heavy_four_bar()
    q = closed(t)
    for name in ("coupler", "rocker"):
        t.get_body(name).joint.actuated = True
    sim = Simulator(t, q, friction=False, limits=False)
    sim.step(200)
    assert abs(sim.q[0] - q[0]) > 1e-3 and np.linalg.norm(t.loop_residual(sim.q)) < 1e-12


def test_impulse_projects_velocities_onto_the_loops():
    t = heavy_four_bar()
    q = closed(t)
    v, imp = compute_constraint_impulses(t, q, [1.0, 0.5, -0.2])
    J, M = t.constraint_jacobian(q), t.mass_matrix(q)
    assert np.abs(J @ v).max() <= 1e-12
    assert np.allclose(M @ (v - [1.0, 0.5, -0.2]), J.T @ imp, atol=1e-12)
    same, _ = compute_constraint_impulses(t, q, v)
    assert np.allclose(same, v, atol=1e-14)  # a closed velocity is kept


def test_a_tree_without_loops_is_the_plain_dynamics():
    t = heavy_four_bar()
    t.remove_loop("close")
    q, qd, tau = np.array([0.3, 1.0, 1.9]), np.array([1.0, -2.0, 0.5]), np.array([0.1, 0.2, 0.3])
    qdd, lam = forward_dynamics_constraints_direct(t, q, qd, tau)
    assert np.array_equal(qdd, t.forward_dynamics(q, qd, tau)) and lam.size == 0
    tq, lam = inverse_dynamics_constraints(t, q, qd, qdd)
    assert np.array_equal(tq, t.inverse_dynamics(q, qd, qdd)) and lam.size == 0


def test_looped_pendulum_keeps_its_energy_and_stays_closed_for_10_s():
    """The four-bar let go under gravity, no friction, no torque: RK4 at 1 ms with the positions
    and velocities projected on the loops after each step."""
    t = heavy_four_bar()
    q = closed(t, 0.3)
    sim = Simulator(t, q, dt=1e-3, friction=False, limits=False)
    e0 = sim.energy()
    moved = 0.0
    for _ in range(100):
        sim.step(100)
        assert np.linalg.norm(t.loop_residual(sim.q)) < 1e-9
        assert np.abs(t.constraint_jacobian(sim.q) @ sim.qd).max() < 1e-9
        moved = max(moved, abs(sim.q[0] - q[0]))
    assert sim.time == pytest.approx(10.0)
    assert moved > 1.0  # it swings
    en = sim.energy()
    assert abs(en.total - e0.total) <= 1e-6 * max(abs(e0.total), en.kinetic)
    assert abs(en.drift) <= 1e-6


def test_the_tree_methods_are_the_module_functions():
    t = heavy_four_bar()
    q = closed(t, 0.9)
    qd = consistent_rates(t, q, 1.5)
    tau = np.array([0.2, 0.0, 0.0])
    qdd = forward_dynamics_constraints_direct(t, q, qd, tau)[0]
    for got, want in ((t.forward_dynamics_constraints_direct(q, qd, tau, baumgarte=(5.0, 5.0)),
                       forward_dynamics_constraints_direct(t, q, qd, tau, baumgarte=(5.0, 5.0))),
                      (t.inverse_dynamics_constraints(q, qd, qdd), inverse_dynamics_constraints(t, q, qd, qdd)),
                      (t.compute_constraint_impulses(q, qd), compute_constraint_impulses(t, q, qd))):
        assert all(np.array_equal(a, b) for a, b in zip(got, want))
    assert np.array_equal(t.constraint_bias(q, qd), constraint_bias(t, q, qd))
    # Baumgarte's term: a velocity off the loop is pulled back, J q̈ + J̇q̇ = −2α·J q̇ (r = 0 here)
    off = qd + [0.0, 0.3, 0.0]
    qdd, _ = t.forward_dynamics_constraints_direct(q, off, tau, baumgarte=(5.0, 2.0))
    J = t.constraint_jacobian(q)
    np.testing.assert_allclose(J @ qdd + constraint_bias(t, q, off), -10.0 * (J @ off), atol=1e-9)


@pytest.mark.skipif(compiled_backend() is None, reason="numba is not available")
@pytest.mark.parametrize("kind", ["ball", "hinge", "slider", "weld"])
def test_the_compiled_loop_terms_equal_the_numpy_ones(kind):
    """The simulator's loop terms (one complex-step evaluation of the compiled residual and
    Jacobian) against the numpy ones from RNEA's forward pass: residual, Jacobian and J̇q̇."""
    t = tilted_loop(kind)
    rng = np.random.default_rng(35)
    plan = dynamics_plan(t)
    for _ in range(20):
        q, qd = rng.uniform(-math.pi, math.pi, 3), rng.normal(size=3) * 3
        got = compiled_terms(t, q, qd)
        want = _loop_terms(t, plan, plan_poses(t, q, plan), qd)
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)


@pytest.mark.skipif(compiled_backend() is None, reason="numba is not available")
def test_the_constrained_step_takes_the_compiled_loop_terms(monkeypatch):
    """Simulate's real-time factor (issue 35): the four-bar's RK4 step was 1.3 ms of CPU (0.74×
    real time), 4 × ~250 µs of it the numpy loop terms, 2 × ~130 µs the numpy rows of the
    projection and 5 × ~25 µs the numpy KKT solve; a step of a revolute/prismatic tree now calls
    none of them."""
    t = heavy_four_bar()
    sim = Simulator(t, closed(t, 0.3), friction=False, limits=False)
    calls = []
    for name in ("_loop_terms", "loop_rows", "_independent"):
        original = getattr(loop_dynamics, name)
        monkeypatch.setattr(loop_dynamics, name, lambda *a, _f=original, _n=name, **k: calls.append(_n) or _f(*a, **k))
    sim.step(50)
    assert calls == []


@pytest.mark.skipif(compiled_backend() is None, reason="numba is not available")
@pytest.mark.parametrize("name", ["four_bar", "delta_robot"])
def test_a_looped_stage_is_one_compiled_call_and_gives_the_models_accelerations(name, monkeypatch):
    """In the window the step shares the GIL with the drawing: each kernel that lets it go (poses,
    RNEA, CRBA: three a stage) waits to get it back, and Simulate ran at 0.96× real time. A stage
    is one call that keeps it, with the same accelerations as the model's step by step."""
    t = load_robot(name)
    t.gravity = (0.0, 0.0, -9.81)
    sim = Simulator(t, t.home_configuration(), friction=False, limits=False)
    sim.step(5)
    q, qd, tau = sim.q, sim.qd, np.linspace(-0.2, 0.3, sim.qd.size)
    for gravity in (True, False):
        np.testing.assert_allclose(sim._accel(q, qd, tau, gravity), sim._model.accel(q, qd, tau, gravity),
                                   rtol=0, atol=1e-9)
    kernel = sim._model.k
    calls = []
    monkeypatch.setattr(kernel, "rnea", lambda *a, _f=kernel.rnea: calls.append("rnea") or _f(*a))
    sim.step(20)
    assert calls == [] and np.linalg.norm(t.loop_residual(sim.q)) < 1e-12
    assert np.linalg.norm(t.loop_residual(sim.q)) < 1e-12 and abs(sim.q[0] - 0.3) > 1e-4  # moved, closed


@pytest.mark.skipif(compiled_backend() is None, reason="numba is not available")
def test_the_compiled_kkt_solve_equals_the_numpy_one_and_refuses_alike(monkeypatch):
    rng = np.random.default_rng(7)
    A = rng.normal(size=(3, 3))
    M, rhs = A @ A.T + np.eye(3), rng.normal(size=3)
    J = np.vstack([rng.normal(size=(2, 3)), np.zeros((1, 3))])
    J = np.vstack([J, J[0] + 2 * J[1]])  # 4 rows of rank 2: the dependent ones dropped
    gamma = J @ rng.normal(size=3)  # consistent
    compiled = loop_dynamics._kkt(M, rhs, J, gamma)
    monkeypatch.setattr(loop_dynamics, "_compiled", lambda: None)
    numpy_path = loop_dynamics._kkt(M, rhs, J, gamma)
    for a, b in zip(compiled, numpy_path):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    assert np.allclose(M @ compiled[0], rhs + J.T @ compiled[1]) and np.allclose(J @ compiled[0], gamma)
    monkeypatch.undo()
    for _ in range(2):  # compiled, then numpy: the same refusal
        with pytest.raises(InvalidPropertyError, match="constrained mass matrix is singular"):
            loop_dynamics._kkt(np.zeros((3, 3)), rhs, J, gamma)
        monkeypatch.setattr(loop_dynamics, "_compiled", lambda: None)


def test_actuated_gravity_torque_is_what_the_actuators_give_at_rest():
    t = heavy_four_bar()
    q = closed(t, 0.9)
    tau = t.actuated_gravity_torque(q)
    assert np.array_equal(tau, inverse_dynamics_constraints(t, q)[0]) and tau[1] == tau[2] == 0.0
    g = np.array([0.0, -3.0, 0.0])  # another gravity: the same split of gravity_torque(q, g)
    want = actuator_split(t.constraint_jacobian(q), actuated_dofs(t), t.gravity_torque(q, g))[0]
    assert np.array_equal(t.actuated_gravity_torque(q, g), want)
    t.remove_loop("close")
    assert np.array_equal(t.actuated_gravity_torque(q), t.gravity_torque(q))  # no loop: gravity_torque
