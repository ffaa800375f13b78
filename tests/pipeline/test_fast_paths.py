"""The fast paths change no verdict: a witness settles refuted before the proof stage (the same
witness as with --full-evidence), a Decision crosses a process boundary only by being decided
again, the batched Nelder-Mead finds known minima, and the cached numeric tables equal freshly
computed ones."""

import pickle

from verified import trivially_verified
from pathlib import Path

import numpy as np
import pytest

from gpaudit.audit.search import nelder_mead_batch
from gpaudit.check import PROOF_SKIPPED, check_spec
from gpaudit.cli import expand_files
from gpaudit.kernel.decide import CERTIFIED, REFUTED, Decision, Evidence, decide, is_certified_decision
from gpaudit.model.mechanism import build_mechanism
from gpaudit.model.numeric_ss import _golden_max
from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "broken"


def test_a_witness_settles_refuted_without_the_proof_stage():
    spec = load_spec(BROKEN / "threshold-student-t-too-much-eta.yaml")
    fast = check_spec(spec, effort="quick")
    full = check_spec(spec, effort="quick", full_evidence=True)
    assert fast.verdict == full.verdict == REFUTED
    assert fast.witness == full.witness and fast.witness is not None
    assert fast.epsilon_lower == full.epsilon_lower
    assert fast.info["proof_stage"] == PROOF_SKIPPED
    assert not any(c.id.startswith(("proof.", "certificate.")) for c in fast.checks)
    assert fast.epsilon_upper is None
    # the full run proves what it can, and its bound is above the claim (the witness agrees)
    assert "proof_stage" not in full.info
    assert any(c.id == "certificate.rate" for c in full.checks)
    assert full.epsilon_upper is not None and full.epsilon_upper > 1


def test_a_valid_configuration_still_runs_every_stage():
    spec = load_spec(ROOT / "examples" / "threshold-laplace-global.yaml")
    r = check_spec(spec, effort="quick")
    assert r.verdict == CERTIFIED
    assert "proof_stage" not in r.info
    assert any(c.id == "certificate.rate" and c.status == CERTIFIED for c in r.checks)


def test_a_decision_is_decided_again_after_pickling():
    ev = Evidence(within_claim=True, certificate_checks=(CERTIFIED,), verified=trivially_verified())
    d = decide(ev)
    back = pickle.loads(pickle.dumps(d))
    assert back == d and is_certified_decision(back)
    # the evidence is what travels: edited evidence gives the verdict the rule table says
    forged = decide(Evidence(within_claim=False, certificate_checks=(CERTIFIED,)))
    assert pickle.loads(pickle.dumps(forged)).verdict != CERTIFIED
    with pytest.raises(TypeError):
        Decision(CERTIFIED, "certified", "made by hand", ev)


def test_a_file_reached_twice_is_checked_once(tmp_path):
    (tmp_path / "sub").mkdir()
    for name in ("a.yaml", "sub/b.yaml"):
        (tmp_path / name).write_text("x")
    errors = []
    files = expand_files([str(tmp_path), str(tmp_path / "sub" / "b.yaml"), str(tmp_path / "sub")], errors)
    assert not errors
    assert [Path(f).name for f in files] == ["a.yaml", "b.yaml"]


def rosenbrock(Z):
    return (1 - Z[:, 0]) ** 2 + 100 * (Z[:, 1] - Z[:, 0] ** 2) ** 2


def test_batched_nelder_mead_finds_known_minima():
    starts = np.array([[-1.2, 1.0], [0.0, 0.0], [2.0, 2.0], [-0.5, 3.0]])
    Z, F = nelder_mead_batch(rosenbrock, starts, np.full(starts.shape, 0.1), 400)
    assert np.allclose(Z, 1.0, atol=1e-6) and np.all(F < 1e-12)
    # a quadratic in 5 dimensions, each start with its own centre
    centres = np.arange(15.0).reshape(3, 5)
    for c in centres:
        Z, F = nelder_mead_batch(lambda Z, c=c: np.sum((Z - c) ** 2, axis=1), np.zeros((1, 5)),
                                 np.full((1, 5), 0.5), 600)
        assert np.allclose(Z[0], c, atol=1e-5)


