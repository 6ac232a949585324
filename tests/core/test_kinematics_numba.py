"""The compiled batch FK (numba, the ``fast`` extra) gives the numpy path's poses."""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from core_helpers import hyp_settings, random_config, random_tree
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import kinematics, load_robot
from kinetree.core.library import list_robots

numba_fk = pytest.importorskip("kinetree.core.kinematics_numba", reason="numba (the fast extra) not installed")

TOL = 1e-12


def _batch(tree, rng, n):
    return np.array([random_config(tree, rng) for _ in range(n)]).reshape(n, tree.position_count)


def _both(tree, Q, bodies=None):
    plan = tree._kinematics()
    return plan.fk_batch(Q, bodies, compiled=True), plan.fk_batch(Q, bodies, compiled=False)


def _sincos(x):
    S, C = np.array(x, dtype=float), np.empty(len(x))
    numba_fk._sincos_inplace(S, C, len(x))
    return S, C


@pytest.mark.parametrize("scale", [1.0, 4.0, 10.0, 1e3, 1e5, 9.9e5])
def test_sincos_equals_numpy(scale):
    x = np.random.default_rng(int(scale)).uniform(-scale, scale, 200_000)
    S, C = _sincos(x)
    # within one unit in the last place of numbers up to 1 (numpy's own error is ≤ 1 ulp too)
    assert np.abs(S - np.sin(x)).max() <= 2.3e-16
    assert np.abs(C - np.cos(x)).max() <= 2.3e-16


def test_sincos_at_and_beside_multiples_of_half_pi():
    k = np.arange(-2000, 2001) * (np.pi / 2)
    x = np.concatenate([k, np.nextafter(k, np.inf), np.nextafter(k, -np.inf),
                        [0.0, -0.0, 5e-324, 1e-300, np.pi / 4, -np.pi / 4, 3 * np.pi / 4]])
    S, C = _sincos(x)
    assert np.abs(S - np.sin(x)).max() <= 2.3e-16
    assert np.abs(C - np.cos(x)).max() <= 2.3e-16


@pytest.mark.parametrize("name", list_robots())
def test_library_robots(name):
    tree = load_robot(name)
    if tree.position_count == 0:
        pytest.skip("no movable joint")
    a, b = _both(tree, _batch(tree, np.random.default_rng(3), 1000))
    np.testing.assert_allclose(a, b, atol=TOL, rtol=0)
    assert np.array_equal(a[..., 3, :], np.broadcast_to([0.0, 0.0, 0.0, 1.0], a[..., 3, :].shape))


@pytest.mark.parametrize("n", [1, 2, 15, 16, 17, 255, 256, 257, 4097])  # around the kernel's blocks
def test_every_joint_type_and_block_edges(n):
    tree = random_tree(np.random.default_rng(1234), n_bodies=14)
    assert {b.joint.type for b in tree.bodies} == {"fixed", "revolute", "prismatic", "floating", "spherical", "planar"}
    a, b = _both(tree, _batch(tree, np.random.default_rng(n), n))
    np.testing.assert_allclose(a, b, atol=TOL, rtol=0)


@given(seed=st.integers(0, 2**32 - 1), n_bodies=st.integers(1, 20), n=st.integers(1, 40))
@hyp_settings(max_examples=60)
def test_random_trees(seed, n_bodies, n):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, n_bodies=n_bodies)
    Q = _batch(tree, rng, n)
    a, b = _both(tree, Q)
    np.testing.assert_allclose(a, b, atol=TOL, rtol=0)
    # a body with its ancestors only, as get_transform asks for
    plan = tree._kinematics()
    body = int(rng.integers(tree.num_bodies))
    sel = np.array(plan.ancestors(body))
    a, b = _both(tree, Q, sel)
    np.testing.assert_allclose(a, b, atol=TOL, rtol=0)


def test_slots_in_any_order():
    """The kernel composes in depth order whatever order the slots come in."""
    tree = random_tree(np.random.default_rng(77), n_bodies=12)
    plan = tree._kinematics()
    Q = _batch(tree, np.random.default_rng(1), 50)
    sel = np.arange(plan.nb)[::-1].copy()  # children before parents
    a = numba_fk.fk_batch(plan, Q, sel)
    np.testing.assert_allclose(a[:, ::-1], plan.fk_batch(Q, compiled=False), atol=TOL, rtol=0)


