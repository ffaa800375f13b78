"""The kernel's certificate checker: every obligation a route needs is derived by the kernel and
decided there, so a certificate that is wrong in any one place is refused.

Each test below hands the kernel a certificate that is wrong in exactly one respect (or a mechanism
that is), and names the obligation that must catch it: dropping that obligation from the kernel
would let the certificate through, so each test is also the mutation test of its obligation.  The
good certificates are accepted (a checker that refuses everything would pass the bad cases)."""

import dataclasses
import json
import textwrap

import pytest
import sympy as sp

from gpaudit.cli import main
from gpaudit.kernel import certificate as kc
from gpaudit.kernel import decide as kd

x = sp.Symbol("x", real=True)
U = kc.U
STUDENT3 = (-(sp.Integer(3) + 1) / 2 * sp.log(1 + U**2 / 3),)      # ln h of Student-t, nu = 3
LAPLACE = (-U,)


def problem(f, B, *, log_density=STUDENT3, family="student_t", eta=sp.Rational(1, 2), gamma=sp.Rational(1, 9),
            epsilon=1, delta=0, Lambda=sp.oo, growth="exponential", bound_kind="piecewise"):
    return kc.Problem((x,), f, B, "l2", (sp.Integer(1),), family, log_density, (), sp.sympify(eta),
                      sp.sympify(gamma), growth, sp.sympify(Lambda), sp.sympify(epsilon), sp.sympify(delta),
                      bound_kind)


def region(label, conds, f, B, a, c, pieces=()):
    return kc.Region(label, tuple(conds), (kc.Alternative((), sp.sympify(f), sp.sympify(B)),), sp.sympify(a),
                     sp.sympify(c), tuple(pieces))


def failed(P, cert):
    with pytest.raises(kc.Rejected) as err:
        kc.check(P, cert)
    return {o.name.split("[")[0] for o in err.value.outcomes if not o.holds}


# f = x on |x| <= 1 and B = 1 there, f = sign(x) outside with B = e^{-(|x|-1)/9}: the clipped identity
# with a bound of growth gamma = 1/9.  Student-t(3) with eta = 1/2: rate max(eta |psi|) + c |1 + u psi|
F = sp.Piecewise((-1, x < -1), (x, x <= 1), (1, True))
B = sp.Piecewise((sp.exp((x + 1) / 9), x < -1), (1, x <= 1), (sp.exp((1 - x) / 9), True))


def good_regions(a_mid=1, c_out=sp.Rational(1, 9)):
    return (region("left", [x < -1], -1, sp.exp((x + 1) / 9), 0, c_out, (1, 1)),
            region("mid", [x <= 1, sp.Not(x < -1)], x, 1, a_mid, 0, (2, 2)),
            region("right", [sp.Not(x <= 1), sp.Not(x < -1)], 1, sp.exp((1 - x) / 9), 0, c_out, (3, 3)))


def test_a_correct_certificate_is_verified():
    E = sp.Rational(2, 3)          # eta a max |psi| = 1/2 * 2/sqrt(3) = 0.577; c |1 + u psi| <= 1/9 * 3
    v = kc.check(problem(F, B), kc.Certificate("regions", good_regions(), E))
    assert kc.is_verified(v) and v.epsilon_upper == E
    names = {o.name.split("[")[0] for o in v.outcomes}
    assert {"owned", "cover", "inpiece", "agrees", "continuous", "B_positive", "smooth", "rate"} <= names


def test_prepared_obligations_are_those_of_the_same_problem_only():
    """prepare(P) decides what no certificate changes (owned, defined, continuous); check takes it only
    for the same problem, and then makes the same z3 calls in the same order as without it (each in
    a z3 session of its own), so it states the same obligations with the same answers."""
    E = sp.Rational(2, 3)
    cert = kc.Certificate("regions", good_regions(), E)
    whole = kc.check(problem(F, B), cert)
    ready = kc.prepare(problem(F, B))
    assert {o.name.split("[")[0] for o in ready.pieces} == {"owned", "continuous"} and ready.structure == ()
    again = kc.check(problem(F, B), cert, ready)
    assert whole.outcomes == again.outcomes
    # prepared for a function with a jump: not this problem's, so not taken (the jump is still found)
    Fj = sp.Piecewise((0, x < 0), (1, True))
    regs = (region("neg", [x < 0], 0, 1, 0, 0, (1, 1)), region("pos", [sp.Not(x < 0)], 1, 1, 0, 0, (2, 1)))
    smooth = kc.prepare(problem(x, sp.Integer(1)))
    with pytest.raises(kc.Rejected) as err:
        kc.check(problem(Fj, sp.Integer(1)), kc.Certificate("regions", regs, 1), smooth)
    assert {o.name.split("[")[0] for o in err.value.outcomes if not o.holds} == {"continuous"}
    with pytest.raises(TypeError):
        kc.Prepared(problem(Fj, sp.Integer(1)), ())


