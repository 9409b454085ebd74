"""The ȘtieLegi methodology: sources 50, text 50, verdict by the first matching rule.

Its rules, with their source, are in docs/methodologies.md ("stielegi").

Sources are scored by the program alone so the half of the score that can be deterministic is; the text
half comes from resolved judge elements. A confirmed critical error or hallucination fails the answer
whatever its points, because a 90-point answer that gives the client the inverse rule must not pass.
"""

from __future__ import annotations

from etalons.model import Etalon
from evaluation.elements import Element, gross_errors, refusal_element
from evaluation.methodologies.config import MethodologyConfig
from evaluation.methodologies.inputs import (
    Context,
    ExpectedSource,
    Outcome,
    Verdict,
    band_rule,
    verdict_by_bands,
)
from evaluation.methodologies.registry import methodology
from evaluation.methodologies.sources import EVALUABLE, cites

FAILING = ("critical:", "hallucination:", "gross_error:")


def text_weights(config: MethodologyConfig, has_fact: bool, branches: int) -> dict[str, float]:
    """Points for issue, fact and all branches together after the seed's redistribution rules.

    Without a solution-changing fact its points are split equally between issue and branches; without
    branches their points go to the issue (nothing else could earn them).
    """
    issue, fact, branch = config.weight("issue"), config.weight("fact"), config.weight("branches")
    if not has_fact:
        issue, branch, fact = issue + fact / 2, branch + fact / 2, 0.0
    if branches == 0:
        issue, branch = issue + branch, 0.0
    return {"issue": issue, "fact": fact, "branches": branch}


def elements(etalon: Etalon) -> list[Element]:
    """Issue, the solution-changing fact, each branch, each conditional source's condition, refusal, gross errors."""
    out = [Element("issue", "issue", etalon.decisive_issue)]
    if etalon.solution_fact:
        out.append(Element("fact", "fact", etalon.solution_fact))
    out.extend(Element(f"branch:{i}", "branch", text) for i, text in enumerate(etalon.branches, start=1))
    for k, source in enumerate(etalon.sources, start=1):
        if source.priority == "conditional":
            out.append(Element(f"condition:{k}", "condition",
                               source.condition or f"the conditions for applying {source.citation} are met",
                               detail={"citation": source.citation}))
    out.append(refusal_element())
    out.extend(gross_errors(etalon))
    return out


# A hallucination candidate whose detail["settled"] is False is one the corpus cannot settle: it stays open for
# a human even when confirmed.
@methodology("stielegi", title="ȘtieLegi (sources 50, text 50)", elements=elements,
             candidate_kinds=frozenset({"critical", "hallucination"}), refused={"refusal": "yes"})
def score(ctx: Context) -> Outcome:
    notes: list[str] = []
    weights = text_weights(ctx.config, bool(ctx.etalon.solution_fact), len(ctx.etalon.branches))
    text = _text_points(ctx, weights, notes)
    evaluable, moot = _evaluable_sources(ctx, notes)
    cited = [s for s in evaluable if cites(s, ctx.cited)]
    for source in evaluable:
        notes.append(f"source {source.citation}: {'cited' if source in cited else 'not cited'}")
    text_total = sum(weights.values())
    sources_weight = ctx.config.weight("sources")
    if evaluable:
        sources = sources_weight * len(cited) / len(evaluable)
        total = sources + text
    else:
        sources = 0.0
        total = text * (text_total + sources_weight) / text_total if text_total else 0.0
        notes.append("no evaluable source: the text points are scaled to 100")
    components = {"sources": round(sources, 2), "text": round(text, 2)}
    if ctx.value("refusal") == "yes":
        notes.append("confirmed refusal although the facts sufficed: score 0")
        total = 0.0
    total = round(total, 2)
    missing = [s.citation for s in evaluable if _mandatory(ctx, s) and s not in cited]
    failing = [k for prefix in FAILING for k in ctx.confirmed(prefix)]
    verdict: Verdict
    if failing:
        notes.append(f"negative: confirmed {', '.join(failing)}")
        verdict = "negative"
        rule = f"confirmed {', '.join(failing)}: negative whatever the points"
    else:
        verdict = verdict_by_bands(total, ctx.config, blocked=bool(missing))
        rule = band_rule(total, ctx.config, blocked=bool(missing))
        if missing and total >= ctx.config.thresholds.positive_at:
            notes.append(f"not positive: mandatory source(s) missing: {', '.join(missing)}")
    return Outcome(total, verdict, components | _text_components(ctx, weights), tuple(notes), moot, rule)


def _text_points(ctx: Context, weights: dict[str, float], notes: list[str]) -> float:
    n = len(ctx.etalon.branches)
    for element_id in ["issue", "fact", *(f"branch:{i}" for i in range(1, n + 1))]:
        if element_id in ctx.states:
            value = ctx.value(element_id)
            notes.append(f"{element_id}: {value if value is not None else 'open (0 points until decided)'}")
    return sum(_text_components(ctx, weights).values())


def _text_components(ctx: Context, weights: dict[str, float]) -> dict[str, float]:
    earned = {"issue": weights["issue"] if ctx.value("issue") == "yes" else 0.0}
    if ctx.etalon.solution_fact:
        earned["fact"] = weights["fact"] if ctx.value("fact") == "yes" else 0.0
    n = len(ctx.etalon.branches)
    if n:
        yes = sum(1 for i in range(1, n + 1) if ctx.value(f"branch:{i}") == "yes")
        earned["branches"] = round(weights["branches"] * yes / n, 2)
    return earned


def _evaluable_sources(ctx: Context, notes: list[str]) -> tuple[list[ExpectedSource], frozenset[str]]:
    """Found sources, conditional ones only where their condition applies; moot: conditions not needed."""
    evaluable: list[ExpectedSource] = []
    moot: set[str] = set()
    for source in sorted(ctx.expected, key=lambda s: s.index):
        condition = f"condition:{source.index}"
        if source.status != EVALUABLE:
            notes.append(f"source {source.citation}: {source.status} in the corpus, left out of the computation")
            moot.add(condition)
            continue
        if source.priority == "conditional":
            applies = ctx.value(condition)
            if applies is None:
                notes.append(f"source {source.citation}: open whether its condition applies, left out until decided")
                continue
            if applies != "yes":
                notes.append(f"source {source.citation}: its condition does not apply, left out")
                continue
        evaluable.append(source)
    return evaluable, frozenset(moot)


def _mandatory(ctx: Context, source: ExpectedSource) -> bool:
    """Mandatory, or conditional with its condition applying (the seed treats both alike)."""
    return source.priority == "mandatory" or (
        source.priority == "conditional" and ctx.value(f"condition:{source.index}") == "yes"
    )
