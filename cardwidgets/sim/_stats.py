"""95 % intervals for rates and means.

>>> [round(x, 4) for x in wilson(0.5, 100)]
[0.4038, 0.5962]
>>> wilson(0.0, 0)
(0.0, 1.0)
>>> [round(x, 3) for x in mean_interval([1.0, 2.0, 3.0, 4.0])]
[2.5, 1.235, 3.765]
"""

from __future__ import annotations

import math
from typing import Iterable

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(p: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a rate ``p`` observed over ``n`` trials.

    A shared win counts as a fraction, so ``p`` need not be a whole count over ``n``.
    """
    if n <= 0:
        return (0.0, 1.0)
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At a rate of 0 (or 1) the bound is exactly 0 (or 1); the formula leaves rounding there.
    return (0.0 if p <= 0 else max(0.0, centre - half), 1.0 if p >= 1 else min(1.0, centre + half))


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` and its normal-approximation 95 % interval (NaN below 2 values).

    NaN values (a forfeited game's scores) are left out.
    """
    xs = [x for x in map(float, values) if not math.isnan(x)]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(xs) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean, mean - half, mean + half)
