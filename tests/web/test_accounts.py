"""Accounts, sessions, saving an edited etalon and the re-scoring scheduler, without a browser."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from app import actions, users
from app.actions import Refused
from app.web import security
from app.web.refresher import Refresher
from warehouse.home import Home


def test_an_account_signs_in_with_its_password_only_and_the_file_holds_no_password(tmp_path: Path) -> None:
    users.add(tmp_path, "ioana", "Ioana Mărgărit", ["author"], "a long enough secret")
    assert users.authenticate(tmp_path, "ioana", "a long enough secret") is not None
    assert users.authenticate(tmp_path, "ioana", "a long enough secreT") is None
    assert users.authenticate(tmp_path, "nobody", "a long enough secret") is None
    stored = (tmp_path / "users.json").read_text(encoding="utf-8")
    assert "a long enough secret" not in stored and "$argon2id$" in stored


def test_a_disabled_account_no_longer_signs_in(tmp_path: Path) -> None:
    users.add(tmp_path, "ioana", "Ioana Mărgărit", ["author"], "a long enough secret")
    users.disable(tmp_path, "ioana")
    assert users.authenticate(tmp_path, "ioana", "a long enough secret") is None
    assert users.find(tmp_path, "ioana") is None


@pytest.mark.parametrize(
    ("login", "name", "roles", "password", "message"),
    [
        ("Ioana Doe", "Ioana", ["author"], "a long enough secret", "expected 2-64 lower-case"),
        ("ioana", "", ["author"], "a long enough secret", "full name"),
        ("ioana", "Ioana", ["judge"], "a long enough secret", "expected roles among"),
        ("ioana", "Ioana", ["author"], "short", "at least 10 characters"),
    ],
)
def test_a_bad_account_is_refused_saying_what_was_expected(
    tmp_path: Path, login: str, name: str, roles: list[str], password: str, message: str
) -> None:
    with pytest.raises(users.UserError, match=message):
        users.add(tmp_path, login, name, roles, password)


def test_two_accounts_may_not_share_a_name_the_records_carry(tmp_path: Path) -> None:
    users.add(tmp_path, "ioana", "Ioana Mărgărit", ["author"], "a long enough secret")
    with pytest.raises(users.UserError, match="already has the name"):
        users.add(tmp_path, "imargarit", "ioana mărgărit", ["reviewer"], "a long enough secret")


def test_failed_sign_ins_are_slowed_more_each_time_and_a_success_clears_it() -> None:
    sessions = security.Sessions()
    delays = []
    for _ in range(7):
        sessions.failed("127.0.0.1", "ioana")
        delays.append(sessions.delay_for("127.0.0.1", "ioana"))
    assert delays == sorted(delays) and delays[0] > 0 and delays[-1] == security.MAX_DELAY_S
    assert sessions.delay_for("127.0.0.2", "ioana") == 0       # another address is not slowed
    sessions.succeeded("127.0.0.1", "ioana")
    assert sessions.delay_for("127.0.0.1", "ioana") == 0


def test_a_csrf_token_counts_only_for_its_own_session() -> None:
    sessions = security.Sessions()
    mine, other = sessions.new("ioana"), sessions.new("radu")
    assert security.csrf_ok(mine, mine.csrf)
    assert not security.csrf_ok(mine, other.csrf)
    assert not security.csrf_ok(mine, None) and not security.csrf_ok(None, mine.csrf)


def test_signing_in_gives_a_new_session_token(tmp_path: Path) -> None:
    sessions = security.Sessions()
    before = sessions.new()
    after = sessions.sign_in(before, "ioana")
    assert after.token != before.token and after.csrf != before.csrf
    assert sessions.get(before.token) is None


def test_an_edited_etalon_is_saved_only_over_the_text_the_editor_loaded(tmp_path: Path) -> None:
    from app.web.authoring import file_hash

    path = tmp_path / "RO-X-01.yaml"
    path.write_text("code: RO-X-01\n", encoding="utf-8")
    loaded = file_hash(path.read_text(encoding="utf-8"))
    path.write_text("code: RO-X-01\ntitle: someone else's edit\n", encoding="utf-8")
    with pytest.raises(Refused, match="changed since you opened it"):
        actions.write_etalon(path, "code: RO-X-01\ntitle: mine\n", base_hash=loaded)
    assert "someone else's edit" in path.read_text(encoding="utf-8")
    actions.write_etalon(path, "code: RO-X-01\ntitle: mine", base_hash=file_hash(path.read_text(encoding="utf-8")))
    assert path.read_text(encoding="utf-8") == "code: RO-X-01\ntitle: mine\n"
    assert [p.name for p in tmp_path.iterdir()] == ["RO-X-01.yaml"]         # no temporary file left


def test_a_new_etalon_never_overwrites_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "RO-X-01.yaml"
    path.write_text("code: RO-X-01\n", encoding="utf-8")
    with pytest.raises(Refused, match="already exists"):
        actions.write_etalon(path, "code: RO-X-01\ntitle: new\n", base_hash=None)


def test_actions_during_a_refresh_are_folded_into_one_more_refresh(tmp_path: Path) -> None:
    runs: list[float] = []
    release = threading.Event()

    def slow(home: Home) -> None:
        runs.append(time.monotonic())
        release.wait(5)

    refresher = Refresher(Home(tmp_path, tmp_path, tmp_path / "s.yaml", tmp_path / "src.yaml"), after=lambda: None,
                          run=slow)
    first = refresher.request()
    while not runs:
        time.sleep(0.01)
    tickets = [refresher.request() for _ in range(5)]
    assert not refresher.wait(tickets[-1], timeout=0.2) and refresher.pending
    release.set()
    assert refresher.wait(first, timeout=10) and refresher.wait(tickets[-1], timeout=10)
    refresher.stop()
    assert len(runs) == 2


@pytest.mark.parametrize(
    ("verdict", "score", "notes", "rule"),
    [
        ("positive", 80.0, [], "positive: score 80 at least 75, no mandatory source missing"),
        ("partial", 80.0, ["not positive: mandatory source(s) missing: art. 77"],
         "not positive: mandatory source(s) missing: art. 77"),
        ("partial", 65.0, [], "partial: score 65 between 60 and 75"),
        ("negative", 90.0, ["issue: yes", "negative: confirmed critical:1"], "negative: confirmed critical:1"),
        ("negative", 30.0, [], "negative: score 30 below 60"),
        (None, None, [], "no verdict: the answer could not be scored"),
    ],
)
def test_the_rule_that_decided_a_verdict_is_named(
    verdict: str | None, score: float | None, notes: list[str], rule: str
) -> None:
    from app.web.render import verdict_rule

    assert verdict_rule(verdict, score, notes, 60, 75) == rule


def test_a_judge_quote_is_found_in_the_answer_across_spacing_and_quote_marks() -> None:
    from app.web.render import highlight, quote_spans

    answer = "Nu.  Penalitățile\nnu pot depăși „suma restantă” — art. 77."
    spans = quote_spans(answer, ['Penalitățile nu pot depăși "suma restantă" - art. 77', "nowhere in it"])
    assert spans[1] is None and spans[0] is not None
    start, end, _ = spans[0]
    assert answer[start:end] == "Penalitățile\nnu pot depăși „suma restantă” — art. 77"
    assert "".join(s.text for s in highlight(answer, ["nu pot"])) == answer
