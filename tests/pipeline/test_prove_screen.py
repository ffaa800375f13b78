"""The proof stage's screening of a rate: it only chooses which candidate bound z3 is asked to
prove (a screen never proves anything), so what it must get right is not wasting z3 calls.

- A sampled estimate under-shoots a supremum that lies between the sample points; the top points
  are climbed before a candidate below the requirement is chosen (a candidate below the supremum
  can only come back `sat`: the smoothed SUM over two rows spent 7 s on one such call).
- The climb stays inside the leaf: a region's condition bounds what it may report.
- A candidate that rounds up to the requirement is not tried before the requirement itself.
"""

import sympy as sp

from gpaudit.prove.prover import Prover
from gpaudit.prove.regions import Alt, Leaf
from gpaudit.spec.types import input_symbols

SYMS = input_symbols(4)
X1, X2, X3, X4 = SYMS
CENTRE = (sp.Rational(3, 10), sp.Rational(7, 10), -sp.Rational(1, 5), sp.Integer(1))
# a narrow peak of height 1 off the landmark: random samples around the origin miss its top
PEAK_SQ = sp.exp(-2 * sum((s - c)**2 for s, c in zip(SYMS, CENTRE)) / sp.Rational(1, 10))


def _prover(syms=SYMS, B=sp.Integer(1), gamma=sp.Integer(1)):
    return Prover(f=syms[0], B=B, syms=syms, gamma=gamma, growth="exponential", landmarks=[0.0] * len(syms))


def _leaf(conds=()):
    return Leaf("t", "t", tuple(conds), [Alt((), X1, sp.Integer(1))])


def test_the_climb_reaches_a_peak_the_samples_miss():
    P = _prover()
    sampled, _ = P._estimate(_leaf(), [PEAK_SQ])                          # no requirement: no climb
    climbed, pts = P._estimate(_leaf(), [PEAK_SQ], required=sp.Integer(2))
    assert sampled < 0.9                       # the samples alone miss the top ...
    assert 0.999 < climbed <= 1.0              # ... the climb finds it (and not more than the supremum)
    assert all(abs(float(p) - float(c)) < 0.01 for p, c in zip(pts[0], CENTRE))


def test_the_climb_is_not_run_when_the_samples_already_reach_the_requirement():
    P = _prover()
    est, _ = P._estimate(_leaf(), [PEAK_SQ], required=sp.Rational(1, 100))
    assert est < 0.9                           # the samples reach 1/100: no candidate would be tried


def test_the_climb_stays_inside_the_leaf():
    P = _prover()
    cond = X1 < 0                              # the peak's centre (x1 = 3/10) is outside this leaf
    est, pts = P._estimate(_leaf([cond]), [PEAK_SQ], required=sp.Integer(2))
    assert all(p[0] < 0 for p in pts)
    sup_inside = float(sp.sqrt(PEAK_SQ.subs(dict(zip(SYMS, (0, *CENTRE[1:]))))))   # on the boundary x1 = 0
    assert 0.9 * sup_inside < est <= sup_inside * (1 + 1e-9)


def test_a_candidate_that_rounds_up_to_the_requirement_is_not_tried_twice(monkeypatch):
    """|d ln B/dx| = 0.1245 |x| / sqrt(1 + x^2) creeps up to 0.1245: the screen's estimate rounds up
    (three digits) to the requirement 1/8, so z3 is asked once, for 1/8 with the whole budget, and
    proves it (not first for the same 1/8 as a candidate with a candidate's smaller budget)."""
    (x,) = syms = input_symbols(1)
    B = sp.exp(sp.Rational(1245, 10000) * sp.sqrt(1 + x**2))
    P = _prover(syms, B, gamma=sp.Rational(1, 8))
    asked = []
    real = Prover.discharge
    monkeypatch.setattr(Prover, "discharge",
                        lambda self, o, timeout=None, decisive=True: asked.append(timeout) or real(self, o, timeout, decisive))
    leaf = Leaf("t", "t", (), [Alt((), x, B)])
    status, bound, _ = P.rate(leaf, "smooth")
    assert status == "certified" and bound == sp.Rational(1, 8)
    assert asked == [None]                     # one call, at the obligation's own budget


