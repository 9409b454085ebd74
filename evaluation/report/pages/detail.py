"""A page per system (its cells) and a page per etalon (every system's answer, which failed, by which rule).

A lawyer checking a verdict needs the answer itself, the sources the etalon expects and whether the corpus holds
them, the citations the answer made and whether they exist, the points per component and the methodology's
rule that decided: all of it is here, escaped, since answers and etalon texts are untrusted text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from evaluation.report.boards import Board
from evaluation.report.common import (
    Column,
    Links,
    Row,
    number,
    page,
    rows,
    section,
    table,
    text,
    verdict_badge,
)
from evaluation.report.format import MIN_N, esc, interval, missing, num, pct, words
from evaluation.report.rules import deciding_rule, parse_components, parse_notes

ROOT = "../"


def _board_of(boards: Sequence[Board], benchmark: object, methodology: object) -> Board | None:
    return next((b for b in boards if b.benchmark == benchmark and b.methodology == methodology), None)


def _rule(score: Row, boards: Sequence[Board], error: str | None = None) -> str:
    board = _board_of(boards, score.get("benchmark"), score.get("methodology"))
    return deciding_rule(verdict=score.get("verdict"), score=score.get("score"), status=score.get("status"),
                         notes=parse_notes(score.get("notes")), bands=None if board is None else board.bands,
                         error=error)


def _errors(answers: pl.DataFrame) -> dict[tuple[str, str, int], str]:
    if answers.is_empty() or "error" not in answers.columns:
        return {}
    return {(str(r["system"]), str(r["code"]), int(r["attempt"])): str(r["error"])
            for r in rows(answers) if r.get("error")}


def system_page(system: str, scores: pl.DataFrame, boards: Sequence[Board], links: Links,
                etalons: Mapping[str, Row], answers: pl.DataFrame, info: Mapping[str, Any] | None) -> str:
    mine = scores.filter(pl.col("system") == system).sort("benchmark", "methodology", "code", "attempt")
    errors = _errors(answers.filter(pl.col("system") == system) if answers.height else answers)
    described = " · ".join(f"{k} {v}" for k, v in (info or {}).items()
                           if k in ("kind", "model", "base_url") and v and v != "-")
    parts = []
    for board in boards:
        cells = rows(mine.filter((pl.col("benchmark") == board.benchmark)
                                 & (pl.col("methodology") == board.methodology)))
        if not cells:
            continue
        summary = next((r for r in rows(board.table("leaderboard")) if r["system"] == system), None)
        head = ""
        if summary is not None and not missing(summary.get("mean_score")):
            count = int(summary.get("etalons") or summary.get("n") or 0)
            span = interval(summary.get("ci_low"), summary.get("ci_high"))
            head = (f"<p>Mean score on signed etalons <strong>{esc(num(summary['mean_score']))}</strong>"
                    + (f", 95% interval {esc(span)}" if span else "") + f", over {count} etalon(s)"
                    + (f" — fewer than {MIN_N}, too few to rank on" if count < MIN_N else "") + ".</p>")
        many = any(int(r.get("attempt") or 1) > 1 for r in cells)
        columns = [
            Column("Etalon", lambda r: links.etalon(r["code"], ROOT), source="code"),
            Column("Title", lambda r: esc((etalons.get(str(r["code"])) or {}).get("title")), source="title"),
            *([Column("Attempt", number("attempt"), True, "attempt")] if many else []),
            Column("Score", number("score"), True, "score"),
            Column("Verdict", lambda r: verdict_badge(r.get("verdict"), r.get("status")), source="verdict, status"),
            *([Column("Stated confidence", lambda r: esc(pct(r.get("confidence"))), True, "confidence")]
              if any(not missing(r.get("confidence")) for r in cells) else []),
            Column("Rule that decided", lambda r: esc(_rule(r, boards, errors.get(
                (system, str(r["code"]), int(r.get("attempt") or 1))))), source="notes"),
            Column("Signed", lambda r: "no (indicative)" if r.get("indicative") else "yes", source="indicative"),
        ]
        parts.append(section(board.anchor, f"Benchmark {board.title}", head + table(cells, columns, "cells"), 2))
    body = (f"<p class='note'>Every answer of this system on the current etalon versions, with its verdict and the "
            f"rule of the methodology that decided it. Etalon pages show the answer itself.</p>{''.join(parts)}")
    return page(f"System {system}", body, ROOT, described)


def etalon_page(code: str, etalon: Row, scores: pl.DataFrame, boards: Sequence[Board], links: Links,
                sources: pl.DataFrame, answers: pl.DataFrame, citations: pl.DataFrame,
                review: pl.DataFrame) -> str:
    facts = [("benchmark", etalon.get("benchmark")), ("methodology", etalon.get("methodology")),
             ("version", etalon.get("version")), ("status", _status(etalon)),
             ("jurisdiction", etalon.get("jurisdiction")), ("branch", etalon.get("branch")),
             ("difficulty", etalon.get("difficulty")), ("type", etalon.get("type")),
             ("author", etalon.get("author")), ("file", etalon.get("file"))]
    body = "<dl class='passport'>" + "".join(
        f"<dt>{esc(k)}</dt><dd>{esc(num(v))}</dd>" for k, v in facts if v is not None) + "</dl>"
    if etalon.get("question"):
        body += section("question", "The case", f"<div class='answer'>{esc(etalon['question'])}</div>", 2)
    body += section("sources", "Sources the answer should cite", _sources(sources), 2)
    mine = rows(scores.filter(pl.col("code") == code).sort("system", "attempt")) if scores.height else []
    answers_by = {(str(r["system"]), int(r["attempt"])): r for r in rows(answers.filter(pl.col("code") == code))} \
        if answers.height else {}
    parts = []
    for score in mine:
        key = (str(score["system"]), int(score.get("attempt") or 1))
        answer = answers_by.get(key)
        parts.append(_answer_block(score, answer, boards, links, _of_cell(citations, *key, code),
                                   _of_cell(review, *key, code)))
    body += section("answers", "Answers", "".join(parts) or "<p class='note'>No system has answered it yet.</p>", 2)
    return page(f"Etalon {code}", body, ROOT, str(etalon.get("title") or ""))


def _status(etalon: Row) -> str:
    if etalon.get("status") == "signed":
        return f"signed by {etalon.get('signed_by')} at {etalon.get('signed_at')}"
    if etalon.get("status") == "pool":
        return "not signed (pool): its scores are indicative and kept out of the ranking"
    return str(etalon.get("status"))


def _of_cell(frame: pl.DataFrame, system: str, attempt: int, code: str) -> list[dict[str, Any]]:
    if frame.is_empty() or not {"system", "code", "attempt"} <= set(frame.columns):
        return []
    return rows(frame.filter((pl.col("system") == system) & (pl.col("code") == code)
                             & (pl.col("attempt") == attempt)))


def _sources(sources: pl.DataFrame) -> str:
    if sources.is_empty():
        return "<p class='note'>The etalon lists no sources.</p>"
    ordered = sources.sort("idx") if "idx" in sources.columns else sources
    return table(rows(ordered), [
        Column("Citation", text("citation"), source="citation"),
        Column("Priority", text("priority"), source="priority", word=True),
        Column("Condition", text("condition"), source="condition"),
        Column("In the corpus", lambda r: esc(r.get("status")) + (f" ({esc(r['reason'])})" if r.get("reason")
                                                                  else ""), source="status, reason"),
    ], "sources")


def _answer_block(score: Row, answer: Row | None, boards: Sequence[Board], links: Links,
                  citations: list[dict[str, Any]], open_items: list[dict[str, Any]]) -> str:
    system = str(score["system"])
    attempt = int(score.get("attempt") or 1)
    error = (answer or {}).get("error")
    rule = _rule(score, boards, error)
    head = (f"<h3>{links.system(system, ROOT)}{esc(f' · attempt {attempt}' if attempt > 1 else '')} "
            f"{verdict_badge(score.get('verdict'), score.get('status'))}</h3>"
            f"<p>Score <strong>{esc(num(score.get('score')))}</strong> — <span class='rule'>{esc(rule)}</span></p>")
    components = parse_components(score.get("components"))
    if components:
        head += table([{"name": words(k), "points": v} for k, v in components.items()], [
            Column("Component", text("name")), Column("Points", number("points"), True)], "components")
    if open_items:
        head += "<p>Waiting for a human:</p><ul class='notes'>" + "".join(
            f"<li>{esc(i.get('target'))}: {esc(i.get('why'))}</li>" for i in open_items) + "</ul>"
    notes = parse_notes(score.get("notes"))
    if notes:
        opened = "" if score.get("verdict") == "positive" else " open"
        head += (f"<details{opened}><summary>How it was scored ({len(notes)} notes)</summary><ul class='notes'>"
                 + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul></details>")
    if citations:
        head += "<details><summary>Citations in the answer</summary>" + table(citations, [
            Column("As written", text("text"), source="text"),
            Column("Act", text("act"), source="act"),
            Column("Article", text("article"), source="article"),
            Column("In the corpus", text("status"), source="status"),
            Column("Where", lambda r: "in the text" if r.get("in_text") else "in the sources list",
                   source="in_text"),
        ], "citations") + "</details>"
    if answer is not None and answer.get("text"):
        opened = " open" if score.get("verdict") == "negative" else ""
        head += (f"<details{opened}><summary>The answer</summary><div class='answer'>{esc(answer['text'])}</div>"
                 "</details>")
    elif error:
        head += f"<p class='warn'>The call failed: {esc(error)}</p>"
    return f"<article class='cell'>{head}</article>"
