"""The embedded sample must hang together before any parser or scorer touches it.

`etalon demo` signs the sample etalons, imports the recorded answers and applies the reviewer's decisions; a
typo in a code, a decision aimed at an element the etalon does not have, or a source missing from the sample
corpus would make the demo refuse or skip things silently. These checks are textual on purpose: they hold the
sample files to each other, independently of the parsers that are tested on their own.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus" / "sample"
BENCHMARK = REPO / "etalons" / "sample"
SYSTEMS = REPO / "etalons" / "systems.yaml"
ANSWERS = REPO / "evaluation" / "sample" / "answers"
DECISIONS = REPO / "evaluation" / "sample" / "decisions.yaml"
SIGNATURES = REPO / "evaluation" / "sample" / "signatures.yaml"

CONTRACT_KEYS = {"code", "title", "jurisdiction", "branch", "difficulty", "type", "question", "decisive_issue",
                 "branches", "reference_answer", "sources", "gross_errors"}
# The one source that is absent from the sample corpus on purpose (signing ADM-01 must be refused).
DELIBERATELY_MISSING = {("ADM-01", "ст. 27.12 КоАП РФ")}
ABRIDGED_MARKERS = ("ABRIDGED SAMPLE written for Etalon", "СОКРАЩЁННЫЙ ОБРАЗЕЦ, подготовленный для Etalon",
                    "EȘANTION PRESCURTAT scris pentru Etalon")

# How a citation names its act, most specific first -> canonical act key (CONTRACT section 4).
ACT_MARKERS: tuple[tuple[str, str], ...] = (
    (r"ГК РФ", "ru/gk"), (r"ТК РФ", "ru/tk"), (r"СК РФ", "ru/sk"), (r"ЖК РФ", "ru/zhk"), (r"ЗК РФ", "ru/zk"),
    (r"ГПК РФ", "ru/gpk"), (r"КоАП РФ", "ru/koap"), (r"НК РФ", "ru/nk"),
    (r"О защите прав потребителей", "ru/zpp"), (r"Об обществах с ограниченной ответственностью", "ru/fz-14"),
    (r"О несостоятельности \(банкротстве\)", "ru/fz-127"),
    (r"C\.proc\.civ\.", "ro/cpc"), (r"C\.civ\.", "ro/cciv"), (r"Codul muncii", "ro/cmuncii"),
    (r"Codul fiscal", "ro/cfiscal"), (r"Constituția României", "ro/constitutie"),
    (r"OG nr\. 2/2001", "ro/og-2-2001"), (r"OUG nr\. 34/2014", "ro/oug-34-2014"),
    (r"Legea nr\. 85/2014", "ro/lege-85-2014"), (r"Legea nr\. 31/1990", "ro/lege-31-1990"),
    (r"Legea nr\. 196/2018", "ro/lege-196-2018"),
)
# legislatie.just.ro records: (TipAct word, Numar, year) -> act key
RECORD_ACTS = {("LEGE", "53", "2003"): "ro/cmuncii", ("LEGE", "227", "2015"): "ro/cfiscal",
               ("ORDONANȚĂ", "2", "2001"): "ro/og-2-2001", ("ORDONANȚĂ DE URGENȚĂ", "34", "2014"): "ro/oug-34-2014",
               ("LEGE", "85", "2014"): "ro/lege-85-2014", ("LEGE", "31", "1990"): "ro/lege-31-1990",
               ("LEGE", "196", "2018"): "ro/lege-196-2018"}
PLENUM = re.compile(r"^п\. (\d+) постановления Пленума ВС РФ от (\d\d)\.(\d\d)\.(\d{4}) № (\d+)$")
ICCJ = re.compile(r"^Decizia nr\. ([IVXLC]+|\d+)/(\d{4}) a ÎCCJ$")
RU_ARTICLE = re.compile(r"ст\. (\d+(?:\.\d+)?)")
RO_ARTICLE = re.compile(r"art\. (\d+(?:\.\d{3})?)")


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@cache
def etalons() -> dict[str, dict[str, Any]]:
    return {p.stem: _yaml(p) for p in sorted(BENCHMARK.glob("*.yaml")) if p.name != "benchmark.yaml"}


@cache
def manifest() -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = _yaml(CORPUS / "SOURCES.yaml")["files"]
    return files


def _read(entry: dict[str, Any]) -> str:
    return (CORPUS / str(entry["path"])).read_text(encoding=str(entry.get("encoding", "utf-8")))


@cache
def article_texts() -> dict[str, str]:
    """Act key -> the text of every sample file holding that act, with article headings made plain."""
    texts: dict[str, list[str]] = {}
    for entry in manifest():
        if entry["format"] == "ro-legislatie":
            for line in _read(entry).splitlines():
                record = json.loads(line)
                key = (record["TipAct"], record["Numar"], record["Titlu"].split(" din ")[1].split()[2][:4])
                if key in RECORD_ACTS:
                    texts.setdefault(RECORD_ACTS[key], []).append(record["Text"])
        elif "act" in entry:
            text = re.sub(r'<span class="W9"[^>]*>(\d+)</span>', r".\1", _read(entry))  # 165<sup>1</sup> -> 165.1
            texts.setdefault(entry["act"], []).append(text)
    return {act: "\n".join(parts) for act, parts in texts.items()}


def article_present(act: str, article: str) -> bool:
    text = article_texts().get(act, "")
    number = re.escape(article)
    patterns = (rf"Статья {number}\.", rf"###### Art\. {number}\s*$", rf"###### Articolul {number}\b",
                rf"Articolul {number}\s", rf"<num>Articolul {number}</num>")
    return any(re.search(p, text, re.M) for p in patterns)


@cache
def plenum_points() -> dict[tuple[str, str], set[int]]:
    """(number, ISO date) -> the points the sample text holds, ranges of omitted points included."""
    found: dict[tuple[str, str], set[int]] = {}
    for entry in manifest():
        if entry["format"] != "ru-plenum":
            continue
        points: set[int] = set()
        for line in _read(entry).splitlines():
            m = re.match(r"^(\d{1,3})(?: - (\d{1,3}))?\. ", line)
            if m:
                points.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
        found[(str(entry["number"]), str(entry["date"]))] = points
    return found


def source_present(citation: str) -> bool:
    """A simple textual resolution of one sample citation against the sample corpus files."""
    plenum = PLENUM.match(citation)
    if plenum:
        point, day, month, year, number = plenum.groups()
        return int(point) in plenum_points().get((number, f"{year}-{month}-{day}"), set())
    iccj = ICCJ.match(citation)
    if iccj:
        return any(f'"Numar": "{iccj.group(1)}"' in _read(e) for e in manifest() if e["format"] == "ro-legislatie")
    act = next((key for marker, key in ACT_MARKERS if re.search(marker, citation)), None)
    found = RU_ARTICLE.search(citation) or RO_ARTICLE.search(citation)
    if act is None or found is None:
        raise ValueError(f"sample citation {citation!r}: expected an article of a known act or a decision")
    return article_present(act, found.group(1))


def all_sources() -> list[tuple[str, str]]:
    return [(code, s["citation"]) for code, e in etalons().items() for s in e["sources"]]


def system_ids() -> list[str]:
    return [s["id"] for s in _yaml(SYSTEMS)["systems"]]


def answer_lines() -> list[tuple[str, int, dict[str, Any]]]:
    return [(path.stem, n, json.loads(line))
            for path in sorted(ANSWERS.glob("*.jsonl"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)]


def decisions() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = _yaml(DECISIONS)["decisions"]
    return items


def valid_targets(etalon: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Element id -> allowed decisions, as evaluation/elements.py names them for the etalon's methodology."""
    yes_no = ("yes", "no")
    targets: dict[str, tuple[str, ...]] = {"refusal": yes_no}
    targets.update({f"gross_error:{i}": yes_no for i in range(1, len(etalon["gross_errors"]) + 1)})
    if etalon["methodology"] == "lesto":
        targets.update({"conclusion": ("correct", "partial", "incorrect"), "next_steps": yes_no})
    else:
        targets["issue"] = yes_no
        if etalon.get("solution_fact"):
            targets["fact"] = yes_no
        targets.update({f"branch:{i}": yes_no for i in range(1, len(etalon["branches"]) + 1)})
        targets.update({f"condition:{k}": yes_no for k, s in enumerate(etalon["sources"], 1)
                        if s["priority"] == "conditional"})
    return targets


