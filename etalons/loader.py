"""Loads every benchmark under a folder: each etalon file on its own, so one bad file never hides the rest.

Everything wrong with a file becomes an `EtalonError` naming the file, the line and the field; the etalon is
then left out, and the files that failed are remembered so that a broken file is never mistaken for a
removed one (removal archives an etalon; a typo must not).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import re
from collections import defaultdict
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from yaml.nodes import MappingNode, Node

from etalons.benchmark import Benchmark, BenchmarkConfig
from etalons.errors import EtalonError
from etalons.messages import describe, field_path
from etalons.model import Etalon
from etalons.yamlpos import duplicate_keys, key_line, line_of
from etalons.yamlsafe import YamlLimits, YamlRefused, load_bytes, read_bounded

BENCHMARK_FILE = "benchmark.yaml"
MAX_FILE_BYTES = 1_000_000  # an etalon is a page a lawyer writes; anything bigger is not one
MAX_ERRORS_PER_FILE = 20
MAX_MANDATORY = 3  # "de regulă cel mult trei" (the Romanian methodology)

M = TypeVar("M", bound=BaseModel)
_CODE_LINE = re.compile(r"""^code\s*:\s*["']?([A-Za-z0-9][A-Za-z0-9_.-]*)""", re.MULTILINE)
Extractor = Callable[[str, str], Sequence[object]]


@dataclass(frozen=True)
class LoadedEtalon:
    """An etalon as loaded from its file; `methodology` is resolved (the etalon's, else the benchmark's)."""

    benchmark: str
    etalon: Etalon
    file: str
    methodology: str
    file_hash: str
    code_line: int | None = field(default=None, compare=False, repr=False)

    @property
    def code(self) -> str:
        return self.etalon.code

    @property
    def version(self) -> str:
        return self.etalon.version

    @property
    def question_version(self) -> str:
        return self.etalon.question_version

    @property
    def rubric_version(self) -> str:
        return self.etalon.rubric_version


@dataclass
class LoadResult:
    benchmarks: list[Benchmark] = field(default_factory=list)
    etalons: list[LoadedEtalon] = field(default_factory=list)
    errors: list[EtalonError] = field(default_factory=list)
    warnings: list[EtalonError] = field(default_factory=list)  # advice: the etalon loads all the same
    failed_codes: set[str] = field(default_factory=set)
    """Codes (read leniently from the raw text, else the file name) of etalon files present but not loaded:
    hold these as they were; an etalon is archived only when no file claims its code any more."""

    @property
    def failed_files(self) -> set[str]:
        """Files present but not loaded: their etalons must be held as they were, not archived."""
        return {error.file for error in self.errors}

    def by_code(self) -> dict[str, LoadedEtalon]:
        return {loaded.code: loaded for loaded in self.etalons}

    def benchmark(self, benchmark_id: str) -> Benchmark | None:
        return next((b for b in self.benchmarks if b.id == benchmark_id), None)


def load_benchmarks(root: Path, extract: Extractor | None = None,
                    memo: MutableMapping[str, Any] | None = None) -> LoadResult:
    """Every `<benchmark>/benchmark.yaml` and its etalons under `root`.

    `extract(text, jurisdiction)` checks that each source is a citation; by default the citations library's.
    `memo` maps a file's content (and its benchmark) to what loading it gave: a file read before is then
    validated from its stored content instead of parsed again (parsing YAML with positions is most of the cost
    of loading thousands of etalons); the caller keeps it between loads.
    """
    extract = extract if extract is not None else _library_extractor()
    result = LoadResult()
    shown_root = root.name or str(root)
    if not root.is_dir():
        result.errors.append(
            EtalonError(str(root), None, None, "expected a folder of benchmarks, found none")
        )
        return result
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        _load_benchmark(folder, f"{shown_root}/{folder.name}", extract, result, memo)
    _drop_duplicate_codes(result)
    _flag_shared_canaries(result, shown_root)
    return result


