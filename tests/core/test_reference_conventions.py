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
    with pytest.raises(KineTreeError, match=r"from_corke: unknown keyword 'mass'; Corke's are theta d a alpha"):
        DHLink.from_corke(mass=2)  # MATLAB's name, not Corke's m


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


# --- Corke's Puma 560 through from_corke against roboticstoolbox's own numbers ------------------------

_DEG = pi / 180
#: Corke's models/DH/Puma560.py (roboticstoolbox-python 1.5.0), link by link, with his keywords.
CORKE_PUMA560 = [
    dict(d=26.45 * 0.0254, a=0, alpha=pi / 2, I=[0, 0.35, 0, 0, 0, 0], r=[0, 0, 0], m=0, Jm=200e-6, G=-62.6111,
         B=1.48e-3, Tc=[0.395, -0.435], qlim=[-160 * _DEG, 160 * _DEG]),
    dict(d=0, a=0.4318, alpha=0, I=[0.13, 0.524, 0.539, 0, 0, 0], r=[-0.3638, 0.006, 0.2275], m=17.4, Jm=200e-6,
         G=107.815, B=0.817e-3, Tc=[0.126, -0.071], qlim=[-45 * _DEG, 225 * _DEG]),
    dict(d=0.15005, a=0.0203, alpha=-pi / 2, I=[0.066, 0.086, 0.0125, 0, 0, 0], r=[-0.0203, -0.0141, 0.070], m=4.8,
         Jm=200e-6, G=-53.7063, B=1.38e-3, Tc=[0.132, -0.105], qlim=[-225 * _DEG, 45 * _DEG]),
    dict(d=0.4318, a=0, alpha=pi / 2, I=[1.8e-3, 1.3e-3, 1.8e-3, 0, 0, 0], r=[0, 0.019, 0], m=0.82, Jm=33e-6,
         G=76.0364, B=71.2e-6, Tc=[11.2e-3, -16.9e-3], qlim=[-110 * _DEG, 170 * _DEG]),
    dict(d=0, a=0, alpha=-pi / 2, I=[0.3e-3, 0.4e-3, 0.3e-3, 0, 0, 0], r=[0, 0, 0], m=0.34, Jm=33e-6, G=71.923,
         B=82.6e-6, Tc=[9.26e-3, -14.5e-3], qlim=[-100 * _DEG, 100 * _DEG]),
    dict(d=0, a=0, alpha=0, I=[0.15e-3, 0.15e-3, 0.04e-3, 0, 0, 0], r=[0, 0, 0.032], m=0.09, Jm=33e-6, G=76.686,
         B=36.7e-6, Tc=[3.96e-3, -10.5e-3], qlim=[-266 * _DEG, 266 * _DEG]),
]

# Reference numbers computed by roboticstoolbox-python 1.5.0 (pip-installed, not a test dependency):
# puma = rtb.models.DH.Puma560(); puma.rne(Q, QD, QDD), puma.inertia(Q), puma.coriolis(Q, QD),
# puma.jacobe(Q), puma.nofriction().rne(Q, QD, QDD), puma.nofriction(True, True).rne(Q, QD, QDD);
# gravity [0 0 -9.81], motor inertia and friction included, printed with repr.
Q = [0.1, -0.4, 0.7, 0.3, -1.2, 2.0]
QD = [0.5, -0.3, 0.8, -1.1, 0.4, 0.9]
QDD = [0.2, -0.5, 0.3, 0.7, -0.6, 0.1]
RNE = [27.90595270527978, 19.83009842529431, 8.23499442353923, -1.6053783134506787, 0.7558989454776757,
       0.517364735502172]
RNE_NOFRICTION = [3.174568205279781, 27.484963425294307, 1.14576282353923, -0.3203631534506788, 0.0898919654776758,
                  0.2136881755021719]