def test_batched_nelder_mead_is_deterministic_and_never_worse_than_its_start():
    rng = np.random.default_rng(3)
    starts = rng.uniform(-3, 3, (16, 3))

    def bumpy(Z):
        return np.sin(3 * Z).sum(axis=1) + 0.1 * (Z ** 2).sum(axis=1)
    a = nelder_mead_batch(bumpy, starts, np.full(starts.shape, 0.2), 100)
    b = nelder_mead_batch(bumpy, starts, np.full(starts.shape, 0.2), 100)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert np.all(a[1] <= bumpy(starts))


def test_numeric_table_cache_equals_a_fresh_computation(tmp_path, monkeypatch):
    from gpaudit.model import numeric_ss
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path))
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.setattr(numeric_ss, "_TABLES", {})
    args = ((0.0, 0.0), 1.0, 0.25, "exponential", None)
    kw = dict(r_max=5.0, n_s=201, n_r=301)
    fresh = numeric_ss.RadialSmoothSensitivity(*args, **kw)
    stored = list((tmp_path / "numeric").glob("*.npz"))
    assert len(stored) == 1
    monkeypatch.setattr(numeric_ss, "_TABLES", {})  # the next one must come from the disk
    calls = []
    monkeypatch.setattr(numeric_ss.RadialSmoothSensitivity, "_profile",
                        lambda self, r: calls.append(1) or np.ones(len(r)))
    again = numeric_ss.RadialSmoothSensitivity(*args, **kw)
    assert not calls
    assert np.array_equal(again.logB, fresh.logB) and np.array_equal(again.l, fresh.l)
    # another parameter is another table; GPAUDIT_NO_CACHE writes nothing
    monkeypatch.setenv("GPAUDIT_NO_CACHE", "1")
    monkeypatch.setattr(numeric_ss, "_TABLES", {})
    numeric_ss.RadialSmoothSensitivity((0.0, 0.0), 1.0, 0.5, "exponential", None, **kw)
    assert len(list((tmp_path / "numeric").glob("*.npz"))) == 1
    assert calls  # computed, not loaded


@pytest.mark.parametrize("kind", ["euclidean", "l1", "linf", "l2-weighted"])
@pytest.mark.parametrize("d", [1, 2, 3, 7, 9])
def test_pairwise_distances_by_coordinate_equal_the_difference_array(kind, d):
    """The numeric smooth sensitivity's pairwise distances, taken coordinate by coordinate, are
    the values of the (n, G, d) difference-array form, bit for bit (NaN, inf and extreme scales)."""
    from types import SimpleNamespace

    from gpaudit.model.numeric_ss import _pdist, _pdist_pairs
    rng = np.random.default_rng(d)
    A = rng.normal(size=(40, d)) * np.exp(rng.normal(size=(40, d)) * 20)
    P = rng.normal(size=(60, d)) * np.exp(rng.normal(size=(60, d)) * 20)
    A[3, 0], P[5, -1] = np.nan, np.inf
    w = rng.uniform(0.1, 3, d)
    metric = {"euclidean": None, "l1": SimpleNamespace(euclidean=False, kind="l1", w_np=w),
              "linf": SimpleNamespace(euclidean=False, kind="linf", w_np=w),
              "l2-weighted": SimpleNamespace(euclidean=False, kind="l2", w_np=w)}[kind]
    for unit in (1.0, 3.7e-200, 1e200):
        with np.errstate(all="ignore"):
            ref = _pdist(A[:, None, :] - P[None, :, :], unit, metric)
            got = _pdist_pairs(A, P, unit, metric)
        assert got.shape == ref.shape == (40, 60)
        assert np.array_equal(got, ref, equal_nan=True)


def test_a_skipped_proof_stage_is_no_lost_bound_for_the_baseline(tmp_path):
    """A baseline written with every stage (a refuted file with its certified bound) does not make
    the fast path's result a regression; a bound that really disappears still is one."""
    from gpaudit.report.baseline import compare_one
    from gpaudit.report.json_report import result_to_json
    spec = load_spec(BROKEN / "threshold-student-t-too-much-eta.yaml")
    old = result_to_json(check_spec(spec, effort="quick", full_evidence=True))
    new = result_to_json(check_spec(spec, effort="quick"))
    assert old["epsilon_upper"] is not None and new["epsilon_upper"] is None
    assert compare_one(new, old) == []
    lost = dict(new, info={k: v for k, v in new["info"].items() if k != "proof_stage"})
    assert any("epsilon_upper lost" in line for line in compare_one(lost, old))


