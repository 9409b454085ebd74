"""The main page: one board per benchmark and methodology, then the judge, the systems, the etalons and the
passport (what was measured, under which protocol, by which judge and at what cost)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from evaluation.report.boards import Board
from evaluation.report.common import Column, Links, number, page, rows, section, table, text, verdict_badge
from evaluation.report.data import ReportData
from evaluation.report.format import esc, link, missing, num, pct, words
from evaluation.report.pages.board import board_section
from evaluation.report.svg import AgreementRow, agreement_bars

DISAGREEMENTS_SHOWN = 40
SYSTEM_COLUMNS = 5   # the etalon list shows one verdict column per system up to this many


def index_page(data: ReportData, boards: Sequence[Board], links: Links, *, title: str, generated: str) -> str:
    contents = "".join(f"<li>{link('#' + b.anchor, 'Benchmark ' + b.title)}</li>" for b in boards)
    contents += "".join(f"<li>{link('#' + anchor, name)}</li>" for anchor, name in (
        ("judge-agreement", "Judge and lawyers' agreement"), ("systems", "Systems"), ("etalons", "Etalons"),
        ("passport", "Evaluation passport")))
    intro = ("<p class='note'>Every mean comes with its 95% interval; systems are compared on the same etalons "
             "(exact McNemar test on verdicts, paired bootstrap on scores). Scores of different methodologies "
             "are never averaged together: each benchmark has one board per methodology. Each system and each "
             "etalon has its own page, with every answer's verdict and the rule that decided it.</p>")
    body = [
        section("summary", "Summary", intro + _summary(boards, links)),
        f"<nav id='contents'><h2>Contents</h2><ul>{contents}</ul></nav>",
        *[board_section(b, links) for b in boards],
        section("judge-agreement", "Judge and lawyers' agreement",
                "<h3 id='judge-runs'>The judge</h3>" + _judge(data, links) + _lawyers(data)),
        section("systems", "Systems", _systems(data, links)),
        section("etalons", "Etalons", _etalons(data, links)),
        section("passport", "Evaluation passport", passport_html(data.passport)),
    ]
    if not boards:
        body.insert(1, "<p class='warn'>No scored answers yet: run <code>etalon update</code> once systems have "
                       "answered.</p>")
    return page(title, "".join(body), subtitle=f"Generated {generated}.")


def _summary(boards: Sequence[Board], links: Links) -> str:
    items = []
    for board in boards:
        ranked = [r for r in rows(board.table("leaderboard")) if not missing(r.get("mean_score"))]
        if not ranked:
            continue
        best = ranked[0]
        items.append(f"<li>{link('#' + board.anchor, board.title)}: {len(ranked)} system(s); highest mean "
                     f"{links.system(best['system'])} at {esc(num(best['mean_score']))} on "
                     f"{esc(num(best.get('etalons') or best.get('n')))} etalons.</li>")
    return f"<ul>{''.join(items)}</ul>" if items else ""


def _judge(data: ReportData, links: Links) -> str:
    agreement = data.view("judge_agreement")
    declared = isinstance(data.passport.get("systems"), Mapping) and "judge" in data.passport["systems"]
    if data.judgments == 0 or agreement.is_empty():
        why = ("a judge is declared in systems.yaml but has not judged any answer yet" if declared else
               "systems.yaml declares no judge, so every judged element waits for a human or was decided by one")
        return (f"<p class='note'>No judge verdicts in this warehouse: {esc(why)}. Agreement of the judge's two "
                "runs, and of the judge with humans, is measured once a judge runs.</p>")
    out = ("<p class='note'>The judge answers each element twice, in independent runs"
           + (f" ({esc(', '.join(data.judge_models))})" if data.judge_models else "") +
           ". Agreement is the share of elements where the two runs (or the judge and a human) gave the same "
           "verdict; Cohen's κ discounts the agreement chance alone gives (1 perfect, 0 chance level).</p>")
    if data.decisions == 0:
        out += ("<p class='note'>No human decision yet, so agreement with humans cannot be measured "
                "(<code>etalon review decide</code> records one).</p>")
    out += agreement_bars([AgreementRow(str(r["kind"]), r.get("run_agreement"), r.get("run_kappa"),
                                        int(r.get("run_pairs") or 0), r.get("human_agreement"),
                                        r.get("human_kappa"), int(r.get("human_pairs") or 0))
                           for r in rows(agreement)], "judge-agreement-bars", "Judge agreement per element kind")
    out += table(rows(agreement), [
        Column("Element kind", text("kind"), source="kind"),
        Column("Elements", number("elements"), True, "elements"),
        Column("No verdict from a run", number("missing_verdicts"), True, "missing_verdicts"),
        Column("Run pairs", number("run_pairs"), True, "run_pairs"),
        Column("Runs agree", lambda r: esc(pct(r.get("run_agreement"))), True, "run_agreement"),
        Column("κ runs", number("run_kappa", 2), True, "run_kappa"),
        Column("Human decisions", number("human_pairs"), True, "human_pairs"),
        Column("Judge agrees with human", lambda r: esc(pct(r.get("human_agreement"))), True, "human_agreement"),
        Column("κ human", number("human_kappa", 2), True, "human_kappa"),
    ], "judge")
    behind = data.view("judge_disagreements")
    if behind.height:
        shown = rows(behind.head(DISAGREEMENTS_SHOWN))
        out += f"<h3>Where they disagree ({behind.height} elements{', first ' + str(len(shown)) if behind.height > len(shown) else ''})</h3>"
        out += table(shown, [
            Column("Etalon", lambda r: links.etalon(r["code"]), source="code"),
            Column("System", lambda r: links.system(r["system"]), source="system"),
            Column("Element", text("element"), source="element"),
            Column("Run 1", text("verdict_1"), source="verdict_1"),
            Column("Run 2", text("verdict_2"), source="verdict_2"),
            Column("Human", text("human"), source="human"),
            Column("Why listed", text("reason"), source="reason"),
        ], "disagreements")
    return out


def _lawyers(data: ReportData) -> str:
    """Whether two lawyers reviewing the same element independently reach the same decision: the ceiling
    any judge can be held to, and a measure of how clear the etalons' rules are."""
    out = "<h3 id='lawyers-agreement'>Lawyers' agreement</h3>"
    frame = data.lawyers
    if frame.is_empty():
        return out + ("<p class='note'>No element has been reviewed independently by two lawyers yet, so agreement "
                      "between lawyers cannot be measured. A benchmark asks for blind double review with "
                      "<code>review: {reviewers: 2}</code> in its <code>benchmark.yaml</code>.</p>")
    out += ("<p class='note'>Elements that two or more lawyers reviewed independently (blind double review): the "
            "share on which all of them gave the same decision, Cohen's κ of the first and second review of "
            "each element, and Krippendorff's α over every review (1 perfect, 0 chance level).</p>")
    return out + table(rows(frame), [
        Column("Element kind", text("kind"), source="kind"),
        Column("Elements reviewed by two or more", number("units"), True, "units"),
        Column("Lawyers", number("reviewers"), True, "reviewers"),
        Column("All agree", lambda r: esc(pct(r.get("agreement"))), True, "agreement"),
        Column("κ first and second review", number("kappa", 2), True, "kappa"),
        Column("Krippendorff's α", number("alpha", 2), True, "alpha"),
    ], "lawyers")