RNE_NOFRICTION_ALL = [0.2736573213043809, 30.334024017841806, -2.03857796875853, 0.13244659921618837,
                      -0.08102124289648421, 0.019447247556291885]
INERTIA = [
    [3.5341942240613013, 0.113530708799114, -0.1333108372676201, 0.002343930062719057, -0.00029514521359948003,
     2.4372320494794996e-05],
    [0.11353070879911409, 3.9551879939591914, 0.1212663329568402, 0.00014204238732392087, 0.001707637239742394,
     -1.1017455332059229e-05],
    [-0.13331083726762005, 0.12126633295684018, 0.937146850892489, 0.0003627051632226539, 0.0010984655444692046,
     -1.1017455332059229e-05],
    [0.0023439300627190584, 0.00014204238732392122, 0.0003627051632226545, 0.19260624188044692,
     2.3161655190448824e-20, 1.4494310179066946e-05],
    [-0.00029514521359948003, 0.001707637239742394, 0.0010984655444692044, 4.5248114379090444e-20,
     0.17134845165700002, 2.4492935982947065e-21],
    [2.4372320494795006e-05, -1.1017455332059229e-05, -1.1017455332059229e-05, 1.4494310179066946e-05,
     2.4492935982947065e-21, 0.19410450566800005],
]
CORIOLIS = [
    [-0.2890069956655927, 0.34642601513432253, -0.11189721287433507, 0.00015734647095919346,
     -0.0003375440357211245, 1.5531191947733513e-05],
    [-0.13554648841692035, -0.24156999490020503, -0.15082411415954364, -0.00024405998347798246,
     0.00010359888210209023, 1.3010132860816422e-05],
    [0.12883383598591996, -0.09018465676559412, 0.0005612239750671543, -0.0007164610357841176,
     0.0011332141013134021, 1.3010132860815036e-05],
    [-0.0006215341915750771, -0.0004719570139920662, -0.0006089646131318745, -2.7310327316043997e-05,
     6.18777736431964e-05, 1.7174392338048556e-05],
    [0.00018704208874680418, -0.0006922498233704234, -0.0003435345533038843, -6.18777736431963e-05,
     -6.6068569885835425e-21, 1.155292291894631e-05],
    [1.5531191947732906e-05, 2.7881293472089545e-05, 2.7881293472089545e-05, -2.261766962572929e-06,
     -1.1552922918946345e-05, 0.0],
]
JACOBE = [
    [0.16221536237076017, 0.19938282556297707, 0.1861098230113133, 0.0, 0.0, 0.0],
    [-0.2083576113691765, 0.3265637362454848, 0.100021324876967, 0.0, 0.0, 0.0],
    [0.19131022299939265, -0.009763266962084238, -0.3771235849805125, 0.0, 0.0, 0.0],
    [0.2485584033786112, -0.824122327453002, -0.824122327453002, 0.38786511716355127, -0.9092974268256817, 0.0],
    [0.75296910040967, 0.4949314984391747, 0.4949314984391747, 0.8475007425709592, 0.4161468365471424, 0.0],
    [0.609308012369875, -0.2754363833014807, -0.2754363833014807, 0.3623577544766736, 6.123233995736766e-17, 1.0],
]


@pytest.fixture(scope="module")
def corke_puma():
    from kinetree.core import PhysicsWarning
    with pytest.warns(PhysicsWarning) as record:  # links 1 and 3 break the triangle inequality, as published
        tree = dh_chain([DHLink.from_corke(**link) for link in CORKE_PUMA560])
    assert sorted({str(w.message).split("'")[1] for w in record}) == ["link1", "link3"]
    tree.gravity = [0, 0, -9.81]
    return tree


