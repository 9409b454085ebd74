"""Answers produced elsewhere: Etalon JSON Lines, Inspect AI logs, promptfoo output.

Etalon JSON Lines, one answer per line:
  {"code": "NAS-01", "text": "...", "sources": ["ст. 1152 ГК РФ"], "attempt": 1, "confidence": 0.8}
`sources` (the answer's own list of sources), `attempt` (default 1) and `confidence` (the system's probability,
from 0 to 1, that the answer is right; it feeds eval.calibration) are optional.

Teams already run evaluation tools; bringing their answers in must not need a re-run. Bad lines do not
stop an import: each is reported with the file, the line (or sample), the field and what was expected, and
the rest goes on. An answer is matched to the current version of its etalon's question.

Mapping a foreign sample to an etalon code, first match wins:
  Inspect AI  - sample.metadata["etalon_code"] or ["code"]; else sample.id when it is a code, or a code
                followed by "#", ":" or "/" (e.g. "NAS-01#2"). attempt = sample.epoch (default 1).
                Text: output.completion, else the first choice's message content. Model: eval.model.
  promptfoo   - testCase.metadata / metadata / vars, key "etalon_code" or "code"; attempt from the same
                places (key "attempt"), else 1. Text: response.output. A row with "error" is an error answer.
"""

from __future__ import annotations

import json
import math
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from etalons.model import Etalon
from evaluation.records import Answer
from evaluation.version import code_version


@dataclass(frozen=True)
class ImportIssue:
    file: str
    line: str                 # "12" for JSON Lines, "sample NAS-01#2" for tool logs
    field: str | None
    expected: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where}: {self.field}: expected {self.expected}" if self.field else f"{where}: expected {self.expected}"


@dataclass(frozen=True)
class ImportResult:
    answers: list[Answer] = field(default_factory=list)
    errors: list[ImportIssue] = field(default_factory=list)


@dataclass(frozen=True)
class _Row:
    where: str
    code: Any
    text: Any
    attempt: Any = 1
    sources: Any = ()
    error: str | None = None
    model: str | None = None
    confidence: Any = None


def import_answers(path: Path | str, system: str, etalons: Mapping[str, Etalon], benchmark: str) -> ImportResult:
    """Detects the format: .jsonl -> Etalon JSON Lines, .eval -> Inspect AI, .json -> Inspect or promptfoo."""
    path = Path(path)
    if path.suffix == ".eval":
        return import_inspect(path, system, etalons, benchmark)
    if path.suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            return ImportResult(errors=[ImportIssue(str(path), "1", None, f"a JSON document ({exc})")])
        if isinstance(data, dict) and "samples" in data:
            return import_inspect(path, system, etalons, benchmark)
        return import_promptfoo(path, system, etalons, benchmark)
    return import_jsonl(path, system, etalons, benchmark)


def import_jsonl(path: Path | str, system: str, etalons: Mapping[str, Etalon], benchmark: str) -> ImportResult:
    path = Path(path)
    rows: list[_Row] = []
    errors: list[ImportIssue] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        return ImportResult(errors=[ImportIssue(str(path), "-", None, f"a readable UTF-8 file ({exc})")])
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as exc:
            errors.append(ImportIssue(str(path), str(n), None, f"one JSON object per line ({exc.args[0]})"))
            continue
        if not isinstance(obj, dict):
            errors.append(ImportIssue(str(path), str(n), None, "a JSON object"))
            continue
        rows.append(_Row(str(n), obj.get("code"), obj.get("text"), obj.get("attempt", 1), obj.get("sources", ()),
                         confidence=obj.get("confidence")))
    return _finish(path, rows, errors, system, etalons, benchmark, "jsonl")


def import_inspect(path: Path | str, system: str, etalons: Mapping[str, Etalon], benchmark: str) -> ImportResult:
    path = Path(path)
    try:
        header, samples = _read_inspect(path)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        return ImportResult(errors=[ImportIssue(str(path), "-", None, f"an Inspect AI eval log ({exc})")])
    model = (header.get("eval") or {}).get("model")
    rows = []
    for sample in samples:
        meta = sample.get("metadata") or {}
        sid = str(sample.get("id", ""))
        code = meta.get("etalon_code") or meta.get("code") or _code_from_id(sid, etalons)
        output = sample.get("output") or {}
        text = output.get("completion") or _first_choice(output)
        error = sample.get("error")
        rows.append(_Row(f"sample {sid}#{sample.get('epoch', 1)}", code, text, sample.get("epoch", 1),
                         error=str(error.get("message", error)) if isinstance(error, dict) else error,
                         model=output.get("model") or model))
    return _finish(path, rows, [], system, etalons, benchmark, "inspect")


