"""Checks the verdict does not rest on are informational: never `refuted`, never a JUnit failure.

Unless the growth is linear and delta > 0 or Lambda < inf (Lemma 3.6's route), the certificate uses
only the local conditions of Definition 8 (docs/certificate.md); the audit's search for the two-point conditions then reports what it finds
without failing anything.  A bound that decays away from the threshold (B = exp(-gamma (|x| - 1/2)))
is a valid smooth upper bound whose far secants exceed it: certified, with that finding shown.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from gpaudit import api
from gpaudit.cli import main

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def decaying(tmp_path_factory):
    d = tmp_path_factory.mktemp("decay")
    junit = d / "junit.xml"
    rc = main(["check", str(DATA / "decaying-bound.yaml"), "--effort", "quick", "--junit", str(junit), "--quiet"])
    return rc, junit, api.check(DATA / "decaying-bound.yaml", effort="quick")


def test_certified_with_a_two_point_finding_that_it_does_not_need(decaying):
    rc, junit, result = decaying
    assert rc == 0 and result.verdict == api.CERTIFIED
    cover = next(c for c in result.checks if c.id == "definition8.cover")
    assert cover.status == "skipped" and "found: the secant slope" in cover.detail and "informational" in cover.detail
    assert "x" in cover.evidence and "w" in cover.evidence       # the finding is kept for a reader
    assert not [c for c in result.checks if c.status == "refuted"]


def test_junit_of_a_certified_file_has_no_failure(decaying):
    rc, junit, _ = decaying
    root = ET.parse(junit).getroot()
    assert not root.findall(".//failure") and not root.findall(".//error")
    assert root.findall(".//testcase")


def test_where_the_certificate_needs_the_condition_it_is_not_informational(tmp_path):
    # linear growth with delta > 0: Lemma 3.6's route, the one that rests on the two-point conditions
    cfg = yaml.safe_load((DATA / "decaying-bound.yaml").read_text())
    approx = copy.deepcopy(cfg)
    approx["claim"]["delta"] = "1e-6"
    approx["bound"]["growth"] = "linear"
    p = tmp_path / "approx.yaml"
    p.write_text(yaml.safe_dump(approx))
    result = api.check(p, effort="quick")
    cover = next(c for c in result.checks if c.id == "definition8.cover")
    assert "informational" not in cover.detail
    assert cover.status in ("refuted", "unknown")


def test_exponential_growth_with_delta_does_not_need_the_two_point_conditions(tmp_path):
    # no route for exponential growth rests on them (the pure route and Laud's Theorem 4 are local)
    cfg = yaml.safe_load((DATA / "decaying-bound.yaml").read_text())
    cfg["claim"]["delta"] = "1e-6"
    p = tmp_path / "approx.yaml"
    p.write_text(yaml.safe_dump(cfg))
    result = api.check(p, effort="quick")
    cover = next(c for c in result.checks if c.id == "definition8.cover")
    assert cover.status == "skipped" and "informational" in cover.detail
    assert next(c for c in result.checks if c.id == "proof.two_point_cover").status == "skipped"


@pytest.mark.parametrize("Lambda,refuted", [("inf", True), (10, False)])
def test_two_point_search_takes_only_secants_within_lambda(tmp_path, Lambda, refuted):
    import numpy as np
    from gpaudit.audit.conditions import check_cover
    from gpaudit.model.mechanism import build_mechanism
    from gpaudit.spec.load import load_spec

    cfg = yaml.safe_load((DATA / "decaying-bound.yaml").read_text())
    cfg["bound"]["Lambda"] = Lambda
    p = tmp_path / "m.yaml"
    p.write_text(yaml.safe_dump(cfg))
    mech = build_mechanism(load_spec(p))
    # secant from x = 100 to the ramp: slope 1/200 above B(100) = exp(-(100 - 1/2)/9), but 100 > Lambda = 10
    X, Xp = np.array([[100.0], [3.0]]), np.array([[0.0], [0.25]])
    assert (check_cover(mech, X, Xp).status == "refuted") == refuted


# -- unknown says what would certify it ----------------------------------------------------------

def _unknown(tmp_path, cfg, extra_files=()):
    for name, text in extra_files:
        (tmp_path / name).write_text(text)
    p = tmp_path / "m.yaml"
    p.write_text(yaml.safe_dump(cfg, sort_keys=False))
    result = api.check(p, effort="quick")
    assert result.verdict == api.UNKNOWN, [(c.id, c.status, c.detail) for c in result.checks]
    return result.info["advice"]


def test_unknown_with_an_undecided_proof_names_it(tmp_path):
    cfg = yaml.safe_load((DATA / "decaying-bound.yaml").read_text())
    cfg["bound"]["Lambda"] = 200        # the two-point cover is now needed, and it fails beyond ~36
    cfg["bound"]["growth"] = "linear"   # (with exponential growth no route needs it: see below)
    advice = _unknown(tmp_path, cfg)
    assert "proof.two_point_cover" in advice and "--timeout-ms" in advice


def test_a_finite_lambda_with_exponential_growth_rests_on_the_local_conditions(tmp_path):
    # the pure route carries the local conditions along segments, whatever Lambda is
    cfg = yaml.safe_load((DATA / "decaying-bound.yaml").read_text())
    cfg["bound"]["Lambda"] = 200
    p = tmp_path / "m.yaml"
    p.write_text(yaml.safe_dump(cfg))
    result = api.check(p, effort="quick")
    assert result.verdict == api.CERTIFIED
    assert {c.id: c.status for c in result.checks}["proof.two_point_cover"] == "skipped"


def test_unknown_for_a_python_callable_says_no_route(tmp_path):
    cfg = {"gpaudit": 1, "name": "py", "input": {"dim": 1},
           "query": {"kind": "python", "callable": "fns:f"},
           "bound": {"growth": "exponential", "gamma": 0, "kind": "constant", "value": 1},
           "noise": {"family": "laplace", "eta": 1}, "claim": {"epsilon": 1}}
    # an array of float64 stops tracing (a traceable clip would be certified: tests/pipeline/test_trace.py)
    advice = _unknown(tmp_path, cfg, [("fns.py", "import numpy as np\n\ndef f(x):\n"
                                                 "    return min(max(np.asarray(x, dtype=float)[0] + 0.5, 0.0), 1.0)\n")])
    assert advice.startswith("no route") and "python" in advice
    assert "fns.py:4" in advice and "np.asarray(x, dtype=float)" in advice   # where tracing stopped


def test_certified_and_refuted_carry_no_advice(decaying):
    assert "advice" not in decaying[2].info
