"""One typed record per lake table: the table's Arrow schema is generated from it.

A writer builds these records (or, on the corpus's hot path, an Arrow table with exactly these columns), so a
declared column can never be left unwritten: `Lake.write` refuses data that lacks one. Every field is
required — no defaults — for the same reason. Keys say how the table is partitioned in the lake: the lake
stores one Parquet file per distinct key.

Cell tables are partitioned by (benchmark, shard, system): a shard is a stable hash bucket of etalon codes
(`evaluation.engine.keys`), and the cells of one shard and one system are rows of one file.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, Union, get_type_hints

import pyarrow as pa

_ARROW: dict[Any, pa.DataType] = {str: pa.string(), int: pa.int64(), float: pa.float64(), bool: pa.bool_()}


@dataclass(frozen=True)
class Table:
    """A lake table: its name, the record type its schema comes from, and its partition key fields."""

    name: str
    record: type
    keys: tuple[str, ...]
    schema: pa.Schema
    events: bool = False   # immutable event files (one small JSON object each) instead of Parquet partitions
    durable: bool = False  # an input people made (imports, settings): flushed to disk before the write returns;
                           # derived tables are recomputed from their ledgers if a crash loses a write

    def empty_table(self) -> pa.Table:
        return self.schema.empty_table()

    def to_arrow(self, rows: Iterable[Any]) -> pa.Table:
        """Records (or mappings with every one of the record's fields) as an Arrow table, column by column."""
        rows = list(rows)
        names = self.schema.names
        record = self.record
        plain: list[Mapping[str, Any]] = []
        for row in rows:
            if isinstance(row, record):
                plain.append(row.__dict__)
            elif isinstance(row, Mapping):
                missing = [n for n in names if n not in row]
                if missing:
                    raise ValueError(f"{self.name}: a row lacks declared column(s) {', '.join(missing)}")
                plain.append(row)
            else:
                raise TypeError(f"{self.name}: expected {record.__name__} records, got {type(row).__name__}")
        columns = {n: [r[n] for r in plain] for n in names}
        return pa.table({n: pa.array(columns[n], type=self.schema.field(n).type) for n in names},
                        schema=self.schema)


TABLES: dict[str, Table] = {}
T = TypeVar("T")


def from_row(record: type[T], row: Mapping[str, Any]) -> T:
    """A record from a row read back from the lake (columns it does not declare are left out)."""
    fields: dict[str, Any] = {k: row.get(k) for k in record.__dataclass_fields__}  # type: ignore[attr-defined]
    return record(**fields)


def table(name: str, keys: Sequence[str] = (), events: bool = False, durable: bool = False) -> Any:
    """Register a frozen dataclass as the record of lake table `name` (schema generated from its fields)."""

    def register(cls: type) -> type:
        hints = get_type_hints(cls)
        fields = []
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                raise TypeError(f"{cls.__name__}.{f.name}: table records have no defaults (every column is written)")
            fields.append(pa.field(f.name, _arrow_type(hints[f.name], f"{cls.__name__}.{f.name}")))
        TABLES[name] = Table(name, cls, tuple(keys), pa.schema(fields), events, durable or events)
        cls.TABLE = name  # type: ignore[attr-defined]
        return cls

    return register


def _arrow_type(hint: Any, where: str) -> pa.DataType:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return _arrow_type(args[0], where)
    if hint in _ARROW:
        return _ARROW[hint]
    raise TypeError(f"{where}: unsupported column type {hint!r} (str, int, float, bool, or Optional of one)")


# -- the corpus (one partition per configured source) ------------------------------------------------------

@table("corpus_documents", keys=("source",))
@dataclass(frozen=True)
class CorpusDocument:
    doc_id: str
    jurisdiction: str | None
    act: str | None
    kind: str | None
    title: str | None
    number: str | None
    date: str | None
    issuer: str | None
    court: str | None
    version: str
    status: str | None
    content_hash: str
    source: str
    file: str | None
    is_current: bool
    ingested_at: str | None
    edition: str | None        # the edition date the version carries (corpus.precedence)
    modified: str | None       # when the copy's file was last modified, as last read


@table("corpus_units", keys=("source",))
@dataclass(frozen=True)
class CorpusUnit:
    doc_id: str
    version: str
    act: str | None
    article: str | None
    path: str
    kind: str | None
    number: str | None
    heading: str | None
    text: str | None
    ord: int
    status: str | None
    context: str | None
    is_current: bool


@table("corpus_sources")
@dataclass(frozen=True)
class CorpusSourceRow:
    """The sources configured now: a removed source's documents stay in the lake but leave the corpus."""

    name: str
    kind: str
    location: str
    priority: int              # which copy of a document shared with another source is current (higher wins)


@table("ingest_errors", keys=("source",))
@dataclass(frozen=True)
class IngestError:
    source: str
    file: str
    reason: str
    detail: str | None
    position: str | None
    at: str


# -- etalons (one partition per benchmark shard) -----------------------------------------------------------

@table("etalon_versions", keys=("benchmark", "shard"))
@dataclass(frozen=True)
class EtalonVersionRow:
    benchmark: str
    shard: str
    code: str
    version: str
    question_version: str
    rubric_version: str
    title: str
    jurisdiction: str
    branch: str
    difficulty: int
    type: str
    methodology: str
    author: str | None
    file: str
    file_hash: str
    content: str
    first_seen: str
    is_current: bool
    archived: bool


@table("etalon_sources", keys=("benchmark", "shard"))
@dataclass(frozen=True)
class EtalonSourceRow:
    benchmark: str
    shard: str
    code: str
    version: str
    idx: int
    citation: str
    priority: str
    condition: str | None
    kind: str | None
    act: str | None
    article: str | None
    article_to: str | None
    part: str | None
    court: str | None
    number: str | None
    point: str | None
    status: str
    reason: str
    doc_id: str | None
    unit_path: str | None
    unit_text: str | None
    corpus_version: str


@table("etalon_errors")
@dataclass(frozen=True)
class EtalonErrorRow:
    file: str
    line: int | None
    field: str | None
    message: str
    at: str


@table("benchmarks", keys=("id",))
@dataclass(frozen=True)
class BenchmarkRow:
    id: str
    name: str
    methodology: str
    canary: str
    settings: str          # JSON: per-methodology weights, thresholds, partial credit, penalty; shards; review
    shards: int
    path: str


@table("signature_ledger", keys=("benchmark",))
@dataclass(frozen=True)
class SignatureRow:
    """Verified signatures only: what bench.signatures shows (events that fail verification never land here)."""

    benchmark: str
    code: str
    version: str
    signed_by: str
    signed_at: str
    via: str | None
    event_id: str


@table("signature_rejections", keys=("benchmark",))
@dataclass(frozen=True)
class SignatureRejectionRow:
    """A signature event that failed verification: it never counts, and `etalon status` shows it."""

    benchmark: str
    code: str
    version: str | None
    signed_by: str | None
    event_id: str
    reason: str


@table("corpus_changes", keys=("benchmark",))
@dataclass(frozen=True)
class CorpusChangeRow:
    """A unit a signed etalon cites whose text changed since it was signed: the signature awaits re-confirmation."""

    benchmark: str
    code: str
    version: str
    citation: str
    doc_id: str | None
    unit_path: str | None
    old_text: str | None
    new_text: str | None
    change: str            # changed | repealed | gone
    signed_by: str
    signed_at: str


@table("systems")
@dataclass(frozen=True)
class SystemRow:
    """Systems as configured now; cells of a system no longer here are archived (kept, out of the leaderboard)."""

    id: str
    kind: str
    model: str | None
    base_url: str | None
    attempts: int


# -- cells (one partition per benchmark shard and system) --------------------------------------------------

@table("answers", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class AnswerRow:
    system: str
    benchmark: str
    code: str
    version: str
    question_version: str
    attempt: int
    text: str
    sources: str
    status: str
    error: str | None
    tokens_in: int | None
    tokens_out: int | None
    latency_ms: float | None
    cost: float | None
    confidence: float | None
    created_at: str | None
    passport: str | None
    input_hash: str


@table("citations", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class CitationRow:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    start: int | None
    end: int | None
    text: str | None
    kind: str | None
    jurisdiction: str | None
    act: str | None
    act_text: str | None
    article: str | None
    article_to: str | None
    part: str | None
    court: str | None
    number: str | None
    date: str | None
    year: str | None
    point: str | None
    status: str | None
    in_text: bool
    other_acts: str | None
    doc_id: str | None
    unit_path: str | None
    reason: str | None
    input_hash: str


@table("candidates", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class CandidateRow:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    element: str
    kind: str
    text: str
    detail: str


@table("judgments", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class JudgmentRow:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    element: str
    run: int
    verdict: str | None
    quote: str | None
    quote_found: bool
    judge_model: str
    raw: str | None
    detail: str | None
    error: str | None
    rubric_version: str | None
    input_hash: str


@table("scores", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class ScoreRow:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    methodology: str
    score: float | None
    verdict: str | None
    status: str
    components: str
    open_items: int
    notes: str
    rule: str | None
    corpus_version: str
    scored_at: str
    jurisdiction: str
    branch: str
    difficulty: int
    type: str
    tokens_in: int | None
    tokens_out: int | None
    cost: float | None
    confidence: float | None
    approved_by: str | None
    input_hash: str


@table("review_items", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class ReviewItemRow:
    id: str
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    target: str
    why: str
    situation: str
    options: str


@table("audit_cells", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class AuditCellRow:
    """An answer's part in the audit of the judge (evaluation.audit.cells): how many of its elements the judge
    settled on its own, how many of those have a lawyer's value, its place in the draw and its two scores."""

    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    methodology: str
    targets: int
    kinds: str                   # JSON list of the targets' element kinds
    covered: int
    audit_hash: float | None     # null when the benchmark asks for no audit
    judge_score: float | None    # every target at the judge's conclusion
    judge_verdict: str | None
    human_score: float | None    # every target at the lawyer's value where there is one
    human_verdict: str | None


@table("audit_targets", keys=("benchmark", "shard", "system"))
@dataclass(frozen=True)
class AuditTargetRow:
    """One element the judge settled automatically, with the lawyer's value once there is one."""

    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    target: str
    kind: str
    options: str                 # JSON list, best first
    automatic: str
    human: str | None
    source: str | None           # decision (the normal review settled it) | audit (an audit label)
    label_id: str | None


@table("ledger", keys=("stage", "benchmark", "shard", "system"))
@dataclass(frozen=True)
class LedgerRow:
    """What each cell (or etalon) of a partition was last computed from, and what it gave.

    `input_hash` covers everything the row was computed from; `output_hash` what it wrote. `touch` lists the
    corpus keys (acts, articles, decisions) the computation looked up, so a changed corpus document finds
    exactly the rows it can change."""

    stage: str
    benchmark: str
    shard: str
    system: str
    code: str
    version: str
    attempt: int
    input_hash: str
    output_hash: str
    touch: str | None
    touch_hash: str | None
    status: str
    computed_at: str


# -- human events (one immutable JSON file each: many small files must stay cheap to read) --------------------

@table("imported_answers", keys=("system",), durable=True)
@dataclass(frozen=True)
class ImportedAnswerRow:
    system: str
    code: str
    attempt: int
    text: str
    sources: str
    question_version: str | None
    confidence: float | None
    status: str | None
    error: str | None
    file: str | None
    line: str | None
    imported_at: str | None


@table("decisions", keys=("benchmark", "code", "event"), events=True)
@dataclass(frozen=True)
class DecisionRow:
    decision_id: str
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    target: str
    decision: str
    decided_by: str
    decided_at: str
    note: str | None
    via: str | None
    kind: str | None       # decision | adjudication | disagreement (evaluation.review)


@table("revocations", keys=("benchmark", "code", "event"), events=True)
@dataclass(frozen=True)
class RevocationRow:
    decision_id: str
    benchmark: str
    system: str
    code: str
    revoked_by: str
    revoked_at: str
    via: str | None


@table("audits", keys=("benchmark", "code", "event"), events=True)
@dataclass(frozen=True)
class AuditRow:
    """A lawyer's label on an element of the audit sample, given without seeing the judge's conclusion. Kept
    apart from the decisions: it never changes a score (evaluation.audit)."""

    decision_id: str
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    target: str
    label: str
    decided_by: str
    decided_at: str
    note: str | None
    via: str | None


@table("approvals", keys=("benchmark", "code", "event"), events=True)
@dataclass(frozen=True)
class ApprovalRow:
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    approved_by: str
    approved_at: str
    via: str | None


@table("signatures", keys=("benchmark", "code", "event"), events=True)
@dataclass(frozen=True)
class SignatureEvent:
    """A signature as written by `etalon sign` (etalons.signatures.SignatureRecord); it counts only after its HMAC
    verifies with the warehouse's key (signature_ledger)."""

    benchmark: str
    code: str
    version: str
    signed_by: str
    signed_at: str
    via: str | None
    sources: str          # JSON snapshot of every cited unit as it read at signing time
    sources_sha256: str
    key_id: str
    algorithm: str
    hmac: str


# -- analytics (one partition per benchmark) ---------------------------------------------------------------

@table("leaderboard", keys=("benchmark",))
@dataclass(frozen=True)
class LeaderboardRow:
    benchmark: str
    system: str
    n: int
    mean_score: float | None
    ci_low: float | None
    ci_high: float | None
    positive: int
    partial: int
    negative: int
    needs_input: int


@table("paired", keys=("benchmark",))
@dataclass(frozen=True)
class PairedRow:
    benchmark: str
    system_a: str
    system_b: str
    n: int
    both: int
    only_a: int
    only_b: int
    neither: int
    mcnemar_p: float | None
    diff: float | None
    diff_low: float | None
    diff_high: float | None


@table("audit_sample", keys=("benchmark",))
@dataclass(frozen=True)
class AuditSampleRow:
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    methodology: str
    indicative: bool
    targets: int
    kinds: str
    audit_hash: float | None
    inclusion: float | None
    sampled: bool
    covered: int
    complete: bool
    score: float | None
    judge_score: float | None
    judge_verdict: str | None
    human_score: float | None
    human_verdict: str | None


@table("audit_items", keys=("benchmark",))
@dataclass(frozen=True)
class AuditItemRow:
    id: str
    benchmark: str
    system: str
    code: str
    version: str
    attempt: int
    target: str
    kind: str
    why: str
    options: str
    situation: str
    covered: bool


@table("leaderboard_corrected", keys=("benchmark",))
@dataclass(frozen=True)
class CorrectedRow:
    benchmark: str
    methodology: str
    system: str
    indicative: bool
    n: int
    etalons: int
    judged: int
    sampled: int
    audited: int
    too_few_audit: bool
    lam: float | None
    mean_score_judge: float | None
    ci_low_judge: float | None
    ci_high_judge: float | None
    mean_score_corrected: float | None
    ci_low_corrected: float | None
    ci_high_corrected: float | None
    positive_rate_judge: float | None
    positive_low_judge: float | None
    positive_high_judge: float | None
    positive_rate_corrected: float | None
    positive_low_corrected: float | None
    positive_high_corrected: float | None
    partial_rate_judge: float | None
    partial_low_judge: float | None
    partial_high_judge: float | None
    partial_rate_corrected: float | None
    partial_low_corrected: float | None
    partial_high_corrected: float | None
    negative_rate_judge: float | None
    negative_low_judge: float | None
    negative_high_judge: float | None
    negative_rate_corrected: float | None
    negative_low_corrected: float | None
    negative_high_corrected: float | None
    half_width: float | None
    half_width_if_doubled: float | None
    target_half_width: float | None
    more_audited_for_target: int | None


@table("judge_error", keys=("benchmark",))
@dataclass(frozen=True)
class JudgeErrorRow:
    benchmark: str
    kind: str
    elements: int
    sampled: int
    audited: int
    too_few_audit: bool
    error_rate: float | None
    error_low: float | None
    error_high: float | None
    judge_yes_human_no: float | None
    judge_no_human_yes: float | None


def schema(name: str) -> pa.Schema:
    return TABLES[name].schema
