"""delta > 0 claims in the reports: the largest hockey-stick divergence against delta in the Markdown,
the HTML and the loss figure, read correctly for a certified and for a refuted claim."""

from __future__ import annotations

from pathlib import Path

import mpmath
import numpy as np
import pytest
from lxml import html as lxml_html

from gpaudit.api import CERTIFIED, REFUTED, check, load, mechanism_for
from gpaudit.report.html import render_html
from gpaudit.report.markdown import render_markdown, report_facts
from gpaudit.report.plots import hockey_stick_np, plot_loss

EX = Path(__file__).resolve().parents[2] / "examples"
APPROX = EX / "threshold-laplace-approx.yaml"                       # delta = 1e-6, certified
SMALL_DELTA = EX / "broken" / "threshold-laplace-approx-small-delta.yaml"   # delta = 1e-12, refuted


def _checked(path):
    spec = load(path)
    return check(spec, effort="quick"), mechanism_for(spec)


@pytest.fixture(scope="module")
def certified():
    result, mech = _checked(APPROX)
    assert result.verdict == CERTIFIED
    return result, mech


@pytest.fixture(scope="module")
def refuted():
    result, mech = _checked(SMALL_DELTA)
    assert result.verdict == REFUTED and "hockey_stick" in result.witness
    return result, mech


def _delta_table(md: str) -> str:
    return md.split("## Delta", 1)[1].split("\n## ", 1)[0]


def test_markdown_shows_the_largest_divergence_against_delta(certified, refuted):
    found = certified[0].info["audit"]["hockey_stick_max"]
    table = _delta_table(render_markdown(certified[0], certified[1], {}))
    assert "| claimed δ | 1/1000000 |" in table
    assert f"{mpmath.nstr(mpmath.mpf(found), 12)}  ≤ δ: no violation found" in table
    assert "certified δ at the claimed ε" in table
    table = _delta_table(render_markdown(refuted[0], refuted[1], {}))
    assert "| claimed δ | 1/1000000000000 |" in table and "> δ: the claim is violated" in table
    assert "certified δ" not in table  # the proof stage was skipped: no certificate to show


def test_pure_claims_have_no_delta_section():
    from types import SimpleNamespace
    pure = SimpleNamespace(claim={"epsilon": "1", "delta": "0"}, checks=[], info={})
    assert report_facts.__globals__["delta_rows"](pure) == []


def test_html_has_a_delta_section_with_cards(certified):
    page = lxml_html.fromstring(render_html(certified[0], certified[1], {}))
    section = page.get_element_by_id("delta")
    keys = [e.text_content() for e in section.find_class("k")]
    assert keys == ["claimed δ", "largest hockey-stick divergence found", "certified δ at the claimed ε"]
    assert "≤ δ" in section.text_content()


def _hockey_axes(fig):
    return next(ax for sub in fig.subfigs for ax in sub.axes if ax.get_yscale() == "log"
                and ax.get_ylabel() == "hockey-stick divergence")


def _lines(ax):
    return {line.get_label(): line for line in ax.get_lines()}


@pytest.mark.parametrize("which", ["certified", "refuted"])
def test_the_loss_figure_leads_with_the_divergence_against_delta(which, request):
    result, mech = request.getfixturevalue(which)
    ax = _hockey_axes(plot_loss(result, mech))
    lines = _lines(ax)
    delta = float(result.claim["delta"].split("/")[0]) / float(result.claim["delta"].split("/")[1])
    [claimed] = [ln for label, ln in lines.items() if label.startswith("claimed delta = ")]
    assert claimed.get_ydata()[0] == pytest.approx(delta)
    found = float(result.info["audit"]["hockey_stick_max"])
    [audit] = [ln for label, ln in lines.items() if label.startswith("largest verified by the audit")]
    assert audit.get_ydata()[0] == pytest.approx(found)
    curve = next(ln for label, ln in lines.items() if label.startswith("largest divergence over"))
    y = np.asarray(curve.get_ydata(), float)
    assert np.nanmax(y) > 0
    stars = [ln for label, ln in lines.items() if label.startswith("witness")]
    if which == "certified":
        assert np.nanmax(y) <= delta and found <= delta and not stars  # everything below the delta line
    else:
        [star] = stars
        assert star.get_ydata()[0] > delta and star.get_xdata()[0] == pytest.approx(float(result.witness["dist"]))
        assert np.nanmax(y) > delta


def test_float_divergence_matches_the_verified_witness(refuted):
    result, mech = refuted
    w = result.witness
    x = np.array([[float(v) for v in w["x"]]])
    xp = np.array([[float(v) for v in w["x_prime"]]])
    value = float(hockey_stick_np(mech, x, xp)[0])
    assert value == pytest.approx(float(w["hockey_stick"]), rel=1e-3)
    # a pair far inside the claim has (numerically) no divergence left
    assert float(hockey_stick_np(mech, x, x + 1e-6)[0]) < 1e-12


def test_delta_reports_lead_with_the_divergence_not_the_pure_rate(certified, refuted):
    """The pure loss rate of a δ > 0 claim may be unbounded (2.35e+15 beside a certified 1.18):
    no card, index row or JUnit property shows it or a gap made from it; the divergence against δ
    is shown instead, before the epsilons."""
    from gpaudit.report.catalog import index_markdown
    from gpaudit.report.junit import junit_bytes
    for result, mech in (certified, refuted):
        assert result.epsilon_lower is not None   # what the reports must not lead with
        lower = mpmath.nstr(mpmath.mpf(str(result.epsilon_lower)), 8)
        md = render_markdown(result, mech, {})
        assert md.index("## Delta") < md.index("## Epsilons")
        assert "exhibited ε_lower" not in md and "gap ε_upper" not in md and lower not in md
        page = lxml_html.fromstring(render_html(result, mech, {}))
        assert page.get_element_by_id("delta").getprevious().get("id") == "summary"
        cards = [e.text_content() for e in page.get_element_by_id("epsilons").find_class("k")]
        assert cards == ["claimed ε", "certified ε_upper"]
        row = index_markdown([result]).splitlines()[-1]
        found = result.info["audit"]["hockey_stick_max"]
        assert f"divergence {mpmath.nstr(mpmath.mpf(found), 10)} (δ = " in row and lower not in row
        props = lxml_html.fromstring(junit_bytes([result])).xpath("//property")
        names = {p.get("name"): p.get("value") for p in props}
        assert "epsilon_lower" not in names and names["hockey_stick_max"] == found


@pytest.mark.parametrize("which", ["certified", "refuted"])
def test_the_pure_rate_panel_draws_no_epsilon_the_claim_does_not_bound(which, request):
    """The pure loss rate under a δ > 0 claim is bounded neither by the certified ε (which goes with
    δ) nor meaningfully by the exhibited ε_lower (5.9e+15): no such line beside the curves."""
    result, mech = request.getfixturevalue(which)
    fig = plot_loss(result, mech)
    labels = [ln.get_label() for sub in fig.subfigs for ax in sub.axes for ln in ax.get_lines()]
    assert any(label.startswith("claim epsilon") for label in labels)
    assert not any(label.startswith(("certified eps_upper", "exhibited eps_lower")) for label in labels)
