"""Configured corpus sources: where official texts come from.

Data engineers list sources in `sources.yaml` (in $ETALON_HOME, or $ETALON_SOURCES): folders of files, or HTTP
indexes fetched with conditional requests. Without a file, the embedded abridged sample is the only source.
`etalon corpus ingest PATH` adds folder sources here, so a later `etalon update` or the daily schedule keeps
refreshing them.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from warehouse.home import SAMPLE_CORPUS
from warehouse.lake import write_bytes_atomic


class SourceConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    kind: Literal["folder", "http"] = "folder"
    path: str | None = None      # folder sources
    url: str | None = None       # http sources: an index of documents


class SourcesFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    sources: list[SourceConfig] = Field(default_factory=list)


DEFAULT = SourceConfig(name="sample", kind="folder", path=str(SAMPLE_CORPUS))


def load_sources(path: Path) -> list[SourceConfig]:
    if not path.exists():
        return [DEFAULT]
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        return list(SourcesFile.model_validate(data).sources)
    except (yaml.YAMLError, ValidationError) as exc:
        raise ValueError(f"{path}: expected `sources:` as a list of {{name, kind, path|url}}: {exc}") from exc


def save_sources(path: Path, sources: Sequence[SourceConfig]) -> None:
    data = {"sources": [s.model_dump(exclude_none=True) for s in sources]}
    write_bytes_atomic(path, yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8"))


def source_for_path(folder: Path) -> SourceConfig:
    """A stable source name for a folder the user ingests: its name plus a short hash of its location."""
    resolved = folder.resolve()
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", resolved.name).strip("-.") or "files"
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:6]
    return SourceConfig(name=f"{slug}-{digest}", kind="folder", path=str(resolved))


def fingerprint(source: SourceConfig, staging: Path) -> str:
    """Cheap change detector: names, sizes and modification times of the files behind a source."""
    root = Path(source.path) if source.kind == "folder" and source.path else staging
    digest = hashlib.sha256(source.model_dump_json().encode("utf-8"))
    if root.is_file():
        entries = [root]
    elif root.is_dir():
        entries = sorted(p for p in root.rglob("*") if p.is_file())
    else:
        entries = []
    for entry in entries:
        stat = entry.stat()
        digest.update(f"{entry}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    if source.kind == "http":
        digest.update(os.environ.get("ETALON_HTTP_EPOCH", "").encode())
    return digest.hexdigest()[:16]


def sources_for(sources_file: Path, inbox: Path) -> list[SourceConfig]:
    """The configured sources, plus the inbox folder when it exists: files dropped there are picked up."""
    found = load_sources(sources_file)
    if inbox.is_dir() and all(s.name != "inbox" for s in found):
        found.append(SourceConfig(name="inbox", kind="folder", path=str(inbox)))
    return found


def save_source_list(path: Path, existing: Sequence[SourceConfig], wanted: Sequence[SourceConfig]) -> None:
    """Add `wanted` sources to the file, keeping what it had (and the sample, when it was implicit)."""
    names = {s.name for s in existing}
    merged = [s for s in existing if s.name != "inbox"] + [s for s in wanted if s.name not in names]
    save_sources(path, merged)
