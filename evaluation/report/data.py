"""What the report reads, and the only place it reads it: the analysts' views of the catalog.

The report shows the numbers analysts get from `eval.*`, `bench.*` and `corpus.*`, through the same views, so
the page and a SQL query can never disagree and the lake's layout underneath may change freely. Only the
key columns and the documented extra ones of docs/views.md are relied on; a view that lacks an optional
column simply leaves that detail out of the page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import duckdb
import polars as pl

from warehouse.catalog import query

ANALYTICS_VIEWS = ("leaderboard", "slices", "paired", "pass_at_k", "calibration", "judge_agreement",
                   "judge_disagreements", "leaderboard_corrected", "judge_error")


@dataclass(frozen=True)
class ReportData:
    """Everything the pages show, as frames named after the views they come from."""

    scores: pl.DataFrame                       # eval.scores, current etalon versions only
    views: dict[str, pl.DataFrame]             # eval.leaderboard, eval.slices, ... as the analytics wrote them
    etalons: pl.DataFrame = field(default_factory=pl.DataFrame)    # bench.etalons
    sources: pl.DataFrame = field(default_factory=pl.DataFrame)    # bench.sources
    answers: pl.DataFrame = field(default_factory=pl.DataFrame)    # eval.answers of the current questions
    citations: pl.DataFrame = field(default_factory=pl.DataFrame)  # eval.citations of those answers
    review: pl.DataFrame = field(default_factory=pl.DataFrame)     # eval.review: what waits for a human
    lawyers: pl.DataFrame = field(default_factory=pl.DataFrame)    # agreement between lawyers (lawyers_agreement)
    judgments: int = 0                          # rows in eval.judgments
    decisions: int = 0                          # rows in eval.decisions
    judge_models: tuple[str, ...] = ()
    overrides: Mapping[str, Mapping[str, Any]] | None = None  # per benchmark; None: not exposed, not guessed
    passport: Mapping[str, Any] = field(default_factory=dict)

    def view(self, name: str) -> pl.DataFrame:
        return self.views.get(name, pl.DataFrame())


def _try(con: duckdb.DuckDBPyConnection, sql: str) -> pl.DataFrame:
    """A view that is missing (an older catalog, a table not yet produced) is an empty frame, not a crash."""
    try:
        return query(con, sql)
    except duckdb.Error:
        return pl.DataFrame()


def read(con: duckdb.DuckDBPyConnection) -> ReportData:
    views = {name: _try(con, f"SELECT * FROM eval.{name}") for name in ANALYTICS_VIEWS}
    answers = _try(con, """
        SELECT a.system, a.code, a.version, a.attempt, a.text, a.status, a.error
        FROM eval.answers a JOIN bench.etalons e ON a.code = e.code AND a.question_version = e.question_version""")
    citations = _try(con, """
        SELECT c.* FROM eval.citations c
        JOIN eval.answers a USING (system, code, version, attempt)
        JOIN bench.etalons e ON a.code = e.code AND a.question_version = e.question_version""")
    # Only targets two different people reviewed can show agreement: the rest of the log is not read.
    reviewed_twice = _try(con, """
        SELECT d.* FROM eval.decisions d JOIN (
            SELECT system, code, version, attempt, target FROM eval.decisions
            WHERE revoked_at IS NULL AND coalesce(kind, 'decision') = 'decision' GROUP BY ALL
            HAVING count(DISTINCT lower(trim(decided_by))) >= 2) USING (system, code, version, attempt, target)""")
    counts = _try(con, "SELECT (SELECT count(*) FROM eval.judgments) AS j, (SELECT count(*) FROM eval.decisions) AS d")
    models = _try(con, "SELECT DISTINCT judge_model FROM eval.judgments WHERE judge_model IS NOT NULL ORDER BY 1")
    return ReportData(
        scores=_try(con, "SELECT * FROM eval.scores WHERE is_current"),
        views=views,
        etalons=_try(con, "SELECT * FROM bench.etalons"),
        sources=_try(con, "SELECT * FROM bench.sources"),
        answers=answers,
        citations=citations,
        review=_try(con, "SELECT * FROM eval.review"),
        lawyers=lawyers_agreement(reviewed_twice),
        judgments=int(counts["j"][0]) if counts.height else 0,
        decisions=int(counts["d"][0]) if counts.height else 0,
        judge_models=tuple(models["judge_model"].to_list()) if models.height else (),
        overrides=_overrides(con),
    )


_REQUIRED = ("decision_id", "system", "code", "version", "target", "decision", "decided_by", "decided_at")


def lawyers_agreement(decisions: pl.DataFrame) -> pl.DataFrame:
    """Agreement between lawyers per element kind, from rows of `eval.decisions`, by the same function the
    workbench uses (`evaluation.review.lawyer_agreement`): units two or more lawyers reviewed independently,
    the share on which they all agree, Cohen's kappa and Krippendorff's alpha. Empty when no target has two."""
    from evaluation.records import Decision
    from evaluation.review import lawyer_agreement

    if decisions.is_empty():
        return pl.DataFrame()
    names = {f.name for f in fields(Decision)}
    records = []
    for row in decisions.iter_rows(named=True):
        values: dict[str, Any] = {k: ("" if v is None and k in _REQUIRED else v) for k, v in row.items()
                                  if k in names}
        values.update({k: "" for k in _REQUIRED if k not in values})
        values["kind"] = values.get("kind") or "decision"
        values["attempt"] = int(values.get("attempt") or 1)
        records.append(Decision(**values))
    found = lawyer_agreement(records)
    return pl.DataFrame([asdict(r) for r in found]) if found else pl.DataFrame()


def _overrides(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, Any]] | None:
    """Each benchmark's scoring overrides (thresholds decide verdicts): from `bench.benchmarks` where the
    catalog has it, else from the raw table behind it; None when neither exists, so no bound is guessed."""
    for view in ("bench.benchmarks", "raw.benchmarks"):
        frame = _try(con, f"SELECT * FROM {view}")
        if frame.height or "thresholds" in frame.columns:
            out: dict[str, dict[str, Any]] = {}
            for row in frame.iter_rows(named=True):
                settings = {}
                for key in ("weights", "thresholds", "partial_credit", "penalty"):
                    value = row.get(key)
                    if isinstance(value, str) and value:
                        settings[key] = json.loads(value)
                out[str(row.get("id"))] = settings
            return out
    return None


def passport(con: duckdb.DuckDBPyConnection, systems: Mapping[str, Any]) -> dict[str, Any]:
    """What a reader needs to trust the numbers: which etalons, which systems, which judge, when, at what cost."""
    from evaluation.engine.stages.judgments import _prompt_files_hash

    etalons = _try(con, "SELECT benchmark, status, count(*) AS n FROM bench.etalons GROUP BY ALL ORDER BY ALL")
    versions = _try(con, "SELECT benchmark, string_agg(code || ':' || version, ',' ORDER BY code) AS v "
                         "FROM bench.etalons GROUP BY benchmark ORDER BY benchmark")
    spend = _try(con, "SELECT system, count(*) AS answers, sum(tokens_in) AS tokens_in, "
                      "sum(tokens_out) AS tokens_out, sum(cost) AS cost, min(created_at) AS first, "
                      "max(created_at) AS last FROM eval.answers GROUP BY system ORDER BY system")
    return {
        "benchmarks": {
            row["benchmark"]: {"version": hashlib.sha256(row["v"].encode()).hexdigest()[:12]}
            for row in versions.iter_rows(named=True)
        },
        "etalons": {f"{r['benchmark']} {r['status']}": r["n"] for r in etalons.iter_rows(named=True)},
        "systems": dict(systems),
        "judge prompts": _prompt_files_hash()[:12],
        "answers and spend": {r["system"]: {k: r[k] for k in ("answers", "tokens_in", "tokens_out", "cost",
                                                              "first", "last")}
                              for r in spend.iter_rows(named=True)},
        "generated": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def from_scores(
    scores: pl.DataFrame,
    *,
    judgments: pl.DataFrame | None = None,
    decisions: pl.DataFrame | None = None,
    passport: Mapping[str, Any] | None = None,
    **frames: pl.DataFrame,
) -> ReportData:
    """The report's data from a scores table (and judgments, decisions) without a warehouse: the analytics
    are computed as the pipeline computes them, the other views default to what the scores imply."""
    from evaluation import analytics

    views = {
        "leaderboard": analytics.leaderboard(scores),
        "slices": analytics.slices(scores),
        "paired": analytics.paired(scores),
        "pass_at_k": analytics.pass_at_k(scores),
        "calibration": analytics.calibration(scores),
    }
    if judgments is not None and decisions is not None:
        views["judge_agreement"] = analytics.judge_agreement(judgments, decisions)
        views["judge_disagreements"] = analytics.disagreements(judgments, decisions)
    etalons = frames.pop("etalons", None)
    if etalons is None and scores.height:
        etalons = scores.group_by("benchmark", "code", maintain_order=True).agg(
            pl.col("version").last(), pl.col("methodology").last(),
            pl.when(pl.col("indicative").any()).then(pl.lit("pool")).otherwise(pl.lit("signed")).alias("status"))
    if decisions is not None and "lawyers" not in frames:
        frames["lawyers"] = lawyers_agreement(decisions)
    models = () if judgments is None or judgments.is_empty() else tuple(
        sorted({str(m) for m in judgments["judge_model"].to_list() if m is not None}))
    return ReportData(
        scores=scores, views=views, etalons=pl.DataFrame() if etalons is None else etalons, judgments=0 if judgments is None else judgments.height,
        decisions=0 if decisions is None else decisions.height, judge_models=models, overrides={},
        passport=dict(passport or {}), **frames)
