"""Inverse-kinematics benchmark: prints figures (run by hand, not collected by pytest).

    python tests/benchmarks/bench_ik.py [N]

For each robot, N (default 1000) targets: FK poses of random in-limit configurations, each
solved from the home configuration. A solve counts as a success only when the answer, checked
here with the public FK, reaches the target within 1e-6 m and 1e-6 rad and is within the
limits. Prints the success rate and the median / 95th percentile / worst time per solve. When
roboticstoolbox-python is installed, its ``ikine_LM`` (joint limits on) solves the same targets
of the DH robots in the same run.
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from kinetree.core import import_robot, load_robot
from kinetree.core.kinematics.ik import inverse_kinematics

TOL = 1e-6
LIBRARY = ["puma560", "ur5", "panda", "kuka_lbr_iiwa14", "jaco", "stanford"]
#: imported URDF arms from example-robot-data: (file, body)
URDFS = [("panda_description/urdf/panda.urdf", "panda_hand"),
         ("ur_description/urdf/ur5_robot.urdf", "tool0"),
         ("xarm_description/urdf/xarm7.urdf", "link_eef")]


def targets(tree, body: str, n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [tree.get_transform(tree.random_configuration(rng), body) for _ in range(n)]


def reached(tree, body: str, q: np.ndarray, T: np.ndarray) -> bool:
    F = tree.get_transform(q, body)
    cos = np.clip((np.trace(F[:3, :3].T @ T[:3, :3]) - 1) / 2, -1, 1)
    angle = np.arccos(cos) if cos < 0.99 else np.linalg.norm(F[:3, :3].T @ T[:3, :3] - np.eye(3)) / np.sqrt(2)
    return bool(np.linalg.norm(F[:3, 3] - T[:3, 3]) <= TOL and angle <= TOL and tree.within_limits(q))


def run(label: str, tree, body: str, n: int, rtb_robot=None) -> None:
    Ts = targets(tree, body, n, seed=1)
    times, cpu, ok, iters = [], [], 0, []
    for k, T in enumerate(Ts):
        t0, c0 = time.perf_counter(), time.process_time()
        r = inverse_kinematics(tree, body, T, rng=k)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        ok += r.success and reached(tree, body, r.q, T)
        iters.append(r.iterations)
    t = np.array(times) * 1e3
    print(f"{label:28s} {tree.position_count:2d} {100 * ok / n:7.2f}% {np.median(t):8.2f} {np.median(cpu) * 1e3:8.2f} "
          f"{np.percentile(t, 95):8.2f} {t.max():8.1f} {np.median(iters):6.0f}", flush=True)
    if rtb_robot is not None:
        compare_rtb(rtb_robot, tree, body, Ts, float(np.median(t)))


def rtb_model(tree):
    """A roboticstoolbox DHRobot of a library DH robot, or None when its FK does not match ours."""
    import roboticstoolbox as rtb

    links = []
    for b in tree.bodies:
        j = b.joint
        if j.type == "fixed":
            continue
        dh = j.dh_parameters
        if dh is None or j.type != "revolute":
            return None
        cls = rtb.RevoluteMDH if dh.convention == "mdh" else rtb.RevoluteDH
        links.append(cls(a=dh.a, alpha=dh.alpha, d=dh.d, offset=j.offset, qlim=j.position_limits))
    robot = rtb.DHRobot(links)
    q = tree.random_configuration(0)
    if np.abs(robot.fkine(q).A - tree.get_transform(q, tree.end_effector)).max() > 1e-9:
        return None  # a base or tool transform the DH table does not hold
    return robot


def compare_rtb(robot, tree, body: str, Ts: list[np.ndarray], ours_ms: float) -> None:
    from spatialmath import SE3

    q0 = tree.home_configuration()
    times, ok = [], 0
    for T in Ts:
        t0 = time.perf_counter()
        sol = robot.ikine_LM(SE3(T, check=False), q0=q0, joint_limits=True, seed=0)
        times.append(time.perf_counter() - t0)
        ok += bool(sol.success) and reached(tree, body, np.asarray(sol.q, dtype=float), T)
    med = float(np.median(times)) * 1e3
    print(f"{'  roboticstoolbox ikine_LM':28s}    {100 * ok / len(Ts):7.2f}% {med:8.2f}   "
          f"(KineTree / ikine_LM time: {ours_ms / med:.2f}x)", flush=True)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    try:
        import roboticstoolbox  # noqa: F401
        have_rtb = True
    except ImportError:
        have_rtb = False
        print("roboticstoolbox-python: not installed - no ikine_LM comparison")
    print(f"{n} random reachable targets per robot, solved from home; success = within {TOL:g} m and "
          f"{TOL:g} rad and within the limits (checked with FK)")
    print(f"{'robot':28s} dof success   median  med CPU      p95      max  iters   (ms per solve; CPU: this "
          "process's CPU time, less affected by other load)")
    for name in LIBRARY:
        tree = load_robot(name)
        run(name, tree, tree.end_effector, n, rtb_model(tree) if have_rtb else None)
    try:
        from importlib.metadata import distribution
        from pathlib import Path

        root = Path(distribution("example-robot-data").locate_file("cmeel.prefix/share/example-robot-data/robots"))
    except Exception:  # noqa: BLE001 - any failure to find it means: skip these
        print("example-robot-data: not installed - no imported URDF arms")
        return
    for path, body in URDFS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # missing meshes do not matter here
            tree = import_robot(root / path, package_paths=(str(root),))
        run(f"{path.split('/')[-1]} ({body})", tree, body, n)


if __name__ == "__main__":
    main()
