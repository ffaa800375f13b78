"""The noise-family figure draws the rate its certified line bounds: no point above that line, and a
caption that says what is drawn (no number on the page contradicts another)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gpaudit.api import CERTIFIED, check, load, mechanism_for
from gpaudit.report.markdown import figure_caption
from gpaudit.report.plots import plot_family

EX = Path(__file__).resolve().parents[2] / "examples"


def _lines(fig):
    ax = fig.axes[0]
    return {line.get_label(): line for line in ax.get_lines()}


@pytest.fixture(scope="module")
def student_t():
    spec = load(EX / "threshold-student-t.yaml")
    result = check(spec, effort="quick")
    assert result.verdict == CERTIFIED
    return result, mechanism_for(spec)


def test_the_drawn_rate_never_exceeds_the_certified_line(student_t):
    """threshold-student-t is certified at 2/3 because the slope and the scale terms never act in
    the same region: the Definition 8 sum eta|psi| + gamma|1 + u psi| peaks above 2/3, so drawing it
    under a certified line of 2/3 showed a rate above the certified bound."""
    result, mech = student_t
    lines = _lines(plot_family(result, mech))
    [upper] = [ln for label, ln in lines.items() if label.startswith("certified eps_upper")]
    bound = upper.get_ydata()[0]
    assert bound == pytest.approx(float(result.epsilon_upper))
    for label, line in lines.items():
        if label.startswith(("certified eps_upper", "claim")) or "=" in label and "region" not in label:
            continue   # the horizontal reference lines (claim, papers' constants)
        y = np.asarray(line.get_ydata(), float)
        assert np.nanmax(y[np.isfinite(y)]) <= bound * (1 + 1e-9), label
    [curve] = [ln for label, ln in lines.items() if "certified)" in label]
    assert np.nanmax(np.asarray(curve.get_ydata(), float)) >= bound * 0.99   # and it reaches it
    caption = figure_caption("family", result)
    assert "never rises above that line" in caption


def test_an_unbounded_pure_rate_draws_no_certified_line():
    """Laplace noise with gamma > 0, delta > 0: the pure rate is unbounded and the certified
    epsilon comes from another route; a certified line under that curve would contradict it."""
    spec = load(EX / "threshold-laplace-approx.yaml")
    result = check(spec, effort="quick")
    lines = _lines(plot_family(result, mechanism_for(spec)))
    assert not [label for label in lines if label.startswith("certified eps_upper")]
    assert "unbounded" in figure_caption("family", result)
