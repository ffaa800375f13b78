"""Figures for a report: the query and its bound, the privacy loss, the family's local rate.

Every figure is drawn on a fresh :class:`matplotlib.figure.Figure` with the Agg canvas (no pyplot
state, no display), in matplotlib's default style, on deterministic grids (no random numbers), and
saved as a small PNG without a timestamp or software tag, so the same result and mechanism give
the same bytes.

The figures are illustrations computed in float64 on finite grids; they are never evidence. The
numbers that matter (the witness, epsilon_lower, epsilon_upper) come from the result and are
plotted as given.
"""

from __future__ import annotations

import io
import math

import matplotlib
import matplotlib.style
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from .markdown import family_rate_is_the_bound, region_evidence

FIGSIZE = (8.0, 3.6)    # inches: 800 px wide at DPI (scaled to the width of a report's figure card)
DPI = 100
RC = {"font.size": 8, "axes.titlesize": 9, "legend.fontsize": 7, "axes.grid": True,
      "grid.alpha": 0.3, "image.cmap": "viridis"}
CLAIM_STYLE = {"color": "#cf222e", "linestyle": "--", "linewidth": 1.2}
UPPER_STYLE = {"color": "#1a7f37", "linestyle": "-.", "linewidth": 1.2}
LOWER_STYLE = {"color": "#8250df", "linestyle": ":", "linewidth": 1.2}
WITNESS_STYLE = {"color": "#cf222e", "marker": "*", "markersize": 12, "linestyle": "none",
                 "markeredgecolor": "black", "markeredgewidth": 0.5}
NICE_STEPS = [1, 2, 2.5, 5, 10]   # tick steps: 1, 2, 2.5 or 5 times a power of ten
# Standardised outputs u = (y - f(x)) / b(x) at which the worst output y is looked for.
U_GRID = np.concatenate([-np.logspace(6, -3, 70), [0.0], np.logspace(-3, 6, 70)])


# ---------------------------------------------------------------------------------------------
# Entry point


def make_plots(result, mech, errors: dict | None = None) -> dict[str, bytes]:
    """PNG images {"query", "loss", "family"} for one checked configuration.

    A figure that cannot be drawn (no mechanism, an evaluation error) is left out; its reason is
    stored in ``errors[name]`` when a dict is given, so a report can say why a figure is missing
    (a result read back from a JSON report says in ``mechanism_note`` why it has no mechanism).
    """
    builders = {"query": plot_query, "loss": plot_loss, "family": plot_family}
    if getattr(mech, "k", 1) > 1:      # output.dim k > 1: the output space (drawn for k = 2)
        builders = {"output": plot_output}
    out: dict[str, bytes] = {}
    with matplotlib.style.context("default"), matplotlib.rc_context(RC):
        for name, build in builders.items():
            try:
                if mech is None:
                    raise ValueError(getattr(result, "mechanism_note", None)
                                     or "no mechanism model (the configuration could not be built)")
                with np.errstate(all="ignore"):
                    out[name] = _png(build(result, mech))
            except Exception as err:  # noqa: BLE001 - a figure is an illustration, never a verdict
                if errors is not None:
                    errors[name] = f"{type(err).__name__}: {err}"
    return out


def _png(fig: Figure) -> bytes:
    """The figure as a small PNG: rendered by Agg, reduced to a 256-colour palette (no dithering,
    so lines stay crisp; about 60% smaller), without metadata that could change between runs."""
    from PIL import Image  # a dependency of matplotlib

    FigureCanvasAgg(fig)
    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=DPI, metadata={"Software": None})
    raw.seek(0)
    with Image.open(raw) as img:
        small = img.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                            dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _figure(ncols: int = 1, height: float = FIGSIZE[1], layout: str = "constrained") -> tuple[Figure, list]:
    """A figure of the report's width with ``ncols`` axes side by side. Heat maps use the
    "compressed" layout: fixed-aspect axes packed together, colourbars as tall as their map."""
    fig = Figure(figsize=(FIGSIZE[0], height), dpi=DPI, layout=layout)
    axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    return fig, axes


# ---------------------------------------------------------------------------------------------
# Vector outputs (output.dim 2): the output plane


def _output_pair(result, mech):
    """(x, x', y or None): the witness's, else the first landmark and a step of 1 along x1."""
    w = getattr(result, "witness", None) or {}
    if w.get("x") and isinstance(w.get("y"), list):
        return tuple(np.array([float(c) for c in w[k]]) for k in ("x", "x_prime", "y"))
    x = np.asarray(mech.query.landmarks[0] if mech.query.landmarks else np.zeros(mech.dim), float)
    return x, x + np.eye(mech.dim)[0], None


