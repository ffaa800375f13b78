"""A bound read from a precomputed table that only covers |x| <= 50: outside it the lookup raises.

f(x) = x / 2 (so its slope is 1/2), and the table holds B = 1/4 everywhere it is defined: half of
what the slope needs, so the claim eps = 1 with eta = 1 is false near 0 already, wherever the table
ends.
"""

from fractions import Fraction

TABLE = {k: Fraction(1, 4) for k in range(-50, 51)}


def half(x):
    return x[0] / 2


def table_bound(x):
    return TABLE[int(round(x[0]))]   # KeyError beyond |x| = 50
