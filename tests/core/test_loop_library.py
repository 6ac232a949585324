"""The library's closed-loop mechanisms against independent closed forms: Freudenstein's equation
(four-bar, both branches), the offset slider-crank's slider position, the Delta's three-sphere
forward kinematics, the parallelogram arm's and the gripper's geometry, the 3-RRR's leg IK.

Dimensions are read from each tree's geometry (joint origins, loop frames), the closed forms are
written out here in plain math, and the engine's values come from warm-started ``solve_loops``.
"""

from __future__ import annotations

import math
import re
from math import atan2, cos, pi, sin, sqrt

import numpy as np
import pytest
from helpers.loops import delta_platform
from kinetree.core import load_robot
from kinetree.core.library import robot_info

MOBILITY = {"four_bar": 1, "slider_crank": 1, "parallelogram_arm": 2, "gripper_four_bar": 2, "planar_3rrr": 3,
            "delta_robot": 3}
TOL = 1e-12


def wrap(x: float) -> float:
    return (x + pi) % (2 * pi) - pi


def offset(tree, body: str) -> np.ndarray:
    return tree.get_body(body).joint.joint_to_parent_transform[:3, 3]


@pytest.mark.parametrize("name", sorted(MOBILITY))
def test_each_mechanism_is_cited_closed_at_home_and_drawn(name):
    t = load_robot(name)
    info = robot_info(name)
    assert info["convention"] == "loops" and len(info["source"]) > 30 and info["short_source"] != info["source"]
    assert t.loops and any(not b.joint.actuated for b in t.bodies)
    q = t.home_configuration()
    assert np.abs(t.loop_residual(q)).max() <= TOL
    t.forward_kinematics(q)  # the closure check passes at home
    assert t.mobility() == MOBILITY[name]
    assert all(b.visuals for b in t.bodies if b.joint.type != "fixed")
    lo, hi = np.array([b.joint.position_limits for b in t.bodies if b.joint.position_count]).T
    assert np.all(lo <= q) and np.all(q <= hi)


def freudenstein(a: float, b: float, c: float, d: float, t2: float, sign: float) -> tuple[float, float]:
    """Coupler and rocker angles (θ3, θ4) of a four-bar for crank angle θ2 (Freudenstein's equation
    in Norton's closed form); ``sign`` −1: the open branch, +1: the crossed one."""
    k1, k2, k3 = d / a, d / c, (a * a - b * b + c * c + d * d) / (2 * a * c)
    k4, k5 = d / b, (c * c - d * d - a * a - b * b) / (2 * a * b)
    A, B, C = cos(t2) - k1 - k2 * cos(t2) + k3, -2 * sin(t2), k1 - (k2 + 1) * cos(t2) + k3
    D, E, F = cos(t2) - k1 + k4 * cos(t2) + k5, -2 * sin(t2), k1 + (k4 - 1) * cos(t2) + k5
    t4 = 2 * atan2(-B + sign * sqrt(B * B - 4 * A * C), 2 * A)
    t3 = 2 * atan2(-E + sign * sqrt(E * E - 4 * D * F), 2 * D)
    return t3, t4


@pytest.mark.parametrize("sign", [-1.0, 1.0])
def test_four_bar_follows_freudenstein_over_a_full_crank_turn(sign):
    t = load_robot("four_bar")
    (lp,) = t.loops
    a, b, c = offset(t, "coupler")[0], lp.frame_a[0, 3], lp.frame_b[0, 3]
    d = float(np.linalg.norm(offset(t, "rocker")))
    assert (a, b, c, d) == pytest.approx((0.1, 0.35, 0.3, 0.4))
    t3, t4 = freudenstein(a, b, c, d, 0.0, sign)
    q = t.solve_loops([0.0, t3 + 0.01, t4 - 0.01], 1e-14)  # starts near the branch, then follows it
    worst = 0.0
    for t2 in np.linspace(0.0, 2 * pi, 361):
        q = q.copy()
        q[0] = t2
        q = t.solve_loops(q, 1e-14)
        t3, t4 = freudenstein(a, b, c, d, t2, sign)
        worst = max(worst, abs(wrap(q[0] + q[1] - t3)), abs(wrap(q[2] - t4)))
    assert worst <= TOL


def test_slider_crank_slider_equals_the_closed_form():
    t = load_robot("slider_crank")
    (lp,) = t.loops
    a, b, e = offset(t, "rod")[0], lp.frame_a[0, 3], offset(t, "slider")[2]  # the slider's line: local y → world z
    assert (a, b, e) == pytest.approx((0.1, 0.35, 0.02))
    q, worst = t.home_configuration(), 0.0
    for th in np.linspace(0.0, 2 * pi, 361):
        q = q.copy()
        q[0] = th
        q = t.solve_loops(q, 1e-14)
        worst = max(worst, abs(q[2] - (a * cos(th) + sqrt(b * b - (a * sin(th) - e) ** 2))))
    assert worst <= TOL


def test_delta_platform_is_the_three_sphere_intersection_at_100_random_motor_angles():
    t = load_robot("delta_robot")
    cols = [i for i, n in enumerate(b for b in t.body_names if t.get_body(b).joint.position_count)
            if n.endswith("_arm")]
    R, L = offset(t, "leg1_arm")[0], offset(t, "leg1_elbow")[0]
    ell, r = offset(t, "leg1_wrist")[0], -offset(t, "tcp")[0]
    assert (R, L, ell, r) == pytest.approx((0.2, 0.35, 0.8, 0.05))
    rng = np.random.default_rng(35)
    home, worst, tilt = t.home_configuration(), 0.0, 0.0
    for _ in range(100):
        target = rng.uniform(math.radians(-20), math.radians(70), 3)
        q = home.copy()
        for s in np.linspace(0.0, 1.0, 11)[1:]:  # a warm-started path from home
            q = q.copy()
            q[cols] = home[cols] + s * (target - home[cols])
            q = t.solve_loops(q, 1e-14)
        T = t.get_transform(q, "tcp")
        worst = max(worst, float(np.abs(T[:3, 3] - delta_platform(R, L, ell, r, target)).max()))
        tilt = max(tilt, float(np.abs(T[:3, :3] - np.eye(3)).max()))
    assert worst <= TOL and tilt <= TOL  # and the platform only translates