def _systems(data: ReportData, links: Links) -> str:
    scores = data.scores
    if scores.is_empty():
        return "<p class='note'>No system has answered yet.</p>"
    counts = scores.group_by("system").agg(
        pl.len().alias("answers"),
        *[(pl.col("verdict") == v).sum().alias(v) for v in ("positive", "partial", "negative")],
        (pl.col("status") == "error").sum().alias("errors"),
        (pl.col("status") == "needs_input").sum().alias("waiting"),
        pl.col("methodology").unique().sort().str.join(", ").alias("methodologies"),
    ).sort("system")
    systems_info = data.passport.get("systems") if isinstance(data.passport.get("systems"), Mapping) else {}
    assert isinstance(systems_info, Mapping)

    def described(row: Mapping[str, Any]) -> str:
        info = systems_info.get(row["system"])
        if not isinstance(info, Mapping):
            return ""
        return esc(" · ".join(str(info[k]) for k in ("kind", "model") if info.get(k) and info[k] != "-"))

    note = ("<p class='note'>Verdict counts over all methodologies (counts add up; means of different rubrics "
            "would not, so they are on the boards above).</p>")
    return note + table(rows(counts), [
        Column("System", lambda r: links.system(r["system"]), source="system"),
        Column("Kind and model", described),
        Column("Methodologies", text("methodologies"), source="methodology"),
        Column("Answers scored", number("answers"), True),
        Column("Positive", number("positive"), True),
        Column("Partial", number("partial"), True),
        Column("Negative", number("negative"), True),
        Column("Waiting for a human", number("waiting"), True),
        Column("Failed calls", number("errors"), True),
    ], "systems")


def _etalons(data: ReportData, links: Links) -> str:
    etalons = data.etalons
    if etalons.is_empty():
        return "<p class='note'>No etalons loaded.</p>"
    verdicts: dict[tuple[str, str], tuple[str | None, str | None]] = {}
    for r in rows(data.scores.sort("attempt")) if data.scores.height else []:
        verdicts[(str(r["code"]), str(r["system"]))] = (r.get("verdict"), r.get("status"))
    listed = etalons.filter(pl.col("status") != "archived") if "status" in etalons.columns else etalons
    listed = listed.sort("benchmark", "code")
    systems = sorted({s for _, s in verdicts})

    def verdict_of(system: str) -> Column:
        return Column(system, lambda r: verdict_badge(*verdicts[(str(r["code"]), system)])
                      if (str(r["code"]), system) in verdicts else "–", source=f"verdict of {system}")

    def counts(row: Mapping[str, Any]) -> str:
        found = [verdicts[(str(row["code"]), s)][0] or "none" for s in systems if (str(row["code"]), s) in verdicts]
        return esc(", ".join(f"{found.count(v)} {v}" for v in ("positive", "partial", "negative", "none")
                             if found.count(v)))

    per_system = [verdict_of(s) for s in systems] if len(systems) <= SYSTEM_COLUMNS else [
        Column("Verdicts", counts)]
    return ("<p class='note'>Each etalon's page shows its sources, every system's answer, the verdict and the "
            "rule that decided it. Unsigned (pool) etalons are indicative: they do not count in the ranking. "
            "A verdict marked open may still change: items of it wait for a human.</p>"
            + table(rows(listed), [
                Column("Etalon", lambda r: links.etalon(r["code"]), source="code"),
                Column("Title", text("title"), source="title"),
                Column("Methodology", text("methodology"), source="methodology", word=True),
                Column("Status", text("status"), source="status", word=True),
                *per_system,
            ], "etalons"))


def passport_html(value: Any) -> str:
    """Nested mappings become nested definition lists, sequences comma lists: the passport's shape is free."""
    if isinstance(value, Mapping):
        if not value:
            return "–"
        items = "".join(f"<dt>{esc(words(k))}</dt><dd>{passport_html(v)}</dd>" for k, v in value.items())
        return f"<dl class='passport'>{items}</dl>"
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, Mapping) for v in value):
            return "".join(passport_html(v) for v in value)
        return esc(", ".join(str(v) for v in value))
    return esc(num(value, 3) if isinstance(value, float) else num(value))
