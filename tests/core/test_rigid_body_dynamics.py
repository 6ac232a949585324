"""Inverse/forward dynamics, mass matrix and velocity product against Pinocchio (library robots,
example-robot-data robots, mimic joints), Corke's motor and friction model by hand, and the
properties M = Mᵀ > 0 and forward ∘ inverse = identity."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.pinocchio_compare import (
    G,
    compare,
    compare_with_urdf_model,
    load_urdf,
    needs_robots,
    pin,
    pinocchio_model,
)
from helpers.trees import spherical_tree
from hypothesis import given, settings
from hypothesis import strategies as st
from kinetree.core import (
    InvalidConfigurationError,
    InvalidJointError,
    Joint,
    UnknownBodyError,
    forward_dynamics,
    import_robot,
    inverse_dynamics,
    list_robots,
    load_robot,
)
from kinetree.core.library import robot_info


@pytest.mark.parametrize("name", [n for n in list_robots() if robot_info(n)["convention"] != "loops"])
def test_library_robot_matches_pinocchio(name):  # (closed loops: random configurations are open)
    tree = load_robot(name)
    tree.gravity = G
    if any(b.joint.mimic is not None for b in tree.bodies):
        pytest.skip("mimic joints are compared on the URDF robots (Pinocchio's mimic models)")
    for b in tree.bodies:  # rigid-body part only here: motors are checked by hand below
        b.joint.motor_inertia, b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0, 0.0
    offsets = np.array([b.joint.offset for b, _ in tree._positions()])
    compare(tree, pinocchio_model(tree), lambda q: q + offsets)


@pytest.mark.parametrize("seed", range(3))
def test_floating_and_planar_joints_match_pinocchio(seed):
    """A floating joint's velocities [ω child frame, ṗ parent-side frame] and a planar joint's
    [ẋ ẏ θ̇] are those of Pinocchio chains prismatic·prismatic·prismatic·spherical and
    prismatic·prismatic·revolute."""
    tree = spherical_tree(seed, ["floating", "revolute", "planar", "fixed", "spherical", "prismatic", "revolute"])
    model = pinocchio_model(tree)
    order = []

    def idx(name):
        return model.joints[model.getJointId(name)].idx_v

    for b, _ in tree._positions():
        n, t = b.joint.name, b.joint.type
        order += ([idx(n), idx(n) + 1, idx(n) + 2, idx(n + "x"), idx(n + "y"), idx(n + "z")] if t == "floating"
                  else [idx(n + "x"), idx(n + "y"), idx(n)] if t == "planar"
                  else list(range(idx(n), idx(n) + model.joints[model.getJointId(n)].nv)))

    def to_pin(q):
        qp = pin.neutral(model)
        for b, i in tree._positions():
            n, t = b.joint.name, b.joint.type
            v = q[i : i + b.joint.position_count]
            jq = {nm: model.joints[model.getJointId(nm)].idx_q for nm in model.names}
            if t == "floating":
                qp[jq[n + "x"]], qp[jq[n + "y"]], qp[jq[n + "z"]] = v[4:7]
                qp[jq[n] : jq[n] + 4] = [*v[1:4], v[0]]
            elif t == "planar":
                qp[jq[n + "x"]], qp[jq[n + "y"]], qp[jq[n]] = v
            elif t == "spherical":
                qp[jq[n] : jq[n] + 4] = [*v[1:4], v[0]]
            else:
                qp[jq[n]] = v[0]
        return qp

    assert tree.dof_count == model.nv and sorted(order) == list(range(model.nv))
    compare(tree, model, to_pin, n=3, seed=seed, order=order)


@pytest.mark.parametrize("seed", range(4))
def test_spherical_joints_match_pinocchio(seed):
    """RBDL's and Pinocchio's spherical joint: 3 velocities, ω in the child frame, for 4 numbers."""
    tree = spherical_tree(seed)
    model = pinocchio_model(tree)

    def to_pin(q):
        qp = pin.neutral(model)
        for b, i in tree._positions():
            jm = model.joints[model.getJointId(b.joint.name)]
            v = q[i : i + b.joint.position_count]
            qp[jm.idx_q : jm.idx_q + jm.nq] = [*v[1:4], v[0]] if b.joint.type == "spherical" else v
        return qp

    assert tree.dof_count == model.nv
    compare(tree, model, to_pin, n=4, seed=seed)


@needs_robots
@pytest.mark.parametrize("key", ["panda", "baxter", "go2", "solo12", "allegro", "anymal", "g1"])
def test_real_robot_matches_pinocchio(key):
    """Real URDFs with the base fixed; Pinocchio's own mimic joints where the robot has them."""
    tree = load_urdf(key)
    tree.gravity = G
    for b in tree.bodies:  # URDF <dynamics> damping/friction are not part of Pinocchio's rnea
        if b.joint.type in ("revolute", "prismatic"):
            b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0
    compare_with_urdf_model(tree, key, mimic=True, n=2, seed=3)