def test_mimic_joints():
    from test_mimic import gripper

    for tree in (gripper(), gripper(multiplier=2.5, offset=-0.4, prismatic_mult=-3.0)):
        a, b = _both(tree, _batch(tree, np.random.default_rng(5), 300))
        np.testing.assert_allclose(a, b, atol=TOL, rtol=0)


def test_huge_angles_and_quaternions_take_the_exact_paths():
    tree = random_tree(np.random.default_rng(1234), n_bodies=14)
    Q = _batch(tree, np.random.default_rng(8), 40)
    Q[::3] *= 3e6  # revolute angles past the polynomial's range, huge quaternions and lengths
    Q[1, :] = 1e200
    a, b = _both(tree, Q)
    finite = np.isfinite(b)
    assert np.array_equal(finite, np.isfinite(a))
    np.testing.assert_allclose(a[finite], b[finite], atol=1e-12 * max(1.0, np.abs(b[finite]).max()), rtol=0)


def test_non_contiguous_input():
    puma = load_robot("puma560")
    Q = _batch(puma, np.random.default_rng(1), 600)
    wide = np.zeros((600, 12))
    wide[:, ::2] = Q
    a, b = _both(puma, wide[:, ::2])
    np.testing.assert_allclose(a, b, atol=TOL, rtol=0)


def test_large_batches_use_the_kernel_unless_disabled(monkeypatch):
    puma = load_robot("puma560")
    calls = []
    real = numba_fk.fk_batch
    monkeypatch.setattr(numba_fk, "fk_batch", lambda *a: calls.append(a[1].shape[0]) or real(*a))
    Q = _batch(puma, np.random.default_rng(2), kinematics.COMPILED_MIN)
    puma.forward_kinematics(Q[:-1])
    assert calls == []  # below the threshold: numpy
    T = puma.forward_kinematics(Q)
    assert calls == [kinematics.COMPILED_MIN]
    np.testing.assert_allclose(T, puma._kinematics().fk_batch(Q, compiled=False), atol=TOL, rtol=0)
    puma.get_transform(Q, "link6", "link2")
    assert len(calls) == 2

    monkeypatch.setattr(kinematics, "_compiled", [])
    monkeypatch.setenv("KINETREE_NUMBA", "0")
    assert kinematics.compiled_backend() is None
    puma.forward_kinematics(Q)
    assert len(calls) == 2


def test_an_unusable_numba_leaves_numpy(monkeypatch):
    monkeypatch.setattr(kinematics, "_compiled", [])
    monkeypatch.setitem(sys.modules, "kinetree.core.kinematics_numba", None)  # the import fails
    with pytest.warns(RuntimeWarning, match="stays in numpy: numba failed to load"):
        assert kinematics.compiled_backend() is None
    puma = load_robot("puma560")
    Q = _batch(puma, np.random.default_rng(2), kinematics.COMPILED_MIN)
    np.testing.assert_allclose(puma.forward_kinematics(Q)[:50], [puma.forward_kinematics(q) for q in Q[:50]],
                               atol=TOL, rtol=0)


def test_threads_share_the_kernel():
    """Two threads at once (the GUI's workers) get correct poses and no abort."""
    puma = load_robot("puma560")
    Q = _batch(puma, np.random.default_rng(4), 5000)
    expected = puma._kinematics().fk_batch(Q, compiled=False)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(puma._kinematics().fk_batch(Q, compiled=True))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 15
    for r in results:
        np.testing.assert_allclose(r, expected, atol=TOL, rtol=0)


@pytest.mark.parametrize("key", ["talos", "pr2", "solo12"])
def test_real_robots_agree_with_pinocchio(key):
    """Talos and PR2 (mimic joints), Solo12: the compiled poses equal Pinocchio's link by link."""
    from test_real_robots import load, pin, pinocchio_poses  # skips without Pinocchio or the robots

    tree, path, _ = load(key)
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    Q = np.stack([tree.random_configuration(np.random.default_rng(i)) for i in range(8)])
    T = tree._kinematics().fk_batch(Q, compiled=True)
    for q, P in zip(Q, T):
        ref = pinocchio_poses(model, data, tree, q)
        for i, b in enumerate(tree.bodies):
            np.testing.assert_allclose(P[i], ref[b.name], atol=1e-12, err_msg=f"{key}: {b.name}")
