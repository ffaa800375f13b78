"""The JSON report of the contract: one object per configuration, soundness numbers as strings."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .. import __version__
from ..kernel.numbers import decimal_down, decimal_up
from ..verdict import Result


def _dec(v, rounding, digits=30):
    """A decimal string: upper bounds rounded up, lower bounds down (never to nearest)."""
    if v is None or isinstance(v, str):
        return v
    return rounding(v, digits)


def result_to_json(r: Result) -> dict:
    return {
        "gpaudit_version": __version__,
        "schema": 1,
        "name": r.name,
        "file": r.path,
        "config_sha256": r.sha256,
        "verdict": r.verdict,
        "claim": r.claim,
        "epsilon_lower": _dec(r.epsilon_lower, decimal_down),
        "epsilon_upper": _dec(r.epsilon_upper, decimal_up),
        "witness": r.witness,
        "checks": [c.to_json() for c in r.checks],
        "info": r.info,
    }


def write_atomic(path, data: bytes) -> None:
    """Write the whole file or nothing: a temporary file renamed into place, ordinary permissions."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent.resolve(), prefix=".gpaudit-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str, payload) -> None:
    """The JSON report, written atomically."""
    write_atomic(path, (json.dumps(payload, indent=2, default=str) + "\n").encode("utf-8"))
