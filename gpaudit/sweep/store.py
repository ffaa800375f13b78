"""Finished points on disk, so that an interrupted sweep resumes where it stopped.

Each finished point is written atomically as ``DIR/points/<key>.json`` (its record: the full JSON
report of the check, the evidence, the papers' constants) beside ``DIR/points/<key>.yaml`` (the
configuration it checked: ``gpaudit check`` on that file gives the same result). The key
(:func:`gpaudit.sweep.points.point_key`) covers the configuration's sha256, the seed, the effort,
``--full-evidence`` and the code that checked it, so a point is reused only where its result
cannot have changed, whatever grid it was first computed for. Only completed checks are kept: a
configuration error or an internal error (a killed worker, say) is tried again on the next run.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..report.json_report import write_atomic


class PointStore:
    def __init__(self, directory):
        self.dir = Path(directory)

    def _json(self, key: str) -> Path:
        return self.dir / f"{key}.json"

    def load(self, key: str) -> dict | None:
        """The record stored under `key`, or None (missing, unreadable or not a finished check)."""
        try:
            rec = json.loads(self._json(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(rec, dict) or rec.get("key") != key or rec.get("kind") != "result":
            return None
        return rec

    def save(self, key: str, rec: dict, text: str, values: dict) -> bool:
        """Keep a finished check (True), or nothing for an error (False)."""
        if rec.get("kind") != "result":
            return False
        self.dir.mkdir(parents=True, exist_ok=True)
        write_atomic(self.dir / f"{key}.yaml", text.encode("utf-8"))
        rec = dict(rec, key=key, values=values)
        write_atomic(self._json(key), (json.dumps(rec, indent=1) + "\n").encode("utf-8"))
        return True

    def relative(self, key: str, root) -> str | None:
        """The point's file relative to `root` (the output directory), None when it is elsewhere
        (a temporary store, as for the catalog's sweeps)."""
        try:
            return self._json(key).resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            return None
