"""Editing an etalon in the page: the CLI's own checks on the text, and what saving it will do.

The text is checked by the loader itself (a temporary copy of the benchmark folder holding the edited file
and the benchmark's own benchmark.yaml), so the page shows exactly the file:line:field errors `etalon update`
would; every source is looked up in the corpus as signing would. The plan compares the new version with the
one in the warehouse: a new version or not, the signature it revokes, the cells that will be re-evaluated
and how far (a new question re-asks the systems, a new rubric re-judges, any new version re-scores).
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.web.corpus import Corpus
from app.web.snapshot import Snapshot
from etalons.errors import EtalonError
from etalons.loader import BENCHMARK_FILE, LoadedEtalon, load_benchmarks
from etalons.verify import SourceCheck, verify_sources
from warehouse.home import Home


@dataclass
class Check:
    errors: list[EtalonError] = field(default_factory=list)
    warnings: list[EtalonError] = field(default_factory=list)
    loaded: LoadedEtalon | None = None
    sources: list[SourceCheck] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)


def file_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def etalon_path(home: Home, shown_file: str) -> Path:
    """The real file behind a shown path `<etalons folder>/<benchmark>/<file>.yaml`, refused outside it."""
    parts = Path(shown_file).parts
    if len(parts) != 3 or not parts[2].endswith(".yaml") or parts[2] == BENCHMARK_FILE:
        raise ValueError(f"{shown_file}: expected <etalons>/<benchmark>/<file>.yaml")
    root = home.etalons_dir.resolve()
    path = (root / parts[1] / parts[2]).resolve()
    if not path.is_relative_to(root) or path.parent.parent != root:
        raise ValueError(f"{shown_file}: outside the etalons folder")
    return path


def check(home: Home, snap: Snapshot, corpus: Corpus, benchmark: str, file_name: str, text: str,
          code_before: str | None) -> Check:
    """The loader's errors for `text` as `<benchmark>/<file_name>`, its sources, and the save's plan."""
    shown_root = home.etalons_dir.name or "etalons"
    result = Check()
    with tempfile.TemporaryDirectory(prefix="etalon-edit-") as tmp:
        root = Path(tmp) / shown_root
        folder = root / benchmark
        folder.mkdir(parents=True)
        source_config = home.etalons_dir / benchmark / BENCHMARK_FILE
        if source_config.exists():
            shutil.copyfile(source_config, folder / BENCHMARK_FILE)
        (folder / file_name).write_text(text, encoding="utf-8")
        loaded = load_benchmarks(root)
    shown = f"{shown_root}/{benchmark}/{file_name}"
    result.errors = [e for e in loaded.errors if e.file == shown or e.file.endswith(BENCHMARK_FILE)]
    result.warnings = [w for w in loaded.warnings if w.file == shown]
    if result.errors or not loaded.etalons:
        return result
    item = loaded.etalons[0]
    result.loaded = item
    if code_before is not None and item.code != code_before:
        result.errors.append(EtalonError(shown, item.code_line, "code", f"expected {code_before!r}: a code is "
                                         "permanent (a new etalon is a new file)"))
        return result
    clash = snap.one("SELECT file FROM etalons WHERE code = ? AND file <> ?", [item.code, shown])
    if clash is not None:
        result.errors.append(EtalonError(shown, item.code_line, "code",
                                         f"expected a code no other etalon uses, got {item.code!r}, also used "
                                         f"by {clash['file']}"))
        return result
    if corpus.lookup is not None:
        result.sources = verify_sources(item, corpus.lookup)
    result.plan = plan(snap, item, result.sources)
    return result


def plan(snap: Snapshot, item: LoadedEtalon, sources: list[SourceCheck]) -> list[str]:
    current: dict[str, Any] | None = snap.one("SELECT * FROM history WHERE code = ? AND is_current", [item.code])
    if current is None:
        return [f"a new etalon {item.code}, version {item.version}, in the pool until someone signs it"]
    if current["version"] == item.version:
        retitled = current["title"] != item.etalon.title
        return ["a new title only: no new version, the signature and every score stay"] if retitled else \
            ["no change to the etalon: nothing to re-evaluate"]
    out = [f"a new version {item.version} (now {current['version']})"]
    if current.get("signed_by"):
        out.append(f"the signature of {current['signed_by']} on version {current['version']} is revoked: "
                   "the new version goes back to the pool until it is signed again")
    cells = snap.value("SELECT count(*) FROM scores WHERE code = ? AND version = ?", [item.code, current["version"]])
    systems = snap.value("SELECT count(DISTINCT system) FROM scores WHERE code = ? AND version = ?",
                         [item.code, current["version"]])
    how = "re-scored"
    if current.get("question_version") != item.question_version:
        how = "re-asked (the question changed), then cited, judged and scored again"
    elif current.get("rubric_version") != item.rubric_version:
        how = "re-judged (the rubric changed) and re-scored"
    out.append(f"{cells or 0} cell(s) of {systems or 0} system(s) to re-evaluate: {how}")
    unresolved = [s for s in sources if not s.resolved]
    if unresolved:
        out.append(f"{len(unresolved)} source(s) not found in the corpus: it cannot be signed, and is not "
                   "evaluated automatically, until they are")
    return out
