"""A KDE smooth bound as a team might ship it: float64 code with a root finder.

The query is the Gaussian kernel kappa(x) = exp(-((x - t) / h)^2 / 2), whose slope is largest,
1 / (h sqrt(e)), at |x - t| = h.  This bound keeps that maximum out to the radius where the slope
has fallen to half of it (found with scipy's brentq) and the halved slope, decaying, beyond: it
drops by a factor of 2 at that radius, so it is not a smooth upper bound (B(x) <= e^(gamma d) B(x')
fails across the drop) and the mechanism leaks without limit there.
"""

import math

from scipy.optimize import brentq


def _slope(r, h):
    """|kappa'| at distance r from the centre."""
    return r / (h * h) * math.exp(-0.5 * (r / h) ** 2)


def smooth_bound(x, t, h, gamma):
    peak = 1.0 / (h * math.sqrt(math.e))
    # the radius beyond the peak where the slope is half its maximum
    radius = brentq(lambda r: _slope(r, h) - 0.5 * peak, h, 10.0 * h, xtol=1e-14)
    r = abs(x - t)
    if r <= radius:
        return peak
    return 0.5 * peak * math.exp(-gamma * (r - radius))