def test_corkes_puma_via_from_corke_gives_roboticstoolbox_numbers(corke_puma):
    np.testing.assert_allclose(corke_puma.inverse_dynamics(Q, QD, QDD), RNE, rtol=0, atol=1e-9)
    np.testing.assert_allclose(corke_puma.mass_matrix(Q), INERTIA, rtol=0, atol=1e-9)
    np.testing.assert_allclose(corke_puma.coriolis(Q, QD), CORIOLIS, rtol=0, atol=1e-9)
    np.testing.assert_allclose(corke_puma.jacobe(Q, "link6"), JACOBE, rtol=0, atol=1e-9)
    np.testing.assert_allclose(corke_puma.nofriction().inverse_dynamics(Q, QD, QDD), RNE_NOFRICTION, rtol=0, atol=1e-9)
    np.testing.assert_allclose(corke_puma.nofriction(coulomb=True, viscous=True).inverse_dynamics(Q, QD, QDD),
                               RNE_NOFRICTION_ALL, rtol=0, atol=1e-9)


# --- c. nofriction, coriolis, jacobe, add_subtree(replace_base=False), one-line reprs ---------------


def test_tree_nofriction_has_corkes_defaults_and_returns_a_copy(corke_puma):
    bare = corke_puma.nofriction()  # Corke: coulomb=True, viscous=False
    assert [b.joint.coulomb_friction for b in bare.bodies] == [(0.0, 0.0)] * 6
    assert [b.joint.viscous_friction for b in bare.bodies] == [link["B"] for link in CORKE_PUMA560]
    assert corke_puma.bodies[0].joint.coulomb_friction == (0.395, -0.435)  # the original is untouched
    viscous_only = corke_puma.nofriction(coulomb=False, viscous=True)
    assert [b.joint.viscous_friction for b in viscous_only.bodies] == [0.0] * 6
    assert viscous_only.bodies[2].joint.coulomb_friction == (0.132, -0.105)
    with pytest.raises(KineTreeError, match=r"coulomb must be True or False, got 'all'"):
        corke_puma.nofriction("all")


def test_coriolis_times_qd_is_the_velocity_product_and_mdot_minus_2c_is_skew(corke_puma):
    rng = np.random.default_rng(7)
    q, qd = rng.uniform(-2, 2, 6), rng.normal(size=6)
    C = corke_puma.coriolis(q, qd)
    bare = corke_puma.nofriction(coulomb=True, viscous=True)
    bare.gravity = [0, 0, 0]
    zeros = np.zeros(6)
    # C q̇ = rne(q, q̇, 0) − rne(q, 0, 0), gravity 0 (the velocity-product torques)
    np.testing.assert_allclose(C @ qd, bare.inverse_dynamics(q, qd, zeros) - bare.inverse_dynamics(q, zeros, zeros),
                               rtol=0, atol=1e-12)
    h = 1e-6  # Ṁ by central differences along q̇
    Mdot = (corke_puma.mass_matrix(q + h * qd) - corke_puma.mass_matrix(q - h * qd)) / (2 * h)
    N = Mdot - 2 * C
    np.testing.assert_allclose(N, -N.T, rtol=0, atol=1e-8)
    assert np.abs(N).max() > 1e-2  # not trivially zero


def test_jacobe_is_the_base_jacobian_turned_into_the_body_frame_velocity_rows_first(corke_puma):
    J0 = corke_puma.geometric_jacobian(Q, "link6")  # MATLAB's: base frame, [ω; v]
    R = corke_puma.get_transform(Q, "link6")[:3, :3]
    Je = corke_puma.jacobe(Q, "link6")
    np.testing.assert_allclose(Je[:3], R.T @ J0[3:], atol=1e-15)
    np.testing.assert_allclose(Je[3:], R.T @ J0[:3], atol=1e-15)
    # an independent check: the body-frame twist of a small motion equals Je q̇
    qd, h = np.array(QD), 1e-6
    T1, T2 = (corke_puma.get_transform(np.array(Q) + s * h * qd, "link6") for s in (-1, 1))
    T = corke_puma.get_transform(Q, "link6")
    dT = np.linalg.inv(T) @ (T2 - T1) / (2 * h)  # [ω]× and v in the body frame
    np.testing.assert_allclose(Je @ qd, [*dT[:3, 3], dT[2, 1], dT[0, 2], dT[1, 0]], atol=1e-8)


