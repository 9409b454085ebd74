"""A synthetic warehouse input at any scale, deterministic from a seed: corpus, benchmark, systems, answers.

Usage: .venv/bin/python benchmarks/generate.py TARGET [--seed 7] [--scale 0.01]
       [--documents N] [--units N] [--etalons N] [--systems N]

Scale 1 is issue #9's target: 10,000 documents holding 1,000,000 units in the formats the ingester reads
(Russian portal HTML and plain-text federal laws, Supreme Court Plenum resolutions, Romanian Markdown, legislatie
JSON Lines, Akoma Ntoso), 2,000 etalons citing them and 25 imported systems. The texts are word salad from
lists written here, never passages of real acts: the point is volume and structure, not law. Acts get numbers
from 5000 up, which no real federal law or Romanian law of the registry uses, so citations resolve only to the
synthetic corpus. Every item draws from its own random stream (seed, kind, index), so a re-run with the same
seed and sizes reproduces the folder byte for byte. Files are streamed to disk one at a time, each written
atomically, so memory stays flat at a million units.

TARGET receives corpus/<format>/..., sources.yaml (the corpus source list), etalons/scale/*.yaml,
etalons/systems.yaml (25 systems of kind import) and answers/<system>.jsonl (CONTRACT section 7).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import yaml

BENCHMARK = "scale"
FIRST_NUMBER = 5000
# format -> share of documents; every format the ingester reads, weighted roughly as a real corpus is
FORMATS: tuple[tuple[str, float], ...] = (
    ("ru-html", 0.30),
    ("ru-text", 0.15),
    ("ru-plenum", 0.10),
    ("ro-markdown", 0.20),
    ("ro-jsonl", 0.15),
    ("akn", 0.10),
)
JSONL_PER_FILE = 20


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


RU_WORDS = _words(
    "договор сторона имущество обязательство право суд требование срок заявление лицо орган решение "
    "порядок случай основание гражданин организация исполнение вред работник работодатель наследник "
    "собственник арендатор платеж сумма документ регистрация уведомление возмещение ответственность "
    "условие соглашение продавец покупатель заказчик подрядчик кредитор должник залог доля общество "
    "участник передача оценка проверка нарушение выплата расчет период месяц день год"
)
RU_VERBS = _words(
    "вправе обязан может устанавливает определяет признается подлежит допускается осуществляется"
)
RO_WORDS = _words(
    "contract parte bun obligație drept instanță cerere termen persoană organ decizie procedură caz "
    "temei cetățean societate executare prejudiciu salariat angajator moștenitor proprietar chiriaș "
    "plată sumă document înregistrare notificare despăgubire răspundere condiție acord vânzător "
    "cumpărător creditor debitor garanție asociat transfer evaluare control încălcare calcul lună an"
)
RO_VERBS = _words("poate trebuie stabilește determină este aplică consideră răspunde beneficiază")
RU_MONTHS = _words("января февраля марта апреля мая июня июля августа сентября октября ноября декабря")
RO_MONTHS = _words(
    "ianuarie februarie martie aprilie mai iunie iulie august septembrie octombrie noiembrie decembrie"
)
RU_BRANCHES = (
    "inheritance",
    "contracts",
    "labour",
    "land_realty",
    "family",
    "consumer",
    "procedure",
    "corporate",
    "tax",
    "housing",
)
TYPES = ("law", "application", "deadlines", "procedure", "trap")


@dataclass(frozen=True)
class Scale:
    documents: int
    units: int
    etalons: int
    systems: int
    seed: int = 7


def scale_for(fraction: float, seed: int = 7) -> Scale:
    """Issue #9's full size times `fraction`, never below one of each (and two units per document)."""
    if not 0 < fraction <= 1:
        raise ValueError(f"--scale {fraction}: expected a number in (0, 1]")
    docs = max(6, round(10_000 * fraction))
    return Scale(
        documents=docs,
        units=max(2 * docs, round(1_000_000 * fraction)),
        etalons=max(1, round(2_000 * fraction)),
        systems=max(1, round(25 * min(1.0, fraction * 10))),
        seed=seed,
    )


