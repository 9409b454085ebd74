"""The records that flow between the evaluation stages.

Answers, judgments and decisions are produced by different stages (and by humans) and consumed by the
scorer; one definition here keeps their keys identical everywhere. A cell is (system, etalon code); an
answer is (cell, etalon question version, attempt); a judgment is (answer, element, run).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AnswerStatus = Literal["ok", "error", "refused"]


@dataclass(frozen=True)
class Answer:
    system: str
    benchmark: str
    code: str
    version: str            # etalon version the answer belongs to (question reuse: see question_version)
    question_version: str
    attempt: int
    text: str
    status: AnswerStatus = "ok"
    error: str | None = None
    sources: tuple[str, ...] = ()    # the answer's separate list of sources, if the system gives one
    tokens_in: int | None = None
    tokens_out: int | None = None
    latency_ms: float | None = None
    cost: float | None = None
    created_at: str | None = None
    passport: str | None = None      # JSON: model, endpoint, prompt hash, parameters, code version
    confidence: float | None = None  # the system's own probability, in [0, 1], that this answer is right


@dataclass(frozen=True)
class Judgment:
    """One judge run's verdict on one element of one answer.

    `element` names what was judged (see evaluation.elements); `verdict` is "yes"/"no", or a grade for
    graded elements ("correct"/"partial"/"incorrect"), or None when the run gave none (parse error, model
    error). `quote_found` is computed by the program, never taken from the model.
    """

    system: str
    code: str
    version: str
    attempt: int
    element: str
    run: int
    verdict: str | None
    quote: str | None
    quote_found: bool
    judge_model: str
    raw: str | None = None           # the model's raw output, as received
    detail: str | None = None        # JSON of the parsed structured output (e.g. the IRAC atomic verdict)
    error: str | None = None         # parse or model error; the verdict is then None
    elements_hash: str | None = None # rubric version the element was prepared from


DecisionKind = Literal["decision", "adjudication", "disagreement"]


@dataclass(frozen=True)
class Decision:
    """A human record on one review target. Never erased: an undo sets `revoked_at`.

    `kind` "decision" is one lawyer's review; "adjudication" settles reviewers who disagree (blind double
    review); "disagreement" marks disagreement with the conclusion in force (automatic or human) and opens
    the target again, `decision` then holding the conclusion disputed. `via` says how the name was
    established: "web" (signed in), "proxy" (a trusted reverse proxy's header) or "cli --by" (free text).
    """

    decision_id: str
    system: str
    code: str
    version: str
    attempt: int
    target: str
    decision: str
    decided_by: str
    decided_at: str
    note: str | None = None
    revoked_at: str | None = None
    revoked_by: str | None = None
    kind: DecisionKind = "decision"
    via: str | None = None


@dataclass(frozen=True)
class ReviewItem:
    """Something the automatic evaluation cannot settle: it waits for a human decision."""

    system: str
    code: str
    version: str
    attempt: int
    target: str
    why: str
    options: tuple[str, ...] = ("yes", "no")

    @property
    def id(self) -> str:
        return f"{self.system}:{self.code}:{self.version}:{self.attempt}:{self.target}"


@dataclass(frozen=True)
class Score:
    system: str
    benchmark: str
    code: str
    version: str
    attempt: int
    methodology: str
    score: float | None
    verdict: Literal["positive", "partial", "negative"] | None
    status: Literal["needs_input", "final", "approved", "error"]
    components: dict[str, float] = field(default_factory=dict)
    open_items: tuple[ReviewItem, ...] = ()
    notes: tuple[str, ...] = ()
    rule: str | None = None          # the rule that decided the verdict, in words
