"""What a reader sees cited in a passage, in the two forms the shape tables of each round compare against."""

from __future__ import annotations

from citations import extract


def readings(text: str) -> list[tuple[str, str | None, str | None]]:
    """(kind, act or court, article or decision number) of every citation found."""
    return [(c.kind, c.court if c.kind == "decision" else c.act, c.number if c.kind == "decision" else c.article)
            for c in extract(text)]


def cited_things(text: str) -> list[tuple[str, str | None]]:
    """(kind, article number for an article, else the act key) of every citation found."""
    return [(c.kind, c.article if c.kind == "article" else c.act) for c in extract(text)]