def test_a_condition_is_evaluated_atom_by_atom_as_the_whole_formula_would_be():
    """holds_np combines And, Or and Not from its atoms' masks (each atom lambdified once, shared
    by the regions): the same mask as the lambdified formula; the sample screen refuses an atom
    that is not a condition."""
    import numpy as np

    from gpaudit.prove import regions as rg
    x1, x2 = SYMS[:2]
    X = np.random.default_rng(0).normal(size=(2000, 2)) * 3
    conds = [sp.And(x1 > 1, sp.Or(x2 < 0, x1 >= 2)), sp.Or(x1**2 + x2**2 < 4, sp.Eq(x1, x2)),
             sp.Not(sp.And(x1 > 0, x2 > 0)), sp.And(x1 > sp.log(x2), sp.Not(x2 > 1)), sp.true]
    for c in conds:
        with np.errstate(all="ignore"):
            whole = np.broadcast_to(np.asarray(sp.lambdify((x1, x2), c, modules=[np])(X[:, 0], X[:, 1]), bool), (2000,))
            assert np.array_equal(rg.holds_np(c, (x1, x2), X), whole), c
    # a leaf's conditions: their masks combined (atoms kept in a memo across calls) are the mask
    # of their conjunction, as sympy builds it (flattened, duplicates and complements resolved)
    memo = {}
    sets = [conds[:2], conds[1:4], [x1 > 1, x1 > 1, x2 < 3], [x1 > 1, sp.Not(x1 > 1)], [x1 < 1, 1 > x1], conds]
    for cs in sets + sets:                      # the second round reads the memo
        want = rg.holds_np(sp.And(*cs), (x1, x2), X)
        assert np.array_equal(rg.member_mask(cs, (x1, x2), X, memo), want), cs
        assert np.array_equal(rg.member_mask(cs, (x1, x2), X), want), cs
    assert memo and all(m.shape == (2000,) for m in memo.values())
    assert rg._eval_mask((x1, x2), sp.And(x1 > 0, x2 > 0)) is not None
    assert rg._eval_mask((x1, x2), x1 + x2) is None                                      # not a condition


def _disc(x1, x2, r):
    """The disc of radius r around (1, 1): a region with a root in its condition (nonlinear)."""
    return sp.sqrt((x1 - 1)**2 + (x2 - 1)**2) <= r


def test_an_obligation_that_holds_everywhere_is_proved_without_its_nonlinear_region():
    """B = 2 + x1^2 > 0 holds on the whole plane: the call without the disc's condition proves it
    (and says so); on a leaf with linear conditions only, no call is made without them."""
    x1, x2 = input_symbols(2)
    P = Prover(f=x1, B=2 + x1**2, syms=(x1, x2), gamma=sp.Integer(1), growth="exponential", landmarks=[0.0, 0.0])
    from gpaudit.prove import obligations as obl
    round_leaf = Leaf("r", "r", (_disc(x1, x2, 2),), [Alt((), x1, 2 + x1**2)])
    o = obl.b_positive(round_leaf)
    assert o.alone is not None
    assert P.discharge(o).status == "unsat"
    assert P.records[-1].method == "z3 unsat without the region's conditions"
    assert P.records[-1].alone            # obligations.smt2 prints the query z3 decided: o.alone
    assert obl.b_positive(Leaf("l", "l", (x1 > 0, x2 < 1), [Alt((), x1, 2 + x1**2)])).alone is None


def test_without_the_region_a_call_never_proves_what_fails_on_it_and_what_holds_only_there_is_proved():
    """B = 1 - (x1 - 1)^2 - (x2 - 1)^2 is positive on the disc of radius 1/2 and not beyond radius
    1: B > 0 fails without the region (sat), so the region's own query proves it; on the disc of
    radius 2 it fails inside, and no call proves it."""
    x1, x2 = input_symbols(2)
    B = 1 - (x1 - 1)**2 - (x2 - 1)**2
    P = Prover(f=x1, B=B, syms=(x1, x2), gamma=sp.Integer(1), growth="exponential", landmarks=[1.0, 1.0])
    from gpaudit.prove import obligations as obl
    inside = obl.b_positive(Leaf("in", "in", (_disc(x1, x2, sp.Rational(1, 2)),), [Alt((), x1, B)]))
    assert P.discharge(inside).status == "unsat"
    assert P.records[-1].method == "z3 unsat" and not P.records[-1].alone   # the region's own query
    beyond = obl.b_positive(Leaf("out", "out", (_disc(x1, x2, 2),), [Alt((), x1, B)]))
    assert P.discharge(beyond).status == "sat"
