"""systems.yaml: the systems under test and the judge (docs/formats.md, "systems.yaml").

Pydantic models are the single definition of the file: a typo in a field name or a wrong type is reported
with the file and the field's path, instead of silently sampling with default parameters. Only the *name*
of the variable holding a key is ever stored here; the key itself is read by the client at call time.

Pointing Etalon at a real endpoint (any OpenAI-compatible API: OpenAI, OpenRouter, vLLM, Ollama, a proxy):

    systems:
      - id: gpt-legal
        kind: openai
        base_url: https://api.openai.com/v1      # Ollama: http://localhost:11434/v1, vLLM: http://host:8000/v1
        model: gpt-4o-mini
        api_key_env: OPENAI_API_KEY              # export OPENAI_API_KEY=... ; omit for keyless local servers
        system_prompt: Ты юрист-консультант.
        params: {temperature: 0, max_tokens: 1500, seed: 1}
        attempts: 1                               # independent samples, one stored answer each
        concurrency: 4                            # requests in flight per base_url
        rpm: 60                                   # requests per minute per base_url
        timeout_s: 120                            # bounds each try, to the reply's last byte
        max_reply_bytes: 1048576                  # the default (1 MiB); a bigger reply is an error
        retries: 4                                # 429 / 5xx / timeouts; a call ends within timeout_s x (retries + 1)
        price: {input: 0.15, output: 0.60}        # per 1000 tokens, for the cost column
        confidence: json                          # none | json | logprobs: its own confidence (calibration)
    judge:
      base_url: https://openrouter.ai/api/v1
      api_key_env: OPENROUTER_API_KEY
      models: [openai/gpt-4o, anthropic/claude-sonnet-4]   # or `model: X` alone: the same model twice
      json_schema: false                          # endpoints without structured outputs: validated, retried once
      max_answer_bytes: 1048576                   # an answer bigger than this is not sent to the judge

Concurrency and rpm are enforced per base_url: the first configuration seen for a base_url sets them.
`timeout_s` bounds a whole try (connect, wait, and the reply read to its last byte), not each read: an
endpoint trickling its reply is cut off at `timeout_s`. `max_reply_bytes` caps a reply body (default 1 MiB):
the body is read as a stream and dropped once past the limit, and the call is an error naming the size
and the limit. The judge's `max_answer_bytes` (default 1 MiB) keeps an oversized answer (an imported one,
say) from being sent to the judge at all: its elements get error judgments instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from yaml.nodes import Node

from etalons.yamlpos import line_of
from etalons.yamlsafe import YamlRefused, load_file_with_nodes


class SystemsConfigError(ValueError):
    """systems.yaml is unreadable or invalid; the message names the file and the field."""


DEFAULT_MAX_REPLY_BYTES = 1024 * 1024   # 1 MiB: far above any legal answer, far below a runaway reply


class Price(BaseModel):
    """Price per 1000 tokens, in whatever currency the user keeps accounts in."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float = Field(default=0.0, ge=0)
    output: float = Field(default=0.0, ge=0)

    def cost(self, tokens_in: int | None, tokens_out: int | None) -> float | None:
        if tokens_in is None and tokens_out is None:
            return None
        return ((tokens_in or 0) * self.input + (tokens_out or 0) * self.output) / 1000.0


class Endpoint(BaseModel):
    """Everything the client needs to reach one model, shared by systems and judge runs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(min_length=1)
    model: str = Field(min_length=1)
    api_key_env: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)   # temperature, max_tokens, seed, top_p ...
    retries: int = Field(default=4, ge=0, le=20)            # extra tries after the first, on 429/5xx/timeouts
    concurrency: int = Field(default=4, ge=1, le=256)
    rpm: int | None = Field(default=None, ge=1)             # requests per minute per endpoint
    timeout_s: float = Field(default=60.0, gt=0)
    price: Price = Field(default_factory=Price)             # per 1k tokens in / out
    json_schema: bool = True                                # False: endpoint lacks structured outputs
    max_reply_bytes: int = Field(default=DEFAULT_MAX_REPLY_BYTES, ge=1024)  # a bigger reply body is an error


class SystemConfig(Endpoint):
    """A system under test. `kind: import` systems have no endpoint: their answers come from a file."""

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]*$")
    kind: Literal["openai", "import"] = "openai"
    base_url: str = "-"
    model: str = "-"
    system_prompt: str | None = None
    attempts: int = Field(default=1, ge=1, le=100)
    confidence: Literal["none", "json", "logprobs"] = "none"   # where its own confidence is (evaluation.confidence)

    @model_validator(mode="before")
    @classmethod
    def _logprobs_requested(cls, data: Any) -> Any:
        """`confidence: logprobs` needs the endpoint to send them: ask for them in every request."""
        if isinstance(data, dict) and data.get("confidence") == "logprobs":
            params = data.get("params")
            if params is None or isinstance(params, dict):  # anything else: the field's own error says so
                data = {**data, "params": {"logprobs": True, **(params or {})}}
        return data

    def params_for(self, attempt: int) -> dict[str, Any]:
        """Attempts are independent samples: a configured seed is shifted by the attempt number."""
        params = dict(self.params)
        if isinstance(params.get("seed"), int):
            params["seed"] = params["seed"] + attempt - 1
        return params

    @model_validator(mode="after")
    def _endpoint_for_openai(self) -> SystemConfig:
        if self.kind == "openai" and (self.base_url == "-" or self.model == "-"):
            raise ValueError("a system of kind 'openai' needs base_url and model")
        return self


class JudgeRun(BaseModel):
    """One of the judge's independent runs; fields left out are taken from the judge section."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None
    params: dict[str, Any] | None = None


