"""sweep.png: the privacy map of a sweep.

* One varied parameter: epsilon_upper (certified, markers coloured by verdict) and epsilon_lower
  (exhibited) against the parameter, with the claimed epsilon and the papers' constants for the
  same parameters.
* Two: heat maps over the grid, the verdict of each point beside its epsilon_upper.
* Three or more: no figure (sweep.csv and sweep.html still hold every point).

Drawn like the reports' figures (gpaudit.report.plots: Agg canvas, no pyplot state, the same
style, a small PNG without metadata); the numbers are the rows' own, never recomputed.
"""

from __future__ import annotations

import math

import matplotlib
import matplotlib.style
import numpy as np
import sympy as sp
from matplotlib.colors import ListedColormap, LogNorm
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from ..report.html import COLOURS
from ..report.plots import CLAIM_STYLE, DPI, LOWER_STYLE, RC, UPPER_STYLE, _decimal_float, _legend, _png, _rate_scale, _shorten
from .grid import constant

VERDICT_COLOURS = {**{k: COLOURS[k] for k in ("certified", "refuted", "unknown")}, "error": "#6e7781"}
PAPER_COLOURS = ("#0969da", "#bf8700", "#57606a")
MAX_TICKS = 14


def sweep_png(names, rows, title: str) -> bytes | None:
    """The figure as PNG bytes, or None when it has no figure (three or more parameters)."""
    if len(names) not in (1, 2) or not rows:
        return None
    with matplotlib.style.context("default"), matplotlib.rc_context(RC), np.errstate(all="ignore"):
        if len(names) == 1 and any("delta_upper" in r for r in rows):   # smoothed DP / DP
            from ..smoothed.sweepfig import delta_along
            return _png(delta_along(names[0], rows, title, _value, Figure))
        fig = _along(names[0], rows, title) if len(names) == 1 else _heat(names, rows, title)
        return _png(fig)


def _f(v) -> float:
    x = _decimal_float(v)
    return math.nan if x is None else x


def _value(text: str) -> float:
    return float(sp.N(constant(text), 17))


def _along(name: str, rows, title: str) -> Figure:
    fig = Figure(figsize=(7.0, 4.4), dpi=DPI, layout="constrained")
    ax = fig.add_subplot(1, 1, 1)
    x = np.array([_value(r["params"][name]) for r in rows])
    upper = np.array([_f(r["epsilon_upper"]) for r in rows])
    lower = np.array([_f(r["epsilon_lower"]) for r in rows])
    claim = np.array([_f(r["epsilon_claimed"]) for r in rows])
    top = np.nanmax(np.concatenate([upper, lower, claim, [0.0]]))
    if np.all(claim == claim[0]):
        ax.axhline(claim[0], label=f"claimed ε = {claim[0]:.6g}", **CLAIM_STYLE)
    else:
        ax.plot(x, claim, label="claimed ε", **CLAIM_STYLE)
    sources = list(dict.fromkeys(p["source"] for r in rows for p in r["paper_constants"]))
    for k, source in enumerate(sources):
        ys = np.array([next((_f(p["epsilon"]) for p in r["paper_constants"] if p["source"] == source), math.nan)
                       for r in rows])
        top = max(top, np.nanmax(np.append(ys, 0.0)))
        ax.plot(x, ys, color=PAPER_COLOURS[k % len(PAPER_COLOURS)], linestyle=(0, (1, 1 + k)), marker="s",
                markersize=3, linewidth=1.2, label=_shorten(source.split(":")[0], 48))
    ax.plot(x, upper, color=UPPER_STYLE["color"], linewidth=1.3, label="certified ε_upper")
    # drawn over epsilon_upper with hollow markers: where the two meet (a tight certificate) both show
    ax.plot(x, lower, marker="o", markersize=8, markerfacecolor="none", zorder=6, label="exhibited ε_lower",
            **LOWER_STYLE)
    verdicts = [r["verdict"] for r in rows]
    for v in VERDICT_COLOURS:
        at = np.array([vv == v for vv in verdicts])
        if not at.any():
            continue
        # the verdict's marker sits on epsilon_upper, or on epsilon_lower where no bound was computed
        y = np.where(np.isfinite(upper[at]), upper[at], lower[at])
        y = np.where(np.isfinite(y), y, claim[at])
        ax.scatter(x[at], y, s=36, color=VERDICT_COLOURS[v], edgecolors="black", linewidths=0.5, zorder=5,
                   label=v)
    _rate_scale(ax, float(top), float(np.nanmax(claim)))
    if np.all(x > 0) and x.max() / x.min() > 20:
        ax.set_xscale("log")
    if len(rows) <= MAX_TICKS:
        labels = [r["params"][name] for r in rows]
        ax.set_xticks(x, labels, rotation=30 if sum(map(len, labels)) > 40 else 0)
        ax.minorticks_off()
    ax.set_xlabel(name)
    ax.set_ylabel("ε (privacy loss rate)")
    ax.set_title(title)
    _legend(fig, ax, ncols=3)
    return fig


