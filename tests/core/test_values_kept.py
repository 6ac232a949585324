"""Issue 17, "values that change without a word": the engine side."""

from __future__ import annotations

import numpy as np
from kinetree.core import extract_dh, load_robot


def _puma_with_base():
    puma = load_robot("puma560")
    puma.gravity = (0, 0, -9.81)
    puma.base.mass = 5.0
    puma.base.center_of_mass = [0.01, 0.02, -0.1]
    puma.base.inertia = [0.3, 0.4, 0.5, 0.01, 0.02, 0.03]
    puma.base.add_visual("box", [0.2, 0.2, 0.1])
    return puma


def test_dh_chain_keeps_gravity_and_base_mass_properties():
    puma = _puma_with_base()
    qn = [0, 0.7854, 3.1416, 0, 0.7854, 0]
    for convention in ("dh", "mdh"):
        chain = extract_dh(puma, convention=convention).to_tree()
        np.testing.assert_array_equal(chain.gravity, [0, 0, -9.81])
        assert chain.base.mass == 5.0
        np.testing.assert_array_equal(chain.base.center_of_mass, [0.01, 0.02, -0.1])
        np.testing.assert_array_equal(chain.base.inertia, [0.3, 0.4, 0.5, 0.01, 0.02, 0.03])
        assert chain.base.visuals == puma.base.visuals
        assert abs(chain.mass - puma.mass) < 1e-12  # 28.45 kg, not 24.45
        np.testing.assert_allclose(chain.gravity_torque(qn), puma.gravity_torque(qn), atol=1e-9)


def test_dh_chain_keeps_the_mass_of_fixed_bodies_before_the_first_joint():
    from kinetree.core import Joint, RigidBody, RigidBodyTree
    tree = RigidBodyTree(gravity=(0, 0, -9.81))
    pedestal = RigidBody("pedestal")
    pedestal.joint = Joint("fix", "fixed")
    pedestal.joint.set_fixed_transform(np.array([[1, 0, 0, 0.1], [0, 1, 0, 0], [0, 0, 1, 0.5], [0, 0, 0, 1.0]]))
    pedestal.mass, pedestal.center_of_mass = 7.0, [0, 0, 0.2]
    tree.add_body(pedestal, "base")
    arm = RigidBody("arm")
    arm.joint = Joint("q1", "revolute")
    tree.add_body(arm, "pedestal")
    chain = extract_dh(tree, "arm").to_tree()
    assert abs(chain.mass - tree.mass) < 1e-12
    np.testing.assert_allclose(chain.center_of_mass([0.3]), tree.center_of_mass([0.3]), atol=1e-12)


# --- DH rows in Corke's order ------------------------------------------------------------------

def test_corke_positional_row_is_refused_naming_both_orders():
    from math import pi

    import pytest
    from kinetree.core import DHLink, KineTreeError
    for args in (("R", 0, 1.2, 0.3, pi / 2), ("R", 0, 1.2, 0.3, pi / 2, 0.0)):
        with pytest.raises(KineTreeError, match=r"\[a α d θ\].*\[θ d a α\].*from_corke"):
            DHLink(*args)
    with pytest.raises(KineTreeError, match="from_corke"):
        DHLink([0, 1.2, 0.3, pi / 2])  # Corke's Link([...]) form
    with pytest.raises(KineTreeError, match="from_corke"):
        DHLink(*[0, 1.2, 0.3, pi / 2])
    assert DHLink("R", a=0.3, alpha=pi / 2, d=1.2).a == 0.3  # the keyword form in resources/guide/scripting.md


def test_from_corke_builds_corkes_link():
    from math import pi

    import pytest
    from kinetree.core import DHLink, KineTreeError, dh_chain
    from kinetree.core.transforms import dh_transform, mdh_transform
    q = 0.4
    link = DHLink.from_corke([0, 1.2, 0.3, pi / 2])  # Corke: L = Link([0 1.2 0.3 pi/2]); L.A(q)
    assert (link.joint, link.theta, link.d, link.a, link.alpha) == ("R", 0.0, 1.2, 0.3, pi / 2)
    np.testing.assert_allclose(dh_chain([link]).get_transform([q], "link1"), dh_transform(0.3, pi / 2, 1.2, q),
                               atol=1e-15)
    prismatic = DHLink.from_corke([0.2, 0, 0.3, -pi / 2, 1, 0.05], convention="modified", qlim=(0, 1))
    assert (prismatic.joint, prismatic.offset, prismatic.qlim, prismatic.convention) == ("P", 0.05, (0, 1), "mdh")
    np.testing.assert_allclose(dh_chain([prismatic]).get_transform([q], "link1"),
                               mdh_transform(0.3, -pi / 2, q + 0.05, 0.2), atol=1e-15)
    assert DHLink.from_corke([0, 1.2, 0.3, pi / 2, 0]).joint == "R"
    with pytest.raises(KineTreeError, match="σ must be 0"):
        DHLink.from_corke([0, 1.2, 0.3, pi / 2, 2])
    with pytest.raises(KineTreeError, match="expected 4, 5 or 6"):
        DHLink.from_corke([0, 1.2, 0.3])
    with pytest.raises(KineTreeError, match="both conventions"):
        dh_chain([prismatic], "dh")