@needs_robots
def test_talos_articulated_body_algorithm_matches_pinocchio():
    """44 dofs (Talos with its base fixed, the gripper's mimic joints released: ABA has no
    coupled joints) against Pinocchio's aba, both forward-dynamics methods."""
    tree = load_urdf("talos")
    tree.gravity = G
    for b in tree.bodies:
        b.joint.mimic = None
        if b.joint.type in ("revolute", "prismatic"):
            b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0
    from kinetree.core.dynamics.rigid_body import dynamics_plan

    assert tree.dof_count == 44 and dynamics_plan(tree).plain
    compare_with_urdf_model(tree, "talos", mimic=False, n=2, seed=5)


def test_forward_dynamics_method_is_checked():
    tree = load_robot("puma560")
    with pytest.raises(InvalidConfigurationError, match="method must be 'aba' or 'cholesky', got 'lu'"):
        tree.forward_dynamics(method="lu")


def test_batch_matches_single_calls():
    tree = load_robot("puma560")
    tree.gravity = G
    rng = np.random.default_rng(4)
    Q = np.stack([tree.random_configuration(rng) for _ in range(7)])
    QD, QDD = rng.normal(size=(7, 6)), rng.normal(size=(7, 6))
    tau = tree.inverse_dynamics(Q, QD, QDD)
    M = tree.mass_matrix(Q)
    qdd = tree.forward_dynamics(Q, QD, tau)
    for k in range(7):
        np.testing.assert_allclose(tau[k], tree.inverse_dynamics(Q[k], QD[k], QDD[k]), atol=1e-12)
        np.testing.assert_allclose(M[k], tree.mass_matrix(Q[k]), atol=1e-12)
    np.testing.assert_allclose(qdd, QDD, atol=1e-8)
    one_qd = [tree.inverse_dynamics(q, QD[0]) for q in Q]
    np.testing.assert_allclose(tree.inverse_dynamics(Q, QD[0]), one_qd, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(["puma560", "ur5", "kuka_lbr_iiwa14", "stanford", "scara"]), seed=st.integers(0, 10**6))
def test_forward_dynamics_inverts_inverse_dynamics(name, seed):
    tree = load_robot(name)
    tree.gravity = G
    rng = np.random.default_rng(seed)
    q = tree.random_configuration(rng)
    qd, qdd = rng.normal(size=tree.dof_count) * 3, rng.normal(size=tree.dof_count) * 3
    fext = tree.external_force(tree.bodies[-1].name, rng.normal(size=6), q)
    tau = inverse_dynamics(tree, q, qd, qdd, fext)
    np.testing.assert_allclose(forward_dynamics(tree, q, qd, tau, fext), qdd, atol=1e-7 * (1 + np.abs(qdd).max()))


