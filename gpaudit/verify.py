"""`gpaudit verify REPORT.json [CONFIG]`: re-check a report's certificate in this process.

Only the configuration loader (which builds the mechanism the configuration states) and the kernel
run: the certificate is read from the report as data, every obligation of its route is derived again
from the mechanism and decided by z3 here, with no proof cache and no other process.  Nothing the run
that wrote the report computed is taken on trust but the certificate's regions and constants, and
those the kernel checks.

Exit 0: every certificate's obligations hold.  1: an obligation fails (named).  2: bad input (the
report unreadable, no certificate in it, the configuration unreadable, or its sha256 not the one the
report records).
"""

from __future__ import annotations

import sys
import time

from .certify import handoff
from .errors import ConfigError, FieldError
from .kernel import certificate as kc
from .kernel import numbers
from .runner import proof_cache_set
from .model.mechanism import build_mechanism
from .report.json_report import ReportFormatError, read_entries
from .spec.load import load_spec


def _entries(path: str):
    try:
        shown, entries = read_entries(path)
    except ReportFormatError as err:
        raise ConfigError(err.path, err.field, err.problem) from None
    if not all(isinstance(e, dict) for _, e in entries):
        raise ConfigError(shown, "", "not a gpaudit JSON report (expected an object or a list of objects)")
    return shown, [e for _, e in entries]


def verify(report: str, config: str | None = None, out=None) -> int:
    """Check every certificate in the report; the exit code (see the module docstring)."""
    out = out if out is not None else sys.stdout
    shown, entries = _entries(report)
    if config is not None and len(entries) != 1:
        raise ConfigError(shown, "", f"a configuration was named, but the report holds {len(entries)} results")
    with proof_cache_set(False):     # nothing on disk is consulted here (the kernel never uses it anyway)
        return _verify_all(shown, entries, config, out)


def recheck(spec, cert) -> object | None:
    """The kernel's Verified for the certificate `cert` (a JSON report's `certificate`) of the
    loaded configuration `spec`, decided again in this process with the proof cache off; None when
    the kernel does not accept it or it cannot be read.  (`gpaudit sweep` asks this of every
    certified point it would take from its point store: a stored record is not evidence.)"""
    if not isinstance(cert, dict):
        return None
    try:
        with proof_cache_set(False):
            return _recheck(spec, cert)
    except (kc.Rejected, FieldError, ConfigError, TypeError, ValueError, KeyError, ZeroDivisionError):
        return None


def _recheck(spec, cert):
    if getattr(spec, "notion", "geo_privacy") in ("smoothed_dp", "dp"):
        from .smoothed.check import kernel_check
        from .smoothed.spec import load_mechanism_callable
        if cert.get("route") != spec.notion:
            return None
        fn = load_mechanism_callable(spec.callable, spec.base)[0] if spec.kind == "python" else None
        return kernel_check(spec, fn, cert)[0]
    return kc.check(handoff.problem(build_mechanism(spec)), handoff.from_json(cert, spec.dim))


def _verify_smoothed(shown, where, spec, path, cert, out) -> int:
    """A smoothed-DP / DP certificate: the kernel re-computes the delta bound from the mechanism
    (gpaudit.kernel.smoothed) with the certificate's hull; 0 when it is <= the claim, else 1."""
    from .smoothed.check import kernel_check
    from .smoothed.spec import load_mechanism_callable
    if cert.get("route") != spec.notion:
        raise ConfigError(shown, f"{where}certificate.route", f"{cert.get('route')!r} is not the configuration's "
                                                              f"notion {spec.notion!r}")
    ok_shape = all(isinstance(i, int) and 0 <= i < len(spec.distributions or ()) for i in cert.get("vertices") or ()) \
        and isinstance(cert.get("weights") or {}, dict)
    if not ok_shape:
        raise ConfigError(shown, f"{where}certificate.vertices", "expected indices into the configuration's "
                                                                 "distributions, and weights as a mapping")
    fn = None
    if spec.kind == "python":
        try:
            fn = load_mechanism_callable(spec.callable, spec.base)[0]
        except FieldError as err:
            raise ConfigError(path, "mechanism.callable", err.problem) from None
    t0 = time.perf_counter()
    try:
        v, said = kernel_check(spec, fn, cert)
    except (TypeError, ValueError, ZeroDivisionError) as err:
        raise ConfigError(shown, f"{where}certificate.weights", f"not exact numbers: {err}") from None
    if v is None:
        print(f"rejected  {spec.name}  ({path}): {said}", file=out)
        return 1
    print(f"verified  {spec.name}  ({path}): {spec.notion} {said}; {time.perf_counter() - t0:.1f} s", file=out)
    return 0


def _verify_all(shown, entries, config, out) -> int:
    worst = 0
    for i, e in enumerate(entries):
        where = f"[{i}]." if len(entries) > 1 else ""
        cert = e.get("certificate")
        if not isinstance(cert, dict):
            raise ConfigError(shown, f"{where}certificate",
                              f"no certificate to verify (the verdict recorded is {e.get('verdict', '?')}; "
                              "only a certified result carries one)")
        path = config or e.get("file")
        if not isinstance(path, str):
            raise ConfigError(shown, f"{where}file", "the report names no configuration file (name it: CONFIG)")
        spec = load_spec(path)
        if spec.sha256 != e.get("config_sha256"):
            raise ConfigError(path, "config_sha256", f"the configuration's sha256 {spec.sha256[:12]}... is not the "
                                                     f"report's {str(e.get('config_sha256'))[:12]}...")
        if getattr(spec, "notion", "geo_privacy") in ("smoothed_dp", "dp"):
            worst = max(worst, _verify_smoothed(shown, where, spec, path, cert, out))
            continue
        try:
            certificate = handoff.from_json(cert, spec.dim)
        except FieldError as err:
            raise ConfigError(shown, f"{where}{err.field}", err.problem) from None
        mech = build_mechanism(spec)
        t0 = time.perf_counter()
        try:
            v = kc.check(handoff.problem(mech), certificate)
        except kc.Rejected as err:
            bad = [o for o in err.outcomes if not o.holds]
            print(f"rejected  {spec.name}  ({path}): {len(bad)} of {len(err.outcomes)} obligations fail", file=out)
            for o in bad:
                print(f"    fails  {o.name}: {o.detail}", file=out)
            worst = 1
            continue
        print(f"verified  {spec.name}  ({path}): {len(v.outcomes)} obligations of route {v.route} hold; "
              f"rate <= {numbers.decimal_up(v.epsilon_upper, 12)} (claim {spec.claim.epsilon}); "
              f"{time.perf_counter() - t0:.1f} s", file=out)
    return worst
