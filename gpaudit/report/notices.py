"""What a reader must not miss about one result, beside its verdict: one sentence each.

The same sentences lead every output (the summary line, GitHub annotations, JUnit, the Markdown and
HTML reports), so that no output says less than another:

* ``regressions``: the run regressed against a ``--baseline`` report (``info.regressions``);
* ``approximate``: the audit found a loss rate above the claim on an approximate model (a float64
  callable, a numerical B*): evidence only, never a refutation (``info.approximate_epsilon_lower``).

and, for a quiet pass, which checks are informational (:func:`is_informational`: searched or
proved although the verdict does not rest on them) and what a certified verdict rests on
(:func:`rests_on`).

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
    """'found on an approximate model: rate R > E, evidence only', or 'largest rate on an approximate
    model R, evidence only' when R is within the claim; None when the audit found nothing there."""
    rate = _info(result).get("approximate_epsilon_lower")
    if rate is None:
        return None
    eps = _claim(result).get("epsilon")
    above = exceeds(rate, eps) if eps is not None else None
    shown = mpmath.nstr(mpmath.mpf(str(rate)), 6) if above is not None else str(rate)
    if above is False:
        return f"largest rate on an approximate model {shown}, evidence only"
    return f"found on an approximate model: rate {shown}{f' > {eps}' if above else ''}, evidence only"


def notices(result) -> list[tuple[str, str]]:
    """[(kind, sentence)] in the order a reader should see them."""
    out = [("regression", f"regression against the baseline: {r}") for r in regressions(result)]
    found = approximate_finding(result)
    if found is not None and found.startswith("found"):   # a rate within the claim is no warning
        out.append(("approximate", found))
    return out


# the detail of a check the verdict does not rest on (gpaudit.check.INFORMATIONAL and the proof
# stage's SKIP_TWO_POINT begin so)
INFORMATIONAL_PREFIXES = ("informational, not needed for the verdict", "not needed: ")


def _get(check, key):
    return check.get(key) if isinstance(check, dict) else getattr(check, key, None)


def _checks(result) -> list:
    checks = result.get("checks") if isinstance(result, dict) else getattr(result, "checks", None)
    return list(checks or [])


def is_informational(check) -> bool:
    """A skipped check whose detail says the verdict does not rest on it."""
    return _get(check, "status") == "skipped" and str(_get(check, "detail") or "").startswith(INFORMATIONAL_PREFIXES)


def found_something(check) -> bool:
    """An informational check that found something (a Definition 8 condition that fails for B)."""
    return is_informational(check) and "; found: " in str(_get(check, "detail") or "")


def rests_on(result) -> str | None:
    """For a certified result: the checks its certificate rests on, the bound it speaks about, and,
    where the audit found the two-point conditions of Definition 8 failing for B, why that does not
    matter.  None for other verdicts."""
    verdict = result.get("verdict") if isinstance(result, dict) else getattr(result, "verdict", None)
    if str(verdict) != "certified":
        return None
    proved = [str(_get(c, "id")) for c in _checks(result) if _get(c, "status") == "certified"]
    text = f"{', '.join(proved)} (each proved: z3 unsat, arb enclosures or exact arithmetic)"
    bound = _info(result).get("certified_bound")
    if bound:
        text += f"; about B: {bound}"
    found = [str(_get(c, "id")) for c in _checks(result) if found_something(c)]
    if found:
        text += (f"; the audit found that B is not a Definition 8 bound ({', '.join(found)}), and that is "
                 "fine: this certificate rests only on the local conditions along segments, which are "
                 "proved (docs/certificate.md)")
    return text
