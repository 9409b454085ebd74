"""What an update tells people, from two snapshots of the state they act on (app.consequences).

The acceptance story drives the same sentences through real updates; here each kind of change is one row, so
a sentence that stops appearing, or appears when nothing changed, fails by name.
"""

from __future__ import annotations

import pytest

from app.consequences import Decision, EtalonState, Snapshot, changes, report

V1 = EtalonState("v1", "signed", "Ирина Лаптева", "q1", "r1", False)
POOL1 = EtalonState("v1", "pool", None, "q1", "r1", False)
RUBRIC = EtalonState("v2", "pool", None, "q1", "r2", False)
QUESTION = EtalonState("v3", "pool", None, "q2", "r1", False)
ARCHIVED = EtalonState("v1", "archived", "Ирина Лаптева", "q1", "r1", False)
CORPUS = EtalonState("v1", "signed", "Ирина Лаптева", "q1", "r1", True)
KEY = ("acc", "ACC-01")
CELL = ("sys-a", "acc", "ACC-01", 1)
DECISION = Decision("sys-a", "acc", "ACC-01", "v1", 1, "branch:1", "Пётр Рябов")


def snap(etalon: EtalonState, score: tuple[str, str | None, str] | None = None, decided: bool = False,
         systems: tuple[str, ...] = ("sys-a",), waiting: int = 0, review: int = 0,
         read_from: str = "sample") -> Snapshot:
    return Snapshot(etalons={KEY: etalon}, scores={CELL: score} if score else {},
                    decisions={"d1": DECISION} if decided else {}, systems=set(systems),
                    waiting_answers=[("sys-b", "acc", f"ACC-{i:02}") for i in range(waiting)], review=review,
                    read_from={"ru/gk/part-1": read_from})


CASES = [
    ("a rubric edit revokes the signature", snap(V1), snap(RUBRIC),
     "ACC-01: signed by Ирина Лаптева on version v1, no longer applies: its rubric changed (now version v2)"),
    ("archiving revokes the signature", snap(V1), snap(ARCHIVED), "its file was removed (archived)"),
    ("a changed cited text asks for re-confirmation", snap(V1), snap(CORPUS), "signatures to re-confirm: 1"),
    ("a new version sets the old version's decisions aside", snap(POOL1, decided=True), snap(RUBRIC),
     "1 decision(s) by Пётр Рябов on sys-a's answer to ACC-01 (branch:1): they name version v1"),
    ("a removed system sets its decisions aside", snap(POOL1, decided=True), snap(POOL1, systems=()),
     "system sys-a was removed from the systems file"),
    ("a flipped verdict is named with both states", snap(POOL1, ("v1", "positive", "final")),
     snap(RUBRIC, ("v2", "negative", "needs_input")), "sys-a on ACC-01: positive (final) → negative (needs_input)"),
    ("a question edit drops the old answer's score", snap(POOL1, ("v1", "positive", "final")), snap(QUESTION),
     "sys-a on ACC-01: its answer belongs to an older question"),
    ("a first score is counted", snap(POOL1), snap(POOL1, ("v1", "partial", "final")),
     "answers scored for the first time: 1"),
    ("a document read from another source is named with both", snap(V1), snap(V1, read_from="ru-codes"),
     "ru/gk/part-1: now read from ru-codes (was sample)"),
]


@pytest.mark.parametrize(("name", "before", "after", "said"), CASES, ids=[c[0] for c in CASES])
def test_each_change_for_people_is_said_in_one_sentence(name: str, before: Snapshot, after: Snapshot,
                                                         said: str) -> None:
    assert any(said in line for line in changes(before, after)), changes(before, after)


def test_an_unchanged_state_changes_nothing_for_anyone() -> None:
    same = snap(V1, ("v1", "positive", "final"), decided=True)
    assert changes(same, same) == []
    assert report(same, same)[0] == "nothing changed for people"


def test_what_waits_is_said_even_when_nothing_changed_and_long_lists_are_cut() -> None:
    after = snap(POOL1, waiting=8, review=3)
    lines = report(after, after)
    assert "  cells waiting for answers: 8" in lines and "    … and 3 more" in lines
    assert "  items waiting for a human decision: 3 (`etalon review list`)" in lines