@dataclass(frozen=True)
class Doc:
    """One synthetic document: what etalons and answers need to cite it."""

    index: int
    fmt: str
    jurisdiction: str
    number: int
    year: int
    month: int
    day: int
    articles: int  # articles (points of a Plenum resolution)

    @property
    def units(self) -> int:
        """What the ingester counts: a Russian law's article gives an article unit and its first part."""
        return self.articles * (2 if self.fmt in ("ru-html", "ru-text") else 1)

    @property
    def act(self) -> str:
        if self.fmt == "ru-plenum":
            return f"ru/vs-plenum/{self.year}-{self.month:02d}-{self.day:02d}/{self.number}"
        return f"ru/fz-{self.number}" if self.jurisdiction == "ru" else f"ro/lege-{self.number}-{self.year}"

    def citation(self, article: int) -> str:
        if self.fmt == "ru-plenum":
            return (
                f"п. {article} постановления Пленума Верховного Суда РФ от "
                f"{self.day:02d}.{self.month:02d}.{self.year} № {self.number}"
            )
        if self.jurisdiction == "ru":
            return f"ст. {article} Федерального закона № {self.number}-ФЗ"
        return f"art. {article} din Legea nr. {self.number}/{self.year}"


def _rng(scale: Scale, kind: str, index: int) -> random.Random:
    return random.Random(f"{scale.seed}:{kind}:{index}")


def _formats(n: int) -> list[str]:
    """Exactly n formats in the given shares, interleaved (largest remainder), the same for every seed."""
    counts = {f: int(n * w) for f, w in FORMATS}
    for f, _ in sorted(FORMATS, key=lambda fw: -(n * fw[1] - int(n * fw[1])))[: n - sum(counts.values())]:
        counts[f] += 1
    out: list[str] = []
    taken = dict.fromkeys(counts, 0)
    for i in range(n):
        f = max(counts, key=lambda k: (counts[k] * (i + 1) / n - taken[k], -list(counts).index(k)))
        taken[f] += 1
        out.append(f)
    return out


def plan(scale: Scale) -> list[Doc]:
    base, extra = divmod(scale.units, scale.documents)
    docs = []
    for i, fmt in enumerate(_formats(scale.documents)):
        rng = _rng(scale, "doc", i)
        units = base + (1 if i < extra else 0)
        articles = max(1, round(units / 2)) if fmt in ("ru-html", "ru-text") else units
        docs.append(
            Doc(
                i,
                fmt,
                "ru" if fmt.startswith("ru") else "ro",
                FIRST_NUMBER + i,
                rng.randint(1995, 2024),
                rng.randint(1, 12),
                rng.randint(1, 28),
                articles,
            )
        )
    return docs


def _sentence(rng: random.Random, ru: bool, words: int) -> str:
    nouns, verbs = (RU_WORDS, RU_VERBS) if ru else (RO_WORDS, RO_VERBS)
    picked = rng.choices(nouns, k=words)
    picked.insert(min(2, len(picked)), rng.choice(verbs))
    return " ".join(picked).capitalize() + "."


def _body(rng: random.Random, ru: bool) -> str:
    return " ".join(_sentence(rng, ru, rng.randint(6, 14)) for _ in range(rng.randint(1, 3)))


def _heading(rng: random.Random, ru: bool) -> str:
    return " ".join(rng.choices(RU_WORDS if ru else RO_WORDS, k=rng.randint(2, 4))).capitalize()


def _title(doc: Doc, rng: random.Random) -> str:
    words = " ".join(rng.choices(RU_WORDS if doc.jurisdiction == "ru" else RO_WORDS, k=3))
    return (
        f"О синтетическом порядке: {words}"
        if doc.jurisdiction == "ru"
        else f"privind regimul sintetic: {words}"
    )