def test_external_force_matches_a_jacobian_transpose():
    """A wrench on the tool costs −Jᵀ·w: MATLAB's externalForce, body frame with q."""
    tree = load_robot("ur5")
    q = tree.random_configuration(2)
    tool = tree.bodies[-1].name
    w = np.array([0.3, -0.2, 0.1, 5.0, -3.0, 2.0])
    fext = tree.external_force(tool, w, q)
    T = tree.forward_kinematics(q)[-1]
    J = tree.geometric_jacobian(q, tool)  # angular rows first, base frame, at the body origin
    w_base = np.concatenate([T[:3, :3] @ w[:3], T[:3, :3] @ w[3:]])
    extra = tree.inverse_dynamics(q, fext=fext) - tree.inverse_dynamics(q)
    np.testing.assert_allclose(extra, -J.T @ w_base, atol=1e-12)
    with pytest.raises(UnknownBodyError, match="nope"):
        tree.external_force("nope", w)
    with pytest.raises(InvalidConfigurationError, match="wrench"):
        tree.external_force(tool, [1, 2])


def test_fixed_bodies_are_merged():
    """A fixed child adds its inertia to its moving parent; the dynamics are those of the merged body."""
    tree = load_robot("puma560")
    tree.gravity = G
    rng = np.random.default_rng(0)
    q, qd, qdd = tree.random_configuration(rng), rng.normal(size=6), rng.normal(size=6)
    before = tree.inverse_dynamics(q, qd, qdd)
    from kinetree.core import RigidBody
    tip = RigidBody("tip")
    tip.mass, tip.center_of_mass, tip.inertia = 0.0, [0, 0, 0], [0] * 6
    tip.joint = Joint("tip_fixed", "fixed")
    tree.add_body(tip, tree.bodies[-1].name)
    np.testing.assert_allclose(tree.inverse_dynamics(q, qd, qdd), before, atol=1e-12)
    from kinetree.core.dynamics.rigid_body import dynamics_plan
    assert dynamics_plan(tree).nm == 6


def test_bad_input_is_refused():
    tree = load_robot("ur5")
    with pytest.raises(InvalidConfigurationError, match="qd must have shape"):
        tree.inverse_dynamics(tree.home_configuration(), [1, 2])
    with pytest.raises(InvalidConfigurationError, match="finite"):
        tree.inverse_dynamics(tree.home_configuration(), qdd=[np.nan] * 6)
    with pytest.raises(InvalidConfigurationError, match="fext"):
        tree.inverse_dynamics(fext=np.zeros((2, 6)))


# --- Corke's motor and friction model ------------------------------------------------------------

def test_puma_carries_corkes_motor_parameters():
    puma = load_robot("puma560")
    j1, j4 = puma.bodies[0].joint, puma.bodies[3].joint
    assert (j1.gear_ratio, j1.motor_inertia, j1.viscous_friction, j1.coulomb_friction) == (
        -62.6111, 200e-6, 1.48e-3, (0.395, -0.435))
    assert (j4.gear_ratio, j4.motor_inertia, j4.viscous_friction, j4.coulomb_friction) == (
        76.0364, 33e-6, 71.2e-6, (11.2e-3, -16.9e-3))


def test_friction_by_hand():
    """Corke's Link.friction: −|G|·(B·|G|·qd + Tc±), Tc by the sign of the joint velocity."""
    j = load_robot("puma560").bodies[0].joint
    g = 62.6111
    assert j.friction(0.5) == pytest.approx(-g * (1.48e-3 * g * 0.5 + 0.395))
    assert j.friction(-0.5) == pytest.approx(-g * (1.48e-3 * g * -0.5 - 0.435))
    assert j.friction(0.0) == 0.0
    assert j.nofriction("all").friction(0.5) == 0.0
    assert j.nofriction().friction(0.5) == pytest.approx(-g * g * 1.48e-3 * 0.5)  # Corke's default: Coulomb
    assert j.nofriction("viscous").friction(0.5) == pytest.approx(-g * 0.395)
    assert j.viscous_friction == 1.48e-3  # the original is unchanged
    with pytest.raises(InvalidJointError, match="nofriction takes"):
        j.nofriction("dry")


