"""Conventions checked against the reference documents (/work/shared/sources): Corke's
Robotics Toolbox ``Link``/``DHRobot``, MATLAB's ``rigidBodyTree`` and RBDL."""

from math import inf, pi

import numpy as np
import pytest
from kinetree.core import DHLink, KineTreeError, dh_chain

# --- a. DHLink.from_corke: Corke's defaults and keywords -------------------------------------------


def test_from_corke_has_corkes_defaults_not_matlabs():
    # Corke's Link: "The link dynamic (inertial and motor) parameters are all set to zero", qlim []
    tree = dh_chain([DHLink.from_corke([0, 1.2, 0.3, pi / 2])])
    body, joint = tree.bodies[0], tree.bodies[0].joint
    assert body.mass == 0.0
    np.testing.assert_array_equal(body.center_of_mass, [0, 0, 0])
    np.testing.assert_array_equal(body.inertia, np.zeros(6))
    np.testing.assert_array_equal(joint.position_limits, [-inf, inf])
    assert joint.motor_parameters() == {"gear_ratio": 1.0, "motor_inertia": 0.0, "viscous_friction": 0.0,
                                        "coulomb_friction": [0.0, 0.0]}
    assert tree.within_limits([50.0])
    # the MATLAB-style keyword row keeps MATLAB's defaults
    matlab = dh_chain([DHLink("R", a=0.3, alpha=pi / 2, d=1.2)]).bodies[0]
    assert matlab.mass == 1.0
    np.testing.assert_allclose(matlab.joint.position_limits, [-pi, pi])


def test_from_corke_takes_corkes_dynamics_keywords():
    # Corke's RevoluteDH(d=0.15005, a=0.0203, alpha=-pi/2, m=4.8, r=…, I=…, Jm=…, G=…, B=…, Tc=…, qlim=…)
    r, I = [-0.0203, -0.0141, 0.070], [0.066, 0.086, 0.05, 0.001, 0.002, 0.003]  # [Ixx Iyy Izz Ixy Iyz Ixz]
    link = DHLink.from_corke(d=0.15005, a=0.0203, alpha=-pi / 2, m=4.8, r=r, I=I, Jm=200e-6, G=-53.7063,
                             B=1.38e-3, Tc=[0.132, -0.105], qlim=[-225 * pi / 180, 45 * pi / 180])
    body = dh_chain([link]).bodies[0]
    assert body.mass == 4.8
    np.testing.assert_allclose(body.center_of_mass, r)
    np.testing.assert_allclose(body.inertia_corke, I, atol=1e-15)
    # about the link frame (parallel axes): Ixx + m (ry² + rz²)
    assert body.inertia[0] == pytest.approx(0.066 + 4.8 * (0.0141 ** 2 + 0.070 ** 2))
    j = body.joint
    assert (j.gear_ratio, j.motor_inertia, j.viscous_friction, j.coulomb_friction) == (
        -53.7063, 200e-6, 1.38e-3, (0.132, -0.105))
    np.testing.assert_allclose(j.position_limits, [-225 * pi / 180, 45 * pi / 180])
    prismatic = dh_chain([DHLink.from_corke(theta=0.2, a=0.3, sigma=1, Tc=0.5)]).bodies[0].joint
    assert prismatic.type == "prismatic" and prismatic.coulomb_friction == (0.5, -0.5)


def test_from_corke_bad_dynamics_name_the_body_or_joint_and_value():
    with pytest.raises(KineTreeError, match=r"'link1'.*mass.*-2"):
        dh_chain([DHLink.from_corke(m=-2)])
    with pytest.raises(KineTreeError, match=r"'q1'.*gear ratio.*0"):
        dh_chain([DHLink.from_corke(G=0)])
    with pytest.raises(KineTreeError, match=r"'link1'.*nan"):
        dh_chain([DHLink.from_corke(I=[0.1, float("nan"), 0.1])])


# --- b. Corke's Puma link 1 inertia I = [0 0.35 0] loads, with a warning ------------------------------


def test_corkes_puma_link1_inertia_loads_with_a_warning_naming_body_and_inequality():
    from kinetree.core import PhysicsWarning, RigidBody
    # Corke's Puma560.py, link 1: RevoluteDH(..., I=[0, 0.35, 0, 0, 0, 0], r=[0, 0, 0], m=0)
    with pytest.warns(PhysicsWarning, match=r"'link1'.*Ixx \+ Izz ≥ Iyy \(0 \+ 0 < 0\.35\)"):
        body = dh_chain([DHLink.from_corke(d=0.67183, alpha=pi / 2, m=0, I=[0, 0.35, 0, 0, 0, 0])]).bodies[0]
    np.testing.assert_array_equal(body.inertia, [0, 0.35, 0, 0, 0, 0])
    b = RigidBody("shoulder")
    with pytest.warns(PhysicsWarning, match=r"'shoulder'.*Ixx \+ Izz ≥ Iyy"):
        b.inertia = [0, 0.35, 0]
    np.testing.assert_array_equal(b.inertia, [0, 0.35, 0, 0, 0, 0])
    with pytest.warns(PhysicsWarning, match=r"'shoulder'.*Corke inertia.*Ixx \+ Izz ≥ Iyy"):
        b.set_inertia_corke([0, 0.35, 0], m=0)


@pytest.mark.parametrize("value, match", [
    ([0, -0.35, 0], r"'b'.*principal moment -0\.35 < 0"),
    ([0.1, float("nan"), 0.1], r"'b'.*finite.*nan"),
    ([[1, 0.2, 0], [0, 1, 0], [0, 0, 1]], r"'b'.*symmetric"),
])
def test_truly_invalid_inertia_is_still_refused_by_both_setters(value, match):
    from kinetree.core import RigidBody
    b = RigidBody("b")
    with pytest.raises(KineTreeError, match=match):
        b.inertia = value
    with pytest.raises(KineTreeError, match=match):
        b.set_inertia_corke(value, m=0)
    np.testing.assert_array_equal(b.inertia, [1, 1, 1, 0, 0, 0])