# -- the formats ----------------------------------------------------------------------------------------


def ru_html(doc: Doc, rng: random.Random) -> str:
    title = _title(doc, rng)
    parts = [
        '<!DOCTYPE html>\n<html lang="ru">\n<head>\n<meta charset="utf-8">\n',
        f"<title>Федеральный закон от {doc.day} {RU_MONTHS[doc.month - 1]} {doc.year} г. N {doc.number}-ФЗ"
        "</title>\n</head>\n<!-- synthetic text generated by benchmarks/generate.py, not an official text -->\n"
        '<body>\n<p class="C">РОССИЙСКАЯ ФЕДЕРАЦИЯ</p>\n<p>&nbsp;</p>\n<p class="T">ФЕДЕРАЛЬНЫЙ ЗАКОН</p>\n'
        f'<p>&nbsp;</p>\n<p class="T">{escape(title.upper())}</p>\n<p>&nbsp;</p>\n'
        f'<p class="I">Принят Государственной Думой {doc.day} {RU_MONTHS[doc.month - 1]} {doc.year} года</p>\n',
    ]
    for a in range(1, doc.articles + 1):
        if a % 25 == 1:
            parts.append(f'<p class="H">Глава {a // 25 + 1}. {escape(_heading(rng, True).upper())}</p>\n')
        parts.append(
            f'<p class="H">Статья {a}. {escape(_heading(rng, True))}</p>\n<p>{escape(_body(rng, True))}</p>\n'
        )
    parts.append(
        f"<p>Президент</p>\n<p>Российской Федерации</p>\n<p>Москва, Кремль</p>\n"
        f"<p>{doc.day} {RU_MONTHS[doc.month - 1]} {doc.year} года</p>\n<p>N {doc.number}-ФЗ</p>\n"
        "</body>\n</html>\n"
    )
    return "".join(parts)


def ru_text(doc: Doc, rng: random.Random) -> str:
    date = f"{doc.day} {RU_MONTHS[doc.month - 1]} {doc.year} года"
    parts = [
        f"{date} N {doc.number}-ФЗ\n\nРОССИЙСКАЯ ФЕДЕРАЦИЯ\n\nФЕДЕРАЛЬНЫЙ ЗАКОН\n\n"
        f"{_title(doc, rng).upper()}\n\nПринят\nГосударственной Думой\n{date}\n\n"
    ]
    for a in range(1, doc.articles + 1):
        parts.append(f"Статья {a}. {_heading(rng, True)}\n{_body(rng, True)}\n\n")
    parts.append(f"Президент\nРоссийской Федерации\nМосква, Кремль\n{date}\nN {doc.number}-ФЗ\n")
    return "".join(parts)


def ru_plenum(doc: Doc, rng: random.Random) -> str:
    parts = [
        "ПЛЕНУМ ВЕРХОВНОГО СУДА РОССИЙСКОЙ ФЕДЕРАЦИИ\n\nПОСТАНОВЛЕНИЕ\n\n"
        f"от {doc.day} {RU_MONTHS[doc.month - 1]} {doc.year} г. N {doc.number}\n\n"
        f"О СУДЕБНОЙ ПРАКТИКЕ ПО ДЕЛАМ: {' '.join(rng.choices(RU_WORDS, k=3)).upper()}\n\n"
        "В целях обеспечения единства практики Пленум Верховного Суда Российской Федерации постановляет "
        "дать судам следующие разъяснения:\n\n"
    ]
    for p in range(1, doc.articles + 1):
        parts.append(f"{p}. {_body(rng, True)}\n\n")
    parts.append("Председатель Верховного Суда\nРоссийской Федерации\n")
    return "".join(parts)


