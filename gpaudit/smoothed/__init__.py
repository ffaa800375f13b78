"""Smoothed differential privacy (Liu, Wang and Xia) and ordinary (epsilon, delta)-DP of anonymous
mechanisms over a finite set of m types, computed exactly.

    spec     `notion: smoothed_dp | dp` configurations (validated, exact)
    mechs    output distributions per histogram: the sampling-histogram mechanism (without
             replacement: Algorithm 2; with replacement: Theorem 5's counting) and user callables
    exact    delta_{eps,M}(x) of Definition 2 as exact rational bounds, the vertices of the hull
             of Pi, Algorithm 1 (Proposition 7) with arb ball arithmetic
    check    the Result (verdict by gpaudit.kernel.decide), text lines
    figure   the report's figure: delta against n beside the DP line T/n

docs/smoothed-dp.md describes the computation and why it is sound.
"""