def plot_output(result, mech) -> Figure:
    """Density contours of M(x) and M(x') in the output plane, the centres f(x), f(x') and the
    witness output y (*): where ln p_x(y) - ln p_x'(y) exceeds epsilon dist(x, x')."""
    from ..audit.vector import log_density_np
    if mech.k != 2:
        raise ValueError(f"the output-space figure is drawn for output.dim 2, not {mech.k}")
    x, xp, y = _output_pair(result, mech)
    F, Fp = mech.query.f_np(x[None, :])[0], mech.query.f_np(xp[None, :])[0]
    b = float(mech.bound.B_np(x[None, :])[0] / float(mech.eta))
    centre = (F + Fp) / 2
    half = 4 * b + np.linalg.norm(Fp - F) / 2
    far = y is not None and float(np.max(np.abs(y - centre))) > half
    if y is not None and not far:
        half = max(half, 1.2 * float(np.max(np.abs(y - centre))))
    g1 = np.linspace(centre[0] - half, centre[0] + half, 201)
    g2 = np.linspace(centre[1] - half, centre[1] + half, 201)
    G = np.stack(np.meshgrid(g1, g2), axis=-1).reshape(-1, 2)
    fig, (ax,) = _figure(1, height=4.2)
    for at, colour, label in ((x, "#0969da", "M(x)"), (xp, "#bf8700", "M(x')")):
        Z = log_density_np(mech, G, np.broadcast_to(at, (len(G), mech.dim))).reshape(201, 201)
        top = np.nanmax(Z)
        ax.contour(g1, g2, Z, levels=top - np.array([8.0, 4.0, 2.0, 1.0, 0.25])[::1], colors=colour,
                   linewidths=0.8)
        ax.plot([], [], color=colour, label=f"ln density of {label}")
    ax.plot(*F, "o", color="#0969da", label="f(x)")
    ax.plot(*Fp, "s", color="#bf8700", label="f(x')")
    if far:         # the witness lies beyond the window: an arrow towards it
        d = (y - centre) / np.linalg.norm(y - centre)
        ax.annotate("", xy=centre + 0.95 * half * d / np.max(np.abs(d)), xytext=centre,
                    arrowprops={"arrowstyle": "->", "color": WITNESS_STYLE["color"]})
        ax.plot([], [], color=WITNESS_STYLE["color"], label=f"towards the witness y, {np.linalg.norm(y - centre):.3g} away")
    elif y is not None:
        ax.plot(*y, **WITNESS_STYLE, label="witness y")
    ax.set_aspect("equal")
    ax.set_xlabel("y1")
    ax.set_ylabel("y2")
    ax.set_title("output plane: density contours (ln p at 0.25, 1, 2, 4, 8 below the peak)")
    _legend(fig, ax)
    return fig


# ---------------------------------------------------------------------------------------------
# Geometry: where to look


def witness_x(result) -> np.ndarray | None:
    """The witness's x as a float array (None without a witness)."""
    w = getattr(result, "witness", None)
    if not w or "x" not in w:
        return None
    return np.array([float(v) for v in w["x"]], float)


def region_box(result, mech) -> tuple[np.ndarray, np.ndarray]:
    """A box around the query's landmarks (and the witness x when it is not far away)."""
    marks = np.array(mech.query.landmarks or [tuple([0.0] * mech.dim)], float).reshape(-1, mech.dim)
    scale = float(mech.query.scale or 1.0)
    lo, hi = marks.min(axis=0), marks.max(axis=0)
    wx = witness_x(result)
    if wx is not None and np.all(np.isfinite(wx)):
        centre = (lo + hi) / 2
        if np.max(np.abs(wx - centre)) <= 100 * scale + np.max(hi - lo):
            lo, hi = np.minimum(lo, wx), np.maximum(hi, wx)
    pad = 2.0 * scale + 0.25 * float(np.max(hi - lo))
    return lo - pad, hi + pad


def line_points(result, mech, n: int) -> tuple[np.ndarray, np.ndarray, str, np.ndarray, np.ndarray]:
    """Points X = c + t e on a line through the interesting region: (t, X, label, c, e).

    In one dimension the line is the input axis (c = 0, e = 1, t = x). In three or more it runs
    along the first coordinate through the witness x, or through the landmarks' centre.
    """
    lo, hi = region_box(result, mech)
    d = mech.dim
    e = np.zeros(d)
    e[0] = 1.0
    if d == 1:
        c, label = np.zeros(1), "x"
    else:
        wx = witness_x(result)
        c = wx.copy() if wx is not None else (lo + hi) / 2
        c[0] = 0.0
        rest = ", ".join(f"{v:.4g}" for v in c[1:])
        label = f"x1  (x2..x{d} = {rest})"
    t = np.linspace(lo[0], hi[0], n)
    return t, c[None, :] + t[:, None] * e[None, :], label, c, e


