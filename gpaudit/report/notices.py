"""What a reader must not miss about one result, beside its verdict: one sentence each.

The same sentences lead every output (the summary line, GitHub annotations, JUnit, the Markdown and
HTML reports), so that no output says less than another:

* ``regressions``: the run regressed against a ``--baseline`` report (``info.regressions``);
* ``approximate``: the audit found a loss rate above the claim on an approximate model (a float64
  callable, a numerical B*): evidence only, never a refutation (``info.approximate_epsilon_lower``).

Results may be :class:`~gpaudit.verdict.Result` objects, results read back from a JSON report, or
JSON report dicts.
"""

from __future__ import annotations

import mpmath
import sympy as sp


def _info(result) -> dict:
    info = result.get("info") if isinstance(result, dict) else getattr(result, "info", None)
    return info if isinstance(info, dict) else {}


def _claim(result) -> dict:
    claim = result.get("claim") if isinstance(result, dict) else getattr(result, "claim", None)
    return claim if isinstance(claim, dict) else {}


def exceeds(value, bound) -> bool | None:
    """value > bound for decimal / exact-expression strings, at 60 digits (None if unreadable)."""
    try:
        with mpmath.workdps(60):
            return bool(mpmath.mpf(str(value)) > mpmath.mpf(sp.N(sp.sympify(str(bound)), 70)))
    except (TypeError, ValueError, sp.SympifyError):
        return None


def regressions(result) -> list[str]:
    """The regressions recorded against a baseline ([] when none, or no baseline was given)."""
    return [str(r) for r in _info(result).get("regressions") or []]


def approximate_finding(result) -> str | None:
    """'found on an approximate model: rate R > E, evidence only' (or '<= E'), None if nothing."""
    rate = _info(result).get("approximate_epsilon_lower")
    if rate is None:
        return None
    eps = _claim(result).get("epsilon")
    above = exceeds(rate, eps) if eps is not None else None
    shown = mpmath.nstr(mpmath.mpf(str(rate)), 6) if above is not None else str(rate)
    relation = f" > {eps}" if above else f" <= {eps}" if above is False else ""
    return f"found on an approximate model: rate {shown}{relation}, evidence only"


def notices(result) -> list[tuple[str, str]]:
    """[(kind, sentence)] in the order a reader should see them."""
    out = [("regression", f"regression against the baseline: {r}") for r in regressions(result)]
    found = approximate_finding(result)
    if found is not None:
        out.append(("approximate", found))
    return out