def test_prepared_regions_are_taken_for_regions_of_the_same_shape_only():
    """prepare(P, regions) also decides what no constant enters (coverage, alternatives, pieces,
    formulas, B > 0), before the rates are known; check takes it for regions of the same shape only
    (constants aside), with the same outcomes in the same order as deciding it all itself, and still
    decides every constant: a slope constant below the query's is refused with the prepared regions."""
    E = sp.Rational(2, 3)
    P = problem(F, B)
    shapes = tuple(dataclasses.replace(r, a=None, c=None) for r in good_regions())
    ready = kc.prepare(P, shapes, kc.prepare(P))
    assert {o.name.split("[")[0] for o in ready.structure} == {"cover", "inpiece", "agrees", "B_positive"}
    assert all(o.holds for o in ready.structure)
    cert = kc.Certificate("regions", good_regions(), E)
    assert kc.check(P, cert, ready).outcomes == kc.check(P, cert).outcomes
    tight = kc.Certificate("regions", good_regions(a_mid=sp.Rational(9, 10)), 1)
    with pytest.raises(kc.Rejected) as err:
        kc.check(P, tight, ready)
    assert {o.name for o in err.value.outcomes if not o.holds} == {"cover[mid]"}
    # regions of another shape (a piece hint changed): the prepared structure is not theirs
    wrong = (dataclasses.replace(good_regions()[0], pieces=(2, 2)),) + good_regions()[1:]
    assert "inpiece" in failed(P, kc.Certificate("regions", wrong, E)) and "inpiece" not in {
        o.name.split("[")[0] for o in ready.structure if not o.holds}
    with pytest.raises(kc.Rejected) as err:
        kc.check(P, kc.Certificate("regions", wrong, E), ready)
    assert "inpiece" in {o.name.split("[")[0] for o in err.value.outcomes if not o.holds}


def test_regions_own_obligations_are_continued_as_their_constants_come():
    """prepare decides each region's own obligations (constants, cover, smooth) as soon as it has its
    constants, in the regions' order, on one run in one session (kernel._Local); check continues it
    where its regions begin with those done, with the same outcomes in the same order as one pass;
    a start whose obligations do not all hold, or regions that begin otherwise, are not continued."""
    E, P = sp.Rational(2, 3), problem(F, B)
    good = good_regions()
    cert = kc.Certificate("regions", good, E)
    whole = kc.check(P, cert).outcomes

    def rated(regions, n):          # the first n regions with their constants, the rest without
        return tuple(r if k < n else dataclasses.replace(r, a=None, c=None) for k, r in enumerate(regions))
    ready = kc.prepare(P, rated(good, 0))
    assert ready.local is None
    for n in (1, 2):
        ready = kc.prepare(P, rated(good, n), ready)
        assert ready.local.done == list(good[:n]) and ready.local.run.ok
    assert kc.check(P, cert, ready).outcomes == whole
    assert ready.local.done == list(good)                       # check continued it
    # a start that does not hold (the middle slope constant too small) is not continued
    bad = (good[0], dataclasses.replace(good[1], a=sp.Rational(9, 10)), good[2])
    spoiled = kc.prepare(P, rated(bad, 2), kc.prepare(P, rated(bad, 0)))
    assert not spoiled.local.run.ok
    assert kc.check(P, cert, spoiled).outcomes == whole
    # the same start left undecided (prepare's work budget spent): not continued, decided afresh
    from gpaudit.runtime import budget
    start = kc.prepare(P, rated(good, 0))
    with budget.work_budget(1):
        cut = kc.prepare(P, rated(good, 1), start)
    assert cut.local.done == [good[0]] and not cut.local.run.ok
    assert kc.check(P, cert, cut).outcomes == whole
    # regions that begin otherwise (a larger first constant): not continued either
    other = kc.prepare(P, rated((dataclasses.replace(good[0], c=1),) + good[1:], 1), start)
    assert kc.check(P, cert, other).outcomes == whole


def test_a_region_without_its_constants_is_refused():                         # constants
    """Every region's own obligations are decided, in order: a region whose constants are missing
    (a certificate read with "a": null) is refused, however the regions before it fare, and the
    check does not stop at the regions before it."""
    for k in range(3):
        regs = tuple(dataclasses.replace(r, a=None) if i == k else r for i, r in enumerate(good_regions()))
        assert failed(problem(F, B), kc.Certificate("regions", regs, sp.Rational(2, 3))) == {"constants"}


def test_a_rate_constant_below_the_slope_is_refused():                        # cover
    assert "cover" in failed(problem(F, B), kc.Certificate("regions", good_regions(a_mid=sp.Rational(9, 10)), 1))


def test_a_smoothness_constant_below_the_bounds_growth_is_refused():           # smooth
    assert "smooth" in failed(problem(F, B), kc.Certificate("regions", good_regions(c_out=sp.Rational(1, 10)), 1))


def test_a_rate_bound_below_the_familys_supremum_is_refused():                # rate
    assert failed(problem(F, B), kc.Certificate("regions", good_regions(), sp.Rational(1, 2))) == {"rate"}


