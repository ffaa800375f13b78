"""User Python callables (query and bound kind `python`): each file's module is its own, the
module's source is part of config_sha256, exceptions in user code (SystemExit included) give that
file alone an unknown verdict, and the exactness of the model follows the callable's arithmetic."""

import math
import textwrap

import mpmath
import pytest

from gpaudit.check import check_spec
from gpaudit.cli import main
from gpaudit.errors import ConfigError
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec

CONFIG = """\
gpaudit: 1
name: {name}
input: {{dim: 1}}
query: {{kind: python, callable: "{f}"}}
bound: {{growth: exponential, gamma: 0, kind: python, callable: "{B}"}}
noise: {{family: laplace, eta: 1}}
claim: {{epsilon: 1}}
"""

CLIP = """\
def f(x):
    return min(max({slope}*x[0] + 0.5, 0.0), 1.0)

def B(x):
    return 1.0
"""


def make(dirpath, name, module_text, f="userfns:f", B="userfns:B", module="userfns.py"):
    dirpath.mkdir(parents=True, exist_ok=True)
    if module_text is not None:
        (dirpath / module).parent.mkdir(parents=True, exist_ok=True)
        (dirpath / module).write_text(textwrap.dedent(module_text))
    cfg = dirpath / "mech.yaml"
    cfg.write_text(CONFIG.format(name=name, f=f, B=B))
    return cfg


# -- (a) same module name, different directories -------------------------------------------------
def test_same_module_name_in_two_directories_each_judged_on_its_own(tmp_path):
    gentle = make(tmp_path / "one", "slope-one", CLIP.format(slope=1))
    steep = make(tmp_path / "two", "slope-three", CLIP.format(slope=3))
    # Load and check both (in this order and the other way round): no sys.modules cross-talk.
    for order in ((gentle, steep), (steep, gentle)):
        specs = [load_spec(p) for p in order]
        mechs = {s.name: build_mechanism(s) for s in specs}
        assert mechs["slope-one"].query.f_math([0.1]) == pytest.approx(0.6)
        assert mechs["slope-three"].query.f_math([0.1]) == pytest.approx(0.8)
    r_steep = check_spec(load_spec(steep), effort="quick")
    r_gentle = check_spec(load_spec(gentle), effort="quick")
    assert r_steep.verdict == "refuted"
    assert abs(float(r_steep.epsilon_lower) - 3) < 0.05
    assert r_gentle.verdict != "refuted"
    assert r_gentle.witness is None
    assert float(r_gentle.epsilon_lower) <= 1 + 1e-9


def test_dotted_module_relative_to_the_config(tmp_path):
    d = tmp_path / "cfg"
    (d / "pkg").mkdir(parents=True)
    (d / "pkg" / "__init__.py").write_text("def SCALE_B(x):\n    return 2\n")
    (d / "pkg" / "fns.py").write_text("def f(x):\n    return x[0] / 4\n")
    cfg = make(d, "dotted", None, f="pkg.fns:f", B="pkg:SCALE_B")
    mech = build_mechanism(load_spec(cfg))
    assert mech.query.f_math([1.0]) == 0.25
    assert mech.bound.B_math([1.0]) == 2.0


# -- (b) the module's source is part of the hash ------------------------------------------------
def test_editing_the_module_changes_config_sha256(tmp_path):
    cfg = make(tmp_path, "hashed", CLIP.format(slope=1))
    before = load_spec(cfg)
    assert build_mechanism(before).query.f_math([0.25]) == 0.75
    (tmp_path / "userfns.py").write_text(CLIP.format(slope=2))  # same length: no stale bytecode
    after = load_spec(cfg)
    assert after.sha256 != before.sha256
    assert build_mechanism(after).query.f_math([0.25]) == 1.0
    (tmp_path / "userfns.py").write_text(CLIP.format(slope=1))
    assert load_spec(cfg).sha256 == before.sha256  # deterministic


def test_hash_of_a_config_without_callables_is_its_bytes(tmp_path):
    import hashlib
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG.replace('{{kind: python, callable: "{f}"}}', "{{kind: soft_threshold, T: 0, tau: 1}}")
                   .replace('kind: python, callable: "{B}"', "kind: constant, value: 1")
                   .format(name="plain"))
    assert load_spec(cfg).sha256 == hashlib.sha256(cfg.read_bytes()).hexdigest()


# -- (c) exceptions in user code ------------------------------------------------------------------
RAISERS = {
    "sys-exit-0": ("import sys\n\ndef f(x):\n    if x[0] > 1.0:\n        sys.exit(0)\n    return x[0] / 4\n",
                   "SystemExit(0)", lambda x: x > 1.0),
    "system-exit-5": ("def f(x):\n    if x[0] < -1.0:\n        raise SystemExit(5)\n    return x[0] / 4\n",
                      "SystemExit(5)", lambda x: x < -1.0),
    "value-error": ("def f(x):\n    if abs(x[0]) > 3.0:\n        raise ValueError('out of range')\n"
                    "    return x[0] / 4\n", "ValueError('out of range')", lambda x: abs(x) > 3.0),
}
B_OK = "\ndef B(x):\n    return 1\n"


@pytest.mark.parametrize("case", sorted(RAISERS))
def test_raising_callable_gives_unknown_with_user_code_check(tmp_path, case):
    body, exc_text, bad = RAISERS[case]
    cfg = make(tmp_path, case, body + B_OK)
    r = check_spec(load_spec(cfg), effort="quick")
    assert r.verdict == "unknown"
    [chk] = [c for c in r.checks if c.id == "user_code"]
    assert chk.status == "unknown"
    assert chk.detail.startswith(f"f raised {exc_text} at x = [")
    x = float(chk.evidence["x"][0])
    assert bad(x)
    assert repr(x) in chk.detail