def _legend(fig, ax, ncols: int = 2):
    """The legend below the axes, so it never hides a curve."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols, frameon=False)


def _mark_landmarks(ax, t_marks):
    for tm in t_marks:
        ax.axvline(tm, color="grey", linewidth=0.6, alpha=0.5)


def _landmarks_on_line(mech, c, e) -> list[float]:
    """Parameters t of the landmarks' projections onto the line (1-D: the landmarks)."""
    marks = np.array(mech.query.landmarks or [], float).reshape(-1, mech.dim)
    return sorted({round(float(np.dot(m - c, e)), 12) for m in marks})


# ---------------------------------------------------------------------------------------------
# (a) the query, its slope, a numerical L_f and the bound B


def plot_query(result, mech) -> Figure:
    """f, |grad f|, an L_{f,Lambda} estimate and B: along a line, or as heat maps in 2-D."""
    if mech.dim == 2:
        return _query_heatmaps(result, mech)
    t, X, label, c, e = line_points(result, mech, 601)
    f = np.asarray(mech.query.f_np(X), float)
    B = np.asarray(mech.bound.B_np(X), float)
    slope = np.abs(np.gradient(f, t))
    lip = lipschitz_estimate(t, f, _float_or_inf(mech.spec.bound.Lambda))
    fig, (ax1, ax2) = _figure(2, height=3.8)
    ax1.plot(t, f, color="#0969da")
    ax1.set_title("query f")
    ax1.set_xlabel(label)
    ax2.plot(t, B, color="#1a7f37", linewidth=2, label="B (bound)")
    ax2.plot(t, lip, color="#bc4c00", linestyle="--", label=r"$L_{f,\Lambda}$ estimate")
    ax2.plot(t, slope, color="#0969da", linewidth=0.9, label=r"$|f'|$ (finite diff.)")
    ax2.set_title(r"$B$ against the slope of $f$")
    ax2.set_xlabel(label)
    ax2.set_ylim(bottom=0)
    _legend(fig, ax2, ncols=3)
    marks = _landmarks_on_line(mech, c, e)
    for ax in (ax1, ax2):
        _mark_landmarks(ax, marks)
        _mark_witness_x(ax, result, c, e)
    return fig


def lipschitz_estimate(t: np.ndarray, f: np.ndarray, Lambda: float) -> np.ndarray:
    """max over grid points t' with 0 < |t - t'| <= Lambda of |f(t) - f(t')| / |t - t'|.

    A numerical stand-in for L_{f,Lambda}(x) of Liang-Yi Definition 7, restricted to the plotted
    window (so it can only under-estimate the true value).
    """
    dt = np.abs(t[:, None] - t[None, :])
    df = np.abs(f[:, None] - f[None, :])
    with np.errstate(all="ignore"):
        q = np.where((dt > 0) & (dt <= Lambda), df / dt, 0.0)
    q[~np.isfinite(q)] = 0.0
    return q.max(axis=1)


def _mark_witness_x(ax, result, c, e):
    wx = witness_x(result)
    if wx is not None:
        ax.axvline(float(np.dot(wx - c, e)), **{**CLAIM_STYLE, "linewidth": 0.9})


def square_box(result, mech) -> tuple[np.ndarray, np.ndarray]:
    """The region box of a 2-D map widened to a square around its centre: with one scale on both
    axes (distances are Euclidean) the map then fills its square panel."""
    lo, hi = region_box(result, mech)
    centre, half = (lo + hi) / 2, float(np.max(hi - lo)) / 2
    return centre - half, centre + half


def _grid2(result, mech, n: int):
    lo, hi = square_box(result, mech)
    g1, g2 = np.linspace(lo[0], hi[0], n), np.linspace(lo[1], hi[1], n)
    G1, G2 = np.meshgrid(g1, g2)
    return g1, g2, np.column_stack([G1.ravel(), G2.ravel()])


def _heat(fig, ax, g1, g2, Z, title, norm=None):
    """A heat map on a square panel (equal scales), its colourbar as tall as the map, a few ticks."""
    from matplotlib.ticker import MaxNLocator
    im = ax.pcolormesh(g1, g2, Z, shading="auto", norm=norm)
    cb = fig.colorbar(im, ax=ax, fraction=0.05, pad=0.02, aspect=25)
    _colorbar_ticks(cb, norm)
    ax.set_title(title)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.set_aspect("equal")
    ax.set_box_aspect(1)
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(nbins=5, steps=NICE_STEPS))
    ax.grid(False)


def _colorbar_ticks(cb, norm):
    """At most about six readable labels: linear steps, or 0, the claim and decades above it on a
    symmetric log scale (labels like 1, 10, 1e+03: never crowded minor labels)."""
    from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator, NullLocator
    if norm is None or not hasattr(norm, "linthresh"):
        cb.locator = MaxNLocator(nbins=6, steps=NICE_STEPS)
        cb.update_ticks()
        return
    ref, top = float(norm.linthresh), float(norm.vmax)
    decades = max(1, math.ceil(math.log10(max(top / ref, 10.0))))
    step = max(1, math.ceil(decades / 5))
    ticks = [0.0] + [ref * 10 ** k for k in range(0, decades + 1, step) if ref * 10 ** k <= top * 1.0001]
    cb.locator = FixedLocator(ticks)
    cb.formatter = FuncFormatter(lambda v, _pos: f"{v:.3g}")
    cb.update_ticks()
    cb.ax.yaxis.set_minor_locator(NullLocator())