def test_a_bound_above_the_claim_is_refused():                                 # epsilon_upper <= epsilon
    P = problem(F, B, epsilon=sp.Rational(1, 2))
    assert "epsilon_upper" in failed(P, kc.Certificate("regions", good_regions(), sp.Rational(2, 3)))


def test_a_missing_region_is_refused():                                        # cover (coverage)
    regs = good_regions()[:2]
    assert "cover" in failed(problem(F, B), kc.Certificate("regions", regs, 1))


def test_a_missing_region_is_refused_without_hints():                          # cover_regions
    regs = tuple(kc.Region(r.label, r.conds, r.alts, r.a, r.c) for r in good_regions()[:2])
    assert "cover_regions" in failed(problem(F, B), kc.Certificate("regions", regs, 1))


def test_a_wrong_formula_for_a_region_is_refused():                            # agrees
    regs = list(good_regions())
    regs[1] = region("mid", [x <= 1, sp.Not(x < -1)], x / 2, 1, 1, 0, (2, 2))   # f is x there, not x/2
    assert "agrees" in failed(problem(F, B), kc.Certificate("regions", tuple(regs), 1))


def test_a_wrong_piece_hint_is_refused():                                       # inpiece
    regs = list(good_regions())
    regs[0] = region("left", [x < -1], -1, sp.exp((x + 1) / 9), 0, sp.Rational(1, 9), (2, 2))
    assert "inpiece" in failed(problem(F, B), kc.Certificate("regions", tuple(regs), 1))


def test_a_region_that_states_its_pieces_conditions_lies_in_the_piece():       # inpiece, literally
    """A region whose conditions include every condition of the piece it names lies in it (a
    conjunction lies in each conjunct): no z3 call.  One that implies them otherwise is shown by z3,
    and one that does not imply them is refused (above)."""
    v = kc.check(problem(F, B), kc.Certificate("regions", good_regions(), sp.Rational(2, 3)))
    how = {o.name: o.detail for o in v.outcomes}
    assert how["inpiece[mid.f]"] == how["inpiece[mid.B]"] == "the piece's conditions are among the region's"
    implied = (region("left", [x < -2], -1, sp.exp((x + 1) / 9), 0, sp.Rational(1, 9), (1, 1)),
               region("left2", [x < -1, sp.Not(x < -2)], -1, sp.exp((x + 1) / 9), 0, sp.Rational(1, 9), (1, 1)))
    v = kc.check(problem(F, B), kc.Certificate("regions", implied + good_regions()[1:], sp.Rational(2, 3)))
    how = {o.name: o.detail for o in v.outcomes}
    assert how["inpiece[left.f]"].startswith("z3 unsat") and how["inpiece[left2.f]"].startswith("the piece's")
    # a region stating only some of the piece's conditions is not in it by that: x <= 1 holds on
    # x < -1 too, where f = -1, not the middle piece's x
    wide = (good_regions()[0], region("mid", [x <= 1], x, 1, 1, 0, (2, 2)), good_regions()[2])
    assert "inpiece" in failed(problem(F, B), kc.Certificate("regions", wide, sp.Rational(2, 3)))


def test_a_jump_between_pieces_is_refused():                                   # continuous
    Fj = sp.Piecewise((0, x < 0), (1, True))          # each piece is flat: only continuity sees the jump
    regs = (region("neg", [x < 0], 0, 1, 0, 0, (1, 1)), region("pos", [sp.Not(x < 0)], 1, 1, 0, 0, (2, 1)))
    assert failed(problem(Fj, sp.Integer(1)), kc.Certificate("regions", regs, 1)) == {"continuous"}


def test_a_band_no_piece_owns_is_refused():                                    # owned
    Fg = sp.Piecewise((0, x < 0), (0, x > 1))
    regs = (region("neg", [x < 0], 0, 1, 0, 0, (1, 1)), region("pos", [x > 1], 0, 1, 0, 0, (2, 1)))
    assert "owned" in failed(problem(Fg, sp.Integer(1)), kc.Certificate("regions", regs, 1))


def test_a_bound_that_vanishes_is_refused():                                   # B_positive
    Bz = x**2
    regs = (region("all", [], 0, Bz, 0, 100),)
    assert "B_positive" in failed(problem(sp.Integer(0), Bz), kc.Certificate("regions", regs, 1))


def test_two_point_conditions_are_required_for_linear_growth_with_a_finite_lambda():
    # B = 1 + |x|/10 has |grad ln B| <= 1/10 but with linear growth and Lambda = 5 the two-point
    # condition B(x) <= (1 + gamma d) B(x') with gamma = 1/100 fails: only the two-point obligation sees it
    Bl = 1 + sp.Abs(x) / 10
    regs = (region("neg", [x < 0], 0, 1 - x / 10, 0, sp.Rational(1, 10)),
            region("pos", [x >= 0], 0, 1 + x / 10, 0, sp.Rational(1, 10)))
    P = problem(sp.Integer(0), Bl, gamma=sp.Rational(1, 100), Lambda=5, growth="linear")
    assert "two_point_smooth" in failed(P, kc.Certificate("regions", regs, 1))


