"""Offsets index the text exactly as given: line endings, non-breaking spaces and tabs are never normalised
away before the spans are taken (CONTRACT section 2), and they change nothing about what is cited."""

from __future__ import annotations

import pytest

from citations import extract

RU = (
    "Ответ.\nНаследство принимают по ст. 1152 ГК РФ;\nсрок — п. 1 ст. 1154 ГК РФ.\n\n"
    "См. также ст. 1153 и 1155 того же кодекса,\nа также Закон о защите прав потребителей.\n"
)
RO = (
    "Răspuns.\nConform art. 1.272 alin. (2) din Codul civil\nși art. 5 din Legea nr. 85/2014;\n\n"
    "vezi și Decizia CCR nr. 1/2012 și art. 6–8 din aceeași lege.\n"
)


def _fields(text: str) -> list[tuple[str | None, ...]]:
    return [(c.kind, c.act, c.article, c.article_to, c.part, c.court, c.number) for c in extract(text)]


def _variants(text: str) -> dict[str, str]:
    return {
        "crlf": text.replace("\n", "\r\n"),
        "lone cr": text.replace("\n", "\r"),
        "nbsp": text.replace(" ", "\u00a0"),
        "tabs": text.replace(" ", "\t"),
        "line separator": text.replace("\n", "\u2028"),
    }


@pytest.mark.parametrize("base", [RU, RO], ids=["ru", "ro"])
@pytest.mark.parametrize("variant", ["crlf", "lone cr", "nbsp", "tabs", "line separator"])
def test_spacing_and_line_endings_change_no_citation(base: str, variant: str) -> None:
    assert _fields(_variants(base)[variant]) == _fields(base)


@pytest.mark.parametrize("base", [RU, RO], ids=["ru", "ro"])
@pytest.mark.parametrize("variant", ["crlf", "lone cr", "nbsp", "tabs", "line separator"])
def test_every_span_indexes_the_text_as_given(base: str, variant: str) -> None:
    text = _variants(base)[variant]
    found = extract(text)
    assert len(found) >= 4
    assert all(text[c.start : c.end] == c.text and c.text == c.text.strip() for c in found)


def test_a_crlf_file_gives_the_spans_of_its_lf_twin_shifted_by_one_per_line_before_them() -> None:
    crlf = RU.replace("\n", "\r\n")
    for lf_cite, crlf_cite in zip(extract(RU), extract(crlf), strict=True):
        assert crlf_cite.start == lf_cite.start + RU.count("\n", 0, lf_cite.start)
