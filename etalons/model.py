"""The etalon as lawyers write it (docs/formats.md, "Etalon files").

The model is the single definition of the file format: the loader validates against it, the JSON Schema
published for editors is generated from it, and every later stage (answers, judge, scoring) reads etalons
only through it, so a field means the same thing everywhere.

Versions are hashes of the content. Fields left at their defaults are left out of the hash, so adding a new
optional field to the format later does not silently revoke every signature; surrounding whitespace is
stripped, so re-indenting a YAML block makes no new version either.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from etalons.branches import branch_ids

Priority = Literal["mandatory", "conditional", "recommended"]
EtalonType = Literal["law", "application", "deadlines", "procedure", "trap"]


def _known_methodology(value: str) -> str:
    """A methodology the registry knows (evaluation.methodologies.registry): the one list of them."""
    from evaluation.methodologies.registry import names

    known = names()
    if value not in known:
        raise ValueError(f"expected one of {', '.join(known)}, got {value!r}")
    return value


Methodology = Annotated[str, AfterValidator(_known_methodology)]

# Fields that describe the etalon rather than the legal problem: the judge never reads them.
_NOT_FOR_JUDGE = ("branch", "difficulty", "type", "author", "authors", "notes")


def _known_branch(value: str) -> str:
    known = branch_ids()
    if value not in known:
        raise ValueError(f"expected one of {', '.join(known)} (etalons/branches.yaml), got {value!r}")
    return value


BranchId = Annotated[str, AfterValidator(_known_branch)]


class Source(BaseModel):
    """One expected source: a norm or a court decision, named by its citation string."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    citation: str = Field(
        min_length=1, description="One citation, e.g. 'ст. 1152 ГК РФ' or 'art. 1.272 C.civ.'"
    )
    priority: Priority
    condition: str | None = Field(
        default=None,
        validate_default=True,
        description="Required for conditional sources: when the source applies, in words",
    )
    points: list[str] = Field(
        default_factory=list,
        description="Court practice: the points (пункты, paragrafe) the answer must cite",
    )

    @field_validator("condition")
    @classmethod
    def _conditional_needs_condition(cls, value: str | None, info: ValidationInfo) -> str | None:
        if info.data.get("priority") == "conditional" and not value:
            raise ValueError("expected the condition, in words, for a conditional source")
        return value or None


class Etalon(BaseModel):
    """One gold answer. `code` is permanent; every field but `title` is part of the version."""

    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)

    code: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", description="Permanent code, e.g. NAS-01")
    title: str = Field(min_length=1, description="Changing only the title makes no new version")
    benchmark: str | None = Field(default=None, description="Optional; when given, must match the folder")
    jurisdiction: Literal["ru", "ro"]
    branch: BranchId
    difficulty: int = Field(ge=1, le=3)
    type: EtalonType
    methodology: Methodology | None = Field(default=None, description="Optional; else the benchmark's")
    question: str = Field(
        min_length=1, description="The case as a client puts it: all a system under test sees"
    )
    decisive_issue: str = Field(min_length=1)
    solution_fact: str | None = None
    branches: list[str] = Field(default_factory=list, description="What a complete answer must treat")
    reference_answer: str = Field(min_length=1, description="The conclusion, in 2-4 sentences")
    next_steps: str | None = Field(default=None, description="Deadline, where to go, which documents")
    sources: list[Source] = Field(default_factory=list)
    gross_errors: list[str] = Field(default_factory=list, description="Statements that zero an answer")
    author: str | None = Field(default=None, description="The lawyer who wrote it (approval rules)")
    authors: list[str] = Field(default_factory=list)
    notes: str | None = None

    def content(self) -> dict[str, object]:
        """Everything that defines the version: the whole etalon but its title (and the folder it sits in)."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        data.pop("title", None)
        data.pop("benchmark", None)
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
        for key in _NOT_FOR_JUDGE:
            data.pop(key, None)
        return _digest(data)


def _digest(data: object) -> str:
    raw = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]