def _mark_2d(ax, result, mech):
    marks = np.array(mech.query.landmarks or [], float).reshape(-1, 2)
    if len(marks):
        ax.plot(marks[:, 0], marks[:, 1], "o", color="white", markersize=2.5,
                markeredgecolor="black", markeredgewidth=0.3)
    wx = witness_x(result)
    if wx is not None:
        ax.plot([wx[0]], [wx[1]], **WITNESS_STYLE)


def _query_heatmaps(result, mech) -> Figure:
    n = 121
    g1, g2, P = _grid2(result, mech, n)
    f = np.asarray(mech.query.f_np(P), float).reshape(n, n)
    B = np.asarray(mech.bound.B_np(P), float).reshape(n, n)
    fig, (ax1, ax2) = _figure(2, height=3.7, layout="compressed")
    _heat(fig, ax1, g1, g2, f, "query f")
    _heat(fig, ax2, g1, g2, B, "bound B")
    for ax in (ax1, ax2):
        _mark_2d(ax, result, mech)
    return fig


# ---------------------------------------------------------------------------------------------
# (b) the privacy-loss rate over pairs (x, x')


def worst_rate(mech, X: np.ndarray, Xp: np.ndarray) -> np.ndarray:
    """sup over a grid of outputs y of [ln p_x(y) - ln p_x'(y)] / dist(x, x'), row by row.

    The outputs are f(x) + b(x) u and f(x') + b(x') u for u on U_GRID (|u| <= 1e6), so the worst y
    in either distribution's bulk and tails is seen. NaN where B is not positive and finite.
    """
    a, b = mech.centre_scale_np(X)
    ap, bp = mech.centre_scale_np(Xp)
    Y = np.concatenate([a[:, None] + b[:, None] * U_GRID, ap[:, None] + bp[:, None] * U_GRID], axis=1)
    fam = mech.family
    lr = (fam.logpdf_np((Y - a[:, None]) / b[:, None]) - np.log(b)[:, None]
          - fam.logpdf_np((Y - ap[:, None]) / bp[:, None]) + np.log(bp)[:, None])
    dist = mech.dist_np(X, Xp)
    good = np.isfinite(b) & np.isfinite(bp) & (b > 0) & (bp > 0)
    lr[~np.isfinite(lr)] = -np.inf
    out = lr.max(axis=1) / dist
    out[~good] = np.nan
    return out


def loss_distances(result, mech) -> list[float]:
    """A few distances for the loss figure: local, the query's scale, a longer one (<= Lambda)."""
    s = float(mech.query.scale or 1.0)
    lam = _float_or_inf(mech.spec.bound.Lambda)
    ds = [d for d in (0.01 * s, 0.5 * s, 2.0 * s) if d <= lam]
    return ds or [lam]


def plot_loss(result, mech) -> Figure:
    """The worst-output loss rate along the line for a few distances (a heat map in 2-D).

    For a delta > 0 claim, which bounds the hockey-stick divergence and not the pure rate, the
    figure leads with the divergence against the distance and delta (:func:`_hockey_panel`), and
    shows the pure rate below it."""
    if _delta(result) > 0:
        fig = Figure(figsize=(FIGSIZE[0], 8.4 if mech.dim == 2 else 7.6), dpi=DPI, layout="constrained")
        top, bottom = fig.subfigures(2, 1, height_ratios=[1.0, 1.15 if mech.dim == 2 else 1.0])
        _hockey_panel(top, result, mech)
        (_loss_heatmap if mech.dim == 2 else _loss_lines)(bottom, result, mech)
        return fig
    if mech.dim == 2:
        fig = Figure(figsize=(FIGSIZE[0], 4.4), dpi=DPI, layout="compressed")
        _loss_heatmap(fig, result, mech)
        return fig
    fig = Figure(figsize=(FIGSIZE[0], 4.2), dpi=DPI, layout="constrained")
    _loss_lines(fig, result, mech)
    return fig