@pytest.mark.parametrize("code", sorted(etalons()))
def test_every_etalon_file_has_the_contract_keys_and_is_named_by_its_code(code: str) -> None:
    etalon = etalons()[code]
    assert set(etalon) >= CONTRACT_KEYS, f"{code}.yaml lacks {sorted(CONTRACT_KEYS - set(etalon))}"
    assert etalon["code"] == code
    assert etalon["author"]


@pytest.mark.parametrize("code", sorted(etalons()))
def test_every_etalon_keeps_at_most_three_mandatory_sources_and_gives_conditions(code: str) -> None:
    sources = etalons()[code]["sources"]
    assert sum(s["priority"] == "mandatory" for s in sources) <= 3
    assert all(s.get("condition") for s in sources if s["priority"] == "conditional")


def test_the_sample_has_twelve_lesto_ru_and_twelve_stielegi_ro_etalons_one_per_branch() -> None:
    by_method = Counter((e["jurisdiction"], e["methodology"]) for e in etalons().values())
    assert by_method == {("ru", "lesto"): 12, ("ro", "stielegi"): 12}
    for jurisdiction in ("ru", "ro"):
        branches = [e["branch"] for e in etalons().values() if e["jurisdiction"] == jurisdiction]
        assert len(set(branches)) == 12


