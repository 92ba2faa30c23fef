"""Least squares, for the search bots' fitted horizons (the weights that score a playout stopped
short of the end, fitted to how expert-played hands end).

>>> rows = [([1.0, 0.0, 0.0], 2.0), ([0.0, 1.0, 0.0], 3.0), ([1.0, 1.0, 0.0], 5.0)]
>>> [round(c, 6) for c in least_squares(rows, 3)]
[2.0, 3.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["least_squares"]


def least_squares(rows: Sequence[tuple[Sequence[float], float]], width: int) -> list[float]:
    """The coefficients ``c`` (``width`` of them) that minimise the sum of ``(c · x - y)²`` over
    ``rows`` of ``(x, y)``, by the normal equations; a column that is zero in every row gets 0."""
    used = [j for j in range(width) if any(x[j] for x, _ in rows)]
    a = [[sum(x[i] * x[j] for x, _ in rows) for j in used] for i in used]
    b = [sum(x[i] * y for x, y in rows) for i in used]
    coef = dict(zip(used, _solve(a, b), strict=True))
    return [coef.get(j, 0.0) for j in range(width)]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` small)."""
    n = len(b)
    m = [[*row, v] for row, v in zip(a, b, strict=True)]
    for i in range(n):
        k = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[k] = m[k], m[i]
        for r in range(i + 1, n):
            f = m[r][i] / m[i][i]
            m[r] = [u - f * w for u, w in zip(m[r], m[i], strict=True)]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x
