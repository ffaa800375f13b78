"""Users' own code (kind python): exactness measured at the points a verdict uses, crashes kept as
findings, float64 programs refuted only beyond their tolerance, args / input.scalar / landmarks /
scale / "dir/file.py:fn", notes on YAML floats read as binary, and the examples/usercode catalog."""

import json
import math
import shutil
import textwrap
from pathlib import Path

import mpmath
import pytest

from gpaudit.check import check_spec
from gpaudit.cli import main
from gpaudit.errors import ConfigError
from gpaudit.model.mechanism import build_mechanism
from gpaudit.model.usercode import UserFn
from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
USERCODE = ROOT / "examples" / "usercode"

CONFIG = """\
gpaudit: 1
name: {name}
{params}input: {{dim: 1{input}}}
query: {{kind: python, callable: "{f}"{query}}}
bound: {{growth: exponential, gamma: 0, {bound}}}
noise: {{family: laplace, eta: 1}}
claim: {{epsilon: 1}}
"""


def make(dirpath, name, module_text, f="userfns:f", bound='kind: python, callable: "userfns:B"',
         query="", params="", inp="", module="userfns.py"):
    dirpath.mkdir(parents=True, exist_ok=True)
    if module_text is not None:
        (dirpath / module).parent.mkdir(parents=True, exist_ok=True)
        (dirpath / module).write_text(textwrap.dedent(module_text))
    cfg = dirpath / "mech.yaml"
    cfg.write_text(CONFIG.format(name=name, f=f, bound=bound, query=query, params=params, input=inp))
    return cfg


def check(cfg, effort="quick"):
    return check_spec(load_spec(cfg), effort=effort)


def user_checks(r):
    return [c for c in r.checks if c.id == "user_code"]


# -- 1. exactness is measured --------------------------------------------------------------------
REPRO_A = "def f(x):\n    return min(max(x[0] + 0.5, 0.0), 1.0)\n\ndef B(x):\n    return 1.0\n"
R2 = """\
import math
import mpmath

def f(x):
    t = float(x[0]) + 0.5
    return mpmath.mpf(min(max(t, 0.0), 1.0))
"""


def test_float_built_mpf_is_not_refuted_on_rounding_noise(tmp_path):
    """Review R2: f = mpf(clip(float(x) + 0.5)), B = 1, eps = 1 holds over the reals."""
    cfg = make(tmp_path, "pymix", R2, bound="kind: constant, value: 1")
    r = check(cfg, effort="standard")
    assert r.verdict != "refuted"
    assert r.info["decision"]["rule"] != "refuted"


def _fn(code, name="f", **kw):
    ns = {}
    exec(textwrap.dedent(code), ns)
    u = UserFn(ns[name], name, f"t:{name}", **kw)
    u.exact = True
    return u


@pytest.mark.parametrize("code,exact", [
    ("import mpmath, math\ndef f(x):\n    return mpmath.mpf(math.sqrt(x[0]))\n", False),
    ("import mpmath\ndef f(x):\n    return mpmath.mpf(float(x[0]) + 0.5)\n", False),
    ("import mpmath\ndef f(x):\n    with mpmath.workdps(12):\n        v = +(x[0] * 3 + 1)\n    return +v\n", False),
    ("import mpmath\ndef f(x):\n    return mpmath.sqrt(x[0])\n", True),
    ("def f(x):\n    return min(max(x[0] + 0.5, 0.0), 1.0)\n", True),
    ("def f(x):\n    return 1.0\n", True),
])
def test_exactness_is_measured_at_the_point(code, exact):
    """A value computed through a float (an mpf built from it, a workdps(12) block) is not exact."""
    u = _fn(code)
    assert u.exact_at([mpmath.mpf(0.7303)]) is exact
    assert u.exact_at([mpmath.mpf(12.25)]) is exact
    assert not u.findings


