"""The reference values of /work/shared/kinematics.md, checked against the engine."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers.trees import hyp_settings
from hypothesis import given
from hypothesis import strategies as st
from kinetree.core import DHLink, dh_chain, load_robot

TOL = 1e-12


def _angle(lo: float = -math.pi, hi: float = math.pi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


# --- two-link planar arm ---------------------------------------------------------------------

TWO_LINK_REF = np.array([[0, -1, 0, 0.5], [1, 0, 0, 1.3660], [0, 0, 1, 0], [0, 0, 0, 1]])


@pytest.mark.parametrize("source", ["library", "dh_chain"])
def test_two_link_planar_60_30(source):
    if source == "library":
        tree = load_robot("two_link_planar")
    else:
        tree = dh_chain([DHLink("R", a=1.0, alpha=0, d=0, theta=0), DHLink("R", a=0.5, alpha=0, d=0, theta=0)])
    q = np.radians([60.0, 30.0])
    T = tree.forward_kinematics(q)[-1]
    # the document prints 4 decimals
    np.testing.assert_allclose(T, TWO_LINK_REF, atol=5e-5, rtol=0)
    # and the exact closed form
    exact = TWO_LINK_REF.copy()
    exact[1, 3] = math.sin(math.pi / 3) + 0.5
    np.testing.assert_allclose(T, exact, atol=TOL, rtol=0)
    np.testing.assert_allclose(tree.get_transform(q, tree.body_names[-1]), exact, atol=TOL, rtol=0)


@hyp_settings()
@given(t1=_angle(), t2=_angle())
def test_two_link_planar_closed_form(t1, t2):
    tree = load_robot("two_link_planar")
    T = tree.forward_kinematics([t1, t2])
    c12, s12 = math.cos(t1 + t2), math.sin(t1 + t2)
    expected = np.array([[c12, -s12, 0, math.cos(t1) + 0.5 * c12],
                         [s12, c12, 0, math.sin(t1) + 0.5 * s12],
                         [0, 0, 1, 0], [0, 0, 0, 1]])
    np.testing.assert_allclose(T[-1], expected, atol=TOL, rtol=0)
    np.testing.assert_allclose(T[0, :3, 3], [math.cos(t1), math.sin(t1), 0], atol=TOL, rtol=0)


# --- Puma 560 ----------------------------------------------------------------------------------

PUMA_Q = (0.1, -0.4, 0.7, 0.3, -1.2, 2.0)
PUMA_REF = np.array([
    [-0.588693, -0.382105, 0.712346, 0.303036],
    [0.769194, -0.535755, 0.348292, -0.120398],
    [0.248558, 0.752969, 0.609308, 0.250363],
    [0, 0, 0, 1],
])


def _puma_from_doc_rows():
    rows = [(0, math.pi / 2, 0), (0.4318, 0, 0), (0.0203, -math.pi / 2, 0.15005),
            (0, math.pi / 2, 0.4318), (0, -math.pi / 2, 0), (0, 0, 0)]
    return dh_chain([DHLink("R", a=a, alpha=al, d=d, theta=0) for a, al, d in rows])


@pytest.mark.parametrize("make", [lambda: load_robot("puma560"), _puma_from_doc_rows], ids=["library", "doc_rows"])
def test_puma_zero_configuration_last_origin(make):
    tree = make()
    T = tree.forward_kinematics(np.zeros(6))
    np.testing.assert_allclose(T[-1, :3, 3], [0.4521, -0.15005, 0.4318], atol=TOL, rtol=0)
    assert T.shape == (6, 4, 4)


@pytest.mark.parametrize("name", ["puma560", "puma560_mdh"])
def test_puma_end_pose_reference(name):
    tree = load_robot(name)
    T = tree.forward_kinematics(np.array(PUMA_Q))[-1]
    # the reference is printed to 6 decimals
    np.testing.assert_allclose(T, PUMA_REF, atol=1e-6, rtol=0)
    np.testing.assert_allclose(tree.get_transform(PUMA_Q, tree.body_names[-1]), T, atol=TOL, rtol=0)


def test_puma_doc_rows_equal_library(puma):
    doc = _puma_from_doc_rows()
    rng = np.random.default_rng(5)
    for _ in range(10):
        q = rng.uniform(-math.pi, math.pi, 6)
        np.testing.assert_allclose(doc.forward_kinematics(q), puma.forward_kinematics(q), atol=TOL, rtol=0)


# --- textbook closed forms (Spong et al.) --------------------------------------------------------

@hyp_settings()
@given(t1=_angle(), d2=st.floats(0.0, 1.0), d3=st.floats(0.0, 0.8))
def test_cylindrical_closed_form(t1, d2, d3):
    tree = load_robot("cylindrical")
    d1 = 0.5
    c1, s1 = math.cos(t1), math.sin(t1)
    expected = np.array([[c1, 0, -s1, -s1 * d3], [s1, 0, c1, c1 * d3], [0, -1, 0, d1 + d2], [0, 0, 0, 1]])
    T = tree.forward_kinematics([t1, d2, d3])[-1]
    np.testing.assert_allclose(T, expected, atol=TOL, rtol=0)


@hyp_settings()
@given(t1=_angle(-2.6, 2.6), t2=_angle(-2.6, 2.6), d3=st.floats(0.0, 0.3), t4=_angle())
def test_scara_closed_form(t1, t2, d3, t4):
    tree = load_robot("scara")
    a1, a2, d4 = 0.4, 0.3, 0.1
    c1, s1 = math.cos(t1), math.sin(t1)
    c12, s12 = math.cos(t1 + t2), math.sin(t1 + t2)
    c4, s4 = math.cos(t4), math.sin(t4)
    expected = np.array([
        [c12 * c4 + s12 * s4, -c12 * s4 + s12 * c4, 0, a1 * c1 + a2 * c12],
        [s12 * c4 - c12 * s4, -s12 * s4 - c12 * c4, 0, a1 * s1 + a2 * s12],
        [0, 0, -1, -d3 - d4],
        [0, 0, 0, 1],
    ])
    T = tree.forward_kinematics([t1, t2, d3, t4])[-1]
    np.testing.assert_allclose(T, expected, atol=TOL, rtol=0)


@hyp_settings()
@given(t4=_angle(), t5=_angle(-2.0, 2.0), t6=_angle())
def test_spherical_wrist_closed_form(t4, t5, t6):
    tree = load_robot("spherical_wrist")
    assert tree.movable_joint_names == ["q4", "q5", "q6"]
    d6 = 0.1
    c4, s4, c5, s5, c6, s6 = (f(t) for t in (t4, t5, t6) for f in (math.cos, math.sin))
    T = tree.forward_kinematics({"q4": t4, "q5": t5, "q6": t6})[-1]
    np.testing.assert_allclose(T[:, 3], [c4 * s5 * d6, s4 * s5 * d6, c5 * d6, 1.0], atol=TOL, rtol=0)
    # the full rotation of Spong's T_6^3
    R = np.array([
        [c4 * c5 * c6 - s4 * s6, -c4 * c5 * s6 - s4 * c6, c4 * s5],
        [s4 * c5 * c6 + c4 * s6, -s4 * c5 * s6 + c4 * c6, s4 * s5],
        [-s5 * c6, s5 * s6, c5],
    ])
    np.testing.assert_allclose(T[:3, :3], R, atol=TOL, rtol=0)


def test_library_docstring_parameters():
    """The link values the closed-form tests rely on."""
    cyl = load_robot("cylindrical")
    np.testing.assert_allclose(cyl.forward_kinematics(np.zeros(3))[0, :3, 3], [0, 0, 0.5], atol=TOL)
    scara = load_robot("scara")
    np.testing.assert_allclose(scara.forward_kinematics(np.zeros(4))[-1, :3, 3], [0.7, 0, -0.1], atol=TOL)
    wrist = load_robot("spherical_wrist")
    np.testing.assert_allclose(wrist.forward_kinematics(np.zeros(3))[-1, :3, 3], [0, 0, 0.1], atol=TOL)
