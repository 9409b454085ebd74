"""A person's own corpus on a fresh home, and an amendment of it reaching the signatures (issue #22, §1 and §2).

The story, as a user plays it: on a fresh home (no sources file) ingest the official portal's full text of the
Civil Code, part one (read in place from the shared corpus); an article the embedded sample omits is there and
`corpus show` names the source it read. An etalon citing two of its articles is signed; then a new edition of the
code (one article reworded, a newer "ред. от" in its header) is ingested as a file of its own: it supersedes the
first copy, the etalon is flagged `corpus_changed` with the old and new text and listed for re-confirmation, and
signing again confirms it. Last, the sample is asked for explicitly: its abridged part one is shadowed by the
official copy, and the command says so.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.acceptance.project import Project

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "ru" / "pravo-gov-ru-html"
GK_PART_ONE = SHARED / "102033239.html"
SIGNER = "Мария Сергеевна Волкова"
OLD_WORDING = "Общий срок исковой давности составляет три года"
NEW_WORDING = "Общий срок исковой давности составляет пять лет"
LATEST_AMENDMENT = "от&nbsp;04.08.2023&nbsp;№&nbsp;470-ФЗ</a>"
NEWER_AMENDMENT = LATEST_AMENDMENT + ", от&nbsp;25.12.2026&nbsp;№&nbsp;999-ФЗ"

pytestmark = pytest.mark.skipif(not GK_PART_ONE.exists(),
                                reason=f"the shared corpus file {GK_PART_ONE} is not available")


def limitation_etalon() -> dict[str, object]:
    return {
        "code": "LIM-01", "title": "Срок исковой давности по долгу", "jurisdiction": "ru", "branch": "contracts",
        "difficulty": 1, "type": "deadlines", "methodology": "lesto",
        "question": "Друг занял у меня деньги четыре года назад и не вернул. Могу ли я ещё взыскать долг?\n",
        "decisive_issue": "Истёк ли общий срок исковой давности и когда он начал течь.",
        "branches": ["срок три года со дня, когда займодавец узнал о нарушении права",
                     "истечение срока — основание отказа в иске по заявлению ответчика"],
        "reference_answer": "Общий срок исковой давности — три года (ст. 196 ГК РФ); он течёт со дня, когда "
                            "лицо узнало о нарушении права (ст. 200 ГК РФ); суд применяет давность по "
                            "заявлению стороны (ст. 199 ГК РФ).\n",
        "sources": [{"citation": "ст. 196 ГК РФ", "priority": "mandatory"},
                    {"citation": "ст. 199 ГК РФ", "priority": "mandatory"}],
        "gross_errors": ["долг можно взыскать в любое время"],
    }


@dataclass
class Story:
    project: Project
    runs: dict[str, subprocess.CompletedProcess[str]] = field(default_factory=dict)
    looks: dict[str, list[tuple[object, ...]]] = field(default_factory=dict)


def _new_edition(project: Project) -> Path:
    """A later edition of the code: one article reworded and a newer amending law in the header."""
    text = GK_PART_ONE.read_text(encoding="utf-8")
    assert OLD_WORDING in text and LATEST_AMENDMENT in text
    edited = text.replace(OLD_WORDING, NEW_WORDING, 1).replace(LATEST_AMENDMENT, NEWER_AMENDMENT, 1)
    path = project.root / "editions" / "gk-part-1-2026.html"
    path.parent.mkdir()
    path.write_text(edited, encoding="utf-8")
    return path


def build_story(make: Callable[..., Project]) -> Story:
    project = make("own-corpus", sample_corpus=False)
    story = Story(project)
    run, look = story.runs, story.looks
    run["ingest"] = project.etalon("corpus", "ingest", str(GK_PART_ONE))
    run["sources"] = project.etalon("corpus", "sources", "list")
    look["documents"] = project.query("SELECT doc_id, source FROM corpus.documents ORDER BY doc_id")
    run["show omitted by the sample"] = project.etalon("corpus", "show", "ст. 199 ГК РФ")
    project.write_etalon(limitation_etalon())
    run["update"] = project.etalon("update")
    run["sign"] = project.etalon("sign", "LIM-01", "--by", SIGNER)
    run["ingest new edition"] = project.etalon("corpus", "ingest", str(_new_edition(project)))
    look["flagged"] = project.query("SELECT code, status, corpus_changed FROM bench.etalons")
    look["changes"] = project.query("SELECT code, citation, change, old_text, new_text FROM bench.corpus_changes")
    run["review"] = project.etalon("review", "list", "--json")
    run["show amended"] = project.etalon("corpus", "show", "ст. 196 ГК РФ")
    run["sign again"] = project.etalon("sign", "LIM-01", "--by", SIGNER)
    look["confirmed"] = project.query("SELECT code, status, corpus_changed FROM bench.etalons")
    run["ingest sample"] = project.etalon("corpus", "ingest", "--sample")
    look["after sample"] = project.query(
        "SELECT doc_id, source FROM corpus.documents WHERE doc_id = 'ru/gk/part-1'")
    look["copies"] = project.query(
        "SELECT source, rank, shadowed_by FROM corpus.copies WHERE doc_id = 'ru/gk/part-1' ORDER BY rank")
    run["show after sample"] = project.etalon("corpus", "show", "ст. 199 ГК РФ")
    return story


@pytest.fixture(scope="module")
def told(story: Story) -> Story:
    return story


def test_a_plain_ingest_on_a_fresh_home_registers_only_the_given_file(told: Story) -> None:
    assert told.runs["ingest"].returncode == 0, told.runs["ingest"].stderr
    names = [line.split("\t")[0] for line in told.runs["sources"].stdout.splitlines()]
    assert len(names) == 2 and "inbox" in names and "sample" not in names, names


def test_the_catalog_shows_the_users_own_document_and_no_sample(told: Story) -> None:
    assert [doc for doc, _ in told.looks["documents"]] == ["ru/gk/part-1"]
    assert told.looks["documents"][0][1] != "sample"


def test_corpus_show_prints_an_article_the_sample_omits_and_names_its_source(told: Story) -> None:
    shown = told.runs["show omitted by the sample"]
    assert shown.returncode == 0, shown.stderr
    assert "Исковая давность применяется судом только по заявлению стороны" in shown.stdout
    source = told.looks["documents"][0][1]
    assert f"(source {source}" in shown.stdout.splitlines()[0]


def test_signing_against_the_users_own_corpus_succeeds(told: Story) -> None:
    assert told.runs["sign"].returncode == 0, told.runs["sign"].stderr


def test_the_new_edition_says_which_copy_it_supersedes_and_why(told: Story) -> None:
    out = told.runs["ingest new edition"].stdout
    assert told.runs["ingest new edition"].returncode == 0, told.runs["ingest new edition"].stderr
    first_source = told.looks["documents"][0][1]
    assert f"it supersedes the copy in {first_source}" in out and "a newer edition (2026-12-25 over 2023-08-04)" \
        in out, out


def test_an_amended_article_marks_the_signed_etalon_corpus_changed(told: Story) -> None:
    assert told.looks["flagged"] == [("LIM-01", "signed", True)]


def test_the_changed_unit_has_its_old_and_new_text_in_bench_corpus_changes(told: Story) -> None:
    rows = told.looks["changes"]
    assert len(rows) == 1, rows
    code, citation, change, old, new = rows[0]
    assert (code, citation, change) == ("LIM-01", "ст. 196 ГК РФ", "changed")
    assert OLD_WORDING in old and NEW_WORDING in new


def test_the_flagged_etalon_is_listed_for_re_confirmation(told: Story) -> None:
    items = [json.loads(line) for line in told.runs["review"].stdout.splitlines() if line.strip()]
    assert [(i["code"], i["situation"]) for i in items if i["target"] == "signature"] == \
        [("LIM-01", "signature_to_reconfirm")]


def test_corpus_show_reads_the_new_edition(told: Story) -> None:
    assert NEW_WORDING in told.runs["show amended"].stdout
    assert "edition 2026-12-25" in told.runs["show amended"].stdout


def test_signing_again_confirms_the_amended_text(told: Story) -> None:
    assert told.runs["sign again"].returncode == 0, told.runs["sign again"].stderr
    assert told.looks["confirmed"] == [("LIM-01", "signed", False)]


def test_the_sample_asked_for_later_is_shadowed_and_the_command_says_so(told: Story) -> None:
    run = told.runs["ingest sample"]
    assert run.returncode == 0, run.stderr
    assert "ru/gk/part-1: the copy in sample is shadowed by the copy in" in run.stdout
    assert "the embedded sample yields to any other source" in run.stdout


def test_the_official_copy_stays_current_over_the_sample(told: Story) -> None:
    (doc, source), = told.looks["after sample"]
    assert doc == "ru/gk/part-1" and source.startswith("gk-part-1-2026-html-"), source
    assert [r[0] == "sample" for r in told.looks["copies"]][-1] and told.looks["copies"][-1][2] == source


def test_an_article_the_sample_omits_still_shows_after_the_sample_is_added(told: Story) -> None:
    shown = told.runs["show after sample"]
    assert shown.returncode == 0 and "по заявлению стороны" in shown.stdout, shown.stderr
    assert "also held by source sample" in shown.stderr