def test_raising_bound_named_B(tmp_path):
    cfg = make(tmp_path, "gen-exit", "def f(x):\n    return x[0] / 4\n\ndef B(x):\n"
               "    if x[0] > 0.5:\n        raise GeneratorExit\n    return 1\n")
    r = check_spec(load_spec(cfg), effort="quick")
    [chk] = [c for c in r.checks if c.id == "user_code"]
    assert r.verdict == "unknown" and chk.detail.startswith("B raised GeneratorExit() at x = [")


# -- (d) configuration errors ---------------------------------------------------------------------
BAD_CALLABLES = [
    ("missing-file", None, "nofile:f", "query.callable"),
    ("missing-function", "def f(x):\n    return 0\n", "userfns:nope", "query.callable"),
    ("not-callable", "f = 3\n", "userfns:f", "query.callable"),
    ("raises-on-import", "raise RuntimeError('boom')\n", "userfns:f", "query.callable"),
    ("exits-on-import", "import sys\nsys.exit(7)\n", "userfns:f", "query.callable"),
    ("missing-bound-function", "def f(x):\n    return 0\n", "userfns:f", "bound.callable"),
    ("bad-ref", "def f(x):\n    return 0\n", "user-fns:f", "query.callable"),
]


@pytest.mark.parametrize("case,module_text,f,field", BAD_CALLABLES, ids=[c[0] for c in BAD_CALLABLES])
def test_bad_callable_is_a_one_line_config_error(tmp_path, capsys, case, module_text, f, field):
    cfg = make(tmp_path, case, module_text, f=f, B="userfns:B2" if field == "bound.callable" else "userfns:f")
    out = tmp_path / "r.json"
    code = main(["check", str(cfg), "--json", str(out), "--effort", "quick"])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert str(cfg) in lines[0] and field in lines[0]
    assert "Traceback" not in err
    assert not out.exists()


def test_module_vanishing_after_loading_is_a_config_error(tmp_path):
    cfg = make(tmp_path, "vanishes", CLIP.format(slope=1))
    spec = load_spec(cfg)
    (tmp_path / "userfns.py").unlink()
    with pytest.raises(ConfigError) as info:
        check_spec(spec, effort="quick")
    assert str(cfg) in info.value.line() and "query.callable" in info.value.line()


# -- (e) exact (mpmath) and float64 callables ----------------------------------------------------
def test_mpmath_capable_callable_is_an_exact_model(tmp_path):
    cfg = make(tmp_path, "exact", """\
        import mpmath

        def f(x):
            return mpmath.sqrt(x[0]**2 + 1) / 3

        def B(x):
            return 1
        """)
    mech = build_mechanism(load_spec(cfg))
    assert mech.exact_model
    assert not mech.query.numeric and not mech.bound.numeric
    with mpmath.workdps(60):
        v = mech.query.f_mp([mpmath.mpf(1)])
        assert abs(v - mpmath.sqrt(2) / 3) < mpmath.mpf(10)**-55
    assert mech.query.f_math([1.0]) == pytest.approx(2**0.5 / 3)


def test_float_only_callable_is_not_an_exact_model(tmp_path):
    # an array of float64 stops tracing (tests/pipeline/test_trace.py): the callable is a float64 program
    cfg = make(tmp_path, "floaty", """\
        import math
        import numpy as np

        def f(x):
            return math.sqrt(np.asarray(x, dtype=float)[0]**2 + 1) / 3

        def B(x):
            return 1
        """)
    mech = build_mechanism(load_spec(cfg))
    assert mech.query.numeric and not mech.exact_model
    with mpmath.workdps(60):
        assert mech.query.f_mp([mpmath.mpf(1)]) == mpmath.mpf(math.sqrt(2) / 3)  # the float64 value


def test_float_constants_are_exact_but_computed_floats_are_not(tmp_path):
    cfg = make(tmp_path, "clip", CLIP.format(slope=1))
    mech = build_mechanism(load_spec(cfg))
    assert mech.exact_model  # min/max of mpf and float literals, and `return 1.0`: exact
    cfg = make(tmp_path / "scaled", "scaled", "import numpy as np\n\ndef f(x):\n"
               "    return np.asarray(x, dtype=float)[0] * 0.1\n\ndef B(x):\n    return 1.0\n")
    mech = build_mechanism(load_spec(cfg))
    assert mech.query.numeric and not mech.bound.numeric and not mech.exact_model


def test_a_float_callables_rate_within_the_claim_is_shown_without_alarm(tmp_path, capsys):
    """The summary never says 'exhibited none' while the audit has a rate; within the claim the
    rate is shown plainly and the reports raise no warning."""
    from gpaudit.report.notices import notices
    cfg = make(tmp_path, "np-clamp-ok", """\
        import numpy as np

        def f(x):
            return float(np.clip(np.asarray(x, dtype=float)[0], 0.0, 1.0))   # numpy: not traced

        def B(x):
            return 1.0
        """)
    from gpaudit.api import check
    r = check(cfg, effort="quick")
    assert r.epsilon_lower is None and r.info.get("approximate_epsilon_lower") is not None
    from gpaudit.cli import summary_line
    assert "exhibited none (largest rate on an approximate model " in summary_line(r)
    assert notices(r) == []
