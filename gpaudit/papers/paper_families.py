"""Location-scale noise families (symmetric, Z with scale 1) as the checkers see them: adapters
around gpaudit's model families (``gpaudit.model.families.make_family``)."""
from __future__ import annotations

import mpmath as mp
import numpy as np


class Family:
    """Log density ``logh`` (up to an additive constant: the checkers use differences only) and
    score of a symmetric standard noise family.

    ``score_np`` is only used to *locate* maxima on grids; every reported value is
    recomputed in mpmath (``logh_mp``, ``score_mp``).
    """

    name = "family"

    def logh_np(self, u):
        raise NotImplementedError

    def logh_mp(self, u):
        raise NotImplementedError

    def score_np(self, u):
        h = 1e-6 * np.maximum(1.0, np.abs(u))
        return (self.logh_np(u + h) - self.logh_np(u - h)) / (2 * h)

    def score_mp(self, u):
        return mp.diff(self.logh_mp, mp.mpf(u))


class ModelFamily(Family):
    """A noise family of gpaudit's model (``gpaudit.model.family_defs``, built by the same
    ``make_family`` as a mech.yaml's ``noise``): its log-density and its score, derived from the
    family's one definition, in float64 and in mpmath."""

    def __init__(self, family: str, name: str, **shape):
        from ..model.families import make_family

        self.model = make_family(family, **shape)
        self.name = name

    def logh_np(self, u):
        return self.model.logpdf_np(u)

    def logh_mp(self, u):
        return self.model.logpdf_mp(u)

    def score_np(self, u):
        return self.model.score_np(u)

    def score_mp(self, u):
        return self.model.score_mp(u)


class GenCauchy(ModelFamily):
    def __init__(self, p, theta=1):
        self.p, self.theta = mp.mpf(p), mp.mpf(theta)
        super().__init__("gen_cauchy", f"GenCauchy(p={p},theta={theta})", p=self.p, theta=self.theta)


class StudentT(ModelFamily):
    def __init__(self, nu):
        self.nu = mp.mpf(nu)
        super().__init__("student_t", f"Student-t(nu={nu})", nu=self.nu)


class PolyPlaceFam(ModelFamily):
    """PolyPlace(1, alpha) of Hladik-Tetek."""

    def __init__(self, alpha):
        self.a = mp.mpf(alpha)
        super().__init__("polyplace", f"PolyPlace(alpha={alpha})", alpha=self.a)
