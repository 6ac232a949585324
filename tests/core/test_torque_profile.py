"""Torques along the Poses dock's quintic (core.torque_profile): Pinocchio's RNEA on every
sample, Corke's motor and friction terms by hand, peaks, effort limits and refusals."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import InvalidConfigurationError, load_robot
from kinetree.core.dynamics.torque_profile import effort_limits, torque_profile
from kinetree.core.kinematics.trajectory import sample_trajectory

pin = pytest.importorskip("pinocchio")
from helpers.pinocchio_compare import pinocchio_model  # noqa: E402

G = np.array([0.0, 0.0, -9.81])


@pytest.mark.parametrize("name, poses", [("puma560", ["qz", "qr"]), ("puma560", ["qz", "qr", "qs"]),
                                         ("stanford", None), ("ur5", ["home", "qr"])])
def test_rigid_body_torques_match_pinocchio_along_the_motion(name, poses):
    tree = load_robot(name)
    if poses is None:  # a robot with a prismatic joint and no named poses: two configurations
        rng = np.random.default_rng(3)
        poses = [tree.random_configuration(rng), tree.random_configuration(rng)]
    prof = torque_profile(tree, poses, seconds=1.5, samples=201, gravity=G, motor=False)
    bare = tree.copy()
    bare.gravity = G
    model = pinocchio_model(bare)
    data = model.createData()
    offsets = np.array([b.joint.offset for b, _ in tree._positions()])
    assert prof.tau.shape == (201, tree.dof_count)
    for q, qd, qdd, tau in zip(prof.q, prof.qd, prof.qdd, prof.tau):
        np.testing.assert_allclose(tau, pin.rnea(model, data, q + offsets, qd, qdd), atol=1e-9)


def test_samples_are_the_poses_docks_quintic_with_per_second_rates():
    tree = load_robot("puma560")
    prof = torque_profile(tree, ["qz", "qr", "qs"], seconds=[1.0, 3.0], samples=4001)
    P = [tree.named_poses[n] for n in ("qz", "qr", "qs")]
    assert prof.times[0] == 0.0 and prof.times[-1] == 4.0
    np.testing.assert_array_equal(prof.q, sample_trajectory(P, [1.0, 3.0], prof.times))
    dt = prof.times[1] - prof.times[0]
    np.testing.assert_allclose(np.gradient(prof.q, dt, axis=0)[1:-1], prof.qd[1:-1], atol=1e-4)  # O(dt²) differences
    inner = np.r_[1:999, 1002:4000]  # qdd has a kink where the segments meet
    np.testing.assert_allclose(np.gradient(prof.qd, dt, axis=0)[inner], prof.qdd[inner], atol=2e-3)
    np.testing.assert_array_equal(prof.qd[[0, 1000, -1]], 0.0)  # at rest at every pose


def test_motor_inertia_and_friction_are_corkes_rne_terms():
    """τ with motors − τ without = G²·Jm·qdd + B·G²·qd + |G|·Tc± (Tc⁺ for qd > 0, Tc⁻ for qd < 0)."""
    tree = load_robot("puma560")
    with_m = torque_profile(tree, ["qz", "qr"], 2.0, samples=301, gravity=G)
    bare = torque_profile(tree, ["qz", "qr"], 2.0, samples=301, gravity=G, motor=False)
    joints = [b.joint for b in tree.bodies]
    g = np.array([abs(j.gear_ratio) for j in joints])
    jm = np.array([j.motor_inertia for j in joints])
    b = np.array([j.viscous_friction for j in joints])
    tcp = np.array([j.coulomb_friction[0] for j in joints])
    tcm = np.array([j.coulomb_friction[1] for j in joints])
    qd, qdd = with_m.qd, with_m.qdd
    hand = g**2 * jm * qdd + b * g**2 * qd + g * np.where(qd > 0, tcp, np.where(qd < 0, tcm, 0.0))
    np.testing.assert_allclose(with_m.tau - bare.tau, hand, atol=1e-9)
    assert np.abs(hand[:, 1]).max() > 10  # joint 2's gearbox matters here: G·Tc⁺ = 13.6 N·m


def test_peaks_limits_and_percent():
    tree = load_robot("puma560")
    for b, effort in zip(tree.bodies, (50, 40, 5, 0, None, 1e-9)):
        if effort is not None:
            b.joint.extensions = (f'<limit effort="{effort}" velocity="1"/>',)
    prof = torque_profile(tree, ["qz", "qr"], 2.0, samples=101, gravity=G)
    assert prof.limits == [50.0, 40.0, 5.0, None, None, 1e-9]  # URDF's effort 0: none given
    assert effort_limits(tree) == prof.limits
    for d, peak in enumerate(prof.peaks):
        i = int(np.argmax(np.abs(prof.tau[:, d])))
        assert (peak.value, peak.time) == (prof.tau[i, d], prof.times[i])
    pct = prof.percent_of_limit()
    assert pct[1] == pytest.approx(100 * abs(prof.peaks[1].value) / 40)
    assert pct[3] is None
    assert prof.over_limit() == [abs(prof.peaks[0].value) > 50, True, True, False, False,
                                 abs(prof.peaks[5].value) > 1e-9]
    assert prof.peaks[1].value > 40  # joint 2 lifts the arm: over its 40 N·m
    lines = prof.csv_text().splitlines()
    assert lines[0] == "t (s),q1 (N·m),q2 (N·m),q3 (N·m),q4 (N·m),q5 (N·m),q6 (N·m)"
    assert len(lines) == 102
    np.testing.assert_array_equal(np.array([line.split(",") for line in lines[1:]], float)[:, 1:], prof.tau)


def test_tree_gravity_is_used_unless_given():
    tree = load_robot("puma560")
    tree.gravity = [0, 0, -3.0]
    prof = torque_profile(tree, ["qz", "qr"], samples=3)
    np.testing.assert_array_equal(prof.gravity, [0, 0, -3.0])
    np.testing.assert_allclose(prof.tau[0], tree.gravity_torque(tree.named_poses["qz"]), atol=1e-12)
    np.testing.assert_array_equal(tree.gravity, [0, 0, -3.0])  # a given gravity never reaches the tree


@pytest.mark.parametrize("poses, kwargs, match", [
    (["qz", "nope"], {}, r"no pose named 'nope' \(the robot's poses: qz, qr, qs, qn\)"),
    (["qz"], {}, "two poses or more"),
    ("qz", {}, "two poses or more"),
    (["qz", [0, 0, 0]], {}, "pose 2"),
    (["qz", [0, 0, 0, 0, 0, float("nan")]], {}, "pose 2"),
    (["qz", "qr"], {"seconds": 0}, "positive and finite"),
    (["qz", "qr"], {"seconds": float("nan")}, "positive and finite"),
    (["qz", "qr"], {"seconds": [1, 2]}, "one number or one per segment"),
    (["qz", "qr"], {"samples": 1}, "samples must be"),
    (["qz", "qr"], {"samples": 10**9}, "samples must be"),
    (["qz", "qr"], {"samples": 2.5}, "samples must be"),
    (["qz", "qr"], {"gravity": [0, 0, float("inf")]}, "gravity"),
])
def test_bad_input_is_refused_in_words(poses, kwargs, match):
    from kinetree.core import KineTreeError

    with pytest.raises(KineTreeError, match=match):
        torque_profile(load_robot("puma560"), poses, **kwargs)


def test_quaternion_joints_are_refused():
    tree = load_robot("two_link_planar")
    from kinetree.core import Joint, RigidBody

    b = RigidBody("ball")
    b.joint = Joint("ball_joint", "spherical")
    b.mass = 1.0
    tree.add_body(b, tree.end_effector)
    q = tree.home_configuration()
    with pytest.raises(InvalidConfigurationError, match="'ball_joint' is spherical"):
        torque_profile(tree, [q, q])
