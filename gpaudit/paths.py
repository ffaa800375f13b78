"""The configuration files a command works on: FILE arguments with directories expanded."""

from __future__ import annotations

import os

YAML_SUFFIXES = (".yaml", ".yml")


def expand_files(paths, errors: list) -> list:
    """FILE arguments with each directory replaced by the *.yaml / *.yml files under it, recursively,
    in sorted path order (hidden files and directories skipped); files given explicitly keep their
    place.  A file reached twice (a directory and a file in it, or two overlapping directories)
    is checked once, at its first place.  A directory without one is an error line appended to
    `errors`."""
    files = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        found, unreadable = [], []
        for root, dirs, names in os.walk(path, onerror=unreadable.append):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            found += [os.path.join(root, n) for n in names
                      if n.endswith(YAML_SUFFIXES) and not n.startswith(".")]
        for err in unreadable:
            errors.append(f"{err.filename or path}: cannot read directory ({err.strerror or err})")
        if not found and not unreadable:
            errors.append(f"{path}: no *.yaml or *.yml file in this directory or below it")
        files += sorted(found, key=lambda f, top=path: os.path.relpath(f, top).split(os.sep))
    seen, unique = set(), []
    for f in files:
        key = os.path.realpath(f)
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique
