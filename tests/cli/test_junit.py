"""JUnit XML for CI: valid against the common schema (tests/data/junit.xsd), one testsuite per
configuration, the verdict testcase as the gate; and the schema check can fail."""

import dataclasses
from pathlib import Path

import pytest
from lxml import etree

from gpaudit.api import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, Result, check
from gpaudit.report.json_report import result_to_json
from gpaudit.report.notices import is_informational
from gpaudit.report.junit import junit_bytes, write_junit
from verified import trivially_verified

ROOT = Path(__file__).resolve().parents[2]
XSD = Path(__file__).resolve().parents[1] / "data" / "junit.xsd"


@pytest.fixture(scope="module")
def schema():
    return etree.XMLSchema(etree.parse(str(XSD)))


@pytest.fixture(scope="module")
def real():
    """A real refuted result (the verdict does not depend on the effort)."""
    r = check(ROOT / "examples" / "broken" / "threshold-student-t-too-much-eta.yaml", effort="quick")
    assert r.verdict == REFUTED
    return r


def synthetic(verdict, name="synthetic", checks=None) -> Result:
    checks = checks if checks is not None else [
        Check("proof.cover", CERTIFIED, "z3 unsat", "|grad f| <= B"),
        Check("privacy.loss", UNKNOWN, "search", "no violation found (search cannot certify)"),
        Check("proof.two_point_cover", SKIPPED, "none", "not needed"),
    ]
    witness = {"x": ["0"], "x_prime": ["0.5"], "y": "1", "dist": "0.5", "log_ratio": "0.7"} if verdict == REFUTED else None
    from gpaudit.kernel.decide import Evidence, decide
    decision = decide(Evidence(witness=verdict == REFUTED, witness_exact=True,
                               within_claim=verdict == CERTIFIED, certificate_checks=(CERTIFIED, SKIPPED),
                                   verified=trivially_verified()))
    assert decision.verdict == verdict or verdict == UNKNOWN
    return Result(name, f"examples/{name}.yaml", "ab" * 32, verdict, {"epsilon": "1", "delta": "0"},
                  "0.9", "0.95" if verdict != REFUTED else None, witness, checks,
                  {"seconds": 1.5, "audit": {"seed": 0, "effort": "quick"}}, decision)


def _parse(data: bytes):
    return etree.fromstring(data)


def test_valid_against_schema_with_every_outcome(schema, real):
    results = [real, synthetic(CERTIFIED, "ok"), synthetic(UNKNOWN, "maybe"),
               dataclasses.replace(synthetic(UNKNOWN, "crashed", []),
                                   checks=[Check("internal", UNKNOWN, "none", "RuntimeError: boom")])]
    doc = _parse(junit_bytes(results))
    schema.assertValid(doc)
    suites = doc.findall("testsuite")
    assert [s.get("name") for s in suites] == [r.name for r in results]
    for suite, r in zip(suites, results):
        cases = suite.findall("testcase")
        tested = [c for c in r.checks if not is_informational(c)]   # informational: in <system-out>
        assert int(suite.get("tests")) == len(cases) == len(tested) + 1
        assert int(suite.get("failures")) == sum(c.find("failure") is not None for c in cases)
        assert int(suite.get("errors")) == sum(c.find("error") is not None for c in cases)
        assert int(suite.get("skipped")) == sum(c.find("skipped") is not None for c in cases)
        assert all(c.get("classname") == r.name for c in cases)
        assert [c.get("name") for c in cases] == [c.id for c in tested] + ["verdict"]
        props = {p.get("name"): p.get("value") for p in suite.find("properties")}
        assert props["config_sha256"] == r.sha256 and props["epsilon"] == "1"
        assert props["verdict"] == r.verdict
    assert int(doc.get("tests")) == sum(int(s.get("tests")) for s in suites)


