"""The etalon as lawyers write it (CONTRACT section 6).

The model is the single definition of the file format: the loader validates against it, the JSON Schema
published for editors is generated from it, and every later stage (answers, judge, scoring) reads etalons
only through it, so a field means the same thing everywhere.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Priority = Literal["mandatory", "conditional", "recommended"]
Methodology = Literal["stielegi", "lesto", "irac"]
EtalonType = Literal["law", "application", "deadlines", "procedure", "trap"]


class Source(BaseModel):
    """One expected source: a norm or a court decision, named by its citation string."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    citation: str = Field(min_length=1)
    priority: Priority
    condition: str | None = None


class Etalon(BaseModel):
    """One gold answer. `code` is permanent; every field but `title` is part of the version."""

    model_config = ConfigDict(frozen=True, extra="allow")

    code: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
    title: str
    jurisdiction: Literal["ru", "ro"]
    branch: str
    difficulty: int = Field(ge=1, le=3)
    type: EtalonType
    methodology: Methodology | None = None
    question: str = Field(min_length=1)
    decisive_issue: str
    solution_fact: str | None = None
    branches: list[str] = Field(default_factory=list)
    reference_answer: str
    next_steps: str | None = None
    sources: list[Source] = Field(default_factory=list)
    gross_errors: list[str] = Field(default_factory=list)

    def content(self) -> dict[str, object]:
        """Everything that defines the version: the whole etalon but its title."""
        data = self.model_dump(mode="json")
        data.pop("title", None)
        return data

    @property
    def version(self) -> str:
        """Content hash without the title: a changed title alone makes no new version."""
        return _digest(self.content())

    @property
    def question_version(self) -> str:
        """Hash of what a system under test sees: answers are reused while it stays the same."""
        return _digest({"question": self.question, "jurisdiction": self.jurisdiction})

    @property
    def rubric_version(self) -> str:
        """Hash of what the judge sees besides the answer: judgments are reused while it stays the same."""
        data = self.content()
        for key in ("branch", "difficulty", "type"):  # classification only: the judge never reads them
            data.pop(key, None)
        return _digest(data)


def _digest(data: object) -> str:
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]
