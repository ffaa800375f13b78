"""`gpaudit check` on planar Laplace noise (output.dim k > 1) under each input metric: exit 0,
certified, with an upper bound within the loss rate derived here by hand, eta sup_v ||v||_2 / ||v||_m
for the input metric m (eta under l2 and l1, eta sqrt(k) under linf, eta / min_i w_i when weighted)."""

import json
import textwrap

import mpmath as mp
import pytest
import sympy as sp

from gpaudit.cli import main


def _yaml(tmp_path, name, *, dim=2, k=None, metric="l2", query="{kind: identity}", bound="1",
          family="laplace", eta="1/2", eps="1/2", delta=None, gamma="0"):
    k = dim if k is None else k
    text = textwrap.dedent(f"""\
        gpaudit: 1
        name: {name}
        input: {{dim: {dim}, metric: {metric}}}
        output: {{dim: {k}}}
        query: {query}
        bound: {{kind: piecewise, pieces: [{{value: '{bound}'}}], growth: exponential, gamma: {gamma}}}
        noise: {{family: {family}, eta: {eta}}}
        claim: {{epsilon: '{eps}'{f", delta: {delta}" if delta else ""}}}
        audit: {{effort: quick}}
        """)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def _check(tmp_path, path):
    out = tmp_path / (path.stem + ".json")
    code = main(["check", str(path), "--json", str(out), "--quiet"])
    return code, json.loads(out.read_text())


CASES = [  # (id, dim, metric, true rate at eta = 1/2)
    ("l2-k2", 2, "l2", "1/2"),
    ("l2-k3", 3, "l2", "1/2"),
    ("l1-k2", 2, "l1", "1/2"),
    ("linf-k2", 2, "linf", "sqrt(2)/2"),
    ("linf-k3", 3, "linf", "sqrt(3)/2"),
    ("weighted-l2", 2, "{l2: [2, 1]}", "1/2"),
    ("weighted-l1", 2, "{l1: [1, 4]}", "1/2"),
]


@pytest.mark.parametrize("case,dim,metric,rate", CASES, ids=[c[0] for c in CASES])
def test_planar_laplace_certified_at_its_rate(tmp_path, case, dim, metric, rate):
    code, rep = _check(tmp_path, _yaml(tmp_path, case, dim=dim, metric=metric, eps=rate))
    assert code == 0 and rep["verdict"] == "certified", rep["checks"]
    assert mp.mpf(rep["epsilon_upper"]) <= mp.mpf(sp.N(sp.sympify(rate), 30)) + mp.mpf(10) ** -12