def ro_markdown(doc: Doc, rng: random.Random) -> str:
    parts = [
        f"# Legea {_title(doc, rng)}\n\nLegea nr. {doc.number}/{doc.year}\n"
        f"Forma sintetică la {doc.day} {RO_MONTHS[doc.month - 1]} {doc.year}\n\n"
    ]
    for a in range(1, doc.articles + 1):
        if a % 25 == 1:
            parts.append(f"#### CAPITOLUL {a // 25 + 1} — {_heading(rng, False)}\n\n")
        parts.append(f"###### Articolul {a} — {_heading(rng, False)}\n\n{_body(rng, False)}\n\n")
    return "".join(parts)


def ro_record(doc: Doc, rng: random.Random) -> str:
    when = f"{doc.day} {RO_MONTHS[doc.month - 1]} {doc.year}"
    title = f"LEGE nr. {doc.number} din {when} {_title(doc, rng)}"
    blocks = [
        f" {title}     EMITENT     PARLAMENTUL ROMÂNIEI       Publicat în MONITORUL OFICIAL nr. {doc.index} "
        f"din {when}   "
    ]
    blocks.extend(f"  Articolul {a}      {_body(rng, False)}    " for a in range(1, doc.articles + 1))
    record = {
        "Titlu": title,
        "TipAct": "LEGE",
        "Numar": str(doc.number),
        "Emitent": "Parlamentul",
        "DataVigoare": f"{doc.year}-{doc.month:02d}-{doc.day:02d}",
        "Publicatie": "Monitorul Oficial",
        "LinkHtml": f"http://legislatie.just.ro/Public/DetaliiDocument/{900000 + doc.index}",
        "Text": "\n\t\t\t\t + \n\t\t\t".join(blocks),
    }
    return json.dumps(record, ensure_ascii=False) + "\n"


def akn(doc: Doc, rng: random.Random) -> str:
    date = f"{doc.year}-{doc.month:02d}-{doc.day:02d}"
    uri = f"/akn/ro/act/lege/{date}/{doc.number}"
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<!-- synthetic text generated by benchmarks/generate.py -->\n'
        '<akomaNtoso xmlns="http://docs.oasis-open.org/legaldocml/ns/akn/3.0">\n<act name="lege">\n<meta>'
        f'<identification source="#etalon"><FRBRWork><FRBRthis value="{uri}/main"/><FRBRuri value="{uri}"/>'
        f'<FRBRdate date="{date}" name="adoptare"/><FRBRauthor href="#parlament"/>'
        f'<FRBRcountry value="ro"/><FRBRnumber value="{doc.number}"/></FRBRWork></identification></meta>\n'
        f'<preface><p class="title"><docTitle>Legea nr. {doc.number}/{doc.year} '
        f"{escape(_title(doc, rng))}</docTitle></p></preface>\n<body>\n"
    ]
    for a in range(1, doc.articles + 1):
        parts.append(
            f'<article eId="art_{a}"><num>Articolul {a}</num><heading>{escape(_heading(rng, False))}'
            f"</heading><content><p>{escape(_body(rng, False))}</p></content></article>\n"
        )
    parts.append("</body>\n</act>\n</akomaNtoso>\n")
    return "".join(parts)


WRITERS = {
    "ru-html": (ru_html, "ru/html", ".html"),
    "ru-text": (ru_text, "ru/text", ".txt"),
    "ru-plenum": (ru_plenum, "ru/plenum", ".txt"),
    "ro-markdown": (ro_markdown, "ro/markdown", ".md"),
    "akn": (akn, "akn", ".xml"),
}


