"""A small Etalon project driven by sequences of user actions, and the full evaluation it must always equal.

A project has two benchmarks (Russian etalons scored by lesto, Romanian ones by stielegi, both in one folder as
the sample has them, plus a second benchmark), the sample corpus split into two sources, two systems of kind
`import`, one OpenAI-compatible system and a judge on a loopback server. Actions are what people do: ingest or
amend the corpus, remove a source, add/edit/break/remove etalons, edit benchmark.yaml (its audit setting too),
import answers, decide, label audit items (blind) and dispute the judge, undo, approve, sign, change systems.yaml,
kill a run midway. After each action an update runs; after a sequence
the warehouse is compared, row for row in the contract views, with a fresh warehouse given the same inputs.
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import yaml

from evaluation.testserver import Rule, TestServer

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "etalons" / "sample"
ANSWERS = REPO / "evaluation" / "sample" / "answers"
CORPUS = REPO / "corpus" / "sample"
RU = ("NAS-01", "DOG-01", "ZHK-01", "TRD-01", "SEM-01", "ADM-01")
RO = ("RO-MOS-01", "RO-FAM-01", "RO-CON-01", "RO-MUN-01", "RO-LOC-01", "RO-IMO-01")
SECOND = "extra"          # a second benchmark, with its own settings
IMPORT_SYSTEMS = ("imp1", "imp2")
LLM = "llm"
VOLATILE = {"scored_at", "created_at", "latency_ms", "passport", "first_seen", "computed_at", "imported_at",
            "file"}


def _sample_texts() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path in sorted(ANSWERS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.setdefault(row["code"], []).append(row["text"])
    return out


TEXTS = _sample_texts()


def judge_reply(body: dict[str, Any]) -> str:
    """A deterministic judge: a verdict by a hash of the request, quoting the answer's first sentence (or, now
    and then, a sentence the answer does not contain, which the program must catch)."""
    messages = body.get("messages") or []
    user = next((str(m.get("content") or "") for m in messages if m.get("role") == "user"), "")
    data = json.loads(user.split("\n", 1)[1]) if "\n" in user else {}
    answer = str(data.get("answer_under_evaluation") or "")
    kind = (data.get("element") or {}).get("kind")
    digest = sum(user.encode("utf-8")) % 7
    quote = answer.split(".")[0][:80].strip() if answer and digest != 3 else "Цитата, которой в ответе нет"
    if kind == "conclusion":
        verdict = ("correct", "partial", "incorrect", "correct", "partial", "correct", "incorrect")[digest]
    else:
        verdict = "yes" if digest % 2 else "no"
    return json.dumps({"verdict": verdict, "quote": quote, "reason": "scripted"}, ensure_ascii=False)


def llm_reply(body: dict[str, Any]) -> str:
    """A system under test: a sample answer of the etalon whose question it recognises."""
    text = "\n".join(str(m.get("content") or "") for m in body.get("messages") or [])
    for code, texts in sorted(TEXTS.items()):
        if code in _QUESTIONS and _QUESTIONS[code][:40] in text:
            return texts[sum(text.encode("utf-8")) % len(texts)]
    return "Не могу ответить без дополнительных сведений."


_QUESTIONS: dict[str, str] = {}
for _path in SAMPLE.glob("*.yaml"):
    if _path.name != "benchmark.yaml":
        _data = yaml.safe_load(_path.read_text(encoding="utf-8"))
        _QUESTIONS[_data["code"]] = str(_data["question"]).strip()


@contextmanager
def model_server() -> Iterator[TestServer]:
    rules = [Rule(system_contains="legal evaluator", reply=judge_reply), Rule(reply=llm_reply)]
    with TestServer(rules) as server:
        yield server


@dataclass
class Project:
    root: Path
    base_url: str
    rng: random.Random
    log: list[str] = field(default_factory=list)
    broken: dict[str, str] = field(default_factory=dict)     # code -> last good text of a file made broken
    deleted: dict[Path, bytes] = field(default_factory=dict)  # corpus files deleted by delete_document

    # -- layout -------------------------------------------------------------------------------------------
    @property
    def etalons(self) -> Path:
        return self.root / "etalons"

    @property
    def home_dir(self) -> Path:
        return self.root / "warehouse"

    def env(self) -> dict[str, str]:
        return {"ETALON_HOME": str(self.home_dir), "ETALON_ETALONS": str(self.etalons),
                "ETALON_SYSTEMS": str(self.etalons / "systems.yaml"), "ETALON_JOURNAL_FLUSH": "off",
                "ETALON_SIGNING_KEY": "differential-test-key"}

    @classmethod
    def create(cls, root: Path, base_url: str, seed: int, judge: bool = True) -> Project:
        project = cls(root, base_url, random.Random(seed))
        main = project.etalons / "sample"
        main.mkdir(parents=True)
        shutil.copy(SAMPLE / "benchmark.yaml", main / "benchmark.yaml")
        _set_yaml(main / "benchmark.yaml", shards=2, audit={"rate": 0.3, "min_per_stratum": 1, "seed": 11})
        for code in (*RU[:2], *RO[:2]):
            shutil.copy(SAMPLE / f"{code}.yaml", main / f"{code}.yaml")
        extra = project.etalons / SECOND
        extra.mkdir()
        (extra / "benchmark.yaml").write_text(yaml.safe_dump({
            "name": "Второй набор", "methodology": "stielegi", "canary": "0123456789abcdef0123456789abcdef",
            "shards": 2}, allow_unicode=True), encoding="utf-8")
        shutil.copy(SAMPLE / f"{RO[2]}.yaml", extra / f"{RO[2]}.yaml")
        for name in ("ru", "ro"):
            shutil.copytree(CORPUS / name, project.root / "corpus" / name)
        project.home_dir.mkdir()
        (project.home_dir / "sources.yaml").write_text(yaml.safe_dump({"sources": [
            {"name": "ru", "path": str(project.root / "corpus" / "ru")},
            {"name": "ro", "path": str(project.root / "corpus" / "ro")}]}), encoding="utf-8")
        project.write_systems([*IMPORT_SYSTEMS, LLM], judge=judge, attempts=1)
        return project

    def write_systems(self, systems: list[str], judge: bool = True, attempts: int = 1) -> None:
        entries: list[dict[str, Any]] = []
        for s in systems:
            if s == LLM:
                entries.append({"id": LLM, "kind": "openai", "base_url": self.base_url, "model": "sut-1",
                                "attempts": attempts, "retries": 0, "concurrency": 4})
            else:
                entries.append({"id": s, "kind": "import"})
        data: dict[str, Any] = {"systems": entries}
        if judge:
            data["judge"] = {"base_url": self.base_url, "model": "judge-1", "retries": 0, "concurrency": 8}
        (self.etalons / "systems.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")

    # -- running ------------------------------------------------------------------------------------------
    @contextmanager
    def environment(self) -> Iterator[None]:
        saved = {k: os.environ.get(k) for k in self.env()}
        os.environ.update(self.env())
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def home(self) -> Any:
        from warehouse.home import resolve_home

        with self.environment():
            return resolve_home()

    def update(self, through_dagster: bool = False) -> Any:
        with self.environment():
            if through_dagster:
                from app.runner import update

                return update(self.home())
            from evaluation.engine.run import update as plain

            # The report is not a contract view (its own tests read it): the reference path leaves it out.
            return plain(self.home(), groups=("corpus", "etalons", "cells", "analytics"))

    # -- the actions --------------------------------------------------------------------------------------
    def files(self) -> list[Path]:
        return sorted(p for p in self.etalons.glob("*/*.yaml") if p.name != "benchmark.yaml")

    def act(self, name: str) -> str:
        action: Callable[[], str] = getattr(self, f"_{name}")
        with self.environment():
            what = action()
        self.log.append(f"{name}: {what}")
        return what

    def _add_etalon(self) -> str:
        present = {p.stem for p in self.files()}
        pool = [c for c in (*RU, *RO) if c not in present]
        if not pool:
            return "nothing to add"
        code = self.rng.choice(pool)
        folder = self.rng.choice(["sample", SECOND]) if code.startswith("RO") else "sample"
        shutil.copy(SAMPLE / f"{code}.yaml", self.etalons / folder / f"{code}.yaml")
        return f"{folder}/{code}"

    def _edit_etalon(self) -> str:
        files = [p for p in self.files() if p.stem not in self.broken]
        if not files:
            return "no file"
        path = self.rng.choice(files)
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change = self.rng.choice(["title", "question", "reference_answer", "branches", "sources", "gross_errors"])
        if change == "title":
            data["title"] = data["title"] + " (ред.)"
        elif change == "question":
            data["question"] = str(data["question"]).strip() + " Что делать?"
        elif change == "reference_answer":
            data["reference_answer"] = str(data["reference_answer"]).strip() + " Срок не пропущен."
        elif change == "branches":
            data["branches"] = list(data.get("branches") or [])[:-1] or ["ещё одна ветвь"]
        elif change == "sources" and data.get("sources"):
            data["sources"] = data["sources"][:-1] if len(data["sources"]) > 1 else data["sources"]
            data["sources"][0]["priority"] = self.rng.choice(["mandatory", "recommended"])
        else:
            data["gross_errors"] = [*(data.get("gross_errors") or []), "ответ без ссылки на закон"]
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return f"{path.stem}: {change}"

    def _break_etalon(self) -> str:
        files = [p for p in self.files() if p.stem not in self.broken]
        if not files:
            return "no file"
        path = self.rng.choice(files)
        self.broken[path.stem] = path.read_text(encoding="utf-8")
        path.write_text(path.read_text(encoding="utf-8") + "\n  : [unclosed\n", encoding="utf-8")
        return path.stem

    def _fix_etalon(self) -> str:
        if not self.broken:
            return "nothing broken"
        code = self.rng.choice(sorted(self.broken))
        path = next(p for p in self.files() if p.stem == code)
        path.write_text(self.broken.pop(code), encoding="utf-8")
        return code

    def _remove_etalon(self) -> str:
        files = [p for p in self.files() if p.stem not in self.broken]
        if len(files) <= 1:
            return "keep the last"
        path = self.rng.choice(files)
        path.unlink()
        return path.stem

    def _edit_benchmark(self) -> str:
        path = self.rng.choice([self.etalons / "sample" / "benchmark.yaml", self.etalons / SECOND / "benchmark.yaml"])
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        change = self.rng.choice(["lesto", "stielegi", "thresholds", "shards", "audit"])
        if change == "audit":
            if data.get("audit") and self.rng.random() < 0.3:
                data.pop("audit")
            else:
                data["audit"] = {"rate": self.rng.choice([0.2, 0.5, 1.0]), "min_per_stratum": self.rng.choice([0, 1, 3]),
                                 "seed": self.rng.randrange(1000)}
        elif change == "lesto":
            data.setdefault("scoring", {})["lesto"] = {"weights": {"conclusion": self.rng.choice([30, 40, 50])}}
        elif change == "stielegi":
            data.setdefault("scoring", {})["stielegi"] = {"weights": {"sources": self.rng.choice([40, 50, 60])}}
        elif change == "thresholds":
            data["thresholds"] = {"negative_below": self.rng.choice([50, 60]), "positive_at": self.rng.choice([70, 80])}
        else:
            data["shards"] = self.rng.choice([1, 2, 3])
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return f"{path.parent.name}: {change}"

    def _import_answers(self) -> str:
        from app.actions import Refused, import_answers

        system = self.rng.choice(IMPORT_SYSTEMS)
        codes = [p.stem for p in self.files()]
        chosen = self.rng.sample(codes, k=max(1, len(codes) // 2))
        path = self.root / f"answers-{len(self.log)}.jsonl"
        lines = [json.dumps({"code": c, "text": self.rng.choice(TEXTS.get(c, ["Ответ."]))}, ensure_ascii=False)
                 for c in chosen]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            summary = import_answers(self.home(), path, system)
        except Refused as exc:
            return f"refused: {exc}"
        return f"{system}: {summary.imported}"

    def _decide(self) -> str:
        from app.actions import Refused, decide

        items = self.review_items()
        if not items:
            return "nothing open"
        item = self.rng.choice(items)
        value = self.rng.choice(json.loads(item["options"]))
        try:
            decision = decide(self.home(), item["id"], value, self.rng.choice(["Анна", "Олег"]), None)
        except Refused as exc:
            return f"refused: {exc}"
        return f"{item['id']} = {value} ({decision})"

    def _edit_audit(self) -> str:
        """The audit setting of the main benchmark changes: another rate, minimum or seed (the sample is redrawn)."""
        path = self.etalons / "sample" / "benchmark.yaml"
        audit = {"rate": self.rng.choice([0.2, 0.5, 1.0]), "min_per_stratum": self.rng.choice([0, 1, 3]),
                 "seed": self.rng.randrange(1000)}
        _set_yaml(path, audit=audit)
        return json.dumps(audit)

    def _audit_label(self) -> str:
        """A lawyer labels an item of the audit sample (blind), and now and then disagrees with the judge."""
        from app.actions import Refused, decide, disagree

        con = self.catalog()
        try:
            items = con.execute("SELECT id, options FROM eval.review WHERE situation = 'audit' ORDER BY id").fetchall()
        finally:
            con.close()
        if not items:
            return "nothing to audit"
        item_id, options = self.rng.choice(items)
        value = self.rng.choice(json.loads(options))
        try:
            label = decide(self.home(), item_id, value, self.rng.choice(["Анна", "Олег"]), None)
            if self.rng.random() < 0.25:
                disagree(self.home(), item_id, "Олег", "the judge missed it")
                return f"{item_id} = {value} ({label}), disputed"
        except Refused as exc:
            return f"refused: {exc}"
        return f"{item_id} = {value} ({label})"

    def _undo(self) -> str:
        from app.actions import Refused, undo

        con = self.catalog()
        try:
            ids = [r[0] for r in con.execute(
                "SELECT decision_id FROM eval.decisions WHERE revoked_at IS NULL UNION ALL "
                "SELECT decision_id FROM eval.audits WHERE revoked_at IS NULL").fetchall()]
        finally:
            con.close()
        if not ids:
            return "no decision"
        chosen = self.rng.choice(sorted(ids))
        try:
            undo(self.home(), chosen, "Анна")
        except Refused as exc:
            return f"refused: {exc}"
        return chosen

    def _approve(self) -> str:
        from app.actions import Refused, approve

        con = self.catalog()
        try:
            cells = con.execute("SELECT DISTINCT system, code FROM eval.scores WHERE is_current AND status = 'final'"
                                ).fetchall()
        finally:
            con.close()
        if not cells:
            return "nothing final"
        system, code = self.rng.choice(sorted(cells))
        try:
            n = approve(self.home(), system, code, self.rng.choice(["Анна", "Ревизор"]))
        except Refused as exc:
            return f"refused: {exc}"
        return f"{system}/{code}: {n}"

    def _sign(self) -> str:
        from app.actions import Refused, sign

        files = [p for p in self.files() if p.stem not in self.broken]
        if not files:
            return "no file"
        code = self.rng.choice(files).stem
        try:
            version = sign(self.home(), code, "Анна")
        except Refused as exc:
            return f"refused: {str(exc).splitlines()[0]}"
        return f"{code} {version}"

    def _amend_corpus(self) -> str:
        """A new version of a document: one unit's text changes (an amendment)."""
        docs = sorted(p for p in (self.root / "corpus").rglob("*") if p.is_file() and p.suffix in (".txt", ".md"))
        if not docs:
            return "no text document"
        path = self.rng.choice(docs)
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        candidates = [i for i, line in enumerate(lines) if len(line) > 60]
        if not candidates:
            return f"{path.name}: nothing to amend"
        i = self.rng.choice(candidates)
        lines[i] = lines[i].rstrip(".") + " (в редакции поправки)."
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return f"{path.name} line {i + 1}"

    def _delete_document(self) -> str:
        """A file leaves its source folder (its documents leave the corpus), or a file deleted earlier comes back."""
        if self.deleted and self.rng.random() < 0.5:
            path = self.rng.choice(sorted(self.deleted))
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(self.deleted.pop(path))
            return f"{path.name} restored"
        docs = sorted(p for p in (self.root / "corpus").rglob("*") if p.is_file())
        if not docs:
            return "no document"
        path = self.rng.choice(docs)
        self.deleted[path] = path.read_bytes()
        path.unlink()
        return f"{path.relative_to(self.root / 'corpus')} deleted"

    def _copy_document(self) -> str:
        """Another source holds a document too: a copy of one of the corpus's text documents (one line amended, or
        as it is) in the source `extra`, registered at a random priority — which copy is current is then the
        precedence rule's to decide (corpus.precedence), and a fresh warehouse must decide the same."""
        docs = sorted(p for p in (self.root / "corpus").rglob("*") if p.is_file() and p.suffix in (".txt", ".md")
                      and "extra" not in p.relative_to(self.root / "corpus").parts)
        if not docs:
            return "no text document"
        path = self.rng.choice(docs)
        lines = path.read_text(encoding="utf-8").splitlines()
        candidates = [i for i, line in enumerate(lines) if len(line) > 60]
        amended = bool(candidates) and self.rng.random() < 0.7
        if amended:
            i = self.rng.choice(candidates)
            lines[i] = lines[i].rstrip(".") + " (в редакции другого источника)."
        target = self.root / "corpus" / "extra" / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        priority = self._register_extra()
        return f"{path.name} copied{' amended' if amended else ''} (extra at priority {priority})"

    def _reprioritise(self) -> str:
        """The extra source's priority changes: the current copy of every document it shares may change side."""
        if not (self.root / "corpus" / "extra").exists():
            return "no extra source"
        return f"extra at priority {self._register_extra()}"

    def _register_extra(self) -> int:
        path = self.home_dir / "sources.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        priority = self.rng.choice([-1, 0, 1])
        data["sources"] = [s for s in data["sources"] if s["name"] != "extra"] + [
            {"name": "extra", "path": str(self.root / "corpus" / "extra"), "priority": priority}]
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        return priority

    def _remove_source(self) -> str:
        path = self.home_dir / "sources.yaml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if len(data["sources"]) > 1:
            gone = data["sources"].pop(self.rng.randrange(len(data["sources"])))
            path.write_text(yaml.safe_dump(data), encoding="utf-8")
            return gone["name"]
        data["sources"] = [{"name": "ru", "path": str(self.root / "corpus" / "ru")},
                           {"name": "ro", "path": str(self.root / "corpus" / "ro")}]
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        return "both sources back"

    def _change_systems(self) -> str:
        change = self.rng.choice(["remove", "restore", "attempts", "no judge"])
        if change == "remove":
            self.write_systems([IMPORT_SYSTEMS[0], LLM])
        elif change == "attempts":
            self.write_systems([*IMPORT_SYSTEMS, LLM], attempts=self.rng.choice([1, 2]))
        elif change == "no judge":
            self.write_systems([*IMPORT_SYSTEMS, LLM], judge=False)
        else:
            self.write_systems([*IMPORT_SYSTEMS, LLM])
        return change

    def _kill_midway(self) -> str:
        """An update that dies after a random number of lake writes, as a kill -9 between two of them would."""
        from warehouse import lake as lake_module

        limit = self.rng.randrange(1, 40)
        original = lake_module.write_atomic
        count = {"n": 0}

        def dying(*args: Any, **kwargs: Any) -> None:
            count["n"] += 1
            if count["n"] > limit:
                raise KilledMidway
            original(*args, **kwargs)

        lake_module.write_atomic = dying   # type: ignore[assignment]
        try:
            self._edit_etalon()
            from evaluation.engine.run import update as plain

            plain(self.home(), groups=("corpus", "etalons", "cells", "analytics"))
            return f"finished before {limit} writes"
        except KilledMidway:
            return f"killed after {limit} writes"
        finally:
            lake_module.write_atomic = original

    # -- reading the warehouse ----------------------------------------------------------------------------
    def catalog(self, home_dir: Path | None = None) -> duckdb.DuckDBPyConnection:
        """The analysts' catalog, read-only, as a user opens it."""
        return duckdb.connect(str((home_dir or self.home_dir) / "etalon.duckdb"), read_only=True)

    def signed_flags(self) -> list[tuple[str, bool]]:
        """(code, corpus_changed) of every signed etalon: whether a text it cites changed since it was signed."""
        con = self.catalog()
        try:
            return [(str(c), bool(f)) for c, f in con.execute(
                "SELECT code, corpus_changed FROM bench.etalons WHERE status = 'signed' ORDER BY code").fetchall()]
        finally:
            con.close()

    def review_items(self) -> list[dict[str, Any]]:
        con = self.catalog()
        try:
            rows = con.execute("SELECT id, options FROM eval.review ORDER BY id").fetchall()
        finally:
            con.close()
        return [{"id": r[0], "options": r[1]} for r in rows]

    # -- the reference ------------------------------------------------------------------------------------
    def fresh_copy(self, target: Path) -> Project:
        """A new warehouse with the same inputs: the files, the human events, the imports, the call cache."""
        fresh = Project(target, self.base_url, random.Random(0))
        shutil.copytree(self.etalons, fresh.etalons)
        for code, good in self.broken.items():   # a held etalon is compared at its last good content
            path = next(p for p in fresh.files() if p.stem == code)
            path.write_text(good, encoding="utf-8")
        fresh.home_dir.mkdir(parents=True)
        shutil.copy(self.home_dir / "sources.yaml", fresh.home_dir / "sources.yaml")
        for table in ("decisions", "audits", "revocations", "approvals", "signatures", "imported_answers", "_calls"):
            src = self.home_dir / "lake" / table
            if src.exists():
                shutil.copytree(src, fresh.home_dir / "lake" / table)
        return fresh


