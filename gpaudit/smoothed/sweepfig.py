"""The figure of a sweep over a smoothed-DP / DP configuration (one varied parameter): delta_lower
and delta_upper of each point against the parameter, log scale, the verdicts and the claimed delta."""

from __future__ import annotations

import math

VERDICT_COLOURS = {"certified": "tab:green", "refuted": "tab:red", "unknown": "tab:orange", "error": "grey"}


def _num(text) -> float:
    try:
        return float(text)
    except (TypeError, ValueError, OverflowError):
        return math.nan


def delta_along(name: str, rows, title: str, value, figure_cls):
    """A Figure: `value(text)` gives the float of a parameter's exact string."""
    fig = figure_cls(figsize=(7.0, 4.4), layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    x = [value(r["params"][name]) for r in rows]
    lo = [_num(r.get("delta_lower")) for r in rows]
    hi = [_num(r.get("delta_upper")) for r in rows]
    claim = []
    for r in rows:
        try:
            claim.append(value(str(r["delta_claimed"])))
        except Exception:  # noqa: BLE001 - a claim that cannot be drawn is left out
            claim.append(math.nan)
    ax.plot(x, claim, color="black", linewidth=1, label="claimed delta")
    ax.plot(x, lo, "o-", color="tab:blue", markerfacecolor="none", label="delta_lower")
    ax.plot(x, hi, "_", color="tab:blue", label="delta_upper")
    for v, colour in VERDICT_COLOURS.items():
        pts = [(a, b) for a, b, r in zip(x, lo, rows) if r["verdict"] == v and b > 0]
        if pts:
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=colour, edgecolors="black", zorder=5, label=v)
    positive = [v for v in lo + hi + claim if v > 0]
    if positive:
        ax.set_yscale("log")
    if all(v > 0 for v in x) and max(x) / min(x) > 20:
        ax.set_xscale("log")
    ax.set_xlabel(name)
    ax.set_ylabel("delta")
    ax.set_title(title.replace("ε along", "δ along"))
    ax.legend(fontsize=8)
    return fig
