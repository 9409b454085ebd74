"""The JSON Schema editors use to complete and check etalon files, generated from the models.

Generated rather than written, so it cannot drift from what the loader accepts; a test fails when the
committed `schema.json` is older than the models. Regenerate with `python -m etalons.schema`.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from etalons.benchmark import BenchmarkConfig
from etalons.branches import branches
from etalons.model import Etalon

SCHEMA_PATH = Path(__file__).with_name("schema.json")
SCHEMA_ID = "https://etalon.invalid/etalons/schema.json"


def build_schema() -> dict[str, Any]:
    """One schema for both kinds of file: `#/$defs/Etalon` and `#/$defs/BenchmarkConfig` for editors to pick."""
    etalon = Etalon.model_json_schema(ref_template="#/$defs/{model}")
    bench = BenchmarkConfig.model_json_schema(ref_template="#/$defs/{model}")
    defs: dict[str, Any] = {**etalon.pop("$defs", {}), **bench.pop("$defs", {})}
    known = branches()
    etalon["properties"]["branch"] = {
        "title": "Branch",
        "description": "Branch of law (etalons/branches.yaml)",
        "type": "string",
        "enum": list(known),
        "markdownEnumDescriptions": [" / ".join(b.names.values()) for b in known.values()],
    }
    from evaluation.methodologies.registry import names

    for model in (etalon, bench):
        if "methodology" in model["properties"]:
            model["properties"]["methodology"] = {
                **{k: v for k, v in model["properties"]["methodology"].items() if k in ("title", "description")},
                "enum": list(names())}
    defs["Etalon"] = etalon
    defs["BenchmarkConfig"] = bench
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Etalon benchmark files",
        "description": "An etalon file (etalons/<benchmark>/<CODE>.yaml) or a benchmark.yaml",
        "anyOf": [{"$ref": "#/$defs/Etalon"}, {"$ref": "#/$defs/BenchmarkConfig"}],
        "$defs": dict(sorted(defs.items())),
    }


def render() -> str:
    return json.dumps(build_schema(), ensure_ascii=False, indent=2, sort_keys=False) + "\n"


def write_schema(path: Path = SCHEMA_PATH) -> None:
    """Atomic write: an editor reading the schema never sees half of it."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(render())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


if __name__ == "__main__":
    write_schema()
