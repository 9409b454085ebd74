"""Asking a system under test: one stored answer per (question version, system, attempt).

Only the case goes out. The request is built from the question and the system's own prompt and
parameters, nothing else of the etalon (reference answer, sources, gross errors, canary), so a system
cannot be graded on what it was shown, and the cache key depends on the question alone: a new etalon
version with an unchanged question reuses the stored answer, a changed question asks again.

Whatever the endpoint does, `ask` returns an Answer: a failed call, a reply of the wrong shape, an
oversized or timed-out reply, or an empty text is an `error` answer with its reason (the client's, with
keys scrubbed), never an exception and never a cached success, so a rerun asks that one cell again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from etalons.model import Etalon
from evaluation.client import CallResult, ModelClient
from evaluation.confidence import reported_confidence
from evaluation.records import Answer
from evaluation.systems import SystemConfig
from evaluation.version import code_version


def messages_for(system: SystemConfig, etalon: Etalon) -> list[dict[str, str]]:
    """What the system under test receives: its system prompt, then the case as a client puts it."""
    messages = []
    if system.system_prompt:
        messages.append({"role": "system", "content": system.system_prompt})
    messages.append({"role": "user", "content": etalon.question})
    return messages


def params_for(system: SystemConfig, attempt: int) -> dict[str, Any]:
    """Attempts are independent samples: a configured seed is shifted by the attempt number."""
    return system.params_for(attempt)


def ask(system: SystemConfig, etalon: Etalon, attempt: int, client: ModelClient, benchmark: str) -> Answer:
    if system.kind != "openai":
        raise ValueError(f"system {system.id!r} is of kind {system.kind!r}: its answers are imported")
    if not 1 <= attempt <= system.attempts:
        raise ValueError(f"attempt {attempt} outside 1..{system.attempts} for system {system.id!r}")
    messages = messages_for(system, etalon)
    params = params_for(system, attempt)
    result = client.call(system, messages, params=params, tag={"purpose": "answer", "attempt": attempt},
                         accept=_usable)
    return _answer(system, etalon, attempt, benchmark, messages, params, result)


def _usable(content: str) -> str | None:
    """An empty reply is no answer: an error, not cached, asked again by the next run."""
    return None if content.strip() else "the endpoint returned an empty answer"


def ask_all(system: SystemConfig, etalons: Sequence[Etalon], client: ModelClient, benchmark: str) -> list[Answer]:
    """Every attempt of every etalon, concurrently (bounded by the system's concurrency and rpm)."""
    jobs = [(e, a) for e in etalons for a in range(1, system.attempts + 1)]
    return client.map(lambda job: ask(system, job[0], job[1], client, benchmark), jobs,
                      workers=max(1, system.concurrency))


def _answer(system: SystemConfig, etalon: Etalon, attempt: int, benchmark: str,
            messages: list[dict[str, str]], params: dict[str, Any], result: CallResult) -> Answer:
    text = result.content if isinstance(result.content, str) else ""
    error = result.error
    if result.ok and not text.strip():
        error = "the endpoint returned an empty answer"
    ok = result.ok and error is None
    text, confidence = reported_confidence(system.confidence, text, result.raw) if ok else (text, None)
    cost = system.price.cost(result.tokens_in, result.tokens_out) if ok else None
    created = result.created_at or datetime.now(UTC).isoformat(timespec="seconds")
    passport = {
        "system": system.id,
        "model": system.model,
        "answered_by": result.model,
        "endpoint": system.base_url,
        "prompt_hash": _hash(messages),
        "system_prompt_hash": _hash(system.system_prompt or ""),
        "params": params,
        "attempt": attempt,
        "date": created,
        "latency_ms": result.latency_ms,
        "tokens_in": result.tokens_in,
        "tokens_out": result.tokens_out,
        "cost": cost,
        "cached": result.cached,
        "request_key": result.key,
        "code_version": code_version(),
    }
    return Answer(
        system=system.id, benchmark=benchmark, code=etalon.code, version=etalon.version,
        question_version=etalon.question_version, attempt=attempt, text=text if ok else "",
        status="ok" if ok else "error", error=None if ok else error,
        tokens_in=result.tokens_in, tokens_out=result.tokens_out, latency_ms=result.latency_ms, cost=cost,
        confidence=confidence, created_at=created, passport=json.dumps(passport, ensure_ascii=False, sort_keys=True),
    )


def _hash(data: object) -> str:
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]
