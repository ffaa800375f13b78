"""The Python API (docs/api.md): load, check, report, and the re-exported verdict vocabulary."""

import json
from pathlib import Path

import pytest

import gpaudit.check
from gpaudit import api
from gpaudit.verdict import Result

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "examples" / "threshold-laplace-global.yaml"


@pytest.fixture(scope="module")
def result():
    return api.check(CONFIG, effort="quick")


def test_vocabulary_is_reexported():
    assert (api.CERTIFIED, api.REFUTED, api.UNKNOWN, api.SKIPPED) == ("certified", "refuted", "unknown", "skipped")
    assert api.Result is Result and api.EXIT_CODES == {"certified": 0, "refuted": 1, "unknown": 3}
    assert api.worst("certified", "unknown") == "unknown" and api.worst_exit([0, 3, 1]) == 1
    for name in api.__all__:
        assert hasattr(api, name), name


def test_load_and_check(result):
    spec = api.load(CONFIG)
    assert spec.name == "threshold-laplace-global" and spec.dim == 1
    assert isinstance(result, Result) and result.name == spec.name and result.sha256 == spec.sha256
    assert result.verdict in (api.CERTIFIED, api.UNKNOWN)  # a valid configuration is never refuted
    assert result.info["audit"]["effort"] == "quick"
    stages = []
    again = api.check(spec, seed=3, effort="quick", progress=lambda stage, frac: stages.append((stage, frac)))
    assert again.info["audit"]["seed"] == 3 and stages and all(0 <= f <= 1 for _, f in stages)


