"""Closed-loop benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_loops.py

First what a tree *without* loops costs (Puma 560 and a 130-body tree: ``forward_kinematics``,
``get_transform``; the loop support must add nothing there: run the script on the release before
loops too, the figures must agree within the noise), then the loop solver: a four-bar crank-rocker
followed over a full crank turn (warm start per step), FK of a looped tree (the closure check),
a planar 3-RRR parallel robot (``solve_loops``, ``loop_ik``), and the library's Delta robot's
passive-joint solve warm-started after a small motor step (median; target ≤ 100 µs), compiled
(numba) and in numpy.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from kinetree.core import Joint, RigidBody, RigidBodyTree, list_robots, load_robot  # noqa: E402
from robots import best_of, random_tree  # noqa: E402


def _trans(x: float, y: float = 0.0) -> np.ndarray:
    T = np.eye(4)
    T[0, 3], T[1, 3] = x, y
    return T


def _add(tree: RigidBodyTree, name: str, parent: str, T: np.ndarray, actuated: bool = True) -> None:
    body = RigidBody(name)
    j = Joint(name + "_joint", "revolute")
    j.set_fixed_transform(T)
    body.joint = j
    tree.add_body(body, parent)
    if not actuated:
        tree.get_body(name).joint.actuated = False


def without_loops() -> None:
    puma, big = load_robot("puma560"), random_tree(130)
    rng = np.random.default_rng(0)
    q, qb = puma.random_configuration(rng), big.random_configuration(rng)
    Q = np.stack([puma.random_configuration(rng) for _ in range(1000)])
    tip = puma.end_effector
    for _ in range(3):
        fk = best_of(lambda: puma.forward_kinematics(q), number=5000)
        gt = best_of(lambda: puma.get_transform(q, tip), number=5000)
        fb = best_of(lambda: big.forward_kinematics(qb), number=500)
        batch = best_of(lambda: puma.forward_kinematics(Q), number=50)
        print(f"no loops: Puma FK {fk * 1e6:6.2f} µs, get_transform {gt * 1e6:6.2f} µs, "
              f"130-body FK {fb * 1e6:7.1f} µs, Puma batch of 1000 {batch * 1e3:6.3f} ms")


def four_bar() -> None:
    if not hasattr(RigidBodyTree, "add_loop"):
        print("(this KineTree has no closed loops)")
        return
    t = RigidBodyTree()
    _add(t, "crank", "base", np.eye(4))
    _add(t, "coupler", "crank", _trans(0.1), actuated=False)
    _add(t, "rocker", "base", _trans(0.4), actuated=False)
    t.add_loop("close", "coupler", _trans(0.35), "rocker", _trans(0.3), "hinge")
    q = t.solve_loops(np.array([0.0, 1.0, 1.9]))
    steps = np.linspace(0.0, 2 * math.pi, 3601)[1:]
    start = time.perf_counter()
    for th in steps:
        q = q.copy()
        q[0] = th
        q = t.solve_loops(q)
    per = (time.perf_counter() - start) / len(steps)
    fk = best_of(lambda: t.forward_kinematics(q), number=5000)
    print(f"four-bar: solve_loops {per * 1e6:.0f} µs per 0.1° crank step (warm start, residual ≤ 1e-12); "
          f"FK with the closure check {fk * 1e6:.2f} µs; mobility {t.mobility()}")


def three_rrr() -> None:
    if not hasattr(RigidBodyTree, "add_loop"):
        return
    L, t, q = 0.4, RigidBodyTree(), []
    bases = [(0.0, 0.0), (1.0, 0.0), (0.5, math.sqrt(3) / 2)]
    attach = [(0.0, 0.0), (0.2, 0.0), (0.1, 0.2 * math.sqrt(3) / 2)]
    centre, phi = np.array([0.42, 0.3]), 0.2
    R = np.array([[math.cos(phi), -math.sin(phi)], [math.sin(phi), math.cos(phi)]])
    for k, (o, p) in enumerate(zip(bases, attach), 1):
        d = centre + R @ np.array(p) - np.array(o)
        t2 = math.acos((d @ d - 2 * L * L) / (2 * L * L))
        t1 = math.atan2(d[1], d[0]) - math.atan2(L * math.sin(t2), L + L * math.cos(t2))
        _add(t, f"leg{k}a", "base", _trans(*o))
        _add(t, f"leg{k}b", f"leg{k}a", _trans(L), actuated=False)
        q += [t1, t2]
        if k == 1:
            _add(t, "platform", "leg1b", _trans(L), actuated=False)
            q.append(phi - t1 - t2)
        else:
            t.add_loop(f"leg{k}", f"leg{k}b", _trans(L), "platform", _trans(*p), "hinge")
    q = np.array(q)
    moved = q.copy()
    moved[[0, 3, 5]] += 0.01
    solve = best_of(lambda: t.solve_loops(moved), number=50)
    T = t.get_transform(q, "platform")
    start = t.solve_loops(moved)
    ik = best_of(lambda: t.loop_ik("platform", T, start), number=20)
    print(f"3-RRR: solve_loops after 0.01 rad on each actuator {solve * 1e3:.2f} ms; loop_ik back to the "
          f"platform pose {ik * 1e3:.2f} ms; mobility {t.mobility()}")


def delta() -> None:
    if "delta_robot" not in list_robots():
        return
    from kinetree.core.kinematics.loops import solve_loops

    t = load_robot("delta_robot")
    motors = [k for k, n in enumerate(b for b in t.body_names if t.get_body(b).joint.position_count)
              if n.endswith("_arm")]
    start = time.perf_counter()
    t.solve_loops(t.home_configuration())
    first = time.perf_counter() - start
    for compiled in (None, False):
        rng, q, times = np.random.default_rng(0), t.home_configuration(), []
        for _ in range(2000 if compiled is None else 300):
            x = q.copy()
            x[motors] += rng.normal(0.0, 0.002, 3)  # a small motor step (~0.1°), warm start
            start = time.perf_counter()
            q = solve_loops(t, x, 1e-12, compiled=compiled)
            times.append(time.perf_counter() - start)
        how = "compiled" if compiled is None else "numpy"
        print(f"Delta: solve_loops warm-started after a ~0.1° motor step, {how}: "
              f"median {np.median(times) * 1e6:.0f} µs, 90th percentile {np.percentile(times, 90) * 1e6:.0f} µs")
    print(f"Delta: the first solve of the process (numba loading its cached kernel, or compiling it) {first:.2f} s")


if __name__ == "__main__":
    without_loops()
    four_bar()
    three_rrr()
    delta()
