"""A certificate the kernel checked, for tests of the decision table: f = 0 and B = 1 on one region
with Laplace noise (rate 0), checked by gpaudit.kernel.certificate like any other."""

import functools

import sympy as sp

from gpaudit.kernel import certificate as kc


@functools.lru_cache(maxsize=1)
def trivially_verified():
    x = sp.Symbol("x", real=True)
    P = kc.Problem((x,), sp.Integer(0), sp.Integer(1), "l2", (sp.Integer(1),), "laplace", (-kc.U,), (),
                   sp.Integer(1), sp.Integer(0), "exponential", sp.oo, sp.Integer(1), sp.Integer(0), "constant")
    region = kc.Region("all", (), (kc.Alternative((), sp.Integer(0), sp.Integer(1)),), sp.Integer(0), sp.Integer(0))
    return kc.check(P, kc.Certificate("regions", (region,), sp.Integer(0)))