def test_motor_terms_in_mass_matrix_and_torque():
    """M gains G²·Jm on its diagonal; τ gains G²·Jm·qdd − friction(qd), as Corke's rne."""
    puma = load_robot("puma560")
    puma.gravity = G
    bare = load_robot("puma560")
    bare.gravity = G
    for b in bare.bodies:
        b.joint.motor_inertia, b.joint.viscous_friction, b.joint.coulomb_friction = 0.0, 0.0, 0.0
    rng = np.random.default_rng(7)
    q, qd, qdd = puma.random_configuration(rng), rng.normal(size=6), rng.normal(size=6)
    joints = [b.joint for b in puma.bodies]
    gm = np.array([j.gear_ratio ** 2 * j.motor_inertia for j in joints])
    np.testing.assert_allclose(puma.mass_matrix(q) - bare.mass_matrix(q), np.diag(gm), atol=1e-13)
    fr = np.array([j.friction(v) for j, v in zip(joints, qd)])
    np.testing.assert_allclose(puma.inverse_dynamics(q, qd, qdd) - bare.inverse_dynamics(q, qd, qdd),
                               gm * qdd - fr, atol=1e-12)
    # Corke's figure for joint 1: G²·Jm = 62.6111² · 200e-6 = 0.784
    assert gm[0] == pytest.approx(0.78402, abs=1e-5)
    np.testing.assert_allclose(puma.velocity_product(q, qd), bare.velocity_product(q, qd), atol=1e-12)


def test_motor_parameters_are_validated():
    j = Joint("wrist", "revolute")
    for attr, bad in [("gear_ratio", 0), ("gear_ratio", np.inf), ("motor_inertia", -1), ("viscous_friction", "x"),
                      ("coulomb_friction", (-0.1, 0.1)), ("coulomb_friction", (1, 2, 3))]:
        with pytest.raises(InvalidJointError, match="'wrist'"):
            setattr(j, attr, bad)
    j.coulomb_friction = 0.2
    assert j.coulomb_friction == (0.2, -0.2)
    with pytest.raises(InvalidJointError, match="'f'.*fixed joint has no motor inertia"):
        Joint("f", "fixed").motor_inertia = 1e-4


@pytest.mark.parametrize("name", ["puma560", "humanoid_upper_body", "quadruped", "stanford"])
def test_numpy_path_matches_the_compiled_one(name, monkeypatch):
    """Without numba the same plan runs through numpy: the same numbers."""
    from kinetree.core.dynamics import rigid_body as rbd

    tree = load_robot(name)
    tree.gravity = G
    rng = np.random.default_rng(9)
    Q = np.stack([tree.random_configuration(rng) for _ in range(3)])
    QD, QDD = rng.normal(size=(3, tree.dof_count)), rng.normal(size=(3, tree.dof_count))
    fext = tree.external_force(tree.bodies[-1].name, rng.normal(size=6))
    calls = [lambda: tree.inverse_dynamics(Q, QD, QDD, fext), lambda: tree.mass_matrix(Q[0]),
             lambda: tree.mass_matrix(Q), lambda: tree.velocity_product(Q[1], QD[1]),
             lambda: tree.forward_dynamics(Q[2], QD[2], QDD[2], fext), lambda: tree.forward_dynamics(Q, QD, QDD),
             lambda: tree.forward_dynamics(Q, QD, QDD, fext),
             lambda: tree.forward_dynamics(Q, QD, QDD, method="cholesky"),
             lambda: tree.geometric_jacobian(Q[0], tree.bodies[-1].name, space="velocities"),
             lambda: tree.gravity_torque(Q[1])]
    first = [c() for c in calls]
    monkeypatch.setattr(rbd, "_kernel", lambda: None)
    for c, ref in zip(calls, first):
        np.testing.assert_allclose(c(), ref, atol=1e-10, rtol=1e-10)


# --- files -----------------------------------------------------------------------------------------

