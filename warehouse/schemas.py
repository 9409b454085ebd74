"""Declared schemas of the lake's tables.

Declaring them once keeps every partition file of a table in the same shape, so the analysts' views never break
on a partition written by an older run, and empty tables still have their columns.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

S, INT, F, B = pa.string(), pa.int64(), pa.float64(), pa.bool_()


@dataclass(frozen=True)
class TableSchema:
    name: str
    schema: pa.Schema

    def empty_table(self) -> pa.Table:
        return self.schema.empty_table()


def _t(name: str, *fields: tuple[str, pa.DataType]) -> TableSchema:
    return TableSchema(name, pa.schema([pa.field(n, t) for n, t in fields]))


_TABLES = [
    _t("corpus_documents", ("doc_id", S), ("jurisdiction", S), ("act", S), ("kind", S), ("title", S),
       ("number", S), ("date", S), ("issuer", S), ("court", S), ("version", S), ("status", S),
       ("content_hash", S), ("source", S), ("file", S), ("is_current", B), ("ingested_at", S)),
    _t("corpus_units", ("doc_id", S), ("version", S), ("act", S), ("article", S), ("path", S), ("kind", S),
       ("number", S), ("heading", S), ("text", S), ("ord", INT), ("status", S), ("context", S),
       ("is_current", B)),
    _t("ingest_errors", ("source", S), ("file", S), ("reason", S), ("detail", S), ("position", S), ("at", S)),
    _t("etalon_versions", ("benchmark", S), ("code", S), ("version", S), ("question_version", S),
       ("rubric_version", S), ("title", S), ("jurisdiction", S), ("branch", S), ("difficulty", INT),
       ("type", S), ("methodology", S), ("author", S), ("file", S), ("file_hash", S), ("content", S),
       ("first_seen", S), ("is_current", B), ("archived", B)),
    _t("etalon_sources", ("benchmark", S), ("code", S), ("version", S), ("idx", INT), ("citation", S),
       ("priority", S), ("condition", S), ("kind", S), ("act", S), ("article", S), ("article_to", S),
       ("part", S), ("court", S), ("number", S), ("point", S), ("status", S), ("reason", S),
       ("corpus_version", S)),
    _t("etalon_errors", ("file", S), ("line", INT), ("field", S), ("message", S), ("at", S)),
    _t("signatures", ("benchmark", S), ("code", S), ("version", S), ("signed_by", S), ("signed_at", S),
       ("via", S)),
    _t("answers", ("system", S), ("benchmark", S), ("code", S), ("version", S), ("question_version", S),
       ("attempt", INT), ("text", S), ("sources", S), ("status", S), ("error", S), ("tokens_in", INT),
       ("tokens_out", INT), ("latency_ms", F), ("cost", F), ("created_at", S), ("passport", S)),
    _t("imported_answers", ("system", S), ("code", S), ("attempt", INT), ("text", S), ("sources", S),
       ("question_version", S), ("file", S), ("line", S), ("imported_at", S)),
    _t("benchmarks", ("id", S), ("name", S), ("methodology", S), ("canary", S), ("weights", S),
       ("thresholds", S), ("path", S), ("reviewers", INT)),
    _t("candidates", ("system", S), ("code", S), ("version", S), ("attempt", INT), ("element", S), ("kind", S),
       ("text", S), ("detail", S)),
    _t("citations", ("system", S), ("code", S), ("version", S), ("attempt", INT), ("start", INT), ("end", INT),
       ("text", S), ("kind", S), ("jurisdiction", S), ("act", S), ("act_text", S), ("article", S),
       ("article_to", S), ("part", S), ("court", S), ("number", S), ("date", S), ("year", S), ("point", S),
       ("status", S), ("in_text", B), ("other_acts", S)),
    _t("judgments", ("system", S), ("code", S), ("version", S), ("attempt", INT), ("element", S), ("run", INT),
       ("verdict", S), ("quote", S), ("quote_found", B), ("judge_model", S), ("raw", S), ("detail", S),
       ("error", S), ("rubric_version", S)),
    _t("decisions", ("decision_id", S), ("system", S), ("code", S), ("version", S), ("attempt", INT),
       ("target", S), ("decision", S), ("decided_by", S), ("decided_at", S), ("note", S), ("kind", S),
       ("via", S)),
    _t("revocations", ("decision_id", S), ("revoked_by", S), ("revoked_at", S), ("via", S)),
    _t("approvals", ("system", S), ("code", S), ("version", S), ("attempt", INT), ("approved_by", S),
       ("approved_at", S), ("via", S)),
    _t("scores", ("system", S), ("benchmark", S), ("code", S), ("version", S), ("attempt", INT),
       ("methodology", S), ("score", F), ("verdict", S), ("status", S), ("indicative", B),
       ("components", S), ("open_items", INT), ("notes", S), ("corpus_version", S), ("scored_at", S),
       ("jurisdiction", S), ("branch", S), ("difficulty", INT), ("type", S), ("tokens_in", INT),
       ("tokens_out", INT), ("cost", F), ("confidence", F), ("approved_by", S)),
    _t("review_items", ("id", S), ("system", S), ("code", S), ("version", S), ("attempt", INT), ("target", S),
       ("why", S), ("options", S)),
    _t("leaderboard", ("benchmark", S), ("system", S), ("n", INT), ("mean_score", F), ("ci_low", F),
       ("ci_high", F), ("positive", INT), ("partial", INT), ("negative", INT), ("needs_input", INT)),
    _t("paired", ("benchmark", S), ("system_a", S), ("system_b", S), ("n", INT), ("both", INT), ("only_a", INT),
       ("only_b", INT), ("neither", INT), ("mcnemar_p", F), ("diff", F), ("diff_low", F), ("diff_high", F)),
]

SCHEMAS: dict[str, TableSchema] = {t.name: t for t in _TABLES}


def conform(table: str, data: pa.Table) -> pa.Table:
    """Cast declared columns to their types, add missing ones as nulls, keep extra columns after them."""
    spec = SCHEMAS.get(table)
    if spec is None:
        return data
    columns: list[pa.Array | pa.ChunkedArray] = []
    names: list[str] = []
    for field in spec.schema:
        if field.name in data.column_names:
            col = data.column(field.name)
            columns.append(col if col.type == field.type else col.cast(field.type))
        else:
            columns.append(pa.nulls(data.num_rows, type=field.type))
        names.append(field.name)
    for name in data.column_names:
        if name not in names:
            col = data.column(name)
            columns.append(col.cast(pa.string()) if pa.types.is_null(col.type) else col)
            names.append(name)
    return pa.Table.from_arrays(columns, names=names)
