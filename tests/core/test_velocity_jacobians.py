"""The velocity-space geometric Jacobian, its time derivative and the centre-of-mass Jacobian by
finite differences along ``integrate`` (mimic joints included, which Pinocchio's frame Jacobians
are not compared on); against Pinocchio they are checked in pinocchio_compare.compare."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.trees import spherical_tree
from kinetree.core import InvalidConfigurationError, UnknownBodyError, load_robot


def trees():
    return [("humanoid_upper_body", load_robot("humanoid_upper_body")), ("puma560", load_robot("puma560")),
            ("floating", spherical_tree(8, ["floating", "revolute", "spherical", "planar", "fixed", "prismatic"]))]


@pytest.mark.parametrize("name,tree", trees())
def test_jacobians_are_derivatives_along_the_velocities(name, tree):
    """J·qd is the body origin's velocity, J̇·qd the change of J·qd, and the CoM Jacobian the
    derivative of center_of_mass, all by central differences of configurations moved by integrate."""
    rng = np.random.default_rng(3)
    q, qd = tree.random_configuration(rng), rng.normal(size=tree.dof_count)
    h = 1e-6
    qa, qb = tree.integrate(q, qd, -h), tree.integrate(q, qd, h)
    Ta, Tb = tree.forward_kinematics(qa), tree.forward_kinematics(qb)
    T = tree.forward_kinematics(q)
    for i, b in enumerate(tree.bodies):
        J = tree.geometric_jacobian(q, b.name, space="velocities")
        assert J.shape == (6, tree.dof_count)
        W = (Tb[i, :3, :3] - Ta[i, :3, :3]) @ T[i, :3, :3].T / (2 * h)  # ω skew, base frame
        twist = np.array([W[2, 1], W[0, 2], W[1, 0], *((Tb[i, :3, 3] - Ta[i, :3, 3]) / (2 * h))])
        np.testing.assert_allclose(J @ qd, twist, atol=1e-6)
        dJ = (tree.geometric_jacobian(qb, b.name, space="velocities")
              - tree.geometric_jacobian(qa, b.name, space="velocities")) / (2 * h)
        np.testing.assert_allclose(tree.jacobian_dot(q, qd, b.name), dJ, atol=1e-6)
    dc = (tree.center_of_mass(qb) - tree.center_of_mass(qa)) / (2 * h)
    np.testing.assert_allclose(tree.com_jacobian(q) @ qd, dc, atol=1e-7)


def test_positions_and_velocities_spaces_agree_without_quaternions():
    """Without spherical or floating joints a position is a velocity: one matrix, either space
    (mimic followers add to their leader's column in both)."""
    for name in ("humanoid_upper_body", "stanford", "two_link_planar"):
        tree = load_robot(name)
        q = tree.random_configuration(1)
        for b in tree.bodies:
            np.testing.assert_allclose(tree.geometric_jacobian(q, b.name),
                                       tree._kinematics().jacobian(q, tree.index_of(b.name)), atol=1e-12)
    tree = spherical_tree(2, ["spherical", "revolute"])
    q = tree.random_configuration(2)
    assert tree.geometric_jacobian(q, "b1").shape == (6, 5)  # a column per quaternion number
    assert tree.geometric_jacobian(q, "b1", space="velocities").shape == (6, 4)


def test_bad_arguments_are_refused():
    tree = load_robot("puma560")
    q = tree.home_configuration()
    with pytest.raises(InvalidConfigurationError, match="space must be 'positions' or 'velocities', got 'joint'"):
        tree.geometric_jacobian(q, "link6", space="joint")
    with pytest.raises(UnknownBodyError, match="ghost"):
        tree.jacobian_dot(q, np.zeros(6), "ghost")
    with pytest.raises(InvalidConfigurationError, match="qd must have shape"):
        tree.jacobian_dot(q, [1, 2], "link6")
    assert not tree.jacobian_dot(q, np.ones(6), tree.base_name).any()
    for b in tree.bodies:
        b.mass = 0.0
    tree.base.mass = 0.0
    from kinetree.core import InvalidPropertyError

    with pytest.raises(InvalidPropertyError, match="no mass"):
        tree.com_jacobian(q)