def test_lemma_36_needs_its_hypotheses_and_its_inequality():
    # Laplace, linear growth, the smooth sensitivity: (eta + gamma max(1, ln 1/delta), delta)
    P = problem(F, B, log_density=LAPLACE, family="laplace", eta=sp.Rational(1, 2), gamma=sp.Rational(1, 10),
                epsilon=1, delta=sp.Rational(1, 100), Lambda=sp.oo, growth="linear", bound_kind="smooth_sensitivity")
    Bl = sp.Piecewise((1 + (-1 - x) / 10, x < -1), (1, x <= 1), (1 + (x - 1) / 10, True))
    regs = (region("left", [x < -1], -1, 1 + (-1 - x) / 10, 0, sp.Rational(1, 10), (1, 1)),
            region("mid", [x <= 1, sp.Not(x < -1)], x, 1, 1, 0, (2, 2)),
            region("right", [sp.Not(x <= 1), sp.Not(x < -1)], 1, 1 + (x - 1) / 10, 0, sp.Rational(1, 10), (3, 3)))
    P = dataclasses.replace(P, B=Bl)
    cert = kc.Certificate("regions", regs, None, "lemma_3_6")
    v = kc.check(P, cert)                        # 1/2 + 1/10 ln 100 = 0.96 <= 1
    assert v.route == "regions+lemma_3_6"
    tight = dataclasses.replace(P, delta=sp.Rational(1, 1000))        # 1/2 + ln(1000)/10 > 1
    assert "lemma_3_6.epsilon" in failed(tight, cert)
    wrong = dataclasses.replace(P, family="student_t")
    assert "lemma_3_6.hypotheses" in failed(wrong, cert)


def test_a_route_that_does_not_fit_the_mechanism_is_refused():
    assert failed(problem(F, B), kc.Certificate("lemma_3_1", good_regions(), 1)) == {"route"}


def test_only_the_kernel_makes_a_verified_certificate():
    with pytest.raises(TypeError):
        kc.Verified(sp.Integer(1), "regions", ())
    # and the decision table certifies nothing without one
    ev = kd.Evidence(within_claim=True, certificate_checks=("certified",), verified=None)
    assert kd.decide(ev).verdict != "certified"
    v = kc.check(problem(F, B), kc.Certificate("regions", good_regions(), sp.Rational(2, 3)))
    assert kd.decide(kd.Evidence(within_claim=True, certificate_checks=("certified",), verified=v)).verdict == "certified"


# -- gpaudit verify ---------------------------------------------------------------------------------

CONFIG = """\
    gpaudit: 1
    name: clip
    input: {dim: 1}
    query:
      kind: piecewise
      pieces:
        - {where: x < -1, value: -1}
        - {where: x <= 1, value: x}
        - {value: 1}
    bound:
      kind: piecewise
      growth: exponential
      gamma: 1/9
      pieces:
        - {where: x < -1, value: exp((x + 1)/9)}
        - {where: x <= 1, value: 1}
        - {value: exp((1 - x)/9)}
    noise: {family: student_t, nu: 3, eta: 1/2}
    claim: {epsilon: 1}
    """


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    d = tmp_path_factory.mktemp("verify")
    cfg = d / "clip.yaml"
    cfg.write_text(textwrap.dedent(CONFIG))
    out = d / "clip.json"
    assert main(["check", str(cfg), "--json", str(out), "-q", "--effort", "quick"]) == 0
    return cfg, out


def _altered(report, tmp_path, change):
    cfg, out = report
    data = json.loads(out.read_text())
    data = data[0] if isinstance(data, list) else data
    change(data)
    p = tmp_path / "altered.json"
    p.write_text(json.dumps(data))
    return str(p)


def test_verify_accepts_the_certificate_check_wrote(report, capsys):
    cfg, out = report
    assert main(["verify", str(out)]) == 0
    assert "verified" in capsys.readouterr().out


def test_verify_refuses_an_altered_region_constant(report, tmp_path, capsys):
    def lower(d):
        r = next(r for r in d["certificate"]["regions"] if r["a"] == "1")
        r["a"] = "9/10"
    assert main(["verify", _altered(report, tmp_path, lower)]) == 1
    assert "fails  cover[" in capsys.readouterr().out


def test_verify_refuses_a_dropped_region(report, tmp_path, capsys):
    def drop(d):
        d["certificate"]["regions"] = d["certificate"]["regions"][1:]
    assert main(["verify", _altered(report, tmp_path, drop)]) == 1


def test_verify_bad_input_exits_2(report, tmp_path, capsys):
    cfg, out = report
    other = tmp_path / "other.yaml"
    other.write_text(textwrap.dedent(CONFIG).replace("eta: 1/2", "eta: 1/3"))
    assert main(["verify", str(out), str(other)]) == 2           # not the report's configuration
    assert "config_sha256" in capsys.readouterr().err

    def strip(d):
        d.pop("certificate")
    assert main(["verify", _altered(report, tmp_path, strip)]) == 2
    assert "no certificate" in capsys.readouterr().err

    def garble(d):
        d["certificate"]["regions"][0]["conditions"] = ["x <<< 1"]
    assert main(["verify", _altered(report, tmp_path, garble)]) == 2
    assert "certificate.regions[0].conditions" in capsys.readouterr().err