class JudgeConfig(Endpoint):
    """The judge: two runs by default, the same model twice, or `models: [a, b]`, or explicit `runs:`.

    With `models:` the section needs no `model:` of its own: each run names its model, so the first one
    stands for the section (what a user who lists two model families means, and what docs/formats.md shows).
    """

    runs: list[JudgeRun] = Field(default_factory=list)
    models: list[str] | None = None
    max_answer_bytes: int = Field(default=DEFAULT_MAX_REPLY_BYTES, ge=1024)  # bigger answers are not judged

    @model_validator(mode="before")
    @classmethod
    def _model_from_runs(cls, data: Any) -> Any:
        """`models: [a, b]` (or runs that all name a model) without `model:`: the first run's model stands in."""
        if not isinstance(data, dict) or data.get("model") is not None:
            return data
        models = data.get("models")
        if isinstance(models, list) and models and isinstance(models[0], str):
            return {**data, "model": models[0]}
        runs = data.get("runs")
        if isinstance(runs, list) and runs and all(isinstance(r, dict) and r.get("model") for r in runs):
            return {**data, "model": runs[0]["model"]}
        return data

    @model_validator(mode="after")
    def _two_runs(self) -> JudgeConfig:
        if self.runs and self.models:
            raise ValueError("give either 'runs' or 'models', not both")
        if self.models is not None and len(self.models) < 2:
            raise ValueError("'models' needs at least two entries (one per independent run)")
        if self.runs and len(self.runs) < 2:
            raise ValueError("'runs' needs at least two entries (one per independent run)")
        return self

    def run_endpoints(self) -> list[Endpoint]:
        """The endpoint of each run, run 1 first; a run differs only in what it overrides."""
        overrides: list[JudgeRun]
        if self.runs:
            overrides = list(self.runs)
        elif self.models:
            overrides = [JudgeRun(model=m) for m in self.models]
        else:
            overrides = [JudgeRun(), JudgeRun()]
        base = self.model_dump(exclude={"runs", "models", "max_answer_bytes"})
        out: list[Endpoint] = []
        for run in overrides:
            data = dict(base)
            for key, value in run.model_dump(exclude_none=True).items():
                data[key] = {**base["params"], **value} if key == "params" else value
            out.append(Endpoint.model_validate(data))
        return out


class SystemsFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    systems: list[SystemConfig] = Field(default_factory=list)
    judge: JudgeConfig | None = None

    @model_validator(mode="after")
    def _unique_ids(self) -> SystemsFile:
        seen: set[str] = set()
        for system in self.systems:
            if system.id in seen:
                raise ValueError(f"system id {system.id!r} appears twice")
            seen.add(system.id)
        return self

    def system(self, system_id: str) -> SystemConfig:
        for system in self.systems:
            if system.id == system_id:
                return system
        raise KeyError(f"no system {system_id!r}; known: {', '.join(s.id for s in self.systems) or 'none'}")


def parse_systems(data: Mapping[str, Any] | None, *, origin: str = "systems.yaml",
                  root: Node | None = None) -> SystemsFile:
    """The validated file; with the node tree (`root`) each problem names its line too."""
    try:
        return SystemsFile.model_validate(data or {})
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err["loc"]) or "(top level)"
            line = line_of(root, list(err["loc"])) if root is not None else None
            problems.append(f"{origin}:{line}: field {where}: {err['msg']}" if line else
                            f"{origin}: field {where}: {err['msg']}")
        raise SystemsConfigError("; ".join(problems)) from None


def load_systems(path: Path | str) -> SystemsFile:
    """Read through the shared safe loader: an alias bomb or a 2 GB file is one line naming the file and line."""
    path = Path(path)
    try:
        root, data = load_file_with_nodes(path)
    except YamlRefused as exc:
        raise SystemsConfigError(str(exc)) from None
    if data is not None and not isinstance(data, dict):
        raise SystemsConfigError(f"{path}: expected a mapping with 'systems' and 'judge' at the top level")
    return parse_systems(data, origin=str(path), root=root)
