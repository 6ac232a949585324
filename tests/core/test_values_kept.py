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
