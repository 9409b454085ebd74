"""systems.yaml: valid files load, invalid ones name the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.systems import SystemsConfigError, load_systems

BASE = """
systems:
  - id: acme
    kind: openai
    base_url: http://localhost:8000/v1
    model: acme-7b
    api_key_env: ACME_KEY
    system_prompt: Ты юрист.
    params: {temperature: 0, max_tokens: 800, seed: 7}
    attempts: 3
    concurrency: 2
    rpm: 60
    timeout_s: 30
    price: {input: 0.5, output: 1.5}
  - id: vendor
    kind: import
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "systems.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_full_file_loads_every_system_field(tmp_path: Path) -> None:
    systems = load_systems(write(tmp_path, BASE))
    acme = systems.system("acme")
    assert (acme.attempts, acme.params["seed"], acme.rpm, acme.price.cost(1000, 1000), systems.judge) == (
        3, 7, 60, 2.0, None)


@pytest.mark.parametrize(("judge", "models"), [
    ("judge: {base_url: http://j/v1, model: j1}", ["j1", "j1"]),
    ("judge: {base_url: http://j/v1, model: j1, models: [a, b]}", ["a", "b"]),
    ("judge: {base_url: http://j/v1, model: j1, runs: [{model: a}, {base_url: http://k/v1, model: b}]}", ["a", "b"]),
    ("judge: {base_url: http://j/v1, models: [a, b]}", ["a", "b"]),
    ("judge: {base_url: http://j/v1, runs: [{model: a}, {model: b}]}", ["a", "b"]),
])
def test_the_judge_runs_are_the_same_model_twice_or_two_models(
        tmp_path: Path, judge: str, models: list[str]) -> None:
    cfg = load_systems(write(tmp_path, BASE + judge)).judge
    assert cfg is not None and [e.model for e in cfg.run_endpoints()] == models


def test_a_run_overrides_only_what_it_names(tmp_path: Path) -> None:
    text = BASE + "judge: {base_url: http://j/v1, model: j1, api_key_env: JK, params: {temperature: 0}, " \
                  "runs: [{model: a}, {model: b, params: {top_p: 0.5}}]}"
    cfg = load_systems(write(tmp_path, text)).judge
    assert cfg is not None
    second = cfg.run_endpoints()[1]
    assert (second.api_key_env, second.base_url, second.params) == ("JK", "http://j/v1", {"temperature": 0,
                                                                                            "top_p": 0.5})


@pytest.mark.parametrize(("text", "message"), [
    ("systems:\n  - id: a\n    kind: openai\n", "field systems.0: Value error, a system of kind 'openai' needs"),
    ("systems:\n  - id: a\n    kind: openai\n    base_url: u\n    model: m\n    atempts: 2\n",
     "field systems.0.atempts: Extra inputs are not permitted"),
    ("systems:\n  - id: a\n    kind: import\n    attempts: 0\n", "field systems.0.attempts"),
    ("systems:\n  - id: a\n    kind: grpc\n", "field systems.0.kind"),
    ("systems:\n  - {id: a, kind: import}\n  - {id: a, kind: import}\n", "appears twice"),
    ("judge: {base_url: u, model: m, models: [only-one]}\n", "field judge"),
    ("judge: {base_url: u}\n", "field judge.model: Field required"),
    ("judge: {base_url: u, runs: [{model: a}, {base_url: v}]}\n", "field judge.model: Field required"),
    ("systems: [\n", "line 2"),
    ("- just a list\n", "expected a mapping"),
])
def test_a_bad_file_is_reported_with_the_file_and_the_field(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(SystemsConfigError) as info:
        load_systems(path)
    assert str(path) in str(info.value) and message in str(info.value)


def test_an_unknown_system_id_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(KeyError, match="known: acme, vendor"):
        load_systems(write(tmp_path, BASE)).system("nope")
