"""A one-way soft threshold and its smooth bound (Liang-Yi Lemma 4.1), with the parameters passed
as keyword arguments and written in exact arithmetic (mpmath numbers in, mpmath numbers out), so
that gpaudit evaluates them at 50 and 100 digits and measures that they agree."""

import mpmath


def soft_threshold(x, T, tau):
    return min(max((x[0] - T) / tau + mpmath.mpf(1) / 2, 0), 1)


def lemma_4_1(x, T, tau, gamma):
    rho = abs(x[0] - T) - tau / 2          # distance to the transition band
    if rho <= 0:
        return 1 / tau
    return max(1 / (rho + tau), mpmath.exp(-gamma * rho) / tau)
