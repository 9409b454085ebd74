"""`etalon demo` runs the whole pipeline on the embedded sample and leaves a warehouse analysts can query."""

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import duckdb
import pytest

from tests.pipeline.conftest import etalon


def query(home: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(home / "etalon.duckdb"), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_the_demo_scores_every_answer_with_a_verdict(demo_home: Path) -> None:
    rows = query(demo_home, "SELECT count(*), count(verdict) FROM eval.scores WHERE status <> 'error'")
    total, with_verdict = rows[0]
    assert total == 72  # 24 etalons x 3 systems, one attempt each
    assert with_verdict == total


def test_the_demo_leaderboard_ranks_the_strong_system_above_the_weak_one(demo_home: Path) -> None:
    means = dict(query(demo_home, "SELECT system, mean_score FROM eval.leaderboard"))
    assert set(means) == {"demo-strong", "demo-medium", "demo-weak"}
    assert means["demo-strong"] > means["demo-medium"] > means["demo-weak"]


def test_the_demo_leaves_some_items_for_a_human_and_settles_the_rest(demo_home: Path) -> None:
    statuses = dict(query(demo_home, "SELECT status, count(*) FROM eval.scores GROUP BY status"))
    assert statuses.get("needs_input", 0) > 0
    assert statuses.get("final", 0) > statuses.get("needs_input", 0)


def test_the_etalon_citing_a_missing_article_stays_unsigned(demo_home: Path) -> None:
    status = query(demo_home, "SELECT status FROM bench.etalons WHERE code = 'ADM-01'")
    missing = query(demo_home, "SELECT citation FROM bench.sources WHERE code = 'ADM-01' AND status = 'not_found'")
    assert status == [("pool",)]
    assert missing == [("ст. 27.12 КоАП РФ",)]


def test_the_catalog_opens_read_only_from_another_working_directory(demo_home: Path, tmp_path: Path) -> None:
    script = f"import duckdb; c = duckdb.connect({str(demo_home / 'etalon.duckdb')!r}, read_only=True); " \
             "print(c.execute('SELECT count(*) FROM corpus.units').fetchone()[0])"
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert int(out.stdout) > 100


def test_the_report_is_a_page_with_its_plots_embedded(demo_home: Path) -> None:
    page = (demo_home / "report" / "index.html").read_text(encoding="utf-8")
    assert page.count("<svg") >= 3
    assert "demo-strong" in page
    assert not re.search(r"(src|href)\s*=\s*[\"']?https?://", page)  # self-contained: nothing fetched


READER = textwrap.dedent("""
    import sys, time, duckdb
    path, seconds = sys.argv[1], float(sys.argv[2])
    errors, queries, end = [], 0, time.time() + seconds
    while time.time() < end:
        try:
            con = duckdb.connect(path, read_only=True)
            con.execute("SELECT count(*) FROM eval.scores").fetchone()
            con.execute("SELECT system, mean_score FROM eval.leaderboard").fetchall()
            con.execute("SELECT count(*) FROM corpus.units").fetchone()
            con.close()
            queries += 1
        except Exception as exc:  # any error on the reader's side fails the test
            errors.append(repr(exc))
        time.sleep(0.05)
    print(queries, len(errors), errors[:3])
""")


def test_analysts_query_the_catalog_while_a_run_writes(demo_home: Path, tmp_path: Path) -> None:
    script = tmp_path / "reader.py"
    script.write_text(READER, encoding="utf-8")
    reader = subprocess.Popen([sys.executable, str(script), str(demo_home / "etalon.duckdb"), "25"],
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    run = etalon("demo", home=demo_home)
    out, err = reader.communicate(timeout=120)
    queries, errors, _ = out.split(" ", 2)
    assert run.returncode == 0, run.stderr[-2000:]
    assert int(queries) > 20, err
    assert int(errors) == 0, out


def test_the_printed_leaderboard_has_a_row_per_methodology_and_never_averages_two(demo_home: Path) -> None:
    from app.demo import leaderboard_text
    from warehouse.home import resolve_home

    header, *lines = leaderboard_text(resolve_home(demo_home)).splitlines()
    printed = {(cells[1], cells[2]): float(cells[4]) for cells in (line.split() for line in lines)}
    alone = query(demo_home, """SELECT methodology, system, avg(score) FROM eval.scores
                                WHERE is_current AND NOT indicative AND status <> 'error' GROUP BY ALL""")
    assert header.split()[:3] == ["benchmark", "methodology", "system"]
    assert printed == pytest.approx({(m, s): mean for m, s, mean in alone}, abs=0.051)  # printed to 0.1
    assert len(printed) == 6  # lesto and stielegi, three systems each
