"""A student's own DH frames (core/frame_assignment.py): the offered choices give a DH table
whose T_n^0 is the robot's FK, any z/x sign choice too, and wrong frames are told in words."""

import math

import numpy as np
import pytest
from kinetree.core.dh.chain import DHLink, chain_dh_table, dh_chain
from kinetree.core.dh.frame_assignment import (
    FrameAssignment,
    FrameAssignmentError,
    check_frame,
    compare_with_extraction,
)
from kinetree.core.library import load_robot

ROBOTS = ["puma560", "stanford", "cylindrical", "scara", "two_link_planar", "panda"]


def _configs(n, count=12, seed=3):
    return np.random.default_rng(seed).uniform(-2.5, 2.5, (count, n))


@pytest.mark.parametrize("name", ROBOTS)
def test_offered_choices_give_the_robots_fk(name):
    fa = FrameAssignment(load_robot(name))
    table = fa.follow_offered()
    assert len(table.rows) == fa.n
    assert table.fk_difference(_configs(fa.n)) < 1e-12
    # and every row is a real DH row: A_i(0) is F_{i-1}^{-1} F_i exactly
    for i, row in enumerate(table.rows):
        A = np.linalg.inv(table.frames[i].matrix) @ table.frames[i + 1].matrix
        assert np.abs(A - row.transform(0.0)).max() < 1e-12


@pytest.mark.parametrize("name", ROBOTS)
def test_every_sign_choice_still_gives_the_robots_fk(name):
    fa = FrameAssignment(load_robot(name))
    n = fa.n
    rng = np.random.default_rng(len(name))
    z_signs = rng.choice([-1, 1], n + 1)
    picks = rng.integers(0, 2, n + 1)
    table = fa.follow_offered(z_signs, picks)
    assert table.fk_difference(_configs(n)) < 1e-12
    for k in range(n):  # the variable runs against q where z_{k} was chosen against joint k+1's axis
        assert table.rows[k].sign == z_signs[k]


def test_puma_table_matches_the_lecture_shape():
    table = FrameAssignment(load_robot("puma560")).follow_offered()
    assert [round(abs(math.degrees(r.alpha))) for r in table.rows] == [90, 0, 90, 90, 90, 0]
    assert [r.joint for r in table.rows] == ["R"] * 6
    assert "θ₁ = q₁" == table.rows[0].variable_text(1)


def test_stanford_prismatic_row_has_d_as_variable():
    fa = FrameAssignment(load_robot("stanford"))
    table = fa.follow_offered(z_signs=[1, 1, -1, 1, 1, 1, 1])
    assert table.rows[2].joint == "P"
    assert table.rows[2].variable_text(3).startswith("d₃ = −q₃")


def test_wrong_x_is_told_in_words():
    fa = FrameAssignment(load_robot("puma560"))
    fa.follow_offered()
    fa.back()  # frames 0…5 kept; frame 6 asked again
    fa.back()
    fa.back()  # frame 4 next
    z = fa.z_choices()[0]
    good = fa.x_candidates(z)[0]
    # tilt x about z_4 by 10°: still ⟂ z_4 but not ⟂ z_3
    y = np.cross(z, good.x)
    tilted = math.cos(math.radians(10)) * good.x + math.sin(math.radians(10)) * y
    _, problems = fa.check(z, tilted, good.origin)
    assert any("x₄ is not perpendicular to z₃" in p and "DH1 fails" in p for p in problems), problems
    # shift the origin 0.12 m along z_4: x_4 no longer meets z_3 (the wrist axes intersect)
    _, problems = fa.check(z, good.x, good.origin + 0.12 * z)
    assert problems == ["x₄ does not meet z₃: they pass 0.120 m apart: DH2 fails"]
    with pytest.raises(FrameAssignmentError, match="DH1 fails"):
        fa.accept(z, tilted, good.origin)
    assert fa.step == 4  # nothing stored


def test_z_off_the_axis_is_told():
    fa = FrameAssignment(load_robot("two_link_planar"))
    z = fa.z_choices()[0]
    c = fa.x_candidates(z)[0]
    fa.accept(z, c.x, c.origin)
    zt = z + np.array([0.0, 0.3, 0.0]) if abs(z[1]) < 0.9 else z + np.array([0.3, 0.0, 0.0])
    _, problems = fa.check(zt, c.x, c.origin)
    assert any(p.startswith("z₁ is not along joint 2's axis") for p in problems), problems
    c1 = fa.x_candidates(z)[0]
    _, problems = fa.check(z, c1.x, c1.origin + 0.2 * c1.x + 0.1 * np.cross(z, c1.x))
    assert any("o₁ is not on joint 2's axis" in p for p in problems), problems


def test_dh2_gap_is_measured():
    """A two-link arm with a 0.12 m offset: x_1 shifted along z_1 passes z_0 at that distance."""
    tree = dh_chain([DHLink("R", a=0.5, alpha=math.pi / 2), DHLink("R", a=0.4)])
    fa = FrameAssignment(tree)
    z = fa.z_choices()[0]
    c = fa.x_candidates(z)[0]
    fa.accept(z, c.x, c.origin)
    z1 = fa.z_choices()[0]
    c1 = fa.x_candidates(z1)[0]
    _, problems = fa.check(z1, c1.x, c1.origin + 0.12 * z1)
    assert problems == ["x₁ does not meet z₀: they pass 0.120 m apart: DH2 fails"]


