"""The proof feature: Definition 8's conditions for a mechanism's (f, B), proved region by region.

    prove_conditions(mech, timeout_ms) -> ProofOutcome      instance mode (concrete parameters)
    prove_symbolic(kind) -> SymbolicReport                   the paper's closed forms, all parameters

Checks (ids proof.*): B_positive, cover (|grad f| <= a_R B with a_R <= 1), smooth
(|grad ln B| <= c_R with c_R <= gamma), continuity (no jump of f or B between pieces), and, where
the claim needs them (delta > 0 or Lambda < inf), the two-point conditions.  Only z3 `unsat` or a
complete arb enclosure certifies; a refutation carries a witness re-verified in mpmath at 50
digits; everything else is unknown.

Linear growth g_L(r) = 1 + gamma r: the infinitesimal form of condition 2 is the same,
|grad ln B| <= gamma (ln g_L(r) = gamma r + O(r^2)); it is necessary, and the certificate's local
argument uses exactly it.  Condition 2 itself for g_L is stronger (1 + gamma r <= e^(gamma r)) and is
proved separately as two_point_smooth when the claim needs it (delta > 0).

Layers, each importing only those before it: witness, regions, obligations, arbbox; prover (the
Prover, ProofOutcome, RegionRate); theorem (the Lemma 3.1 route); engine (instance mode); symbolic;
then artifacts and cli.  No module of the package reads this namespace; the re-exports below are
lazy.
"""

from __future__ import annotations

_EXPORTS = {"ProofOutcome": "prover", "RegionRate": "prover", "prove_conditions": "engine",
            "SymbolicReport": "symbolic", "prove_symbolic": "symbolic"}
__all__ = list(_EXPORTS)


def __getattr__(name):
    """The re-exports, imported on first use: `gpaudit --help` and a check that a witness settles
    need none of the proof machinery (z3, arb, the region splitter)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value