def test_a_cache_that_says_unsat_to_everything_certifies_nothing(tmp_path, monkeypatch):
    """The proof stage may use a cache; the kernel never does.  A cache answering unsat to every
    query makes the generator believe anything; the kernel still refuses a false claim."""
    from gpaudit import runtime
    from gpaudit.kernel import z3door

    def planted(q, budget_ms, want_model=(), use_cache=True, replay=None):
        return z3door.Answer(z3door.UNSAT, cached=True, reason="planted")
    monkeypatch.setattr(runtime, "solve", planted)      # every generator call: "proved"
    cfg = tmp_path / "small.yaml"
    # the slope of f is 1 but B is 1/2: the claim eps = 1 is false (rate 2 with Laplace eta = 1)
    cfg.write_text(textwrap.dedent(CONFIG).replace("- {where: x <= 1, value: 1}", "- {where: x <= 1, value: 1/2}")
                   .replace("exp((x + 1)/9)}", "exp((x + 1)/9)/2}").replace("exp((1 - x)/9)}", "exp((1 - x)/9)/2}"))
    from gpaudit import api
    r = api.check(cfg, effort="quick", full_evidence=True)
    assert r.verdict != "certified"


# -- the other routes and forms ---------------------------------------------------------------------

def test_lemma_31_route_needs_the_lipschitz_constant_and_an_interior_point():
    # f = the soft threshold (slope 1 on [-1/2, 1/2]); B = B* (numerical): a = 1, c = gamma by Lemma 3.1
    f = sp.Piecewise((0, x < -sp.Rational(1, 2)), (x + sp.Rational(1, 2), x <= sp.Rational(1, 2)), (1, True))
    P = problem(f, None, bound_kind="smooth_sensitivity")
    h = sp.Rational(1, 2)
    regs = (region("f1", [x < -h], 0, None, 1, 0, (1,)), region("f2", [x <= h, sp.Not(x < -h)], x + h, None, 1, 0, (2,)),
            region("f3", [sp.Not(x <= h), sp.Not(x < -h)], 1, None, 1, 0, (3,)))
    E = sp.Rational(4, 5)                    # sup of 1/2 * 4u/(3 + u^2) + 1/9 |1 - 4u^2/(3 + u^2)| is 0.69
    good = kc.Certificate("lemma_3_1", regs, E, None, sp.Integer(1), (sp.Integer(0),))
    assert kc.check(P, good).route == "lemma_3_1"
    assert "lipschitz" in failed(P, dataclasses.replace(good, lipschitz=sp.Rational(1, 2)))
    assert "B_positive" in failed(P, dataclasses.replace(good, point=(sp.Rational(-1, 2),)))   # on a boundary
    assert "B_positive" in failed(P, dataclasses.replace(good, point=(sp.Integer(3),)))        # where f is flat
    assert "B_positive" in failed(P, dataclasses.replace(good, point=None))
    assert "lipschitz_constant" in failed(P, dataclasses.replace(good, lipschitz=None))


def _laud():
    # f = x/2 + 1/2 (slope 1/2), B = e^(x/10) on x < 0, 1 beyond: a = 1/2 where B = 1 ... kept simple:
    # B = 1 everywhere but beta > 0 is needed, so B = e^(-|x|/10) written in two pieces
    f = x / 2
    B = sp.Piecewise((sp.exp(x / 10), x < 0), (sp.exp(-x / 10), True))
    regs = (region("neg", [x < 0], x / 2, sp.exp(x / 10), sp.exp(1) / 2, sp.Rational(1, 10), (1, 1)),
            region("pos", [sp.Not(x < 0)], x / 2, sp.exp(-x / 10), sp.exp(1) / 2, sp.Rational(1, 10), (1, 2)))
    return f, B, regs


def test_laud_theorem_4_needs_lambda_beta_below_one_and_its_delta():
    f, B, regs = _laud()
    # the slope 1/2 against B >= e^(-|x|/10) is not bounded: a region's a is checked only on the region,
    # so take a Lambda-free check of the route alone: regions with a = 0 for f = 0
    regs = tuple(dataclasses.replace(r, alts=(kc.Alternative((), sp.Integer(0), r.alts[0].B),), a=sp.Integer(0)) for r in regs)
    base = problem(sp.Integer(0), B, log_density=LAPLACE, family="laplace", eta=1, gamma=sp.Rational(1, 10),
                   epsilon=1, delta=sp.Rational(1, 10), Lambda=1)
    cert = kc.Certificate("regions", regs, None, "laud_theorem_4")
    # b = 0, beta = 1/10, k = 1 + 10 = 11: 2 e^(1 - 11) = 9.1e-5 <= 1/10
    assert kc.check(base, cert).route == "regions+laud_theorem_4"
    assert "laud_theorem_4.delta" in failed(dataclasses.replace(base, delta=sp.Rational(1, 10**6)), cert)
    assert "laud_theorem_4.hypotheses" in failed(dataclasses.replace(base, Lambda=20), cert)
    assert "laud_theorem_4.hypotheses" in failed(dataclasses.replace(base, Lambda=sp.oo), cert)
    assert "delta_route" in failed(base, dataclasses.replace(cert, delta_route="nonsense"))
    assert "delta_route" in failed(dataclasses.replace(base, delta=0), cert)


