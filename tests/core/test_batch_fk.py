"""Batch forward kinematics and get_transform equal a loop of single calls."""

from __future__ import annotations

import numpy as np
import pytest
from helpers.trees import random_config, random_tree
from kinetree.core import InvalidConfigurationError, load_robot

TOL = 1e-12
# Sizes around the chunking of the batch code (chunks of 64…4096 configurations, depending on
# the number of bodies; Puma: chunks of 1365) and 4097.
SIZES = [1, 2, 63, 64, 65, 1365, 1366, 4097]


def _loop_fk(tree, Q):
    return np.array([tree.forward_kinematics(q) for q in Q])


def _random_batch(tree, rng, n):
    return np.array([random_config(tree, rng) for _ in range(n)]).reshape(n, tree.position_count)


@pytest.mark.parametrize("n", SIZES)
def test_puma_batch_equals_loop(puma, n):
    rng = np.random.default_rng(n)
    Q = _random_batch(puma, rng, n)
    T = puma.forward_kinematics(Q)
    assert T.shape == (n, 6, 4, 4)
    np.testing.assert_allclose(T, _loop_fk(puma, Q), atol=TOL, rtol=0)


@pytest.fixture(scope="module")
def branched():
    tree = random_tree(np.random.default_rng(1234), n_bodies=14)
    types = {b.joint.type for b in tree.bodies}
    assert types == {"fixed", "revolute", "prismatic", "floating", "spherical", "planar"}
    assert len({tree.parent_name(n) for n in tree.body_names}) > 2  # really branched
    return tree


@pytest.mark.parametrize("n", [1, 3, 64, 65, 682, 683, 1365, 4097])  # 14 bodies: chunks of 682
def test_branched_tree_batch_equals_loop(branched, n):
    rng = np.random.default_rng(n + 7)
    Q = _random_batch(branched, rng, n)
    T = branched.forward_kinematics(Q)
    assert T.shape == (n, branched.num_bodies, 4, 4)
    np.testing.assert_allclose(T, _loop_fk(branched, Q), atol=TOL, rtol=0)


@pytest.mark.parametrize("seed", range(6))
def test_random_trees_batch_equals_loop(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=int(rng.integers(1, 16)))
    Q = _random_batch(tree, rng, 37)
    np.testing.assert_allclose(tree.forward_kinematics(Q), _loop_fk(tree, Q), atol=TOL, rtol=0)


def test_empty_batch(puma):
    T = puma.forward_kinematics(np.zeros((0, 6)))
    assert T.shape == (0, 6, 4, 4)


def test_batch_last_row_is_exact(branched):
    Q = _random_batch(branched, np.random.default_rng(0), 50)
    T = branched.forward_kinematics(Q)
    assert np.array_equal(T[..., 3, :], np.broadcast_to([0.0, 0.0, 0.0, 1.0], T[..., 3, :].shape))


def test_get_transform_batch_equals_single(branched):
    rng = np.random.default_rng(99)
    names = [branched.base_name, *branched.body_names]
    Q = _random_batch(branched, rng, 70)
    for _ in range(25):
        src, tgt = rng.choice(names, 2)
        batch = branched.get_transform(Q, src, tgt)
        assert batch.shape == (70, 4, 4)
        single = np.array([branched.get_transform(q, src, tgt) for q in Q])
        np.testing.assert_allclose(batch, single, atol=1e-11, rtol=0)
    # target omitted = the base
    src = names[-1]
    np.testing.assert_allclose(branched.get_transform(Q, src), branched.forward_kinematics(Q)[:, -1], atol=TOL)
    np.testing.assert_allclose(branched.get_transform(Q, src, branched.base_name),
                               branched.forward_kinematics(Q)[:, -1], atol=TOL)


@pytest.mark.parametrize("n", [1, 1366, 4097])
def test_get_transform_batch_equals_single_puma(puma, n):
    rng = np.random.default_rng(n)
    Q = _random_batch(puma, rng, n)
    batch = puma.get_transform(Q, "link6", "link2")
    T = puma.forward_kinematics(Q)
    expected = np.linalg.inv(T[:, 1]) @ T[:, 5]
    np.testing.assert_allclose(batch, expected, atol=1e-11, rtol=0)
    for k in (0, n - 1):
        np.testing.assert_allclose(batch[k], puma.get_transform(Q[k], "link6", "link2"), atol=1e-11, rtol=0)


def test_batch_does_not_modify_input(puma):
    Q = _random_batch(puma, np.random.default_rng(2), 10)
    Q0 = Q.copy()
    puma.forward_kinematics(Q)
    puma.get_transform(Q, "link3", "link1")
    assert np.array_equal(Q, Q0)


def test_batch_rejects_bad_shapes_and_values(puma):
    with pytest.raises(InvalidConfigurationError, match="6"):
        puma.forward_kinematics(np.zeros((3, 5)))
    Q = np.zeros((4, 6))
    Q[2, 4] = np.nan
    with pytest.raises(InvalidConfigurationError, match="q5"):
        puma.forward_kinematics(Q)
    Q[2, 4] = 0.0
    Q[3, 1] = -np.inf
    with pytest.raises(InvalidConfigurationError, match="q2"):
        puma.get_transform(Q, "link6")


def test_single_fk_has_shape_and_exact_last_row():
    tree = load_robot("stanford")
    T = tree.forward_kinematics(tree.home_configuration())
    assert T.shape == (6, 4, 4)
    assert np.array_equal(T[:, 3], np.tile([0.0, 0.0, 0.0, 1.0], (6, 1)))