def test_nan_and_precision_dependent_values_are_findings(tmp_path):
    cfg = make(tmp_path, "nan-band", """\
        import mpmath

        def f(x):
            if 1 < x[0] < 2:
                return mpmath.nan                   # a band where the code breaks down
            if 3 < x[0] < 4:
                return mpmath.mpf(10) ** -(mpmath.mp.dps // 3)   # depends on the precision
            return x[0] / 4

        def B(x):
            return 1
        """, query=", landmarks: [1.5, 3.5]")
    r = check(cfg)
    [chk] = user_checks(r)
    assert chk.status == "unknown" and r.verdict == "unknown"
    assert chk.evidence["counts"].get("nan", 0) > 0 and chk.evidence["counts"].get("unstable", 0) > 0


def test_a_branch_that_fails_on_mpmath_numbers_is_judged_in_float64_there(tmp_path):
    """Exact code with one numpy branch (numpy refuses mpf): the finding is reported, the branch's
    float64 values are used there, and its slope of up to e^(1/5) refutes eps = 1 beyond the
    tolerance.  (The probe points miss the band, so the callable is classified as exact.)"""
    cfg = make(tmp_path, "numpy-branch", """\
        import mpmath
        import numpy as np

        def f(x):
            if x[0] <= 1:
                return 0
            if x[0] < 1.2:              # numpy on this branch, which refuses mpf
                if isinstance(x[0], str):   # a type test: code the tracer does not follow
                    return 0
                return float(np.exp(x[0] - 1)) - 1
            return mpmath.expm1(mpmath.mpf(1) / 5)

        def B(x):
            return 1
        """, query=", landmarks: [0.9]")
    mech = build_mechanism(load_spec(cfg))
    assert mech.exact_model                       # classified from the probes
    r = check(cfg)
    assert r.verdict == "refuted"
    assert 1 < float(r.witness["x"][0]) < 1.2
    assert "tolerance" in next(c for c in r.checks if c.id == "privacy.loss").detail
    [chk] = user_checks(r)
    assert "with mpmath inputs (its float64 value is used there)" in chk.detail


# -- 2. a crash is a finding ------------------------------------------------------------------------
RAISES_FAR = """\
def f(x):
    return x[0] / 2

def B(x):
    if abs(x[0]) > 50:
        raise {exc}
    return {value}
"""


def test_false_claim_refuted_near_zero_although_B_raises_far_out(tmp_path):
    cfg = make(tmp_path, "raise-far", RAISES_FAR.format(exc="ValueError('table ends')", value="0.25"),
               query=", landmarks: [0, 60]")
    r = check(cfg)
    assert r.verdict == "refuted"
    assert abs(float(r.witness["x"][0])) < 50
    [chk] = user_checks(r)
    assert "ValueError('table ends')" in chk.detail and abs(float(chk.evidence["x"][0])) > 50


def test_true_claim_with_a_crash_is_unknown_naming_the_input(tmp_path):
    cfg = make(tmp_path, "raise-far-ok", RAISES_FAR.format(exc="ValueError('table ends')", value="0.5"),
               query=", landmarks: [0, 60]")
    r = check(cfg)
    assert r.verdict == "unknown"
    [chk] = user_checks(r)
    x = chk.evidence["x"][0]
    assert abs(float(x)) > 50 and x in r.info["advice"] or repr(float(x)) in r.info["advice"]


@pytest.mark.parametrize("exc", ["SystemExit(3)", "Interrupted()", "GeneratorExit()"])
def test_base_exceptions_from_user_code_never_end_gpaudit(tmp_path, exc):
    body = "class Interrupted(BaseException):\n    pass\n\n" + RAISES_FAR.format(exc=exc, value="0.25")
    cfg = make(tmp_path, "base-exc", body, query=", landmarks: [0, 60]")
    r = check(cfg)
    assert r.verdict == "refuted"
    assert user_checks(r)


# -- 4. float programs ----------------------------------------------------------------------------
NUMPY_SLOPE3 = """\
import numpy as np

def f(x):
    return float(np.clip(3.0 * np.asarray(x, dtype=float)[0] + 0.5, 0.0, 1.0))

def B(x):
    return float(np.float64(1.0))
"""
ROUNDING = """\
import math
import numpy as np

def f(x):
    t = min(max(float(np.asarray(x, dtype=float)[0]) + 0.5, 0.0), 1.0)   # numpy: not traceable
    return math.exp(math.log1p(t)) - 1.0      # clip(x + 1/2, 0, 1), with rounding

def B(x):
    return math.sqrt(2.0) / math.sqrt(2.0)
"""