# --- inertia orders --------------------------------------------------------------------------------

def test_inertia_takes_principal_matlab_six_or_matrix_and_refuses_unphysical():
    import pytest
    from kinetree.core import KineTreeError, PhysicsWarning, RigidBody
    b = RigidBody("b")
    b.inertia = [1, 2, 2.5]
    np.testing.assert_array_equal(b.inertia, [1, 2, 2.5, 0, 0, 0])
    b.inertia = [[1, 0.3, 0.2], [0.3, 2, 0.1], [0.2, 0.1, 2.5]]  # Ixy 0.3, Ixz 0.2, Iyz 0.1
    np.testing.assert_array_equal(b.inertia, [1, 2, 2.5, 0.1, 0.2, 0.3])
    b.inertia = [1, 2, 2.5, 0.1, 0.2, 0.3]
    np.testing.assert_array_equal(b.inertia, [1, 2, 2.5, 0.1, 0.2, 0.3])
    # no mass distribution in either order: kept as published tables hold such values, with a warning
    with pytest.warns(PhysicsWarning, match=r"body 'b': inertia .*\[1 2 3 0\.1 0\.2 0\.3\].*triangle inequality"):
        b.inertia = [1, 2, 3, .1, .2, .3]
    with pytest.warns(PhysicsWarning, match="triangle inequality Ixx \\+ Iyy ≥ Izz"):
        b.inertia = [1, 1, 3]
    np.testing.assert_array_equal(b.inertia, [1, 1, 3, 0, 0, 0])
    with pytest.raises(KineTreeError, match="symmetric"):
        b.inertia = [[1, 0.3, 0], [0, 1, 0], [0, 0, 1]]
    with pytest.raises(KineTreeError, match=r"body 'b'.*principal moment -1 < 0"):
        b.inertia = [-1, 1, 1]
    np.testing.assert_array_equal(b.inertia, [1, 1, 3, 0, 0, 0])  # refusals change nothing


def test_corke_inertia_order_goes_through_its_own_path():
    import pytest
    from kinetree.core import KineTreeError, PhysicsWarning, RigidBody
    b = RigidBody("b")
    I_corke = [1, 2, 2.5, 0.3, 0.1, 0.2]  # Corke: [Ixx Iyy Izz Ixy Iyz Ixz], about the centre of mass
    b.set_inertia_corke(I_corke)  # mass 1 at the origin: the same tensor
    np.testing.assert_allclose(b.inertia, [1, 2, 2.5, 0.1, 0.2, 0.3], atol=1e-15)
    np.testing.assert_allclose(b.inertia_corke, I_corke, atol=1e-15)
    b.set_inertia_corke([0.1, 0.2, 0.25], m=2.0, r=[0, 0, 0.5])  # moved to the body frame (parallel axes)
    np.testing.assert_allclose(b.inertia, [0.6, 0.7, 0.25, 0, 0, 0], atol=1e-15)
    np.testing.assert_allclose(b.inertia_corke, [0.1, 0.2, 0.25, 0, 0, 0], atol=1e-15)
    b.inertia_corke = [1, 2, 2.5, 0.3, 0.1, 0.2]
    np.testing.assert_allclose(b.inertia_corke, [1, 2, 2.5, 0.3, 0.1, 0.2], atol=1e-12)
    with pytest.raises(KineTreeError, match=r"Corke inertia.*principal moment -0\.5 < 0"):
        b.set_inertia_corke([1, -0.5, 3], m=5.0)
    assert b.mass == 2.0  # a refused call changes nothing
    with pytest.warns(PhysicsWarning, match="Corke inertia.*triangle inequality"):
        b.set_inertia_corke([1, 2, 3, .1, .2, .3], m=5.0)
    assert b.mass == 5.0


def test_files_keep_an_unphysical_inertia_as_read(tmp_path):
    from kinetree.core import import_robot
    urdf = tmp_path / "a.urdf"
    urdf.write_text('<robot name="a"><link name="w"/><link name="b"><inertial><mass value="1"/>'
                    '<inertia ixx="0" ixy="0" ixz="0" iyy="0.35" iyz="0" izz="0"/></inertial></link>'
                    '<joint name="j" type="fixed"><parent link="w"/><child link="b"/></joint></robot>')
    np.testing.assert_array_equal(import_robot(urdf).get_body("b").inertia, [0, 0.35, 0, 0, 0, 0])


def test_a_chain_rebuilt_with_a_retyped_row_starts_that_joint_at_home_in_named_poses():
    from dataclasses import replace

    from kinetree.core import chain_dh_table, load_robot, rebuild_chain
    arm = load_robot("two_link_planar")
    arm.named_poses["bent"] = {"q1": 0.5, "q2": np.radians(60)}
    links = [e.link for e in chain_dh_table(arm)]
    links[1] = replace(links[1], joint="P", qlim=None, home=None)
    new = rebuild_chain(arm, links)
    pose = new.config_to_dict(new.named_poses["bent"])
    assert pose["q1"] == 0.5 and pose["q2"] == new.get_body("link2").joint.home_position  # not 1.047 m
