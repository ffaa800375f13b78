"""`gpaudit check` on planar Laplace noise (output.dim k > 1) under each input metric: exit 0,
certified, with an upper bound within the loss rate derived here by hand, eta sup_v ||v||_2 / ||v||_m
for the input metric m (eta under l2 and l1, eta sqrt(k) under linf, eta / min_i w_i when weighted)."""

import mpmath as mp
import pytest
import sympy as sp

from test_vector import CASES, _check, _yaml


@pytest.mark.parametrize("case,dim,metric,rate", CASES, ids=[c[0] for c in CASES])
def test_planar_laplace_certified_at_its_rate(tmp_path, case, dim, metric, rate):
    code, rep = _check(tmp_path, _yaml(tmp_path, case, dim=dim, metric=metric, eps=rate))
    assert code == 0 and rep["verdict"] == "certified", rep["checks"]
    assert mp.mpf(rep["epsilon_upper"]) <= mp.mpf(sp.N(sp.sympify(rate), 30)) + mp.mpf(10) ** -12