def test_parallelogram_arm_and_gripper_keep_their_closed_forms():
    arm = load_robot("parallelogram_arm")
    rng = np.random.default_rng(3)
    q = arm.home_configuration()
    for _ in range(20):
        q = q.copy()
        q[[0, 2]] += rng.uniform(-0.05, 0.05, 2)
        q = arm.solve_loops(q, 1e-14)
        up, drive = q[0], q[2]
        p = arm.get_transform(q, "tool")[:3, 3]
        x, z = 0.5 * cos(up) + 0.6 * cos(drive + pi), 0.5 * sin(up) + 0.6 * sin(drive + pi)
        assert np.abs(p - [x, 0.0, z]).max() <= TOL
    grip = load_robot("gripper_four_bar")
    q = grip.home_configuration()
    for a in np.radians(np.linspace(60, 20, 21)):
        q = q.copy()
        q[[0, 3]] = a
        q = grip.solve_loops(q, 1e-14)
        for side, sign in (("left", -1.0), ("right", 1.0)):
            T = grip.get_transform(q, f"{side}_tip")
            jaw = np.array([sign * (0.02 + 0.06 * cos(a)), 0.0, 0.06 * sin(a) + 0.05])
            assert np.abs(T[:3, 3] - jaw).max() <= TOL
            assert abs(T[2, 1] - 1.0) <= TOL  # the jaw stays upright


def test_planar_3rrr_matches_each_legs_closed_form_ik():
    t = load_robot("planar_3rrr")
    L = offset(t, "leg1_distal")[0]
    bases = [offset(t, f"leg{k}_proximal")[:2] for k in (1, 2, 3)]
    attach = [np.zeros(2)] + [lp.frame_b[:2, 3] for lp in t.loops]
    start = t.home_configuration()
    T = t.get_transform(start, "platform")
    centre, phi = T[:2, 3], atan2(T[1, 0], T[0, 0])
    q = start
    for step in range(1, 11):  # the platform moved 1 cm and 0.02 rad, in steps
        c = centre + step * np.array([0.001, 0.0005])
        f = phi + step * 0.002
        Rf = np.array([[cos(f), -sin(f)], [sin(f), cos(f)]])
        ik = []
        for o, p in zip(bases, attach):
            dv = c + Rf @ p - o
            t2 = math.acos((dv @ dv - 2 * L * L) / (2 * L * L))
            ik.append((atan2(dv[1], dv[0]) - atan2(L * sin(t2), L + L * cos(t2)), t2))
        q = q.copy()
        q[[0, 3, 5]] = [ik[0][0], ik[1][0], ik[2][0]]
        q = t.solve_loops(q, 1e-14)
        assert max(abs(wrap(q[1] - ik[0][1])), abs(wrap(q[4] - ik[1][1])), abs(wrap(q[6] - ik[2][1]))) <= TOL
        assert abs(wrap(q[0] + q[1] + q[2] - f)) <= TOL


@pytest.mark.parametrize("name", ["four_bar", "slider_crank", "planar_3rrr", "delta_robot"])
def test_compiled_solver_equals_the_numpy_solver_and_reports_the_same_errors(name):
    from kinetree.core.errors import LoopClosureError
    from kinetree.core.kinematics.loops import solve_loops

    t = load_robot(name)
    rng = np.random.default_rng(5)
    active = [k for k, b in enumerate(b for b in t.bodies if b.joint.position_count) if b.joint.actuated]
    q = t.home_configuration()
    for _ in range(20):
        x = q.copy()
        x[active] += rng.normal(0.0, 0.01, len(active))
        fast, slow = solve_loops(t, x, 1e-12), solve_loops(t, x, 1e-12, compiled=False)
        assert np.abs(fast - slow).max() <= 1e-12 and np.abs(t.loop_residual(fast)).max() <= 1e-12
        q = fast
    if name == "planar_3rrr":  # motors turned far: no assembly; the kernel hands back to numpy's error
        x = q.copy()
        x[active] += 1.5
        with pytest.raises(LoopClosureError) as slow:
            solve_loops(t, x, 1e-12, compiled=False)
        with pytest.raises(LoopClosureError, match=re.escape(str(slow.value))):
            solve_loops(t, x, 1e-12)


def test_a_singular_start_gives_the_solvers_error_not_a_linear_algebra_one():
    """The 3-RRR driven through leg 1 (its joints and the platform's actuated, as a file without
    actuators reads), every joint at zero: legs 2 and 3 stretched, their Jacobian singular (the
    compiled kernel's normal equations cannot be solved): numpy's error naming the loop."""
    from kinetree.core.errors import LoopClosureError

    t = load_robot("planar_3rrr")
    for b in t.bodies:
        if b.joint.position_count:  # not the fixed tcp
            b.joint.actuated = b.name in ("leg1_proximal", "leg1_distal", "platform")
    with pytest.raises(LoopClosureError, match=r"loop 'leg\d_platform'"):
        t.solve_loops(np.zeros(t.position_count))