def test_verdict_testcase_is_the_gate():
    def verdict_case(r):
        doc = _parse(junit_bytes([r]))
        return doc.find("testsuite/testcase[@name='verdict']")

    assert list(verdict_case(synthetic(CERTIFIED))) == []
    fail = verdict_case(synthetic(UNKNOWN)).find("failure")
    assert fail is not None and fail.get("message") == "unknown"
    fail = verdict_case(synthetic(REFUTED)).find("failure")
    assert fail is not None and fail.get("message") == "refuted" and "x_prime: ['0.5']" in fail.text


def test_check_statuses_map_to_junit_outcomes():
    r = synthetic(REFUTED, checks=[Check("a", CERTIFIED, "m", "d"), Check("b", REFUTED, "m", "bad"),
                                   Check("c", UNKNOWN, "m", "?"), Check("d", SKIPPED, "m", "n/a")])
    cases = {c.get("name"): c for c in _parse(junit_bytes([r])).iter("testcase")}
    assert cases["a"].find("failure") is None and cases["a"].find("skipped") is None
    assert cases["b"].find("failure").get("message") == "refuted: bad"
    assert cases["c"].find("skipped").get("message") == "unknown: ?"
    assert cases["d"].find("skipped").get("message") == "skipped: n/a"


def test_json_reports_and_awkward_text_are_accepted(schema, real):
    r = dataclasses.replace(synthetic(UNKNOWN), checks=[Check("x", UNKNOWN, "m", "bell \x07 and <&> \"q\"")])
    doc = _parse(junit_bytes([result_to_json(real), r]))  # report dicts work like Results
    schema.assertValid(doc)
    assert "bell \ufffd and <&>" in doc.find("testsuite[2]/testcase/skipped").get("message")


def test_write_is_atomic_and_replaces(tmp_path, schema):
    out = tmp_path / "junit.xml"
    out.write_text("old")
    write_junit([synthetic(CERTIFIED)], out)
    schema.assertValid(etree.parse(str(out)))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junit.xml"]  # no temporary left
    with pytest.raises(FileNotFoundError):
        write_junit([synthetic(CERTIFIED)], tmp_path / "missing" / "junit.xml")


@pytest.mark.parametrize("bad", [
    # a testcase without a name
    b'<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>',
    # a count that is not a non-negative integer
    b'<testsuites><testsuite name="s" tests="-1" failures="0" errors="0"/></testsuites>',
    b'<testsuites><testsuite name="s" tests="many" failures="0" errors="0"/></testsuites>',
    # a suite without its required counts
    b'<testsuites><testsuite name="s"/></testsuites>',
    # an element the format does not have
    b'<testsuites><testsuite name="s" tests="0" failures="0" errors="0"><verdict/></testsuite></testsuites>',
    # skipped and failed at once
    b'<testsuites><testsuite name="s" tests="1" failures="1" errors="0"><testcase name="t" classname="c">'
    b'<skipped/><failure message="m"/></testcase></testsuite></testsuites>',
    # properties after the testcases
    b'<testsuites><testsuite name="s" tests="0" failures="0" errors="0"><system-out/><properties/></testsuite></testsuites>',
    # a fragment as the document
    b'<testcase name="t" classname="c"/>',
])
def test_schema_rejects_malformed_reports(schema, bad):
    assert not schema.validate(_parse(bad))


def test_informational_checks_are_no_skipped_tests():
    """A clean certified run has no <skipped> for the checks its verdict does not rest on: they are
    listed in the suite's output beside what the certificate rests on."""
    real = check(ROOT / "examples" / "threshold-student-t.yaml", effort="quick")
    assert real.verdict == CERTIFIED
    informational = [c for c in real.checks if is_informational(c)]
    assert informational   # the Definition 8 searches of threshold-student-t
    suite = _parse(junit_bytes([real])).find("testsuite")
    names = [c.get("name") for c in suite.findall("testcase")]
    assert not set(names) & {c.id for c in informational}
    assert int(suite.get("skipped")) == sum(c.status in (UNKNOWN, SKIPPED) for c in real.checks
                                            if not is_informational(c))
    text = suite.find("system-out").text
    assert all(f"{c.id}: " in text for c in informational)
    assert "rests on: " in text and "certificate.rate" in text.split("rests on: ")[1]
