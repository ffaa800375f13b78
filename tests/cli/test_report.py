"""Reports a reviewer can follow: figures, Markdown, self-contained HTML rendered in a real browser,
and the catalog's generated reports kept fresh."""

import base64
import dataclasses
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from lxml import html as lxml_html

from gpaudit.api import CERTIFIED, REFUTED, check, load, mechanism_for
from gpaudit.report import catalog
from gpaudit.report.catalog import index_markdown, stale, write_report
from gpaudit.report.html import COLOURS, render_html
from gpaudit.report.markdown import render_markdown
from gpaudit.report.plots import make_plots, plot_loss

ROOT = Path(__file__).resolve().parents[2]
REFUTED_CFG = ROOT / "examples" / "broken" / "threshold-student-t-too-much-eta.yaml"
CERTIFIED_CFG = ROOT / "examples" / "threshold-laplace-global.yaml"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _checked(path):
    spec = load(path)
    # the verdicts below do not depend on the effort; a report shows every stage (as gpaudit report)
    result = check(spec, effort="quick", full_evidence=True)
    return dataclasses.replace(result, path=path.relative_to(ROOT).as_posix()), mechanism_for(spec)


@pytest.fixture(scope="module")
def refuted():
    result, mech = _checked(REFUTED_CFG)
    assert result.verdict == REFUTED and result.witness
    return result, mech, make_plots(result, mech)


@pytest.fixture(scope="module")
def certified():
    result, mech = _checked(CERTIFIED_CFG)  # the global-Lipschitz Laplace baseline M2
    assert result.verdict == CERTIFIED
    return result, mech, make_plots(result, mech)


# ---------------------------------------------------------------------------------------------
# Figures


def test_plots_are_small_deterministic_pngs(refuted):
    result, mech, images = refuted
    assert set(images) == {"query", "loss", "family"}
    for name, png in images.items():
        assert png.startswith(PNG_MAGIC), name
        assert 5_000 < len(png) < 200_000, (name, len(png))
        img = matplotlib.image.imread(io.BytesIO(png), format="png")
        # 8 in at 100 dpi (the HTML scales it to its figure card): small files, readable labels
        assert img.shape[1] == 800 and img.shape[0] <= 450, (name, img.shape)
        assert float(np.var(img[..., :3])) > 1e-3, name
    assert make_plots(result, mech) == images  # same inputs, same bytes


def test_loss_figure_marks_the_witness(refuted):
    result, mech, _ = refuted
    fig = plot_loss(result, mech)
    labels = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert any(lbl.startswith("witness (rate 1.3333") for lbl in labels), labels
    assert any(lbl.startswith("claim epsilon = 1") for lbl in labels)


def test_missing_mechanism_gives_no_figures_and_says_why(refuted):
    errors = {}
    assert make_plots(refuted[0], None, errors) == {}
    assert set(errors) == {"query", "loss", "family"}
    page = render_html(refuted[0], None, {}, figure_errors=errors)
    assert "Figure loss not drawn" in page and "REFUTED" in page


# ---------------------------------------------------------------------------------------------
# Markdown and HTML text


def test_markdown_refuted_has_claim_witness_and_reproduction(refuted):
    result, mech, images = refuted
    md = render_markdown(result, mech, {k: f"{k}.png" for k in images})
    head = md.split("## Epsilons")[0]
    assert "REFUTED" in head and "ε = 1" in head  # claim and verdict first
    assert "gpaudit check examples/broken/threshold-student-t-too-much-eta.yaml --seed 0 --effort quick" in md
    for key in ("x", "x_prime", "y", "log_ratio"):
        value = result.witness[key]
        assert (value[0] if isinstance(value, list) else value) in md
    assert "Liang-Yi Lemma 3.5" in md  # the papers' constants beside the certified epsilon
    assert "M(x) = f(x) + (B(x)/η) · Z" in md and "student_t" in md and "soft_threshold" in md
    assert result.sha256 in md
    for c in result.checks:
        assert f"`{c.id}`" in md
    for name in images:
        assert f"]({name}.png)" in md
    for dist in ("numpy", "scipy", "mpmath", "sympy", "z3", "python-flint", "matplotlib"):
        assert f"| {dist} |" in md