def test_float_program_with_a_real_violation_is_refuted(tmp_path):
    r = check(make(tmp_path, "np-slope3", NUMPY_SLOPE3))
    assert r.verdict == "refuted"
    assert r.info["decision"]["rule"] == "refuted"
    loss = next(c for c in r.checks if c.id == "privacy.loss")
    assert "tolerance 1e-09" in loss.detail
    assert any("tolerance 1e-09" in n for n in r.info["notes"])
    assert 2.9 < float(r.epsilon_lower) <= 3


def test_float_program_with_a_tiny_bound_is_refuted_far_out(tmp_path):
    """Laplace noise, f = x/2 and B = exp(-|x|/1000)/4 both in float64: B is far too small far from
    0; the tolerance of B is relative (a tiny B stays positive in its ball), so the violation at
    |x'| ~ 1e5 is shown."""
    cfg = make(tmp_path, "tiny-B", """\
        import numpy as np

        def f(x):
            return float(np.asarray(x, dtype=float)[0]) / 2

        def B(x):
            return 0.25 * float(np.exp(-0.001 * abs(np.asarray(x, dtype=float)[0])))
        """, bound='kind: python, callable: "userfns:B"')
    cfg.write_text(cfg.read_text().replace("gamma: 0,", "gamma: 1/100,"))
    r = check(cfg)
    assert r.verdict == "refuted" and r.info["witness_judgement"] == "tolerance"


def test_float_program_tolerance_is_honoured(tmp_path):
    """The same slope-3 program with a tolerance so large that no violation survives: unknown."""
    cfg = make(tmp_path, "np-slope3-loose", NUMPY_SLOPE3, query=", tolerance: 1/2")
    r = check(cfg)
    assert r.verdict == "unknown" and r.info["decision"]["rule"] == "approximate"


@pytest.mark.parametrize("effort", ["quick", "standard"])
def test_rounding_noise_is_never_refuted(tmp_path, effort):
    r = check(make(tmp_path, "noise", ROUNDING), effort=effort)
    assert r.verdict == "unknown"


@pytest.mark.parametrize("eps,verdict", [("0.5000000000000003", "unknown"), ("2/5", "refuted")])
def test_float_rounding_of_a_scaled_clamp(tmp_path, eps, verdict):
    """f = 3 clamp(x, -5, 5) in float64 (slopes of 3.00000000004 from rounding), B = 3, Laplace
    eta = 1/2: a claim just above 1/2 is not refuted on that rounding, a claim of 2/5 is."""
    (tmp_path / "fns.py").write_text("import numpy as np\n\ndef f(x):\n"
                                     "    return float(3.0 * np.clip(np.asarray(x, dtype=float), -5.0, 5.0))\n")
    cfg = tmp_path / "mech.yaml"
    cfg.write_text(textwrap.dedent(f"""\
        gpaudit: 1
        name: scaled-clamp
        input: {{dim: 1, scalar: true}}
        query: {{kind: python, callable: "fns.py:f", landmarks: [-5, 0, 5], scale: 1}}
        bound: {{kind: constant, value: 3, growth: exponential, gamma: 0}}
        noise: {{family: laplace, eta: 1/2}}
        claim: {{epsilon: {eps}}}
        """))
    r = check(cfg)
    assert r.verdict == verdict
    if verdict == "unknown":  # the rounding violation was found, and not counted
        assert r.info["decision"]["rule"] == "approximate"