def test_project_file_keeps_motor_parameters(tmp_path):
    puma = load_robot("puma560")
    path = tmp_path / "puma.kinetree.json"
    from kinetree.core import export_robot

    export_robot(puma, path)
    back = import_robot(path)
    for a, b in zip(puma.bodies, back.bodies):
        assert a.joint.motor_parameters() == b.joint.motor_parameters()
    q = puma.random_configuration(1)
    np.testing.assert_array_equal(back.inverse_dynamics(q, np.ones(6), np.ones(6)),
                                  puma.inverse_dynamics(q, np.ones(6), np.ones(6)))


def test_project_file_refuses_bad_motor_parameters(tmp_path):
    import json

    from kinetree.core import FileFormatError, KineTreeError, export_robot

    path = tmp_path / "puma.kinetree.json"
    export_robot(load_robot("puma560"), path)
    doc = json.loads(path.read_text())
    first = next(b for b in doc["bodies"] if "motor" in b["joint"])
    first["joint"]["motor"]["motor_inertia"] = -1.0
    path.write_text(json.dumps(doc))
    with pytest.raises(KineTreeError, match="motor inertia"):
        import_robot(path)
    first["joint"]["motor"]["coulomb_friction"] = "lots"
    path.write_text(json.dumps(doc))
    with pytest.raises(FileFormatError, match="coulomb_friction"):
        import_robot(path)


URDF_DYN = """<?xml version="1.0"?>
<robot name="r"><link name="base"/><link name="l1"/>
<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/>
<limit lower="-1" upper="1" effort="10" velocity="1"/><dynamics damping="0.7" friction="0.25"/></joint>
</robot>"""


def test_urdf_dynamics_map_to_friction_and_back(tmp_path):
    src = tmp_path / "r.urdf"
    src.write_text(URDF_DYN)
    tree = import_robot(src)
    j = tree.bodies[0].joint
    assert (j.viscous_friction, j.coulomb_friction, j.gear_ratio) == (0.7, (0.25, -0.25), 1.0)
    assert not any(e.startswith("<dynamics") for e in j.extensions)
    assert j.friction(2.0) == pytest.approx(-(0.7 * 2.0 + 0.25))
    out = tmp_path / "out.urdf"
    from kinetree.core import export_robot

    export_robot(tree, out)
    assert out.read_text().count("<dynamics") == 1
    again = import_robot(out).bodies[0].joint
    assert (again.viscous_friction, again.coulomb_friction) == (0.7, (0.25, -0.25))
    j.gear_ratio = 2.0  # URDF holds the link side: B·G², |G|·Tc, and says what it cannot hold
    with pytest.warns(UserWarning, match="gear ratio"):
        export_robot(tree, out)
    again = import_robot(out).bodies[0].joint
    assert (again.viscous_friction, again.coulomb_friction) == (pytest.approx(2.8), (0.5, -0.5))


# --- integrate / difference (RBDL's velocity convention) ------------------------------------------

def test_integrate_and_difference_are_inverse_and_keep_quaternions_unit():
    tree = spherical_tree(5, ["floating", "revolute", "planar", "spherical", "prismatic"])
    rng = np.random.default_rng(0)
    q0 = tree.random_configuration(rng)
    v = rng.normal(size=tree.dof_count)
    q1 = tree.integrate(q0, v, 0.3)
    assert np.linalg.norm(q1[:4]) == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_allclose(tree.difference(q0, q1), 0.3 * v, atol=1e-12)
    np.testing.assert_allclose(tree.integrate(q0, tree.difference(q0, q1)), q1, atol=1e-12)
    Q = np.stack([q0, q1])
    np.testing.assert_allclose(tree.integrate(Q, v, 0.3)[0], q1, atol=1e-15)  # batches