def test_html_is_self_contained(refuted):
    result, mech, images = refuted
    page = render_html(result, mech, images)
    assert "<script" not in page.lower() and "<link" not in page.lower()
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page)
    assert "Content-Security-Policy" in page
    doc = lxml_html.fromstring(page)
    srcs = [img.get("src") for img in doc.iter("img")]
    assert len(srcs) == 3 and all(s.startswith("data:image/png;base64,") for s in srcs)


# ---------------------------------------------------------------------------------------------
# The HTML report in headless Chromium


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        if shutil.which(name):
            return shutil.which(name)
    if os.environ.get("CI"):
        pytest.fail("chromium is not on PATH (CI is set: the browser test must run)")
    pytest.skip("chromium is not on PATH")


def _run_chromium(exe, tmp_path, *args):
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr", "--v=0", *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def console_messages(stderr: str) -> list[str]:
    """What the page wrote to the console (errors, CSP violations): Chromium logs it as CONSOLE."""
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


def test_console_check_catches_a_bad_page(tmp_path):
    exe = _chromium()
    bad = tmp_path / "bad.html"
    bad.write_text('<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" '
                   "content=\"default-src 'none'; img-src data:\"></head><body>"
                   '<img src="https://example.invalid/x.png"></body></html>')
    proc = _run_chromium(exe, tmp_path, "--dump-dom", bad.as_uri())
    assert console_messages(proc.stderr), "the console check must be able to fail"


@pytest.mark.slow  # a headless browser per page
@pytest.mark.parametrize("which", ["refuted", "certified"])
def test_html_report_renders_in_chromium(which, request, tmp_path):
    exe = _chromium()
    result, mech, images = request.getfixturevalue(which)
    out = write_report(result, mech, tmp_path / "report", formats=("html",))["html"]
    proc = _run_chromium(exe, tmp_path, "--dump-dom", out.as_uri())
    assert console_messages(proc.stderr) == []
    doc = lxml_html.fromstring(proc.stdout)
    banner = doc.get_element_by_id("verdict").text_content()
    assert result.verdict.upper() in banner and "Claim:" in banner
    imgs = list(doc.iter("img"))
    assert len(imgs) == 3
    for img in imgs:
        src = img.get("src")
        assert src.startswith("data:image/png;base64,") and len(src) > 4_000
        assert base64.b64decode(src.split(",", 1)[1]).startswith(PNG_MAGIC)
    shot = tmp_path / f"{which}.png"
    _run_chromium(exe, tmp_path, f"--screenshot={shot}", "--window-size=1200,2400", out.as_uri())
    assert shot.exists() and shot.stat().st_size > 20_000
    pixels = matplotlib.image.imread(str(shot))[..., :3]
    assert pixels.shape[:2] == (2400, 1200)
    assert float(np.var(pixels)) > 1e-3  # not a single colour
    top = pixels[40, 600]  # the verdict banner, in the verdict's colour
    want = np.array([int(COLOURS[result.verdict][i:i + 2], 16) / 255 for i in (1, 3, 5)])
    assert np.allclose(top, want, atol=0.02), (top, want)


# ---------------------------------------------------------------------------------------------
# The catalog's generated reports


def test_stale_reports_are_detected(refuted, tmp_path):
    result, mech, _ = refuted
    cfg = tmp_path / "examples" / "broken" / REFUTED_CFG.name
    cfg.parent.mkdir(parents=True)
    shutil.copy(REFUTED_CFG, cfg)
    (tmp_path / "reports").mkdir()
    assert any("report missing" in s for s in stale(tmp_path))
    write_report(result, mech, tmp_path / "reports" / catalog.dir_name(result.name))
    (tmp_path / "reports" / "README.md").write_text(index_markdown([result]))
    assert stale(tmp_path) == []
    cfg.write_text(cfg.read_text() + "# edited\n")
    problems = stale(tmp_path)
    assert any("changed since its report" in s for s in problems)
    assert any("README.md: no row" in s for s in problems)
    cfg.unlink()
    assert any("no longer exists" in s for s in stale(tmp_path))


def test_one_report_directory_per_name(tmp_path):
    twin = tmp_path / "twin.yaml"
    shutil.copy(REFUTED_CFG, twin)
    with pytest.raises(ValueError, match="same report directory"):
        catalog.write_reports([REFUTED_CFG, twin], tmp_path / "out")
    assert not (tmp_path / "out").exists()  # refused before checking or writing anything


def test_catalog_reports_fresh():
    """reports/ is regenerated with gpaudit.report.catalog.regenerate (`gpaudit report --catalog`)."""
    assert stale(ROOT) == []