def test_float_program_value_balls(tmp_path):
    """The enclosure: a violation of 1 + 1e-15 relative is rounding noise, one of 1 + 1e-6 is not."""
    from gpaudit.audit.search import VerifiedTriple
    from gpaudit.audit.tolerance import enclosure_violates
    import sympy as sp
    cases = [(slope, sign, expect) for slope, expect in (("(1 + 1e-15)", False), ("(1 + 1e-6)", True))
             for sign in (1, -1)]
    for slope, sign, expect in cases:
        cfg = make(tmp_path / f"{slope}{sign}", "ball",
                   f"import numpy as np\n\ndef f(x):\n    return {slope} * float(np.asarray(x, dtype=float)[0])\n\n"
                   "def B(x):\n    return 1.0\n")
        mech = build_mechanism(load_spec(cfg))
        assert not mech.exact_model
        # the same pair mirrored (negative values of f and y): the same judgement
        x, xp = 0.25 * sign, 0.125 * sign
        v = VerifiedTriple((x,), (xp,), 1.0 * sign, mpmath.mpf(0.125), None, None, True)
        inexact = {(name, i): False for name in "fB" for i in (0, 1)}
        got = enclosure_violates(mech, v, inexact, {"f": sp.Rational(1, 10**9), "B": sp.Rational(1, 10**9)})
        assert (got is not None) is expect


# -- 3. args, input.scalar, landmarks, scale, file paths ---------------------------------------------
THRESH = """\
import mpmath

def f(x, T, tau):
    return min(max(3 * (x - T) / tau + mpmath.mpf(1) / 2, 0), 1)   # slope 3/tau: 3 times the claim

def B(x, tau):
    return 1 / tau
"""


def test_args_scalar_landmarks_scale(tmp_path):
    params = "params: {T: 10000, tau: 1600}\n"
    common = dict(params=params, inp=", scalar: true",
                  bound='kind: python, callable: "sub/thresh.py:B", args: {tau: tau}', module="sub/thresh.py",
                  f="sub/thresh.py:f")
    cfg = make(tmp_path / "marks", "with-landmarks", THRESH,
               query=", args: {T: T, tau: tau}, landmarks: [T - tau/6, T, T + tau/6], scale: tau", **common)
    mech = build_mechanism(load_spec(cfg))
    assert mech.query.landmarks == [(10000 - 1600 / 6,), (10000.0,), (10000 + 1600 / 6,)]
    assert mech.query.scale == 1600.0 and mech.exact_model
    with mpmath.workdps(50):
        assert mech.query.f_mp([mpmath.mpf(10000)]) == mpmath.mpf(1) / 2
        assert mech.bound.B_mp([mpmath.mpf(3)]) == mpmath.mpf(1) / 1600
    r = check(cfg)
    assert r.verdict == "refuted"
    assert 9000 < float(r.witness["x"][0]) < 11000
    # without landmarks: this code traces (docs/traceable-code.md), and the traced formula's own
    # breakpoints are landmarks, so the search finds the threshold anyway
    bare = make(tmp_path / "bare", "no-landmarks", THRESH, query=", args: {T: T, tau: tau}", **common)
    assert build_mechanism(load_spec(bare)).query.trace is not None
    assert check(bare).verdict == "refuted"


BAD = [
    (', args: {T: [1, 2]}', "query.args.T"),
    (', args: {T: nope}', "query.args.T"),
    (', args: [1]', "query.args"),
    (', landmarks: [[1, 2]]', "query.landmarks[0]"),
    (', landmarks: 3', "query.landmarks"),
    (', scale: 0', "query.scale"),
    (', scale: -tau', "query.scale"),
    (', tolerance: 2', "query.tolerance"),
    (', colour: red', "query.colour"),
]


