"""Errors that reach the user as one line (exit code 2), never as a traceback."""

from __future__ import annotations


class ConfigError(Exception):
    """A configuration or usage problem: names the file, the field and what is wrong."""

    def __init__(self, path: str, field: str, problem: str, lineno: int | None = None):
        self.path = str(path)
        self.field = field
        self.problem = problem
        self.lineno = lineno  # the 1-based line of the field in the file, when it is known
        super().__init__(self.line())

    def line(self) -> str:
        """``FILE:LINE: field: problem`` (``FILE: field: problem`` when the line is unknown)."""
        if self.path and self.lineno:
            where = f"{self.path}:{self.lineno}: "
        else:
            where = f"{self.path}: " if self.path else ""
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.problem}"


def did_you_mean(word, choices) -> str:
    """"; did you mean 'family'?" for the closest of ``choices`` to a misspelt ``word`` (difflib), else ''."""
    import difflib
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, sorted(map(str, choices)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class FieldError(ValueError):
    """Raised inside validation helpers; the loader adds the file name and field path."""

    def __init__(self, problem: str, field: str = ""):
        self.problem = problem
        self.field = field
        super().__init__(problem)


class RunOutOfTime(KeyboardInterrupt):
    """The run's watchdog went off (gpaudit.check.RUN_WATCHDOG_SECONDS): a loop that does not end, in a
    user's callable or anywhere else.  A KeyboardInterrupt, so that every handler that lets Ctrl-C
    through lets it through too (a callable's exception is otherwise a finding); check_spec turns it
    into an unknown result."""


class StageOutOfTime(KeyboardInterrupt):
    """The proof stage's own wall clock went off (gpaudit.prove.engine.STAGE_SECONDS and its grace) in
    work no step count bounds: sympy's differentiation and simplification of a large expression.  A
    KeyboardInterrupt for the same reason as RunOutOfTime; the proof stage turns it into unknown
    checks that say so."""


class UserCodeError(Exception):
    """A user's Python callable raised (any exception but KeyboardInterrupt, SystemExit included)
    or returned something that is not a real number.  The check of that one file ends with verdict
    unknown and a ``user_code`` check; gpaudit itself carries on."""

    def __init__(self, name: str, ref: str, x, exc: BaseException):
        self.name = name          # "f" or "B"
        self.ref = ref            # "module:function" as written in the configuration
        self.x = list(x)          # the input that raised
        self.exc = exc
        super().__init__(self.detail())

    def detail(self) -> str:
        return f"{self.name} raised {short_repr(self.exc)} at x = [{', '.join(number_text(v) for v in self.x)}] ({self.ref})"


def number_text(v) -> str:
    try:
        fv = float(v)
        if fv == v:
            return repr(fv)
    except (TypeError, ValueError, OverflowError):
        pass
    return str(v)


def short_repr(exc: BaseException, limit: int = 300) -> str:
    text = repr(exc)
    return text if len(text) <= limit else text[:limit] + "...)"