def write_text(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_corpus(root: Path, scale: Scale, docs: Sequence[Doc]) -> int:
    """One file per document (legislatie records twenty to a JSON Lines file); returns bytes written."""
    total = 0
    records: list[str] = []
    for doc in docs:
        rng = _rng(scale, "text", doc.index)
        if doc.fmt == "ro-jsonl":
            records.append(ro_record(doc, rng))
            if len(records) == JSONL_PER_FILE:
                total += _flush_records(root, records, doc.index)
            continue
        make, folder, suffix = WRITERS[doc.fmt]
        text = make(doc, rng)
        write_text(root / folder / f"{doc.index // 1000:03d}" / f"{doc.fmt}-{doc.index:06d}{suffix}", text)
        total += len(text.encode("utf-8"))
    if records:
        total += _flush_records(root, records, docs[-1].index)
    return total


def _flush_records(root: Path, records: list[str], last: int) -> int:
    text = "".join(records)
    write_text(root / "ro" / "legislatie" / f"legislatie-{last:06d}.jsonl", text)
    records.clear()
    return len(text.encode("utf-8"))


# -- the benchmark, the systems and their answers --------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    code: str
    jurisdiction: str
    sources: tuple[tuple[Doc, int, str], ...]  # document, article, priority


def plan_etalons(scale: Scale, docs: Sequence[Doc]) -> list[Planned]:
    by_j = {j: [d for d in docs if d.jurisdiction == j and d.fmt != "ru-plenum"] for j in ("ru", "ro")}
    plenums = [d for d in docs if d.fmt == "ru-plenum"]
    out = []
    for i in range(scale.etalons):
        rng = _rng(scale, "etalon", i)
        j = "ru" if i % 2 == 0 or not by_j["ro"] else "ro"
        pool = by_j[j] or by_j["ru"] or by_j["ro"]
        main = pool[rng.randrange(len(pool))]
        other = pool[rng.randrange(len(pool))]
        chosen = [
            (main, rng.randint(1, main.articles), "mandatory"),
            (main, rng.randint(1, main.articles), "conditional"),
            (other, rng.randint(1, other.articles), "recommended"),
        ]
        if j == "ru" and plenums and rng.random() < 0.5:
            plenum = plenums[rng.randrange(len(plenums))]
            chosen.append((plenum, rng.randint(1, plenum.articles), "recommended"))
        unique = {(d.act, a): (d, a, p) for d, a, p in chosen}
        out.append(Planned(f"SC-{i:05d}", main.jurisdiction, tuple(unique.values())))
    return out


def etalon_yaml(item: Planned, scale: Scale) -> str:
    rng = _rng(scale, "etalon-text", int(item.code[3:]))
    ru = item.jurisdiction == "ru"
    cites = [d.citation(a) for d, a, _ in item.sources]
    sources = []
    for d, a, priority in item.sources:
        entry = {"citation": d.citation(a), "priority": priority}
        if priority == "conditional":
            entry["condition"] = _sentence(rng, ru, 5)
        sources.append(entry)
    data = {
        "code": item.code,
        "title": _heading(rng, ru),
        "jurisdiction": item.jurisdiction,
        "branch": RU_BRANCHES[rng.randrange(len(RU_BRANCHES))],
        "difficulty": rng.randint(1, 3),
        "type": TYPES[rng.randrange(len(TYPES))],
        "methodology": "lesto" if ru else "stielegi",
        "question": _body(rng, ru) + "\n",
        "decisive_issue": _sentence(rng, ru, 8),
        "branches": [_sentence(rng, ru, 6), _sentence(rng, ru, 6)],
        "reference_answer": " ".join(f"{_sentence(rng, ru, 8)[:-1]} ({c})." for c in cites) + "\n",
        "next_steps": _sentence(rng, ru, 8),
        "sources": sources,
        "gross_errors": [_sentence(rng, ru, 6)],
    }
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=110)


def systems_yaml(scale: Scale) -> str:
    systems = [{"id": system_id(s), "kind": "import", "attempts": 1} for s in range(scale.systems)]
    return "# synthetic systems generated by benchmarks/generate.py\n" + yaml.safe_dump({"systems": systems})


def system_id(s: int) -> str:
    return f"sys-{s:02d}"


def quality(s: int, systems: int) -> float:
    """From 0.9 (the best system cites most expected sources) down to 0.3."""
    return 0.9 - 0.6 * s / max(1, systems - 1)


