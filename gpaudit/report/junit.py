"""JUnit XML for CI systems: one <testsuite> per configuration, one <testcase> per check.

Mapping (documented in docs/ci.md):

* every check the verdict may rest on is a testcase (classname = the configuration's name, name =
  the check id; an informational check, which the verdict does not rest on, is listed in the
  suite's <system-out> instead, so a clean run has no skipped tests for them):
  certified passes, refuted is a <failure>, unknown and skipped are <skipped> with the status in
  the message (a search that cannot certify is not a failure by itself), and the fail-closed
  ``internal`` check of an internal error is an <error>;
* one more testcase ``verdict`` is the gate: it passes only when the configuration is certified;
  refuted gives <failure message="refuted">, unknown <failure message="unknown">;
* with ``--baseline``, a testcase ``baseline``: a <failure type="regression"> listing the
  regressions against the baseline report (info.regressions), else it passes;
* suite properties: config_sha256, file, verdict, epsilon (the claim), delta, epsilon_upper,
  epsilon_lower (for a delta > 0 claim hockey_stick_max, the largest divergence found, instead: the
  pure loss rate such a claim does not bound may be unbounded), gpaudit_version.

Results may be :class:`~gpaudit.verdict.Result` objects or their JSON report dicts.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from .. import __version__
from ..readable import readable_exact
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN
from .json_report import result_to_json
from .notices import is_informational, rests_on


def as_report(result) -> dict:
    """A Result as its JSON report dict (a dict is returned unchanged)."""
    return result if isinstance(result, dict) else result_to_json(result)


def junit_tree(results, config_errors=()) -> ET.ElementTree:
    """The <testsuites> document for a list of results (or one result), and for the files that
    could not be checked (``config_errors``: [(path, error line, line number or None)]), each a
    testsuite whose one testcase ``configuration`` is an <error>."""
    if isinstance(results, dict) or not isinstance(results, (list, tuple)):
        results = [results]
    root = ET.Element("testsuites", {"name": "gpaudit"})
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    seconds = 0.0
    suites = [_config_error_suite(*e) for e in config_errors] + [_suite(as_report(r)) for r in results]
    for suite in suites:
        root.append(suite)
        for key in totals:
            totals[key] += int(suite.get(key))
        seconds += float(suite.get("time"))
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{seconds:.3f}")
    return ET.ElementTree(root)


def _config_error_suite(path: str, line: str, lineno=None) -> ET.Element:
    suite = ET.Element("testsuite", {"name": str(path), "tests": "1", "failures": "0", "errors": "1",
                                     "skipped": "0", "time": "0.000", "file": str(path)})
    case = ET.SubElement(suite, "testcase", {"classname": str(path), "name": "configuration"})
    el = ET.SubElement(case, "error", {"message": str(line), "type": "configuration"})
    el.text = f"{line}\n"
    return suite


def _suite(rep: dict) -> ET.Element:
    name = str(rep.get("name", "?"))
    info = rep.get("info") or {}
    seconds = float(info.get("seconds", 0) or 0)
    suite = ET.Element("testsuite", {"name": name, "tests": "0", "failures": "0", "errors": "0",
                                     "skipped": "0", "time": f"{seconds:.3f}"})
    if rep.get("file"):
        suite.set("file", str(rep["file"]))
    props = ET.SubElement(suite, "properties")
    claim = rep.get("claim") or {}
    # a delta > 0 claim bounds the hockey-stick divergence; its pure loss rate may be unbounded
    found = (("hockey_stick_max", (info.get("audit") or {}).get("hockey_stick_max"))
             if str(claim.get("delta", "0")) != "0" else ("epsilon_lower", rep.get("epsilon_lower")))
    for key, value in [("config_sha256", rep.get("config_sha256")), ("file", rep.get("file")),
                       ("verdict", rep.get("verdict")), ("epsilon", claim.get("epsilon")),
                       ("delta", claim.get("delta")), ("epsilon_upper", rep.get("epsilon_upper")), found,
                       *[(k, rep[k]) for k in ("delta_lower", "delta_upper") if k in rep],
                       ("gpaudit_version", rep.get("gpaudit_version", __version__))]:
        ET.SubElement(props, "property", {"name": key, "value": "null" if value is None else str(value)})
    checks = rep.get("checks", [])
    # a check the verdict does not rest on is no test: it goes to the suite's output, not <skipped>
    cases = [_check_case(name, c) for c in checks if not is_informational(c)] + [_verdict_case(name, rep, seconds)]
    if "regressions" in info:   # checked against a --baseline report
        cases.append(_baseline_case(name, info["regressions"] or []))
    for case in cases:
        suite.append(case)
    counts = {"tests": len(cases), "failures": _count(cases, "failure"), "errors": _count(cases, "error"),
              "skipped": _count(cases, "skipped")}
    for key, value in counts.items():
        suite.set(key, str(value))
    out = ET.SubElement(suite, "system-out")
    out.text = _summary(rep) + "".join(f"informational ({c.get('status')}) {c.get('id')}: {c.get('detail')}\n"
                                       for c in checks if is_informational(c))
    basis = rests_on(rep)
    if basis:
        out.text += f"rests on: {basis}\n"
    return suite


def _count(cases, tag: str) -> int:
    return sum(1 for c in cases if c.find(tag) is not None)


def _check_case(suite_name: str, c: dict) -> ET.Element:
    case = ET.Element("testcase", {"classname": suite_name, "name": str(c.get("id", "?"))})
    status, detail = c.get("status"), str(c.get("detail", ""))
    if c.get("id") == "internal":
        el = ET.SubElement(case, "error", {"message": "internal error", "type": "internal"})
        el.text = detail
    elif status == REFUTED:
        el = ET.SubElement(case, "failure", {"message": f"refuted: {detail}", "type": REFUTED})
        el.text = detail
    elif status in (UNKNOWN, SKIPPED):
        ET.SubElement(case, "skipped", {"message": f"{status}: {detail}"})
    elif status != CERTIFIED:
        ET.SubElement(case, "error", {"message": f"unexpected status {status!r}", "type": "status"})
    out = ET.SubElement(case, "system-out")
    out.text = f"status: {status}\nmethod: {c.get('method', '')}\ndetail: {detail}\n"
    return case


def _verdict_case(suite_name: str, rep: dict, seconds: float) -> ET.Element:
    case = ET.Element("testcase", {"classname": suite_name, "name": "verdict", "time": f"{seconds:.3f}"})
    verdict = rep.get("verdict")
    if verdict == REFUTED:
        el = ET.SubElement(case, "failure", {"message": "refuted", "type": REFUTED})
        el.text = "the claim is refuted by a verified witness:\n" + _witness_text(rep.get("witness"))
    elif verdict != CERTIFIED:
        el = ET.SubElement(case, "failure", {"message": "unknown", "type": UNKNOWN})
        el.text = ("neither certified nor refuted; a CI gate treats unknown as a failure\n"
                   f"certified epsilon_upper: {rep.get('epsilon_upper') or 'none'}\n")
    return case


def _baseline_case(suite_name: str, regressions: list) -> ET.Element:
    """The gate against a --baseline report: a <failure> per regressed configuration."""
    case = ET.Element("testcase", {"classname": suite_name, "name": "baseline"})
    if regressions:
        el = ET.SubElement(case, "failure", {"message": f"regression: {regressions[0]}", "type": "regression"})
        el.text = "regressed against the baseline report:\n" + "".join(f"{r}\n" for r in regressions)
    return case


def _witness_text(w) -> str:
    if not w:
        return "(no witness recorded)\n"
    return "".join(f"{k}: {v}\n" for k, v in w.items())


def _summary(rep: dict) -> str:
    claim = rep.get("claim") or {}
    if str(claim.get("delta", "0")) != "0":   # a delta > 0 claim is about the divergence
        hs = ((rep.get("info") or {}).get("audit") or {}).get("hockey_stick_max")
        found = f"largest hockey-stick divergence found {hs}"
    else:
        found = f"exhibited {rep.get('epsilon_lower')}"
    upper = rep.get("epsilon_upper")
    bound = "no certified bound" if upper is None else f"certified <= {upper}"
    return (f"{rep.get('verdict')} {rep.get('name')} ({rep.get('file')}): epsilon claimed "
            f"{readable_exact(claim.get('epsilon'))}, delta {readable_exact(claim.get('delta'))}; {found}; {bound}\n")


_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _clean(tree: ET.ElementTree) -> None:
    """Replace characters XML 1.0 cannot carry (control characters in a detail, say) by U+FFFD."""
    for el in tree.iter():
        if el.text:
            el.text = _NOT_XML.sub("\ufffd", el.text)
        for key, value in el.attrib.items():
            el.set(key, _NOT_XML.sub("\ufffd", value))


def junit_bytes(results, config_errors=()) -> bytes:
    """The JUnit document as UTF-8 bytes with an XML declaration."""
    tree = junit_tree(results, config_errors)
    _clean(tree)
    ET.indent(tree, space="  ")
    return ET.tostring(tree.getroot(), encoding="utf-8", xml_declaration=True) + b"\n"


def write_junit(results, path, config_errors=()) -> None:
    """Write the JUnit XML for ``results`` to ``path`` atomically (all or nothing)."""
    from .json_report import write_atomic
    write_atomic(path, junit_bytes(results, config_errors))