def test_a_region_formula_with_a_max_is_not_smooth():
    regs = list(good_regions())
    regs[1] = region("mid", [x <= 1, sp.Not(x < -1)], sp.Max(x, -1), 1, 1, 0, (2, 2))
    assert "agrees" in failed(problem(F, B), kc.Certificate("regions", tuple(regs), 1))
    regs[1] = region("mid", [x <= 1, sp.Not(x < -1)], x, 1, 1, 0, (7, 2))
    assert "inpiece" in failed(problem(F, B), kc.Certificate("regions", tuple(regs), 1))


@pytest.mark.parametrize("metric, weights, a_ok, a_bad", [
    ("l1", (1, 2), sp.Rational(3, 1), sp.Rational(5, 2)),       # dual max(|1|/1, |6|/2) = 3
    ("linf", (1, 2), sp.Rational(4, 1), sp.Rational(7, 2)),     # dual 1/1 + 6/2 = 4
    ("l2", (1, 2), sp.sqrt(10), sp.Rational(3, 1)),             # dual sqrt(1 + 9)
])
def test_cover_is_in_the_dual_norm_of_the_input_metric(metric, weights, a_ok, a_bad):
    x1, x2 = sp.symbols("x1 x2", real=True)
    f = x1 + 6 * x2
    P = kc.Problem((x1, x2), f, sp.Integer(1), metric, tuple(sp.Integer(w) for w in weights), "student_t", STUDENT3,
                   (), sp.Rational(1, 100), sp.Integer(0), "exponential", sp.oo, sp.Integer(1), sp.Integer(0), "piecewise")
    cert = lambda a: kc.Certificate("regions", (kc.Region("all", (), (kc.Alternative((), f, sp.Integer(1)),), a, sp.Integer(0)),),
                                    sp.Rational(1, 10))
    kc.check(P, cert(a_ok))
    assert "cover" in failed(P, cert(a_bad))


@pytest.mark.parametrize("metric", ["l1", "linf", "l2"])
def test_two_point_conditions_use_the_input_metric(metric):
    # f = x1 + x2, B = 1, linear growth with Lambda = 1: |f(x) - f(x')| <= d(x, x') holds in l1 only
    x1, x2 = sp.symbols("x1 x2", real=True)
    f = x1 + x2
    P = kc.Problem((x1, x2), f, sp.Integer(1), metric, (sp.Integer(1), sp.Integer(1)), "student_t", STUDENT3, (),
                   sp.Rational(1, 100), sp.Integer(0), "linear", sp.Integer(1), sp.Integer(1), sp.Integer(0), "piecewise")
    a = {"l1": 1, "linf": 2, "l2": sp.sqrt(2)}[metric]
    cert = kc.Certificate("regions", (kc.Region("all", (), (kc.Alternative((), f, sp.Integer(1)),), sp.sympify(a),
                                                sp.Integer(0)),), sp.Rational(1, 10))
    if metric == "l1":
        kc.check(P, cert)
    else:
        assert "two_point_cover" in failed(P, cert)


def test_exponentials_are_linked_by_rational_ratios():
    """exp(x/5) and exp(3x/10) are written as powers of E = exp(x/10), exp(x/10) is E itself (left out
    of the map, or translating E would loop), exp(x^2) has no partner; each entry is an identity."""
    sub, alias = kc.linked(sp.exp(x / 5) + sp.exp(x / 10) + sp.exp(3 * x / 10) + sp.exp(x**2))
    (E,) = alias
    assert alias[E] == sp.exp(x / 10) and E.name.startswith("linked_exp")
    assert sub == {sp.exp(x / 5): E**2, sp.exp(3 * x / 10): E**3}
    assert all(sp.simplify(v.xreplace(alias) - k) == 0 for k, v in sub.items())
    assert kc._ratio(x + 1, 2 * x + 2) == sp.Rational(1, 2) and kc._ratio(x + 1, x + 2) is None
    # negative ratios: exp(-x) is E^-1 of E = exp(x)
    sub, alias = kc.linked(sp.exp(x) + sp.exp(-x))
    (E,) = alias
    assert alias[E] in (sp.exp(x), sp.exp(-x)) and list(sub.values()) == [E**-1]


