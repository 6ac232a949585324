"""Batch inverse dynamics and mass matrix ((N, …) inputs, core/dynamics/batch.py's compiled
passes) against the numpy path, single calls and Pinocchio's rnea row by row: a serial arm with motors and friction,
a branched tree with mimic joints and fixed bodies, a floating base, external wrenches shared or
per configuration."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import load_robot
from kinetree.core.dynamics import rigid_body as rbd

pin = pytest.importorskip("pinocchio")
from helpers.pinocchio_compare import G, load_urdf, needs_robots, pinocchio_model, symmetric  # noqa: E402
from helpers.trees import spherical_tree  # noqa: E402


def batch(tree, n, seed):
    rng = np.random.default_rng(seed)
    Q = np.stack([tree.random_configuration(rng) for _ in range(n)])
    return Q, rng.normal(size=(n, tree.dof_count)) * 2, rng.normal(size=(n, tree.dof_count)) * 2, rng


def close(a, b):
    np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * (1 + np.abs(b).max()))


@pytest.mark.parametrize("name", ["puma560", "humanoid_upper_body", "quadruped", "stanford", "floating"])
def test_batch_matches_numpy_path_and_single_calls(name, monkeypatch):
    """Mimic joints (humanoid_upper_body), branches and fixed bodies (quadruped), prismatic joints
    (stanford), a floating base (numpy poses by chunks): the same numbers every way."""
    if name == "floating":
        tree = spherical_tree(5, ["floating", "revolute", "fixed", "prismatic", "revolute", "revolute"])
    else:
        tree = load_robot(name)
        tree.gravity = G
    Q, QD, QDD, rng = batch(tree, 40, 11)
    shared = tree.external_force(tree.bodies[-1].name, rng.normal(size=6))
    each = np.stack([tree.external_force(tree.bodies[int(rng.integers(len(tree.bodies)))].name, rng.normal(size=6))
                     for _ in range(40)])
    calls = [lambda: tree.inverse_dynamics(Q, QD, QDD), lambda: tree.inverse_dynamics(Q, QD, QDD, shared),
             lambda: tree.inverse_dynamics(Q, QD, QDD, each), lambda: tree.inverse_dynamics(Q, QD[0], QDD[3]),
             lambda: tree.velocity_product(Q, QD), lambda: tree.mass_matrix(Q)]
    if name != "humanoid_upper_body":  # ABA has no mimic joints (the Cholesky path runs)
        calls += [lambda: tree.forward_dynamics(Q, QD, QDD * 10, shared),
                  lambda: tree.forward_dynamics(Q, QD, QDD, each)]
    compiled = [c() for c in calls]
    for k in range(40):
        close(compiled[0][k], tree.inverse_dynamics(Q[k], QD[k], QDD[k]))
        close(compiled[2][k], tree.inverse_dynamics(Q[k], QD[k], QDD[k], each[k]))
        close(compiled[5][k], tree.mass_matrix(Q[k]))
        if len(compiled) > 6:
            close(compiled[6][k], tree.forward_dynamics(Q[k], QD[k], QDD[k] * 10, shared))
            close(compiled[7][k], tree.forward_dynamics(Q[k], QD[k], QDD[k], each[k]))
    fd = tree.forward_dynamics(Q, QD, compiled[0], method="cholesky")  # the batch M and bias, one solve each
    np.testing.assert_allclose(fd, QDD, rtol=1e-9, atol=1e-9 * (1 + np.abs(QDD).max()))
    monkeypatch.setattr(rbd, "_kernel", lambda: None)
    for c, got in zip(calls, compiled):
        close(got, c())


def pin_rows(model, qps, QD, QDD, order):
    data = model.createData()
    out = []
    for qp, qd, qdd in zip(qps, QD, QDD):
        v, a = np.zeros(model.nv), np.zeros(model.nv)
        v[order], a[order] = qd, qdd
        out.append(pin.rnea(model, data, qp, v, a)[order])
    return np.array(out)


def test_puma_batch_matches_pinocchio():
    """rnea and crba row by row."""
    tree = load_robot("puma560")
    tree.gravity = G
    for b in tree.bodies:  # Pinocchio's rnea has no motors: those are checked by hand in test_rigid_body_dynamics
        b.joint.motor_inertia, b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0, 0.0
    Q, QD, QDD, _ = batch(tree, 200, 2)
    offsets = np.array([b.joint.offset for b, _ in tree._positions()])
    model = pinocchio_model(tree)
    close(tree.inverse_dynamics(Q, QD, QDD), pin_rows(model, Q + offsets, QD, QDD, np.arange(6)))
    data = model.createData()
    close(tree.mass_matrix(Q), np.array([symmetric(pin.crba(model, data, q)) for q in Q + offsets]))


@needs_robots
def test_panda_with_mimic_finger_batch_matches_pinocchio():
    """The Panda URDF's finger mimic joint: the follower's torque goes to its leader, as in
    Pinocchio's mimic model."""
    tree = load_urdf("panda")
    assert any(b.joint.mimic is not None for b in tree.bodies)
    tree.gravity = G
    for b in tree.bodies:
        if b.joint.type in ("revolute", "prismatic"):
            b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0
    model = pin.buildModelFromUrdf(str(_urdf_path("panda")), mimic=True)
    model.gravity.linear = G
    order = [model.joints[model.getJointId(n)].idx_v for n in tree.dof_names()]
    Q, QD, QDD, _ = batch(tree, 100, 3)
    qps = []
    for q in Q:
        qp = pin.neutral(model)
        for name, v in tree.config_to_dict(q).items():
            qp[model.joints[model.getJointId(name)].idx_q] = float(np.atleast_1d(v)[0])
        qps.append(qp)
    close(tree.inverse_dynamics(Q, QD, QDD), pin_rows(model, qps, QD, QDD, order))


def _urdf_path(key):
    from helpers.urdf import EXAMPLE_ROBOTS, REAL_URDFS

    return EXAMPLE_ROBOTS / REAL_URDFS[key]


@pytest.mark.parametrize("method", ["aba", "cholesky"])
def test_batch_forward_dynamics_of_a_massless_joint_is_refused(method):
    from kinetree.core import InvalidPropertyError

    tree = load_robot("two_link_planar")
    tree.bodies[-1].mass, tree.bodies[-1].inertia = 0.0, [0] * 6
    Q = np.zeros((3, 2))
    Q[1, 1] = 0.4
    with pytest.raises(InvalidPropertyError, match="singular"):
        tree.forward_dynamics(Q, method=method)
