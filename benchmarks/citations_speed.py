"""Speed of the citation library: extraction MB/s on one core, and resolving 100,000 citations.

Extraction runs over a large generated mix of Russian and Romanian answers (prose with citations in many
shapes), printed beside a bare scan of the same text with one compiled regex for article markers: the floor no
extractor can beat. Throughput is CPU time of this one process (time.process_time), best of --repeat runs, so
other work on a shared machine does not count against it; wall-clock figures are printed beside it. The mix is
meant to read like real answers: its citation density (citations per KB, share of prose outside citations) is
printed beside that of the labelled dev sets, so a faster figure cannot come from a sparser text. Resolution uses a lookup built from a quick scan of the article headings of the real codes
in ../shared/corpus (the corpus parser is another engineer's; this keeps the benchmark standalone).

    .venv/bin/python benchmarks/citations_speed.py [--mb 8]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citations import Citation, SetLookup, extract, resolve
from citations.grammar import ro, ru
from citations.model import new_citation
from citations.registry import default_registry
from citations.text import fold

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
DEV_SETS = Path(__file__).resolve().parents[1].parent / "shared" / "citations"

RU_PROSE = [
    "Наследство можно принять в течение шести месяцев со дня открытия наследства.",
    "Если срок пропущен по уважительной причине, суд может его восстановить по заявлению наследника.",
    "Работодатель обязан выплатить все суммы в день увольнения и выдать трудовую книжку.",
    "Договор займа на сумму свыше 10 000 рублей заключается в письменной форме, неустойка 0,5% в день.",
    "Рекомендуем собрать квитанции, выписки и переписку с контрагентом, а также направить претензию.",
    "По пункту 5.2 договора стороны согласовали срок поставки до 01.03.2024.",
]
RU_CITES = [
    "ст. {a} ГК РФ", "п. {p} ст. {a} ГК РФ", "ч. {p} ст. {a} ТК РФ", "статьи {a} Гражданского кодекса Российской Федерации",
    "ст.ст. {a}, {b} и {c} СК РФ", "ст. {a}–{b} ГПК РФ", "п. {p} постановления Пленума ВС РФ от 29.05.2012 № 9",
    "ст. {a} Закона о защите прав потребителей", "ч. {p} ст. {a}.1 КоАП РФ", "ст. {a} того же закона",
    "постановлении КС РФ от 30.07.2001 № 13-П", "ст. {a} Федерального закона от 26.10.2002 № 127-ФЗ",
]  # fmt: skip
RO_PROSE = [
    "Succesiunea se deschide la data decesului, iar moștenitorii pot accepta moștenirea în termen de un an.",
    "Angajatorul trebuie să efectueze cercetarea disciplinară prealabilă înainte de a aplica sancțiunea.",
    "Vă recomandăm să păstrați toate documentele și să trimiteți o notificare prin executor judecătoresc.",
    "Amenda este de 5.000 lei, iar dobânda penalizatoare de 0,02% pe zi, conform art. 5 din contract.",
    "Termenul de apel este de 30 de zile de la comunicarea hotărârii, publicată în M. Of. nr. 84 din 2016.",
]
RO_CITES = [
    "art. {a} C.civ.", "art. 1.{a} alin. ({p}) lit. a) din Codul civil", "art. {a} din Codul muncii",
    "art. {a} din Legea nr. 85/2014", "art. {a}–{b} NCPC", "Decizia CCR nr. {a}/2011", "art. {a} din aceeași lege",
    "Decizia nr. {p}/2014 a ÎCCJ – Completul pentru dezlegarea unor chestiuni de drept", "art. {a} din O.U.G. nr. 34/2014",
    "art. {a}, {b} și {c} din Codul de procedură civilă", "art. {a}^1 alin. ({p}) din Legea nr. 31/1990",
]  # fmt: skip
BARE = re.compile(r"(?:ст\.|стать[а-я]+|art\.|articolul)\s*\d+")


def scan_floor(texts: list[tuple[str, str]]) -> int:
    """What any extractor of this grammar pays before reading a single citation: the equal-length fold and the
    two whole-text scans it cannot do without (article words, act names), each from a literal the regex engine
    skips to in C, and one record per article found, with no grammar at all (no act, list, part or decision).
    Printed beside the bare scan so the 5x goal can be judged against what pure Python can reach at all."""
    out: list[Citation] = []
    acts = default_registry()._alias_scan  # the registry's one compiled scan over every act name
    for t, j in texts:
        f = fold(t)
        acts[j].findall(f)
        for m in (ru if j == "ru" else ro).UNIT.finditer(f):
            s, e = m.span()
            out.append(new_citation(s, e, t[s:e], "article", "ru" if j == "ru" else "ro", None, None, m["items"]))
    return len(out)


def answer(rng: random.Random, prose: list[str], cites: list[str]) -> str:
    out = []
    for _ in range(rng.randint(3, 8)):
        sentence = rng.choice(prose)
        if rng.random() < 0.7:
            a = rng.randint(1, 1500)
            cite = rng.choice(cites).format(a=a, b=a + 1, c=a + 2, p=rng.randint(1, 9))
            sentence = sentence[:-1] + f" ({cite})."
        out.append(sentence)
    return " ".join(out)


def density(answers: list[tuple[str, list[tuple[int, int]]]]) -> str:
    """Citations per KB of UTF-8 and the share of characters inside no citation: how much prose an extractor
    reads between citations, which decides its throughput as much as the grammar does."""
    size = sum(len(t.encode("utf-8")) for t, _ in answers)
    count = sum(len(spans) for _, spans in answers)
    chars = sum(len(t) for t, _ in answers)
    covered = 0
    for t, spans in answers:
        mask = bytearray(len(t))
        for s, e in spans:
            mask[s:e] = b"\1" * (e - s)
        covered += mask.count(1)
    return (
        f"{1000 * count / size:.2f} citations per KB, {1 - covered / chars:.0%} of the text outside citations"
    )


def dev_density() -> str | None:
    """The same figures for the labelled dev sets (gold citations), the real answers the mix imitates."""
    answers: list[tuple[str, list[tuple[int, int]]]] = []
    for path in sorted(DEV_SETS.glob("*-dev.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                text = item["text"]
                spans = []
                for c in item["citations"]:
                    at = text.find(c["surface"])
                    spans.append((at, at + len(c["surface"])) if at >= 0 else (0, 0))
                answers.append((text, spans))
    return density(answers) if answers else None


def corpus_lookup() -> SetLookup:
    files = {
        "ru/pravo-gov-ru-html/102033239.html": "ru/gk", "ru/pravo-gov-ru-html/102073578.html": "ru/gk",
        "ru/pravo-gov-ru-html/102038925.html": "ru/sk", "ru/pravo-gov-ru-html/102074279.html": "ru/tk",
        "ru/pravo-gov-ru-html/102078828.html": "ru/gpk", "ro/codes-markdown/codul_civil.md": "ro/cciv",
        "ro/codes-markdown/codul_de_procedura_civila.md": "ro/cpc",
    }  # fmt: skip
    heading = re.compile(r"(?:class=\"H\">Статья\s+|^#{6}\s+Art(?:\.|icolul)\s+)(\d+(?:\.\d+)*)", re.M)
    rows = []
    for rel, act in files.items():
        path = SHARED / rel
        if not path.exists():
            continue
        for m in heading.finditer(path.read_text(encoding="utf-8", errors="replace")):
            article = m.group(1) if act.startswith("ru") else m.group(1).replace(".", "")
            rows.append((rel, act, article, f"{act}:{article}"))
    return SetLookup(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=8.0, help="size of the generated text, in MB of UTF-8")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    args = ap.parse_args()
    rng = random.Random(7)
    texts: list[tuple[str, str]] = []
    size = 0
    while size < args.mb * 1e6:
        j = rng.choice(("ru", "ro"))
        t = answer(rng, RU_PROSE, RU_CITES) if j == "ru" else answer(rng, RO_PROSE, RO_CITES)
        texts.append((t, j))
        size += len(t.encode("utf-8"))
    mb = size / 1e6
    extract("ст. 1 ГК РФ", "ru")  # registry load and regex compilation are not part of the throughput

    def timed(run: Callable[[], object]) -> tuple[float, float]:
        """Best CPU and wall seconds of `run` over the repeats."""
        cpu = wall = float("inf")
        for _ in range(args.repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            run()
            cpu, wall = min(cpu, time.process_time() - c0), min(wall, time.perf_counter() - w0)
        return cpu, wall

    markers = sum(1 for t, _ in texts for _ in BARE.finditer(t))
    bare_cpu, bare_wall = timed(lambda: [m for t, _ in texts for m in BARE.finditer(t)])
    floor_cpu, _ = timed(lambda: scan_floor(texts))
    cites: list[Citation] = []
    full_cpu, full_wall = timed(
        lambda: cites.__setitem__(slice(None), [c for t, _ in texts for c in extract(t)])
    )
    print(
        f"text: {mb:.1f} MB UTF-8 in {len(texts)} answers; {markers} article markers, {len(cites)} citations"
    )
    found = [(t, [(c.start, c.end) for c in extract(t)]) for t, _ in texts[:2000]]
    print(f"density of the generated mix: {density(found)}")
    dev = dev_density()
    if dev is not None:
        print(f"density of the labelled dev sets:  {dev}")
    print(f"bare scan (one regex): {mb / bare_cpu:8.1f} MB/s CPU  ({mb / bare_wall:.1f} MB/s wall)")
    print(f"fold, 2 scans, 1 record/hit: {mb / floor_cpu:5.1f} MB/s CPU   ratio to bare scan: "
          f"{floor_cpu / bare_cpu:.1f}x (the floor of a pure-Python extractor of this grammar)")
    print(
        f"extract (auto):        {mb / full_cpu:8.1f} MB/s CPU  ({mb / full_wall:.1f} MB/s wall)   "
        f"ratio to bare scan: {full_cpu / bare_cpu:.1f}x; {1e6 * full_cpu / len(cites):.1f} µs CPU per citation"
    )

    t0 = time.perf_counter()
    lookup = corpus_lookup()
    build = time.perf_counter() - t0
    sample = [c for c in cites if c.kind == "article"]
    batch = [sample[i % len(sample)] for i in range(100_000)]
    t0 = time.perf_counter()
    res = resolve(batch, lookup)
    took = time.perf_counter() - t0
    counts: dict[str, int] = {}
    for r in res:
        counts[r.status] = counts.get(r.status, 0) + 1
    print(f"lookup built from corpus headings in {build:.2f} s")
    print(f"resolve 100,000 citations: {took:.3f} s  ({counts})")


if __name__ == "__main__":
    main()
