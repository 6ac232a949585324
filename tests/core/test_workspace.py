"""sample_workspace: each sample is the body's FK position and RigidBodyTree.manipulability at
an in-limit configuration, for arms, trees with mimic joints and every joint type."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from helpers.trees import every_joint_tree
from kinetree.core import (
    InvalidConfigurationError,
    Joint,
    RigidBody,
    RigidBodyTree,
    UnknownBodyError,
    load_robot,
    random_configurations,
    sample_workspace,
)
from kinetree.core.kinematics.workspace import _CHUNK, CHUNK_BYTES


def reference(tree: RigidBodyTree, body: str, Q: np.ndarray, axes: str = "all"):
    points = np.array([tree.get_transform(q, body)[:3, 3] for q in Q])
    manip = np.array([tree.manipulability(q, body, axes) for q in Q])
    return points, manip


def within_limits(tree: RigidBodyTree, Q: np.ndarray) -> bool:
    for b, i in tree._positions():
        lim = np.atleast_2d(b.joint.position_limits)
        for k in range(b.joint.position_count):
            lo, hi = lim[k]
            if not math.isnan(lo) and not ((Q[:, i + k] >= lo) & (Q[:, i + k] <= hi)).all():
                return False
    return True


@pytest.mark.parametrize("name, body", [("puma560", None), ("panda", None), ("stanford", None), ("ur5", None),
                                        ("humanoid_upper_body", None), ("quadruped", None),
                                        ("humanoid_upper_body", "l_finger_b"), ("puma560", "link2")])
def test_samples_match_fk_and_manipulability(name, body):
    tree = load_robot(name)
    body = body or tree.body_names[-1]
    points, manip = sample_workspace(tree, body, 300, rng=4)
    Q = random_configurations(tree, 300, rng=4)
    assert within_limits(tree, Q)
    ref_p, ref_m = reference(tree, body, Q)
    np.testing.assert_allclose(points, ref_p, atol=1e-12)
    np.testing.assert_allclose(manip, ref_m, rtol=1e-7, atol=1e-9)
    assert manip.shape == (300,) and (manip >= 0).all()


@pytest.mark.parametrize("seed", range(3))
def test_every_joint_type(seed):
    """Floating, spherical, planar, prismatic and fixed joints: the quaternion columns are the
    Jacobian's (4 a quaternion, as geometric_jacobian)."""
    tree = every_joint_tree(seed)
    for body in (tree.body_names[-1], tree.body_names[5]):
        points, manip = sample_workspace(tree, body, 60, rng=seed)
        Q = random_configurations(tree, 60, rng=seed)
        for axes in ("all", "trans", "rot"):
            ref_p, ref_m = reference(tree, body, Q, axes)
            got = manip if axes == "all" else sample_workspace(tree, body, 60, rng=seed, axes=axes)[1]
            np.testing.assert_allclose(points, ref_p, atol=1e-12)
            np.testing.assert_allclose(got, ref_m, rtol=1e-7, atol=1e-9)


def test_across_chunks_and_deterministic():
    tree = load_robot("puma560")
    n = _CHUNK + 7
    points, manip = sample_workspace(tree, "link6", n, rng=np.random.default_rng(9))
    Q = random_configurations(tree, n, rng=np.random.default_rng(9))
    assert within_limits(tree, Q)
    rows = np.r_[0:20, _CHUNK - 5 : n]
    ref_p, ref_m = reference(tree, "link6", Q[rows])
    np.testing.assert_allclose(points[rows], ref_p, atol=1e-12)
    np.testing.assert_allclose(manip[rows], ref_m, rtol=1e-7, atol=1e-9)
    again = sample_workspace(tree, "link6", n, rng=9)
    np.testing.assert_array_equal(again[0], points)
    assert not np.array_equal(sample_workspace(tree, "link6", 50, rng=10)[0], points[:50])
    # Puma's reach: shoulder offset 0.15005 and arm 0.4318 + sqrt(0.0203² + 0.4318²)
    assert np.linalg.norm(points, axis=1).max() <= math.hypot(0.15005, 0.4318 + math.hypot(0.0203, 0.4318)) + 1e-9


