"""The bad-input corpus: every invalid configuration exits 2 with one line naming file and field."""

import json
import subprocess
import sys
import textwrap

import pytest

from gpaudit.cli import main

GOOD = """\
gpaudit: 1
name: ok
params:
  eps: 1
  gamma: eps/9
input:
  dim: 1
query:
  kind: soft_threshold
  T: 0
  tau: 1
bound:
  growth: exponential
  gamma: gamma
  kind: smooth_sensitivity
noise:
  family: student_t
  nu: 3
  eta: 0.5
claim:
  epsilon: eps
"""


def edit(old, new):
    assert old in GOOD, old
    return GOOD.replace(old, new)


SMOOTHED = """\
gpaudit: 1
name: shm
notion: smoothed_dp
mechanism:
  kind: sampling_histogram
  n: 20
  m: 2
  T: 3
neighbours: replace_one
distributions:
  - [1/10, 9/10]
claim:
  epsilon: log(10/9)
  delta: 1e-3
"""


VECTOR = """\
gpaudit: 1
name: planar
input: {dim: 2}
output: {dim: 2}
query: {kind: identity}
bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
noise: {family: laplace, eta: 1}
claim: {epsilon: 1}
"""


def vedit(old, new):
    assert old in VECTOR, old
    return VECTOR.replace(old, new)


def sedit(old, new):
    assert old in SMOOTHED, old
    return SMOOTHED.replace(old, new)


