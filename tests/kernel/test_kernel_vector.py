"""The kernel's obligations for output.dim k > 1: the cover obligation is the operator norm of the
Jacobian from the input metric to the output's l2 norm, and the rate's smooth term is c |k + u psi|
(tests/pipeline/test_vector.py has the end-to-end tests and the problem these start from)."""

import pytest
import sympy as sp

from gpaudit.kernel import certificate as kc
from test_vector import _problem_and_cert


@pytest.mark.parametrize("metric,norm", [("l2", "3"), ("l1", "sqrt(5)"), ("linf", "3*sqrt(2)")])
def test_kernel_cover_is_the_operator_norm(tmp_path, metric, norm):
    P, cert = _problem_and_cert(tmp_path, norm, metric)
    v = kc.check(P, cert)
    assert v.epsilon_upper == sp.sympify(norm) / 2
    P, cert = _problem_and_cert(tmp_path, f"99/100*{norm}", metric)
    with pytest.raises(kc.Rejected) as err:
        kc.check(P, cert)
    assert [o.name for o in err.value.outcomes if not o.holds] == ["cover[all]"]


def test_kernel_rate_uses_the_output_dimension(tmp_path):
    # c > 0: the smooth term c |k + u psi| of Laplace noise is c |k - u|, unbounded: no E holds
    P, cert = _problem_and_cert(tmp_path, "3")
    cert = kc.Certificate("regions", tuple(kc.Region(r.label, r.conds, r.alts, r.a, sp.Rational(1, 10))
                                           for r in cert.regions), sp.Integer(9))
    with pytest.raises(kc.Rejected):
        kc.check(P, cert)
    assert P.k == 2
