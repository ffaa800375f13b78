"""Noise families Z (location 0, scale 1) of the mechanism M(x) = f(x) + (B(x)/eta) Z.

Each family is defined once, symbolically, in ``gpaudit.model.family_defs`` (ln h(u) on u >= 0 piece
by piece, its break points and its log normalising constant, plus its sampler and distribution
function); ``gpaudit.model.family_base`` derives everything else from that definition (the score,
the certificate's tail chart, the z3 form, the mpmath / arb / arb-series / numpy evaluations).
This module is where the rest of gpaudit finds them: the families by their mech.yaml names
(``make_family``) and the names of both modules.
"""

from __future__ import annotations

import dataclasses

from .family_base import (Density, NoiseFamily, S, U, exact_number, float64_overrides, scale_bits,  # noqa: F401
                          to_arb, to_mpf)
from .family_defs import FAMILIES, RADIAL, Gaussian, GenCauchy, Laplace, PolyPlace, StudentT  # noqa: F401

__all__ = ["NoiseFamily", "Density", "Laplace", "GenCauchy", "StudentT", "PolyPlace", "Gaussian",
           "FAMILIES", "make_family", "float64_overrides", "exact_number", "scale_bits", "to_arb", "to_mpf", "U", "S"]


def make_family(name: str, dim: int = 1, **params) -> NoiseFamily:
    """Build a family by its mech.yaml name (the radial family in R^dim for output.dim > 1);
    ValueError("<field>: <problem>") on bad input."""
    if dim > 1:
        params = {**params, "k": dim}
    cls = FAMILIES.get(name) if dim == 1 else RADIAL.get(name)
    if cls is None:
        raise ValueError(f"family: unknown noise family {name!r} (known: {', '.join(FAMILIES)})")
    known = {f.name: f for f in dataclasses.fields(cls)}
    for key in params:
        if key not in known:
            raise ValueError(f"{key}: not a parameter of family {name}")
    for key, spec in known.items():
        if spec.default is dataclasses.MISSING and key not in params:
            raise ValueError(f"{key}: required for family {name}")
    return cls(**params)