def _arm():
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    arm = RigidBodyTree("arm_base")
    arm.base.mass, arm.base.center_of_mass = 2.5, [0, 0, 0.1]
    arm.base.add_visual("box", [0.2, 0.2, 0.1])
    b = RigidBody("upper")
    b.joint = Joint("shoulder", "revolute")
    b.joint.set_fixed_transform([0.3, 0, 0.2, 0], "dh")
    arm.add_body(b, "arm_base")
    return arm


def test_add_subtree_replace_base_false_adds_the_base_as_a_fixed_body():
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    robot = RigidBodyTree("world")
    mount = RigidBody("mount")
    mount.joint = Joint("slide", "prismatic")
    robot.add_body(mount, "world")
    replaced = robot.copy()
    replaced.add_subtree("mount", _arm())  # MATLAB's default ReplaceBase=true: 'upper' hangs on 'mount'
    assert replaced.body_names == ["mount", "upper"] and replaced.parent_name("upper") == "mount"
    robot.add_subtree("mount", _arm(), replace_base=False)
    assert robot.body_names == ["mount", "arm_base", "upper"]
    assert (robot.parent_name("arm_base"), robot.parent_name("upper")) == ("mount", "arm_base")
    base = robot.get_body("arm_base")
    assert (base.joint.name, base.joint.type) == ("arm_base_jnt", "fixed")
    np.testing.assert_array_equal(base.joint.joint_to_parent_transform, np.eye(4))
    assert base.mass == 2.5 and len(base.visuals) == 1
    np.testing.assert_array_equal(base.center_of_mass, [0, 0, 0.1])
    q = [0.2, 0.7]
    np.testing.assert_allclose(robot.get_transform(q, "upper"), replaced.get_transform(q, "upper"), atol=1e-15)
    assert robot.mass == pytest.approx(replaced.mass + 2.5)
    with pytest.raises(KineTreeError, match="'arm_base' already exists"):
        robot.add_subtree("upper", _arm(), replace_base=False)
    with pytest.raises(KineTreeError, match="replace_base must be True or False, got 'no'"):
        robot.add_subtree("upper", _arm(), replace_base="no")


def test_reprs_are_one_line_with_names_as_repr_strings(corke_puma):
    from kinetree.core import Joint, RigidBody
    body = corke_puma.get_body("link2")
    assert repr(body) == ("RigidBody('link2', joint=Joint('q2', type='revolute', axis=[0 0 1], "
                          "limits=[-0.785398 3.92699], home=0), mass=17.4, com=[-0.3638 0.006 0.2275], "
                          "parent='link1')")
    assert repr(Joint("j 'x'")) == "Joint(\"j 'x'\", type='fixed')"
    link = DHLink.from_corke(**CORKE_PUMA560[2])
    assert repr(link) == ("DHLink('R', a=0.0203, alpha=-1.5708, d=0.15005, theta=0, qlim=[-3.92699 0.785398], "
                          "convention='dh', m=4.8, r=[-0.0203 -0.0141 0.07], I=[0.066 0.086 0.0125 0 0 0], "
                          "G=-53.7063, B=0.00138, Jm=0.0002, Tc=[0.132 -0.105])")
    odd = DHLink("R", a=1, name="two\nlines", r=list(range(100)))
    for obj in (odd, RigidBody("b"), Joint("f", "floating"), corke_puma.bodies[0].joint):
        assert "\n" not in repr(obj) and len(repr(obj)) < 300
    assert "name='two\\nlines'" in repr(odd)


# --- d. RBDL's q layout: quaternion w last, after all other coordinates ---------------------------------


