"""The layout of the figures: square heat maps with colourbars as tall as the map, few tick labels
that never overlap, and figures as wide as the HTML report's card."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import matplotlib.image
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import SymLogNorm
from matplotlib.figure import Figure

from gpaudit.api import load, mechanism_for
from gpaudit.report import plots
from gpaudit.report.html import render_html

EX = Path(__file__).resolve().parents[2] / "examples"


def _stand_in(**kw):
    """The fields of a result the figures read (a configuration that was not checked)."""
    base = dict(name="x", path="x.yaml", sha256="0" * 64, verdict="unknown", witness=None, checks=[],
                claim={"epsilon": "1", "delta": "0"}, epsilon_upper=None, epsilon_lower=None, info={})
    return SimpleNamespace(**{**base, **kw})


@pytest.fixture(scope="module")
def two_way():
    return _stand_in(), mechanism_for(load(EX / "two-way-student-t.yaml"))


def _drawn(fig):
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def _labels_do_not_overlap(renderer, axis, most=7):
    boxes = [t.get_window_extent(renderer) for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
    assert 2 <= len(boxes) <= most, [t.get_text() for t in axis.get_ticklabels()]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (a, b)


def _maps_and_bars(fig):
    maps = [ax for ax in fig.axes if ax.get_label() != "<colorbar>" and ax.collections]
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    return maps, bars


@pytest.mark.parametrize("plot", [plots.plot_query, plots.plot_loss])
def test_heat_maps_are_square_with_colourbars_as_tall_as_the_map(two_way, plot):
    fig = plot(*two_way)
    renderer = _drawn(fig)
    maps, bars = _maps_and_bars(fig)
    assert maps and len(bars) == len([m for m in maps if m.get_xlabel() == "x1" and m.get_ylabel() == "x2"])
    for ax, bar in zip([m for m in maps if m.get_ylabel() == "x2"], bars):
        box, cb = ax.get_window_extent(renderer), bar.get_window_extent(renderer)
        assert box.width == pytest.approx(box.height, rel=0.02)           # a square map
        assert cb.height == pytest.approx(box.height, rel=0.03)           # the colourbar: the map's height
        assert cb.width < 0.1 * box.width and 0 < cb.x0 - box.x1 < 0.08 * box.width   # slim, beside it
        for axis in (ax.xaxis, ax.yaxis, bar.yaxis):
            _labels_do_not_overlap(renderer, axis)
    if plot is plots.plot_loss:   # the line plot beside the map has the map's height
        line = next(ax for ax in fig.axes if ax not in maps and ax not in bars)
        assert line.get_window_extent(renderer).height == pytest.approx(
            maps[0].get_window_extent(renderer).height, rel=0.03)


def test_symlog_colourbar_has_few_readable_labels():
    fig = Figure(figsize=(plots.FIGSIZE[0], 4.0), dpi=plots.DPI, layout="compressed")
    ax = fig.add_subplot(1, 2, 1)
    g = np.linspace(0, 1, 30)
    Z = np.outer(np.geomspace(1e-3, 1e7, 30), np.ones(30))
    plots._heat(fig, ax, g, g, Z, "rates", norm=SymLogNorm(linthresh=0.5, vmin=0.0, vmax=1e7))
    renderer = _drawn(fig)
    bar = next(a for a in fig.axes if a.get_label() == "<colorbar>")
    _labels_do_not_overlap(renderer, bar.yaxis)
    assert not bar.yaxis.get_minorticklabels() or all(not t.get_text() for t in bar.yaxis.get_minorticklabels())


def test_family_figure_symlog_axis_labels_do_not_overlap(two_way):
    fig = plots.plot_family(*two_way)
    renderer = _drawn(fig)
    _labels_do_not_overlap(renderer, fig.axes[0].xaxis, most=9)


def test_figures_are_as_wide_as_the_report_card(tmp_path):
    """In Chromium the figure fills the width of its card (it used to fill only the left part)."""
    from test_report import _chromium, _run_chromium
    exe = _chromium()
    fig = Figure(figsize=(plots.FIGSIZE[0], 2.0), dpi=plots.DPI)
    fig.patch.set_facecolor("#ff00ff")   # a magenta figure, to find on the screenshot
    buf = io.BytesIO()
    FigureCanvasAgg(fig).print_png(buf)
    page = tmp_path / "r.html"
    page.write_text(render_html(_stand_in(), None, {"query": buf.getvalue()}), encoding="utf-8")
    shot = tmp_path / "shot.png"
    _run_chromium(exe, tmp_path, f"--screenshot={shot}", "--window-size=1280,1800", "--hide-scrollbars",
                  page.as_uri())
    px = matplotlib.image.imread(str(shot))[..., :3]
    magenta = (px[..., 0] > 0.95) & (px[..., 1] < 0.05) & (px[..., 2] > 0.95)
    rows = np.nonzero(magenta.any(axis=1))[0]
    assert len(rows), "the figure is not on the screenshot"
    cols = np.nonzero(magenta[rows[len(rows) // 2]])[0]
    width = cols[-1] - cols[0] + 1
    # main is 1100 px wide with 24 px padding, a section 22 px padding and a border: ~1006 px inside
    assert 990 <= width <= 1006, width