def answer_line(item: Planned, s: int, scale: Scale, pools: dict[str, list[Doc]]) -> str:
    """Cites each expected source with the system's quality; invents articles and swaps acts the more the
    worse the system: about 3 citations per answer, 10-25% of them not in the corpus or of the wrong act."""
    rng = _rng(scale, f"answer-{s}", int(item.code[3:]))
    ru = item.jurisdiction == "ru"
    q = quality(s, scale.systems)
    said: list[str] = []
    for d, a, _ in item.sources:
        if rng.random() < q:
            said.append(d.citation(a))
        elif rng.random() < 0.5:
            said.append(d.citation(d.articles + rng.randint(1, 300)))  # an invented article
        else:
            pool = pools[item.jurisdiction]
            wrong = pool[rng.randrange(len(pool))]
            said.append(wrong.citation(min(a, wrong.articles)))  # right number, wrong act
    if rng.random() < 1 - q:
        d = item.sources[0][0]
        said.append(d.citation(d.articles + rng.randint(301, 900)))
    text = " ".join(f"{_sentence(rng, ru, rng.randint(6, 12))[:-1]} ({c})." for c in said)
    answer: dict[str, object] = {"code": item.code, "text": text + " " + _body(rng, ru), "attempt": 1}
    if rng.random() < 0.3:
        answer["sources"] = said[:2]
    return json.dumps(answer, ensure_ascii=False) + "\n"


def write_benchmark(root: Path, scale: Scale, docs: Sequence[Doc]) -> tuple[int, int]:
    items = plan_etalons(scale, docs)
    bench = root / "etalons" / BENCHMARK
    canary = f"{_rng(scale, 'canary', 0).getrandbits(128):032x}"
    write_text(
        bench / "benchmark.yaml",
        yaml.safe_dump(
            {"name": "Synthetic scale benchmark", "methodology": "lesto", "canary": canary},
            allow_unicode=True,
        ),
    )
    for item in items:
        write_text(bench / f"{item.code}.yaml", etalon_yaml(item, scale))
    write_text(root / "etalons" / "systems.yaml", systems_yaml(scale))
    answers = 0
    pools = {
        j: [d for d in docs if d.jurisdiction == j and d.fmt != "ru-plenum"] or list(docs)
        for j in ("ru", "ro")
    }
    for s in range(scale.systems):
        write_text(
            root / "answers" / f"{system_id(s)}.jsonl",
            "".join(answer_line(item, s, scale, pools) for item in items),
        )
        answers += len(items)
    return len(items), answers


def generate(target: Path, scale: Scale) -> dict[str, float]:
    """Write everything under `target`; returns counts and seconds."""
    started = time.perf_counter()
    target.mkdir(parents=True, exist_ok=True)
    docs = plan(scale)
    size = write_corpus(target / "corpus", scale, docs)
    corpus_s = time.perf_counter() - started
    write_text(
        target / "sources.yaml",
        yaml.safe_dump({"sources": [{"name": "synthetic", "path": str((target / "corpus").resolve())}]}),
    )
    etalons, answers = write_benchmark(target, scale, docs)
    return {
        "documents": len(docs),
        "units": sum(d.units for d in docs),
        "corpus_mb": round(size / 1e6, 1),
        "etalons": etalons,
        "systems": scale.systems,
        "answers": answers,
        "corpus_seconds": round(corpus_s, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def iter_documents(scale: Scale) -> Iterator[Doc]:
    yield from plan(scale)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("target", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="fraction of issue #9's full size, in (0, 1]"
    )
    for name in ("documents", "units", "etalons", "systems"):
        parser.add_argument(f"--{name}", type=int, default=None, help=f"explicit number of {name}")
    args = parser.parse_args(argv)
    base = scale_for(args.scale, args.seed)
    scale = Scale(
        documents=args.documents or base.documents,
        units=args.units or base.units,
        etalons=args.etalons or base.etalons,
        systems=args.systems or base.systems,
        seed=args.seed,
    )
    if scale.units < scale.documents:
        parser.error(f"--units {scale.units}: expected at least one unit per document ({scale.documents})")
    print(json.dumps(generate(args.target, scale)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