def _rbdl_doc_model():
    """RBDL's documented example: joints TX, Spherical, TY, Spherical."""
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    tree, parent = RigidBodyTree(), "base"
    for name, kind in (("tx", "prismatic"), ("s1", "spherical"), ("ty", "prismatic"), ("s2", "spherical")):
        b = RigidBody(name)
        b.joint = Joint(f"j_{name}", kind)
        tree.add_body(b, parent)
        parent = name
    return tree


def test_to_rbdl_q_follows_rbdls_documented_layout():
    tree = _rbdl_doc_model()
    tx, ty = 0.1, 0.2
    q1, q2 = [0.5, 0.5, -0.5, 0.5], [0.1, 0.2, 0.3, 0.9]  # [w x y z]
    q = np.array([tx, *q1, ty, *q2])  # KineTree: w first, inline
    # RBDL: q = (q_tx, q1x, q1y, q1z, q_ty, q2x, q2y, q2z, q1w, q2w)
    expected = [tx, 0.5, -0.5, 0.5, ty, 0.2, 0.3, 0.9, 0.5, 0.1]
    np.testing.assert_array_equal(tree.to_rbdl_q(q), expected)
    np.testing.assert_array_equal(tree.from_rbdl_q(expected), q)
    np.testing.assert_array_equal(tree.to_rbdl_q(np.stack([q, q])), [expected, expected])  # batches
    np.testing.assert_array_equal(tree.get_quaternion("s2", q), q2)
    q_new = tree.set_quaternion("s1", [0, 0, 1, 0], q)
    np.testing.assert_array_equal(q_new, [tx, 0, 0, 1, 0, ty, *q2])
    np.testing.assert_array_equal(q, [tx, *q1, ty, *q2])  # a copy: the given q is unchanged
    qd = [1.0, 2, 3, 4, 5, 6, 7, 8]  # ω inline in both: velocities need no conversion here
    np.testing.assert_array_equal(tree.to_rbdl_qd(qd), qd)


def test_floating_joint_in_rbdls_layout_is_translation_first_with_w_last():
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    tree = RigidBodyTree()
    trunk = RigidBody("trunk")
    trunk.joint = Joint("free", "floating")
    tree.add_body(trunk, "base")
    arm = RigidBody("arm")
    arm.joint = Joint("elbow", "revolute")
    tree.add_body(arm, "trunk")
    q = [0.6, 0.0, 0.8, 0.0, 1.0, 2.0, 3.0, 0.25]  # [qw qx qy qz x y z] then the elbow
    np.testing.assert_array_equal(tree.to_rbdl_q(q), [1.0, 2.0, 3.0, 0.0, 0.8, 0.0, 0.25, 0.6])
    np.testing.assert_array_equal(tree.from_rbdl_q(tree.to_rbdl_q(q)), q)
    # velocities: KineTree [ω ṗ], RBDL's floating base [ṗ ω] (TranslationXYZ, then Spherical)
    qd = [0.1, 0.2, 0.3, 1.0, 2.0, 3.0, 9.0]
    np.testing.assert_array_equal(tree.to_rbdl_qd(qd), [1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 9.0])
    np.testing.assert_array_equal(tree.from_rbdl_qd(tree.to_rbdl_qd(qd)), qd)
    # the same pose either way: the RBDL vector read back gives the same forward kinematics
    np.testing.assert_allclose(tree.forward_kinematics(tree.from_rbdl_q(tree.to_rbdl_q(q))),
                               tree.forward_kinematics(q), atol=0)
    np.testing.assert_array_equal(tree.get_quaternion("trunk", q), [0.6, 0.0, 0.8, 0.0])


