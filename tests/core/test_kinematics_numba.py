"""The compiled batch FK (numba, the ``fast`` extra) gives the numpy path's poses."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from helpers.trees import hyp_settings, random_config, random_tree
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import load_robot
from kinetree.core.kinematics import plan as kinematics
from kinetree.core.library import list_robots

try:
    from kinetree.core.kinematics import compiled as numba_fk
except (ImportError, OSError, RuntimeError) as e:  # not installed, or no place for its cache
    pytest.skip(f"the compiled kernel does not load: {e}", allow_module_level=True)

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
    from helpers.trees import gripper

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
    monkeypatch.setitem(sys.modules, "kinetree.core.kinematics.compiled", None)  # the import fails
    with pytest.warns(RuntimeWarning, match="stays in numpy: numba failed to load"):
        assert kinematics.compiled_backend() is None
    puma = load_robot("puma560")
    Q = _batch(puma, np.random.default_rng(2), kinematics.COMPILED_MIN)
    np.testing.assert_allclose(puma.forward_kinematics(Q)[:50], [puma.forward_kinematics(q) for q in Q[:50]],
                               atol=TOL, rtol=0)


def _run(script: str, **env) -> subprocess.CompletedProcess:  # a hung child fails the test in 2 min
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, **env})


def test_threads_share_the_kernel():
    """Three threads at once (the GUI's workers) get correct poses, under numba's workqueue
    threading layer too: it aborts the process on concurrent launches unless they are serialized."""
    r = _run("""
        import threading, numpy as np
        from kinetree.core import load_robot
        import numba
        puma = load_robot("puma560")
        rng = np.random.default_rng(4)
        Q = np.array([puma.random_configuration(rng) for _ in range(5000)])
        plan = puma._kinematics()
        expected = plan.fk_batch(Q, compiled=False)
        results = []
        def work():
            for _ in range(5):
                results.append(np.abs(plan.fk_batch(Q, compiled=True) - expected).max())
        threads = [threading.Thread(target=work) for _ in range(3)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        print(numba.threading_layer(), len(results), max(results))
    """, NUMBA_THREADING_LAYER="workqueue")
    assert r.returncode == 0, r.stderr[-2000:]
    layer, n, err = r.stdout.split()
    assert layer == "workqueue" and n == "15" and float(err) <= TOL


def test_processes_forked_after_a_batch_still_compute():
    """GNU OpenMP kills a forked child that launches parallel work: children use numpy."""
    r = _run("""
        import multiprocessing as mp, numpy as np
        from kinetree.core import load_robot
        puma = load_robot("puma560")
        rng = np.random.default_rng(4)
        Q = np.array([puma.random_configuration(rng) for _ in range(5000)])
        T = puma.forward_kinematics(Q)  # the kernel runs in the parent first
        def child(i):
            return float(np.abs(puma.forward_kinematics(Q) - T).max())
        with mp.get_context("fork").Pool(2) as pool:
            print(max(pool.map(child, range(4))))
    """)
    assert r.returncode == 0, r.stderr[-2000:]
    assert float(r.stdout) <= TOL


def test_read_only_and_odd_inputs():
    puma = load_robot("puma560")
    plan = puma._kinematics()
    Q = _batch(puma, np.random.default_rng(6), 300)
    plan.fk_batch(Q, compiled=True)
    signatures = len(numba_fk._fk_kernel.signatures)
    ro = Q.copy()
    ro.flags.writeable = False  # as np.load(mmap_mode="r") gives: no second compilation
    for q in (ro, np.asfortranarray(Q), Q.astype(object)):
        np.testing.assert_allclose(plan.fk_batch(q, compiled=True), plan.fk_batch(Q, compiled=False), atol=TOL, rtol=0)
    assert len(numba_fk._fk_kernel.signatures) == signatures
    with pytest.raises(ValueError, match="needs"):
        numba_fk.fk_batch(plan, Q[:, :3], np.arange(plan.nb))
    with pytest.raises(ValueError, match="ancestor"):
        numba_fk.fk_batch(plan, Q, np.array([0, 2]))


@pytest.mark.parametrize("key", ["talos", "pr2", "solo12"])
def test_real_robots_agree_with_pinocchio(key):
    """Talos and PR2 (mimic joints), Solo12: the compiled poses equal Pinocchio's link by link."""
    from helpers.real_robots import load, pin, pinocchio_poses  # skips without Pinocchio or the robots

    tree, path, _ = load(key)
    model = pin.buildModelFromUrdf(str(path))
    data = model.createData()
    Q = np.stack([tree.random_configuration(np.random.default_rng(i)) for i in range(8)])
    T = tree._kinematics().fk_batch(Q, compiled=True)
    for q, P in zip(Q, T):
        ref = pinocchio_poses(model, data, tree, q)
        for i, b in enumerate(tree.bodies):
            np.testing.assert_allclose(P[i], ref[b.name], atol=1e-12, err_msg=f"{key}: {b.name}")
