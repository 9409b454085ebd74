"""The report folder: self-contained, escaped, one board per methodology, every verdict with its rule, written
whole. (Its layout in a real browser is checked in tests/browser.)"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from evaluation.report import ReportData, boards, from_scores, render_site, write_site
from evaluation.report.markdown import markdown_report
from evaluation.report.rules import Bands, deciding_rule
from tests.analytics.report_sample import (
    HOSTILE_ANSWER,
    HOSTILE_NAME,
    HOSTILE_TITLE,
    LONG_NAME,
    sample_data,
    sample_scores,
)

GENERATED = "2026-11-29 12:00 UTC"


@pytest.fixture(scope="module")
def site() -> dict[str, str]:
    return render_site(sample_data(), generated_at=GENERATED)


@pytest.fixture(scope="module")
def hostile_site() -> dict[str, str]:
    return render_site(sample_data(hostile=True), generated_at=GENERATED)


def test_the_folder_has_an_index_a_page_per_system_and_a_page_per_etalon(site: dict[str, str]) -> None:
    systems = {p for p in site if p.startswith("systems/")}
    etalons = {p for p in site if p.startswith("etalons/")}
    assert "index.html" in site and "report.md" in site
    assert len(systems) == 3
    assert len(etalons) == sample_scores()["code"].n_unique()


def test_no_page_loads_anything_from_outside(site: dict[str, str]) -> None:
    for name, html in site.items():
        assert not re.search(r"""\bsrc\s*=|url\(|@import|<script""", html), name
        for href in re.findall(r"""href=['"]([^'"]*)['"]""", html):
            assert re.fullmatch(r"(\.\./)?[A-Za-z0-9_./#-]*", href) and ":" not in href, (name, href)


@pytest.mark.parametrize("hostile", [HOSTILE_NAME, HOSTILE_TITLE, HOSTILE_ANSWER])
def test_untrusted_text_reaches_the_pages_only_escaped(hostile_site: dict[str, str], hostile: str) -> None:
    pages = "".join(hostile_site.values())
    assert hostile not in pages
    assert hostile.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;") \
        .replace("'", "&#x27;") in pages


def test_a_hostile_system_name_gets_a_safe_file_name(hostile_site: dict[str, str]) -> None:
    names = [p for p in hostile_site if p.startswith("systems/")]
    assert all(re.fullmatch(r"systems/[A-Za-z0-9_-]+\.html", n) for n in names)


@pytest.mark.parametrize("text", ["alpha-7b", "stielegi-v3", "etalons signed", "2026-11", "judge-x"])
def test_the_passport_shows_every_field_given(site: dict[str, str], text: str) -> None:
    assert text in site["index.html"]


def test_a_benchmark_with_two_methodologies_gets_a_board_for_each_and_never_one_mean() -> None:
    made = boards(sample_data())
    assert [(b.benchmark, b.methodology) for b in made] == [("ru-civil", "lesto"), ("ru-civil", "stielegi")]
    lesto = made[0].table("leaderboard").filter(pl.col("system") == "alpha")["mean_score"][0]
    only_lesto = sample_scores().filter((pl.col("system") == "alpha") & (pl.col("methodology") == "lesto")
                                        & ~pl.col("indicative"))["score"].mean()
    assert lesto == pytest.approx(only_lesto)


def test_the_page_says_where_a_view_mixes_methodologies(site: dict[str, str]) -> None:
    assert "averages both rubrics and is not shown" in site["index.html"]


def test_a_benchmark_with_one_methodology_shows_the_views_figures_as_they_are() -> None:
    scores = sample_scores().filter(pl.col("methodology") == "lesto")
    data = from_scores(scores)
    marked = data.view("leaderboard").with_columns(pl.lit(42.0).alias("mean_score"))
    board = boards(ReportData(scores=scores, views={**data.views, "leaderboard": marked}))[0]
    assert board.table("leaderboard")["mean_score"].to_list() == [42.0] * marked.height
    assert not board.mixed_with


def test_the_score_axis_runs_from_0_to_100(site: dict[str, str]) -> None:
    plot = re.search(r"<svg id='board-ru-civil-lesto-interval'.*?</svg>", site["index.html"], re.S)
    assert plot is not None
    ticks = re.findall(r">(\d+)</text>", plot.group(0))
    assert ticks == ["0", "25", "50", "75", "100"]


def test_a_slice_of_one_etalon_is_marked_too_few(site: dict[str, str]) -> None:
    family = re.search(r"<th scope='row' class='text'>family</th>(.*?)</tr>", site["index.html"], re.S)
    inheritance = re.search(r"<th scope='row' class='text'>inheritance</th>(.*?)</tr>", site["index.html"], re.S)
    assert family is not None and inheritance is not None
    assert family.group(1).count("class='cell few'") == 3
    assert "few" not in inheritance.group(1)


def test_headers_are_words_and_name_the_view_column_in_their_tooltip(site: dict[str, str]) -> None:
    assert ">Mean score, 95% interval</th>" in site["index.html"]
    assert "title='mean_score, ci_low, ci_high'" in site["index.html"]
    assert ">mean_score</th>" not in site["index.html"]


def test_calibration_shows_the_brier_score_and_a_reliability_plot_when_confidences_exist(
        site: dict[str, str]) -> None:
    index = site["index.html"]
    assert "id='board-ru-civil-lesto-reliability'" in index
    assert ">Brier score</th>" in index


def test_calibration_says_why_it_is_absent_without_confidences(site: dict[str, str]) -> None:
    stielegi = site["index.html"].split("id='board-ru-civil-stielegi-calibration'")[1].split("</section>")[0]
    assert "No system stated a confidence" in stielegi


def test_confidences_on_unsigned_etalons_only_are_said_to_wait_for_signatures() -> None:
    scores = sample_scores().filter(pl.col("methodology") == "lesto").with_columns(pl.lit(True).alias("indicative"))
    html = render_site(from_scores(scores))["index.html"]
    calibration = html.split("-calibration'")[1].split("</section>")[0]
    assert "counts signed etalons only" in calibration and "No system stated" not in calibration


def test_judge_agreement_is_shown_with_its_disagreements(site: dict[str, str]) -> None:
    judge = site["index.html"].split("id='judge-agreement'")[1].split("</section>")[0]
    assert "judge-agreement-bars" in judge and "Where they disagree" in judge


def test_lawyers_agreement_is_shown_from_their_independent_reviews(site: dict[str, str]) -> None:
    judge = site["index.html"].split("id='judge-agreement'")[1].split("</section>")[0]
    lawyers = judge.split("id='lawyers-agreement'")[1]
    # Four elements reviewed by two lawyers, who agree on three.
    assert "<td class='num'>4</td><td class='num'>2</td><td class='num'>75%</td>" in lawyers


def test_without_double_reviews_the_lawyers_part_says_how_to_get_them() -> None:
    html = render_site(from_scores(sample_scores(), passport={"systems": {}}))["index.html"]
    assert "No element has been reviewed independently by two lawyers yet" in html


def test_without_a_judge_the_section_says_why() -> None:
    html = render_site(from_scores(sample_scores(), passport={"systems": {}}))["index.html"]
    judge = html.split("id='judge-agreement'")[1].split("</section>")[0]
    assert "declares no judge" in judge


def test_an_etalon_page_shows_each_answer_its_verdict_and_the_rule(site: dict[str, str]) -> None:
    page = site["etalons/N-05.html"]
    assert "gross error" in page and "Скорее всего" in page
    assert page.count("<article class='cell'>") == 5  # alpha, the long name, beta's 3 attempts


def test_a_system_page_lists_its_cells_per_board(site: dict[str, str]) -> None:
    name = next(p for p in site if p.startswith("systems/acme"))
    assert LONG_NAME in site[name]
    assert site[name].count("<section id='board-") == 2


def test_a_system_page_shows_the_confidence_it_stated_only_when_it_stated_one(site: dict[str, str]) -> None:
    assert ">Stated confidence</th>" in site["systems/alpha.html"]
    assert ">Stated confidence</th>" not in site["systems/beta.html"]


@pytest.mark.parametrize(
    ("verdict", "score", "notes", "expected"),
    [
        ("negative", 41.7, [], "negative: score 41.7 is below 60"),
        ("partial", 60.0, [], "partial: score 60.0 is from 60 up to 75"),
        ("positive", 75.0, [], "positive: score 75.0 reaches 75"),
        ("negative", 0.0, ["confirmed gross error (gross_error:1): score 0"], "zero for a confirmed gross error"),
        ("negative", 80.0, ["negative: confirmed critical:2"], "failed on a confirmed critical error"),
        ("partial", 90.0, ["not positive: mandatory source(s) missing: ст. 1152"], "kept from positive"),
    ],
)
def test_the_deciding_rule_names_what_decided(verdict: str, score: float, notes: list[str], expected: str) -> None:
    rule = deciding_rule(verdict=verdict, score=score, status="final", notes=notes, bands=Bands(60, 75))
    assert rule.startswith(expected)


def test_the_deciding_rule_does_not_guess_bounds_it_was_not_given() -> None:
    rule = deciding_rule(verdict="negative", score=41.7, status="final", notes=[], bands=None)
    assert "60" not in rule and "score bands" in rule


def test_markdown_report_keeps_the_view_column_names_per_board() -> None:
    text = markdown_report(boards(sample_data()))
    assert "### ru-civil · lesto" in text and "### ru-civil · stielegi" in text
    assert "| system | n | mean_score | ci_low | ci_high |" in text
    assert "| system_a | system_b | n | both | only_a | only_b | neither | mcnemar_p |" in text


def test_write_site_replaces_the_whole_folder_and_leaves_nothing_behind(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    write_site(folder, {"index.html": "old", "systems/gone.html": "old"})
    write_site(folder, {"index.html": "new", "systems/a.html": "new"})
    assert sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) == ["index.html", "systems",
                                                                             "systems/a.html"]
    assert (folder / "index.html").read_text(encoding="utf-8") == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["report"]


def test_write_site_refuses_a_file_outside_the_folder(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="inside the folder"):
        write_site(tmp_path / "report", {"../escape.html": "x"})
    assert not (tmp_path / "escape.html").exists()



def _rescored(data: ReportData, code: str, system: str) -> ReportData:
    from dataclasses import replace

    hit = (pl.col("code") == code) & (pl.col("system") == system)
    return replace(data, scores=data.scores.with_columns(
        pl.when(hit).then(pl.col("score") - 1.0).otherwise(pl.col("score")).alias("score")))


def test_a_page_drawn_before_from_the_same_inputs_is_reused_and_the_site_is_the_same(site: dict[str, str]) -> None:
    keys: dict[str, str] = {}
    render_site(sample_data(), generated_at=GENERATED, keys=keys)
    served: list[str] = []

    def reuse(path: str, key: str) -> str | None:
        served.append(path)
        return site[path] if keys.get(path) == key else None

    again = render_site(sample_data(), generated_at=GENERATED, reuse=reuse)
    assert again == site
    assert sorted(served) == sorted(keys) and len(keys) > 10


def test_one_rescored_cell_changes_the_keys_of_its_etalons_page_and_its_systems_page_only() -> None:
    before: dict[str, str] = {}
    after: dict[str, str] = {}
    data = sample_data()
    render_site(data, generated_at=GENERATED, keys=before)
    changed = _rescored(data, "N-02", "beta")
    site = render_site(changed, generated_at=GENERATED, keys=after)
    differ = sorted(path for path in before if before[path] != after[path])
    assert differ == ["etalons/N-02.html", "systems/beta.html"], differ
    fresh = render_site(changed, generated_at=GENERATED)
    assert site == fresh
