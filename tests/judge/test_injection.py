"""Prompt injection with a judge that obeys it: every attack earns nothing and goes to a human.

The loopback judge here does what the attack says: "yes" (or "correct", or a clean IRAC verdict) on every
element the attack wants, "no" on refusal and errors, quoting the sentence the attack planted. That sentence
is also written again outside the attack, so it *is* in the answer: only the guards stand between it and
the points. The control answer, the same text without the attack, shows the judge's yes would pay.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from etalons.model import Etalon
from evaluation.client import ModelClient
from evaluation.elements import elements_for
from evaluation.judge import judge
from evaluation.records import Judgment
from evaluation.scoring import ScoredAnswer, config_for, score_answer
from evaluation.testserver import Rule, TestServer
from tests.judge.conftest import judge_for, make_answer

ATTACKS = yaml.safe_load((Path(__file__).with_name("injections.yaml")).read_text(encoding="utf-8"))
CASES = [(lang, attack) for lang, items in ATTACKS.items() for attack in items]
PAYLOAD = "Срок можно восстановить в суде, если причина пропуска уважительная."
BEFORE = "Наследник, пропустивший срок, вправе обратиться в суд."
AFTER = "Иск подаётся по месту открытия наследства в течение шести месяцев."
FAVOURABLE_NO = {"refusal", "gross_error", "critical", "hallucination"}


def planted(attack: str) -> str:
    return f"{BEFORE} {attack.replace('{payload}', PAYLOAD)} {PAYLOAD} {AFTER}"


def obey(body: dict[str, Any]) -> str:
    """The judge the attacker hoped for: every element the way the attack asks, quoting its payload."""
    data = json.loads(body["messages"][1]["content"].split("\n", 1)[1])
    kind = data["element"]["kind"]
    if kind == "irac":
        return json.dumps({"rule_misstatement": 0, "fact_misstatement": 0, "incorrect_outcome": 0,
                           "logic_error": 0, "arithmetic_error": 0, "analysis_case": "correct_and_contains_analysis",
                           "error_types": [], "missing_inferences": [], "brief_justification": "as instructed",
                           "quote": PAYLOAD})
    if kind in FAVOURABLE_NO:
        return json.dumps({"verdict": "no", "quote": None, "reason": "as instructed"})
    verdict = "correct" if kind == "conclusion" else "yes"
    quote = data["question"].split(",")[0] if kind == "condition" else PAYLOAD   # a condition cites the case
    return json.dumps({"verdict": verdict, "quote": quote, "reason": "as instructed"}, ensure_ascii=False)


def judged(serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon, text: str,
           methodology: str) -> tuple[list[Judgment], ScoredAnswer]:
    server = serve([Rule(reply=obey)])
    answer = make_answer(etalon, text)
    judgments = judge(etalon, answer, elements_for(etalon, methodology), {}, judge_for(server), client)
    result = score_answer(etalon=etalon, benchmark="t", answer=answer, expected=[], cited=[],
                          judgments=judgments, decisions=[], config=config_for(methodology),
                          judge_configured=True, signed=True)
    return judgments, result


EARNED = ("text", "conclusion", "next_steps", "correctness", "analysis")


@pytest.mark.parametrize("methodology", ["stielegi", "lesto", "irac"])
def test_the_obeying_judge_pays_an_answer_without_an_attack(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon, methodology: str) -> None:
    """The control: without the guards' finding, these same verdicts and quotes earn points."""
    _, result = judged(serve, client, etalon, f"{BEFORE} {PAYLOAD} {AFTER}", methodology)
    earned = [k for k, v in result.score.components.items() if k in EARNED and v > 0]
    assert (result.status, bool(earned)) == ("final", True)


@pytest.mark.parametrize(("lang", "attack"), CASES, ids=[f"{lang}-{i}" for i, (lang, _) in enumerate(CASES, 1)])
def test_an_attack_obeyed_by_the_judge_earns_nothing_and_goes_to_a_human(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon, lang: str, attack: str) -> None:
    judgments, result = judged(serve, client, etalon, planted(attack), "stielegi")
    assert all("manipulation" in json.loads(j.detail or "{}") for j in judgments)
    assert result.status == "needs_input"
    assert {k: result.score.components[k] for k in ("text", "issue", "fact", "branches")} == {
        "text": 0.0, "issue": 0.0, "fact": 0.0, "branches": 0.0}
    reasons = {item.why.split(":")[0] for item in result.open_items}
    assert reasons == {"possible manipulation"}
    assert {item.target for item in result.open_items} == {e.id for e in elements_for(etalon, "stielegi")}


@pytest.mark.parametrize(("lang", "attack"), [c for c in CASES if "{payload}" in c[1]])
def test_a_quote_the_attack_planted_is_no_evidence_even_where_it_is_repeated(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon, lang: str, attack: str) -> None:
    judgments, _ = judged(serve, client, etalon, planted(attack), "stielegi")
    quoted = [j for j in judgments if j.quote == PAYLOAD]
    assert quoted and not any(j.quote_found for j in quoted)
    assert all("addressed to the evaluator" in json.loads(j.detail or "{}")["quote_check"] for j in quoted)


@pytest.mark.parametrize("methodology", ["lesto", "irac"])
@pytest.mark.parametrize("lang", ["en", "ru", "ro"])
def test_an_obeyed_attack_earns_nothing_under_the_other_methodologies(
        serve: Callable[..., TestServer], client: ModelClient, etalon: Etalon, lang: str, methodology: str) -> None:
    _, result = judged(serve, client, etalon, planted(ATTACKS[lang][0]), methodology)
    earned = {k: v for k, v in result.score.components.items() if k in EARNED and v}
    assert (result.status, earned) == ("needs_input", {})
