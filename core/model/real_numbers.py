"""Telling a real number from a complex one in what a caller passed (numpy casts a complex to its
real part with only a warning). Below :mod:`.joint`, :mod:`.joint_subspace` and
:mod:`.configuration`, which all refuse complex input with the same words."""

from __future__ import annotations

from typing import Any

import numpy as np


def complex_entries(value: Any) -> np.ndarray | None:
    """Where ``value`` (a number or an array-like) holds complex numbers, as a boolean array of
    its shape; ``None`` when it holds none (or is not an array of numbers). numpy would cast a
    complex to its real part with only a warning. In a complex numpy array, the entries with a
    non-zero imaginary part (every entry when there is none)."""
    if isinstance(value, complex):  # numpy's complex scalars are Python complexes too
        return np.ones((), bool)
    if isinstance(value, np.ndarray) and value.dtype != object:
        if not np.iscomplexobj(value):
            return None
        mask = value.imag != 0
        return mask if mask.any() else np.ones(value.shape, bool)
    try:  # a list: its entries as given (np.asarray would make every number complex)
        a = np.asarray(value, dtype=object)
    except (TypeError, ValueError):
        return None
    mask = np.asarray(np.frompyfunc(lambda x: isinstance(x, complex), 1, 1)(a), dtype=bool)
    if not mask.any() and a.size and a.size < 10_000:  # nested arrays inside a list
        inner = [complex_entries(x) for x in a.reshape(-1) if isinstance(x, np.ndarray)]
        if any(m is not None and m.any() for m in inner):
            return np.ones(a.shape, bool)
    return mask


def complex_problem(value: Any) -> str | None:
    """Why ``value`` is no real number(s): its first complex entry, else ``None``."""
    mask = complex_entries(value)
    if mask is None or not mask.any():
        return None
    return complex_text(value, int(np.flatnonzero(mask.reshape(-1))[0]))


def complex_text(value: Any, index: int) -> str:
    """The words refusing entry ``index`` (flat) of ``value``, a complex number."""
    entry = np.asarray(value, dtype=object).reshape(-1)[index]
    return (f"{entry!r:.40} is a complex number; joint positions must be real numbers (a complex is refused "
            "even when its imaginary part is zero: pass its .real)")
