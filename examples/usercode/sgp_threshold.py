"""A one-way threshold counted by a smooth-sensitivity mechanism, written the way research code
often is: plain Python with if / max / math.exp, the constants as keyword defaults.  gpaudit traces
both functions into exact formulas (docs/traceable-code.md) and certifies the claim."""

import math

T = 10000.0       # the threshold (metres, say)
TAU = 1600.0      # the width of the transition band
GAMMA = 0.0001    # the smoothness of the bound: B(x) <= exp(GAMMA * |x - x'|) B(x')


def soft_threshold(x, T=T, tau=TAU):
    """0 below the band, 1 above it, linear in between."""
    d = x[0] - T
    if d < -tau / 2:
        return 0.0
    if d > tau / 2:
        return 1.0
    return d / tau + 0.5


def smooth_bound(x, T=T, tau=TAU, gamma=GAMMA):
    """A GAMMA-smooth upper bound of the local sensitivity: 1/tau in the band, decaying outside."""
    rho = abs(x[0] - T) - tau / 2     # the distance to the band
    if rho <= 0:
        return 1 / tau
    return max(1 / (rho + tau), math.exp(-gamma * rho) / tau)


def smooth_bound_too_small(x, T=T, tau=TAU, gamma=GAMMA):
    """Broken: half the slope inside the band."""
    rho = abs(x[0] - T) - tau / 2
    if rho <= 0:
        return 0.5 / tau
    return max(1 / (rho + tau), math.exp(-gamma * rho) / tau)


def soft_threshold_no_cap(x, T=T, tau=TAU):
    """Broken: the branch that caps the count at 1 is missing, so f keeps rising past the band
    where the bound has decayed."""
    d = x[0] - T
    if d < -tau / 2:
        return 0.0
    return d / tau + 0.5