def import_promptfoo(path: Path | str, system: str, etalons: Mapping[str, Etalon], benchmark: str) -> ImportResult:
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        results = data["results"]["results"] if isinstance(data.get("results"), dict) else data["results"]
        if not isinstance(results, list):
            raise ValueError("'results' is not a list")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return ImportResult(errors=[ImportIssue(str(path), "-", "results", f"promptfoo output JSON ({exc})")])
    rows = []
    for i, r in enumerate(results, 1):
        places = [((r.get("testCase") or {}).get("metadata") or {}), r.get("metadata") or {}, r.get("vars") or {}]
        code = next((p[k] for p in places for k in ("etalon_code", "code") if p.get(k)), None)
        attempt = next((p["attempt"] for p in places if p.get("attempt") is not None), 1)
        response = r.get("response") or {}
        output = response.get("output")
        text = output if isinstance(output, str) or output is None else json.dumps(output, ensure_ascii=False)
        provider = r.get("provider") or {}
        model = provider.get("id") if isinstance(provider, dict) else str(provider)
        rows.append(_Row(f"result {i}", code, text, attempt, error=r.get("error") or response.get("error"),
                         model=model))
    return _finish(path, rows, [], system, etalons, benchmark, "promptfoo")


def _finish(path: Path, rows: Iterable[_Row], errors: list[ImportIssue], system: str,
            etalons: Mapping[str, Etalon], benchmark: str, fmt: str) -> ImportResult:
    answers: list[Answer] = []
    seen: dict[tuple[str, int], str] = {}
    now = datetime.now(UTC).isoformat(timespec="seconds")
    for row in rows:
        problem = _check(row, etalons)
        if problem is not None:
            errors.append(ImportIssue(str(path), row.where, problem[0], problem[1]))
            continue
        code, attempt = str(row.code), int(row.attempt)
        if (code, attempt) in seen:
            errors.append(ImportIssue(str(path), row.where, "attempt", f"one answer per code and attempt; "
                                      f"{code} attempt {attempt} already given at {seen[(code, attempt)]}"))
            continue
        seen[(code, attempt)] = row.where
        etalon = etalons[code]
        passport = {"source": "import", "format": fmt, "file": path.name, "line": row.where, "model": row.model,
                    "attempt": attempt, "date": now, "code_version": code_version()}
        answers.append(Answer(
            system=system, benchmark=benchmark, code=code, version=etalon.version,
            question_version=etalon.question_version, attempt=attempt, text=row.text or "",
            status="error" if row.error else "ok", error=str(row.error) if row.error else None,
            sources=tuple(row.sources), created_at=now, passport=json.dumps(passport, ensure_ascii=False),
            confidence=None if row.confidence is None else float(row.confidence)))
    return ImportResult(answers, errors)


def _check(row: _Row, etalons: Mapping[str, Etalon]) -> tuple[str, str] | None:
    if not isinstance(row.code, str) or not row.code:
        return "code", "the code of an etalon (a non-empty string)"
    if row.code not in etalons:
        return "code", f"the code of an etalon in this benchmark; {row.code!r} is unknown"
    if not row.error and (not isinstance(row.text, str) or not row.text.strip()):
        return "text", "the answer's text (a non-empty string)"
    if isinstance(row.attempt, bool) or not isinstance(row.attempt, int) or row.attempt < 1:
        return "attempt", "a whole number from 1"
    if not isinstance(row.sources, list | tuple) or not all(isinstance(s, str) for s in row.sources):
        return "sources", "a list of citation strings"
    if row.confidence is not None and not _probability(row.confidence):
        return "confidence", f"a probability from 0 to 1 (a number, or null), got {row.confidence!r}"
    return None


def _probability(value: Any) -> bool:
    return (isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
            and 0 <= value <= 1)


def _code_from_id(sample_id: str, etalons: Mapping[str, Etalon]) -> str | None:
    if sample_id in etalons:
        return sample_id
    for sep in ("#", ":", "/"):
        head = sample_id.split(sep, 1)[0]
        if head in etalons:
            return head
    return None


def _first_choice(output: Mapping[str, Any]) -> str | None:
    choices = output.get("choices") or []
    if not choices:
        return None
    content = (choices[0].get("message") or {}).get("content")
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else None


def _read_inspect(path: Path) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """A .json log holds everything; a .eval log is a zip of header.json and samples/*.json."""
    if path.suffix == ".json":
        data = json.loads(path.read_text(encoding="utf-8"))
        return data, iter(data.get("samples") or [])
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        header = json.loads(archive.read("header.json")) if "header.json" in names else {}
        samples = [json.loads(archive.read(n)) for n in sorted(names)
                   if n.startswith("samples/") and n.endswith(".json")]
    return header, iter(samples)
