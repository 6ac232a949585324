"""Fixtures for the kinetree.core test-suite (helpers live in tests/helpers/, e.g. helpers.trees)."""

from __future__ import annotations

import numpy as np
import pytest
from kinetree.core import load_robot


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20240601)


@pytest.fixture
def puma():
    return load_robot("puma560")


@pytest.fixture
def two_link():
    return load_robot("two_link_planar")
