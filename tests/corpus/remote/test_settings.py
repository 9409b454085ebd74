"""A connector's entry in sources.yaml: checked key by key, an error naming the file, the key's line and the key
(the entry's line for a key that is missing or not allowed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from corpus.sources import SourcesFileError, entry_of, load_sources

GOOD = {
    "legislatie-just-ro": "years: [2023, 2024]\n    page_size: 20\n    search: {title: cod}",
    "pravo-gov-ru": "documents: [102033239, 102073578]\n    encoding: windows-1251",
    "publication-pravo-gov-ru": "since: 2026-11-01\n    blocks: [assembly, president]",
    "akn-frbr": "base_url: https://api.example.org/v3\n    works: [/akn/za/act/2009/1]\n    token_env: AKN_TOKEN",
}


def _file(tmp_path: Path, kind: str, body: str) -> Path:
    path = tmp_path / "sources.yaml"
    path.write_text(f"sources:\n  - name: remote\n    kind: {kind}\n    {body}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(GOOD))
def test_a_well_formed_entry_of_each_connector_loads_and_writes_back_the_same(tmp_path: Path, kind: str) -> None:
    (source,) = load_sources(_file(tmp_path, kind, GOOD[kind]))
    assert (source.kind, source.remote) == (kind, True)
    again = tmp_path / "again.yaml"
    import yaml

    again.write_text(yaml.safe_dump({"sources": [entry_of(source)]}), encoding="utf-8")
    assert load_sources(again)[0].options == source.options


BAD = [
    ("pravo-gov-ru", "documents: [102033239, abc]", 4, "documents[1]: expected document numbers"),
    ("pravo-gov-ru", "encoding: koi8\n    documents: [1]", 4, "encoding: expected one of auto, windows-1251, utf-8"),
    ("pravo-gov-ru", "documents: [1]\n    rate: fast", 5, "rate: expected a number"),
    ("pravo-gov-ru", "documents: [1]\n    base_url: ftp://x", 5, "base_url: expected an http(s) URL"),
    ("legislatie-just-ro", "page_size: 20", 2, "years: give 'years' or 'search'"),
    ("legislatie-just-ro", "years: [2024]\n    page_size: 500", 5, "page_size: expected a whole number from 1"),
    ("legislatie-just-ro", "search: {tip: LEGE}", 4, "search.tip: unknown filter"),
    ("publication-pravo-gov-ru", "blocks: [assembly]", 2, "since: required"),
    ("publication-pravo-gov-ru", "since: yesterday", 4, "since: expected a date"),
    ("publication-pravo-gov-ru", "since: 2026-11-01\n    text_url: http://x/t", 5, "text_url: expected a URL template"),
    ("akn-frbr", "works: [/akn/za/act/2009/1]", 2, "base_url: required"),
    ("akn-frbr", "base_url: http://x\n    works: [/akn/za/act/2009/1/eng@2012-04-26]", 5, "works[0]: expected work FRBR"),
    ("akn-frbr", "base_url: http://x\n    works: [/akn/za/act/2009/1]\n    token_env: abc-123 secret", 6,
     "token_env: expected the name of an environment variable"),
    ("pravo-gov-ru", "documents: [1]\n    password: x", 2, "unknown key 'password' for a source of kind pravo-gov-ru"),
]


@pytest.mark.parametrize(("kind", "body", "line", "message"), BAD, ids=[m for _, _, _, m in BAD])
def test_a_bad_setting_is_one_line_naming_the_file_the_line_and_the_key(tmp_path: Path, kind: str, body: str,
                                                                         line: int, message: str) -> None:
    path = _file(tmp_path, kind, body)
    with pytest.raises(SourcesFileError) as caught:
        load_sources(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:{line}: sources[0] (remote): ") and message in text and "\n" not in text