def test_the_longest_expected_check_is_submitted_first():
    from gpaudit.cli import cost_hint
    two_way = cost_hint(load_spec(ROOT / "examples" / "two-way-student-t.yaml"))
    kde = cost_hint(load_spec(ROOT / "examples" / "kde-2d-student-t.yaml"))
    simple = cost_hint(load_spec(ROOT / "examples" / "threshold-laplace-global.yaml"))
    assert two_way > kde > simple > 0


def test_a_sample_point_settles_nonempty_and_only_z3_settles_empty(monkeypatch):
    import sympy as sp
    from gpaudit.kernel import z3door
    from gpaudit.prove import regions
    x = sp.Symbol("x", real=True)
    calls = []
    real = z3door.solve
    monkeypatch.setattr(z3door, "solve", lambda *a, **k: calls.append(1) or real(*a, **k))
    monkeypatch.setattr(regions, "_NONEMPTY", regions.Memo())
    assert regions.nonempty((x > sp.Rational(1, 3), x < 2)) and not calls       # a sample inside
    assert not regions.nonempty((x > 1, x < 0)) and len(calls) == 1             # empty: z3's unsat
    tiny = (x > sp.Rational(1, 10**300), x < sp.Rational(2, 10**300))           # no sample inside
    assert regions.nonempty(tiny) and len(calls) == 2


def test_bisection_finds_every_root_to_adjacent_floats():
    from gpaudit.audit.hockey import _bisect_roots
    roots = np.array([-3.0, 0.1, 2.0 / 3.0, 1e5 + 0.5])
    g = lambda y: -np.prod([y - r for r in roots], axis=0) if np.ndim(y) else 0.0  # noqa: E731
    lo, hi = roots - 0.37, roots + 0.21
    lo_above = g(lo) > 0
    got = _bisect_roots(g, lo, hi, lo_above)
    # the returned point lies on the side where g > 0, within a few ulps of the root
    assert np.all(g(got) > 0)
    assert np.all(np.abs(got - roots) <= 4 * np.abs(np.spacing(roots)))
    # and it is the last such float: its neighbour towards the other side is not above
    other = np.nextafter(got, np.where(lo_above, np.inf, -np.inf))
    assert not np.any(g(other) > 0) or np.all(np.abs(other - roots) <= 4 * np.abs(np.spacing(roots)))


@pytest.mark.parametrize("name", ["threshold-laplace-approx.yaml", "laud-thm4-count-l1.yaml"])
def test_the_worst_set_endpoints_are_inside_the_set_and_adjacent_to_its_edge(name):
    from gpaudit.audit.hockey import _intervals
    from gpaudit.model.mechanism import build_mechanism
    mech = build_mechanism(load_spec(ROOT / "examples" / name))
    d = mech.dim
    x, xp = np.full(d, 0.3), np.full(d, 0.3)
    xp[0] += 0.7
    a, b = mech.centre_scale_np(np.array([x]))
    Y = a[0] + b[0] * np.linspace(-30, 30, 601)
    level = 0.5 * np.max(mech.log_ratio_np(np.repeat([x], len(Y), 0), np.repeat([xp], len(Y), 0), Y))
    ivs = _intervals(mech, x, xp, level)
    assert ivs
    lr = lambda y: mech.log_ratio_np(np.array([x]), np.array([xp]), np.array([y]))[0] - level  # noqa: E731
    for lo, hi in ivs:
        for e, out in ((lo, -np.inf), (hi, np.inf)):
            if np.isfinite(e):
                assert lr(e) > 0 >= lr(np.nextafter(e, out)) or abs(lr(np.nextafter(e, out))) < 1e-12


def _profile_by_brute_force(R, r):
    """B*(r) h as the full grid maximum over every node and a golden-section search around the
    maximiser for each r separately (the direct form of what _profile computes)."""
    vals = R.l[None, :] * R._decay(np.abs(r[:, None] - R.s[None, :]))
    k = np.argmax(vals, axis=1)
    step = R.s[1] - R.s[0]
    lo, hi = np.maximum(R.s[k] - step, 0.0), R.s[k] + step
    _, best = _golden_max(lambda z: R._lip_near(z, R.w_best[k]) * R._decay(np.abs(r - z)), lo, hi, 50)
    return np.maximum(best, vals[np.arange(len(r)), k])


