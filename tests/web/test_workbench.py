"""The lawyers' workbench in a real browser: a lawyer and a reviewer who are not the same person."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from tests.web import harness
from tests.web.harness import Server, sign_in

Page = Any


def _queue_row(page: Page, server: Server, code: str, system: str) -> str:
    """The item id of the open item of (code, system) in the queue."""
    page.goto(server.url + "/queue?" + urlencode({"etalon": code, "system": system}))
    return str(page.locator("tr.row[data-id]").first.get_attribute("data-id"))


def _open_item(page: Page, server: Server, item_id: str) -> None:
    page.goto(server.url + "/item?" + urlencode({"id": item_id}))


def _press(page: Page, key: str) -> None:
    with page.expect_navigation():
        page.keyboard.press(key)


def _history(page: Page) -> str:
    return str(page.locator("[data-testid=history]").inner_text())


def test_a_wrong_password_is_refused_and_the_right_one_signs_in(page: Page, server: Server) -> None:
    page.goto(server.url + "/queue")
    assert page.url.startswith(server.url + "/login")
    page.fill("input[name=login]", "elena")
    page.fill("input[name=password]", "not her password")
    with page.expect_navigation():
        page.click("button[type=submit]")
    assert "Wrong login or password" in page.locator("[data-testid=login-error]").inner_text()
    sign_in(page, server, "elena")
    assert page.locator("[data-testid=me]").inner_text() == "Elena Vasilescu"
    assert page.url.endswith("/queue")


def test_the_queue_is_worked_with_the_keyboard(page: Page, server: Server) -> None:
    sign_in(page, server, "elena")
    rows = page.locator("tr.row[data-id]")
    ids = [rows.nth(i).get_attribute("data-id") for i in range(rows.count())]
    assert len(ids) >= 3
    page.keyboard.press("j")
    page.keyboard.press("j")
    page.keyboard.press("k")
    assert page.locator("tr.row.selected").get_attribute("data-id") == ids[1]
    _press(page, "Enter")
    assert page.locator("input[name=id]").first.get_attribute("value") == ids[1]
    _press(page, "j")
    assert page.locator("#decide-form input[name=id]").get_attribute("value") == ids[2]
    _press(page, "k")
    assert page.locator("#decide-form input[name=id]").get_attribute("value") == ids[1]


def test_a_decision_records_the_signed_in_lawyer_and_u_undoes_it(page: Page, server: Server) -> None:
    sign_in(page, server, "elena")
    item = _queue_row(page, server, "RO-LOC-01", "demo-medium")
    _open_item(page, server, item)
    page.keyboard.press("c")
    page.keyboard.type("only the debt is named, not the 90 days")
    page.keyboard.press("Escape")
    _press(page, "n")
    assert "Recorded no on branch:2" in page.locator("[data-testid=flash-ok]").inner_text()
    _open_item(page, server, item)
    history = _history(page)
    assert "no\nby Elena Vasilescu" in history or re.search(r"no\s+by Elena Vasilescu", history)
    assert "web" in history and "only the debt is named, not the 90 days" in history
    _press(page, "u")
    assert "Undone" in page.locator("[data-testid=flash-ok]").inner_text()
    _open_item(page, server, item)
    assert "undone by Elena Vasilescu" in _history(page)
    assert "only the debt is named" in _history(page)           # nothing erased


def test_an_author_approves_on_his_own_etalon_and_is_refused_on_anothers(page: Page, server: Server) -> None:
    sign_in(page, server, "mihai")
    _open_item(page, server, _cell_id(page, server, "demo-strong", "RO-CNS-01"))    # Elena's etalon
    with page.expect_navigation():
        page.click("[data-testid=approve]")
    assert "neither the etalon's author nor a reviewer" in page.locator("[data-testid=flash-error]").inner_text()
    _open_item(page, server, _cell_id(page, server, "demo-strong", "RO-INS-01"))    # his own, signed by him
    _press(page, "a")
    assert "Approved 1 answer(s) of demo-strong on RO-INS-01" in page.locator("[data-testid=flash-ok]").inner_text()


def _cell_id(page: Page, server: Server, system: str, code: str) -> str:
    page.goto(f"{server.url}/results/{system}")
    link = page.locator(f"a[href^='/item?id={system}:{code}:']").first.get_attribute("href")
    return str(link).split("id=", 1)[1]


def test_signing_is_refused_naming_each_unresolved_source(page: Page, server: Server) -> None:
    sign_in(page, server, "elena")
    page.goto(server.url + "/etalons/ADM-01")
    with page.expect_navigation():
        page.click("[data-testid=sign]")
    refusal = page.locator("[data-testid=flash-error]").inner_text()
    assert "ADM-01 cannot be signed" in refusal and "ст. 27.12 КоАП РФ" in refusal and "not_found" in refusal
    assert "pool" in page.locator("[data-testid=status]").inner_text()


def test_a_pool_etalon_signed_by_a_reviewer_is_approved_by_another_reviewer_only(
    page: Page, second_page: Page, server: Server
) -> None:
    sign_in(page, server, "elena")
    page.goto(server.url + "/etalons/RO-LOC-01")
    with page.expect_navigation():
        page.click("[data-testid=sign]")
    assert "Signed RO-LOC-01" in page.locator("[data-testid=flash-ok]").inner_text()
    assert "signed by Elena Vasilescu" in page.locator("[data-testid=status]").inner_text()
    cell = _cell_id(page, server, "demo-strong", "RO-LOC-01")
    _open_item(page, server, cell)
    _press(page, "a")
    assert "Elena Vasilescu signed this pool etalon" in page.locator("[data-testid=flash-error]").inner_text()
    sign_in(second_page, server, "radu")
    _open_item(second_page, server, cell)
    _press(second_page, "a")
    assert "Approved 1 answer(s) of demo-strong on RO-LOC-01" in second_page.locator("[data-testid=flash-ok]").inner_text()


def test_an_edit_with_a_yaml_error_is_shown_at_its_line_and_a_fixed_one_saves_a_new_version(
    page: Page, server: Server, home: Path
) -> None:
    sign_in(page, server, "mihai")
    page.goto(server.url + "/etalons/RO-INS-01/edit")
    area = page.locator("[data-testid=yaml]")
    original = area.input_value()
    line = next(n for n, text in enumerate(original.splitlines(), 1) if "priority: recommended" in text)
    area.fill(original.replace("priority: recommended", "priority: sometimes", 1))
    errors = page.locator("[data-testid=errors]")
    errors.wait_for()
    assert re.search(rf"RO-INS-01\.yaml:{line}: sources\[\d\]\.priority: .*mandatory", errors.inner_text())
    assert page.locator("pre.excerpt .here").first.inner_text().strip().startswith(f"{line}")
    with page.expect_navigation():
        page.click("[data-testid=save]")                     # refused: the file keeps its text
    assert page.locator("[data-testid=errors]").count() == 1
    file = home / "etalons" / "sample" / "RO-INS-01.yaml"
    assert file.read_text(encoding="utf-8") == original
    area = page.locator("[data-testid=yaml]")
    area.fill(original.replace("reference_answer: |", "reference_answer: |\n  Pe scurt: da.", 1))
    page.locator("[data-testid=plan]").wait_for()
    plan = page.locator("[data-testid=plan]").inner_text()
    assert "a new version" in plan and "signature of Mihai Dobre" in plan and "re-evaluate" in plan
    with page.expect_navigation():
        page.click("[data-testid=save]")
    assert "Saved RO-INS-01.yaml: a new version" in page.locator("[data-testid=flash-ok]").inner_text()
    assert "Pe scurt: da." in file.read_text(encoding="utf-8")


def test_a_second_reviewer_does_not_see_the_first_review_and_a_split_goes_to_an_adjudicator(
    home: Path, page: Page, second_page: Page
) -> None:
    bench = home / "etalons" / "sample" / "benchmark.yaml"
    bench.write_text(bench.read_text(encoding="utf-8") + "review: {reviewers: 2}\n", encoding="utf-8")
    assert harness.etalon(home, "update").returncode == 0   # benchmark.yaml is an input, as the etalons are
    with harness.serve(home) as server:
        sign_in(page, server, "elena")
        # branch:2 is the element nobody has reviewed (the sample reviewer decided the cell's others, which
        # now wait for a second review of their own)
        item = _cell_id(page, server, "demo-medium", "RO-LOC-01") + "branch:2"
        _open_item(page, server, item)
        page.fill("#note", "treated in the second paragraph")
        page.keyboard.press("Escape")                      # out of the note: keys decide again
        _press(page, "y")
        sign_in(second_page, server, "radu")
        _open_item(second_page, server, item)
        history = _history(second_page)
        assert "a review by Elena Vasilescu — hidden until yours is in" in history
        assert "treated in the second paragraph" not in second_page.content()
        assert "1 of 2 independent reviews recorded" in second_page.locator("[data-testid=why]").inner_text()
        _press(second_page, "n")
        _open_item(second_page, server, item)
        assert "treated in the second paragraph" in _history(second_page)
        why = second_page.locator("[data-testid=why]").inner_text()
        assert "the reviewers disagree (yes by Elena Vasilescu; no by Radu Constantinescu)" in why
        _open_item(page, server, item)
        _press(page, "y")
        assert "reviewed this item" in page.locator("[data-testid=flash-error]").inner_text()
        sign_in(page, server, "mihai")                     # neither of the two: he adjudicates
        _open_item(page, server, item)
        _press(page, "y")
        _open_item(page, server, item)
        assert "adjudication" in _history(page)
        assert "decided yes by Mihai Dobre" in page.locator("[data-testid=why]").inner_text()


def test_hostile_answers_titles_and_notes_render_inert(page: Page, server: Server) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sign_in(page, server, "elena")
    item = _cell_id(page, server, "demo-weak", "RO-LOC-01")
    _open_item(page, server, item + "issue")
    page.fill("#note", '<img src=x onerror="window.__pwned=8"><script>window.__pwned=9</script>')
    page.keyboard.press("Escape")
    _press(page, "n")
    for url in (f"/item?{urlencode({'id': item + 'issue'})}", "/queue", "/etalons", "/etalons/RO-CTV-01",
                "/results/demo-weak", "/queue?etalon=RO-CTV-01"):
        page.goto(server.url + url)
        page.mouse.move(300, 300)
        assert page.evaluate("window.__pwned") is None, url
        assert page.locator("a[href^='javascript:']").count() == 0, url
        assert page.locator("main img, main svg, main script").count() == 0, url
    page.goto(server.url + f"/item?{urlencode({'id': item + 'issue'})}")
    answer = page.locator("[data-testid=answer]").inner_text()
    assert '<script>window.__pwned = 1; alert("xss")</script>' in answer     # shown as text
    assert '<img src=x onerror="window.__pwned=8">' in _history(page)
    page.goto(server.url + "/etalons/RO-CTV-01")
    assert "</title><script>window.__pwned=7</script>" in page.locator("h1").inner_text()
    assert dialogs == []


def test_a_state_change_without_its_csrf_token_is_refused(page: Page, server: Server) -> None:
    sign_in(page, server, "elena")
    item = _queue_row(page, server, "RO-LOC-01", "demo-medium")
    token = page.locator("input[name=csrf]").first.get_attribute("value")
    missing = page.request.post(server.url + "/decide", form={"id": item, "value": "yes"}, max_redirects=0)
    forged = page.request.post(server.url + "/decide", form={"id": item, "value": "yes", "csrf": "x" * 43},
                               max_redirects=0)
    assert (missing.status, forged.status) == (403, 403)
    _open_item(page, server, item)
    assert "Elena Vasilescu" not in _history(page)
    honest = page.request.post(server.url + "/decide", form={"id": item, "value": "yes", "csrf": token},
                               max_redirects=0)
    assert honest.status == 303
    _open_item(page, server, item)
    assert "Elena Vasilescu" in _history(page)


def test_a_disagreement_reopens_a_conclusion_and_stays_on_record(page: Page, server: Server) -> None:
    sign_in(page, server, "radu")
    item = _cell_id(page, server, "demo-strong", "RO-LOC-01") + "issue"
    _open_item(page, server, item)
    assert "decided yes by Sorina Pavel" in page.locator("[data-testid=why]").inner_text()
    page.fill("#disagree-note", "the cap of 0.2% a day is not stated")
    with page.expect_navigation():
        page.click("[data-testid=disagree]")
    _open_item(page, server, item)
    assert "disagreement marked by Radu Constantinescu: the cap of 0.2% a day is not stated" in \
        page.locator("[data-testid=why]").inner_text()
    assert "disagreement with yes" in _history(page)


def test_a_decision_reaches_the_item_the_queue_and_the_leaderboard_once_rescored(
    page: Page, server: Server
) -> None:
    sign_in(page, server, "elena")
    total_before = int(page.locator("[data-testid=total]").inner_text())
    page.goto(server.url + "/results")
    board = page.locator("[data-testid=leaderboard] tr", has_text="demo-medium").inner_text()
    item = _queue_row(page, server, "RO-MUN-01", "demo-medium")     # a signed etalon: it counts on the board
    _open_item(page, server, item)
    assert "needs_input" in page.locator("[data-testid=score]").inner_text()
    _press(page, "y")
    server.wait_refreshed()
    _open_item(page, server, item)
    assert "final" in page.locator("[data-testid=score]").inner_text()
    page.goto(server.url + "/queue")
    assert int(page.locator("[data-testid=total]").inner_text()) == total_before - 1
    page.goto(server.url + "/results")
    assert page.locator("[data-testid=leaderboard] tr", has_text="demo-medium").inner_text() != board


def test_a_trusted_proxy_names_the_user_and_records_say_so(home: Path, page: Page) -> None:
    with harness.serve(home, {"ETALON_WEB_USER_HEADER": "X-Forwarded-User"}) as server:
        page.goto(server.url + "/queue")
        assert "sign in there" in page.locator("main").inner_text()          # no header: no identity
        page.set_extra_http_headers({"X-Forwarded-User": "elena"})
        item = _queue_row(page, server, "RO-LOC-01", "demo-medium")
        assert page.locator("[data-testid=me]").inner_text() == "Elena Vasilescu"
        _open_item(page, server, item)
        _press(page, "y")
        _open_item(page, server, item)
        assert re.search(r"by Elena Vasilescu\s+\S+ \S+ · proxy", _history(page))
        page.set_extra_http_headers({"X-Forwarded-User": "nobody"})
        page.goto(server.url + "/queue")
        assert page.locator("[data-testid=me]").count() == 0                 # unknown logins get nothing
