"""Compiled projected Gauss–Seidel for the simulator's Coulomb friction (the optional fast path
of :mod:`~kinetree.core.simulation`; the same loop runs in Python without numba)."""

from __future__ import annotations

import numba as nb


@nb.njit(cache=True, nogil=True)
def pgs(A, w, lo, hi, p, tol, sweeps):  # pragma: no cover - compiled
    """Minimise ``½ pᵀ A p + pᵀ w`` over ``lo ≤ p ≤ hi`` (A symmetric positive definite) from
    ``p``, in place; returns the sweeps used."""
    n = p.shape[0]
    r = w + A @ p
    for sweep in range(sweeps):
        biggest = 0.0
        for j in range(n):
            new = min(max(p[j] - r[j] / A[j, j], lo[j]), hi[j])
            d = new - p[j]
            if d != 0.0:
                for i in range(n):
                    r[i] += A[i, j] * d
                p[j] = new
                biggest = max(biggest, abs(d) * A[j, j])
        if biggest <= tol:
            return sweep + 1
    return sweeps