def test_bad_input_raises_config_error(tmp_path):
    with pytest.raises(api.ConfigError):
        api.load(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text(CONFIG.read_text().replace("epsilon: eps", "epsilon: -1"))
    with pytest.raises(api.ConfigError, match="claim.epsilon"):
        api.check(bad)
    with pytest.raises(ValueError):
        api.check(CONFIG, effort="heroic")
    with pytest.raises(ValueError):
        api.check(CONFIG, seed=-1)


def test_internal_errors_fail_closed(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(gpaudit.check, "check_spec", boom)
    r = api.check(CONFIG)
    assert r.verdict == api.UNKNOWN and r.exit_code == 3
    assert [(c.id, c.detail) for c in r.checks] == [("internal", "RuntimeError: boom")]
    with pytest.raises(RuntimeError):
        api.check(CONFIG, fail_closed=False)


def test_report_writes_every_format(result, tmp_path):
    paths = api.report(result, tmp_path / "out")
    assert {"json", "md", "html"} <= set(paths)
    assert {k for k in paths if k.startswith("png:")} == {"png:query", "png:loss", "png:family"}
    data = json.loads(paths["json"].read_text())
    assert data["name"] == result.name and data["config_sha256"] == result.sha256
    assert data["verdict"] == result.verdict
    assert "query.png" in paths["md"].read_text()
    assert "data:image/png;base64," in paths["html"].read_text()
    only = api.report(result, tmp_path / "json-only", formats=("json",))
    assert set(only) == {"json"}
    with pytest.raises(ValueError):
        api.report(result, tmp_path / "x", formats=("pdf",))


def test_report_of_a_changed_file_has_no_figures(result, tmp_path):
    stale = api.Result(**{**result.__dict__, "sha256": "0" * 64})
    assert api.mechanism_for(stale) is None
    paths = api.report(stale, tmp_path / "out", formats=("html",))
    assert "not drawn" in paths["html"].read_text()


def test_json_junit_and_gate_helpers(result, tmp_path):
    api.write_json([result], tmp_path / "r.json")
    assert json.loads((tmp_path / "r.json").read_text())["name"] == result.name
    api.write_junit([result], tmp_path / "junit.xml")
    assert (tmp_path / "junit.xml").read_text().startswith("<?xml")
    code, regressions = api.gate([result], tmp_path / "r.json")
    assert code == result.exit_code and regressions == []


def test_the_gate_without_a_baseline_reads_the_verdicts_and_builds_no_report(result, monkeypatch):
    """`gpaudit check` gates on the worst verdict: building each JSON report for that computed the code
    identity (a parse of every decision source, 0.8 s a run where no memo may be read, as in CI)."""
    from gpaudit.report import json_report

    def no_identity():
        raise AssertionError("a report was built")
    other = api.Result(**{**result.__dict__, "verdict": "refuted"})
    with monkeypatch.context() as mp:
        mp.setattr(json_report, "code_sha256", no_identity)
        assert api.gate([result, other]) == (1, [])            # the worst verdict: refuted
        assert api.gate(result) == (result.exit_code, [])
        assert api.gate([{"verdict": "unknown"}]) == (3, [])
        with pytest.raises(AssertionError, match="a report was built"):
            api.gate([result], [])                               # with a baseline, the reports are compared


def test_a_spec_cannot_be_changed_in_place_and_a_replaced_one_has_its_own_hash():
    """spec.params["eta"] = 2 was silently ignored (the file's eta was checked); a replaced Spec was
    reported under the unmodified file's config_sha256."""
    import dataclasses
    import pickle

    import sympy

    from gpaudit import api
    path = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    spec = api.load(path)
    for mapping, key in ((spec.params, "eta"), (spec.noise.shape, "nu"), (spec.query.fields, "tau")):
        with pytest.raises(TypeError, match="immutable"):
            mapping[key] = 2
        with pytest.raises(TypeError):
            mapping.update({key: 2})
    assert api.load(path).sha256 == spec.sha256 == dataclasses.replace(spec).sha256
    variant = dataclasses.replace(spec, noise=dataclasses.replace(spec.noise, eta=sympy.Integer(2)))
    assert variant.sha256 != spec.sha256 and len(variant.sha256) == 64
    again = dataclasses.replace(spec, noise=dataclasses.replace(spec.noise, eta=sympy.Integer(2)))
    assert again.sha256 == variant.sha256                          # a hash of the content
    back = dataclasses.replace(variant, noise=spec.noise)
    assert back.sha256 != spec.sha256    # the file's bytes are not re-read: content-named from then on
    copy = pickle.loads(pickle.dumps(variant))                     # crosses to a -j worker unchanged
    assert copy.sha256 == variant.sha256 and copy.params == spec.params
    assert api.to_json(api.check(variant, effort="quick"))["config_sha256"] == variant.sha256


def test_the_records_between_stages_cannot_be_changed_after_the_fact(result):
    """A check's detail was once appended to after the stage that made it had returned (the proof
    stage's budget note), and a report's path was overwritten on the result: the mechanism (with its
    query and bound), a stage's outcome, a check and a result are frozen, and a changed one is a new
    record (dataclasses.replace)."""
    import dataclasses

    from gpaudit.audit.run import AuditOutcome
    from gpaudit.model.bounds import Bound
    from gpaudit.model.mechanism import Mechanism
    from gpaudit.model.queries import Query
    from gpaudit.prove.prover import ProofOutcome, Record
    from gpaudit.smoothed.check import SmoothedResult
    from gpaudit.verdict import Check

    for cls in (Mechanism, Query, Bound, Check, Result, SmoothedResult, AuditOutcome, ProofOutcome, Record):
        assert cls.__dataclass_params__.frozen, cls.__name__
    check = result.checks[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        check.detail += "; more"
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.path = "elsewhere.yaml"
    moved = dataclasses.replace(result, path="elsewhere.yaml")
    assert moved.path == "elsewhere.yaml" and result.path != moved.path and moved.verdict == result.verdict


def test_growth_and_norm_are_named_values_that_read_as_the_configuration_spells_them():
    """bound.growth and input.metric load as the Growth and Norm enums: equal to (and printed,
    hashed and serialised as) the configuration's word, while a word no enum has is refused where a
    misspelt string would have compared False."""
    import dataclasses

    from gpaudit.model.metric import Metric
    from gpaudit.spec.types import BoundSpec, Growth, MetricSpec, Norm

    spec = api.load(ROOT / "examples" / "laud-thm3-count-l1.yaml")
    assert spec.bound.growth is Growth.EXPONENTIAL and spec.metric.kind is Norm.L1
    assert Metric.of(spec).kind is Norm.L1 and Metric.of(spec).label == "l1"
    assert type(Metric.of(spec).label) is str
    assert Norm.L1 == "l1" and {"l1": 1}[Norm.L1] == 1 and f"{Norm.LINF}" == "linf" and str(Growth.LINEAR) == "linear"
    assert json.dumps([Growth.LINEAR, Norm.L2]) == '["linear", "l2"]'
    assert dataclasses.replace(spec.bound, growth="linear").growth is Growth.LINEAR
    with pytest.raises(ValueError):
        dataclasses.replace(spec.bound, growth="linaer")
    with pytest.raises(ValueError):
        MetricSpec("l3")
    with pytest.raises(AttributeError):
        Norm.L3  # noqa: B018
    assert BoundSpec.__annotations__["growth"] in ("Growth", Growth)


def test_the_kind_enums_name_exactly_the_kinds_the_loader_accepts():
    """QueryKind and BoundKind are the kinds of gpaudit.spec.load's field tables: a kind added to one
    and not the other would load and then match no branch (or be refused where it is documented)."""
    from gpaudit.spec.load import BOUND_KINDS, QUERY_FIELDS
    from gpaudit.spec.types import BoundKind, QueryKind

    assert {k.value for k in QueryKind} == set(QUERY_FIELDS)
    assert {k.value for k in BoundKind} == set(BOUND_KINDS)
    spec = api.load(ROOT / "examples" / "threshold-student-t.yaml")
    assert spec.query.kind is QueryKind.SOFT_THRESHOLD and spec.bound.kind is BoundKind.SMOOTH_SENSITIVITY
