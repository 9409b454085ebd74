"""A billion-laughs YAML document in every kind of file people write is refused in one line, in little memory.

Each kind is read with the function Etalon itself reads that file with. Two documents per kind:

- the canonical billion laughs (ten anchors of ten aliases each, a billion strings once expanded): refused
  with the file and the line of the smallest value that goes over the limit;
- a smaller bomb placed where the file's schema accepts it (a benchmark's weights, a system's params, every
  source's path, an etalon's branches), so that unchecked it would load and then expand when stored, as the
  warehouse stores weights, params and etalon content as JSON. Memory is what loading and storing allocated in
  Python (tracemalloc); the bomb is sized so that a regression fails this test in seconds with some 30 MB,
  instead of exhausting a shared machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import citations  # noqa: F401  (imported before memory is traced: the etalon loader uses its extractor)
from corpus.sources import sources_for
from etalons.loader import load_benchmarks
from etalons.yamlsafe import YamlRefused, load_file
from evaluation.systems import SystemsConfigError, load_systems
from tests.etalons.etalon_files import BENCHMARK_YAML, ETALON_YAML, write_benchmark

ETALON_BIN = Path(sys.executable).with_name("etalon")
MEMORY_CEILING = 8 * 1024 * 1024  # bytes; a refused load allocates well under 1 MB
BOMB_LINE = 6  # lol5 (a million strings) is the smallest value of `laughs()` over the limit
REFUSAL = "aliases expand this value beyond 2000000 nodes and characters (an alias bomb?): expected anchors " \
          "reused a reasonable number of times"


def laughs(levels: int = 9, indent: str = "") -> str:
    """lol0 .. lol<levels>, each ten aliases of the one before: 10**(levels + 1) strings once expanded."""
    lines = [f'{indent}lol0: &lol0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{indent}lol{i}: &lol{i} [{', '.join([f'*lol{i - 1}'] * 10)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def repeated(key: str, count: int = 1000, size: int = 20_000) -> str:
    """A flow list of `count` aliases of one long string: count * size characters once expanded."""
    return f"{key}: [&long \"{'x' * size}\", {', '.join(['*long'] * (count - 1))}]\n"


@dataclass(frozen=True)
class Kind:
    name: str
    file: str                      # where the file goes under the project
    bomb: str                      # the canonical billion laughs
    expanding: str                 # a smaller bomb the schema would accept
    read: Callable[[Path], str]    # reads the project, stores what loaded, returns the refusal as shown


def _raised(read: Callable[[], object], error: type[Exception]) -> str:
    with pytest.raises(error) as caught:
        read()
    return str(caught.value)


def _store(*loaded: object) -> None:
    """What the warehouse does with a loaded file: JSON columns (where an unchecked bomb would expand)."""
    json.dumps(loaded, ensure_ascii=False, default=str)


def _etalons(root: Path) -> str:
    result = load_benchmarks(root / "etalons")
    _store([b.weights for b in result.benchmarks], [e.etalon.model_dump(mode="json") for e in result.etalons])
    return "\n".join(str(e) for e in result.errors)


def _systems(root: Path) -> str:
    return _raised(lambda: _store(load_systems(root / "systems.yaml").model_dump(mode="json")), SystemsConfigError)


def _sources(root: Path) -> str:
    return _raised(lambda: _store([str(s.path) for s in sources_for(root / "sources.yaml", root / "in")]),
                   ValueError)


def _plain(name: str) -> Callable[[Path], str]:
    """The sample decisions and signatures: read by the demo through the same shared loader."""
    return lambda root: _raised(lambda: _store(load_file(root / name)), YamlRefused)


_SOURCE = "  - {{name: s{i}, path: {path}}}\n"
KINDS = [
    Kind("an etalon file", "etalons/ru-test/NAS-01.yaml",
         laughs() + ETALON_YAML.replace("difficulty: 2", "difficulty: 2\nnotes: *lol9"),
         ETALON_YAML.replace("branches:\n  - срок принятия наследства ещё не истёк\n"
                             "  - фактическое принятие подтверждают документами об оплате\n", repeated("branches")),
         _etalons),
    Kind("benchmark.yaml", "etalons/ru-test/benchmark.yaml", laughs() + BENCHMARK_YAML + "weights:\n  x: *lol9\n",
         BENCHMARK_YAML + "weights:\n" + laughs(5, "  "), _etalons),
    Kind("systems.yaml", "systems.yaml",
         laughs() + "systems:\n  - id: imp\n    kind: import\n    params:\n      stop: *lol9\n",
         "systems:\n  - id: imp\n    kind: import\n    params:\n" + laughs(5, "      "), _systems),
    Kind("sources.yaml", "sources.yaml", laughs() + "sources:\n  - name: x\n    path: *lol9\n",
         "sources:\n" + _SOURCE.format(i=0, path=f"&long /{'x' * 20_000}")
         + "".join(_SOURCE.format(i=i, path="*long") for i in range(1, 1000)), _sources),
    Kind("decisions.yaml", "decisions.yaml", laughs() + "decisions:\n  - {system: s, code: C, note: *lol9}\n",
         "decisions:\n  - system: s\n    code: C\n    note:\n" + laughs(5, "      "), _plain("decisions.yaml")),
    Kind("signatures.yaml", "signatures.yaml", laughs() + "signatures:\n  - {code: C, by: *lol9}\n",
         "signatures:\n  - code: C\n    by:\n" + laughs(5, "      "), _plain("signatures.yaml")),
]


def _write(root: Path, kind: Kind, text: str) -> None:
    if kind.file.endswith("benchmark.yaml"):
        write_benchmark(root / "etalons", {"NAS-01.yaml": ETALON_YAML}, config=text)
    elif kind.file.startswith("etalons/"):
        write_benchmark(root / "etalons", {"NAS-01.yaml": text}, config=BENCHMARK_YAML)
    else:
        (root / kind.file).write_text(text, encoding="utf-8")


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_a_billion_laughs_is_refused_naming_the_file_and_the_line(tmp_path: Path, kind: Kind) -> None:
    _write(tmp_path, kind, kind.bomb)
    lines = [m for m in kind.read(tmp_path).splitlines() if f"{Path(kind.file).name}:{BOMB_LINE}: " in m]
    assert len(lines) == 1 and lines[0].endswith(REFUSAL)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_a_bomb_the_schema_would_accept_is_refused_before_it_takes_memory(tmp_path: Path, kind: Kind) -> None:
    _write(tmp_path, kind, kind.expanding)
    tracemalloc.start()
    try:
        message = kind.read(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert REFUSAL in message
    assert peak < MEMORY_CEILING, f"{kind.name}: {peak} bytes allocated"


def test_an_alias_of_a_value_containing_itself_is_refused(tmp_path: Path) -> None:
    (tmp_path / "systems.yaml").write_text("systems:\n  - id: imp\n    kind: import\n    params: &p\n"
                                           "      again: *p\n", encoding="utf-8")
    with pytest.raises(SystemsConfigError, match=r"systems\.yaml:4: an alias refers to a value that contains it"):
        load_systems(tmp_path / "systems.yaml")


def test_anchors_reused_as_people_reuse_them_still_load(tmp_path: Path) -> None:
    first = "  - id: s0\n    base_url: http://127.0.0.1:9/v1\n    model: m\n" \
            "    params: &defaults {temperature: 0, max_tokens: 800, seed: 1, stop: ['###', '---']}\n"
    rest = "".join(f"  - id: s{i}\n    base_url: http://127.0.0.1:9/v1\n    model: m\n    params: *defaults\n"
                   for i in range(1, 200))
    (tmp_path / "systems.yaml").write_text("systems:\n" + first + rest, encoding="utf-8")
    systems = load_systems(tmp_path / "systems.yaml").systems
    assert [s.params["max_tokens"] for s in systems] == [800] * 200


def test_a_bomb_in_sources_yaml_is_named_in_one_line_without_a_traceback_and_the_update_exits_1(
        tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "sources.yaml").write_text(KINDS[3].bomb, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "ETALON_HOME": str(home), "ETALON_ETALONS": str(tmp_path / "etalons"),
           "PYTHONWARNINGS": "ignore"}
    done = subprocess.run([str(ETALON_BIN), "update"], env=env, capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    refusal = f"{home / 'sources.yaml'}:{BOMB_LINE}: {REFUSAL}"
    lines = done.stderr.strip().splitlines()
    assert (done.returncode, "Traceback" in done.stderr) == (1, False), done.stderr[-2000:]
    assert f"input problem: {refusal}" in lines, lines   # the rest of the update went on; the summary follows