def _loss_lines(fig, result, mech):
    """The loss rate along the line through the region, for a few distances (into ``fig``, a
    figure or subfigure)."""
    t, X, label, c, e = line_points(result, mech, 501)
    ax = fig.add_subplot(1, 1, 1)
    top = 0.0
    for d in loss_distances(result, mech):
        rate = np.fmax(worst_rate(mech, X, X + d * e), worst_rate(mech, X, X - d * e))
        top = max(top, float(np.nanmax(rate)) if np.any(np.isfinite(rate)) else 0.0)
        ax.plot(t, rate, linewidth=1.1, label=f"dist(x, x') = {d:.3g}")
    top = max(top, _reference_lines(ax, result, horizontal=True))
    top = max(top, _witness_rate_marker(ax, result, c, e))
    _rate_scale(ax, top, _claim(result), axis="y")
    _mark_landmarks(ax, _landmarks_on_line(mech, c, e))
    ax.set_xlabel(label)
    ax.set_ylabel("loss rate  sup_y ln(p_x/p_x') / dist")
    ax.set_title(_loss_title(result))
    _legend(fig, ax, ncols=3)


def _delta(result) -> float:
    return _decimal_float(result.claim.get("delta", "0")) or 0.0


def _loss_title(result) -> str:
    delta = _delta(result)
    if delta > 0:
        return f"pure loss rate (delta = {delta:.3g} > 0: the hockey-stick divergence above decides)"
    return "privacy-loss rate of the worst output y, over x (x' = x +/- dist)"


def _witness_rate_marker(ax, result, c, e) -> float:
    """A star at (witness x, verified rate); returns the plotted rate (0 if none)."""
    w = getattr(result, "witness", None)
    wx = witness_x(result)
    if wx is None:
        return 0.0
    tx = float(np.dot(wx - c, e))
    if "rate" in w:
        r = float(w["rate"])
        ax.plot([tx], [r], **WITNESS_STYLE, label=f"witness (rate {r:.6g}, dist {float(w['dist']):.3g})")
        return r
    if "hockey_stick" in w:
        ax.axvline(tx, **{**CLAIM_STYLE, "linewidth": 0.9},
                   label=f"witness x (hockey stick {float(w['hockey_stick']):.3g} > delta)")
    return 0.0


def _loss_heatmap(fig, result, mech):
    """Left: max over 8 directions of the worst-output rate at a short distance, over x in the box.
    Right: the same rate along the horizontal line through the witness (or the region's centre).
    Both panels square, so that they line up (into ``fig``, a figure or subfigure)."""
    n = 45
    g1, g2, P = _grid2(result, mech, n)
    d = min(0.1 * float(mech.query.scale or 1.0), _float_or_inf(mech.spec.bound.Lambda))
    Z = _directional_rate(mech, P, d).reshape(n, n)
    eps = _claim(result)
    ax1, ax2 = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    top = float(np.nanmax(Z)) if np.any(np.isfinite(Z)) else eps
    norm = None
    if top > 20 * eps:
        from matplotlib.colors import SymLogNorm
        norm = SymLogNorm(linthresh=eps, vmin=0.0, vmax=top)
    _heat(fig, ax1, g1, g2, Z, f"worst rate at dist {d:.3g}", norm=norm)
    if np.nanmax(Z) > eps > np.nanmin(Z):
        ax1.contour(g1, g2, Z, levels=[eps], colors=[CLAIM_STYLE["color"]], linewidths=1.0)
    _mark_2d(ax1, result, mech)
    wx = witness_x(result)
    lo, hi = square_box(result, mech)
    x2 = float(wx[1]) if wx is not None else float((lo[1] + hi[1]) / 2)
    ax1.axhline(x2, color="white", linewidth=0.8, linestyle=":")
    t = np.linspace(lo[0], hi[0], 301)
    line = np.column_stack([t, np.full_like(t, x2)])
    ax2.plot(t, _directional_rate(mech, line, d), linewidth=1.1, label=f"dist {d:.3g}, max over 8 directions")
    top = max(float(np.nanmax(Z)), _reference_lines(ax2, result))
    top = max(top, _witness_rate_marker(ax2, result, np.array([0.0, x2]), np.array([1.0, 0.0])))
    _rate_scale(ax2, top, eps)
    ax2.set_box_aspect(1)
    ax2.set_xlabel(f"x1  (x2 = {x2:.4g})")
    ax2.set_title("worst loss rate along the dotted line")
    _legend(fig, ax2, ncols=2)


# ---------------------------------------------------------------------------------------------
# (b') delta > 0: the hockey-stick divergence against the distance

# outputs, in units of each noise scale, on which the set S = {y : l(y) > eps d} is located
HS_GRID = np.concatenate([-np.logspace(6, -3, 90), [0.0], np.logspace(-3, 6, 90)])