class KilledMidway(BaseException):
    """Raised inside a write, like a SIGKILL between two atomic writes (nothing half-written survives)."""


def _set_yaml(path: Path, **values: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.update(values)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


# The contract views, each as the rows a user would compare: current cells only, volatile columns left out.
VIEWS: dict[str, str] = {
    "etalons": "SELECT benchmark, code, version, title, status, signed_by, corpus_changed FROM bench.etalons "
               "WHERE status <> 'archived'",
    "sources": "SELECT s.benchmark, s.code, s.version, s.idx, s.citation, s.priority, s.act, s.article, s.status "
               "FROM bench.sources s JOIN bench.etalons e USING (benchmark, code, version) "
               "WHERE e.status <> 'archived'",
    "answers": "SELECT a.* FROM eval.answers a JOIN eval.scores s USING (system, benchmark, code, version, attempt) "
               "WHERE s.is_current",
    "citations": "SELECT c.* FROM eval.citations c JOIN eval.scores s USING (system, code, version, attempt) "
                 "WHERE s.is_current",
    "judgments": "SELECT j.system, j.code, j.version, j.attempt, j.element, j.run, j.verdict, j.quote, j.quote_found "
                 "FROM eval.judgments j JOIN eval.scores s USING (system, code, version, attempt) WHERE s.is_current",
    "scores": "SELECT * FROM eval.scores WHERE is_current",
    "review": "SELECT * FROM eval.review",
    "leaderboard": "SELECT * FROM eval.leaderboard",
    "paired": "SELECT * FROM eval.paired",
    "audit_sample": "SELECT * FROM eval.audit_sample",
    "leaderboard_corrected": "SELECT * FROM eval.leaderboard_corrected",
    "judge_error": "SELECT * FROM eval.judge_error",
}


def view_rows(con: duckdb.DuckDBPyConnection, sql: str, held: set[str]) -> list[tuple[Any, ...]]:
    rel = con.execute(sql)
    names = [d[0] for d in rel.description]
    keep = [i for i, n in enumerate(names) if n not in VOLATILE]
    code = names.index("code") if "code" in names else None
    rows = []
    for row in rel.fetchall():
        if code is not None and row[code] in held:
            continue
        rows.append(tuple(_plain(row[i]) for i in keep))
    return sorted(rows, key=repr)


def _plain(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 9)
    return value


def differences(project: Project, fresh: Project) -> dict[str, tuple[list[Any], list[Any]]]:
    """{view: (rows only in the project, rows only in the fresh evaluation)} for every view that differs."""
    held = set(project.broken)
    a, b = project.catalog(), fresh.catalog()
    out = {}
    try:
        for name, sql in VIEWS.items():
            if held and name in ("leaderboard", "paired", "leaderboard_corrected", "judge_error"):
                continue   # a held etalon is left out of the comparison; its system's aggregates with it
            mine, theirs = view_rows(a, sql, held), view_rows(b, sql, held)
            if mine != theirs:
                only_mine = [r for r in mine if r not in theirs]
                only_theirs = [r for r in theirs if r not in mine]
                out[name] = (only_mine[:5], only_theirs[:5])
    finally:
        a.close()
        b.close()
    return out


ACTIONS = ("add_etalon", "edit_etalon", "break_etalon", "fix_etalon", "remove_etalon", "edit_benchmark",
           "import_answers", "decide", "decide", "audit_label", "audit_label", "undo", "approve", "sign",
           "amend_corpus", "remove_source", "change_systems", "kill_midway", "copy_document", "reprioritise",
           "delete_document")