# (id, yaml text, a substring the one-line message must contain: the field)
CORPUS = [
    ("not-yaml", "gpaudit: 1\nname: [unclosed\n", "invalid YAML"),
    ("tabs", "gpaudit: 1\n\tname: x\n", "invalid YAML"),
    ("empty-file", "", "top level"),
    ("top-list", "- 1\n- 2\n", "top level"),
    ("unknown-top", GOOD + "colour: red\n", "colour"),
    ("missing-name", edit("name: ok\n", ""), "name"),
    ("missing-claim", GOOD.split("claim:")[0], "claim"),
    ("schema-2", edit("gpaudit: 1", "gpaudit: 2"), "gpaudit"),
    ("name-number", edit("name: ok", "name: 5"), "name"),
    ("eps-zero", edit("  epsilon: eps", "  epsilon: 0"), "claim.epsilon"),
    ("eps-negative", edit("  epsilon: eps", "  epsilon: -1"), "claim.epsilon"),
    ("eps-inf", edit("  epsilon: eps", "  epsilon: inf"), "claim.epsilon"),
    ("delta-negative", edit("  epsilon: eps", "  epsilon: eps\n  delta: -0.1"), "claim.delta"),
    ("delta-one", edit("  epsilon: eps", "  epsilon: eps\n  delta: 1"), "claim.delta"),
    ("claim-unknown-field", edit("  epsilon: eps", "  epsilon: eps\n  epsilom: 1"), "claim.epsilom"),
    ("gamma-negative", edit("  gamma: gamma\n", "  gamma: -1\n"), "bound.gamma"),
    ("tau-zero", edit("  tau: 1", "  tau: 0"), "query.tau"),
    ("tau-negative-expr", edit("  tau: 1", "  tau: 1 - 2"), "query.tau"),
    ("nu-zero", edit("  nu: 3", "  nu: 0"), "noise.nu"),
    ("nu-missing", edit("  nu: 3\n", ""), "noise.nu"),
    ("eta-zero", edit("  eta: 0.5", "  eta: 0"), "noise.eta"),
    ("family-unknown", edit("family: student_t", "family: uniform"), "noise.family"),
    ("shape-for-wrong-family", edit("  nu: 3", "  nu: 3\n  p: 4"), "noise.p"),
    ("p-one", edit("family: student_t\n  nu: 3", "family: gen_cauchy\n  p: 1"), "noise.p"),
    ("theta-zero", edit("family: student_t\n  nu: 3", "family: gen_cauchy\n  p: 4\n  theta: 0"), "noise.theta"),
    ("alpha-one", edit("family: student_t\n  nu: 3", "family: polyplace\n  alpha: 1"), "noise.alpha"),
    ("growth-unknown", edit("growth: exponential", "growth: quadratic"), "bound.growth"),
    ("bound-kind-unknown", edit("kind: smooth_sensitivity", "kind: magic"), "bound.kind"),
    ("constant-no-value", edit("kind: smooth_sensitivity", "kind: constant"), "bound.value"),
    ("constant-negative", edit("kind: smooth_sensitivity", "kind: constant\n  value: -1"), "bound.value"),
    ("Lambda-zero", edit("  gamma: gamma\n", "  gamma: gamma\n  Lambda: 0\n"), "bound.Lambda"),
    ("query-kind-unknown", edit("kind: soft_threshold", "kind: hard_threshold"), "query.kind"),
    ("query-missing-T", edit("  T: 0\n", ""), "query.T"),
    ("query-extra-field", edit("  T: 0\n", "  T: 0\n  h: 1\n"), "query.h"),
    ("dim-zero", edit("dim: 1", "dim: 0"), "input.dim"),
    ("dim-string", edit("dim: 1", "dim: two"), "input.dim"),
    ("dim-mismatch", edit("dim: 1", "dim: 2"), "input.dim"),
    ("expr-syntax", edit("gamma: eps/9", "gamma: eps/(9"), "params.gamma"),
    ("expr-unknown-name", edit("gamma: eps/9", "gamma: epsilon/9"), "params.gamma"),
    ("expr-python-attr", edit("gamma: eps/9", "gamma: __import__('os').system('true')"), "params.gamma"),
    ("expr-lambda", edit("gamma: eps/9", "gamma: '(lambda: 1)()'"), "params.gamma"),
    ("expr-unknown-func", edit("gamma: eps/9", "gamma: sin(eps)"), "params.gamma"),
    ("expr-div-zero", edit("gamma: eps/9", "gamma: eps/0"), "params.gamma"),
    ("expr-complex", edit("gamma: eps/9", "gamma: sqrt(-1)"), "params.gamma"),
    ("params-cycle", edit("  eps: 1\n  gamma: eps/9", "  eps: gamma\n  gamma: eps/9"), "params"),
    ("params-reserved", edit("  eps: 1\n", "  eps: 1\n  x: 2\n"), "params.x"),
    ("bool-value", edit("  tau: 1", "  tau: true"), "query.tau"),
    ("kde-t-length", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: gaussian_kde\n  t: [0, 0]\n  h: 1"), "query.t"),
    ("kde-h-zero", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: gaussian_kde\n  t: [0]\n  h: 0"), "query.h"),
    ("range-l-ge-r", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: bounded_range\n  l: 2\n  r: 1\n  tau: 1"), "query.r"),
    ("piecewise-empty", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: piecewise\n  pieces: []"), "query.pieces"),
    ("piecewise-bad-cond", edit("kind: soft_threshold\n  T: 0\n  tau: 1",
                                "kind: piecewise\n  pieces:\n    - where: x + 1\n      value: 1\n    - value: 0"),
     "query.pieces[0].where"),
    ("piecewise-missing-where", edit("kind: soft_threshold\n  T: 0\n  tau: 1",
                                     "kind: piecewise\n  pieces:\n    - value: 1\n    - value: 0"),
     "query.pieces[0].where"),
    ("piecewise-unknown-var", edit("kind: soft_threshold\n  T: 0\n  tau: 1",
                                   "kind: piecewise\n  pieces:\n    - value: y"), "query.pieces[0].value"),
    ("python-no-module", edit("kind: soft_threshold\n  T: 0\n  tau: 1",
                              "kind: python\n  callable: no_such_module_xyz:f"), "query.callable"),
    ("python-bad-ref", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: python\n  callable: justaname"),
     "query.callable"),
    ("python-not-callable", edit("kind: soft_threshold\n  T: 0\n  tau: 1", "kind: python\n  callable: math:pi"),
     "query.callable"),
    ("power-too-large", edit("gamma: eps/9", "gamma: '10^10^10'"), "params.gamma"),
    ("value-underflows", edit("  tau: 1", "  tau: 1e-400"), "query.tau"),
    ("value-overflows", edit("  T: 0", "  T: '10^400'"), "query.T"),
    ("expr-too-long", edit("gamma: eps/9", "gamma: '" + "(" * 6000 + "1" + ")" * 6000 + "'"), "params.gamma"),
    ("audit-effort", GOOD + "audit:\n  effort: extreme\n", "audit.effort"),
    ("audit-seed", GOOD + "audit:\n  seed: -3\n", "audit.seed"),
    # output.dim k > 1 (vector outputs)
    ("output-dim-zero", vedit("output: {dim: 2}", "output: {dim: 0}"), "output.dim"),
    ("output-dim-string", vedit("output: {dim: 2}", "output: {dim: two}"), "output.dim"),
    ("output-unknown-field", vedit("output: {dim: 2}", "output: {dim: 2, norm: l1}"), "output.norm"),
    ("identity-dim-mismatch", vedit("output: {dim: 2}", "output: {dim: 3}"), "query.kind"),
    ("identity-scalar-input", vedit("input: {dim: 2}", "input: {dim: 1}"), "query.kind"),
    ("vector-scalar-kind", vedit("query: {kind: identity}", "query: {kind: gaussian_kde, t: [0, 0], h: 1}"),
     "query.kind"),
    ("vector-value-length", vedit("query: {kind: identity}", "query: {kind: piecewise, pieces: [{value: [x1]}]}"),
     "query.pieces[0].value"),
    ("vector-value-scalar", vedit("query: {kind: identity}", "query: {kind: piecewise, pieces: [{value: x1}]}"),
     "query.pieces[0].value"),
    ("vector-value-unknown-var", vedit("query: {kind: identity}",
                                       "query: {kind: piecewise, pieces: [{value: [x1, y]}]}"),
     "query.pieces[0].value[1]"),
    ("vector-family-not-radial", vedit("family: laplace", "family: gen_cauchy, p: 4"), "noise.family"),
    ("vector-bound-smooth-sensitivity", vedit("kind: constant, value: 1,", "kind: smooth_sensitivity,"), "bound.kind"),
    ("vector-nu-zero", vedit("family: laplace", "family: student_t, nu: 0"), "noise.nu"),
    # notion: smoothed_dp | dp (gpaudit/smoothed)
    ("sdp-unknown-notion", sedit("notion: smoothed_dp", "notion: renyi"), "notion"),
    ("sdp-unknown-top", SMOOTHED + "noise: {}\n", "noise"),
    ("sdp-unknown-mech-field", sedit("  m: 2\n", "  m: 2\n  k: 4\n"), "mechanism.k"),
    ("sdp-missing-n", sedit("  n: 20\n", ""), "mechanism.n"),
    ("sdp-m-one", sedit("  m: 2\n", "  m: 1\n"), "mechanism.m"),
    ("sdp-n-fraction", sedit("  n: 20\n", "  n: 5/2\n"), "mechanism.n"),
    ("sdp-T-above-n", sedit("  T: 3", "  T: 21"), "mechanism.T"),
    ("sdp-T-and-eta", sedit("  T: 3", "  T: 3\n  eta: 1/2"), "mechanism.T"),
    ("sdp-no-T", sedit("  T: 3\n", ""), "mechanism.T"),
    ("sdp-eta-above-one", sedit("  T: 3", "  eta: 3/2"), "mechanism.eta"),
    ("sdp-replacement-text", sedit("  T: 3", "  T: 3\n  replacement: maybe"), "mechanism.replacement"),
    ("sdp-unknown-kind", sedit("kind: sampling_histogram", "kind: laplace"), "mechanism.kind"),
    ("sdp-neighbours", sedit("neighbours: replace_one", "neighbours: add_remove"), "neighbours"),
    ("sdp-missing-distributions", sedit("distributions:\n  - [1/10, 9/10]\n", ""), "distributions"),
    ("sdp-dist-length", sedit("[1/10, 9/10]", "[1/10, 8/10, 1/10]"), "distributions[0]"),
    ("sdp-dist-sum", sedit("[1/10, 9/10]", "[1/10, 8/10]"), "distributions[0]"),
    ("sdp-dist-negative", sedit("[1/10, 9/10]", "[-1/10, 11/10]"), "distributions[0][0]"),
    ("sdp-dist-float-sum", sedit("[1/10, 9/10]", "[0.1, 0.9]"), "distributions[0]"),
    ("sdp-delta-missing", sedit("  delta: 1e-3\n", ""), "claim.delta"),
    ("sdp-eps-negative", sedit("epsilon: log(10/9)", "epsilon: log(9/10)"), "claim.epsilon"),
    ("sdp-python-no-callable", sedit("  kind: sampling_histogram\n", "  kind: python\n").replace("  T: 3\n", ""),
     "mechanism.callable"),
    ("sdp-python-T", sedit("  kind: sampling_histogram\n", "  kind: python\n  callable: math:comb\n"),
     "mechanism.T"),
    ("sdp-python-missing-module", sedit("  kind: sampling_histogram\n", "  kind: python\n  callable: nope_xyz.py:f\n")
     .replace("  T: 3\n", ""), "mechanism.callable"),
]


@pytest.mark.parametrize("case_id,text,field", CORPUS, ids=[c[0] for c in CORPUS])
def test_bad_config_exits_2_with_one_line(tmp_path, capsys, case_id, text, field):
    path = tmp_path / f"{case_id}.yaml"
    path.write_text(text)
    out_json = tmp_path / "report.json"
    code = main(["check", str(path), "--json", str(out_json)])
    captured = capsys.readouterr()
    assert code == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert str(path) in lines[0]
    assert field in lines[0], lines[0]
    assert "Traceback" not in captured.err
    assert not out_json.exists(), "nothing may be half-written"


def test_good_base_config_loads(tmp_path):
    from gpaudit.spec.load import load_spec
    path = tmp_path / "ok.yaml"
    path.write_text(GOOD)
    spec = load_spec(path)
    assert spec.claim.epsilon == 1 and str(spec.bound.gamma) == "1/9"
    assert spec.binary_floats == ("noise.eta",)  # 0.5 was a YAML float


def test_missing_and_unreadable_files(tmp_path, capsys):
    assert main(["check", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.yaml" in err[0] and "cannot read" in err[0]
    d = tmp_path / "adir.yaml"
    d.mkdir()
    assert main(["check", str(d)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_binary_file(tmp_path, capsys):
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["check", str(path)]) == 2
    assert "UTF-8" in capsys.readouterr().err


def test_json_directory_missing(tmp_path, capsys):
    path = tmp_path / "ok.yaml"
    path.write_text(GOOD)
    assert main(["check", str(path), "--json", str(tmp_path / "no" / "r.json")]) == 2
    assert "--json" in capsys.readouterr().err


def test_one_bad_file_among_good_is_reported_and_the_good_ones_checked(tmp_path, capsys):
    """As linters do: the bad file is one error line, the others are checked and reported, and
    the run exits 2 at the end (a bad --json destination, a usage error, still stops everything:
    test_json_directory_missing)."""
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text(GOOD)
    bad.write_text(edit("  tau: 1", "  tau: 0"))
    out_json = tmp_path / "r.json"
    assert main(["check", str(good), str(bad), "--json", str(out_json)]) == 2
    assert f"{bad}:" in capsys.readouterr().err
    assert json.loads(out_json.read_text())["file"] == str(good)


def test_entry_point_subprocess_no_traceback(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent(edit("  nu: 3", "  nu: -2")))
    proc = subprocess.run([sys.executable, "-m", "gpaudit", "check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "noise.nu" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""