def _heat(names, rows, title: str) -> Figure:
    a, b = names
    ys = list(dict.fromkeys(r["params"][a] for r in rows))   # the outer axis: rows of the map
    xs = list(dict.fromkeys(r["params"][b] for r in rows))
    verdict = np.full((len(ys), len(xs)), math.nan)
    upper = np.full((len(ys), len(xs)), math.nan)
    codes = {v: i for i, v in enumerate(VERDICT_COLOURS)}
    for r in rows:
        i, j = ys.index(r["params"][a]), xs.index(r["params"][b])
        verdict[i, j] = codes[r["verdict"]]
        upper[i, j] = _f(r["epsilon_upper"])
    width = min(12.0, 5.0 + 0.45 * len(xs) * 2)
    fig = Figure(figsize=(width, min(9.0, 3.4 + 0.3 * len(ys))), dpi=DPI, layout="constrained")
    left, right = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    left.imshow(verdict, origin="lower", aspect="auto", interpolation="nearest",
                cmap=ListedColormap(list(VERDICT_COLOURS.values())), vmin=-0.5, vmax=len(codes) - 0.5)
    left.set_title("verdict")
    finite = upper[np.isfinite(upper)]
    norm = LogNorm(finite.min(), finite.max()) if finite.size and finite.min() > 0 and finite.max() / finite.min() > 100 else None
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="#eaeef2")
    im = right.imshow(np.ma.masked_invalid(upper), origin="lower", aspect="auto", interpolation="nearest",
                      cmap=cmap, norm=norm)
    fig.colorbar(im, ax=right, label="certified ε_upper (grey: none)")
    right.set_title("certified ε_upper")
    if len(xs) * len(ys) <= 120:
        for i in range(len(ys)):
            for j in range(len(xs)):
                if math.isfinite(upper[i, j]):
                    right.text(j, i, f"{upper[i, j]:.3g}", ha="center", va="center", fontsize=7,
                               color="white" if im.norm(upper[i, j]) < 0.6 else "black")
    for ax in (left, right):
        _ticks(ax.set_xticks, xs)
        _ticks(ax.set_yticks, ys)
        ax.set_xlabel(b)
        ax.set_ylabel(a)
        ax.grid(False)
        if len(xs) * len(ys) <= 400:   # cell borders
            ax.set_xticks(np.arange(len(xs) + 1) - 0.5, minor=True)
            ax.set_yticks(np.arange(len(ys) + 1) - 0.5, minor=True)
            ax.grid(which="minor", color="white", linewidth=0.8, alpha=1)
            ax.tick_params(which="minor", length=0)
    present = [v for v in VERDICT_COLOURS if (verdict == codes[v]).any()]
    fig.legend([Patch(color=VERDICT_COLOURS[v]) for v in present], present, loc="outside lower center",
               ncols=len(present), frameon=False)
    fig.suptitle(title)
    return fig


def _ticks(setter, labels):
    step = max(1, math.ceil(len(labels) / MAX_TICKS))
    at = list(range(0, len(labels), step))
    setter(at, [labels[i] for i in at], rotation=0)
