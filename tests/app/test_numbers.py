"""Typed numbers (app/model/numbers.py): the safe parser, exact unit conversions and exact texts."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kinetree.app.model.numbers import (
    exact_text,
    metres_to_mm,
    mm_to_metres,
    parse_number,
    parse_numbers,
    same_numbers,
    short_text,
    to_degrees,
    to_radians,
)
from kinetree.core import KineTreeError


@pytest.mark.parametrize("text, value", [
    ("0.0203", 0.0203), ("1e-3", 1e-3), ("-90", -90.0), (".5", 0.5), ("2.", 2.0), ("+3", 3.0),
    ("pi/2", math.pi / 2), ("-0.4318*2", -0.8636), ("(1+2)*3", 9.0), ("-(1-3)", 2.0),
    ("2*pi", 2 * math.pi), ("π", math.pi), (" 1 - 2 ", -1.0), ("1 - -2", 3.0), ("8/2/2", 2.0),
    ("1+2*3", 7.0), ("-2*-2", 4.0), ("1E+2", 100.0),
])
def test_parse_number_reads_floats_and_arithmetic(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize("text", [
    "", "  ", "abc", "nan", "NaN", "inf", "-inf", "1/0", "1e400", "(1", "1)", "2pi", "1 2",
    "__import__('os')", "1**2", "1;2", "x", "0x10", "[1]", "1,5", "pi(", "*2", "1e", "-" * 60 + "1",
    "9" * 201,
])
def test_parse_number_refuses_what_is_not_a_finite_number(text):
    with pytest.raises(KineTreeError, match="home"):
        parse_number(text, "home")


def test_inf_only_where_allowed():
    assert parse_number("inf", allow_inf=True) == math.inf
    assert parse_number("-inf", allow_inf=True) == -math.inf
    with pytest.raises(KineTreeError):
        parse_number("nan", allow_inf=True)


def test_parse_numbers_splits_on_commas_or_words():
    assert parse_numbers("0.0203 0 -pi/2", 3, "xyz") == [0.0203, 0.0, -math.pi / 2]
    assert parse_numbers("1, 2 * 3, pi / 2", 3, "xyz") == [1.0, 6.0, math.pi / 2]
    assert parse_numbers("pi / 2", 1, "home") == [math.pi / 2]
    with pytest.raises(KineTreeError, match="expected 3 numbers, got 2"):
        parse_numbers("1 2", 3, "xyz")


def test_round_degrees_convert_to_the_exact_radians():
    assert to_radians(-90) == -math.pi / 2
    assert to_radians(90) == math.pi / 2
    assert to_radians(180) == math.pi
    assert to_radians(-180) == -math.pi
    assert to_radians(60) == math.pi / 3
    assert to_radians(45) == math.pi / 4
    assert to_radians(30) == math.pi / 6
    assert to_radians(120) == 2 * math.pi / 3
    assert to_radians(135) == 3 * math.pi / 4
    assert to_radians(0.1) == math.radians(0.1)
    for d in range(-720, 721, 15):  # every multiple of 15°: within one rounding of math.radians
        assert to_radians(d) == pytest.approx(math.radians(d), rel=1e-15, abs=0)


@pytest.mark.parametrize("value, text", [
    (0.0203, "0.0203"), (0.15005, "0.15005"), (1.0, "1"), (0.0, "0"), (-0.0, "0"), (1e-5, "0.00001"),
    (-0.4318, "-0.4318"), (1e21, "1e21"),
])
def test_exact_text_is_the_shortest_repr(value, text):
    assert exact_text(value) == text
    assert float(exact_text(value)) == value


def test_exact_text_shows_at_most_12_significant_digits():
    assert exact_text(1 / 3) == "0.333333333333"  # the editors keep 1/3 while this is left as shown
    assert exact_text(0.30000000000000004) == "0.3"


def test_exact_text_in_degrees_converts_back_to_the_identical_float():
    assert exact_text(math.pi / 2, to_degrees, to_radians) == "90"
    assert exact_text(-math.pi / 2, to_degrees, to_radians) == "-90"
    assert exact_text(1.5708, to_degrees, to_radians) == "90.0002104591"  # 12 digits of 90.00021045914971


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6))
def test_exact_text_is_any_float_to_12_digits(value):
    shown = exact_text(value)
    assert parse_number(shown) == value or parse_number(shown) == float(f"{value:.12g}")
    shown = exact_text(value, to_degrees, to_radians)
    if to_radians(float(shown)) != value:  # no 12-digit text reaches it: 12 digits of the degrees
        assert float(shown) == float(f"{to_degrees(value):.12g}")


def test_short_text_and_same_numbers():
    assert short_text(3.4906585039886591) == "3.49066"
    assert short_text(200.0) == "200"
    assert same_numbers("1  2, 3", "1 2 3")
    assert not same_numbers("1 2 3", "1 2 3.0")


def test_millimetres_convert_by_moving_the_decimal_point():
    assert mm_to_metres(20.3) == 0.0203 and metres_to_mm(0.0203) == 20.3
    assert mm_to_metres(1e-5) == 1e-8 and mm_to_metres(-150.05) == -0.15005
    assert exact_text(0.15005, metres_to_mm, mm_to_metres) == "150.05"
    assert metres_to_mm(np.float64(0.5)) == 500.0 and mm_to_metres(np.float64(500)) == 0.5  # numpy limits


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e4, max_value=1e4))
def test_millimetre_text_round_trips(value):
    back = mm_to_metres(float(exact_text(value, metres_to_mm, mm_to_metres)))
    # equal unless no 12-digit text reaches it (editors keep the stored value while it is shown)
    assert abs(back - value) <= 5e-12 * abs(value) + math.ulp(value)
    if abs(value) < 1000 and len(repr(value)) < 12:  # a value typed in metres: its mm text is exact
        assert back == value
