"""The records the extractor and the resolver hand to the rest of Etalon.

Field names and their order are a public interface (docs/formats.md, "Citation records"): the CLI prints them as JSON Lines
and the warehouse stores them, so they are frozen dataclasses rather than free-form dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["article", "act", "decision"]
Jurisdiction = Literal["ru", "ro"]
Status = Literal["found", "not_found", "unknown_act", "ambiguous", "unverifiable"]

RECORD_KEYS: tuple[str, ...] = (
    "start",
    "end",
    "text",
    "kind",
    "jurisdiction",
    "act",
    "act_text",
    "article",
    "article_to",
    "part",
    "court",
    "number",
    "date",
    "year",
    "point",
)


@dataclass(frozen=True, slots=True)
class Citation:
    """One citation, with its span into the original text so a reviewer can highlight it."""

    start: int
    end: int
    text: str
    kind: Kind
    jurisdiction: Jurisdiction
    act: str | None = None
    act_text: str | None = None
    article: str | None = None
    article_to: str | None = None
    part: str | None = None
    court: str | None = None
    number: str | None = None
    date: str | None = None
    year: str | None = None
    point: str | None = None

    def to_record(self, status: str | None = None) -> dict[str, Any]:
        record: dict[str, Any] = {key: getattr(self, key) for key in RECORD_KEYS}
        if status is not None:
            record["status"] = status
        return record


_new = object.__new__
(_s_start, _s_end, _s_text, _s_kind, _s_jur, _s_act, _s_act_text, _s_article, _s_article_to, _s_part, _s_court,
 _s_number, _s_date, _s_year, _s_point) = (getattr(Citation, key).__set__ for key in RECORD_KEYS)  # fmt: skip


def new_citation(
    start: int,
    end: int,
    text: str,
    kind: Kind,
    jurisdiction: Jurisdiction,
    act: str | None = None,
    act_text: str | None = None,
    article: str | None = None,
    article_to: str | None = None,
    part: str | None = None,
    court: str | None = None,
    number: str | None = None,
    date: str | None = None,
    year: str | None = None,
    point: str | None = None,
) -> Citation:
    """A Citation built without the frozen dataclass __init__ (kwargs plus one guarded setattr per field).

    The extractor makes one per citation found, and the generated __init__ was a quarter of its Python time;
    setting the slots directly gives the same, equal, immutable object three times faster.
    """
    c: Citation = _new(Citation)
    _s_start(c, start)
    _s_end(c, end)
    _s_text(c, text)
    _s_kind(c, kind)
    _s_jur(c, jurisdiction)
    _s_act(c, act)
    _s_act_text(c, act_text)
    _s_article(c, article)
    _s_article_to(c, article_to)
    _s_part(c, part)
    _s_court(c, court)
    _s_number(c, number)
    _s_date(c, date)
    _s_year(c, year)
    _s_point(c, point)
    return c


@dataclass(frozen=True, slots=True)
class Resolution:
    """Where a citation lands in the corpus, and in words why, for `etalon sign` and `etalon corpus show`."""

    citation: Citation
    status: Status
    doc_id: str | None
    unit_path: str | None
    other_acts: tuple[str, ...]
    reason: str