def test_linked_exponentials_translate_to_one_variable():
    """The translator writes each linked exp(a) as a power of its group's one variable: that
    exp(x/5) + 1 < 2 exp(x/10) has no solution needs exp(x/5) = exp(x/10)^2 ((E - 1)^2 < 0), which z3's
    facts on two unrelated exponentials do not give; with exp(2x/7) in place of exp(x/5) it has one
    (x = -1)."""
    assert kc._unsat(sp.exp(x / 5) + 1 < 2 * sp.exp(x / 10))[0]
    assert (sp.exp(2 * x / 7) + 1 < 2 * sp.exp(x / 10)).subs(x, -1) is sp.true
    assert not kc._unsat(sp.exp(2 * x / 7) + 1 < 2 * sp.exp(x / 10))[0]


def test_a_closed_superset_covers_the_closure_of_a_partial_condition():
    c = kc._closed(sp.log(x) < 0)
    assert c.subs(x, 0) in (True, sp.true) or bool(c.subs(x, 0)) is True       # 0 is in the closure of (0, 1)
    assert kc._closed(sp.Ne(x, 1)) == sp.true
    assert kc._closed(sp.And(x < 1, x > 0)) == sp.And(x <= 1, x >= 0)


def test_only_implied_total_conditions_are_dropped_before_the_closure():
    y = sp.Symbol("y", real=True)
    run = kc._Run()
    # x < 2 follows from x < 1: dropped (the same set); y < 0 does not: kept
    assert kc._irredundant(run, [x < 1, x < 2, y < 0]) == [x < 1, y < 0]
    # an implied condition with a partial function is kept (its negation is not where it is false)
    assert kc._irredundant(run, [x > 2, sp.log(x) > 0]) == [x > 2, sp.log(x) > 0]
    # the closure of a catch-all piece: the earlier pieces' negations that its own condition implies
    # add nothing, and a jump on the boundary it shares with a later-stated piece is still found
    Fc = sp.Piecewise((0, x < -1), (1, sp.And(x >= -1, x < 0)), (2, True))
    regs = (region("a", [x < -1], 0, 1, 0, 0, (1, 1)), region("b", [x >= -1, x < 0], 1, 1, 0, 0, (2, 1)),
            region("c", [x >= 0], 2, 1, 0, 0, (3, 1)))
    assert failed(problem(Fc, sp.Integer(1)), kc.Certificate("regions", regs, 1)) == {"continuous"}


def test_a_bound_that_holds_only_on_its_region_is_decided_with_the_region():
    """cover and smooth are first tried without the region's conditions (a weaker statement);
    where the bound holds only on the region, the region decides it, and where it fails there,
    it fails."""
    E = sp.Rational(2, 3)
    v = kc.check(problem(F, B), kc.Certificate("regions", good_regions(), E))
    how = {o.name: o.detail for o in v.outcomes}
    assert "without the region" in how["cover[mid]"]          # |f'| = 1 <= 1 * 1 everywhere
    Bq = x**2 + 1                                              # |B'|/B = 2|x|/(x^2+1) <= 1/2 only for |x| <= 2 - sqrt 3
    inner = (region("in", [x**2 <= sp.Rational(1, 16)], 0, Bq, 0, sp.Rational(1, 2)),)
    w = kc._Run()
    kc._local(w, problem(sp.Integer(0), Bq), inner[0])
    assert w.ok and "without the region" not in {o.name: o.detail for o in w.outcomes}["smooth[in]"]
    wide = (region("in", [x**2 <= 1], 0, Bq, 0, sp.Rational(1, 2)),)
    w = kc._Run()
    kc._local(w, problem(sp.Integer(0), Bq), wide[0])
    assert not w.ok and [o.name for o in w.outcomes if not o.holds] == ["smooth[in]"]


def test_a_verified_record_is_a_report_not_a_proof():
    v = kc.check(problem(F, B), kc.Certificate("regions", good_regions(), sp.Rational(2, 3)))
    rec = kc.record(v)
    back = kc.recorded(rec)
    assert kc.is_verified(back) and back.epsilon_upper == v.epsilon_upper and back.route == v.route
    assert kc.recorded({"route": 3}) is None and kc.recorded(None) is None and kc.record(None) is None
    assert kc.recorded({"route": "regions", "epsilon_upper": "not a number"}) is None


@pytest.mark.parametrize("metric, weights", [("l2", (1, 1)), ("l2", (1, 2)), ("l1", (1, 1))])
def test_a_radial_bound_goes_through_its_root(metric, weights):
    # B = 1/(1 + |x|_2): |grad ln B| = 1/(1 + R) <= 1, with equality at the origin; in the l1 metric
    # the dual norm is the max of the partials, also <= 1; 1/2 fails near the origin in every case
    x1, x2 = sp.symbols("x1 x2", real=True)
    R = sp.sqrt(x1**2 + x2**2)
    Bq = 1 / (1 + R)
    P = kc.Problem((x1, x2), sp.Integer(0), Bq, metric, tuple(sp.Integer(w) for w in weights), "student_t", STUDENT3,
                   (), sp.Rational(1, 100), sp.Integer(1), "exponential", sp.oo, sp.Integer(4), sp.Integer(0), "piecewise")

    def cert(c):     # the rate c |1 + u psi| of Student-t(3) is at most 3 c
        return kc.Certificate("regions", (kc.Region("all", (), (kc.Alternative((), sp.Integer(0), Bq),), sp.Integer(0),
                                                    sp.sympify(c)),), sp.Rational(7, 2))
    kc.check(P, cert(1))
    assert "smooth" in failed(P, cert(sp.Rational(1, 2)))
    roots = kc.Roots()
    e = roots.atomize(Bq)
    assert e.free_symbols == set(roots.alias) and roots.alias[next(iter(roots.alias))] == R
    assert sp.simplify(roots.norm_sq(roots.atomize(R), (x1, x2)) - 1) == 0      # a radial root has norm 1


