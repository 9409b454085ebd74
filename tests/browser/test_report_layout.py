"""The report as a reader sees it in headless Chromium, at a laptop's 1280 px and a narrow 800 px window:
every section there, no text spilling out of its box or cut off in a plot, every link landing inside the
folder, hostile text shown as text. Checked on a rich authored sample and on the real demo's report."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evaluation.report import render_site, write_site
from tests.analytics.report_sample import HOSTILE_ANSWER, HOSTILE_NAME, HOSTILE_TITLE, sample_data
from tests.browser.conftest import LAPTOP, NARROW

GLOBAL_SECTIONS = ("summary", "contents", "judge-agreement", "systems", "etalons", "passport")
BOARD_PARTS = ("leaderboard", "verdicts", "slices", "paired", "pass-at-k", "calibration")

# What spills: a box whose content is wider than the box, anything past the window's right edge, an SVG label
# outside its plot, any text (of a plot or of the page) drawn smaller than 11 px, two labels of one plot on top
# of each other.
OVERFLOW_JS = """
() => {
  const MIN_PX = 11;
  const problems = [];
  const width = document.documentElement.clientWidth;
  const describe = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') +
      ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
  if (document.documentElement.scrollWidth > width + 1)
    problems.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + width);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || el.closest('details:not([open]) > :not(summary)')) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    const own = [...el.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (own && parseFloat(style.fontSize) < MIN_PX)
      problems.push('text of ' + style.fontSize + ': ' + describe(el));
    if (style.display === 'inline') continue;
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    if (!scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      problems.push('content wider than its box: ' + describe(el) + ' ' + el.scrollWidth + ' > ' + el.clientWidth);
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > width + 1)
      problems.push('past the right edge: ' + describe(el) + ' right ' + Math.round(box.right));
  }
  for (const svg of document.querySelectorAll('svg.plot')) {
    const view = svg.viewBox.baseVal;
    const scale = svg.getBoundingClientRect().width / view.width;
    const boxes = [];
    for (const text of svg.querySelectorAll('text')) {
      const b = text.getBBox();
      if (b.x < -0.5 || b.y < -0.5 || b.x + b.width > view.width + 0.5 || b.y + b.height > view.height + 0.5)
        problems.push('label cut off in #' + svg.id + ': "' + text.textContent + '"');
      const size = parseFloat(text.getAttribute('font-size')) * scale;
      if (size < MIN_PX) problems.push('label of ' + size.toFixed(1) + ' px in #' + svg.id + ': "' + text.textContent + '"');
      for (const other of boxes)
        if (b.x < other.x + other.width - 0.5 && other.x < b.x + b.width - 0.5 &&
            b.y < other.y + other.height - 0.5 && other.y < b.y + b.height - 0.5)
          problems.push('labels overlap in #' + svg.id + ': "' + text.textContent + '" and "' + other.text + '"');
      boxes.push({x: b.x, y: b.y, width: b.width, height: b.height, text: text.textContent});
    }
  }
  return problems;
}
"""


@pytest.fixture(scope="module")
def sample_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample") / "report"
    write_site(folder, render_site(sample_data(), generated_at="2026-11-29 12:00 UTC"))
    return folder


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile") / "report"
    write_site(folder, render_site(sample_data(hostile=True), generated_at="2026-11-29 12:00 UTC"))
    return folder


@pytest.fixture(params=["sample", "demo"])
def report(request: pytest.FixtureRequest) -> Path:
    if request.param == "sample":
        folder: Path = request.getfixturevalue("sample_report")
        return folder
    home: Path = request.getfixturevalue("demo_home")
    return home / "report"


def _pages(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


@pytest.mark.parametrize("width", [LAPTOP, NARROW])
def test_every_section_of_the_main_page_is_there_and_visible(report: Path, page_at: Callable[..., Any],
                                                            width: int) -> None:
    page = page_at(width)
    page.goto((report / "index.html").as_uri())
    boards = page.eval_on_selector_all("section.board", "els => els.map(e => e.id)")
    expected = [*GLOBAL_SECTIONS, *[f"{b}-{part}" for b in boards for part in BOARD_PARTS]]
    heights = page.evaluate("ids => ids.map(id => { const e = document.getElementById(id);"
                            " return e ? e.getBoundingClientRect().height : -1; })", expected)
    assert boards, "no board on the page"
    assert {i: h for i, h in zip(expected, heights, strict=True) if h <= 0} == {}


@pytest.mark.parametrize("width", [LAPTOP, NARROW])
def test_no_text_overflows_its_box_on_any_page(report: Path, page_at: Callable[..., Any], width: int) -> None:
    page = page_at(width)
    problems = {}
    for path in _pages(report):
        page.goto(path.as_uri())
        found = page.evaluate(OVERFLOW_JS)
        if found:
            problems[str(path.relative_to(report))] = found[:5]
    assert problems == {}


def test_every_plot_draws_its_marks(report: Path, page: Any) -> None:
    page.goto((report / "index.html").as_uri())
    plots = page.eval_on_selector_all("svg.plot", "els => els.map(e => [e.id, e.getBoundingClientRect().width,"
                                                  " e.querySelectorAll('rect, circle, line').length])")
    assert plots and all(width > 200 and marks > 0 for _, width, marks in plots), plots


def test_every_link_lands_on_a_page_and_an_anchor_inside_the_folder(report: Path, page: Any,
                                                                   network: list[str]) -> None:
    root = report.resolve().as_uri() + "/"
    seen, queue, broken = set(), [(report / "index.html").resolve().as_uri()], []
    while queue:
        url = queue.pop()
        if url in seen:
            continue
        seen.add(url)
        page.goto(url)
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)"):
            target, _, anchor = href.partition("#")
            path = Path(target.removeprefix("file://"))
            if not target.startswith(root) or not path.is_file():
                broken.append((url, href))
                continue
            if anchor and not re.search(rf"""id=['"]{re.escape(anchor)}['"]""", path.read_text(encoding="utf-8")):
                broken.append((url, href))
            queue.append(target)
    assert broken == []
    assert {Path(u.removeprefix("file://")) for u in seen} == {p.resolve() for p in _pages(report)}
    assert network == []


def test_hostile_text_is_shown_as_text_and_never_runs(hostile_report: Path, page: Any, network: list[str]) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    shown = ""
    for path in _pages(hostile_report):
        page.goto(path.as_uri())
        page.hover("body")
        active = page.evaluate("""() => ({
            scripts: document.querySelectorAll('script, img, iframe, object, embed, form').length,
            handlers: [...document.querySelectorAll('*')].flatMap(e => [...e.attributes])
                        .filter(a => a.name.startsWith('on')).length,
            javascript: [...document.querySelectorAll('[href], [src]')]
                        .filter(e => /^\\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || ''))
                        .length,
            foreign_svg: [...document.querySelectorAll('svg')].filter(s => !s.classList.contains('plot')).length,
        })""")
        assert active == {"scripts": 0, "handlers": 0, "javascript": 0, "foreign_svg": 0}, path.name
        shown += page.evaluate("() => document.body.textContent")
    assert dialogs == [] and network == []
    for hostile in (HOSTILE_NAME, HOSTILE_TITLE, HOSTILE_ANSWER):
        assert hostile in shown