@pytest.mark.parametrize("gamma,growth,Lambda", [(1 / 9, "exponential", None), (0.5, "exponential", None),
                                                 (1e-6, "exponential", None), (1e3, "exponential", None),
                                                 (1 / 9, "exponential", 0.5), (1 / 9, "linear", None),
                                                 (2.0, "linear", None)])
def test_the_radial_profile_equals_its_brute_force_form(gamma, growth, Lambda, monkeypatch):
    from gpaudit.model import numeric_ss
    monkeypatch.setenv("GPAUDIT_NO_CACHE", "1")
    R = numeric_ss.RadialSmoothSensitivity((0.0, 0.0), 1.0, gamma, growth, Lambda, n_s=801, n_r=1001)
    ref = _profile_by_brute_force(R, R.r)
    got = np.exp(R.logB)
    assert np.array_equal(got > 0, ref > 0)
    pos = ref > 0
    # the same maxima up to rounding: a few ulps of ln B
    assert np.max(np.abs(np.log(got[pos]) - np.log(ref[pos]))) <= 8 * np.finfo(float).eps * max(1, np.max(np.abs(np.log(ref[pos]))))


def test_a_failed_candidate_rate_on_a_proved_region_seeds_nothing():
    """A candidate below the requirement that fails (sat) on a region where the requirement is then
    proved is no failed condition: no seed.  A failed requirement (decisive sat) still seeds."""
    from gpaudit.model.mechanism import build_mechanism
    from gpaudit.prove.engine import prove_conditions
    ok = prove_conditions(build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml")))
    assert ok.status == CERTIFIED
    assert any(r.status == "sat" and not r.decisive for r in ok.records)   # candidates did fail
    assert ok.seeds == []
    bad = prove_conditions(build_mechanism(load_spec(BROKEN / "laud-thm3-beta-below-smoothness.yaml")))
    assert bad.status == REFUTED
    assert any(r.status == "sat" and r.decisive for r in bad.records)
    assert bad.seeds


# -- the float screen's arithmetic: reused arrays, nested where, cache-sized blocks ---------------

def _families():
    from gpaudit.model.families import make_family
    return [make_family("student_t", nu=3), make_family("student_t", nu="1/2"),
            make_family("gen_cauchy", p=4, theta=1), make_family("laplace"),
            make_family("polyplace", alpha=3), make_family("gaussian")]


@pytest.mark.parametrize("fam", _families(), ids=lambda f: type(f).__name__)
def test_the_log_density_reuses_arrays_with_the_same_values_bit_for_bit(fam):
    """Mechanism.log_density_np writes u, |u| and the result into one array; it must give what
    the plain expression gives, for every broadcast shape, and leave its arguments alone."""
    from types import SimpleNamespace

    from gpaudit.model.mechanism import Mechanism
    mech = SimpleNamespace(family=fam)
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(40) * 10, np.exp(rng.standard_normal(40) * 3)
    b[:3] = [0.0, -1.0, np.inf]
    Y = np.concatenate([rng.standard_normal((40, 30)) * 10 ** rng.uniform(-3, 200, (40, 1)),
                        np.full((40, 2), np.nan), np.full((40, 1), -np.inf)], axis=1)
    cases = [(a[:, None], b[:, None], Y), (a, b, Y[:, 0]), (a[:, None], b[:, None], Y[0]),
             (1.5, 2.0, Y), (a, b, 0.25), (1.5, 2.0, 0.25), (a[:, None], b[None, :], Y[:, :1])]
    for a_, b_, Y_ in cases:
        before = [np.array(v, copy=True) for v in (a_, b_, Y_)]
        with np.errstate(all="ignore"):
            want = fam.logpdf_np((Y_ - a_) / b_) - np.log(b_)
        got = Mechanism.log_density_np(mech, a_, b_, Y_)
        assert np.shape(got) == np.shape(want)
        assert np.array_equal(got, want, equal_nan=True)
        assert all(np.array_equal(v, w, equal_nan=True) for v, w in zip((a_, b_, Y_), before))


def test_the_lowered_log_ratio_is_the_plain_expression_bit_for_bit():
    from gpaudit.audit.floatloss import EPS64, lowered_log_ratio, score_bound
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-gen-cauchy.yaml"))
    psi = score_bound(mech)
    rng = np.random.default_rng(5)
    a, ap = rng.standard_normal((2, 50, 1)) * 100
    b, bp = np.exp(rng.standard_normal((2, 50, 1)))
    Y = rng.standard_normal((50, 60)) * 10 ** rng.uniform(-2, 12, (50, 1))
    for args in ((a, b, ap, bp, Y), (a[:, 0], b[:, 0], ap[:, 0], bp[:, 0], Y[:, 0]), (a, b, ap, bp, Y[:, :1].T)):
        a_, b_, ap_, bp_, Y_ = args
        with np.errstate(all="ignore"):
            want = (mech.log_density_np(a_, b_, Y_) - mech.log_density_np(ap_, bp_, Y_)
                    - 4 * EPS64 * psi * ((np.abs(Y_) + np.abs(a_)) / b_ + (np.abs(Y_) + np.abs(ap_)) / bp_))
        got = lowered_log_ratio(mech, *args, psi)
        assert got.shape == want.shape and np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("name", ["laud-thm3-count3-l1.yaml", "threshold-polyplace.yaml"])
def test_the_screen_and_the_hockey_stick_estimate_do_not_depend_on_the_block_size(name):
    from gpaudit.audit.candidates import candidate_pairs
    from gpaudit.audit.hockey import hockey_proxy
    from gpaudit.audit.search import screen_rates
    mech = build_mechanism(load_spec(ROOT / "examples" / name))
    X, Xp = candidate_pairs(mech.query.landmarks, float(mech.query.scale), float(mech.spec.bound.gamma),
                            float(mech.Lambda), mech.dim, "quick", np.random.default_rng(0), mech.metric)
    X, Xp = X[:1500], Xp[:1500]
    rates, ys = screen_rates(mech, X, Xp)
    for chunk in (1, 97, 4000):
        r2, y2 = screen_rates(mech, X, Xp, chunk=chunk)
        assert np.array_equal(rates, r2) and np.array_equal(ys, y2, equal_nan=True)
    assert np.array_equal(hockey_proxy(mech, X, Xp), hockey_proxy(mech, X, Xp, chunk=4000))


def test_a_piecewise_in_numpy_is_the_first_piece_that_holds_and_nan_where_none_does():
    """numpy_lambdify prints a Piecewise as nested where: it must agree with sympy's own select
    form everywhere, NaN included, and fall back to select beyond Python's nesting limit."""
    import sympy as sp

    from gpaudit.model.lower import numpy_lambdify
    x, y = sp.symbols("x y", real=True)
    X = np.concatenate([np.linspace(-5, 5, 101), [np.nan, np.inf, -np.inf, 0.0]])
    Y = np.resize(np.linspace(-3, 2, 7), X.shape)
    exprs = [sp.Piecewise((x**2, x < 0), (sp.sqrt(x), x < 2)),  # no piece beyond 2: NaN
             sp.Piecewise((1, (x > y) & (x < 3)), (x * y, sp.Or(x < -1, y > 1)), (sp.exp(x), True)),
             sp.Piecewise((sp.Piecewise((x, y < 0), (-x, True)), x > 1), (0, True)) + y,
             sp.Piecewise(*[(x * k, x < k - 3) for k in range(260)], (y, True))]
    for e in exprs:
        want = sp.lambdify([x, y], e, modules=[np])
        got = numpy_lambdify([x, y], e)
        with np.errstate(all="ignore"):
            w, g = np.broadcast_to(want(X, Y), X.shape), np.broadcast_to(got(X, Y), X.shape)
        assert np.array_equal(w, g, equal_nan=True)
    assert np.isnan(numpy_lambdify([x, y], exprs[0])(np.array([3.0]), np.array([0.0]))).all()


def test_the_in_place_float64_overrides_are_their_plain_expressions_bit_for_bit():
    import math

    from gpaudit.model.families import make_family
    rng = np.random.default_rng(8)
    x = np.abs(rng.standard_normal(3000)) * 10 ** rng.uniform(-300, 308, 3000)
    x[:4] = [0.0, np.inf, np.nan, 1e300]
    with np.errstate(all="ignore"):
        for t in (make_family("student_t", nu=3), make_family("student_t", nu="1/3")):
            _, inv_root, half = t._floats
            plain = np.log1p((x * inv_root) ** 2)
            plain = np.where(~(x * inv_root <= 1e150), 2 * (np.log(x) + math.log(inv_root)), plain)
            for arg in (x, x[5]):
                want = t._log_c_np - half * (plain if arg is x else plain[5])
                assert np.array_equal(t._logpdf_abs_np(arg), want, equal_nan=True)
        g = make_family("gen_cauchy", p="7/2", theta=2)
        p_, th, _ = g._floats
        want = g._log_c_np - th * np.logaddexp(0.0, p_ * np.log(x))
        assert np.array_equal(g._logpdf_abs_np(x), want, equal_nan=True)
        assert g._logpdf_abs_np(x[5]) == want[5]


def test_the_one_dimensional_row_norm_is_the_scaled_form_bit_for_bit():
    """row_norm's shortcut in one dimension (|v|) against its general scaled form, on the values
    where scaling matters: zeros of both signs, subnormals, the largest doubles, infinities, NaN."""
    from gpaudit.model import fp

    tiny = np.nextafter(0.0, 1.0)
    edge = np.array([0.0, -0.0, tiny, -tiny, 1e-310, 2.2250738585072014e-308, 1.0, -3.5, 1e300,
                     np.finfo(float).max, -np.finfo(float).max, np.inf, -np.inf, np.nan])
    rng = np.random.default_rng(7)
    v = np.concatenate([edge, rng.standard_normal(1000) * 10.0 ** rng.integers(-300, 300, 1000)])
    V = v[:, None]
    with np.errstate(all="ignore"):              # the general form, as row_norm has it for d > 1
        m = np.max(np.abs(V), axis=1)
        safe = np.where((m > 0) & np.isfinite(m), m, 1.0)
        general = m * np.sqrt(np.sum((V / safe[:, None]) ** 2, axis=1))
    general[m == 0] = 0.0
    general[np.isinf(m)] = np.inf
    general[np.isnan(m)] = np.nan
    fast = fp.row_norm(V)
    assert fast.shape == general.shape == (len(v),)
    assert np.array_equal(fast.view(np.uint64), general.view(np.uint64))
    assert fp.row_norm(np.array([-2.5])).tolist() == [2.5]      # one vector of one coordinate


def test_progress_names_the_proof_stage_only_where_it_runs():
    """A terminal shows which stage is running: the screen and the polishing, then the proof stage
    (the longest one for most valid files), which a verified witness skips."""
    for path, stages in ((ROOT / "examples" / "threshold-student-t.yaml", ["screen", "polish", "prove"]),
                         (BROKEN / "threshold-bound-jump.yaml", ["screen", "polish"])):
        seen = []
        check_spec(load_spec(path), progress=lambda stage, frac: seen.append(stage), effort="quick")
        assert list(dict.fromkeys(seen)) == stages, (path.name, seen)


def test_the_kernel_stops_deciding_regions_ahead_at_one_that_fails_and_the_verdict_stands(monkeypatch):
    """check.kernel_prepare decides each region's own obligations as its rates come; where one does
    not hold (here a first region handed a slope constant below its slope, as a generator's
    enclosure-only constant would be) no further region is decided ahead (each would start afresh:
    the same obligations again for every region after it), and the check decides them itself:
    the verdict and bound are those of a run that prepared nothing ahead."""
    from gpaudit import check as ck
    from gpaudit.certify import handoff
    path = ROOT / "examples" / "threshold-student-t.yaml"
    plain = check_spec(load_spec(path))
    real_regions, calls = handoff.regions_of, []

    def low_first(leaves, rates=None, partial=False):
        regs = real_regions(leaves, rates, partial)
        if partial and regs and regs[0].a is not None:       # ahead only: the certificate is the real one
            import dataclasses
            import sympy as sp
            regs = (dataclasses.replace(regs[0], a=sp.Rational(1, 1000)),) + regs[1:]
        return regs
    real_prepare = ck.kernel_prepare

    def counting(mech, leaves=None, prepared=None, rates=None):
        calls.append(None if rates is None else len(rates))
        return real_prepare(mech, leaves, prepared, rates)
    monkeypatch.setattr(handoff, "regions_of", low_first)
    monkeypatch.setattr(ck, "kernel_prepare", counting)
    r = check_spec(load_spec(path))
    assert calls == [None, None, 1]             # the pieces, the structure, the first region: then no more
    assert (r.verdict, r.epsilon_upper) == (plain.verdict, plain.epsilon_upper) == (CERTIFIED, plain.epsilon_upper)
