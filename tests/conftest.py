import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def pytest_terminal_summary(terminalreporter):
    """Say it when the HTML-report browser tests were skipped (their reason shows only with -rs)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any("chromium" in str(getattr(r, "longrepr", "")) for r in skipped):
        terminalreporter.write_line("note: the browser tests of the HTML reports were skipped: no chromium on "
                                    "PATH (install Debian's chromium to run them, as .ci/run does)", yellow=True)


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (the default selection leaves them out; "
                          ".ci/run and the README's test command run everything)")


def pytest_collection_modifyitems(config, items):
    """Without --slow (and without an explicit -m), deselect the tests marked slow."""
    if config.getoption("--slow") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