def hockey_stick_np(mech, X: np.ndarray, Xp: np.ndarray) -> np.ndarray:
    """P[M(x) in S] - e^{eps d} P[M(x') in S] per pair (rows of X, Xp), in float64.

    S = {y : ln p_x(y) - ln p_x'(y) > eps d} is located on a grid of outputs on both noise scales
    (its ends by linear interpolation), and its probabilities come from the family's distribution
    functions, each tail from its own side (no cancellation). Any set S gives a lower bound on the
    divergence sup_S, so this is one, up to float64 rounding: an illustration, never a witness
    (the audit's are recomputed in mpmath). -inf where the pair is undefined."""
    X, Xp = np.atleast_2d(X), np.atleast_2d(Xp)
    a, b = mech.centre_scale_np(X)
    ap, bp = mech.centre_scale_np(Xp)
    ed = float(mech.epsilon) * mech.dist_np(X, Xp)
    Y = np.sort(np.concatenate([a[:, None] + b[:, None] * HS_GRID, ap[:, None] + bp[:, None] * HS_GRID],
                               axis=1), axis=1)
    g = mech.log_density_np(a[:, None], b[:, None], Y) - mech.log_density_np(ap[:, None], bp[:, None], Y) \
        - ed[:, None]
    above = np.isfinite(g) & (g > 0)
    rows, cols = np.nonzero(above[:, 1:] != above[:, :-1])      # S begins or ends in (Y[j], Y[j+1])
    g0, g1 = g[rows, cols], g[rows, cols + 1]
    frac = np.where(np.isfinite(g0) & np.isfinite(g1) & (g0 != g1), g0 / (g0 - g1), 0.5)
    at = Y[rows, cols] + np.clip(frac, 0.0, 1.0) * (Y[rows, cols + 1] - Y[rows, cols])
    sign = np.where(above[rows, cols], 1.0, -1.0)             # +1 where S ends, -1 where it begins
    fam, n = mech.family, len(X)

    def mass(centre, scale):
        # P(S) = sum over ends of F(end) - sum over beginnings of F(begin), F = cdf below the centre
        # and 1 - sf above it (the 1s are counted apart); S reaching the last grid point ends at +inf
        z = (at - centre[rows]) / scale[rows]
        low = z < 0
        tails = np.where(low, sign * fam.cdf_np(np.where(low, z, 0.0)), -sign * fam.sf_np(np.where(low, 0.0, z)))
        ones = np.bincount(rows, weights=np.where(low, 0.0, sign), minlength=n) + above[:, -1]
        return np.bincount(rows, weights=tails, minlength=n) + ones   # the tails summed before the 1s

    with np.errstate(all="ignore"):
        hs = mass(a, b) - np.exp(np.minimum(ed, 700.0)) * mass(ap, bp)
        ok = np.isfinite(hs) & np.isfinite(b) & np.isfinite(bp) & (b > 0) & (bp > 0)
    return np.where(ok, hs, -np.inf)


def hockey_curve(result, mech, n: int = 41) -> tuple[np.ndarray, np.ndarray]:
    """(distances, the largest float64 divergence found at each) over pairs from anchor points (the
    query's landmarks, points of the plotted region, the witness) in the coordinate directions
    and the witness's direction; the distances run from 1e-3 to 1e3 times the query's scale (and
    through the witness's distance), at most Lambda."""
    scale = float(mech.query.scale or 1.0)
    lam = _float_or_inf(mech.spec.bound.Lambda)
    dists = np.geomspace(1e-3 * scale, min(1e3 * scale, lam), n)
    lo, hi = region_box(result, mech)
    k = 21 if mech.dim == 1 else 5
    axes = np.meshgrid(*[np.linspace(lo[i], hi[i], k) for i in range(mech.dim)])
    anchors = [np.column_stack([g.ravel() for g in axes]),
               np.array(mech.query.landmarks or [], float).reshape(-1, mech.dim)]
    dirs = [v * s for v in np.eye(mech.dim) for s in (1.0, -1.0)]
    w = getattr(result, "witness", None) or {}
    if "x" in w and "x_prime" in w:
        wx, wxp = np.array([float(v) for v in w["x"]]), np.array([float(v) for v in w["x_prime"]])
        wd = float(mech.dist_np(wxp, wx)[0])
        if np.all(np.isfinite(wx)) and np.isfinite(wd) and wd > 0:
            anchors += [wx[None, :], wxp[None, :]]
            dirs += [(wxp - wx) / wd, (wx - wxp) / wd]
            dists = np.unique(np.append(dists, wd))
    A = np.unique(np.concatenate(anchors), axis=0)
    U = np.array(dirs)
    best = np.full(len(dists), -np.inf)
    for i, d in enumerate(dists):
        X = np.repeat(A, len(U), axis=0)
        Xp = X + d * np.tile(U, (len(A), 1))
        best[i] = np.max(hockey_stick_np(mech, X, Xp))
    return dists, best


