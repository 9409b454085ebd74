"""The audit of the judge in the workbench, in a real browser: a lawyer labels an answer of the audit sample blind.

The warehouse: two lesto etalons answered by one imported system and judged by a loopback judge that quotes a
sentence of its own choosing; `audit: {rate: 1.0}` draws every answer. The item page of an audit item must not
show what the judge said — no run, verdict, quote, automatic conclusion or score — until every audit item of the
answer has its label; labels change no score.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import duckdb
import pytest
import yaml

from evaluation.testserver import Rule, TestServer
from tests.acceptance.project import inheritance_etalon
from tests.web import harness
from tests.web.harness import Server, sign_in

Page = Any
QUOTE = "Наследство принято фактически"
ANSWER = (f"{QUOTE}, потому что вы живёте в доме (ст. 1152, п. 2 ст. 1153 ГК РФ). Срок ст. 1154 ГК РФ не "
          "пропущен. Отнесите нотариусу квитанции.")
VERDICTS = {"conclusion": "partial", "next_steps": "no", "refusal": "no"}


def _judge(body: dict[str, Any]) -> str:
    user = next(str(m.get("content") or "") for m in body["messages"] if m.get("role") == "user")
    kind = json.loads(user.split("\n", 1)[1])["element"]["kind"]
    return json.dumps({"verdict": VERDICTS.get(kind, "no"), "quote": QUOTE, "reason": "scripted reason"},
                      ensure_ascii=False)


@pytest.fixture(scope="module")
def audit_warehouse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("web-audit") / "home"
    bench = home / "etalons" / "aud"
    bench.mkdir(parents=True)
    with TestServer([Rule(system_contains="legal evaluator", reply=_judge)]) as judge:
        (bench / "benchmark.yaml").write_text(yaml.safe_dump({
            "name": "Audit", "methodology": "lesto", "canary": "1b2f0c7a9b2d4e6f8a0b1c2d3e4f5a6b",
            "audit": {"rate": 1.0, "min_per_stratum": 0, "seed": 5}}), encoding="utf-8")
        for code in ("WEB-01", "WEB-02"):
            (bench / f"{code}.yaml").write_text(yaml.safe_dump(inheritance_etalon(code, gross_errors=[]),
                                                               allow_unicode=True), encoding="utf-8")
        (home / "etalons" / "systems.yaml").write_text(yaml.safe_dump({
            "systems": [{"id": "sys-a", "kind": "import"}],
            "judge": {"base_url": judge.base_url, "model": "judge-model-x", "retries": 0}}), encoding="utf-8")
        answers = home / "answers.jsonl"
        answers.write_text("".join(json.dumps({"code": c, "text": ANSWER}, ensure_ascii=False) + "\n"
                                   for c in ("WEB-01", "WEB-02")), encoding="utf-8")
        done = harness.etalon(home, "answers", "import", str(answers), "--system", "sys-a")
        assert done.returncode == 0, done.stderr[-3000:]
    yield home


@pytest.fixture()
def audit_server(audit_warehouse: Path, tmp_path: Path) -> Iterator[Server]:
    with harness.serve(harness.copy_warehouse(audit_warehouse, tmp_path / "home")) as running:
        yield running


def _items(home: Path, code: str) -> list[str]:
    con = duckdb.connect(str(home / "etalon.duckdb"), read_only=True)
    try:
        return [r[0] for r in con.execute("SELECT id FROM eval.review WHERE situation = 'audit' AND code = ? "
                                          "ORDER BY target", [code]).fetchall()]
    finally:
        con.close()


def _scores(home: Path) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(home / "etalon.duckdb"), read_only=True)
    try:
        return con.execute("SELECT code, score, verdict, status FROM eval.scores ORDER BY code").fetchall()
    finally:
        con.close()


def test_the_queue_has_an_audit_filter_with_the_answers_elements(page: Page, audit_server: Server) -> None:
    sign_in(page, audit_server, "elena")
    page.goto(audit_server.url + "/queue?" + urlencode({"situation": "audit"}))
    assert int(page.locator("[data-testid=total]").inner_text()) == 6     # 2 answers x 3 judged elements
    assert "audit sample (blind)" in page.locator("[data-testid=facet-situation-audit]").inner_text()


def test_an_audit_item_page_shows_nothing_the_judge_said(page: Page, audit_server: Server) -> None:
    sign_in(page, audit_server, "elena")
    item = next(i for i in _items(audit_server.home, "WEB-01") if i.endswith(":conclusion"))
    page.goto(audit_server.url + "/item?" + urlencode({"id": item}))
    assert page.locator("[data-testid=blind]").is_visible()
    body = page.content()
    for said in ("judge-model-x", "scripted reason", "Quotes the judge gave", "<h3>Judge runs</h3>",
                 "settled automatically", "<mark"):
        assert said not in body, said
    elements = page.locator("[data-testid=audit-elements]").inner_text()
    assert "partial" not in elements and "to label" in elements
    assert page.locator("[data-testid=score-hidden]").is_visible()
    assert page.locator("[data-testid=decide-partial]").is_visible()   # the options, not the judge's pick


def test_labelling_every_audit_item_reveals_the_judge_and_changes_no_score(page: Page,
                                                                           audit_server: Server) -> None:
    before = _scores(audit_server.home)
    sign_in(page, audit_server, "elena")
    for item in _items(audit_server.home, "WEB-01"):
        page.goto(audit_server.url + "/item?" + urlencode({"id": item}))
        value = "correct" if item.endswith(":conclusion") else "yes" if item.endswith(":next_steps") else "no"
        with page.expect_navigation():
            page.click(f"[data-testid=decide-{value}]")
    assert "judge partial, lawyer correct (differs)" in page.content()
    page.goto(audit_server.url + "/item?" + urlencode({"id": next(
        i for i in _items(audit_server.home, "WEB-02"))}))
    assert page.locator("[data-testid=blind]").is_visible()            # the other answer is still blind
    page.goto(audit_server.url + "/item?" + urlencode({"id": item.rsplit(":", 1)[0] + ":conclusion"}))
    assert page.locator("[data-testid=blind]").count() == 0
    assert "<h3>Judge runs</h3>" in page.content() and "judge-model-x" in page.content()
    assert "differs from the judge" in page.locator("[data-testid=audit-label-conclusion]").inner_text()
    assert _items(audit_server.home, "WEB-01") == []
    assert _scores(audit_server.home) == before


def test_an_audit_label_undone_on_the_item_page_puts_the_answer_back_in_the_blind(page: Page,
                                                                               audit_server: Server) -> None:
    sign_in(page, audit_server, "elena")
    item = next(i for i in _items(audit_server.home, "WEB-02") if i.endswith(":refusal"))
    page.goto(audit_server.url + "/item?" + urlencode({"id": item}))
    with page.expect_navigation():
        page.click("[data-testid=decide-no]")
    assert item not in _items(audit_server.home, "WEB-02")
    page.goto(audit_server.url + "/item?" + urlencode({"id": item}))
    labels = page.locator("[data-testid=audit-labels] li")
    assert labels.count() == 1 and "changes no score" in labels.inner_text()
    with page.expect_navigation():
        labels.locator("button").click()
    assert item in _items(audit_server.home, "WEB-02")
    assert page.locator("[data-testid=blind]").is_visible()
