"""Sealing signature events, so that only `etalon sign` (or the workbench) can make one count.

A seal is an HMAC-SHA256 over the fields that make a signature (benchmark, code, version, signer, time, how the
signer was identified, the snapshot of its sources), keyed with a secret that never lives in the lake:
`ETALON_SIGNING_KEY` from the environment, else `$ETALON_HOME/keys/signing.key` (created on first use, 0600).
A Parquet file written into the lake by hand has no valid seal and is refused.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

KEY_ENV = "ETALON_SIGNING_KEY"
SEALED = ("benchmark", "code", "version", "signed_by", "signed_at", "via", "sources")


def key_file(home_root: Path) -> Path:
    return home_root / "keys" / "signing.key"


def signing_key(home_root: Path, create: bool = False) -> bytes | None:
    """The key: the environment's, else the warehouse's key file (made when `create`), else None."""
    env = os.environ.get(KEY_ENV)
    if env:
        return env.encode("utf-8")
    path = key_file(home_root)
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        if not create:
            return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(secrets.token_hex(32).encode("ascii"))
    return path.read_bytes().strip()


def _message(record: Mapping[str, Any]) -> bytes:
    return json.dumps([record.get(k) for k in SEALED], ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def seal(record: Mapping[str, Any], key: bytes) -> str:
    return hmac.new(key, _message(record), hashlib.sha256).hexdigest()


def verify_signatures(rows: Iterable[Mapping[str, Any]], key: bytes | None
                      ) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
    """(valid rows, [(rejected row, why)]): a row counts only when its seal is the HMAC of its fields."""
    valid: list[dict[str, Any]] = []
    rejected: list[tuple[dict[str, Any], str]] = []
    for row in rows:
        data = dict(row)
        given = str(data.get("seal") or "")
        if key is None:
            rejected.append((data, "no signing key in this warehouse (ETALON_SIGNING_KEY or keys/signing.key)"))
        elif not given:
            rejected.append((data, "not sealed: written outside `etalon sign`"))
        elif not hmac.compare_digest(given, seal(data, key)):
            rejected.append((data, "the seal does not match its fields (forged or altered)"))
        else:
            valid.append(data)
    return valid, rejected