def test_unbounded_limits_sample_a_window_around_home():
    tree = RigidBodyTree()
    b = RigidBody("slider")
    b.joint = Joint("s", "prismatic")
    b.joint.set_limits([5.0, math.inf], home=6.0)
    tree.add_body(b, "base")
    c = RigidBody("arm")
    c.joint = Joint("r", "revolute")
    c.joint.set_limits([-math.inf, math.inf])
    c.joint.set_fixed_transform(np.array([[1, 0, 0, 0.5], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]]))
    tree.add_body(c, "slider")
    Q = random_configurations(tree, 2000, rng=1)
    assert Q[:, 0].min() >= 5.0 and Q[:, 0].max() <= 7.0 and Q[:, 0].max() > 6.9
    assert Q[:, 1].min() >= -math.pi and Q[:, 1].max() <= math.pi
    points, manip = sample_workspace(tree, "arm", 2000, rng=1)
    np.testing.assert_allclose(points[:, 2], Q[:, 0])
    assert (manip == 0).all()  # 2 joints, 6 rows: no 6-D manipulability


def test_base_and_empty():
    tree = load_robot("puma560")
    points, manip = sample_workspace(tree, "base", 5)
    assert points.shape == (5, 3) and not points.any() and not manip.any()
    points, manip = sample_workspace(tree, "link6", 0)
    assert points.shape == (0, 3) and manip.shape == (0,)


@pytest.mark.parametrize("n", [-1, 2.5, True, "10", 10**9])
def test_bad_counts_are_refused(n):
    with pytest.raises(InvalidConfigurationError, match="number of samples"):
        sample_workspace(load_robot("puma560"), "link6", n)


def test_bad_arguments_are_refused():
    tree = load_robot("puma560")
    with pytest.raises(UnknownBodyError):
        sample_workspace(tree, "nope", 10)
    with pytest.raises(InvalidConfigurationError, match="axes"):
        sample_workspace(tree, "link6", 10, axes="xyz")
    with pytest.raises(InvalidConfigurationError, match="rng"):
        sample_workspace(tree, "link6", 10, rng="seed")


def test_memory_is_bounded_by_chunks():
    """200,000 samples: beyond the 6.4 MB result, the working set stays at one chunk's."""
    tree = load_robot("puma560")
    sample_workspace(tree, "link6", 10)
    tracemalloc.start()
    try:
        sample_workspace(tree, "link6", 200_000, rng=0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200_000 * 32 + 40e6, peak


def test_a_chunk_stays_within_its_memory_budget_on_a_2000_joint_chain():
    """Issue 17: chunks were 8,192 configurations whatever the chain: 2.8 GB a chunk at 2,000
    joints (300 samples of a 2,000-joint chain took 105 MB); now one budgeted chunk at a time."""
    tree = RigidBodyTree()
    parent = tree.base_name
    for k in range(2000):
        body, joint = RigidBody(f"b{k}"), Joint(f"j{k}", "revolute")
        joint.set_fixed_transform([[1, 0, 0, 0.001], [0, 0, -1, 0], [0, 1, 0, 0], [0, 0, 0, 1]])
        body.joint = joint
        tree.add_body(body, parent)
        parent = body.name
    seen = []
    tracemalloc.start()
    try:
        points, _ = sample_workspace(tree, parent, 300, rng=0, progress=lambda done, n: seen.append(done))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < CHUNK_BYTES + 16e6, peak  # the chunk, the 2.4 kB result, the tree's own arrays
    assert len(seen) > 1  # in several chunks
    Q = random_configurations(tree, 300, rng=0)  # the same configurations
    np.testing.assert_allclose(points[[0, 299]], [tree.get_transform(Q[i], parent)[:3, 3] for i in (0, 299)],
                               atol=1e-9)


def test_progress_is_reported_and_can_cancel():
    tree = load_robot("puma560")
    seen = []
    sample_workspace(tree, "link6", 2 * _CHUNK + 1, rng=0, progress=lambda done, n: seen.append((done, n)))
    assert seen == [(_CHUNK, 2 * _CHUNK + 1), (2 * _CHUNK, 2 * _CHUNK + 1), (2 * _CHUNK + 1, 2 * _CHUNK + 1)]

    class Cancelled(Exception):
        pass

    def cancel(done, n):
        raise Cancelled

    with pytest.raises(Cancelled):
        sample_workspace(tree, "link6", 3 * _CHUNK, progress=cancel)
