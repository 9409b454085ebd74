"""What a nightly refresh of a full code set costs: requests and seconds, first fetch vs a quiet night vs one
amended document, against loopback servers speaking the pravo.gov.ru and legislatie.just.ro protocols.

    .venv/bin/python benchmarks/refresh.py [--documents 200] [--records 400] [--page-size 20]

The code set is made from the sample's consolidated pages (each page served under its own document number with
its own bytes) and the sample's legislatie.just.ro records (each a distinct act). Printed per scenario: requests,
bytes downloaded, seconds, and the seconds as a ratio of the first fetch (the baseline, same process).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from corpus.remote import legislatie, pravo
from tests.corpus.remote.loopback import Site, serve

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted((REPO / "corpus" / "sample" / "ru" / "html").glob("*.html"))
RECORDS = REPO / "corpus" / "sample" / "ro" / "legislatie" / "legislatie-sample.jsonl"


def _served_bytes(site: Site, since: int) -> int:
    return sum(len(site.files[p].body) for p, code, _ in site.requests[since:] if code == 200 and p in site.files)


def pravo_scenarios(site: Site, documents: int, folder: Path) -> list[tuple[str, int, int, float]]:
    numbers = [str(102000000 + i) for i in range(documents)]
    for i, nd in enumerate(numbers):
        page = PAGES[i % len(PAGES)].read_bytes().replace(b"</body>", f"<!-- {nd} --></body>".encode())
        site.set(f"/proxy/ips/?doc_itself=&nd={nd}", page, "text/html")   # each page names its charset
    opts = pravo.settings({"base_url": site.base_url, "documents": numbers, "rate": 0})
    out = []

    def once(label: str) -> None:
        before, started = site.count(), time.perf_counter()
        pravo.fetch(opts, folder, "ru-codes")
        out.append((label, site.count() - before, _served_bytes(site, before), time.perf_counter() - started))

    once("pravo.gov.ru: first fetch")
    once("pravo.gov.ru: a night with nothing amended")
    path = f"/proxy/ips/?doc_itself=&nd={numbers[0]}"
    site.set(path, site.files[path].body.replace(b"</body>", b"<!-- amended --></body>"), "text/html")
    once("pravo.gov.ru: one document amended")
    return out


def legislatie_scenarios(site: Site, records: int, size: int, folder: Path) -> list[tuple[str, int, int, float]]:
    base = [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines() if line]
    for i in range(records):
        record = copy.deepcopy(base[i % len(base)])
        record["LinkHtml"] = f"http://legislatie.just.ro/Public/DetaliiDocument/{500000 + i}"
        record["DataVigoare"] = f"{2000 + i % 25:04d}-{1 + i % 12:02d}-{1 + i % 28:02d}"
        site.records.append(record)
    opts = legislatie.settings({"base_url": site.base_url, "search": {"title": "nr."}, "page_size": size, "rate": 0})
    out = []

    def once(label: str) -> None:
        before, started = site.count(), time.perf_counter()
        legislatie.fetch(opts, folder, "ro-acts")
        out.append((label, site.count() - before, 0, time.perf_counter() - started))

    once("legislatie.just.ro: first fetch")
    once("legislatie.just.ro: a night with nothing new")
    site.records[0]["DataVigoare"] = "2030-01-01"
    site.records[0]["Text"] += " (consolidat)"
    once("legislatie.just.ro: one new consolidated version")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--page-size", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, serve() as site:
        rows = pravo_scenarios(site, args.documents, Path(tmp) / "ru")
        rows += legislatie_scenarios(site, args.records, args.page_size, Path(tmp) / "ro")
    print(f"{'scenario':<50} {'requests':>8} {'bytes':>10} {'seconds':>8} {'x first':>8}")
    first: dict[str, float] = {}
    for label, requests, size, seconds in rows:
        service = label.split(":")[0]
        first.setdefault(service, seconds)
        print(f"{label:<50} {requests:>8} {size:>10} {seconds:>8.3f} {seconds / first[service]:>8.3f}")


if __name__ == "__main__":
    main()