def test_check_frame_dh1_angle_in_words():
    tree = dh_chain([DHLink("R", a=0.5), DHLink("R", a=0.4)])
    fa = FrameAssignment(tree)
    fa.follow_offered()
    f0, f1 = fa.frames[0], fa.frames[1]
    bad = type(f1)(f1.origin, np.array([math.cos(math.radians(80)), 0.0, math.sin(math.radians(80))]), f1.z)
    problems = check_frame(f0, bad, fa.lines[1], 1)
    assert "x₁ is not perpendicular to z₀ (10.0°): DH1 fails" in problems


def test_comparison_explains_each_differing_row():
    fa = FrameAssignment(load_robot("scara"))
    n = fa.n
    table = fa.follow_offered(z_signs=[1, -1] + [1] * (n - 1))
    diffs = dict(compare_with_extraction(table, fa))
    assert "your z₁ points against joint 2's axis" in diffs[2]
    assert "q₂ enters with a minus" in diffs[2]
    assert set(diffs) == {1, 2}
    fa = FrameAssignment(load_robot("puma560"))
    assert compare_with_extraction(fa.follow_offered(), fa) == []  # the first offers are extract_dh's
    fa = FrameAssignment(load_robot("puma560"))
    diffs = dict(compare_with_extraction(fa.follow_offered(picks=[0, 0, 0, 0, 0, 1, 0]), fa))
    assert set(diffs) == {5}  # frame 6 follows x₅ (z₅, z₆ one line: x₆ = x₅), so row 6 agrees
    assert "z₄ and z₅ intersect" in diffs[5] and "θ₅ differs by 180° and a₅, α₅ change sign" in diffs[5]


@pytest.mark.parametrize("name", ["puma560", "scara", "two_link_planar", "stanford_lecture"])
def test_first_offers_reproduce_the_lectures_table(name):
    """Following the first offer (z along each axis) gives the library's own DH table."""
    tree = load_robot(name)
    table = FrameAssignment(tree).follow_offered()
    for row, entry in zip(table.rows, chain_dh_table(tree), strict=True):
        link = entry.link
        theta = link.theta + (link.offset if link.joint == "R" else 0.0)
        d = link.d + (link.offset if link.joint == "P" else 0.0)
        assert row.joint == link.joint and row.sign == 1
        assert row.a == pytest.approx(link.a, abs=1e-12) and row.d == pytest.approx(d, abs=1e-12)
        assert math.remainder(row.alpha - link.alpha, 2 * math.pi) == pytest.approx(0, abs=1e-12)
        assert math.remainder(row.theta - theta, 2 * math.pi) == pytest.approx(0, abs=1e-12)


def test_same_choices_as_extract_dh_have_no_differences():
    fa = FrameAssignment(load_robot("two_link_planar"))
    assert compare_with_extraction(fa.follow_offered(), fa) == []


def test_order_is_enforced():
    fa = FrameAssignment(load_robot("two_link_planar"))
    with pytest.raises(FrameAssignmentError, match="not assigned yet"):
        fa.derive()
    fa.follow_offered()
    with pytest.raises(FrameAssignmentError, match="all 3 frames"):
        fa.z_choices()


def test_parallel_axes_let_the_origin_slide():
    """Planar arm: x_1 may be any common normal of the parallel z_0, z_1; one 0.1 m up is valid,
    gives the robot's FK, and the comparison says d_1 differs because of the slide (frame 2 follows
    the normal through the slid o_1, so row 2 is extract_dh's again)."""
    fa = FrameAssignment(load_robot("two_link_planar"))
    z = fa.z_choices()[0]
    c = fa.x_candidates(z)[0]
    fa.accept(z, c.x, c.origin)
    z1 = fa.z_choices()[0]
    c1 = fa.x_candidates(z1)[0]
    assert "∥" in c1.text
    fa.accept(z1, c1.x, c1.origin + 0.1 * z1)
    table = fa.follow_offered()
    assert table.fk_difference(_configs(fa.n)) < 1e-12
    diffs = dict(compare_with_extraction(table, fa))
    assert set(diffs) == {1}
    assert "your o₁ is +0.100 m along z₁" in diffs[1] and "z₀ ∥ z₁ lets the common normal slide" in diffs[1]
    assert "d₁ differs" in diffs[1]


def test_z_on_another_joints_axis_is_offered_and_refused_naming_dhs_rule():
    """The classic mistake can be made (z on any joint's axis, x offered from there) and is caught."""
    tree = load_robot("puma560")
    fa = FrameAssignment(tree, tree.end_effector)
    for _ in range(2):  # frames 0 and 1 as offered
        z = fa.z_choices()[0]
        c = fa.x_candidates(z)[0]
        fa.accept(z, c.x, c.origin)
    for wrong in (0, 1, 4):  # joint 1's axis (⟂ joint 3's), joint 2's (∥ but elsewhere), joint 5's
        z = fa.z_choices(wrong)[0]
        c = fa.x_candidates(z, wrong)[0]
        _frame, problems = fa.check(z, c.x, c.origin)
        assert problems[0] == (f"z₂ lies along joint {wrong + 1}'s axis: DH's rule is zᵢ₋₁ along joint i's "
                               "axis, so z₂ belongs on joint 3's axis"), problems
        with pytest.raises(FrameAssignmentError, match="DH's rule"):
            fa.accept(z, c.x, c.origin)
    z = fa.z_choices(2)[0]  # the right one
    c = fa.x_candidates(z, 2)[0]
    assert fa.check(z, c.x, c.origin)[1] == []
    with pytest.raises(FrameAssignmentError, match="axis 9"):
        fa.z_choices(9)
