"""A call cache: one small JSON file per successful model call, keyed by the full request.

A paid call must never be repeated: a killed run resumes from what is on disk, and re-materialising an
asset finds every answer and judgment already stored. The key covers everything that can change the
response (endpoint, model, messages, parameters, attempt or judge run, response schema) and never the key.
Errors are not stored, so a rerun retries them. Files are written atomically, so a kill mid-write leaves
either the old state or the new file, never half a response.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def request_key(request: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of the request."""
    raw = json.dumps(request, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


class CallCache:
    """Files live at `<root>/<key[:2]>/<key>.json`; the two-letter fan-out keeps folders small."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None  # absent or unreadable: treat as a miss, the call is made again
        return data if isinstance(data, dict) else None

    def put(self, key: str, entry: Mapping[str, Any]) -> None:
        target = self.path(key)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh, ensure_ascii=False)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def __len__(self) -> int:
        if not self.root.exists():
            return 0
        return sum(1 for p in self.root.glob("*/*.json") if not p.name.startswith("."))  # skip temp files
