"""Typed exercise answers are checked within a time budget: a deeply nested expression (which
sympy took days over in degrees mode) is refused at once, a check that runs long is reported, and
ordinary answers still check right."""

from __future__ import annotations

import math
import threading
import time

import pytest
from kinetree.app.model import exercises
from kinetree.app.model.answers import MAX_CALLS_NESTED, read_value
from kinetree.app.model.dh_chain import cached_chain
from kinetree.app.model.exercises import check_entries, check_entry, make_exercise, shown_answer
from kinetree.app.model.numbers import DEGREES, PLAIN
from kinetree.core import load_robot

NESTED_28 = "sin(" * 28 + "1" + ")" * 28  # 141 characters, within the length limit


def finishes_within(seconds: float, work):
    """``work()``'s result, failing the test if it takes longer than ``seconds`` (the thread is
    left behind as a daemon: the old parser could not be stopped either)."""
    out: list = []
    worker = threading.Thread(target=lambda: out.append(work()), daemon=True)
    start = time.perf_counter()
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still computing after {seconds} s"
    return out[0], time.perf_counter() - start


@pytest.fixture(scope="module")
def puma():
    tree = load_robot("puma560")
    return tree, cached_chain(tree, None)


@pytest.mark.parametrize("kind", ["row", "symbolic"])
@pytest.mark.parametrize("radians", [False, True])
def test_28_nested_sines_are_refused_within_a_second(puma, kind, radians):
    assert len(NESTED_28) == 141
    ex = make_exercise(*puma, kind, 2, 3)
    (ok, why), seconds = finishes_within(5, lambda: check_entry(ex, 1, NESTED_28, 1e-3, radians))
    assert not ok and f"functions nested more than {MAX_CALLS_NESTED} deep" in why and "entry" in why
    assert seconds < 1


def test_nesting_within_the_limit_in_degrees_is_computed_as_numbers(puma):
    # the old symbolic build of 6 levels in degrees mode took ~0.05 s, 14 levels 6-9 s: doubling per level
    text = "sin(" * MAX_CALLS_NESTED + "30" + ")" * MAX_CALLS_NESTED
    expected = 30.0
    for _ in range(MAX_CALLS_NESTED):
        expected = math.sin(math.radians(expected))
    value, seconds = finishes_within(5, lambda: read_value(text, "entry", PLAIN))
    assert value == pytest.approx(expected, rel=1e-12) and seconds < 0.1


@pytest.mark.parametrize(("text", "quantity", "expected"), [
    ("cos(60)", PLAIN, 0.5), ("cos(pi/3)", PLAIN, 0.5), ("cos(30°)", PLAIN, math.sqrt(3) / 2),
    ("sqrt(3)/2", PLAIN, math.sqrt(3) / 2), ("atan2(1, 1)", DEGREES, 45.0), ("2^3 - 1", PLAIN, 7.0),
    ("pi/4", DEGREES, 45.0), ("-sin(90)*0.4318", PLAIN, -0.4318), ("cos(pi*120/180)", PLAIN, -0.5)])
def test_ordinary_number_answers_still_read_right(text, quantity, expected):
    assert read_value(text, "entry", quantity) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(("text", "why"), [
    ("sqrt(-1)", "not a real number"), ("(-8)**(1/3)", "not a real number"), ("9**9**9", "at most 16"),
    ("1e300*1e300", "'1e300*1e300'"), ("0**-1", "division by zero"),
    ("((9**16)**16)**16", "too large"), ("(9**16)**16*1e100", "not finite"),
    ("__import__('os')", "not an allowed answer")])
def test_bad_number_answers_are_refused_naming_the_entry(text, why):
    with pytest.raises(exercises.KineTreeError, match="entry") as err:
        read_value(text, "entry", PLAIN)
    assert why in str(err.value)


def test_right_answers_check_right_and_wrong_ones_wrong(puma):
    ex = make_exercise(*puma, "row", 2, 3)
    right = [repr(v) for v in shown_answer(ex)]
    assert check_entries(ex, right, 1e-3) == [(True, "")] * 4
    sym = make_exercise(*puma, "symbolic", 1, 0)
    from kinetree.core.teach.symbolic import to_text
    texts = [to_text(e) for e in sym.expression]
    assert all(ok for ok, _ in check_entries(sym, texts, 1e-3))
    texts[0] = f"({texts[0]}) + 1"
    assert not check_entries(sym, texts, 1e-3)[0][0]


def test_a_check_past_its_budget_is_reported_not_waited_for(puma, monkeypatch):
    ex = make_exercise(*puma, "row", 2, 3)
    release = threading.Event()
    real = exercises.check_entry

    def slow(ex, k, text, tolerance, radians=False):
        if k == 2:
            release.wait(30)  # a check that would run on
        return real(ex, k, text, tolerance, radians)

    monkeypatch.setattr(exercises, "check_entry", slow)
    right = [repr(v) for v in shown_answer(ex)]
    try:
        results, seconds = finishes_within(5, lambda: check_entries(ex, right, 1e-3, budget=0.2))
    finally:
        release.set()
    assert results[:2] == [(True, "")] * 2 and seconds < 2
    assert results[2:] == [(False, "could not be checked in 0.2 s (too much to compute)")] * 2
