"""The robot library: every robot loads with visuals and sane limits, and each published robot's
end-effector pose equals an independent product of its published A-matrices.

The tables below are typed in again from the sources (not imported from kinetree), and the
A-matrices are written out here in plain numpy, so a slip in either the library table or the
engine's DH code shows up as a mismatch.
"""

from __future__ import annotations

import math
from math import cos, pi, sin

import numpy as np
import pytest
from kinetree.core import chain_dh_table, describe_robot, list_robots, load_robot
from kinetree.core.errors import UnknownRobotError
from kinetree.core.library import robot_info

TOL = 1e-12
OLD = ["two_link_planar", "cylindrical", "scara", "spherical_wrist", "stanford", "puma560", "puma560_mdh"]
NEW = ["ur3", "ur5", "ur10", "kuka_kr5", "abb_irb140", "panda", "jaco", "baxter_left", "kuka_lbr_iiwa14"]


# --- independent DH matrices ---------------------------------------------------------------------

def a_std(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Standard DH: Rz(θ)·Tz(d)·Tx(a)·Rx(α), written out."""
    ct, st, ca, sa = cos(theta), sin(theta), cos(alpha), sin(alpha)
    return np.array([[ct, -st * ca, st * sa, a * ct],
                     [st, ct * ca, -ct * sa, a * st],
                     [0.0, sa, ca, d],
                     [0.0, 0.0, 0.0, 1.0]])


def a_mdh(a: float, alpha: float, d: float, theta: float) -> np.ndarray:
    """Modified (Craig) DH: Rx(α_{i−1})·Tx(a_{i−1})·Rz(θ_i)·Tz(d_i), written out."""
    ct, st, ca, sa = cos(theta), sin(theta), cos(alpha), sin(alpha)
    return np.array([[ct, -st, 0.0, a],
                     [st * ca, ct * ca, -sa, -sa * d],
                     [st * sa, ct * sa, ca, ca * d],
                     [0.0, 0.0, 0.0, 1.0]])


def chain(rows, thetas, conv: str) -> np.ndarray:
    A = a_std if conv == "dh" else a_mdh
    T = np.eye(4)
    for (a, alpha, d), th in zip(rows, thetas):
        T = T @ A(a, alpha, d, th)
    return T


D = pi / 180

# Published tables, (a, α, d) per row; θ = sign·q + offset.
UR_ALPHA = (pi / 2, 0, 0, pi / 2, -pi / 2, 0)
UR = {
    "ur3": ((0, -0.24365, -0.21325, 0, 0, 0), (0.1519, 0, 0, 0.11235, 0.08535, 0.0819)),
    "ur5": ((0, -0.425, -0.39225, 0, 0, 0), (0.089159, 0, 0, 0.10915, 0.09465, 0.0823)),
    "ur10": ((0, -0.612, -0.5723, 0, 0, 0), (0.1273, 0, 0, 0.163941, 0.1157, 0.0922)),
}

_JACO_K = sin(pi / 6) / sin(pi / 3)
_JACO_D4B = 0.2073 + _JACO_K * 0.0743
_JACO_D5B = _JACO_K * (0.0743 + 0.0743)
_JACO_D6B = _JACO_K * 0.0743 + 0.1687

TABLES = {
    **{name: ("dh", list(zip(a, UR_ALPHA, d)), [0] * 6, [1] * 6) for name, (a, d) in UR.items()},
    "kuka_kr5": ("dh", [(0.18, -pi / 2, 0.4), (0.6, 0, 0), (0.12, pi / 2, 0), (0, -pi / 2, -0.62),
                        (0, pi / 2, 0), (0, pi, -0.115)], [0] * 6, [1] * 6),
    "abb_irb140": ("dh", [(0.07, -pi / 2, 0.352), (0.36, 0, 0), (0, -pi / 2, 0), (0, pi / 2, 0.38),
                          (0, -pi / 2, 0), (0, 0, 0.065)], [0] * 6, [1] * 6),
    "panda": ("mdh", [(0, 0, 0.333), (0, -pi / 2, 0), (0, pi / 2, 0.316), (0.0825, pi / 2, 0),
                      (-0.0825, -pi / 2, 0.384), (0, pi / 2, 0), (0.088, pi / 2, 0)], [0] * 7, [1] * 7),
    "jaco": ("dh", [(0, pi / 2, 0.2755), (0.41, pi, 0), (0, pi / 2, -0.0098), (0, pi / 3, -_JACO_D4B),
                    (0, pi / 3, -_JACO_D5B), (0, pi, -_JACO_D6B)],
             [0, -pi / 2, pi / 2, 0, -pi, 100 * D], [-1, 1, 1, 1, 1, 1]),
    "baxter_left": ("dh", [(0.069, -pi / 2, 0.27035), (0, pi / 2, 0), (0.069, -pi / 2, 0.36435), (0, pi / 2, 0),
                           (0.01, -pi / 2, 0.37429), (0, pi / 2, 0), (0, 0, 0.3683)],
                    [0, pi / 2, 0, 0, 0, 0, 0], [1] * 7),
    "kuka_lbr_iiwa14": ("mdh", [(0, 0, 0.36), (0, -pi / 2, 0), (0, pi / 2, 0.42), (0, pi / 2, 0),
                                (0, -pi / 2, 0.4), (0, -pi / 2, 0), (0, pi / 2, 0.126)], [0] * 7, [1] * 7),
}


def published_pose(name: str, q) -> np.ndarray:
    conv, rows, offsets, signs = TABLES[name]
    thetas = [s * qi + o for qi, o, s in zip(q, offsets, signs)]
    return chain(rows, thetas, conv)


def tz(d: float) -> np.ndarray:
    T = np.eye(4)
    T[2, 3] = d
    return T


def random_qs(tree, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lim = np.array([b.joint.position_limits for b in tree.bodies if b.joint.type != "fixed"])
    return rng.uniform(lim[:, 0], lim[:, 1], size=(n, len(lim)))


# --- the library as a whole --------------------------------------------------------------------

def test_library_size_and_names():
    names = list_robots()
    assert len(names) >= 16
    assert set(OLD) <= set(names) and set(NEW) <= set(names)
    assert names == sorted(names)


@pytest.mark.parametrize("name", OLD + NEW)
def test_robot_loads_with_visuals_and_sane_limits(name):
    tree = load_robot(name)
    assert tree.num_bodies >= 2
    for b in tree.bodies:
        assert b.visuals, f"{name}: body {b.name} has no visuals"
        for v in b.visuals:
            assert v.kind in ("box", "cylinder", "sphere") and all(s > 0 for s in v.size)
    home = tree.home_configuration()
    i = 0
    for b in tree.bodies:
        if b.joint.type == "fixed":
            continue
        lo, hi = (float(v) for v in b.joint.position_limits)
        assert math.isfinite(lo) and math.isfinite(hi) and lo < hi, (name, b.name, lo, hi)
        assert lo <= home[i] <= hi, (name, b.name, home[i], lo, hi)
        i += 1
    assert i == tree.position_count
    # every joint still has its DH row (the app's DH table shows every library robot)
    assert all(e.link is not None for e in chain_dh_table(tree))


@pytest.mark.parametrize("name", OLD + NEW)
def test_visuals_do_not_change_kinematics(name):
    tree = load_robot(name)
    bare = tree.copy()
    for b in bare.bodies:
        b.visuals = ()
    for q in random_qs(tree, 3, 1):
        np.testing.assert_array_equal(tree.forward_kinematics(q), bare.forward_kinematics(q))


@pytest.mark.parametrize("name", OLD + NEW)
def test_describe_and_info(name):
    text = describe_robot(name)
    assert text and "\n" not in text
    info = robot_info(name)
    assert info["name"] == name and info["description"] == text
    assert info["convention"] in ("dh", "mdh")
    assert info["dof"] == load_robot(name).position_count
    assert isinstance(info["source"], str) and len(info["source"]) > 20
    conv = info["convention"]
    assert all(e.convention == conv for e in chain_dh_table(load_robot(name)))


def test_new_robots_cite_and_tag_convention():
    for name in NEW:
        doc = load_robot.__globals__["_ROBOTS"][name].make.__doc__
        assert "Convention:" in doc and ("standard DH" in doc or "modified DH" in doc), name


def test_unknown_robot():
    with pytest.raises(UnknownRobotError):
        robot_info("robby")
    with pytest.raises(UnknownRobotError):
        load_robot("robby", tool=True)


def test_loads_are_independent():
    a, b = load_robot("ur5"), load_robot("ur5")
    a.bodies[0].visuals = ()
    assert b.bodies[0].visuals


# --- against the published tables ----------------------------------------------------------------

@pytest.mark.parametrize("name", NEW)
def test_end_pose_equals_product_of_published_a_matrices(name):
    tree = load_robot(name)
    qs = random_qs(tree, 6, hash(name) % 1000)
    qs[0] = tree.home_configuration()
    for q in qs:
        np.testing.assert_allclose(tree.forward_kinematics(q)[-1], published_pose(name, q), atol=TOL, rtol=0)
    # and every intermediate frame too
    conv, rows, offsets, signs = TABLES[name]
    q = qs[1]
    th = [s * qi + o for qi, o, s in zip(q, offsets, signs)]
    T = tree.forward_kinematics(q)
    for k in range(len(rows)):
        np.testing.assert_allclose(T[k], chain(rows[: k + 1], th[: k + 1], conv), atol=TOL, rtol=0)


@pytest.mark.parametrize("name,xyz", [
    ("ur3", (-(0.24365 + 0.21325), -(0.11235 + 0.0819), 0.1519 - 0.08535)),
    ("ur5", (-0.81725, -0.19145, -0.005491)),
    ("ur10", (-(0.612 + 0.5723), -(0.163941 + 0.0922), 0.1273 - 0.1157)),
])
def test_ur_zero_pose(name, xyz):
    """UR's table at q = 0: arm stretched along −x, wrist offsets along −y; every θ is 0, so the flange
    is turned by Rx(Σα) = Rx(90°) and points along −y."""
    T = load_robot(name).forward_kinematics(np.zeros(6))[-1]
    np.testing.assert_allclose(T[:3, 3], xyz, atol=TOL, rtol=0)
    np.testing.assert_allclose(T[:3, :3], [[1, 0, 0], [0, 0, -1], [0, 1, 0]], atol=TOL, rtol=0)


def test_panda_flange_at_zero():
    """Franka's table at q = 0: flange at (0.088, 0, 0.926), z pointing down."""
    ref = np.array([[1, 0, 0, 0.088], [0, -1, 0, 0], [0, 0, -1, 0.926], [0, 0, 0, 1]])
    with_flange = load_robot("panda", tool=True)
    assert with_flange.body_names[-1] == "flange" and with_flange.bodies[-1].joint.type == "fixed"
    assert with_flange.bodies[-1].visuals
    np.testing.assert_allclose(with_flange.forward_kinematics(np.zeros(7))[-1], ref, atol=TOL, rtol=0)
    plain = load_robot("panda")
    T7 = plain.forward_kinematics(np.zeros(7))[-1]
    np.testing.assert_allclose(T7 @ np.array(robot_info("panda")["tool"]), ref, atol=TOL, rtol=0)
    np.testing.assert_allclose(T7[:3, 3], [0.088, 0, 1.033], atol=TOL, rtol=0)
    for q in random_qs(plain, 5, 3):
        np.testing.assert_allclose(with_flange.forward_kinematics(q)[-1], published_pose("panda", q) @ tz(0.107),
                                   atol=TOL, rtol=0)
    # the flange body is the robot's tool, not a DH joint; the plain robot keeps a full DH table
    assert chain_dh_table(with_flange)[-1].link is None


def test_iiwa_candle_pose():
    """LBR iiwa 14 R820 upright: flange 0.36 + 0.42 + 0.4 + 0.126 = 1.306 m above the base, axes as the base."""
    T = load_robot("kuka_lbr_iiwa14").forward_kinematics(np.zeros(7))[-1]
    np.testing.assert_allclose(T, tz(1.306), atol=TOL, rtol=0)


def test_homes():
    np.testing.assert_allclose(load_robot("ur5").home_configuration(), [0, -pi / 2, 0, -pi / 2, 0, 0])
    panda_home = [0, -pi / 4, 0, -3 * pi / 4, 0, pi / 2, pi / 4]
    np.testing.assert_allclose(load_robot("panda").home_configuration(), panda_home)
    np.testing.assert_allclose(load_robot("jaco").home_configuration(), [pi] * 6)
    # UR upright: shoulder at −90° points the upper arm straight up
    T = load_robot("ur5").forward_kinematics(load_robot("ur5").home_configuration())
    np.testing.assert_allclose(T[2, :3, 3], [0, 0, 0.089159 + 0.425 + 0.39225], atol=TOL)


def test_puma_reference_still_holds():
    q = (0.1, -0.4, 0.7, 0.3, -1.2, 2.0)
    ref = [[-0.588693, -0.382105, 0.712346, 0.303036], [0.769194, -0.535755, 0.348292, -0.120398],
           [0.248558, 0.752969, 0.609308, 0.250363], [0, 0, 0, 1]]
    for name in ("puma560", "puma560_mdh"):
        np.testing.assert_allclose(load_robot(name).forward_kinematics(q)[-1], ref, atol=1e-6, rtol=0)


# --- visual geometry ---------------------------------------------------------------------------

def test_link_rods_join_joint_origins():
    """Every link cylinder's ends sit on the skeleton: UR5's upper-arm rod spans |a2| = 0.425."""
    tree = load_robot("ur5")
    rods = [v for v in tree.get_body("link2").visuals if v.name == "link"]
    assert any(abs(v.size[1] - 0.425) < 1e-12 for v in rods)
    # its ends, in the base frame at home, are the origins of link1 and link2
    q = tree.home_configuration()
    T = tree.forward_kinematics(q)
    rod = next(v for v in rods if abs(v.size[1] - 0.425) < 1e-12)
    P = T[1] @ rod.matrix
    ends = {tuple(np.round((P @ [0, 0, s * rod.size[1] / 2, 1])[:3], 9)) for s in (-1, 1)}
    assert ends == {tuple(np.round(T[0, :3, 3], 9)), tuple(np.round(T[1, :3, 3], 9))}


def test_pedestal_is_symmetric_about_joint_one():
    """The pedestal hangs on link1 (the base draws nothing) and must not move when joint 1 turns."""
    for name in ("panda", "ur5", "kuka_kr5"):
        tree = load_robot(name)
        ped = [v for v in tree.bodies[0].visuals if v.name in ("plate", "pedestal")]
        assert ped, name
        q0, q1 = tree.home_configuration(), tree.home_configuration()
        q1[0] += 0.7
        for v in ped:
            A = tree.forward_kinematics(q0)[0] @ v.matrix
            B = tree.forward_kinematics(q1)[0] @ v.matrix
            np.testing.assert_allclose(A[:3, 3], B[:3, 3], atol=1e-12)
            np.testing.assert_allclose(A[:3, 2], B[:3, 2], atol=1e-12)


def test_prismatic_joints_get_rails_and_carriages():
    tree = load_robot("cylindrical")
    assert any(v.name == "rail" for v in tree.get_body("link1").visuals)
    assert any(v.name == "carriage" for v in tree.get_body("link2").visuals)


# --- optional: Corke's Robotics Toolbox for Python -----------------------------------------------

RTB_NAMES = [("UR3", "ur3"), ("UR10", "ur10"), ("KR5", "kuka_kr5"), ("IRB140", "abb_irb140"), ("Jaco", "jaco"),
             ("Puma560", "puma560"), ("Puma560", "puma560_mdh")]


@pytest.mark.parametrize("rtb_name,name", RTB_NAMES)
def test_against_rtb(rtb_name, name):
    rtb = pytest.importorskip("roboticstoolbox")
    model = getattr(rtb.models.DH, rtb_name)()
    tree = load_robot(name)
    # rtb's Puma560 stands on its 0.67183 m pedestal (d1); the library's (Corke's MATLAB table) does not
    base = tz(0.67183) if rtb_name == "Puma560" else np.eye(4)
    for q in random_qs(tree, 5, 11):
        np.testing.assert_allclose(base @ tree.forward_kinematics(q)[-1], model.fkine(q).A, atol=1e-12, rtol=0)


def test_against_rtb_ur5_and_panda():
    rtb = pytest.importorskip("roboticstoolbox")
    sm = pytest.importorskip("spatialmath")
    ur5 = rtb.models.DH.UR5()
    assert abs(ur5.links[0].d - 0.089459) < 1e-12  # rtb's d1 differs from UR's published 0.089159
    ur5.links[0].d = 0.089159
    panda = rtb.models.DH.Panda()
    panda.tool = sm.SE3()  # rtb adds a 0.103 m gripper; its link 7 already includes the 0.107 flange
    for model, name, tool in ((ur5, "ur5", False), (panda, "panda", True)):
        tree = load_robot(name, tool=tool)
        for q in random_qs(tree, 5, 12):
            np.testing.assert_allclose(tree.forward_kinematics(q)[-1], model.fkine(q).A, atol=1e-12, rtol=0)


# --- derived visuals follow geometry edits ----------------------------------------------------

@pytest.mark.parametrize("name", [n for n in list_robots() if robot_info(n)["convention"] in ("dh", "mdh")])
def test_refit_visuals_reproduces_the_library_visuals(name):
    from kinetree.core.library import refit_visuals

    a = load_robot(name)
    b = a.copy()
    assert refit_visuals(a, b)
    for x, y in zip(a.bodies, b.bodies):
        assert [(v.kind, v.name) for v in x.visuals] == [(v.kind, v.name) for v in y.visuals]
        for va, vb in zip(x.visuals, y.visuals):
            np.testing.assert_allclose(va.matrix, vb.matrix, atol=1e-12)
            np.testing.assert_allclose(va.size, vb.size, atol=1e-12)
            assert va.color == vb.color


def test_refit_visuals_follows_a_longer_link_and_spares_user_visuals():
    from kinetree.core import Visual, rebuild_chain
    from kinetree.core.dh.chain import chain_dh_table
    from kinetree.core.library import refit_visuals

    a = load_robot("two_link_planar")
    links = [e.link for e in chain_dh_table(a)]
    links[0].a = 2.0
    b = rebuild_chain(a, links)
    assert refit_visuals(a, b)
    length = {t: max(v.size[1] for v in t.get_body("link1").visuals if v.name == "link") for t in (a, b)}
    assert length[b] == pytest.approx(2.0) and length[a] == pytest.approx(1.0)
    a.get_body("link2").visuals = [*a.get_body("link2").visuals, Visual("sphere", (0.1,))]  # the user's own
    c = rebuild_chain(a, links)
    assert not refit_visuals(a, c)
    assert c.get_body("link1").visuals == a.get_body("link1").visuals


def test_a_look_found_once_redraws_every_edit_as_refit_visuals_does():
    """A frame drag finds the look at its start and redraws each commit in it."""
    from kinetree.core import Visual, rebuild_chain
    from kinetree.core.dh.chain import chain_dh_table
    from kinetree.core.library.visuals import derived_look, refit_visuals

    a = load_robot("puma560")
    look = derived_look(a)
    assert look is not None
    links = [e.link for e in chain_dh_table(a)]
    for length in (0.3, 0.6, 0.9):  # the commits of one drag of link3's a
        links[2].a = length
        b, c = rebuild_chain(a, links), rebuild_chain(a, links)
        look.apply(b)
        assert refit_visuals(a, c)
        for x, y in zip(b.bodies, c.bodies):
            assert [(v.kind, v.name, v.size, v.color) for v in x.visuals] == [
                (v.kind, v.name, v.size, v.color) for v in y.visuals]
            for vb, vc in zip(x.visuals, y.visuals):
                np.testing.assert_array_equal(vb.matrix, vc.matrix)
        drawn = [v.size[1] for v in b.get_body("link3").visuals if v.name == "link"]
        assert length == pytest.approx(drawn[-1])  # standard DH: link3 shows its d, then its a
    a.get_body("link2").visuals = [*a.get_body("link2").visuals, Visual("sphere", (0.1,))]  # the user's own
    assert derived_look(a) is None


def test_pose_along_is_bit_identical_to_the_numpy_construction():
    """Saved projects keep their bytes: even the signs of the zeros match (axis-aligned links); other
    directions agree to the last bits that BLAS leaves alike."""
    from kinetree.core.library.visuals import _pose_along

    def reference(z, origin):
        z = z / np.linalg.norm(z)
        h = np.array([1.0, 0.0, 0.0]) if abs(z[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        x = h - np.dot(h, z) * z
        x /= np.linalg.norm(x)
        T = np.eye(4)
        T[:3, 0], T[:3, 1], T[:3, 2], T[:3, 3] = x, np.cross(z, x), z, origin
        return T

    rng = np.random.default_rng(7)
    axes = [np.array(v, dtype=float) for v in np.eye(3)] + [-np.array(v, dtype=float) for v in np.eye(3)]
    axes += [np.array([0.0, -0.0, 1.0]), np.array([-0.0, 0.6, 0.8])]
    axes += list(rng.normal(size=(2000, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(2000, 1)))
    for k, z in enumerate(axes):
        o = rng.normal(size=3)
        if k < 8:  # axis-aligned: exact, the signs of the zeros included
            assert reference(z, o).tobytes() == _pose_along(z, o).tobytes(), z
        else:  # numpy's norm goes through BLAS's dot, whose last bit depends on the CPU's kernel
            np.testing.assert_allclose(_pose_along(z, o), reference(z, o), rtol=0, atol=1e-15, err_msg=str(z))