def test_velocities_are_the_child_frame_angular_velocity():
    """Moving by integrate for a tiny dt, the child's rotation changes by exp(ω·dt) on the right:
    ω is in the child frame (RBDL), so the kinetic energy ½ qdᵀ M qd equals the bodies' energy
    from finite differences of their poses."""
    tree = spherical_tree(6, ["floating", "revolute", "spherical", "planar", "prismatic"])
    tree.gravity = [0, 0, 0]
    rng = np.random.default_rng(1)
    q, v = tree.random_configuration(rng), rng.normal(size=tree.dof_count)
    h = 1e-6
    Ta, Tb = tree.forward_kinematics(tree.integrate(q, v, -h)), tree.forward_kinematics(tree.integrate(q, v, h))
    T = tree.forward_kinematics(q)
    energy = 0.0
    for b, A, B, T0 in zip(tree.bodies, Ta, Tb, T):
        R = T0[:3, :3]
        W = R.T @ (B[:3, :3] - A[:3, :3]) / (2 * h)  # body-frame angular velocity, skew
        w = np.array([W[2, 1], W[0, 2], W[1, 0]])
        vo = R.T @ (B[:3, 3] - A[:3, 3]) / (2 * h)  # body origin's velocity, body frame
        i = np.asarray(b.inertia)
        I = np.array([[i[0], i[5], i[4]], [i[5], i[1], i[3]], [i[4], i[3], i[2]]])
        c = np.asarray(b.center_of_mass)
        energy += 0.5 * (w @ I @ w + b.mass * vo @ vo) + b.mass * vo @ np.cross(w, c)
    assert 0.5 * v @ tree.mass_matrix(q) @ v == pytest.approx(energy, rel=1e-6)


def test_rebuilding_a_dh_chain_keeps_the_motors():
    from kinetree.core import chain_dh_table, rebuild_chain

    puma = load_robot("puma560")
    links = [e.link for e in chain_dh_table(puma)]
    new = rebuild_chain(puma, links)
    assert [b.joint.motor_parameters() for b in new.bodies] == [b.joint.motor_parameters() for b in puma.bodies]


def test_forward_dynamics_of_a_massless_joint_is_refused():
    from kinetree.core import InvalidPropertyError

    tree = load_robot("two_link_planar")
    for b in tree.bodies:
        b.mass, b.inertia = 0.0, [0] * 6
    with pytest.raises(InvalidPropertyError, match="singular"):
        tree.forward_dynamics([0.1, 0.2], [0, 0], [1, 1])
    with pytest.raises(InvalidPropertyError, match="singular"):
        tree.forward_dynamics(np.zeros((3, 2)))


# --- Corke's dyn table -------------------------------------------------------------------------------

def test_dyn_prints_corkes_link_parameters():
    """Link.dyn for one body, robot.dynamics() for all, in show_details(dynamics=True); I is
    about the centre of mass as Corke's (KineTree stores it about the origin), '-' for a joint
    without a motor."""
    puma = load_robot("puma560")
    text = puma.dyn("link2")
    for line in ["m     = 17.4", "r     = -0.3638  0.006  0.2275", "I     = |     0  0.524      0 |", "Jm    = 0.0002",
                 "B     = 0.000817", "Tc    = 0.126(+)  -0.071(-)", "G     = 107.815", "qlim  = -0.785398 to 3.92699"]:
        assert line in text.splitlines()
    row = next(line for line in puma.dyn().splitlines() if line.startswith("link4"))
    cells = [c.strip() for c in row.split("|")]
    assert cells == ["link4", "0.82", "0, 0.019, 0", "0.0018, 0.0013, 0.0018, 0, 0, 0", "3.3e-05", "7.12e-05",
                     "0.0112, -0.0169", "76.0364", "-1.91986 to 2.96706"]
    details = puma.show_details(dynamics=True)
    assert details.startswith(puma.show_details()) and puma.dyn() in details
    from kinetree.core import RigidBody

    tip = RigidBody("tip")
    tip.joint = Joint("tip_fixed", "fixed")
    puma.add_body(tip, "link6")
    assert [c.strip() for c in puma.dyn().splitlines()[-2].split("|")][4:] == ["-"] * 5
