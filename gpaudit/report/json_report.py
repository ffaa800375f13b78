"""The JSON report of the contract: one object per configuration, soundness numbers as strings."""

from __future__ import annotations

import json
import os
import tempfile

import mpmath

from .. import __version__
from ..verdict import Result


def _dec(v, digits=30):
    if v is None:
        return None
    if isinstance(v, str):
        return v
    return mpmath.nstr(mpmath.mpf(v), digits, strip_zeros=False)


def result_to_json(r: Result) -> dict:
    return {
        "gpaudit_version": __version__,
        "schema": 1,
        "name": r.name,
        "file": r.path,
        "config_sha256": r.sha256,
        "verdict": r.verdict,
        "claim": r.claim,
        "epsilon_lower": _dec(r.epsilon_lower),
        "epsilon_upper": _dec(r.epsilon_upper),
        "witness": r.witness,
        "checks": [c.to_json() for c in r.checks],
        "info": r.info,
    }


def write_json_atomic(path: str, payload) -> None:
    """Write the whole file or nothing: a temporary file renamed into place."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".gpaudit-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(payload, fh, indent=2, default=str)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