@pytest.mark.parametrize("query,field", BAD)
def test_bad_python_fields_are_one_line_errors(tmp_path, capsys, query, field):
    cfg = make(tmp_path, "bad", REPRO_A, query=query, params="params: {tau: 2}\n")
    assert main(["check", str(cfg)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and field in err and str(cfg) in err


def test_landmarks_in_two_dimensions(tmp_path):
    (tmp_path / "fns.py").write_text("def f(x):\n    return x[0] * x[1]\n")
    cfg = tmp_path / "mech.yaml"
    text = textwrap.dedent("""\
        gpaudit: 1
        name: two-d
        params: {a: 3, tau: 1/2}
        input: {dim: 2}
        query: {kind: python, callable: "fns.py:f", landmarks: LANDMARKS, scale: tau}
        bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    cfg.write_text(text.replace("LANDMARKS", "[[a, a + tau], [0, -1]]"))
    mech = build_mechanism(load_spec(cfg))
    assert mech.query.landmarks == [(3.0, 3.5), (0.0, -1.0)] and mech.query.scale == 0.5
    for bad, field in (("[[a]]", "query.landmarks[0]"), ("[a, a]", "query.landmarks[0]"),
                       ("[[a, b]]", "query.landmarks[0][1]")):
        cfg.write_text(text.replace("LANDMARKS", bad))
        with pytest.raises(ConfigError) as info:
            load_spec(cfg)
        assert field in info.value.line()


def test_bad_scalar_and_path(tmp_path):
    cfg = make(tmp_path, "bad", REPRO_A, inp=", scalar: 1")
    with pytest.raises(ConfigError, match="input.scalar"):
        load_spec(cfg)
    cfg.write_text(cfg.read_text().replace("dim: 1, scalar: 1", "dim: 2, scalar: true"))
    with pytest.raises(ConfigError, match="input.scalar"):
        load_spec(cfg)
    cfg = make(tmp_path / "p", "bad-path", REPRO_A, f="nowhere/fns.py:f")
    with pytest.raises(ConfigError, match="query.callable.*nowhere/fns.py"):
        load_spec(cfg)


# -- 5. literal traps ---------------------------------------------------------------------------------
def test_yaml_floats_read_as_binary_are_noted_once(tmp_path):
    cfg = tmp_path / "lit.yaml"
    cfg.write_text(textwrap.dedent("""\
        gpaudit: 1
        name: lit 0.1 and 0.3
        description: gamma 0.1, not a formula
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound:
          kind: piecewise
          growth: exponential
          gamma: 0.1
          pieces:
            - {where: "abs(x) <= 1/2", value: 1}
            - {value: "max(1/(abs(x) + 1/2), exp(-0.1*(abs(x) - 1/2)))"}
        noise: {family: laplace, eta: 0.5}
        claim: {epsilon: 0.3}
        """))
    notes = load_spec(cfg).literal_notes
    assert len(notes) == 2
    assert "bound.gamma = 0.1" in notes[0] and "claim.epsilon = 0.3" in notes[0] and "1/10" in notes[0]
    assert "noise.eta" not in notes[0]          # 0.5 is exact in binary
    assert "bound.gamma" in notes[1] and "bound.pieces[1].value" in notes[1]
    out = tmp_path / "r.json"
    main(["check", str(cfg), "--effort", "quick", "--quiet", "--json", str(out)])
    assert json.loads(out.read_text())["info"]["notes"][:2] == list(notes)
    cfg.write_text(cfg.read_text().replace("gamma: 0.1", "gamma: 1/10").replace("0.3", "3/10"))
    assert load_spec(cfg).literal_notes == ()


# -- 6. the catalog -----------------------------------------------------------------------------------
@pytest.fixture
def catalog(tmp_path):
    shutil.copytree(USERCODE, tmp_path / "usercode")
    return tmp_path / "usercode"


def test_catalog_kde_root_finder_refuted_as_float_program(catalog):
    r = check(catalog / "kde-rootfinder.yaml")
    assert r.verdict == "refuted"
    assert "tolerance" in next(c for c in r.checks if c.id == "privacy.loss").detail
    # the witness straddles the radius where the bound halves (independently: B(x)/B(x') = 2)
    from scipy.optimize import brentq
    peak = 1 / math.sqrt(math.e)
    radius = brentq(lambda r: r * math.exp(-r * r / 2) - peak / 2, 1, 10, xtol=1e-14)
    xs = sorted(abs(float(v[0])) for v in (r.witness["x"], r.witness["x_prime"]))
    assert xs[0] <= radius + 1e-9 and xs[1] >= radius - 1e-9


def test_catalog_raising_table_refuted_and_reported(catalog):
    r = check(catalog / "raises-outside-table.yaml")
    assert r.verdict == "refuted"
    [chk] = user_checks(r)
    assert "KeyError" in chk.detail


def test_catalog_threshold_with_args_not_refuted(catalog):
    r = check(catalog / "threshold-args.yaml")
    assert r.verdict != "refuted"
    rate = mpmath.mpf(r.epsilon_lower) / (mpmath.mpf(1) / 1000)
    assert abs(rate - mpmath.mpf(2) / 3) < mpmath.mpf(10) ** -6   # the worst rate is exhibited


def test_past_the_callables_time_budget_nothing_is_called_and_nothing_is_decided(monkeypatch):
    """Every run ends however slow a user's callable: at 2 ms a call one check took 567 s.  Past the
    callables' wall clock (usercode.SECONDS, here 0 s: spent before the first call) no callable is
    called, each input is a "time" finding that names the limit, and neither a certificate nor a
    refutation rests on values that were never computed."""
    from gpaudit.model import usercode
    monkeypatch.setattr(usercode, "SECONDS", 0)
    # a float program (refuted within the budget): no value computed, so no witness counts
    r = check_spec(load_spec(str(ROOT / "examples" / "usercode" / "kde-rootfinder.yaml")))
    assert str(r.verdict) == "unknown" and r.witness is None
    found = [c for c in r.checks if c.id == "user_code"]
    assert found and all("wall-clock budget of 0 s is spent" in c.detail for c in found)
    assert usercode.TIME_NOTE in found[0].detail and "not called past the time budget" in found[0].detail
    assert "used up their wall-clock budget of 0 s" in r.info["advice"] and "traceable" in r.info["advice"]
    # traced callables are judged on their traces, which need no call: the same verdicts as ever
    for name, verdict in (("threshold-args.yaml", "certified"), ("traced-threshold-bound-too-small.yaml", "refuted")):
        r = check_spec(load_spec(str(ROOT / "examples" / "usercode" / name)))
        assert str(r.verdict) == verdict and not [c for c in r.checks if c.id == "user_code"], name
    assert usercode.DEADLINE == [None]                    # the budget is per check, and given back
    with usercode.time_budget(5):
        with usercode.time_budget(0):                     # nested: the outer budget holds
            assert not UserFn(lambda x: x[0], "f", "m.py:f").out_of_time([0.0])
    assert usercode.DEADLINE == [None]


@pytest.mark.slow  # process-level: waits on the run's watchdog (SIGALRM), twice
def test_a_callable_that_never_returns_is_stopped_by_the_runs_watchdog(tmp_path, monkeypatch):
    """A loop that does not end is bounded by no budget: the run's watchdog (SIGALRM after
    check.RUN_WATCHDOG_SECONDS, here 1 s) ends the check, unknown, naming the limit, and gives the
    signal handler and the timer back.  Off the main thread (where no signal arrives) there is none."""
    import signal
    import threading
    from gpaudit import check as ck
    from gpaudit.kernel import z3door
    (tmp_path / "hang.py").write_text(textwrap.dedent("""
        def f(x):
            while True:
                pass
        """))
    (tmp_path / "hang.yaml").write_text(textwrap.dedent("""
        gpaudit: 1
        name: hang
        input: {dim: 1}
        query: {kind: python, callable: "hang.py:f"}
        bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """))
    monkeypatch.setattr(ck, "RUN_WATCHDOG_SECONDS", 1)
    before = signal.getsignal(signal.SIGALRM)
    r = check_spec(load_spec(str(tmp_path / "hang.yaml")))
    assert str(r.verdict) == "unknown" and [c.id for c in r.checks] == ["run"]
    assert "watchdog stopped the check after 1 s" in r.checks[0].detail and z3door.WALL_CLOCK_NOTE in r.checks[0].detail
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    # a timer the calling program set runs on after the check, less the time the check took
    signal.setitimer(signal.ITIMER_REAL, 1000)
    try:
        assert str(check_spec(load_spec(str(tmp_path / "hang.yaml"))).verdict) == "unknown"
        assert 990 < signal.getitimer(signal.ITIMER_REAL)[0] <= 999     # less the watchdog's 1 s at least
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    out = []
    worker = threading.Thread(target=lambda: out.append(check_spec(load_spec(str(ROOT / "examples" / "usercode" /
                                                                                   "threshold-args.yaml")))))
    worker.start()
    worker.join()
    assert str(out[0].verdict) == "certified"
