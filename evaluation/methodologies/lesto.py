"""The Lesto methodology: conclusion, norms, practice, next steps, minus invented citations.

Its rules, with their source, are in docs/methodologies.md ("lesto").

Norms and practice are counted by the program from parsed citations; only the conclusion and the next
steps need the judge. A gross error of the etalon zeroes the answer whatever else it earned, because a
client following it loses the case or misses a term.
"""

from __future__ import annotations

from collections.abc import Sequence

from etalons.model import Etalon
from evaluation.elements import GRADES, Element, gross_errors, next_steps_text, refusal_element
from evaluation.methodologies.inputs import (
    AnswerCitation,
    Context,
    Outcome,
    Verdict,
    band_rule,
    verdict_by_bands,
)
from evaluation.methodologies.registry import methodology
from evaluation.methodologies.sources import EVALUABLE, cites

INVENTED = frozenset({"not_found", "unknown_act"})


def invented(cited: Sequence[AnswerCitation]) -> list[AnswerCitation]:
    """Citations in the answer's text that the corpus shows do not exist."""
    return [c for c in cited if c.in_text and c.status in INVENTED]


def elements(etalon: Etalon) -> list[Element]:
    """The conclusion (graded), next steps, refusal, gross errors; norms and practice are counted by the program.

    Next steps are always judged: the methodology asks whether the answer says what to do next (term, where,
    which documents) even when the etalon spells out no particular steps."""
    return [
        Element("conclusion", "conclusion", etalon.reference_answer, options=GRADES,
                detail={"decisive_issue": etalon.decisive_issue}),
        Element("next_steps", "next_steps", next_steps_text(etalon)),
        refusal_element(),
        *gross_errors(etalon),
    ]


@methodology("lesto", title="Лесто (conclusion 40, norms 30, practice 20, next steps 10)", elements=elements,
             refused={"refusal": "yes", "conclusion": GRADES[-1]})
def score(ctx: Context) -> Outcome:
    notes: list[str] = []
    cfg = ctx.config
    found = [s for s in ctx.expected if s.status == EVALUABLE]
    for source in ctx.expected:
        if source.status != EVALUABLE:
            notes.append(f"source {source.citation}: {source.status} in the corpus, left out of the computation")
    norms = [s for s in found if s.kind in ("article", "act")]
    practice = [s for s in found if s.kind == "decision"]
    weights = {k: cfg.weight(k) for k in ("conclusion", "norms", "practice", "next_steps")}
    if not practice:
        weights["norms"], weights["practice"] = weights["norms"] + weights["practice"], 0.0
        notes.append("no practice in the etalon: its points go to norms")
    if not norms:
        weights["practice"], weights["norms"] = weights["practice"] + weights["norms"], 0.0
    if not norms and not practice:
        rest = weights["conclusion"] + weights["next_steps"]
        scale = sum(cfg.weight(k) for k in weights) / rest if rest else 0.0
        weights = {"conclusion": weights["conclusion"] * scale, "norms": 0.0, "practice": 0.0,
                   "next_steps": weights["next_steps"] * scale}
        notes.append("no evaluable norm or practice: conclusion and next steps are scaled to 100")

    grade = ctx.value("conclusion")
    credit = cfg.partial_credit.get(grade, 0.0) if grade is not None else 0.0
    components = {
        "conclusion": weights["conclusion"] * credit,
        "norms": _share(weights["norms"], [s for s in norms if cites(s, ctx.cited)], norms),
        "practice": _share(
            weights["practice"], [s for s in practice if cites(s, ctx.cited, need_point=True)], practice
        ),
        "next_steps": weights["next_steps"] if ctx.value("next_steps") == "yes" else 0.0,
    }
    notes.append(f"conclusion: {grade if grade is not None else 'open (0 points until decided)'}")
    for source in norms + practice:
        need_point = source.kind == "decision"
        notes.append(f"source {source.citation}: "
                     f"{'cited' if cites(source, ctx.cited, need_point=need_point) else 'not cited'}")
    fake = invented(ctx.cited)
    penalty = min(cfg.penalty.cap, cfg.penalty.per_citation * len(fake))
    if fake:
        names = ", ".join(c.text or f"{c.act} {c.article or c.number}" for c in fake)
        notes.append(f"invented citation(s): {names}: minus {penalty:g}")
    components["penalty"] = -penalty
    total = max(0.0, sum(components.values()))
    gross = ctx.confirmed("gross_error:")
    if gross:
        notes.append(f"confirmed gross error ({', '.join(gross)}): score 0")
        total = 0.0
    if ctx.value("refusal") == "yes":
        notes.append("confirmed refusal although the facts sufficed: score 0")
        total = 0.0
    total = round(total, 2)
    verdict: Verdict = "negative" if gross else verdict_by_bands(total, cfg)
    if gross:
        rule = f"confirmed gross error ({', '.join(gross)}): score 0, negative"
    elif ctx.value("refusal") == "yes":
        rule = "confirmed unjustified refusal: score 0, " + verdict
    else:
        rule = band_rule(total, cfg)
    return Outcome(total, verdict, {k: round(v, 2) for k, v in components.items()}, tuple(notes), rule=rule)


def _share(weight: float, hit: Sequence[object], of: Sequence[object]) -> float:
    return weight * len(hit) / len(of) if of else 0.0