def _load_benchmark(folder: Path, shown: str, extract: Extractor | None, result: LoadResult,
                    memo: MutableMapping[str, Any] | None = None) -> None:
    files = sorted(p for p in folder.glob("*.yaml") if p.name != BENCHMARK_FILE and p.is_file())
    config_path = folder / BENCHMARK_FILE
    if not config_path.is_file():
        if files:
            result.errors.append(
                EtalonError(
                    f"{shown}/{BENCHMARK_FILE}",
                    None,
                    None,
                    "missing: expected the benchmark's name, methodology and canary",
                )
            )
            result.errors.extend(_skipped(files, shown))
            result.failed_codes.update(_claimed_code(p) for p in files)
        return
    config = _parse(config_path, f"{shown}/{BENCHMARK_FILE}", BenchmarkConfig, result.errors)
    if config is None:
        result.errors.extend(_skipped(files, shown))
        result.failed_codes.update(_claimed_code(p) for p in files)
        return
    benchmark = Benchmark.from_config(folder, config[0], etalons=len(files))
    problem = _scoring_problem(benchmark)
    if problem is not None:
        result.errors.append(EtalonError(f"{shown}/{BENCHMARK_FILE}", line_of(config[1], [problem[0]]), problem[0],
                                         problem[1]))
        result.errors.extend(_skipped(files, shown))
        result.failed_codes.update(_claimed_code(p) for p in files)
        return
    result.benchmarks.append(benchmark)
    for path in files:
        loaded = _remembered(path, f"{shown}/{path.name}", benchmark, memo)
        if loaded is None:
            loaded = _load_etalon(path, f"{shown}/{path.name}", benchmark, extract, result.errors)
            if loaded is not None and memo is not None:
                memo[_memo_key(loaded.file_hash, loaded.file, benchmark)] = {
                    "etalon": loaded.etalon.model_dump(mode="json"), "code_line": loaded.code_line}
        if loaded is not None:
            result.etalons.append(loaded)
            result.warnings.extend(_advice(loaded, path))
        else:
            result.failed_codes.add(_claimed_code(path))


def _scoring_problem(benchmark: Benchmark) -> tuple[str, str] | None:
    """(field, message) when the benchmark's scoring settings do not fit a methodology they are given for.

    Checked at load, like every other field, so that a typo holds the benchmark's etalons as they were
    instead of failing the evaluation halfway (the methodologies' own checks name the key)."""
    from evaluation.methodologies.config import config_for

    checks = [(benchmark.methodology, "weights")] + [(m, f"scoring.{m}") for m in sorted(benchmark.scoring)]
    for methodology, where in checks:
        try:
            config_for(methodology, benchmark.overrides(methodology))
        except ValueError as exc:
            return (where.split(".")[0], f"{where}: {exc}")
    return None


def _memo_key(file_hash: str, shown: str, benchmark: Benchmark) -> str:
    return f"{file_hash}|{shown}|{benchmark.id}|{benchmark.methodology}"


def _remembered(path: Path, shown: str, benchmark: Benchmark,
                memo: MutableMapping[str, Any] | None) -> LoadedEtalon | None:
    """The etalon of a file whose exact content was loaded before, validated from what was stored."""
    if memo is None:
        return None
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    file_hash = hashlib.sha256(raw).hexdigest()[:16]
    stored = memo.get(_memo_key(file_hash, shown, benchmark))
    if not isinstance(stored, dict):
        return None
    try:
        etalon = Etalon.model_validate(stored["etalon"])
    except (ValidationError, KeyError, TypeError):
        return None
    methodology = etalon.methodology or benchmark.methodology
    return LoadedEtalon(benchmark.id, etalon, shown, methodology, file_hash, stored.get("code_line"))


def _claimed_code(path: Path) -> str:
    """The code a file that failed to load claims, read without YAML (the YAML may be what is broken)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:MAX_FILE_BYTES]
    except OSError:
        return path.stem
    found = _CODE_LINE.search(text)
    return found.group(1) if found else path.stem


def _skipped(files: list[Path], shown: str) -> list[EtalonError]:
    return [
        EtalonError(f"{shown}/{p.name}", None, None, f"not loaded: {shown}/{BENCHMARK_FILE} did not load")
        for p in files
    ]


def _load_etalon(
    path: Path, shown: str, benchmark: Benchmark, extract: Extractor | None, errors: list[EtalonError]
) -> LoadedEtalon | None:
    parsed = _parse(path, shown, Etalon, errors)
    if parsed is None:
        return None
    etalon, root, file_hash = parsed
    problems: list[EtalonError] = []
    if etalon.benchmark is not None and etalon.benchmark != benchmark.id:
        problems.append(
            EtalonError(
                shown,
                line_of(root, ["benchmark"]),
                "benchmark",
                f"expected the folder's name {benchmark.id!r}, got {etalon.benchmark!r}",
            )
        )
    if extract is not None:
        for i, source in enumerate(etalon.sources):
            if not extract(source.citation, etalon.jurisdiction):
                problems.append(
                    EtalonError(
                        shown,
                        line_of(root, ["sources", i, "citation"]),
                        f"sources[{i + 1}].citation",
                        f"expected a citation of a norm or a decision ({etalon.jurisdiction}), "
                        f"none recognised in {source.citation!r}",
                    )
                )
    if problems:
        errors.extend(problems)
        return None
    methodology = etalon.methodology or benchmark.methodology
    return LoadedEtalon(benchmark.id, etalon, shown, methodology, file_hash, line_of(root, ["code"]))


def _advice(loaded: LoadedEtalon, path: Path) -> list[EtalonError]:
    """What the methodologies advise against without forbidding it."""
    out: list[EtalonError] = []
    mandatory = sum(1 for source in loaded.etalon.sources if source.priority == "mandatory")
    if mandatory > MAX_MANDATORY:
        out.append(
            EtalonError(
                loaded.file,
                None,
                "sources",
                f"expected at most {MAX_MANDATORY} mandatory "
                f"sources as a rule (one missing blocks a positive verdict), got {mandatory}",
            )
        )
    if path.stem != loaded.code:
        out.append(
            EtalonError(
                loaded.file,
                loaded.code_line,
                "code",
                f"expected the file to be named "
                f"{loaded.code}.yaml, so that a copied file is noticed before it clashes",
            )
        )
    return out


def _parse(path: Path, shown: str, model: type[M], errors: list[EtalonError]) -> tuple[M, Node, str] | None:
    """Bytes -> text -> YAML (size, depth and aliases bounded) -> model, each step's failure with its line."""
    limits = YamlLimits(max_bytes=MAX_FILE_BYTES)
    try:
        raw = read_bounded(path, shown, limits)
        root, data = load_bytes(raw, shown, limits)
    except YamlRefused as exc:
        errors.append(EtalonError(shown, exc.line, None, exc.reason))
        return None
    if not isinstance(root, MappingNode) or not isinstance(data, dict):
        errors.append(EtalonError(shown, 1, None, f"expected a mapping of keys, got {type(data).__name__}"))
        return None
    problems = [
        EtalonError(shown, line, key, "given twice: expected each key once (YAML would keep only the last)")
        for key, line in duplicate_keys(root)
    ]
    try:
        instance = model.model_validate(data)
    except ValidationError as exc:
        problems.extend(_validation_errors(exc, shown, root, model))
    if problems:
        errors.extend(problems[:MAX_ERRORS_PER_FILE])
        return None
    return instance, root, hashlib.sha256(raw).hexdigest()[:16]