def _hockey_panel(fig, result, mech):
    """The divergence sup_S P[M(x) in S] - e^{eps d} P[M(x') in S] against d = dist(x, x'), on log
    axes, with the claimed delta, the audit's largest verified divergence, the certificate's delta
    at the claimed epsilon (if it has one) and the witness (refuted): the claim holds where
    everything stays below the delta line."""
    ax = fig.add_subplot(1, 1, 1)
    dists, best = hockey_curve(result, mech)
    delta = _delta(result)
    shown = np.where(best > 0, best, np.nan)
    ax.plot(dists, shown, color="#0969da", linewidth=1.3, marker=".", markersize=3,
            label="largest divergence over the plotted pairs (float64, a lower bound)")
    values = [delta] + [v for v in shown if np.isfinite(v)]
    ax.axhline(delta, label=f"claimed delta = {delta:.3g}", **CLAIM_STYLE)
    found = _decimal_float(((getattr(result, "info", None) or {}).get("audit") or {}).get("hockey_stick_max"))
    if found is not None and found > 0:
        ax.axhline(found, label=f"largest verified by the audit = {found:.4g}", **LOWER_STYLE)
        values.append(found)
    certified = _certified_delta(result)
    if certified is not None and certified > 0:
        ax.axhline(certified, label=f"certified delta at the claimed epsilon <= {certified:.3g}", **UPPER_STYLE)
        values.append(certified)
    w = getattr(result, "witness", None) or {}
    if "hockey_stick" in w and "dist" in w:
        hs, wd = float(w["hockey_stick"]), float(w["dist"])
        ax.plot([wd], [hs], **WITNESS_STYLE, label=f"witness (divergence {hs:.4g} > delta, dist {wd:.4g})")
        values.append(hs)
    ax.set_xscale("log")
    ax.set_yscale("log")
    lo, hi = min(values), max(values)
    ax.set_ylim(max(lo / 1e3, hi * 1e-30, 1e-300), min(hi * 1e2, 10.0))
    from matplotlib.ticker import LogLocator
    ax.yaxis.set_major_locator(LogLocator(base=10, numticks=7))
    ax.set_xlabel("dist(x, x')")
    ax.set_ylabel("hockey-stick divergence")
    ax.set_title("delta > 0: the divergence sup_S P[M(x) in S] - exp(eps dist) P[M(x') in S] must stay "
                 "<= delta")
    _legend(fig, ax, ncols=2)


def _certified_delta(result):
    """The certificate's delta at the claimed epsilon (evidence of certificate.delta), or None."""
    for chk in getattr(result, "checks", []):
        if getattr(chk, "id", "") == "certificate.delta" and getattr(chk, "status", "") == "certified":
            return _decimal_float((chk.evidence or {}).get("delta_upper_at_claim"))
    return None


def _directional_rate(mech, P: np.ndarray, d: float) -> np.ndarray:
    """max over 8 directions theta of the worst-output rate from x to x + d (cos, sin)(theta)."""
    rate = np.full(len(P), -np.inf)
    for k in range(8):
        th = k * math.pi / 4
        step = d * np.array([math.cos(th), math.sin(th)])
        rate = np.fmax(rate, worst_rate(mech, P, P + step[None, :]))
    return rate


# ---------------------------------------------------------------------------------------------
# (c) the family's local rate


def local_rate(family, eta: float, gamma: float, u: np.ndarray, a: float = 1.0) -> np.ndarray:
    """eta a |psi(u)| + gamma |1 + u psi(u)|: the rate of the certificate at u (docs/certificate.md)."""
    psi = family.score_np(u)
    return eta * a * np.abs(psi) + gamma * np.abs(1 + u * psi)


def plot_family(result, mech) -> Figure:
    """The local rate over u on a symmetric log axis, with eps_upper, the claim and the papers.

    With a certificate, the curve is the rate it bounds, max_R [eta a_R |psi(u)| + c_R |1 + u psi(u)|]
    over its regions (and each region's curve): its supremum is the certified eps_upper, so no point
    of it lies above that line.  Without one (refuted by a witness, or no proof), the curve is the
    Definition 8 form with a = 1, c = gamma, and no certified line is drawn."""
    eta, gamma = float(mech.eta), float(mech.spec.bound.gamma)
    u = np.concatenate([-np.logspace(6, -4, 400), [0.0], np.logspace(-4, 6, 400)])
    fam = mech.family
    fig, (ax,) = _figure(1, height=4.2)
    psi = fam.score_np(u)
    regions = certificate_regions(result)
    if regions:
        curves = [eta * a * np.abs(psi) + c * np.abs(1 + u * psi) for a, c in regions]
        total = np.max(curves, axis=0)
        ax.plot(u, total, color="black", linewidth=1.6,
                label=r"$\max_R\ \eta a_R|\psi(u)| + c_R|1 + u\psi(u)|$ (certified)")
        if len(regions) > 1:
            for k, ((a, c), curve) in enumerate(zip(regions[:6], curves[:6])):
                ax.plot(u, curve, linewidth=0.8, linestyle=(0, (4, 1 + k)),
                        label=f"region {k + 1}: a = {a:.4g}, c = {c:.4g}")
    else:
        total = local_rate(fam, eta, gamma, u)
        ax.plot(u, total, color="black", linewidth=1.6,
                label=r"$\eta|\psi(u)| + \gamma|1 + u\psi(u)|$ (a = 1, c = $\gamma$; not certified)")
        ax.plot(u, eta * np.abs(psi), color="#0969da", linewidth=0.8, label=r"$\eta|\psi(u)|$")
        ax.plot(u, gamma * np.abs(1 + u * psi), color="#bc4c00", linewidth=0.8,
                label=r"$\gamma|1 + u\psi(u)|$")
    top = float(np.nanmax(total[np.isfinite(total)])) if np.any(np.isfinite(total)) else 0.0
    # eps_upper is this curve's supremum only when every region's rate is finite (a delta > 0 claim
    # with an unbounded pure rate is certified by another route: then the line would contradict it)
    top = max(top, _reference_lines(ax, result, horizontal=True, papers=True,
                                    upper=family_rate_is_the_bound(result)))
    _rate_scale(ax, top, _claim(result), axis="y")
    ax.set_xscale("symlog", linthresh=1.0)
    from matplotlib.ticker import NullLocator, SymmetricalLogLocator
    ax.xaxis.set_major_locator(SymmetricalLogLocator(linthresh=1.0, base=100))  # 0, +-1, +-100, ...
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlabel("u = (y - f(x)) / b(x)")
    ax.set_ylabel("local rate")
    ax.set_title(f"{mech.family.name}: local privacy-loss rate over u (eta = {eta:.4g}, gamma = {gamma:.4g})")
    _legend(fig, ax, ncols=2)
    return fig


