"""The settings every connector's sources.yaml entry takes, checked key by key.

A connector's `settings` function turns the entry into its options (the values as written, checked) or raises
:class:`SettingsError` naming the key; corpus.sources adds the file and the key's line. Common to every
connector: `base_url` (where the service is; tests point it at a loopback server), `rate` (requests a second per
host), `retries`, `timeout` and `deadline` (seconds), `max_wait` (the longest Retry-After honoured, seconds),
`every` (hours between fetches the sensor asks for) and `retry_failed_after` (hours before a fetch with
failures is tried again). Credentials are never written in the file: a key such as `token_env` names the
environment variable that holds them.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus.remote.http import Policy
from corpus.remote.mirror import FetchResult

COMMON = ("base_url", "rate", "retries", "timeout", "deadline", "max_wait", "every", "retry_failed_after")


class SettingsError(ValueError):
    """A bad value of one key of a connector's entry: `key` is where it is, the message what was expected."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key


@dataclass(frozen=True)
class Connector:
    """One official service as a kind of source: its keys, how its entry is checked, how a run fetches it.

    `settings`: the entry (name, kind and priority removed) -> the options kept on the Source; `fetch`: (options,
    mirror folder, source name) -> what it stored; `base_url`: the service's own address (the default)."""

    name: str
    keys: tuple[str, ...]
    settings: Callable[[Mapping[str, Any]], dict[str, Any]]
    fetch: Callable[[Mapping[str, Any], Path, str], FetchResult]
    base_url: str


def common(item: Mapping[str, Any], default_base: str) -> dict[str, Any]:
    """The common keys, checked; `base_url` filled with the service's own address when not given."""
    out: dict[str, Any] = {"base_url": url(item, "base_url", default_base)}
    for key, minimum in (("rate", 0.0), ("timeout", 0.1), ("deadline", 1.0), ("max_wait", 0.0), ("every", 0.0),
                         ("retry_failed_after", 0.0)):
        if key in item:
            out[key] = number(item, key, minimum)
    if "retries" in item:
        out["retries"] = whole(item, "retries", 0, 20)
    return out


def policy(options: Mapping[str, Any]) -> Policy:
    base = Policy()
    return Policy(rate=float(options.get("rate", base.rate)), retries=int(options.get("retries", base.retries)),
                  max_wait=float(options.get("max_wait", base.max_wait)),
                  timeout=float(options.get("timeout", base.timeout)),
                  deadline=float(options.get("deadline", base.deadline)))


def url(item: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = item.get(key, default)
    if not isinstance(value, str) or not re.match(r"^https?://[^/\s]+", value):
        raise SettingsError(key, f"expected an http(s) URL, got {value!r}")
    return value.rstrip("/")


def number(item: Mapping[str, Any], key: str, minimum: float) -> float:
    value = item.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise SettingsError(key, f"expected a number of at least {minimum:g}, got {value!r}")
    return float(value)


def whole(item: Mapping[str, Any], key: str, minimum: int, maximum: int, default: int | None = None) -> int:
    value = item.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise SettingsError(key, f"expected a whole number from {minimum} to {maximum}, got {value!r}")
    return value


def text(item: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    value = item.get(key, default)
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise SettingsError(key, f"expected a non-empty string, got {value!r}")
    return value


def choice(item: Mapping[str, Any], key: str, allowed: tuple[str, ...], default: str) -> str:
    value = item.get(key, default)
    if value not in allowed:
        raise SettingsError(key, f"expected one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def listed(item: Mapping[str, Any], key: str, check: Callable[[Any], bool], what: str, *,
           required: bool = False) -> list[Any]:
    """A list of values each passing `check` (`what` says what one is); empty when absent unless required."""
    if key not in item:
        if required:
            raise SettingsError(key, f"required: a list of {what}")
        return []
    value = item[key]
    if not isinstance(value, list) or (required and not value):
        raise SettingsError(key, f"expected a{' non-empty' if required else ''} list of {what}, got {value!r}")
    for i, v in enumerate(value):
        if not check(v):
            raise SettingsError(f"{key}[{i}]", f"expected {what}, got {v!r}")
    return list(value)


def day(item: Mapping[str, Any], key: str) -> str | None:
    """A date (YAML reads 2026-11-01 as a date; a string of that form is taken too), as ISO text."""
    value = item.get(key)
    if value is None:
        return None
    if isinstance(value, datetime.date):
        return value.isoformat()[:10]
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise SettingsError(key, f"expected a date (YYYY-MM-DD), got {value!r}")


def env_name(item: Mapping[str, Any], key: str) -> str | None:
    """The name of an environment variable holding a secret (never the secret itself)."""
    value = item.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value):
        raise SettingsError(key, f"expected the name of an environment variable (the secret stays in the "
                            f"environment, never in this file), got {value!r}")
    return value


def secret(options: Mapping[str, Any], key: str) -> str | None:
    """The secret the environment variable named by `key` holds, read when a run starts."""
    name = options.get(key)
    return os.environ.get(str(name)) if name else None