def _validation_errors(
    exc: ValidationError, shown: str, root: Node, model: type[BaseModel]
) -> list[EtalonError]:
    out: list[EtalonError] = []
    for error in exc.errors():
        loc = list(error["loc"])
        line: int | None
        if error["type"] == "extra_forbidden" and len(loc) == 1:
            line = key_line(root, str(loc[0]))
        else:
            line = line_of(root, loc)
        allowed = _allowed_keys(model, loc[:-1])
        out.append(EtalonError(shown, line, field_path(loc) or None, describe(error, allowed)))
    return out


def _allowed_keys(model: type[BaseModel], parent: list[int | str]) -> list[str]:
    """The keys a mapping at `parent` may hold, for 'did you mean' hints."""
    current: Any = model
    for step in parent:
        if isinstance(step, int):
            continue
        annotation = current.model_fields[step].annotation if step in current.model_fields else None
        args = getattr(annotation, "__args__", ())
        current = next((a for a in args if isinstance(a, type) and issubclass(a, BaseModel)), None)
        if current is None:
            return []
    return list(current.model_fields)


def _drop_duplicate_codes(result: LoadResult) -> None:
    """Codes are partition keys: when two files claim one, neither loads (a copied file must be renamed)."""
    files: dict[str, list[LoadedEtalon]] = defaultdict(list)
    for loaded in result.etalons:
        files[loaded.code].append(loaded)
    clashes = {code for code, group in files.items() if len(group) > 1}
    for code in sorted(clashes):
        for loaded in files[code]:
            others = ", ".join(o.file for o in files[code] if o is not loaded)
            result.errors.append(
                EtalonError(
                    loaded.file,
                    loaded.code_line,
                    "code",
                    f"expected a code no other etalon uses, got {code!r}, also used by {others}",
                )
            )
    result.etalons = [loaded for loaded in result.etalons if loaded.code not in clashes]
    result.failed_codes.update(clashes)


def _flag_shared_canaries(result: LoadResult, shown_root: str) -> None:
    """Two benchmarks sharing a canary (a copied benchmark.yaml) would make a leak impossible to attribute."""
    by_canary: dict[str, list[Benchmark]] = defaultdict(list)
    for benchmark in result.benchmarks:
        by_canary[benchmark.canary].append(benchmark)
    for group in by_canary.values():
        if len(group) > 1:
            for benchmark in group:
                others = ", ".join(b.id for b in group if b is not benchmark)
                result.errors.append(
                    EtalonError(
                        f"{shown_root}/{benchmark.id}/{BENCHMARK_FILE}",
                        None,
                        "canary",
                        f"expected a canary of this benchmark's own, got the one of {others}",
                    )
                )


def _library_extractor() -> Extractor | None:
    """The citations library's extractor, or None while that library is not there yet. Imported at its first
    use: a load whose files were all read before (the memo) checks no citation, and importing the grammar
    (compiling its patterns) was most of the cost of an update that finds nothing to do."""
    if importlib.util.find_spec("citations") is None:
        return None

    def extract(text: str, jurisdiction: str) -> Any:
        module = importlib.import_module("citations")
        found = getattr(module, "extract", None)
        if not callable(found):
            return [text]   # no extractor in the library: nothing to check against
        return found(text, jurisdiction)

    return extract