@pytest.mark.parametrize("extra", [sp.Integer(0), sp.sqrt(x**2 + 1)])
def test_a_max_is_split_by_the_regions_conditions(extra):
    # f = max(x, 0) + extra on one piece; regions where x > 0, 0 > x and the tie x = 0.  Each region's
    # formula is the max's argument its conditions make the extremum (checked by substitution, and
    # the formula's definedness by z3 where it has partial functions); a wrong one is refused.
    fq = sp.Max(x, 0) + extra
    regs = (kc.Region("pos", (x > 0,), (kc.Alternative((), x + extra, sp.Integer(1)),), sp.Integer(2), sp.Integer(0), (1, 1)),
            kc.Region("neg", (0 > x,), (kc.Alternative((), extra, sp.Integer(1)),), sp.Integer(2), sp.Integer(0), (1, 1)),
            kc.Region("tie", (sp.Eq(x, 0),), (kc.Alternative((), x + extra, sp.Integer(1)),
                                               kc.Alternative((), extra, sp.Integer(1))), sp.Integer(2), sp.Integer(0), (1, 1)))
    P = problem(fq, sp.Integer(1), epsilon=2)
    v = kc.check(P, kc.Certificate("regions", regs, sp.Rational(6, 5)))     # eta a max|psi| = 2/sqrt(3)
    assert any("by the region's conditions" in o.detail for o in v.outcomes) or extra != 0
    wrong = (dataclasses.replace(regs[0], alts=(kc.Alternative((), 2 * x + extra, sp.Integer(1)),)),) + regs[1:]
    assert "agrees" in failed(P, kc.Certificate("regions", wrong, sp.Rational(6, 5)))
    assert kc._substituted(sp.Min(x, 1) + sp.Abs(x), (x < 1, x > -x)) == 2 * x
    assert kc._substituted(sp.Max(x, 1), (x > 0,)) == sp.Max(x, 1)          # no condition decides it


def _tie(label, conds, c):
    """A region of B = max(1, x^2 + 1)'s two arguments, f = 0: each alternative where it is the max."""
    return kc.Region(label, tuple(conds), (kc.Alternative((x >= 0,), sp.Integer(0), x**2 + 1),
                                           kc.Alternative((x <= 0,), sp.Integer(0), sp.Integer(1))),
                     sp.Integer(0), sp.sympify(c))


def test_a_property_of_every_alternative_everywhere_is_decided_alternative_by_alternative():
    """B > 0 and smooth are first tried for each alternative alone, everywhere (kernel._Run.some_alt):
    B_k > 0 holds for both alternatives of the tie; |(ln B_1)'| = 2|x|/(1 + x^2) <= 1/2 does not hold
    everywhere (only for |x| <= 2 - sqrt 3), so the region decides it (x = 0: it holds); on |x| <= 1,
    where B_1 is used up to x = 1 and its log-slope reaches 1, it fails, though the other alternative
    (B_2 = 1) holds everywhere: one alternative's success is not the region's."""
    P = problem(sp.Integer(0), sp.Max(x**2 + 1, 1))
    w = kc._Run()
    tie = (_tie("tie", [sp.Eq(x, 0)], sp.Rational(1, 2)),)
    kc._structure(w, P, tie)                 # (B > 0 is decided with the regions' structure)
    kc._local(w, P, tie[0])
    how = {o.name: (o.holds, o.detail) for o in w.outcomes}
    assert how["B_positive[tie]"][0] and "for each alternative" in how["B_positive[tie]"][1]
    assert how["smooth[tie]"][0] and "for each alternative" not in how["smooth[tie]"][1]
    w = kc._Run()
    kc._local(w, P, _tie("wide", [x**2 <= 1], sp.Rational(1, 2)))
    assert [o.name for o in w.outcomes if not o.holds] == ["smooth[wide]"]


def test_alternatives_that_leave_a_gap_are_refused_whatever_each_alternative_satisfies():
    """The rule "each alternative everywhere" stands on every point of the region having an active
    alternative: with none active on x <= 1, B_positive and smooth hold for the one alternative, and
    the certificate is refused by alternatives[R] (and by cover, which is decided jointly there)."""
    gap = (kc.Region("all", (), (kc.Alternative((x > 1,), sp.Integer(0), sp.Integer(1)),), sp.Integer(0),
                     sp.Integer(0)),)
    assert failed(problem(sp.Integer(0), sp.Integer(1)), kc.Certificate("regions", gap, sp.Rational(1, 2))) \
        == {"alternatives", "cover"}