def test_quaternion_helpers_refuse_bad_bodies_and_values():
    tree = _rbdl_doc_model()
    q = tree.home_configuration()
    with pytest.raises(KineTreeError, match=r"body 'tx': its joint 'j_tx' is prismatic, it has no quaternion"):
        tree.get_quaternion("tx", q)
    with pytest.raises(KineTreeError, match=r"body 's1': quaternion .*non-zero length, got \[0.0, 0.0, 0.0, 0.0\]"):
        tree.set_quaternion("s1", [0, 0, 0, 0], q)
    with pytest.raises(KineTreeError, match=r"body 's1': quaternion must be 4 numbers"):
        tree.set_quaternion("s1", [1, 0, 0], q)
    with pytest.raises(KineTreeError, match="no body"):
        tree.get_quaternion("nope", q)
    with pytest.raises(KineTreeError, match=r"RBDL q must have 10 numbers"):
        tree.from_rbdl_q([0.0] * 9)
    with pytest.raises(KineTreeError):
        tree.from_rbdl_q([float("nan")] * 10)


# --- e. forward dynamics at an Euler-joint singularity names the joint and its angle ---------------


def _ball(kind, rows=None):
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    tree = RigidBodyTree(gravity=[0, 0, -9.81])
    b = RigidBody("thigh")
    b.joint = Joint("hip", kind, rows)
    b.mass, b.center_of_mass, b.inertia = 2.0, [0.1, 0.2, -0.5], [0.6, 0.6, 0.1]
    tree.add_body(b, "base")
    return tree


@pytest.mark.parametrize("kind", ["euler_zyx", "euler_xyz", "euler_yxz"])
@pytest.mark.parametrize("method", ["aba", "cholesky"])
def test_forward_dynamics_at_an_euler_singularity_names_the_joint_and_angle(kind, method):
    tree = _ball(kind)
    q = [0.3, -pi / 2, 0.2]  # RBDL: the singularity of ZYX (…) angles is a ±90° middle rotation
    with pytest.raises(KineTreeError, match=rf"joint 'hip' \({kind}\) is at its Euler-angle singularity: "
                                            r"angle hip\.1 = -1\.5708 rad \(-90°\)") as info:
        tree.forward_dynamics(q, [0.1, 0.2, 0.3], [1, 2, 3], method=method)
    assert "massless" not in str(info.value) and "moves no mass" not in str(info.value)
    with pytest.raises(KineTreeError, match=r"singularity \(configuration 1\): angle hip\.1 = 1\.5708"):
        tree.forward_dynamics([[0, 0, 0], [0, pi / 2, 0]], method=method)
    # away from it: the accelerations invert the inverse dynamics
    q = [0.3, 0.4, 0.2]
    qdd = tree.forward_dynamics(q, [0.1, 0.2, 0.3], [1, 2, 3], method=method)
    np.testing.assert_allclose(tree.inverse_dynamics(q, [0.1, 0.2, 0.3], qdd), [1, 2, 3], atol=1e-9)


def test_a_custom_joint_with_lined_up_rotations_names_its_angles_and_massless_joints_still_say_so():
    from kinetree.core import Joint, RigidBody
    # Rz·Ry·Rz (ZYZ Euler angles): singular at a middle angle of 0
    tree = _ball("custom", [[0, 0, 1, 0, 0, 0], [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]])
    with pytest.raises(KineTreeError, match=r"joint 'hip' \(custom\) is at its Euler-angle singularity: "
                                            r"angle hip\.0 = 0\.3 rad .*angle hip\.1 = 0 rad"):
        tree.forward_dynamics([0.3, 0.0, 0.2])
    assert np.all(np.isfinite(tree.forward_dynamics([0.3, 0.5, 0.2])))
    # a joint that moves no mass is still the reason given when there is no Euler joint at fault
    empty = RigidBody("empty")
    empty.joint = Joint("spin", "revolute")
    empty.mass, empty.inertia = 0.0, [0, 0, 0]
    tree.add_body(empty, "thigh")
    with pytest.raises(KineTreeError, match="moves no mass"):
        tree.forward_dynamics([0.3, 0.5, 0.2, 0.0], method="cholesky")