def certificate_regions(result) -> list[tuple[float, float]]:
    """The (a_R, c_R) of the certificate's regions (evidence of 'certificate.rate'), [] if none."""
    pairs = []
    for reg in region_evidence(result):
        a, c = _decimal_float(reg.get("a")), _decimal_float(reg.get("c"))
        if a is not None and c is not None and math.isfinite(a) and math.isfinite(c) and (a, c) not in pairs:
            pairs.append((a, c))
    return pairs


# ---------------------------------------------------------------------------------------------
# Shared decorations


def _claim(result) -> float:
    return float(_decimal_float(result.claim.get("epsilon")) or 0.0)


def _decimal_float(v):
    if v is None:
        return None
    try:
        return float(v)
    except (TypeError, ValueError):
        try:
            import sympy as sp
            return float(sp.sympify(v))
        except Exception:  # noqa: BLE001
            return None


def paper_constants(result) -> list[tuple[str, str]]:
    """[(label, value)] from the certificate check's evidence (empty if absent)."""
    for chk in getattr(result, "checks", []):
        if getattr(chk, "id", "") == "certificate.rate":
            return [(str(lbl), str(val)) for lbl, val in (chk.evidence or {}).get("paper_constants", [])]
    return []


def _reference_lines(ax, result, horizontal=True, papers=False, upper=None) -> float:
    """Claim, certified upper and exhibited lower epsilon (and the papers' constants) as lines.
    For a delta > 0 claim the loss figure's pure rate is bounded by neither (the certified epsilon
    goes with delta, and the pure rate found may be unbounded), so by default (``upper`` None) only
    the claim is drawn there; the family figure says itself whether eps_upper bounds its curve."""
    top = 0.0
    lines = [("claim epsilon", _claim(result), CLAIM_STYLE)]
    pure_claim = _delta(result) == 0
    if upper if upper is not None else pure_claim:
        lines.append(("certified eps_upper", _decimal_float(result.epsilon_upper), UPPER_STYLE))
    if not papers and pure_claim:
        lines.append(("exhibited eps_lower", _decimal_float(result.epsilon_lower), LOWER_STYLE))
    for label, value, style in lines:
        if value is not None and math.isfinite(value):
            ax.axhline(value, label=f"{label} = {value:.6g}", **style)
            top = max(top, value)
    if papers:
        for k, (label, value) in enumerate(paper_constants(result)):
            v = _decimal_float(value)
            if v is not None and math.isfinite(v):
                short = _shorten(label.split(":")[0], 44)
                ax.axhline(v, color="grey", linestyle=(0, (1, 1 + k)), linewidth=1.0,
                           label=f"{short} = {v:.6g}")
                top = max(top, v)
    return top


def _shorten(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _rate_scale(ax, top: float, claim: float, axis="y"):
    """Linear axis from 0, or a symmetric log axis when the rates dwarf the claim."""
    ref = max(claim, 1e-12)
    if top > 20 * ref:
        from matplotlib.ticker import SymmetricalLogLocator
        ax.set_yscale("symlog", linthresh=ref)
        ax.set_ylim(bottom=0, top=top * 3)
        decades = math.log10(top / ref)
        step = 10 ** max(1, math.ceil(decades / 6))
        ax.yaxis.set_major_locator(SymmetricalLogLocator(linthresh=ref, base=step))
    else:
        ax.set_ylim(bottom=0, top=max(top, ref) * 1.15)


def _float_or_inf(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.inf
