"""The static report: self-contained, escaped, written atomically, and its plots render in a real browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import polars as pl
import pytest

from evaluation import analytics
from evaluation.report import markdown_report, render_report, write_report
from tests.analytics.test_attempts_and_judge import DECISIONS, JUDGMENTS
from tests.analytics.warehouse_sample import known_scores, score_row, scores_frame

PASSPORT = {
    "benchmark": {"id": "ru-inherit", "version": "2026-11", "etalons signed": 4},
    "systems": [{"id": "alpha", "model": "alpha-7b", "temperature": 0.0, "attempts": 1}],
    "judge": {"model": "judge-x", "prompt": "stielegi-v3"},
    "dates": "2026-11-29",
    "cost": 0.08,
}


def _report(scores: pl.DataFrame | None = None) -> str:
    scores = known_scores() if scores is None else scores
    return render_report(
        leaderboard=analytics.leaderboard(scores),
        paired=analytics.paired(scores),
        slices=analytics.slices(scores),
        judge_agreement=analytics.judge_agreement(JUDGMENTS, DECISIONS),
        passport=PASSPORT,
        generated_at="2026-11-29 12:00 UTC",
    )


def test_the_page_loads_nothing_from_outside() -> None:
    html = _report()
    assert not re.search(r"""(src|href)\s*=|url\(|@import""", html)


def test_text_from_the_data_is_escaped() -> None:
    scores = scores_frame(
        [
            score_row("<script>alert(1)</script>", "N-01", 1.0, "positive"),
            score_row("beta", "N-01", 0.0, "negative"),
        ]
    )
    html = _report(scores)
    assert "<script>alert(1)" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


@pytest.mark.parametrize("text", ["alpha-7b", "stielegi-v3", "etalons signed", "2026-11", "judge-x"])
def test_the_passport_shows_every_field_given(text: str) -> None:
    assert text in _report()


def test_markdown_report_carries_the_contract_columns() -> None:
    scores = known_scores()
    text = markdown_report(leaderboard=analytics.leaderboard(scores), paired=analytics.paired(scores))
    assert "| system | n | mean_score | ci_low | ci_high |" in text
    assert "| system_a | system_b | n | both | only_a | only_b | neither | mcnemar_p |" in text


def test_write_report_replaces_the_page_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "report" / "index.html"
    write_report(target, "old")
    write_report(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert [p.name for p in target.parent.iterdir()] == ["index.html"]


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (apt-get install -y chromium)")
def test_every_plot_renders_with_a_visible_size_in_headless_chromium(tmp_path: Path) -> None:
    page = write_report(tmp_path / "index.html", _report())
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1200,2000",
        "--dump-dom",
        page.as_uri(),
    ]
    dom = subprocess.run(command, capture_output=True, text=True, timeout=90, check=True).stdout
    found = re.search(r'<pre id="render-check">(.*?)</pre>', dom, re.S)
    assert found, "the render check did not run"
    plots = {p["id"]: p for p in json.loads(found.group(1))}
    expected = {"leaderboard-0", "verdicts-0", "slices-0", "paired-0", "judge-agreement"}
    assert expected <= set(plots)
    assert all(
        plots[i]["width"] > 100 and plots[i]["height"] > 50 and plots[i]["shapes"] > 0 for i in expected
    )
