"""The IRAC rubric: all-or-nothing correctness, and analysis only on top of correctness.

Its rules, with their source, are in docs/methodologies.md ("irac").

Both figures are derived by the program from the judge's atomic flags, so a judge cannot report five
clean flags and an incorrect answer at once; a right outcome reached through a misstated fact is wrong.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from etalons.model import Etalon
from evaluation.elements import IRAC_OPTIONS, Element
from evaluation.methodologies.inputs import Context, Outcome, Verdict
from evaluation.methodologies.registry import methodology
from evaluation.records import Score

_FIGURES: Mapping[str | None, tuple[int, int]] = {
    "correct": (1, 1),
    "correct_but_no_analysis": (1, 0),
    "incorrect": (0, 0),
    None: (0, 0),
}


def elements(etalon: Etalon) -> list[Element]:
    return [Element("irac", "irac", etalon.reference_answer, options=IRAC_OPTIONS,
                    detail={"decisive_issue": etalon.decisive_issue})]


@methodology("irac", title="IRAC atomic signals (LegalBench)", elements=elements, refused={"irac": "incorrect"})
def score(ctx: Context) -> Outcome:
    value = ctx.value("irac")
    if ctx.value("refusal") == "yes":
        value = "incorrect"
    correctness, analysis = _FIGURES.get(value, (0, 0))
    wc, wa = ctx.config.weight("correctness"), ctx.config.weight("analysis")
    total = round(100 * (wc * correctness + wa * analysis) / (wc + wa), 2) if wc + wa else 0.0
    verdict: Verdict = "positive" if correctness and analysis else "partial" if correctness else "negative"
    state = value if value is not None else "open (0 until decided)"
    notes = (f"irac: {state}: correctness {correctness}, analysis {analysis}",)
    rule = {"positive": "correct with analysis: positive", "partial": "correct without analysis: partial",
            "negative": "incorrect (or open): negative"}[verdict]
    return Outcome(total, verdict, {"correctness": float(correctness), "analysis": float(analysis)}, notes,
                   rule=rule)


def irac_system_figure(rows: Iterable[Score | Mapping[str, float]]) -> float:
    """A system's figure: the mean of its correctness rate and its analysis rate over scored answers.

    Error rows (status error, no score) are excluded: a failed call says nothing about the reasoning.
    """
    correct = analysed = n = 0.0
    for row in rows:
        if isinstance(row, Score):
            if row.status == "error" or row.score is None:
                continue
            row = row.components
        correct += row["correctness"]
        analysed += row["analysis"]
        n += 1
    if not n:
        raise ValueError("irac_system_figure needs at least one scored answer")
    return (correct / n + analysed / n) / 2
