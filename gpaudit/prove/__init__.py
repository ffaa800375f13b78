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
then artifacts and cli.  No module of the package reads this namespace, so the re-exports below
work in any order.
"""

from __future__ import annotations

from .prover import ProofOutcome, RegionRate  # noqa: F401
from .engine import prove_conditions  # noqa: F401
from .symbolic import SymbolicReport, prove_symbolic  # noqa: F401

__all__ = ["ProofOutcome", "RegionRate", "prove_conditions", "SymbolicReport", "prove_symbolic"]
