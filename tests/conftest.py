import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter):
    """Say it when the HTML-report browser tests were skipped (their reason shows only with -rs)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any("chromium" in str(getattr(r, "longrepr", "")) for r in skipped):
        terminalreporter.write_line("note: the browser tests of the HTML reports were skipped: no chromium on "
                                    "PATH (install Debian's chromium to run them, as .ci/run does)", yellow=True)