def test_some_etalons_lack_a_solution_fact_to_exercise_the_redistribution() -> None:
    without = [c for c, e in etalons().items() if not e.get("solution_fact")]
    assert 0 < len(without) < len(etalons()) // 2


@pytest.mark.parametrize(("code", "citation"), all_sources())
def test_every_source_is_present_in_the_sample_corpus_except_the_deliberate_one(code: str, citation: str) -> None:
    assert source_present(citation) is ((code, citation) not in DELIBERATELY_MISSING)


@pytest.mark.parametrize(("code", "citation"), sorted(DELIBERATELY_MISSING))
def test_the_deliberately_missing_source_is_cited_by_its_etalon(code: str, citation: str) -> None:
    assert citation in [s["citation"] for s in etalons()[code]["sources"]]


@pytest.mark.parametrize("entry", manifest(), ids=lambda e: e["path"])
def test_every_corpus_file_is_listed_marked_as_an_abridged_sample_and_readable(entry: dict[str, Any]) -> None:
    assert any(marker in _read(entry) for marker in ABRIDGED_MARKERS), f"{entry['path']}: no abridged-sample note"


def test_sources_yaml_lists_every_file_of_the_sample_corpus() -> None:
    on_disk = {p.relative_to(CORPUS).as_posix() for p in CORPUS.rglob("*") if p.is_file()}
    listed = {e["path"] for e in manifest()}
    assert on_disk - {"SOURCES.yaml", "README.md"} == listed


def test_the_windows_1251_page_declares_its_charset_and_is_not_utf8() -> None:
    raw = (CORPUS / "ru" / "html" / "sk.html").read_bytes()
    assert b'charset="windows-1251"' in raw
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")


def test_every_system_has_one_attempt_one_answer_per_etalon() -> None:
    per_system = Counter(system for system, _, _ in answer_lines())
    assert set(per_system) == set(system_ids())
    for system in system_ids():
        codes = [a["code"] for s, _, a in answer_lines() if s == system]
        assert sorted(codes) == sorted(etalons()), system


@pytest.mark.parametrize(("system", "line", "answer"), answer_lines(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_answer_line_names_an_existing_code_and_has_text(system: str, line: int, answer: dict[str, Any]) -> None:
    assert answer["code"] in etalons(), f"{system}.jsonl:{line}: unknown code {answer['code']!r}"
    assert answer["text"].strip() and answer.get("attempt", 1) == 1
    assert all(isinstance(s, str) and s for s in answer.get("sources", []))


def critical_candidates(system: str, code: str) -> int:
    """How many critical-error candidates evaluation/candidates.py prepares for a stielegi answer: one per found
    decision the answer cites, one per mandatory source, and one for the rule in reverse."""
    etalon = etalons()[code]
    answer = next(a for s, _, a in answer_lines() if s == system and a["code"] == code)
    cited = " ".join([answer["text"], *answer.get("sources", [])])
    decisions_cited = {m.group(0) for m in re.finditer(r"Decizia nr\. [IVXLC\d]+/\d{4} a ÎCCJ", cited)}
    mandatory = sum(s["priority"] == "mandatory" for s in etalon["sources"])
    return int(len(decisions_cited) + mandatory + (1 if mandatory else 0))


@pytest.mark.parametrize("item", decisions(), ids=lambda d: f"{d['system']}:{d['code']}:{d['target']}")
def test_every_decision_names_a_known_system_code_and_a_valid_target(item: dict[str, Any]) -> None:
    assert item["system"] in system_ids()
    assert item["code"] in etalons()
    targets = valid_targets(etalons()[item["code"]])
    if etalons()[item["code"]]["methodology"] == "stielegi":
        n = critical_candidates(item["system"], item["code"])
        targets.update({f"critical:{i}": ("yes", "no") for i in range(1, n + 1)})
    assert item["target"] in targets, f"{item['code']} has no element {item['target']!r}"
    assert item["decision"] in targets[item["target"]]
    assert item["by"]


def test_no_element_is_decided_twice() -> None:
    keys = Counter((d["system"], d["code"], d["target"]) for d in decisions())
    assert [k for k, n in keys.items() if n > 1] == []


def test_most_answers_are_fully_decided_and_a_handful_stay_open_for_review() -> None:
    decided = {(d["system"], d["code"], d["target"]) for d in decisions()}
    complete = [(s, c) for s in system_ids() for c, e in etalons().items()
                if all((s, c, t) in decided for t in valid_targets(e))]
    assert 60 <= len(complete) < len(system_ids()) * len(etalons())


def test_signatures_name_existing_etalons_signed_by_their_authors() -> None:
    for item in _yaml(SIGNATURES)["signatures"]:
        assert etalons()[item["code"]]["author"] == item["by"]
