"""Errors that reach the user as one line (exit code 2), never as a traceback."""

from __future__ import annotations


class ConfigError(Exception):
    """A configuration or usage problem: names the file, the field and what is wrong."""

    def __init__(self, path: str, field: str, problem: str):
        self.path = str(path)
        self.field = field
        self.problem = problem
        super().__init__(self.line())

    def line(self) -> str:
        where = f"{self.path}: " if self.path else ""
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.problem}"


class FieldError(ValueError):
    """Raised inside validation helpers; the loader adds the file name and field path."""

    def __init__(self, problem: str, field: str = ""):
        self.problem = problem
        self.field = field
        super().__init__(problem)
